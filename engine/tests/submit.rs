//! Flushes as one ordered step per device: tracked state committed only after the backend
//! accepted a frame, compile-and-submit never interleaved between threads, and GPU waits that
//! hold no lock and end (a timeout is a lost device).

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::*;
use xnagraph::diagnostics::{BackendError, NullProbe};
use xnagraph::{
    Color, DeviceOptions, GraphicsDevice, Rectangle, RenderTarget2D, SpriteBatch, Texture2D,
    XnaError,
};

/// Draws `texture` over the whole of `target`, then returns to the back buffer.
fn draw_into(device: &GraphicsDevice, target: &RenderTarget2D, textures: &[&Texture2D]) {
    device.set_render_target(Some(target)).unwrap();
    device.clear(Color::BLACK).unwrap();
    let mut sb = SpriteBatch::new(device).unwrap();
    sb.begin().unwrap();
    for (i, t) in textures.iter().enumerate() {
        let r = Rectangle::new(i as i32 * 2, 1, 2, 3);
        sb.draw_rect(t, r, Color::WHITE).unwrap();
    }
    sb.end().unwrap();
    device.set_render_target(None).unwrap();
}

/// A frame the backend refused never ran: the next frame's barriers start from the layouts the
/// last accepted frame left. The null backend executes every accepted plan's barriers against
/// the state each image is really in and reports any barrier that starts elsewhere.
#[test]
fn a_refused_frame_leaves_the_next_frame_starting_from_what_the_gpu_reached() {
    let (device, probe) = null_device(16, 16);
    let source = RenderTarget2D::new(&device, 8, 8).unwrap();
    device.set_render_target(Some(&source)).unwrap();
    device.clear(Color::RED).unwrap();
    device.set_render_target(None).unwrap();
    device.flush().unwrap();

    // This frame samples `source`; the backend refuses it, as an out-of-memory would.
    let dest = RenderTarget2D::new(&device, 8, 8).unwrap();
    draw_into(&device, &dest, &[&source]);
    probe.fail_next_submit(BackendError::OutOfMemory("injected".into()));
    let refused = device.flush();
    assert!(matches!(refused, Err(XnaError::OutOfVideoMemory { .. })), "{refused:?}");

    // `source` is still where the clear left it, not a sampled image.
    let mut pixels = [Color::TRANSPARENT; 64];
    source.get_data(&mut pixels).unwrap();
    draw_into(&device, &dest, &[&source]);
    device.present().unwrap();
    let mismatches = probe.take_mismatches();
    assert!(
        mismatches.is_empty(),
        "barriers from states never reached:\n{}",
        mismatches.join("\n")
    );
}

/// GetData on other threads while one thread clears, draws and flushes: every flush compiles
/// and submits as one step, so no command buffer expects a layout that another thread's plan,
/// compiled earlier but submitted later, has yet to produce. Validation (layouts are checked
/// at each submission) and exact pixels both watch.
#[test]
fn readers_and_a_flushing_thread_submit_in_the_order_they_compile() {
    let _v = Validation::new();
    let device = device(16, 16);
    let colors =
        [Color::new(250, 10, 20, 255), Color::new(10, 240, 30, 255), Color::new(5, 20, 230, 255)];
    let sources: Vec<Texture2D> = colors.iter().map(|&c| solid(&device, 2, 2, c)).collect();
    let dest = RenderTarget2D::new(&device, 8, 8).unwrap();
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let readers: Vec<_> = sources
            .iter()
            .zip(colors)
            .map(|(texture, color)| {
                let done = &done;
                s.spawn(move || {
                    let mut reads = 0;
                    while !done.load(Ordering::Acquire) || reads < 50 {
                        let mut px = [Color::TRANSPARENT; 4];
                        texture.get_data(&mut px).expect("GetData on a reader thread");
                        assert_eq!(px, [color; 4]);
                        reads += 1;
                    }
                    reads
                })
            })
            .collect();
        let textures: Vec<&Texture2D> = sources.iter().collect();
        for _ in 0..300 {
            draw_into(&device, &dest, &textures);
            device.flush().expect("flush");
        }
        done.store(true, Ordering::Release);
        for reader in readers {
            assert!(reader.join().unwrap() >= 50);
        }
    });
    let pixels = read_target(&dest);
    for (i, &color) in colors.iter().enumerate() {
        assert_eq!(at(&pixels, 8, i as i32 * 2 + 1, 2), color);
    }
    assert_eq!(at(&pixels, 8, 7, 7), Color::BLACK);
}

