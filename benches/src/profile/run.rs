//! The profiled replay: a capture replayed on a backend, K times, with per frame the CPU time
//! of record (from the capture), compile, lowering and submit, the wall-clock frame time and,
//! where the backend has timestamps, the GPU time of every plan node.
//!
//! Frame time is the wall-clock time from the start of one frame's replay to the start of the
//! next (the last frame's ends when the GPU is idle), so it includes waiting for the GPU when
//! the frames-in-flight bound is reached: without GPU timestamps it is the frame's time fence
//! to fence. GPU time is latest end minus earliest begin over the frame's submissions. Reports
//! are drained after every frame without waiting; the last ones after the final idle wait.
//!
//! Frames are replayed as the live run renders them: a thread rebuilds the capture's frames
//! ([`xnagraph_graph::capture::Rebuilder`], the game's recording) up to [`AHEAD`] frames ahead
//! of the compile and submission on the calling thread (the engine's render thread), in order.
//! A frame's `rebuild` time is spent on that thread, beside the frame times measured here.
//! Passes of a repeated replay follow each other as frames do: the rebuilding thread runs on
//! into the next pass, and each pass after the first uploads the snapshot again on the same
//! resources within its first frame; only the last frame waits for the GPU.
//!
//! Lowering is the backend's `lower` span (the plan recorded into a command buffer); submit is
//! the rest of the backend's submit call (queue submission and bookkeeping). A backend without
//! a `lower` span (SDL_gpu) reports all of it as submit.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use tracing_subscriber::layer::SubscriberExt;
use xnagraph_graph::capture::{Capture, QueryCheck, Replayer};
use xnagraph_graph::compile::CompilePolicy;
use xnagraph_graph::timing::{instant_ns, span_ns};
use xnagraph_graph::{Backend, BackendError, GpuFrameTiming, GpuTimingSupport, SubmissionId};

use super::observe::{Observed, PlanLog, SubmittedPlan};
use crate::stress::timing::StageTimes;

/// What to replay and what to keep.
#[derive(Clone, Debug, Default)]
pub struct ProfileOptions {
    /// Passes over the capture, back to back on the same resources, each from the snapshot
    /// ([`Replayer::rewind`]); at least 1.
    pub repeat: u32,
    /// Compile under this policy instead of the recorded one.
    pub policy: Option<CompilePolicy>,
    /// Time plan nodes with GPU timestamps.
    pub timestamps: bool,
    /// Keep the DOT of this frame's plan (position in the capture; first pass).
    pub dot_frame: Option<usize>,
    /// Keep the event list of this frame's plans (position in the capture; first pass).
    pub list_frame: Option<usize>,
    /// Keep every plan's [`super::observe::PlanDetail`] in the first pass (for a report).
    pub details: bool,
    /// Read the back buffer back after these frames (positions; first pass).
    pub png_frames: Vec<usize>,
    /// Only the frames' times and the final frame: no per-plan node descriptions, and no
    /// `tracing` subscriber for the stage spans (the lowering's time is then counted in
    /// `submit_ms`, `lower_ms` reads 0). A plain replay does what the live run does and no more.
    pub plain: bool,
}

/// Frames the rebuilding thread may run ahead of the submissions: the engine's default
/// frames-in-flight bound, which bounds how far a game records ahead of its render thread.
pub const AHEAD: usize = 2;

/// One replayed frame's figures, in milliseconds.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameFigures {
    /// The pass (from 0) of a repeated replay.
    pub pass: u32,
    /// The frame's position in the capture.
    pub frame: usize,
    /// Wall-clock frame time.
    pub frame_ms: f64,
    /// The game's recording time, from the capture.
    pub record_ms: f64,
    /// The compiler's CPU time.
    pub compile_ms: f64,
    /// The backend's lowering (plan → command buffer) CPU time.
    pub lower_ms: f64,
    /// The rest of the backend's submit call: queue submission and bookkeeping.
    pub submit_ms: f64,
    /// GPU time (latest end minus earliest begin of its plan nodes), when timed.
    pub gpu_ms: Option<f64>,
    /// When the frame's replay began, on the timing clock.
    pub start_ns: u64,
    /// Its submissions, in order (each one's plan: [`ProfileRun::plan`]).
    pub submissions: Vec<SubmissionId>,
}

