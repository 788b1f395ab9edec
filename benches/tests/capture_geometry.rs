//! Frame capture of geometry: vertex and index buffers (static, and dynamic rewritten every
//! frame with `Discard`), indexed and user draws through `BasicEffect`, the depth test, and the
//! device states of each draw. A capture of frames 5 to 9 replays to the live final frame byte
//! for byte, on its own (the buffer snapshot carries what was written before frame 5), and so
//! does a trimmed capture.

mod common;

use common::{replay_final, scratch, vulkan};
use xnagraph::{
    BasicEffect, BlendState, BufferUsage, Color, DepthFormat, DepthStencilState, DeviceOptions,
    DynamicVertexBuffer, GraphicsDevice, GraphicsProfile, IndexBuffer, IndexElementSize, Matrix,
    PresentationParameters, PrimitiveType, RasterizerState, SetDataOptions, Vector3, VertexBuffer,
    VertexPositionColor, VertexType,
};
use xnagraph_graph::capture::record::{NodeRecord, OpRecord, StreamRecord};
use xnagraph_graph::capture::trim::trim;
use xnagraph_graph::capture::Capture;
use xnagraph_graph::geometry::DrawCall;

const W: i32 = 64;
const H: i32 = 48;

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

/// The vertex at pixel edge coordinates (x, y) and depth z.
fn v(x: f32, y: f32, z: f32, color: Color) -> VertexPositionColor {
    let position = Vector3::new(x / W as f32 * 2.0 - 1.0, 1.0 - y / H as f32 * 2.0, z);
    VertexPositionColor { position, color }
}

/// A quad's corners TL, TR, BL, BR (a strip, or indexed 0 1 2, 1 3 2).
fn quad(x: f32, y: f32, w: f32, h: f32, z: f32, c: Color) -> [VertexPositionColor; 4] {
    [v(x, y, z, c), v(x + w, y, z, c), v(x, y + h, z, c), v(x + w, y + h, z, c)]
}

/// Ten frames of a scene whose every draw depends on buffer content or on the depth test:
/// four static quads (one vertex and one index buffer, written once before frame 0) at four
/// depths, drawn indexed; a dynamic quad rewritten with `Discard` every frame at a new place,
/// which the depth test puts behind two of them and in front of the others; a user-indexed
/// triangle blended additively; the effect's diffuse colour changed every frame.
fn render(device: &GraphicsDevice, frames: u32) -> Vec<u8> {
    let mut effect = BasicEffect::new(device).unwrap();
    effect.vertex_color_enabled = true;
    let colors = [
        Color::new(220, 40, 30, 255),
        Color::new(30, 200, 60, 255),
        Color::new(40, 60, 230, 255),
        Color::new(210, 200, 40, 255),
    ];
    let mut statics = Vec::new();
    for (i, c) in colors.iter().enumerate() {
        let x = 4.0 + 13.0 * i as f32;
        statics.extend(quad(x, 6.0, 11.0, 20.0, 0.2 + 0.2 * i as f32, *c));
    }
    let vb =
        VertexBuffer::with_type::<VertexPositionColor>(device, 16, BufferUsage::WriteOnly).unwrap();
    vb.set_name("static quads");
    vb.set_data(&statics).unwrap();
    let ib = IndexBuffer::new(device, IndexElementSize::SixteenBits, 6, BufferUsage::None).unwrap();
    ib.set_name("quad indices");
    ib.set_data(&[0u16, 1, 2, 1, 3, 2]).unwrap();
    let moving = DynamicVertexBuffer::new(
        device,
        &VertexPositionColor::vertex_declaration(),
        4,
        BufferUsage::WriteOnly,
    )
    .unwrap();
    moving.set_name("moving quad");
    for frame in 0..frames {
        device.clear(Color::new(12, 16, 24, 255)).unwrap();
        device.set_depth_stencil_state(DepthStencilState::DEFAULT).unwrap();
        device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
        device.set_blend_state(BlendState::OPAQUE).unwrap();
        effect.diffuse_color = Vector3::new(1.0, 1.0 - frame as f32 * 0.06, 1.0);
        effect.current_technique().passes()[0].apply().unwrap();
        device.set_vertex_buffer(Some(&vb)).unwrap();
        device.set_indices(Some(&ib)).unwrap();
        for i in 0..4 {
            device.draw_indexed_primitives(PrimitiveType::TriangleList, 4 * i, 0, 4, 0, 2).unwrap();
        }
        // The first quad twice more, lower down, moved by World only: a run the device records
        // as one draw with a repeat.
        for k in 1..3 {
            effect.world = Matrix::create_translation(0.0, -0.25 * k as f32, 0.0);
            effect.current_technique().passes()[0].apply().unwrap();
            device.draw_indexed_primitives(PrimitiveType::TriangleList, 0, 0, 4, 0, 2).unwrap();
        }
        effect.world = Matrix::IDENTITY;
        let x = 2.0 + 4.0 * frame as f32;
        let white = Color::new(240, 240, 240, 255);
        moving
            .set_data_with_options(
                0,
                &quad(x, 12.0, 20.0, 22.0, 0.5, white),
                0,
                4,
                0,
                SetDataOptions::Discard,
            )
            .unwrap();
        device.set_vertex_buffer(Some(moving.as_vertex_buffer())).unwrap();
        device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
        device.set_blend_state(BlendState::ADDITIVE).unwrap();
        let tint = Color::new(20 * frame as u8, 60, 10, 255);
        let triangle =
            [v(40.0, 30.0, 0.1, tint), v(62.0, 30.0, 0.1, tint), v(40.0, 46.0, 0.1, tint)];
        device
            .draw_user_indexed_primitives(
                PrimitiveType::TriangleList,
                &triangle,
                0,
                3,
                &[2u16, 0, 1],
                0,
                1,
            )
            .unwrap();
        device.present().unwrap();
    }
    let mut pixels = vec![Color::TRANSPARENT; (W * H) as usize];
    device.get_back_buffer_data(None, &mut pixels, 0, (W * H) as usize).unwrap();
    bytemuck::cast_slice(&pixels).to_vec()
}

