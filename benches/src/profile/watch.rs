//! A backend that forwards every call to another one and tells a [`Watcher`] about the calls a
//! profiler or a test wants to see: one place that lists the [`Backend`] methods, so a
//! wrapper adds only what it watches.

use std::sync::Arc;
use std::time::{Duration, Instant};

use xnagraph_graph::{
    Backend, BackendError, BufferDesc, Capabilities, CustomResources, DepthFormat, Diagnostics,
    FormatSupport, FramePlan, GpuFrameTiming, GpuTimingSupport, LiveObjects, NativeHandle,
    PipelineRequest, PipelineStats, PresentStats, PresentTarget, ReadbackId, RetireSink,
    SubmissionId, SubmissionWaiter, SurfaceFormat, TextureDesc, TextureState,
};

/// What a [`Watched`] backend reports; every method does nothing unless overridden.
pub trait Watcher: Send {
    /// A texture was created.
    fn texture_created(&mut self) {}
    /// `plan` went out as `submission`; the wrapped backend's `submit` took `took`. Runs inside
    /// the `submit` call, after the wrapped backend's.
    fn submitted(&mut self, plan: &FramePlan, submission: SubmissionId, took: Duration) {
        let _ = (plan, submission, took);
    }
    /// The GPU was waited idle.
    fn waited_idle(&mut self) {}
    /// GPU timings were drained.
    fn timings_drained(&mut self) {}
}

/// `inner`, every call forwarded, with `watcher` told of the ones it watches.
pub struct Watched<'a, W> {
    inner: &'a mut dyn Backend,
    /// What watches the calls.
    pub watcher: W,
}

impl<'a, W: Watcher> Watched<'a, W> {
    /// `inner`, watched by `watcher`.
    pub fn new(inner: &'a mut dyn Backend, watcher: W) -> Self {
        Watched { inner, watcher }
    }
}

impl<W: Watcher> Backend for Watched<'_, W> {
    fn adapter_name(&self) -> &str {
        self.inner.adapter_name()
    }
    fn capabilities(&self) -> &Capabilities {
        self.inner.capabilities()
    }
    fn format_support(&self, format: SurfaceFormat) -> FormatSupport {
        self.inner.format_support(format)
    }
    fn applied_depth_format(&self, requested: DepthFormat) -> DepthFormat {
        self.inner.applied_depth_format(requested)
    }
    fn create_texture(&mut self, desc: &TextureDesc) -> Result<NativeHandle, BackendError> {
        self.watcher.texture_created();
        self.inner.create_texture(desc)
    }
    fn create_buffer(&mut self, desc: &BufferDesc) -> Result<NativeHandle, BackendError> {
        self.inner.create_buffer(desc)
    }
    fn create_effect(&mut self, spirv: &[u32], outputs: u32) -> Result<NativeHandle, BackendError> {
        self.inner.create_effect(spirv, outputs)
    }
    fn create_geometry_effect(
        &mut self,
        vertex: &[u32],
        fragment: &[u32],
        resources: &CustomResources,
    ) -> Result<NativeHandle, BackendError> {
        self.inner.create_geometry_effect(vertex, fragment, resources)
    }
    fn create_query(&mut self) -> Result<NativeHandle, BackendError> {
        self.inner.create_query()
    }
    fn query_result(&mut self, query: NativeHandle) -> Result<Option<u64>, BackendError> {
        self.inner.query_result(query)
    }
    fn retire_sink(&self) -> RetireSink {
        self.inner.retire_sink()
    }
    fn waiter(&self) -> Arc<dyn SubmissionWaiter> {
        self.inner.waiter()
    }
    fn submit_blocker(&self) -> Option<SubmissionId> {
        self.inner.submit_blocker()
    }
    fn submit(&mut self, plan: &FramePlan) -> Result<SubmissionId, BackendError> {
        let start = Instant::now();
        let submission = self.inner.submit(plan)?;
        self.watcher.submitted(plan, submission, start.elapsed());
        Ok(submission)
    }
    fn wait(&mut self, submission: SubmissionId) -> Result<(), BackendError> {
        self.inner.wait(submission)
    }
    fn take_readback(&mut self, id: ReadbackId) -> Option<Vec<u8>> {
        self.inner.take_readback(id)
    }
    fn wait_idle(&mut self) -> Result<(), BackendError> {
        self.watcher.waited_idle();
        self.inner.wait_idle()
    }
    fn live_objects(&self) -> LiveObjects {
        self.inner.live_objects()
    }
    fn prepare_pipelines(&mut self, requests: &[PipelineRequest]) -> Result<(), BackendError> {
        self.inner.prepare_pipelines(requests)
    }
    fn pipeline_stats(&self) -> PipelineStats {
        self.inner.pipeline_stats()
    }
    fn diagnostics(&self) -> Diagnostics {
        self.inner.diagnostics()
    }
    fn present_target(
        &mut self,
        back_buffer: &TextureState,
    ) -> Result<PresentTarget, BackendError> {
        self.inner.present_target(back_buffer)
    }
    fn set_present_immediate(&mut self, immediate: bool) {
        self.inner.set_present_immediate(immediate)
    }
    fn present_stats(&self) -> Option<PresentStats> {
        self.inner.present_stats()
    }
    fn set_gpu_timing(&mut self, on: bool) -> GpuTimingSupport {
        self.inner.set_gpu_timing(on)
    }
    fn drain_gpu_timings(&mut self) -> Vec<GpuFrameTiming> {
        self.watcher.timings_drained();
        self.inner.drain_gpu_timings()
    }
}
