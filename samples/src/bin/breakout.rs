//! xnagraph breakout: a small playable game. Windowed by default (arrow keys or A/D or the
//! mouse move the paddle, Space, Enter or a click serves, F11 toggles full screen, Escape
//! quits); `--headless --frames N --out F.png` plays N frames on its own without a window and
//! writes the last one as a PNG. Run with `--help` for the flags.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use tracing::{error, info};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use xnagraph::game::GameContext;
use xnagraph_samples::breakout::{default_content_dir, Breakout};
use xnagraph_samples::write_png;

/// Plays xnagraph breakout in a window, or headless for tests.
#[derive(Parser, Debug)]
#[command(name = "xnagraph-breakout", version)]
struct Args {
    /// Run without a window: the game plays itself for --frames frames and the last frame is
    /// written to --out.
    #[arg(long)]
    headless: bool,

    /// Frames to play headless (at least 1).
    #[arg(long, value_name = "N", default_value_t = 600, value_parser = parse_frames)]
    frames: u64,

    /// Where a headless run writes its last frame, as an RGBA PNG.
    #[arg(long, value_name = "FILE", default_value = "breakout.png")]
    out: PathBuf,

    /// Back buffer width in pixels; the window opens at this size.
    #[arg(long, value_name = "PIXELS", default_value_t = 960, value_parser = parse_edge)]
    width: i32,

    /// Back buffer height in pixels.
    #[arg(long, value_name = "PIXELS", default_value_t = 720, value_parser = parse_edge)]
    height: i32,

    /// In a window, let the game play itself.
    #[arg(long)]
    autoplay: bool,

    /// Folder holding breakout/*.png and fonts/DejaVuSans.ttf.
    #[arg(long, value_name = "DIR")]
    content: Option<PathBuf>,

    /// Turn on the Khronos validation layer, with synchronization validation.
    #[arg(long)]
    validation: bool,
}

fn parse_frames(value: &str) -> Result<u64, String> {
    let frames: u64 = value.parse().map_err(|e| format!("not a frame count: {e}"))?;
    if frames == 0 {
        return Err("at least one frame must be played to have an image to write".into());
    }
    Ok(frames)
}

fn parse_edge(value: &str) -> Result<i32, String> {
    let edge: u32 = value.parse().map_err(|e| format!("not a size in pixels: {e}"))?;
    if !(16..=4096).contains(&edge) {
        return Err("the back buffer edge must be 16 to 4096 pixels".into());
    }
    Ok(edge as i32)
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
    let content = args.content.clone().unwrap_or_else(default_content_dir);
    let mut game = Breakout::new(content);
    let mut ctx = GameContext::new();
    ctx.graphics.preferred_back_buffer_width = args.width;
    ctx.graphics.preferred_back_buffer_height = args.height;
    // A sample: the XNAGRAPH_* variables (backend, validation, capture) apply.
    ctx.graphics.device_options = xnagraph::DeviceOptions::from_env();
    ctx.graphics.device_options.validation |= args.validation;
    ctx.window.allow_user_resizing = true;
    ctx.is_mouse_visible = true;
    if args.headless {
        game.autoplay = true;
        game.capture_frame(args.frames - 1);
        ctx.run_headless(&mut game, args.frames, |_, _| {}).map_err(|e| e.to_string())?;
        let pixels = game.captured().ok_or("the last frame was not drawn")?;
        std::fs::File::create(&args.out)
            .and_then(|file| write_png(file, args.width as u32, args.height as u32, pixels))
            .map_err(|e| format!("cannot write --out {}: {e}", args.out.display()))?;
        info!(
            "played {} frames: score {}, {} bricks left; wrote {}",
            args.frames,
            game.world.score,
            game.world.bricks_left(),
            args.out.display()
        );
        Ok(())
    } else {
        game.autoplay = args.autoplay;
        ctx.run(&mut game).map_err(|e| e.to_string())
    }
}
