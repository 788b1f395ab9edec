//! The stock effects and `GraphicsDevice.Textures`, as in XNA: `apply` writes the textures the
//! effect samples into the device's slots (`Texture` at 0; DualTextureEffect's `Texture2` and
//! EnvironmentMapEffect's `EnvironmentMap` at 1), a draw samples what the slots hold at the
//! draw (so a texture the game sets after `apply` is the one drawn), an emptied slot or one of
//! another kind is `InvalidOperation`, and `SpriteBatch` leaves the last texture it drew in
//! slot 0.

mod common;

use std::sync::Arc;

use common::*;
use xnagraph::{
    AlphaTestEffect, BasicEffect, Color, CubeMapFace, DualTextureEffect, EnvironmentMapEffect,
    GraphicsDevice, Matrix, PrimitiveType, RasterizerState, SkinnedEffect, SpriteBatch,
    SurfaceFormat, Texture2D, TextureCube, Vector2, Vector3, VertexPositionNormalTexture, XnaError,
};

const W: i32 = 24;
const H: i32 = 16;
const CLEAR: Color = Color::new(10, 20, 30, 255);
const RED: Color = Color::new(220, 30, 40, 255);
const GREEN: Color = Color::new(30, 200, 60, 255);
const BLUE: Color = Color::new(40, 50, 230, 255);

fn id(t: Option<Texture2D>) -> Option<u64> {
    t.map(|t| t.resource_id().0)
}

fn cube(device: &GraphicsDevice, color: Color) -> Arc<TextureCube> {
    let cube = TextureCube::new(device, 1, false, SurfaceFormat::Color).unwrap();
    for face in CubeMapFace::ALL {
        cube.set_data(face, &[color]).unwrap();
    }
    Arc::new(cube)
}

#[test]
fn apply_writes_the_textures_each_stock_effect_samples_into_the_device_slots() {
    let device = device(W, H);
    let slots = device.textures();
    let (a, b) = (solid(&device, 1, 1, RED), solid(&device, 1, 1, GREEN));
    let marker = solid(&device, 1, 1, BLUE);

    // BasicEffect without TextureEnabled samples nothing: slot 0 keeps what it held.
    slots.set(0, Some(&marker)).unwrap();
    let mut basic = BasicEffect::new(&device).unwrap();
    basic.set_texture(Some(&a));
    basic.current_technique().passes()[0].apply().unwrap();
    assert_eq!(id(slots.get(0).unwrap()), Some(marker.resource_id().0));
    basic.texture_enabled = true;
    basic.current_technique().passes()[0].apply().unwrap();
    assert_eq!(id(slots.get(0).unwrap()), Some(a.resource_id().0));

    let mut alpha = AlphaTestEffect::new(&device).unwrap();
    alpha.set_texture(Some(&b));
    alpha.current_technique().passes()[0].apply().unwrap();
    assert_eq!(id(slots.get(0).unwrap()), Some(b.resource_id().0));

    let mut skinned = SkinnedEffect::new(&device).unwrap();
    skinned.set_texture(Some(&a));
    skinned.current_technique().passes()[0].apply().unwrap();
    assert_eq!(id(slots.get(0).unwrap()), Some(a.resource_id().0));

    let mut dual = DualTextureEffect::new(&device).unwrap();
    dual.set_texture(Some(&b));
    dual.set_texture2(Some(&marker));
    dual.current_technique().passes()[0].apply().unwrap();
    assert_eq!(id(slots.get(0).unwrap()), Some(b.resource_id().0));
    assert_eq!(id(slots.get(1).unwrap()), Some(marker.resource_id().0));
    assert!(slots.get_cube(1).unwrap().is_none());

    let mut env = EnvironmentMapEffect::new(&device).unwrap();
    let sky = cube(&device, BLUE);
    env.set_texture(Some(&a));
    env.set_environment_map(Some(sky.clone()));
    env.current_technique().passes()[0].apply().unwrap();
    assert_eq!(id(slots.get(0).unwrap()), Some(a.resource_id().0));
    assert!(Arc::ptr_eq(&slots.get_cube(1).unwrap().unwrap(), &sky));
    assert!(slots.get(1).unwrap().is_none(), "a cube does not read back as a Texture2D");
    // The slot past those the effects sample is untouched.
    assert!(slots.get(2).unwrap().is_none());
}

/// A quad over pixels x 4..20, y 4..12, texture coordinates 0..1, facing the camera.
fn quad() -> Vec<VertexPositionNormalTexture> {
    let v = |x: f32, y: f32| VertexPositionNormalTexture {
        position: Vector3::new(4.0 + 16.0 * x, 4.0 + 8.0 * y, 0.0),
        normal: Vector3::UNIT_Z,
        texture_coordinate: Vector2::new(x, y),
    };
    vec![v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)]
}

fn pixels_to_clip() -> Matrix {
    Matrix::create_orthographic_off_center(0.0, W as f32, H as f32, 0.0, 0.0, -1.0)
}

/// A textured, unlit BasicEffect over pixel coordinates.
fn basic(device: &GraphicsDevice, texture: &Texture2D) -> BasicEffect {
    let mut e = BasicEffect::new(device).unwrap();
    e.projection = pixels_to_clip();
    e.texture_enabled = true;
    e.set_texture(Some(texture));
    e
}

fn draw_quad(device: &GraphicsDevice) -> Vec<Color> {
    device.draw_user_primitives(PrimitiveType::TriangleList, &quad(), 0, 2).unwrap();
    read_back_buffer(device)
}

