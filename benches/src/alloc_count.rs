//! A counting global allocator: a benchmark that installs [`CountingAllocator`] as its
//! `#[global_allocator]` reads with [`allocations`] how many heap allocations (including
//! reallocations) the process has made, so "no heap allocation on the hot path" is measured
//! rather than assumed (with [`thread_allocations`], those of the calling thread alone, so the
//! game thread's recording is told apart from the render thread's work), and with
//! [`take_largest`] the largest single allocation since the last call (the fuzzer's bound on
//! what an input may make the reader allocate).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static LARGEST: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread's allocations; const-initialised, so counting allocates nothing.
    static THREAD_ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// Counts one allocation, process-wide and on this thread (not during the thread's teardown).
fn count(size: usize) {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    LARGEST.fetch_max(size, Ordering::Relaxed);
    let _ = THREAD_ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

/// The system allocator, counting each allocation and reallocation.
pub struct CountingAllocator;

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Allocations made so far by a process whose global allocator is [`CountingAllocator`]
/// (always 0 otherwise).
pub fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

/// Allocations made so far by the calling thread, in a process whose global allocator is
/// [`CountingAllocator`] (always 0 otherwise).
pub fn thread_allocations() -> u64 {
    THREAD_ALLOCATIONS.with(Cell::get)
}

/// The largest single allocation (or reallocation's new size), in bytes, since the previous
/// call, by a process whose global allocator is [`CountingAllocator`] (always 0 otherwise).
pub fn take_largest() -> usize {
    LARGEST.swap(0, Ordering::Relaxed)
}

/// The minor page faults of the calling thread so far (`minflt` of `/proc/thread-self/stat`),
/// or `None` where the system does not say (not Linux). A fault is a page of memory touched for
/// the first time since the kernel gave it: memory an allocator returned to the system and took
/// back costs one per 4 KiB page again, which no count of allocations shows.
pub fn thread_minor_faults() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The name (field 2) is in parentheses and may hold spaces; minflt is field 10.
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(7)?.parse().ok()
}
