//! Automatic instancing (`DeviceOptions::auto_instancing`): a frame drawn XNA's way — per cube,
//! set World and DiffuseColor, apply, DrawIndexedPrimitives — gives the same pixels whether the
//! compiler merges each run of such draws into one instanced draw or not, and the plan issues one
//! draw per run when it merges. Three runs exercise the instanced stages: unlit (exact colours
//! checked), lit per vertex by the default rig, and lit per pixel with fog and a texture.

mod common;

use common::*;
use xnagraph::{
    BasicEffect, BlendState, BufferUsage, Color, DepthFormat, DepthStencilState, DeviceOptions,
    GraphicsDevice, GraphicsProfile, IndexBuffer, IndexElementSize, Matrix, PrimitiveType,
    RasterizerState, Rectangle, SamplerState, Texture2D, Vector2, Vector3, VertexBuffer,
    VertexPositionNormalTexture, Viewport, XnaError,
};

const W: i32 = 64;
const H: i32 = 48;

/// A unit cube centred on the origin: four vertices and two triangles per face.
fn cube(device: &GraphicsDevice) -> (VertexBuffer, IndexBuffer) {
    let axes = [Vector3::UNIT_X, Vector3::UNIT_Y, Vector3::UNIT_Z];
    let mut vertices = Vec::new();
    let mut indices: Vec<u16> = Vec::new();
    for (i, axis) in axes.iter().enumerate() {
        let (u, v) = (axes[(i + 1) % 3], axes[(i + 2) % 3]);
        for sign in [1.0, -1.0] {
            let n = *axis * sign;
            let base = vertices.len() as u16;
            for (a, b) in [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)] {
                vertices.push(VertexPositionNormalTexture {
                    position: n * 0.5 + u * a + v * b,
                    normal: n,
                    texture_coordinate: Vector2::new(a + 0.5, b + 0.5),
                });
            }
            indices.extend([0, 1, 2, 1, 3, 2].map(|k| base + k));
        }
    }
    let vb = VertexBuffer::with_type::<VertexPositionNormalTexture>(
        device,
        vertices.len() as i32,
        BufferUsage::WriteOnly,
    )
    .unwrap();
    vb.set_data(&vertices).unwrap();
    let ib = IndexBuffer::new(device, IndexElementSize::SixteenBits, 36, BufferUsage::WriteOnly)
        .unwrap();
    ib.set_data(&indices).unwrap();
    (vb, ib)
}

/// The colours of the unlit run, left to right.
const UNLIT: [Color; 4] = [
    Color::new(255, 0, 0, 255),
    Color::new(0, 255, 0, 255),
    Color::new(0, 0, 255, 255),
    Color::new(255, 255, 0, 255),
];

/// The start of each test's frame: the cube bound, culling off, the clear drawn, and a
/// BasicEffect looking down -z from (0, 0, 20) through an orthographic projection of one unit
/// per pixel. The buffers are returned to live as long as the frame's draws.
fn begin_frame(device: &GraphicsDevice) -> (VertexBuffer, IndexBuffer, BasicEffect) {
    let (vb, ib) = cube(device);
    device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
    device.clear(Color::new(10, 20, 30, 255)).unwrap();
    device.set_vertex_buffer(Some(&vb)).unwrap();
    device.set_indices(Some(&ib)).unwrap();
    let mut effect = BasicEffect::new(device).unwrap();
    effect.view =
        Matrix::create_look_at(Vector3::new(0.0, 0.0, 20.0), Vector3::ZERO, Vector3::UNIT_Y);
    effect.projection = Matrix::create_orthographic(W as f32, H as f32, 1.0, 100.0);
    (vb, ib, effect)
}

