//! Frame capture of depth/stencil content that exists before the captured range: a
//! PreserveContents depth+stencil target is drawn into in frames 0 to 2 (each frame a region
//! at its own depth with its own stencil reference), and frames 3 to 5 draw against that
//! content without clearing it, depth-tested and stencil-tested. A capture of frames 3 to 5
//! carries the target's depth and stencil in its snapshot: its replay equals the live run's
//! final frame exactly. Dropping the depth snapshot makes the replay refuse the frame.
//!
//! Both backends read depth back and restore it: captures made on Vulkan and on SDL_gpu replay
//! on either (each backend's device is made explicitly here, whatever `XNAGRAPH_BACKEND`
//! says), for every depth format: Depth16 and Depth24 (SDL_gpu copies them) draw the same scene
//! without the stencil-tested quads, Depth24Stencil8 (SDL_gpu restores and reads it through
//! draws) with them.

mod common;

use common::{replay_final, replay_final_on, scratch, sdlgpu, vulkan};
use xnagraph::{
    BackendKind, BasicEffect, Color, CompareFunction, DepthFormat, DepthStencilState,
    GraphicsDevice, PrimitiveType, RasterizerState, RenderTarget2D, RenderTargetUsage, SpriteBatch,
    StencilOperation, SurfaceFormat, Vector2, Vector3, VertexPositionColor,
};
use xnagraph_graph::capture::Capture;
use xnagraph_graph::Backend;

const W: i32 = 48;
const H: i32 = 40;
/// The target's size.
const TW: f32 = 32.0;
const TH: f32 = 24.0;

fn device() -> GraphicsDevice {
    device_on(BackendKind::Vulkan)
}

fn device_on(backend: BackendKind) -> GraphicsDevice {
    common::device_on(backend, W, H)
}

/// A quad over target pixels (x, y, w, h) at depth z, as a strip.
fn quad(x: f32, y: f32, w: f32, h: f32, z: f32, color: Color) -> [VertexPositionColor; 4] {
    let v = |x: f32, y: f32| VertexPositionColor {
        position: Vector3::new(x / TW * 2.0 - 1.0, 1.0 - y / TH * 2.0, z),
        color,
    };
    [v(x, y), v(x + w, y), v(x, y + h), v(x + w, y + h)]
}

/// Writes depth (test Always) and stencil `reference` over a region.
fn writes(reference: u32) -> DepthStencilState {
    DepthStencilState {
        depth_buffer_function: CompareFunction::Always,
        stencil_enable: true,
        stencil_function: CompareFunction::Always,
        stencil_pass: StencilOperation::Replace,
        reference_stencil: reference,
        ..DepthStencilState::DEFAULT
    }
}

/// Draws only where the stored stencil equals `reference`, leaving depth and stencil alone.
fn where_stencil(reference: u32) -> DepthStencilState {
    DepthStencilState {
        depth_buffer_enable: false,
        depth_buffer_write_enable: false,
        stencil_enable: true,
        stencil_function: CompareFunction::Equal,
        reference_stencil: reference,
        ..DepthStencilState::DEFAULT
    }
}

/// Six frames; returns the final back buffer. Frame 0 clears the target (colour, depth 1,
/// stencil 0); frames 0, 1 and 2 each draw one region at depth 0.3, 0.6 and 0.4 with stencil
/// 1, 2 and 3. From frame 3 on, nothing clears it: each frame draws a whole-target quad at
/// depth 0.5 with a LessEqual depth test (it shows where the stored depth is at least 0.5: the
/// background and the 0.6 region) and, with Depth24Stencil8, two more, stencil-tested, that
/// show only the stencil 3 and stencil 2 regions. The target has `samples` samples.
fn render(device: &GraphicsDevice, frames: u32, samples: i32) -> Vec<u8> {
    render_with(device, frames, DepthFormat::Depth24Stencil8, samples)
}

