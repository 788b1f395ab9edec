//! Vulkan 1.3 lowering of xnagraph frame plans (ash + vk-mem), headless or presenting to a
//! window.
//!
//! [`VulkanBackend`] implements [`Backend`]: it creates textures eagerly, lowers each
//! [`FramePlan`] into one command buffer of a frame-ring slot (dynamic rendering,
//! synchronization2) and submits it with a fence, and frees native objects only once the
//! submission that last used them has completed. It decides no policy: load/store ops,
//! resolves, mip cascades and barriers are executed as the plan states them.
//!
//! # Modules
//!
//! They follow the plan's node kinds. The SDL_gpu backend has these under the same names, in the
//! same order:
//! - `config`: how the backend is created ([`VulkanConfig`]).
//! - `device`: adapter, device, capabilities; `instance` (shared instances), `validation`.
//! - `format`: the format table.
//! - `texture`: native textures.
//! - `buffer`: vertex and index buffers, and the plan's buffer uploads and readbacks.
//! - `pipeline`: pipelines and samplers (`states`, `cache_file`); `stock` and `custom` effects.
//! - `record`: one plan → one command buffer, each node handed to the module of its kind.
//! - `pass`: passes (rendering, clears, load/store); `sprites`, `geometry`, `queries`, `draw_sets`.
//! - `transfer`: uploads, readbacks, mip cascades and image clears.
//! - `capture`: the capture planes' transfers: `depth`, `samples`, `depth_samples`.
//! - `present`: a window's acquire, the present node's copy and presents; `swapchain`.
//! - `submit`: a plan recorded into a frame-ring slot and submitted.
//! - `completion`: what submissions' waiters wait on: the timeline semaphore, with a timeout.
//!
//! Only this backend has:
//! - `sync`: the access table and barrier lowering (SDL_gpu orders its own accesses).
//! - `frame`: the ring of frames in flight and its host buffers (SDL_gpu cycles its own).
//! - `retirement`: deferred release (SDL keeps a released object until the GPU is done with it).
//! - `pool`: dropped render targets' images, kept for reuse by a new target.
//! - `sprite_memory`: sprite arenas the GPU reads in place (SDL_gpu copies the sprites).
//! - `timestamps`: GPU time per plan node (SDL_gpu has no timestamp queries).
//! - `debug_names`: debug-utils names and labels; `hold`: a test switch that holds the GPU.
//!
//! Within the shared modules, SDL_gpu has no `device::instance`, `device::validation`,
//! `pipeline::states` or `pipeline::cache_file` (SDL creates its instance, reports its messages,
//! and translates states inside `pipeline`; it has no pipeline cache), no `pass::queries` (no
//! occlusion queries) and no `pass::draw_sets` (SDL binds per draw). Its `capture::depth_draws` is
//! another mechanism than `capture::depth_samples` (see `capture`), and its `present::platform`
//! holds its per-window-system code where this backend has `present::swapchain`.

#![warn(missing_docs)]

mod buffer;
mod capture;
mod completion;
mod config;
mod debug_names;
mod device;
mod format;
mod frame;
mod hold;
mod pass;
mod pipeline;
mod pool;
mod present;
mod record;
mod retirement;
mod sprite_memory;
mod submit;
mod sync;
mod texture;
mod timestamps;
mod transfer;
mod transient;

use std::collections::HashMap;
use std::sync::Arc;

use ash::vk;
use xnagraph_graph::retire::RetirementQueue;
use xnagraph_graph::{
    Backend, BackendError, Capabilities, DepthFormat, Diagnostics, FormatSupport, FramePlan,
    LiveObjects, NativeHandle, PresentStats, PresentTarget, ReadbackId, RetireSink, SubmissionId,
    SubmissionWaiter, SurfaceFormat, TextureDesc, TextureState,
};
use xnagraph_graph::{GpuFrameTiming, GpuTimingSupport};

use crate::completion::Timeline;
use crate::device::Gpu;
use crate::format::FormatTable;
use crate::frame::FrameSlot;
use crate::pipeline::Pipelines;
use crate::retirement::Retired;
use crate::texture::TextureTable;

pub use crate::config::{TextureIndexing, VulkanConfig};
pub use crate::device::adapters;
pub use crate::device::instance::{instances_created, loader_loads};
pub use crate::hold::GpuHold;
pub use crate::present::PresentPacing;
pub use crate::timestamps::MAX_READY_REPORTS;

