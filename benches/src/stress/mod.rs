//! The stress scenarios of `xnagraph-stress`: deterministic multi-frame workloads (a seeded
//! generator, a fixed time step) run through the public API, timed per frame.
//!
//! A [`Scenario`] updates its game state and records one frame at a time; [`run`] drives it,
//! presents each frame and collects a [`FrameTimes`] per frame: the game thread's update,
//! recording and `present` time (each timed apart), the
//! frame's wall time, the engine's compile, vertex upload, lowering and submission CPU time
//! read from its spans ([`timing::StageTimes`]), and the frame's GPU time from the backend's
//! timestamps (`DeviceOptions::gpu_timing`; latest end minus earliest begin over the frame's
//! plan nodes, absent on a backend without timestamps). [`Summary`] gives p50/p95/p99 of each
//! over the run.

pub mod churn;
pub mod cubes;
pub mod floor;
pub mod mixed;
pub mod post;
pub mod progress;
pub mod reference;
pub mod sprites;
pub mod timing;
pub mod uploads;
pub mod window;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use xnagraph::{GpuFrameTiming, GraphicsDevice};
use xnagraph_graph::timing::span_ns;

use crate::{json, number};
use timing::{StageTimes, Stages};

/// A small deterministic generator (64-bit LCG, high bits out): the same sequence on every
/// run and every build.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// The next value in `0.0..1.0`.
    pub fn unit(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    /// The next value in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.unit() as f64 * f64::from(n)) as u32).min(n - 1)
    }
}

/// The fixed time step every scenario advances by per frame (60 Hz).
pub const TIME_STEP: f32 = 1.0 / 60.0;

/// One multi-frame workload.
pub trait Scenario {
    /// Advances the game state for frame `index` (a simulation step, no engine calls): timed
    /// as the frame's `update`, apart from its recording. The default does nothing.
    fn update(&mut self, index: u32) {
        let _ = index;
    }

    /// Records frame `index` (everything but the present, which [`run`] issues), after its
    /// [`Scenario::update`].
    fn record(&mut self, device: &GraphicsDevice, index: u32) -> xnagraph::Result<()>;

    /// Called after frame `index` was presented: a scenario that samples the device between
    /// frames (live objects, memory) does it here, outside the timed part. Returns a JSON line
    /// to print, if any.
    fn after_present(
        &mut self,
        device: &GraphicsDevice,
        index: u32,
    ) -> xnagraph::Result<Option<String>> {
        let _ = (device, index);
        Ok(None)
    }
}

/// What one frame cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameTimes {
    /// The game thread advancing the scenario's state ([`Scenario::update`]).
    pub update: Duration,
    /// The game thread recording the frame (the scenario's engine calls, up to `present`);
    /// `update + record` is the game thread's whole frame before `present`.
    pub record: Duration,
    /// The game thread inside `present` (hand-over; with the render thread off, everything).
    pub present: Duration,
    /// From this frame's first call to the next frame's first call.
    pub frame: Duration,
    /// The engine's stages for the flushes of this frame.
    pub stages: Stages,
    /// The GPU time of the frame's flushes (latest end minus earliest begin), when the device
    /// times its frames.
    pub gpu: Option<Duration>,
}

/// The frame-time plot of a run (`--plot F.svg`): frame, record, compile, lowering and GPU
/// time per frame.
pub fn plot_svg(title: &str, frames: &[FrameTimes]) -> String {
    let series = |name, colour, get: fn(&FrameTimes) -> f64| crate::plot::Series {
        name,
        colour,
        values: frames.iter().map(get).collect(),
    };
    crate::plot::svg(
        title,
        &[
            series("frame", "#1f77b4", |f| ms(f.frame)),
            series("record", "#2ca02c", |f| ms(f.record)),
            series("compile", "#ff7f0e", |f| ms(f.stages.compile)),
            series("lower", "#d62728", |f| ms(f.stages.lower)),
            series("gpu", "#9467bd", |f| f.gpu.map_or(f64::NAN, ms)),
        ],
    )
}

