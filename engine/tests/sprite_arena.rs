//! Sprite arenas are reused across frames: a run of frames of thousands of sprites allocates
//! arenas only until there is one for each frame that can be alive at once (recorded, queued
//! for the render thread up to the frames-in-flight bound, being lowered), with the render
//! thread on and off.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use common::null_device_with;
use xnagraph::{Color, DeviceOptions, SpriteBatch, Texture2D, Vector2};

/// Counts allocations (and growths) of at least [`LARGE`] bytes: of what a frame of
/// [`SPRITES`] sprites allocates, only its sprite arena is that large.
struct Counting;

const LARGE: usize = 64 * 1024;
static LARGE_ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; it only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= LARGE {
            LARGE_ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: the caller's layout contract is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size >= LARGE {
            LARGE_ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: as for `alloc` and `dealloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const SPRITES: usize = 4_000;

fn large_allocations_in(render_thread: bool) -> usize {
    let options = DeviceOptions { render_thread, frames_in_flight: 2, ..DeviceOptions::default() };
    let (device, _probe) = null_device_with(64, 64, options);
    let texture = Texture2D::new(&device, 1, 1).unwrap();
    let mut batch = SpriteBatch::new(&device).unwrap();
    let mut frame = |device: &xnagraph::GraphicsDevice| {
        device.clear(Color::BLACK).unwrap();
        batch.begin().unwrap();
        for i in 0..SPRITES {
            let at = Vector2::new((i % 64) as f32, (i / 64 % 64) as f32);
            batch.draw(&texture, at, Color::WHITE).unwrap();
        }
        batch.end().unwrap();
        device.present().unwrap();
    };
    let before = LARGE_ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..FRAMES {
        frame(&device);
    }
    device.wait_idle().unwrap();
    LARGE_ALLOCATIONS.load(Ordering::Relaxed) - before
}

const FRAMES: usize = 60;
/// Growing one arena to [`SPRITES`] sprites makes at most this many allocations of
/// [`LARGE`] bytes or more (doubling from 64 KiB).
const GROWTHS_PER_ARENA: usize = 4;
/// Frames alive at once with two frames in flight: one recorded, two queued, one lowered.
const ARENAS: usize = 4;

// One test per process state: the counter is global, so both settings run in one test.
#[test]
fn frames_reuse_sprite_arenas_once_each_live_frame_has_one() {
    let bound = GROWTHS_PER_ARENA * ARENAS;
    let off = large_allocations_in(false);
    assert!(off <= bound, "render thread off: {off} large allocations in {FRAMES} frames");
    let on = large_allocations_in(true);
    assert!(on <= bound, "render thread on: {on} large allocations in {FRAMES} frames");
}
