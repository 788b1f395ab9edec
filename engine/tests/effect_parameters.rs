//! `Effect.Parameters` on the stock effects and XNA's effect interfaces: `World` set by name
//! draws exactly what the property draws; code generic over `EffectMatrices` places each stock
//! effect's geometry where its matrices say (the whole image shifted by whole pixels); held
//! parameters read back what was set by either path, computed ones read what `Apply` computes
//! and refuse to be set; types are checked with XNA's `InvalidCastException`. SkinnedEffect's and
//! EnvironmentMapEffect's parameters are in `effect_parameters/skinned_and_environment_map.rs`.

mod common;
#[path = "effect_parameters/skinned_and_environment_map.rs"]
mod skinned_and_environment_map;

use bytemuck::{Pod, Zeroable};
use common::*;
use xnagraph::{
    AlphaTestEffect, BasicEffect, Color, CompareFunction, DualTextureEffect, EffectFog,
    EffectLights, EffectMatrices, GraphicsDevice, Matrix, PrimitiveType, SamplerState, Vector2,
    Vector3, Vector4, VertexDeclaration, VertexElement, VertexElementFormat, VertexElementUsage,
    VertexType, XnaError,
};

const W: i32 = 32;
const H: i32 = 16;
const CLEAR: Color = Color::new(9, 19, 29, 255);

/// Every element any stock effect reads.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
struct Vertex {
    position: Vector3,
    color: Color,
    texture_coordinate: Vector2,
    texture_coordinate1: Vector2,
}

impl VertexType for Vertex {
    fn vertex_declaration() -> VertexDeclaration {
        use VertexElementFormat as F;
        use VertexElementUsage as U;
        VertexDeclaration::new(&[
            VertexElement::new(0, F::Vector3, U::Position, 0),
            VertexElement::new(12, F::Color, U::Color, 0),
            VertexElement::new(16, F::Vector2, U::TextureCoordinate, 0),
            VertexElement::new(24, F::Vector2, U::TextureCoordinate, 1),
        ])
        .unwrap()
    }
}

/// A quad from -0.25 to 0.25 in x and y, each corner its own colour and texture coordinate.
fn quad() -> Vec<Vertex> {
    coloured_quad(false)
}

/// [`quad`], or with one colour at every corner when `uniform` (interpolated colours may round
/// differently at other pixel positions; a uniform one cannot).
fn coloured_quad(uniform: bool) -> Vec<Vertex> {
    let corner = |c: Color| if uniform { Color::new(200, 150, 100, 255) } else { c };
    let v = |x: f32, y: f32, color: Color, u: f32, t: f32| Vertex {
        position: Vector3::new(x, y, 0.0),
        color: corner(color),
        texture_coordinate: Vector2::new(u, t),
        texture_coordinate1: Vector2::new(t, u),
    };
    let tl = v(-0.25, 0.25, Color::new(250, 20, 20, 255), 0.0, 0.0);
    let tr = v(0.25, 0.25, Color::new(20, 250, 20, 255), 1.0, 0.0);
    let bl = v(-0.25, -0.25, Color::new(20, 20, 250, 255), 0.0, 1.0);
    let br = v(0.25, -0.25, Color::new(200, 200, 30, 255), 1.0, 1.0);
    vec![tl, tr, bl, tr, br, bl]
}

fn setup() -> GraphicsDevice {
    let device = device(W, H);
    device.set_sampler_state(0, SamplerState::POINT_CLAMP).unwrap();
    device.set_sampler_state(1, SamplerState::POINT_CLAMP).unwrap();
    device
}

/// A 2×2 texture of four distinct colours.
fn checker(device: &GraphicsDevice, seed: u8) -> xnagraph::Texture2D {
    let t = xnagraph::Texture2D::new(device, 2, 2).unwrap();
    let c = |r: u8, g: u8, b: u8| Color::new(r.wrapping_add(seed), g, b, 255);
    t.set_data(&[c(200, 40, 90), c(30, 180, 60), c(90, 60, 210), c(120, 120, 20)]).unwrap();
    t
}

/// A shear and non-uniform scale: a transposed matrix would draw another shape.
fn sheared() -> Matrix {
    let mut m = Matrix::create_scale(1.5, 0.75, 1.0);
    m.m[1][0] = 0.5;
    m.m[3] = [0.25, -0.25, 0.0, 1.0];
    m
}

/// Clears, applies `apply`'s pass, draws the quad and reads the back buffer.
fn draw(device: &GraphicsDevice, apply: impl FnOnce() -> xnagraph::Result<()>) -> Vec<Color> {
    draw_quad(device, &quad(), apply)
}

