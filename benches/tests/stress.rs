//! `xnagraph-stress` runs every scenario for a few frames on the default adapter (lavapipe in
//! CI) with validation on, prints well-formed JSON lines and exits as its bounds say; the
//! harness's statistics and verdicts on figures given to them.

use std::process::Command;

use std::time::Duration;

use xnagraph::{Color, GraphicsDevice, GraphicsProfile, PresentationParameters};
use xnagraph_benches::stress::timing::StageTimes;
use xnagraph_benches::stress::{percentile, run, Rng, Scenario};

/// Runs the binary with `args`; returns its exit success and stdout lines.
fn stress(args: &[&str]) -> (bool, Vec<String>) {
    let out = Command::new(env!("CARGO_BIN_EXE_xnagraph-stress"))
        .args(args)
        .output()
        .expect("the stress binary runs");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() || out.status.code() == Some(1), "{args:?} crashed: {stderr}");
    (out.status.success(), stdout.lines().map(str::to_owned).collect())
}

/// The value of `key` in a JSON line, as its text.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = line.find(&format!("\"{key}\": "))? + key.len() + 4;
    let rest = &line[start..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Some(rest[..end].trim())
}

fn summary(lines: &[String]) -> &String {
    lines.iter().rfind(|l| field(l, "summary") == Some("true")).expect("a summary line")
}

fn check_lines(lines: &[String], frames: usize) {
    assert!(lines.iter().all(|l| l.starts_with('{') && l.ends_with('}')), "{lines:?}");
    let per_frame = lines.iter().filter(|l| field(l, "frame_ms").is_some()).count();
    assert!(per_frame >= frames, "{per_frame} frame lines: {lines:?}");
    let s = summary(lines);
    for key in [
        "update_p50_ms",
        "record_p50_ms",
        "compile_p95_ms",
        "upload_p95_ms",
        "lower_p99_ms",
        "frame_p99_ms",
    ] {
        let v: f64 = field(s, key).and_then(|v| v.parse().ok()).unwrap_or(-1.0);
        assert!(v >= 0.0, "{key} in {s}");
    }
    let compile: f64 = field(s, "compile_p50_ms").unwrap().parse().unwrap();
    assert!(compile > 0.0, "the compile spans were timed: {s}");
    // Every frame's GPU time from the timestamps (Vulkan, on by default).
    assert!(field(s, "gpu_timing").is_some_and(|t| t.contains("timestamps")), "{s}");
    for line in lines.iter().filter(|l| field(l, "frame_ms").is_some()) {
        let gpu: f64 = field(line, "gpu_ms").and_then(|v| v.parse().ok()).unwrap_or(-1.0);
        assert!(gpu > 0.0, "a GPU time per frame: {line}");
    }
    let gpu: f64 = field(s, "gpu_p99_ms").and_then(|v| v.parse().ok()).unwrap_or(-1.0);
    assert!(gpu > 0.0, "GPU percentiles: {s}");
}

#[test]
fn without_timestamps_or_on_sdl_gpu_frames_have_no_gpu_time() {
    for args in [&["--timestamps", "off"][..], &["--backend", "sdlgpu"][..]] {
        let common = ["--validation", "--frames", "3", "mixed"];
        let (ok, lines) = stress(&[args, &common[..]].concat());
        assert!(ok, "{args:?}: {lines:?}");
        let s = summary(&lines);
        assert_eq!(field(s, "gpu_p50_ms"), Some("null"), "{s}");
        assert!(field(s, "gpu_timing").is_some_and(|t| t.contains("fence to fence")), "{s}");
        assert!(lines
            .iter()
            .filter(|l| field(l, "frame_ms").is_some())
            .all(|l| field(l, "gpu_ms") == Some("null")));
    }
}

#[test]
fn sprites_runs_with_twelve_textures_and_every_sort_mode() {
    for sort in ["deferred", "texture", "back-to-front"] {
        let args = ["--validation", "--frames", "3", "sprites", "--textures", "12", "--sort", sort];
        let (ok, lines) = stress(&[&args[..], &["--waves", "2", "--per-wave", "50"]].concat());
        assert!(ok, "{lines:?}");
        check_lines(&lines, 3);
        assert_eq!(field(summary(&lines), "sprites"), Some("100"));
        let upload: f64 = field(summary(&lines), "upload_p50_ms").unwrap().parse().unwrap();
        assert!(upload > 0.0, "the sprites' copy into the vertex buffer was timed");
        let per_sprite = |key| -> f64 { field(summary(&lines), key).unwrap().parse().unwrap() };
        let (update, record) =
            (per_sprite("update_ns_per_sprite_p50"), per_sprite("record_ns_per_sprite_p50"));
        assert!(update > 0.0 && record > 0.0, "{lines:?}");
        assert!(per_sprite("update_record_ns_per_sprite_p50") >= record, "{lines:?}");
        for line in lines.iter().filter(|l| field(l, "frame_ms").is_some()) {
            assert!(field(line, "update_ms").is_some(), "{line}");
        }
    }
}

