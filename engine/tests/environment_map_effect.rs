//! EnvironmentMapEffect read back and compared with a CPU model of XNA's shader: per-vertex
//! diffuse lighting of the texel, the eye vector reflected about the world normal picking a
//! face of a cube whose faces are each one colour, the blend towards it by
//! EnvironmentMapAmount (times the Fresnel term unless FresnelFactor is 0), the cube's alpha
//! times EnvironmentMapSpecular added, fog; small quads at off-centre places, each turned so
//! that its reflection lands on another face. Then XNA's defaults and errors.

mod common;

use std::sync::Arc;

use common::*;
use xnagraph::{
    Color, CubeMapFace, DirectionalLight, EnvironmentMapEffect, GraphicsDevice, GraphicsProfile,
    Matrix, PrimitiveType, RasterizerState, SurfaceFormat, TextureCube, Vector2, Vector3,
    VertexPositionColor, VertexPositionNormalTexture, XnaError,
};

const W: i32 = 40;
const H: i32 = 40;
const CLEAR: Color = Color::new(7, 11, 13, 255);
const TEXEL: Color = Color::new(200, 150, 90, 255);
/// One colour per face, in `CubeMapFace` order, with distinct alphas for the specular term.
const FACES: [Color; 6] = [
    Color::new(230, 40, 40, 255),
    Color::new(40, 230, 40, 200),
    Color::new(40, 40, 230, 128),
    Color::new(230, 230, 40, 64),
    Color::new(40, 230, 230, 255),
    Color::new(230, 40, 230, 160),
];
const EYE: Vector3 = Vector3::new(0.0, 0.0, 5.0);

/// A quad of half size `HALF` centred on a pixel centre, turned by `turn` about its centre.
struct Quad {
    pixel: (i32, i32),
    turn: Matrix,
}

const HALF: f32 = 0.15;

/// Five quads, off-centre, whose reflections land on the +Z, +X, −X, +Y and −Y faces.
fn quads() -> Vec<Quad> {
    let a = 35f32.to_radians();
    vec![
        Quad { pixel: (9, 9), turn: Matrix::IDENTITY },
        Quad { pixel: (29, 9), turn: Matrix::create_rotation_y(a) },
        Quad { pixel: (9, 29), turn: Matrix::create_rotation_y(-a) },
        Quad { pixel: (29, 29), turn: Matrix::create_rotation_x(-a) },
        Quad { pixel: (21, 17), turn: Matrix::create_rotation_x(a) },
    ]
}

/// Where pixel (x, y)'s centre is, in world x, y (the orthographic camera shows [−1, 1]).
fn pixel_point(x: i32, y: i32) -> Vector3 {
    Vector3::new(
        (x as f32 + 0.5) / W as f32 * 2.0 - 1.0,
        1.0 - (y as f32 + 0.5) / H as f32 * 2.0,
        0.0,
    )
}

impl Quad {
    fn centre(&self) -> Vector3 {
        pixel_point(self.pixel.0, self.pixel.1)
    }

    fn normal(&self) -> Vector3 {
        Vector3::UNIT_Z.transform_normal(&self.turn)
    }

    /// Two clockwise triangles, in world space.
    fn vertices(&self) -> Vec<VertexPositionNormalTexture> {
        let c = self.centre();
        let n = self.normal();
        let v = |x: f32, y: f32| VertexPositionNormalTexture {
            position: Vector3::new(x, y, 0.0).transform(&self.turn) + c,
            normal: n,
            texture_coordinate: Vector2::new(0.5, 0.5),
        };
        let (tl, tr, bl, br) = (v(-HALF, HALF), v(HALF, HALF), v(-HALF, -HALF), v(HALF, -HALF));
        vec![tl, tr, bl, tr, br, bl]
    }
}

/// A cube of `FACES`.
fn cube(device: &GraphicsDevice) -> Arc<TextureCube> {
    let cube = TextureCube::new(device, 4, false, SurfaceFormat::Color).unwrap();
    for (i, face) in [
        CubeMapFace::PositiveX,
        CubeMapFace::NegativeX,
        CubeMapFace::PositiveY,
        CubeMapFace::NegativeY,
        CubeMapFace::PositiveZ,
        CubeMapFace::NegativeZ,
    ]
    .into_iter()
    .enumerate()
    {
        cube.set_data(face, &[FACES[i]; 16]).unwrap();
    }
    Arc::new(cube)
}

