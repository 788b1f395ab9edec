//! What every native device of the process shares, whichever backend made it: turns for creating
//! and destroying one, and the gate every other device call passes.
//!
//! In: a backend about to create or destroy a native device ([`lifecycle_turn`]), or about to
//! call its device ([`device_call`]). Out: a guard; while a turn is held no other thread is in a
//! device call, and while any device call is under way no turn is given.
//!
//! Decided here: creating and destroying a device excludes every other device's calls, on every
//! thread, because the Vulkan loader and Khronos' validation layer are not safe otherwise:
//! - The loader (through 1.4.341 at least) keeps the process's logical devices on lists that
//!   `vkCreateDevice` and `vkDestroyDevice` change without a lock, while `vkGetDeviceProcAddr`
//!   and the debug-utils object naming walk them: a device made or named on one thread while
//!   another thread destroys its own reads freed memory.
//! - The validation layer (1.3.239, Debian 12's) looks up its per-device data in a process-wide
//!   hash map on every call and inserts into it in `vkCreateDevice`, erases in
//!   `vkDestroyDevice`, with no lock: a `vkAllocateCommandBuffers` on one device while another
//!   device was destroyed crashed inside the layer.
//!
//! - That layer also crashed in calls of one device (`vkDestroyCommandPool`) after devices of
//!   the same instance had made calls concurrently, with no creation or destruction under way:
//!   its shared state is not safe for concurrent devices either. So while any device with
//!   validation is alive, device calls take turns too, process-wide.
//!
//! The spec lets an application make these calls concurrently; the gate makes them safe on the
//! drivers and layers people have. Without validation, device calls of different devices run
//! concurrently with each other (the gate is shared by readers); only creation and destruction
//! wait for them and make them wait. SDL_gpu's devices go through the same loader and layer, so
//! both backends use this one gate.
//!
//! A thread already inside a device call passes the gate again freely (the guard counts per
//! thread), so an entry point may call another. A thread must not ask for a turn while inside a
//! device call: that would wait for itself.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Readers: device calls under way. The writer: a device being created or destroyed.
static GATE: RwLock<()> = RwLock::new(());
/// Held by the device call under way while a validated device is alive.
static VALIDATED_CALLS: Mutex<()> = Mutex::new(());
/// Live devices with validation on; changed only during a [`LifecycleTurn`], so a device call
/// reads one value from its start to its end.
static VALIDATED_ALIVE: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// How many [`DeviceCall`] guards this thread holds (only the first took the gate).
    static CALLS_HELD: Cell<u32> = const { Cell::new(0) };
}

/// Held while a native device is created (and its functions loaded) or destroyed: no device
/// call of any device runs meanwhile. Dropping it lets them go on.
#[must_use = "the turn ends when the guard is dropped"]
pub struct LifecycleTurn {
    _gate: RwLockWriteGuard<'static, ()>,
}

impl LifecycleTurn {
    /// Counts a device with validation on, made during this turn: from now on device calls
    /// take turns (see the module's documentation).
    pub fn validated_device_made(&self) {
        VALIDATED_ALIVE.fetch_add(1, Ordering::SeqCst);
    }

    /// Uncounts a device with validation on, destroyed during this turn.
    pub fn validated_device_destroyed(&self) {
        VALIDATED_ALIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Held while a backend calls into its native device. Dropping it ends the call.
#[must_use = "the call ends when the guard is dropped"]
pub struct DeviceCall {
    // Released in field order: the validated turn, then the gate.
    alone: Option<MutexGuard<'static, ()>>,
    gate: Option<RwLockReadGuard<'static, ()>>,
}

/// Takes the process's turn for creating or destroying a native device, waiting for every
/// device call under way to end.
///
/// # Panics
/// In debug builds, when this thread is inside a device call (the turn would wait forever).
pub fn lifecycle_turn() -> LifecycleTurn {
    debug_assert_eq!(
        CALLS_HELD.with(Cell::get),
        0,
        "a device was created or destroyed from inside a device call"
    );
    LifecycleTurn { _gate: GATE.write().unwrap_or_else(|p| p.into_inner()) }
}

/// Enters a device call: waits while a device is being created or destroyed, and, while a
/// validated device is alive, while another thread is in a device call. Free for a thread
/// already inside one.
pub fn device_call() -> DeviceCall {
    let held = CALLS_HELD.with(|c| {
        let held = c.get();
        c.set(held + 1);
        held
    });
    if held > 0 {
        return DeviceCall { alone: None, gate: None };
    }
    let gate = Some(GATE.read().unwrap_or_else(|p| p.into_inner()));
    let alone = (VALIDATED_ALIVE.load(Ordering::SeqCst) > 0)
        .then(|| VALIDATED_CALLS.lock().unwrap_or_else(|p| p.into_inner()));
    DeviceCall { alone, gate }
}

impl Drop for DeviceCall {
    fn drop(&mut self) {
        self.alone.take();
        self.gate.take();
        CALLS_HELD.with(|c| c.set(c.get() - 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn a_thread_inside_a_device_call_enters_another_without_waiting() {
        let outer = device_call();
        let inner = device_call();
        drop(inner);
        drop(outer);
        // Both released: a turn is given at once.
        drop(lifecycle_turn());
    }

    #[test]
    fn a_turn_waits_for_device_calls_under_way_and_holds_new_ones_back() {
        let call = device_call();
        let turned = Arc::new(AtomicBool::new(false));
        let turner = {
            let turned = turned.clone();
            std::thread::spawn(move || {
                let turn = lifecycle_turn();
                turned.store(true, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(50));
                turned.store(false, Ordering::SeqCst);
                drop(turn);
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        assert!(!turned.load(Ordering::SeqCst), "the turn began during a device call");
        drop(call);
        while !turner.is_finished() && !turned.load(Ordering::SeqCst) {
            std::thread::yield_now();
        }
        // Whether the turn is still held or already over, a call entered now never sees it.
        let call = device_call();
        assert!(!turned.load(Ordering::SeqCst), "a device call ran during a turn");
        drop(call);
        turner.join().unwrap();
    }

    #[test]
    fn while_a_validated_device_lives_device_calls_take_turns() {
        lifecycle_turn().validated_device_made();
        let inside = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let overlapped = Arc::new(AtomicBool::new(false));
        let callers: Vec<_> = (0..4)
            .map(|_| {
                let (inside, overlapped) = (inside.clone(), overlapped.clone());
                std::thread::spawn(move || {
                    for _ in 0..20 {
                        let call = device_call();
                        if inside.fetch_add(1, Ordering::SeqCst) > 0 {
                            overlapped.store(true, Ordering::SeqCst);
                        }
                        std::thread::sleep(Duration::from_micros(200));
                        inside.fetch_sub(1, Ordering::SeqCst);
                        drop(call);
                    }
                })
            })
            .collect();
        for caller in callers {
            caller.join().unwrap();
        }
        lifecycle_turn().validated_device_destroyed();
        assert!(!overlapped.load(Ordering::SeqCst), "two device calls ran at once");
    }
}
