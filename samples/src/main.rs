//! The multi-pass sprite scene: sprites are drawn into a half-resolution render target, which is
//! then drawn scaled into the back buffer, for a number of headless frames. The last frame is
//! written as a PNG and per-frame CPU timings are printed.
//!
//! ```text
//! xnagraph-samples [--frames N] [--width W] [--height H] [--out FILE] [--validation]
//! ```

use std::process::ExitCode;
use std::time::Instant;

use xnagraph::{
    BlendState, Color, DepthFormat, DeviceOptions, GraphicsDevice, GraphicsProfile,
    PresentationParameters, Rectangle, RenderTarget2D, RenderTargetUsage, SamplerState,
    SpriteBatch, SpriteEffects, SpriteSortMode, SurfaceFormat, Texture2D, Vector2,
};

struct Args {
    frames: u32,
    width: i32,
    height: i32,
    out: String,
    validation: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args =
        Args { frames: 120, width: 640, height: 360, out: "scene.png".into(), validation: false };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match flag.as_str() {
            "--frames" => {
                args.frames = value("--frames")?.parse().map_err(|e| format!("--frames: {e}"))?
            }
            "--width" => {
                args.width = value("--width")?.parse().map_err(|e| format!("--width: {e}"))?
            }
            "--height" => {
                args.height = value("--height")?.parse().map_err(|e| format!("--height: {e}"))?
            }
            "--out" => args.out = value("--out")?,
            "--validation" => args.validation = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(args)
}

/// A 16×16 sprite: a coloured disc with a soft edge, premultiplied.
fn ball_texture(device: &GraphicsDevice) -> xnagraph::Result<Texture2D> {
    let mut pixels = Vec::with_capacity(256);
    for y in 0..16 {
        for x in 0..16 {
            let (dx, dy) = (x as f32 - 7.5, y as f32 - 7.5);
            let d = (dx * dx + dy * dy).sqrt();
            let a = (8.0 - d).clamp(0.0, 1.0);
            pixels.push(Color::from_floats(a, a, a, a));
        }
    }
    let t = Texture2D::new(device, 16, 16)?;
    t.set_data(&pixels)?;
    Ok(t)
}

fn hue(i: usize) -> Color {
    const PALETTE: [Color; 6] = [
        Color::new(255, 80, 80, 255),
        Color::new(80, 255, 120, 255),
        Color::new(90, 140, 255, 255),
        Color::new(255, 220, 70, 255),
        Color::new(230, 90, 255, 255),
        Color::new(80, 240, 240, 255),
    ];
    PALETTE[i % PALETTE.len()]
}

fn run(args: &Args) -> xnagraph::Result<()> {
    let params = PresentationParameters {
        back_buffer_width: args.width,
        back_buffer_height: args.height,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions { validation: args.validation, ..DeviceOptions::default() };
    let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options)?;
    eprintln!("adapter: {}", device.adapter_name());
    let (sw, sh) = (args.width / 2, args.height / 2);
    let scene = RenderTarget2D::with_options(
        &device,
        sw,
        sh,
        false,
        SurfaceFormat::Color,
        DepthFormat::None,
        0,
        RenderTargetUsage::DiscardContents,
    )?;
    let ball = ball_texture(&device)?;
    let mut batch = SpriteBatch::new(&device)?;
    let mut frame_ms = Vec::with_capacity(args.frames as usize);

    for frame in 0..args.frames {
        let start = Instant::now();
        let t = frame as f32 / 60.0;

        device.set_render_target(Some(&scene))?;
        device.clear(Color::new(16, 20, 40, 255))?;
        batch.begin_with(
            SpriteSortMode::Deferred,
            Some(BlendState::ALPHA_BLEND),
            None,
            None,
            None,
            None,
        )?;
        for i in 0..200usize {
            let phase = i as f32 * 0.37;
            let x = (sw as f32 * 0.5)
                + (t * 0.8 + phase).cos() * (sw as f32 * 0.42) * ((i % 7) as f32 / 7.0 + 0.3);
            let y = (sh as f32 * 0.5)
                + (t * 1.1 + phase * 1.3).sin() * (sh as f32 * 0.4) * ((i % 5) as f32 / 5.0 + 0.3);
            let scale = 0.5 + (i % 4) as f32 * 0.25;
            batch.draw_ex(
                &ball,
                Vector2::new(x, y),
                None,
                hue(i),
                t + phase,
                Vector2::new(8.0, 8.0),
                Vector2::new(scale, scale),
                SpriteEffects::NONE,
                0.0,
            )?;
        }
        batch.end()?;

        device.set_render_target(None)?;
        device.clear(Color::BLACK)?;
        batch.begin_with(
            SpriteSortMode::Deferred,
            Some(BlendState::OPAQUE),
            Some(SamplerState::LINEAR_CLAMP),
            None,
            None,
            None,
        )?;
        batch.draw_rect(&scene, Rectangle::new(0, 0, args.width, args.height), Color::WHITE)?;
        batch.end()?;
        device.present()?;
        frame_ms.push(start.elapsed().as_secs_f64() * 1000.0);
    }

    let n = (args.width * args.height) as usize;
    let mut pixels = vec![Color::TRANSPARENT; n];
    device.get_back_buffer_data(None, &mut pixels, 0, n)?;
    write_png(&args.out, args.width as u32, args.height as u32, &pixels).map_err(|e| {
        xnagraph::XnaError::InvalidOperation { message: format!("{}: {e}", args.out) }
    })?;

    for (i, ms) in frame_ms.iter().enumerate() {
        println!("frame {i:4}: {ms:8.3} ms");
    }
    let mut sorted = frame_ms.clone();
    sorted.sort_by(f64::total_cmp);
    if !sorted.is_empty() {
        let mean = sorted.iter().sum::<f64>() / sorted.len() as f64;
        println!(
            "frames {}  mean {:.3} ms  median {:.3} ms  p95 {:.3} ms  max {:.3} ms",
            sorted.len(),
            mean,
            sorted[sorted.len() / 2],
            sorted[(sorted.len() * 95 / 100).min(sorted.len() - 1)],
            sorted[sorted.len() - 1]
        );
    }
    println!("wrote {}", args.out);
    Ok(())
}

fn write_png(path: &str, width: u32, height: u32, pixels: &[Color]) -> std::io::Result<()> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
    let bytes: Vec<u8> = pixels.iter().flat_map(|c| [c.r, c.g, c.b, c.a]).collect();
    writer.write_image_data(&bytes).map_err(std::io::Error::other)?;
    Ok(())
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
