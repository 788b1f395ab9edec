//! GPU timestamps around every plan node: the report's structure, its placement on the CPU
//! clock, and reading it back without ever waiting for an unfinished frame.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use xnagraph_graph::compile::compile;
use xnagraph_graph::timing::instant_ns;
use xnagraph_graph::{
    Backend, FrameCommands, FramePlan, GpuFrameTiming, GpuTimingSupport, Node, Readback,
    ReadbackId, Rect, Slices, SurfaceFormat, TextureDesc, TextureState,
};
use xnagraph_vulkan::VulkanConfig;

fn timed_config() -> VulkanConfig {
    VulkanConfig { gpu_timing: true, ..test_config() }
}

/// A frame of four plan nodes: an upload, a pass drawing the texture into `a`, a pass drawing
/// `a` into `b`, and a readback of `b` (with id `id`).
fn four_node_plan(
    texture: &Arc<TextureState>,
    a: &Arc<TextureState>,
    b: &Arc<TextureState>,
    id: u64,
) -> FramePlan {
    let frame = FrameCommands {
        nodes: vec![
            upload(texture, Rect::new(0, 0, 2, 2), [200u8, 10, 30, 255].repeat(4)),
            Node::Pass(segment(
                a,
                vec![clear_op([0.0, 0.0, 1.0, 1.0]), sprite_draw(texture, 0, 1, 64, 64)],
            )),
            Node::Pass(segment(b, vec![clear_op([0.0; 4]), sprite_draw(a, 1, 1, 64, 64)])),
            Node::Readback(Readback {
                image: xnagraph_graph::Image::Color,
                id: ReadbackId(id),
                texture: b.clone(),
                level: 0,
                layer: 0,
                rect: Rect::new(0, 0, 64, 64),
                slices: Slices::FLAT,
            }),
        ],
        sprites: [quad(Rect::new(3, 5, 40, 30), [255; 4]), quad(Rect::new(0, 0, 64, 64), [255; 4])]
            .concat()
            .into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    compile(frame)
}

fn textures(s: &mut Session) -> [Arc<TextureState>; 3] {
    [
        s.texture(TextureDesc::texture_2d(2, 2, 1, SurfaceFormat::Color)),
        s.texture(target_desc(64, 64, 1, 0)),
        s.texture(target_desc(64, 64, 1, 0)),
    ]
}

fn assert_structure(timing: &GpuFrameTiming, nodes: usize) {
    assert_eq!(timing.nodes.len(), nodes, "one entry per plan node: {timing:?}");
    for (i, n) in timing.nodes.iter().enumerate() {
        assert_eq!(n.node, i, "entries in plan order: {timing:?}");
        assert!(n.begin_ns <= n.end_ns, "node {i} begins before it ends: {timing:?}");
        if i > 0 {
            let previous = &timing.nodes[i - 1];
            assert!(
                n.begin_ns >= previous.end_ns,
                "node {i} begins after node {} ended (submission order): {timing:?}",
                i - 1
            );
        }
    }
    let min_begin = timing.nodes.iter().map(|n| n.begin_ns).min().unwrap();
    let max_end = timing.nodes.iter().map(|n| n.end_ns).max().unwrap();
    assert_eq!(timing.frame_ns(), max_end - min_begin);
}

#[test]
fn every_node_of_a_plan_is_timed_in_order_on_the_cpu_clock() {
    let mut s = Session::with_config(timed_config());
    let support = s.backend.set_gpu_timing(true);
    assert!(support.is_available(), "lavapipe writes timestamps: {support:?}");
    let [texture, a, b] = textures(&mut s);
    let mut reports = Vec::new();
    for frame in 1..=3u64 {
        let plan = four_node_plan(&texture, &a, &b, frame);
        let nodes = plan.nodes.len();
        assert_eq!(nodes, 4, "upload, two passes, readback");
        let before = Instant::now();
        let id = s.backend.submit(&plan).expect("submit");
        drop(plan);
        s.backend.wait(id).expect("wait");
        let after = Instant::now();
        let drained = s.backend.drain_gpu_timings();
        assert_eq!(drained.len(), 1, "one report per completed submission: {drained:?}");
        let timing = drained.into_iter().next().unwrap();
        assert_eq!(timing.submission, id);
        assert_structure(&timing, nodes);
        // On the CPU clock: the GPU ran the frame between the submit and the wait's return.
        if support == (GpuTimingSupport::Available { calibrated: true }) {
            let slack = 2_000_000; // 2 ms for the two clocks' sampling
            assert!(timing.begin_ns() + slack >= instant_ns(before), "{timing:?} vs {before:?}");
            assert!(timing.end_ns() <= instant_ns(after) + slack, "{timing:?} vs {after:?}");
        }
        let bytes = s.backend.take_readback(ReadbackId(frame)).expect("readback");
        assert_eq!(pixel(&bytes, 64, 10, 10), [200, 10, 30, 255], "the timed frame drew");
        reports.push(timing);
    }
    assert!(reports.windows(2).all(|w| w[0].end_ns() <= w[1].begin_ns()), "{reports:?}");
    // Switched off, later submissions are not timed.
    s.backend.set_gpu_timing(false);
    let plan = four_node_plan(&texture, &a, &b, 9);
    let id = s.backend.submit(&plan).expect("submit");
    s.backend.wait(id).expect("wait");
    assert!(s.backend.drain_gpu_timings().is_empty());
    drop((plan, texture, a, b));
    s.finish();
}

#[test]
fn timing_is_off_unless_asked_for() {
    let mut s = Session::new();
    let [texture, a, b] = textures(&mut s);
    let plan = four_node_plan(&texture, &a, &b, 1);
    let id = s.backend.submit(&plan).expect("submit");
    s.backend.wait(id).expect("wait");
    assert!(s.backend.drain_gpu_timings().is_empty(), "no timestamps by default");
    drop((plan, texture, a, b));
    s.finish();
}

/// The GPU is held back, so none of the submitted frames can finish: a drain that waited for
/// a fence or asked for results with WAIT would block until the hold's release (never, from
/// this thread) or time out.
#[test]
fn reading_timestamps_never_waits_for_an_unfinished_frame() {
    let mut s =
        Session::with_config(VulkanConfig { timeout: Duration::from_secs(3), ..timed_config() });
    let [texture, a, b] = textures(&mut s);
    let hold = s.backend.hold_gpu().expect("hold");
    let mut ids = Vec::new();
    let mut plans = Vec::new();
    for frame in 1..=2u64 {
        let plan = four_node_plan(&texture, &a, &b, frame);
        ids.push(s.backend.submit(&plan).expect("submit while held"));
        plans.push(plan);
        let start = Instant::now();
        let drained = s.backend.drain_gpu_timings();
        assert!(start.elapsed() < Duration::from_millis(500), "draining returned at once");
        assert!(drained.is_empty(), "nothing is reported for unfinished frames: {drained:?}");
    }
    hold.release().expect("release");
    s.backend.wait(ids[1]).expect("wait");
    let drained = s.backend.drain_gpu_timings();
    let submissions: Vec<_> = drained.iter().map(|t| t.submission).collect();
    assert_eq!(submissions, ids, "both frames reported once they completed, in order");
    for timing in &drained {
        assert_structure(timing, 4);
    }
    drop((plans, texture, a, b));
    s.finish();
}

/// A timed run whose caller never drains keeps at most `MAX_READY_REPORTS` reports: the
/// newest, with the oldest dropped and counted.
#[test]
fn undrained_reports_are_bounded_keeping_the_newest() {
    let mut s = Session::with_config(timed_config());
    let [texture, a, b] = textures(&mut s);
    let extra = 3;
    let mut last = None;
    for frame in 1..=(xnagraph_vulkan::MAX_READY_REPORTS + extra) as u64 {
        let plan = four_node_plan(&texture, &a, &b, frame);
        last = Some(s.backend.submit(&plan).expect("submit"));
        let _ = s.backend.take_readback(ReadbackId(frame - 1));
    }
    let last = last.unwrap();
    s.backend.wait(last).expect("wait");
    let _ =
        s.backend.take_readback(ReadbackId((xnagraph_vulkan::MAX_READY_REPORTS + extra) as u64));
    let drained = s.backend.drain_gpu_timings();
    assert_eq!(drained.len(), xnagraph_vulkan::MAX_READY_REPORTS);
    assert_eq!(s.backend.dropped_gpu_timings(), extra as u64);
    assert_eq!(drained.last().map(|t| t.submission), Some(last), "the newest are kept");
    let first = drained[0].submission.0;
    assert!(drained.iter().enumerate().all(|(i, t)| t.submission.0 == first + i as u64));
    drop((texture, a, b));
    s.finish();
}
