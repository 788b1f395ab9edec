//! The replay driver behind `xnagraph-replay`: a capture replayed on Vulkan, K times, with the
//! CPU time of each frame's compile and submission, frame-time percentiles, and a JSON summary.
//!
//! Frame time is the wall-clock time from the start of one frame's replay to the start of the
//! next (the last frame's ends when the GPU is idle), so it includes waiting for the GPU when
//! the frames-in-flight bound is reached; compile and submit are the CPU parts of it.

use std::time::{Duration, Instant};

use xnagraph_graph::capture::{Capture, Replayer};
use xnagraph_graph::compile::CompilePolicy;
use xnagraph_graph::{Backend, BackendError};

/// One replayed frame's figures, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
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
    /// The backend's lowering and submission CPU time.
    pub submit_ms: f64,
}

/// A finished replay: per-frame figures and the back buffer's last content.
#[derive(Debug)]
pub struct ReplayRun {
    /// Every frame of every pass, in order.
    pub frames: Vec<FrameFigures>,
    /// The back buffer after the last frame, tightly packed.
    pub final_back_buffer: Vec<u8>,
}

/// Replays `capture` `repeat` times on `backend` (each pass from a fresh snapshot upload),
/// calling `progress` after every frame.
pub fn replay(
    backend: &mut dyn Backend,
    capture: &Capture,
    repeat: u32,
    policy: Option<CompilePolicy>,
    mut progress: impl FnMut(),
) -> Result<ReplayRun, BackendError> {
    let mut frames = Vec::new();
    let mut final_back_buffer = Vec::new();
    for pass in 0..repeat.max(1) {
        let mut replayer = Replayer::new(backend, capture)?;
        if let Some(policy) = policy {
            replayer = replayer.with_policy(policy);
        }
        let mut begun = Instant::now();
        for (i, frame) in capture.frames.iter().enumerate() {
            let times = replayer.replay_frame(backend, capture, frame)?;
            let now = Instant::now();
            let mut figures = FrameFigures {
                pass,
                frame: i,
                frame_ms: ms(now - begun),
                record_ms: frame.end.map_or(0.0, |e| e.record_ns as f64 / 1e6),
                compile_ms: ms(times.compile),
                submit_ms: ms(times.submit),
            };
            if i + 1 == capture.frames.len() {
                backend.wait_idle()?;
                figures.frame_ms = ms(begun.elapsed());
            }
            begun = now;
            frames.push(figures);
            progress();
        }
        final_back_buffer = replayer.read_back(backend, capture.device.back_buffer, 0, 0)?;
        replayer.finish(backend)?;
    }
    Ok(ReplayRun { frames, final_back_buffer })
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The `p`-th percentile (0 to 100) of `values`, nearest rank; 0 for none.
pub fn percentile(values: &[f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The JSON summary of the frames whose position lies in `range` (inclusive; every frame
/// without one): frame count, mean and p50/p95/p99 of frame, compile and submit times.
pub fn summary_json(frames: &[FrameFigures], range: Option<(usize, usize)>) -> String {
    let chosen: Vec<&FrameFigures> = frames
        .iter()
        .filter(|f| match range {
            Some((a, b)) => (a..=b).contains(&f.frame),
            None => true,
        })
        .collect();
    let stat = |name: &str, get: &dyn Fn(&FrameFigures) -> f64| {
        let v: Vec<f64> = chosen.iter().map(|f| get(f)).collect();
        let mean = if v.is_empty() { 0.0 } else { v.iter().sum::<f64>() / v.len() as f64 };
        format!(
            "\"{name}\":{{\"mean\":{mean:.4},\"p50\":{:.4},\"p95\":{:.4},\"p99\":{:.4}}}",
            percentile(&v, 50.0),
            percentile(&v, 95.0),
            percentile(&v, 99.0)
        )
    };
    let range = match range {
        Some((a, b)) => format!("[{a},{b}]"),
        None => "null".to_owned(),
    };
    format!(
        "{{\"frames\":{},\"measurement_range\":{range},{},{},{},{}}}",
        chosen.len(),
        stat("frame_ms", &|f| f.frame_ms),
        stat("record_ms", &|f| f.record_ms),
        stat("compile_ms", &|f| f.compile_ms),
        stat("submit_ms", &|f| f.submit_ms),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(frame: usize, frame_ms: f64) -> FrameFigures {
        FrameFigures { pass: 0, frame, frame_ms, record_ms: 0.0, compile_ms: 1.0, submit_ms: 2.0 }
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&v, 50.0), 50.0);
        assert_eq!(percentile(&v, 95.0), 95.0);
        assert_eq!(percentile(&v, 99.0), 99.0);
        assert_eq!(percentile(&[7.0], 99.0), 7.0);
    }

    #[test]
    fn the_measurement_range_selects_frames_by_position() {
        let frames: Vec<_> = (0..10).map(|i| frame(i, i as f64 * 10.0)).collect();
        let json = summary_json(&frames, Some((2, 4)));
        assert!(json.starts_with("{\"frames\":3,\"measurement_range\":[2,4],"), "{json}");
        assert!(json.contains("\"frame_ms\":{\"mean\":30.0000,\"p50\":30.0000"), "{json}");
        let all = summary_json(&frames, None);
        assert!(all.contains("\"frames\":10,\"measurement_range\":null"), "{all}");
    }
}