/// Maps a Vulkan result onto the backend error kinds.
pub(crate) fn vk_error(what: &str, result: vk::Result) -> BackendError {
    let message = format!("{what}: {result}");
    match result {
        vk::Result::ERROR_OUT_OF_HOST_MEMORY
        | vk::Result::ERROR_OUT_OF_DEVICE_MEMORY
        | vk::Result::ERROR_OUT_OF_POOL_MEMORY => BackendError::OutOfMemory(message),
        vk::Result::ERROR_DEVICE_LOST => BackendError::DeviceLost(message),
        _ => BackendError::Native(message),
    }
}

/// The Vulkan backend. See the crate documentation.
pub struct VulkanBackend {
    /// Shared with the sprite arenas (see [`sprite_memory`]).
    gpu: Arc<Gpu>,
    caps: Capabilities,
    formats: FormatTable,
    pipelines: Pipelines,
    /// Occlusion queries' pools.
    queries: pass::queries::Queries,
    textures: TextureTable,
    buffers: buffer::BufferTable,
    pool: pool::TargetPool,
    images_allocated: u64,
    slots: Vec<FrameSlot>,
    next_slot: usize,
    sink: RetireSink,
    retired: RetirementQueue<Retired>,
    retired_textures: usize,
    /// Custom effects' stages and programs, and occlusion queries, retired and not yet freed.
    retired_effects_and_queries: usize,
    retired_buffers: usize,
    retired_geometry: usize,
    last_submitted: SubmissionId,
    completed: SubmissionId,
    readbacks: HashMap<ReadbackId, Vec<u8>>,
    timeline: Arc<Timeline>,
    poison_undefined: bool,
    /// The swapchain of a backend created for a window.
    presenter: Option<present::Presenter>,
    timer: timestamps::GpuTimer,
    /// The semaphore of a [`GpuHold`] every submission waits on.
    hold: Option<vk::Semaphore>,
    /// [`VulkanConfig::mapped_sprites`].
    mapped_sprites: bool,
    /// [`VulkanConfig::pipeline_cache`], written when the backend is dropped.
    pipeline_cache: Option<std::path::PathBuf>,
    /// Bytes of pipeline cache data the file gave the cache at creation (0: started empty).
    pipeline_cache_loaded: usize,
    /// [`VulkanConfig::transient_aliasing`].
    share_transients: bool,
    /// The heaps transient images share.
    transients: transient::TransientHeaps,
}

impl VulkanBackend {
    /// Loads Vulkan, picks the adapter and creates the device and the frame ring.
    pub fn new(config: VulkanConfig) -> Result<VulkanBackend, BackendError> {
        Self::create(config, None)
    }

