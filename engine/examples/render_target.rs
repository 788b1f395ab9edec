//! Render targets: a scene drawn into a `RenderTarget2D` a quarter of the window's size, then
//! used as a texture twice: as it is on the left, and through a post-processing `Effect` (a
//! GLSL fragment stage that inverts the colours) on the right. Escape quits.
//!
//! Nothing is drawn when the calls are made: at `present`, the frame's compiler sees that the
//! target is cleared, drawn, then sampled, and orders the passes and barriers accordingly.
//!
//! ```sh
//! cargo run -p xnagraph --features runtime-effects --example render_target
//! ```

mod common;

use xnagraph::game::{Game, GameContext, GameTime};
use xnagraph::{
    BlendState, Color, Effect, Rectangle, RenderTarget2D, Result, SamplerState, SpriteBatch,
    SpriteBatchOptions, Texture2D,
};

/// The target's size: the scene is drawn at this resolution, then scaled up 2x.
const W: i32 = 200;
const H: i32 = 240;
const SKY: Color = Color::new(90, 160, 220, 255);
const GROUND: Color = Color::new(60, 120, 40, 255);
const SUN: Color = Color::new(250, 220, 60, 255);

/// The post-process: SpriteBatch's texture and tint in, the colour inverted out.
const INVERT: &str = "#version 450
layout(set = 2, binding = 0) uniform sampler2D Texture;
layout(location = 0) in vec4 Tint;
layout(location = 1) in vec2 TexCoord;
layout(location = 0) out vec4 Out;
void main() {
    vec4 c = texture(Texture, TexCoord) * Tint;
    Out = vec4(c.a - c.rgb, c.a); // premultiplied: invert within the alpha
}
";

struct Content {
    batch: SpriteBatch,
    scene: RenderTarget2D,
    invert: Effect,
    pixel: Texture2D,
}

#[derive(Default)]
struct RenderTargets {
    content: Option<Content>,
    /// The sun's height above the horizon, in target pixels.
    sun: f32,
}

impl Game for RenderTargets {
    fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        let device = ctx.graphics_device()?;
        let pixel = Texture2D::new(device, 1, 1)?;
        pixel.set_data(&[Color::WHITE])?;
        self.content = Some(Content {
            batch: SpriteBatch::new(device)?,
            scene: RenderTarget2D::new(device, W, H)?,
            invert: Effect::from_glsl(device, INVERT)?,
            pixel,
        });
        Ok(())
    }

    fn update(&mut self, _ctx: &mut GameContext, time: &GameTime) -> Result<()> {
        self.sun = 40.0 + 30.0 * time.total_game_time.as_secs_f32().sin();
        Ok(())
    }

    fn draw(&mut self, ctx: &mut GameContext, _time: &GameTime) -> Result<()> {
        let device = ctx.graphics_device()?;
        let Content { batch, scene, invert, pixel } = self.content.as_mut().expect("loaded");
        // Pass 1: the scene, into the target.
        device.set_render_target(Some(scene))?;
        device.clear(SKY)?;
        batch.begin()?;
        batch.draw_rect(pixel, Rectangle::new(0, H / 2, W, H / 2), GROUND)?;
        let sun = Rectangle::new(W - 70, H / 2 - 20 - self.sun as i32, 40, 40);
        batch.draw_rect(pixel, sun, SUN)?;
        batch.end()?;
        // Pass 2: the back buffer shows the target twice, as it is and post-processed.
        device.set_render_target(None)?;
        device.clear(Color::BLACK)?;
        let (left, right) =
            (Rectangle::new(0, 0, 2 * W, 2 * H), Rectangle::new(2 * W, 0, 2 * W, 2 * H));
        let mut options = SpriteBatchOptions {
            blend_state: BlendState::OPAQUE,
            sampler_state: SamplerState::POINT_CLAMP,
            ..Default::default()
        };
        batch.begin_with_options(&options)?;
        batch.draw_rect(scene, left, Color::WHITE)?;
        batch.end()?;
        options.effect = Some((&*invert).into());
        batch.begin_with_options(&options)?;
        batch.draw_rect(scene, right, Color::WHITE)?;
        batch.end()
    }
}

fn main() -> std::process::ExitCode {
    common::run("xnagraph: render_target", RenderTargets::default(), |_, frame| {
        let inverted = |c: Color| Color::new(255 - c.r, 255 - c.g, 255 - c.b, 255);
        // The sky's top-left and the ground's bottom-left of each half, far from the sun.
        for (x, half) in [(0, "the target"), (2 * W as usize, "the post-processed target")] {
            let (sky, ground) =
                if x == 0 { (SKY, GROUND) } else { (inverted(SKY), inverted(GROUND)) };
            frame.expect(x + 30, 30, sky, &format!("{half}: the sky"))?;
            frame.expect(x + 60, 2 * H as usize - 30, ground, &format!("{half}: the ground"))?;
        }
        Ok(())
    })
}
