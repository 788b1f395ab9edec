//! The 3D sample run as its binary, headless with validation: the PNG it writes is checked at
//! chosen pixels — the background exact around the scene, the scene target's clear colour
//! exact inside it (resolved and composited unscaled), the sphere's side facing XNA's key light
//! brighter than its far side, the HUD line drawn in its colour — and the scene target got the
//! 4 samples it asked for (lavapipe and the NVIDIA drivers both offer 4).

use std::path::PathBuf;
use std::process::Command;

use xnagraph::{Color, Vector3};
use xnagraph_samples::model3d::{
    project, scene_rect, BACKGROUND, HUD_COLOR, HUD_POSITION, SCENE_CLEAR, SPHERE_CENTER,
    SPHERE_RADIUS,
};

const W: i32 = 480;
const H: i32 = 360;

fn read_png(path: &PathBuf) -> (u32, u32, Vec<Color>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut bytes = vec![0; reader.output_buffer_size().expect("an image of sensible size")];
    let info = reader.next_frame(&mut bytes).unwrap();
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgba, png::BitDepth::Eight));
    bytes.truncate(info.buffer_size());
    let pixels = bytes.chunks(4).map(|p| Color::new(p[0], p[1], p[2], p[3])).collect();
    (info.width, info.height, pixels)
}

/// Rec. 601 luma of the mean of the 5×5 pixels around (x, y).
fn luma_around(pixels: &[Color], x: i32, y: i32) -> f32 {
    let mut sum = 0.0;
    for dy in -2..=2 {
        for dx in -2..=2 {
            let c = pixels[((y + dy) * W + x + dx) as usize];
            sum += 0.299 * f32::from(c.r) + 0.587 * f32::from(c.g) + 0.114 * f32::from(c.b);
        }
    }
    sum / 25.0
}

#[test]
fn the_headless_run_writes_a_lit_multisampled_scene_under_its_hud() {
    let png = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("model3d.png");
    let _ = std::fs::remove_file(&png);
    let out = Command::new(env!("CARGO_BIN_EXE_model3d"))
        .args(["--width", &W.to_string(), "--height", &H.to_string(), "--validation"])
        .arg("--out")
        .arg(&png)
        .env_remove("RUST_LOG")
        .output()
        .expect("the model3d binary could not be started");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.to_lowercase().contains("validation"), "the validation layer reported: {err}");
    assert!(err.contains("scene at 4x MSAA"), "the scene did not get 4 samples: {err}");

    let (w, h, pixels) = read_png(&png);
    assert_eq!((w, h), (W as u32, H as u32));
    let px = |x: i32, y: i32| pixels[(y * W + x) as usize];
    let rect = scene_rect(W, H);
    // The margins around the scene: the back buffer's clear colour, exactly.
    for (x, y) in [(3, H - 4), (W - 5, H / 2), (W - 9, 30), (rect.x - 1, rect.y + 20)] {
        assert_eq!(px(x, y), BACKGROUND, "margin at ({x}, {y})");
    }
    // Inside the scene, away from the models: the scene's clear colour, exactly.
    for (x, y) in [(rect.x + 3, rect.y + 2), (rect.x + rect.width - 4, rect.y + rect.height - 3)] {
        assert_eq!(px(x, y), SCENE_CLEAR, "scene background at ({x}, {y})");
    }
    // The sphere: the side facing the key light (from the upper right, in front) against the
    // lower left side, both facing the camera.
    let on_sphere = |n: Vector3| {
        let (x, y) =
            project(SPHERE_CENTER + n.normalize() * SPHERE_RADIUS, rect.width, rect.height)
                .expect("the scene's camera is valid");
        (rect.x + x, rect.y + y)
    };
    let (lx, ly) = on_sphere(Vector3::new(0.45, 0.45, 0.75));
    let (dx, dy) = on_sphere(Vector3::new(-0.6, -0.5, 0.6));
    let (lit, dark) = (luma_around(&pixels, lx, ly), luma_around(&pixels, dx, dy));
    assert!(
        lit > dark + 60.0,
        "lit side {lit} at ({lx}, {ly}), shadowed side {dark} at ({dx}, {dy})"
    );
    assert!(px(lx, ly) != SCENE_CLEAR && px(dx, dy) != SCENE_CLEAR, "the sphere is not there");
    // The HUD line: pixels of its colour on the background in its first 200 × 24 pixels.
    let (hx, hy) = (HUD_POSITION.x as i32, HUD_POSITION.y as i32);
    let hud: Vec<Color> = (hy..hy + 24)
        .flat_map(|y| (hx..hx + 200).map(move |x| (x, y)))
        .map(|(x, y)| px(x, y))
        .collect();
    let full = hud.iter().filter(|&&c| c == HUD_COLOR).count();
    assert!(full > 50, "only {full} pixels of the HUD colour in the text box");
    assert!(hud.contains(&BACKGROUND), "the text box has no background between glyphs");
}
