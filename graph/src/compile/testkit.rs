//! Hand-written frames for the compiler's unit tests: textures without a GPU, and one-line
//! builders for the recorded nodes.

use std::ops::Range;
use std::sync::Arc;

use crate::commands::*;
use crate::format::{DepthFormat, SurfaceFormat};
use crate::plan::*;
use crate::resource::*;

pub const DISCARD: RenderTargetUsage = RenderTargetUsage::DiscardContents;
pub const PRESERVE: RenderTargetUsage = RenderTargetUsage::PreserveContents;
pub const PLATFORM: RenderTargetUsage = RenderTargetUsage::PlatformContents;

pub const BLACK: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
pub const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
pub const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

fn state(desc: TextureDesc) -> Arc<TextureState> {
    TextureState::new(desc, NativeHandle(0), RetireSink::default())
}

pub fn texture(width: u32, height: u32, levels: u32) -> Arc<TextureState> {
    state(TextureDesc::texture_2d(width, height, levels, SurfaceFormat::Color))
}

#[allow(clippy::too_many_arguments)]
pub fn render_target(
    width: u32,
    height: u32,
    levels: u32,
    layers: u32,
    format: SurfaceFormat,
    samples: u32,
    depth: DepthFormat,
    usage: RenderTargetUsage,
    back_buffer: bool,
) -> Arc<TextureState> {
    state(TextureDesc {
        width,
        height,
        mip_levels: levels,
        layers,
        format,
        render_target: Some(RenderTargetDesc { depth, sample_count: samples, usage, back_buffer }),
    })
}

/// A one-level `Color` target without depth.
pub fn target(
    width: u32,
    height: u32,
    samples: u32,
    usage: RenderTargetUsage,
) -> Arc<TextureState> {
    render_target(
        width,
        height,
        1,
        1,
        SurfaceFormat::Color,
        samples,
        DepthFormat::None,
        usage,
        false,
    )
}

pub fn target_with_depth(
    size: u32,
    samples: u32,
    depth: DepthFormat,
    usage: RenderTargetUsage,
) -> Arc<TextureState> {
    render_target(size, size, 1, 1, SurfaceFormat::Color, samples, depth, usage, false)
}

pub fn mipmapped_target(size: u32, levels: u32, usage: RenderTargetUsage) -> Arc<TextureState> {
    render_target(size, size, levels, 1, SurfaceFormat::Color, 0, DepthFormat::None, usage, false)
}

pub fn target_cube(
    size: u32,
    levels: u32,
    samples: u32,
    usage: RenderTargetUsage,
) -> Arc<TextureState> {
    let depth = DepthFormat::Depth24Stencil8;
    render_target(size, size, levels, 6, SurfaceFormat::Color, samples, depth, usage, false)
}

pub fn back_buffer(width: u32, height: u32, usage: RenderTargetUsage) -> Arc<TextureState> {
    render_target(width, height, 1, 1, SurfaceFormat::Color, 0, DepthFormat::None, usage, true)
}

fn segment(start: SegmentStart, colors: &[(&Arc<TextureState>, u32)], ops: Vec<PassOp>) -> Node {
    let colors =
        colors.iter().map(|(t, layer)| ColorBinding { target: Arc::clone(t), layer: *layer });
    Node::Pass(PassSegment { colors: colors.collect(), start, ops })
}

/// A `SetRenderTarget(target)` bind cycle.
pub fn bind(target: &Arc<TextureState>, ops: Vec<PassOp>) -> Node {
    segment(SegmentStart::Bind, &[(target, 0)], ops)
}

/// A `SetRenderTargets` bind cycle of several targets.
pub fn bind_many(targets: &[&Arc<TextureState>], ops: Vec<PassOp>) -> Node {
    let colors: Vec<_> = targets.iter().map(|t| (*t, 0)).collect();
    segment(SegmentStart::Bind, &colors, ops)
}

pub fn bind_face(target: &Arc<TextureState>, face: u32, ops: Vec<PassOp>) -> Node {
    segment(SegmentStart::Bind, &[(target, face)], ops)
}

