//! A multisampled target's samples restored on SDL_gpu from sample planes (a Vulkan capture's
//! sample snapshot, replayed): an upload of the planes, then a pass that only loads the samples
//! and resolves them, then a readback of the resolved image. Every texel's samples differ, and
//! each is a multiple of 4 so their average is exact: the resolved texel is the average of the
//! four planes' texels, which a restore writing one plane into every sample, or leaving the
//! samples undefined (poisoned magenta), does not give. A 4x cube target restores each face from
//! its own planes into its own multisample texture. A readback of samples stays refused. The
//! plans are written by hand.

use std::sync::Arc;

use xnagraph_graph::{
    sample_planes_size, Backend, BackendError, ColorBinding, FrameCommands, FramePlan, Image,
    LoadOp, Node, PassSegment, PlanCost, PlanNode, PlanNodeKind, PlannedAttachment, PlannedPass,
    Readback, ReadbackId, Rect, RenderTargetDesc, RenderTargetUsage, SegmentStart, Slices, StoreOp,
    SurfaceFormat, TextureDesc, TextureState, Upload,
};
use xnagraph_sdlgpu::{SdlGpuBackend, SdlGpuConfig};

const SAMPLES: u32 = 4;

fn node(kind: PlanNodeKind) -> PlanNode {
    PlanNode { buffer_barriers: Vec::new(), barriers: Vec::new(), kind }
}

/// Channel `c` of texel `i` of sample `s` of layer `layer`: a multiple of 4, differing from
/// sample to sample and texel to texel.
fn value(layer: u32, s: u32, i: u32, c: u32) -> u8 {
    (4 * ((7 * i + 13 * c + 11 * s + 17 * layer + (s * i) % 5) % 64)) as u8
}

/// The planes of layer `layer` of a `w` × `h` RGBA8 target.
fn planes(layer: u32, (w, h): (u32, u32)) -> Vec<u8> {
    let mut bytes = Vec::new();
    for s in 0..SAMPLES {
        for i in 0..w * h {
            bytes.extend((0..4).map(|c| value(layer, s, i, c)));
        }
    }
    assert_eq!(bytes.len(), sample_planes_size(SurfaceFormat::Color, w, h, SAMPLES));
    bytes
}

/// The average of the samples of every texel of layer `layer`.
fn averaged(layer: u32, (w, h): (u32, u32)) -> Vec<u8> {
    let mut bytes = Vec::new();
    for i in 0..w * h {
        for c in 0..4 {
            let sum: u32 = (0..SAMPLES).map(|s| u32::from(value(layer, s, i, c))).sum();
            bytes.push((sum / SAMPLES) as u8);
        }
    }
    bytes
}

fn backend() -> SdlGpuBackend {
    let config = SdlGpuConfig { debug_mode: true, poison_undefined: true, ..Default::default() };
    SdlGpuBackend::new(config).expect("an SDL_gpu device")
}

/// A 4x PreserveContents RGBA8 target of `layers` layers (6: a cube).
fn target(backend: &mut SdlGpuBackend, (w, h): (u32, u32), layers: u32) -> Arc<TextureState> {
    let desc = TextureDesc {
        width: w,
        height: h,
        mip_levels: 1,
        layers,
        volume_depth: None,
        format: SurfaceFormat::Color,
        render_target: Some(RenderTargetDesc {
            depth: xnagraph_graph::DepthFormat::None,
            sample_count: SAMPLES,
            usage: RenderTargetUsage::PreserveContents,
            back_buffer: false,
        }),
    };
    let handle = backend.create_texture(&desc).expect("a target");
    TextureState::new(desc, handle, backend.retire_sink())
}

/// Submits `nodes` (a frame's nodes with their plan nodes) and waits; readback 1's bytes.
fn run(backend: &mut SdlGpuBackend, nodes: Vec<(Node, PlanNodeKind)>, reads: u32) -> Vec<Vec<u8>> {
    let (nodes, planned): (Vec<_>, Vec<_>) = nodes.into_iter().unzip();
    let frame = FrameCommands { nodes, ..FrameCommands::default() };
    let plan = FramePlan {
        frame,
        nodes: planned.into_iter().map(node).collect(),
        cost: PlanCost::default(),
        transients: Default::default(),
    };
    let submission = backend.submit(&plan).expect("submit");
    drop(plan);
    backend.wait(submission).expect("wait");
    (1..=reads).map(|id| backend.take_readback(ReadbackId(u64::from(id))).expect("bytes")).collect()
}

