//! SkinnedEffect read back and compared with a CPU model of XNA's shader: each vertex moved by
//! the weighted sum of its first `WeightsPerVertex` bones (translations and rotations, the
//! weights not renormalised), its normal turned by the same sum before lighting, then
//! BasicEffect's lighting of a textured surface; and XNA's errors (WeightsPerVertex outside
//! 1, 2, 4, more than 72 bones, a bone count outside 1..=72, a vertex declaration without
//! BlendIndices0 or BlendWeight0, no texture, lighting turned off).

mod common;

use common::*;
use xnagraph::{
    Color, DirectionalLight, GraphicsDevice, GraphicsProfile, Matrix, PrimitiveType, SkinnedEffect,
    Vector2, Vector3, VertexDeclaration, VertexElement, VertexElementFormat, VertexElementUsage,
    VertexPositionNormalTexture, VertexType, XnaError,
};

const W: i32 = 40;
const H: i32 = 40;
const CLEAR: Color = Color::new(7, 11, 13, 255);
const TEXEL: Color = Color::new(200, 150, 90, 255);

/// XNA's skinned vertex: position, normal, texture coordinate, bone indices (Byte4) and
/// weights (Vector4).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct SkinnedVertex {
    position: Vector3,
    normal: Vector3,
    texture_coordinate: Vector2,
    indices: [u8; 4],
    weights: [f32; 4],
}

impl VertexType for SkinnedVertex {
    fn vertex_declaration() -> VertexDeclaration {
        let el = |offset, format, usage| VertexElement::new(offset, format, usage, 0);
        VertexDeclaration::new(&[
            el(0, VertexElementFormat::Vector3, VertexElementUsage::Position),
            el(12, VertexElementFormat::Vector3, VertexElementUsage::Normal),
            el(24, VertexElementFormat::Vector2, VertexElementUsage::TextureCoordinate),
            el(32, VertexElementFormat::Byte4, VertexElementUsage::BlendIndices),
            el(36, VertexElementFormat::Vector4, VertexElementUsage::BlendWeight),
        ])
        .unwrap()
    }
}

/// A device and an effect looking through an orthographic camera at (0, 0, 5) down −z (world
/// x, y in [−1, 1] fill the back buffer), textured by one texel, lit by one white light
/// shining straight at the screen, without specular.
fn setup() -> (GraphicsDevice, SkinnedEffect) {
    let device = device_with(GraphicsProfile::HiDef, params(W, H));
    let mut effect = SkinnedEffect::new(&device).unwrap();
    effect.view =
        Matrix::create_look_at(Vector3::new(0.0, 0.0, 5.0), Vector3::ZERO, Vector3::UNIT_Y);
    effect.projection = Matrix::create_orthographic(2.0, 2.0, 0.1, 100.0);
    effect.diffuse_color = Vector3::new(0.9, 0.8, 0.7);
    effect.emissive_color = Vector3::new(0.05, 0.1, 0.0);
    effect.specular_color = Vector3::ZERO;
    effect.directional_light0 = DirectionalLight {
        enabled: true,
        direction: Vector3::new(0.0, 0.0, -1.0),
        diffuse_color: Vector3::ONE,
        specular_color: Vector3::ZERO,
    };
    effect.set_texture(Some(&solid(&device, 1, 1, TEXEL)));
    device.clear(CLEAR).unwrap();
    (device, effect)
}

/// A quad ±`half` at z = 0 facing +z, corners TL, TR, BL, BR, each with its bones and weights.
fn quad(half: f32, bones: [([u8; 4], [f32; 4]); 4]) -> Vec<SkinnedVertex> {
    let at = [(-half, half), (half, half), (-half, -half), (half, -half)];
    let v = |i: usize| SkinnedVertex {
        position: Vector3::new(at[i].0, at[i].1, 0.0),
        normal: Vector3::UNIT_Z,
        texture_coordinate: Vector2::ZERO,
        indices: bones[i].0,
        weights: bones[i].1,
    };
    // Two clockwise triangles: TL TR BL, TR BR BL.
    vec![v(0), v(1), v(2), v(1), v(3), v(2)]
}

/// XNA's Skin(): the sum of the first `count` bones by their weights, applied to the position
/// (w = 1) and the normal.
fn skin(e: &SkinnedEffect, v: &SkinnedVertex, count: usize) -> (Vector3, Vector3) {
    let bones = e.get_bone_transforms(72).unwrap();
    let (mut p, mut n) = (Vector3::ZERO, Vector3::ZERO);
    for i in 0..count {
        let (m, w) = (&bones[v.indices[i] as usize], v.weights[i]);
        p += v.position.transform(m) * w;
        n += v.normal.transform_normal(m) * w;
    }
    (p, n)
}

