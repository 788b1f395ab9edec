//! Vulkan 1.3 lowering of xnagraph frame plans (ash + vk-mem), headless or presenting to a
//! window.
//!
//! [`VulkanBackend`] implements [`Backend`]: it creates textures eagerly, lowers each
//! [`FramePlan`] into one command buffer of a frame-ring slot (dynamic rendering,
//! synchronization2) and submits it with a fence, and frees native objects only once the
//! submission that last used them has completed. It decides no policy: load/store ops,
//! resolves, mip cascades and barriers are executed as the plan states them.
//!
//! Modules follow the plan's node kinds: `device` (instance, adapter, validation), `completion`
//! (the timeline semaphore engine threads wait on, with a timeout), `format`
//! (the format table), `sync` (the access table and barrier lowering), `texture` (native
//! textures), `pass` (rendering and draws) with `pipeline` (pipelines and samplers), `transfer`
//! (uploads, readbacks, mips, the copy into a swapchain image), `record` (one plan → one command
//! buffer), `submit` (a plan recorded into a frame-ring slot and submitted), `frame` (the ring
//! of frames in flight and its buffers), `retirement` (deferred release), `swapchain` (a
//! window's surface, swapchain, acquire and present) and `timestamps` (GPU time per plan node).

#![warn(missing_docs)]

mod buffer;
mod completion;
mod custom;
mod debug_names;
mod device;
mod draw_sets;
mod format;
mod frame;
mod geometry;
mod hold;
mod pass;
mod pipeline;
mod pool;
mod queries;
mod record;
mod retirement;
mod stock_effects;
mod submit;
mod swapchain;
mod sync;
mod texture;
mod timestamps;
mod transfer;
mod validation;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

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

pub use crate::hold::GpuHold;
pub use crate::swapchain::PresentPacing;
pub use crate::timestamps::MAX_READY_REPORTS;

/// How the backend is created.
#[derive(Clone, Debug)]
pub struct VulkanConfig {
    /// Enable Khronos' validation layer with synchronization validation and collect its warnings
    /// and errors into this device's [`Diagnostics`]. `XNAGRAPH_VALIDATION=1` enables it as
    /// well.
    pub validation: bool,
    /// Submissions that may be executing at once (at least 1; default 2).
    pub frames_in_flight: u32,
    /// The longest any wait for the GPU may take (default 10 s); a submission that has not
    /// completed by then is reported as [`BackendError::DeviceLost`].
    pub timeout: Duration,
    /// A debug switch for tests: every attachment the plan loads with DONT_CARE starts as the
    /// poison value, and every attachment it stores with DONT_CARE is overwritten with it after
    /// the pass (magenta colour, depth 0, stencil 0). Drivers that honour neither op (lavapipe)
    /// then show a wrong load or store decision in pixels.
    pub poison_undefined: bool,
    /// Submissions a dropped render target's native objects stay pooled for reuse by a new
    /// target of the same description before they are destroyed (default 60).
    pub pool_keep_submissions: u32,
    /// How a sprite draw of several textures (`xnagraph_graph::DrawTextures`) is drawn (default
    /// [`TextureIndexing::Auto`]); the pixels are the same either way.
    pub texture_indexing: TextureIndexing,
    /// Time every plan node on the GPU from the first submission (see
    /// [`Backend::set_gpu_timing`]; off by default).
    pub gpu_timing: bool,
}

impl Default for VulkanConfig {
    fn default() -> Self {
        VulkanConfig {
            validation: false,
            frames_in_flight: 2,
            timeout: Duration::from_secs(10),
            poison_undefined: false,
            pool_keep_submissions: 60,
            texture_indexing: TextureIndexing::Auto,
            gpu_timing: false,
        }
    }
}

