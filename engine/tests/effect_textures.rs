//! An effect references the texture the game gave it, as XNA's effects hold the object itself:
//! a full-level `SetData` through the game's texture after `effect.Texture = t` is what the next
//! draw samples, `Apply` after the game disposed the texture is `ObjectDisposed`, and the effect
//! letting go of the texture raises no resource event (it made no copy). Every holder is
//! covered: BasicEffect, AlphaTestEffect, both textures of DualTextureEffect, a texture set
//! through a stock parameter, and a custom effect's sampler parameter.

mod common;

use std::sync::{Arc, Mutex};

use bytemuck::{Pod, Zeroable};
use common::*;
use xnagraph::{
    AlphaTestEffect, BasicEffect, Color, CustomEffect, DualTextureEffect, GraphicsDevice,
    PassSource, PrimitiveType, ResourceId, SamplerState, TechniqueSource, Texture2D, Vector2,
    Vector3, VertexDeclaration, VertexElement, VertexElementFormat, VertexElementUsage,
    VertexPositionColorTexture, VertexPositionTexture, VertexType, XnaError,
};

const W: i32 = 8;
const H: i32 = 8;
const CLEAR: Color = Color::new(9, 19, 29, 255);
const OLD: Color = Color::new(220, 30, 40, 255);
const NEW: Color = Color::new(20, 60, 200, 255);

const SAMPLE_VERTEX: &str = "#version 450
layout(location = 0) in vec3 Position;
layout(location = 1) in vec2 TextureCoordinate;
layout(location = 0) out vec2 uv;
void main() {
    gl_Position = vec4(Position, 1.0);
    uv = TextureCoordinate;
}
";

const SAMPLE_FRAGMENT: &str = "#version 450
layout(set = 2, binding = 0) uniform sampler2D Image;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = texture(Image, uv); }
";

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

fn setup() -> GraphicsDevice {
    let device = device(W, H);
    device.set_sampler_state(0, SamplerState::POINT_CLAMP).unwrap();
    device.set_sampler_state(1, SamplerState::POINT_CLAMP).unwrap();
    device
}

fn texel(device: &GraphicsDevice, color: Color) -> Texture2D {
    let t = Texture2D::new(device, 1, 1).unwrap();
    t.set_data(&[color]).unwrap();
    t
}

fn custom_effect(device: &GraphicsDevice) -> CustomEffect {
    CustomEffect::new(
        device,
        &[TechniqueSource {
            name: "Sample",
            passes: &[PassSource {
                name: "Only",
                vertex: SAMPLE_VERTEX,
                fragment: SAMPLE_FRAGMENT,
            }],
        }],
    )
    .expect("effect")
}

/// The effects under test, each given `texture` through its own holder.
enum Holder {
    Basic(BasicEffect),
    AlphaTest(AlphaTestEffect),
    /// `Texture`, or `Texture2` (the other one white).
    Dual(DualTextureEffect, bool),
    /// `Texture` set through `Parameters["Texture"].SetValue`.
    BasicParameter(BasicEffect),
    Custom(CustomEffect),
}

impl Holder {
    fn all(device: &GraphicsDevice, texture: &Texture2D, white: &Texture2D) -> Vec<Holder> {
        let mut basic = BasicEffect::new(device).unwrap();
        basic.texture_enabled = true;
        basic.set_texture(Some(texture));
        let mut alpha = AlphaTestEffect::new(device).unwrap();
        alpha.set_texture(Some(texture));
        let mut dual = DualTextureEffect::new(device).unwrap();
        dual.set_texture(Some(texture));
        dual.set_texture2(Some(white));
        let mut dual2 = DualTextureEffect::new(device).unwrap();
        dual2.set_texture(Some(white));
        dual2.set_texture2(Some(texture));
        let mut by_parameter = BasicEffect::new(device).unwrap();
        by_parameter.texture_enabled = true;
        by_parameter.parameters().get("Texture").unwrap().set_value(texture).unwrap();
        let custom = custom_effect(device);
        custom.parameter("Image").unwrap().set_value(texture).unwrap();
        vec![
            Holder::Basic(basic),
            Holder::AlphaTest(alpha),
            Holder::Dual(dual, false),
            Holder::Dual(dual2, true),
            Holder::BasicParameter(by_parameter),
            Holder::Custom(custom),
        ]
    }