#[test]
fn a_texture_set_into_slot_0_after_apply_is_the_one_drawn() {
    let _v = Validation::new();
    let device = device(W, H);
    device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
    let (red, green) = (solid(&device, 1, 1, RED), solid(&device, 1, 1, GREEN));
    let e = basic(&device, &red);
    device.clear(CLEAR).unwrap();
    e.current_technique().passes()[0].apply().unwrap();
    let px = draw_quad(&device);
    assert_eq!(at(&px, W, 7, 6), RED);
    assert_eq!(at(&px, W, 1, 1), CLEAR);
    // The effect still holds red; the device's slot now holds green, which the draw samples.
    device.textures().set(0, Some(&green)).unwrap();
    let px = draw_quad(&device);
    assert_eq!(at(&px, W, 7, 6), GREEN);
    assert_eq!(at(&px, W, 17, 10), GREEN);
    assert_eq!(e.texture().unwrap().resource_id(), red.resource_id());

    // DualTextureEffect reads Texture2 from slot 1 the same way: white × 2 × the second.
    let half = solid(&device, 1, 1, Color::new(128, 128, 128, 255));
    let mut dual = DualTextureEffect::new(&device).unwrap();
    dual.projection = pixels_to_clip();
    dual.set_texture(Some(&half));
    dual.set_texture2(Some(&red));
    device.clear(CLEAR).unwrap();
    dual.current_technique().passes()[0].apply().unwrap();
    device.textures().set(1, Some(&green)).unwrap();
    #[repr(C)]
    #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    struct Dual {
        position: Vector3,
        uv0: Vector2,
        uv1: Vector2,
    }
    impl xnagraph::VertexType for Dual {
        fn vertex_declaration() -> xnagraph::VertexDeclaration {
            use xnagraph::{VertexElement, VertexElementFormat as F, VertexElementUsage as U};
            xnagraph::VertexDeclaration::new(&[
                VertexElement::new(0, F::Vector3, U::Position, 0),
                VertexElement::new(12, F::Vector2, U::TextureCoordinate, 0),
                VertexElement::new(20, F::Vector2, U::TextureCoordinate, 1),
            ])
            .unwrap()
        }
    }
    let dual_quad: Vec<Dual> = quad()
        .iter()
        .map(|v| Dual {
            position: v.position,
            uv0: v.texture_coordinate,
            uv1: v.texture_coordinate,
        })
        .collect();
    device.draw_user_primitives(PrimitiveType::TriangleList, &dual_quad, 0, 2).unwrap();
    let px = read_back_buffer(&device);
    // 128/255 × 2 × green, rounded by the GPU.
    let want = |c: u8| ((128.0 / 255.0 * 2.0 * c as f32 / 255.0).min(1.0) * 255.0).round() as u8;
    assert_near(at(&px, W, 7, 6), Color::new(want(GREEN.r), want(GREEN.g), want(GREEN.b), 255), 2);
}

#[test]
fn a_stock_draw_whose_slot_is_empty_or_of_another_kind_is_invalid() {
    let _v = Validation::new();
    let device = device(W, H);
    let red = solid(&device, 1, 1, RED);
    let e = basic(&device, &red);
    e.current_technique().passes()[0].apply().unwrap();
    device.textures().set(0, None).unwrap();
    let draw = || device.draw_user_primitives(PrimitiveType::TriangleList, &quad(), 0, 2);
    match draw() {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("Textures[0]"), "{message}")
        }
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
    // EnvironmentMapEffect samples a cube at slot 1: a 2D texture set there is refused.
    let mut env = EnvironmentMapEffect::new(&device).unwrap();
    env.set_texture(Some(&red));
    env.set_environment_map(Some(cube(&device, GREEN)));
    env.current_technique().passes()[0].apply().unwrap();
    draw().unwrap();
    device.textures().set(1, Some(&red)).unwrap();
    match draw() {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("Textures[1]") && message.contains("TextureCube"), "{message}")
        }
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
}

/// xnagraph differs from XNA here: SpriteBatch does not leave the texture it drew last in
/// `Textures[0]` (XNA's does), so a warm frame of sprites allocates nothing for the slot; a stock
/// effect applied before the batch keeps drawing its own texture.
#[test]
fn sprite_batch_leaves_slot_0_as_the_game_set_it() {
    let _v = Validation::new();
    let device = device(W, H);
    device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
    let (red, green, blue) =
        (solid(&device, 1, 1, RED), solid(&device, 1, 1, GREEN), solid(&device, 1, 1, BLUE));
    // A BasicEffect applied before the batch: its next draw samples what slot 0 then holds.
    let e = basic(&device, &red);
    e.current_technique().passes()[0].apply().unwrap();
    assert_eq!(id(device.textures().get(0).unwrap()), Some(red.resource_id().0));
    let mut batch = SpriteBatch::new(&device).unwrap();
    batch.begin().unwrap();
    batch.draw(&green, Vector2::new(0.0, 0.0), Color::WHITE).unwrap();
    batch.draw(&blue, Vector2::new(2.0, 0.0), Color::WHITE).unwrap();
    // Nothing is drawn before End.
    assert_eq!(id(device.textures().get(0).unwrap()), Some(red.resource_id().0));
    batch.end().unwrap();
    assert_eq!(id(device.textures().get(0).unwrap()), Some(red.resource_id().0));
    device.clear(CLEAR).unwrap();
    let px = draw_quad(&device);
    assert_eq!(at(&px, W, 12, 8), RED);
}
