//! `DrawInstancedPrimitives` and per-instance vertex streams (`VertexBufferBinding`'s
//! `InstanceFrequency`): XNA's errors for every bad argument and state, and (with a custom
//! effect that offsets each instance) the pixels of every instance.

// Some tests here need the `runtime-effects` feature; without it what only they use is unused.
#![cfg_attr(not(feature = "runtime-effects"), allow(unused))]

mod common;

use common::*;
use xnagraph::{
    BasicEffect, BufferUsage, Color, CustomEffect, GraphicsDevice, GraphicsProfile, IndexBuffer,
    IndexElementSize, Matrix, PassSource, PrimitiveType, TechniqueSource, Vector3, VertexBuffer,
    VertexBufferBinding, VertexDeclaration, VertexElement, VertexElementFormat, VertexElementUsage,
    VertexPositionColor, XnaError,
};

const W: i32 = 32;
const H: i32 = 24;
const CLEAR: Color = Color::new(10, 20, 30, 255);

/// One per-instance element: an offset in pixels (as `TextureCoordinate1`) and a colour.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Instance {
    offset: [f32; 2],
    color: Color,
}

fn instance_declaration() -> VertexDeclaration {
    VertexDeclaration::new(&[
        VertexElement::new(
            0,
            VertexElementFormat::Vector2,
            VertexElementUsage::TextureCoordinate,
            1,
        ),
        VertexElement::new(8, VertexElementFormat::Color, VertexElementUsage::Color, 1),
    ])
    .unwrap()
}

fn instance_buffer(device: &GraphicsDevice, instances: &[Instance]) -> VertexBuffer {
    let vb = VertexBuffer::new(
        device,
        &instance_declaration(),
        instances.len() as i32,
        BufferUsage::WriteOnly,
    )
    .unwrap();
    vb.set_data(instances).unwrap();
    vb
}

fn quad_buffers(device: &GraphicsDevice) -> (VertexBuffer, IndexBuffer) {
    let c = Color::new(255, 255, 255, 255);
    let v = |x: f32, y: f32| VertexPositionColor { position: Vector3::new(x, y, 0.5), color: c };
    let vertices = [v(-1.0, 1.0), v(-0.75, 1.0), v(-1.0, 0.75), v(-0.75, 0.75)];
    let vb =
        VertexBuffer::with_type::<VertexPositionColor>(device, 4, BufferUsage::WriteOnly).unwrap();
    vb.set_data(&vertices).unwrap();
    let ib =
        IndexBuffer::new(device, IndexElementSize::SixteenBits, 6, BufferUsage::WriteOnly).unwrap();
    ib.set_data(&[0u16, 1, 2, 1, 3, 2]).unwrap();
    (vb, ib)
}

fn out_of_range(r: xnagraph::Result<()>, param: &str) {
    match r {
        Err(XnaError::ArgumentOutOfRange { param: p, .. }) => assert_eq!(p, param),
        other => panic!("expected ArgumentOutOfRange({param}), got {other:?}"),
    }
}

fn invalid(r: xnagraph::Result<()>, says: &str) {
    match r {
        Err(XnaError::InvalidOperation { message }) => assert!(message.contains(says), "{message}"),
        other => panic!("expected InvalidOperation ({says}), got {other:?}"),
    }
}

fn not_supported(r: xnagraph::Result<()>, says: &str) {
    match r {
        Err(XnaError::NotSupported { message }) => assert!(message.contains(says), "{message}"),
        other => panic!("expected NotSupported ({says}), got {other:?}"),
    }
}

