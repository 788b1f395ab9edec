//! The render thread: Present queues its frame and returns; a frame's failure on the render
//! thread reaches the game's next call as the error the synchronous path gives; a readback
//! waits for its own frame only; the queue bounds how far the game runs ahead; disposal
//! submits what is queued and frees everything.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;
use xnagraph::diagnostics::{BackendCall, BackendError, NullProbe};
use xnagraph::{
    Color, DeviceOptions, GraphicsDevice, RenderTarget2D, SpriteBatch, Texture2D, Vector2, XnaError,
};

/// The calls that report a render-thread failure.
#[derive(Clone, Copy, Debug)]
enum Next {
    Present,
    Flush,
    GetData,
    GetBackBufferData,
    CreateTexture,
    WaitIdle,
}

fn call(device: &GraphicsDevice, target: &RenderTarget2D, next: Next) -> xnagraph::Result<()> {
    match next {
        Next::Present => device.present(),
        Next::Flush => device.flush(),
        Next::GetData => target.get_data(&mut [Color::TRANSPARENT; 64]),
        Next::GetBackBufferData => {
            device.get_back_buffer_data(None, &mut [Color::TRANSPARENT; 256], 0, 256)
        }
        Next::CreateTexture => Texture2D::new(device, 2, 2).map(drop),
        Next::WaitIdle => device.wait_idle(),
    }
}

/// A frame the backend refuses (video memory exhausted, a lost device, a lowering failure)
/// does not fail its Present, which only queued it: the next call of each kind that checks
/// fails with the error a synchronous Present gives, once; a lost device raises the reset
/// events on the game's thread, not the render thread.
#[test]
fn a_frame_failing_on_the_render_thread_fails_the_next_call_with_its_error() {
    let out_of_memory = |e: &XnaError| matches!(e, XnaError::OutOfVideoMemory { .. });
    let lost = |e: &XnaError| matches!(e, XnaError::DeviceLost { .. });
    let lowering = |e: &XnaError| matches!(e, XnaError::InvalidOperation { .. });
    type Expected<'a> = &'a dyn Fn(&XnaError) -> bool;
    let cases: [(BackendError, Expected); 3] = [
        (BackendError::OutOfMemory("injected out of memory".into()), &out_of_memory),
        (BackendError::DeviceLost("injected device loss".into()), &lost),
        (BackendError::Native("injected lowering failure".into()), &lowering),
    ];
    let game = std::thread::current().id();
    for next in [
        Next::Present,
        Next::Flush,
        Next::GetData,
        Next::GetBackBufferData,
        Next::CreateTexture,
        Next::WaitIdle,
    ] {
        for (error, expected) in &cases {
            let (device, probe) = null_device(16, 16);
            let target = RenderTarget2D::new(&device, 8, 8).unwrap();
            let resets = Arc::new(Mutex::new(Vec::new()));
            let seen = resets.clone();
            device.events().device_reset.subscribe(move |_| {
                seen.lock().unwrap().push(std::thread::current().id());
            });
            device.clear(Color::RED).unwrap();
            probe.fail_next_submit(error.clone());
            device.present().expect("Present only queues its frame");
            // Waits until the render thread has compiled and submitted (or failed) the frame.
            let _ = device.last_plan_cost();
            assert_eq!(probe.count(BackendCall::Submit), 1);

            let reported = call(&device, &target, next);
            let case = format!("{error:?} reported by {next:?}");
            let err = reported.expect_err(&case);
            assert!(expected(&err), "{case}: {err:?}");
            assert!(err.to_string().contains("injected"), "{case}: {err}");
            let raised = resets.lock().unwrap().clone();
            let want =
                if matches!(error, BackendError::DeviceLost(_)) { vec![game] } else { vec![] };
            assert_eq!(raised, want, "{case}: reset events and their thread");
            call(&device, &target, next).unwrap_or_else(|e| panic!("{case} twice: {e:?}"));
            assert_eq!(resets.lock().unwrap().len(), want.len(), "{case}: raised once");
        }
    }
}

/// A device-reset handler that reads back (a call into the device that waits for the render
/// thread) runs on the game's thread while no lock is held: it completes, and so does the call
/// that raised it.
#[test]
fn a_reset_handler_may_call_back_into_the_device() {
    within(Duration::from_secs(20), || {
        let (device, probe) = null_device(16, 16);
        let texture = Texture2D::new(&device, 2, 2).unwrap();
        let reads = Arc::new(AtomicUsize::new(0));
        let counter = reads.clone();
        device.events().device_reset.subscribe(move |_| {
            texture.get_data(&mut [Color::TRANSPARENT; 4]).expect("GetData in the handler");
            counter.fetch_add(1, Ordering::Relaxed);
        });
        probe.fail_next_submit(BackendError::DeviceLost("injected".into()));
        device.clear(Color::RED).unwrap();
        device.present().unwrap();
        let flushed = device.flush();
        assert!(matches!(flushed, Err(XnaError::DeviceLost { .. })), "{flushed:?}");
        assert_eq!(reads.load(Ordering::Relaxed), 1);
        device.present().expect("the device works after the reset");
        device.flush().unwrap();
    });
}

