//! Pipelines are created when a combination is first recorded, never per draw: a frame's draws of
//! several blend states, into a render target of another format, through BasicEffect and through a
//! custom effect are each requested once while recording and built before the frame is lowered, so
//! lowering builds none; a second identical frame requests and builds nothing. Pixels read back
//! show the draws took place.

mod common;

use common::*;
use xnagraph::{
    BasicEffect, BlendState, Color, CustomEffect, DepthFormat, GraphicsDevice, PassSource,
    PrimitiveType, RenderTarget2D, RenderTargetUsage, SpriteBatch, SpriteSortMode, SurfaceFormat,
    TechniqueSource, Vector2, Vector3, VertexPositionColor,
};

const W: i32 = 32;
const H: i32 = 32;

fn vpc(x: f32, y: f32, color: Color) -> VertexPositionColor {
    let clip = Vector3::new(x / W as f32 * 2.0 - 1.0, 1.0 - y / H as f32 * 2.0, 0.5);
    VertexPositionColor { position: clip, color }
}

/// Records one frame of five distinct combinations: sprites with three blend states on the back
/// buffer, sprites into a `HalfVector4` target (then drawn onto the back buffer with one of the
/// three), and a vertex-coloured BasicEffect triangle pair.
fn frame(
    device: &GraphicsDevice,
    target: &RenderTarget2D,
    effect: &BasicEffect,
    custom: &CustomEffect,
) {
    let mut sb = SpriteBatch::new(device).unwrap();
    let red = solid(device, 4, 4, Color::RED);
    let green = solid(device, 4, 4, Color::new(0, 255, 0, 255));
    device.set_render_target(Some(target)).unwrap();
    device.clear(Color::new(0, 0, 255, 255)).unwrap();
    sb.begin().unwrap();
    sb.draw(&green, Vector2::new(1.0, 1.0), Color::WHITE).unwrap();
    sb.end().unwrap();
    device.set_render_target(None).unwrap();
    device.clear(Color::new(10, 20, 30, 255)).unwrap();
    for (i, blend) in
        [BlendState::OPAQUE, BlendState::ADDITIVE, BlendState::NON_PREMULTIPLIED].iter().enumerate()
    {
        sb.begin_with(SpriteSortMode::Deferred, Some(*blend), None, None, None, None).unwrap();
        sb.draw(&red, Vector2::new(2.0 + 6.0 * i as f32, 3.0), Color::WHITE).unwrap();
        sb.end().unwrap();
    }
    sb.begin_with(SpriteSortMode::Deferred, Some(BlendState::OPAQUE), None, None, None, None)
        .unwrap();
    sb.draw(target, Vector2::new(20.0, 20.0), Color::WHITE).unwrap();
    sb.end().unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    let c = Color::new(200, 100, 50, 255);
    let (tl, tr, bl, br) =
        (vpc(3.0, 22.0, c), vpc(9.0, 22.0, c), vpc(3.0, 28.0, c), vpc(9.0, 28.0, c));
    device
        .draw_user_primitives(PrimitiveType::TriangleList, &[tl, tr, bl, tr, br, bl], 0, 2)
        .unwrap();
    custom.current_technique().passes()[0].apply().unwrap();
    let c = Color::new(40, 150, 90, 255);
    let (tl, tr, bl, br) =
        (vpc(12.0, 22.0, c), vpc(16.0, 22.0, c), vpc(12.0, 28.0, c), vpc(16.0, 28.0, c));
    device
        .draw_user_primitives(PrimitiveType::TriangleList, &[tl, tr, bl, tr, br, bl], 0, 2)
        .unwrap();
}

const TINT_VERTEX: &str = "#version 450
layout(location = 0) in vec3 Position;
layout(location = 1) in vec4 Color;
layout(location = 0) out vec4 tint;
void main() {
    gl_Position = vec4(Position, 1.0);
    tint = Color;
}
";

const TINT_FRAGMENT: &str = "#version 450
layout(location = 0) in vec4 tint;
layout(location = 0) out vec4 color;
void main() { color = tint; }
";

#[test]
fn each_combination_is_built_when_first_recorded_and_never_at_lowering() {
    let _v = Validation::new();
    let mut p = params(W, H);
    p.depth_stencil_format = DepthFormat::Depth24Stencil8;
    let device = device_with(xnagraph::GraphicsProfile::HiDef, p);
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.vertex_color_enabled = true;
    let target = RenderTarget2D::with_options(
        &device,
        8,
        8,
        false,
        SurfaceFormat::HalfVector4,
        DepthFormat::None,
        0,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    let custom = CustomEffect::new(
        &device,
        &[TechniqueSource {
            name: "Tint",
            passes: &[PassSource { name: "P", vertex: TINT_VERTEX, fragment: TINT_FRAGMENT }],
        }],
    )
    .unwrap();
    let stats = || device.pipeline_stats().unwrap();
    let before = stats();
    frame(&device, &target, &effect, &custom);
    let pixels = read_back_buffer(&device);
    device.present().unwrap();
    device.wait_idle().unwrap();
    // Opaque, additive (red over the clear's red 10), non-premultiplied; the target's green
    // sprite on its blue clear, drawn at (20, 20); the BasicEffect quad.
    assert_eq!(at(&pixels, W, 3, 4), Color::RED);
    assert_eq!(at(&pixels, W, 9, 4), Color::new(255, 20, 30, 255));
    assert_eq!(at(&pixels, W, 15, 4), Color::RED);
    assert_eq!(at(&pixels, W, 22, 22), Color::new(0, 255, 0, 255));
    assert_eq!(at(&pixels, W, 26, 26), Color::new(0, 0, 255, 255));
    assert_eq!(at(&pixels, W, 5, 24), Color::new(200, 100, 50, 255));
    assert_eq!(at(&pixels, W, 14, 25), Color::new(40, 150, 90, 255));
    let first = stats();
    assert_eq!(first.built_at_lowering, before.built_at_lowering, "lowering built a pipeline");
    // Opaque, additive and non-premultiplied on the back buffer, alpha blending into the
    // target, BasicEffect's stage and the custom effect's on the back buffer: one request and
    // one pipeline each, whatever the number of draws.
    assert_eq!(first.requests - before.requests, 6);
    assert_eq!(first.built_on_request - before.built_on_request, 6);
    for _ in 0..2 {
        frame(&device, &target, &effect, &custom);
        device.present().unwrap();
        device.wait_idle().unwrap();
        assert_eq!(stats(), first, "an identical frame built a pipeline");
    }
}
