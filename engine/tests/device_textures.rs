//! `GraphicsDevice.Textures`, `SamplerStates`, `VertexTextures` and `VertexSamplerStates` as
//! XNA's collections: a custom pass's sampler at binding `i` reads `Textures[i]` (or
//! `VertexTextures[i]` in the vertex stage) with `SamplerStates[i]` at the draw; `apply` writes
//! the effect's texture parameters there; indices past XNA's limits and Reach's missing vertex
//! texture fetch are XNA's errors.

#![cfg(feature = "runtime-effects")]

mod common;

use common::*;
use xnagraph::{
    BufferUsage, Color, CustomEffect, GraphicsDevice, GraphicsProfile, Matrix, PassSource,
    PrimitiveType, SamplerState, TechniqueSource, Texture2D, Vector2, Vector3, VertexBuffer,
    VertexPositionTexture, XnaError,
};

const W: i32 = 32;
const H: i32 = 24;
const CLEAR: Color = Color::new(10, 20, 30, 255);

fn pixels_to_clip() -> Matrix {
    Matrix::create_orthographic_off_center(0.0, W as f32, H as f32, 0.0, 0.0, -1.0)
}

/// The vertex stage moves the quad by the texel of `VertexTextures[2]` (red: x, green: y, in
/// pixels).
const VERTEX: &str = "#version 450
layout(set = 0, binding = 2) uniform sampler2D Offsets;
layout(set = 1, binding = 0) uniform Vertex { mat4 World; };
layout(location = 0) in vec3 Position;
layout(location = 1) in vec2 TextureCoordinate;
layout(location = 0) out vec2 uv;
void main() {
    vec4 o = textureLod(Offsets, vec2(0.5), 0.0);
    gl_Position = World * vec4(Position.xy + o.rg * 255.0, 0.5, 1.0);
    uv = TextureCoordinate;
}
";

/// The quad's left third shows `Textures[0]`, its middle `Textures[3]`, its right third
/// `Textures[15]`, each sampled at its centre.
const FRAGMENT: &str = "#version 450
layout(set = 2, binding = 0) uniform sampler2D Zero;
layout(set = 2, binding = 3) uniform sampler2D Three;
layout(set = 2, binding = 15) uniform sampler2D Fifteen;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    vec2 c = vec2(0.5);
    color = uv.x < 1.0 / 3.0 ? texture(Zero, c)
        : uv.x < 2.0 / 3.0 ? texture(Three, c)
        : texture(Fifteen, c);
}
";

fn effect(device: &GraphicsDevice) -> CustomEffect {
    let effect = CustomEffect::new(
        device,
        &[TechniqueSource {
            name: "Slots",
            passes: &[PassSource { name: "P", vertex: VERTEX, fragment: FRAGMENT }],
        }],
    )
    .expect("effect");
    effect.parameter("World").unwrap().set_value(pixels_to_clip()).unwrap();
    effect
}

/// A 9 × 4 quad at the origin, texture coordinates 0 to 1.
fn quad(device: &GraphicsDevice) -> VertexBuffer {
    let v = |x: f32, y: f32| VertexPositionTexture {
        position: Vector3::new(x * 9.0, y * 4.0, 0.0),
        texture_coordinate: Vector2::new(x, y),
    };
    let vb = VertexBuffer::with_type::<VertexPositionTexture>(device, 4, BufferUsage::WriteOnly)
        .unwrap();
    vb.set_data(&[v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0), v(1.0, 1.0)]).unwrap();
    device.set_vertex_buffer(Some(&vb)).unwrap();
    vb
}

fn draw(device: &GraphicsDevice, effect: &CustomEffect) -> Vec<Color> {
    device.clear(CLEAR).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
    read_back_buffer(device)
}

/// Draws with the textures set on the device after `apply` and returns the pixels.
fn draw_with_slots(
    device: &GraphicsDevice,
    effect: &CustomEffect,
    slots: &SlotTextures,
) -> Vec<Color> {
    device.clear(CLEAR).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    device.textures().set(0, Some(&slots.zero)).unwrap();
    device.textures().set(3, Some(&slots.three)).unwrap();
    device.textures().set(15, Some(&slots.fifteen)).unwrap();
    device.vertex_textures().set(2, Some(&slots.offset)).unwrap();
    device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
    read_back_buffer(device)
}

const ZERO: Color = Color::new(200, 40, 100, 255);
const THREE: Color = Color::new(60, 220, 20, 255);
const FIFTEEN: Color = Color::new(0, 80, 240, 255);

struct SlotTextures {
    zero: Texture2D,
    three: Texture2D,
    fifteen: Texture2D,
    offset: Texture2D,
}

fn slot_textures(device: &GraphicsDevice) -> SlotTextures {
    SlotTextures {
        zero: solid(device, 1, 1, ZERO),
        three: solid(device, 1, 1, THREE),
        fifteen: solid(device, 1, 1, FIFTEEN),
        // The quad moves to x 5, y 7.
        offset: solid(device, 1, 1, Color::new(5, 7, 0, 255)),
    }
}

