//! `xnagraph-replay diff`: two replays side by side, from two captures, two backends or the
//! two compile policies: per-node GPU time and traffic, and the final frames' pixel
//! differences against those of the live runs.

use std::path::PathBuf;
use std::process::Command;

use xnagraph::{
    BlendState, Color, DepthFormat, DeviceOptions, GraphicsDevice, GraphicsProfile,
    PresentationParameters, Rectangle, RenderTarget2D, RenderTargetUsage, SpriteBatch,
    SpriteSortMode, SurfaceFormat, Texture2D, Vector2,
};
use xnagraph_benches::profile::diff::pixel_diff;

const W: i32 = 64;
const H: i32 = 48;

fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Captures four frames of a scene target with depth (which the compiler never stores: nothing
/// reads it later) composited into the back buffer, the sprite at `x`; returns the file and
/// the live final frame.
fn capture(name: &str, x: f32) -> (PathBuf, Vec<u8>) {
    let path = scratch(name);
    let params = PresentationParameters {
        back_buffer_width: W,
        back_buffer_height: H,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions { validation: true, ..DeviceOptions::from_env() };
    let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap();
    device.capture_frames(&path, 0..=3).unwrap();
    let scene = RenderTarget2D::with_options(
        &device,
        W / 2,
        H / 2,
        false,
        SurfaceFormat::Color,
        DepthFormat::Depth24,
        0,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    scene.set_name("scene");
    let ball = Texture2D::new(&device, 2, 2).unwrap();
    ball.set_data(&[Color::RED, Color::WHITE, Color::BLUE, Color::new(0, 200, 0, 255)]).unwrap();
    let mut batch = SpriteBatch::new(&device).unwrap();
    let mut last = Vec::new();
    for frame in 0..4 {
        device.set_render_target(Some(&scene)).unwrap();
        device.clear(Color::new(10, 20, 30, 255)).unwrap();
        batch.begin().unwrap();
        batch.draw(&ball, Vector2::new(x + frame as f32, 5.0), Color::WHITE).unwrap();
        batch.end().unwrap();
        device.set_render_target(None).unwrap();
        device.clear(Color::BLACK).unwrap();
        batch
            .begin_with(SpriteSortMode::Deferred, Some(BlendState::OPAQUE), None, None, None, None)
            .unwrap();
        batch.draw_rect(&scene, Rectangle::new(5, 4, W - 8, H - 6), Color::WHITE).unwrap();
        batch.end().unwrap();
        if frame == 3 {
            let mut pixels = vec![Color::TRANSPARENT; (W * H) as usize];
            device.get_back_buffer_data(None, &mut pixels, 0, (W * H) as usize).unwrap();
            last = pixels.iter().flat_map(|c| [c.r, c.g, c.b, c.a]).collect();
        }
        device.present().unwrap();
    }
    device.wait_idle().unwrap();
    assert!(device.capture_result().expect("finished").is_ok());
    assert!(device.diagnostics().take_messages().is_empty());
    (path, last)
}

fn diff(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_xnagraph-replay")).arg("diff").args(args).output();
    let out = out.unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{args:?}: {stdout}{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

/// The columns of the table row of node `name`.
fn row<'a>(out: &'a str, name: &str) -> Vec<&'a str> {
    let line = out.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name}: {out}"));
    line[name.len()..].split_whitespace().collect()
}

fn final_frame(out: &str) -> (usize, u8) {
    let line = out.lines().find(|l| l.starts_with("final frame: ")).expect(out);
    let words: Vec<&str> = line.split_whitespace().collect();
    (words[2].parse().unwrap(), words.last().unwrap().parse().unwrap())
}

#[test]
fn the_frame_blind_policy_stores_more_for_the_same_pixels() {
    let (path, _) = capture("policies.xgc", 3.0);
    let out = diff(&[path.to_str().unwrap(), "--frame-blind-b", "--validation"]);
    assert!(out.contains("B (frame-blind)"), "{out}");
    // kind, A ms, B ms, delta, A bytes, B bytes, bytes delta
    let scene = row(&out, "pass scene");
    assert_eq!(scene[0], "pass");
    let (a, b): (u64, u64) = (scene[4].parse().unwrap(), scene[5].parse().unwrap());
    assert!(b > a, "the frame-blind policy also stores the depth nobody reads: {out}");
    assert_eq!(scene[6], format!("+{}", b - a));
    assert!(scene[1].parse::<f64>().unwrap() > 0.0 && scene[2].parse::<f64>().unwrap() > 0.0);
    assert_eq!(final_frame(&out), (0, 0), "{out}");
}

#[test]
fn two_captures_differ_by_the_live_runs_pixels() {
    let (a, live_a) = capture("left.xgc", 3.0);
    let (b, live_b) = capture("right.xgc", 11.0);
    let png = scratch("diff.png");
    let out =
        diff(&[a.to_str().unwrap(), b.to_str().unwrap(), "--diff-png", png.to_str().unwrap()]);
    let expected = pixel_diff(&live_a, &live_b).unwrap();
    assert!(expected.differing_pixels > 0);
    assert_eq!(final_frame(&out), (expected.differing_pixels, expected.max_channel_error), "{out}");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut image = vec![0; reader.output_buffer_size().unwrap()];
    reader.next_frame(&mut image).unwrap();
    assert_eq!(image, expected.image, "the diff image");
    // Same structure: every node on both sides, the same traffic.
    let scene = row(&out, "pass scene");
    assert_eq!((scene[4], scene[6]), (scene[5], "+0"), "{out}");
}

#[test]
fn two_backends_give_the_same_pixels() {
    let (path, _) = capture("backends.xgc", 7.0);
    let out = diff(&[path.to_str().unwrap(), "--backend-b", "sdlgpu", "--validation"]);
    assert!(out.contains("SDL_gpu") && out.contains("fence to fence"), "{out}");
    let scene = row(&out, "pass scene");
    assert_eq!(scene[2], "-", "no GPU time on SDL_gpu: {out}");
    assert_eq!(final_frame(&out), (0, 0), "{out}");
}
