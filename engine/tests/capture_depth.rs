//! A capture's depth/stencil snapshot, on the backend the suite runs on (Vulkan, or SDL_gpu
//! with `XNAGRAPH_BACKEND=sdlgpu`): both read depth back (`Capabilities::depth_readback`), so
//! the snapshot holds a preserved target's depth (and stencil) exactly, in the neutral encoding,
//! for each depth format; and a replay of a frame that draws over it without clearing runs.
//! (Restoring the snapshot, and replays across backends, are `benches/tests/capture_depth.rs`.)

mod common;

use common::{device, Validation};
use xnagraph::{
    BasicEffect, Color, CompareFunction, DepthFormat, DepthStencilState, PrimitiveType,
    RenderTarget2D, RenderTargetUsage, StencilOperation, SurfaceFormat, Vector3,
    VertexPositionColor,
};
use xnagraph_graph::capture::replay::Replayer;
use xnagraph_graph::capture::Capture;
use xnagraph_graph::null::{NullBackend, NullConfig};

/// The target's edge; frame 0 draws depth 0.2 (and stencil 0xA5) over its top-left 6 × 6
/// texels, over depth 1 and stencil 0.
const EDGE: usize = 8;
const DRAWN: usize = 6;
const STENCIL: u8 = 0xA5;

/// Captures frame 1 of two frames drawn into a PreserveContents target of `depth`; returns the
/// capture.
fn capture_two_frames(depth: DepthFormat) -> Capture {
    let path = std::env::temp_dir()
        .join(format!("xnagraph-capture-depth-{depth:?}-{}.xgc", std::process::id()));
    let device = device(16, 16);
    let target = RenderTarget2D::with_options(
        &device,
        EDGE as i32,
        EDGE as i32,
        false,
        SurfaceFormat::Color,
        depth,
        0,
        RenderTargetUsage::PreserveContents,
    )
    .unwrap();
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.vertex_color_enabled = true;
    device.capture_frames(&path, 1..=1).unwrap();
    for frame in 0..2 {
        device.set_render_target(Some(&target)).unwrap();
        if frame == 0 {
            device.clear(Color::BLACK).unwrap();
        }
        let writes = DepthStencilState {
            stencil_enable: true,
            stencil_function: CompareFunction::Always,
            stencil_pass: StencilOperation::Replace,
            reference_stencil: u32::from(STENCIL),
            ..DepthStencilState::DEFAULT
        };
        device.set_depth_stencil_state(writes).unwrap();
        effect.current_technique().passes()[0].apply().unwrap();
        let v = |x: f32, y: f32| VertexPositionColor {
            position: Vector3::new(x, y, 0.2 + 0.3 * frame as f32),
            color: Color::new(200, 40 * frame as u8, 30, 255),
        };
        // Pixels 0 to 5 of 8 on each axis.
        let strip = [v(-1.0, 1.0), v(0.5, 1.0), v(-1.0, -0.5), v(0.5, -0.5)];
        device.draw_user_primitives(PrimitiveType::TriangleStrip, &strip, 0, 2).unwrap();
        device.set_render_target(None).unwrap();
        device.present().unwrap();
    }
    device.capture_result().expect("the capture finished").unwrap();
    assert!(device.capabilities().depth_readback, "both GPU backends read depth back");
    let capture = Capture::open(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    capture
}

/// The neutral encoding of frame 0's content: depth `f32`s row after row, then (with a
/// stencil) one byte per texel.
fn expected(depth: DepthFormat) -> Vec<u8> {
    let inside = |i: usize| i % EDGE < DRAWN && i / EDGE < DRAWN;
    let texels = 0..EDGE * EDGE;
    let mut bytes: Vec<u8> =
        texels.clone().flat_map(|i| if inside(i) { 0.2f32 } else { 1.0 }.to_le_bytes()).collect();
    if depth == DepthFormat::Depth24Stencil8 {
        bytes.extend(texels.map(|i| if inside(i) { STENCIL } else { 0 }));
    }
    bytes
}

/// 0.2 is exact in every depth format's resolution (65535 and 16777215 are multiples of 5), so
/// every format's snapshot holds exactly the `f32` 0.2.
fn snapshot_is_exact(depth: DepthFormat) {
    let _v = Validation::new();
    let capture = capture_two_frames(depth);
    assert_eq!(capture.depth_snapshot.len(), 1, "{depth:?}");
    let blob = &capture.blobs[capture.depth_snapshot[0].blob as usize];
    assert_eq!(blob[..], expected(depth)[..], "{depth:?}");
    // The replay's acceptance depends on the file alone: the null backend runs it.
    let mut backend = NullBackend::new(NullConfig::default());
    let mut replayer = Replayer::new(&mut backend, &capture).unwrap();
    replayer
        .replay_frame(&mut backend, &capture, &capture.frames[0])
        .expect("the snapshot's depth is restored before the frame loads it");
    // Without the depth snapshot, the frame loads depth the file lacks.
    let mut lacking = capture;
    lacking.depth_snapshot.clear();
    let mut replayer = Replayer::new(&mut backend, &lacking).unwrap();
    let e = replayer
        .replay_frame(&mut backend, &lacking, &lacking.frames[0])
        .expect_err("the frame loads depth the file lacks")
        .to_string();
    assert!(e.contains("frame 1 uses the depth/stencil image of texture"), "{e}");
}

#[test]
fn a_depth16_snapshot_holds_the_depth_exactly() {
    snapshot_is_exact(DepthFormat::Depth16);
}

#[test]
fn a_depth24_snapshot_holds_the_depth_exactly() {
    snapshot_is_exact(DepthFormat::Depth24);
}

#[test]
fn a_depth24_stencil8_snapshot_holds_the_depth_and_the_stencil_exactly() {
    snapshot_is_exact(DepthFormat::Depth24Stencil8);
}
