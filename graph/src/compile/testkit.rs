//! Hand-written frames for the compiler's unit tests: textures without a GPU, and one-line
//! steps (binds, ops, uploads, readbacks, presents, flushes) that [`frame`] records through the
//! engine's own [`FrameBuilder`].

use std::ops::Range;
use std::sync::Arc;

use crate::builder::FrameBuilder;
use crate::commands::*;
use crate::format::{DepthFormat, SurfaceFormat};
use crate::geometry::{
    AttributeSource, BindingLayout, DrawCall, GeometryDraw, IndexSource, PrimitiveType,
    StockMaterial, VertexFormat, VertexLayout, VertexSource, MATERIAL_FLOATS,
};
use crate::plan::*;
use crate::resource::*;
use crate::{ShaderKind, StockShader};

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
        volume_depth: None,
        format,
        render_target: Some(RenderTargetDesc { depth, sample_count: samples, usage, back_buffer }),
    })
}

/// A plain `Color` volume (`Texture3D`).
pub fn volume(width: u32, height: u32, depth: u32, levels: u32) -> Arc<TextureState> {
    state(TextureDesc::volume(width, height, depth, levels, SurfaceFormat::Color))
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

/// One recorded call of a hand-written frame. [`frame`] replays the steps through a
/// [`FrameBuilder`], so the frames the compiler's tests see follow the engine's conventions.
pub enum Step {
    /// `SetRenderTargets(targets)` (the back buffer binds as `SetRenderTarget(null)`), then ops.
    Bind(Vec<ColorBinding>, Vec<PassOp>),
    /// More ops in the current bind cycle (continuing it after an upload or readback split it).
    Ops(Arc<TextureState>, Vec<PassOp>),
    Upload(Upload),
    Readback(Arc<TextureState>, u32, u32, Rect),
    Present(Arc<TextureState>),
    /// The frame is flushed here; [`frames`] starts the next one.
    Flush,
}

/// A `SetRenderTarget(target)` bind cycle.
pub fn bind(target: &Arc<TextureState>, ops: Vec<PassOp>) -> Step {
    bind_face(target, 0, ops)
}

/// A `SetRenderTargets` bind cycle of several targets.
pub fn bind_many(targets: &[&Arc<TextureState>], ops: Vec<PassOp>) -> Step {
    let colors = targets.iter().map(|t| ColorBinding { target: Arc::clone(t), layer: 0 });
    Step::Bind(colors.collect(), ops)
}

pub fn bind_face(target: &Arc<TextureState>, face: u32, ops: Vec<PassOp>) -> Step {
    Step::Bind(vec![ColorBinding { target: Arc::clone(target), layer: face }], ops)
}

/// `SetRenderTarget(null)`: a bind cycle of the back buffer.
pub fn unbind() -> Step {
    Step::Bind(Vec::new(), Vec::new())
}

/// Ops recorded in the current bind cycle of `target` after an upload or readback split it.
pub fn resume(target: &Arc<TextureState>, ops: Vec<PassOp>) -> Step {
    Step::Ops(Arc::clone(target), ops)
}

pub fn clear(color: Option<[f32; 4]>, depth: Option<f32>, stencil: Option<u32>) -> PassOp {
    PassOp::Clear(Clear { color, depth, stencil })
}

pub fn clear_color(color: [f32; 4]) -> PassOp {
    clear(Some(color), None, None)
}

/// `Clear(color)`: colour, depth 1 and stencil 0.
pub fn clear_all(color: [f32; 4]) -> PassOp {
    clear(Some(color), Some(1.0), Some(0))
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
        textures: DrawTextures::one(Arc::clone(texture)),
        effect: None,
        first_sprite: 0,
        sprite_count: 1,
        viewport: Viewport::new(0, 0, 1, 1),
        scissor: Rect::default(),
        transform: [0.0; 16],
        geometry: None,
    })
}

/// An opaque draw sampling `texture`.
pub fn draw(texture: &Arc<TextureState>) -> PassOp {
    draw_with(texture, BlendState::OPAQUE)
}

