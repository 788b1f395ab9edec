//! Frame capture of instanced draws whose per-instance stream steps at an instance frequency
//! of 2 (Vulkan's vertex attribute divisor): whatever the writer records, the reader opens, and
//! the replay reaches the live final frame byte for byte.

mod common;

use common::{replay_final, scratch};
use xnagraph::{
    BufferUsage, Color, CustomEffect, DeviceOptions, GraphicsDevice, GraphicsProfile, IndexBuffer,
    IndexElementSize, Matrix, PassSource, PresentationParameters, PrimitiveType, TechniqueSource,
    Vector3, VertexBuffer, VertexBufferBinding, VertexDeclaration, VertexElement,
    VertexElementFormat, VertexElementUsage, VertexPositionColor,
};
use xnagraph_graph::capture::record::{NodeRecord, OpRecord};
use xnagraph_graph::capture::Capture;

const W: i32 = 32;
const H: i32 = 24;

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

/// Three frames of seven 3×2 quads, each placed by a frequency-1 stream and coloured by a
/// frequency-2 stream of four colours (instance i shows colour i / 2), the colours rewritten
/// each frame. Returns the final back buffer.
fn render(device: &GraphicsDevice, frames: u32) -> Vec<Color> {
    let effect = CustomEffect::new(
        device,
        &[TechniqueSource {
            name: "Placed",
            passes: &[PassSource { name: "P", vertex: PLACED_VERTEX, fragment: TINT_FRAGMENT }],
        }],
    )
    .unwrap();
    // Pixels (y down) to clip space; near 0 and far −1 keep clip depth equal to z.
    let world = Matrix::create_orthographic_off_center(0.0, W as f32, H as f32, 0.0, 0.0, -1.0);
    effect.parameter("World").unwrap().set_value(world).unwrap();
    let white = Color::new(255, 255, 255, 255);
    let v =
        |x: f32, y: f32| VertexPositionColor { position: Vector3::new(x, y, 0.0), color: white };
    let quad =
        VertexBuffer::with_type::<VertexPositionColor>(device, 4, BufferUsage::WriteOnly).unwrap();
    quad.set_data(&[v(0.0, 0.0), v(3.0, 0.0), v(0.0, 2.0), v(3.0, 2.0)]).unwrap();
    let ib =
        IndexBuffer::new(device, IndexElementSize::SixteenBits, 6, BufferUsage::WriteOnly).unwrap();
    ib.set_data(&[0u16, 1, 2, 1, 3, 2]).unwrap();
    let element =
        |format, usage| VertexDeclaration::new(&[VertexElement::new(0, format, usage, 1)]);
    let offsets: Vec<[f32; 2]> =
        (0..7).map(|i| [1.0 + 4.0 * i as f32, 1.0 + 5.0 * (i % 4) as f32]).collect();
    let offset_vb = VertexBuffer::new(
        device,
        &element(VertexElementFormat::Vector2, VertexElementUsage::TextureCoordinate).unwrap(),
        7,
        BufferUsage::WriteOnly,
    )
    .unwrap();
    offset_vb.set_data(&offsets).unwrap();
    let colour_vb = VertexBuffer::new(
        device,
        &element(VertexElementFormat::Color, VertexElementUsage::Color).unwrap(),
        4,
        BufferUsage::None,
    )
    .unwrap();
    for frame in 0..frames {
        let f = frame as u8;
        let colours = [
            Color::new(220, 30 + 20 * f, 40, 255),
            Color::new(30, 200, 60 + 30 * f, 255),
            Color::new(40 + 40 * f, 50, 230, 255),
            Color::new(240, 220, 20 + 10 * f, 255),
        ];
        colour_vb.set_data(&colours).unwrap();
        device
            .set_vertex_buffers(&[
                VertexBufferBinding::new(&quad),
                VertexBufferBinding { buffer: &offset_vb, vertex_offset: 0, instance_frequency: 1 },
                VertexBufferBinding { buffer: &colour_vb, vertex_offset: 0, instance_frequency: 2 },
            ])
            .unwrap();
        device.set_indices(Some(&ib)).unwrap();
        device.clear(Color::new(10, 20, 30, 255)).unwrap();
        effect.current_technique().passes()[0].apply().unwrap();
        device.draw_instanced_primitives(PrimitiveType::TriangleList, 0, 0, 4, 0, 2, 7).unwrap();
        device.present().unwrap();
    }
    let mut pixels = vec![Color::TRANSPARENT; (W * H) as usize];
    device.get_back_buffer_data(None, &mut pixels, 0, (W * H) as usize).unwrap();
    pixels
}

#[test]
fn a_capture_of_draws_at_instance_frequency_two_opens_and_replays_to_the_live_final_frame() {
    let params = PresentationParameters {
        back_buffer_width: W,
        back_buffer_height: H,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions { validation: true, ..DeviceOptions::from_env() };
    let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap();
    let path = scratch("instance_frequency_2.xgc");
    device.capture_frames(&path, 1..=2).unwrap();
    let live = render(&device, 3);
    device.capture_result().expect("the capture finished").unwrap();
    // Instances 5 and 6 show the third and fourth colours of the last frame: the divisor.
    let at = |x: i32, y: i32| live[(y * W + x) as usize];
    assert_eq!(at(22, 7), Color::new(120, 50, 230, 255));
    assert_eq!(at(26, 12), Color::new(240, 220, 40, 255));
    let capture = Capture::open(&path).unwrap();
    let frequencies: Vec<u32> = capture
        .frames
        .iter()
        .flat_map(|f| &f.flushes)
        .flat_map(|f| &f.nodes)
        .flat_map(|n| match n {
            NodeRecord::Pass { ops, .. } => ops.clone(),
            _ => Vec::new(),
        })
        .filter_map(|op| match op {
            OpRecord::Geometry(_, g) => Some(g.layout.bindings[2].instance_frequency),
            _ => None,
        })
        .collect();
    assert_eq!(frequencies, vec![2, 2]);
    assert_eq!(replay_final(&capture), bytemuck::cast_slice::<Color, u8>(&live));
}