fn render_with(device: &GraphicsDevice, frames: u32, depth: DepthFormat, samples: i32) -> Vec<u8> {
    let target = RenderTarget2D::with_options(
        device,
        TW as i32,
        TH as i32,
        false,
        SurfaceFormat::Color,
        depth,
        samples,
        RenderTargetUsage::PreserveContents,
    )
    .unwrap();
    let mut effect = BasicEffect::new(device).unwrap();
    effect.vertex_color_enabled = true;
    let mut batch = SpriteBatch::new(device).unwrap();
    let regions = [
        (2.0, 2.0, 12.0, 8.0, 0.3, 1, Color::new(200, 30, 30, 255)),
        (17.0, 3.0, 12.0, 14.0, 0.6, 2, Color::new(30, 200, 40, 255)),
        (5.0, 13.0, 15.0, 8.0, 0.4, 3, Color::new(40, 50, 210, 255)),
    ];
    for frame in 0..frames {
        device.set_render_target(Some(&target)).unwrap();
        device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
        effect.current_technique().passes()[0].apply().unwrap();
        if frame == 0 {
            device.clear(Color::new(5, 10, 20, 255)).unwrap();
        }
        let strip = |corners: &[VertexPositionColor; 4]| {
            device.draw_user_primitives(PrimitiveType::TriangleStrip, corners, 0, 2).unwrap();
        };
        if let Some(&(x, y, w, h, z, reference, color)) = regions.get(frame as usize) {
            device.set_depth_stencil_state(writes(reference)).unwrap();
            strip(&quad(x, y, w, h, z, color));
        } else {
            let shade = 40 * (frame as u8 - 2);
            let depth_tested = DepthStencilState {
                depth_buffer_function: CompareFunction::LessEqual,
                depth_buffer_write_enable: false,
                ..DepthStencilState::DEFAULT
            };
            device.set_depth_stencil_state(depth_tested).unwrap();
            strip(&quad(0.0, 0.0, TW, TH, 0.5, Color::new(250, 120, shade, 255)));
            if depth != DepthFormat::Depth24Stencil8 {
                continue_frame(device, &mut batch, &target);
                continue;
            }
            device.set_depth_stencil_state(where_stencil(3)).unwrap();
            strip(&quad(0.0, 0.0, TW, TH, 0.9, Color::new(shade, 240, 250, 255)));
            device.set_depth_stencil_state(where_stencil(2)).unwrap();
            strip(&quad(0.0, 0.0, TW, TH / 2.0, 0.9, Color::new(90, shade, 160, 255)));
        }
        continue_frame(device, &mut batch, &target);
    }
    let mut pixels = vec![Color::TRANSPARENT; (W * H) as usize];
    device.get_back_buffer_data(None, &mut pixels, 0, (W * H) as usize).unwrap();
    bytemuck::cast_slice(&pixels).to_vec()
}

/// Ends a frame: the target drawn at (7, 9) of a black back buffer, presented.
fn continue_frame(device: &GraphicsDevice, batch: &mut SpriteBatch, target: &RenderTarget2D) {
    device.set_render_target(None).unwrap();
    device.clear(Color::BLACK).unwrap();
    batch.begin().unwrap();
    batch.draw(target, Vector2::new(7.0, 9.0), Color::WHITE).unwrap();
    batch.end().unwrap();
    device.present().unwrap();
}

/// Captures frames 3 to 5 of a 6-frame run; returns the live final frame and the capture.
fn capture_run(name: &str) -> (Vec<u8>, Capture) {
    capture_on(name, BackendKind::Vulkan, DepthFormat::Depth24Stencil8, 0)
}

/// As [`capture_run`], the target of `samples` samples.
fn capture_run_samples(name: &str, samples: i32) -> (Vec<u8>, Capture) {
    capture_on(name, BackendKind::Vulkan, DepthFormat::Depth24Stencil8, samples)
}

/// Captures frames 3 to 5 of a 6-frame run on `backend` with a `depth` target of `samples`
/// samples; returns the live final frame and the capture.
fn capture_on(
    name: &str,
    backend: BackendKind,
    depth: DepthFormat,
    samples: i32,
) -> (Vec<u8>, Capture) {
    let path = scratch(name);
    let device = device_on(backend);
    device.capture_frames(&path, 3..=5).unwrap();
    let live = render_with(&device, 6, depth, samples);
    device.capture_result().expect("the capture finished").unwrap();
    (live, Capture::open(&path).unwrap())
}

