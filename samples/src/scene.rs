//! The multi-pass sprite scene of `xnagraph-samples` (the README's sample): 200 sprites drawn
//! into a render target half the size of the back buffer, which is then drawn scaled up into
//! the back buffer and presented. Shared by the sample and the benchmarks that measure it.

use xnagraph::{
    BlendState, Color, DepthFormat, GraphicsDevice, Rectangle, RenderTarget2D, RenderTargetUsage,
    Result, SamplerState, SpriteBatch, SpriteEffects, SpriteSortMode, SurfaceFormat, Texture2D,
    Vector2,
};

/// The scene's resources on one device.
pub struct SpriteScene {
    width: i32,
    height: i32,
    scene: RenderTarget2D,
    ball: Texture2D,
    batch: SpriteBatch,
}

/// A 16×16 sprite: a white disc with a soft edge, premultiplied.
fn ball_texture(device: &GraphicsDevice) -> Result<Texture2D> {
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

impl SpriteScene {
    /// Creates the half-size scene target, the sprite texture and the batch for a back buffer
    /// of `width` × `height`.
    pub fn new(device: &GraphicsDevice, width: i32, height: i32) -> Result<Self> {
        let scene = RenderTarget2D::with_options(
            device,
            width / 2,
            height / 2,
            false,
            SurfaceFormat::Color,
            DepthFormat::None,
            0,
            RenderTargetUsage::DiscardContents,
        )?;
        let ball = ball_texture(device)?;
        let batch = SpriteBatch::new(device)?;
        Ok(SpriteScene { width, height, scene, ball, batch })
    }

    /// Records frame `frame` (the sprites move with it at 60 frames a second) and presents it.
    pub fn frame(&mut self, device: &GraphicsDevice, frame: u32) -> Result<()> {
        let (sw, sh) = (self.width / 2, self.height / 2);
        let t = frame as f32 / 60.0;
        device.set_render_target(Some(&self.scene))?;
        device.clear(Color::new(16, 20, 40, 255))?;
        let batch = &mut self.batch;
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
                &self.ball,
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
        batch.draw_rect(
            &self.scene,
            Rectangle::new(0, 0, self.width, self.height),
            Color::WHITE,
        )?;
        batch.end()?;
        device.present()
    }
}
