//! xnagraph model3d: a lit, textured sphere and cube drawn with BasicEffect into a 4x
//! multisampled render target with depth, composited under a SpriteFont HUD. Headless by
//! default: plays `--frames` frames without a window and writes the last one to `--out` as a
//! PNG; `--window` opens a window instead. `--scene gltf` draws glTF models instead: a skinned
//! bar bent by its animation and a static model. Run with `--help` for the flags.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use tracing::{error, info};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use xnagraph::game::GameContext;
use xnagraph_samples::breakout::default_content_dir;
use xnagraph_samples::model3d::{Model3d, Scene3d};
use xnagraph_samples::write_png;

/// Renders the 3D sample headless to a PNG, or in a window.
#[derive(Parser, Debug)]
#[command(name = "xnagraph-model3d", version)]
struct Args {
    /// Open a window instead of rendering headless.
    #[arg(long)]
    window: bool,

    /// Frames to play headless (at least 1); the last is written to --out.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    frames: u64,

    /// Where a headless run writes its last frame, as an RGBA PNG.
    #[arg(long, value_name = "FILE", default_value = "model3d.png")]
    out: PathBuf,

    /// Back buffer width in pixels.
    #[arg(long, value_name = "PIXELS", default_value_t = 640, value_parser = clap::value_parser!(i32).range(64..=4096))]
    width: i32,

    /// Back buffer height in pixels.
    #[arg(long, value_name = "PIXELS", default_value_t = 480, value_parser = clap::value_parser!(i32).range(64..=4096))]
    height: i32,

    /// What to draw: the sphere and cube, or the glTF models (a skinned bar bent by its
    /// animation and a static model, from models/ under --content).
    #[arg(long, value_enum, default_value_t = SceneArg::Shapes)]
    scene: SceneArg,

    /// With --scene gltf: hold the bar at this many seconds of its animation instead of
    /// following the game time.
    #[arg(long, value_name = "SECONDS", value_parser = parse_pose, allow_hyphen_values = true)]
    pose: Option<f32>,

    /// Folder holding fonts/DejaVuSans.ttf (and models/ for --scene gltf).
    #[arg(long, value_name = "DIR")]
    content: Option<PathBuf>,

    /// Turn on the Khronos validation layer, with synchronization validation.
    #[arg(long)]
    validation: bool,
}

/// `--scene`'s values.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum SceneArg {
    /// The lit, textured sphere and cube.
    Shapes,
    /// The glTF models.
    Gltf,
}

fn parse_pose(value: &str) -> Result<f32, String> {
    let seconds: f32 = value.parse().map_err(|e| format!("not a time in seconds: {e}"))?;
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err("the pose must be a time of 0 seconds or more".into());
    }
    Ok(seconds)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let level = std::env::var("RUST_LOG").ok().and_then(|v| v.parse().ok());
    tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_target(false).with_writer(std::io::stderr))
        .with(Targets::new().with_default(level.unwrap_or(tracing::Level::INFO)))
        .init();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            error!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    let scene = match args.scene {
        SceneArg::Shapes => Scene3d::Shapes,
        SceneArg::Gltf => Scene3d::Gltf,
    };
    let mut game = Model3d::new(args.content.clone().unwrap_or_else(default_content_dir))
        .with_scene(scene, args.pose);
    let mut ctx = GameContext::new();
    ctx.graphics.preferred_back_buffer_width = args.width;
    ctx.graphics.preferred_back_buffer_height = args.height;
    // A sample: the XNAGRAPH_* variables (backend, validation, capture) apply.
    ctx.graphics.device_options = xnagraph::DeviceOptions::from_env();
    ctx.graphics.device_options.validation |= args.validation;
    if args.window {
        return ctx.run(&mut game).map_err(|e| e.to_string());
    }
    game.capture_frame(args.frames - 1);
    ctx.run_headless(&mut game, args.frames, |_, _| {}).map_err(|e| e.to_string())?;
    let pixels = game.captured().ok_or("the last frame was not drawn")?;
    std::fs::File::create(&args.out)
        .and_then(|file| write_png(file, args.width as u32, args.height as u32, pixels))
        .map_err(|e| format!("cannot write --out {}: {e}", args.out.display()))?;
    let samples = game.scene_samples().unwrap_or(0).max(1);
    info!(
        "rendered {} frames, scene at {samples}x MSAA; wrote {}",
        args.frames,
        args.out.display()
    );
    if let Some(t) = game.mean_frame_time() {
        info!("mean frame time after the first: {:.3} ms", t.as_secs_f64() * 1e3);
    }
    Ok(())
}