/// Asserts the quad at (5, 7), 9 × 4 pixels, in three colours left to right.
fn assert_three_slots(px: &[Color], left: Color, middle: Color, right: Color) {
    let p = |x, y| at(px, W, x, y);
    for (x, y, want) in [
        (5, 7, left),
        (7, 10, left),
        (8, 8, middle),
        (10, 9, middle),
        (11, 7, right),
        (13, 10, right),
    ] {
        assert_eq!(p(x, y), want, "at {x},{y}");
    }
    for (x, y) in [(4, 8), (14, 8), (6, 6), (12, 11)] {
        assert_eq!(p(x, y), CLEAR, "outside the quad at {x},{y}");
    }
    assert_eq!(px.iter().filter(|&&c| c != CLEAR).count(), 9 * 4);
}

#[test]
fn each_sampler_reads_the_device_texture_slot_of_its_binding() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = effect(&device);
    let _vb = quad(&device);
    let slots = slot_textures(&device);
    // No parameter holds a texture: the slots set after `apply` are what the draw samples.
    let px = draw_with_slots(&device, &effect, &slots);
    assert_three_slots(&px, ZERO, THREE, FIFTEEN);
    // The getters answer the same resources.
    let got = device.textures().get(3).unwrap().expect("Textures[3]");
    assert_eq!(got.resource_id(), slots.three.resource_id());
    let got = device.vertex_textures().get(2).unwrap().expect("VertexTextures[2]");
    assert_eq!(got.resource_id(), slots.offset.resource_id());
    assert!(device.textures().get(1).unwrap().is_none(), "an untouched slot is null");
}

#[test]
fn apply_writes_the_parameters_into_the_slots_and_later_sets_replace_them() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = effect(&device);
    let _vb = quad(&device);
    let slots = slot_textures(&device);
    let p = |name| effect.parameter(name).unwrap();
    p("Zero").set_value(&slots.zero).unwrap();
    p("Three").set_value(&slots.three).unwrap();
    p("Fifteen").set_value(&slots.fifteen).unwrap();
    p("Offsets").set_value(&slots.offset).unwrap();
    // Textures the game left in the slots before `apply` are replaced by the parameters.
    let stale = solid(&device, 1, 1, Color::new(255, 255, 255, 255));
    device.textures().set(3, Some(&stale)).unwrap();
    let px = draw(&device, &effect);
    assert_three_slots(&px, ZERO, THREE, FIFTEEN);
    assert_eq!(
        device.textures().get(15).unwrap().unwrap().resource_id(),
        slots.fifteen.resource_id()
    );
    // A texture set after `apply` replaces the parameter's for the draws that follow.
    device.clear(CLEAR).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    let swapped = solid(&device, 1, 1, Color::new(250, 250, 0, 255));
    device.textures().set(15, Some(&swapped)).unwrap();
    device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
    let px = read_back_buffer(&device);
    assert_three_slots(&px, ZERO, THREE, Color::new(250, 250, 0, 255));
}

#[test]
fn each_sampler_state_slot_filters_its_own_binding() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = effect(&device);
    let _vb = quad(&device);
    let mut slots = slot_textures(&device);
    // Two texels sampled at their shared edge: linear filtering averages them, point sampling
    // reads the second.
    slots.three = Texture2D::new(&device, 2, 1).unwrap();
    slots.three.set_data(&[Color::new(200, 0, 0, 255), Color::new(0, 0, 100, 255)]).unwrap();
    let sampler_states = device.sampler_states();
    assert_eq!(sampler_states.count(), 16);
    assert_eq!(sampler_states.get(3).unwrap(), SamplerState::LINEAR_WRAP, "XNA's default");
    let px = draw_with_slots(&device, &effect, &slots);
    assert_three_slots(&px, ZERO, Color::new(100, 0, 50, 255), FIFTEEN);
    // Slot 2's state is not binding 3's.
    sampler_states.set(2, SamplerState::POINT_CLAMP).unwrap();
    let px = draw_with_slots(&device, &effect, &slots);
    assert_three_slots(&px, ZERO, Color::new(100, 0, 50, 255), FIFTEEN);
    sampler_states.set(3, SamplerState::POINT_CLAMP).unwrap();
    assert_eq!(device.sampler_state(3).unwrap(), SamplerState::POINT_CLAMP, "one state, two ways");
    let px = draw_with_slots(&device, &effect, &slots);
    assert_three_slots(&px, ZERO, Color::new(0, 0, 100, 255), FIFTEEN);
}

