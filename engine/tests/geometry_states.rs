//! Rasterizer states on geometry draws, as they reach pixels on every backend: the scissor
//! test, depth bias (sign and size, in XNA's units of the depth range), the stencil reference,
//! and wire frames where the device draws them (refused at the setter where it does not).

mod common;

use common::*;
use xnagraph::{
    BasicEffect, Color, CompareFunction, DepthFormat, DepthStencilState, FillMode, GraphicsDevice,
    Matrix, PrimitiveType, RasterizerState, Rectangle, RenderTarget2D, RenderTargetUsage,
    StencilOperation, SurfaceFormat, Vector3, VertexDeclaration, VertexElement,
    VertexElementFormat, VertexElementUsage, VertexPositionColor, VertexType, XnaError,
};

const W: i32 = 32;
const H: i32 = 32;
const CLEAR: Color = Color::new(10, 20, 30, 255);

fn vpc(x: f32, y: f32, z: f32, color: Color) -> VertexPositionColor {
    let position = Vector3::new(x / W as f32 * 2.0 - 1.0, 1.0 - y / H as f32 * 2.0, z);
    VertexPositionColor { position, color }
}

/// Two clockwise triangles covering pixels x0..x1, y0..y1.
fn quad(x0: f32, y0: f32, x1: f32, y1: f32, z: f32, c: Color) -> Vec<VertexPositionColor> {
    let (tl, tr, bl, br) =
        (vpc(x0, y0, z, c), vpc(x1, y0, z, c), vpc(x0, y1, z, c), vpc(x1, y1, z, c));
    vec![tl, tr, bl, tr, br, bl]
}

fn setup() -> (GraphicsDevice, BasicEffect) {
    let mut p = params(W, H);
    p.depth_stencil_format = DepthFormat::Depth24Stencil8;
    let device = device_with(xnagraph::GraphicsProfile::HiDef, p);
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.vertex_color_enabled = true;
    effect.current_technique().passes()[0].apply().unwrap();
    device.clear(CLEAR).unwrap();
    (device, effect)
}

fn draw(device: &GraphicsDevice, vertices: &[VertexPositionColor]) {
    let n = vertices.len() as i32 / 3;
    device.draw_user_primitives(PrimitiveType::TriangleList, vertices, 0, n).unwrap();
}

#[test]
fn the_scissor_rectangle_clips_geometry_only_with_the_scissor_test_on() {
    let _v = Validation::new();
    let (device, _effect) = setup();
    let red = Color::new(220, 30, 30, 255);
    let green = Color::new(30, 220, 30, 255);
    device.set_scissor_rectangle(Rectangle::new(5, 3, 9, 7)).unwrap();
    let on = RasterizerState { scissor_test_enable: true, ..RasterizerState::CULL_NONE };
    device.set_rasterizer_state(on).unwrap();
    draw(&device, &quad(0.0, 0.0, 16.0, 16.0, 0.5, red));
    // The same rectangle is ignored with the test off.
    device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
    draw(&device, &quad(16.0, 16.0, 32.0, 32.0, 0.5, green));
    let px = read_back_buffer(&device);
    for (x, y) in [(5, 3), (13, 9), (9, 6)] {
        assert_eq!(at(&px, W, x, y), red, "inside the scissor at {x},{y}");
    }
    for (x, y) in [(4, 3), (14, 5), (8, 2), (8, 10), (0, 0), (15, 15)] {
        assert_eq!(at(&px, W, x, y), CLEAR, "outside the scissor at {x},{y}");
    }
    for (x, y) in [(16, 16), (31, 31), (20, 27)] {
        assert_eq!(at(&px, W, x, y), green, "no scissor test at {x},{y}");
    }
}

