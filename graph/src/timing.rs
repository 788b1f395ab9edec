//! GPU time of submitted plans: what a backend with timestamp queries reports, per plan node.
//!
//! XNA has no GPU profiling; this is xnagraph's own. A backend asked to time its submissions
//! ([`crate::Backend::set_gpu_timing`]) writes a timestamp before and after each plan node's
//! work (its barriers included) and, once the submission has completed, converts them to the
//! CPU's clock and keeps a [`GpuFrameTiming`] for [`crate::Backend::drain_gpu_timings`]. Reading
//! them never waits for the GPU: a submission's report appears only after the backend has seen
//! it complete. Timing is off by default, so a game pays nothing for it.
//!
//! Times are nanoseconds on the *timing clock*: the CPU's monotonic clock, counted from
//! [`timing_origin`] (the first time anything in the process asked for it). `Instant`s taken by
//! the caller convert with [`instant_ns`], so CPU spans and GPU spans share one axis.

use std::sync::OnceLock;
use std::time::Instant;

use crate::backend::SubmissionId;

/// The instant the timing clock counts from: fixed the first time it is asked for.
pub fn timing_origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

/// `at` on the timing clock, in nanoseconds (0 for an instant before the origin).
pub fn instant_ns(at: Instant) -> u64 {
    at.saturating_duration_since(timing_origin()).as_nanos() as u64
}

/// Whether a backend times its submissions on the GPU (not XNA).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuTimingSupport {
    /// Timestamps are written around every plan node and reported.
    Available {
        /// GPU ticks are converted to the CPU clock through a calibration the device offers
        /// (VK_EXT_calibrated_timestamps); `false`: through an offset estimated once at a
        /// submission, good for durations, approximate for placement against CPU spans.
        calibrated: bool,
    },
    /// No GPU time: the reason. Callers measure frames fence to fence instead.
    Unavailable(String),
}

impl GpuTimingSupport {
    /// True for [`GpuTimingSupport::Available`].
    pub fn is_available(&self) -> bool {
        matches!(self, GpuTimingSupport::Available { .. })
    }
}

/// When one plan node ran on the GPU, on the timing clock; not XNA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuNodeTime {
    /// The node's index in its plan's `nodes`.
    pub node: usize,
    /// The timestamp written before the node's barriers.
    pub begin_ns: u64,
    /// The timestamp written once the node's work has completed.
    pub end_ns: u64,
}

impl GpuNodeTime {
    /// The node's GPU time, in nanoseconds.
    pub fn duration_ns(&self) -> u64 {
        self.end_ns.saturating_sub(self.begin_ns)
    }
}

/// The GPU time of one submission (one compiled plan); not XNA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuFrameTiming {
    /// The submission the plan went out in.
    pub submission: SubmissionId,
    /// One entry per plan node, in plan (submission) order.
    pub nodes: Vec<GpuNodeTime>,
}

impl GpuFrameTiming {
    /// The earliest begin of any node (0 for a plan without nodes).
    pub fn begin_ns(&self) -> u64 {
        self.nodes.iter().map(|n| n.begin_ns).min().unwrap_or(0)
    }

    /// The latest end of any node (0 for a plan without nodes).
    pub fn end_ns(&self) -> u64 {
        self.nodes.iter().map(|n| n.end_ns).max().unwrap_or(0)
    }

    /// The submission's GPU time: latest end minus earliest begin. Not a sum of the nodes: work
    /// of neighbouring nodes may overlap, and the gaps between them are part of the frame.
    pub fn frame_ns(&self) -> u64 {
        self.end_ns().saturating_sub(self.begin_ns())
    }
}

/// The GPU time spanned by several submissions (a frame of several flushes): latest end minus
/// earliest begin over all of them; `None` without any node.
pub fn span_ns<'a>(timings: impl IntoIterator<Item = &'a GpuFrameTiming>) -> Option<u64> {
    let mut bounds: Option<(u64, u64)> = None;
    for t in timings.into_iter().filter(|t| !t.nodes.is_empty()) {
        let (b, e) = (t.begin_ns(), t.end_ns());
        bounds = Some(bounds.map_or((b, e), |(lo, hi)| (lo.min(b), hi.max(e))));
    }
    bounds.map(|(lo, hi)| hi.saturating_sub(lo))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(node: usize, begin_ns: u64, end_ns: u64) -> GpuNodeTime {
        GpuNodeTime { node, begin_ns, end_ns }
    }

    #[test]
    fn frame_time_is_latest_end_minus_earliest_begin_not_a_sum() {
        // Two overlapping nodes and a gap: the sum of durations (60 + 50) is not the frame.
        let t = GpuFrameTiming {
            submission: SubmissionId(3),
            nodes: vec![node(0, 100, 160), node(1, 140, 190), node(2, 300, 310)],
        };
        assert_eq!(t.begin_ns(), 100);
        assert_eq!(t.end_ns(), 310);
        assert_eq!(t.frame_ns(), 210);
        let u = GpuFrameTiming { submission: SubmissionId(4), nodes: vec![node(0, 400, 450)] };
        let empty = GpuFrameTiming { submission: SubmissionId(5), nodes: vec![] };
        assert_eq!(span_ns([&t, &u, &empty]), Some(350));
        assert_eq!(span_ns([&empty]), None);
    }

    #[test]
    fn instants_map_onto_the_timing_clock_in_order() {
        let origin = timing_origin();
        let later = origin + std::time::Duration::from_micros(5);
        assert_eq!(instant_ns(later), 5_000);
        assert_eq!(instant_ns(origin), 0);
    }
}