/// The lit colour of a surface of world normal `n`: light 0 by N·L, ambient and emissive,
/// times the texel.
fn lit(e: &SkinnedEffect, n: Vector3) -> Color {
    let n = n.transform_normal(&e.world.invert().transpose()).normalize();
    let l = e.directional_light0;
    let dot_l = (-l.direction).dot(n).max(0.0);
    let d = e.diffuse_color;
    let rgb = l.diffuse_color * d * dot_l + e.emissive_color + e.ambient_light_color * d;
    let [r, g, b, _] = TEXEL.to_floats();
    let c = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    Color::new(c(rgb.x * r), c(rgb.y * g), c(rgb.z * b), 255)
}

/// Where pixel (x, y)'s centre is, in world x, y.
fn pixel_point(x: i32, y: i32) -> (f32, f32) {
    ((x as f32 + 0.5) / W as f32 * 2.0 - 1.0, 1.0 - (y as f32 + 0.5) / H as f32 * 2.0)
}

/// The signed distance (positive inside) of `p` from triangle `t`, in world units.
fn inside(t: [(f32, f32); 3], p: (f32, f32)) -> f32 {
    let edge = |a: (f32, f32), b: (f32, f32)| {
        let (ex, ey) = (b.0 - a.0, b.1 - a.1);
        let len = (ex * ex + ey * ey).sqrt();
        // Clockwise on screen with y up: the inside is to the right of each edge.
        ((p.0 - a.0) * ey - (p.1 - a.1) * ex) / len
    };
    edge(t[0], t[1]).min(edge(t[1], t[2])).min(edge(t[2], t[0]))
}

/// Checks every pixel clearly inside or outside the skinned quad (a band along its diagonal,
/// between its triangles, is neither): inside is `color`, outside
/// the clear colour; returns how many pixels were inside.
fn check_coverage(pixels: &[Color], corners: [Vector3; 4], color: Color) -> usize {
    let c = corners.map(|v| (v.x, v.y));
    let margin = 1.5 * 2.0 / W as f32;
    let mut covered = 0;
    for y in 0..H {
        for x in 0..W {
            let p = pixel_point(x, y);
            let d = inside([c[0], c[1], c[2]], p).max(inside([c[1], c[3], c[2]], p));
            let got = at(pixels, W, x, y);
            if d > margin {
                assert_near(got, color, 3);
                covered += 1;
            } else if d < -margin {
                assert_eq!(got, CLEAR, "pixel ({x}, {y}) outside the skinned quad");
            }
        }
    }
    covered
}

fn draw(device: &GraphicsDevice, e: &SkinnedEffect, vertices: &[SkinnedVertex]) {
    e.current_technique().passes()[0].apply().unwrap();
    device.draw_user_primitives(PrimitiveType::TriangleList, vertices, 0, 2).unwrap();
}

/// Corner `i` of `vertices` (TL, TR, BL, BR) skinned on the CPU.
fn skinned_corners(e: &SkinnedEffect, vertices: &[SkinnedVertex], count: usize) -> [Vector3; 4] {
    [0, 1, 2, 4].map(|i| skin(e, &vertices[i], count).0.transform(&e.world))
}

#[test]
fn weights_per_vertex_picks_how_many_weighted_bones_move_a_vertex() {
    let _v = Validation::new();
    // Weights that do not sum to one in their first one or two, and bones that each move
    // the quad elsewhere: how many are read shows in where the quad lands and how large it is.
    let bones = [
        Matrix::IDENTITY,
        Matrix::create_translation(0.5, 0.0, 0.0),
        Matrix::create_translation(0.0, 0.6, 0.0),
        Matrix::create_translation(-0.9, -0.9, 0.0),
    ];
    let weights = ([0, 1, 2, 3], [0.5, 0.3, 0.2, 0.0]);
    for count in [1, 2, 4] {
        let (device, mut e) = setup();
        e.set_bone_transforms(&bones).unwrap();
        e.set_weights_per_vertex(count as i32).unwrap();
        let vertices = quad(0.6, [weights; 4]);
        draw(&device, &e, &vertices);
        let pixels = read_back_buffer(&device);
        let corners = skinned_corners(&e, &vertices, count);
        // The normals are scaled by the same weights, and renormalised: +z, fully lit.
        let covered = check_coverage(&pixels, corners, lit(&e, Vector3::UNIT_Z));
        assert!(covered > 20, "{count} weights: {covered} pixels inside");
    }
}

