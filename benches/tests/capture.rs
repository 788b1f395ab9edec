//! Frame capture and replay through the public API: a scene captured from frame 5 replays to
//! the live run's exact pixels, on its own (the snapshot carries what earlier frames left),
//! trimmed, through the environment variable, and through the `xnagraph-replay` binary.

#[path = "../../engine/tests/common/child.rs"]
mod child;
mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{replay_final, scratch, vulkan};

use xnagraph::{
    BlendState, Color, DepthFormat, DeviceOptions, GraphicsDevice, GraphicsProfile,
    PresentationParameters, Rectangle, RenderTarget2D, RenderTargetUsage, SpriteBatch,
    SurfaceFormat, Texture2D, Vector2,
};
use xnagraph_benches::profile::{profile, ProfileOptions};
use xnagraph_benches::replay::replay;
use xnagraph_graph::capture::trim::trim;
use xnagraph_graph::capture::{Capture, Replayer};
use xnagraph_vulkan::{VulkanBackend, VulkanConfig};

const W: i32 = 64;
const H: i32 = 48;

fn device() -> GraphicsDevice {
    let params = PresentationParameters {
        back_buffer_width: W,
        back_buffer_height: H,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions { validation: true, ..DeviceOptions::from_env() };
    GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap()
}

/// The sample's shape: sprites into a half-size target, the target scaled into the back buffer.
/// The target preserves its content and is never cleared after frame 0, so every frame's
/// pixels depend on every earlier frame: a replay from frame 5 needs the snapshot.
fn render(device: &GraphicsDevice, frames: u32) -> Vec<u8> {
    let (sw, sh) = (W / 2, H / 2);
    let scene = RenderTarget2D::with_options(
        device,
        sw,
        sh,
        false,
        SurfaceFormat::Color,
        DepthFormat::None,
        0,
        RenderTargetUsage::PreserveContents,
    )
    .unwrap();
    let ball = Texture2D::new(device, 4, 4).unwrap();
    let texels: Vec<Color> = (0..16u8).map(|i| Color::new(255, 16 * i, 255 - 8 * i, 255)).collect();
    ball.set_data(&texels).unwrap();
    let mut batch = SpriteBatch::new(device).unwrap();
    for frame in 0..frames {
        device.set_render_target(Some(&scene)).unwrap();
        if frame == 0 {
            device.clear(Color::new(16, 20, 40, 255)).unwrap();
        }
        batch.begin().unwrap();
        let x = (frame as f32 * 3.0) % (sw as f32 - 4.0);
        batch.draw(&ball, Vector2::new(x, (frame % 5) as f32 * 4.0 + 1.0), Color::WHITE).unwrap();
        batch.end().unwrap();
        device.set_render_target(None).unwrap();
        device.clear(Color::BLACK).unwrap();
        batch
            .begin_with(
                xnagraph::SpriteSortMode::Deferred,
                Some(BlendState::OPAQUE),
                None,
                None,
                None,
                None,
            )
            .unwrap();
        batch.draw_rect(&scene, Rectangle::new(3, 2, W - 8, H - 6), Color::WHITE).unwrap();
        // Two textures alternating: one draw of both, each sprite carrying its slot.
        batch.draw_rect(&ball, Rectangle::new(1, 1, 6, 6), Color::WHITE).unwrap();
        batch.draw_rect(&scene, Rectangle::new(4, 4, 4, 4), Color::WHITE).unwrap();
        batch.end().unwrap();
        device.present().unwrap();
    }
    let mut pixels = vec![Color::TRANSPARENT; (W * H) as usize];
    device.get_back_buffer_data(None, &mut pixels, 0, (W * H) as usize).unwrap();
    bytemuck::cast_slice(&pixels).to_vec()
}

/// Captures frames 5 to 9 of a 10-frame run; returns the live final frame and the capture.
fn capture_run(name: &str) -> (Vec<u8>, PathBuf, xnagraph::CaptureSummary) {
    let path = scratch(name);
    let device = device();
    device.capture_frames(&path, 5..=9).unwrap();
    let live = render(&device, 10);
    let summary = device.capture_result().expect("the capture finished").unwrap();
    (live, path, summary)
}

#[test]
fn a_capture_of_frames_5_to_9_replays_to_the_live_final_frame_exactly() {
    let (live, path, summary) = capture_run("frames_5_9.xgc");
    assert_eq!(summary.frames, 5);
    let capture = Capture::open(&path).unwrap();
    assert!(capture.complete);
    assert_eq!(capture.frames.len(), 5);
    assert_eq!(capture.device.first_frame, 5);
    assert_eq!(capture.frames.iter().map(|f| f.number).collect::<Vec<_>>(), vec![5, 6, 7, 8, 9]);
    assert!(!capture.snapshot.is_empty(), "textures alive at frame 5 are in the snapshot");
    assert!(capture.textures.len() >= 3, "back buffer, target, ball: {:?}", capture.textures);
    assert_eq!(replay_final(&capture), live);
    println!(
        "capture of 5 frames: {} bytes for {} raw upload bytes and {} raw sprite bytes",
        summary.file_bytes, summary.raw_upload_bytes, summary.raw_sprite_bytes
    );
}

/// Frames of 20,000 sprites are drawn from mapped sprite memory once the pool knows the size,
/// and from vectors while they are captured (the writer would read mapped memory back slowly):
/// the captured frames replay to the live final frame exactly.
#[test]
fn a_capture_of_frames_of_many_sprites_replays_exactly() {
    let path = scratch("mapped_sprites.xgc");
    let device = device();
    device.capture_frames(&path, 3..=5).unwrap();
    let ball = Texture2D::new(&device, 2, 2).unwrap();
    ball.set_data(&[Color::WHITE; 4]).unwrap();
    let mut batch = SpriteBatch::new(&device).unwrap();
    for frame in 0..6u32 {
        device.clear(Color::new(16, 20, 40, 255)).unwrap();
        batch.begin().unwrap();
        for i in 0..20_000u32 {
            let k = i * 7 + frame * 13;
            let at = Vector2::new((k % 67) as f32 - 2.0, (k / 67 % 50) as f32 - 1.0);
            let color = Color::new((k * 37) as u8, (k * 11) as u8, (i * 3) as u8, 255);
            batch.draw(&ball, at, color).unwrap();
        }
        batch.end().unwrap();
        device.present().unwrap();
    }
    let mut pixels = vec![Color::TRANSPARENT; (W * H) as usize];
    device.get_back_buffer_data(None, &mut pixels, 0, (W * H) as usize).unwrap();
    let live: Vec<u8> = bytemuck::cast_slice(&pixels).to_vec();
    assert!(device.capture_result().expect("the capture finished").is_ok());
    let capture = Capture::open(&path).unwrap();
    assert_eq!(capture.frames.len(), 3);
    assert_eq!(replay_final(&capture), live);
}

/// The replay's rebuilding runs ahead of its submissions on its own thread: frames rebuilt all
/// before the first is submitted still replay to the live pixels, since a rebuild reads only
/// the file. (The comparison sees the frames: without the first two submitted it fails.)
#[test]
fn frames_rebuilt_ahead_of_their_submission_replay_to_the_live_final_frame() {
    let (live, path, _) = capture_run("rebuilt_ahead.xgc");
    let capture = Capture::open(&path).unwrap();
    let final_frame = |skip: usize| {
        let mut backend = vulkan();
        let mut replayer = Replayer::new(&mut backend, &capture).unwrap();
        let mut rebuilder = replayer.rebuilder();
        let mut rebuilt =
            capture.frames.iter().map(|f| rebuilder.frame(&capture, f)).collect::<Vec<_>>();
        for frame in rebuilt.drain(..).skip(skip) {
            replayer.submit_frame(&mut backend, frame).unwrap();
        }
        let back_buffer = capture.device.back_buffer;
        let pixels = replayer.read_back(&mut backend, back_buffer, 0, 0).unwrap();
        replayer.finish(&mut backend).unwrap();
        pixels
    };
    assert_eq!(final_frame(0), live);
    assert_ne!(final_frame(2), live, "frames 5 and 6 left their sprites in the target");
}

#[test]
fn without_its_snapshot_the_replay_differs() {
    // The check of the comparison above: the accumulated target matters to the final frame.
    let (live, path, _) = capture_run("no_snapshot.xgc");
    let mut capture = Capture::open(&path).unwrap();
    capture.snapshot.clear();
    assert_ne!(replay_final(&capture), live);
}

/// Each pass of a repeated replay starts again from the snapshot: three passes back to back
/// on a backend that poisons whatever the plan leaves undefined still end on the live frame.
#[test]
fn every_pass_of_a_repeated_replay_starts_from_the_snapshot() {
    let (live, path, _) = capture_run("repeated.xgc");
    let capture = Capture::open(&path).unwrap();
    let config =
        VulkanConfig { validation: true, poison_undefined: true, ..VulkanConfig::default() };
    let mut backend = VulkanBackend::new(config).unwrap();
    let run = replay(&mut backend, &capture, 3, None, || {}).unwrap();
    assert_eq!(run.frames.len(), 15);
    assert_eq!(run.final_back_buffer, live);
    assert!(xnagraph_graph::Backend::diagnostics(&backend).take_messages().is_empty());
}

/// A later pass's snapshot uploads go with its first frame, whose compile culls the one that
/// frame overwrites unread: the back buffer (cleared first) is not uploaded again, the
/// preserved target the frame draws over and the sprite texture it samples are.
#[test]
fn a_rewound_pass_uploads_only_the_snapshot_its_first_frame_reads() {
    let (_, path, _) = capture_run("rewound.xgc");
    let capture = Capture::open(&path).unwrap();
    assert!(capture.snapshot.iter().any(|s| s.region.texture == 0), "the back buffer's snapshot");
    let mut backend = vulkan();
    let options = ProfileOptions { repeat: 2, ..ProfileOptions::default() };
    let run = profile(&mut backend, &capture, &options, || {}).unwrap();
    let uploads = |pass: u32| -> Vec<String> {
        let frame = run.frames.iter().find(|f| f.pass == pass && f.frame == 0).unwrap();
        frame
            .submissions
            .iter()
            .flat_map(|s| &run.plan(*s).unwrap().nodes)
            .filter(|n| n.kind == "upload")
            .map(|n| n.attachments.clone())
            .collect()
    };
    assert!(uploads(0).is_empty(), "{:?}", uploads(0));
    let again = uploads(1);
    let back_buffer = capture.snapshot.iter().filter(|s| s.region.texture == 0).count();
    assert_eq!(again.len(), capture.snapshot.len() - back_buffer, "{again:?}");
    assert!(again.iter().all(|a| !a.contains("back buffer")), "{again:?}");
}

#[test]
fn a_trimmed_capture_replays_to_the_same_final_frame() {
    let (live, path, _) = capture_run("to_trim.xgc");
    let capture = Capture::open(&path).unwrap();
    let mut backend = vulkan();
    let (bytes, stats) = trim(&capture, 2..=4, &mut backend, Vec::new()).unwrap();
    assert_eq!(stats.frames, 3);
    let trimmed = Capture::from_bytes(&bytes).unwrap();
    assert_eq!(trimmed.frames.iter().map(|f| f.number).collect::<Vec<_>>(), vec![7, 8, 9]);
    assert_eq!(trimmed.device.first_frame, 7);
    assert_eq!(replay_final(&trimmed), live);
    // A range past the frames is refused.
    assert!(trim(&capture, 3..=5, &mut backend, Vec::new()).is_err());
}

/// The variable is set in a child process running this test alone: every device made while it
/// is set captures, so setting it here would make the other tests' devices capture too.
#[test]
fn the_environment_variable_captures_an_unmodified_game() {
    const NAME: &str = "the_environment_variable_captures_an_unmodified_game";
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("from_env.xgc");
    let variable = format!("{}:1-2", path.display());
    if !child::in_child(NAME, &[("XNAGRAPH_CAPTURE", &variable)]) {
        return;
    }
    let _ = std::fs::remove_file(&path);
    let device = device();
    let live = render(&device, 3);
    assert_eq!(device.capture_result().unwrap().unwrap().frames, 2);
    let capture = Capture::open(&path).unwrap();
    assert_eq!(capture.frames.iter().map(|f| f.number).collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(replay_final(&capture), live);
}

#[test]
fn capture_frames_refuses_a_frame_already_begun_and_a_second_capture() {
    let device = device();
    render(&device, 2);
    let e = device.capture_frames(scratch("late.xgc"), 1..=3).unwrap_err();
    assert_eq!(e.param(), Some("frames"));
    device.capture_frames(scratch("armed.xgc"), 4..=5).unwrap();
    assert!(matches!(
        device.capture_frames(scratch("second.xgc"), 6..=7),
        Err(xnagraph::XnaError::InvalidOperation { .. })
    ));
}

#[test]
fn the_replay_binary_writes_the_final_frame_and_names_a_corrupt_chunk() {
    let (live, path, _) = capture_run("cli.xgc");
    let png_path = scratch("cli_final.png");
    let json = scratch("cli.json");
    let out = Command::new(env!("CARGO_BIN_EXE_xnagraph-replay"))
        .args(["replay", path.to_str().unwrap(), "--repeat", "2", "--png"])
        .arg(&png_path)
        .arg("--json")
        .arg(&json)
        .args(["--measurement-range", "1-3"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let decoder =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png_path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    reader.next_frame(&mut buf).unwrap();
    assert_eq!(buf, live);
    let summary = std::fs::read_to_string(&json).unwrap();
    assert!(summary.starts_with("{\"frames\":6,\"measurement_range\":[1,3]"), "{summary}");

    let mut bytes = std::fs::read(&path).unwrap();
    let cut = bytes.len() - 7;
    bytes.truncate(cut);
    let broken = scratch("cli_broken.xgc");
    std::fs::write(&broken, &bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_xnagraph-replay"))
        .args(["info", broken.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("capture chunk") && err.contains("at byte") && err.contains("truncated"),
        "{err}"
    );
}

#[test]
fn a_file_of_an_older_major_version_is_refused_naming_its_version() {
    // Written by the 1.0 writer (an 8x6 back buffer, a 2x2 texture drawn by a sprite batch,
    // frames 1-2); format 2.0 changed the sprite instance, which 1.x files cannot give.
    // Written by the 2.0 writer (frames 1-2 of the geometry scene of capture_geometry.rs);
    // format 3.0 added variants and a field to a flush's draws, which 2.x files lay out
    // otherwise. (Format 4.0 gave vertex layouts and geometry draws SkinnedEffect's attributes
    // and bones, format 5.0 EnvironmentMapEffect's stock shader, format 6.0 geometry draws
    // their repeats; this reader refuses 3.x to 5.x files the same way.)
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for version in ["1.0", "2.0"] {
        let e = Capture::open(&dir.join(format!("capture-{version}.xgc"))).unwrap_err();
        assert_eq!((e.offset, e.chunk), (8, None), "{e}");
        assert!(
            e.message.contains(&format!("format version {version}; this reader reads 6.x")),
            "{e}"
        );
    }
}

#[test]
#[ignore = "writes a seed of the fuzz corpus; run by benches/fuzz.sh --regenerate"]
fn write_fuzz_seed() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/sprites.xgc");
    let device = device();
    device.capture_frames(&path, 1..=2).unwrap();
    render(&device, 3);
    device.capture_result().expect("the capture finished").unwrap();
}
