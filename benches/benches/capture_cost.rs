//! What frame capture costs the README's sample (`xnagraph_samples::scene`, 640x360, 200
//! sprites through a half-size target), and how fast a replay runs against the live game, in
//! one process.
//!
//! Capture: rounds of frames without a capture and frames with one (`capture_frames` over exactly
//! that block) alternate, so drift on a shared machine hits both alike. Two figures, each with the
//! ratio of the means (target at most 1.10): the frame time (recording and `present`, wall clock,
//! as the sample measures it: it includes waiting for the GPU), and the game thread's own CPU time
//! per frame (Linux's `/proc/thread-self/schedstat`; `null` elsewhere), which is what capture adds
//! to the game itself: the writer thread's encoding and compression run beside it. Each is also
//! given as the microseconds a frame gains with the capture (`added_us_*`), with the render
//! thread's CPU time per frame (it hands the frame to the writer) and the writer thread's (the
//! capture's own work, off both). `queue_full_waits` counts the hand-overs that found the writer's
//! queue full and waited (0: the capture never held up rendering). The snapshot read back when a
//! capture starts is a one-off and is reported on its own. Replay: the last captured block replayed
//! on a second Vulkan device `REPLAYS` times back to back (`xnagraph_benches::replay`, the
//! `xnagraph-replay` path) after one uncounted warm-up replay, frames per second against the live
//! frames without capture (target at least 0.90): `ratio` from the mean frame times, `ratio_median`
//! from the median ones (the steady state). The CPU time per frame of the replay's submitting
//! thread (the resources' creation, each pass's snapshot uploads and the final idle wait included)
//! stands beside the live render thread's.

use std::time::{Duration, Instant};

use xnagraph::{GraphicsDevice, GraphicsProfile, PresentationParameters};
use xnagraph_benches::replay::replay;
use xnagraph_benches::{json, number, stats};
use xnagraph_graph::capture::Capture;
use xnagraph_samples::scene::SpriteScene;
use xnagraph_vulkan::{VulkanBackend, VulkanConfig};

const WIDTH: i32 = 640;
const HEIGHT: i32 = 360;
const WARMUP: u32 = 60;
const BLOCK: u32 = 60;
const ROUNDS: u32 = 5;
const REPLAYS: u32 = 5;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn err(e: xnagraph::XnaError) -> String {
    e.to_string()
}

/// Nanoseconds this thread has run on a CPU, if the system says.
fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

/// Nanoseconds the threads of this process whose name starts with `prefix` have run on a CPU,
/// if the system says (Linux's `/proc/self/task`; threads that ended are not counted).
fn threads_cpu_ns(prefix: &str) -> Option<u64> {
    let mut total = 0;
    for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let name = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if name.starts_with(prefix) {
            let stat = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
            total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
        }
    }
    Some(total)
}

/// The render thread's name (`xnagraph-render-N`, as the system shortens it).
const RENDER_THREAD: &str = "xnagraph-render";
/// The capture writer's name (`xnagraph capture`, as the system shortens it).
const WRITER_THREAD: &str = "xnagraph captur";

/// CPU nanoseconds of the game, render and writer threads over one block.
#[derive(Clone, Copy, Default)]
struct BlockCpu {
    game: Option<u64>,
    render: Option<u64>,
}

impl BlockCpu {
    fn add(self, other: BlockCpu) -> BlockCpu {
        let sum = |a: Option<u64>, b: Option<u64>| a.zip(b).map(|(a, b)| a + b);
        BlockCpu { game: sum(self.game, other.game), render: sum(self.render, other.render) }
    }
}

/// Runs `BLOCK` frames from `*frame` on, each one's time pushed to `out`; returns the game
/// and render threads' CPU time over the block (the render thread's up to its last frame's
/// hand-over: the block ends with every frame rendered).
fn run_block(
    device: &GraphicsDevice,
    scene: &mut SpriteScene,
    frame: &mut u32,
    out: &mut Vec<Duration>,
) -> Result<BlockCpu, String> {
    let (game, render) = (thread_cpu_ns(), threads_cpu_ns(RENDER_THREAD));
    for _ in 0..BLOCK {
        let start = Instant::now();
        scene.frame(device, *frame).map_err(err)?;
        out.push(start.elapsed());
        *frame += 1;
    }
    device.flush().map_err(err)?;
    let delta = |a: Option<u64>, b: Option<u64>| a.zip(b).map(|(a, b)| b - a);
    Ok(BlockCpu {
        game: delta(game, thread_cpu_ns()),
        render: delta(render, threads_cpu_ns(RENDER_THREAD)),
    })
}

