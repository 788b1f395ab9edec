//! Completion of submissions: their fences, shared by the backend and the waiters it hands out.
//!
//! Each submission's fence is kept in submission order; a waiter polls `SDL_QueryGPUFence`
//! under the table's lock (never borrowing the backend), releasing every fence it finds
//! signalled and advancing the completed submission.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sdl3_sys::gpu::*;
use xnagraph_graph::{BackendError, SubmissionId, SubmissionWaiter};

/// The device pointer shared with waiters on other threads.
pub(crate) struct SharedDevice(pub *mut SDL_GPUDevice);

// SAFETY: SDL_gpu's fence queries may be called from any thread; the pointer is only used
// under the `Fences` lock, and cleared there before the device is destroyed.
unsafe impl Send for SharedDevice {}

/// Submitted fences, shared by the backend and its waiters.
pub(crate) struct FenceTable {
    pub device: SharedDevice,
    /// Fences of submissions not yet seen complete, in submission order.
    pub pending: VecDeque<(SubmissionId, FencePtr)>,
    pub completed: SubmissionId,
}

#[derive(Clone, Copy)]
pub(crate) struct FencePtr(pub *mut SDL_GPUFence);

// SAFETY: a fence handle is only used under the table's lock.
unsafe impl Send for FencePtr {}

pub(crate) struct Fences {
    pub table: Mutex<FenceTable>,
    pub timeout: Duration,
}

impl Fences {
    /// Moves `completed` past every signalled fence, in order, releasing each.
    fn poll(table: &mut FenceTable) {
        while let Some(&(id, fence)) = table.pending.front() {
            if table.device.0.is_null() {
                table.pending.clear();
                return;
            }
            // SAFETY: a live device and a fence it returned, not yet released.
            if !unsafe { SDL_QueryGPUFence(table.device.0, fence.0) } {
                return;
            }
            // SAFETY: as above; nothing uses the fence afterwards.
            unsafe { SDL_ReleaseGPUFence(table.device.0, fence.0) };
            table.pending.pop_front();
            table.completed = table.completed.max(id);
        }
    }

    pub fn completed(&self) -> SubmissionId {
        let _call = xnagraph_graph::native_device::device_call();
        let mut table = self.table.lock().unwrap_or_else(|p| p.into_inner());
        Self::poll(&mut table);
        table.completed
    }
}

impl SubmissionWaiter for Fences {
    /// Polls the fences (SDL_QueryGPUFence) until `submission` has signalled.
    fn wait_for(&self, submission: SubmissionId) -> Result<(), BackendError> {
        let start = Instant::now();
        loop {
            if self.completed() >= submission {
                return Ok(());
            }
            {
                let table = self.table.lock().unwrap_or_else(|p| p.into_inner());
                if table.pending.is_empty() {
                    return Ok(());
                }
            }
            if start.elapsed() > self.timeout {
                return Err(BackendError::DeviceLost(format!(
                    "submission {} did not complete within {:?}",
                    submission.0, self.timeout
                )));
            }
            std::thread::sleep(Duration::from_micros(100));
        }
    }
}
