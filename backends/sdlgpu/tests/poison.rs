//! The DONT_CARE oracle on SDL_gpu: with `poison_undefined` on, what a plan loads or stores
//! with DONT_CARE reads back as the poison colour (magenta), and nothing else does. The plans
//! are written by hand, since the compiler never lets such content reach a readback.

use std::sync::Arc;

use xnagraph_graph::{
    Backend, Clear, ColorBinding, DepthFormat, FrameCommands, FramePlan, Image, LoadOp, Node,
    PassOp, PassSegment, PlanCost, PlanNode, PlanNodeKind, PlannedAttachment, PlannedOp,
    PlannedPass, Readback, ReadbackId, Rect, RenderTargetDesc, RenderTargetUsage, SegmentStart,
    Slices, StoreOp, SurfaceFormat, TextureDesc, TextureState,
};
use xnagraph_sdlgpu::{SdlGpuBackend, SdlGpuConfig};

const MAGENTA: [u8; 4] = [255, 0, 255, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const GREEN_F: [f32; 4] = [0.0, 1.0, 0.0, 1.0];

fn node(kind: PlanNodeKind) -> PlanNode {
    // SDL_gpu tracks resource states itself: the backend ignores barriers.
    PlanNode { buffer_barriers: Vec::new(), barriers: Vec::new(), kind }
}

/// One pass over an 8×8 target with `load`/`store` and the segment's `ops` (clears), then a
/// readback of the whole target, on a validated device with poisoning on; the bytes read.
fn pass_then_read(load: LoadOp, store: StoreOp, ops: Vec<PassOp>) -> Vec<u8> {
    let config = SdlGpuConfig { debug_mode: true, poison_undefined: true, ..Default::default() };
    let mut backend = SdlGpuBackend::new(config).expect("an SDL_gpu device");
    let diagnostics = backend.diagnostics();
    let desc = TextureDesc {
        width: 8,
        height: 8,
        mip_levels: 1,
        layers: 1,
        volume_depth: None,
        format: SurfaceFormat::Color,
        render_target: Some(RenderTargetDesc {
            depth: DepthFormat::None,
            sample_count: 0,
            usage: RenderTargetUsage::DiscardContents,
            back_buffer: false,
        }),
    };
    let handle = backend.create_texture(&desc).expect("a target");
    let target: Arc<TextureState> = TextureState::new(desc, handle, backend.retire_sink());
    let writes = xnagraph_graph::ColorWrites([0xF, 0, 0, 0]);
    let planned =
        (0..ops.len()).map(|index| PlannedOp { index, writes, instances: 1, repeats: 0 }).collect();
    let segment = PassSegment {
        colors: vec![ColorBinding { target: target.clone(), layer: 0 }],
        start: SegmentStart::Bind { usage: RenderTargetUsage::DiscardContents },
        ops,
    };
    let readback = Readback {
        image: xnagraph_graph::Image::Color,
        id: ReadbackId(1),
        texture: target.clone(),
        level: 0,
        layer: 0,
        rect: Rect::new(0, 0, 8, 8),
        slices: Slices::FLAT,
    };
    let frame = FrameCommands {
        nodes: vec![Node::Pass(segment), Node::Readback(readback)],
        ..FrameCommands::default()
    };
    let color = PlannedAttachment {
        texture: target.clone(),
        image: Image::Color,
        layer: 0,
        load,
        store,
        resolve: false,
    };
    let nodes = vec![
        node(PlanNodeKind::Pass(PlannedPass {
            segment: 0,
            colors: vec![color],
            depth: None,
            ops: planned,
        })),
        node(PlanNodeKind::Readback { node: 1 }),
    ];
    let plan =
        FramePlan { frame, nodes, cost: PlanCost::default(), transients: Default::default() };
    let submission = backend.submit(&plan).expect("submit");
    drop(plan);
    backend.wait(submission).expect("wait");
    let bytes = backend.take_readback(ReadbackId(1)).expect("readback bytes");
    drop(target);
    backend.wait_idle().expect("wait_idle");
    assert_eq!(backend.live_objects().textures, 0, "the dropped target is released");
    drop(backend);
    let messages = diagnostics.take_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
    assert_eq!(diagnostics.live_native_objects(), 0, "teardown frees every native object");
    bytes
}

fn all(bytes: &[u8], want: [u8; 4]) -> bool {
    bytes.len() == 8 * 8 * 4 && bytes.chunks_exact(4).all(|p| p == want)
}

#[test]
fn a_dont_care_store_reads_back_as_poison() {
    let green = LoadOp::Clear(xnagraph_graph::ClearValue::Color(GREEN_F));
    let dropped = pass_then_read(green, StoreOp::DontCare, vec![]);
    assert!(all(&dropped, MAGENTA), "dropped content must read as poison: {:?}", &dropped[..4]);
    let stored = pass_then_read(green, StoreOp::Store, vec![]);
    assert!(all(&stored, GREEN), "stored content is untouched: {:?}", &stored[..4]);
}

#[test]
fn a_dont_care_load_starts_from_poison() {
    let loaded = pass_then_read(LoadOp::DontCare, StoreOp::Store, vec![]);
    assert!(all(&loaded, MAGENTA), "undefined content must read as poison: {:?}", &loaded[..4]);
    let clear = PassOp::Clear(Clear { color: Some(GREEN_F), depth: None, stencil: None });
    let cleared = pass_then_read(LoadOp::DontCare, StoreOp::Store, vec![clear]);
    assert!(all(&cleared, GREEN), "what the pass writes wins: {:?}", &cleared[..4]);
}
