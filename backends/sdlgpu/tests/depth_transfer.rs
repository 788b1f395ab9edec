//! A render target's depth/stencil content through SDL_gpu's depth transfers (a capture's
//! snapshot and its restore): an upload of the neutral encoding followed by a readback returns
//! exactly the bytes uploaded, for every depth format, on a target whose width is no power of
//! two. The depth values are k / 255 (exact in 16-bit, 24-bit and float depth), differing from
//! texel to texel; the stencil values cover every bit. Depth-only formats go through SDL's copies,
//! Depth24Stencil8 through draws (`capture::depth_draws`). The plans are written by hand.

use std::sync::Arc;

use xnagraph_graph::{
    depth_stencil_size, Backend, DepthFormat, FrameCommands, FramePlan, Image, Node, PlanCost,
    PlanNode, PlanNodeKind, Readback, ReadbackId, Rect, RenderTargetDesc, RenderTargetUsage,
    Slices, SurfaceFormat, TextureDesc, TextureState, Upload,
};
use xnagraph_sdlgpu::{SdlGpuBackend, SdlGpuConfig};

const W: u32 = 13;
const H: u32 = 7;

fn node(kind: PlanNodeKind) -> PlanNode {
    PlanNode { buffer_barriers: Vec::new(), barriers: Vec::new(), kind }
}

/// The neutral encoding of a pattern: texel i's depth is ((37 i + 11) mod 256) / 255, its
/// stencil (53 i + 7) mod 256.
fn pattern(depth: DepthFormat) -> Vec<u8> {
    let texels = 0..(W * H) as usize;
    let mut bytes: Vec<u8> = texels
        .clone()
        .map(|i| (((37 * i + 11) % 256) as f64 / 255.0) as f32)
        .flat_map(f32::to_le_bytes)
        .collect();
    if depth == DepthFormat::Depth24Stencil8 {
        bytes.extend(texels.map(|i| ((53 * i + 7) % 256) as u8));
    }
    assert_eq!(bytes.len(), depth_stencil_size(depth, W, H));
    bytes
}

/// Uploads `data` into the depth/stencil image of a fresh PreserveContents `depth` target and
/// reads it back, in one submission, on a validated device; the bytes read.
fn upload_then_read(depth: DepthFormat, data: Vec<u8>) -> Vec<u8> {
    transfer(depth, RenderTargetUsage::PreserveContents, Some(data)).expect("submit")
}

/// [`upload_then_read`] on a target of `usage`, the upload left out without `data`; the
/// submission's error, if any.
fn transfer(
    depth: DepthFormat,
    usage: RenderTargetUsage,
    data: Option<Vec<u8>>,
) -> Result<Vec<u8>, xnagraph_graph::BackendError> {
    let config = SdlGpuConfig { debug_mode: true, poison_undefined: true, ..Default::default() };
    let mut backend = SdlGpuBackend::new(config).expect("an SDL_gpu device");
    assert!(backend.capabilities().depth_readback);
    assert_eq!(backend.applied_depth_format(depth), depth, "lavapipe has every depth format");
    let diagnostics = backend.diagnostics();
    let desc = TextureDesc {
        width: W,
        height: H,
        mip_levels: 1,
        layers: 1,
        volume_depth: None,
        format: SurfaceFormat::Color,
        render_target: Some(RenderTargetDesc { depth, sample_count: 0, usage, back_buffer: false }),
    };
    let handle = backend.create_texture(&desc).expect("a target");
    let target: Arc<TextureState> = TextureState::new(desc, handle, backend.retire_sink());
    let whole = Rect::new(0, 0, W as i32, H as i32);
    let upload = data.map(|data| Upload {
        image: Image::DepthStencil,
        texture: target.clone(),
        level: 0,
        layer: 0,
        rect: whole,
        slices: Slices::FLAT,
        data,
    });
    let readback = Readback {
        image: Image::DepthStencil,
        id: ReadbackId(1),
        texture: target.clone(),
        level: 0,
        layer: 0,
        rect: whole,
        slices: Slices::FLAT,
    };
    let mut nodes = Vec::new();
    let mut planned = Vec::new();
    if let Some(upload) = upload {
        planned.push(node(PlanNodeKind::Upload { node: nodes.len() }));
        nodes.push(Node::Upload(upload));
    }
    planned.push(node(PlanNodeKind::Readback { node: nodes.len() }));
    nodes.push(Node::Readback(readback));
    let frame = FrameCommands { nodes, ..FrameCommands::default() };
    let plan = FramePlan {
        frame,
        nodes: planned,
        cost: PlanCost::default(),
        transients: Default::default(),
    };
    let submitted = backend.submit(&plan);
    drop(plan);
    let bytes = submitted.map(|submission| {
        backend.wait(submission).expect("wait");
        backend.take_readback(ReadbackId(1)).expect("readback bytes")
    });
    drop(target);
    backend.wait_idle().expect("wait_idle");
    drop(backend);
    let messages = diagnostics.take_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
    assert_eq!(diagnostics.live_native_objects(), 0, "teardown frees every native object");
    bytes
}

fn round_trip(depth: DepthFormat) {
    let data = pattern(depth);
    let back = upload_then_read(depth, data.clone());
    assert_eq!(back.len(), data.len(), "{depth:?}");
    let texels = (W * H) as usize;
    let f = |b: &[u8], i: usize| f32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap());
    for i in 0..texels {
        assert_eq!(f(&back, i), f(&data, i), "{depth:?}: depth of texel {i}");
    }
    assert_eq!(back[texels * 4..], data[texels * 4..], "{depth:?}: stencil");
}

/// A readback through draws samples the depth texture, which only a PreserveContents target's
/// has (the only depth a capture snapshots): any other is refused, never read wrong. A
/// depth-only format copies, whatever the usage.
#[test]
fn a_discarding_depth24_stencil8_target_refuses_a_depth_readback() {
    let discard = RenderTargetUsage::DiscardContents;
    let e = transfer(DepthFormat::Depth24Stencil8, discard, None).expect_err("refused");
    assert!(matches!(e, xnagraph_graph::BackendError::NotSupported(_)), "{e:?}");
    assert!(e.to_string().contains("Depth24Stencil8 image that is not sampled"), "{e}");
    let data = pattern(DepthFormat::Depth24);
    assert_eq!(transfer(DepthFormat::Depth24, discard, Some(data.clone())).unwrap(), data);
}

#[test]
fn depth16_content_restored_reads_back_exactly() {
    round_trip(DepthFormat::Depth16);
}

#[test]
fn depth24_content_restored_reads_back_exactly() {
    round_trip(DepthFormat::Depth24);
}

#[test]
fn depth24_stencil8_content_restored_through_draws_reads_back_exactly() {
    round_trip(DepthFormat::Depth24Stencil8);
}
