//! Geometry draws through BasicEffect: every primitive type and draw method, the device states
//! (culling, depth test, stencil, blend, sampler), a SetData ordered after a draw, and XNA's
//! errors for each bad argument. Every test reads pixels back and compares them with colours
//! computed here; regions are off-centre and distinct.

mod common;

use common::*;
use xnagraph::{
    BasicEffect, BlendState, BufferUsage, Color, ColorWriteChannels, CompareFunction, DepthFormat,
    DepthStencilState, GraphicsDevice, IndexBuffer, IndexElementSize, PrimitiveType,
    RasterizerState, SamplerState, StencilOperation, Texture2D, Vector2, Vector3, VertexBuffer,
    VertexPositionColor, VertexPositionColorTexture, VertexPositionTexture, XnaError,
};

const W: i32 = 32;
const H: i32 = 32;

/// The clip-space point of pixel edge coordinates (x, y) of a W×H target (y up in clip space).
fn clip(x: f32, y: f32, z: f32) -> Vector3 {
    Vector3::new(x / W as f32 * 2.0 - 1.0, 1.0 - y / H as f32 * 2.0, z)
}

fn vpc(x: f32, y: f32, z: f32, color: Color) -> VertexPositionColor {
    VertexPositionColor { position: clip(x, y, z), color }
}

/// Two clockwise triangles covering pixels x0..x1, y0..y1 (a triangle list).
fn quad(x0: f32, y0: f32, x1: f32, y1: f32, z: f32, c: Color) -> Vec<VertexPositionColor> {
    let (tl, tr, bl, br) =
        (vpc(x0, y0, z, c), vpc(x1, y0, z, c), vpc(x0, y1, z, c), vpc(x1, y1, z, c));
    vec![tl, tr, bl, tr, br, bl]
}

/// A device whose back buffer has depth and stencil, and a vertex-coloured effect applied.
fn setup() -> (GraphicsDevice, BasicEffect) {
    let mut p = params(W, H);
    p.depth_stencil_format = DepthFormat::Depth24Stencil8;
    let device = device_with(xnagraph::GraphicsProfile::HiDef, p);
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.vertex_color_enabled = true;
    effect.current_technique().passes()[0].apply().unwrap();
    (device, effect)
}

fn buffer(device: &GraphicsDevice, vertices: &[VertexPositionColor]) -> VertexBuffer {
    let vb = VertexBuffer::with_type::<VertexPositionColor>(
        device,
        vertices.len() as i32,
        BufferUsage::WriteOnly,
    )
    .unwrap();
    vb.set_data(vertices).unwrap();
    vb
}

const CLEAR: Color = Color::new(10, 20, 30, 255);

