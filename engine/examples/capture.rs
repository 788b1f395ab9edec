//! Capture and replay: the game's frames are written to a file as it plays, then replayed and
//! profiled without the game by `xnagraph-replay`, whose command this prints. The scene is
//! drawn into a render target named "scene", then scaled into the back buffer, so the profile
//! shows two passes. Escape quits.
//!
//! ```sh
//! cargo run -p xnagraph --features capture --example capture
//! ```
//!
//! Any game can be captured without code: `XNAGRAPH_CAPTURE=frames.xgc:100-109` captures
//! frames 100 to 109 of the first device the game creates.

mod common;

use std::path::PathBuf;

use xnagraph::game::{Game, GameContext, GameTime};
use xnagraph::{CaptureSummary, Color, Rectangle, RenderTarget2D, Result, SpriteBatch, Texture2D};

const BACKGROUND: Color = Color::new(40, 20, 30, 255);
const SCENE: Color = Color::new(230, 230, 210, 255);

struct Content {
    batch: SpriteBatch,
    scene: RenderTarget2D,
    pixel: Texture2D,
}

struct Captured {
    /// The frames to capture, from the first: all of a headless run, else two seconds' worth.
    frames: u64,
    path: PathBuf,
    content: Option<Content>,
    summary: Option<CaptureSummary>,
    seconds: f32,
}

impl Captured {
    /// Once the capture is complete: what it wrote, and how to replay it.
    fn report_capture(&mut self, ctx: &GameContext) -> Result<()> {
        if self.summary.is_some() {
            return Ok(());
        }
        if let Some(result) = ctx.graphics_device()?.capture_result() {
            let summary = result?;
            println!(
                "captured {} frames, {} bytes: {}",
                summary.frames,
                summary.file_bytes,
                summary.path.display()
            );
            println!("replay and profile them with:");
            println!(
                "  cargo run --release -p xnagraph-benches --bin xnagraph-replay -- replay {} --repeat 10",
                summary.path.display()
            );
            self.summary = Some(summary);
        }
        Ok(())
    }
}

impl Game for Captured {
    fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        let device = ctx.graphics_device()?;
        // Frame k ends with the (k+1)-th present: this captures the first `frames` frames.
        device.capture_frames(&self.path, 0..=self.frames - 1)?;
        let scene = RenderTarget2D::new(device, 200, 120)?;
        scene.set_name("scene");
        let pixel = Texture2D::new(device, 1, 1)?;
        pixel.set_data(&[Color::WHITE])?;
        self.content = Some(Content { batch: SpriteBatch::new(device)?, scene, pixel });
        Ok(())
    }

    fn update(&mut self, ctx: &mut GameContext, time: &GameTime) -> Result<()> {
        self.seconds = time.total_game_time.as_secs_f32();
        self.report_capture(ctx)
    }

    fn unload_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        self.report_capture(ctx)
    }

    fn draw(&mut self, ctx: &mut GameContext, _time: &GameTime) -> Result<()> {
        let device = ctx.graphics_device()?;
        let Content { batch, scene, pixel } = self.content.as_mut().expect("content is loaded");
        device.set_render_target(Some(scene))?;
        device.clear(SCENE)?;
        batch.begin()?;
        for i in 0..8 {
            let x = 100.0 + 80.0 * (self.seconds * 1.5 + i as f32 * 0.8).sin();
            let color = Color::new(40 + 25 * i as u8, 80, 200 - 20 * i as u8, 255);
            batch.draw_rect(pixel, Rectangle::new(x as i32 - 6, 10 + 13 * i, 12, 10), color)?;
        }
        batch.end()?;
        device.set_render_target(None)?;
        device.clear(BACKGROUND)?;
        batch.begin()?;
        batch.draw_rect(scene, Rectangle::new(100, 60, 600, 360), Color::WHITE)?;
        batch.end()
    }
}

fn main() -> std::process::ExitCode {
    let headless = common::Args::parse().ok().filter(|a| a.headless);
    let game = Captured {
        frames: headless.map_or(120, |a| a.frames),
        path: std::env::temp_dir().join("xnagraph-capture-example.xgc"),
        content: None,
        summary: None,
        seconds: 0.0,
    };
    common::run("xnagraph: capture", game, |game, frame| {
        let summary = game.summary.as_ref().ok_or("the capture did not complete")?;
        if summary.frames != game.frames || summary.file_bytes == 0 {
            return Err(format!("the capture wrote {summary:?}, not {} frames", game.frames));
        }
        frame.expect(30, 30, BACKGROUND, "the back buffer's clear colour")?;
        // The scene's right edge: no square reaches x = 190 of 200, scaled 3x.
        frame.expect(100 + 3 * 195, 60 + 3 * 60, SCENE, "the scene target, scaled")
    })
}