#[test]
fn bad_instanced_arguments_get_xnas_errors() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = BasicEffect::new(&device).unwrap();
    let (vb, ib) = quad_buffers(&device);
    let instances = instance_buffer(
        &device,
        &[Instance { offset: [0.0, 0.0], color: Color::new(1, 2, 3, 255) }; 3],
    );
    let draw = |instances: i32| {
        device.draw_instanced_primitives(PrimitiveType::TriangleList, 0, 0, 4, 0, 2, instances)
    };

    // No buffers, then no indices, then no effect: XNA's InvalidOperation.
    invalid(draw(1), "vertex buffer");
    let per_vertex = VertexBufferBinding::new(&vb);
    let per_instance =
        VertexBufferBinding { buffer: &instances, vertex_offset: 0, instance_frequency: 1 };
    device.set_vertex_buffers(&[per_vertex, per_instance]).unwrap();
    invalid(draw(1), "index buffer");
    device.set_indices(Some(&ib)).unwrap();
    invalid(draw(1), "EffectPass.Apply");
    effect.current_technique().passes()[0].apply().unwrap();
    draw(3).unwrap();

    // The instance count: positive, and within every per-instance stream from its offset.
    out_of_range(draw(0), "instanceCount");
    out_of_range(draw(-2), "instanceCount");
    out_of_range(draw(4), "instanceCount");
    let from_one =
        VertexBufferBinding { buffer: &instances, vertex_offset: 1, instance_frequency: 1 };
    device.set_vertex_buffers(&[per_vertex, from_one]).unwrap();
    draw(2).unwrap();
    out_of_range(draw(3), "instanceCount");
    // The indexed arguments keep DrawIndexedPrimitives' checks.
    out_of_range(
        device.draw_instanced_primitives(PrimitiveType::TriangleList, 0, 0, 0, 0, 2, 1),
        "numVertices",
    );
    out_of_range(
        device.draw_instanced_primitives(PrimitiveType::TriangleList, 0, 0, 4, 1, 2, 1),
        "primitiveCount",
    );
    // numVertices is a hint, as in DrawIndexedPrimitives; the first vertex must be in the buffer.
    device.draw_instanced_primitives(PrimitiveType::TriangleList, 0, 0, 5, 0, 2, 1).unwrap();
    out_of_range(
        device.draw_instanced_primitives(PrimitiveType::TriangleList, 4, 0, 4, 0, 2, 1),
        "baseVertex",
    );

    // Stream 0 must be per vertex.
    device.set_vertex_buffers(&[per_instance, per_vertex]).unwrap();
    invalid(draw(1), "stream 0");

    // Frequencies: negative is out of range; above 1, one element serves that many instances
    // (3 elements at frequency 2 serve 6 instances), where the renderer has a divisor.
    let negative =
        VertexBufferBinding { buffer: &instances, vertex_offset: 0, instance_frequency: -1 };
    out_of_range(device.set_vertex_buffers(&[per_vertex, negative]), "instanceFrequency");
    let two = VertexBufferBinding { buffer: &instances, vertex_offset: 0, instance_frequency: 2 };
    if device.capabilities().instance_divisor {
        device.set_vertex_buffers(&[per_vertex, two]).unwrap();
        draw(6).unwrap();
        out_of_range(draw(7), "instanceCount");
        let two_from_one =
            VertexBufferBinding { buffer: &instances, vertex_offset: 1, instance_frequency: 2 };
        device.set_vertex_buffers(&[per_vertex, two_from_one]).unwrap();
        draw(4).unwrap();
        out_of_range(draw(5), "instanceCount");
    } else {
        not_supported(device.set_vertex_buffers(&[per_vertex, two]), "InstanceFrequency of 2");
    }

    // A per-instance stream shorter than the vertices drawn does not limit DrawPrimitives.
    let one = instance_buffer(
        &device,
        &[Instance { offset: [0.0, 0.0], color: Color::new(1, 2, 3, 255) }],
    );
    let short = VertexBufferBinding { buffer: &one, vertex_offset: 0, instance_frequency: 1 };
    device.set_vertex_buffers(&[per_vertex, short]).unwrap();
    device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
    device.draw_indexed_primitives(PrimitiveType::TriangleList, 0, 0, 4, 0, 2).unwrap();
    read_back_buffer(&device);
}

#[test]
fn reach_refuses_instancing() {
    let _v = Validation::new();
    let device = device_with(GraphicsProfile::Reach, params(W, H));
    let effect = BasicEffect::new(&device).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    let (vb, ib) = quad_buffers(&device);
    device.set_vertex_buffer(Some(&vb)).unwrap();
    device.set_indices(Some(&ib)).unwrap();
    not_supported(
        device.draw_instanced_primitives(PrimitiveType::TriangleList, 0, 0, 4, 0, 2, 1),
        "HiDef",
    );
    device.draw_indexed_primitives(PrimitiveType::TriangleList, 0, 0, 4, 0, 2).unwrap();
}

/// Places a 3×2-pixel quad at each instance's `TextureCoordinate1` (in pixels) and paints it
/// with the instance's `Color1`.
const PLACED_VERTEX: &str = "#version 450
layout(set = 1, binding = 0) uniform Vertex { mat4 World; };
layout(location = 0) in vec3 Position;
layout(location = 1) in vec2 TextureCoordinate1;
layout(location = 2) in vec4 Color1;
layout(location = 0) out vec4 tint;
void main() {
    gl_Position = World * vec4(Position.xy + TextureCoordinate1, 0.5, 1.0);
    tint = Color1;
}
";

const TINT_FRAGMENT: &str = "#version 450
layout(location = 0) in vec4 tint;
layout(location = 0) out vec4 color;
void main() { color = tint; }
";

/// XNA's matrix from pixel coordinates (y down) to clip space (y up). Near 0 and far −1 make
/// clip depth equal the vertex's z.
#[cfg(feature = "runtime-effects")]
fn pixels_to_clip() -> Matrix {
    Matrix::create_orthographic_off_center(0.0, W as f32, H as f32, 0.0, 0.0, -1.0)
}

/// Seven instances, each at its own place (stream 1, frequency 1), coloured from stream 2 bound
/// with `frequency`: instance `i` must show colour `i / frequency`, every pixel exact.
#[cfg(feature = "runtime-effects")]
fn draw_with_colour_frequency(frequency: i32) {
    draw_instances(frequency, 4);
}