#[test]
fn every_primitive_type_draws_from_a_vertex_buffer() {
    let _v = Validation::new();
    let (device, _effect) = setup();
    device.clear(CLEAR).unwrap();
    let red = Color::new(200, 30, 40, 255);
    let green = Color::new(20, 210, 60, 255);
    let blue = Color::new(30, 40, 220, 255);
    let yellow = Color::new(230, 220, 20, 255);
    // Triangle list: pixels 2..10 × 4..12.
    let list = quad(2.0, 4.0, 10.0, 12.0, 0.5, red);
    // Triangle strip TL, TR, BL, BR: pixels 18..28 × 3..9.
    let strip = [
        vpc(18.0, 3.0, 0.5, green),
        vpc(28.0, 3.0, 0.5, green),
        vpc(18.0, 9.0, 0.5, green),
        vpc(28.0, 9.0, 0.5, green),
    ];
    // Line list: two horizontal lines through the centres of rows 20 and 23, x 2..14.
    let lines = [
        vpc(2.0, 20.5, 0.5, blue),
        vpc(14.0, 20.5, 0.5, blue),
        vpc(2.0, 23.5, 0.5, blue),
        vpc(14.0, 23.5, 0.5, blue),
    ];
    // Line strip: along row 26 from x 18 to 28, then down column 28 to row 30.
    let line_strip =
        [vpc(18.0, 26.5, 0.5, yellow), vpc(28.5, 26.5, 0.5, yellow), vpc(28.5, 31.0, 0.5, yellow)];
    for (vertices, kind, count) in [
        (&list[..], PrimitiveType::TriangleList, 2),
        (&strip[..], PrimitiveType::TriangleStrip, 2),
        (&lines[..], PrimitiveType::LineList, 2),
        (&line_strip[..], PrimitiveType::LineStrip, 2),
    ] {
        let vb = buffer(&device, vertices);
        device.set_vertex_buffer(Some(&vb)).unwrap();
        device.draw_primitives(kind, 0, count).unwrap();
    }
    let px = read_back_buffer(&device);
    let p = |x, y| at(&px, W, x, y);
    for (x, y) in [(2, 4), (9, 11), (5, 8), (9, 4), (2, 11)] {
        assert_eq!(p(x, y), red, "triangle list at {x},{y}");
    }
    for (x, y) in [(18, 3), (27, 8), (22, 5)] {
        assert_eq!(p(x, y), green, "strip at {x},{y}");
    }
    for x in [3, 8, 12] {
        assert_eq!(p(x, 20), blue, "first line at {x}");
        assert_eq!(p(x, 23), blue, "second line at {x}");
        assert_eq!(p(x, 21), CLEAR, "between the lines at {x}");
    }
    for x in [19, 24, 27] {
        assert_eq!(p(x, 26), yellow, "strip's first segment at {x}");
    }
    for y in [28, 29] {
        assert_eq!(p(28, y), yellow, "strip's second segment at row {y}");
    }
    for (x, y) in [(1, 4), (10, 8), (5, 12), (17, 5), (28, 5), (22, 9), (1, 20), (15, 20), (24, 25)]
    {
        assert_eq!(p(x, y), CLEAR, "outside every primitive at {x},{y}");
    }
}

#[test]
fn indexed_and_user_draws_place_the_vertices_they_name() {
    let _v = Validation::new();
    let (device, _effect) = setup();
    device.clear(CLEAR).unwrap();
    let colors = [
        Color::new(250, 10, 10, 255),
        Color::new(10, 250, 10, 255),
        Color::new(10, 10, 250, 255),
        Color::new(250, 250, 10, 255),
    ];
    // Four quads' corners in one buffer, after two padding vertices: quad i covers pixels
    // (4 + 7i)..(10 + 7i) × 2..8.
    let mut vertices = vec![vpc(0.0, 0.0, 0.5, Color::WHITE); 2];
    for (i, c) in colors.iter().enumerate() {
        let x = 4.0 + 7.0 * i as f32;
        vertices.extend([
            vpc(x, 2.0, 0.5, *c),
            vpc(x + 6.0, 2.0, 0.5, *c),
            vpc(x, 8.0, 0.5, *c),
            vpc(x + 6.0, 8.0, 0.5, *c),
        ]);
    }
    let vb = buffer(&device, &vertices);
    let ib =
        IndexBuffer::new(&device, IndexElementSize::SixteenBits, 12, BufferUsage::None).unwrap();
    // A list of two clockwise triangles per quad, then three spare indices.
    ib.set_data(&[0u16, 1, 2, 1, 3, 2, 9, 9, 9, 0, 1, 2]).unwrap();
    device.set_vertex_buffer_with_offset(&vb, 2).unwrap();
    device.set_indices(Some(&ib)).unwrap();
    // Quad 1 (base vertex 4 past the stream's offset), then quad 3 (base vertex 12).
    device.draw_indexed_primitives(PrimitiveType::TriangleList, 4, 0, 4, 0, 2).unwrap();
    device.draw_indexed_primitives(PrimitiveType::TriangleList, 12, 0, 4, 0, 2).unwrap();
    // Quad 0 from user vertices with user indices; quad 2 as a user strip.
    let user = &vertices[2..];
    device
        .draw_user_indexed_primitives(
            PrimitiveType::TriangleList,
            user,
            0,
            4,
            &[7u32, 0, 1, 2, 1, 3, 2],
            1,
            2,
        )
        .unwrap();
    device.draw_user_primitives(PrimitiveType::TriangleStrip, user, 8, 2).unwrap();
    let px = read_back_buffer(&device);
    for (i, c) in colors.iter().enumerate() {
        let x = 4 + 7 * i as i32;
        for (dx, dy) in [(0, 2), (5, 7), (3, 4)] {
            assert_eq!(at(&px, W, x + dx, dy), *c, "quad {i} at +{dx},{dy}");
        }
        assert_eq!(at(&px, W, x + 6, 5), CLEAR, "right of quad {i}");
        assert_eq!(at(&px, W, x + 2, 8), CLEAR, "below quad {i}");
    }
}

