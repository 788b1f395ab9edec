//! The game thread's time per frame with and without the render thread, on the README
//! sample's shape at game size: a render target cleared, then the back buffer cleared, 4,000
//! sprites of one texture drawn (rotated, scaled) with the target composited over them, and
//! Present. Per frame it times the game thread from the first call of the frame until Present
//! returns (recording plus whatever Present does on that thread), and the whole frame loop
//! (frames per second the game sees). Both settings run in this process, on the Vulkan backend
//! and on the null backend (which isolates the compile and hand-over cost from the GPU's).

use std::time::{Duration, Instant};

use xnagraph::{
    BackendKind, Color, DeviceOptions, GraphicsDevice, GraphicsProfile, PresentationParameters,
    Rectangle, RenderTarget2D, SpriteBatch, SpriteEffects, Texture2D, Vector2,
};
use xnagraph_benches::{json, number, stats, string};

const SPRITES: usize = 4_000;
const WARMUP: usize = 20;
const FRAMES: usize = 200;

struct Run {
    /// The game thread's time per frame: recording and Present.
    game: Vec<Duration>,
    /// The whole loop, divided by the frames, after a final `wait_idle`.
    per_frame: Duration,
}

fn run(backend: BackendKind, render_thread: bool) -> xnagraph::Result<Run> {
    let params = PresentationParameters {
        back_buffer_width: 320,
        back_buffer_height: 240,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions { backend, render_thread, ..DeviceOptions::from_env() };
    let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options)?;
    let texture = Texture2D::new(&device, 16, 16)?;
    texture.set_data(&[Color::WHITE; 256])?;
    let target = RenderTarget2D::new(&device, 64, 64)?;
    let mut batch = SpriteBatch::new(&device)?;
    let positions: Vec<Vector2> =
        (0..SPRITES).map(|i| Vector2::new((i * 37 % 320) as f32, (i * 53 % 240) as f32)).collect();

    let mut game = Vec::with_capacity(FRAMES);
    let mut started = Instant::now();
    for frame in 0..WARMUP + FRAMES {
        if frame == WARMUP {
            device.wait_idle()?;
            started = Instant::now();
        }
        let start = Instant::now();
        device.set_render_target(Some(&target))?;
        device.clear(Color::CORNFLOWER_BLUE)?;
        device.set_render_target(None)?;
        device.clear(Color::BLACK)?;
        batch.begin()?;
        for (i, &p) in positions.iter().enumerate() {
            let tint = Color::new((i % 255) as u8, (frame % 255) as u8, 128, 255);
            batch.draw_ex(
                &texture,
                p,
                None,
                tint,
                (i + frame) as f32 * 0.01,
                Vector2::new(8.0, 8.0),
                Vector2::new(0.75, 0.75),
                SpriteEffects::NONE,
                0.0,
            )?;
        }
        batch.draw_rect(&target, Rectangle::new(8, 4, 32, 32), Color::WHITE)?;
        batch.end()?;
        device.present()?;
        if frame >= WARMUP {
            game.push(start.elapsed());
        }
    }
    device.wait_idle()?;
    let per_frame = started.elapsed() / FRAMES as u32;
    Ok(Run { game, per_frame })
}

fn main() -> xnagraph::Result<()> {
    for (name, backend) in [("vulkan", BackendKind::Vulkan), ("null", BackendKind::Null)] {
        let off = run(backend, false)?;
        let on = run(backend, true)?;
        let (off_game, on_game) = (stats(&off.game), stats(&on.game));
        if std::env::var_os("XNAGRAPH_BENCH_ROUNDS").is_some() {
            for (label, r) in [("off", &off), ("on", &on)] {
                let us: Vec<String> =
                    r.game.iter().map(|d| format!("{:.0}", d.as_secs_f64() * 1e6)).collect();
                eprintln!("{name} render thread {label} (us/frame): {}", us.join(" "));
            }
        }
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        println!(
            "{}",
            json(&[
                ("bench", string("render_thread_game_time")),
                ("backend", string(name)),
                ("sprites", SPRITES.into()),
                ("frames", FRAMES.into()),
                ("off_median_us", number(off_game.median_ns / 1e3)),
                ("on_median_us", number(on_game.median_ns / 1e3)),
                ("off_mean_us", number(off_game.mean_ns / 1e3)),
                ("on_mean_us", number(on_game.mean_ns / 1e3)),
                ("on_over_off_median", number(on_game.median_ns / off_game.median_ns)),
                ("off_loop_us_per_frame", number(us(off.per_frame))),
                ("on_loop_us_per_frame", number(us(on.per_frame))),
                ("on_over_off_loop", number(us(on.per_frame) / us(off.per_frame))),
            ])
        );
    }
    Ok(())
}