/// [`draw_with_colour_frequency`] with `num_vertices` passed to `DrawInstancedPrimitives`.
#[cfg(feature = "runtime-effects")]
fn draw_instances(frequency: i32, num_vertices: i32) {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = CustomEffect::new(
        &device,
        &[TechniqueSource {
            name: "Placed",
            passes: &[PassSource { name: "P", vertex: PLACED_VERTEX, fragment: TINT_FRAGMENT }],
        }],
    )
    .unwrap();
    effect.parameter("World").unwrap().set_value(pixels_to_clip()).unwrap();
    let white = Color::new(255, 255, 255, 255);
    let v =
        |x: f32, y: f32| VertexPositionColor { position: Vector3::new(x, y, 0.0), color: white };
    let quad =
        VertexBuffer::with_type::<VertexPositionColor>(&device, 4, BufferUsage::WriteOnly).unwrap();
    quad.set_data(&[v(0.0, 0.0), v(3.0, 0.0), v(0.0, 2.0), v(3.0, 2.0)]).unwrap();
    let ib = IndexBuffer::new(&device, IndexElementSize::SixteenBits, 6, BufferUsage::WriteOnly)
        .unwrap();
    ib.set_data(&[0u16, 1, 2, 1, 3, 2]).unwrap();

    const INSTANCES: usize = 7;
    let offsets: Vec<[f32; 2]> =
        (0..INSTANCES).map(|i| [1.0 + 4.0 * i as f32, 1.0 + 5.0 * (i % 4) as f32]).collect();
    let colours = [
        Color::new(220, 30, 40, 255),
        Color::new(30, 200, 60, 255),
        Color::new(40, 50, 230, 255),
        Color::new(240, 220, 20, 255),
        Color::new(200, 40, 210, 255),
        Color::new(20, 210, 220, 255),
        Color::new(250, 130, 30, 255),
    ];
    let used = INSTANCES.div_ceil(frequency as usize);
    let offset_declaration = VertexDeclaration::new(&[VertexElement::new(
        0,
        VertexElementFormat::Vector2,
        VertexElementUsage::TextureCoordinate,
        1,
    )])
    .unwrap();
    let colour_declaration = VertexDeclaration::new(&[VertexElement::new(
        0,
        VertexElementFormat::Color,
        VertexElementUsage::Color,
        1,
    )])
    .unwrap();
    let offset_vb =
        VertexBuffer::new(&device, &offset_declaration, INSTANCES as i32, BufferUsage::WriteOnly)
            .unwrap();
    offset_vb.set_data(&offsets).unwrap();
    // Exactly as many colours as the frequency needs: one more instance would run past them.
    let colour_vb =
        VertexBuffer::new(&device, &colour_declaration, used as i32, BufferUsage::WriteOnly)
            .unwrap();
    colour_vb.set_data(&colours[..used]).unwrap();
    device
        .set_vertex_buffers(&[
            VertexBufferBinding::new(&quad),
            VertexBufferBinding { buffer: &offset_vb, vertex_offset: 0, instance_frequency: 1 },
            VertexBufferBinding {
                buffer: &colour_vb,
                vertex_offset: 0,
                instance_frequency: frequency,
            },
        ])
        .unwrap();
    device.set_indices(Some(&ib)).unwrap();
    device.clear(CLEAR).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    let draw = |n: i32| {
        device.draw_instanced_primitives(PrimitiveType::TriangleList, 0, 0, num_vertices, 0, 2, n)
    };
    out_of_range(draw(INSTANCES as i32 + frequency), "instanceCount");
    draw(INSTANCES as i32).unwrap();
    let px = read_back_buffer(&device);
    let mut want = vec![CLEAR; (W * H) as usize];
    for (i, [x, y]) in offsets.iter().enumerate() {
        for dy in 0..2 {
            for dx in 0..3 {
                want[((*y as i32 + dy) * W + *x as i32 + dx) as usize] =
                    colours[i / frequency as usize];
            }
        }
    }
    for y in 0..H {
        for x in 0..W {
            assert_eq!(at(&px, W, x, y), at(&want, W, x, y), "frequency {frequency}: ({x}, {y})");
        }
    }
}

#[cfg(feature = "runtime-effects")]
#[test]
fn a_stream_of_frequency_two_steps_once_per_two_instances() {
    if skip_on_sdlgpu("a_stream_of_frequency_two_steps_once_per_two_instances", "no divisor") {
        return;
    }
    draw_with_colour_frequency(2);
}

#[cfg(feature = "runtime-effects")]
#[test]
fn a_stream_of_frequency_three_steps_once_per_three_instances() {
    if skip_on_sdlgpu("a_stream_of_frequency_three_steps_once_per_three_instances", "no divisor") {
        return;
    }
    draw_with_colour_frequency(3);
}

/// `numVertices` is a hint for instanced draws too: the 4-vertex quad drawn with `numVertices`
/// 6 places every instance.
#[cfg(feature = "runtime-effects")]
#[test]
fn num_vertices_is_a_hint_for_instanced_draws() {
    draw_instances(1, 6);
}