/// Captures frames 5 to 9 of a 10-frame run; returns the live final frame and the capture.
fn capture_run(name: &str) -> (Vec<u8>, Capture) {
    let path = scratch(name);
    let device = device();
    device.capture_frames(&path, 5..=9).unwrap();
    let live = render(&device, 10);
    let summary = device.capture_result().expect("the capture finished").unwrap();
    assert_eq!(summary.frames, 5);
    assert!(summary.raw_geometry_bytes > 0, "{summary:?}");
    (live, Capture::open(&path).unwrap())
}

#[test]
fn a_capture_of_geometry_frames_5_to_9_replays_to_the_live_final_frame_exactly() {
    let (live, capture) = capture_run("geometry_5_9.xgc");
    assert!(capture.complete);
    assert_eq!(capture.version, xnagraph_graph::capture::container::VERSION);
    // The buffers, as created and named.
    let buffer = |name: &str| capture.buffers.iter().find(|b| b.name == name).unwrap();
    let (vb, ib, moving) = (buffer("static quads"), buffer("quad indices"), buffer("moving quad"));
    assert_eq!((vb.desc.size, vb.desc.dynamic, vb.write_only), (16 * 16, false, true));
    assert_eq!((ib.desc.size, ib.desc.dynamic, ib.write_only), (12, false, false));
    assert_eq!((moving.desc.size, moving.desc.dynamic), (4 * 16, true));
    // The static buffers' content is in the snapshot; the dynamic one's writes in each frame.
    let snapshot: Vec<_> = capture.buffer_snapshot.iter().map(|s| s.buffer).collect();
    assert!(snapshot.contains(&vb.key) && snapshot.contains(&ib.key), "{snapshot:?}");
    for frame in &capture.frames {
        let nodes = frame.flushes.iter().flat_map(|f| &f.nodes);
        let writes: Vec<_> = nodes
            .filter_map(|n| match n {
                NodeRecord::BufferUpload { buffer, options, .. } => Some((*buffer, *options)),
                _ => None,
            })
            .collect();
        assert_eq!(writes, vec![(moving.key, xnagraph_graph::SetDataOptions::Discard)]);
        let draws: Vec<_> = frame
            .flushes
            .iter()
            .flat_map(|f| &f.nodes)
            .flat_map(|n| match n {
                NodeRecord::Pass { ops, .. } => ops.clone(),
                _ => Vec::new(),
            })
            .filter_map(|op| match op {
                OpRecord::Geometry(d, g) => Some((d, g)),
                _ => None,
            })
            .collect();
        assert_eq!(draws.len(), 7, "four indexed, one repeated, one dynamic, one user draw");
        assert!(matches!(draws[0].1.call, DrawCall::Indexed { .. }));
        let repeats: Vec<_> = draws.iter().map(|(_, g)| g.repeats.len()).collect();
        assert_eq!(repeats, [0, 0, 0, 0, 1, 0, 0], "the run of two is one draw and a repeat");
        assert!(
            matches!(draws[5].1.streams[0], StreamRecord::Buffer { buffer, .. } if buffer == moving.key)
        );
        assert!(matches!(draws[6].1.streams[0], StreamRecord::User { .. }));
        assert_eq!(draws[0].0.depth_stencil, xnagraph_graph::DepthStencilState::DEFAULT);
        assert_eq!(draws[6].0.blend, xnagraph_graph::BlendState::ADDITIVE);
    }
    assert_eq!(replay_final(&capture), live);
}