/// Polls until `n` threads are blocked waiting for a submission.
fn until_waiting(probe: &NullProbe, n: usize) {
    let start = Instant::now();
    while probe.waiting() < n {
        assert!(start.elapsed() < Duration::from_secs(10), "{n} waits never began");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A GetData waits for its own frame's submission and readback, not for frames presented
/// after it: with one frame in flight and the GPU finishing only the readback's submission,
/// the frames queued behind it stay unfinished (and a GetData waiting for them would time out
/// as a lost device). Meanwhile Present returns while its frame is queued, and blocks once the
/// queue (one frame long) is full.
#[test]
fn a_readback_waits_for_its_frame_not_for_frames_queued_after_it() {
    let timeout = Duration::from_secs(3);
    let options = DeviceOptions { frames_in_flight: 1, timeout, ..DeviceOptions::default() };
    let (device, probe) = null_device_with(16, 16, options);
    let target = RenderTarget2D::new(&device, 8, 8).unwrap();
    probe.hold_completion();
    std::thread::scope(|s| {
        let (read_tx, read_rx) = mpsc::channel();
        let target = &target;
        s.spawn(move || {
            let _ = read_tx.send(target.get_data(&mut [Color::TRANSPARENT; 64]));
        });
        // The readback is submission 1, awaited by its caller.
        until_waiting(&probe, 1);
        let start = Instant::now();
        device.clear(Color::RED).unwrap();
        device.present().expect("queued");
        // The render thread holds frame 2 back until submission 1 completes.
        until_waiting(&probe, 2);
        device.clear(Color::GREEN).unwrap();
        device.present().expect("queued");
        assert!(start.elapsed() < Duration::from_secs(1), "Present waited for the GPU");

        // Frame 3 fills the queue: a fourth Present waits for room.
        let (present_tx, present_rx) = mpsc::channel();
        let device = &device;
        s.spawn(move || {
            device.clear(Color::BLUE).unwrap();
            let _ = present_tx.send(device.present());
        });
        let early = present_rx.recv_timeout(Duration::from_millis(200));
        assert!(early.is_err(), "Present returned with the queue full: {early:?}");

        // The GPU finishes the readback's submission only.
        probe.complete_submitted();
        let read = read_rx.recv_timeout(Duration::from_secs(2));
        assert!(matches!(read, Ok(Ok(()))), "GetData waited for later frames: {read:?}");
        // Frame 2 was taken off the queue, so the blocked Present got its place.
        let queued = present_rx.recv_timeout(Duration::from_secs(2));
        assert!(matches!(queued, Ok(Ok(()))), "{queued:?}");
        probe.release_completion();
    });
    device.flush().unwrap();
    assert_eq!(probe.count(BackendCall::Submit), 4);
}

/// Dropping a device whose render thread still has frames queued submits them, joins the
/// thread and frees every native object, without a validation message.
#[test]
fn dropping_the_device_with_frames_queued_tears_down_cleanly() {
    // On the null backend with the GPU held, the frames are certainly still queued at the drop.
    let options = DeviceOptions {
        frames_in_flight: 2,
        timeout: Duration::from_secs(5),
        ..DeviceOptions::default()
    };
    let (null, probe) = null_device_with(16, 16, options);
    probe.hold_completion();
    for _ in 0..5 {
        null.clear(Color::RED).unwrap();
        null.present().unwrap();
    }
    let release = probe.clone();
    let releaser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        release.release_completion();
    });
    drop(null);
    releaser.join().unwrap();
    assert_eq!(probe.count(BackendCall::Submit), 5, "every queued frame is submitted");
    assert_eq!(probe.count(BackendCall::WaitIdle), 1);

    // On Vulkan: sprite frames presented as fast as they are recorded, then dropped.
    let _v = Validation::new();
    let device = device(64, 64);
    let diagnostics = device.diagnostics();
    let texture = solid(&device, 4, 4, Color::new(20, 200, 40, 255));
    let mut batch = SpriteBatch::new(&device).unwrap();
    for frame in 0..12 {
        device.clear(Color::BLACK).unwrap();
        batch.begin().unwrap();
        for i in 0..200 {
            let p = Vector2::new(((i * 7 + frame) % 60) as f32, ((i * 3) % 60) as f32);
            batch.draw(&texture, p, Color::WHITE).unwrap();
        }
        batch.end().unwrap();
        device.present().unwrap();
    }
    drop(batch);
    drop(texture);
    assert!(diagnostics.live_native_objects() > 0);
    drop(device);
    assert_eq!(diagnostics.live_native_objects(), 0, "device teardown frees everything");
}

/// Without the render thread, a refused frame fails its own Present, as in XNA.
#[test]
fn without_the_render_thread_present_reports_its_own_failure() {
    let options = DeviceOptions { render_thread: false, ..DeviceOptions::default() };
    let (device, probe) = null_device_with(16, 16, options);
    probe.fail_next_submit(BackendError::OutOfMemory("injected".into()));
    device.clear(Color::RED).unwrap();
    let presented = device.present();
    assert!(matches!(presented, Err(XnaError::OutOfVideoMemory { .. })), "{presented:?}");
    device.present().unwrap();
    assert_eq!(probe.count(BackendCall::Submit), 2);
}
