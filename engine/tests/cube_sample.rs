//! Sampling a cube through the stock cube-sampling stage (`SpriteBatch::draw_cube_direction`):
//! each face rendered its own colour, then looked up in the six axis directions.

// Some tests here need the `runtime-effects` feature; without it what only they use is unused.
#![cfg_attr(not(feature = "runtime-effects"), allow(unused))]

mod common;

use common::*;
use xnagraph::{
    BlendState, Color, CubeMapFace, DepthFormat, Effect, GraphicsDevice, Rectangle,
    RenderTargetCube, RenderTargetUsage, SamplerState, SpriteBatch, SpriteSortMode, SurfaceFormat,
    Vector3, XnaError,
};

/// One distinct colour per face, in `CubeMapFace` order.
const FACE_COLORS: [Color; 6] = [
    Color::new(255, 0, 0, 255),
    Color::new(0, 255, 0, 255),
    Color::new(0, 0, 255, 255),
    Color::new(255, 255, 0, 255),
    Color::new(0, 255, 255, 255),
    Color::new(255, 0, 255, 255),
];

/// The direction from the cube's centre to the centre of each face, in `CubeMapFace` order.
const DIRECTIONS: [Vector3; 6] = [
    Vector3::new(1.0, 0.0, 0.0),
    Vector3::new(-1.0, 0.0, 0.0),
    Vector3::new(0.0, 1.0, 0.0),
    Vector3::new(0.0, -1.0, 0.0),
    Vector3::new(0.0, 0.0, 1.0),
    Vector3::new(0.0, 0.0, -1.0),
];

const WIDTH: i32 = 24;
const HEIGHT: i32 = 16;
const BACKGROUND: Color = Color::new(40, 50, 60, 255);
/// A plain sprite drawn between the cube lookups, so the batch switches shader and back.
const PLAIN: (Rectangle, Color) = (Rectangle::new(20, 1, 3, 2), Color::new(10, 20, 30, 255));

/// An off-centre rectangle of the back buffer per direction; no two overlap.
fn lookup_rect(i: usize) -> Rectangle {
    let i = i as i32;
    Rectangle::new(1 + 3 * i, 2 + (i % 3) * 4, 2, 3)
}

fn cube_target(device: &GraphicsDevice, mipmap: bool, samples: i32) -> RenderTargetCube {
    RenderTargetCube::with_options(
        device,
        8,
        mipmap,
        SurfaceFormat::Color,
        DepthFormat::None,
        samples,
        RenderTargetUsage::DiscardContents,
    )
    .expect("cube target")
}

/// Fills every face of `cube` with its colour of [`FACE_COLORS`] by a sprite draw.
fn render_faces(device: &GraphicsDevice, cube: &RenderTargetCube) {
    let white = white(device);
    for (face, color) in CubeMapFace::ALL.into_iter().zip(FACE_COLORS) {
        device.set_render_target_cube(Some(cube), face).unwrap();
        let mut sb = SpriteBatch::new(device).unwrap();
        sb.begin().unwrap();
        sb.draw_rect(&white, Rectangle::new(0, 0, 8, 8), color).unwrap();
        sb.end().unwrap();
    }
    device.set_render_target(None).unwrap();
}

/// Looks `cube` up in the six directions into the back buffer (a plain sprite among them) and
/// asserts every pixel: each rectangle holds its face's colour, the rest is untouched.
fn sample_six_directions_and_check(device: &GraphicsDevice, cube: &RenderTargetCube) {
    let white = white(device);
    device.clear(BACKGROUND).unwrap();
    let mut sb = SpriteBatch::new(device).unwrap();
    sb.begin_with(
        SpriteSortMode::Deferred,
        Some(BlendState::OPAQUE),
        Some(SamplerState::POINT_CLAMP),
        None,
        None,
        None,
    )
    .unwrap();
    for (i, direction) in DIRECTIONS.into_iter().enumerate() {
        sb.draw_cube_direction(cube, lookup_rect(i), direction).unwrap();
        if i == 2 {
            sb.draw_rect(&white, PLAIN.0, PLAIN.1).unwrap();
        }
    }
    sb.end().unwrap();
    let pixels = read_back_buffer(device);
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let inside =
                |r: Rectangle| x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
            let want = (0..6)
                .find(|&i| inside(lookup_rect(i)))
                .map(|i| FACE_COLORS[i])
                .or_else(|| inside(PLAIN.0).then_some(PLAIN.1))
                .unwrap_or(BACKGROUND);
            assert_eq!(at(&pixels, WIDTH, x, y), want, "pixel ({x}, {y})");
        }
    }
}