/// How a sprite draw of several textures becomes native draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TextureIndexing {
    /// One native draw when the device has `shaderSampledImageArrayNonUniformIndexing` (each
    /// sprite indexes the array of its draw's textures), else one per run of sprites that
    /// sample one texture.
    #[default]
    Auto,
    /// One native draw per run of sprites that sample one texture, on any device.
    Runs,
    /// One native draw on any device, through a fragment stage that picks the sprite's texture
    /// with a switch of constant indices. Costly where divergent branches are (a CPU
    /// rasteriser runs every case); for tests of the one-draw path on devices without
    /// non-uniform indexing.
    Branches,
}

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
    gpu: Gpu,
    caps: Capabilities,
    formats: FormatTable,
    pipelines: Pipelines,
    /// Occlusion queries' pools.
    queries: queries::Queries,
    textures: TextureTable,
    buffers: buffer::BufferTable,
    pool: pool::TargetPool,
    images_allocated: u64,
    slots: Vec<FrameSlot>,
    next_slot: usize,
    sink: RetireSink,
    retired: RetirementQueue<Retired>,
    retired_textures: usize,
    retired_effects: usize,
    retired_buffers: usize,
    retired_geometry: usize,
    last_submitted: SubmissionId,
    completed: SubmissionId,
    readbacks: HashMap<ReadbackId, Vec<u8>>,
    timeline: Arc<Timeline>,
    poison_undefined: bool,
    /// The swapchain of a backend created for a window.
    presenter: Option<swapchain::Presenter>,
    timer: timestamps::GpuTimer,
    /// The semaphore of a [`GpuHold`] every submission waits on.
    hold: Option<vk::Semaphore>,
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
        let mut gpu = Gpu::new(&config, window.as_ref().map(|(h, _)| *h))?;
        let created =
            Timeline::new(&gpu.device, config.timeout).and_then(|t| match Pipelines::new(&gpu) {
                Ok(p) => Ok((Arc::new(t), p)),
                Err(e) => {
                    // SAFETY: nothing has used the semaphore.
                    unsafe { t.destroy() };
                    Err(e)
                }
            });
        let (timeline, pipelines) = match created {
            Ok(c) => c,
            Err(e) => {
                // SAFETY: nothing else was created from the device.
                unsafe { gpu.destroy() };
                return Err(e);
            }
        };
        let formats = FormatTable::measure(&gpu.instance, gpu.physical);
        let caps = gpu.capabilities();
        let frames_in_flight = config.frames_in_flight.clamp(1, 16);
        let timer = timestamps::GpuTimer::new(&gpu, frames_in_flight as usize);
        let mut backend = VulkanBackend {
            gpu,
            caps,
            formats,
            pipelines,
            queries: queries::Queries::default(),
            textures: TextureTable::default(),
            buffers: buffer::BufferTable::default(),
            pool: pool::TargetPool::new(u64::from(config.pool_keep_submissions)),
            images_allocated: 0,
            slots: Vec::new(),
            next_slot: 0,
            sink: RetireSink::default(),
            retired: RetirementQueue::default(),
            retired_textures: 0,
            retired_effects: 0,
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
        };
        backend.timer.set(&backend.gpu, config.gpu_timing);
        if let Some((_, window)) = window {
            backend.presenter = Some(swapchain::Presenter::new(&backend.gpu, window));
        }
        for _ in 0..frames_in_flight {
            // On failure `backend` drops here and tears down what exists.
            backend.slots.push(FrameSlot::new(&backend.gpu)?);
        }
        Ok(backend)
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

    /// Finishes, without waiting, every slot whose fence has signalled.
    fn finish_signalled_slots(&mut self) {
        for i in 0..self.slots.len() {
            let fence = self.slots[i].fence;
            // SAFETY: a status query on a live fence.
            let done = unsafe { self.gpu.device.get_fence_status(fence) }.unwrap_or(false);
            if done && self.slots[i].in_flight.is_some() {
                // A failure here resurfaces at the next wait on the slot.
                let _ = self.finish_slot(i);
            }
        }
    }

    /// Waits for slot `i`'s submission (if any) and takes out its readbacks.
    fn finish_slot(&mut self, i: usize) -> Result<(), BackendError> {
        let slot = &mut self.slots[i];
        let Some(id) = slot.in_flight else {
            return Ok(());
        };
        // SAFETY: the fence belongs to this device and was submitted with `id`.
        match unsafe {
            self.gpu.device.wait_for_fences(&[slot.fence], true, self.timeline.timeout_ns())
        } {
            Ok(()) => {}
            Err(vk::Result::TIMEOUT) => {
                return Err(self.timeline.timed_out(&format!("submission {}", id.0)))
            }
            Err(e) => return Err(vk_error("vkWaitForFences", e)),
        }
        slot.in_flight = None;
        self.completed = self.completed.max(id);
        self.timer.collect(&self.gpu, i);
        let mut result = Ok(());
        for pending in slot.readbacks.drain(..) {
            match pending.buffer.read(&self.gpu, pending.len) {
                Ok(mut bytes) => {
                    if pending.swap_red_blue {
                        bytes.chunks_exact_mut(4).for_each(|texel| texel.swap(0, 2));
                    }
                    self.readbacks.insert(pending.id, bytes);
                }
                Err(e) => result = Err(e),
            }
            // SAFETY: the fence has signalled; the copy into this buffer is complete.
            unsafe { pending.buffer.destroy(&self.gpu) };
        }
        result
    }

    /// Frees the ring's buffers (the device must be idle).
    fn release_idle_buffers(&mut self) {
        let mut idle = Vec::new();
        for slot in &mut self.slots {
            idle.extend(
                [slot.vertices.take(), slot.uniforms.take(), slot.staging.take()]
                    .into_iter()
                    .flatten(),
            );
        }
        for buffer in idle {
            // SAFETY: the device is idle (caller's contract).
            unsafe { buffer.destroy(&self.gpu) };
        }
    }

    /// Bytes between two draws' uniform blocks: room for the largest stock block (the geometry
    /// effect's; a sprite's transform is 64), a multiple of minUniformBufferOffsetAlignment.
    fn uniform_stride(&self) -> u64 {
        let align = self.gpu.limits.min_uniform_buffer_offset_alignment.max(1);
        geometry::UNIFORM_BYTES.next_multiple_of(align)
    }

    fn record_and_submit(&mut self, plan: &FramePlan) -> Result<SubmissionId, BackendError> {
        record::measure(plan, self.gpu.texture_indexing.is_some(), self.uniform_stride())?;
        let i = self.next_slot;
        self.finish_slot(i)?;
        self.free_completed();
        let presentation = self.begin_presentation(plan)?;
        let result = self.record_and_submit_in(plan, i, &presentation);
        self.end_recording(&presentation);
        let id = result?;
        if let Err(e) = self.finish_presentation(&presentation, id) {
            // The frame's work was submitted: only showing it failed. The swapchain is rebuilt
            // at the next frame, where a lasting failure (a lost surface) is reported.
            tracing::error!(error = %e, "present failed");
            if let Some(p) = self.presenter.as_mut() {
                p.mark_stale();
            }
        }
        Ok(id)
    }
}

