//! The commands that compare replays or write a page of one: `diff` (two replays side by side,
//! as tables and with `--html` as a page) and `report` (one replay's HTML report).

use std::path::{Path, PathBuf};

use xnagraph_benches::cli::BackendChoice;
use xnagraph_benches::profile::files::write_png;
use xnagraph_benches::profile::{diff, html, inspect, percentile, profile, report, ProfileOptions};
use xnagraph_graph::compile::CompilePolicy;
use xnagraph_graph::SurfaceFormat;

use crate::{capture_name, check_validation, chosen_backend, open, parse_frame, parse_range};

#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// Replay A's capture.
    pub a: PathBuf,
    /// Replay B's capture (default: A's).
    pub b: Option<PathBuf>,
    /// A's backend.
    #[arg(long, value_enum, default_value_t = BackendChoice::Vulkan)]
    pub backend_a: BackendChoice,
    /// B's backend.
    #[arg(long, value_enum, default_value_t = BackendChoice::Vulkan)]
    pub backend_b: BackendChoice,
    /// Compile B under the frame-blind policy (CLEAR when a clear is pending, otherwise LOAD;
    /// always STORE).
    #[arg(long)]
    pub frame_blind_b: bool,
    /// Passes over each capture.
    #[arg(long, default_value_t = 1)]
    pub repeat: u32,
    /// Only frames a to b (positions, inclusive) count in the node table.
    #[arg(long, value_name = "A-B", value_parser = parse_range)]
    pub measurement_range: Option<(usize, usize)>,
    /// Write the difference of the final frames as a PNG (per channel, scaled so the largest
    /// error is white; black where equal).
    #[arg(long, value_name = "FILE")]
    pub diff_png: Option<PathBuf>,
    /// Write the comparison as one self-contained HTML page: the final frames side by side
    /// with their difference, the summary figures, and per node GPU time and attachment
    /// traffic with B − A as bars.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Turn on validation (SDL_gpu: debug mode); any message fails the run.
    #[arg(long)]
    pub validation: bool,
}

#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// The capture file.
    pub capture: PathBuf,
    /// The HTML file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The frame shown first, with a thumbnail of each attachment after each of its passes
    /// (position in the capture; default: the last frame).
    #[arg(long, value_name = "N")]
    pub frame: Option<String>,
    /// The backend that replays it.
    #[arg(long, value_enum, default_value_t = BackendChoice::Vulkan)]
    pub backend: BackendChoice,
    /// Passes over the capture (every pass's frames are in the frame-time chart; the first
    /// pass's plans are shown).
    #[arg(long, default_value_t = 1)]
    pub repeat: u32,
    /// Turn on the Khronos validation layer (SDL_gpu: debug mode); any message fails the run.
    #[arg(long)]
    pub validation: bool,
}

pub fn diff_command(args: DiffArgs) -> Result<(), String> {
    let b_path = args.b.clone().unwrap_or_else(|| args.a.clone());
    let sides = [
        (&args.a, args.backend_a, None),
        (&b_path, args.backend_b, args.frame_blind_b.then_some(CompilePolicy::FrameBlind)),
    ];
    let mut runs = Vec::new();
    let mut back_buffer = None;
    for (path, choice, policy) in sides {
        let capture = open(path)?;
        let desc = capture.textures[capture.device.back_buffer as usize].desc;
        back_buffer.get_or_insert(desc);
        let mut backend = chosen_backend(choice, args.validation)?;
        let options = ProfileOptions {
            repeat: args.repeat,
            policy,
            timestamps: true,
            ..ProfileOptions::default()
        };
        let run = profile(backend.as_mut(), &capture, &options, || {})
            .map_err(|e| format!("{}: replay failed: {e}", path.display()))?;
        check_validation(backend.as_ref(), args.validation)?;
        runs.push(run);
    }
    let (a, b) = (&runs[0], &runs[1]);
    let describe = |name: &str, path: &Path, run: &xnagraph_benches::profile::ProfileRun| {
        let gpu: Vec<f64> = run.frames.iter().filter_map(|f| f.gpu_ms).collect();
        let wall: Vec<f64> = run.frames.iter().map(|f| f.frame_ms).collect();
        let gpu = if gpu.is_empty() {
            "-".to_owned()
        } else {
            format!("{:.4} ms", percentile(&gpu, 50.0))
        };
        println!(
            "{name}: {} on {}: frame p50 {:.4} ms, GPU p50 {gpu}; {}",
            path.display(),
            run.adapter,
            percentile(&wall, 50.0),
            report::gpu_note(&run.support)
        );
    };
    describe("A", &args.a, a);
    describe(if args.frame_blind_b { "B (frame-blind)" } else { "B" }, &b_path, b);
    let deltas = diff::node_deltas(a, b, args.measurement_range);
    print!("{}", diff::diff_table(&deltas));
    let traffic: i64 = deltas.iter().map(diff::NodeDelta::traffic_delta).sum();
    println!("attachment traffic of the listed nodes (each once), B - A: {traffic:+} bytes");
    match diff::pixel_diff(&a.final_back_buffer, &b.final_back_buffer) {
        Ok(d) => {
            println!(
                "final frame: {} differing pixels, max channel error {}",
                d.differing_pixels, d.max_channel_error
            );
            if let (Some(path), Some(desc)) = (&args.diff_png, back_buffer) {
                write_png(path, desc.width, desc.height, SurfaceFormat::Color, &d.image)?;
            }
        }
        Err(e) => println!("{e}"),
    }
    if let (Some(path), Some(desc)) = (&args.html, back_buffer) {
        let side = |path: &Path, backend: BackendChoice, blind: bool, run| html::DiffSide {
            label: format!(
                "{} ({backend:?}{})",
                path.display(),
                if blind { ", frame-blind" } else { "" }
            ),
            run,
        };
        let page = html::diff_page(
            &side(&args.a, args.backend_a, false, a),
            &side(&b_path, args.backend_b, args.frame_blind_b, b),
            &deltas,
            (desc.width, desc.height),
        );
        std::fs::write(path, page).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

pub fn report_command(args: &ReportArgs) -> Result<(), String> {
    let capture = open(&args.capture)?;
    let frame = match &args.frame {
        Some(n) => parse_frame(n, &capture)?,
        None => capture.frames.len().saturating_sub(1),
    };
    let mut backend = chosen_backend(args.backend, args.validation)?;
    let options = ProfileOptions {
        repeat: args.repeat,
        timestamps: true,
        details: true,
        ..ProfileOptions::default()
    };
    let bar =
        indicatif::ProgressBar::new(capture.frames.len() as u64 * u64::from(args.repeat.max(1)));
    let run = profile(backend.as_mut(), &capture, &options, || bar.inc(1))
        .map_err(|e| format!("replay failed: {e}"))?;
    bar.finish_and_clear();
    let images = inspect::pass_images(backend.as_mut(), &capture, frame)
        .map_err(|e| format!("reading frame {frame}'s passes back failed: {e}"))?;
    check_validation(backend.as_ref(), args.validation)?;
    let page = html::report(&capture_name(&args.capture), &run, frame, &images);
    std::fs::write(&args.out, &page).map_err(|e| format!("{}: {e}", args.out.display()))?;
    println!(
        "wrote {} ({} bytes): {} frames, frame {frame} with {} attachment images",
        args.out.display(),
        page.len(),
        run.frames.len(),
        images.len()
    );
    Ok(())
}
