//! `xnagraph-stress --window` under an X server (Xvfb in CI; skipped without a DISPLAY): the
//! scenario presents into a window of its back-buffer size on both backends with the same
//! per-frame lines and summary, the window shows the scenario's last frame exactly as a
//! headless run draws it, and closing the window ends the run early with the figures of the
//! frames presented.

#[path = "common/screen.rs"]
mod screen;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use screen::{have_display, Child, Display, Image};

const SPRITES: [&str; 5] = ["sprites", "--waves", "1", "--per-wave", "100"];

/// The value of `key` in a JSON line, as its text.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = line.find(&format!("\"{key}\": "))? + key.len() + 4;
    let rest = &line[start..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Some(rest[..end].trim())
}

/// Frame lines and the summary line of a run's stdout.
fn frames_and_summary(stdout: &str) -> (usize, String) {
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.iter().all(|l| l.starts_with('{') && l.ends_with('}')), "{stdout}");
    let frames = lines.iter().filter(|l| field(l, "frame_ms").is_some()).count();
    let summary = lines.iter().rfind(|l| field(l, "summary") == Some("true")).expect("a summary");
    (frames, (*summary).to_owned())
}

fn stress() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xnagraph-stress"))
}

fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn sprites_in_a_window_runs_on_both_backends_and_prints_its_summary() {
    if !have_display("sprites_in_a_window") {
        return;
    }
    for backend in ["vulkan", "sdlgpu"] {
        let args = ["--backend", backend, "--validation", "--window", "--frames", "5"];
        let out = stress().args(args).args(SPRITES).output().expect("the stress binary runs");
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{backend}: {}", String::from_utf8_lossy(&out.stderr));
        let (frames, s) = frames_and_summary(&stdout);
        assert_eq!(frames, 5, "{backend}: {stdout}");
        assert_eq!(field(&s, "frames"), Some("5"), "{s}");
        assert_eq!(field(&s, "sprites"), Some("100"), "{s}");
        assert_eq!(field(&s, "presented"), Some("\"window\""), "{s}");
        let frame: f64 = field(&s, "frame_p50_ms").unwrap().parse().unwrap();
        assert!(frame > 0.0, "{s}");
    }
}

/// The final frame of a headless run of `frames` frames on `backend`.
fn headless_final_frame(backend: &str, frames: &str) -> Image {
    let png = scratch(&format!("stress-{backend}-{frames}.png"));
    let out = stress()
        .args(["--backend", backend, "--quiet", "--frames", frames, "--png"])
        .arg(&png)
        .args(SPRITES)
        .output()
        .expect("the stress binary runs");
    assert!(out.status.success(), "{backend}: {}", String::from_utf8_lossy(&out.stderr));
    let image = Image::from_png(&png);
    std::fs::remove_file(&png).unwrap();
    image
}

#[test]
fn the_window_shows_the_scenarios_last_frame() {
    if !have_display("the_window_shows_the_last_frame") {
        return;
    }
    for backend in ["vulkan", "sdlgpu"] {
        let last = headless_final_frame(backend, "5");
        // The frames differ, so a window showing an earlier frame than the last fails.
        let earlier = headless_final_frame(backend, "4");
        assert!(last.differing(&earlier) > 100, "{backend}: the sprites move between frames");
        let display = Display::private();
        let mut child = Child::new(
            display
                .command(stress())
                .args(["--backend", backend, "--window", "--keep-open", "--frames", "5"])
                .args(SPRITES)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the stress binary starts"),
        );
        let summary = child.lines();
        let window = display.wait_for(child.id(), "xnagraph-stress sprites");
        // The summary comes after the last frame's present; the window then stays open.
        let line = loop {
            let line = summary.recv_timeout(Duration::from_secs(120)).expect("a summary");
            if field(&line, "summary") == Some("true") {
                break line;
            }
        };
        assert_eq!(field(&line, "frames"), Some("5"), "{line}");
        // The presentation engine shows the last present when it gets to it (later on a
        // loaded machine): look again until it matches or ten seconds have passed.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let ((x, y), shown) = loop {
            let ((x, y), shown) = display.screenshot(window);
            let expected = last.crop(x, y, shown.width, shown.height);
            if shown.differing(&expected) == 0 || std::time::Instant::now() > deadline {
                break ((x, y), shown);
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        display.close(window);
        let out = child.wait();
        assert!(out.status.success(), "{backend}: {}", String::from_utf8_lossy(&out.stderr));
        let expected = last.crop(x, y, shown.width, shown.height);
        let background = expected.rgb.iter().filter(|&&p| p == [26, 26, 26]).count();
        assert!(background > 0 && background < expected.rgb.len(), "sprites and background");
        assert_eq!(shown.differing(&expected), 0, "{backend}: the window shows the last frame");
    }
}

#[test]
fn closing_the_window_ends_the_run_with_the_figures_so_far() {
    if !have_display("closing_the_window") {
        return;
    }
    let mut child = Child::new(
        stress()
            .args([
                "--window",
                "--frames",
                "1000000",
                "sprites",
                "--waves",
                "1",
                "--per-wave",
                "10",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the stress binary starts"),
    );
    let lines = child.lines();
    let display = Display::connect();
    let window = display.wait_for(child.id(), "xnagraph-stress sprites");
    assert_eq!(display.size(window), (1920, 1080), "the back buffer's size");
    // Let some frames be presented, then ask the window to close as a window manager would.
    std::thread::sleep(Duration::from_millis(1500));
    display.close(window);
    let out = child.exits_within(Duration::from_secs(60));
    // Every line, until the reader reaches the end of the closed pipe.
    let stdout = lines.iter().collect::<Vec<_>>().join("\n");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (frames, s) = frames_and_summary(&stdout);
    let reported: usize = field(&s, "frames").unwrap().parse().unwrap();
    assert_eq!(frames, reported, "a line per frame presented: {s}");
    assert!(reported > 0 && reported < 1_000_000, "the run ended early: {s}");
}