    /// A backend that presents to `window`: the instance gets the display's surface
    /// extensions, the adapter must have a queue that can present to the window's surface, and
    /// the device gets VK_KHR_swapchain. The swapchain is created at the first frame, sized to
    /// the window. The backend keeps `window` alive until its surface is destroyed.
    pub fn for_window<W>(
        config: VulkanConfig,
        window: Arc<W>,
    ) -> Result<VulkanBackend, BackendError>
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
        let handles = device::WindowHandles {
            display: window.display_handle().map_err(unavailable)?.as_raw(),
            window: window.window_handle().map_err(unavailable)?.as_raw(),
        };
        Self::create(config, Some((handles, window)))
    }

    fn create(
        config: VulkanConfig,
        window: Option<(device::WindowHandles, Arc<dyn std::any::Any + Send + Sync>)>,
    ) -> Result<VulkanBackend, BackendError> {
        let gpu = Arc::new(Gpu::new(&config, window.as_ref().map(|(h, _)| *h))?);
        // What follows calls the new device. `_device_kept` outlives the call, so a failure
        // below that drops the backend never destroys the device inside the call (destroying
        // one takes the lifecycle turn, which waits for every device call to end).
        let _device_kept = gpu.clone();
        let _call = xnagraph_graph::native_device::device_call();
        let cache_data = config
            .pipeline_cache
            .as_deref()
            .and_then(|path| pipeline::cache_file::load(path, &gpu.cache_owner));
        let created = Timeline::new(&gpu.device, config.timeout).and_then(|t| {
            match Pipelines::new(&gpu, cache_data.as_deref()) {
                Ok(p) => Ok((Arc::new(t), p)),
                Err(e) => {
                    // SAFETY: nothing has used the semaphore.
                    unsafe { t.destroy() };
                    Err(e)
                }
            }
        });
        // On failure nothing else was created from the device: dropping it destroys it.
        let (timeline, pipelines) = created?;
        let formats = FormatTable::measure(&gpu.instance, gpu.physical);
        let caps = gpu.capabilities();
        let frames_in_flight = config.frames_in_flight.clamp(1, 16);
        let timer = timestamps::GpuTimer::new(&gpu, frames_in_flight as usize);
        let mut backend = VulkanBackend {
            gpu,
            caps,
            formats,
            pipelines,
            queries: pass::queries::Queries::default(),
            textures: TextureTable::default(),
            buffers: buffer::BufferTable::default(),
            pool: pool::TargetPool::new(u64::from(config.pool_keep_submissions)),
            images_allocated: 0,
            slots: Vec::new(),
            next_slot: 0,
            sink: RetireSink::default(),
            retired: RetirementQueue::default(),
            retired_textures: 0,
            retired_effects_and_queries: 0,
            retired_buffers: 0,
            retired_geometry: 0,
            last_submitted: SubmissionId(0),
            completed: SubmissionId(0),
            readbacks: HashMap::new(),
            timeline,
            poison_undefined: config.poison_undefined,
            presenter: None,
            timer,
            hold: None,
            mapped_sprites: config.mapped_sprites,
            pipeline_cache: config.pipeline_cache.clone(),
            pipeline_cache_loaded: cache_data.map_or(0, |d| d.len()),
            share_transients: config.transient_aliasing,
            transients: transient::TransientHeaps::default(),
        };
        backend.timer.set(&backend.gpu, config.gpu_timing);
        if let Some((_, window)) = window {
            backend.presenter = Some(present::Presenter::new(&backend.gpu, window));
        }
        for _ in 0..frames_in_flight {
            // On failure `backend` drops here and tears down what exists.
            backend.slots.push(FrameSlot::new(&backend.gpu)?);
        }
        Ok(backend)
    }

    /// Bytes of pipeline cache data read from [`VulkanConfig::pipeline_cache`] at creation and
    /// by [`Backend::use_pipeline_cache`]: 0 when the cache started empty (no file, or one of
    /// another device, driver or damaged).
    pub fn pipeline_cache_loaded(&self) -> usize {
        self.pipeline_cache_loaded
    }

    /// Graphics pipelines built so far (a diagnostic: state that is dynamic, such as XNA's
    /// `BlendFactor` and `ReferenceStencil`, never adds one).
    pub fn pipeline_count(&self) -> usize {
        self.pipelines.pipeline_count()
    }

    /// From now on, every submission waits until the returned hold is released (or dropped)
    /// before the GPU starts it: a test switch for proving that something never waits for an
    /// unfinished frame. Hold the GPU only for less than [`VulkanConfig::timeout`].
    pub fn hold_gpu(&mut self) -> Result<GpuHold, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        let (hold, semaphore) = GpuHold::new(&self.gpu.device)?;
        if let Some(old) = self.hold.replace(semaphore) {
            self.retire_semaphore(old);
        }
        Ok(hold)
    }

    /// Destroys a hold's semaphore once every submission is done with it.
    fn retire_semaphore(&mut self, semaphore: vk::Semaphore) {
        // SAFETY: the device is live; once it is idle nothing waits on the semaphore.
        unsafe {
            let _ = self.gpu.device.device_wait_idle();
            self.gpu.device.destroy_semaphore(semaphore, None);
        }
    }
}

impl Backend for VulkanBackend {
    /// The adapter's name and type, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) [cpu]`.
    fn adapter_name(&self) -> &str {
        &self.gpu.adapter_name
    }

    fn adapter_identity(&self) -> xnagraph_graph::AdapterIdentity {
        self.gpu.identity.clone()
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
        self.create_or_reuse(desc)
    }

