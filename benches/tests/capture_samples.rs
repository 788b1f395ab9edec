//! Frame capture of multisample content that exists before the captured range: a 4x
//! PreserveContents target is drawn into in frames 0 to 2 (triangles whose edges cut texels, so
//! the samples of an edge texel differ), and frames 3 to 5 draw over it without clearing (an
//! opaque triangle covering part of the samples of edge texels, and an additive one), the
//! target resolved and drawn to the back buffer. A capture of frames 3 to 5 carries every
//! sample in its snapshot (format 3.2): its replay equals the live run's final frame exactly.
//! The same capture with its sample planes zeroed, or with each texel's samples replaced by
//! their average (what restoring the resolved image into every sample would give), replays to
//! a different frame: the per-sample content is what makes it exact.
//!
//! SDL_gpu restores sample planes but cannot read them back: a Vulkan capture replays on
//! SDL_gpu to the live Vulkan frame exactly, and a capture made on SDL_gpu lacks the samples.

mod common;

use common::{replay_final, replay_final_on, scratch, sdlgpu, vulkan};
use xnagraph::{
    BackendKind, BasicEffect, BlendState, Color, DepthFormat, GraphicsDevice, PrimitiveType,
    RasterizerState, RenderTarget2D, RenderTargetUsage, SpriteBatch, SurfaceFormat, Vector2,
    Vector3, VertexPositionColor,
};
use xnagraph_graph::capture::Capture;
use xnagraph_graph::Backend;

const W: i32 = 48;
const H: i32 = 40;
/// The target's size.
const TW: f32 = 32.0;
const TH: f32 = 24.0;
/// Where the target is drawn on the back buffer.
const AT: (i32, i32) = (7, 9);
const BACKGROUND: [u8; 4] = [5, 10, 20, 255];

/// A triangle in target pixels, its colour and whether it is drawn additively.
type Triangle = ([(f32, f32); 3], [u8; 4], bool);

/// What frame `frame` draws into the target: frames 0 to 2 one opaque triangle each with
/// slanted edges; frames 3 to 5 an opaque triangle crossing those edges and an additive one.
fn triangles(frame: u32) -> Vec<Triangle> {
    let shade = 30 * frame as u8;
    match frame {
        0 => vec![([(3.3, 2.1), (20.7, 5.4), (6.2, 19.8)], [200, 30, 30, 255], false)],
        1 => vec![([(12.5, 1.2), (29.6, 10.3), (15.1, 21.7)], [30, 200, 40, 255], false)],
        2 => vec![([(1.4, 12.6), (26.8, 22.9), (9.3, 15.5)], [40, 50, 210, 255], false)],
        _ => {
            let f = (frame - 3) as f32;
            vec![
                (
                    [(0.6 + 3.1 * f, 0.4), (31.2, 8.8 + 2.7 * f), (2.2, 16.3 - 1.9 * f)],
                    [250, 120, shade, 255],
                    false,
                ),
                ([(10.4, 6.6 + f), (30.9, 23.2), (4.8 - f, 23.7)], [20, 16, 12, 255], true),
            ]
        }
    }
}

fn device() -> GraphicsDevice {
    device_on(BackendKind::Vulkan)
}

fn device_on(backend: BackendKind) -> GraphicsDevice {
    common::device_on(backend, W, H)
}

