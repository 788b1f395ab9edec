//! AlphaTestEffect and DualTextureEffect, read back at chosen pixels and compared with values
//! computed here: every CompareFunction against a reference alpha on texels whose alphas sit on
//! and around it, vertex colour and fog on the kept pixels, and the 2× modulate of two textures
//! addressed by two texture coordinates, each through its own sampler state; plus their errors
//! (no texture, missing TextureCoordinate1).

mod common;

use bytemuck::{Pod, Zeroable};
use common::*;
use xnagraph::{
    AlphaTestEffect, Color, CompareFunction, DualTextureEffect, GraphicsDevice, Matrix,
    PrimitiveType, SamplerState, Texture2D, Vector2, Vector3, VertexDeclaration, VertexElement,
    VertexElementFormat, VertexElementUsage, VertexPositionColorTexture, VertexPositionTexture,
    VertexType, XnaError,
};

const W: i32 = 32;
const H: i32 = 16;
const CLEAR: Color = Color::new(9, 19, 29, 255);

fn setup() -> GraphicsDevice {
    let device = device(W, H);
    device.set_sampler_state(0, SamplerState::POINT_CLAMP).unwrap();
    device.set_sampler_state(1, SamplerState::POINT_CLAMP).unwrap();
    device
}

/// A full-target quad in clip space (identity matrices), texture coordinates 0..1 across,
/// coloured `color`.
fn full_quad(color: Color) -> Vec<VertexPositionColorTexture> {
    let v = |x: f32, y: f32, u: f32, t: f32| VertexPositionColorTexture {
        position: Vector3::new(x, y, 0.0),
        color,
        texture_coordinate: Vector2::new(u, t),
    };
    let (tl, tr, bl, br) = (
        v(-1.0, 1.0, 0.0, 0.0),
        v(1.0, 1.0, 1.0, 0.0),
        v(-1.0, -1.0, 0.0, 1.0),
        v(1.0, -1.0, 1.0, 1.0),
    );
    vec![tl, tr, bl, tr, br, bl]
}

/// Alphas on and around the reference 64, one texel each (4 pixels wide on the target).
const ALPHAS: [u8; 8] = [0, 63, 64, 65, 128, 200, 254, 255];
const REFERENCE: u8 = 64;

fn alpha_texture(device: &GraphicsDevice) -> (Texture2D, Vec<Color>) {
    let texels: Vec<Color> = ALPHAS
        .iter()
        .enumerate()
        .map(|(i, &a)| Color::new(30 * i as u8, 200 - 20 * i as u8, 90, a))
        .collect();
    let t = Texture2D::new(device, ALPHAS.len() as i32, 1).unwrap();
    t.set_data(&texels).unwrap();
    (t, texels)
}

/// What XNA's comparison of an 8-bit alpha with the reference says.
fn passes(function: CompareFunction, a: u8, reference: u8) -> bool {
    use CompareFunction as C;
    match function {
        C::Always => true,
        C::Never => false,
        C::Less => a < reference,
        C::LessEqual => a <= reference,
        C::Equal => a == reference,
        C::GreaterEqual => a >= reference,
        C::Greater => a > reference,
        C::NotEqual => a != reference,
    }
}

#[test]
fn alpha_test_keeps_exactly_the_pixels_each_compare_function_passes() {
    let _v = Validation::new();
    let device = setup();
    let (texture, texels) = alpha_texture(&device);
    let mut effect = AlphaTestEffect::new(&device).unwrap();
    effect.set_texture(Some(&texture));
    effect.reference_alpha = REFERENCE;
    let quad = full_quad(Color::WHITE);
    use CompareFunction as C;
    for function in [
        C::Always,
        C::Never,
        C::Less,
        C::LessEqual,
        C::Equal,
        C::GreaterEqual,
        C::Greater,
        C::NotEqual,
    ] {
        effect.alpha_function = function;
        device.clear(CLEAR).unwrap();
        effect.current_technique().passes()[0].apply().unwrap();
        device.draw_user_primitives(PrimitiveType::TriangleList, &quad, 0, 2).unwrap();
        let pixels = read_back_buffer(&device);
        for (i, texel) in texels.iter().enumerate() {
            // Column 4i+1, rows 3 and 12: inside texel i, off the quad's diagonal.
            for y in [3, 12] {
                let got = at(&pixels, W, 4 * i as i32 + 1, y);
                let want = if passes(function, texel.a, REFERENCE) { *texel } else { CLEAR };
                assert_eq!(got, want, "{function:?}: alpha {} at texel {i}", texel.a);
            }
        }
    }
}

