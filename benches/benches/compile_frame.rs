//! Compiling a 256-segment frame: each segment binds its own render target (DiscardContents, so
//! the bind clear comes first) and draws four sprites sampling the previous segment's target;
//! the last samples into the back buffer, which is presented. Also reports what the plan costs
//! against the frame-blind policy.

use std::sync::Arc;

use xnagraph_benches::{json, number, sample, stats, string};
use xnagraph_graph::compile::{compile, frame_blind_cost};
use xnagraph_graph::{
    BlendState, Clear, ColorBinding, DepthFormat, DepthStencilState, Draw, FrameCommands,
    NativeHandle, Node, PassOp, PassSegment, PipelineKey, RasterizerState, Rect, RenderTargetDesc,
    RenderTargetUsage, RetireSink, SamplerState, SegmentStart, ShaderKind, SpriteInstance,
    SurfaceFormat, TextureDesc, TextureState, Viewport,
};

const SEGMENTS: usize = 256;

fn target(n: u64, w: u32, h: u32, depth: DepthFormat, back_buffer: bool) -> Arc<TextureState> {
    let desc = TextureDesc {
        width: w,
        height: h,
        mip_levels: 1,
        layers: 1,
        format: SurfaceFormat::Color,
        render_target: Some(RenderTargetDesc {
            depth,
            sample_count: 0,
            usage: RenderTargetUsage::DiscardContents,
            back_buffer,
        }),
    };
    TextureState::new(desc, NativeHandle(n), RetireSink::default())
}

fn draw(texture: &Arc<TextureState>, first_sprite: u32) -> PassOp {
    PassOp::Draw(Draw {
        pipeline: PipelineKey {
            shader: ShaderKind::Sprite,
            blend: BlendState::ALPHA_BLEND,
            depth_stencil: DepthStencilState::NONE,
            rasterizer: RasterizerState::CULL_COUNTER_CLOCKWISE,
        },
        sampler: SamplerState::LINEAR_CLAMP,
        texture: texture.clone(),
        first_sprite,
        sprite_count: 1,
        viewport: Viewport::new(0, 0, 256, 256),
        scissor: Rect::new(0, 0, 256, 256),
        transform: [0.0; 16],
    })
}

fn frame(
    targets: &[Arc<TextureState>],
    back_buffer: &Arc<TextureState>,
    source: &Arc<TextureState>,
) -> FrameCommands {
    let mut nodes = Vec::with_capacity(SEGMENTS + 1);
    for (i, t) in targets.iter().enumerate() {
        let sampled = if i == 0 { source } else { &targets[i - 1] };
        let mut ops = vec![PassOp::Clear(Clear {
            color: Some([0.0, 0.0, 0.0, 1.0]),
            depth: Some(1.0),
            stencil: Some(0),
        })];
        ops.extend((0..4).map(|d| draw(sampled, (i * 4 + d) as u32)));
        nodes.push(Node::Pass(PassSegment {
            colors: vec![ColorBinding { target: t.clone(), layer: 0 }],
            start: SegmentStart::Bind { usage: RenderTargetUsage::DiscardContents },
            ops,
        }));
    }
    let last = targets.last().unwrap_or(source);
    nodes.push(Node::Pass(PassSegment {
        colors: vec![ColorBinding { target: back_buffer.clone(), layer: 0 }],
        start: SegmentStart::Implicit,
        ops: vec![draw(last, 0)],
    }));
    nodes.push(Node::Present(back_buffer.clone()));
    FrameCommands {
        nodes,
        sprites: vec![SpriteInstance::default(); SEGMENTS * 4],
        open_cycle: None,
    }
}

fn main() {
    let targets: Vec<_> = (0..SEGMENTS as u64)
        .map(|i| target(i + 2, 256, 256, DepthFormat::Depth24Stencil8, false))
        .collect();
    let back_buffer = target(1, 1280, 720, DepthFormat::None, true);
    let source = {
        let desc = TextureDesc::texture_2d(64, 64, 1, SurfaceFormat::Color);
        TextureState::new(desc, NativeHandle(1000), RetireSink::default())
    };
    let template = frame(&targets, &back_buffer, &source);
    let blind = frame_blind_cost(&template);
    let mut last_cost = None;
    let mut frames: Vec<FrameCommands> = (0..220).map(|_| template.clone()).collect();
    let timings = sample(20, 200, || {
        if let Some(f) = frames.pop() {
            let plan = compile(f);
            last_cost = Some(plan.cost);
        }
    });
    let s = stats(&timings);
    let cost = last_cost.unwrap_or_default();
    println!(
        "{}",
        json(&[
            ("bench", string("compile_frame")),
            ("segments", SEGMENTS.to_string()),
            ("iterations", timings.len().to_string()),
            ("median_ms", number(s.median_ns / 1e6)),
            ("min_ms", number(s.min_ns / 1e6)),
            ("mean_ms", number(s.mean_ns / 1e6)),
            ("budget_ms", "0.5".into()),
            ("plan_nodes", cost.nodes.to_string()),
            ("plan_barriers", cost.barriers.to_string()),
            ("plan_bytes_loaded", cost.bytes_loaded.to_string()),
            ("plan_bytes_stored", cost.bytes_stored.to_string()),
            ("frame_blind_barriers", blind.barriers.to_string()),
            ("frame_blind_bytes_loaded", blind.bytes_loaded.to_string()),
            ("frame_blind_bytes_stored", blind.bytes_stored.to_string()),
        ])
    );
}