#[test]
fn two_bones_with_different_transforms_and_weights_place_each_vertex() {
    let _v = Validation::new();
    let (device, mut e) = setup();
    e.world = Matrix::create_translation(0.1, -0.05, 0.0);
    let mut bones = vec![Matrix::IDENTITY; 9];
    bones[3] = Matrix::create_rotation_z(0.3).mul(&Matrix::create_translation(-0.2, 0.1, 0.0));
    bones[8] =
        Matrix::create_scale(1.2, 0.8, 1.0).mul(&Matrix::create_translation(0.15, -0.2, 0.0));
    e.set_bone_transforms(&bones).unwrap();
    e.set_weights_per_vertex(2).unwrap();
    // Each corner weighs the two bones differently (the later indices' weights are ignored).
    let vertices = quad(
        0.5,
        [
            ([3, 8, 0, 0], [1.0, 0.0, 0.7, 0.7]),
            ([3, 8, 0, 0], [0.25, 0.75, 0.7, 0.7]),
            ([8, 3, 0, 0], [0.6, 0.4, 0.7, 0.7]),
            ([8, 3, 0, 0], [1.0, 0.0, 0.7, 0.7]),
        ],
    );
    draw(&device, &e, &vertices);
    let pixels = read_back_buffer(&device);
    let corners = skinned_corners(&e, &vertices, 2);
    // Rotations about z and scales in x, y keep the normal +z: fully lit everywhere.
    let covered = check_coverage(&pixels, corners, lit(&e, Vector3::UNIT_Z));
    assert!(covered > 200, "{covered} pixels inside");
}

#[test]
fn the_bones_turn_the_normals_that_light_the_surface() {
    let _v = Validation::new();
    for per_pixel in [false, true] {
        let (device, mut e) = setup();
        e.prefer_per_pixel_lighting = per_pixel;
        e.directional_light0.direction = Vector3::new(0.3, -0.4, -1.0).normalize();
        e.ambient_light_color = Vector3::new(0.1, 0.05, 0.2);
        // Every vertex 0.3 of a bone tilted about x and 0.7 of one turned about y: the quad
        // shrinks about its centre and its normal leans, by the same blended matrix.
        let bones = [Matrix::create_rotation_x(0.7), Matrix::create_rotation_y(-0.5)];
        e.set_bone_transforms(&bones).unwrap();
        e.set_weights_per_vertex(2).unwrap();
        let vertices = quad(0.6, [([0, 1, 0, 0], [0.3, 0.7, 0.0, 0.0]); 4]);
        draw(&device, &e, &vertices);
        let pixels = read_back_buffer(&device);
        let (_, normal) = skin(&e, &vertices[0], 2);
        let color = lit(&e, normal);
        // Unskinned, the normal would be +z: a different colour, or the test proves nothing.
        assert!(color.r.abs_diff(lit(&e, Vector3::UNIT_Z).r) > 10, "{color:?}");
        let corners = skinned_corners(&e, &vertices, 2);
        let covered = check_coverage(&pixels, corners, color);
        assert!(covered > 200, "per pixel {per_pixel}: {covered} pixels inside");
    }
}

#[test]
fn each_draw_keeps_the_bones_applied_before_it() {
    let _v = Validation::new();
    let (device, mut e) = setup();
    e.set_weights_per_vertex(1).unwrap();
    let vertices = quad(0.2, [([0; 4], [1.0, 0.0, 0.0, 0.0]); 4]);
    // Two draws in a row differing only in their bones (and so in nothing BasicEffect's
    // instancing compares): each lands where its own bones put it.
    let places = [(-0.5, 0.3), (0.5, -0.4)];
    for (x, y) in places {
        e.set_bone_transforms(&[Matrix::create_translation(x, y, 0.0)]).unwrap();
        draw(&device, &e, &vertices);
    }
    // Changing the bones after the last Apply changes nothing already drawn.
    e.set_bone_transforms(&[Matrix::IDENTITY]).unwrap();
    let pixels = read_back_buffer(&device);
    let pixel = |x: f32, y: f32| {
        let px = ((x + 1.0) / 2.0 * W as f32) as i32;
        let py = ((1.0 - y) / 2.0 * H as f32) as i32;
        at(&pixels, W, px, py)
    };
    let color = lit(&e, Vector3::UNIT_Z);
    for (x, y) in places {
        assert_near(pixel(x + 0.07, y - 0.05), color, 3);
        assert_near(pixel(x - 0.11, y + 0.09), color, 3);
    }
    for (x, y) in [(0.0, 0.0), (-0.5, -0.4), (0.5, 0.3)] {
        assert_eq!(pixel(x + 0.03, y - 0.02), CLEAR, "nothing drawn at ({x}, {y})");
    }
}

#[test]
fn defaults_are_xnas() {
    let device = device_with(GraphicsProfile::HiDef, params(4, 4));
    let e = SkinnedEffect::new(&device).unwrap();
    assert_eq!(e.weights_per_vertex(), 4);
    assert_eq!(SkinnedEffect::MAX_BONES, 72);
    assert!(e.get_bone_transforms(72).unwrap().iter().all(|m| *m == Matrix::IDENTITY));
    assert!(e.directional_light0.enabled && !e.directional_light1.enabled);
    assert_eq!((e.diffuse_color, e.specular_color), (Vector3::ONE, Vector3::ONE));
    assert_eq!((e.specular_power, e.alpha, e.fog_enabled), (16.0, 1.0, false));
    assert!(e.lighting_enabled());
    assert!(e.texture().is_none());
}

