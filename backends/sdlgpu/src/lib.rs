//! SDL_gpu lowering of xnagraph frame plans, on SDL 3.4 built from source and linked
//! statically.
//!
//! [`SdlGpuBackend`] implements [`Backend`] over the same compiled plans as the Vulkan backend
//! and the same SPIR-V: textures are created eagerly, each plan is lowered into one SDL command
//! buffer (`record`) and submitted with a fence. SDL_gpu tracks resource states itself, so the
//! plan's barriers are the one part of it this backend leaves out; every load, store, resolve
//! and mip decision is the plan's.
//!
//! Lifetime: a dropped texture state's handle is queued, and its SDL textures are released
//! after the next successful command-buffer submission (no unsubmitted command can name it: a
//! plan holds every state it names), or at the next wait. SDL itself keeps the memory until
//! the GPU is done with it.
//!
//! SDL carries one fix, applied by this crate's build script to a copy of the `sdl3-src` crate's
//! source before SDL is compiled (sdl3-sys gives only the bindings): SDL 3.4's Vulkan memory
//! defragmenter (`VULKAN_INTERNAL_DefragmentMemory` in `src/gpu/vulkan/SDL_gpu_vulkan.c`, line
//! 11172 of SDL 3.4.18) copied every mip level of a 3D texture with the base level's depth, an
//! invalid copy past the end of each smaller level. It runs at a submission when an earlier
//! allocation found no free space and marked the memory blocks whose free space is split, one
//! block per submission (blocks that a submitted, unfinished command buffer still transfers to are
//! skipped). Textures never get memory of their own in SDL and no switch turns the defragmenter
//! off, so no choice made here keeps a mipmapped volume from being moved: the line is patched
//! (each level copies `max(1, depth >> level)` slices), and the build fails if the line is not
//! found, so the patch goes once SDL fixes it.
//!
//! What SDL_gpu lacks is refused, not imitated: it has no timestamp queries (timing on this
//! backend is fence to fence), no occlusion queries, no component swizzle (formats whose XNA
//! sampling needs one are refused, see `format`).
//!
//! Presentation: [`SdlGpuBackend::for_window`] wraps the game's own window (X11 or Wayland;
//! Win32 and AppKit in builds for Windows and macOS, see `present::platform`) in an SDL window,
//! claims it for the device and lowers the compiler's present mode: a plan drawn straight in
//! renders into the swapchain texture, a copied one is blitted into it, and SDL presents it when
//! the command buffer is submitted (see `present`).
//!
//! # Modules
//!
//! They follow the plan's node kinds. The Vulkan backend has these under the same names, in the
//! same order:
//! - `config`: how the backend is created ([`SdlGpuConfig`]).
//! - `device`: SDL's video subsystem, the device, its capabilities and messages.
//! - `format`: the format table.
//! - `texture`: native textures.
//! - `buffer`: vertex and index buffers, and the plan's buffer uploads and readbacks.
//! - `pipeline`: shaders, pipelines and samplers; `stock` and `custom` effects.
//! - `record`: one plan → one command buffer, each node handed to the module of its kind.
//! - `pass`: passes (render passes, clears, load/store); `sprites`, `geometry`.
//! - `transfer`: uploads, readbacks, mip cascades and image clears.
//! - `capture`: the capture planes' transfers: `depth`, `samples`, `depth_draws`.
//! - `present`: the wrapped window, its swapchain texture, the copy into it, pacing; `platform`.
//! - `submit`: the frame's buffers filled, the plan recorded and submitted.
//! - `completion`: what submissions' waiters wait on: the submissions' fences.
//!
//! Only the Vulkan backend has `sync`, its access table: SDL_gpu orders its own accesses, so the
//! plan's barriers are the one part of it this backend leaves out. It also has a frame ring
//! (`frame`), deferred release (`retirement`) and a pool of dropped targets' images (`pool`),
//! where SDL cycles its own buffers and keeps a released object until the GPU is done with it;
//! mapped sprite arenas (`sprite_memory`), where this backend copies the sprites into the frame's
//! vertex stream; GPU timestamps per plan node (`timestamps`), which SDL_gpu cannot take; and
//! `debug_names` and `hold`. Within the shared modules, this backend has no `device::instance`,
//! `device::validation`, `pipeline::states` or `pipeline::cache_file` (SDL creates its instance,
//! its messages are `device`'s, its state translation is inside `pipeline`, and it has no
//! pipeline cache), no `pass::queries` (no occlusion queries) and no `pass::draw_sets` (SDL binds
//! per draw). Its `capture::depth_draws` is another mechanism than Vulkan's
//! `capture::depth_samples` (see `capture`), and its `present::platform` holds all that differs
//! per window system, where the Vulkan backend has `present::swapchain`.