impl FrameTimes {
    /// One JSON line for frame `index`.
    pub fn json(&self, scenario: &str, index: usize) -> String {
        json(&[
            ("scenario", crate::string(scenario)),
            ("frame", index.into()),
            ("update_ms", number(ms(self.update))),
            ("record_ms", number(ms(self.record))),
            ("present_ms", number(ms(self.present))),
            ("compile_ms", number(ms(self.stages.compile))),
            ("upload_ms", number(ms(self.stages.upload))),
            ("lower_ms", number(ms(self.stages.lower))),
            ("submit_ms", number(ms(self.stages.submit))),
            ("frame_ms", number(ms(self.frame))),
            ("gpu_ms", number(self.gpu.map_or(f64::NAN, ms))),
        ])
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The `p`-th percentile (nearest rank) of `values`, which it sorts.
pub fn percentile(values: &mut [f64], p: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * values.len() as f64).ceil() as usize;
    values[rank.clamp(1, values.len()) - 1]
}

/// A summarised figure: its name and how to read it from a frame (`None`: not measured).
type Figure = (&'static str, fn(&FrameTimes) -> Option<Duration>);

/// p50/p95/p99 of every figure over a run.
pub struct Summary<'a>(pub &'a [FrameTimes]);

impl Summary<'_> {
    /// One JSON line: for each figure, its p50, p95 and p99 in milliseconds.
    pub fn json(&self, scenario: &str, extra: &[(&str, crate::Value)]) -> String {
        let figures: [Figure; 9] = [
            ("update", |f| Some(f.update)),
            ("record", |f| Some(f.record)),
            ("present", |f| Some(f.present)),
            ("compile", |f| Some(f.stages.compile)),
            ("upload", |f| Some(f.stages.upload)),
            ("lower", |f| Some(f.stages.lower)),
            ("submit", |f| Some(f.stages.submit)),
            ("frame", |f| Some(f.frame)),
            ("gpu", |f| f.gpu),
        ];
        let mut out = vec![
            ("scenario", crate::string(scenario)),
            ("summary", true.into()),
            ("frames", self.0.len().into()),
        ];
        let mut names = Vec::new();
        for (name, get) in figures {
            let mut v: Vec<f64> = self.0.iter().filter_map(|f| get(f).map(ms)).collect();
            for p in [50.0, 95.0, 99.0] {
                names.push((format!("{name}_p{p}_ms"), number(percentile(&mut v, p))));
            }
        }
        out.extend(names.iter().map(|(k, v)| (k.as_str(), v.clone())));
        out.extend(extra.iter().cloned());
        json(&out)
    }
}

/// How [`run`] reports progress.
pub trait Progress {
    /// Frame `index` is done.
    fn frame_done(&mut self, index: u32);
}

impl Progress for () {
    fn frame_done(&mut self, _: u32) {}
}

/// Frames after which a frame's stage figures are taken: by then the render thread has long
/// finished it (it runs at most the frames-in-flight bound, 16 at most, plus its queue behind).
pub const TAKE_LAG: usize = 40;

/// Runs `frames` frames of `scenario` on `device`, presenting each; `times` must be the layer
/// installed where `device` was created. Lines the scenario reports between frames go to
/// `lines`. Each frame's stage figures are taken [`TAKE_LAG`] frames later (so the collector
/// stays small over long runs), the last ones after waiting for the GPU at the end.
pub fn run(
    device: &GraphicsDevice,
    scenario: &mut dyn Scenario,
    frames: u32,
    times: &StageTimes,
    progress: &mut dyn Progress,
    lines: &mut dyn FnMut(String),
) -> xnagraph::Result<Vec<FrameTimes>> {
    let mut runner = Runner::new(device, frames);
    for _ in 0..frames {
        runner.record(device, scenario)?;
        runner.present(device, scenario, times, progress, lines)?;
    }
    runner.finish(device, times)
}

/// [`run`] one frame at a time, for a loop that is not the caller's (a window's event loop):
/// [`Runner::record`] then [`Runner::present`] per frame, [`Runner::finish`] at the end, which
/// may come before the frames planned (a closed window).
pub struct Runner {
    out: Vec<FrameTimes>,
    flushes: Vec<(u64, u64)>,
    flushed: u64,
    gpu: GpuTimes,
    start: Instant,
    updated: Duration,
    recorded: Duration,
    /// When the frame's recording ended, from `start`.
    record_end: Duration,
    index: u32,
}

