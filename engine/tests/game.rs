//! XNA's `Game` loop and `GraphicsDeviceManager`, run headless through the public API: the
//! order of calls, `Exit`, errors ending the run, `ApplyChanges` and its validation, and a
//! SpriteBatch game whose update sees scripted input, checked by its pixels.

mod common;

use std::time::Duration;

use common::{test_options, Validation};
use xnagraph::game::{
    ButtonState, Game, GameContext, GameTime, InputEvent, Keyboard, Keys, Mouse, MouseButton,
};
use xnagraph::{
    BackendKind, Color, PresentInterval, Rectangle, RenderTarget2D, Result, SpriteBatch, Texture2D,
    XnaError,
};

/// A context whose device is a null backend (no GPU): for tests of the loop alone.
fn null_context() -> GameContext {
    let mut ctx = GameContext::new();
    ctx.graphics.device_options.backend = BackendKind::Null;
    ctx.graphics.preferred_back_buffer_width = 32;
    ctx.graphics.preferred_back_buffer_height = 16;
    ctx
}

/// Records every call the loop makes; exits or fails where told.
#[derive(Default)]
struct Recorder {
    calls: Vec<String>,
    exit_at_update: Option<usize>,
    fail_draw_at: Option<usize>,
    updates: Vec<GameTime>,
    draws: Vec<GameTime>,
}

impl Game for Recorder {
    fn initialize(&mut self, ctx: &mut GameContext) -> Result<()> {
        ctx.graphics_device()?;
        self.calls.push("initialize".into());
        Ok(())
    }
    fn load_content(&mut self, _: &mut GameContext) -> Result<()> {
        self.calls.push("load_content".into());
        Ok(())
    }
    fn unload_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        ctx.graphics_device()?;
        self.calls.push("unload_content".into());
        Ok(())
    }
    fn update(&mut self, ctx: &mut GameContext, time: &GameTime) -> Result<()> {
        self.updates.push(*time);
        self.calls.push("update".into());
        if self.exit_at_update == Some(self.updates.len()) {
            ctx.exit();
        }
        Ok(())
    }
    fn draw(&mut self, _: &mut GameContext, time: &GameTime) -> Result<()> {
        self.draws.push(*time);
        self.calls.push("draw".into());
        if self.fail_draw_at == Some(self.draws.len()) {
            return Err(XnaError::InvalidOperation { message: "draw failed".into() });
        }
        Ok(())
    }
}

#[test]
fn a_headless_run_calls_the_game_in_xnas_order_one_update_and_draw_per_frame() {
    let mut ctx = null_context();
    let mut game = Recorder::default();
    ctx.set_target_elapsed_time(Duration::from_millis(20)).unwrap();
    ctx.run_headless(&mut game, 3, |_, _| {}).unwrap();
    let expected = [
        "initialize",
        "load_content",
        "update",
        "draw",
        "update",
        "draw",
        "update",
        "draw",
        "unload_content",
    ];
    assert_eq!(game.calls, expected);
    let totals: Vec<_> = game.draws.iter().map(|t| t.total_game_time.as_millis()).collect();
    assert_eq!(totals, [20, 40, 60], "each frame advances exactly TargetElapsedTime");
    assert!(game.updates.iter().all(|t| t.elapsed_game_time == Duration::from_millis(20)));
    assert!(ctx.graphics_device().is_err(), "the device is gone after the run");
}

#[test]
fn a_variable_step_headless_run_also_advances_by_target_elapsed_time() {
    let mut ctx = null_context();
    ctx.is_fixed_time_step = false;
    let mut game = Recorder::default();
    ctx.run_headless(&mut game, 2, |_, _| {}).unwrap();
    assert_eq!(game.updates.len(), 2);
    assert_eq!(game.draws[1].total_game_time, ctx.target_elapsed_time() * 2);
}

#[test]
fn exit_ends_the_run_after_the_tick_without_drawing_it() {
    let mut ctx = null_context();
    let mut game = Recorder { exit_at_update: Some(2), ..Recorder::default() };
    ctx.run_headless(&mut game, 10, |_, _| {}).unwrap();
    assert_eq!(game.updates.len(), 2, "no tick after the one that exited");
    assert_eq!(game.draws.len(), 1, "the exiting tick draws nothing");
    assert_eq!(game.calls.last().map(String::as_str), Some("unload_content"));
    assert!(ctx.is_exiting());
}

#[test]
fn an_error_from_draw_ends_the_run_and_is_returned_after_unload_content() {
    let mut ctx = null_context();
    let mut game = Recorder { fail_draw_at: Some(2), ..Recorder::default() };
    let err = ctx.run_headless(&mut game, 10, |_, _| {}).unwrap_err();
    assert_eq!(err, XnaError::InvalidOperation { message: "draw failed".into() });
    assert_eq!(game.draws.len(), 2);
    assert_eq!(game.calls.last().map(String::as_str), Some("unload_content"));
}

