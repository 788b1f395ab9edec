//! No geometry draw samples a render target it draws into: every draw kind (`DrawPrimitives`,
//! `DrawIndexedPrimitives`, `DrawUserPrimitives`, `DrawUserIndexedPrimitives`,
//! `DrawInstancedPrimitives`) with every effect that samples (BasicEffect's, AlphaTestEffect's
//! and both of DualTextureEffect's textures, a custom effect's sampler) is refused while the
//! sampled texture is bound, with SpriteBatch's error, and draws the target's pixels once it is
//! not.

mod common;

use bytemuck::{Pod, Zeroable};
use common::*;
use xnagraph::{
    AlphaTestEffect, BasicEffect, BufferUsage, Color, CustomEffect, DualTextureEffect,
    GraphicsDevice, IndexBuffer, IndexElementSize, PassSource, PrimitiveType, RasterizerState,
    RenderTarget2D, TechniqueSource, Texture2D, VertexBuffer, VertexBufferBinding,
    VertexDeclaration, VertexElement, VertexElementFormat, VertexElementUsage, VertexType,
    XnaError,
};

const NOT_RESOLVED: &str = "The render target must be resolved before its data can be transferred.";
/// The sampled target's colour; a DualTextureEffect doubles it against a texture of 128.
const SAMPLED: Color = Color::new(100, 50, 20, 255);
const CLEAR: Color = Color::new(0, 0, 0, 255);

/// Every element a sampling effect may read.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Vertex {
    position: [f32; 3],
    color: Color,
    uv0: [f32; 2],
    uv1: [f32; 2],
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

/// The whole target, as a strip and as a list over `INDICES`.
fn quad() -> [Vertex; 4] {
    let v = |x: f32, y: f32| Vertex {
        position: [x, y, 0.5],
        color: Color::new(255, 255, 255, 255),
        uv0: [(x + 1.0) / 2.0, (1.0 - y) / 2.0],
        uv1: [(x + 1.0) / 2.0, (1.0 - y) / 2.0],
    };
    [v(-1.0, 1.0), v(1.0, 1.0), v(-1.0, -1.0), v(1.0, -1.0)]
}

const INDICES: [u16; 6] = [0, 1, 2, 1, 3, 2];

const VERTEX: &str = "#version 450
layout(location = 0) in vec3 Position;
layout(location = 1) in vec2 TextureCoordinate;
layout(location = 0) out vec2 uv;
void main() { gl_Position = vec4(Position, 1.0); uv = TextureCoordinate; }
";

const FRAGMENT: &str = "#version 450
layout(set = 2, binding = 0) uniform sampler2D Image;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = texture(Image, uv); }
";

#[derive(Clone, Copy, Debug)]
enum Sampler {
    Basic,
    AlphaTest,
    DualFirst,
    DualSecond,
    Custom,
}

#[derive(Clone, Copy, Debug)]
enum DrawKind {
    Primitives,
    Indexed,
    User,
    UserIndexed,
    Instanced,
}

struct Scene {
    device: GraphicsDevice,
    gray: Texture2D,
    custom: CustomEffect,
    vb: VertexBuffer,
    ib: IndexBuffer,
    instances: VertexBuffer,
}

impl Scene {
    fn new() -> Scene {
        let device = device(4, 4);
        device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
        let gray = solid(&device, 1, 1, Color::new(128, 128, 128, 255));
        let custom = CustomEffect::new(
            &device,
            &[TechniqueSource {
                name: "T",
                passes: &[PassSource { name: "P", vertex: VERTEX, fragment: FRAGMENT }],
            }],
        )
        .unwrap();
        let vb = VertexBuffer::with_type::<Vertex>(&device, 4, BufferUsage::WriteOnly).unwrap();
        vb.set_data(&quad()).unwrap();
        let ib =
            IndexBuffer::new(&device, IndexElementSize::SixteenBits, 6, BufferUsage::None).unwrap();
        ib.set_data(&INDICES).unwrap();
        // One instance of an element no effect here reads.
        let declaration = VertexDeclaration::new(&[VertexElement::new(
            0,
            VertexElementFormat::Vector4,
            VertexElementUsage::BlendWeight,
            0,
        )])
        .unwrap();
        let instances =
            VertexBuffer::new(&device, &declaration, 1, BufferUsage::WriteOnly).unwrap();
        instances.set_data(&[[0.0f32; 4]]).unwrap();
        Scene { device, gray, custom, vb, ib, instances }
    }