/// The same bind cycle resumed after an upload or readback split it.
pub fn resume(target: &Arc<TextureState>, ops: Vec<PassOp>) -> Node {
    segment(SegmentStart::Continue, &[(target, 0)], ops)
}

pub fn clear(color: Option<[f32; 4]>, depth: Option<f32>, stencil: Option<u32>) -> PassOp {
    PassOp::Clear(Clear { color, depth, stencil })
}

pub fn clear_color(color: [f32; 4]) -> PassOp {
    clear(Some(color), None, None)
}

/// The engine's DiscardContents bind clear of a target with depth and stencil.
pub fn discard_clear_ds() -> PassOp {
    clear(Some(BLACK), Some(1.0), Some(0))
}

pub fn draw_with(texture: &Arc<TextureState>, blend: BlendState) -> PassOp {
    PassOp::Draw(Draw {
        pipeline: PipelineKey {
            shader: ShaderKind::Sprite,
            blend,
            depth_stencil: DepthStencilState::NONE,
            rasterizer: RasterizerState::CULL_NONE,
        },
        sampler: SamplerState::LINEAR_CLAMP,
        texture: Arc::clone(texture),
        first_sprite: 0,
        sprite_count: 1,
        viewport: Viewport::new(0, 0, 1, 1),
        scissor: Rect::default(),
        transform: [0.0; 16],
    })
}

/// An opaque draw sampling `texture`.
pub fn draw(texture: &Arc<TextureState>) -> PassOp {
    draw_with(texture, BlendState::OPAQUE)
}

pub fn upload(texture: &Arc<TextureState>, level: u32, layer: u32) -> Node {
    let (w, h) = texture.desc().level_size(level);
    let data = vec![0; texture.desc().format.region_size(w, h)];
    let rect = Rect::new(0, 0, w as i32, h as i32);
    Node::Upload(Upload { texture: Arc::clone(texture), level, layer, rect, data })
}

pub fn readback(texture: &Arc<TextureState>, level: u32, layer: u32) -> Node {
    let rect = Rect::new(0, 0, 1, 1);
    Node::Readback(Readback { id: ReadbackId(1), texture: Arc::clone(texture), level, layer, rect })
}

pub fn present(back_buffer: &Arc<TextureState>) -> Node {
    Node::Present(Arc::clone(back_buffer))
}

pub fn frame(nodes: Vec<Node>) -> FrameCommands {
    FrameCommands { nodes, sprites: Vec::new() }
}

/// The planned pass at plan node `i` (panics in a test when it is not a pass).
pub fn pass(plan: &FramePlan, i: usize) -> &PlannedPass {
    match &plan.nodes[i].kind {
        PlanNodeKind::Pass(p) => p,
        other => panic!("plan node {i} is {other:?}, not a pass"),
    }
}

pub fn clear_of(color: [f32; 4]) -> LoadOp {
    LoadOp::Clear(ClearValue::Color(color))
}

/// A barrier as a comparable tuple: `(texture id, image, levels, layers, src, dst, discard)`.
pub type BarrierRow = (u64, Image, Range<u32>, Range<u32>, Access, Access, bool);

/// Every barrier before plan node `i`, as rows.
pub fn barriers(plan: &FramePlan, i: usize) -> Vec<BarrierRow> {
    plan.nodes[i]
        .barriers
        .iter()
        .map(|b| {
            let id = b.texture.id().0;
            (id, b.image, b.levels.clone(), b.layers.clone(), b.src, b.dst, b.discard)
        })
        .collect()
}

/// The kinds of the plan's nodes as short words, e.g. `["pass", "mips", "readback"]`.
pub fn kinds(plan: &FramePlan) -> Vec<&'static str> {
    plan.nodes
        .iter()
        .map(|n| match n.kind {
            PlanNodeKind::Pass(_) => "pass",
            PlanNodeKind::ClearImages { .. } => "clear",
            PlanNodeKind::Upload { .. } => "upload",
            PlanNodeKind::Readback { .. } => "readback",
            PlanNodeKind::GenerateMips { .. } => "mips",
            PlanNodeKind::Present { .. } => "present",
        })
        .collect()
}
