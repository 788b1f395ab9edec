//! Shared pieces of xnagraph's benchmarks: timing statistics and JSON output.
//!
//! Each benchmark in `benches/benches/` is a plain binary (`harness = false`) that prints one
//! JSON object per figure on stdout, so runs can be compared by tools and by eye.

pub mod alloc_count;
pub mod ash_clear;
pub mod ash_commands;
pub mod ash_device;
pub mod ash_fill;
pub mod ash_pipeline;
pub mod ash_sprites;
pub mod coverage;
pub mod fuzz;
pub mod plot;
pub mod post_chain;
pub mod profile;
pub mod replay;
pub mod stress;

use std::time::{Duration, Instant};

/// Runs `f` `iterations` times after `warmup` untimed runs; returns each run's duration.
pub fn sample(warmup: usize, iterations: usize, mut f: impl FnMut()) -> Vec<Duration> {
    for _ in 0..warmup {
        f();
    }
    (0..iterations)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect()
}

/// Median, minimum and mean of a sample, in nanoseconds.
#[derive(Clone, Copy, Debug)]
pub struct Stats {
    pub median_ns: f64,
    pub min_ns: f64,
    pub mean_ns: f64,
}

pub fn stats(samples: &[Duration]) -> Stats {
    let mut ns: Vec<f64> = samples.iter().map(|d| d.as_secs_f64() * 1e9).collect();
    ns.sort_by(f64::total_cmp);
    let median_ns = if ns.is_empty() { 0.0 } else { ns[ns.len() / 2] };
    let min_ns = ns.first().copied().unwrap_or(0.0);
    let mean_ns = if ns.is_empty() { 0.0 } else { ns.iter().sum::<f64>() / ns.len() as f64 };
    Stats { median_ns, min_ns, mean_ns }
}

/// One JSON object from key/value pairs (values already formatted as JSON).
pub fn json(fields: &[(&str, String)]) -> String {
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
    format!("{{{}}}", body.join(", "))
}

/// `Err` naming how many validation `messages` there are and the first, when there are any:
/// every program here fails its run on a validation message.
pub fn no_validation_messages(messages: &[String]) -> Result<(), String> {
    match messages.first() {
        Some(first) => Err(format!("{} validation messages, the first: {first}", messages.len())),
        None => Ok(()),
    }
}

/// Writes `rgba` (`width` × `height` pixels, 8 bits per channel, rows top to bottom) as a PNG.
pub fn write_rgba_png(
    path: &std::path::Path,
    width: u32,
    height: u32,
    rgba: &[u8],
) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let file = std::fs::File::create(path).map_err(|e| fail(&e))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| fail(&e))?;
    writer.write_image_data(rgba).map_err(|e| fail(&e))?;
    writer.finish().map_err(|e| fail(&e))
}

pub fn string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

pub fn number(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.3}")
    } else {
        "null".to_owned()
    }
}
