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

/// Draws a 6×6 quad at (x, y) through `effect` as it stands (positions in clip space: the
/// effect's matrices are identity apart from World's translation, set here).
fn stock_quad(device: &GraphicsDevice, effect: &mut BasicEffect, x: f32, y: f32) {
    use xnagraph::{Matrix, VertexPositionNormalTexture as V};
    let v = |px: f32, py: f32| V {
        position: Vector3::new(px / W as f32 * 2.0 - 1.0, 1.0 - py / H as f32 * 2.0, 0.5),
        normal: Vector3::new(0.0, 0.0, 1.0),
        texture_coordinate: xnagraph::Vector2::ZERO,
    };
    // World moves a quad drawn at the origin corner to (x, y): each draw its own World.
    effect.world = Matrix::create_translation(x / W as f32 * 2.0, -y / H as f32 * 2.0, 0.0);
    effect.current_technique().passes()[0].apply().unwrap();
    let (tl, tr, bl, br) = (v(0.0, 0.0), v(6.0, 0.0), v(0.0, 6.0), v(6.0, 6.0));
    device
        .draw_user_primitives(PrimitiveType::TriangleList, &[tl, tr, bl, tr, br, bl], 0, 2)
        .unwrap();
}

/// One frame of BasicEffect draws: three unlit quads of three DiffuseColors and Worlds, one
/// fogged (FogStart = FogEnd: wholly fog), one lit per vertex and one per pixel (no light on:
/// the ambient term alone, a colour each).
fn stock_frame(device: &GraphicsDevice, effect: &mut BasicEffect) {
    device.clear(Color::BLACK).unwrap();
    *effect = BasicEffect::new(device).unwrap();
    for (i, c) in [Vector3::new(1.0, 0.0, 0.0), Vector3::new(0.0, 1.0, 0.0), Vector3::UNIT_Z]
        .into_iter()
        .enumerate()
    {
        effect.diffuse_color = c;
        stock_quad(device, effect, 2.0 + 9.0 * i as f32, 3.0);
    }
    effect.diffuse_color = Vector3::ONE;
    effect.fog_enabled = true;
    effect.fog_color = Vector3::new(1.0, 1.0, 0.0);
    (effect.fog_start, effect.fog_end) = (2.0, 2.0);
    stock_quad(device, effect, 2.0, 13.0);
    effect.fog_enabled = false;
    effect.lighting_enabled = true;
    effect.directional_light0.enabled = false;
    effect.ambient_light_color = Vector3::new(0.2, 0.4, 0.6);
    stock_quad(device, effect, 11.0, 13.0);
    effect.prefer_per_pixel_lighting = true;
    effect.ambient_light_color = Vector3::new(0.6, 0.4, 0.2);
    stock_quad(device, effect, 20.0, 13.0);
}

#[test]
fn a_stock_effect_option_selects_a_pipeline_variant_and_its_values_do_not() {
    let _v = Validation::new();
    let device = device_with(xnagraph::GraphicsProfile::HiDef, params(W, H));
    let mut effect = BasicEffect::new(&device).unwrap();
    let stats = || device.pipeline_stats().unwrap();
    let before = stats();
    stock_frame(&device, &mut effect);
    let pixels = read_back_buffer(&device);
    device.present().unwrap();
    device.wait_idle().unwrap();
    // Each draw with its own values, off-centre in its quad.
    assert_eq!(at(&pixels, W, 4, 5), Color::RED);
    assert_eq!(at(&pixels, W, 13, 6), Color::new(0, 255, 0, 255));
    assert_eq!(at(&pixels, W, 22, 5), Color::new(0, 0, 255, 255));
    assert_eq!(at(&pixels, W, 3, 15), Color::new(255, 255, 0, 255));
    assert_eq!(at(&pixels, W, 13, 16), Color::new(51, 102, 153, 255));
    assert_eq!(at(&pixels, W, 24, 17), Color::new(153, 102, 51, 255));
    // Unlit, fogged, lit per vertex, lit per pixel: a pipeline each. The three unlit draws,
    // whatever their World and DiffuseColor, share one.
    let first = stats();
    assert_eq!(first.requests - before.requests, 4);
    assert_eq!(first.built_on_request - before.built_on_request, 4);
    assert_eq!(first.built_at_lowering, before.built_at_lowering);
    stock_frame(&device, &mut effect);
    device.present().unwrap();
    device.wait_idle().unwrap();
    assert_eq!(stats(), first, "a second frame of the same options built a pipeline");
}
