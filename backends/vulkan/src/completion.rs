//! Completion of submissions, observable without the backend.
//!
//! One timeline semaphore per device: submission `n` signals value `n` when all of its work has
//! completed. [`Timeline`] is the backend's [`SubmissionWaiter`]: the engine holds it apart from
//! the backend and waits on it with no lock held, so other threads keep creating resources while
//! a frame is awaited. Every wait is bounded by [`crate::VulkanConfig::timeout`]; a GPU that does
//! not finish in time is reported as a lost device rather than hanging the game. The per-slot
//! fences stay: the backend's own bookkeeping (slot reuse, readbacks) observes them, and after a
//! timeline wait their wait returns at once.
//!
//! The backend tears the timeline down only after the GPU is idle, under the write lock, so a
//! waiter never touches a destroyed device; a wait that starts afterwards finds every
//! submission complete.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::RwLock;
use std::time::Duration;

use ash::vk;
use xnagraph_graph::{BackendError, SubmissionId, SubmissionWaiter};

use crate::vk_error;

/// The device's submission timeline. See the module documentation.
pub(crate) struct Timeline {
    live: RwLock<Option<(ash::Device, vk::Semaphore)>>,
    /// The highest value any submission signals.
    submitted: AtomicU64,
    timeout: Duration,
}

impl Timeline {
    /// Creates the timeline semaphore at value 0.
    pub fn new(device: &ash::Device, timeout: Duration) -> Result<Timeline, BackendError> {
        let mut kind = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(0);
        let info = vk::SemaphoreCreateInfo::default().push_next(&mut kind);
        // SAFETY: a valid create info on a live device with timelineSemaphore enabled.
        let semaphore = unsafe { device.create_semaphore(&info, None) }
            .map_err(|e| vk_error("vkCreateSemaphore", e))?;
        Ok(Timeline {
            live: RwLock::new(Some((device.clone(), semaphore))),
            submitted: AtomicU64::new(0),
            timeout,
        })
    }

    /// The semaphore submissions signal (null after teardown).
    pub fn semaphore(&self) -> vk::Semaphore {
        let live = self.live.read().unwrap_or_else(|p| p.into_inner());
        live.as_ref().map_or(vk::Semaphore::null(), |(_, s)| *s)
    }

    /// Records that `id` was submitted with a signal of its value.
    pub fn submitted(&self, id: SubmissionId) {
        self.submitted.fetch_max(id.0, Ordering::Release);
    }

    /// The bound every wait of this backend observes, in the form vkWaitFor* takes.
    pub fn timeout_ns(&self) -> u64 {
        u64::try_from(self.timeout.as_nanos()).unwrap_or(u64::MAX)
    }

    /// A timed-out wait, as the lost device it stands for.
    pub fn timed_out(&self, what: &str) -> BackendError {
        BackendError::DeviceLost(format!("{what} did not complete within {:?}", self.timeout))
    }

    /// Whether `submission` (and every earlier one) has completed, without waiting. After
    /// teardown, or on a lost device, nothing executes any more: true.
    pub fn reached(&self, submission: SubmissionId) -> bool {
        let _call = xnagraph_graph::native_device::device_call();
        let live = self.live.read().unwrap_or_else(|p| p.into_inner());
        let Some((device, semaphore)) = live.as_ref() else {
            return true;
        };
        // SAFETY: the semaphore and device are live while the read lock is held.
        unsafe { device.get_semaphore_counter_value(*semaphore) }
            .map_or(true, |value| value >= submission.0)
    }

    /// Destroys the semaphore.
    ///
    /// # Safety
    /// The device must be idle, and destroyed only after this returns.
    pub unsafe fn destroy(&self) {
        let mut live = self.live.write().unwrap_or_else(|p| p.into_inner());
        if let Some((device, semaphore)) = live.take() {
            // SAFETY: the device is idle (caller's contract), so no submission signals it; the
            // write lock excludes every waiter.
            unsafe { device.destroy_semaphore(semaphore, None) };
        }
    }
}

impl SubmissionWaiter for Timeline {
    fn wait_for(&self, submission: SubmissionId) -> Result<(), BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        if submission.0 > self.submitted.load(Ordering::Acquire) {
            return Err(BackendError::Native(format!(
                "submission {} was never made",
                submission.0
            )));
        }
        let live = self.live.read().unwrap_or_else(|p| p.into_inner());
        let Some((device, semaphore)) = live.as_ref() else {
            // Torn down after the device went idle: everything submitted has completed.
            return Ok(());
        };
        let semaphores = [*semaphore];
        let values = [submission.0];
        let info = vk::SemaphoreWaitInfo::default().semaphores(&semaphores).values(&values);
        // SAFETY: the semaphore and device are live while the read lock is held (teardown takes
        // the write lock); waiting needs no external synchronization.
        match unsafe { device.wait_semaphores(&info, self.timeout_ns()) } {
            Ok(()) => Ok(()),
            Err(vk::Result::TIMEOUT) => {
                Err(self.timed_out(&format!("submission {}", submission.0)))
            }
            Err(e) => Err(vk_error("vkWaitSemaphores", e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::device::Gpu;
    use crate::VulkanConfig;

    /// A submission whose signal never comes is a lost device once the timeout has passed; the
    /// signal, once it comes, ends the wait; after teardown every wait is over.
    #[test]
    fn a_wait_past_the_timeout_is_a_lost_device() {
        let gpu = Gpu::new(&VulkanConfig::default(), None).expect("a Vulkan 1.3 adapter");
        let timeout = Duration::from_millis(100);
        let timeline = Timeline::new(&gpu.device, timeout).expect("timeline");
        // Announced but not signalled: as a submission the GPU never finishes.
        timeline.submitted(SubmissionId(1));
        let start = Instant::now();
        let waited = timeline.wait_for(SubmissionId(1));
        assert!(matches!(&waited, Err(BackendError::DeviceLost(m)) if m.contains("100ms")));
        assert!(start.elapsed() >= timeout, "gave up after {:?}", start.elapsed());
        assert!(matches!(timeline.wait_for(SubmissionId(2)), Err(BackendError::Native(_))));

        let signal = vk::SemaphoreSignalInfo::default().semaphore(timeline.semaphore()).value(1);
        // SAFETY: a host signal of a live timeline semaphore to a larger value.
        unsafe { gpu.device.signal_semaphore(&signal) }.expect("signal");
        assert_eq!(timeline.wait_for(SubmissionId(1)), Ok(()));
        // SAFETY: nothing was submitted; the device is idle and destroyed after the timeline.
        unsafe { timeline.destroy() };
        drop(gpu);
        assert_eq!(timeline.wait_for(SubmissionId(1)), Ok(()));
    }
}