#![warn(missing_docs)]

/// The texture dimension every SDL_gpu driver guarantees (SDL_gpu reports no limits).
pub(crate) const MAX_TEXTURE_DIMENSION: u32 = 8192;

mod buffer;
mod capture;
mod completion;
mod config;
mod device;
mod format;
mod pass;
mod pipeline;
mod present;
mod record;
mod retire;
mod submit;
mod texture;
mod transfer;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use sdl3_sys::gpu::*;
use xnagraph_graph::compile::attachment_bytes;
use xnagraph_graph::{
    Backend, BackendError, Capabilities, DepthFormat, Diagnostics, FormatSupport, FramePlan,
    HandleKind, LiveObjects, NativeHandle, PresentStats, PresentTarget, ReadbackId, RetireSink,
    SubmissionId, SubmissionWaiter, SurfaceFormat, TextureDesc, TextureState,
};

use crate::buffer::BufferTable;
use crate::completion::{FenceTable, Fences, SharedDevice};
use crate::device::{Gpu, Video};
use crate::format::FormatTable;
use crate::pipeline::Pipelines;
use crate::record::PendingReadback;
use crate::texture::TextureTable;

pub use crate::config::SdlGpuConfig;
use crate::present::{NativeWindow, Presenter};

/// The SDL_gpu backend. See the crate documentation.
pub struct SdlGpuBackend {
    gpu: Gpu,
    adapter_name: String,
    caps: Capabilities,
    formats: FormatTable,
    pipelines: Pipelines,
    textures: TextureTable,
    buffers: BufferTable,
    next_handle: u64,
    sink: RetireSink,
    fences: Arc<Fences>,
    frames_in_flight: u32,
    last_submitted: SubmissionId,
    /// Readbacks of submissions in flight, by submission.
    pending_readbacks: Vec<(SubmissionId, PendingReadback)>,
    readbacks: HashMap<ReadbackId, Vec<u8>>,
    /// The frame's vertex stream (sprites, constant stream, geometry arena) and its size in
    /// bytes.
    vertices: Option<(*mut SDL_GPUBuffer, u32)>,
    /// The upload transfer buffer and its size in bytes.
    uploads: Option<(*mut SDL_GPUTransferBuffer, u32)>,
    poison_undefined: bool,
    /// The window presented to, for a device made with [`SdlGpuBackend::for_window`].
    presenter: Option<Presenter>,
    /// The last submitted frame's transient images: SDL_gpu places each texture in memory of
    /// its own, so nothing is shared.
    transient: xnagraph_graph::TransientMemory,
}

// SAFETY: every SDL object is used only by the thread that holds the backend (or, for
// fences, under their lock); SDL_gpu objects are not tied to the thread that made them.
unsafe impl Send for SdlGpuBackend {}

impl SdlGpuBackend {
    /// Initialises SDL's video subsystem (the offscreen driver unless `SDL_VIDEO_DRIVER` names
    /// another) and creates a SPIR-V GPU device on SDL's Vulkan driver.
    pub fn new(config: SdlGpuConfig) -> Result<SdlGpuBackend, BackendError> {
        Self::create(config, None)
    }