#[test]
fn without_its_buffer_snapshot_the_geometry_replay_differs() {
    // The check of the comparison above: the static buffers written before frame 5 matter.
    let (live, mut capture) = capture_run("geometry_no_snapshot.xgc");
    capture.buffer_snapshot.clear();
    assert_ne!(replay_final(&capture), live);
}

#[test]
fn a_trimmed_geometry_capture_replays_to_the_same_final_frame() {
    let (live, capture) = capture_run("geometry_to_trim.xgc");
    let mut backend = vulkan();
    let (bytes, stats) = trim(&capture, 2..=4, &mut backend, Vec::new()).unwrap();
    assert_eq!(stats.frames, 3);
    let trimmed = Capture::from_bytes(&bytes).unwrap();
    assert_eq!(trimmed.frames.iter().map(|f| f.number).collect::<Vec<_>>(), vec![7, 8, 9]);
    assert_eq!(trimmed.buffers, capture.buffers);
    assert_eq!(trimmed.buffer_snapshot.len(), capture.buffers.len());
    assert_eq!(replay_final(&trimmed), live);
}

#[test]
#[ignore = "writes a seed of the fuzz corpus; run by benches/fuzz.sh --regenerate"]
fn write_fuzz_seed() {
    let path =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/geometry.xgc");
    let device = device();
    device.capture_frames(&path, 1..=2).unwrap();
    render(&device, 3);
    device.capture_result().expect("the capture finished").unwrap();
}

/// A 32x24 PreserveContents target, cleared in frame 0 only; every frame draws a quad at a
/// depth that grows with the frame, which the depth test (with a depth buffer) keeps out
/// wherever an earlier frame's nearer quad was: the target's content, depth included, carries
/// across frames.
fn render_preserved(device: &GraphicsDevice, frames: u32, depth: DepthFormat, multisample: i32) {
    use xnagraph::{RenderTarget2D, RenderTargetUsage, SpriteBatch, SurfaceFormat};
    let target = RenderTarget2D::with_options(
        device,
        32,
        24,
        false,
        SurfaceFormat::Color,
        depth,
        multisample,
        RenderTargetUsage::PreserveContents,
    )
    .unwrap();
    let mut effect = BasicEffect::new(device).unwrap();
    effect.vertex_color_enabled = true;
    let mut batch = SpriteBatch::new(device).unwrap();
    for frame in 0..frames {
        device.set_render_target(Some(&target)).unwrap();
        if frame == 0 {
            device.clear(Color::new(5, 10, 20, 255)).unwrap();
        }
        device.set_depth_stencil_state(DepthStencilState::DEFAULT).unwrap();
        device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
        effect.current_technique().passes()[0].apply().unwrap();
        let c = Color::new(20 * frame as u8, 200, 90, 255);
        let corners = quad(2.0 + 3.0 * frame as f32, 2.0, 14.0, 12.0, 0.1 + 0.05 * frame as f32, c);
        device.draw_user_primitives(PrimitiveType::TriangleStrip, &corners, 0, 2).unwrap();
        device.set_render_target(None).unwrap();
        device.clear(Color::BLACK).unwrap();
        batch.begin().unwrap();
        batch.draw(&target, xnagraph::Vector2::new(3.0, 5.0), Color::WHITE).unwrap();
        batch.end().unwrap();
        device.present().unwrap();
    }
}

#[test]
fn a_replay_that_loads_a_depth_buffer_drawn_before_the_capture_restores_it_from_the_snapshot() {
    let path = scratch("preserved_depth.xgc");
    let device = device();
    device.capture_frames(&path, 5..=9).unwrap();
    render_preserved(&device, 10, DepthFormat::Depth24, 0);
    device.capture_result().expect("the capture finished").unwrap();
    let mut live = vec![Color::TRANSPARENT; (W * H) as usize];
    device.get_back_buffer_data(None, &mut live, 0, (W * H) as usize).unwrap();
    let capture = Capture::open(&path).unwrap();
    assert_eq!(capture.depth_snapshot.len(), 1);
    assert_eq!(replay_final(&capture), bytemuck::cast_slice::<Color, u8>(&live).to_vec());
}

