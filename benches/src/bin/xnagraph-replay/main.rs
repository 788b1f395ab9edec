//! `xnagraph-replay`: replays, inspects and trims xnagraph frame captures.
//!
//! `info` prints what a capture holds and its size against its raw data; `replay` runs it on Vulkan
//! or SDL_gpu (`--backend`; headless, or presenting every frame into a window of the capture's
//! back-buffer size with `--window`) once or `--repeat` times and profiles it: a table of the CPU
//! stages (record, compile, lowering, submit), wall-clock and GPU frame times with p50/p95/p99, a
//! table per plan node (name, kind, attachments, load/store ops, draws, GPU ms, share of the
//! frame), optionally a JSON summary (`--json`, windowed by `--measurement-range a-b`) and the
//! final frame as a PNG, a Chrome trace that Perfetto opens (`--trace`), a frame's event list
//! (`--list N`: every draw of each plan node with its state, as text and `--list-json`);
//! `--timestamp-cost` measures what the GPU timestamps cost; `trim` writes a
//! new capture holding a range of frames with the snapshot it needs. A malformed file is an error
//! naming the chunk and byte offset, with exit status 1.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod pages;

use clap::{Parser, Subcommand};
use pages::{diff_command, report_command, DiffArgs, ReportArgs};
use xnagraph_benches::cli::{BackendChoice, OnOff};
use xnagraph_benches::profile::files::{plot_svg, render_dot, serve, write_png};
use xnagraph_benches::profile::{
    events, node_table, percentile, profile_while, puffin_out, report, stage_table, summary_json,
    timestamp_cost, trace_out, window::ReplayWindow, ProfileOptions,
};
use xnagraph_graph::capture::trim::trim;
use xnagraph_graph::capture::Capture;
use xnagraph_graph::compile::CompilePolicy;
use xnagraph_graph::Backend;
use xnagraph_sdlgpu::{SdlGpuBackend, SdlGpuConfig};
use xnagraph_vulkan::{VulkanBackend, VulkanConfig};

#[derive(Parser, Debug)]
#[command(name = "xnagraph-replay", version, about = "Replays xnagraph frame captures")]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
    /// Present every replayed frame into a window of the capture's back-buffer size (the
    /// backend is created for the window, as a windowed game's device is); closing the window
    /// ends the replay with the figures so far.
    #[arg(long, conflicts_with_all = ["timestamp_cost", "png", "png_frames"])]
    window: bool,
    /// With --window: after the replay, keep the window open showing its last frame until it
    /// is closed (the tables are printed first).
    #[arg(long, requires = "window")]
    keep_open: bool,
    /// Write the final frame's back buffer as an RGBA PNG (headless: a windowed replay draws
    /// its frames straight into the window's images, which cannot be read back).
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
    /// Write a `.puffin` file (CPU scopes per frame and a GPU track with a scope per plan
    /// node) that puffin_viewer opens.
    #[arg(long, value_name = "FILE")]
    puffin: Option<PathBuf>,
    /// Write the replay as a Chrome trace (JSON) that ui.perfetto.dev and chrome://tracing
    /// open: a CPU track with each frame's stages, and GPU tracks with a slice per plan node on
    /// the same clock.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Stream the frames to puffin_viewer through puffin_http on ADDR (127.0.0.1 only): waits
    /// for the viewer to connect (at most --serve-wait seconds), then replays.
    #[arg(long, value_name = "ADDR")]
    serve: Option<String>,
    /// How long --serve waits for a viewer, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    serve_wait: u64,
    /// Write the frame times (wall-clock, CPU stages, GPU) as an SVG plot.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Write the compiled plan of frame N (position in the capture; its flush with the most
    /// nodes) as DOT to OUT, and as SVG beside it when the `dot` program is installed.
    #[arg(long, num_args = 2, value_names = ["N", "OUT"])]
    dot: Option<Vec<String>>,
    /// Print the event list of frame N (position in the capture, first pass): every clear, draw
    /// and query op of each plan node in execution order, each draw with its call, effect,
    /// counts, blend, depth-stencil, rasterizer and sampler state, textures, viewport and
    /// scissor.
    #[arg(long, value_name = "N")]
    list: Option<String>,
    /// With --list: also write the event list as JSON.
    #[arg(long, value_name = "FILE", requires = "list")]
    list_json: Option<PathBuf>,
    /// Write the back buffer after each of the frames LIST (positions, comma-separated) as
    /// DIR/frame-N.png.
    #[arg(long, num_args = 2, value_names = ["LIST", "DIR"])]
    png_frames: Option<Vec<String>>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Prints the device, resources, frames and sizes of a capture.
    Info {
        /// The capture file.
        capture: PathBuf,
    },
    /// Replays a capture (headless, or in a window) and profiles it: per plan node GPU time, per
    /// frame CPU stages and GPU time with percentiles.
    Replay(Box<ReplayArgs>),
    /// Replays two captures (or one twice: on two backends, or under the frame-blind policy)
    /// and prints them side by side: per plan node GPU time and attachment traffic, frame
    /// times, and how their final frames differ.
    Diff(DiffArgs),
    /// Replays a capture and writes one self-contained HTML report: frame times, and for a
    /// chosen frame (any first-pass frame through the picker) its GPU and CPU timeline, its
    /// compiled graph, a sortable node table, what each pass left in its attachments, and the
    /// plan text. It needs no network and no other file.
    Report(ReportArgs),
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
            SdlGpuBackend::new(sdlgpu_config(validation))
                .map_err(|e| format!("no SDL_gpu device: {e}"))?,
        ),
    })
}