#[test]
fn alpha_test_applies_vertex_colour_diffuse_and_fog_to_kept_pixels() {
    let _v = Validation::new();
    let device = setup();
    let (texture, texels) = alpha_texture(&device);
    let mut effect = AlphaTestEffect::new(&device).unwrap();
    effect.set_texture(Some(&texture));
    effect.alpha_function = CompareFunction::GreaterEqual;
    effect.reference_alpha = 100;
    effect.vertex_color_enabled = true;
    effect.diffuse_color = Vector3::new(1.0, 0.5, 1.0);
    // View depth 2 under fog from 1 to 5: a quarter fogged.
    effect.world = Matrix::create_translation(0.0, 0.0, -2.0);
    effect.projection = Matrix::create_orthographic(2.0, 2.0, 0.1, 10.0);
    effect.fog_enabled = true;
    effect.fog_color = Vector3::new(0.0, 0.0, 1.0);
    effect.fog_start = 1.0;
    effect.fog_end = 5.0;
    let vertex_color = Color::new(255, 128, 64, 255);
    device.clear(CLEAR).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    device
        .draw_user_primitives(PrimitiveType::TriangleList, &full_quad(vertex_color), 0, 2)
        .unwrap();
    let pixels = read_back_buffer(&device);
    let vc = vertex_color.to_floats();
    let d = [1.0, 0.5, 1.0];
    let fog = 0.25;
    for (i, texel) in texels.iter().enumerate() {
        let got = at(&pixels, W, 4 * i as i32 + 2, 5);
        if texel.a < 100 {
            assert_eq!(got, CLEAR, "texel {i} (alpha {}) is discarded", texel.a);
            continue;
        }
        let t = texel.to_floats();
        let a = t[3] * vc[3];
        let rgb: Vec<f32> = (0..3)
            .map(|c| {
                let lit = t[c] * vc[c] * d[c];
                lit * (1.0 - fog) + [0.0, 0.0, 1.0][c] * a * fog
            })
            .collect();
        assert_near(got, Color::from_floats(rgb[0], rgb[1], rgb[2], a), 2);
    }
}

/// A vertex with two texture coordinates, as a DualTextureEffect model has.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
struct VertexPositionDualTexture {
    position: Vector3,
    texture_coordinate: Vector2,
    texture_coordinate1: Vector2,
}

impl VertexType for VertexPositionDualTexture {
    fn vertex_declaration() -> VertexDeclaration {
        use VertexElementFormat as F;
        use VertexElementUsage as U;
        VertexDeclaration::new(&[
            VertexElement::new(0, F::Vector3, U::Position, 0),
            VertexElement::new(12, F::Vector2, U::TextureCoordinate, 0),
            VertexElement::new(20, F::Vector2, U::TextureCoordinate, 1),
        ])
        .unwrap()
    }
}

/// A full-target quad: the first texture coordinate runs from 0 to `reach` left to right, the
/// second from 0 to `reach` top to bottom.
fn dual_quad(reach: f32) -> Vec<VertexPositionDualTexture> {
    let v = |x: f32, y: f32, u: f32, t: f32| VertexPositionDualTexture {
        position: Vector3::new(x, y, 0.0),
        texture_coordinate: Vector2::new(u, 0.5),
        texture_coordinate1: Vector2::new(0.5, t),
    };
    let (tl, tr, bl, br) = (
        v(-1.0, 1.0, 0.0, 0.0),
        v(1.0, 1.0, reach, 0.0),
        v(-1.0, -1.0, 0.0, reach),
        v(1.0, -1.0, reach, reach),
    );
    vec![tl, tr, bl, tr, br, bl]
}

