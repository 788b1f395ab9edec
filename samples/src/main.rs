//! The multi-pass sprite scene: 200 sprites are drawn into a render target half the size of the
//! back buffer, which is then drawn scaled up into the back buffer, for a number of headless
//! frames. The last frame is written as a PNG; a summary of the per-frame CPU times is logged
//! (every frame's time too with `--verbose`). Run with `--help` for the flags.
//!
//! Every flag is checked before the device is created, and an error names the flag and the value
//! given, so a refused run never leaves a half-written or empty image behind.

mod profiling;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use profiling::ProfileFile;
use tracing::{debug, error, info};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use xnagraph::{Color, DeviceOptions, GraphicsDevice, GraphicsProfile, PresentationParameters};
use xnagraph_samples::scene::SpriteScene;

/// The profile the scene runs under; it bounds the back buffer's size.
const PROFILE: GraphicsProfile = GraphicsProfile::HiDef;

/// Renders xnagraph's multi-pass sprite scene headless and writes the last frame as a PNG.
///
/// Each frame draws 200 sprites into a render target half the size of the back buffer, then
/// draws that target scaled up into the back buffer and presents it.
#[derive(Parser, Debug)]
#[command(name = "xnagraph-samples", version)]
struct Args {
    /// Frames to render (at least 1); the last one is written to --out.
    #[arg(long, value_name = "N", default_value_t = 120, value_parser = parse_frames)]
    frames: u32,

    /// Back buffer width in pixels (2 to 4096: the scene target is half as wide).
    #[arg(long, value_name = "PIXELS", default_value_t = 640, value_parser = parse_width)]
    width: i32,

    /// Back buffer height in pixels (2 to 4096: the scene target is half as high).
    #[arg(long, value_name = "PIXELS", default_value_t = 360, value_parser = parse_height)]
    height: i32,

    /// Where the last frame is written, as an RGBA PNG.
    #[arg(long, value_name = "FILE", default_value = "scene.png")]
    out: PathBuf,

    /// Turn on the Khronos validation layer, with synchronization validation.
    #[arg(long)]
    validation: bool,

    /// Log every frame's CPU time, not only the summary.
    #[arg(short, long)]
    verbose: bool,

    /// Record puffin profiler scopes (recording, each compile stage, lowering, submission,
    /// retirement) and write them to FILE in puffin's `.puffin` format, for puffin_viewer.
    #[arg(long, value_name = "FILE")]
    profile_file: Option<PathBuf>,

    /// Serve puffin profiler scopes live on 127.0.0.1:8585 while rendering, for
    /// `puffin_viewer --url 127.0.0.1:8585`.
    #[arg(long)]
    profile: bool,
}

fn parse_frames(value: &str) -> Result<u32, String> {
    let frames: u32 = value.parse().map_err(|e| format!("not a frame count: {e}"))?;
    if frames == 0 {
        return Err("at least one frame must be rendered to have an image to write".into());
    }
    Ok(frames)
}

/// A back buffer edge: at least 2 pixels, so that the half-size scene target has at least one,
/// and at most what the profile allows.
fn parse_edge(value: &str, what: &str) -> Result<i32, String> {
    let max = PROFILE.max_texture_size();
    let edge: u32 = value.parse().map_err(|e| format!("not a {what} in pixels: {e}"))?;
    if !(2..=max).contains(&edge) {
        return Err(format!(
            "the back buffer {what} must be 2 to {max} pixels (the scene target is half of it; \
             {max} is the {PROFILE:?} profile's limit)"
        ));
    }
    Ok(edge as i32)
}

fn parse_width(value: &str) -> Result<i32, String> {
    parse_edge(value, "width")
}

fn parse_height(value: &str) -> Result<i32, String> {
    parse_edge(value, "height")
}

/// Creates the device; an error names the flags whose values it was created with.
fn create_device(args: &Args) -> Result<GraphicsDevice, String> {
    let params = PresentationParameters {
        back_buffer_width: args.width,
        back_buffer_height: args.height,
        ..PresentationParameters::default()
    };
    // A development tool: the XNAGRAPH_* variables (backend, validation, capture) apply.
    let mut options = DeviceOptions::from_env();
    options.validation |= args.validation;
    GraphicsDevice::with_options(PROFILE, params, options).map_err(|e| {
        let validation = if args.validation { " --validation" } else { "" };
        format!("no device for --width {} --height {}{validation}: {e}", args.width, args.height)
    })
}

