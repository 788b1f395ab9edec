//! A backend wrapper that watches the plans going through it: the profiler sees every
//! submitted plan (described per node, and as DOT when asked) without the replay path
//! changing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use xnagraph_graph::compile::to_dot;
use xnagraph_graph::{
    Backend, BackendError, BufferDesc, Capabilities, DepthFormat, Diagnostics, FormatSupport,
    FramePlan, GpuFrameTiming, GpuTimingSupport, LiveObjects, NativeHandle, PresentStats,
    PresentTarget, ReadbackId, RetireSink, SubmissionId, SubmissionWaiter, SurfaceFormat,
    TextureDesc, TextureState,
};

use super::nodes::{describe, NodeInfo};

/// One submitted plan, as the profiler keeps it.
#[derive(Clone, Debug)]
pub struct SubmittedPlan {
    /// The submission it went out in.
    pub submission: SubmissionId,
    /// Its nodes, in plan order.
    pub nodes: Vec<NodeInfo>,
    /// The plan as DOT, when the observer was asked for it at the time.
    pub dot: Option<String>,
}

/// `inner`, with every submitted plan recorded into `plans`.
pub struct Observed<'a> {
    inner: &'a mut dyn Backend,
    /// The plans submitted so far, in order.
    pub plans: Vec<SubmittedPlan>,
    /// Keep the DOT of the plans submitted while this is set.
    pub want_dot: bool,
    /// Describe each plan's nodes (on by default; off, a plan keeps its submission only).
    pub describe: bool,
    /// CPU time spent so far describing plans (and writing their DOT): the observer's own
    /// work, inside the `submit` call a replayer times, which the profile takes out of the
    /// submission's time.
    pub spent: Duration,
}

impl<'a> Observed<'a> {
    /// Watches `inner`.
    pub fn new(inner: &'a mut dyn Backend) -> Observed<'a> {
        Observed {
            inner,
            plans: Vec::new(),
            want_dot: false,
            describe: true,
            spent: Duration::ZERO,
        }
    }
}

impl Backend for Observed<'_> {
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
        resources: &xnagraph_graph::CustomResources,
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
    /// Submits the plan, then describes it, adding the time that takes to [`Self::spent`].
    fn submit(&mut self, plan: &FramePlan) -> Result<SubmissionId, BackendError> {
        let submission = self.inner.submit(plan)?;
        let start = Instant::now();
        let dot = self.want_dot.then(|| to_dot(plan));
        let nodes = if self.describe { describe(plan) } else { Vec::new() };
        self.plans.push(SubmittedPlan { submission, nodes, dot });
        self.spent += start.elapsed();
        Ok(submission)
    }
    fn wait(&mut self, submission: SubmissionId) -> Result<(), BackendError> {
        self.inner.wait(submission)
    }
    fn take_readback(&mut self, id: ReadbackId) -> Option<Vec<u8>> {
        self.inner.take_readback(id)
    }
    fn wait_idle(&mut self) -> Result<(), BackendError> {
        self.inner.wait_idle()
    }
    fn live_objects(&self) -> LiveObjects {
        self.inner.live_objects()
    }
    fn prepare_pipelines(
        &mut self,
        requests: &[xnagraph_graph::PipelineRequest],
    ) -> Result<(), BackendError> {
        self.inner.prepare_pipelines(requests)
    }
    fn pipeline_stats(&self) -> xnagraph_graph::PipelineStats {
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
        self.inner.drain_gpu_timings()
    }
}
