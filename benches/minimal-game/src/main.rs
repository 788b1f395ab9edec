//! The smallest windowed game: a PNG texture that SpriteBatch draws where the arrow keys move
//! it, on a cleared window. Escape quits.

use xnagraph::game::{Game, GameContext, GameTime, Keyboard, Keys};
use xnagraph::{Color, Result, SpriteBatch, Texture2D, Vector2};

const BALL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/content/breakout/ball.png");

#[derive(Default)]
struct Minimal {
    content: Option<(SpriteBatch, Texture2D)>,
    at: Vector2,
}

impl Game for Minimal {
    fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        let device = ctx.graphics_device()?;
        self.content = Some((SpriteBatch::new(device)?, Texture2D::from_file(device, BALL)?));
        Ok(())
    }

    fn update(&mut self, ctx: &mut GameContext, time: &GameTime) -> Result<()> {
        let keys = Keyboard::get_state();
        if keys.is_key_down(Keys::Escape) {
            ctx.exit();
        }
        let step = 200.0 * time.elapsed_game_time.as_secs_f32();
        let axis = |less, more| (keys.is_key_down(more) as i8 - keys.is_key_down(less) as i8) as f32;
        self.at += Vector2::new(axis(Keys::Left, Keys::Right), axis(Keys::Up, Keys::Down)) * step;
        Ok(())
    }

    fn draw(&mut self, ctx: &mut GameContext, _time: &GameTime) -> Result<()> {
        ctx.graphics_device()?.clear(Color::CORNFLOWER_BLUE)?;
        let (batch, ball) = self.content.as_mut().expect("loaded");
        batch.begin()?;
        batch.draw(ball, self.at, Color::WHITE)?;
        batch.end()
    }
}

fn main() -> Result<()> {
    GameContext::new().run(&mut Minimal::default())
}