#[test]
fn dual_texture_modulates_two_textures_by_two() {
    let _v = Validation::new();
    let device = setup();
    // Texture: left and right halves; Texture2: top and bottom halves.
    let first = [Color::new(100, 50, 200, 255), Color::new(30, 160, 90, 255)];
    let second = [Color::new(128, 255, 64, 255), Color::new(255, 100, 180, 200)];
    let t1 = Texture2D::new(&device, 2, 1).unwrap();
    t1.set_data(&first).unwrap();
    let t2 = Texture2D::new(&device, 1, 2).unwrap();
    t2.set_data(&second).unwrap();
    let mut effect = DualTextureEffect::new(&device).unwrap();
    effect.set_texture(Some(&t1));
    effect.set_texture2(Some(&t2));
    effect.diffuse_color = Vector3::new(1.0, 0.8, 1.0);
    device.clear(CLEAR).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    device.draw_user_primitives(PrimitiveType::TriangleList, &dual_quad(1.0), 0, 2).unwrap();
    let pixels = read_back_buffer(&device);
    let d = [1.0, 0.8, 1.0];
    for (x, y, i, j) in [(5, 2, 0, 0), (27, 3, 1, 0), (4, 13, 0, 1), (26, 12, 1, 1)] {
        let (a, b) = (first[i].to_floats(), second[j].to_floats());
        let c = |k: usize| (2.0 * a[k] * b[k] * d[k]).min(1.0);
        let want = Color::from_floats(c(0), c(1), c(2), a[3] * b[3]);
        assert_near(at(&pixels, W, x, y), want, 2);
    }
    // The doubling saturates: 2 × (160/255) × (255/255) × 0.8 is past 1.
    assert_eq!(at(&pixels, W, 27, 3).g, 255);
}

#[test]
fn dual_texture_samples_each_texture_with_its_own_sampler_state() {
    let _v = Validation::new();
    let device = setup();
    // Texture clamps, Texture2 wraps; both coordinates run 0..2 across the target, so past the
    // middle the two addressing modes pick different texels.
    device.set_sampler_state(1, SamplerState::POINT_WRAP).unwrap();
    let first = [Color::new(100, 50, 200, 255), Color::new(30, 160, 90, 255)];
    let second = [Color::new(128, 255, 64, 255), Color::new(255, 100, 180, 255)];
    let t1 = Texture2D::new(&device, 2, 1).unwrap();
    t1.set_data(&first).unwrap();
    let t2 = Texture2D::new(&device, 1, 2).unwrap();
    t2.set_data(&second).unwrap();
    let mut effect = DualTextureEffect::new(&device).unwrap();
    effect.set_texture(Some(&t1));
    effect.set_texture2(Some(&t2));
    device.clear(CLEAR).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    device.draw_user_primitives(PrimitiveType::TriangleList, &dual_quad(2.0), 0, 2).unwrap();
    let pixels = read_back_buffer(&device);
    // The texel of a two-texel texture at coordinate `c` (pixel centres stay off texel edges).
    let clamp = |c: f32| ((c * 2.0) as usize).min(1);
    let wrap = |c: f32| ((c.fract() * 2.0) as usize).min(1);
    for (x, y) in [(5, 2), (20, 3), (12, 6), (6, 10), (21, 11), (27, 14)] {
        let u = 2.0 * (x as f32 + 0.5) / W as f32;
        let t = 2.0 * (y as f32 + 0.5) / H as f32;
        let (a, b) = (first[clamp(u)].to_floats(), second[wrap(t)].to_floats());
        let c = |k: usize| (2.0 * a[k] * b[k]).min(1.0);
        let want = Color::from_floats(c(0), c(1), c(2), a[3] * b[3]);
        assert_near(at(&pixels, W, x, y), want, 2);
    }
}

