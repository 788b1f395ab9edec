//! The window of a windowed replay (`xnagraph-replay replay --window`): a winit window of the
//! capture's back-buffer size that the replaying backend is created for, so that each replayed
//! frame's present goes to its swapchain exactly as the engine's own windowed device presents.
//!
//! The replay loop stays the caller's: winit's events are pumped without blocking after every
//! frame ([`ReplayWindow::pump`]), which says whether the window is still open, so closing it
//! ends the replay after the frame in progress.

use std::sync::Arc;
use std::time::{Duration, Instant};

use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::platform::pump_events::{EventLoopExtPumpEvents, PumpStatus};
use winit::window::{Window, WindowAttributes, WindowId};

struct App {
    attributes: WindowAttributes,
    window: Option<Arc<Window>>,
    error: Option<String>,
    closed: bool,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_none() && self.error.is_none() {
            match event_loop.create_window(self.attributes.clone()) {
                Ok(window) => self.window = Some(Arc::new(window)),
                Err(e) => self.error = Some(format!("no window: {e}")),
            }
        }
    }

    fn window_event(&mut self, _: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        if matches!(event, WindowEvent::CloseRequested | WindowEvent::Destroyed) {
            self.closed = true;
        }
    }
}

/// A window a replay presents to, and winit's event loop that serves it.
pub struct ReplayWindow {
    event_loop: EventLoop<()>,
    app: App,
}

impl ReplayWindow {
    /// Opens a window titled `title` whose inner size is `width` × `height` and waits (at most
    /// 10 s) until the display has given it that size, so that the first swapchain has it.
    pub fn open(title: &str, width: u32, height: u32) -> Result<ReplayWindow, String> {
        let event_loop = EventLoop::new().map_err(|e| format!("no window event loop: {e}"))?;
        let attributes = Window::default_attributes()
            .with_title(title)
            .with_inner_size(PhysicalSize::new(width, height))
            .with_resizable(true);
        let app = App { attributes, window: None, error: None, closed: false };
        let mut opened = ReplayWindow { event_loop, app };
        let start = Instant::now();
        let wanted = PhysicalSize::new(width, height);
        loop {
            opened.pump();
            if let Some(e) = opened.app.error.take() {
                return Err(e);
            }
            if opened.app.window.as_ref().is_some_and(|w| w.inner_size() == wanted) {
                return Ok(opened);
            }
            if opened.app.closed || start.elapsed() > Duration::from_secs(10) {
                return Err(format!("the window never opened at {width}x{height}"));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The window, for the backend that presents to it.
    pub fn window(&self) -> Arc<Window> {
        self.app.window.clone().expect("opened")
    }

    /// Handles the events that arrived, without waiting; whether the window is still open.
    pub fn pump(&mut self) -> bool {
        let status = self.event_loop.pump_app_events(Some(Duration::ZERO), &mut self.app);
        if matches!(status, PumpStatus::Exit(_)) {
            self.app.closed = true;
        }
        !self.app.closed
    }

    /// Waits until the window is closed (it keeps showing the last frame presented).
    pub fn wait_closed(&mut self) {
        while self.pump() {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