/// Captures on each backend; each capture replays on each backend to the live final frame,
/// which is the same on both.
fn across_backends(depth: DepthFormat) {
    let name = |on: &str| format!("depth_{depth:?}_{on}.xgc");
    let (live, on_vulkan) = capture_on(&name("vulkan"), BackendKind::Vulkan, depth, 0);
    let (live_sdl, on_sdl) = capture_on(&name("sdlgpu"), BackendKind::SdlGpu, depth, 0);
    assert!(live_sdl == live, "{depth:?}: both backends draw the same pixels live");
    // The live frame shows the depth test against the stored depth (the target is drawn at
    // (7, 9)): the 0.3 and 0.4 regions hide the depth-tested quad; the background and the 0.6
    // region do not.
    let at = |x: i32, y: i32| pixel(&live, 7 + x, 9 + y);
    assert_eq!(at(6, 5), [200, 30, 30, 255], "{depth:?}: depth 0.3 kept");
    assert_eq!(at(30, 20), [250, 120, 120, 255], "{depth:?}: background");
    if depth != DepthFormat::Depth24Stencil8 {
        assert_eq!(at(10, 17), [40, 50, 210, 255], "{depth:?}: depth 0.4 kept");
        assert_eq!(at(22, 14), [250, 120, 120, 255], "{depth:?}: depth 0.6");
    }
    for (from, capture) in [("Vulkan", &on_vulkan), ("SDL_gpu", &on_sdl)] {
        assert_eq!(capture.depth_snapshot.len(), 1, "{depth:?} on {from}: in the snapshot");
        let on_sdl = replay_final_on(&mut sdlgpu(), capture);
        assert!(on_sdl == live, "{depth:?}: the {from} capture replays on SDL_gpu");
        let on_vulkan = replay_final_on(&mut vulkan(), capture);
        assert!(on_vulkan == live, "{depth:?}: the {from} capture replays on Vulkan");
    }
    // Both backends read the same content back.
    let blob = |c: &Capture| c.blobs[c.depth_snapshot[0].blob as usize].clone();
    assert!(blob(&on_sdl) == blob(&on_vulkan), "{depth:?}: the snapshots are equal");
}

/// The pixel at back buffer (x, y).
fn pixel(bytes: &[u8], x: i32, y: i32) -> [u8; 4] {
    let at = ((y * W + x) * 4) as usize;
    bytes[at..at + 4].try_into().unwrap()
}

#[test]
fn depth_and_stencil_drawn_before_the_capture_replay_to_the_live_final_frame_exactly() {
    let (live, capture) = capture_run("depth_3_5.xgc");
    assert_eq!(capture.depth_snapshot.len(), 1, "the target's depth/stencil is in the snapshot");
    // The live frame itself shows each region's test outcome (the target is drawn at (7, 9)):
    // the 0.3 region hides the depth-tested quad, the 0.6 region and the background do not;
    // the stencil 3 and stencil 2 regions show their stencil-tested quads.
    let at = |x: i32, y: i32| pixel(&live, 7 + x, 9 + y);
    assert_eq!(at(6, 5), [200, 30, 30, 255], "depth 0.3, stencil 1: kept");
    assert_eq!(at(30, 20), [250, 120, 120, 255], "background: depth-tested quad");
    assert_eq!(at(10, 17), [120, 240, 250, 255], "stencil 3");
    assert_eq!(at(22, 6), [90, 120, 160, 255], "stencil 2 (and depth 0.6)");
    assert_eq!(at(22, 14), [250, 120, 120, 255], "depth 0.6 below the stencil-2 quad");
    assert_eq!(replay_final(&capture), live);
}

/// A 4x target: every sample's depth and stencil are in the snapshot (with its colour
/// samples), and the replay equals the live frame.
#[test]
fn multisampled_depth_and_stencil_drawn_before_the_capture_replay_exactly() {
    let (live, capture) = capture_run_samples("depth_4x.xgc", 4);
    assert_eq!((capture.depth_snapshot.len(), capture.sample_snapshot.len()), (1, 1));
    let at = |x: i32, y: i32| pixel(&live, 7 + x, 9 + y);
    assert_eq!(at(6, 5), [200, 30, 30, 255], "depth 0.3, stencil 1: kept");
    assert_eq!(at(10, 17), [120, 240, 250, 255], "stencil 3");
    assert_eq!(replay_final(&capture), live);
}

/// SDL_gpu restores every sample of a multisampled depth/stencil image (per-sample draws) though
/// it cannot read them back: a Vulkan capture of a 4x target replays there to the live frame,
/// for every depth format (with its colour samples, restored the same way).
#[test]
fn a_vulkan_capture_of_a_multisampled_depth_target_replays_on_sdlgpu_exactly() {
    for depth in [DepthFormat::Depth16, DepthFormat::Depth24, DepthFormat::Depth24Stencil8] {
        let name = format!("depth_4x_{depth:?}_to_sdl.xgc");
        let (live, capture) = capture_on(&name, BackendKind::Vulkan, depth, 4);
        assert_eq!((capture.depth_snapshot.len(), capture.sample_snapshot.len()), (1, 1));
        let on_sdl = replay_final_on(&mut sdlgpu(), &capture);
        assert!(on_sdl == live, "{depth:?}: the Vulkan capture replays on SDL_gpu");
    }
}