    fn create_buffer(
        &mut self,
        desc: &xnagraph_graph::BufferDesc,
    ) -> Result<NativeHandle, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        self.buffers.create(&self.gpu, desc)
    }

    fn create_effect(
        &mut self,
        spirv: &[u32],
        _outputs: u32,
    ) -> Result<NativeHandle, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        self.pipelines.create_effect(&self.gpu, spirv)
    }

    fn create_geometry_effect(
        &mut self,
        vertex: &[u32],
        fragment: &[u32],
        resources: &xnagraph_graph::CustomResources,
    ) -> Result<NativeHandle, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        self.pipelines.create_geometry_effect(&self.gpu, vertex, fragment, resources)
    }

    fn create_query(&mut self) -> Result<NativeHandle, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        self.queries.create(&self.gpu)
    }

    fn query_result(&mut self, query: NativeHandle) -> Result<Option<u64>, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        self.queries.result(&self.gpu, query)
    }

    fn retire_sink(&self) -> RetireSink {
        self.sink.clone()
    }

    fn waiter(&self) -> Arc<dyn SubmissionWaiter> {
        self.timeline.clone()
    }

    /// The submission of the slot the next plan is recorded into, while it is in flight.
    fn submit_blocker(&self) -> Option<SubmissionId> {
        self.slots.get(self.next_slot).and_then(|slot| slot.in_flight)
    }

    fn sprite_memory(&self) -> Option<Arc<dyn xnagraph_graph::SpriteMemorySource>> {
        // A device that splits a draw of several textures into runs reads every sprite's slot
        // to find them, which mapped memory makes slow (uncached): it writes vectors.
        let drawn_at_once = self.gpu.texture_indexing.is_some();
        (self.mapped_sprites && drawn_at_once).then(|| {
            let source = sprite_memory::SpriteSource {
                gpu: self.gpu.clone(),
                timeline: self.timeline.clone(),
            };
            Arc::new(source) as Arc<dyn xnagraph_graph::SpriteMemorySource>
        })
    }

    fn submit(&mut self, plan: &FramePlan) -> Result<SubmissionId, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        let result = self.record_and_submit(plan);
        self.retire_dropped();
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
        for i in 0..self.slots.len() {
            if self.slots[i].in_flight.is_some_and(|s| s <= submission) {
                self.finish_slot(i)?;
            }
        }
        // Every earlier submission has completed too (fences signal in submission order).
        self.completed = self.completed.max(submission);
        self.retire_dropped();
        self.free_completed();
        Ok(())
    }

    fn take_readback(&mut self, id: ReadbackId) -> Option<Vec<u8>> {
        let _call = xnagraph_graph::native_device::device_call();
        if !self.readbacks.contains_key(&id) {
            // A read failure leaves the readback missing, which is what None says.
            self.finish_signalled_slots();
        }
        self.readbacks.remove(&id)
    }

    /// Every submission went through a slot of the ring, so finishing each slot (a fence wait
    /// bounded by the timeout, unlike vkDeviceWaitIdle) leaves the queue idle.
    fn wait_idle(&mut self) -> Result<(), BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        let mut result = Ok(());
        for i in 0..self.slots.len() {
            if let Err(e) = self.finish_slot(i) {
                result = Err(e);
            }
        }
        self.retire_dropped();
        if self.slots.iter().all(|slot| slot.in_flight.is_none()) {
            self.completed = self.last_submitted;
            self.free_completed();
            self.empty_pool();
            self.release_idle_buffers();
        }
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
            self.pipelines.prepare(&self.gpu, request, &formats)?;
        }
        Ok(())
    }

    fn pipeline_stats(&self) -> xnagraph_graph::PipelineStats {
        self.pipelines.stats
    }

    fn live_objects(&self) -> LiveObjects {
        let slot_buffers: usize = self.slots.iter().map(FrameSlot::buffer_count).sum();
        LiveObjects {
            swapchain_objects: self
                .presenter
                .as_ref()
                .map_or(0, |p| p.object_count() + usize::from(self.gpu.surface.is_some())),
            textures: self.textures.len(),
            images: self.textures.image_count(),
            buffers: slot_buffers + self.retired_buffers + self.buffers.storage_count(),
            effects: self.pipelines.effect_count() + self.queries.count(),
            pipelines: self.pipelines.pipeline_count(),
            awaiting_retirement: self.retired_textures
                + self.retired_effects_and_queries
                + self.retired_geometry,
            pooled_images: self.pool.image_count(),
            images_allocated: self.images_allocated,
        }
    }

    fn transient_memory(&self) -> xnagraph_graph::TransientMemory {
        self.transients.last()
    }

    fn diagnostics(&self) -> Diagnostics {
        (*self.gpu.diagnostics).clone()
    }

    fn present_target(
        &mut self,
        back_buffer: &TextureState,
    ) -> Result<PresentTarget, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        self.window_target(back_buffer)
    }

    fn set_present_immediate(&mut self, immediate: bool) {
        let _call = xnagraph_graph::native_device::device_call();
        let pacing = if immediate { PresentPacing::Immediate } else { PresentPacing::VerticalSync };
        self.set_pacing(pacing);
    }

    fn present_stats(&self) -> Option<PresentStats> {
        self.presenter.as_ref().map(present::Presenter::stats)
    }

    fn use_pipeline_cache(&mut self, path: &std::path::Path) -> Result<usize, BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        let loaded = match pipeline::cache_file::load(path, &self.gpu.cache_owner) {
            Some(data) => {
                self.pipelines.merge_cache(&self.gpu, &data)?;
                data.len()
            }
            None => 0,
        };
        self.pipeline_cache = Some(path.to_owned());
        self.pipeline_cache_loaded += loaded;
        Ok(loaded)
    }

    /// Timestamps around every plan node (see the `timestamps` module): unavailable when the
    /// queue writes none.
    fn set_gpu_timing(&mut self, on: bool) -> GpuTimingSupport {
        let _call = xnagraph_graph::native_device::device_call();
        self.timer.set(&self.gpu, on)
    }

    /// Checks the fences of submissions in flight without waiting, then hands over the reports
    /// of every submission found complete.
    fn drain_gpu_timings(&mut self) -> Vec<GpuFrameTiming> {
        let _call = xnagraph_graph::native_device::device_call();
        self.finish_signalled_slots();
        self.timer.drain()
    }

    /// Reports dropped, oldest first, because more than [`MAX_READY_REPORTS`] waited for a
    /// drain.
    fn dropped_gpu_timings(&self) -> u64 {
        self.timer.dropped()
    }
}