/// Leaves a render target bound at the end of draw: the loop's present must refuse it.
struct LeavesTargetBound(Option<RenderTarget2D>);

impl Game for LeavesTargetBound {
    fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        self.0 = Some(RenderTarget2D::new(ctx.graphics_device()?, 4, 4)?);
        Ok(())
    }
    fn update(&mut self, _: &mut GameContext, _: &GameTime) -> Result<()> {
        Ok(())
    }
    fn draw(&mut self, ctx: &mut GameContext, _: &GameTime) -> Result<()> {
        ctx.graphics_device()?.set_render_target(self.0.as_ref())
    }
}

#[test]
fn an_error_from_present_ends_the_run() {
    let mut ctx = null_context();
    let err = ctx.run_headless(&mut LeavesTargetBound(None), 5, |_, _| {}).unwrap_err();
    assert!(matches!(err, XnaError::InvalidOperation { .. }), "{err:?}");
}

#[test]
fn target_elapsed_time_must_be_positive() {
    let mut ctx = GameContext::new();
    assert!(matches!(
        ctx.set_target_elapsed_time(Duration::ZERO),
        Err(XnaError::ArgumentOutOfRange { .. })
    ));
    assert_eq!(ctx.target_elapsed_time(), Duration::from_nanos(16_666_667));
}

/// Runs `check` once with the device created from `ctx`'s preferences, then exits.
struct Once<F>(Option<F>);

impl<F: FnOnce(&mut GameContext) -> Result<()>> Game for Once<F> {
    fn initialize(&mut self, ctx: &mut GameContext) -> Result<()> {
        ctx.exit();
        (self.0.take().unwrap())(ctx)
    }
    fn update(&mut self, _: &mut GameContext, _: &GameTime) -> Result<()> {
        Ok(())
    }
    fn draw(&mut self, _: &mut GameContext, _: &GameTime) -> Result<()> {
        Ok(())
    }
}

fn with_gpu_device(check: impl FnOnce(&mut GameContext) -> Result<()>) {
    let _validation = Validation::new();
    let mut ctx = GameContext::new();
    ctx.graphics.device_options = test_options();
    ctx.graphics.preferred_back_buffer_width = 24;
    ctx.graphics.preferred_back_buffer_height = 16;
    ctx.run_headless(&mut Once(Some(check)), 1, |_, _| {}).unwrap();
}

#[test]
fn apply_changes_resets_the_back_buffer_to_the_preferred_size_and_keeps_render_targets() {
    with_gpu_device(|ctx| {
        let device = ctx.graphics_device()?;
        let target = RenderTarget2D::new(device, 2, 2)?;
        device.set_render_target(Some(&target))?;
        device.clear(Color::RED)?;
        device.set_render_target(None)?;
        ctx.graphics.preferred_back_buffer_width = 40;
        ctx.graphics.preferred_back_buffer_height = 20;
        ctx.graphics.apply_changes()?;
        let device = ctx.graphics_device()?;
        let params = device.presentation_parameters();
        assert_eq!((params.back_buffer_width, params.back_buffer_height), (40, 20));
        device.clear(Color::CORNFLOWER_BLUE)?;
        let mut batch = SpriteBatch::new(device)?;
        batch.begin()?;
        batch.draw_rect(&target, Rectangle::new(30, 12, 6, 5), Color::WHITE)?;
        batch.end()?;
        device.present()?;
        let mut pixels = vec![Color::TRANSPARENT; 40 * 20];
        device.get_back_buffer_data(None, &mut pixels, 0, 40 * 20)?;
        assert_eq!(pixels[14 * 40 + 33], Color::RED, "the render target kept its content");
        assert_eq!(pixels[19 * 40 + 39], Color::CORNFLOWER_BLUE, "the new corner exists");
        assert_eq!(pixels[2 * 40 + 2], Color::CORNFLOWER_BLUE);
        Ok(())
    });
}

#[test]
fn apply_changes_refuses_bad_sizes_with_xnas_errors_and_keeps_the_device() {
    with_gpu_device(|ctx| {
        ctx.graphics.preferred_back_buffer_width = 0;
        match ctx.graphics.apply_changes() {
            Err(XnaError::ArgumentOutOfRange { param, .. }) => assert_eq!(param, "BackBufferWidth"),
            other => panic!("{other:?}"),
        }
        ctx.graphics.preferred_back_buffer_width = 24;
        ctx.graphics.preferred_back_buffer_height = -3;
        match ctx.graphics.apply_changes() {
            Err(XnaError::ArgumentOutOfRange { param, .. }) => {
                assert_eq!(param, "BackBufferHeight")
            }
            other => panic!("{other:?}"),
        }
        ctx.graphics.preferred_back_buffer_height = 100_000;
        assert!(matches!(ctx.graphics.apply_changes(), Err(XnaError::NotSupported { .. })));
        let params = ctx.graphics_device()?.presentation_parameters();
        assert_eq!((params.back_buffer_width, params.back_buffer_height), (24, 16));
        Ok(())
    });
}