/// XNA's `numVertices` is a hint: a quad of 4 vertices drawn by 6 indices with `numVertices`
/// 6 (the index count, as ported games often pass) draws the quad.
#[test]
fn num_vertices_is_a_hint_not_a_bound() {
    let _v = Validation::new();
    let (device, _effect) = setup();
    device.clear(CLEAR).unwrap();
    let c = Color::new(40, 200, 120, 255);
    let corners = [vpc(5.0, 3.0, 0.5, c), vpc(13.0, 3.0, 0.5, c), vpc(5.0, 9.0, 0.5, c)];
    let vb = buffer(&device, &[corners[0], corners[1], corners[2], vpc(13.0, 9.0, 0.5, c)]);
    let ib =
        IndexBuffer::new(&device, IndexElementSize::SixteenBits, 6, BufferUsage::None).unwrap();
    ib.set_data(&[0u16, 1, 2, 1, 3, 2]).unwrap();
    device.set_vertex_buffer(Some(&vb)).unwrap();
    device.set_indices(Some(&ib)).unwrap();
    device.draw_indexed_primitives(PrimitiveType::TriangleList, 0, 0, 6, 0, 2).unwrap();
    let px = read_back_buffer(&device);
    for (x, y) in [(5, 3), (12, 8), (9, 5), (12, 3), (5, 8)] {
        assert_eq!(at(&px, W, x, y), c, "the quad at {x},{y}");
    }
    for (x, y) in [(4, 5), (13, 5), (9, 2), (9, 9)] {
        assert_eq!(at(&px, W, x, y), CLEAR, "outside the quad at {x},{y}");
    }
}

#[test]
fn culling_follows_the_rasterizer_state() {
    let _v = Validation::new();
    let (device, _effect) = setup();
    device.clear(CLEAR).unwrap();
    let c = Color::new(90, 180, 30, 255);
    // Counter-clockwise on screen: culled by the default CullCounterClockwiseFace.
    let ccw = |x0: f32| [vpc(x0, 4.0, 0.5, c), vpc(x0, 12.0, 0.5, c), vpc(x0 + 8.0, 4.0, 0.5, c)];
    device.draw_user_primitives(PrimitiveType::TriangleList, &ccw(2.0), 0, 1).unwrap();
    device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
    device.draw_user_primitives(PrimitiveType::TriangleList, &ccw(14.0), 0, 1).unwrap();
    device.set_rasterizer_state(RasterizerState::CULL_CLOCKWISE).unwrap();
    device.draw_user_primitives(PrimitiveType::TriangleList, &ccw(24.0), 0, 1).unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, W, 3, 5), CLEAR, "culled counter-clockwise");
    assert_eq!(at(&px, W, 15, 5), c, "drawn with CullNone");
    assert_eq!(at(&px, W, 25, 5), c, "drawn with CullClockwiseFace");
}