/// `frames` frames of the scene into a 4x target of `format`; returns the final back buffer.
fn render(device: &GraphicsDevice, frames: u32, format: SurfaceFormat) -> Vec<u8> {
    let target = RenderTarget2D::with_options(
        device,
        TW as i32,
        TH as i32,
        false,
        format,
        DepthFormat::None,
        4,
        RenderTargetUsage::PreserveContents,
    )
    .unwrap();
    assert_eq!(target.multi_sample_count(), 4, "the device offers 4 samples");
    let mut effect = BasicEffect::new(device).unwrap();
    effect.vertex_color_enabled = true;
    let mut batch = SpriteBatch::new(device).unwrap();
    for frame in 0..frames {
        device.set_render_target(Some(&target)).unwrap();
        device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
        if frame == 0 {
            let [r, g, b, a] = BACKGROUND;
            device.clear(Color::new(r, g, b, a)).unwrap();
        }
        for (corners, [r, g, b, a], additive) in triangles(frame) {
            let blend = if additive { BlendState::ADDITIVE } else { BlendState::OPAQUE };
            device.set_blend_state(blend).unwrap();
            effect.current_technique().passes()[0].apply().unwrap();
            let v = |(x, y): (f32, f32)| VertexPositionColor {
                position: Vector3::new(x / TW * 2.0 - 1.0, 1.0 - y / TH * 2.0, 0.0),
                color: Color::new(r, g, b, a),
            };
            let list = corners.map(v);
            device.draw_user_primitives(PrimitiveType::TriangleList, &list, 0, 1).unwrap();
        }
        device.set_render_target(None).unwrap();
        device.clear(Color::BLACK).unwrap();
        batch.begin().unwrap();
        batch.draw(&target, Vector2::new(AT.0 as f32, AT.1 as f32), Color::WHITE).unwrap();
        batch.end().unwrap();
        device.present().unwrap();
    }
    let mut pixels = vec![Color::TRANSPARENT; (W * H) as usize];
    device.get_back_buffer_data(None, &mut pixels, 0, (W * H) as usize).unwrap();
    bytemuck::cast_slice(&pixels).to_vec()
}

/// Captures frames 3 to 5 of a 6-frame run; returns the live final frame and the capture.
fn capture_run(name: &str, format: SurfaceFormat) -> (Vec<u8>, Capture) {
    let path = scratch(name);
    let device = device();
    device.capture_frames(&path, 3..=5).unwrap();
    let live = render(&device, 6, format);
    device.capture_result().expect("the capture finished").unwrap();
    (live, Capture::open(&path).unwrap())
}

/// Which side of edge a→b point p lies on (positive: left in y-down pixels).
fn side(a: (f32, f32), b: (f32, f32), p: (f32, f32)) -> f32 {
    (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
}

/// Whether target texel (x, y) lies wholly inside (`Some(true)`), wholly outside
/// (`Some(false)`) or across an edge (`None`) of the triangle.
fn coverage(t: &[(f32, f32); 3], x: i32, y: i32) -> Option<bool> {
    let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
        .map(|(dx, dy)| (x as f32 + dx, y as f32 + dy));
    let orientation = side(t[0], t[1], t[2]).signum();
    let edges = [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])];
    let inside = |p: (f32, f32)| edges.iter().all(|(a, b)| side(*a, *b, p) * orientation > 0.0);
    if corners.iter().all(|p| inside(*p)) {
        return Some(true);
    }
    // Wholly beyond one edge: outside.
    let beyond =
        edges.iter().any(|(a, b)| corners.iter().all(|p| side(*a, *b, *p) * orientation < 0.0));
    beyond.then_some(false)
}

/// The colour of every target texel that no triangle edge crosses, after six frames.
fn uniform_texels() -> Vec<((i32, i32), [u8; 4])> {
    let mut out = Vec::new();
    for y in 0..TH as i32 {
        'texel: for x in 0..TW as i32 {
            let mut colour = BACKGROUND;
            for (corners, c, additive) in (0..6).flat_map(triangles) {
                match coverage(&corners, x, y) {
                    None => continue 'texel,
                    Some(false) => {}
                    Some(true) if additive => {
                        for i in 0..4 {
                            colour[i] = colour[i].saturating_add(c[i]);
                        }
                    }
                    Some(true) => colour = c,
                }
            }
            out.push(((x, y), colour));
        }
    }
    out
}

/// The pixel at back buffer (x, y).
fn pixel(bytes: &[u8], x: i32, y: i32) -> [u8; 4] {
    let at = ((y * W + x) * 4) as usize;
    bytes[at..at + 4].try_into().unwrap()
}

/// The capture with its sample planes rewritten by `f` (planes of 4 samples of RGBA8 texels).
fn with_planes(capture: &Capture, f: impl Fn(&mut [u8])) -> Capture {
    let mut changed = capture.clone();
    let blob = capture.sample_snapshot[0].blob as usize;
    f(&mut changed.blobs[blob]);
    changed
}