#[test]
fn synchronize_with_vertical_retrace_sets_the_presentation_interval_and_full_screen_toggles() {
    let mut ctx = null_context();
    let check = |ctx: &mut GameContext| -> Result<()> {
        let interval = |ctx: &GameContext| ctx.graphics_device().unwrap().presentation_parameters();
        assert_eq!(interval(ctx).presentation_interval, PresentInterval::One);
        ctx.graphics.synchronize_with_vertical_retrace = false;
        ctx.graphics.apply_changes()?;
        assert_eq!(interval(ctx).presentation_interval, PresentInterval::Immediate);
        assert!(!interval(ctx).is_full_screen);
        ctx.graphics.toggle_full_screen()?;
        assert!(ctx.graphics.is_full_screen && interval(ctx).is_full_screen);
        Ok(())
    };
    ctx.run_headless(&mut Once(Some(check)), 1, |_, _| {}).unwrap();
}

/// A small game: a 4×4 square moves right 4 pixels per update while Right is held, and turns
/// from yellow to green once the left button is down; the wheel moves it down one pixel per
/// notch. The last frame is read back in `unload_content`.
struct Square {
    texture: Option<Texture2D>,
    batch: Option<SpriteBatch>,
    x: i32,
    y: i32,
    color: Color,
    pixels: Vec<Color>,
}

impl Game for Square {
    fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        let device = ctx.graphics_device()?;
        let texture = Texture2D::new(device, 1, 1)?;
        texture.set_data(&[Color::WHITE])?;
        self.texture = Some(texture);
        self.batch = Some(SpriteBatch::new(device)?);
        Ok(())
    }
    fn update(&mut self, _: &mut GameContext, _: &GameTime) -> Result<()> {
        if Keyboard::get_state().is_key_down(Keys::Right) {
            self.x += 4;
        }
        let mouse = Mouse::get_state();
        if mouse.left_button == ButtonState::Pressed {
            self.color = Color::new(0, 255, 0, 255);
        }
        self.y = 2 + mouse.scroll_wheel_value / 120;
        Ok(())
    }
    fn draw(&mut self, ctx: &mut GameContext, _: &GameTime) -> Result<()> {
        ctx.graphics_device()?.clear(Color::new(0, 0, 64, 255))?;
        let batch = self.batch.as_mut().unwrap();
        batch.begin()?;
        batch.draw_rect(
            self.texture.as_ref().unwrap(),
            Rectangle::new(self.x, self.y, 4, 4),
            self.color,
        )?;
        batch.end()
    }
    fn unload_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        let device = ctx.graphics_device()?;
        self.pixels = vec![Color::TRANSPARENT; 32 * 16];
        device.get_back_buffer_data(None, &mut self.pixels, 0, 32 * 16)
    }
}

#[test]
fn a_sprite_game_sees_scripted_input_and_draws_the_expected_pixels() {
    let _validation = Validation::new();
    let mut ctx = GameContext::new();
    ctx.graphics.device_options = test_options();
    ctx.graphics.preferred_back_buffer_width = 32;
    ctx.graphics.preferred_back_buffer_height = 16;
    let mut game = Square {
        texture: None,
        batch: None,
        x: 1,
        y: 2,
        color: Color::new(255, 255, 0, 255),
        pixels: Vec::new(),
    };
    // Right is held during frames 1..=4 (four updates: x = 1 + 16 = 17); the left button goes
    // down at frame 5; the wheel rolls three notches forward at frame 2 and one back at 3.
    ctx.run_headless(&mut game, 6, |frame, events| match frame {
        1 => events.push(InputEvent::KeyDown(Keys::Right)),
        2 => events.push(InputEvent::Scrolled(360)),
        3 => events.push(InputEvent::Scrolled(-120)),
        5 => {
            events.push(InputEvent::KeyUp(Keys::Right));
            events.push(InputEvent::ButtonDown(MouseButton::Left));
        }
        _ => {}
    })
    .unwrap();
    assert_eq!((game.x, game.y), (17, 4));
    let at = |x: usize, y: usize| game.pixels[y * 32 + x];
    let background = Color::new(0, 0, 64, 255);
    let green = Color::new(0, 255, 0, 255);
    assert_eq!(at(17, 4), green, "top-left of the square");
    assert_eq!(at(20, 7), green, "bottom-right of the square");
    assert_eq!(at(16, 4), background, "left of it");
    assert_eq!(at(21, 4), background, "right of it");
    assert_eq!(at(17, 8), background, "below it");
    assert_eq!(at(1, 2), background, "where it started");
}
