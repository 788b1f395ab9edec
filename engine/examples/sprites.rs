//! Sprites: a texture loaded from a PNG, and how SpriteBatch's sort modes order overlapping
//! sprites.
//!
//! Three squares are drawn in the same call order (blue, red, green) with layer depths 0.8,
//! 0.2 and 0.5, once per sort mode: `Deferred` keeps call order (green, the last call, ends on
//! top), `BackToFront` draws the highest depth first (red, the lowest, ends on top) and
//! `FrontToBack` the reverse (blue on top). A ball bounces along the bottom; Escape quits.
//!
//! ```sh
//! cargo run -p xnagraph --example sprites
//! ```

mod common;

use xnagraph::game::{Game, GameContext, GameTime};
use xnagraph::{
    Color, Result, SpriteBatch, SpriteBatchOptions, SpriteOptions, SpriteSortMode, Texture2D,
    Vector2,
};

/// The sample content of this repository: a ball and a font.
const CONTENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/content");
const BACKGROUND: Color = Color::new(30, 30, 40, 255);
/// Each mode's name and the left edge of its group of squares.
const MODES: [(SpriteSortMode, f32); 3] = [
    (SpriteSortMode::Deferred, 40.0),
    (SpriteSortMode::BackToFront, 300.0),
    (SpriteSortMode::FrontToBack, 560.0),
];
/// The squares in call order: colour, layer depth, offset from the group's corner.
const SQUARES: [(Color, f32, f32); 3] =
    [(Color::BLUE, 0.8, 0.0), (Color::RED, 0.2, 40.0), (Color::GREEN, 0.5, 80.0)];
const SQUARE: f32 = 120.0;
const TOP: f32 = 100.0;

struct Content {
    batch: SpriteBatch,
    ball: Texture2D,
    /// One white texel, tinted and scaled into squares.
    pixel: Texture2D,
}

#[derive(Default)]
struct Sprites {
    content: Option<Content>,
    ball_x: f32,
    speed: f32,
}

impl Game for Sprites {
    fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        let device = ctx.graphics_device()?;
        let ball = Texture2D::from_file(device, format!("{CONTENT}/breakout/ball.png"))?;
        let pixel = Texture2D::new(device, 1, 1)?;
        pixel.set_data(&[Color::WHITE])?;
        self.content = Some(Content { batch: SpriteBatch::new(device)?, ball, pixel });
        self.speed = 240.0;
        Ok(())
    }

    fn update(&mut self, ctx: &mut GameContext, time: &GameTime) -> Result<()> {
        let width = ctx.window.client_bounds().width as f32;
        self.ball_x += self.speed * time.elapsed_game_time.as_secs_f32();
        if self.ball_x < 0.0 || self.ball_x > width - 16.0 {
            self.speed = -self.speed; // bounce off the sides
            self.ball_x = self.ball_x.clamp(0.0, width - 16.0);
        }
        Ok(())
    }

    fn draw(&mut self, ctx: &mut GameContext, _time: &GameTime) -> Result<()> {
        let device = ctx.graphics_device()?;
        device.clear(BACKGROUND)?;
        let Content { batch, ball, pixel } = self.content.as_mut().expect("content is loaded");
        for (sort_mode, left) in MODES {
            batch.begin_with_options(&SpriteBatchOptions { sort_mode, ..Default::default() })?;
            for (color, layer_depth, offset) in SQUARES {
                let position = Vector2::new(left + offset, TOP + offset);
                let scale = Vector2::new(SQUARE, SQUARE);
                let square = SpriteOptions { color, scale, layer_depth, ..Default::default() };
                batch.draw_with(pixel, position, &square)?;
            }
            batch.end()?;
        }
        batch.begin()?;
        batch.draw(ball, Vector2::new(self.ball_x, 400.0), Color::WHITE)?;
        batch.end()
    }
}

fn main() -> std::process::ExitCode {
    common::run("xnagraph: sprites", Sprites::default(), |_, frame| {
        // Where all three squares overlap, each mode shows a different one on top.
        let on_top =
            [(Color::GREEN, "Deferred"), (Color::RED, "BackToFront"), (Color::BLUE, "FrontToBack")];
        for ((_, left), (color, mode)) in MODES.iter().zip(on_top) {
            let (x, y) = ((left + 100.0) as usize, (TOP + 100.0) as usize);
            frame.expect(x, y, color, &format!("{mode}: the square on top"))?;
            // Only the first square covers its top-left corner.
            let (x, y) = ((left + 20.0) as usize, (TOP + 20.0) as usize);
            frame.expect(x, y, Color::BLUE, &format!("{mode}: the first square"))?;
        }
        frame.expect(20, 20, BACKGROUND, "the clear colour")
    })
}