/// Each texel's four samples replaced by their (rounded) average: the resolved image written
/// into every sample.
fn averaged(planes: &mut [u8]) {
    let plane = planes.len() / 4;
    for at in 0..plane {
        let sum: u32 = (0..4).map(|s| u32::from(planes[s * plane + at])).sum();
        for s in 0..4 {
            planes[s * plane + at] = ((sum + 2) / 4) as u8;
        }
    }
}

#[test]
fn samples_drawn_before_the_capture_replay_to_the_live_final_frame_exactly() {
    let (live, capture) = capture_run("samples_3_5.xgc", SurfaceFormat::Color);
    assert_eq!(capture.sample_snapshot.len(), 1, "the target's samples are in the snapshot");
    // The scene cuts texels: some texel's samples differ in the snapshot.
    let planes = &capture.blobs[capture.sample_snapshot[0].blob as usize];
    let plane = planes.len() / 4;
    let mixed = (0..plane / 4)
        .filter(|t| {
            let texel = |s: usize| &planes[s * plane + t * 4..s * plane + t * 4 + 4];
            (1..4).any(|s| texel(s) != texel(0))
        })
        .count();
    assert!(mixed >= 20, "{mixed} texels of mixed samples");
    // The live frame where no edge crosses a texel is exactly the scene's colour there.
    let uniform = uniform_texels();
    assert!(uniform.len() > 300, "{} uniform texels", uniform.len());
    for &((x, y), colour) in &uniform {
        assert_eq!(pixel(&live, AT.0 + x, AT.1 + y), colour, "target texel ({x}, {y})");
    }
    assert_eq!(replay_final(&capture), live);
}

#[test]
fn the_replay_differs_without_each_texels_own_samples() {
    let (live, capture) = capture_run("samples_broken.xgc", SurfaceFormat::Color);
    let zeroed = with_planes(&capture, |p| p.fill(0));
    assert_ne!(replay_final(&zeroed), live, "zeroed planes");
    let resolved = with_planes(&capture, averaged);
    assert_ne!(replay_final(&resolved), live, "every sample given its texel's average");
}

#[test]
fn hdr_samples_drawn_before_the_capture_replay_exactly() {
    let (live, capture) = capture_run("samples_hdr.xgc", SurfaceFormat::HdrBlendable);
    assert_eq!(capture.sample_snapshot.len(), 1);
    assert_eq!(replay_final(&capture), live);
}

/// Every pass of a repeated replay restores the sample snapshot: three passes back to back, on
/// a backend that poisons what the plan leaves undefined, end on the live frame.
#[test]
fn every_pass_of_a_repeated_replay_restores_the_samples() {
    let (live, capture) = capture_run("samples_repeat.xgc", SurfaceFormat::Color);
    let config = xnagraph_vulkan::VulkanConfig {
        validation: true,
        poison_undefined: true,
        ..xnagraph_vulkan::VulkanConfig::default()
    };
    let mut backend = xnagraph_vulkan::VulkanBackend::new(config).unwrap();
    let run = xnagraph_benches::replay::replay(&mut backend, &capture, 3, None, || {}).unwrap();
    assert_eq!(run.frames.len(), 3 * capture.frames.len());
    assert_eq!(run.final_back_buffer, live);
    assert!(xnagraph_graph::Backend::diagnostics(&backend).take_messages().is_empty());
}

