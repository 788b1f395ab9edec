//! Frame capture of custom geometry effects, instanced draws and occlusion queries (format
//! 3.0). Eight frames draw, every frame: a `BasicEffect` occluder that moves; a textured quad
//! through a `CustomEffect` pass (vertex and fragment uniforms and a fragment sampler, values
//! changed every frame, the texture written before the capture) inside one occlusion query; an
//! instanced quad through the effect's second technique (a per-instance stream of offsets and
//! colours, a count that changes every frame) inside another; from frame 1 on the game reads the
//! previous frame's counts. A capture of frames 3 to 6 holds the counts read inside it, replays
//! to the live frame 6 byte for byte, and each query's count of each span in the replay equals
//! the live `PixelCount`.

mod common;

use common::{scratch, vulkan};
use xnagraph::{
    BasicEffect, BufferUsage, Color, CustomEffect, DepthFormat, DepthStencilState, DeviceOptions,
    GraphicsDevice, GraphicsProfile, IndexBuffer, IndexElementSize, Matrix, OcclusionQuery,
    PassSource, PresentationParameters, PrimitiveType, RasterizerState, SamplerState,
    TechniqueSource, Texture2D, Vector2, Vector3, Vector4, VertexBuffer, VertexBufferBinding,
    VertexDeclaration, VertexElement, VertexElementFormat, VertexElementUsage, VertexPositionColor,
    VertexPositionTexture,
};
use xnagraph_graph::capture::record::{NodeRecord, OpRecord, ShaderRecord};
use xnagraph_graph::capture::trim::trim;
use xnagraph_graph::capture::{Capture, QueryCheck, Replayer};
use xnagraph_graph::Backend;

const W: i32 = 64;
const H: i32 = 48;

const TEXTURED_VERTEX: &str = "#version 450
layout(set = 1, binding = 0) uniform Vertex { mat4 World; vec2 Offset; };
layout(location = 0) in vec3 Position;
layout(location = 1) in vec2 TextureCoordinate;
layout(location = 0) out vec2 uv;
void main() {
    gl_Position = World * vec4(Position.xy + Offset, Position.z, 1.0);
    uv = TextureCoordinate;
}
";

const TEXTURED_FRAGMENT: &str = "#version 450
layout(set = 3, binding = 0) uniform Fragment { vec4 Tint; };
layout(set = 2, binding = 0) uniform sampler2D Image;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = texture(Image, uv) * Tint; }
";

const INSTANCED_VERTEX: &str = "#version 450
layout(set = 1, binding = 0) uniform Vertex { mat4 World; };
layout(location = 0) in vec3 Position;
layout(location = 1) in vec2 TextureCoordinate1;
layout(location = 2) in vec4 Color1;
layout(location = 0) out vec4 tint;
void main() {
    gl_Position = World * vec4(Position.xy + TextureCoordinate1, 0.6, 1.0);
    tint = Color1;
}
";

const INSTANCED_FRAGMENT: &str = "#version 450
layout(location = 0) in vec4 tint;
layout(location = 0) out vec4 color;
void main() { color = tint; }
";

/// One per-instance element: an offset in pixels (`TextureCoordinate1`) and a colour
/// (`Color1`).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Instance {
    offset: [f32; 2],
    color: Color,
}