/// For each layer: the upload of its planes, a pass resolving its samples, and the readback of
/// its resolved image (readback id = layer + 1).
fn restore_and_resolve(
    t: &Arc<TextureState>,
    (w, h): (u32, u32),
    layers: u32,
) -> Vec<(Node, PlanNodeKind)> {
    let whole = Rect::new(0, 0, w as i32, h as i32);
    let mut nodes = Vec::new();
    for layer in 0..layers {
        let at = nodes.len();
        nodes.push((
            Node::Upload(Upload {
                texture: t.clone(),
                level: 0,
                layer,
                rect: whole,
                slices: Slices::FLAT,
                image: Image::Samples,
                data: planes(layer, (w, h)),
            }),
            PlanNodeKind::Upload { node: at },
        ));
        let segment = PassSegment {
            colors: vec![ColorBinding { target: t.clone(), layer }],
            start: SegmentStart::Bind { usage: RenderTargetUsage::PreserveContents },
            ops: Vec::new(),
        };
        let attachment = PlannedAttachment {
            texture: t.clone(),
            image: Image::Samples,
            layer,
            load: LoadOp::Load,
            store: StoreOp::Store,
            resolve: true,
        };
        let pass =
            PlannedPass { segment: at + 1, colors: vec![attachment], depth: None, ops: Vec::new() };
        nodes.push((Node::Pass(segment), PlanNodeKind::Pass(pass)));
        let readback = Readback {
            id: ReadbackId(u64::from(layer) + 1),
            texture: t.clone(),
            level: 0,
            layer,
            rect: whole,
            slices: Slices::FLAT,
            image: Image::Color,
        };
        nodes.push((Node::Readback(readback), PlanNodeKind::Readback { node: at + 2 }));
    }
    nodes
}

/// Restores every layer of a 4x target of `size` and `layers` and checks each resolved layer.
fn restores(size: (u32, u32), layers: u32) {
    let mut backend = backend();
    assert!(backend.capabilities().sample_restore);
    assert!(!backend.capabilities().sample_readback);
    let diagnostics = backend.diagnostics();
    let t = target(&mut backend, size, layers);
    let resolved = run(&mut backend, restore_and_resolve(&t, size, layers), layers);
    for (layer, bytes) in resolved.iter().enumerate() {
        let layer = layer as u32;
        assert!(*bytes == averaged(layer, size), "layer {layer}: the average of its planes");
        // Not what one plane in every sample gives.
        assert!(*bytes != planes(layer, size)[..bytes.len()], "layer {layer}");
    }
    drop(t);
    backend.wait_idle().expect("wait_idle");
    drop(backend);
    let messages = diagnostics.take_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
    assert_eq!(diagnostics.live_native_objects(), 0, "teardown frees every native object");
}

#[test]
fn sample_planes_restored_resolve_to_the_average_of_each_texels_samples() {
    restores((13, 7), 1);
}

#[test]
fn each_face_of_a_multisampled_cube_restores_from_its_own_planes() {
    restores((9, 9), 6);
}

#[test]
fn a_readback_of_samples_stays_refused() {
    let mut backend = backend();
    let size = (13, 7);
    let t = target(&mut backend, size, 1);
    let readback = Readback {
        id: ReadbackId(1),
        texture: t.clone(),
        level: 0,
        layer: 0,
        rect: Rect::new(0, 0, 13, 7),
        slices: Slices::FLAT,
        image: Image::Samples,
    };
    let frame = FrameCommands { nodes: vec![Node::Readback(readback)], ..FrameCommands::default() };
    let plan = FramePlan {
        frame,
        nodes: vec![node(PlanNodeKind::Readback { node: 0 })],
        cost: PlanCost::default(),
        transients: Default::default(),
    };
    match backend.submit(&plan) {
        Err(BackendError::NotSupported(m)) => assert!(m.contains("multisample image"), "{m}"),
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("a readback of samples must be refused"),
    }
}

/// Planes whose height (height × samples) passes SDL_gpu's texture dimension are refused
/// naming the texture.
#[test]
fn planes_past_the_texture_dimension_are_refused() {
    let mut backend = backend();
    let size = (4, 2049);
    let t = target(&mut backend, size, 1);
    t.set_name("tall");
    let upload = Upload {
        texture: t.clone(),
        level: 0,
        layer: 0,
        rect: Rect::new(0, 0, 4, 2049),
        slices: Slices::FLAT,
        image: Image::Samples,
        data: vec![0; sample_planes_size(SurfaceFormat::Color, 4, 2049, SAMPLES)],
    };
    let frame = FrameCommands { nodes: vec![Node::Upload(upload)], ..FrameCommands::default() };
    let plan = FramePlan {
        frame,
        nodes: vec![node(PlanNodeKind::Upload { node: 0 })],
        cost: PlanCost::default(),
        transients: Default::default(),
    };
    match backend.submit(&plan) {
        Err(BackendError::NotSupported(m)) => assert!(m.contains("\"tall\""), "{m}"),
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("planes of 8196 rows must be refused"),
    }
}