/// A red quad at depth 0.5 first; then quads with a bias over it, tested with `Less`. XNA's
/// DepthBias is in units of the depth range: -0.01 brings a quad at 0.505 in front (0.495),
/// +0.01 sends one at 0.495 behind (0.505), and -0.001 is too little to bring 0.505 in front.
#[test]
fn depth_bias_moves_geometry_by_its_value_in_depth_range_units() {
    let _v = Validation::new();
    let (device, _effect) = setup();
    let red = Color::new(220, 30, 30, 255);
    draw(&device, &quad(0.0, 0.0, 32.0, 32.0, 0.5, red));
    let less = DepthStencilState {
        depth_buffer_function: CompareFunction::Less,
        ..DepthStencilState::DEFAULT
    };
    device.set_depth_stencil_state(less).unwrap();
    let cases = [
        (-0.01f32, 0.505f32, Color::new(30, 220, 30, 255), true),
        (0.01, 0.495, Color::new(30, 30, 220, 255), false),
        (-0.001, 0.505, Color::new(220, 220, 30, 255), false),
        // Without bias the lower quad passes: the bias, not the depth, decided above.
        (0.0, 0.495, Color::new(220, 30, 220, 255), true),
    ];
    for (i, (bias, z, color, _)) in cases.iter().enumerate() {
        let raster =
            RasterizerState { depth_bias_bits: bias.to_bits(), ..RasterizerState::CULL_NONE };
        device.set_rasterizer_state(raster).unwrap();
        let x = 2.0 + 7.0 * i as f32;
        draw(&device, &quad(x, 4.0, x + 5.0, 12.0, *z, *color));
    }
    let px = read_back_buffer(&device);
    for (i, (bias, z, color, in_front)) in cases.iter().enumerate() {
        let want = if *in_front { *color } else { red };
        let x = 4 + 7 * i as i32;
        assert_eq!(at(&px, W, x, 8), want, "bias {bias} at depth {z}");
    }
}

/// Two quads mark the stencil with references 3 and 5; a full-screen draw with reference 5 and
/// `Equal` paints only over the second: the reference is set per draw, not baked once.
#[test]
fn the_stencil_reference_is_each_draws_own() {
    let _v = Validation::new();
    let (device, _effect) = setup();
    let mark = |reference| DepthStencilState {
        stencil_enable: true,
        stencil_function: CompareFunction::Always,
        stencil_pass: StencilOperation::Replace,
        reference_stencil: reference,
        depth_buffer_enable: false,
        ..DepthStencilState::DEFAULT
    };
    let grey = Color::new(90, 90, 90, 255);
    device.set_depth_stencil_state(mark(3)).unwrap();
    draw(&device, &quad(2.0, 2.0, 10.0, 10.0, 0.5, grey));
    device.set_depth_stencil_state(mark(5)).unwrap();
    draw(&device, &quad(18.0, 6.0, 28.0, 20.0, 0.5, grey));
    let test = DepthStencilState {
        stencil_function: CompareFunction::Equal,
        stencil_pass: StencilOperation::Keep,
        ..mark(5)
    };
    device.set_depth_stencil_state(test).unwrap();
    let paint = Color::new(240, 120, 20, 255);
    draw(&device, &quad(0.0, 0.0, 32.0, 32.0, 0.5, paint));
    let px = read_back_buffer(&device);
    for (x, y) in [(18, 6), (27, 19), (22, 12)] {
        assert_eq!(at(&px, W, x, y), paint, "reference 5 at {x},{y}");
    }
    for (x, y) in [(2, 2), (9, 9)] {
        assert_eq!(at(&px, W, x, y), grey, "reference 3 at {x},{y}");
    }
    for (x, y) in [(17, 6), (12, 25), (30, 30)] {
        assert_eq!(at(&px, W, x, y), CLEAR, "unmarked at {x},{y}");
    }
}