/// A device and an effect with XNA's defaults but for the camera (orthographic, at `EYE`
/// looking down −z), a one-texel texture and the cube.
fn setup() -> (GraphicsDevice, EnvironmentMapEffect) {
    let device = device_with(GraphicsProfile::HiDef, params(W, H));
    let mut effect = EnvironmentMapEffect::new(&device).unwrap();
    effect.view = Matrix::create_look_at(EYE, Vector3::ZERO, Vector3::UNIT_Y);
    effect.projection = Matrix::create_orthographic(2.0, 2.0, 0.1, 100.0);
    effect.set_texture(Some(&solid(&device, 1, 1, TEXEL)));
    effect.set_environment_map(Some(cube(&device)));
    device.clear(CLEAR).unwrap();
    (device, effect)
}

/// The face a direction selects: its major axis.
fn face_of(r: Vector3) -> usize {
    let (x, y, z) = (r.x.abs(), r.y.abs(), r.z.abs());
    if x >= y && x >= z {
        usize::from(r.x < 0.0)
    } else if y >= z {
        2 + usize::from(r.y < 0.0)
    } else {
        4 + usize::from(r.z < 0.0)
    }
}

/// XNA's EnvironmentMapEffect at world point `p` of world normal `n` (World is identity).
fn model(e: &EnvironmentMapEffect, p: Vector3, n: Vector3) -> (Color, usize) {
    let n = n.normalize();
    let eye = (EYE - p).normalize();
    let a = e.alpha.clamp(0.0, 1.0);
    let d = e.diffuse_color;
    let mut sum = Vector3::ZERO;
    for l in [e.directional_light0, e.directional_light1, e.directional_light2] {
        if l.enabled {
            sum += l.diffuse_color * (-l.direction).dot(n).max(0.0);
        }
    }
    let lit = sum * d * a + (e.emissive_color + e.ambient_light_color * d) * a;
    let [tr, tg, tb, ta] = TEXEL.to_floats();
    let mut rgb = Vector3::new(lit.x * tr, lit.y * tg, lit.z * tb);
    let alpha = ta * a;
    let mut amount = e.environment_map_amount;
    if e.fresnel_factor != 0.0 {
        amount *= (1.0 - eye.dot(n).abs()).max(0.0).powf(e.fresnel_factor);
    }
    let r = -eye + n * (2.0 * n.dot(eye));
    let face = face_of(r);
    let [er, eg, eb, ea] = FACES[face].to_floats();
    let env = Vector3::new(er, eg, eb) * alpha;
    rgb = rgb.lerp(env, amount);
    rgb += e.environment_map_specular * (ea * alpha);
    if e.fog_enabled {
        let view_depth = (p.transform(&e.view)).z;
        let f = ((-view_depth - e.fog_start) / (e.fog_end - e.fog_start)).clamp(0.0, 1.0);
        rgb = rgb.lerp(e.fog_color * alpha, f);
    }
    (Color::from_floats(rgb.x, rgb.y, rgb.z, alpha), face)
}

/// Draws every quad with `e` and checks each one's centre against the model; returns the
/// colours read.
fn check(device: &GraphicsDevice, e: &EnvironmentMapEffect) -> Vec<Color> {
    check_quads(device, e, &quads(), &[4, 0, 1, 2, 3])
}

/// Draws `quads` with `e`, checks each one's centre against the model and that each reflects
/// its face of `faces`; returns the colours read.
fn check_quads(
    device: &GraphicsDevice,
    e: &EnvironmentMapEffect,
    quads: &[Quad],
    expected_faces: &[usize],
) -> Vec<Color> {
    e.current_technique().passes()[0].apply().unwrap();
    for q in quads {
        device.draw_user_primitives(PrimitiveType::TriangleList, &q.vertices(), 0, 2).unwrap();
    }
    let pixels = read_back_buffer(device);
    let mut seen = Vec::new();
    let mut faces = Vec::new();
    for q in quads {
        let (want, face) = model(e, q.centre(), q.normal());
        let got = at(&pixels, W, q.pixel.0, q.pixel.1);
        assert_near(got, want, 3);
        seen.push(got);
        faces.push(face);
    }
    assert_eq!(faces, expected_faces, "each quad reflects its own face");
    // Between the quads is the clear colour.
    assert_eq!(at(&pixels, W, 2, 20), CLEAR);
    seen
}