impl Drop for VulkanBackend {
    /// Waits for the GPU, then frees every native object — including those of texture states
    /// still alive elsewhere, whose later drop only pushes a handle into the sink.
    fn drop(&mut self) {
        let _call = xnagraph_graph::native_device::device_call();
        // SAFETY: the device is live. An error (device lost) leaves nothing to wait for.
        let _ = unsafe { self.gpu.device.device_wait_idle() };
        for object in self.retired.drain_all() {
            self.free(object);
        }
        for t in self.textures.drain().into_iter().chain(self.pool.drain()) {
            // SAFETY: the device is idle.
            unsafe { texture::destroy(&self.gpu, t) };
        }
        // SAFETY: the device is idle and the images bound to the heaps are gone.
        unsafe { self.transients.destroy(&self.gpu) };
        // SAFETY: the device is idle.
        unsafe { self.buffers.destroy_all(&self.gpu) };
        self.release_idle_buffers();
        for slot in std::mem::take(&mut self.slots) {
            // SAFETY: the device is idle.
            unsafe { slot.destroy(&self.gpu) };
        }
        if let Some(presenter) = self.presenter.as_mut() {
            // SAFETY: the device is idle; the surface goes with the instance below.
            unsafe { presenter.destroy(&self.gpu) };
        }
        // SAFETY: the device is idle; the timeline and pipelines, then the device's remaining
        // children, then the device, messenger and instance.
        unsafe {
            self.timer.destroy(&self.gpu);
            if let Some(semaphore) = self.hold.take() {
                self.gpu.device.destroy_semaphore(semaphore, None);
            }
            self.timeline.destroy();
            if let Some(path) = &self.pipeline_cache {
                match self.pipelines.cache_data(&self.gpu) {
                    Ok(data) => pipeline::cache_file::save(path, &data, &self.gpu.cache_owner),
                    Err(e) => {
                        tracing::warn!(path = %path.display(), "pipeline cache not saved: {e}")
                    }
                }
            }
            self.pipelines.destroy(&self.gpu);
            self.queries.destroy_all(&self.gpu);
        }
        // The device itself goes when `gpu` is dropped, by the backend or by the last sprite
        // arena that outlives it.
    }
}