    /// A backend that presents to `window`, an X11 or Wayland window (a Win32 window on Windows, an
    /// AppKit view on macOS; winit 0.30's `Window` has the handles): SDL's video subsystem starts
    /// with that window's driver (`x11`, `wayland`, `windows` or `cocoa`; a process where SDL
    /// already runs another driver, such as a headless device's `offscreen`, is `NotSupported`),
    /// wraps the window without taking its input, and claims it for the GPU device. The backend
    /// keeps `window` alive until SDL has let it go.
    pub fn for_window<W>(
        config: SdlGpuConfig,
        window: Arc<W>,
    ) -> Result<SdlGpuBackend, BackendError>
    where
        W: raw_window_handle::HasWindowHandle
            + raw_window_handle::HasDisplayHandle
            + Send
            + Sync
            + 'static,
    {
        let unavailable = |e: raw_window_handle::HandleError| {
            BackendError::NotSupported(format!("the window has no native handle: {e}"))
        };
        let native = NativeWindow::from_handles(
            window.display_handle().map_err(unavailable)?.as_raw(),
            window.window_handle().map_err(unavailable)?.as_raw(),
        )?;
        Self::create(config, Some((native, window)))
    }

    fn create(
        config: SdlGpuConfig,
        window: Option<(NativeWindow, Arc<dyn std::any::Any + Send + Sync>)>,
    ) -> Result<SdlGpuBackend, BackendError> {
        let video = match &window {
            Some((native, _)) => {
                native.prepare();
                native.video()
            }
            None => Video::Headless,
        };
        let mut gpu = Gpu::new(config.debug_mode, video)?;
        let call = xnagraph_graph::native_device::device_call();
        let pipelines = match Pipelines::new(gpu.device) {
            Ok(p) => p,
            Err(e) => {
                drop(call);
                // SAFETY: nothing else was created from the device.
                unsafe { gpu.destroy() };
                return Err(e);
            }
        };
        // SAFETY: a live device.
        let formats = unsafe { FormatTable::measure(gpu.device) };
        let caps = Capabilities {
            // SDL_gpu reports no limits; these are the ones every SDL_gpu driver guarantees.
            max_texture_dimension: MAX_TEXTURE_DIMENSION,
            max_cube_dimension: 8192,
            max_volume_dimension: 2048,
            max_color_attachments: 4,
            sample_counts: formats.sample_counts,
            // SDL fills silently where line fill is missing: asked of the device at creation.
            wire_frame: gpu.line_fill,
            anisotropic_filtering: true,
            independent_blend: true,
            geometry: true,
            // SDL_gpu reads byte and short vertex elements only as integers.
            scaled_vertex_formats: false,
            // SDL 3.4 reserves `instance_step_rate` (it must be 0).
            instance_divisor: false,
            // Depth-only formats copy; formats with a stencil go through draws, which sample
            // the depth texture (see `capture::depth`).
            depth_readback: formats.depth_transfers(),
            // SDL_gpu cannot sample a multisampled texture: no sample planes are read back.
            sample_readback: false,
            // Restored through a per-sample draw: SDL's Vulkan driver requires
            // sampleRateShading of every device it accepts (see `capture::samples`).
            sample_restore: true,
        };
        let adapter_name = format!("SDL_gpu ({})", gpu.driver);
        let fences = Arc::new(Fences {
            table: Mutex::new(FenceTable {
                device: SharedDevice(gpu.device),
                pending: VecDeque::new(),
                completed: SubmissionId(0),
            }),
            timeout: config.timeout,
        });
        let mut backend = SdlGpuBackend {
            gpu,
            adapter_name,
            caps,
            formats,
            pipelines,
            textures: TextureTable::default(),
            buffers: BufferTable::default(),
            next_handle: 0,
            sink: RetireSink::default(),
            fences,
            frames_in_flight: config.frames_in_flight.max(1),
            last_submitted: SubmissionId(0),
            pending_readbacks: Vec::new(),
            readbacks: HashMap::new(),
            vertices: None,
            uploads: None,
            poison_undefined: config.poison_undefined,
            presenter: None,
            transient: Default::default(),
        };
        if let Some((native, keep)) = window {
            let device = backend.gpu.device;
            let presenter = Presenter::new(device, native, keep, &backend.gpu.diagnostics);
            drop(call);
            // On an error the backend drops and tears down the device, outside the call.
            backend.presenter = Some(presenter?);
        }
        Ok(backend)
    }