/// Records and reads back one frame of three runs of four cubes each.
fn frame(device: &GraphicsDevice) -> Vec<Color> {
    let checker = Texture2D::new(device, 2, 2).unwrap();
    checker
        .set_data(&[
            Color::WHITE,
            Color::new(255, 128, 0, 255),
            Color::new(0, 128, 255, 255),
            Color::WHITE,
        ])
        .unwrap();
    let (_vb, _ib, mut effect) = begin_frame(device);
    let draw = |effect: &BasicEffect| {
        effect.current_technique().passes()[0].apply().unwrap();
        device.draw_indexed_primitives(PrimitiveType::TriangleList, 0, 0, 24, 0, 12).unwrap();
    };
    // Unlit, axis-aligned: each cube's front face is a 9×9 square of its colour.
    for (i, c) in UNLIT.iter().enumerate() {
        effect.world = Matrix::create_scale(9.0, 9.0, 9.0)
            * Matrix::create_translation(-21.0 + 14.0 * i as f32, 14.0, 0.0);
        effect.diffuse_color = c.to_vector3();
        draw(&effect);
    }
    // Lit per vertex by the default rig, each cube turned its own way.
    effect.enable_default_lighting();
    for i in 0..4 {
        let a = 0.4 + 0.35 * i as f32;
        effect.world = Matrix::create_scale(9.0, 9.0, 9.0)
            * Matrix::create_rotation_y(a)
            * Matrix::create_rotation_x(0.5 * a)
            * Matrix::create_translation(-21.0 + 14.0 * i as f32, 0.0, 0.0);
        effect.diffuse_color = Vector3::new(0.3 + 0.2 * i as f32, 0.8 - 0.15 * i as f32, 0.5);
        draw(&effect);
    }
    // Lit per pixel, fogged by depth, textured.
    effect.prefer_per_pixel_lighting = true;
    effect.fog_enabled = true;
    effect.fog_color = Vector3::new(0.2, 0.1, 0.4);
    (effect.fog_start, effect.fog_end) = (15.0, 25.0);
    effect.texture_enabled = true;
    effect.set_texture(Some(&checker));
    for i in 0..4 {
        let a = 0.3 + 0.5 * i as f32;
        effect.world = Matrix::create_scale(9.0, 9.0, 9.0)
            * Matrix::create_rotation_x(a)
            * Matrix::create_rotation_y(0.7 * a)
            * Matrix::create_translation(-21.0 + 14.0 * i as f32, -14.0, -2.0 * i as f32);
        effect.specular_power = 8.0 + 8.0 * i as f32;
        draw(&effect);
    }
    read_back_buffer(device)
}

/// How many pixels of two frames of the same size differ.
fn differing(frame: &[Color], reference: &[Color]) -> usize {
    frame.iter().zip(reference).filter(|(a, b)| a != b).count()
}

fn device(auto_instancing: bool) -> GraphicsDevice {
    let mut p = params(W, H);
    p.depth_stencil_format = DepthFormat::Depth24;
    let options = DeviceOptions { auto_instancing, ..test_options() };
    device_with_options(GraphicsProfile::HiDef, p, options)
}

#[test]
fn merged_runs_draw_the_pixels_of_the_draws_they_merge() {
    let _v = Validation::new();
    let merged = device(true);
    let pixels = frame(&merged);
    let cost = merged.last_plan_cost().unwrap();
    let separate = device(false);
    let reference = frame(&separate);
    // One draw per run merged; one per cube otherwise.
    assert_eq!(cost.draws, 3);
    assert_eq!(separate.last_plan_cost().unwrap().draws, 12);
    // Each unlit cube its own colour, off-centre in its face.
    for (i, c) in UNLIT.iter().enumerate() {
        let x = W / 2 - 21 + 14 * i as i32 + 2;
        assert_eq!(at(&pixels, W, x, H / 2 - 14 - 3), *c, "cube {i}");
    }
    // The lit and fogged cubes differ from each other and from the clear.
    let lit: Vec<Color> = (0..4).map(|i| at(&pixels, W, W / 2 - 21 + 14 * i + 1, H / 2)).collect();
    for (i, c) in lit.iter().enumerate() {
        assert_ne!(*c, Color::new(10, 20, 30, 255), "lit cube {i} drawn");
        assert!(lit[i + 1..].iter().all(|d| d != c), "lit cubes {lit:?}");
    }
    assert_eq!(
        differing(&pixels, &reference),
        0,
        "pixels differ between merged and separate draws"
    );
}

