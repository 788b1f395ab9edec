use xnagraph::game::{Game, GameContext, GameTime, Keyboard, Keys};
use xnagraph::{Color, FontOptions, Result, SpriteBatch, SpriteFont, Texture2D, Vector2};

/// The game's content folder: samples/content in this repository.
const CONTENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/content");

/// A ball the arrow keys move, and a line of text. Escape quits.
#[derive(Default)]
struct Hello {
    content: Option<(Texture2D, SpriteFont, SpriteBatch)>,
    position: Vector2,
}

impl Game for Hello {
    fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        let device = ctx.graphics_device()?;
        let ball = Texture2D::from_file(device, format!("{CONTENT}/breakout/ball.png"))?;
        let options = FontOptions { size_px: 20.0, ..FontOptions::default() };
        let font =
            SpriteFont::from_file(device, format!("{CONTENT}/fonts/DejaVuSans.ttf"), &options)?;
        self.content = Some((ball, font, SpriteBatch::new(device)?));
        self.position = Vector2::new(150.0, 100.0);
        Ok(())
    }

    fn update(&mut self, ctx: &mut GameContext, time: &GameTime) -> Result<()> {
        let keys = Keyboard::get_state();
        if keys.is_key_down(Keys::Escape) {
            ctx.exit();
        }
        let step = 200.0 * time.elapsed_game_time.as_secs_f32(); // 200 pixels a second
        let axis =
            |less, more| (keys.is_key_down(more) as i8 - keys.is_key_down(less) as i8) as f32;
        self.position.x += axis(Keys::Left, Keys::Right) * step;
        self.position.y += axis(Keys::Up, Keys::Down) * step;
        Ok(())
    }

    fn draw(&mut self, ctx: &mut GameContext, _time: &GameTime) -> Result<()> {
        ctx.graphics_device()?.clear(Color::CORNFLOWER_BLUE)?;
        let (ball, font, batch) = self.content.as_mut().expect("loaded");
        batch.begin()?;
        batch.draw(ball, self.position, Color::WHITE)?;
        batch.draw_string(
            font,
            "Arrow keys move the ball",
            Vector2::new(10.0, 10.0),
            Color::WHITE,
        )?;
        batch.end() // the game loop presents after draw, as XNA's EndDraw does
    }
}

fn main() -> Result<()> {
    let mut ctx = GameContext::new();
    ctx.window.title = "Hello, xnagraph".into();
    ctx.run(&mut Hello::default())
}