    /// Test support (a lost window): releases the window from the GPU device
    /// (`SDL_ReleaseWindowFromGPUDevice`) when `claimed` is false, so that the next present
    /// fails with SDL's error, or claims the same window again
    /// (`SDL_ClaimWindowForGPUDevice`). `NotSupported` for a device without a window.
    pub fn set_window_claimed(&mut self, claimed: bool) -> Result<(), BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        let Some(p) = self.presenter.as_mut() else {
            return Err(BackendError::NotSupported("the device has no window".into()));
        };
        p.set_claimed(self.gpu.device, &self.gpu.diagnostics, claimed)
    }

    /// Graphics pipelines built so far.
    pub fn pipeline_count(&self) -> usize {
        self.pipelines.pipeline_count()
    }

    fn next_handle(&mut self, kind: HandleKind) -> NativeHandle {
        self.next_handle += 1;
        NativeHandle::new(kind, self.next_handle)
    }
}

impl Backend for SdlGpuBackend {
    /// `SDL_gpu (vulkan)`: SDL's driver name.
    fn adapter_name(&self) -> &str {
        &self.adapter_name
    }

    /// The adapter SDL chose, by the name SDL reports; SDL 3.4 reports no vendor or device id
    /// and no uuid, so those are zero.
    fn adapter_identity(&self) -> xnagraph_graph::AdapterIdentity {
        xnagraph_graph::AdapterIdentity {
            description: self.gpu.adapter.clone(),
            vendor_id: 0,
            device_id: 0,
            uuid: [0; 16],
        }
    }

    fn capabilities(&self) -> &Capabilities {
        &self.caps
    }

    fn format_support(&self, format: SurfaceFormat) -> FormatSupport {
        self.formats.support(format)
    }

    fn applied_depth_format(&self, requested: DepthFormat) -> DepthFormat {
        self.formats.applied_depth(requested)
    }

