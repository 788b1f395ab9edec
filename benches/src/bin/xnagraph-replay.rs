//! `xnagraph-replay`: replays, inspects and trims xnagraph frame captures.
//!
//! `info` prints what a capture holds and its size against its raw data; `replay` runs it on
//! Vulkan or SDL_gpu (`--backend`, headless) once or `--repeat` times and profiles it: a table
//! of the CPU stages (record, compile, lowering, submit), wall-clock and GPU frame times with
//! p50/p95/p99, a table per plan node (name, kind, attachments, load/store ops, draws, GPU ms,
//! share of the frame), optionally a JSON summary (`--json`, windowed by
//! `--measurement-range a-b`) and the final frame as a PNG; `--timestamp-cost` measures what
//! the GPU timestamps cost; `trim` writes a new capture holding a range of frames with the snapshot it needs.
//! A malformed file is an error naming the chunk and byte offset, with exit status 1.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use xnagraph_benches::profile::{
    node_table, percentile, profile, report, stage_table, summary_json, timestamp_cost,
    ProfileOptions,
};
use xnagraph_graph::capture::trim::trim;
use xnagraph_graph::capture::Capture;
use xnagraph_graph::compile::CompilePolicy;
use xnagraph_graph::{Backend, SurfaceFormat};
use xnagraph_sdlgpu::{SdlGpuBackend, SdlGpuConfig};
use xnagraph_vulkan::{VulkanBackend, VulkanConfig};

#[derive(Parser, Debug)]
#[command(name = "xnagraph-replay", version, about = "Replays xnagraph frame captures")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum BackendChoice {
    /// Vulkan 1.3 (ash + vk-mem).
    Vulkan,
    /// SDL 3.4's GPU API (no GPU timestamps: frame time is fence to fence).
    Sdlgpu,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum OnOff {
    On,
    Off,
}

#[derive(clap::Args, Debug)]
struct ReplayArgs {
    /// The capture file.
    capture: PathBuf,
    /// The backend that replays it.
    #[arg(long, value_enum, default_value_t = BackendChoice::Vulkan)]
    backend: BackendChoice,
    /// How many times to replay every frame (each pass from the snapshot).
    #[arg(long, default_value_t = 1)]
    repeat: u32,
    /// Compile under the frame-blind policy instead of the recorded one.
    #[arg(long)]
    frame_blind: bool,
    /// GPU timestamps around every plan node (Vulkan).
    #[arg(long, value_enum, default_value_t = OnOff::On)]
    timestamps: OnOff,
    /// Measure what the timestamps cost: replay with them off and on, alternating, `--repeat`
    /// rounds each, and print the ratio.
    #[arg(long)]
    timestamp_cost: bool,
    /// Write the final frame's back buffer as an RGBA PNG.
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// Write a JSON summary (stages, GPU time, per-node rows).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Only frames a to b (positions in the capture, inclusive) count in the tables and summary.
    #[arg(long, value_name = "A-B", value_parser = parse_range)]
    measurement_range: Option<(usize, usize)>,
    /// Turn on the Khronos validation layer (SDL_gpu: debug mode); any message fails the run.
    #[arg(long)]
    validation: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Prints the device, resources, frames and sizes of a capture.
    Info {
        /// The capture file.
        capture: PathBuf,
    },
    /// Replays a capture headless and profiles it: per plan node GPU time, per frame CPU
    /// stages and GPU time with percentiles.
    Replay(ReplayArgs),
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

fn chosen_backend(choice: BackendChoice, validation: bool) -> Result<Box<dyn Backend>, String> {
    Ok(match choice {
        BackendChoice::Vulkan => Box::new(backend(validation)?),
        BackendChoice::Sdlgpu => Box::new(
            SdlGpuBackend::new(SdlGpuConfig {
                debug_mode: validation || cfg!(debug_assertions),
                ..SdlGpuConfig::default()
            })
            .map_err(|e| format!("no SDL_gpu device: {e}"))?,
        ),
    })
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
    let uses = capture.blob_uses();
    let raw: u64 = capture
        .blobs
        .iter()
        .enumerate()
        .map(|(id, b)| b.len() as u64 * *uses.get(&(id as u32)).unwrap_or(&0) as u64)
        .sum();
    println!(
        "size: {file_bytes} bytes for {raw} bytes of uploads, snapshot and sprites (ratio {:.4})",
        file_bytes as f64 / raw.max(1) as f64
    );
    Ok(())
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Info { capture } => info(&capture),
        Command::Replay(args) => replay_command(args),
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

fn replay_command(args: ReplayArgs) -> Result<(), String> {
    let capture = open(&args.capture)?;
    let mut backend = chosen_backend(args.backend, args.validation)?;
    let backend = backend.as_mut();
    let policy = args.frame_blind.then_some(CompilePolicy::FrameBlind);
    let passes = if args.timestamp_cost {
        2 * u64::from(args.repeat.max(1)) + 1
    } else {
        u64::from(args.repeat.max(1))
    };
    let bar = indicatif::ProgressBar::new(capture.frames.len() as u64 * passes);
    if bar.length().unwrap_or(0) < 100 {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    if args.timestamp_cost {
        let cost = timestamp_cost(backend, &capture, policy, args.repeat, || bar.inc(1))
            .map_err(|e| format!("replay failed: {e}"))?;
        bar.finish_and_clear();
        check_validation(backend, args.validation)?;
        println!(
            "timestamp cost on {}: frame {:.4} ms with / {:.4} ms without = {:.3}; \
             lowering+submit {:.4} / {:.4} ms = {:.3}",
            backend.adapter_name(),
            cost.frame_on_ms,
            cost.frame_off_ms,
            cost.frame_ratio(),
            cost.cpu_on_ms,
            cost.cpu_off_ms,
            cost.cpu_ratio()
        );
        return Ok(());
    }
    let options = ProfileOptions {
        repeat: args.repeat,
        policy,
        timestamps: args.timestamps == OnOff::On,
        ..ProfileOptions::default()
    };
    let run = profile(backend, &capture, &options, || bar.inc(1))
        .map_err(|e| format!("replay failed: {e}"))?;
    bar.finish_and_clear();
    check_validation(backend, args.validation)?;
    let range = args.measurement_range;
    let frame_ms: Vec<f64> = run.frames.iter().map(|f| f.frame_ms).collect();
    println!(
        "{} frames on {}: p50 {:.3} ms, p95 {:.3} ms, p99 {:.3} ms",
        run.frames.len(),
        run.adapter,
        percentile(&frame_ms, 50.0),
        percentile(&frame_ms, 95.0),
        percentile(&frame_ms, 99.0)
    );
    println!("{}", report::gpu_note(&run.support));
    print!("{}", stage_table(&run.frames, range));
    print!("{}", node_table(&run, range));
    if let Some(path) = &args.json {
        std::fs::write(path, summary_json(&run, range))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = &args.png {
        let desc = capture.textures[capture.device.back_buffer as usize].desc;
        write_png(path, desc.width, desc.height, desc.format, &run.final_back_buffer)?;
    }
    Ok(())
}

/// With validation on, any message the backend collected fails the run.
fn check_validation(backend: &dyn Backend, validation: bool) -> Result<(), String> {
    let messages = backend.diagnostics().take_messages();
    match messages.first() {
        Some(first) if validation => {
            Err(format!("{} validation messages, the first: {first}", messages.len()))
        }
        _ => Ok(()),
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