/// A whole-level upload.
pub fn upload(texture: &Arc<TextureState>, level: u32, layer: u32) -> Step {
    let (w, h) = texture.desc().level_size(level);
    upload_rect(texture, level, layer, Rect::new(0, 0, w as i32, h as i32))
}

pub fn upload_rect(texture: &Arc<TextureState>, level: u32, layer: u32, rect: Rect) -> Step {
    let data = vec![0; texture.desc().format.region_size(rect.width as u32, rect.height as u32)];
    let slices = Slices::FLAT;
    Step::Upload(Upload {
        image: crate::plan::Image::Color,
        texture: Arc::clone(texture),
        level,
        layer,
        rect,
        slices,
        data,
    })
}

/// A readback of the whole of `image` of `target`'s level 0, layer 0 (what a capture's
/// depth or sample snapshot reads).
pub fn whole_image_readback(target: &Arc<TextureState>, image: crate::plan::Image) -> Node {
    let (w, h) = target.desc().level_size(0);
    Node::Readback(crate::commands::Readback {
        id: crate::commands::ReadbackId(9),
        texture: Arc::clone(target),
        level: 0,
        layer: 0,
        rect: Rect::new(0, 0, w as i32, h as i32),
        slices: Slices::FLAT,
        image,
    })
}

/// An upload of `data` into the whole of `image` of `target`'s level 0, layer 0 (what a
/// replay's depth or sample restore writes).
pub fn whole_image_upload(
    target: &Arc<TextureState>,
    image: crate::plan::Image,
    data: Vec<u8>,
) -> Step {
    let (w, h) = target.desc().level_size(0);
    Step::Upload(Upload {
        image,
        texture: Arc::clone(target),
        level: 0,
        layer: 0,
        rect: Rect::new(0, 0, w as i32, h as i32),
        slices: Slices::FLAT,
        data,
    })
}

/// An upload of `slices` of `rect` of a volume's `level` (XNA's box).
pub fn upload_box(texture: &Arc<TextureState>, level: u32, rect: Rect, slices: Slices) -> Step {
    let slice = texture.desc().format.region_size(rect.width as u32, rect.height as u32);
    let data = vec![0; slice * slices.count() as usize];
    Step::Upload(Upload {
        image: crate::plan::Image::Color,
        texture: Arc::clone(texture),
        level,
        layer: 0,
        rect,
        slices,
        data,
    })
}

pub fn readback(texture: &Arc<TextureState>, level: u32, layer: u32) -> Step {
    Step::Readback(Arc::clone(texture), level, layer, Rect::new(0, 0, 1, 1))
}

pub fn present(back_buffer: &Arc<TextureState>) -> Step {
    Step::Present(Arc::clone(back_buffer))
}

pub fn flush() -> Step {
    Step::Flush
}

/// The frames `steps` record, one per [`Step::Flush`] plus the last, through one builder whose
/// back buffer is the first back buffer the steps name (or a fresh one).
pub fn frames(steps: Vec<Step>) -> Vec<FrameCommands> {
    let named = steps.iter().find_map(|s| match s {
        Step::Bind(colors, _) => {
            colors.iter().map(|c| &c.target).find(|t| t.desc().is_back_buffer())
        }
        Step::Present(t) => Some(t),
        _ => None,
    });
    let bb = named.cloned().unwrap_or_else(|| back_buffer(1, 1, DISCARD));
    let mut builder = FrameBuilder::new(bb.clone());
    let mut out = Vec::new();
    let record = |builder: &mut FrameBuilder, ops: Vec<PassOp>| {
        let mut begin = 0;
        for op in ops {
            match op {
                PassOp::Clear(c) => builder.clear(c),
                PassOp::Draw(d) => builder.draw(d),
                PassOp::Query(q) if q.begin => begin = builder.next_op_position().1,
                PassOp::Query(q) => builder.query_span(q.query, begin),
            }
        }
    };
    for step in steps {
        match step {
            Step::Bind(colors, ops) => {
                let to_back_buffer = colors.len() == 1 && Arc::ptr_eq(&colors[0].target, &bb);
                builder.bind(if to_back_buffer { Vec::new() } else { colors });
                record(&mut builder, ops);
            }
            Step::Ops(target, ops) => {
                assert!(Arc::ptr_eq(builder.primary(), &target), "ops outside the bound target");
                record(&mut builder, ops);
            }
            Step::Upload(u) => builder.upload(u),
            Step::Readback(t, level, layer, rect) => {
                builder.readback(t, level, layer, rect);
            }
            Step::Present(t) => {
                assert!(Arc::ptr_eq(&t, &bb), "present of another back buffer");
                builder.present();
            }
            Step::Flush => out.push(builder.take_frame()),
        }
    }
    out.push(builder.take_frame());
    out
}

