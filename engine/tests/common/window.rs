#![allow(dead_code)]
//! Windows for presentation tests: real X11 windows (Xvfb in CI) made by one winit event loop
//! per test process, and screenshots of them taken with `xwd`.
//!
//! winit allows one event loop per process, and tests run on threads of their own, so a
//! dedicated thread owns the loop (`with_any_thread`) and makes windows on request; an X11
//! window may be used and dropped from any thread.

use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use winit::application::ApplicationHandler;
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::platform::pump_events::EventLoopExtPumpEvents;
use winit::platform::x11::EventLoopBuilderExtX11;
use winit::raw_window_handle::{HasWindowHandle, RawWindowHandle};
use winit::window::{Window, WindowId};

type Request = (PhysicalSize<u32>, PhysicalPosition<i32>, mpsc::Sender<Arc<Window>>);

struct Maker {
    requests: mpsc::Receiver<Request>,
}

impl ApplicationHandler for Maker {
    fn resumed(&mut self, _: &ActiveEventLoop) {}

    fn window_event(&mut self, _: &ActiveEventLoop, _: WindowId, _: WindowEvent) {}

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        while let Ok((size, position, reply)) = self.requests.try_recv() {
            let attributes = Window::default_attributes()
                .with_title("xnagraph test")
                .with_inner_size(size)
                .with_position(position);
            let window = event_loop.create_window(attributes).expect("an X11 window");
            let _ = reply.send(Arc::new(window));
        }
    }
}

fn requests() -> &'static Mutex<mpsc::Sender<Request>> {
    static SENDER: OnceLock<Mutex<mpsc::Sender<Request>>> = OnceLock::new();
    SENDER.get_or_init(|| {
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            // A busy X server (every test process connects at once) can refuse a connection
            // for a moment: try again for a while before giving up.
            let mut attempts = 0;
            let mut event_loop = loop {
                match EventLoop::builder().with_x11().with_any_thread(true).build() {
                    Ok(event_loop) => break event_loop,
                    Err(e) if attempts < 50 => {
                        attempts += 1;
                        eprintln!("the X display refused a connection ({e}); trying again");
                        std::thread::sleep(Duration::from_millis(100));
                    }
                    Err(e) => panic!("a winit event loop on X11: {e:?}"),
                }
            };
            let mut maker = Maker { requests: receiver };
            loop {
                let _ = event_loop.pump_app_events(Some(Duration::from_millis(5)), &mut maker);
            }
        });
        Mutex::new(sender)
    })
}

/// Whether an X display is there; prints `SKIPPED:` for `test` when not. Both GPU backends
/// present to windows.
pub fn have_display(test: &str) -> bool {
    let there = std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty());
    if !there {
        eprintln!("SKIPPED: {test}: no DISPLAY (run under xvfb-run)");
    }
    there
}

/// A mapped X11 window of `width` × `height` at (`x`, `y`) on the root window.
pub fn window(width: u32, height: u32, x: i32, y: i32) -> Arc<Window> {
    let (reply, answer) = mpsc::channel();
    let request = (PhysicalSize::new(width, height), PhysicalPosition::new(x, y), reply);
    requests().lock().unwrap().send(request).expect("the event loop thread");
    let window = answer.recv_timeout(Duration::from_secs(20)).expect("a window within 20 s");
    wait_for_size(&window, width, height);
    window
}

/// Asks for a new inner size (as a user's resize would) and waits until the X server has it.
pub fn resize(window: &Window, width: u32, height: u32) {
    let _ = window.request_inner_size(PhysicalSize::new(width, height));
    wait_for_size(window, width, height);
}

fn wait_for_size(window: &Window, width: u32, height: u32) {
    let start = Instant::now();
    while window.inner_size() != PhysicalSize::new(width, height) {
        assert!(start.elapsed() < Duration::from_secs(10), "the window never got {width}x{height}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The X11 id of `window`.
pub fn x11_id(window: &Window) -> u64 {
    match window.window_handle().expect("a window handle").as_raw() {
        // An X window id (c_ulong: 64 bits here).
        #[allow(clippy::useless_conversion)]
        RawWindowHandle::Xlib(h) => u64::from(h.window),
        RawWindowHandle::Xcb(h) => u64::from(h.window.get()),
        other => panic!("not an X11 window: {other:?}"),
    }
}

/// An image taken from the X server: width, height and RGB pixels in rows.
#[derive(Debug, PartialEq, Eq)]
pub struct Screenshot {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<[u8; 3]>,
}

/// `xwd -id <window>`: the window's pixels as the X server holds them.
pub fn screenshot(window: &Window) -> Screenshot {
    let out = std::process::Command::new("xwd")
        .args(["-silent", "-id", &x11_id(window).to_string()])
        .output()
        .expect("xwd (x11-apps) is installed");
    assert!(out.status.success(), "xwd failed: {}", String::from_utf8_lossy(&out.stderr));
    parse_xwd(&out.stdout)
}

/// Parses an XWD file (X11 window dump, version 7) of a 24- or 32-bit TrueColor ZPixmap.
pub fn parse_xwd(bytes: &[u8]) -> Screenshot {
    let field = |i: usize| u32::from_be_bytes(bytes[i * 4..i * 4 + 4].try_into().unwrap());
    let header_size = field(0) as usize;
    assert_eq!(field(1), 7, "XWD version");
    assert_eq!(field(2), 2, "ZPixmap");
    let (width, height) = (field(4), field(5));
    let byte_order = field(7);
    let bits_per_pixel = field(11);
    let bytes_per_line = field(12) as usize;
    let masks = [field(14), field(15), field(16)];
    let colors = field(19) as usize;
    assert!(bits_per_pixel == 32 || bits_per_pixel == 24, "{bits_per_pixel} bits per pixel");
    let pixel_bytes = bits_per_pixel as usize / 8;
    let data = &bytes[header_size + colors * 12..];
    let mut rgb = Vec::with_capacity((width * height) as usize);
    for y in 0..height as usize {
        for x in 0..width as usize {
            let at = y * bytes_per_line + x * pixel_bytes;
            let raw = &data[at..at + pixel_bytes];
            let mut value = 0u32;
            for (i, &b) in raw.iter().enumerate() {
                // byte_order 0 is LSBFirst.
                let shift = if byte_order == 0 { i } else { pixel_bytes - 1 - i } * 8;
                value |= u32::from(b) << shift;
            }
            let channel = |mask: u32| ((value & mask) >> mask.trailing_zeros()) as u8;
            rgb.push([channel(masks[0]), channel(masks[1]), channel(masks[2])]);
        }
    }
    Screenshot { width, height, rgb }
}

#[test]
fn xwd_headers_and_pixels_parse() {
    // A 2x1 dump: 100-byte header with no name, no colours, two LSBFirst 32-bit pixels.
    let mut bytes = Vec::new();
    let fields: [u32; 25] = [
        100, 7, 2, 24, 2, 1, 0, 0, 32, 0, 32, 32, 8, 4, 0xff0000, 0xff00, 0xff, 8, 0, 0, 2, 1, 0,
        0, 0,
    ];
    for f in fields {
        bytes.extend_from_slice(&f.to_be_bytes());
    }
    bytes.extend_from_slice(&[0x30, 0x20, 0x10, 0, 0x03, 0x02, 0x01, 0]);
    let shot = parse_xwd(&bytes);
    assert_eq!((shot.width, shot.height), (2, 1));
    assert_eq!(shot.rgb, [[0x10, 0x20, 0x30], [0x01, 0x02, 0x03]]);
}
