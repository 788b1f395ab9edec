//! What a `GraphicsDevice` tells about itself beyond XNA's API: submissions, tracked resources
//! and native objects, transient memory, pipelines built, capabilities and format support,
//! validation diagnostics, the last plan's cost, GPU timings and the null backend's probe. For
//! tools, benchmarks and tests; a game needs none of them.

use std::sync::atomic::Ordering;

use xnagraph_graph::null::NullProbe;
use xnagraph_graph::{
    Capabilities, Diagnostics, FormatSupport, GpuTimingSupport, PlanCost, SurfaceFormat,
};

use crate::device::gpu_timing::FrameGpuTiming;
use crate::device::GraphicsDevice;
use crate::error::Result;
use crate::event::lock;
#[cfg(doc)]
use crate::DeviceOptions;

impl GraphicsDevice {
    /// Frames (or partial frames) handed over to be submitted so far (not XNA; to the render
    /// thread, or to the backend without one).
    pub fn submission_count(&self) -> u64 {
        self.shared.submissions.load(Ordering::Relaxed)
    }

    /// Number of resources in the device's registry (not XNA).
    pub fn tracked_resource_count(&self) -> usize {
        self.shared.registry.len()
    }

    /// Native objects the backend holds right now, for leak checks (not XNA); `None` once
    /// disposed.
    pub fn live_native_objects(&self) -> Option<xnagraph_graph::LiveObjects> {
        self.shared.live_native_objects()
    }

    /// The memory the last submitted frame's transient images took (not XNA): the multisample
    /// and depth/stencil images whose content neither entered nor left the frame
    /// ([`DeviceOptions::transient_aliasing`]), what they take each in memory of its own, and
    /// the size of the heaps they share where the device shares them. `None` once disposed.
    /// Waits for the render thread to submit the frames handed over so far.
    pub fn transient_memory(&self) -> Option<xnagraph_graph::TransientMemory> {
        self.shared.drain();
        self.shared.transient_memory()
    }

    /// Pipelines the backend has built so far: when a draw's combination was first recorded
    /// (on request) or while lowering a frame. Not in XNA, which has no pipeline objects; the
    /// engine requests each combination when it is first recorded, so a frame's lowering
    /// normally builds none. `None` once disposed.
    pub fn pipeline_stats(&self) -> Option<xnagraph_graph::PipelineStats> {
        self.shared.pipeline_stats()
    }

    /// What the device can do (not XNA, which answers through exceptions): limits, supported
    /// multisample counts and optional features. Calls that need a missing one are
    /// `NotSupported`.
    pub fn capabilities(&self) -> &Capabilities {
        &self.shared.caps
    }

    /// What the device can do with one surface format (not XNA): sample it, render to it,
    /// blend into it, generate its mips.
    pub fn format_support(&self, format: SurfaceFormat) -> FormatSupport {
        self.shared.format_support(format)
    }

    /// This device's validation messages and live native object count (not XNA). The handle
    /// outlives the device, so a test can check that teardown freed everything; devices of
    /// parallel tests never see each other's records.
    pub fn diagnostics(&self) -> Diagnostics {
        self.shared.diagnostics.clone()
    }

    /// What the last compiled plan loads, stores and synchronizes (not XNA): its attachment bytes
    /// loaded and stored, nodes and barriers, under the device's
    /// [`DeviceOptions::compile_policy`]. `None` before the first flush. For benchmarks and
    /// tests that compare the compiler's policy with the frame-blind one. Waits for the render
    /// thread to compile the frames handed over so far.
    pub fn last_plan_cost(&self) -> Option<PlanCost> {
        self.shared.drain();
        *lock(&self.shared.last_plan_cost)
    }

    /// Whether this device times its frames on the GPU: [`GpuTimingSupport::Available`] when
    /// the backend writes timestamps (they are taken only with [`DeviceOptions::gpu_timing`]
    /// on), else `Unavailable` with the reason (SDL_gpu has none: measure frames fence to fence
    /// there). Not part of XNA.
    pub fn gpu_timing_support(&self) -> GpuTimingSupport {
        self.shared.gpu_timing.support.clone()
    }

    /// The GPU times of frames the GPU has finished since the last call, oldest first: per plan
    /// node begin and end, and the frame's GPU time (latest end minus earliest begin). Never
    /// waits for the GPU; a frame still executing is reported by a later call, once it has
    /// completed ([`GraphicsDevice::wait_idle`] makes sure every frame has). Empty unless
    /// [`DeviceOptions::gpu_timing`] is on and the backend has timestamps. Not part of XNA.
    /// A disposed device is `ObjectDisposed`.
    pub fn drain_gpu_timings(&self) -> Result<Vec<FrameGpuTiming>> {
        let timings = self.shared.with_backend(|backend| Ok(backend.drain_gpu_timings()))?;
        Ok(self.shared.gpu_timing.attribute(timings))
    }

    /// Not XNA: the test probe of a device created with
    /// [`BackendKind::Null`](crate::BackendKind::Null):
    /// counts of every backend call, and switches that make submissions fail or stay incomplete.
    /// `None` on a GPU.
    pub fn null_probe(&self) -> Option<NullProbe> {
        self.shared.null_probe.clone()
    }
}