impl Backend for VulkanBackend {
    /// The adapter's name and type, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) [cpu]`.
    fn adapter_name(&self) -> &str {
        &self.gpu.adapter_name
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
        self.create_or_reuse(desc)
    }

    fn create_buffer(
        &mut self,
        desc: &xnagraph_graph::BufferDesc,
    ) -> Result<NativeHandle, BackendError> {
        self.buffers.create(&self.gpu, desc)
    }

    fn create_effect(
        &mut self,
        spirv: &[u32],
        _outputs: u32,
    ) -> Result<NativeHandle, BackendError> {
        self.pipelines.create_effect(&self.gpu, spirv)
    }

    fn create_geometry_effect(
        &mut self,
        vertex: &[u32],
        fragment: &[u32],
        resources: &xnagraph_graph::CustomResources,
    ) -> Result<NativeHandle, BackendError> {
        self.pipelines.create_geometry_effect(&self.gpu, vertex, fragment, resources)
    }

    fn create_query(&mut self) -> Result<NativeHandle, BackendError> {
        self.queries.create(&self.gpu)
    }

    fn query_result(&mut self, query: NativeHandle) -> Result<Option<u64>, BackendError> {
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

    fn submit(&mut self, plan: &FramePlan) -> Result<SubmissionId, BackendError> {
        let result = self.record_and_submit(plan);
        self.retire_dropped();
        result
    }

    fn wait(&mut self, submission: SubmissionId) -> Result<(), BackendError> {
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
        if !self.readbacks.contains_key(&id) {
            // A read failure leaves the readback missing, which is what None says.
            self.finish_signalled_slots();
        }
        self.readbacks.remove(&id)
    }

    /// Every submission went through a slot of the ring, so finishing each slot (a fence wait
    /// bounded by the timeout, unlike vkDeviceWaitIdle) leaves the queue idle.
    fn wait_idle(&mut self) -> Result<(), BackendError> {
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
                + self.retired_effects
                + self.retired_geometry,
            pooled_images: self.pool.image_count(),
            images_allocated: self.images_allocated,
        }
    }

    fn diagnostics(&self) -> Diagnostics {
        (*self.gpu.diagnostics).clone()
    }

    fn present_target(
        &mut self,
        back_buffer: &TextureState,
    ) -> Result<PresentTarget, BackendError> {
        self.window_target(back_buffer)
    }

    fn set_present_immediate(&mut self, immediate: bool) {
        let pacing = if immediate { PresentPacing::Immediate } else { PresentPacing::VerticalSync };
        self.set_pacing(pacing);
    }

    fn present_stats(&self) -> Option<PresentStats> {
        self.presenter.as_ref().map(swapchain::Presenter::stats)
    }

    /// Timestamps around every plan node (see the `timestamps` module): unavailable when the
    /// queue writes none.
    fn set_gpu_timing(&mut self, on: bool) -> GpuTimingSupport {
        self.timer.set(&self.gpu, on)
    }

    /// Checks the fences of submissions in flight without waiting, then hands over the reports
    /// of every submission found complete.
    fn drain_gpu_timings(&mut self) -> Vec<GpuFrameTiming> {
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
        // SAFETY: the device is live. An error (device lost) leaves nothing to wait for.
        let _ = unsafe { self.gpu.device.device_wait_idle() };
        for object in self.retired.drain_all() {
            self.free(object);
        }
        for t in self.textures.drain().into_iter().chain(self.pool.drain()) {
            // SAFETY: the device is idle.
            unsafe { texture::destroy(&self.gpu, t) };
        }
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
            self.pipelines.destroy(&self.gpu);
            self.queries.destroy_all(&self.gpu);
            self.gpu.destroy();
        }
    }
}