#[test]
fn depth_testing_keeps_the_nearest_whatever_the_order() {
    let _v = Validation::new();
    let (device, _effect) = setup();
    device.clear(CLEAR).unwrap();
    let near = Color::new(240, 120, 10, 255);
    let far = Color::new(10, 120, 240, 255);
    // Left: near then far; right: far then near. The quads overlap in x 8..12 (left) and
    // 24..28 (right).
    let draw = |x: f32, z: f32, c: Color| {
        device.draw_user_primitives(
            PrimitiveType::TriangleList,
            &quad(x, 4.0, x + 8.0, 20.0, z, c),
            0,
            2,
        )
    };
    draw(2.0, 0.25, near).unwrap();
    draw(8.0, 0.75, far).unwrap();
    draw(20.0, 0.75, far).unwrap();
    draw(16.0, 0.25, near).unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, W, 9, 10), near, "near drawn first wins the overlap");
    assert_eq!(at(&px, W, 21, 10), near, "near drawn second wins the overlap");
    assert_eq!(at(&px, W, 14, 10), far);
    assert_eq!(at(&px, W, 26, 10), far);
    assert_eq!(at(&px, W, 3, 10), near);

    // With the depth test off, the later draw covers the earlier one.
    device.set_depth_stencil_state(DepthStencilState::NONE).unwrap();
    draw(2.0, 0.75, far).unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, W, 3, 10), far, "no depth test: drawn over");
}

#[test]
fn the_stencil_masks_later_draws() {
    let _v = Validation::new();
    let (device, _effect) = setup();
    device.clear(CLEAR).unwrap();
    // Mark pixels 6..14 × 6..22 with stencil 3, writing no colour.
    let mark = DepthStencilState {
        depth_buffer_enable: false,
        stencil_enable: true,
        stencil_function: CompareFunction::Always,
        stencil_pass: StencilOperation::Replace,
        reference_stencil: 3,
        ..DepthStencilState::DEFAULT
    };
    device.set_depth_stencil_state(mark).unwrap();
    device
        .set_blend_state(BlendState {
            color_write_channels: ColorWriteChannels::NONE,
            ..BlendState::OPAQUE
        })
        .unwrap();
    let marked = quad(6.0, 6.0, 14.0, 22.0, 0.5, Color::WHITE);
    device.draw_user_primitives(PrimitiveType::TriangleList, &marked, 0, 2).unwrap();
    // Then draw everywhere where the stencil equals 3.
    let test = DepthStencilState {
        stencil_function: CompareFunction::Equal,
        stencil_pass: StencilOperation::Keep,
        ..mark
    };
    device.set_depth_stencil_state(test).unwrap();
    device.set_blend_state(BlendState::OPAQUE).unwrap();
    let paint = Color::new(200, 60, 220, 255);
    let all = quad(0.0, 0.0, 32.0, 32.0, 0.5, paint);
    device.draw_user_primitives(PrimitiveType::TriangleList, &all, 0, 2).unwrap();
    let px = read_back_buffer(&device);
    for (x, y) in [(6, 6), (13, 21), (9, 15)] {
        assert_eq!(at(&px, W, x, y), paint, "inside the mask at {x},{y}");
    }
    for (x, y) in [(5, 6), (14, 10), (9, 22), (25, 25), (1, 1)] {
        assert_eq!(at(&px, W, x, y), CLEAR, "outside the mask at {x},{y}");
    }
}

#[test]
fn a_set_data_after_a_draw_is_invisible_to_that_draw() {
    let _v = Validation::new();
    let (device, mut effect) = setup();
    device.clear(CLEAR).unwrap();
    let first = Color::new(220, 40, 40, 255);
    let second = Color::new(40, 220, 40, 255);
    let vb = buffer(&device, &quad(2.0, 4.0, 10.0, 12.0, 0.5, first));
    device.set_vertex_buffer(Some(&vb)).unwrap();
    device.draw_primitives(PrimitiveType::TriangleList, 0, 2).unwrap();
    vb.set_data(&quad(2.0, 4.0, 10.0, 12.0, 0.5, second)).unwrap();
    // The same buffer again, moved 16 pixels right by the world matrix.
    effect.world = xnagraph::Matrix::create_translation(1.0, 0.0, 0.0);
    effect.current_technique().passes()[0].apply().unwrap();
    device.draw_primitives(PrimitiveType::TriangleList, 0, 2).unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, W, 5, 7), first, "the draw before the SetData sees the old vertices");
    assert_eq!(at(&px, W, 21, 7), second, "the draw after it sees the new ones");
}

