//! Breakout, a small playable game on xnagraph's public API: textures loaded from PNG files,
//! a playfield drawn with `SpriteBatch` into a render target and composited into the back
//! buffer scaled and tinted (the post effect), keyboard and mouse input, and the score drawn
//! with a `SpriteFont`.
//!
//! The rules live in [`world`]; this module loads the content, turns input into
//! [`world::Controls`] and draws. The same [`Breakout`] runs in a window
//! (`GameContext::run`) and headless (`GameContext::run_headless`) for tests.

pub mod world;

use std::path::{Path, PathBuf};

use xnagraph::game::{Game, GameContext, GameTime, Keyboard, KeyboardState, Keys, Mouse};
use xnagraph::{
    BlendState, Color, DepthFormat, FontOptions, Rectangle, RenderTarget2D, RenderTargetUsage,
    SamplerState, SpriteBatch, SpriteFont, SpriteSortMode, SurfaceFormat, Texture2D, Vector2,
};

use world::{Phase, World, BRICK_SIZE, FIELD_HEIGHT, FIELD_WIDTH};

/// The colour of each row of bricks, top to bottom.
pub const ROW_COLORS: [Color; world::BRICK_ROWS] = [
    Color::new(230, 60, 60, 255),
    Color::new(240, 150, 40, 255),
    Color::new(235, 220, 60, 255),
    Color::new(70, 200, 90, 255),
    Color::new(60, 130, 240, 255),
];

/// The tint of the composite into the back buffer: a slightly warm picture.
pub const COMPOSITE_TINT: Color = Color::new(255, 244, 228, 255);
/// The composite's tint for a moment after a brick breaks: the picture flashes to full white.
pub const FLASH_TINT: Color = Color::WHITE;
/// How long the flash lasts, in seconds.
const FLASH_SECONDS: f32 = 0.1;
/// The playfield's clear colour, under the tiled background.
const FIELD_CLEAR: Color = Color::new(12, 14, 24, 255);

/// The content folder shipped with the samples (`samples/content`).
pub fn default_content_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("content")
}

/// Where the playfield lands in a back buffer of `width` x `height`: as large as fits, with
/// its aspect ratio kept, centred (black bars on the sides that are too long).
pub fn field_destination(width: i32, height: i32) -> Rectangle {
    let scale = (width as f32 / FIELD_WIDTH).min(height as f32 / FIELD_HEIGHT);
    let (w, h) = ((FIELD_WIDTH * scale) as i32, (FIELD_HEIGHT * scale) as i32);
    Rectangle::new((width - w) / 2, (height - h) / 2, w, h)
}

/// Everything `load_content` creates.
struct Assets {
    batch: SpriteBatch,
    scene: RenderTarget2D,
    background: Texture2D,
    paddle: Texture2D,
    ball: Texture2D,
    brick: Texture2D,
    hud_font: SpriteFont,
    title_font: SpriteFont,
}

/// The game.
pub struct Breakout {
    content: PathBuf,
    /// The game's state; public so tests can check what the player's input did.
    pub world: World,
    /// The game plays itself (headless runs, demos).
    pub autoplay: bool,
    assets: Option<Assets>,
    flash: f32,
    previous_keys: KeyboardState,
    previous_mouse: Option<(i32, i32)>,
    toggle_full_screen: bool,
    frame: u64,
    capture_frame: Option<u64>,
    captured: Option<Vec<Color>>,
}

impl Breakout {
    /// A new game whose textures and fonts are read from `content` (see
    /// [`default_content_dir`]).
    pub fn new(content: impl Into<PathBuf>) -> Self {
        Breakout {
            content: content.into(),
            world: World::new(),
            autoplay: false,
            assets: None,
            flash: 0.0,
            previous_keys: KeyboardState::default(),
            previous_mouse: None,
            toggle_full_screen: false,
            frame: 0,
            capture_frame: None,
            captured: None,
        }
    }

    /// Reads the back buffer at the end of the `frame`-th draw (counting from 0), before it is
    /// presented; [`Breakout::captured`] then returns it.
    pub fn capture_frame(&mut self, frame: u64) {
        self.capture_frame = Some(frame);
    }