    fn name(&self) -> &'static str {
        match self {
            Holder::Basic(_) => "BasicEffect.Texture",
            Holder::AlphaTest(_) => "AlphaTestEffect.Texture",
            Holder::Dual(_, false) => "DualTextureEffect.Texture",
            Holder::Dual(_, true) => "DualTextureEffect.Texture2",
            Holder::BasicParameter(_) => "BasicEffect.Parameters[Texture]",
            Holder::Custom(_) => "CustomEffect sampler parameter",
        }
    }

    fn apply(&self) -> xnagraph::Result<()> {
        match self {
            Holder::Basic(e) | Holder::BasicParameter(e) => {
                e.current_technique().passes()[0].apply()
            }
            Holder::AlphaTest(e) => e.current_technique().passes()[0].apply(),
            Holder::Dual(e, _) => e.current_technique().passes()[0].apply(),
            Holder::Custom(e) => e.current_technique().passes()[0].apply(),
        }
    }

    /// Draws a full-target quad with the effect applied and returns the centre pixel.
    fn draw(&self, device: &GraphicsDevice) -> Color {
        device.clear(CLEAR).unwrap();
        self.apply().unwrap();
        let corners =
            [(-1.0, 1.0), (1.0, 1.0), (-1.0, -1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)];
        let uv = |x: f32, y: f32| Vector2::new((x + 1.0) / 2.0, (1.0 - y) / 2.0);
        if let Holder::Dual(..) = self {
            // Both coordinates from one pair: a 1×1 texture is the same texel everywhere.
            let v: Vec<_> = corners
                .iter()
                .map(|&(x, y)| VertexPositionDualTexture {
                    position: Vector3::new(x, y, 0.0),
                    texture_coordinate: uv(x, y),
                    texture_coordinate1: uv(x, y),
                })
                .collect();
            device.draw_user_primitives(PrimitiveType::TriangleList, &v, 0, 2).unwrap();
        } else if let Holder::Custom(_) = self {
            let v: Vec<_> = corners
                .iter()
                .map(|&(x, y)| VertexPositionTexture {
                    position: Vector3::new(x, y, 0.0),
                    texture_coordinate: uv(x, y),
                })
                .collect();
            device.draw_user_primitives(PrimitiveType::TriangleList, &v, 0, 2).unwrap();
        } else {
            let v: Vec<_> = corners
                .iter()
                .map(|&(x, y)| VertexPositionColorTexture {
                    position: Vector3::new(x, y, 0.0),
                    color: Color::WHITE,
                    texture_coordinate: uv(x, y),
                })
                .collect();
            device.draw_user_primitives(PrimitiveType::TriangleList, &v, 0, 2).unwrap();
        }
        at(&read_back_buffer(device), W, W / 2, H / 2)
    }

    /// What the effect draws of a texture of `texel` (DualTextureEffect doubles the product
    /// with white).
    fn expected(&self, texel: Color) -> Color {
        match self {
            Holder::Dual(..) => {
                let d = |c: u8| (2 * c as u32).min(255) as u8;
                Color::new(d(texel.r), d(texel.g), d(texel.b), texel.a)
            }
            _ => texel,
        }
    }
}

#[test]
fn an_effect_samples_what_the_game_last_wrote_into_its_texture() {
    let _v = Validation::new();
    let device = setup();
    let white = texel(&device, Color::WHITE);
    let texture = texel(&device, OLD);
    for holder in Holder::all(&device, &texture, &white) {
        assert_near(holder.draw(&device), holder.expected(OLD), 2);
        // A full-level SetData through the game's texture: XNA's effect draws the new pixels.
        texture.set_data(&[NEW]).unwrap();
        let got = holder.draw(&device);
        assert!(
            got.r.abs_diff(holder.expected(NEW).r) <= 2
                && got.b.abs_diff(holder.expected(NEW).b) <= 2,
            "{}: drew {got:?}, the texture holds {NEW:?}",
            holder.name()
        );
        texture.set_data(&[OLD]).unwrap();
    }
}