/// Polls until some thread is blocked waiting for a submission.
fn until_waiting(probe: &NullProbe) {
    let start = Instant::now();
    while probe.waiting() == 0 {
        assert!(start.elapsed() < Duration::from_secs(10), "no thread ever waited");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// While one thread waits for the GPU (a GetData, or a Present held back by the frames-in-flight
/// bound), another creates a texture: the wait holds no lock that creation needs.
#[test]
fn resource_creation_proceeds_while_a_frame_is_awaited() {
    for waits_in_present in [false, true] {
        let options = DeviceOptions { frames_in_flight: 1, ..DeviceOptions::default() };
        let (device, probe) = null_device_with(16, 16, options);
        let target = RenderTarget2D::new(&device, 8, 8).unwrap();
        probe.hold_completion();
        if waits_in_present {
            device.present().unwrap();
        }
        std::thread::scope(|s| {
            let waiter = s.spawn(|| {
                if waits_in_present {
                    // The previous present is in flight: this one must wait for it.
                    device.present()
                } else {
                    let mut px = [Color::TRANSPARENT; 64];
                    target.get_data(&mut px)
                }
            });
            until_waiting(&probe);
            let (tx, rx) = mpsc::channel();
            let device = &device;
            s.spawn(move || tx.send(Texture2D::new(device, 4, 4).map(|_| ())));
            let created = rx.recv_timeout(Duration::from_secs(5));
            let still_waiting = probe.waiting();
            probe.release_completion();
            assert!(
                matches!(created, Ok(Ok(()))),
                "creation blocked behind the wait (present: {waits_in_present}): {created:?}"
            );
            assert_eq!(still_waiting, 1, "the frame was still awaited while creating");
            waiter.join().unwrap().expect("the awaited call completes once the GPU does");
        });
    }
}

/// A GPU that never finishes is a lost device after the configured timeout, on every wait
/// path, never a hang; the device-reset events are raised. A Present held back by the
/// frames-in-flight bound waits on the render thread: Present itself returns at once, and the
/// lost device reaches the next call that checks (here a flush).
#[test]
fn a_submission_that_never_completes_is_a_lost_device_after_the_timeout() {
    let timeout = Duration::from_millis(300);
    for waits_in_present in [false, true] {
        let options = DeviceOptions { frames_in_flight: 1, timeout, ..DeviceOptions::default() };
        let (device, probe) = null_device_with(16, 16, options);
        let resets = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = resets.clone();
        device.events().device_reset.subscribe(move |_| {
            counter.fetch_add(1, Ordering::Relaxed);
        });
        let target = RenderTarget2D::new(&device, 8, 8).unwrap();
        probe.hold_completion();
        if waits_in_present {
            device.present().unwrap();
        }
        let start = Instant::now();
        let result = if waits_in_present {
            device.present().expect("Present only queues the frame");
            assert!(start.elapsed() < timeout, "Present waited for the GPU");
            device.flush()
        } else {
            let mut px = [Color::TRANSPARENT; 64];
            target.get_data(&mut px)
        };
        let waited = start.elapsed();
        assert!(matches!(result, Err(XnaError::DeviceLost { .. })), "{result:?}");
        assert!(waited >= timeout, "gave up after {waited:?}");
        assert!(waited < Duration::from_secs(5), "waited {waited:?}");
        assert_eq!(resets.load(Ordering::Relaxed), 1);
        probe.release_completion();
    }
}
