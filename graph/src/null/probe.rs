//! The null backend's observable side: the calls it counts, the completion timeline its waits
//! follow, and the [`NullProbe`] a test holds to observe and steer it.

use std::collections::BTreeMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

#[cfg(doc)]
use super::NullBackend;
#[cfg(doc)]
use crate::backend::Backend;
use crate::backend::{BackendError, SubmissionId, SubmissionWaiter};

/// Every method of [`Backend`], for counting calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BackendCall {
    /// [`Backend::adapter_name`].
    AdapterName,
    /// [`Backend::capabilities`].
    Capabilities,
    /// [`Backend::format_support`].
    FormatSupport,
    /// [`Backend::applied_depth_format`].
    AppliedDepthFormat,
    /// [`Backend::create_texture`].
    CreateTexture,
    /// [`Backend::create_effect`].
    CreateEffect,
    /// [`Backend::create_buffer`].
    CreateBuffer,
    /// [`Backend::retire_sink`].
    RetireSink,
    /// [`Backend::waiter`].
    Waiter,
    /// [`Backend::submit_blocker`].
    SubmitBlocker,
    /// [`Backend::submit`].
    Submit,
    /// [`Backend::wait`].
    Wait,
    /// [`Backend::take_readback`].
    TakeReadback,
    /// [`Backend::wait_idle`].
    WaitIdle,
    /// [`Backend::live_objects`].
    LiveObjects,
}

/// The null GPU's progress: what was submitted, what has completed.
#[derive(Debug, Default)]
pub(super) struct Progress {
    pub(super) submitted: u64,
    pub(super) completed: u64,
    /// Submissions stay incomplete while set.
    pub(super) held: bool,
    /// Threads blocked in a wait right now.
    pub(super) waiting: usize,
}

/// The completion side, shared by the backend, its waiter and the probe.
#[derive(Debug)]
pub(super) struct Timeline {
    pub(super) progress: Mutex<Progress>,
    pub(super) changed: Condvar,
    pub(super) timeout: Duration,
}

impl Timeline {
    pub(super) fn progress(&self) -> MutexGuard<'_, Progress> {
        self.progress.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(super) fn submitted(&self, id: SubmissionId) {
        let mut p = self.progress();
        p.submitted = id.0;
        if !p.held {
            p.completed = id.0;
        }
        self.changed.notify_all();
    }

    pub(super) fn completed(&self) -> SubmissionId {
        SubmissionId(self.progress().completed)
    }
}

impl SubmissionWaiter for Timeline {
    fn wait_for(&self, submission: SubmissionId) -> Result<(), BackendError> {
        let deadline = Instant::now() + self.timeout;
        let mut p = self.progress();
        if submission.0 > p.submitted {
            return Err(BackendError::Native(format!(
                "submission {} was never made",
                submission.0
            )));
        }
        p.waiting += 1;
        while p.completed < submission.0 {
            let now = Instant::now();
            if now >= deadline {
                p.waiting -= 1;
                return Err(BackendError::DeviceLost(format!(
                    "submission {} did not complete within {:?}",
                    submission.0, self.timeout
                )));
            }
            p = self.changed.wait_timeout(p, deadline - now).unwrap_or_else(|e| e.into_inner()).0;
        }
        p.waiting -= 1;
        Ok(())
    }
}

#[derive(Debug)]
pub(super) struct ProbeState {
    pub(super) calls: Mutex<BTreeMap<BackendCall, u64>>,
    pub(super) fail_next_submit: Mutex<Option<BackendError>>,
    pub(super) mismatches: Mutex<Vec<String>>,
    pub(super) timeline: Arc<Timeline>,
}

pub(super) fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The test's side of a [`NullBackend`]. Cloning shares it.
#[derive(Clone, Debug)]
pub struct NullProbe(pub(super) Arc<ProbeState>);

impl NullProbe {
    /// Calls made so far, by kind (kinds never called are absent).
    pub fn calls(&self) -> BTreeMap<BackendCall, u64> {
        locked(&self.0.calls).clone()
    }

    /// Calls of one kind made so far.
    pub fn count(&self, call: BackendCall) -> u64 {
        locked(&self.0.calls).get(&call).copied().unwrap_or(0)
    }

    /// Makes the next `submit` fail with `error` without executing anything.
    pub fn fail_next_submit(&self, error: BackendError) {
        *locked(&self.0.fail_next_submit) = Some(error);
    }

    /// From now on, submissions do not complete until [`NullProbe::release_completion`].
    pub fn hold_completion(&self) {
        self.0.timeline.progress().held = true;
    }

    /// Completes every submission made so far, and later ones as they are made.
    pub fn release_completion(&self) {
        let timeline = &self.0.timeline;
        let mut p = timeline.progress();
        p.held = false;
        p.completed = p.submitted;
        timeline.changed.notify_all();
    }

    /// Completes every submission made so far; while completion is held, later ones stay
    /// incomplete (a GPU that finished some of its work).
    pub fn complete_submitted(&self) {
        let timeline = &self.0.timeline;
        let mut p = timeline.progress();
        p.completed = p.submitted;
        timeline.changed.notify_all();
    }

    /// Threads blocked in a wait for a submission right now.
    pub fn waiting(&self) -> usize {
        self.0.timeline.progress().waiting
    }

    /// Barriers whose source access differed from the state their subresource was really in,
    /// one line each, taken out.
    pub fn take_mismatches(&self) -> Vec<String> {
        std::mem::take(&mut *locked(&self.0.mismatches))
    }

    pub(super) fn called(&self, call: BackendCall) {
        *locked(&self.0.calls).entry(call).or_insert(0) += 1;
    }
}