fn main() -> Result<(), String> {
    let params = PresentationParameters {
        back_buffer_width: WIDTH,
        back_buffer_height: HEIGHT,
        ..PresentationParameters::default()
    };
    let device = GraphicsDevice::with_options(
        GraphicsProfile::HiDef,
        params,
        xnagraph::DeviceOptions::from_env(),
    )
    .map_err(err)?;
    let mut scene = SpriteScene::new(&device, WIDTH, HEIGHT).map_err(err)?;
    let path = std::env::temp_dir().join(format!("capture_cost_{}.xgc", std::process::id()));
    let mut frame = 0;
    let mut warmup = Vec::new();
    for _ in 0..WARMUP.div_ceil(BLOCK) {
        run_block(&device, &mut scene, &mut frame, &mut warmup)?;
    }
    let (mut without, mut with, mut starts) = (Vec::new(), Vec::new(), Vec::new());
    let zero = BlockCpu { game: Some(0), render: Some(0) };
    let (mut cpu_without, mut cpu_with) = (zero, zero);
    let (mut file_bytes, mut queue_full_waits, mut writer_ns) = (0, 0, Some(0));
    for _ in 0..ROUNDS {
        cpu_without = cpu_without.add(run_block(&device, &mut scene, &mut frame, &mut without)?);
        let (first, last) = (u64::from(frame), u64::from(frame + BLOCK - 1));
        let start = Instant::now();
        device.capture_frames(&path, first..=last).map_err(err)?;
        starts.push(start.elapsed());
        let writer_before = threads_cpu_ns(WRITER_THREAD);
        cpu_with = cpu_with.add(run_block(&device, &mut scene, &mut frame, &mut with)?);
        // Read before the writer finishes the file (and its thread ends).
        let writer_cpu = writer_before.zip(threads_cpu_ns(WRITER_THREAD)).map(|(a, b)| b - a);
        writer_ns = writer_ns.zip(writer_cpu).map(|(a, b)| a + b);
        let summary = device.capture_result().ok_or("the capture did not finish")?.map_err(err)?;
        file_bytes = summary.file_bytes;
        queue_full_waits += summary.queue_full_waits;
    }
    device.wait_idle().map_err(err)?;
    let adapter = device.adapter_name().to_owned();
    let mean = |v: &[Duration]| v.iter().map(|d| ms(*d)).sum::<f64>() / v.len().max(1) as f64;
    let (m0, m1) = (mean(&without), mean(&with));
    let (s0, s1) = (stats(&without), stats(&with));
    let per_frame = |ns: Option<u64>| ns.map(|ns| ns as f64 / 1e6 / without.len() as f64);
    let (c0, c1) = (per_frame(cpu_without.game), per_frame(cpu_with.game));
    let (r0, r1) = (per_frame(cpu_without.render), per_frame(cpu_with.render));
    let or_null = |x: Option<f64>| number(x.unwrap_or(f64::NAN));
    let added_us = |a: Option<f64>, b: Option<f64>| or_null(a.zip(b).map(|(a, b)| (b - a) * 1e3));
    println!(
        "{}",
        json(&[
            ("bench", "capture_cost".into()),
            ("adapter", xnagraph_benches::string(&adapter)),
            ("frames_each", without.len().into()),
            ("mean_ms_without", number(m0)),
            ("mean_ms_with", number(m1)),
            ("median_ms_without", number(s0.median_ns / 1e6)),
            ("median_ms_with", number(s1.median_ns / 1e6)),
            ("ratio_mean", number(m1 / m0)),
            ("ratio_median", number(s1.median_ns / s0.median_ns)),
            ("added_us_per_frame_mean", number((m1 - m0) * 1e3)),
            ("added_us_per_frame_median", number((s1.median_ns - s0.median_ns) / 1e3)),
            ("game_thread_cpu_ms_without", or_null(c0)),
            ("game_thread_cpu_ms_with", or_null(c1)),
            ("ratio_game_thread_cpu", or_null(c0.zip(c1).map(|(a, b)| b / a))),
            ("added_us_game_thread_cpu", added_us(c0, c1)),
            ("render_thread_cpu_ms_without", or_null(r0)),
            ("render_thread_cpu_ms_with", or_null(r1)),
            ("added_us_render_thread_cpu", added_us(r0, r1)),
            ("writer_thread_cpu_ms", or_null(per_frame(writer_ns))),
            ("queue_full_waits", queue_full_waits.into()),
            ("snapshot_start_ms", number(mean(&starts))),
            ("file_bytes_per_block", file_bytes.into()),
        ])
    );

    // Replay of the last captured block against the live frames.
    let capture = Capture::open(&path).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&path);
    drop(scene);
    drop(device);
    let mut backend = VulkanBackend::new(VulkanConfig::default()).map_err(|e| e.to_string())?;
    // A pass that builds the pipelines and grows the frame buffers, not counted, as the live
    // side's `WARMUP` frames are not.
    replay(&mut backend, &capture, 1, None, || {}).map_err(|e| e.to_string())?;
    let replay_cpu = thread_cpu_ns();
    let run = replay(&mut backend, &capture, REPLAYS, None, || {}).map_err(|e| e.to_string())?;
    let replay_cpu = replay_cpu.zip(thread_cpu_ns()).map(|(a, b)| b - a);
    let replay_ms: f64 = run.frames.iter().map(|f| f.frame_ms).sum();
    let live_fps = 1000.0 / m0;
    let replay_fps = run.frames.len() as f64 * 1000.0 / replay_ms;
    // Steady state: the median frames (a pass's first frame waits for its rebuilding thread,
    // its last for the GPU to go idle).
    let replay_frames: Vec<Duration> =
        run.frames.iter().map(|f| Duration::from_secs_f64(f.frame_ms / 1000.0)).collect();
    let replay_median_ms = stats(&replay_frames).median_ns / 1e6;
    let live_median_ms = s0.median_ns / 1e6;
    println!(
        "{}",
        json(&[
            ("bench", "replay_vs_live".into()),
            ("live_frames", without.len().into()),
            ("replayed_frames", run.frames.len().into()),
            ("live_fps", number(live_fps)),
            ("replay_fps", number(replay_fps)),
            ("ratio", number(replay_fps / live_fps)),
            ("live_median_ms", number(live_median_ms)),
            ("replay_median_ms", number(replay_median_ms)),
            ("ratio_median", number(live_median_ms / replay_median_ms)),
            ("live_render_thread_cpu_ms", or_null(r0)),
            (
                "replay_thread_cpu_ms",
                or_null(replay_cpu.map(|ns| ns as f64 / 1e6 / run.frames.len() as f64)),
            ),
        ])
    );
    Ok(())
}