#[test]
fn weights_per_vertex_other_than_1_2_or_4_is_out_of_range() {
    let device = device_with(GraphicsProfile::HiDef, params(4, 4));
    let mut e = SkinnedEffect::new(&device).unwrap();
    e.set_weights_per_vertex(2).unwrap();
    for bad in [0, 3, 5, -1] {
        match e.set_weights_per_vertex(bad) {
            Err(XnaError::ArgumentOutOfRange { param, .. }) => assert_eq!(param, "value"),
            other => panic!("WeightsPerVertex {bad}: {other:?}"),
        }
        assert_eq!(e.weights_per_vertex(), 2, "a refused value changes nothing");
    }
}

#[test]
fn more_than_72_bones_is_an_argument_error_and_counts_outside_1_to_72_out_of_range() {
    let device = device_with(GraphicsProfile::HiDef, params(4, 4));
    let mut e = SkinnedEffect::new(&device).unwrap();
    let bones: Vec<Matrix> =
        (0..73).map(|i| Matrix::create_translation(i as f32, 0.0, 0.0)).collect();
    match e.set_bone_transforms(&bones) {
        Err(XnaError::Argument { param, .. }) => assert_eq!(param, "boneTransforms"),
        other => panic!("73 bones: {other:?}"),
    }
    assert_eq!(e.get_bone_transforms(72).unwrap()[5], Matrix::IDENTITY, "nothing changed");
    e.set_bone_transforms(&bones[..72]).unwrap();
    assert_eq!(e.get_bone_transforms(72).unwrap(), bones[..72].to_vec());
    // Fewer bones replace the first ones only.
    e.set_bone_transforms(&[Matrix::IDENTITY]).unwrap();
    let got = e.get_bone_transforms(3).unwrap();
    assert_eq!(got, vec![Matrix::IDENTITY, bones[1], bones[2]]);
    for bad in [0, -1, 73] {
        match e.get_bone_transforms(bad) {
            Err(XnaError::ArgumentOutOfRange { param, .. }) => assert_eq!(param, "count"),
            other => panic!("GetBoneTransforms({bad}): {other:?}"),
        }
    }
}

#[test]
fn a_vertex_declaration_without_blend_indices_or_weights_is_refused_at_the_draw() {
    let _v = Validation::new();
    let (device, e) = setup();
    e.current_technique().passes()[0].apply().unwrap();
    let tri = [VertexPositionNormalTexture {
        position: Vector3::ZERO,
        normal: Vector3::UNIT_Z,
        texture_coordinate: Vector2::ZERO,
    }; 3];
    match device.draw_user_primitives(PrimitiveType::TriangleList, &tri, 0, 1) {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("BlendIndices0"), "{message}")
        }
        other => panic!("expected InvalidOperation naming BlendIndices0, got {other:?}"),
    }
    /// Indices but no weights.
    #[repr(C)]
    #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    struct Unweighted {
        position: Vector3,
        normal: Vector3,
        texture_coordinate: Vector2,
        indices: [u8; 4],
    }
    impl VertexType for Unweighted {
        fn vertex_declaration() -> VertexDeclaration {
            let decl = SkinnedVertex::vertex_declaration();
            VertexDeclaration::new(&decl.vertex_elements()[..4]).unwrap()
        }
    }
    let tri = [Unweighted {
        position: Vector3::ZERO,
        normal: Vector3::UNIT_Z,
        texture_coordinate: Vector2::ZERO,
        indices: [0; 4],
    }; 3];
    match device.draw_user_primitives(PrimitiveType::TriangleList, &tri, 0, 1) {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("BlendWeight0"), "{message}")
        }
        other => panic!("expected InvalidOperation naming BlendWeight0, got {other:?}"),
    }
    // The full declaration draws.
    draw(&device, &e, &quad(0.5, [([0; 4], [1.0, 0.0, 0.0, 0.0]); 4]));
}

#[test]
fn apply_without_a_texture_is_an_invalid_operation() {
    let (_device, mut e) = setup();
    e.set_texture(None);
    match e.current_technique().passes()[0].apply() {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("Texture"), "{message}")
        }
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
}

#[test]
fn lighting_cannot_be_turned_off() {
    let (_device, mut e) = setup();
    e.set_lighting_enabled(true).unwrap();
    assert!(matches!(e.set_lighting_enabled(false), Err(XnaError::NotSupported { .. })));
    assert!(e.lighting_enabled());
}