#[test]
fn a_replay_that_loads_a_multisampled_depth_buffer_drawn_before_the_capture_restores_it() {
    // Every sample of the depth image and of the colour samples are in the snapshot.
    let path = scratch("preserved_ms_depth.xgc");
    let device = device();
    device.capture_frames(&path, 5..=9).unwrap();
    render_preserved(&device, 10, DepthFormat::Depth24, 4);
    device.capture_result().expect("the capture finished").unwrap();
    let mut live = vec![Color::TRANSPARENT; (W * H) as usize];
    device.get_back_buffer_data(None, &mut live, 0, (W * H) as usize).unwrap();
    let mut capture = Capture::open(&path).unwrap();
    assert_eq!((capture.depth_snapshot.len(), capture.sample_snapshot.len()), (1, 1));
    assert_eq!(replay_final(&capture), bytemuck::cast_slice::<Color, u8>(&live).to_vec());
    // Without the depth snapshot, the first frame that loads the depth is refused.
    capture.depth_snapshot.clear();
    let mut backend = vulkan();
    let e = match xnagraph_benches::replay::replay(&mut backend, &capture, 1, None, || {}) {
        Ok(_) => panic!("a replay without the depth snapshot must be refused"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("frame 5 uses the depth/stencil image of texture"), "{e}");
}

#[test]
fn a_replay_that_loads_a_multisample_image_drawn_before_the_capture_restores_it() {
    let path = scratch("preserved_samples.xgc");
    let device = device();
    device.capture_frames(&path, 5..=9).unwrap();
    render_preserved(&device, 10, DepthFormat::None, 4);
    device.capture_result().expect("the capture finished").unwrap();
    let mut live = vec![Color::TRANSPARENT; (W * H) as usize];
    device.get_back_buffer_data(None, &mut live, 0, (W * H) as usize).unwrap();
    let capture = Capture::open(&path).unwrap();
    assert_eq!(capture.sample_snapshot.len(), 1);
    assert_eq!(replay_final(&capture), bytemuck::cast_slice::<Color, u8>(&live).to_vec());
}

/// The event list of a replayed frame names each geometry draw by its XNA call, with its
/// effect, counts and the states the scene set for it, in the order the game drew.
#[test]
fn the_event_list_shows_each_geometry_draw_with_its_call_counts_and_states() {
    use xnagraph_benches::profile::events::Event;
    let (_, capture) = capture_run("geometry_events.xgc");
    let options = xnagraph_benches::profile::ProfileOptions {
        repeat: 1,
        list_frame: Some(2),
        ..Default::default()
    };
    let run = xnagraph_benches::profile::profile(&mut vulkan(), &capture, &options, || {}).unwrap();
    let draws: Vec<_> = run
        .events
        .iter()
        .flat_map(|n| &n.events)
        .filter_map(|e| match e {
            Event::Draw(d) => Some(d),
            _ => None,
        })
        .collect();
    let calls: Vec<_> = draws
        .iter()
        .map(|d| {
            let primitive = d.primitive.as_deref().unwrap();
            (d.call, primitive, d.primitives, d.vertices, d.instances, d.repeats)
        })
        .collect();
    let indexed_quad = ("DrawIndexedPrimitives", "TriangleList", 2, 6, 1, 0);
    assert_eq!(
        calls,
        [
            indexed_quad,
            indexed_quad,
            indexed_quad,
            indexed_quad,
            ("DrawIndexedPrimitives", "TriangleList", 2, 6, 1, 1),
            ("DrawPrimitives", "TriangleStrip", 2, 4, 1, 0),
            ("DrawIndexedPrimitives", "TriangleList", 1, 3, 1, 0),
        ]
    );
    for (i, d) in draws.iter().enumerate() {
        assert_eq!(d.effect, "BasicEffect", "draw {i}");
        assert_eq!(d.depth_stencil, "Default", "draw {i}");
        assert_eq!(d.rasterizer, "CullNone", "draw {i}");
        assert_eq!(d.blend, if i == 6 { "Additive" } else { "Opaque" }, "draw {i}");
        assert_eq!(d.viewport, [0, 0, W, H], "draw {i}");
        assert_eq!(d.sprites, 0);
    }
    // The frame's clear was folded into its pass: the pass loads by clearing.
    let pass = run.events.iter().find(|n| n.kind == "pass").expect("a pass");
    assert!(pass.ops.starts_with("clear/"), "{}", pass.ops);
}