/// Where the device draws wire frames, a wire-frame quad colours its edges and leaves its
/// inside as it was; where it cannot, the setter refuses (never a filled quad instead).
#[test]
fn wire_frames_draw_edges_only_or_are_refused_at_the_setter() {
    let _v = Validation::new();
    let (device, _effect) = setup();
    let wire = RasterizerState { fill_mode: FillMode::WireFrame, ..RasterizerState::CULL_NONE };
    if !device.capabilities().wire_frame {
        let e = device.set_rasterizer_state(wire).unwrap_err();
        assert!(matches!(e, XnaError::NotSupported { .. }), "{e:?}");
        skipped("wire_frames_draw_edges_only_or_are_refused_at_the_setter", "no line fill");
        return;
    }
    device.set_rasterizer_state(wire).unwrap();
    let c = Color::new(250, 200, 40, 255);
    // Edges on pixel centres: x 4.5 and 24.5, y 6.5 and 26.5.
    draw(&device, &quad(4.5, 6.5, 24.5, 26.5, 0.5, c));
    let px = read_back_buffer(&device);
    for (x, y) in [(10, 6), (4, 15), (24, 20), (14, 26)] {
        assert_eq!(at(&px, W, x, y), c, "edge at {x},{y}");
    }
    for (x, y) in [(8, 10), (20, 12), (12, 22), (20, 24)] {
        assert_eq!(at(&px, W, x, y), CLEAR, "inside at {x},{y}");
    }
}

/// Geometry beyond the depth range is clipped, as Direct3D clips it, never flattened onto the
/// near or far plane (with the depth test off, a clamped quad would show).
#[test]
fn geometry_outside_the_depth_range_is_clipped() {
    let _v = Validation::new();
    let (device, _effect) = setup();
    let off = DepthStencilState { depth_buffer_enable: false, ..DepthStencilState::DEFAULT };
    device.set_depth_stencil_state(off).unwrap();
    let inside = Color::new(60, 200, 90, 255);
    draw(&device, &quad(2.0, 2.0, 10.0, 10.0, 1.5, Color::RED));
    draw(&device, &quad(12.0, 2.0, 20.0, 10.0, -0.5, Color::RED));
    draw(&device, &quad(22.0, 2.0, 30.0, 10.0, 0.99, inside));
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, W, 5, 5), CLEAR, "beyond the far plane");
    assert_eq!(at(&px, W, 15, 5), CLEAR, "before the near plane");
    assert_eq!(at(&px, W, 25, 5), inside, "inside the range");
}

/// A position stored as XNA's `Short4`: four 16-bit integers, read as unnormalised floats.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ShortVertex {
    position: [i16; 4],
    color: Color,
}

impl VertexType for ShortVertex {
    fn vertex_declaration() -> VertexDeclaration {
        let el = |offset, format, usage| VertexElement::new(offset, format, usage, 0);
        VertexDeclaration::new(&[
            el(0, VertexElementFormat::Short4, VertexElementUsage::Position),
            el(8, VertexElementFormat::Color, VertexElementUsage::Color),
        ])
        .unwrap()
    }
}

/// Bone indices as XNA's `Byte4`, which BasicEffect never reads.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct BonedVertex {
    position: Vector3,
    color: Color,
    bones: [u8; 4],
}

impl VertexType for BonedVertex {
    fn vertex_declaration() -> VertexDeclaration {
        let el = |offset, format, usage| VertexElement::new(offset, format, usage, 0);
        VertexDeclaration::new(&[
            el(0, VertexElementFormat::Vector3, VertexElementUsage::Position),
            el(12, VertexElementFormat::Color, VertexElementUsage::Color),
            el(16, VertexElementFormat::Byte4, VertexElementUsage::BlendIndices),
        ])
        .unwrap()
    }
}