/// Renders the frames and returns the last one's pixels with each frame's CPU time in ms.
fn render(
    device: &GraphicsDevice,
    args: &Args,
    profiling: bool,
) -> xnagraph::Result<(Vec<Color>, Vec<f64>)> {
    info!("adapter: {}", device.adapter_name());
    let mut scene = SpriteScene::new(device, args.width, args.height)?;
    let mut frame_ms = Vec::with_capacity(args.frames as usize);

    for frame in 0..args.frames {
        let start = Instant::now();
        scene.frame(device, frame)?;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        debug!("frame {frame:4}: {ms:8.3} ms");
        frame_ms.push(ms);
        if profiling {
            profiling::frame_done();
        }
    }

    let n = (args.width * args.height) as usize;
    let mut pixels = vec![Color::TRANSPARENT; n];
    device.get_back_buffer_data(None, &mut pixels, 0, n)?;
    Ok((pixels, frame_ms))
}

fn log_summary(frame_ms: &[f64]) {
    let mut sorted = frame_ms.to_vec();
    sorted.sort_by(f64::total_cmp);
    let Some(&max) = sorted.last() else { return };
    let n = sorted.len();
    let mean = sorted.iter().sum::<f64>() / n as f64;
    info!(
        "frames {n}  mean {mean:.3} ms  median {:.3} ms  p95 {:.3} ms  max {max:.3} ms",
        sorted[n / 2],
        sorted[(n * 95 / 100).min(n - 1)],
    );
}

/// Writes the profile of a run that succeeded; removes the file when the run failed.
fn finish_profile(profile: ProfileFile, run: Result<Vec<f64>, String>) -> Result<Vec<f64>, String> {
    let path = profile.path().to_owned();
    let written = match run {
        Ok(frame_ms) => profile.write().map(|()| frame_ms),
        Err(e) => Err(e),
    };
    match &written {
        Ok(_) => info!("wrote the profile {}", path.display()),
        Err(_) => remove_partial(&path),
    }
    written
}

/// Runs the scene; an error is a line that names what failed.
fn run(args: &Args) -> Result<(), String> {
    // Opened before rendering, so that an unwritable --out is reported at once.
    let out_error = |e: std::io::Error| format!("--out {}: {e}", args.out.display());
    let file = std::fs::File::create(&args.out).map_err(out_error)?;
    let server = if args.profile { Some(profiling::serve()) } else { None }.transpose();
    let profile = server.and_then(|server| {
        let profile = args.profile_file.as_deref().map(ProfileFile::create).transpose()?;
        Ok((server, profile))
    });
    // The server lives until the run ends: viewers receive every frame until then.
    let (server, profile) = match profile {
        Ok(started) => started,
        Err(e) => {
            remove_partial(&args.out);
            return Err(e);
        }
    };
    if server.is_some() {
        info!("serving puffin scopes on {}", profiling::SERVE_ADDRESS);
    }
    let profiling = server.is_some() || profile.is_some();
    let rendered = create_device(args)
        .and_then(|device| render(&device, args, profiling).map_err(|e| format!("{e}")));
    let written = rendered.and_then(|(pixels, frame_ms)| {
        xnagraph_samples::write_png(file, args.width as u32, args.height as u32, &pixels)
            .map_err(out_error)?;
        Ok(frame_ms)
    });
    let written = match profile {
        Some(profile) => finish_profile(profile, written),
        None => written,
    };
    match written {
        Ok(frame_ms) => {
            log_summary(&frame_ms);
            info!("wrote {}", args.out.display());
            Ok(())
        }
        Err(e) => {
            remove_partial(&args.out);
            Err(e)
        }
    }
}

/// Removes the output file a failed run created, so no empty or partial image is left.
fn remove_partial(path: &Path) {
    if let Err(e) = std::fs::remove_file(path) {
        error!("could not remove the unfinished {}: {e}", path.display());
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let level = if args.verbose { tracing::Level::DEBUG } else { tracing::Level::INFO };
    // The sample's own lines at `level`; the library's warnings and errors (validation
    // messages among them) and, with XNAGRAPH_PRINT_PLAN=1, its plans.
    let filter = Targets::new()
        .with_target("xnagraph_samples", level)
        .with_target("xnagraph::plan", tracing::Level::INFO)
        .with_default(tracing::Level::WARN);
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_target(false)
                .without_time()
                .with_writer(std::io::stderr),
        )
        .with(filter)
        .init();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            error!("{e}");
            ExitCode::FAILURE
        }
    }
}
