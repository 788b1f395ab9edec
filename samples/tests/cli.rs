//! The sample as a new user meets it: its flags, its refusals and what it prints, checked by
//! running the built binary.

use std::path::PathBuf;
use std::process::{Command, Output};

fn sample(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xnagraph-samples"))
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("the sample binary could not be started")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A fresh path under the tests' scratch directory (nothing exists there yet).
fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn help_prints_usage_with_every_flag_and_exits_0() {
    let out = sample(&["--help"]);
    assert!(out.status.success(), "{out:?}");
    let usage = String::from_utf8_lossy(&out.stdout);
    assert!(usage.contains("Usage: xnagraph-samples"), "{usage}");
    let flags =
        ["--frames", "--width", "--height", "--out", "--validation", "--verbose", "--profile"];
    for flag in flags.into_iter().chain(["--profile-file"]) {
        assert!(usage.contains(flag), "--help does not explain {flag}:\n{usage}");
    }
}

#[test]
fn zero_frames_is_refused_naming_frames_and_writes_nothing() {
    let png = scratch("zero_frames.png");
    let out = sample(&["--frames", "0", "--out", png.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("'0'") && err.contains("--frames"), "{err}");
    assert!(err.contains("at least one frame"), "{err}");
    assert!(!png.exists(), "a refused run left {}", png.display());
}

#[test]
fn a_one_pixel_wide_back_buffer_is_refused_naming_the_width_given() {
    let out = sample(&["--width", "1"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("'1'") && err.contains("--width"), "{err}");
    assert!(err.contains("back buffer width"), "{err}");
    assert!(!err.contains("RenderTarget"), "the derived scene target is blamed: {err}");
}

#[test]
fn a_back_buffer_past_the_profile_limit_is_refused_naming_the_height_given() {
    let out = sample(&["--height", "5000"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("'5000'") && err.contains("--height"), "{err}");
    assert!(err.contains("4096"), "{err}");
}

#[test]
fn an_unwritable_out_is_refused_before_any_rendering() {
    let dir = scratch("not_a_directory");
    std::fs::write(&dir, b"").unwrap();
    let png = dir.join("scene.png");
    let out = sample(&["--frames", "1", "--out", png.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains(&format!("--out {}", png.display())), "{err}");
    assert!(!err.contains("adapter"), "a device was created before --out was checked: {err}");
}

fn read_png(path: &PathBuf) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut bytes = vec![0; reader.output_buffer_size().expect("an image of sensible size")];
    let info = reader.next_frame(&mut bytes).unwrap();
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgba, png::BitDepth::Eight));
    bytes.truncate(info.buffer_size());
    (info.width, info.height, bytes)
}

#[test]
fn a_short_run_writes_an_opaque_scene_and_names_the_adapter_once() {
    let png = scratch("short_run.png");
    let out = sample(&[
        "--frames",
        "2",
        "--width",
        "320",
        "--height",
        "180",
        "--validation",
        "--out",
        png.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let adapter = err.split("adapter: ").nth(1).and_then(|s| s.lines().next());
    let adapter = adapter.filter(|a| !a.is_empty()).expect("the adapter is not named");
    assert_eq!(err.matches(adapter).count(), 1, "the adapter is named more than once: {err}");
    assert!(!err.contains("validation"), "the validation layer reported: {err}");
    assert!(!err.contains("frame    0"), "per-frame lines without --verbose: {err}");
    assert!(err.contains("frames 2"), "no summary: {err}");

    let (w, h, rgba) = read_png(&png);
    assert_eq!((w, h), (320, 180));
    assert!(rgba.chunks(4).all(|p| p[3] == 255), "the written frame is not opaque");
    // The scene target's clear colour, drawn opaque over the whole back buffer, with sprites of
    // every palette colour over it.
    let has = |rgb: [u8; 3]| rgba.chunks(4).any(|p| p[..3] == rgb);
    assert!(has([16, 20, 40]), "the scene's background is missing");
    for rgb in [[255, 80, 80], [80, 255, 120], [90, 140, 255], [255, 220, 70], [230, 90, 255]] {
        assert!(has(rgb), "no sprite of colour {rgb:?} reached the image");
    }
}

#[test]
fn verbose_logs_one_line_per_frame() {
    let png = scratch("verbose.png");
    let out = sample(
        &["--frames", "3", "--width", "32", "--height", "32", "--verbose", "--out"]
            .into_iter()
            .chain([png.to_str().unwrap()])
            .collect::<Vec<_>>(),
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    for frame in 0..3 {
        assert!(err.contains(&format!("frame {frame:4}:")), "frame {frame} missing: {err}");
    }
    assert!(!err.contains("frame    3:"), "{err}");
}

#[test]
fn without_a_driver_the_error_names_the_values_given_and_leaves_no_image() {
    let png = scratch("no_driver.png");
    let out = Command::new(env!("CARGO_BIN_EXE_xnagraph-samples"))
        .args(["--frames", "1", "--width", "48", "--height", "30", "--out", png.to_str().unwrap()])
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("--width 48 --height 30"), "{err}");
    assert!(!png.exists(), "a failed run left {}", png.display());
}
