//! Windows of the benchmark binaries seen from outside, as a user sees them: found by title on
//! the X display (Xvfb in CI), closed as a window manager closes them, and photographed with
//! `xwd`. Tests that need a display skip without one.

#![allow(dead_code)] // Each test file uses part of it.

use std::path::Path;
use std::time::{Duration, Instant};

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{
    AtomEnum, ClientMessageEvent, ConnectionExt as _, EventMask, Window,
};
use x11rb::rust_connection::RustConnection;

/// Whether an X display is there; prints `SKIPPED:` for `test` when not.
pub fn have_display(test: &str) -> bool {
    let there = std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty());
    if !there {
        eprintln!("SKIPPED: {test}: no DISPLAY (run under xvfb-run)");
    }
    there
}

/// A connection to an X display: the test's own server, or the one `DISPLAY` names.
pub struct Display {
    conn: RustConnection,
    root: Window,
    /// The display's name, as `DISPLAY` takes it.
    name: String,
    /// The X server started for this test alone, stopped on drop.
    _server: Option<Child>,
}

impl Display {
    /// The display `DISPLAY` names, shared with every other test that runs at the same time.
    pub fn connect() -> Display {
        let name = std::env::var("DISPLAY").expect("DISPLAY is set");
        Display::open(name, None)
    }