#[test]
fn a_discard_write_between_two_draws_renames_the_buffer() {
    let _v = Validation::new();
    let (device, mut effect) = setup();
    let colors =
        [Color::new(230, 50, 20, 255), Color::new(20, 60, 230, 255), Color::new(40, 230, 90, 255)];
    let vb = xnagraph::DynamicVertexBuffer::new(
        &device,
        &<VertexPositionColor as xnagraph::VertexType>::vertex_declaration(),
        6,
        BufferUsage::WriteOnly,
    )
    .unwrap();
    device.set_vertex_buffer(Some(&vb)).unwrap();
    // Three frames; in each, three draws of the buffer, each after a Discard rewrite, moved 10
    // pixels right per draw: every draw sees its own write, not a later one.
    for frame in 0..3 {
        device.clear(CLEAR).unwrap();
        for (i, c) in colors.iter().enumerate() {
            let c = Color::new(c.r, c.g, c.b.wrapping_add(frame * 5), 255);
            let data = quad(1.0, 4.0, 9.0, 12.0, 0.5, c);
            vb.set_data_with_options(0, &data, 0, 6, 0, xnagraph::SetDataOptions::Discard).unwrap();
            effect.world = xnagraph::Matrix::create_translation(0.625 * i as f32, 0.0, 0.0);
            effect.current_technique().passes()[0].apply().unwrap();
            device.draw_primitives(PrimitiveType::TriangleList, 0, 2).unwrap();
        }
        let px = read_back_buffer(&device);
        for (i, c) in colors.iter().enumerate() {
            let want = Color::new(c.r, c.g, c.b.wrapping_add(frame * 5), 255);
            assert_eq!(at(&px, W, 4 + 10 * i as i32, 8), want, "frame {frame}, draw {i}");
        }
    }
}

#[test]
fn material_texture_and_sampler_combine() {
    let _v = Validation::new();
    let (device, mut effect) = setup();
    device.clear(CLEAR).unwrap();
    let texels = [
        Color::new(255, 0, 0, 255),
        Color::new(0, 255, 0, 255),
        Color::new(0, 0, 255, 255),
        Color::WHITE,
    ];
    let texture = Texture2D::new(&device, 2, 2).unwrap();
    texture.set_data(&texels).unwrap();
    effect.texture_enabled = true;
    effect.vertex_color_enabled = true;
    effect.set_texture(Some(&texture));
    effect.diffuse_color = Vector3::new(0.5, 1.0, 1.0);
    effect.current_technique().passes()[0].apply().unwrap();
    device.set_sampler_state(0, SamplerState::POINT_CLAMP).unwrap();
    let tint = Color::new(255, 255, 128, 255);
    let v = |x: f32, y: f32, u: f32, t: f32| VertexPositionColorTexture {
        position: clip(x, y, 0.5),
        color: tint,
        texture_coordinate: Vector2::new(u, t),
    };
    let (tl, tr, bl, br) = (
        v(4.0, 4.0, 0.0, 0.0),
        v(20.0, 4.0, 1.0, 0.0),
        v(4.0, 20.0, 0.0, 1.0),
        v(20.0, 20.0, 1.0, 1.0),
    );
    device
        .draw_user_primitives(PrimitiveType::TriangleList, &[tl, tr, bl, tr, br, bl], 0, 2)
        .unwrap();
    let px = read_back_buffer(&device);
    // texel × diffuse (0.5, 1, 1) × vertex colour (1, 1, 128/255).
    let want = |t: Color| {
        let b = f32::from(t.b) * (128.0 / 255.0);
        Color::new((f32::from(t.r) * 0.5).round() as u8, t.g, b.round() as u8, 255)
    };
    for (x, y, texel) in
        [(6, 6, texels[0]), (18, 6, texels[1]), (6, 18, texels[2]), (18, 18, texels[3])]
    {
        assert_near(at(&px, W, x, y), want(texel), 1);
    }

    // Alpha premultiplies, and the position-and-texture-only vertex type works untinted.
    effect.alpha = 0.5;
    effect.vertex_color_enabled = false;
    effect.diffuse_color = Vector3::new(1.0, 1.0, 1.0);
    effect.current_technique().passes()[0].apply().unwrap();
    device.set_blend_state(BlendState::ALPHA_BLEND).unwrap();
    let t = |x: f32, y: f32, u: f32, v: f32| VertexPositionTexture {
        position: clip(x, y, 0.25),
        texture_coordinate: Vector2::new(u, v),
    };
    let (tl, tr, bl, br) = (
        t(24.0, 24.0, 0.0, 0.0),
        t(30.0, 24.0, 0.4, 0.0),
        t(24.0, 30.0, 0.0, 0.4),
        t(30.0, 30.0, 0.4, 0.4),
    );
    device
        .draw_user_primitives(PrimitiveType::TriangleList, &[tl, tr, bl, tr, br, bl], 0, 2)
        .unwrap();
    let px = read_back_buffer(&device);
    // Red texel × 0.5 over CLEAR × (1 - 0.5).
    let blend = |s: f32, d: u8| (s * 0.5 * 255.0 + f32::from(d) * 0.5).round() as u8;
    assert_near(
        at(&px, W, 26, 26),
        Color::new(blend(1.0, CLEAR.r), blend(0.0, CLEAR.g), blend(0.0, CLEAR.b), 255),
        1,
    );
}

