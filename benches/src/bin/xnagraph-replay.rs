//! `xnagraph-replay`: replays, inspects and trims xnagraph frame captures.
//!
//! `info` prints what a capture holds and its size against its raw data; `replay` runs it on
//! Vulkan (headless) once or `--repeat` times, prints p50/p95/p99 frame times and optionally
//! writes a JSON summary (`--json`, windowed by `--measurement-range a-b`) and the final frame
//! as a PNG; `trim` writes a new capture holding a range of frames with the snapshot it needs.
//! A malformed file is an error naming the chunk and byte offset, with exit status 1.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use xnagraph_benches::replay::{percentile, replay, summary_json};
use xnagraph_graph::capture::trim::trim;
use xnagraph_graph::capture::Capture;
use xnagraph_graph::compile::CompilePolicy;
use xnagraph_graph::SurfaceFormat;
use xnagraph_vulkan::{VulkanBackend, VulkanConfig};

#[derive(Parser, Debug)]
#[command(name = "xnagraph-replay", version, about = "Replays xnagraph frame captures")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Prints the device, resources, frames and sizes of a capture.
    Info {
        /// The capture file.
        capture: PathBuf,
    },
    /// Replays a capture on Vulkan, headless.
    Replay {
        /// The capture file.
        capture: PathBuf,
        /// How many times to replay every frame (each pass from the snapshot).
        #[arg(long, default_value_t = 1)]
        repeat: u32,
        /// Compile under the frame-blind policy instead of the recorded one.
        #[arg(long)]
        frame_blind: bool,
        /// Write the final frame's back buffer as an RGBA PNG.
        #[arg(long, value_name = "FILE")]
        png: Option<PathBuf>,
        /// Write a JSON summary of the frame times.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Only frames a to b (positions in the capture, inclusive) count in the summary.
        #[arg(long, value_name = "A-B", value_parser = parse_range)]
        measurement_range: Option<(usize, usize)>,
        /// Turn on the Khronos validation layer.
        #[arg(long)]
        validation: bool,
    },
    /// Writes frames a to b of a capture to a new capture that replays on its own.
    Trim {
        /// The capture file.
        capture: PathBuf,
        /// The new capture file.
        out: PathBuf,
        /// Frames to keep (positions in the capture, inclusive).
        #[arg(long, value_name = "A-B", value_parser = parse_range)]
        frames: (usize, usize),
    },
}

fn parse_range(value: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{value}' is not a range A-B of frame positions");
    let (a, b) = value.split_once('-').unwrap_or((value, value));
    let (a, b) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a > b {
        return Err(bad());
    }
    Ok((a, b))
}

fn backend(validation: bool) -> Result<VulkanBackend, String> {
    VulkanBackend::new(VulkanConfig { validation, ..VulkanConfig::default() })
        .map_err(|e| format!("no Vulkan device: {e}"))
}

fn open(path: &Path) -> Result<Capture, String> {
    Capture::open(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn info(path: &Path) -> Result<(), String> {
    let capture = open(path)?;
    let file_bytes = std::fs::metadata(path).map_err(|e| e.to_string())?.len();
    let d = &capture.device;
    println!(
        "device: {} profile, {:?} policy, recorded on {}",
        d.profile, d.compile_policy, d.adapter
    );
    println!("presentation: {}", d.presentation);
    println!(
        "frames: {} (device frames {}..), complete: {}",
        capture.frames.len(),
        capture.frames.first().map_or(0, |f| f.number),
        capture.complete
    );
    for t in &capture.textures {
        let desc = &t.desc;
        println!(
            "texture {}: {:?} {}x{} {:?} \"{}\"",
            t.key,
            desc.format,
            desc.width,
            desc.height,
            desc.render_target.map(|r| r.usage),
            t.name
        );
    }
    for b in &capture.buffers {
        let (desc, dynamic) = (&b.desc, if b.desc.dynamic { "dynamic " } else { "" });
        println!("buffer {}: {dynamic}{:?} {} bytes \"{}\"", b.key, desc.kind, desc.size, b.name);
    }
    let uses = capture.blob_uses();
    let raw: u64 = capture
        .blobs
        .iter()
        .enumerate()
        .map(|(id, b)| b.len() as u64 * *uses.get(&(id as u32)).unwrap_or(&0) as u64)
        .sum();
    println!(
        "size: {file_bytes} bytes for {raw} bytes of uploads, snapshot, sprites and user geometry (ratio {:.4})",
        file_bytes as f64 / raw.max(1) as f64
    );
    Ok(())
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Info { capture } => info(&capture),
        Command::Replay {
            capture,
            repeat,
            frame_blind,
            png,
            json,
            measurement_range,
            validation,
        } => {
            let capture = open(&capture)?;
            let mut backend = backend(validation)?;
            let total = capture.frames.len() as u64 * u64::from(repeat.max(1));
            let bar = indicatif::ProgressBar::new(total);
            if total < 100 {
                bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
            }
            let policy = frame_blind.then_some(CompilePolicy::FrameBlind);
            let run = replay(&mut backend, &capture, repeat, policy, || bar.inc(1))
                .map_err(|e| format!("replay failed: {e}"))?;
            bar.finish_and_clear();
            let frame_ms: Vec<f64> = run.frames.iter().map(|f| f.frame_ms).collect();
            println!(
                "{} frames on {}: p50 {:.3} ms, p95 {:.3} ms, p99 {:.3} ms",
                run.frames.len(),
                xnagraph_graph::Backend::adapter_name(&backend),
                percentile(&frame_ms, 50.0),
                percentile(&frame_ms, 95.0),
                percentile(&frame_ms, 99.0)
            );
            if let Some(path) = json {
                std::fs::write(&path, summary_json(&run.frames, measurement_range))
                    .map_err(|e| format!("{}: {e}", path.display()))?;
            }
            if let Some(path) = png {
                let desc = capture.textures[capture.device.back_buffer as usize].desc;
                write_png(&path, desc.width, desc.height, desc.format, &run.final_back_buffer)?;
            }
            Ok(())
        }
        Command::Trim { capture: path, out, frames } => {
            let capture = open(&path)?;
            let mut backend = backend(false)?;
            let file =
                std::fs::File::create(&out).map_err(|e| format!("{}: {e}", out.display()))?;
            let (_, stats) =
                trim(&capture, frames.0..=frames.1, &mut backend, std::io::BufWriter::new(file))
                    .map_err(|e| {
                        let _ = std::fs::remove_file(&out);
                        e.to_string()
                    })?;
            println!("{}: {} frames, {} bytes", out.display(), stats.frames, stats.file_bytes);
            Ok(())
        }
    }
}

fn write_png(
    path: &Path,
    width: u32,
    height: u32,
    format: SurfaceFormat,
    rgba: &[u8],
) -> Result<(), String> {
    if format != SurfaceFormat::Color {
        return Err(format!("the back buffer is {format:?}; only Color is written as PNG"));
    }
    let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let file = std::fs::File::create(path).map_err(|e| fail(&e))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| fail(&e))?;
    writer.write_image_data(rgba).map_err(|e| fail(&e))?;
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xnagraph-replay: {e}");
            ExitCode::FAILURE
        }
    }
}