fn sdlgpu_config(validation: bool) -> SdlGpuConfig {
    SdlGpuConfig { debug_mode: validation || cfg!(debug_assertions), ..SdlGpuConfig::default() }
}

/// A backend of `choice` that presents to `window`, its presents unpaced (immediate) where the
/// window allows it, so that the replay measures the frames rather than the display.
fn window_backend(
    choice: BackendChoice,
    validation: bool,
    window: &ReplayWindow,
) -> Result<Box<dyn Backend>, String> {
    let mut backend: Box<dyn Backend> = match choice {
        BackendChoice::Vulkan => Box::new(
            VulkanBackend::for_window(
                VulkanConfig { validation, ..VulkanConfig::default() },
                window.window(),
            )
            .map_err(|e| format!("no Vulkan device for the window: {e}"))?,
        ),
        BackendChoice::Sdlgpu => Box::new(
            SdlGpuBackend::for_window(sdlgpu_config(validation), window.window())
                .map_err(|e| format!("no SDL_gpu device for the window: {e}"))?,
        ),
    };
    if backend.check_present_pacing(true).is_ok() {
        backend.set_present_immediate(true);
    }
    Ok(backend)
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
    for e in &capture.geometry_effects {
        println!(
            "geometry effect {}: technique \"{}\" pass \"{}\", {} + {} SPIR-V words",
            e.key,
            e.technique,
            e.pass,
            e.vertex_spirv.len(),
            e.fragment_spirv.len()
        );
    }
    if !capture.queries.is_empty() {
        println!(
            "occlusion queries: {}, {} counts read by the game",
            capture.queries.len(),
            capture.query_results.len()
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
        "size: {file_bytes} bytes for {raw} bytes of uploads, snapshot, sprites and user geometry (ratio {:.4})",
        file_bytes as f64 / raw.max(1) as f64
    );
    Ok(())
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Info { capture } => info(&capture),
        Command::Replay(args) => replay_command(*args),
        Command::Diff(args) => diff_command(args),
        Command::Report(args) => report_command(&args),
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
    let mut window = match args.window {
        true => {
            let desc = capture.textures[capture.device.back_buffer as usize].desc;
            let title = format!("xnagraph-replay {}", capture_name(&args.capture));
            Some(ReplayWindow::open(&title, desc.width, desc.height)?)
        }
        false => None,
    };
    let mut backend = match &window {
        Some(window) => window_backend(args.backend, args.validation, window)?,
        None => chosen_backend(args.backend, args.validation)?,
    };
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
    let dot = match &args.dot {
        Some(v) => Some((parse_frame(&v[0], &capture)?, PathBuf::from(&v[1]))),
        None => None,
    };
    let png_frames = match &args.png_frames {
        Some(v) => {
            let list =
                v[0].split(',').map(|n| parse_frame(n, &capture)).collect::<Result<_, _>>()?;
            Some((list, PathBuf::from(&v[1])))
        }
        None => None,
    };
    let options = ProfileOptions {
        repeat: args.repeat,
        policy,
        timestamps: args.timestamps == OnOff::On,
        dot_frame: dot.as_ref().map(|d| d.0),
        list_frame: args.list.as_deref().map(|n| parse_frame(n, &capture)).transpose()?,
        details: false,
        png_frames: png_frames
            .as_ref()
            .map_or_else(Vec::new, |p: &(Vec<usize>, PathBuf)| p.0.clone()),
        plain: false,
    };
    let server = match &args.serve {
        Some(addr) => Some(serve(addr, args.serve_wait)?),
        None => None,
    };
    let run = profile_while(backend, &capture, &options, || {
        bar.inc(1);
        window.as_mut().is_none_or(ReplayWindow::pump)
    })
    .map_err(|e| format!("replay failed: {e}"))?;
    bar.finish_and_clear();
    check_validation(backend, args.validation)?;
    if args.puffin.is_some() || server.is_some() {
        let frames = puffin_out::emit_frames(&run)?;
        if let Some(path) = &args.puffin {
            let file =
                std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut out = std::io::BufWriter::new(file);
            puffin_out::write_puffin(&frames, &mut out)?;
            out.flush().map_err(|e| format!("{}: {e}", path.display()))?;
        }
        if let Some(server) = server {
            let viewers = server.num_clients();
            // Dropping the server sends every queued frame before it returns.
            drop(server);
            println!("sent {} frames to {viewers} viewer(s)", frames.len());
        }
    }
    if let Some(frame) = &args.list {
        println!("frame {frame}:\n{}", events::text(&run.events));
    }
    if let Some(path) = &args.list_json {
        let text = serde_json::to_string_pretty(&run.events)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = &args.trace {
        let text = serde_json::to_string(&trace_out::trace(&run))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = &args.plot {
        std::fs::write(path, plot_svg(&capture_name(&args.capture), &run.frames))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some((frame, path)) = &dot {
        let text = run.dot.as_ref().ok_or_else(|| format!("frame {frame} submitted no plan"))?;
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("{}", render_dot(path));
    }
    if let Some((_, dir)) = &png_frames {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let desc = capture.textures[capture.device.back_buffer as usize].desc;
        for (frame, bytes) in &run.frame_images {
            let path = dir.join(format!("frame-{frame}.png"));
            write_png(&path, desc.width, desc.height, desc.format, bytes)?;
        }
    }
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
    let differing: Vec<_> = run.query_checks.iter().filter(|c| c.recorded != c.replayed).collect();
    if !run.query_checks.is_empty() {
        println!(
            "occlusion queries: {} of {} counts the live run read are equal in the replay",
            run.query_checks.len() - differing.len(),
            run.query_checks.len()
        );
    }
    for c in &differing {
        println!(
            "  query {} of frame {}: {} live, {} replayed",
            c.query, c.frame, c.recorded, c.replayed
        );
    }
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
    if let (true, Some(window)) = (args.keep_open, &mut window) {
        window.wait_closed();
    }
    Ok(())
}

/// A frame position of `capture`.
fn parse_frame(text: &str, capture: &Capture) -> Result<usize, String> {
    let n: usize = text.trim().parse().map_err(|_| format!("'{text}' is not a frame position"))?;
    if n >= capture.frames.len() {
        return Err(format!("frame {n}: the capture holds {} frames", capture.frames.len()));
    }
    Ok(n)
}

fn capture_name(path: &Path) -> String {
    path.file_name().map_or_else(|| "replay".to_owned(), |n| n.to_string_lossy().into_owned())
}

/// With validation on, any message the backend collected fails the run.
fn check_validation(backend: &dyn Backend, validation: bool) -> Result<(), String> {
    let messages = backend.diagnostics().take_messages();
    if validation {
        xnagraph_benches::no_validation_messages(&messages)
    } else {
        Ok(())
    }
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