#[test]
fn pipelines_are_built_once_per_state_combination() {
    let _v = Validation::new();
    let (device, mut effect) = setup();
    let pipelines = || device.live_native_objects().unwrap().pipelines;
    let tri = quad(2.0, 2.0, 10.0, 10.0, 0.5, Color::RED);
    device.clear(CLEAR).unwrap();
    device.draw_user_primitives(PrimitiveType::TriangleList, &tri, 0, 2).unwrap();
    read_back_buffer(&device);
    let first = pipelines();
    assert!(first >= 1);
    // Many draws over several frames: new transforms, materials, reference stencils and blend
    // factors select no new pipeline.
    for frame in 0..3 {
        for i in 0..10 {
            effect.world = xnagraph::Matrix::create_translation(0.01 * i as f32, 0.0, 0.0);
            effect.alpha = 0.5 + 0.05 * i as f32;
            effect.current_technique().passes()[0].apply().unwrap();
            let ds = DepthStencilState { reference_stencil: i, ..DepthStencilState::DEFAULT };
            device.set_depth_stencil_state(ds).unwrap();
            let blend = BlendState { blend_factor: [i as u8, 0, 0, 255], ..BlendState::OPAQUE };
            device.set_blend_state(blend).unwrap();
            device.draw_user_primitives(PrimitiveType::TriangleList, &tri, 0, 2).unwrap();
        }
        read_back_buffer(&device);
        assert_eq!(pipelines(), first, "frame {frame}");
    }
    // Another topology is another pipeline, once.
    for _ in 0..5 {
        device.draw_user_primitives(PrimitiveType::LineList, &tri, 0, 3).unwrap();
    }
    read_back_buffer(&device);
    assert_eq!(pipelines(), first + 1);
}

fn out_of_range(r: xnagraph::Result<()>, param: &str) {
    match r {
        Err(XnaError::ArgumentOutOfRange { param: p, .. }) => assert_eq!(p, param),
        other => panic!("expected ArgumentOutOfRange({param}), got {other:?}"),
    }
}

fn invalid(r: xnagraph::Result<()>, says: &str) {
    match r {
        Err(XnaError::InvalidOperation { message }) => assert!(message.contains(says), "{message}"),
        other => panic!("expected InvalidOperation ({says}), got {other:?}"),
    }
}

