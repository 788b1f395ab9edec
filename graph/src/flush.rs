//! One flush: a recorded frame compiled and submitted, the same way for the engine and for a
//! capture's replay.
//!
//! In: a frame's [`FrameCommands`], the compile policy, and a [`FlushBackend`] (how the caller
//! reaches its backend). Out: [`Flushed`], the submission or the failure, the recorded frame given
//! back (for its lists to be recycled or captured) and the CPU time of each step. The steps, in
//! order: the backend is asked where the frame is presented (the plan's present target), the frame
//! is compiled, [`FlushBackend::compiled`] sees the plan (the engine prints and costs it, a replay
//! checks it against what its snapshot lacks), the submission the frames-in-flight bound names is
//! waited for, and the plan is submitted. It decides one thing: the tracked texture state the plan
//! leaves is committed only once the backend accepted the plan; a failure at any step executed
//! nothing, and the next frame's barriers start from the state the GPU really reached.
//!
//! Compiling is a `tracing` span `compile_frame` and waiting and submitting a span `submit` (both
//! DEBUG, carrying the frame number), with `puffin` scopes of the same names.

use std::time::{Duration, Instant};

use crate::backend::SubmissionId;
use crate::commands::FrameCommands;
use crate::compile::{compile_for_submission_with, CompilePolicy};
use crate::plan::FramePlan;
use crate::present::PresentTarget;

/// How one flush reaches its backend. The engine holds its backend behind a lock and waits
/// without it; a replay owns its backend.
pub trait FlushBackend {
    /// A failure of any step.
    type Error;

    /// Where the frame is presented ([`crate::Backend::present_target`] of the back buffer).
    fn present_target(&mut self) -> Result<PresentTarget, Self::Error>;

    /// Sees the compiled plan before anything waits or submits; an error stops the flush there
    /// (nothing submitted, nothing committed).
    fn compiled(&mut self, _plan: &FramePlan) -> Result<(), Self::Error> {
        Ok(())
    }

    /// [`crate::Backend::submit_blocker`]: the submission the frames-in-flight bound needs
    /// completed before the next submission, if it is not known complete yet.
    fn submit_blocker(&mut self) -> Result<Option<SubmissionId>, Self::Error>;

    /// Blocks until `submission` has completed ([`crate::SubmissionWaiter::wait_for`]).
    fn wait_for(&mut self, submission: SubmissionId) -> Result<(), Self::Error>;

    /// [`crate::Backend::submit`].
    fn submit(&mut self, plan: &FramePlan) -> Result<SubmissionId, Self::Error>;
}

/// CPU time of the steps of one flush.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlushTimes {
    /// The compiler.
    pub compile: Duration,
    /// Waiting for the submission the frames-in-flight bound needs completed.
    pub wait: Duration,
    /// The backend's lowering and queue submission.
    pub submit: Duration,
}

/// What one flush did.
pub struct Flushed<E> {
    /// The submission, or the failure of the step that stopped the flush.
    pub submitted: Result<SubmissionId, E>,
    /// The frame as it was recorded (the compile adds only how it is presented), given back
    /// once nothing reads it any more.
    pub frame: FrameCommands,
    /// Whether the frame was compiled: false when asking for the present target failed.
    pub compiled: bool,
    /// CPU time of each step.
    pub times: FlushTimes,
}

/// Flushes `commands` through `backend`, compiled under `policy`; `frame` is the number the
/// spans carry. See the module doc for the steps.
pub fn flush<B: FlushBackend + ?Sized>(
    backend: &mut B,
    mut commands: FrameCommands,
    policy: CompilePolicy,
    frame: u64,
) -> Flushed<B::Error> {
    let mut times = FlushTimes::default();
    commands.present_target = match backend.present_target() {
        Ok(target) => target,
        Err(e) => return Flushed { submitted: Err(e), frame: commands, compiled: false, times },
    };
    let start = Instant::now();
    let (mut plan, tracking) = {
        let _span = tracing::debug_span!("compile_frame", frame).entered();
        compile_for_submission_with(commands, policy)
    };
    times.compile = start.elapsed();
    let submitted = backend.compiled(&plan).and_then(|()| {
        let _span = tracing::debug_span!("submit", frame).entered();
        crate::profile_scope!("submit");
        let start = Instant::now();
        if let Some(blocker) = backend.submit_blocker()? {
            backend.wait_for(blocker)?;
        }
        times.wait = start.elapsed();
        let start = Instant::now();
        let submission = backend.submit(&plan);
        times.submit = start.elapsed();
        submission
    });
    if submitted.is_ok() {
        tracking.commit();
    } else {
        // Nothing of the plan executed: the textures keep the state the GPU really has.
        drop(tracking);
    }
    let frame = std::mem::take(&mut plan.frame);
    Flushed { submitted, frame, compiled: true, times }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::backend::BackendError;
    use crate::compile::testkit::*;
    use crate::plan::{Access, Image};
    use crate::resource::TextureState;

    /// A backend that fails the step named by `fail` and notes the steps asked.
    struct Failing {
        fail: Option<&'static str>,
        steps: Vec<&'static str>,
    }

    impl Failing {
        fn step(&mut self, step: &'static str) -> Result<(), BackendError> {
            self.steps.push(step);
            match self.fail {
                Some(f) if f == step => Err(BackendError::Native(step.into())),
                _ => Ok(()),
            }
        }
    }

    impl FlushBackend for Failing {
        type Error = BackendError;
        fn present_target(&mut self) -> Result<PresentTarget, BackendError> {
            self.step("present_target").map(|()| PresentTarget::Offscreen)
        }
        fn compiled(&mut self, _plan: &FramePlan) -> Result<(), BackendError> {
            self.step("compiled")
        }
        fn submit_blocker(&mut self) -> Result<Option<SubmissionId>, BackendError> {
            self.step("submit_blocker").map(|()| Some(SubmissionId(1)))
        }
        fn wait_for(&mut self, _submission: SubmissionId) -> Result<(), BackendError> {
            self.step("wait_for")
        }
        fn submit(&mut self, _plan: &FramePlan) -> Result<SubmissionId, BackendError> {
            self.step("submit").map(|()| SubmissionId(2))
        }
    }

    fn access(texture: &Arc<TextureState>) -> Option<Access> {
        let tracked = texture.tracked.lock().unwrap();
        tracked.get(Image::Color, 0, 0).map(|s| s.access)
    }

    #[test]
    fn tracked_state_is_committed_only_when_the_submission_succeeds() {
        let steps = ["present_target", "compiled", "submit_blocker", "wait_for", "submit"];
        for fail in steps.iter().copied().map(Some).chain([None]) {
            let target = target(4, 4, 0, PRESERVE);
            let before = access(&target);
            let mut backend = Failing { fail, steps: Vec::new() };
            let frame = frame(vec![bind(&target, vec![clear_color(RED)])]);
            let recorded = frame.nodes.len();
            let flushed = super::flush(&mut backend, frame, CompilePolicy::Graph, 1);
            assert_eq!(flushed.submitted.is_ok(), fail.is_none(), "{fail:?}");
            assert_eq!(flushed.compiled, fail != Some("present_target"), "{fail:?}");
            assert_eq!(flushed.frame.nodes.len(), recorded, "the frame comes back: {fail:?}");
            let last = backend.steps.last().copied();
            assert_eq!(last, Some(fail.unwrap_or("submit")), "every step up to {fail:?} ran");
            assert_eq!(access(&target) != before, fail.is_none(), "committed after {fail:?}");
        }
    }
}
