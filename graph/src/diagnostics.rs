//! Per-device diagnostics a backend reports and tests read: validation messages and the count of
//! live native objects.
//!
//! A [`Diagnostics`] belongs to one backend (one device), never to the process, so tests that run
//! in parallel threads of one process see only their own device's messages and objects. It is a
//! cheap handle (an `Arc`): a test keeps a clone and can still read it after the device is gone,
//! which is how "teardown frees every native object" is checked.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Debug, Default)]
struct Inner {
    messages: Mutex<Vec<String>>,
    reported: AtomicUsize,
    live: AtomicUsize,
}

/// The diagnostics of one device (not XNA). Clones share the same record.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    inner: Arc<Inner>,
}

impl Diagnostics {
    /// Records a validation warning or error.
    pub fn report(&self, message: String) {
        self.inner.reported.fetch_add(1, Ordering::Relaxed);
        self.inner.messages.lock().unwrap_or_else(|p| p.into_inner()).push(message);
    }

    /// Takes every warning and error reported since the last call.
    pub fn take_messages(&self) -> Vec<String> {
        std::mem::take(&mut *self.inner.messages.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// How many warnings and errors this device has reported, taken or not.
    pub fn messages_so_far(&self) -> usize {
        self.inner.reported.load(Ordering::Relaxed)
    }

    /// Counts one native memory object (image, image view, buffer) created.
    pub fn object_created(&self) {
        self.inner.live.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts one native memory object destroyed.
    pub fn object_destroyed(&self) {
        self.inner.live.fetch_sub(1, Ordering::Relaxed);
    }

    /// Whether `other` is a handle of the same device's record.
    pub fn same_record(&self, other: &Diagnostics) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// Native memory objects of this device created and not yet destroyed.
    pub fn live_native_objects(&self) -> usize {
        self.inner.live.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_devices_keep_separate_records() {
        let (a, b) = (Diagnostics::default(), Diagnostics::default());
        a.report("a".into());
        b.clone().report("b".into());
        a.object_created();
        assert_eq!(a.take_messages(), ["a"]);
        assert_eq!(b.take_messages(), ["b"]);
        assert!(a.take_messages().is_empty());
        assert_eq!((a.messages_so_far(), b.messages_so_far()), (1, 1));
        assert_eq!((a.live_native_objects(), b.live_native_objects()), (1, 0));
        a.clone().object_destroyed();
        assert_eq!(a.live_native_objects(), 0);
    }
}