#[test]
fn a_replay_whose_capture_lacks_the_sample_snapshot_is_refused_naming_frame_texture_and_image() {
    let (_, mut capture) = capture_run("samples_dropped.xgc", SurfaceFormat::Color);
    capture.sample_snapshot.clear();
    let mut backend = vulkan();
    let e = match xnagraph_benches::replay::replay(&mut backend, &capture, 1, None, || {}) {
        Ok(_) => panic!("a replay without the sample snapshot must be refused"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("frame 3 uses the multisample image of texture"), "{e}");
    assert!(e.contains("not in the file"), "{e}");
}

#[test]
fn a_trim_past_the_first_frame_reads_the_samples_back_into_its_snapshot() {
    let (live, capture) = capture_run("samples_to_trim.xgc", SurfaceFormat::Color);
    let mut backend = vulkan();
    let (bytes, _) =
        xnagraph_graph::capture::trim::trim(&capture, 1..=2, &mut backend, Vec::new()).unwrap();
    let trimmed = Capture::from_bytes(&bytes).unwrap();
    assert_eq!(trimmed.frames.iter().map(|f| f.number).collect::<Vec<_>>(), vec![4, 5]);
    assert_eq!(trimmed.sample_snapshot.len(), 1);
    assert_eq!(replay_final(&trimmed), live);
}

/// Replays `capture` once on SDL_gpu (any validation message fails); its final back buffer.
fn replay_final_on_sdlgpu(capture: &Capture) -> Vec<u8> {
    let mut backend = sdlgpu();
    assert!(backend.capabilities().sample_restore && !backend.capabilities().sample_readback);
    replay_final_on(&mut backend, capture)
}

#[test]
fn a_vulkan_capture_of_samples_replays_on_sdlgpu_to_the_live_frame_exactly() {
    for format in [SurfaceFormat::Color, SurfaceFormat::HdrBlendable] {
        let (live, capture) = capture_run(&format!("samples_to_sdl_{format:?}.xgc"), format);
        assert_eq!(capture.sample_snapshot.len(), 1, "{format:?}: the samples are in the file");
        let on_sdl = replay_final_on_sdlgpu(&capture);
        assert!(on_sdl == live, "{format:?}: the Vulkan capture replays on SDL_gpu exactly");
        // Each texel's own samples are what SDL_gpu restored: averaged ones differ.
        if format == SurfaceFormat::Color {
            let resolved = with_planes(&capture, averaged);
            assert!(replay_final_on_sdlgpu(&resolved) != live, "averaged samples on SDL_gpu");
        }
    }
}

/// The replay restores the samples only where the backend can ([`sample_restore`]): on a
/// backend without it they are left out of the snapshot uploads, and the first frame drawing
/// over them is refused, naming the image, rather than the upload failing.
///
/// [`sample_restore`]: xnagraph_graph::Capabilities::sample_restore
#[test]
fn a_replay_on_a_backend_that_cannot_restore_samples_is_refused_at_the_frame() {
    let (_, capture) = capture_run("samples_unrestored.xgc", SurfaceFormat::Color);
    let null = || xnagraph_graph::null::NullBackend::new(Default::default());
    let mut restores = null();
    assert!(xnagraph_benches::replay::replay(&mut restores, &capture, 1, None, || {}).is_ok());
    let mut cannot = null();
    cannot.capabilities_mut().sample_restore = false;
    let e = match xnagraph_benches::replay::replay(&mut cannot, &capture, 1, None, || {}) {
        Ok(_) => panic!("a replay that cannot restore the samples must be refused"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("frame 3 uses the multisample image of texture"), "{e}");
}

/// SDL_gpu cannot read samples back: its capture has no sample snapshot, and a replay of it
/// (on either backend) is refused at the first frame that draws over the samples.
#[test]
fn a_capture_on_sdlgpu_lacks_the_samples_and_its_replay_is_refused() {
    let path = scratch("samples_on_sdl.xgc");
    let device = device_on(BackendKind::SdlGpu);
    device.capture_frames(&path, 3..=5).unwrap();
    render(&device, 6, SurfaceFormat::Color);
    device.capture_result().expect("the capture finished").unwrap();
    let capture = Capture::open(&path).unwrap();
    assert!(capture.sample_snapshot.is_empty());
    let e = match xnagraph_benches::replay::replay(&mut sdlgpu(), &capture, 1, None, || {}) {
        Ok(_) => panic!("a replay without the sample snapshot must be refused"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("frame 3 uses the multisample image of texture"), "{e}");
}

#[test]
#[ignore = "writes a seed of the fuzz corpus; run by benches/fuzz.sh --regenerate"]
fn write_fuzz_seed() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/samples.xgc");
    let device = device();
    device.capture_frames(&path, 3..=4).unwrap();
    render(&device, 5, SurfaceFormat::Color);
    device.capture_result().expect("the capture finished").unwrap();
}