fn draw_quad(
    device: &GraphicsDevice,
    quad: &[Vertex],
    apply: impl FnOnce() -> xnagraph::Result<()>,
) -> Vec<Color> {
    device.clear(CLEAR).unwrap();
    apply().unwrap();
    device.draw_user_primitives(PrimitiveType::TriangleList, quad, 0, 2).unwrap();
    read_back_buffer(device)
}

#[test]
fn world_set_by_name_draws_what_the_world_property_draws() {
    let _v = Validation::new();
    let device = setup();
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.vertex_color_enabled = true;
    let identity = draw(&device, || effect.current_technique().passes()[0].apply());

    effect.world = sheared();
    let by_property = draw(&device, || effect.current_technique().passes()[0].apply());

    let mut by_name = BasicEffect::new(&device).unwrap();
    by_name.vertex_color_enabled = true;
    by_name.parameters().get("World").unwrap().set_value(sheared()).unwrap();
    assert_eq!(by_name.world, sheared(), "the parameter sets the property");
    let drawn = draw(&device, || by_name.current_technique().passes()[0].apply());

    assert_ne!(by_property, identity, "the world matrix moves the quad");
    let covered = by_property.iter().filter(|&&c| c != CLEAR).count();
    assert!(covered > 32, "the sheared quad covers {covered} pixels, more than the unit quad");
    assert_eq!(drawn, by_property, "World by name draws what the property draws");
}

/// What generic code over `EffectMatrices` does: the camera and the object's placement.
fn place<E: EffectMatrices>(effect: &mut E, dx: f32, dy: f32) {
    effect.set_world(Matrix::create_translation(dx, dy, 0.0));
    effect.set_view(Matrix::create_translation(0.0, 0.0, 0.5));
    effect.set_projection(Matrix::create_scale(1.0, 1.0, 0.5));
}

/// Draws through `effect` at the origin and moved by (0.5, 0.25) in clip space (8 pixels
/// right, 2 up), and checks the second image is the first shifted.
fn check_moves<E: EffectMatrices>(
    device: &GraphicsDevice,
    effect: &mut E,
    apply: fn(&E) -> xnagraph::Result<()>,
    name: &str,
) {
    let quad = coloured_quad(true);
    place(effect, 0.0, 0.0);
    let still = draw_quad(device, &quad, || apply(effect));
    place(effect, 0.5, 0.25);
    let moved = draw_quad(device, &quad, || apply(effect));
    assert_eq!(effect.view(), Matrix::create_translation(0.0, 0.0, 0.5));
    let mut drawn = 0;
    for y in 0..H {
        for x in 0..W {
            let want = if x >= 8 && y + 2 < H { at(&still, W, x - 8, y + 2) } else { CLEAR };
            assert_eq!(at(&moved, W, x, y), want, "{name} at ({x}, {y})");
            drawn += usize::from(want != CLEAR);
        }
    }
    assert_eq!(drawn, 32, "{name}: the quad covers 8×4 pixels");
}

#[test]
fn generic_effect_matrices_code_places_every_stock_effect() {
    let _v = Validation::new();
    let device = setup();
    let texture = checker(&device, 0);
    let texture2 = checker(&device, 17);

    let mut basic = BasicEffect::new(&device).unwrap();
    basic.vertex_color_enabled = true;
    check_moves(&device, &mut basic, |e| e.current_technique().passes()[0].apply(), "Basic");

    let mut alpha = AlphaTestEffect::new(&device).unwrap();
    alpha.set_texture(Some(&texture));
    alpha.vertex_color_enabled = true;
    check_moves(&device, &mut alpha, |e| e.current_technique().passes()[0].apply(), "AlphaTest");

    let mut dual = DualTextureEffect::new(&device).unwrap();
    dual.set_texture(Some(&texture));
    dual.set_texture2(Some(&texture2));
    check_moves(&device, &mut dual, |e| e.current_technique().passes()[0].apply(), "Dual");
}

/// What generic code over `EffectFog` and `EffectLights` does.
fn fog_and_light<E: EffectFog>(effect: &mut E) {
    effect.set_fog_enabled(true);
    effect.set_fog_start(2.0);
    effect.set_fog_end(6.0);
    effect.set_fog_color(Vector3::new(0.1, 0.2, 0.3));
}

