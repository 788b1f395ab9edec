//! Process-wide count of live native memory objects (images, image views, buffers), kept by the
//! functions that create and destroy them. It outlives every backend, so a test can check that
//! teardown really freed everything.

use std::sync::atomic::{AtomicUsize, Ordering};

static LIVE: AtomicUsize = AtomicUsize::new(0);

pub(crate) fn created() {
    LIVE.fetch_add(1, Ordering::Relaxed);
}

pub(crate) fn destroyed() {
    LIVE.fetch_sub(1, Ordering::Relaxed);
}

/// Images, image views and buffers created by any backend of this process and not yet destroyed.
pub fn native_objects() -> usize {
    LIVE.load(Ordering::Relaxed)
}