/// Byte4, Short2 and Short4 elements are read as unnormalised floats where the device can
/// (integer pixel positions through a world/view mapping pixels to clip space); where it
/// cannot, a draw whose effect reads one is refused, and one that carries such an element the
/// effect never reads still draws.
#[test]
fn scaled_integer_elements_are_read_as_floats_or_refused_at_the_draw() {
    let _v = Validation::new();
    let (device, mut effect) = setup();
    let blue = Color::new(40, 60, 230, 255);
    let v = |x: i16, y: i16| ShortVertex { position: [x, y, 0, 0], color: blue };
    let short = [v(6, 10), v(14, 10), v(6, 20), v(14, 10), v(14, 20), v(6, 20)];
    // Pixels (y down) to clip space; near 0 and far −1 keep clip depth equal to z.
    effect.world = Matrix::create_orthographic_off_center(0.0, W as f32, H as f32, 0.0, 0.0, -1.0);
    effect.view = Matrix::IDENTITY;
    effect.current_technique().passes()[0].apply().unwrap();
    let drawn = device.draw_user_primitives(PrimitiveType::TriangleList, &short, 0, 2);
    let scaled = device.capabilities().scaled_vertex_formats;
    if !scaled {
        let e = drawn.unwrap_err();
        assert!(matches!(e, XnaError::NotSupported { .. }), "{e:?}");
    } else {
        drawn.unwrap();
    }
    effect.world = Matrix::IDENTITY;
    effect.view = Matrix::IDENTITY;
    effect.current_technique().passes()[0].apply().unwrap();
    let green = Color::new(30, 210, 70, 255);
    let boned: Vec<_> = quad(20.0, 4.0, 28.0, 12.0, 0.5, green)
        .into_iter()
        .map(|p| BonedVertex { position: p.position, color: p.color, bones: [1, 2, 3, 4] })
        .collect();
    device.draw_user_primitives(PrimitiveType::TriangleList, &boned, 0, 2).unwrap();
    let px = read_back_buffer(&device);
    let short_color = if scaled { blue } else { CLEAR };
    for (x, y) in [(6, 10), (13, 19), (10, 15)] {
        assert_eq!(at(&px, W, x, y), short_color, "Short4 positions at {x},{y}");
    }
    for (x, y) in [(5, 10), (14, 15), (10, 20)] {
        assert_eq!(at(&px, W, x, y), CLEAR, "outside the Short4 quad at {x},{y}");
    }
    for (x, y) in [(20, 4), (27, 11)] {
        assert_eq!(at(&px, W, x, y), green, "unread Byte4 element at {x},{y}");
    }
}

/// Geometry into a 4x multisampled target with depth (the pipeline keyed by its sample count):
/// the nearer quad wins wherever the two overlap, whatever the order, and each region's
/// resolved inner pixels are exactly its colour.
#[test]
fn geometry_into_a_multisampled_target_with_depth_resolves_exactly() {
    let _v = Validation::new();
    let (device, _effect) = setup();
    let rt = RenderTarget2D::with_options(
        &device,
        W,
        H,
        false,
        SurfaceFormat::Color,
        DepthFormat::Depth24,
        4,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    let name = "geometry_into_a_multisampled_target_with_depth_resolves_exactly";
    if !multisampled_as_requested(name, rt.multi_sample_count(), 4) {
        return;
    }
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(CLEAR).unwrap();
    let near = Color::new(30, 200, 120, 255);
    let far = Color::new(210, 40, 90, 255);
    // The near quad first, the far one over it: the depth test keeps the near one.
    draw(&device, &quad(4.0, 6.0, 20.0, 18.0, 0.25, near));
    draw(&device, &quad(12.0, 10.0, 28.0, 26.0, 0.75, far));
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    for (x, y) in [(5, 7), (10, 10), (15, 15), (19, 17)] {
        assert_eq!(at(&px, W, x, y), near, "near quad at {x},{y}");
    }
    for (x, y) in [(21, 11), (14, 20), (27, 25)] {
        assert_eq!(at(&px, W, x, y), far, "far quad outside the near one at {x},{y}");
    }
    for (x, y) in [(2, 2), (30, 5), (6, 24)] {
        assert_eq!(at(&px, W, x, y), CLEAR, "cleared at {x},{y}");
    }
}