fn device() -> GraphicsDevice {
    let params = PresentationParameters {
        back_buffer_width: W,
        back_buffer_height: H,
        depth_stencil_format: DepthFormat::Depth24,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions { validation: true, ..DeviceOptions::from_env() };
    GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap()
}

/// XNA's matrix from pixel coordinates (y down) to clip space (y up). Near 0 and far −1 make
/// clip depth equal the vertex's z.
fn pixels_to_clip() -> Matrix {
    Matrix::create_orthographic_off_center(0.0, W as f32, H as f32, 0.0, 0.0, -1.0)
}

/// The vertex at pixel (x, y) and depth z, in clip space.
fn v(x: f32, y: f32, z: f32, color: Color) -> VertexPositionColor {
    let position = Vector3::new(x / W as f32 * 2.0 - 1.0, 1.0 - y / H as f32 * 2.0, z);
    VertexPositionColor { position, color }
}

/// What the run observed: the final frame's pixels, each query's last count, and the counts
/// of the earlier frames' spans (frame, textured, instanced), read in the next frame.
struct Live {
    pixels: Vec<u8>,
    textured_count: i32,
    instanced_count: i32,
    earlier: Vec<(u32, i32, i32)>,
}

/// Waits (without presenting) for `query`'s last span, submitted with the previous frame.
fn wait_for_count(query: &OcclusionQuery) -> i32 {
    for _ in 0..2000 {
        if query.is_complete().unwrap() {
            return query.pixel_count().unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("the query never completed");
}

/// Renders `frames` frames (see the module doc); returns the last frame and the queries'
/// counts of its spans.
fn render(device: &GraphicsDevice, frames: u32) -> Live {
    let effect = CustomEffect::new(
        device,
        &[
            TechniqueSource {
                name: "Textured",
                passes: &[PassSource {
                    name: "Main",
                    vertex: TEXTURED_VERTEX,
                    fragment: TEXTURED_FRAGMENT,
                }],
            },
            TechniqueSource {
                name: "Instanced",
                passes: &[PassSource {
                    name: "Each",
                    vertex: INSTANCED_VERTEX,
                    fragment: INSTANCED_FRAGMENT,
                }],
            },
        ],
    )
    .unwrap();
    let mut basic = BasicEffect::new(device).unwrap();
    basic.vertex_color_enabled = true;
    // A 4×4 texture of distinct texels, written in frame 0 (the capture's snapshot holds it).
    let image = Texture2D::new(device, 4, 4).unwrap();
    let texels: Vec<Color> =
        (0..16u8).map(|i| Color::new(40 + 13 * i, 250 - 11 * i, 30 + 7 * (i % 5), 255)).collect();
    image.set_data(&texels).unwrap();
    // A 16×12-pixel quad at the origin, texture coordinates across the whole image.
    let t = |x: f32, y: f32, u: f32, w: f32| VertexPositionTexture {
        position: Vector3::new(x, y, 0.5),
        texture_coordinate: Vector2::new(u, w),
    };
    let quad = VertexBuffer::with_type::<VertexPositionTexture>(device, 4, BufferUsage::WriteOnly)
        .unwrap();
    quad.set_data(&[
        t(0.0, 0.0, 0.0, 0.0),
        t(16.0, 0.0, 1.0, 0.0),
        t(0.0, 12.0, 0.0, 1.0),
        t(16.0, 12.0, 1.0, 1.0),
    ])
    .unwrap();
    // The instances' quad (3×2 pixels, indexed) and five instances.
    let white = Color::new(255, 255, 255, 255);
    let p =
        |x: f32, y: f32| VertexPositionColor { position: Vector3::new(x, y, 0.0), color: white };
    let small =
        VertexBuffer::with_type::<VertexPositionColor>(device, 4, BufferUsage::WriteOnly).unwrap();
    small.set_data(&[p(0.0, 0.0), p(3.0, 0.0), p(0.0, 2.0), p(3.0, 2.0)]).unwrap();
    let ib =
        IndexBuffer::new(device, IndexElementSize::SixteenBits, 6, BufferUsage::WriteOnly).unwrap();
    ib.set_data(&[0u16, 1, 2, 1, 3, 2]).unwrap();
    let instances: Vec<Instance> = (0..5)
        .map(|i| Instance {
            offset: [36.0 + 5.0 * i as f32, 30.0 + 3.0 * i as f32],
            color: Color::new(200 - 30 * i as u8, 40 + 40 * i as u8, 90, 255),
        })
        .collect();
    let declaration = VertexDeclaration::new(&[
        VertexElement::new(
            0,
            VertexElementFormat::Vector2,
            VertexElementUsage::TextureCoordinate,
            1,
        ),
        VertexElement::new(8, VertexElementFormat::Color, VertexElementUsage::Color, 1),
    ])
    .unwrap();
    let per_instance = VertexBuffer::new(device, &declaration, 5, BufferUsage::WriteOnly).unwrap();
    per_instance.set_data(&instances).unwrap();
    let textured_query = OcclusionQuery::new(device).unwrap();
    let instanced_query = OcclusionQuery::new(device).unwrap();

    let mut pixels = Vec::new();
    let mut earlier = Vec::new();
    for frame in 0..frames {
        let f = frame as f32;
        if frame > 0 {
            // The game reads the previous frame's counts (which a capture records).
            let counts = (wait_for_count(&textured_query), wait_for_count(&instanced_query));
            earlier.push((frame - 1, counts.0, counts.1));
        }
        device.clear(Color::new(12, 16, 24, 255)).unwrap();
        device.set_depth_stencil_state(DepthStencilState::DEFAULT).unwrap();
        device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
        device.set_sampler_state(0, SamplerState::POINT_CLAMP).unwrap();
        // The occluder, nearer than both effects' draws, moving right and down.
        basic.current_technique().passes()[0].apply().unwrap();
        let (x, y, c) = (6.0 + 2.0 * f, 4.0 + f, Color::new(230, 220, 40, 255));
        let occluder = [
            v(x, y, 0.2, c),
            v(x + 10.0, y, 0.2, c),
            v(x, y + 30.0, 0.2, c),
            v(x + 10.0, y + 30.0, 0.2, c),
        ];
        device.draw_user_primitives(PrimitiveType::TriangleStrip, &occluder, 0, 2).unwrap();
        // The textured quad, its offset and tint new every frame, behind the occluder.
        let parameter = |name| effect.parameter(name).unwrap();
        effect.set_current_technique("Textured").unwrap();
        parameter("World").set_value(pixels_to_clip()).unwrap();
        parameter("Offset").set_value(Vector2::new(4.0 + 3.0 * f, 6.0 + f)).unwrap();
        parameter("Tint").set_value(Vector4::new(1.0, 0.6 + 0.05 * f, 0.9, 1.0)).unwrap();
        parameter("Image").set_value(&image).unwrap();
        effect.current_technique().passes()[0].apply().unwrap();
        device.set_vertex_buffer(Some(&quad)).unwrap();
        textured_query.begin().unwrap();
        device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
        textured_query.end().unwrap();
        // The instances: 1 + frame % 5 of them.
        effect.set_current_technique("Instanced").unwrap();
        effect.current_technique().passes()[0].apply().unwrap();
        device
            .set_vertex_buffers(&[
                VertexBufferBinding::new(&small),
                VertexBufferBinding {
                    buffer: &per_instance,
                    vertex_offset: 0,
                    instance_frequency: 1,
                },
            ])
            .unwrap();
        device.set_indices(Some(&ib)).unwrap();
        let count = 1 + (frame as i32 % 5);
        instanced_query.begin().unwrap();
        device
            .draw_instanced_primitives(PrimitiveType::TriangleList, 0, 0, 4, 0, 2, count)
            .unwrap();
        instanced_query.end().unwrap();
        device.present().unwrap();
        if frame + 1 == frames {
            let mut colors = vec![Color::TRANSPARENT; (W * H) as usize];
            device.get_back_buffer_data(None, &mut colors, 0, (W * H) as usize).unwrap();
            pixels = bytemuck::cast_slice(&colors).to_vec();
        }
    }
    // The last spans' counts, polled through further frames (after the capture's last).
    let mut counts = [None, None];
    for _ in 0..200 {
        for (count, query) in counts.iter_mut().zip([&textured_query, &instanced_query]) {
            if count.is_none() && query.is_complete().unwrap() {
                *count = Some(query.pixel_count().unwrap());
            }
        }
        if counts.iter().all(Option::is_some) {
            break;
        }
        device.present().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let [Some(textured_count), Some(instanced_count)] = counts else {
        panic!("the queries never completed")
    };
    Live { pixels, textured_count, instanced_count, earlier }
}

/// Captures frames 3 to 6 of a 7-frame run; returns what the run observed and the capture.
fn capture_run(name: &str) -> (Live, Capture) {
    let path = scratch(name);
    let device = device();
    device.capture_frames(&path, 3..=6).unwrap();
    let live = render(&device, 7);
    let summary = device.capture_result().expect("the capture finished").unwrap();
    assert_eq!(summary.frames, 4);
    (live, Capture::open(&path).unwrap())
}

/// What a replay of `capture` observed: the final back buffer, the two queries' counts and
/// the replay's checks of the counts the file holds.
fn replay(capture: &Capture) -> (Vec<u8>, Vec<u64>, Vec<QueryCheck>) {
    let mut backend = vulkan();
    let mut replayer = Replayer::new(&mut backend, capture).unwrap();
    for frame in &capture.frames {
        replayer.replay_frame(&mut backend, capture, frame).unwrap();
    }
    let pixels = replayer.read_back(&mut backend, capture.device.back_buffer, 0, 0).unwrap();
    replayer.finish(&mut backend).unwrap();
    let counts = (0..capture.queries.len() as u32)
        .map(|q| replayer.query_result(&mut backend, q).unwrap().expect("the span completed"))
        .collect();
    let messages = backend.diagnostics().take_messages();
    assert!(messages.is_empty(), "{messages:?}");
    (pixels, counts, replayer.query_checks().to_vec())
}

#[test]
fn effects_instances_and_queries_of_frames_3_to_6_replay_to_the_live_pixels_and_counts() {
    let (live, capture) = capture_run("effects_3_6.xgc");
    assert!(capture.complete);
    assert_eq!(capture.version, xnagraph_graph::capture::container::VERSION);
    // The effect's two passes, with their names and sources; the two queries.
    let passes: Vec<_> =
        capture.geometry_effects.iter().map(|e| (e.technique.as_str(), e.pass.as_str())).collect();
    assert_eq!(passes, vec![("Textured", "Main"), ("Instanced", "Each")]);
    assert_eq!(capture.geometry_effects[0].fragment_glsl, TEXTURED_FRAGMENT);
    assert_eq!(capture.queries.len(), 2);
    for frame in &capture.frames {
        let ops: Vec<_> = frame
            .flushes
            .iter()
            .flat_map(|f| &f.nodes)
            .flat_map(|n| match n {
                NodeRecord::Pass { ops, .. } => ops.clone(),
                _ => Vec::new(),
            })
            .collect();
        let queries: Vec<_> = ops
            .iter()
            .filter_map(|op| match op {
                OpRecord::Query { query, begin } => Some((*query, *begin)),
                _ => None,
            })
            .collect();
        assert_eq!(queries, vec![(0, true), (0, false), (1, true), (1, false)]);
        let custom: Vec<_> = ops
            .iter()
            .filter_map(|op| match op {
                OpRecord::Geometry(d, g) => match d.shader {
                    ShaderRecord::CustomGeometry(e) => Some((e, g.instances, g.custom.clone())),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        assert_eq!(custom.len(), 2, "the textured and the instanced draw");
        let (textured, instanced) = (custom[0].2.as_ref().unwrap(), custom[1].2.as_ref().unwrap());
        assert_eq!((custom[0].0, custom[0].1, textured.samplers.len()), (0, 1, 1));
        assert_eq!(textured.fragment_uniforms.len(), 16, "Tint");
        assert_eq!(instanced.effect, 1);
        assert_eq!(
            custom[1].1,
            1 + (frame.number as u32 % 5),
            "instances of frame {}",
            frame.number
        );
    }
    assert!(live.textured_count > 0 && live.instanced_count > 0);
    assert_ne!(live.textured_count, live.instanced_count);
    // The counts the game read inside the capture (of frames 3 to 5's spans, read in frames 4
    // to 6) are in the file, at their spans; the last frame's were read after it ended.
    let recorded: Vec<_> = capture
        .query_results
        .iter()
        .map(|r| (capture.frames[r.frame].number, r.query, r.pixel_count))
        .collect();
    let mut expected = Vec::new();
    for &(frame, textured, instanced) in &live.earlier[3..] {
        expected.push((u64::from(frame), 0, textured as u64));
        expected.push((u64::from(frame), 1, instanced as u64));
    }
    assert_eq!(recorded, expected);
    let (pixels, counts, checks) = replay(&capture);
    assert!(pixels == live.pixels, "the replay's final frame differs from the live one");
    assert_eq!(counts, vec![live.textured_count as u64, live.instanced_count as u64]);
    // The replay counted each of those spans as the live run did.
    let checked: Vec<_> = checks.iter().map(|c| (c.frame, c.query, c.replayed)).collect();
    assert_eq!(checked, expected);
    assert!(checks.iter().all(|c| c.recorded == c.replayed), "{checks:?}");
    // The instance counts differ from frame to frame, so the instanced query's counts do.
    let instanced: Vec<_> = expected.iter().filter(|e| e.1 == 1).map(|e| e.2).collect();
    assert!(instanced.windows(2).all(|w| w[0] != w[1]), "{instanced:?}");
}

#[test]
fn a_trimmed_capture_of_effects_and_queries_replays_to_the_same_frame_and_counts() {
    let (live, capture) = capture_run("effects_to_trim.xgc");
    let mut backend = vulkan();
    let (bytes, stats) = trim(&capture, 1..=3, &mut backend, Vec::new()).unwrap();
    assert_eq!(stats.frames, 3);
    let trimmed = Capture::from_bytes(&bytes).unwrap();
    assert_eq!(trimmed.frames.iter().map(|f| f.number).collect::<Vec<_>>(), vec![4, 5, 6]);
    assert_eq!(trimmed.geometry_effects, capture.geometry_effects);
    // The counts of frames 4 and 5's spans stay with them.
    let frames: Vec<_> =
        trimmed.query_results.iter().map(|r| trimmed.frames[r.frame].number).collect();
    assert_eq!(frames, vec![4, 4, 5, 5]);
    let (pixels, counts, checks) = replay(&trimmed);
    assert!(pixels == live.pixels, "the trimmed replay's final frame differs from the live one");
    assert_eq!(counts, vec![live.textured_count as u64, live.instanced_count as u64]);
    assert_eq!(checks.len(), 4);
    assert!(checks.iter().all(|c| c.recorded == c.replayed), "{checks:?}");
}

#[test]
fn the_replay_tool_lists_the_effects_and_checks_the_counts() {
    let _ = capture_run("effects_cli.xgc");
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("effects_cli.xgc");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_xnagraph-replay"))
            .args(args)
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let info = run(&["info"]);
    assert!(info.contains("geometry effect 1: technique \"Instanced\" pass \"Each\""), "{info}");
    assert!(info.contains("occlusion queries: 2, 6 counts read by the game"), "{info}");
    let replay = run(&["replay"]);
    assert!(
        replay.contains("occlusion queries: 6 of 6 counts the live run read are equal"),
        "{replay}"
    );
}

#[test]
#[ignore = "writes a seed of the fuzz corpus; run by benches/fuzz.sh --regenerate"]
fn write_fuzz_seed() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/effects.xgc");
    let device = device();
    device.capture_frames(&path, 1..=2).unwrap();
    render(&device, 3);
    device.capture_result().expect("the capture finished").unwrap();
}