/// The one frame `steps` record (no [`Step::Flush`]).
pub fn frame(steps: Vec<Step>) -> FrameCommands {
    let mut frames = frames(steps);
    assert_eq!(frames.len(), 1, "a flush inside `frame`: use `frames`");
    frames.remove(0)
}

/// The planned pass at plan node `i` (panics in a test when it is not a pass).
pub fn pass(plan: &FramePlan, i: usize) -> &PlannedPass {
    match &plan.nodes[i].kind {
        PlanNodeKind::Pass(p) => p,
        other => panic!("plan node {i} is {other:?}, not a pass"),
    }
}

/// The segment op indices plan node `i`'s pass executes.
pub fn ops(plan: &FramePlan, i: usize) -> Vec<usize> {
    pass(plan, i).ops.iter().map(|o| o.index).collect()
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
            PlanNodeKind::BufferUpload { .. } => "buffer upload",
            PlanNodeKind::BufferReadback { .. } => "buffer readback",
        })
        .collect()
}

/// Every (from, to, hazard) of the plan's dependency graph, one row per hazard of each edge,
/// sorted.
pub fn edges(plan: &FramePlan) -> Vec<(usize, usize, crate::compile::nodes::Hazard)> {
    let g = crate::compile::nodes::dependency_graph(plan);
    let mut e: Vec<_> = g
        .edge_indices()
        .filter_map(|e| g.edge_endpoints(e).map(|(a, b)| (g[a], g[b], g[e])))
        .flat_map(|(a, b, hazards)| hazards.iter().map(move |h| (a, b, h)))
        .collect();
    e.sort();
    e
}

/// A BasicEffect draw of 36 arena indices over 24 arena vertices, sampling `texture`, with
/// `value` in its transform and its own values in a merged run (World, material colours, fog
/// vector), 0.25 in the rest of its block, and `options` as its options word.
pub fn basic_cube(texture: &Arc<crate::TextureState>, value: f32, options: [f32; 4]) -> PassOp {
    let PassOp::Draw(mut d) = draw(texture) else { unreachable!() };
    d.pipeline.shader = ShaderKind::Basic;
    d.transform = [value; 16];
    // `value` in the draw's own floats; the run's (eye, fog colour, lights) the same for all.
    let mut block = [0.25; MATERIAL_FLOATS];
    for part in crate::geometry::BASIC_INSTANCE_PARTS {
        block[part].fill(value);
    }
    let at = StockShader::Basic.options_at();
    block[at..at + 4].copy_from_slice(&options);
    let position = AttributeSource { binding: 0, format: VertexFormat::Float3, offset: 0 };
    d.geometry = Some(Box::new(GeometryDraw {
        layout: VertexLayout {
            bindings: vec![BindingLayout { stride: 12, instance_frequency: 0 }],
            attributes: [Some(position), None, None, None, None, None, None],
            custom: Vec::new(),
        },
        primitive: PrimitiveType::TriangleList,
        streams: vec![VertexSource::User(0..288)],
        indices: Some(IndexSource { buffer: None, user: 288..360, element_size: 2 }),
        call: DrawCall::Indexed {
            base_vertex: 0,
            first_index: 0,
            index_count: 36,
            min_vertex: 0,
            vertex_span: 24,
        },
        instances: 1,
        material: StockMaterial { shader: StockShader::Basic, block },
        texture2: None,
        bones: Vec::new(),
        custom: None,
        repeats: Vec::new(),
        repeat_values: Default::default(),
    }));
    PassOp::Draw(d)
}