/// A finished profiled replay.
#[derive(Debug)]
pub struct ProfileRun {
    /// The adapter it ran on.
    pub adapter: String,
    /// Whether GPU time was measured, and how.
    pub support: GpuTimingSupport,
    /// Every frame of every pass, in order.
    pub frames: Vec<FrameFigures>,
    /// Every submitted plan (frames, snapshot upload and readbacks), in order.
    pub plans: Vec<SubmittedPlan>,
    /// The GPU timing of each timed submission.
    pub timings: HashMap<SubmissionId, GpuFrameTiming>,
    /// The back buffer after the last frame, tightly packed.
    pub final_back_buffer: Vec<u8>,
    /// The DOT of the chosen frame's plan (the flush with the most nodes), when asked for.
    pub dot: Option<String>,
    /// The event list of the chosen frame (every plan it submitted, in order), when asked for.
    pub events: Vec<super::events::NodeEvents>,
    /// The back buffer after each chosen frame: (position, bytes).
    pub frame_images: Vec<(usize, Vec<u8>)>,
    /// Each occlusion query count the file holds against the replay's count of the same span
    /// (of every pass).
    pub query_checks: Vec<QueryCheck>,
}

impl ProfileRun {
    /// The submitted plan of `submission`.
    pub fn plan(&self, submission: SubmissionId) -> Option<&SubmittedPlan> {
        self.plans.iter().find(|p| p.submission == submission)
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Replays `capture` on `backend` as `options` say, calling `progress` after every frame.
pub fn profile(
    backend: &mut dyn Backend,
    capture: &Capture,
    options: &ProfileOptions,
    mut progress: impl FnMut(),
) -> Result<ProfileRun, BackendError> {
    profile_while(backend, capture, options, || {
        progress();
        true
    })
}

/// [`profile`], calling `go_on` after every frame: the replay ends after that frame when it
/// returns false (a replay window was closed), with the figures of the frames replayed so far
/// and the back buffer as the last of them left it. A back buffer whose last frame was drawn
/// straight into a window's swapchain image has no content to read: `final_back_buffer` is
/// then empty.
pub fn profile_while(
    backend: &mut dyn Backend,
    capture: &Capture,
    options: &ProfileOptions,
    go_on: impl FnMut() -> bool,
) -> Result<ProfileRun, BackendError> {
    let support = backend.set_gpu_timing(options.timestamps);
    let support = if options.timestamps {
        support
    } else {
        GpuTimingSupport::Unavailable("timestamps off (--timestamps off)".into())
    };
    let stages = StageTimes::default();
    let result = if options.plain {
        passes(backend, capture, options, &stages, go_on)
    } else {
        let subscriber = tracing_subscriber::registry().with(stages.clone());
        tracing::subscriber::with_default(subscriber, || {
            passes(backend, capture, options, &stages, go_on)
        })
    };
    backend.set_gpu_timing(false);
    let (mut run, timings) = result?;
    run.support = support;
    for frame in &mut run.frames {
        let timed: Option<Vec<&GpuFrameTiming>> =
            frame.submissions.iter().map(|s| timings.get(s)).collect();
        frame.gpu_ms = timed.and_then(span_ns).map(|ns| ns as f64 / 1e6);
    }
    run.timings = timings;
    Ok(run)
}

fn passes(
    backend: &mut dyn Backend,
    capture: &Capture,
    options: &ProfileOptions,
    stages: &StageTimes,
    mut go_on: impl FnMut() -> bool,
) -> Result<(ProfileRun, HashMap<SubmissionId, GpuFrameTiming>), BackendError> {
    let adapter = backend.adapter_name().to_owned();
    let mut observed = Observed::new(backend, PlanLog::default());
    let mut frames = Vec::new();
    let mut timings = HashMap::new();
    let mut dot = None;
    let mut events = Vec::new();
    let mut frame_images = Vec::new();
    let mut counter = 0u64;
    let back_buffer = capture.device.back_buffer;
    observed.watcher.describe = !options.plain;
    let passes = options.repeat.max(1);
    let mut replayer = Replayer::new(&mut observed, capture)?;
    if let Some(policy) = options.policy {
        replayer = replayer.with_policy(policy);
    }
    let mut rebuilder = replayer.rebuilder();
    std::thread::scope(|scope| {
        let (ahead, rebuilt) = std::sync::mpsc::sync_channel(AHEAD);
        scope.spawn(move || {
            for _ in 0..passes {
                for frame in &capture.frames {
                    // A closed channel: the replay stopped at an error or was closed.
                    if ahead.send(rebuilder.frame(capture, frame)).is_err() {
                        return;
                    }
                }
            }
        });
        let mut begun = Instant::now();
        'passes: for pass in 0..passes {
            if pass > 0 {
                // Back to the snapshot without draining the GPU: its uploads go with the
                // pass's first frame, as a game's uploads do.
                replayer.rewind(capture);
            }
            let last_pass = pass + 1 == passes;
            for (i, frame) in capture.frames.iter().enumerate() {
                let next = rebuilt.recv().map_err(|_| {
                    BackendError::Native("the replay's rebuilding thread stopped".into())
                })?;
                counter += 1;
                let first_plan = observed.watcher.plans.len();
                let observing = observed.watcher.spent;
                observed.watcher.want_dot = pass == 0 && options.dot_frame == Some(i);
                observed.watcher.want_detail =
                    pass == 0 && (options.details || options.list_frame == Some(i));
                let times = {
                    let _span = tracing::debug_span!("render_frame", frame = counter).entered();
                    replayer.submit_frame(&mut observed, next)?
                };
                observed.watcher.want_dot = false;
                observed.watcher.want_detail = false;
                let spans = stages.take(counter, counter);
                let now = Instant::now();
                let plans = &observed.watcher.plans[first_plan..];
                if pass == 0 && options.list_frame == Some(i) {
                    events = plans
                        .iter()
                        .filter_map(|p| p.detail.as_ref())
                        .flat_map(|d| d.events.clone())
                        .collect();
                }
                if pass == 0 && options.dot_frame == Some(i) {
                    dot = plans.iter().max_by_key(|p| p.nodes.len()).and_then(|p| p.dot.clone());
                }
                // The observer's description of the plans is the profiler's work, not the
                // submission's.
                let submit = times.submit.saturating_sub(observed.watcher.spent - observing);
                let lower = spans.lower.min(submit);
                let mut figures = FrameFigures {
                    pass,
                    frame: i,
                    frame_ms: ms(now - begun),
                    record_ms: frame.end.map_or(0.0, |e| e.record_ns as f64 / 1e6),
                    compile_ms: ms(times.compile),
                    lower_ms: ms(lower),
                    submit_ms: ms(submit - lower),
                    gpu_ms: None,
                    start_ns: instant_ns(begun),
                    submissions: plans.iter().map(|p| p.submission).collect(),
                };
                if last_pass && i + 1 == capture.frames.len() {
                    observed.wait_idle()?;
                    figures.frame_ms = ms(begun.elapsed());
                }
                // Without timestamps there is nothing to drain: the live run does not poll its
                // fences between frames either.
                if options.timestamps {
                    let drained = observed.drain_gpu_timings();
                    timings.extend(drained.into_iter().map(|t| (t.submission, t)));
                }
                frames.push(figures);
                if pass == 0 && options.png_frames.contains(&i) {
                    frame_images.push((i, replayer.read_back(&mut observed, back_buffer, 0, 0)?));
                }
                let frame_begun = std::mem::replace(&mut begun, Instant::now());
                if !go_on() {
                    // The last frame replayed: it ends when the GPU is idle, as a final frame
                    // does.
                    observed.wait_idle()?;
                    if let Some(last) = frames.last_mut() {
                        last.frame_ms = last.frame_ms.max(ms(frame_begun.elapsed()));
                    }
                    break 'passes;
                }
            }
        }
        Ok::<_, BackendError>(())
    })?;
    // A frame drawn straight into a window's swapchain image left nothing to read.
    let final_back_buffer = if replayer.texture(back_buffer).given_to_presentation() {
        Vec::new()
    } else {
        replayer.read_back(&mut observed, back_buffer, 0, 0)?
    };
    replayer.finish(&mut observed)?;
    let query_checks = replayer.query_checks().to_vec();
    timings.extend(observed.drain_gpu_timings().into_iter().map(|t| (t.submission, t)));
    let run = ProfileRun {
        adapter,
        support: GpuTimingSupport::Unavailable(String::new()),
        frames,
        plans: std::mem::take(&mut observed.watcher.plans),
        timings: HashMap::new(),
        final_back_buffer,
        dot,
        events,
        frame_images,
        query_checks,
    };
    Ok((run, timings))
}

/// What the timestamps themselves cost: the same capture replayed with them off and on,
/// alternating, in one process. Means over every frame of every round: the mean wall-clock
/// frame time is the replay's whole duration (each pass ends when the GPU is idle) over its
/// frames, so it takes in GPU time as well.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimestampCost {
    /// Mean wall-clock frame time without timestamps, ms.
    pub frame_off_ms: f64,
    /// Mean wall-clock frame time with timestamps, ms.
    pub frame_on_ms: f64,
    /// Mean CPU time of lowering + submit without timestamps, ms.
    pub cpu_off_ms: f64,
    /// Mean CPU time of lowering + submit with timestamps, ms.
    pub cpu_on_ms: f64,
}

