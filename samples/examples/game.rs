use xnagraph::game::{Game, GameContext, GameTime, InputEvent, Keyboard, Keys};
use xnagraph::{Color, Rectangle, Result, SpriteBatch, Texture2D};

/// A paddle that the arrow keys move; Escape quits.
#[derive(Default)]
struct Paddle {
    x: i32,
    texture: Option<Texture2D>,
    batch: Option<SpriteBatch>,
}

impl Game for Paddle {
    fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        let device = ctx.graphics_device()?;
        let texture = Texture2D::new(device, 1, 1)?;
        texture.set_data(&[Color::WHITE])?;
        self.texture = Some(texture);
        self.batch = Some(SpriteBatch::new(device)?);
        self.x = 140;
        Ok(())
    }

    fn update(&mut self, ctx: &mut GameContext, _time: &GameTime) -> Result<()> {
        let keys = Keyboard::get_state();
        if keys.is_key_down(Keys::Escape) {
            ctx.exit();
        }
        if keys.is_key_down(Keys::Left) {
            self.x = (self.x - 4).max(0);
        }
        if keys.is_key_down(Keys::Right) {
            self.x = (self.x + 4).min(280);
        }
        Ok(())
    }

    fn draw(&mut self, ctx: &mut GameContext, _time: &GameTime) -> Result<()> {
        ctx.graphics_device()?.clear(Color::CORNFLOWER_BLUE)?;
        let (batch, texture) = (self.batch.as_mut().unwrap(), self.texture.as_ref().unwrap());
        batch.begin()?;
        batch.draw_rect(texture, Rectangle::new(self.x, 160, 40, 8), Color::WHITE)?;
        batch.end()
        // The loop presents after draw, as XNA's EndDraw does.
    }
}

fn main() -> Result<()> {
    let mut ctx = GameContext::new();
    ctx.window.title = "Paddle".into();
    ctx.graphics.preferred_back_buffer_width = 320;
    ctx.graphics.preferred_back_buffer_height = 180;
    let mut game = Paddle::default();
    if std::env::args().any(|a| a == "--window") {
        return ctx.run(&mut game);
    }
    // Headless: 10 frames, Right held from the third on, so 8 updates move the paddle.
    ctx.run_headless(&mut game, 10, |frame, input| {
        if frame == 2 {
            input.push(InputEvent::KeyDown(Keys::Right));
        }
    })?;
    assert_eq!(game.x, 140 + 8 * 4);
    Ok(())
}
