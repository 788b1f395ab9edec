//! The windowed run: a winit `ApplicationHandler` that opens the game's window, creates the
//! device for it and ticks the game on every redraw.
//!
//! `resumed` creates the window (title, size from the manager, resizable from
//! `AllowUserResizing`, cursor visibility, borderless full screen) and the device, then runs
//! `initialize` and `load_content`. Window events feed the input state; `Resized` is XNA's
//! `ClientSizeChanged`; `CloseRequested` ends the run. `RedrawRequested` runs one tick
//! (updates, draw, present), then brings the window in line with what the game changed
//! (title, cursor, full screen, the back buffer size after `ApplyChanges`) and asks for the
//! next redraw, which `about_to_wait` repeats so the loop never stalls.

use std::sync::Arc;

use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Fullscreen, Window, WindowId};

use super::input::{apply_input, InputEvent};
use super::time::{Clock, GameTimer, SystemClock};
use super::{winit_input, Game, GameContext};
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::math::Rectangle;

struct App<'a, G: Game> {
    ctx: &'a mut GameContext,
    game: &'a mut G,
    window: Option<Arc<Window>>,
    clock: SystemClock,
    timer: GameTimer,
    pending: Vec<InputEvent>,
    result: Result<()>,
    /// What the window was last told, so only changes reach it.
    shown: Shown,
}

#[derive(Default, PartialEq)]
struct Shown {
    title: String,
    cursor_visible: bool,
    full_screen: bool,
    back_buffer: (i32, i32),
}

fn full_screen(on: bool) -> Option<Fullscreen> {
    on.then_some(Fullscreen::Borderless(None))
}

impl<G: Game> App<'_, G> {
    /// Ends the loop with `error` unless an earlier one is already kept.
    fn fail(&mut self, event_loop: &ActiveEventLoop, error: XnaError) {
        if self.result.is_ok() {
            self.result = Err(error);
        }
        event_loop.exit();
    }

    fn update_client_bounds(&mut self, window: &Window) {
        let size = window.inner_size();
        let at = window.inner_position().unwrap_or_default();
        self.ctx.window.client_bounds =
            Rectangle::new(at.x, at.y, size.width as i32, size.height as i32);
    }

    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<()> {
        let params = self.ctx.graphics.presentation_parameters();
        let attributes = Window::default_attributes()
            .with_title(self.ctx.window.title.clone())
            .with_inner_size(PhysicalSize::new(
                params.back_buffer_width.max(1) as u32,
                params.back_buffer_height.max(1) as u32,
            ))
            .with_resizable(self.ctx.window.allow_user_resizing)
            .with_fullscreen(full_screen(params.is_full_screen));
        let window =
            Arc::new(event_loop.create_window(attributes).map_err(|e| {
                XnaError::not_supported(format!("The window cannot be created: {e}"))
            })?);
        window.set_cursor_visible(self.ctx.is_mouse_visible);
        self.update_client_bounds(&window);
        // What the window shows now; what `initialize` changes reaches it after the tick.
        self.shown = Shown {
            title: self.ctx.window.title.clone(),
            cursor_visible: self.ctx.is_mouse_visible,
            full_screen: params.is_full_screen,
            back_buffer: (params.back_buffer_width, params.back_buffer_height),
        };
        let for_window = window.clone();
        self.window = Some(window.clone());
        self.ctx.begin_run(self.game, move |profile, params, options| {
            GraphicsDevice::for_window(profile, params, options, for_window)
        })?;
        self.timer = GameTimer::starting_at(self.clock.now());
        window.request_redraw();
        Ok(())
    }

    /// Brings the window in line with what the game changed during the tick.
    fn sync_window(&mut self, window: &Window) -> Result<()> {
        let params = self.ctx.graphics_device()?.presentation_parameters();
        if self.shown.title != self.ctx.window.title {
            window.set_title(&self.ctx.window.title);
            self.shown.title.clone_from(&self.ctx.window.title);
        }
        if self.shown.cursor_visible != self.ctx.is_mouse_visible {
            window.set_cursor_visible(self.ctx.is_mouse_visible);
            self.shown.cursor_visible = self.ctx.is_mouse_visible;
        }
        if self.shown.full_screen != params.is_full_screen {
            window.set_fullscreen(full_screen(params.is_full_screen));
            self.shown.full_screen = params.is_full_screen;
        }
        let size = (params.back_buffer_width, params.back_buffer_height);
        if self.shown.back_buffer != size {
            self.shown.back_buffer = size;
            if !params.is_full_screen {
                let _ = window.request_inner_size(PhysicalSize::new(size.0 as u32, size.1 as u32));
            }
        }
        Ok(())
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop, window: &Window) -> Result<()> {
        self.pending.drain(..).for_each(apply_input);
        self.ctx.tick(self.game, &mut self.timer, &mut self.clock)?;
        if self.ctx.exit_requested {
            event_loop.exit();
            return Ok(());
        }
        self.sync_window(window)?;
        window.request_redraw();
        Ok(())
    }
}

