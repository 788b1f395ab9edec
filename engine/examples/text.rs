//! Text: a `SpriteFont` rasterised from a TrueType file, drawn with `draw_string`, measured
//! with `measure_string` (here to centre a title and size the box behind it) and scaled.
//! A clock counts the seconds played; Escape quits.
//!
//! ```sh
//! cargo run -p xnagraph --example text
//! ```

mod common;

use xnagraph::game::{Game, GameContext, GameTime};
use xnagraph::{
    Color, FontOptions, Rectangle, Result, SpriteBatch, SpriteEffects, SpriteFont, Texture2D,
    Vector2,
};

const CONTENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/content");
const BACKGROUND: Color = Color::new(250, 245, 230, 255);
const INK: Color = Color::new(20, 40, 90, 255);
const BOX: Color = Color::new(40, 40, 40, 255);
const TITLE: &str = "Hello, SpriteFont";
/// The title's top edge, and the padding of the box around it.
const TITLE_TOP: f32 = 60.0;
const PADDING: f32 = 12.0;

struct Content {
    batch: SpriteBatch,
    font: SpriteFont,
    /// One white texel, for the box behind the title.
    pixel: Texture2D,
}

#[derive(Default)]
struct Text {
    content: Option<Content>,
    seconds: f64,
    /// Where the title was drawn, as measured: the pixel check reads it.
    title: Rectangle,
}

impl Game for Text {
    fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        let device = ctx.graphics_device()?;
        let options = FontOptions { size_px: 32.0, ..FontOptions::default() };
        let path = format!("{CONTENT}/fonts/DejaVuSans.ttf");
        let font = SpriteFont::from_file(device, path, &options)?;
        let pixel = Texture2D::new(device, 1, 1)?;
        pixel.set_data(&[Color::WHITE])?;
        self.content = Some(Content { batch: SpriteBatch::new(device)?, font, pixel });
        Ok(())
    }

    fn update(&mut self, _ctx: &mut GameContext, time: &GameTime) -> Result<()> {
        self.seconds = time.total_game_time.as_secs_f64();
        Ok(())
    }

    fn draw(&mut self, ctx: &mut GameContext, _time: &GameTime) -> Result<()> {
        let device = ctx.graphics_device()?;
        device.clear(BACKGROUND)?;
        let width = device.presentation_parameters().back_buffer_width as f32;
        let Content { batch, font, pixel } = self.content.as_mut().expect("content is loaded");
        batch.begin()?;
        // The title centred, on a box its measured size plus padding.
        let size = font.measure_string(TITLE)?;
        let corner = Vector2::new(((width - size.x) / 2.0).round(), TITLE_TOP);
        self.title = Rectangle::new(corner.x as i32, corner.y as i32, size.x as i32, size.y as i32);
        let pad = PADDING as i32;
        let boxed = Rectangle::new(
            self.title.x - pad,
            self.title.y - pad,
            self.title.width + 2 * pad,
            self.title.height + 2 * pad,
        );
        batch.draw_rect(pixel, boxed, BOX)?;
        batch.draw_string(font, TITLE, corner, Color::WHITE)?;
        // Two lines ('\n' starts the second), then the clock at half size.
        let lines = "SpriteFont lays out lines,\nkerning and spacing as XNA does.";
        batch.draw_string(font, lines, Vector2::new(40.0, 180.0), INK)?;
        let clock = format!("{:.2} s played", self.seconds);
        let (rotation, origin) = (0.0, Vector2::ZERO);
        let position = Vector2::new(40.0, 300.0);
        batch.draw_string_ex_uniform(
            font,
            &clock,
            position,
            INK,
            rotation,
            origin,
            0.5,
            SpriteEffects::NONE,
            0.0,
        )?;
        batch.end()
    }
}

fn main() -> std::process::ExitCode {
    common::run("xnagraph: text", Text::default(), |text, frame| {
        let r = text.title;
        let (x0, y0) = (r.x as usize, r.y as usize);
        let (w, h) = (r.width as usize, r.height as usize);
        // White glyph pixels inside the measured box, none of them in the padding around it.
        let glyphs = (y0..y0 + h)
            .flat_map(|y| (x0..x0 + w).map(move |x| (x, y)))
            .filter(|&(x, y)| frame.at(x, y) == Some(Color::WHITE))
            .count();
        if glyphs < 200 {
            return Err(format!("the title shows {glyphs} white pixels in its measured box"));
        }
        frame.expect(x0 - 6, y0 - 6, BOX, "the box's top-left padding")?;
        frame.expect(x0 + w + 6, y0 + h + 6, BOX, "the box's bottom-right padding")?;
        frame.expect(20, 440, BACKGROUND, "the clear colour")?;
        // The second line: ink pixels between 180 + one line and 180 + two.
        let spacing = text.content.as_ref().map_or(0, |c| c.font.line_spacing()) as usize;
        let second =
            (180 + spacing..180 + 2 * spacing).flat_map(|y| (40..400).map(move |x| (x, y)));
        let ink = second.filter(|&(x, y)| frame.at(x, y) == Some(INK)).count();
        if ink < 100 {
            return Err(format!("the second line shows {ink} ink pixels"));
        }
        Ok(())
    })
}