    /// The back buffer read by [`Breakout::capture_frame`], row by row.
    pub fn captured(&self) -> Option<&[Color]> {
        self.captured.as_deref()
    }

    fn controls(&mut self, ctx: &mut GameContext) -> world::Controls {
        let keys = Keyboard::get_state();
        let mouse = Mouse::get_state();
        let pressed = |key: Keys| keys.is_key_down(key) && !self.previous_keys.is_key_down(key);
        if keys.is_key_down(Keys::Escape) {
            ctx.exit();
        }
        self.toggle_full_screen = pressed(Keys::F11);
        let mut controls = world::Controls {
            left: keys.is_key_down(Keys::Left) || keys.is_key_down(Keys::A),
            right: keys.is_key_down(Keys::Right) || keys.is_key_down(Keys::D),
            launch: pressed(Keys::Space) || pressed(Keys::Enter),
            pointer_x: None,
        };
        // The mouse steers once it moves, until a key does.
        let cursor = (mouse.x, mouse.y);
        if self.previous_mouse.is_some_and(|p| p != cursor) {
            let bounds = ctx.window.client_bounds();
            let field = field_destination(bounds.width, bounds.height);
            if field.width > 0 {
                let x = (mouse.x - field.x) as f32 * FIELD_WIDTH / field.width as f32;
                controls.pointer_x = Some(x);
            }
        }
        if mouse.left_button == xnagraph::game::ButtonState::Pressed {
            controls.launch = true;
        }
        self.previous_mouse = Some(cursor);
        self.previous_keys = keys;
        if self.autoplay {
            controls = self.world.autopilot();
        }
        controls
    }

    fn draw_field(&self, assets: &mut Assets) -> xnagraph::Result<()> {
        let batch = &mut assets.batch;
        batch.begin_with(
            SpriteSortMode::Deferred,
            Some(BlendState::ALPHA_BLEND),
            Some(SamplerState::POINT_WRAP),
            None,
            None,
            None,
        )?;
        let field = Rectangle::new(0, 0, FIELD_WIDTH as i32, FIELD_HEIGHT as i32);
        batch.draw_rect_source(&assets.background, field, Some(field), Color::WHITE)?;
        for brick in self.world.bricks.iter().filter(|b| b.alive) {
            let at = Rectangle::new(
                brick.x as i32,
                brick.y as i32,
                BRICK_SIZE.0 as i32,
                BRICK_SIZE.1 as i32,
            );
            batch.draw_rect(&assets.brick, at, ROW_COLORS[brick.row])?;
        }
        let paddle = Vector2::new(self.world.paddle_x.round(), World::paddle_y());
        batch.draw(&assets.paddle, paddle, Color::new(200, 220, 255, 255))?;
        let ball = Vector2::new(self.world.ball.0.round(), self.world.ball.1.round());
        batch.draw(&assets.ball, ball, Color::WHITE)?;

        let score = format!("SCORE {}", self.world.score);
        batch.draw_string(&assets.hud_font, &score, Vector2::new(8.0, 4.0), Color::WHITE)?;
        let lives = format!("BALLS {}", self.world.lives);
        let width = assets.hud_font.measure_string(&lives)?.x;
        let at = Vector2::new(FIELD_WIDTH - 8.0 - width.ceil(), 4.0);
        batch.draw_string(&assets.hud_font, &lives, at, Color::new(255, 220, 120, 255))?;

        let message = match self.world.phase {
            Phase::Serving => Some(("", "Space or click to serve")),
            Phase::Playing => None,
            Phase::Won => Some(("YOU WIN", "Space to play again")),
            Phase::Lost => Some(("GAME OVER", "Space to play again")),
        };
        if let Some((title, hint)) = message {
            let mut y = FIELD_HEIGHT * 0.62;
            if !title.is_empty() {
                let size = assets.title_font.measure_string(title)?;
                let at = Vector2::new(((FIELD_WIDTH - size.x) / 2.0).round(), y - size.y);
                batch.draw_string(&assets.title_font, title, at, Color::WHITE)?;
                y += 4.0;
            }
            let size = assets.hud_font.measure_string(hint)?;
            let at = Vector2::new(((FIELD_WIDTH - size.x) / 2.0).round(), y);
            batch.draw_string(&assets.hud_font, hint, at, Color::new(190, 200, 220, 255))?;
        }
        batch.end()
    }
}

