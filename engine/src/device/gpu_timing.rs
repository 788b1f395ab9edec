//! GPU time of the device's frames, when [`crate::DeviceOptions::gpu_timing`] asks for it.
//!
//! The backend times every plan node of a submission (see [`xnagraph_graph::timing`]); this
//! module remembers which frame (flush number) each timed submission carried, so that
//! [`crate::GraphicsDevice::drain_gpu_timings`] hands out reports per frame. XNA has no such
//! facility; it exists for profilers and benchmarks.

use std::collections::VecDeque;
use std::sync::Mutex;

use xnagraph_graph::{GpuFrameTiming, GpuTimingSupport, SubmissionId};

use crate::event::lock;

/// The GPU time of one flush's plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameGpuTiming {
    /// The flush number the frame carried (this device's flush count, as in the `flush` and
    /// `render_frame` tracing spans).
    pub frame: u64,
    /// Per plan node begin and end on the timing clock; `frame_ns()` is the frame's GPU time.
    pub timing: GpuFrameTiming,
}

/// Which frame each timed submission carried, until its report is drained.
pub(crate) struct GpuTimingLog {
    pub support: GpuTimingSupport,
    on: bool,
    frames: Mutex<VecDeque<(SubmissionId, u64)>>,
}

/// Submissions remembered at most: a caller that never drains keeps a bounded log.
const REMEMBERED: usize = 4096;

impl GpuTimingLog {
    pub fn new(support: GpuTimingSupport, on: bool) -> GpuTimingLog {
        let on = on && support.is_available();
        GpuTimingLog { support, on, frames: Mutex::new(VecDeque::new()) }
    }

    /// Notes that flush `frame` went out as `submission`.
    pub fn submitted(&self, submission: SubmissionId, frame: u64) {
        if !self.on {
            return;
        }
        let mut frames = lock(&self.frames);
        if frames.len() == REMEMBERED {
            frames.pop_front();
        }
        frames.push_back((submission, frame));
    }

    /// The backend's reports with their frame numbers (a report whose submission carried no
    /// frame, such as a readback's own, is left out).
    pub fn attribute(&self, timings: Vec<GpuFrameTiming>) -> Vec<FrameGpuTiming> {
        let mut frames = lock(&self.frames);
        let mut out = Vec::with_capacity(timings.len());
        for timing in timings {
            while frames.front().is_some_and(|&(s, _)| s < timing.submission) {
                frames.pop_front();
            }
            if let Some(&(s, frame)) = frames.front() {
                if s == timing.submission {
                    frames.pop_front();
                    out.push(FrameGpuTiming { frame, timing });
                }
            }
        }
        out
    }
}