impl<G: Game> ApplicationHandler for App<'_, G> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        if let Err(error) = self.open(event_loop) {
            self.fail(event_loop, error);
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(window) = self.window.clone() else { return };
        if self.result.is_err() {
            return;
        }
        let outcome = match event {
            WindowEvent::CloseRequested => {
                self.ctx.exit();
                event_loop.exit();
                Ok(())
            }
            WindowEvent::Resized(size) => {
                self.update_client_bounds(&window);
                if self.ctx.window.allow_user_resizing {
                    let r = self.ctx.graphics.client_size_changed(size.width, size.height);
                    let p = self.ctx.graphics.presentation_parameters();
                    self.shown.back_buffer = (p.back_buffer_width, p.back_buffer_height);
                    r
                } else {
                    Ok(())
                }
            }
            WindowEvent::Moved(_) => {
                self.update_client_bounds(&window);
                Ok(())
            }
            WindowEvent::KeyboardInput { event, .. } if !event.repeat => {
                let input =
                    winit_input::key_event(event.physical_key, &event.logical_key, event.state);
                self.pending.extend(input);
                Ok(())
            }
            WindowEvent::CursorMoved { position, .. } => {
                let (x, y) = (position.x.round() as i32, position.y.round() as i32);
                self.pending.push(InputEvent::MouseMoved { x, y });
                Ok(())
            }
            WindowEvent::MouseInput { state, button, .. } => {
                if let Some(button) = winit_input::mouse_button(button) {
                    self.pending.push(match state {
                        winit::event::ElementState::Pressed => InputEvent::ButtonDown(button),
                        winit::event::ElementState::Released => InputEvent::ButtonUp(button),
                    });
                }
                Ok(())
            }
            WindowEvent::MouseWheel { delta, .. } => {
                self.pending.push(InputEvent::Scrolled(winit_input::scroll_units(delta)));
                Ok(())
            }
            WindowEvent::Focused(false) => {
                self.pending.push(InputEvent::FocusLost);
                Ok(())
            }
            WindowEvent::RedrawRequested => self.redraw(event_loop, &window),
            _ => Ok(()),
        };
        if let Err(error) = outcome {
            self.fail(event_loop, error);
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(window) = &self.window {
            window.request_redraw();
        }
    }
}

fn event_loop(any_thread: bool) -> Result<EventLoop<()>> {
    let mut builder = EventLoop::builder();
    if any_thread {
        allow_any_thread(&mut builder)?;
    }
    builder
        .build()
        .map_err(|e| XnaError::not_supported(format!("No window system is available: {e}")))
}

/// Lets the event loop run on a thread other than the main one, where the window system allows
/// it (X11, Wayland, Win32); macOS runs windows on the main thread only: `NotSupported`.
#[cfg(any(
    target_os = "linux",
    target_os = "dragonfly",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd"
))]
fn allow_any_thread(builder: &mut winit::event_loop::EventLoopBuilder<()>) -> Result<()> {
    winit::platform::x11::EventLoopBuilderExtX11::with_any_thread(builder, true);
    winit::platform::wayland::EventLoopBuilderExtWayland::with_any_thread(builder, true);
    Ok(())
}

#[cfg(target_os = "windows")]
fn allow_any_thread(builder: &mut winit::event_loop::EventLoopBuilder<()>) -> Result<()> {
    winit::platform::windows::EventLoopBuilderExtWindows::with_any_thread(builder, true);
    Ok(())
}

#[cfg(not(any(
    target_os = "linux",
    target_os = "dragonfly",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "windows"
)))]
fn allow_any_thread(_: &mut winit::event_loop::EventLoopBuilder<()>) -> Result<()> {
    Err(XnaError::not_supported(
        "This window system runs the game loop on the main thread only (run_on_any_thread).",
    ))
}

/// Runs `game` in a window until it exits or the window closes.
pub(super) fn run_windowed<G: Game>(
    ctx: &mut GameContext,
    game: &mut G,
    any_thread: bool,
) -> Result<()> {
    let event_loop = event_loop(any_thread)?;
    let mut app = App {
        ctx,
        game,
        window: None,
        clock: SystemClock::new(),
        timer: GameTimer::default(),
        pending: Vec::new(),
        result: Ok(()),
        shown: Shown::default(),
    };
    let ran = event_loop
        .run_app(&mut app)
        .map_err(|e| XnaError::invalid_operation(format!("The event loop failed: {e}")));
    let result = app.result.and(ran);
    let window = app.window.take();
    let result = app.ctx.end_run(app.game, result);
    drop(window);
    result
}
