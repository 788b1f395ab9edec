//! XNA's `Game`: the loop that creates the device, calls a game's `Initialize`,
//! `LoadContent`, then `Update` and `Draw` every tick, presents, and ends on `Exit`.
//!
//! A game implements [`Game`]; what XNA's `Game` base class holds — the
//! [`GraphicsDeviceManager`], the window, the step settings, `Exit` — is the
//! [`GameContext`] every method receives. The same game runs windowed
//! ([`GameContext::run`], winit) or headless ([`GameContext::run_headless`]: a fixed number of
//! frames, no window, a clock that advances by exactly `TargetElapsedTime` per frame, and
//! scripted input), so tests and benchmarks run the game a player sees.
//!
//! Each tick follows FNA's `Game.Tick` (see [`time`]): input events are applied, `Update` runs
//! as many times as the step rules say, then, unless the game exited during the tick, `Draw`
//! runs once and the device presents (XNA's `EndDraw`). An error from any of them ends the run
//! and is returned; `UnloadContent` still runs when the device exists.

pub mod input;
mod keys;
mod manager;
pub mod time;
mod window;
pub mod winit_input;

use std::time::Duration;

pub use input::{
    ButtonState, InputEvent, KeyState, Keyboard, KeyboardState, Mouse, MouseButton, MouseState,
};
pub use keys::Keys;
pub use manager::GraphicsDeviceManager;
pub use time::{GameTime, MAX_ELAPSED_TIME};

use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::math::Rectangle;
use time::{Clock, GameTimer, ManualClock, StepMode};

/// A game, as an XNA `Game` subclass: the loop calls these in XNA's order.
pub trait Game {
    /// XNA's `Initialize`: the device exists; set up what is not content. Called once, first.
    fn initialize(&mut self, ctx: &mut GameContext) -> Result<()> {
        let _ = ctx;
        Ok(())
    }

    /// XNA's `LoadContent`: create textures, render targets, sprite batches. Called once,
    /// after `initialize`.
    fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        let _ = ctx;
        Ok(())
    }

    /// XNA's `UnloadContent`: called once when the run ends, before the device is dropped.
    fn unload_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        let _ = ctx;
        Ok(())
    }

    /// XNA's `Update`: advance the game by `time.elapsed_game_time`.
    fn update(&mut self, ctx: &mut GameContext, time: &GameTime) -> Result<()>;

    /// XNA's `Draw`: record the frame; the loop presents it afterwards.
    fn draw(&mut self, ctx: &mut GameContext, time: &GameTime) -> Result<()>;

    /// XNA's `EndDraw`: called after every `draw`; presents the frame. A game that overrides
    /// it must present itself (a benchmark does, to time the present).
    fn end_draw(&mut self, ctx: &mut GameContext) -> Result<()> {
        ctx.graphics_device()?.present()
    }
}

/// XNA's `GameWindow`, as far as a game sets and reads it.
#[derive(Debug, Clone)]
pub struct GameWindow {
    /// The window's title (XNA's `Title`); a change shows at the next tick.
    pub title: String,
    /// Whether the player may resize the window (XNA's `AllowUserResizing`, default off). When
    /// set, the back buffer follows the client area's size (XNA's `ClientSizeChanged` handler
    /// applies the new size); render targets are untouched.
    pub allow_user_resizing: bool,
    client_bounds: Rectangle,
}

impl GameWindow {
    /// The client area's position on the screen and size in pixels (XNA's `ClientBounds`);
    /// headless, the back buffer's size at (0, 0).
    pub fn client_bounds(&self) -> Rectangle {
        self.client_bounds
    }
}

/// What XNA's `Game` base class holds, handed to every [`Game`] method: the graphics device
/// manager (and through it the device), the window, the step settings and `Exit`.
#[derive(Debug)]
pub struct GameContext {
    /// XNA's `GraphicsDeviceManager`: set its preferences before the run to shape the device.
    pub graphics: GraphicsDeviceManager,
    /// XNA's `Game.Window`: its title, resizing switch and client bounds.
    pub window: GameWindow,
    /// XNA's `IsFixedTimeStep` (default on): `Update` runs once per `TargetElapsedTime` of real
    /// time, catching up when late; off, once per tick with the real time elapsed.
    pub is_fixed_time_step: bool,
    /// XNA's `IsMouseVisible` (default off): whether the cursor shows over the window.
    pub is_mouse_visible: bool,
    target_elapsed_time: Duration,
    exit_requested: bool,
}

impl Default for GameContext {
    fn default() -> Self {
        GameContext::new()
    }
}

impl GameContext {
    /// XNA's `Game` defaults: fixed step at 1/60 s, cursor hidden, a window the player cannot
    /// resize, the manager's default preferences. The title is "xnagraph" where XNA's is the
    /// game assembly's name.
    pub fn new() -> Self {
        GameContext {
            graphics: GraphicsDeviceManager::new(),
            window: GameWindow {
                title: "xnagraph".to_owned(),
                allow_user_resizing: false,
                client_bounds: Rectangle::new(0, 0, 0, 0),
            },
            is_fixed_time_step: true,
            is_mouse_visible: false,
            target_elapsed_time: Duration::from_nanos(16_666_667),
            exit_requested: false,
        }
    }