/// A run's lights, eye position and fog colour are one uniform block for all its instances
/// (what XNA sets per object, World and the material colours, is each instance's own): a draw
/// that changes a light, or the view, starts a new run, and every cube keeps its own lighting.
#[test]
fn a_draw_that_changes_a_light_or_the_view_starts_a_new_run() {
    let _v = Validation::new();
    let draw_frame = |device: &GraphicsDevice, red_light: bool| {
        let (_vb, _ib, mut effect) = begin_frame(device);
        effect.enable_default_lighting();
        let eye = |x: f32| {
            Matrix::create_look_at(Vector3::new(x, 0.0, 20.0), Vector3::ZERO, Vector3::UNIT_Y)
        };
        effect.view = eye(0.0);
        for i in 0..6 {
            if i == 2 && red_light {
                // A redder key light for cubes 2 and 3.
                effect.directional_light0.diffuse_color = Vector3::new(1.0, 0.2, 0.1);
            }
            if i == 4 {
                // The eye moves for cubes 4 and 5 (their transform moves with it).
                effect.view = eye(3.0);
            }
            let a = 0.4 + 0.3 * i as f32;
            effect.world = Matrix::create_scale(7.0, 7.0, 7.0)
                * Matrix::create_rotation_y(a)
                * Matrix::create_rotation_x(0.5 * a)
                * Matrix::create_translation(-25.0 + 10.0 * i as f32, 3.0, 0.0);
            effect.diffuse_color = Vector3::new(0.8, 0.7 - 0.1 * i as f32, 0.5);
            effect.current_technique().passes()[0].apply().unwrap();
            device.draw_indexed_primitives(PrimitiveType::TriangleList, 0, 0, 24, 0, 12).unwrap();
        }
        read_back_buffer(device)
    };
    let merged = device(true);
    let pixels = draw_frame(&merged, true);
    assert_eq!(merged.last_plan_cost().unwrap().draws, 3, "one draw per pair of cubes");
    let separate = device(false);
    let reference = draw_frame(&separate, true);
    assert_eq!(separate.last_plan_cost().unwrap().draws, 6);
    // The redder light shows: cube 2 is less green and less blue than under the rig's key light
    // (whose red is already full).
    let rig = draw_frame(&device(true), false);
    let sums = |pixels: &[Color], channel: fn(&Color) -> u8| {
        let x0 = W / 2 - 25 + 10 * 2 - 4;
        let region = (0..H).flat_map(|y| (x0..x0 + 18).map(move |x| (x, y)));
        region.map(|(x, y)| u32::from(channel(&at(pixels, W, x, y)))).sum::<u32>()
    };
    let (green, blue) = (|c: &Color| c.g, |c: &Color| c.b);
    assert!(sums(&pixels, green) + 500 < sums(&rig, green), "less green");
    assert!(sums(&pixels, blue) + 500 < sums(&rig, blue), "less blue");
    assert_eq!(
        differing(&pixels, &reference),
        0,
        "pixels differ between merged and separate draws"
    );
}

/// A draw of a merged run is drawn with the View and Projection of its own `Apply`: cubes 2 and
/// 3 follow an `Apply` of a zoomed projection that drew nothing, then each changes only its
/// World, so the recording keeps their values to be derived later. They must be derived with
/// the zoomed projection, not the one of cubes 0 and 1 before them.
#[test]
fn merged_draws_keep_the_projection_of_their_own_apply() {
    let _v = Validation::new();
    let draw_frame = |device: &GraphicsDevice| {
        let (_vb, _ib, mut effect) = begin_frame(device);
        let place = |effect: &mut BasicEffect, i: usize| {
            effect.world = Matrix::create_scale(6.0, 6.0, 6.0)
                * Matrix::create_translation(-15.0 + 10.0 * i as f32, 5.0 - 3.0 * i as f32, 0.0);
            effect.diffuse_color = UNLIT[i].to_vector3();
        };
        for i in 0..4 {
            if i == 2 {
                // Zoomed out by half, applied with no draw of its own.
                effect.projection =
                    Matrix::create_orthographic(2.0 * W as f32, 2.0 * H as f32, 1.0, 100.0);
                effect.current_technique().passes()[0].apply().unwrap();
            }
            place(&mut effect, i);
            effect.current_technique().passes()[0].apply().unwrap();
            device.draw_indexed_primitives(PrimitiveType::TriangleList, 0, 0, 24, 0, 12).unwrap();
        }
        read_back_buffer(device)
    };
    let merged = device(true);
    let pixels = draw_frame(&merged);
    // Two runs recorded (one per projection); the compiler merges them into one draw, as their
    // transforms are each instance's own.
    assert_eq!(merged.last_plan_cost().unwrap().draws, 1, "the four cubes in one draw");
    let reference = draw_frame(&device(false));
    assert_eq!(
        differing(&pixels, &reference),
        0,
        "pixels differ between merged and separate draws"
    );
    // Cube 3 at (15, -4) under the zoomed projection: at (7.5, -2) in back-buffer units from
    // the centre, 3 pixels wide; not at its unzoomed place.
    let (cx, cy) = (W / 2, H / 2);
    assert_eq!(at(&pixels, W, cx + 7, cy + 2), UNLIT[3], "cube 3 where the zoomed view puts it");
    assert_eq!(at(&pixels, W, cx + 15, cy + 4), Color::new(10, 20, 30, 255), "not unzoomed");
}