    fn create_texture(&mut self, desc: &TextureDesc) -> Result<NativeHandle, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        let gpu = &self.gpu;
        let stage = gpu.resolve_ignores_layer;
        let t = texture::create(gpu.device, &self.formats, &gpu.diagnostics, desc, stage)?;
        let handle = self.next_handle(HandleKind::Texture);
        self.textures.insert(handle, t);
        Ok(handle)
    }

    /// One `SDL_GPUBuffer` usable as vertices and indices (see `buffer`); past 1 GiB, out of
    /// memory at once (SDL reports no limit of its own).
    fn create_buffer(
        &mut self,
        desc: &xnagraph_graph::buffer::BufferDesc,
    ) -> Result<NativeHandle, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        let handle = self.next_handle(HandleKind::Buffer);
        self.buffers.create(self.gpu.device, &self.gpu.diagnostics, handle, desc)?;
        Ok(handle)
    }

    fn create_effect(
        &mut self,
        spirv: &[u32],
        _outputs: u32,
    ) -> Result<NativeHandle, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        let handle = self.next_handle(HandleKind::Effect);
        self.pipelines.create_effect(self.gpu.device, handle, spirv)?;
        Ok(handle)
    }

    fn create_geometry_effect(
        &mut self,
        vertex: &[u32],
        fragment: &[u32],
        resources: &xnagraph_graph::CustomResources,
    ) -> Result<NativeHandle, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        let handle = self.next_handle(HandleKind::Effect);
        let device = self.gpu.device;
        self.pipelines.geometry.custom.create(device, handle, vertex, fragment, resources)?;
        Ok(handle)
    }

    fn retire_sink(&self) -> RetireSink {
        self.sink.clone()
    }

    fn waiter(&self) -> Arc<dyn SubmissionWaiter> {
        self.fences.clone()
    }

    /// The submission `frames_in_flight` before the next one, while it has not completed.
    fn submit_blocker(&self) -> Option<SubmissionId> {
        let next = self.last_submitted.0 + 1;
        let blocker = SubmissionId(next.checked_sub(u64::from(self.frames_in_flight))?);
        (blocker.0 > 0 && self.fences.completed() < blocker).then_some(blocker)
    }

    fn submit(&mut self, plan: &FramePlan) -> Result<SubmissionId, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        if let Some(blocker) = self.submit_blocker() {
            self.fences.wait_for(blocker)?;
        }
        let result = self.record_and_submit(plan);
        self.collect();
        if result.is_ok() {
            let images = &plan.transients.images;
            let bytes = images.iter().map(|t| attachment_bytes(&t.texture, t.image)).sum();
            let shared_bytes = 0;
            self.transient = xnagraph_graph::TransientMemory {
                images: images.len(),
                unaliased_bytes: bytes,
                shared_bytes,
            };
        }
        result
    }

    fn wait(&mut self, submission: SubmissionId) -> Result<(), BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        if submission > self.last_submitted {
            return Err(BackendError::Native(format!(
                "submission {} was never made",
                submission.0
            )));
        }
        self.fences.wait_for(submission)?;
        self.collect();
        // Nothing is recorded outside a submission: a handle dropped now is named by none.
        let dropped = self.sink.drain();
        self.release(dropped);
        Ok(())
    }

    fn take_readback(&mut self, id: ReadbackId) -> Option<Vec<u8>> {
        let _call = xnagraph_graph::native_device::device_call();
        if !self.readbacks.contains_key(&id) {
            self.collect();
        }
        self.readbacks.remove(&id)
    }

    fn wait_idle(&mut self) -> Result<(), BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        let result = self.fences.wait_for(self.last_submitted);
        self.collect();
        let dropped = self.sink.drain();
        self.release(dropped);
        result
    }

    fn prepare_pipelines(
        &mut self,
        requests: &[xnagraph_graph::PipelineRequest],
    ) -> Result<(), BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        self.pipelines.stats.requests += requests.len() as u64;
        for request in requests {
            let formats = pass::target_formats(&self.textures, &request.targets)?;
            self.pipelines.prepare(self.gpu.device, request, &formats)?;
        }
        Ok(())
    }

    fn pipeline_stats(&self) -> xnagraph_graph::PipelineStats {
        self.pipelines.stats
    }

    fn transient_memory(&self) -> xnagraph_graph::TransientMemory {
        self.transient
    }

    fn live_objects(&self) -> LiveObjects {
        LiveObjects {
            textures: self.textures.len(),
            images: self.textures.image_count(),
            buffers: usize::from(self.vertices.is_some())
                + usize::from(self.uploads.is_some())
                + self.pending_readbacks.len()
                + self.buffers.storage_count(),
            effects: self.pipelines.effect_count(),
            awaiting_retirement: 0,
            swapchain_objects: self.presenter.as_ref().map_or(0, Presenter::object_count),
            pipelines: self.pipelines.pipeline_count(),
            pooled_images: 0,
            images_allocated: 0,
        }
    }

    fn diagnostics(&self) -> Diagnostics {
        self.gpu.diagnostics.clone()
    }

    /// With a window: its size now (a change is handed to SDL's swapchain) and the swapchain's
    /// format; never `acquired` (see `present`).
    fn present_target(
        &mut self,
        back_buffer: &TextureState,
    ) -> Result<PresentTarget, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        let Some(p) = self.presenter.as_mut() else { return Ok(PresentTarget::Offscreen) };
        let format = self.textures.get(back_buffer.native()).map(|t| t.format).ok();
        Ok(p.present_target(back_buffer.desc(), format))
    }

    /// VSYNC, or IMMEDIATE (MAILBOX where the window lacks IMMEDIATE).
    fn set_present_immediate(&mut self, immediate: bool) {
        let _call = xnagraph_graph::native_device::device_call();
        if let Some(p) = self.presenter.as_mut() {
            p.set_pacing(self.gpu.device, immediate);
        }
    }

    fn check_present_pacing(&self, immediate: bool) -> Result<(), BackendError> {
        self.presenter.as_ref().map_or(Ok(()), |p| p.check_pacing(self.gpu.device, immediate))
    }

    fn present_stats(&self) -> Option<PresentStats> {
        self.presenter.as_ref().map(Presenter::stats)
    }

    fn set_window_claimed(&mut self, claimed: bool) -> Result<(), BackendError> {
        SdlGpuBackend::set_window_claimed(self, claimed)
    }
}