    /// A virtual X server (Xvfb) of this test's own, 1280x1024 at 24 bits. The shared display
    /// is no place for a screenshot: there, windows of other tests that run at the same time
    /// open at the same corner and may lie over the one photographed.
    pub fn private() -> Display {
        // -displayfd: the server picks a free display number and writes it there once it
        // accepts connections.
        let mut server = Child::new(
            std::process::Command::new("Xvfb")
                .args(["-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("Xvfb (package xvfb) is installed"),
        );
        let number = server
            .lines()
            .recv_timeout(Duration::from_secs(60))
            .expect("Xvfb writes its display number");
        Display::open(format!(":{}", number.trim()), Some(server))
    }

    fn open(name: String, server: Option<Child>) -> Display {
        let (conn, screen) = x11rb::connect(Some(&name)).expect("the X display");
        let root = conn.setup().roots[screen].root;
        Display { conn, root, name, _server: server }
    }

    /// `command` set to open its windows on this display.
    pub fn command(&self, mut command: std::process::Command) -> std::process::Command {
        command.env("DISPLAY", &self.name);
        command
    }

    /// The top-level window of process `pid` (its `_NET_WM_PID`) titled `title`, waiting up
    /// to 60 s for it to be mapped. Tests run at once on one display: the process tells their
    /// windows apart.
    pub fn wait_for(&self, pid: u32, title: &str) -> Window {
        let start = Instant::now();
        loop {
            if let Some(w) = self.find(pid, title) {
                return w;
            }
            assert!(start.elapsed() < Duration::from_secs(60), "no window titled {title}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn find(&self, pid: u32, title: &str) -> Option<Window> {
        let tree = self.conn.query_tree(self.root).ok()?.reply().ok()?;
        let pid_atom = self.conn.intern_atom(false, b"_NET_WM_PID").ok()?.reply().ok()?.atom;
        let property = |w: Window, name: u32| {
            self.conn
                .get_property(false, w, name, AtomEnum::ANY, 0, 256)
                .ok()
                .and_then(|c| c.reply().ok())
        };
        tree.children.into_iter().find(|&w| {
            property(w, AtomEnum::WM_NAME.into()).is_some_and(|p| p.value == title.as_bytes())
                && property(w, pid_atom)
                    .and_then(|p| p.value32().and_then(|mut v| v.next()))
                    .is_some_and(|p| p == pid)
        })
    }

    /// The inner size of `window`.
    pub fn size(&self, window: Window) -> (u32, u32) {
        let g = self.conn.get_geometry(window).unwrap().reply().unwrap();
        (u32::from(g.width), u32::from(g.height))
    }

    /// Where `window`'s top-left pixel is on the root window.
    pub fn origin(&self, window: Window) -> (i32, i32) {
        let t = self.conn.translate_coordinates(window, self.root, 0, 0).unwrap().reply().unwrap();
        (i32::from(t.dst_x), i32::from(t.dst_y))
    }

    /// Asks `window` to close, as a window manager does (WM_DELETE_WINDOW).
    pub fn close(&self, window: Window) {
        let atom = |name: &[u8]| self.conn.intern_atom(false, name).unwrap().reply().unwrap().atom;
        let (protocols, delete) = (atom(b"WM_PROTOCOLS"), atom(b"WM_DELETE_WINDOW"));
        let event = ClientMessageEvent::new(32, window, protocols, [delete, 0, 0, 0, 0]);
        self.conn.send_event(false, window, EventMask::NO_EVENT, event).unwrap();
        self.conn.flush().unwrap();
    }

    /// The part of `window` that lies on the screen, as the X server shows it (`xwd -root`,
    /// cropped): its offset in the window and its pixels. A window larger than the screen is
    /// only partly there, and `xwd -id` refuses a window that is not wholly visible.
    pub fn screenshot(&self, window: Window) -> ((u32, u32), Image) {
        let out = std::process::Command::new("xwd")
            .args(["-silent", "-root", "-display", &self.name])
            .output()
            .expect("xwd (x11-apps) is installed");
        assert!(out.status.success(), "xwd failed: {}", String::from_utf8_lossy(&out.stderr));
        let screen = parse_xwd(&out.stdout);
        let (x, y) = self.origin(window);
        let (w, h) = self.size(window);
        let (x0, y0) = (x.max(0) as u32, y.max(0) as u32);
        let x1 = (x + w as i32).clamp(0, screen.width as i32) as u32;
        let y1 = (y + h as i32).clamp(0, screen.height as i32) as u32;
        assert!(x1 > x0 && y1 > y0, "the window is off the screen");
        let offset = ((x0 as i32 - x) as u32, (y0 as i32 - y) as u32);
        (offset, screen.crop(x0, y0, x1 - x0, y1 - y0))
    }
}

/// RGB pixels in rows.
#[derive(Debug, PartialEq, Eq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<[u8; 3]>,
}

impl Image {
    /// The `width` × `height` region at (`x`, `y`).
    pub fn crop(&self, x: u32, y: u32, width: u32, height: u32) -> Image {
        let mut rgb = Vec::with_capacity((width * height) as usize);
        for row in y..y + height {
            let start = (row * self.width + x) as usize;
            rgb.extend_from_slice(&self.rgb[start..start + width as usize]);
        }
        Image { width, height, rgb }
    }

    /// An RGBA PNG file's pixels, alpha dropped.
    pub fn from_png(path: &Path) -> Image {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let decoder = png::Decoder::new(std::io::BufReader::new(file));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgba, "{}", path.display());
        let rgb = buf[..info.buffer_size()].chunks(4).map(|p| [p[0], p[1], p[2]]).collect();
        Image { width: info.width, height: info.height, rgb }
    }

    /// How many pixels differ from `other` (of the same size).
    pub fn differing(&self, other: &Image) -> usize {
        assert_eq!((self.width, self.height), (other.width, other.height));
        self.rgb.iter().zip(&other.rgb).filter(|(a, b)| a != b).count()
    }
}

/// Parses an XWD file (X11 window dump, version 7) of a 24- or 32-bit TrueColor ZPixmap.
pub fn parse_xwd(bytes: &[u8]) -> Image {
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
            let mut value = 0u32;
            for (i, &b) in data[at..at + pixel_bytes].iter().enumerate() {
                // byte_order 0 is LSBFirst.
                let shift = if byte_order == 0 { i } else { pixel_bytes - 1 - i } * 8;
                value |= u32::from(b) << shift;
            }
            let channel = |mask: u32| ((value & mask) >> mask.trailing_zeros()) as u8;
            rgb.push([channel(masks[0]), channel(masks[1]), channel(masks[2])]);
        }
    }
    Image { width, height, rgb }
}

/// A child process that is killed if the test ends before it is waited for (a failing test
/// must not leave a window open forever).
pub struct Child(Option<std::process::Child>);

impl Child {
    pub fn new(child: std::process::Child) -> Child {
        Child(Some(child))
    }

    pub fn id(&self) -> u32 {
        self.0.as_ref().expect("not waited for").id()
    }

    /// The lines of the piped stdout as they come, read on a thread of their own (so that
    /// the process never waits on a full pipe).
    pub fn lines(&mut self) -> std::sync::mpsc::Receiver<String> {
        use std::io::BufRead;
        let stdout = self.0.as_mut().and_then(|c| c.stdout.take()).expect("a piped stdout");
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        lines
    }

    pub fn wait(mut self) -> std::process::Output {
        self.0.take().expect("not waited for").wait_with_output().unwrap()
    }

    /// Waits for the process to exit by itself within `limit`, else fails the test (the
    /// process is killed on the way out).
    pub fn exits_within(mut self, limit: Duration) -> std::process::Output {
        let start = Instant::now();
        let child = self.0.as_mut().expect("not waited for");
        while child.try_wait().unwrap().is_none() {
            assert!(start.elapsed() < limit, "the process did not exit within {limit:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
        self.wait()
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