#[test]
fn the_device_holds_a_slots_texture_until_the_slot_changes() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = effect(&device);
    let _vb = quad(&device);
    let SlotTextures { zero, three, fifteen, offset } = slot_textures(&device);
    device.clear(CLEAR).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    for (i, t) in [(0, zero), (3, three), (15, fifteen)] {
        device.textures().set(i, Some(&t)).unwrap();
        // The game's last wrapper goes; the slot keeps the texture, as XNA's device does.
    }
    device.vertex_textures().set(2, Some(&offset)).unwrap();
    drop(offset);
    device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
    assert_three_slots(&read_back_buffer(&device), ZERO, THREE, FIFTEEN);
    // Emptying a slot the pass samples makes the next draw refuse, naming the slot.
    device.textures().set(3, None).unwrap();
    match device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2) {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("Textures[3]") && message.contains("Three"), "{message}")
        }
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
    device.vertex_textures().set(2, None).unwrap();
    device.textures().set(3, Some(&solid(&device, 1, 1, THREE))).unwrap();
    match device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2) {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("VertexTextures[2]"), "{message}")
        }
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
}

#[test]
fn indices_past_xnas_limits_are_out_of_range_on_index() {
    let _v = Validation::new();
    let device = device(W, H);
    let texture = solid(&device, 1, 1, ZERO);
    let out_of_range = |r: xnagraph::Result<()>| {
        assert!(matches!(r, Err(XnaError::ArgumentOutOfRange { param: "index", .. })), "{r:?}")
    };
    assert_eq!(device.textures().count(), 16);
    assert_eq!(device.vertex_textures().count(), 4);
    assert_eq!(device.vertex_sampler_states().count(), 4);
    device.textures().set(15, Some(&texture)).unwrap();
    out_of_range(device.textures().set(16, Some(&texture)));
    out_of_range(device.textures().get(16).map(drop));
    device.vertex_textures().set(3, Some(&texture)).unwrap();
    out_of_range(device.vertex_textures().set(4, Some(&texture)));
    out_of_range(device.vertex_textures().get(4).map(drop));
    device.sampler_states().set(15, SamplerState::POINT_WRAP).unwrap();
    out_of_range(device.sampler_states().set(16, SamplerState::POINT_WRAP));
    out_of_range(device.sampler_states().get(16).map(drop));
    device.vertex_sampler_states().set(3, SamplerState::POINT_WRAP).unwrap();
    out_of_range(device.vertex_sampler_states().set(4, SamplerState::POINT_WRAP));
    out_of_range(device.vertex_sampler_states().get(4).map(drop));
}

#[test]
fn reach_has_no_vertex_textures_or_vertex_samplers() {
    let _v = Validation::new();
    let device = device_with(GraphicsProfile::Reach, params(W, H));
    let texture = solid(&device, 1, 1, ZERO);
    let not_supported =
        |r: xnagraph::Result<()>| assert!(matches!(r, Err(XnaError::NotSupported { .. })), "{r:?}");
    not_supported(device.vertex_textures().set(0, Some(&texture)));
    not_supported(device.vertex_textures().set(0, None));
    not_supported(device.vertex_sampler_states().set(0, SamplerState::POINT_CLAMP));
    not_supported(device.set_vertex_sampler_state(0, SamplerState::POINT_CLAMP));
    // The pixel stage's collections are Reach's too.
    device.textures().set(15, Some(&texture)).unwrap();
    device.sampler_states().set(15, SamplerState::POINT_CLAMP).unwrap();
    assert!(device.vertex_textures().get(0).unwrap().is_none());
}

#[test]
fn a_texture_of_another_device_or_disposed_is_refused() {
    let _v = Validation::new();
    let device = device(W, H);
    let other = common::device(W, H);
    let foreign = solid(&other, 1, 1, ZERO);
    let r = device.textures().set(0, Some(&foreign));
    assert!(matches!(r, Err(XnaError::Argument { param: "value", .. })), "{r:?}");
    let r = device.vertex_textures().set(0, Some(&foreign));
    assert!(matches!(r, Err(XnaError::Argument { param: "value", .. })), "{r:?}");
    let disposed = solid(&device, 1, 1, ZERO);
    disposed.dispose();
    let r = device.textures().set(0, Some(&disposed));
    assert!(matches!(r, Err(XnaError::ObjectDisposed { .. })), "{r:?}");
    // Disposed while in a slot: the draw that samples it is refused.
    let effect = effect(&device);
    let _vb = quad(&device);
    let slots = slot_textures(&device);
    effect.current_technique().passes()[0].apply().unwrap();
    device.textures().set(0, Some(&slots.zero)).unwrap();
    device.textures().set(3, Some(&slots.three)).unwrap();
    device.textures().set(15, Some(&slots.fifteen)).unwrap();
    device.vertex_textures().set(2, Some(&slots.offset)).unwrap();
    slots.fifteen.dispose();
    let r = device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2);
    assert!(matches!(r, Err(XnaError::ObjectDisposed { .. })), "{r:?}");
}
