//! The replay profiler: per plan node GPU time from Vulkan timestamps, per frame CPU stages and
//! GPU time, the per-node table, the JSON summary and the `xnagraph-replay replay` outputs,
//! with validation fatal.

mod common;

use std::path::Path;
use std::process::Command;

use common::scene::{capture, capture_named, FRAMES, H, W};
use common::scratch;
use xnagraph_benches::profile::{
    node_rows, node_table, profile, summary_json, ProfileOptions, ProfileRun,
};
use xnagraph_graph::capture::Capture;
use xnagraph_graph::timing::span_ns;
use xnagraph_graph::{Backend, GpuTimingSupport};
use xnagraph_vulkan::{VulkanBackend, VulkanConfig};

fn profiled(path: &Path, timestamps: bool) -> ProfileRun {
    let capture = Capture::open(path).unwrap();
    let mut backend =
        VulkanBackend::new(VulkanConfig { validation: true, ..VulkanConfig::default() }).unwrap();
    let options = ProfileOptions { repeat: 2, timestamps, ..ProfileOptions::default() };
    let run = profile(&mut backend, &capture, &options, || {}).unwrap();
    let messages = backend.diagnostics().take_messages();
    assert!(messages.is_empty(), "validation: {messages:#?}");
    run
}

#[test]
fn every_node_of_every_replayed_frame_is_timed_on_the_gpu() {
    let path = capture("timed.xgc");
    let run = profiled(&path, true);
    assert!(run.support.is_available(), "{:?}", run.support);
    assert_eq!(run.frames.len(), 2 * FRAMES as usize, "two passes of every frame");
    for frame in &run.frames {
        assert_eq!(frame.submissions.len(), 1, "one flush per frame");
        let timing = &run.timings[&frame.submissions[0]];
        let plan = run.plan(frame.submissions[0]).unwrap();
        assert_eq!(timing.nodes.len(), plan.nodes.len(), "every node timed");
        assert!(timing.nodes.iter().all(|n| n.begin_ns <= n.end_ns));
        let expected = span_ns([timing]).unwrap() as f64 / 1e6;
        assert_eq!(frame.gpu_ms, Some(expected), "frame GPU time = latest end − earliest begin");
    }
    let rows = node_rows(&run, None);
    let described: Vec<_> =
        rows.iter().map(|r| (r.info.name.as_str(), r.info.kind, r.info.draws)).collect();
    assert_eq!(
        described,
        [
            ("upload unnamed", "upload", 0),
            ("pass scene", "pass", 1),
            ("pass back buffer", "pass", 1),
            ("present back buffer", "present", 0)
        ],
        "{rows:#?}"
    );
    assert_eq!(rows[1].info.attachments, "scene:color");
    assert_eq!(rows[1].info.ops, "clear/store");
    assert_eq!(rows[1].info.bytes_stored, (W / 2 * H / 2 * 4) as u64);
    // The texture's upload is in the first frame of each pass only; the rest in every frame,
    // whatever their index in the plan.
    assert_eq!((rows[0].frames, rows[0].timed), (2, 2));
    for r in &rows[1..] {
        assert_eq!((r.frames, r.timed), (2 * FRAMES as usize, 2 * FRAMES as usize), "{r:?}");
    }
    let shares: f64 = rows.iter().map(|r| r.share).sum();
    assert!(shares > 0.0 && shares <= 1.0 + 1e-9, "nodes do not overlap: {shares}");
    let table = node_table(&run, None);
    assert!(table.contains("pass scene") && table.contains("clear/store"), "{table}");
    let json = summary_json(&run, Some((1, 3)));
    assert!(json.starts_with("{\"frames\":6,\"measurement_range\":[1,3]"), "{json}");
    assert!(json.contains("\"gpu_ms\":{\"mean\":"), "{json}");
    assert!(json.contains("\"name\":\"pass scene\""), "{json}");
}

#[test]
fn without_timestamps_frames_are_timed_fence_to_fence() {
    let path = capture("untimed.xgc");
    let run = profiled(&path, false);
    assert!(matches!(run.support, GpuTimingSupport::Unavailable(_)));
    assert!(run.frames.iter().all(|f| f.gpu_ms.is_none()));
    assert!(run.timings.is_empty());
    let json = summary_json(&run, None);
    assert!(json.contains("\"gpu_ms\":null"), "{json}");
    assert!(json.contains("fence to fence"), "{json}");
}

/// Texture names come from the game: one with a newline, a tab, a quote and a control
/// character still gives a summary that a JSON parser reads, with the name exactly as given.
#[test]
fn the_json_summary_keeps_any_texture_name_exactly() {
    const NAME: &str = "a\nb\t\"c\u{1}";
    let path = capture_named("named.xgc", NAME);
    let run = profiled(&path, false);
    let json = summary_json(&run, None);
    let summary: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    let nodes = summary["nodes"].as_array().expect("a node list");
    // The first pass draws into the target, the second into the back buffer.
    let pass = nodes.iter().find(|n| n["kind"] == "pass").expect("a pass");
    assert_eq!(pass["name"], format!("pass {NAME}"));
    assert_eq!(pass["attachments"], format!("{NAME}:color"));
}

fn replay_binary(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_xnagraph-replay")).args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{args:?}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

#[test]
fn the_replay_binary_prints_the_tables_and_measures_the_timestamps_cost() {
    let path = capture("binary.xgc");
    let file = path.to_str().unwrap();
    let json = scratch("binary.json");
    let out = replay_binary(&["replay", file, "--validation", "--json", json.to_str().unwrap()]);
    assert!(out.contains("calibrated") || out.contains("estimated"), "{out}");
    for row in ["record", "compile", "lower", "submit", "frame", "gpu", "pass scene", "present"] {
        assert!(out.contains(row), "{row}: {out}");
    }
    let summary = std::fs::read_to_string(&json).unwrap();
    assert!(summary.contains("\"gpu_ms\":{"), "{summary}");
    let off = replay_binary(&["replay", file, "--validation", "--timestamps", "off"]);
    assert!(off.contains("fence to fence"), "{off}");
    let cost = replay_binary(&["replay", file, "--validation", "--timestamp-cost"]);
    assert!(cost.contains("timestamp cost on") && cost.contains(" = "), "{cost}");
    let sdl = replay_binary(&["replay", file, "--validation", "--backend", "sdlgpu"]);
    assert!(sdl.contains("SDL_gpu") && sdl.contains("fence to fence"), "{sdl}");
}