/// A state set between two draws ends the run the recording was growing, though each `Apply`
/// changes only World and the colour: with each state a draw is recorded with set after cube 1
/// (blend, depth/stencil, rasterizer, sampler, viewport, scissor rectangle), the frame has two
/// draws, and its pixels are those of the draws unmerged. The frame starts with the scissor
/// test on and a rectangle that leaves out cubes 2 and 3, so the rasterizer and scissor changes
/// show.
#[test]
fn a_state_set_between_two_draws_ends_the_run() {
    let _v = Validation::new();
    let scissored = RasterizerState { scissor_test_enable: true, ..RasterizerState::CULL_NONE };
    type Change = fn(&GraphicsDevice);
    let changes: [(&str, Change); 6] = [
        ("blend", |d| d.set_blend_state(BlendState::ADDITIVE).unwrap()),
        ("depth/stencil", |d| d.set_depth_stencil_state(DepthStencilState::NONE).unwrap()),
        ("rasterizer", |d| d.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap()),
        ("sampler", |d| d.set_sampler_state(0, SamplerState::POINT_CLAMP).unwrap()),
        ("viewport", |d| d.set_viewport(Viewport::new(6, 4, W - 12, H - 8)).unwrap()),
        ("scissor", |d| d.set_scissor_rectangle(Rectangle::new(0, 0, W, H)).unwrap()),
    ];
    for (name, change) in changes {
        let draw_frame = |device: &GraphicsDevice| {
            let (_vb, _ib, mut effect) = begin_frame(device);
            device.set_rasterizer_state(scissored).unwrap();
            device.set_scissor_rectangle(Rectangle::new(0, 0, W / 2, H)).unwrap();
            for (i, c) in UNLIT.iter().enumerate() {
                if i == 2 {
                    change(device);
                }
                effect.world = Matrix::create_scale(8.0, 8.0, 8.0)
                    * Matrix::create_translation(-21.0 + 14.0 * i as f32, 5.0, 0.0);
                effect.diffuse_color = c.to_vector3();
                effect.current_technique().passes()[0].apply().unwrap();
                device
                    .draw_indexed_primitives(PrimitiveType::TriangleList, 0, 0, 24, 0, 12)
                    .unwrap();
            }
            read_back_buffer(device)
        };
        let merged = device(true);
        let pixels = draw_frame(&merged);
        assert_eq!(merged.last_plan_cost().unwrap().draws, 2, "{name}: a draw per run");
        let reference = draw_frame(&device(false));
        let different = differing(&pixels, &reference);
        assert_eq!(different, 0, "{name}: pixels differ between merged and separate draws");
    }
}

/// A draw that would repeat the last one still checks the buffers it reads: with the bound
/// vertex buffer disposed after cube 1 (nothing else changed, and the `Apply` between changes
/// only World), the next draw is XNA's `ObjectDisposed` and records nothing.
#[test]
fn a_repeat_of_a_disposed_buffer_is_refused() {
    let _v = Validation::new();
    let device = device(true);
    let (vb, _ib, mut effect) = begin_frame(&device);
    let draw = |effect: &mut BasicEffect, i: usize| {
        effect.world = Matrix::create_scale(8.0, 8.0, 8.0)
            * Matrix::create_translation(-21.0 + 14.0 * i as f32, 5.0, 0.0);
        effect.diffuse_color = UNLIT[i].to_vector3();
        effect.current_technique().passes()[0].apply().unwrap();
        device.draw_indexed_primitives(PrimitiveType::TriangleList, 0, 0, 24, 0, 12)
    };
    draw(&mut effect, 0).unwrap();
    draw(&mut effect, 1).unwrap();
    vb.dispose();
    let refused = draw(&mut effect, 2);
    assert!(
        matches!(refused, Err(XnaError::ObjectDisposed { object: "VertexBuffer" })),
        "{refused:?}"
    );
    let pixels = read_back_buffer(&device);
    assert_eq!(device.last_plan_cost().unwrap().draws, 1, "cubes 0 and 1, merged");
    let y = H / 2 - 5;
    assert_eq!(at(&pixels, W, W / 2 - 21 + 2, y), UNLIT[0], "cube 0");
    assert_eq!(at(&pixels, W, W / 2 - 7 + 2, y), UNLIT[1], "cube 1");
    assert_eq!(at(&pixels, W, W / 2 + 7 + 2, y), Color::new(10, 20, 30, 255), "no cube 2");
}
