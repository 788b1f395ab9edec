//! The 3D sample run as its binary, headless with validation: the PNG it writes is checked at
//! chosen pixels — the background exact around the scene, the scene target's clear colour
//! exact inside it (resolved and composited unscaled), the sphere's side facing XNA's key light
//! brighter than its far side, the HUD line drawn in its colour — and the scene target got the
//! 4 samples it asked for (lavapipe and the NVIDIA drivers both offer 4). The glTF scene
//! (`--scene gltf`) at two poses of the bar's animation: its limb where the skin matrix moves
//! it, projected on the CPU, and the static model's parts; and the committed model files are
//! the generator's output.

use std::path::PathBuf;
use std::process::Command;

use std::f32::consts::FRAC_PI_2;

use xnagraph::{Color, Matrix, Vector3};
use xnagraph_samples::model3d::gltf_assets;
use xnagraph_samples::model3d::gltf_scene::{bar_world, scene_world};
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

/// Runs the binary headless with `args` and returns the PNG's pixels.
fn run_model3d(name: &str, args: &[&str]) -> Vec<Color> {
    let png = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&png);
    let out = Command::new(env!("CARGO_BIN_EXE_model3d"))
        .args(["--width", &W.to_string(), "--height", &H.to_string(), "--validation"])
        .args(args)
        .arg("--out")
        .arg(&png)
        .env_remove("RUST_LOG")
        .output()
        .expect("the model3d binary could not be started");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.to_lowercase().contains("validation"), "the validation layer reported: {err}");
    let (w, h, pixels) = read_png(&png);
    assert_eq!((w, h), (W as u32, H as u32));
    pixels
}

/// Whether `c` is mostly `channel` (0 red, 1 green, 2 blue).
fn dominant(c: Color, channel: usize) -> bool {
    let v = [c.r, c.g, c.b];
    (0..3).all(|i| i == channel || i32::from(v[channel]) > i32::from(v[i]) + 40)
}

#[test]
fn the_committed_gltf_models_are_the_generators_output() {
    let dir = xnagraph_samples::breakout::default_content_dir().join("models");
    for (name, bytes) in gltf_assets::files() {
        let committed = std::fs::read(dir.join(name)).unwrap();
        assert!(
            committed == bytes,
            "samples/content/models/{name} is not the generator's output: run `cargo run -p \
             xnagraph-samples --example gltf_models`"
        );
    }
}

#[test]
fn the_gltf_scene_bends_the_skinned_bar_between_two_poses_beside_the_static_model() {
    let rest = run_model3d("gltf_pose0.png", &["--scene", "gltf", "--pose", "0"]);
    let bent = run_model3d("gltf_pose1.png", &["--scene", "gltf", "--pose", "1"]);
    let rect = scene_rect(W, H);
    // The back buffer pixel of a point of the bar (in the mesh's space, moved by `skin`) or
    // of the static model (in the model's space).
    let pixel = |p: Vector3, world: Matrix| {
        let (x, y) = project(p.transform(&world), rect.width, rect.height).unwrap();
        (rect.x + x, rect.y + y)
    };
    let px = |pixels: &[Color], (x, y): (i32, i32)| pixels[(y * W + x) as usize];
    // The tip joint's skin matrix at 1 s of "Bend": a quarter turn about +z at (0, 1, 0).
    let quarter = Matrix::create_translation(0.0, -1.0, 0.0)
        * Matrix::create_rotation_z(FRAC_PI_2)
        * Matrix::create_translation(0.0, 1.0, 0.0);
    // A point on the upper box's front face, in its blue half.
    let tip = Vector3::new(-0.1, 1.5, 0.2);
    let at_rest = pixel(tip, bar_world());
    let moved = pixel(tip, quarter * bar_world());
    assert!(dominant(px(&rest, at_rest), 2), "the tip at rest: {:?}", px(&rest, at_rest));
    assert!(dominant(px(&bent, moved), 2), "the bent tip: {:?}", px(&bent, moved));
    // The limb moved: where it was is the scene's clear colour, and the other way round.
    assert_eq!(px(&bent, at_rest), SCENE_CLEAR);
    assert_eq!(px(&rest, moved), SCENE_CLEAR);
    // The lower box stays, red, at both poses.
    let base = pixel(Vector3::new(0.1, 0.5, 0.2), bar_world());
    assert!(dominant(px(&rest, base), 0) && dominant(px(&bent, base), 0));
    // The static model: its ground in its vertex colour, unlit; its pillar's front face blue
    // on the left, green on the right; the same at both poses.
    let [r, g, b, a] = gltf_assets::GROUND;
    for pixels in [&rest, &bent] {
        assert_eq!(
            px(pixels, pixel(Vector3::new(-1.2, 0.0, 0.6), scene_world())),
            Color::new(r, g, b, a)
        );
        let left = px(pixels, pixel(Vector3::new(0.4, 0.6, 0.2), scene_world()));
        let right = px(pixels, pixel(Vector3::new(0.6, 0.6, 0.2), scene_world()));
        assert!(dominant(left, 2) && dominant(right, 1), "pillar: {left:?}, {right:?}");
    }
}

#[test]
fn a_negative_pose_is_refused_naming_the_flag() {
    let out = Command::new(env!("CARGO_BIN_EXE_model3d"))
        .args(["--scene", "gltf", "--pose", "-1"])
        .env_remove("RUST_LOG")
        .output()
        .expect("the model3d binary could not be started");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--pose") && err.contains("0 seconds or more"), "{err}");
}
