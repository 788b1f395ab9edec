//! GPU timing of the device's frames (`DeviceOptions::gpu_timing`, not part of XNA): each
//! presented frame's plan nodes timed and attributed to the frame's flush number; nothing
//! timed when the option is off; SDL_gpu says it has no timestamps.

mod common;

use common::*;
use xnagraph::{Color, DeviceOptions, GpuTimingSupport, GraphicsProfile, RenderTarget2D};

#[test]
fn presented_frames_report_gpu_time_per_plan_node_under_their_frame_number() {
    let _v = Validation::new();
    let options = DeviceOptions { gpu_timing: true, ..test_options() };
    let device = device_with_options(GraphicsProfile::HiDef, params(32, 16), options);
    if on_sdlgpu() {
        assert!(
            matches!(device.gpu_timing_support(), GpuTimingSupport::Unavailable(_)),
            "SDL_gpu has no timestamps"
        );
        device.clear(Color::RED).unwrap();
        device.present().unwrap();
        device.wait_idle().unwrap();
        assert!(device.drain_gpu_timings().unwrap().is_empty());
        return;
    }
    assert!(device.gpu_timing_support().is_available());
    let target = RenderTarget2D::new(&device, 8, 8).unwrap();
    for _ in 0..3 {
        device.set_render_target(Some(&target)).unwrap();
        device.clear(Color::BLUE).unwrap();
        device.set_render_target(None).unwrap();
        device.clear(Color::RED).unwrap();
        device.present().unwrap();
    }
    device.wait_idle().unwrap();
    let timings = device.drain_gpu_timings().unwrap();
    let frames: Vec<u64> = timings.iter().map(|t| t.frame).collect();
    assert_eq!(frames, [1, 2, 3], "every presented frame once, in order: {timings:?}");
    for t in &timings {
        assert!(!t.timing.nodes.is_empty(), "{t:?}");
        assert!(t.timing.nodes.iter().all(|n| n.begin_ns <= n.end_ns), "{t:?}");
        assert_eq!(t.timing.frame_ns(), t.timing.end_ns() - t.timing.begin_ns());
    }
    assert!(device.drain_gpu_timings().unwrap().is_empty(), "each report drained once");
}

#[test]
fn frames_are_not_timed_by_default() {
    let _v = Validation::new();
    let device = device(16, 16);
    device.clear(Color::RED).unwrap();
    device.present().unwrap();
    device.wait_idle().unwrap();
    assert!(device.drain_gpu_timings().unwrap().is_empty());
}