    fn apply(&self, sampler: Sampler, sampled: &Texture2D) {
        let d = &self.device;
        match sampler {
            Sampler::Basic => {
                let mut e = BasicEffect::new(d).unwrap();
                e.texture_enabled = true;
                e.set_texture(Some(sampled));
                e.current_technique().passes()[0].apply().unwrap();
            }
            Sampler::AlphaTest => {
                let mut e = AlphaTestEffect::new(d).unwrap();
                e.set_texture(Some(sampled));
                e.current_technique().passes()[0].apply().unwrap();
            }
            Sampler::DualFirst | Sampler::DualSecond => {
                let mut e = DualTextureEffect::new(d).unwrap();
                let first = matches!(sampler, Sampler::DualFirst);
                e.set_texture(Some(if first { sampled } else { &self.gray }));
                e.set_texture2(Some(if first { &self.gray } else { sampled }));
                e.current_technique().passes()[0].apply().unwrap();
            }
            Sampler::Custom => {
                self.custom.parameter("Image").unwrap().set_value(sampled).unwrap();
                self.custom.current_technique().passes()[0].apply().unwrap();
            }
        }
    }

    fn draw(&self, kind: DrawKind) -> xnagraph::Result<()> {
        let d = &self.device;
        let triangles = PrimitiveType::TriangleList;
        match kind {
            DrawKind::Primitives => {
                d.set_vertex_buffer(Some(&self.vb)).unwrap();
                d.draw_primitives(PrimitiveType::TriangleStrip, 0, 2)
            }
            DrawKind::Indexed => {
                d.set_vertex_buffer(Some(&self.vb)).unwrap();
                d.set_indices(Some(&self.ib)).unwrap();
                d.draw_indexed_primitives(triangles, 0, 0, 4, 0, 2)
            }
            DrawKind::User => d.draw_user_primitives(PrimitiveType::TriangleStrip, &quad(), 0, 2),
            DrawKind::UserIndexed => {
                d.draw_user_indexed_primitives(triangles, &quad(), 0, 4, &INDICES, 0, 2)
            }
            DrawKind::Instanced => {
                let per_instance = VertexBufferBinding {
                    buffer: &self.instances,
                    vertex_offset: 0,
                    instance_frequency: 1,
                };
                d.set_vertex_buffers(&[VertexBufferBinding::new(&self.vb), per_instance]).unwrap();
                d.set_indices(Some(&self.ib)).unwrap();
                d.draw_instanced_primitives(triangles, 0, 0, 4, 0, 2, 1)
            }
        }
    }
}

#[test]
fn a_geometry_draw_sampling_a_bound_target_is_refused_with_sprite_batchs_error() {
    let _v = Validation::new();
    let scene = Scene::new();
    let d = &scene.device;
    let samplers = [
        Sampler::Basic,
        Sampler::AlphaTest,
        Sampler::DualFirst,
        Sampler::DualSecond,
        Sampler::Custom,
    ];
    let draws = [
        DrawKind::Primitives,
        DrawKind::Indexed,
        DrawKind::User,
        DrawKind::UserIndexed,
        DrawKind::Instanced,
    ];
    for sampler in samplers {
        for kind in draws {
            let sampled = RenderTarget2D::new(d, 4, 4).unwrap();
            let out = RenderTarget2D::new(d, 4, 4).unwrap();
            // Bound in the second slot: as bound as the first.
            d.set_render_targets(&[(&out).into(), (&sampled).into()]).unwrap();
            d.clear(SAMPLED).unwrap();
            scene.apply(sampler, &sampled);
            let refused = Err(XnaError::InvalidOperation { message: NOT_RESOLVED.into() });
            assert_eq!(scene.draw(kind), refused, "{sampler:?} {kind:?} while bound");
            // Unbound, the same draw samples the target's pixels into another.
            d.set_render_target(Some(&out)).unwrap();
            d.clear(CLEAR).unwrap();
            scene.apply(sampler, &sampled);
            scene.draw(kind).unwrap();
            d.set_render_target(None).unwrap();
            for (i, &p) in read_target(&out).iter().enumerate() {
                assert_near(p, SAMPLED, 1);
                assert_ne!(p, CLEAR, "{sampler:?} {kind:?} pixel {i}");
            }
        }
    }
}