impl TimestampCost {
    /// Frame time with timestamps over frame time without.
    pub fn frame_ratio(&self) -> f64 {
        self.frame_on_ms / self.frame_off_ms
    }

    /// Lowering + submit CPU time with timestamps over without.
    pub fn cpu_ratio(&self) -> f64 {
        self.cpu_on_ms / self.cpu_off_ms
    }
}

/// Replays `capture` `rounds` times without and `rounds` times with timestamps, alternating.
pub fn timestamp_cost(
    backend: &mut dyn Backend,
    capture: &Capture,
    policy: Option<CompilePolicy>,
    rounds: u32,
    mut progress: impl FnMut(),
) -> Result<TimestampCost, BackendError> {
    let mut frame = [Vec::new(), Vec::new()];
    let mut cpu = [Vec::new(), Vec::new()];
    // A pass that builds pipelines and grows buffers, counted on neither side.
    let warm_up = ProfileOptions { repeat: 1, policy, ..Default::default() };
    profile(backend, capture, &warm_up, &mut progress)?;
    for _ in 0..rounds.max(1) {
        for (k, timestamps) in [false, true].into_iter().enumerate() {
            let options = ProfileOptions { repeat: 1, policy, timestamps, ..Default::default() };
            let run = profile(backend, capture, &options, &mut progress)?;
            frame[k].extend(run.frames.iter().map(|f| f.frame_ms));
            cpu[k].extend(run.frames.iter().map(|f| f.lower_ms + f.submit_ms));
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    Ok(TimestampCost {
        frame_off_ms: mean(&frame[0]),
        frame_on_ms: mean(&frame[1]),
        cpu_off_ms: mean(&cpu[0]),
        cpu_on_ms: mean(&cpu[1]),
    })
}