impl Runner {
    /// A run of at most `frames` frames on `device`, its first frame starting now.
    pub fn new(device: &GraphicsDevice, frames: u32) -> Runner {
        // Filled up front, so the run's own records add no resident memory while it runs (a
        // reserved but untouched vector would grow the resident set page by page).
        let unset = FrameTimes { frame: Duration::MAX, ..FrameTimes::default() };
        Runner {
            out: vec![unset; frames as usize],
            flushes: vec![(u64::MAX, u64::MAX); frames as usize],
            flushed: device.submission_count(),
            gpu: GpuTimes::default(),
            start: Instant::now(),
            updated: Duration::ZERO,
            recorded: Duration::ZERO,
            record_end: Duration::ZERO,
            index: 0,
        }
    }

    /// Frames presented so far.
    pub fn done(&self) -> u32 {
        self.index
    }

    /// Whether every planned frame was presented.
    pub fn is_complete(&self) -> bool {
        self.index as usize == self.out.len()
    }

    /// Updates and records the next frame of `scenario`, timing the two apart.
    pub fn record(
        &mut self,
        device: &GraphicsDevice,
        scenario: &mut dyn Scenario,
    ) -> xnagraph::Result<()> {
        let update = Instant::now();
        scenario.update(self.index);
        let record = Instant::now();
        scenario.record(device, self.index)?;
        self.recorded = record.elapsed();
        self.updated = record - update;
        self.record_end = self.start.elapsed();
        Ok(())
    }

    /// Presents the frame just recorded and files its figures.
    pub fn present(
        &mut self,
        device: &GraphicsDevice,
        scenario: &mut dyn Scenario,
        times: &StageTimes,
        progress: &mut dyn Progress,
        lines: &mut dyn FnMut(String),
    ) -> xnagraph::Result<()> {
        let index = self.index;
        device.present()?;
        let presented = self.start.elapsed();
        let last = device.submission_count();
        self.flushes[index as usize] = (self.flushed + 1, last);
        self.flushed = last;
        if let Some(line) = scenario.after_present(device, index)? {
            lines(line);
        }
        progress.frame_done(index);
        self.gpu.drain(device)?;
        if let Some(done) = (index as usize).checked_sub(TAKE_LAG) {
            let (first, last) = self.flushes[done];
            self.out[done].stages = times.take(first, last);
            self.out[done].gpu = self.gpu.take(first, last);
        }
        let next = Instant::now();
        self.out[index as usize] = FrameTimes {
            update: self.updated,
            record: self.recorded,
            present: presented - self.record_end,
            frame: next - self.start,
            stages: Stages::default(),
            gpu: None,
        };
        self.start = next;
        self.index += 1;
        Ok(())
    }

    /// Waits for the GPU and returns the figures of the frames presented.
    pub fn finish(
        mut self,
        device: &GraphicsDevice,
        times: &StageTimes,
    ) -> xnagraph::Result<Vec<FrameTimes>> {
        device.wait_idle()?;
        self.gpu.drain(device)?;
        self.out.truncate(self.index as usize);
        self.flushes.truncate(self.index as usize);
        let taken = self.out.len().saturating_sub(TAKE_LAG);
        for (frame, (first, last)) in self.out.iter_mut().zip(self.flushes).skip(taken) {
            frame.stages = times.take(first, last);
            frame.gpu = self.gpu.take(first, last);
        }
        Ok(self.out)
    }
}

/// GPU timings drained from the device, by flush number, until their frame takes them.
#[derive(Default)]
struct GpuTimes(HashMap<u64, GpuFrameTiming>);

impl GpuTimes {
    /// Takes what the device has finished, without waiting.
    fn drain(&mut self, device: &GraphicsDevice) -> xnagraph::Result<()> {
        for t in device.drain_gpu_timings()? {
            self.0.insert(t.frame, t.timing);
        }
        Ok(())
    }

    /// The GPU time of flushes `first..=last`, when every one of them was timed.
    fn take(&mut self, first: u64, last: u64) -> Option<Duration> {
        let timed: Option<Vec<GpuFrameTiming>> =
            (first..=last).map(|n| self.0.remove(&n)).collect();
        span_ns(timed?.iter()).map(Duration::from_nanos)
    }
}

/// This process's resident set size in bytes (Linux `/proc/self/statm`); `None` elsewhere.
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}