impl Game for Breakout {
    fn initialize(&mut self, ctx: &mut GameContext) -> xnagraph::Result<()> {
        ctx.window.title = "xnagraph breakout".to_owned();
        Ok(())
    }

    fn load_content(&mut self, ctx: &mut GameContext) -> xnagraph::Result<()> {
        let device = ctx.graphics_device()?;
        let texture = |name: &str| Texture2D::from_file(device, self.content.join(name));
        let font = |size_px: f32| {
            let options = FontOptions { size_px, ..FontOptions::default() };
            SpriteFont::from_file(device, self.content.join("fonts/DejaVuSans.ttf"), &options)
        };
        let scene = RenderTarget2D::with_options(
            device,
            FIELD_WIDTH as i32,
            FIELD_HEIGHT as i32,
            false,
            SurfaceFormat::Color,
            DepthFormat::None,
            0,
            RenderTargetUsage::DiscardContents,
        )?;
        scene.set_name("playfield");
        self.assets = Some(Assets {
            batch: SpriteBatch::new(device)?,
            scene,
            background: texture("breakout/background.png")?,
            paddle: texture("breakout/paddle.png")?,
            ball: texture("breakout/ball.png")?,
            brick: texture("breakout/brick.png")?,
            hud_font: font(18.0)?,
            title_font: font(40.0)?,
        });
        Ok(())
    }

    fn unload_content(&mut self, _ctx: &mut GameContext) -> xnagraph::Result<()> {
        self.assets = None;
        Ok(())
    }

    fn update(&mut self, ctx: &mut GameContext, time: &GameTime) -> xnagraph::Result<()> {
        let controls = self.controls(ctx);
        if self.toggle_full_screen {
            ctx.graphics.toggle_full_screen()?;
        }
        let dt = time.elapsed_game_time.as_secs_f32();
        let events = self.world.step(dt, &controls);
        self.flash = if events.bricks > 0 { FLASH_SECONDS } else { (self.flash - dt).max(0.0) };
        Ok(())
    }

    fn draw(&mut self, ctx: &mut GameContext, _time: &GameTime) -> xnagraph::Result<()> {
        let mut assets =
            self.assets.take().ok_or_else(|| xnagraph::XnaError::InvalidOperation {
                message: "Draw was called before LoadContent.".to_owned(),
            })?;
        let drawn = self.draw_frame(ctx, &mut assets);
        self.assets = Some(assets);
        drawn?;
        self.frame += 1;
        Ok(())
    }
}

impl Breakout {
    fn draw_frame(&mut self, ctx: &mut GameContext, assets: &mut Assets) -> xnagraph::Result<()> {
        let device = ctx.graphics_device()?;
        device.set_render_target(Some(&assets.scene))?;
        device.clear(FIELD_CLEAR)?;
        self.draw_field(assets)?;

        // The post effect: the playfield scaled into the back buffer, tinted.
        device.set_render_target(None)?;
        device.clear(Color::BLACK)?;
        let params = device.presentation_parameters();
        let dest = field_destination(params.back_buffer_width, params.back_buffer_height);
        let tint = if self.flash > 0.0 { FLASH_TINT } else { COMPOSITE_TINT };
        assets.batch.begin_with(
            SpriteSortMode::Deferred,
            Some(BlendState::OPAQUE),
            Some(SamplerState::POINT_CLAMP),
            None,
            None,
            None,
        )?;
        assets.batch.draw_rect(&assets.scene, dest, tint)?;
        assets.batch.end()?;

        if self.capture_frame == Some(self.frame) {
            let n = (params.back_buffer_width * params.back_buffer_height) as usize;
            let mut pixels = vec![Color::TRANSPARENT; n];
            device.get_back_buffer_data(None, &mut pixels, 0, n)?;
            self.captured = Some(pixels);
        }
        Ok(())
    }
}