#[test]
fn apply_after_the_game_disposed_an_effects_texture_is_object_disposed() {
    let _v = Validation::new();
    let device = setup();
    let white = texel(&device, Color::WHITE);
    for i in 0..Holder::all(&device, &white, &white).len() {
        let texture = texel(&device, OLD);
        let holders = Holder::all(&device, &texture, &white);
        let holder = &holders[i];
        holder.apply().unwrap();
        texture.dispose();
        assert!(
            matches!(holder.apply(), Err(XnaError::ObjectDisposed { .. })),
            "{}: {:?}",
            holder.name(),
            holder.apply()
        );
    }
}

/// Dropping the game's handle is not Dispose: an effect given the texture holds a counted
/// reference, so Apply succeeds and the draw still samples the texture's pixels.
#[test]
fn an_effect_keeps_drawing_a_texture_whose_game_handle_was_dropped() {
    let _v = Validation::new();
    let device = setup();
    let white = texel(&device, Color::WHITE);
    for i in 0..Holder::all(&device, &white, &white).len() {
        let texture = texel(&device, OLD);
        let holders = Holder::all(&device, &texture, &white);
        drop(texture);
        let holder = &holders[i];
        holder.apply().unwrap_or_else(|e| panic!("{}: {e:?}", holder.name()));
        assert_near(holder.draw(&device), holder.expected(OLD), 2);
    }
}

type Log = Arc<Mutex<Vec<(&'static str, &'static str, ResourceId)>>>;

fn watch(device: &GraphicsDevice) -> Log {
    let log: Log = Arc::default();
    let l = log.clone();
    device
        .events()
        .resource_created
        .subscribe(move |a| l.lock().unwrap().push(("created", a.kind, a.resource)));
    let l = log.clone();
    device
        .events()
        .resource_destroyed
        .subscribe(move |a| l.lock().unwrap().push(("destroyed", a.kind, a.resource)));
    log
}

/// Checks that every `ResourceDestroyed` of `log` names a resource some `ResourceCreated`
/// announced (the effects' own white texels come and go too), and returns the events that name
/// `id`.
fn events_of(log: &Log, id: ResourceId) -> Vec<&'static str> {
    // A copy: a failed assertion must not poison the lock the event handlers take.
    let log = log.lock().unwrap().clone();
    for (i, (what, kind, r)) in log.iter().enumerate() {
        let announced = log[..i].iter().any(|(w, _, c)| *w == "created" && c == r);
        assert!(*what == "created" || announced, "{what} {kind} {r:?} was never created");
    }
    log.iter().filter(|(_, _, r)| *r == id).map(|(what, _, _)| *what).collect()
}

#[test]
fn an_effect_letting_go_of_its_texture_raises_no_resource_event() {
    let _v = Validation::new();
    let device = setup();
    let white = texel(&device, Color::WHITE);
    let log = watch(&device);
    let texture = texel(&device, OLD);
    let id = texture.resource_id();
    assert_eq!(events_of(&log, id), ["created"]);
    drop(Holder::all(&device, &texture, &white));
    assert_eq!(events_of(&log, id), ["created"], "the effects only referenced the texture");

    // What an effect hands back is that same resource, and dropping it ends nothing.
    let mut holders = Holder::all(&device, &texture, &white);
    if let Holder::BasicParameter(e) = &mut holders[4] {
        let read = e.parameters().get("Texture").unwrap().get_value_texture2d().unwrap().unwrap();
        assert_eq!(read.resource_id(), id);
    }
    if let Holder::Dual(e, true) = &holders[3] {
        assert_eq!(e.texture2().unwrap().resource_id(), id);
    }
    drop(holders);
    assert_eq!(events_of(&log, id), ["created"]);
    assert!(!texture.is_disposed());

    // The game drops its texture while an effect still references it: the effect draws it on,
    // and the texture ends, with the one event its creation announced, when the last holder
    // lets go: the effects, then the device's `Textures`, where the custom effect's `apply`
    // left it (as XNA's device keeps the textures an effect set).
    let holders = Holder::all(&device, &texture, &white);
    drop(texture);
    assert_eq!(events_of(&log, id), ["created"]);
    for holder in &holders {
        assert_near(holder.draw(&device), holder.expected(OLD), 2);
    }
    drop(holders);
    assert_eq!(events_of(&log, id), ["created"], "the device's Textures still hold it");
    for slot in 0..device.textures().count() {
        device.textures().set(slot, None).unwrap();
    }
    assert_eq!(events_of(&log, id), ["created", "destroyed"]);
}