#[test]
fn fog_and_lights_traits_set_the_properties() {
    let device = setup();
    let mut basic = BasicEffect::new(&device).unwrap();
    fog_and_light(&mut basic);
    assert!(basic.fog_enabled);
    assert_eq!((basic.fog_start, basic.fog_end), (2.0, 6.0));
    assert_eq!(basic.fog_color, Vector3::new(0.1, 0.2, 0.3));
    let mut alpha = AlphaTestEffect::new(&device).unwrap();
    fog_and_light(&mut alpha);
    assert_eq!((alpha.fog_enabled, alpha.fog_start, alpha.fog_end), (true, 2.0, 6.0));
    let mut dual = DualTextureEffect::new(&device).unwrap();
    fog_and_light(&mut dual);
    assert_eq!((dual.fog_enabled, dual.fog_start, dual.fog_end), (true, 2.0, 6.0));

    let lights: &mut dyn EffectLights = &mut basic;
    assert!(!lights.lighting_enabled());
    lights.enable_default_lighting();
    lights.directional_light(1).enabled = false;
    lights.set_ambient_light_color(Vector3::new(0.5, 0.25, 0.0));
    assert!(basic.lighting_enabled);
    assert!(!basic.directional_light1.enabled && basic.directional_light2.enabled);
    assert_eq!(basic.ambient_light_color, Vector3::new(0.5, 0.25, 0.0));
}

#[test]
fn held_parameters_read_back_what_either_path_set() {
    let device = setup();
    let texture = checker(&device, 0);
    texture.set_name("checker");
    let mut effect = BasicEffect::new(&device).unwrap();
    let mut p = effect.parameters();
    p.get("SpecularColor").unwrap().set_value(Vector3::new(0.25, 0.5, 0.75)).unwrap();
    p.get("SpecularPower").unwrap().set_value(7.5f32).unwrap();
    p.get("DirLight2Direction").unwrap().set_value(Vector3::new(1.0, 0.0, 0.0)).unwrap();
    p.get("DirLight1DiffuseColor").unwrap().set_value(Vector3::new(0.0, 0.5, 0.0)).unwrap();
    p.get("DirLight0SpecularColor").unwrap().set_value(Vector3::new(0.5, 0.0, 0.0)).unwrap();
    p.get("FogColor").unwrap().set_value(Vector3::new(0.0, 0.0, 1.0)).unwrap();
    p.get("Texture").unwrap().set_value(&texture).unwrap();
    assert_eq!(effect.specular_color, Vector3::new(0.25, 0.5, 0.75));
    assert_eq!(effect.specular_power, 7.5);
    assert_eq!(effect.directional_light2.direction, Vector3::new(1.0, 0.0, 0.0));
    assert_eq!(effect.directional_light1.diffuse_color, Vector3::new(0.0, 0.5, 0.0));
    assert_eq!(effect.directional_light0.specular_color, Vector3::new(0.5, 0.0, 0.0));
    assert_eq!(effect.fog_color, Vector3::new(0.0, 0.0, 1.0));
    assert_eq!(effect.texture().unwrap().name(), "checker");

    effect.world = sheared();
    effect.specular_power = 3.0;
    effect.directional_light1.direction = Vector3::new(0.0, 0.0, -1.0);
    let mut p = effect.parameters();
    assert_eq!(p.get("World").unwrap().get_value_matrix().unwrap(), sheared());
    assert_eq!(p.get("SpecularPower").unwrap().get_value_single().unwrap(), 3.0);
    assert_eq!(
        p.get("DirLight1Direction").unwrap().get_value_vector3().unwrap(),
        Vector3::new(0.0, 0.0, -1.0)
    );
    let read = p.get("Texture").unwrap().get_value_texture2d().unwrap().unwrap();
    assert_eq!(read.name(), "checker");

    let mut dual = DualTextureEffect::new(&device).unwrap();
    dual.parameters().get("Texture2").unwrap().set_value(&texture).unwrap();
    assert_eq!(dual.texture2().unwrap().name(), "checker");
    assert!(dual.texture().is_none());
    let mut alpha = AlphaTestEffect::new(&device).unwrap();
    alpha.parameters().get("FogColor").unwrap().set_value(Vector3::ONE).unwrap();
    assert_eq!(alpha.fog_color, Vector3::ONE);
}