#[test]
fn defaults_reflect_the_face_the_eye_vector_reflects_to_by_the_fresnel_term() {
    let _v = Validation::new();
    let (device, e) = setup();
    let got = check(&device, &e);
    // The reflection shows: quads of different faces differ.
    for (i, a) in got.iter().enumerate() {
        for b in &got[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

#[test]
fn environment_map_amount_0_shows_the_lit_texel_and_0_5_half_the_cube() {
    let _v = Validation::new();
    for amount in [0.0, 0.5, 1.0] {
        let (device, mut e) = setup();
        e.fresnel_factor = 0.0;
        e.environment_map_amount = amount;
        e.directional_light0.direction = Vector3::new(0.0, 0.0, -1.0);
        let got = check(&device, &e);
        if amount == 1.0 {
            // Without the Fresnel term the whole cube texel replaces the surface.
            assert_near(got[0], FACES[4], 1);
            assert_near(got[1], Color::new(FACES[0].r, FACES[0].g, FACES[0].b, 255), 1);
        }
    }
}

#[test]
fn fresnel_factor_0_blends_by_the_amount_alone_and_otherwise_by_the_view_angle() {
    let _v = Validation::new();
    let mut by_factor = Vec::new();
    for factor in [0.0, 1.0, 3.0] {
        let (device, mut e) = setup();
        e.fresnel_factor = factor;
        e.environment_map_amount = 0.8;
        e.directional_light0.direction = Vector3::new(0.0, 0.0, -1.0);
        by_factor.push(check(&device, &e));
    }
    // A turned quad sees less of the cube as the factor grows.
    assert_ne!(by_factor[0][1], by_factor[1][1]);
    assert_ne!(by_factor[1][1], by_factor[2][1]);
}

#[test]
fn the_fresnel_term_reads_the_angle_whichever_way_the_normal_faces() {
    let _v = Validation::new();
    let (device, mut e) = setup();
    device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
    e.fresnel_factor = 2.0;
    e.emissive_color = Vector3::new(0.3, 0.2, 0.1);
    // Normals facing away from the eye (E·N < 0): the same reflections as their opposites,
    // and the same Fresnel term, pow(1 − |E·N|, FresnelFactor).
    let a = 35f32.to_radians();
    let away = [
        Quad { pixel: (9, 9), turn: Matrix::create_rotation_y(std::f32::consts::PI) },
        Quad { pixel: (29, 9), turn: Matrix::create_rotation_y(a + std::f32::consts::PI) },
    ];
    let got = check_quads(&device, &e, &away, &[4, 0]);
    assert_ne!(got[0], got[1]);
}

#[test]
fn environment_map_specular_adds_the_cube_alpha_times_the_specular_colour() {
    let _v = Validation::new();
    let (device, mut e) = setup();
    e.environment_map_amount = 0.0;
    e.environment_map_specular = Vector3::new(0.1, 0.4, 0.2);
    e.directional_light0.direction = Vector3::new(0.0, 0.0, -1.0);
    e.diffuse_color = Vector3::new(0.5, 0.4, 0.3);
    let got = check(&device, &e);
    // The faces' alphas differ, so does what is added over the same lit texel.
    assert_ne!(got[1], got[2]);
}

#[test]
fn fog_blends_towards_the_fog_colour_by_view_depth() {
    let _v = Validation::new();
    let (device, mut e) = setup();
    e.fog_enabled = true;
    e.fog_color = Vector3::new(0.2, 0.9, 0.4);
    // The quads lie at view depth 5 (their turned corners about it): 40% of the way.
    e.fog_start = 3.0;
    e.fog_end = 8.0;
    check(&device, &e);
}

#[test]
fn texture_times_the_lit_diffuse_colour_of_three_lights_emissive_and_ambient() {
    let _v = Validation::new();
    let (device, mut e) = setup();
    e.environment_map_amount = 0.3;
    e.enable_default_lighting();
    e.diffuse_color = Vector3::new(0.9, 0.7, 0.5);
    e.emissive_color = Vector3::new(0.05, 0.0, 0.1);
    e.alpha = 0.75;
    check(&device, &e);
    // One light (lights 1 and 2 off) is light 0's term alone.
    let (device, mut one) = setup();
    one.enable_default_lighting();
    one.directional_light1.enabled = false;
    one.directional_light2.enabled = false;
    check(&device, &one);
}

#[test]
fn defaults_are_xnas() {
    let device = device_with(GraphicsProfile::HiDef, params(4, 4));
    let e = EnvironmentMapEffect::new(&device).unwrap();
    assert_eq!(
        (e.world, e.view, e.projection),
        (Matrix::IDENTITY, Matrix::IDENTITY, Matrix::IDENTITY)
    );
    assert_eq!((e.diffuse_color, e.emissive_color), (Vector3::ONE, Vector3::ZERO));
    assert_eq!((e.alpha, e.environment_map_amount, e.fresnel_factor), (1.0, 1.0, 1.0));
    assert_eq!(e.environment_map_specular, Vector3::ZERO);
    assert_eq!(e.ambient_light_color, Vector3::ZERO);
    assert!(e.directional_light0.enabled);
    assert!(!e.directional_light1.enabled && !e.directional_light2.enabled);
    assert_eq!(e.directional_light0, DirectionalLight { enabled: true, ..Default::default() });
    assert_eq!((e.fog_enabled, e.fog_start, e.fog_end), (false, 0.0, 1.0));
    assert_eq!(e.fog_color, Vector3::ZERO);
    assert!(e.lighting_enabled());
    assert!(e.texture().is_none() && e.environment_map().is_none());
    assert_eq!(e.current_technique().name(), "EnvironmentMapEffect");
}

#[test]
fn lighting_enabled_false_is_not_supported_and_true_is_accepted() {
    let device = device_with(GraphicsProfile::HiDef, params(4, 4));
    let mut e = EnvironmentMapEffect::new(&device).unwrap();
    e.set_lighting_enabled(true).unwrap();
    match e.set_lighting_enabled(false) {
        Err(XnaError::NotSupported { message }) => {
            assert!(message.contains("LightingEnabled"), "{message}")
        }
        other => panic!("expected NotSupported, got {other:?}"),
    }
    assert!(e.lighting_enabled());
}

#[test]
fn apply_without_a_texture_or_cube_map_is_invalid_and_a_non_finite_value_an_argument_error() {
    let (device, e) = setup();
    let apply = |e: &EnvironmentMapEffect| e.current_technique().passes()[0].apply();
    let mut no_texture = e.clone();
    no_texture.set_texture(None);
    match apply(&no_texture) {
        Err(XnaError::InvalidOperation { message }) => assert!(message.contains("Texture")),
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
    let mut no_cube = e.clone();
    no_cube.set_environment_map(None);
    match apply(&no_cube) {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("EnvironmentMap"), "{message}")
        }
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
    for set in [
        |e: &mut EnvironmentMapEffect| e.fresnel_factor = f32::NAN,
        |e: &mut EnvironmentMapEffect| e.environment_map_amount = f32::INFINITY,
        |e: &mut EnvironmentMapEffect| e.environment_map_specular.y = f32::NAN,
    ] {
        let mut bad = e.clone();
        set(&mut bad);
        assert!(matches!(apply(&bad), Err(XnaError::Argument { .. })), "{:?}", apply(&bad));
    }
    // A disposed cube map is ObjectDisposed at Apply.
    let cube = cube(&device);
    let mut disposed = e.clone();
    disposed.set_environment_map(Some(cube.clone()));
    cube.dispose();
    assert!(matches!(apply(&disposed), Err(XnaError::ObjectDisposed { .. })));
    apply(&e).unwrap();
}

#[test]
fn a_vertex_declaration_without_a_normal_is_refused_at_the_draw() {
    let _v = Validation::new();
    let (device, e) = setup();
    e.current_technique().passes()[0].apply().unwrap();
    let tri = [VertexPositionColor { position: Vector3::ZERO, color: Color::WHITE }; 3];
    match device.draw_user_primitives(PrimitiveType::TriangleList, &tri, 0, 1) {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(
                message.contains("Normal0") || message.contains("TextureCoordinate0"),
                "{message}"
            )
        }
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
}
