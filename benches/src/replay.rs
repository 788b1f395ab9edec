//! A plain replay: a capture replayed K times on a backend, for callers that want the frames'
//! figures and the final frame without the profiler's options (see [`crate::profile`]).

use xnagraph_graph::capture::Capture;
use xnagraph_graph::compile::CompilePolicy;
use xnagraph_graph::{Backend, BackendError};

pub use crate::profile::{percentile, FrameFigures};
use crate::profile::{profile, ProfileOptions};

/// A finished replay: per-frame figures and the back buffer's last content.
#[derive(Debug)]
pub struct ReplayRun {
    /// Every frame of every pass, in order.
    pub frames: Vec<FrameFigures>,
    /// The back buffer after the last frame, tightly packed.
    pub final_back_buffer: Vec<u8>,
}

/// Replays `capture` `repeat` times on `backend` (each pass from a fresh snapshot upload),
/// without GPU timestamps and without the profiler's per-plan work (a plain replay:
/// [`ProfileOptions::plain`]), calling `progress` after every frame.
pub fn replay(
    backend: &mut dyn Backend,
    capture: &Capture,
    repeat: u32,
    policy: Option<CompilePolicy>,
    progress: impl FnMut(),
) -> Result<ReplayRun, BackendError> {
    let options = ProfileOptions { repeat, policy, plain: true, ..ProfileOptions::default() };
    let run = profile(backend, capture, &options, progress)?;
    Ok(ReplayRun { frames: run.frames, final_back_buffer: run.final_back_buffer })
}