#[test]
fn each_direction_samples_its_own_face() {
    let _v = Validation::new();
    let device = device(WIDTH, HEIGHT);
    let cube = cube_target(&device, false, 0);
    render_faces(&device, &cube);
    sample_six_directions_and_check(&device, &cube);
}

/// A mipmapped cube is sampled after its cascade: the point sampler reads level 0 of the face
/// each direction meets.
#[test]
fn each_direction_samples_its_own_face_of_a_mipmapped_cube() {
    let _v = Validation::new();
    let device = device(WIDTH, HEIGHT);
    let cube = cube_target(&device, true, 0);
    assert_eq!(cube.level_count(), 4);
    render_faces(&device, &cube);
    sample_six_directions_and_check(&device, &cube);
}

/// Each face of a 4x cube resolves into its own layer before the lookups sample it.
#[test]
fn each_direction_samples_its_own_resolved_face_of_a_multisampled_cube() {
    let _v = Validation::new();
    let device = device(WIDTH, HEIGHT);
    let cube = cube_target(&device, false, 4);
    if !multisampled_as_requested("cube sampling", cube.multi_sample_count(), 4) {
        return;
    }
    render_faces(&device, &cube);
    sample_six_directions_and_check(&device, &cube);
}

#[test]
fn a_zero_or_non_finite_direction_is_an_argument_exception_naming_direction() {
    let _v = Validation::new();
    let device = device(WIDTH, HEIGHT);
    let cube = cube_target(&device, false, 0);
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin().unwrap();
    let rect = Rectangle::new(1, 1, 2, 2);
    for bad in
        [Vector3::ZERO, Vector3::new(f32::NAN, 0.0, 1.0), Vector3::new(0.0, f32::INFINITY, 0.0)]
    {
        match sb.draw_cube_direction(&cube, rect, bad) {
            Err(XnaError::Argument { param, .. }) => assert_eq!(param, "direction", "{bad:?}"),
            other => panic!("{bad:?}: {other:?}"),
        }
    }
    sb.end().unwrap();
}

#[test]
fn sampling_a_bound_cube_is_refused_with_the_resolve_message() {
    let _v = Validation::new();
    let device = device(WIDTH, HEIGHT);
    let cube = cube_target(&device, false, 0);
    device.set_render_target_cube(Some(&cube), CubeMapFace::NegativeY).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin().unwrap();
    sb.draw_cube_direction(&cube, Rectangle::new(1, 1, 2, 2), Vector3::UNIT_X).unwrap();
    match sb.end() {
        Err(XnaError::InvalidOperation { message }) => assert_eq!(
            message,
            "The render target must be resolved before its data can be transferred."
        ),
        other => panic!("{other:?}"),
    }
}

#[cfg(feature = "runtime-effects")]
#[test]
fn drawing_a_cube_outside_begin_or_in_a_custom_effect_batch_is_invalid_operation() {
    let _v = Validation::new();
    let device = device(WIDTH, HEIGHT);
    let cube = cube_target(&device, false, 0);
    let mut sb = SpriteBatch::new(&device).unwrap();
    let rect = Rectangle::new(1, 1, 2, 2);
    assert!(matches!(
        sb.draw_cube_direction(&cube, rect, Vector3::UNIT_Y),
        Err(XnaError::InvalidOperation { .. })
    ));
    let effect = Effect::from_glsl(
        &device,
        "#version 450\n\
         layout(set = 2, binding = 0) uniform sampler2D sprite_texture;\n\
         layout(location = 0) in vec4 v_color;\n\
         layout(location = 1) in vec2 v_texcoord;\n\
         layout(location = 0) out vec4 out_color;\n\
         void main() { out_color = texture(sprite_texture, v_texcoord) * v_color; }\n",
    )
    .unwrap();
    sb.begin_with_effect(SpriteSortMode::Deferred, None, None, None, None, Some(&effect), None)
        .unwrap();
    match sb.draw_cube_direction(&cube, rect, Vector3::UNIT_Y) {
        Err(XnaError::InvalidOperation { message }) => assert!(message.contains("custom effect")),
        other => panic!("{other:?}"),
    }
    sb.end().unwrap();
}