/// A scenario whose update and recording take known, different times.
struct Timed;

// Long enough that a sleep overshooting under a loaded machine (by less than the other stage's
// time) cannot make one stage look like both.
const UPDATE: Duration = Duration::from_millis(250);
const RECORD: Duration = Duration::from_millis(500);

impl Scenario for Timed {
    fn update(&mut self, _: u32) {
        std::thread::sleep(UPDATE);
    }

    fn record(&mut self, device: &GraphicsDevice, _: u32) -> xnagraph::Result<()> {
        device.clear(Color::new(10, 20, 30, 255))?;
        std::thread::sleep(RECORD);
        Ok(())
    }
}

/// The harness times a scenario's update apart from its recording: each frame's `update`
/// holds the update's time and `record` the recording's alone, not the two together.
#[test]
fn update_is_timed_apart_from_recording() {
    let params = PresentationParameters {
        back_buffer_width: 64,
        back_buffer_height: 64,
        ..Default::default()
    };
    let device = GraphicsDevice::new(GraphicsProfile::HiDef, params).unwrap();
    let times = StageTimes::default();
    let frames = run(&device, &mut Timed, 3, &times, &mut (), &mut |_| {}).unwrap();
    assert_eq!(frames.len(), 3);
    for f in &frames {
        assert!(f.update >= UPDATE && f.update < UPDATE + RECORD, "{f:?}");
        assert!(f.record >= RECORD && f.record < RECORD + UPDATE, "{f:?}");
        assert!(f.frame >= f.update + f.record + f.present, "{f:?}");
    }
}

/// `--mipmaps` gives the bird textures their mip chains: the birds, minified to about 38 px,
/// sample a level near their size, so the same frame's pixels differ from those of textures
/// without mips; the summary says which ran.
#[test]
fn sprites_with_mipmaps_sample_the_mip_chain() {
    let frame = |mipmaps: bool| {
        let png =
            std::env::temp_dir().join(format!("stress-mips-{mipmaps}-{}.png", std::process::id()));
        let mut args = vec!["--validation", "--frames", "2", "--png", png.to_str().unwrap()];
        args.extend(["sprites", "--waves", "1", "--per-wave", "200"]);
        if mipmaps {
            args.push("--mipmaps");
        }
        let (ok, lines) = stress(&args);
        assert!(ok, "{lines:?}");
        assert_eq!(field(summary(&lines), "mipmaps"), Some(if mipmaps { "true" } else { "false" }));
        let bytes = std::fs::read(&png).unwrap();
        std::fs::remove_file(&png).unwrap();
        bytes
    };
    assert_ne!(frame(true), frame(false));
}

/// `--ash-reference` adds the hand-written reference's GPU time for the last frame's draw and
/// the engine's GPU time over it; where the adapter cannot draw several textures at once
/// (lavapipe has no non-uniform indexing) the figures are null and the summary says why;
/// without the flag there are no such fields.
#[test]
fn sprites_with_the_ash_reference_reports_its_gpu_time() {
    let number = |s: &str, key| -> f64 { field(s, key).unwrap().parse().unwrap_or(f64::NAN) };
    for mipmaps in [false, true] {
        let mut args = vec!["--validation", "--quiet", "--frames", "3", "sprites"];
        args.extend(["--waves", "1", "--per-wave", "100", "--ash-reference"]);
        if mipmaps {
            args.push("--mipmaps");
        }
        let (ok, lines) = stress(&args);
        assert!(ok, "{lines:?}");
        let s = summary(&lines);
        let (reference, ratio) =
            (number(s, "ash_reference_gpu_ms"), number(s, "gpu_over_ash_reference"));
        assert!(reference > 0.0 && ratio > 0.0, "{s}");
        // The same clear and draw on the same adapter: both are milliseconds of the same
        // order (a wrong unit would be a factor of a thousand or more). Not a speed check: a
        // CPU rasteriser sharing two cores with other tests has measured 4.9 for three frames.
        assert!((0.01..100.0).contains(&ratio), "{s}");
        let gpu = number(s, "gpu_p50_ms");
        assert!((gpu / reference - ratio).abs() <= 0.01 * ratio + 0.002, "{s}");
        assert_eq!(field(s, "ash_reference_adapter"), field(s, "adapter"), "{s}");
    }
    let args = ["--validation", "--quiet", "--frames", "2", "sprites", "--textures", "12"];
    let (ok, lines) =
        stress(&[&args[..], &["--per-wave", "50", "--waves", "1", "--ash-reference"]].concat());
    assert!(ok, "{lines:?}");
    let s = summary(&lines);
    // The reason holds the adapter's name, commas and all: searched in the whole line.
    let refused = s.contains("no shaderSampledImageArrayNonUniformIndexing");
    assert_eq!(field(s, "ash_reference_gpu_ms") == Some("null"), refused, "{s}");
    let (ok, lines) =
        stress(&["--quiet", "--frames", "2", "sprites", "--waves", "1", "--per-wave", "10"]);
    assert!(ok, "{lines:?}");
    assert!(!summary(&lines).contains("ash_reference"), "{lines:?}");
}

