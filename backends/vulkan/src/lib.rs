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
//! buffer), `frame` (the ring of frames in flight and its buffers), `retirement` (deferred
//! release) and `swapchain` (a window's surface, swapchain, acquire and present).

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
mod pass;
mod pipeline;
mod pool;
mod queries;
mod record;
mod retirement;
mod swapchain;
mod sync;
mod texture;
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

use crate::completion::Timeline;
use crate::device::Gpu;
use crate::format::FormatTable;
use crate::frame::{ensure_buffer, FrameSlot};
use crate::pipeline::Pipelines;
use crate::record::Recorder;
use crate::retirement::Retired;
use crate::texture::TextureTable;

pub use crate::swapchain::PresentPacing;

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
}

impl Default for VulkanConfig {
    fn default() -> Self {
        VulkanConfig {
            validation: false,
            frames_in_flight: 2,
            timeout: Duration::from_secs(10),
            poison_undefined: false,
            pool_keep_submissions: 60,
        }
    }
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
        };
        if let Some((_, window)) = window {
            backend.presenter = Some(swapchain::Presenter::new(&backend.gpu, window));
        }
        for _ in 0..config.frames_in_flight.clamp(1, 16) {
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
        record::measure(plan, self.uniform_stride())?;
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

    fn record_and_submit_in(
        &mut self,
        plan: &FramePlan,
        i: usize,
        presentation: &swapchain::FramePresentation,
    ) -> Result<SubmissionId, BackendError> {
        let uniform_stride = self.uniform_stride();
        let needs = record::measure(plan, uniform_stride)?;
        let mut outgrown = Vec::new();
        let slot = &mut self.slots[i];
        let wanted = [
            (
                &mut slot.vertices,
                needs.vertex_bytes,
                vk::BufferUsageFlags::VERTEX_BUFFER | vk::BufferUsageFlags::INDEX_BUFFER,
            ),
            (
                &mut slot.uniforms,
                uniform_stride * u64::from(needs.draws),
                vk::BufferUsageFlags::UNIFORM_BUFFER,
            ),
            (&mut slot.staging, needs.staging_bytes, vk::BufferUsageFlags::TRANSFER_SRC),
        ];
        let mut grown = Ok(());
        for (buffer, size, usage) in wanted {
            match ensure_buffer(&self.gpu, buffer, size, usage) {
                Ok(old) => outgrown.extend(old),
                Err(e) => {
                    grown = Err(e);
                    break;
                }
            }
        }
        let slot_last = slot.last;
        for old in outgrown {
            // The slot is idle, so this is freed at the next collection.
            self.retire_buffer(slot_last, old);
        }
        grown?;
        let slot = &mut self.slots[i];
        slot.prepare_descriptors(&self.gpu, needs.draws)?;
        let sprite_bytes: &[u8] = bytemuck::cast_slice(&plan.frame.sprites);
        let geometry_offset = geometry::defaults_offset(sprite_bytes.len() as u64);
        if let Some(v) = &slot.vertices {
            v.write(&self.gpu, 0, sprite_bytes)?;
            if needs.geometry {
                let defaults: &[u8] = bytemuck::cast_slice(&geometry::DEFAULT_ATTRIBUTES);
                v.write(&self.gpu, geometry_offset, defaults)?;
                let arena = geometry_offset + defaults.len() as u64;
                v.write(&self.gpu, arena, &plan.frame.geometry_bytes)?;
            }
        }

        let device = &self.gpu.device;
        let cmd = slot.cmd;
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: the slot is idle, so its pool's command buffer may be reset and re-recorded.
        unsafe {
            device
                .reset_command_pool(slot.pool, vk::CommandPoolResetFlags::empty())
                .and_then(|_| device.begin_command_buffer(cmd, &begin))
        }
        .map_err(|e| vk_error("vkBeginCommandBuffer", e))?;

        let id = SubmissionId(self.last_submitted.0 + 1);
        let mut rec = Recorder {
            gpu: &self.gpu,
            formats: &self.formats,
            textures: &self.textures,
            buffers: &mut self.buffers,
            submission: id,
            completed: self.completed,
            pipelines: &mut self.pipelines,
            queries: &self.queries,
            cmd,
            frame: &plan.frame,
            vertex_buffer: slot.vertices.as_ref().map(|b| b.buffer).unwrap_or_default(),
            geometry_offset,
            uniforms: slot.uniforms.as_ref(),
            uniform_stride,
            uniforms_used: 0,
            staging: slot.staging.as_ref(),
            staging_used: 0,
            descriptors: slot.descriptors,
            draw_sets: &mut slot.draw_sets,
            readbacks: Vec::new(),
            poison_undefined: self.poison_undefined,
            acquired_image: presentation.acquired_image,
            present_copy: presentation.copy_into,
        };
        let recorded = {
            let _span = tracing::debug_span!("lower", submission = id.0).entered();
            puffin::profile_scope!("lower");
            record::record(&mut rec, plan)
        };
        let readbacks = std::mem::take(&mut rec.readbacks);
        let submitted = recorded.and_then(|()| {
            let _span = tracing::debug_span!("queue_submit", submission = id.0).entered();
            puffin::profile_scope!("queue_submit");
            // SAFETY: `cmd` is recording; the fence is unsignalled after the reset and not in use
            // (the slot is idle).
            unsafe {
                device.end_command_buffer(cmd).map_err(|e| vk_error("vkEndCommandBuffer", e))?;
                device.reset_fences(&[slot.fence]).map_err(|e| vk_error("vkResetFences", e))?;
                let cmds = [vk::CommandBufferSubmitInfo::default().command_buffer(cmd)];
                let mut signals = vec![vk::SemaphoreSubmitInfo::default()
                    .semaphore(self.timeline.semaphore())
                    .value(id.0)
                    .stage_mask(sync::SUBMISSION_COMPLETE)];
                signals.extend(presentation.signal.map(|s| {
                    vk::SemaphoreSubmitInfo::default()
                        .semaphore(s)
                        .stage_mask(sync::RENDER_FINISHED)
                }));
                let waits: Vec<_> = presentation
                    .wait
                    .map(|s| {
                        vk::SemaphoreSubmitInfo::default()
                            .semaphore(s)
                            .stage_mask(sync::ACQUIRE_WAIT)
                    })
                    .into_iter()
                    .collect();
                let submit = vk::SubmitInfo2::default()
                    .command_buffer_infos(&cmds)
                    .wait_semaphore_infos(&waits)
                    .signal_semaphore_infos(&signals);
                device
                    .queue_submit2(self.gpu.queue, &[submit], slot.fence)
                    .map_err(|e| vk_error("vkQueueSubmit2", e))
            }
        });
        if let Err(e) = submitted {
            for pending in readbacks {
                // SAFETY: never submitted.
                unsafe { pending.buffer.destroy(&self.gpu) };
            }
            return Err(e);
        }
        self.timeline.submitted(id);
        let slot = &mut self.slots[i];
        slot.in_flight = Some(id);
        slot.last = id;
        slot.readbacks = readbacks;
        self.last_submitted = id;
        self.next_slot = (i + 1) % self.slots.len();
        self.mark_uses(plan, id);
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
            for i in 0..self.slots.len() {
                let fence = self.slots[i].fence;
                // SAFETY: a status query on a live fence.
                let done = unsafe { self.gpu.device.get_fence_status(fence) }.unwrap_or(false);
                if done && self.slots[i].in_flight.is_some() {
                    // A read failure leaves the readback missing, which is what None says.
                    let _ = self.finish_slot(i);
                }
            }
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
            self.timeline.destroy();
            self.pipelines.destroy(&self.gpu);
            self.queries.destroy_all(&self.gpu);
            self.gpu.destroy();
        }
    }
}
