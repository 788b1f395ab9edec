//! `RasterizerState.MultiSampleAntiAlias`: on, a 4× target's resolved edge pixels mix the
//! triangle's colour with the background by the covered sample count; off, into a multisampled
//! target, the draw is `NotSupported` (no backend rasterises single-sample into a multisampled
//! attachment), and into a single-sampled target it is accepted and changes nothing.

mod common;

use common::*;
use xnagraph::{
    BasicEffect, Color, DepthFormat, GraphicsDevice, PrimitiveType, RasterizerState,
    RenderTarget2D, RenderTargetUsage, SurfaceFormat, Vector3, VertexPositionColor, XnaError,
};

const W: i32 = 16;
const H: i32 = 12;
const CLEAR: Color = Color::new(0, 0, 0, 255);
const RED: Color = Color::new(255, 0, 0, 255);

fn clip(x: f32, y: f32) -> Vector3 {
    Vector3::new(x / W as f32 * 2.0 - 1.0, 1.0 - y / H as f32 * 2.0, 0.5)
}

/// A triangle whose hypotenuse runs diagonally through pixels (3..11, 2..10): clockwise.
fn triangle() -> [VertexPositionColor; 3] {
    let v = |x, y| VertexPositionColor { position: clip(x, y), color: RED };
    [v(3.0, 2.0), v(11.0, 10.0), v(3.0, 10.0)]
}

fn draw(device: &GraphicsDevice, rasterizer: RasterizerState) -> xnagraph::Result<()> {
    let mut effect = BasicEffect::new(device).unwrap();
    effect.vertex_color_enabled = true;
    effect.current_technique().passes()[0].apply().unwrap();
    device.set_rasterizer_state(rasterizer)?;
    device.draw_user_primitives(PrimitiveType::TriangleList, &triangle(), 0, 1)
}

fn target(device: &GraphicsDevice, samples: i32) -> RenderTarget2D {
    RenderTarget2D::with_options(
        device,
        W,
        H,
        false,
        SurfaceFormat::Color,
        DepthFormat::None,
        samples,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap()
}

#[test]
fn multisample_antialias_on_mixes_the_resolved_edge() {
    if skip_on_sdlgpu(
        "multisample_antialias_on_mixes_the_resolved_edge",
        "geometry draws are not lowered yet",
    ) {
        return;
    }
    let _v = Validation::new();
    let device = device(W, H);
    let rt = target(&device, 4);
    if !multisampled_as_requested(
        "multisample_antialias_on_mixes_the_resolved_edge",
        rt.multi_sample_count(),
        4,
    ) {
        return;
    }
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(CLEAR).unwrap();
    draw(&device, RasterizerState::CULL_COUNTER_CLOCKWISE).unwrap();
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    let p = |x, y| at(&px, W, x, y);
    assert_eq!(p(4, 8), RED, "inside");
    assert_eq!(p(10, 3), CLEAR, "outside");
    // The diagonal passes through the corners of pixels (x, x - 1): half of each is covered, so
    // two of the standard four sample positions are in and the resolve averages them.
    for x in [4, 6, 9] {
        let c = p(x, x - 1);
        assert!(c.r > 60 && c.r < 200, "edge pixel {x},{} is mixed: {c:?}", x - 1);
        assert_eq!((c.g, c.b, c.a), (0, 0, 255));
    }
}

#[test]
fn multisample_antialias_off_is_refused_into_a_multisampled_target_only() {
    if skip_on_sdlgpu(
        "multisample_antialias_off_is_refused_into_a_multisampled_target_only",
        "geometry draws are not lowered yet",
    ) {
        return;
    }
    let _v = Validation::new();
    let device = device(W, H);
    let off = RasterizerState {
        multisample_anti_alias: false,
        ..RasterizerState::CULL_COUNTER_CLOCKWISE
    };
    let rt = target(&device, 4);
    if rt.multi_sample_count() > 1 {
        device.set_render_target(Some(&rt)).unwrap();
        device.clear(CLEAR).unwrap();
        match draw(&device, off) {
            Err(XnaError::NotSupported { message }) => {
                assert!(message.contains("MultiSampleAntiAlias"), "{message}")
            }
            other => panic!("expected NotSupported, got {other:?}"),
        }
    }
    // Single-sampled: accepted, and the same hard edge either way.
    let single = target(&device, 0);
    let mut edges = Vec::new();
    for state in [off, RasterizerState::CULL_COUNTER_CLOCKWISE] {
        device.set_render_target(Some(&single)).unwrap();
        device.clear(CLEAR).unwrap();
        draw(&device, state).unwrap();
        device.set_render_target(None).unwrap();
        let px = read_target(&single);
        assert!(px.iter().all(|&c| c == RED || c == CLEAR), "single-sampled edges are hard");
        edges.push(px);
    }
    assert_eq!(edges[0], edges[1]);
}
