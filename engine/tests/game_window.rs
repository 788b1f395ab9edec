//! A windowed game under X11 (Xvfb in CI): input injected into the window with xdotool
//! reaches `Keyboard::get_state` and `Mouse::get_state` in the game's updates.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::{skipped, Validation};
use xnagraph::game::{ButtonState, Game, GameContext, GameTime, Keyboard, Keys, Mouse};
use xnagraph::Color;

/// Runs `xdotool` with `args`, returning its standard output.
fn xdotool(args: &[&str]) -> Result<String, String> {
    let output = Command::new("xdotool")
        .args(args)
        .output()
        .map_err(|e| format!("xdotool cannot run: {e}"))?;
    if !output.status.success() {
        return Err(format!("xdotool {args:?}: {}", String::from_utf8_lossy(&output.stderr)));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Finds the window titled `title`, focuses it, then types and clicks into it, as a player
/// would: `G` held down, the cursor moved to (37, 21), the right button held.
fn play_into(title: &str) -> Result<(), String> {
    // Polled rather than `search --sync`, which would wait forever for a window never shown.
    let deadline = Instant::now() + Duration::from_secs(15);
    let id = loop {
        let found = xdotool(&["search", "--name", title]).unwrap_or_default();
        if let Some(id) = found.lines().next() {
            break id.trim().to_owned();
        }
        if Instant::now() > deadline {
            return Err(format!("no window titled {title:?} appeared"));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    xdotool(&["windowfocus", "--sync", &id])?;
    xdotool(&["mousemove", "--window", &id, "37", "21"])?;
    xdotool(&["keydown", "g"])?;
    xdotool(&["mousedown", "3"])?;
    Ok(())
}

#[derive(Default)]
struct Player {
    title: String,
    updates: u64,
    saw_key: bool,
    saw_mouse: Option<(i32, i32)>,
    saw_button: bool,
    started: Option<Instant>,
    injector: Option<std::thread::JoinHandle<Result<(), String>>>,
}

impl Game for Player {
    fn initialize(&mut self, ctx: &mut GameContext) -> xnagraph::Result<()> {
        ctx.window.title = self.title.clone();
        Ok(())
    }

    fn update(&mut self, ctx: &mut GameContext, _time: &GameTime) -> xnagraph::Result<()> {
        self.updates += 1;
        if self.injector.is_none() {
            let title = self.title.clone();
            self.injector = Some(std::thread::spawn(move || play_into(&title)));
            self.started = Some(Instant::now());
        }
        let keys = Keyboard::get_state();
        let mouse = Mouse::get_state();
        self.saw_key |= keys.is_key_down(Keys::G);
        if (mouse.x, mouse.y) == (37, 21) {
            self.saw_mouse = Some((mouse.x, mouse.y));
        }
        self.saw_button |= mouse.right_button == ButtonState::Pressed;
        let done = self.saw_key && self.saw_mouse.is_some() && self.saw_button;
        let late = self.started.is_some_and(|t| t.elapsed() > Duration::from_secs(20));
        if done || late {
            ctx.exit();
        }
        Ok(())
    }

    fn draw(&mut self, ctx: &mut GameContext, _time: &GameTime) -> xnagraph::Result<()> {
        ctx.graphics_device()?.clear(Color::new(30, 90, 160, 255))
    }
}

#[test]
fn keys_and_mouse_injected_into_the_window_reach_the_input_state() {
    if std::env::var_os("DISPLAY").is_none() {
        return skipped(
            "keys_and_mouse_injected_into_the_window_reach_the_input_state",
            "no DISPLAY",
        );
    }
    let _v = Validation::new();
    let mut player =
        Player { title: format!("xnagraph input {}", std::process::id()), ..Player::default() };
    let mut ctx = GameContext::new();
    ctx.graphics.preferred_back_buffer_width = 160;
    ctx.graphics.preferred_back_buffer_height = 120;
    ctx.graphics.device_options =
        xnagraph::DeviceOptions { validation: true, ..xnagraph::DeviceOptions::from_env() };
    // A busy X server can refuse the connection for a moment: the run is tried again then.
    let mut attempts = 0;
    loop {
        match ctx.run_on_any_thread(&mut player) {
            Err(xnagraph::XnaError::NotSupported { message })
                if message.contains("No window system") && attempts < 20 =>
            {
                attempts += 1;
                std::thread::sleep(Duration::from_millis(200));
            }
            outcome => break outcome.expect("the windowed run"),
        }
    }
    let injected = player.injector.take().expect("the game updated").join().unwrap();
    // Release what the injection held, whatever the outcome.
    let _ = xdotool(&["keyup", "g"]);
    let _ = xdotool(&["mouseup", "3"]);
    injected.expect("xdotool injected the input");
    assert!(player.saw_key, "KeyboardState saw G down ({} updates)", player.updates);
    assert_eq!(player.saw_mouse, Some((37, 21)), "MouseState saw the cursor in the window");
    assert!(player.saw_button, "MouseState saw the right button down");
}
