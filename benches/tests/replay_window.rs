//! `xnagraph-replay replay --window` under an X server (Xvfb in CI; skipped without a
//! DISPLAY): on both backends the replay presents every frame into a window of the capture's
//! back-buffer size, prints the same tables, and leaves the window showing exactly the final
//! frame a headless replay of the same capture writes with `--png`; closing the window ends the
//! replay early with the figures of the frames replayed.

#[path = "common/screen.rs"]
mod screen;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use screen::{have_display, Child, Display, Image};
use xnagraph::{
    Color, DeviceOptions, GraphicsDevice, GraphicsProfile, PresentationParameters, Rectangle,
    SpriteBatch, Texture2D,
};

const W: i32 = 96;
const H: i32 = 64;
const FRAMES: u32 = 5;

fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Captures `FRAMES` frames of a sprite moving over a clear whose colour changes every frame,
/// so that every frame differs from the one before.
fn capture(name: &str) -> PathBuf {
    let path = scratch(name);
    let params = PresentationParameters {
        back_buffer_width: W,
        back_buffer_height: H,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions { validation: true, ..DeviceOptions::from_env() };
    let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap();
    device.capture_frames(&path, 0..=u64::from(FRAMES) - 1).unwrap();
    let ball = Texture2D::new(&device, 2, 2).unwrap();
    ball.set_data(&[Color::RED, Color::WHITE, Color::BLUE, Color::new(0, 200, 0, 255)]).unwrap();
    let mut batch = SpriteBatch::new(&device).unwrap();
    for frame in 0..FRAMES {
        device.clear(Color::new(10 + 30 * frame as u8, 20, 40, 255)).unwrap();
        batch.begin().unwrap();
        let (x, y) = (7 + 11 * frame as i32, 5 + 6 * frame as i32);
        batch.draw_rect(&ball, Rectangle::new(x, y, 18, 18), Color::WHITE).unwrap();
        batch.end().unwrap();
        device.present().unwrap();
    }
    device.wait_idle().unwrap();
    assert!(device.capture_result().expect("finished").is_ok());
    assert!(device.diagnostics().take_messages().is_empty());
    path
}

fn replay() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xnagraph-replay"))
}

/// The final frame of a headless replay of `capture` on `backend`, as `--png` writes it.
fn headless_final_frame(capture: &Path, backend: &str) -> Image {
    let png = scratch(&format!("replay-window-{backend}.png"));
    let out = replay()
        .args(["replay", capture.to_str().unwrap(), "--validation", "--backend", backend])
        .arg("--png")
        .arg(&png)
        .output()
        .unwrap();
    assert!(out.status.success(), "{backend}: {}", String::from_utf8_lossy(&out.stderr));
    let image = Image::from_png(&png);
    std::fs::remove_file(&png).unwrap();
    image
}

/// `replay --window` of `capture` with `args` on `display`, its stdout lines sent as they come.
fn windowed(display: &Display, capture: &Path, args: &[&str]) -> (Child, mpsc::Receiver<String>) {
    let mut child = Child::new(
        display
            .command(replay())
            .args(["replay", capture.to_str().unwrap(), "--window"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the replay binary starts"),
    );
    let lines = child.lines();
    (child, lines)
}

#[test]
fn a_windowed_replay_shows_exactly_its_final_frame_on_both_backends() {
    if !have_display("a_windowed_replay_shows_its_final_frame") {
        return;
    }
    let capture = capture("window.xgc");
    let title = "xnagraph-replay window.xgc";
    for backend in ["vulkan", "sdlgpu"] {
        let last = headless_final_frame(&capture, backend);
        assert_eq!((last.width, last.height), (W as u32, H as u32));
        let display = Display::private();
        let (child, lines) =
            windowed(&display, &capture, &["--validation", "--backend", backend, "--keep-open"]);
        let window = display.wait_for(child.id(), title);
        assert_eq!(display.size(window), (W as u32, H as u32), "the back buffer's size");
        // The tables come after the last frame's present; the window then stays open.
        let mut printed = Vec::new();
        while !printed.iter().any(|l: &String| l.contains("draws")) {
            printed.push(lines.recv_timeout(Duration::from_secs(120)).expect("the tables"));
        }
        let text = printed.join("\n");
        assert!(text.contains(&format!("{FRAMES} frames on")), "{backend}: {text}");
        // The presentation engine shows the last present when it gets to it (later on a
        // loaded machine): look again until it matches or ten seconds have passed.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let ((x, y), shown) = loop {
            let ((x, y), shown) = display.screenshot(window);
            if shown.differing(&last) == 0 || std::time::Instant::now() > deadline {
                break ((x, y), shown);
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        display.close(window);
        let out = child.wait();
        assert!(out.status.success(), "{backend}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!((x, y, shown.width, shown.height), (0, 0, W as u32, H as u32));
        assert_eq!(shown.differing(&last), 0, "{backend}: the window shows the final frame");
    }
}

#[test]
fn the_frames_differ_so_an_earlier_frame_in_the_window_would_show() {
    let capture = capture("window-frames.xgc");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("window-frames");
    let _ = std::fs::remove_dir_all(&dir);
    let list = format!("{},{}", FRAMES - 2, FRAMES - 1);
    let out = replay()
        .args(["replay", capture.to_str().unwrap(), "--png-frames", &list])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let frame = |n: u32| Image::from_png(&dir.join(format!("frame-{n}.png")));
    assert!(frame(FRAMES - 2).differing(&frame(FRAMES - 1)) > (W * H / 2) as usize);
}

#[test]
fn closing_the_window_ends_the_replay_with_the_figures_so_far() {
    if !have_display("closing_the_replay_window") {
        return;
    }
    let capture = capture("window-close.xgc");
    let display = Display::connect();
    let (child, lines) = windowed(&display, &capture, &["--repeat", "100000"]);
    let window = display.wait_for(child.id(), "xnagraph-replay window-close.xgc");
    std::thread::sleep(Duration::from_millis(1500));
    display.close(window);
    let out = child.exits_within(Duration::from_secs(60));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Every line, until the reader reaches the end of the closed pipe.
    let stdout = lines.iter().collect::<Vec<_>>().join("\n");
    let replayed: usize = stdout
        .lines()
        .find_map(|l| l.split_once(" frames on ").and_then(|(n, _)| n.parse().ok()))
        .unwrap_or_else(|| panic!("a frame count: {stdout}"));
    assert!(replayed > 0 && replayed < 100_000 * FRAMES as usize, "ended early: {stdout}");
}