#[test]
fn computed_parameters_read_what_apply_computes_and_refuse_a_value() {
    let device = setup();
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.world = sheared();
    effect.view = Matrix::create_translation(1.0, 2.0, -3.0);
    effect.projection = Matrix::create_scale(0.5, 2.0, 1.0);
    effect.diffuse_color = Vector3::new(0.5, 0.25, 1.0);
    effect.emissive_color = Vector3::new(0.25, 0.25, 0.0);
    effect.alpha = 0.5;
    let wvp = sheared().mul(&effect.view).mul(&effect.projection);
    let mut p = effect.parameters();
    assert_eq!(p.get("WorldViewProj").unwrap().get_value_matrix().unwrap(), wvp);
    // Unlit: (DiffuseColor + EmissiveColor) × Alpha, Alpha.
    assert_eq!(
        p.get("DiffuseColor").unwrap().get_value_vector4().unwrap(),
        Vector4::new(0.375, 0.25, 0.5, 0.5)
    );
    assert_eq!(
        p.get("EyePosition").unwrap().get_value_vector3().unwrap(),
        Vector3::new(-1.0, -2.0, 3.0)
    );
    assert_eq!(p.get("ShaderIndex").unwrap().get_value_int32().unwrap(), 1, "fog off");
    let err = p.get("WorldViewProj").unwrap().set_value(Matrix::IDENTITY).unwrap_err();
    assert!(
        matches!(&err, XnaError::InvalidOperation { message } if message.contains("World, View")),
        "{err:?}"
    );

    effect.fog_enabled = true;
    effect.vertex_color_enabled = true;
    effect.texture_enabled = true;
    effect.enable_default_lighting();
    assert_eq!(effect.parameters().get("ShaderIndex").unwrap().get_value_int32().unwrap(), 14);
    effect.directional_light1.enabled = false;
    effect.directional_light2.enabled = false;
    assert_eq!(effect.parameters().get("ShaderIndex").unwrap().get_value_int32().unwrap(), 22);
    // Lit: EmissiveColor + AmbientLightColor × DiffuseColor, times Alpha.
    let ambient = effect.ambient_light_color;
    let want = (Vector3::new(0.25, 0.25, 0.0) + ambient * Vector3::new(0.5, 0.25, 1.0)) * 0.5;
    let got = effect.parameters().get("EmissiveColor").unwrap().get_value_vector3().unwrap();
    assert_eq!(got, want);

    let mut alpha = AlphaTestEffect::new(&device).unwrap();
    alpha.alpha_function = CompareFunction::Equal;
    alpha.reference_alpha = 51;
    let mut p = alpha.parameters();
    let test = p.get("AlphaTest").unwrap().get_value_vector4().unwrap();
    assert_eq!(test, Vector4::new(0.2, 0.5 / 255.0, 1.0, -1.0));
    assert_eq!(p.get("ShaderIndex").unwrap().get_value_int32().unwrap(), 5);
    assert!(matches!(
        p.get("AlphaTest").unwrap().set_value(Vector4::ZERO),
        Err(XnaError::InvalidOperation { .. })
    ));
    let mut dual = DualTextureEffect::new(&device).unwrap();
    dual.vertex_color_enabled = true;
    assert_eq!(dual.parameters().get("ShaderIndex").unwrap().get_value_int32().unwrap(), 3);
}

#[test]
fn a_value_of_another_type_is_invalid_cast() {
    let device = setup();
    let texture = checker(&device, 0);
    let mut effect = BasicEffect::new(&device).unwrap();
    let mut p = effect.parameters();
    assert_eq!(p.len(), 21);
    let cast = |r: xnagraph::Result<()>| {
        assert!(matches!(r, Err(XnaError::InvalidCast { .. })), "{r:?}");
    };
    cast(p.get("World").unwrap().set_value(Vector3::ONE));
    cast(p.get("SpecularPower").unwrap().set_value(3i32));
    cast(p.get("SpecularColor").unwrap().set_value(Vector4::ZERO));
    cast(p.get("SpecularColor").unwrap().set_value(&[Vector3::ONE][..]));
    cast(p.get("FogColor").unwrap().set_value(&texture));
    cast(p.get("Texture").unwrap().set_value(1.0f32));
    // A computed parameter checks the type first, as any parameter does.
    cast(p.get("ShaderIndex").unwrap().set_value(1.0f32));
    assert!(matches!(
        p.get("World").unwrap().get_value_vector3(),
        Err(XnaError::InvalidCast { .. })
    ));
    assert!(matches!(
        p.get("ShaderIndex").unwrap().get_value_single(),
        Err(XnaError::InvalidCast { .. })
    ));
    assert!(matches!(
        p.get("Texture").unwrap().get_value_matrix(),
        Err(XnaError::InvalidCast { .. })
    ));
    assert!(matches!(p.get("Alpha"), Err(XnaError::Argument { .. })));
    assert_eq!(effect.world, Matrix::IDENTITY, "a refused value changes nothing");
    assert_eq!(effect.specular_power, 16.0);
}