#[test]
fn bad_arguments_get_xnas_errors() {
    let _v = Validation::new();
    let mut p = params(W, H);
    p.depth_stencil_format = DepthFormat::Depth24Stencil8;
    let device = device_with(xnagraph::GraphicsProfile::HiDef, p);
    let tri = quad(2.0, 2.0, 8.0, 8.0, 0.5, Color::RED);
    let list = PrimitiveType::TriangleList;

    // Nothing bound, nothing applied.
    invalid(device.draw_primitives(list, 0, 1), "vertex buffer");
    let vb = buffer(&device, &tri);
    device.set_vertex_buffer(Some(&vb)).unwrap();
    invalid(device.draw_primitives(list, 0, 1), "EffectPass.Apply");
    invalid(device.draw_user_primitives(list, &tri, 0, 1), "EffectPass.Apply");
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.vertex_color_enabled = true;
    effect.current_technique().passes()[0].apply().unwrap();
    invalid(device.draw_indexed_primitives(list, 0, 0, 3, 0, 1), "index buffer");

    // DrawPrimitives' counts.
    out_of_range(device.draw_primitives(list, 0, 0), "primitiveCount");
    out_of_range(device.draw_primitives(list, 0, -1), "primitiveCount");
    out_of_range(device.draw_primitives(list, -1, 1), "startVertex");
    out_of_range(device.draw_primitives(list, 0, 3), "primitiveCount");
    out_of_range(device.draw_primitives(list, 4, 1), "primitiveCount");
    out_of_range(device.draw_primitives(PrimitiveType::TriangleStrip, 0, 5), "primitiveCount");
    device.draw_primitives(PrimitiveType::LineStrip, 0, 5).unwrap();
    out_of_range(device.draw_primitives(PrimitiveType::LineStrip, 0, 6), "primitiveCount");

    // DrawIndexedPrimitives'.
    let ib =
        IndexBuffer::new(&device, IndexElementSize::SixteenBits, 6, BufferUsage::None).unwrap();
    ib.set_data(&[0u16, 1, 2, 3, 4, 5]).unwrap();
    device.set_indices(Some(&ib)).unwrap();
    device.draw_indexed_primitives(list, 0, 0, 6, 0, 2).unwrap();
    out_of_range(device.draw_indexed_primitives(list, 0, 0, 6, 1, 2), "primitiveCount");
    out_of_range(device.draw_indexed_primitives(list, 0, 0, 0, 0, 1), "numVertices");
    // numVertices is a hint: a span past the buffer's end draws; a first vertex outside the
    // buffer does not.
    device.draw_indexed_primitives(list, 1, 0, 6, 0, 1).unwrap();
    device.draw_indexed_primitives(list, 0, 2, 9, 0, 1).unwrap();
    out_of_range(device.draw_indexed_primitives(list, -1, 0, 6, 0, 1), "baseVertex");
    out_of_range(device.draw_indexed_primitives(list, 6, 0, 6, 0, 1), "baseVertex");
    out_of_range(device.draw_indexed_primitives(list, 0, 6, 1, 0, 1), "baseVertex");
    out_of_range(device.draw_indexed_primitives(list, 0, -1, 6, 0, 1), "minVertexIndex");
    out_of_range(device.draw_indexed_primitives(list, 0, 0, 6, -1, 1), "startIndex");
    out_of_range(device.draw_indexed_primitives(list, 0, 0, 6, 0, 0), "primitiveCount");

    // DrawUserPrimitives'.
    let none: [xnagraph::VertexPositionColor; 0] = [];
    assert_eq!(
        device.draw_user_primitives(list, &none, 0, 1),
        Err(XnaError::ArgumentNull { param: "vertexData" })
    );
    out_of_range(device.draw_user_primitives(list, &tri, -1, 1), "vertexOffset");
    out_of_range(device.draw_user_primitives(list, &tri, 6, 1), "vertexOffset");
    out_of_range(device.draw_user_primitives(list, &tri, 4, 1), "primitiveCount");
    out_of_range(device.draw_user_primitives(list, &tri, 0, 0), "primitiveCount");

    // DrawUserIndexedPrimitives'.
    let ix = [0u16, 1, 2];
    let no_ix: [u16; 0] = [];
    assert_eq!(
        device.draw_user_indexed_primitives(list, &tri, 0, 3, &no_ix, 0, 1),
        Err(XnaError::ArgumentNull { param: "indexData" })
    );
    assert_eq!(
        device.draw_user_indexed_primitives(list, &none, 0, 3, &ix, 0, 1),
        Err(XnaError::ArgumentNull { param: "vertexData" })
    );
    out_of_range(device.draw_user_indexed_primitives(list, &tri, 0, 0, &ix, 0, 1), "numVertices");
    out_of_range(device.draw_user_indexed_primitives(list, &tri, 4, 3, &ix, 0, 1), "vertexOffset");
    out_of_range(device.draw_user_indexed_primitives(list, &tri, -1, 3, &ix, 0, 1), "vertexOffset");
    out_of_range(
        device.draw_user_indexed_primitives(list, &tri, 0, 3, &ix, 1, 1),
        "primitiveCount",
    );
    out_of_range(device.draw_user_indexed_primitives(list, &tri, 0, 2, &ix, 0, 1), "indexData");

    // The declaration must have what the effect reads.
    effect.texture_enabled = true;
    invalid(effect.current_technique().passes()[0].apply(), "Texture is null");
    let texture = Texture2D::new(&device, 1, 1).unwrap();
    effect.set_texture(Some(&texture));
    effect.current_technique().passes()[0].apply().unwrap();
    invalid(device.draw_primitives(list, 0, 1), "TextureCoordinate0 is missing");
    effect.texture_enabled = false;
    effect.current_technique().passes()[0].apply().unwrap();
    let plain = [VertexPositionTexture {
        position: clip(1.0, 1.0, 0.5),
        texture_coordinate: Vector2::ZERO,
    }; 3];
    invalid(device.draw_user_primitives(list, &plain, 0, 1), "Color0 is missing");

    // The state setters.
    assert!(matches!(
        device.set_sampler_state(xnagraph::SAMPLER_SLOTS, SamplerState::POINT_CLAMP),
        Err(XnaError::ArgumentOutOfRange { param: "index", .. })
    ));
    assert!(device.sampler_state(xnagraph::SAMPLER_SLOTS).is_err());
    let bias =
        RasterizerState { depth_bias_bits: f32::NAN.to_bits(), ..RasterizerState::CULL_NONE };
    assert!(matches!(device.set_rasterizer_state(bias), Err(XnaError::Argument { .. })));
    out_of_range(
        device.set_vertex_buffers(&[xnagraph::VertexBufferBinding {
            buffer: &vb,
            vertex_offset: 6,
            instance_frequency: 0,
        }]),
        "vertexOffset",
    );
    out_of_range(
        device.set_vertex_buffers(&[xnagraph::VertexBufferBinding {
            buffer: &vb,
            vertex_offset: -1,
            instance_frequency: 0,
        }]),
        "vertexOffset",
    );
    out_of_range(
        device.set_vertex_buffers(&[xnagraph::VertexBufferBinding {
            buffer: &vb,
            vertex_offset: 0,
            instance_frequency: -1,
        }]),
        "instanceFrequency",
    );
    let many: Vec<_> = (0..17).map(|_| xnagraph::VertexBufferBinding::new(&vb)).collect();
    assert!(matches!(
        device.set_vertex_buffers(&many),
        Err(XnaError::Argument { param: "vertexBuffers", .. })
    ));
    // A disposed buffer.
    let gone = buffer(&device, &tri);
    gone.dispose();
    assert!(matches!(device.set_vertex_buffer(Some(&gone)), Err(XnaError::ObjectDisposed { .. })));
    // Unbinding makes the draw refuse again; nothing was drawn by any refused call.
    device.set_vertex_buffer(None).unwrap();
    assert_eq!(device.vertex_buffer_count(), 0);
    invalid(device.draw_primitives(list, 0, 1), "vertex buffer");
}

#[test]
fn reach_limits_the_primitives_of_one_draw() {
    let _v = Validation::new();
    let device = device_with(xnagraph::GraphicsProfile::Reach, params(8, 8));
    let effect = BasicEffect::new(&device).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    let v = vec![VertexPositionColor::default(); 65_537];
    assert!(matches!(
        device.draw_user_primitives(PrimitiveType::LineStrip, &v, 0, 65_536),
        Err(XnaError::NotSupported { .. })
    ));
}