/// Every pass of a repeated replay restores the depth/stencil snapshot: three passes back to
/// back, on each backend poisoning what the plan leaves undefined, end on the live frame.
#[test]
fn every_pass_of_a_repeated_replay_restores_depth_and_stencil() {
    let (live, capture) = capture_run("depth_repeat.xgc");
    let config = xnagraph_vulkan::VulkanConfig {
        validation: true,
        poison_undefined: true,
        ..xnagraph_vulkan::VulkanConfig::default()
    };
    let backends: [Box<dyn Backend>; 2] =
        [Box::new(xnagraph_vulkan::VulkanBackend::new(config).unwrap()), Box::new(sdlgpu())];
    for mut backend in backends {
        let run = xnagraph_benches::replay::replay(&mut *backend, &capture, 3, None, || {});
        let run = run.unwrap();
        assert_eq!(run.frames.len(), 3 * capture.frames.len());
        assert!(run.final_back_buffer == live, "{}", backend.adapter_name());
        assert!(backend.diagnostics().take_messages().is_empty());
    }
}

#[test]
fn depth16_content_captured_on_either_backend_replays_on_either() {
    across_backends(DepthFormat::Depth16);
}

#[test]
fn depth24_content_captured_on_either_backend_replays_on_either() {
    across_backends(DepthFormat::Depth24);
}

#[test]
fn depth24_stencil8_content_captured_on_either_backend_replays_on_either() {
    across_backends(DepthFormat::Depth24Stencil8);
}

#[test]
fn a_replay_whose_capture_lacks_the_depth_snapshot_is_refused_naming_frame_texture_and_image() {
    // The positive case's check: without the depth/stencil snapshot, its first frame loads
    // content the file does not hold.
    let (_, mut capture) = capture_run("depth_dropped.xgc");
    capture.depth_snapshot.clear();
    let backends: [Box<dyn Backend>; 2] = [Box::new(vulkan()), Box::new(sdlgpu())];
    for mut backend in backends {
        let e = match xnagraph_benches::replay::replay(&mut *backend, &capture, 1, None, || {}) {
            Ok(_) => panic!("a replay without the depth snapshot must be refused"),
            Err(e) => e.to_string(),
        };
        assert!(e.contains("frame 3 uses the depth/stencil image of texture"), "{e}");
        assert!(e.contains("not in the file"), "{e}");
    }
}

#[test]
fn a_trim_past_the_first_frame_reads_the_depth_back_into_its_snapshot() {
    // Trimmed on each backend (each reads the depth of frame 4's start back), replayed on both.
    let (live, capture) = capture_run("depth_to_trim.xgc");
    let backends: [Box<dyn Backend>; 2] = [Box::new(vulkan()), Box::new(sdlgpu())];
    for mut backend in backends {
        let (bytes, _) =
            xnagraph_graph::capture::trim::trim(&capture, 1..=2, &mut *backend, Vec::new())
                .unwrap();
        assert!(backend.diagnostics().take_messages().is_empty());
        let trimmed = Capture::from_bytes(&bytes).unwrap();
        assert_eq!(trimmed.frames.iter().map(|f| f.number).collect::<Vec<_>>(), vec![4, 5]);
        assert_eq!(trimmed.depth_snapshot.len(), 1);
        assert_eq!(replay_final(&trimmed), live);
        assert!(replay_final_on(&mut sdlgpu(), &trimmed) == live);
    }
}

#[test]
#[ignore = "writes a seed of the fuzz corpus; run by benches/fuzz.sh --regenerate"]
fn write_fuzz_seed() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/depth.xgc");
    let device = device();
    device.capture_frames(&path, 3..=4).unwrap();
    render(&device, 5, 0);
    device.capture_result().expect("the capture finished").unwrap();
}

#[test]
#[ignore = "writes a seed of the fuzz corpus; run by benches/fuzz.sh --regenerate"]
fn write_fuzz_seed_multisampled() {
    let path =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/depth_4x.xgc");
    let device = device();
    device.capture_frames(&path, 3..=4).unwrap();
    render(&device, 5, 4);
    device.capture_result().expect("the capture finished").unwrap();
}