#[test]
fn stock_effects_refuse_what_they_cannot_draw() {
    let _v = Validation::new();
    let device = setup();
    let invalid = |r: xnagraph::Result<()>, says: &str| match r {
        Err(XnaError::InvalidOperation { message }) => assert!(message.contains(says), "{message}"),
        other => panic!("expected InvalidOperation ({says}), got {other:?}"),
    };
    let alpha = AlphaTestEffect::new(&device).unwrap();
    invalid(alpha.current_technique().passes()[0].apply(), "Texture");
    let mut dual = DualTextureEffect::new(&device).unwrap();
    let t = white(&device);
    dual.set_texture(Some(&t));
    invalid(dual.current_technique().passes()[0].apply(), "Texture2");
    dual.set_texture2(Some(&t));
    dual.current_technique().passes()[0].apply().unwrap();
    // VertexPositionTexture has no TextureCoordinate1.
    let tri =
        [VertexPositionTexture { position: Vector3::ZERO, texture_coordinate: Vector2::ZERO }; 3];
    invalid(
        device.draw_user_primitives(PrimitiveType::TriangleList, &tri, 0, 1),
        "TextureCoordinate1",
    );
    let mut dual = dual;
    dual.alpha = f32::NAN;
    assert!(matches!(dual.current_technique().passes()[0].apply(), Err(XnaError::Argument { .. })));
}

#[test]
fn effect_options_are_pipeline_variants_and_effect_values_are_not() {
    let _v = Validation::new();
    let device = setup();
    let pipelines = || device.live_native_objects().unwrap().pipelines;
    let t = white(&device);
    let v = |x: f32, y: f32| xnagraph::VertexPositionNormalTexture {
        position: Vector3::new(x, y, 0.0),
        normal: Vector3::UNIT_Z,
        texture_coordinate: Vector2::ZERO,
    };
    let tri = [v(-1.0, 1.0), v(1.0, 1.0), v(-1.0, -1.0)];
    let mut basic = xnagraph::BasicEffect::new(&device).unwrap();
    basic.texture_enabled = true;
    basic.set_texture(Some(&t));
    basic.lighting_enabled = true;
    let draw = |apply: xnagraph::Result<()>| {
        apply.unwrap();
        device.draw_user_primitives(PrimitiveType::TriangleList, &tri, 0, 1).unwrap();
    };
    draw(basic.current_technique().passes()[0].apply());
    read_back_buffer(&device);
    let first = pipelines();
    // The lights, colours, specular power and matrices are uniform values: no new pipeline.
    basic.enable_default_lighting();
    for power in [4.0, 30.0] {
        basic.specular_power = power;
        basic.diffuse_color = Vector3::new(power / 30.0, 0.5, 0.25);
        basic.world = xnagraph::Matrix::create_rotation_z(power);
        draw(basic.current_technique().passes()[0].apply());
    }
    read_back_buffer(&device);
    assert_eq!(pipelines(), first);
    // Per-pixel lighting and fog are options, as XNA's BasicEffect picks one of its shaders
    // by them: a pipeline per combination, made once.
    for _ in 0..2 {
        for per_pixel in [false, true] {
            for fog in [false, true] {
                basic.prefer_per_pixel_lighting = per_pixel;
                basic.fog_enabled = fog;
                draw(basic.current_technique().passes()[0].apply());
            }
        }
    }
    read_back_buffer(&device);
    assert_eq!(pipelines(), first + 3);
    // Unlit (and so without normals: another vertex layout too), drawn twice: one more.
    basic.lighting_enabled = false;
    draw(basic.current_technique().passes()[0].apply());
    draw(basic.current_technique().passes()[0].apply());
    read_back_buffer(&device);
    assert_eq!(pipelines(), first + 4);
    // AlphaTestEffect: the order comparisons and Always share a variant (the reference and the
    // kept/discarded signs are values); Equal is the other form.
    let mut alpha = AlphaTestEffect::new(&device).unwrap();
    alpha.set_texture(Some(&t));
    for function in [CompareFunction::Less, CompareFunction::Equal, CompareFunction::Always] {
        alpha.alpha_function = function;
        draw(alpha.current_technique().passes()[0].apply());
    }
    read_back_buffer(&device);
    assert_eq!(pipelines(), first + 6);
}