#[test]
fn sprites_refuses_a_texture_count_other_than_1_or_12() {
    let out = Command::new(env!("CARGO_BIN_EXE_xnagraph-stress"))
        .args(["sprites", "--textures", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 or 12"));
}

#[test]
fn rt_churn_passes_its_bounds_and_reports_every_hundred_frames() {
    let (ok, lines) = stress(&["--validation", "--quiet", "--frames", "300", "rt-churn"]);
    assert!(ok, "{lines:?}");
    let samples: Vec<&String> = lines.iter().filter(|l| field(l, "rss_bytes").is_some()).collect();
    assert_eq!(samples.len(), 3, "{lines:?}");
    assert_eq!(field(summary(&lines), "pass"), Some("true"));
    let allocated: Vec<&str> =
        samples.iter().map(|l| field(l, "images_allocated").unwrap()).collect();
    assert_eq!(allocated[1], allocated[2], "no image allocated after warm-up");
}

#[test]
fn post_chain_gives_the_same_pixels_under_both_policies_with_less_traffic() {
    let args = ["post-chain", "--width", "96", "--height", "64", "--bandwidth-gbs", "1"];
    let (ok, lines) = stress(&[&["--validation", "--frames", "2"][..], &args[..]].concat());
    assert!(ok, "{lines:?}");
    let last = lines.last().unwrap();
    assert_eq!(field(last, "differing_pixels"), Some("0"), "{last}");
    let saved: f64 = field(last, "traffic_saved").unwrap().parse().unwrap();
    assert!(saved > 0.4, "{last}");
    // Each policy's GPU time, against the bound its plan's bytes set.
    let policies: Vec<_> = lines.iter().filter(|l| field(l, "policy").is_some()).collect();
    assert_eq!(policies.len(), 3, "graph, graph without shared memory, frame-blind: {lines:?}");
    // The scene's samples and depth are the frame's transient images, both in its one pass:
    // sharing saves nothing here, and changes no pixel.
    assert_eq!(field(last, "differing_pixels_shared_against_unshared"), Some("0"), "{last}");
    assert_eq!(field(policies[0], "transient_images"), Some("2"), "{}", policies[0]);
    assert_eq!(field(last, "transient_memory_saved"), Some("0.0"), "{last}");
    for s in policies {
        let gpu: f64 = field(s, "gpu_p50_ms").and_then(|v| v.parse().ok()).unwrap_or(-1.0);
        let bound: f64 = field(s, "bandwidth_bound_us").and_then(|v| v.parse().ok()).unwrap();
        let ratio: f64 = field(s, "gpu_p50_over_bound").and_then(|v| v.parse().ok()).unwrap();
        assert!(gpu > 0.0 && bound > 0.0, "{s}");
        assert!((ratio - gpu * 1e3 / bound).abs() <= ratio * 0.01 + 0.01, "{s}");
        // The fill probe's floor for the frame's passes on this adapter, and the hardware
        // floor, the larger of it and the bandwidth bound.
        let number = |key| field(s, key).and_then(|v| v.parse::<f64>().ok()).unwrap_or(-1.0);
        let fill = number("fill_floor_ms");
        let parts = ["fill_scene_ms", "fill_chain_ms", "fill_back_buffer_ms"].map(number);
        assert!(fill > 0.0 && parts.iter().all(|&p| p > 0.0), "{s}");
        assert!((parts.iter().sum::<f64>() - fill).abs() <= 0.002, "{s}");
        assert!(number("scene_coverage_screens") > 1.0, "{s}");
        let floor = number("hardware_floor_ms");
        assert!((floor - fill.max(bound / 1e3)).abs() <= 0.001, "{s}");
        let over = number("gpu_over_hardware_floor");
        assert!(over > 0.0 && (over - gpu / floor).abs() <= over * 0.01 + 0.01, "{s}");
    }
    // Without the probe, no floor is claimed and the summary says why.
    let skipped = [&["--frames", "1"][..], &args[..], &["--no-fill-probe"][..]].concat();
    let (ok, lines) = stress(&skipped);
    assert!(ok, "{lines:?}");
    let s = lines.iter().find(|l| field(l, "policy").is_some()).unwrap();
    assert_eq!(field(s, "fill_floor_ms"), Some("null"), "{s}");
    assert_eq!(field(s, "gpu_over_hardware_floor"), Some("null"), "{s}");
    assert!(field(s, "fill_probe").is_some_and(|w| w.contains("--no-fill-probe")), "{s}");
}

#[test]
fn post_chain_with_a_reflection_shares_the_two_passes_transient_memory() {
    let args = ["post-chain", "--width", "96", "--height", "64", "--reflection"];
    let (ok, lines) = stress(&[&["--validation", "--frames", "2"][..], &args[..]].concat());
    assert!(ok, "{lines:?}");
    let last = lines.last().unwrap();
    assert_eq!(field(last, "reflection"), Some("true"), "{last}");
    assert_eq!(field(last, "differing_pixels"), Some("0"), "{last}");
    assert_eq!(field(last, "differing_pixels_shared_against_unshared"), Some("0"), "{last}");
    let bytes = |key| field(last, key).and_then(|v| v.parse::<u64>().ok()).unwrap();
    let (shared, unshared) =
        (bytes("transient_held_bytes_shared"), bytes("transient_held_bytes_unshared"));
    // The reflection's samples and depth and the scene's take the same bytes: half as many.
    assert!(shared * 2 <= unshared + 4096 && shared < unshared, "{last}");
    let saved: f64 = field(last, "transient_memory_saved").unwrap().parse().unwrap();
    assert!(saved >= 0.45, "{last}");
    let graph = lines.iter().find(|l| field(l, "policy") == Some("\"graph\"")).unwrap();
    assert_eq!(field(graph, "transient_images"), Some("4"), "{graph}");
    assert!(field(graph, "fill_probe").is_some_and(|w| w.contains("--reflection")), "{graph}");
}

#[test]
fn uploads_and_mixed_run() {
    let (ok, lines) = stress(&["--validation", "--frames", "3", "uploads", "--mib", "1"]);
    assert!(ok, "{lines:?}");
    check_lines(&lines, 3);
    let s = summary(&lines);
    assert_eq!(field(s, "bytes_per_frame"), Some("1048576"));
    assert!(field(s, "memcpy_mb_s").unwrap().parse::<f64>().unwrap() > 0.0);

    let dir = std::env::temp_dir().join(format!("xnagraph-stress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plot = dir.join("mixed.svg");
    let (ok, lines) =
        stress(&["--validation", "--frames", "31", "--plot", plot.to_str().unwrap(), "mixed"]);
    assert!(ok, "{lines:?}");
    check_lines(&lines, 31);
    let svg = std::fs::read_to_string(&plot).unwrap();
    // Frame, record, compile, lowering and GPU time: one line each (every frame has all five).
    assert!(svg.starts_with("<svg") && svg.matches("<polyline").count() == 5, "{svg}");
    assert!(svg.contains(">gpu</text>"), "{svg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn percentiles_are_nearest_rank() {
    let mut v: Vec<f64> = (1..=100).rev().map(f64::from).collect();
    assert_eq!(percentile(&mut v, 50.0), 50.0);
    assert_eq!(percentile(&mut v, 95.0), 95.0);
    assert_eq!(percentile(&mut v, 99.0), 99.0);
    assert_eq!(percentile(&mut [7.0], 99.0), 7.0);
    assert!(percentile(&mut [], 50.0).is_nan());
}

#[test]
fn the_generator_is_deterministic_and_in_range() {
    let (mut a, mut b) = (Rng::new(3), Rng::new(3));
    let xs: Vec<u32> = (0..1000).map(|_| a.below(7)).collect();
    assert!(xs.iter().all(|&x| x < 7));
    assert!((0..7).all(|k| xs.contains(&k)), "every value drawn");
    assert!(xs.iter().zip((0..1000).map(|_| b.below(7))).all(|(x, y)| *x == y));
    assert_ne!(Rng::new(4).unit(), Rng::new(3).unit());
}

/// `--burst N` adds N waves at once in frame 10's update: a run past it ends with them all.
#[test]
fn a_burst_adds_its_waves_in_frame_ten() {
    let args = ["--validation", "--quiet", "--frames", "12", "sprites", "--waves", "1"];
    let (ok, lines) = stress(&[&args[..], &["--per-wave", "100", "--burst", "2"]].concat());
    assert!(ok, "{lines:?}");
    assert_eq!(field(summary(&lines), "sprites"), Some("300"));
    let (ok, lines) =
        stress(&[&args[..], &["--per-wave", "100", "--burst", "2", "--frames", "10"]].concat());
    assert!(ok, "{lines:?}");
    assert_eq!(field(summary(&lines), "sprites"), Some("100"), "frames 0-9 only: no burst yet");
}