    /// The device (XNA's `GraphicsDevice`). It exists from `initialize` to `unload_content`;
    /// outside a run it is `InvalidOperation` (XNA returns null).
    pub fn graphics_device(&self) -> Result<&GraphicsDevice> {
        self.graphics.graphics_device().ok_or_else(|| {
            XnaError::invalid_operation("The GraphicsDevice does not exist outside a game run.")
        })
    }

    /// XNA's `TargetElapsedTime`: the fixed step's length (default 1/60 s).
    pub fn target_elapsed_time(&self) -> Duration {
        self.target_elapsed_time
    }

    /// Sets `TargetElapsedTime`. Zero is `ArgumentOutOfRange` ("The time must be positive and
    /// non-zero."), as in XNA; a step longer than [`MAX_ELAPSED_TIME`] is refused the same way,
    /// since no tick could ever reach it.
    pub fn set_target_elapsed_time(&mut self, value: Duration) -> Result<()> {
        if value.is_zero() || value > MAX_ELAPSED_TIME {
            return Err(XnaError::out_of_range(
                "value",
                "The time must be positive and non-zero, and at most MaxElapsedTime.",
            ));
        }
        self.target_elapsed_time = value;
        Ok(())
    }

    /// XNA's `Exit`: the run ends after the current tick, which draws nothing more. The
    /// remaining updates of the tick still run, as in XNA and FNA.
    pub fn exit(&mut self) {
        self.exit_requested = true;
    }

    /// Whether `exit` was called during this run (not XNA; the flag is cleared when a run
    /// starts).
    pub fn is_exiting(&self) -> bool {
        self.exit_requested
    }

    fn step_mode(&self) -> StepMode {
        StepMode { fixed: self.is_fixed_time_step, target: self.target_elapsed_time }
    }

    /// Creates the device, then runs `initialize` and `load_content`.
    fn begin_run<G: Game>(
        &mut self,
        game: &mut G,
        create: impl FnOnce(
            crate::GraphicsProfile,
            crate::PresentationParameters,
            crate::DeviceOptions,
        ) -> Result<GraphicsDevice>,
    ) -> Result<()> {
        self.exit_requested = false;
        input::reset_input();
        self.graphics.create_device(create)?;
        game.initialize(self)?;
        game.load_content(self)
    }

    /// One tick: updates, then draw and present unless the game exited.
    fn tick<G: Game>(
        &mut self,
        game: &mut G,
        timer: &mut GameTimer,
        clock: &mut dyn Clock,
    ) -> Result<()> {
        let mode = self.step_mode();
        let draw_time = timer.tick(clock, mode, |time| game.update(self, time))?;
        if self.exit_requested {
            return Ok(());
        }
        game.draw(self, &draw_time)?;
        game.end_draw(self)
    }

    /// Runs `unload_content` (when the device exists) and drops the device; the first error of
    /// the run wins.
    fn end_run<G: Game>(&mut self, game: &mut G, result: Result<()>) -> Result<()> {
        let unloaded =
            if self.graphics.device.is_some() { game.unload_content(self) } else { Ok(()) };
        self.graphics.release_device();
        result.and(unloaded)
    }

    /// Runs `game` headless for `frames` ticks (not XNA): the device is created with
    /// [`GraphicsDevice::with_options`] from the manager's preferences, no window exists, and
    /// the clock advances by exactly `TargetElapsedTime` per tick, so a fixed-step game runs
    /// one `Update` and one `Draw` per frame and every run is the same. Before each tick,
    /// `script(frame, events)` may push input events (frames count from 0); they reach
    /// [`Keyboard::get_state`] and [`Mouse::get_state`] in that tick's updates. The run ends
    /// early when the game exits; the device is dropped at the end.
    pub fn run_headless<G: Game>(
        &mut self,
        game: &mut G,
        frames: u64,
        mut script: impl FnMut(u64, &mut Vec<InputEvent>),
    ) -> Result<()> {
        let result = self.begin_run(game, GraphicsDevice::with_options).and_then(|()| {
            let desc = self.graphics_device()?.presentation_parameters();
            self.window.client_bounds =
                Rectangle::new(0, 0, desc.back_buffer_width, desc.back_buffer_height);
            let mut clock = ManualClock::default();
            let mut timer = GameTimer::starting_at(clock.now);
            let mut events = Vec::new();
            for frame in 0..frames {
                script(frame, &mut events);
                events.drain(..).for_each(input::apply_input);
                clock.now += self.target_elapsed_time;
                self.tick(game, &mut timer, &mut clock)?;
                if self.exit_requested {
                    break;
                }
            }
            Ok(())
        });
        self.end_run(game, result)
    }

    /// XNA's `Game.Run`: opens a window (winit) titled, sized and resizable as the context
    /// says, creates the device for it, and runs the loop until the game exits or the window
    /// is closed. Errors from device creation, `Update`, `Draw` or `Present` end the run and
    /// are returned; so is an event loop that cannot start (no display).
    pub fn run<G: Game>(&mut self, game: &mut G) -> Result<()> {
        window::run_windowed(self, game, false)
    }

    /// As [`GameContext::run`], with an event loop allowed on a thread other than the main
    /// one (winit's `with_any_thread`; X11, Wayland and Win32 allow it, macOS does not:
    /// `NotSupported` there). For tests.
    pub fn run_on_any_thread<G: Game>(&mut self, game: &mut G) -> Result<()> {
        window::run_windowed(self, game, true)
    }
}
