//! Compiling a 256-segment frame, recorded through the engine's `FrameBuilder`: each segment
//! binds its own render target (DiscardContents, so the bind clears it) and draws four sprites
//! sampling the previous segment's target; the last samples into the back buffer, which is
//! presented. Also reports what the plan costs
//! against the frame-blind policy, and what the compiler's instrumentation costs: the same
//! compile with puffin's scopes off (the default, what a game without `--profile` pays) and on
//! (scopes recorded, one profiler frame closed per compile), measured in alternating rounds of
//! one process so that both see the same machine.

use std::sync::Arc;

use xnagraph_benches::{json, number, sample, stats, string};
use xnagraph_graph::compile::{compile, frame_blind_cost};
use xnagraph_graph::{
    BlendState, ColorBinding, DepthFormat, DepthStencilState, Draw, DrawTextures, FrameBuilder,
    FrameCommands, NativeHandle, PipelineKey, RasterizerState, Rect, RenderTargetDesc,
    RenderTargetUsage, RetireSink, SamplerState, ShaderKind, SpriteInstance, SurfaceFormat,
    TextureDesc, TextureState, Viewport,
};

const SEGMENTS: usize = 256;

fn target(n: u64, w: u32, h: u32, depth: DepthFormat, back_buffer: bool) -> Arc<TextureState> {
    let desc = TextureDesc {
        width: w,
        height: h,
        mip_levels: 1,
        layers: 1,
        volume_depth: None,
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

fn draw(texture: &Arc<TextureState>, first_sprite: u32) -> Draw {
    Draw {
        pipeline: PipelineKey {
            shader: ShaderKind::Sprite,
            blend: BlendState::ALPHA_BLEND,
            depth_stencil: DepthStencilState::NONE,
            rasterizer: RasterizerState::CULL_COUNTER_CLOCKWISE,
        },
        sampler: SamplerState::LINEAR_CLAMP,
        textures: DrawTextures::one(texture.clone()),
        effect: None,
        first_sprite,
        sprite_count: 1,
        viewport: Viewport::new(0, 0, 256, 256),
        scissor: Rect::new(0, 0, 256, 256),
        transform: [0.0; 16],
        geometry: None,
    }
}

/// The frame as the engine records it: through the one `FrameBuilder`.
fn frame(
    targets: &[Arc<TextureState>],
    back_buffer: &Arc<TextureState>,
    source: &Arc<TextureState>,
) -> FrameCommands {
    let mut builder = FrameBuilder::new(back_buffer.clone());
    for (i, t) in targets.iter().enumerate() {
        let sampled = if i == 0 { source } else { &targets[i - 1] };
        builder.bind(vec![ColorBinding { target: t.clone(), layer: 0 }]);
        for d in 0..4 {
            builder.draw(draw(sampled, (i * 4 + d) as u32));
        }
    }
    let last = targets.last().unwrap_or(source);
    // The back buffer is drawn at the start of the frame's last cycle, without a bind.
    builder.return_to_back_buffer();
    builder.draw(draw(last, 0));
    builder.present();
    *builder.sprites_mut() = vec![SpriteInstance::default(); SEGMENTS * 4].into();
    builder.take_frame()
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
    let instrumentation = instrumentation_cost(&template);
    let s = stats(&timings);
    let cost = last_cost.unwrap_or_default();
    println!(
        "{}",
        json(&[
            ("bench", string("compile_frame")),
            ("segments", SEGMENTS.into()),
            ("iterations", timings.len().into()),
            ("median_ms", number(s.median_ns / 1e6)),
            ("min_ms", number(s.min_ns / 1e6)),
            ("mean_ms", number(s.mean_ns / 1e6)),
            ("budget_ms", 0.5.into()),
            ("plan_nodes", cost.nodes.into()),
            ("plan_barriers", cost.barriers.into()),
            ("plan_bytes_loaded", cost.bytes_loaded.into()),
            ("plan_bytes_stored", cost.bytes_stored.into()),
            ("frame_blind_barriers", blind.barriers.into()),
            ("frame_blind_bytes_loaded", blind.bytes_loaded.into()),
            ("frame_blind_bytes_stored", blind.bytes_stored.into()),
        ])
    );
    println!("{instrumentation}");
}

/// Times the compile with puffin's scopes off and on, alternating rounds of `ROUND` compiles;
/// returns the figure as one JSON object. No `tracing` subscriber is installed, as in a game
/// run without flags.
fn instrumentation_cost(template: &FrameCommands) -> String {
    const ROUNDS: usize = 10;
    const ROUND: usize = 20;
    let mut off = Vec::with_capacity(ROUNDS * ROUND);
    let mut on = Vec::with_capacity(ROUNDS * ROUND);
    for _ in 0..ROUNDS {
        for scopes_on in [false, true] {
            puffin::set_scopes_on(scopes_on);
            let mut frames: Vec<FrameCommands> = (0..ROUND + 2).map(|_| template.clone()).collect();
            let timings = sample(2, ROUND, || {
                if let Some(f) = frames.pop() {
                    std::hint::black_box(compile(f));
                    if scopes_on {
                        puffin::GlobalProfiler::lock().new_frame();
                    }
                }
            });
            if scopes_on { &mut on } else { &mut off }.extend(timings);
        }
    }
    puffin::set_scopes_on(false);
    let (off, on) = (stats(&off), stats(&on));
    let guard_ns = disabled_stage_ns();
    json(&[
        ("bench", string("compile_frame_instrumentation")),
        ("segments", SEGMENTS.into()),
        ("iterations_each", (ROUNDS * ROUND).into()),
        ("scopes_off_median_ms", number(off.median_ns / 1e6)),
        ("scopes_off_min_ms", number(off.min_ns / 1e6)),
        ("scopes_on_median_ms", number(on.median_ns / 1e6)),
        ("scopes_on_min_ms", number(on.min_ns / 1e6)),
        ("on_over_off_median", number(on.median_ns / off.median_ns)),
        ("disabled_stage_ns", number(guard_ns)),
        ("stages_per_compile", STAGES.into()),
        ("disabled_per_compile_ns", number(guard_ns * STAGES as f64)),
        ("disabled_percent_of_compile", number(100.0 * guard_ns * STAGES as f64 / off.median_ns)),
    ])
}

/// The instrumented points of one compile under the graph policy: the `compile` span and its
/// eight stages.
const STAGES: usize = 9;

/// What one stage's instrumentation costs when nothing listens: a `tracing` span no subscriber
/// wants and a puffin scope with scopes off, entered and left, averaged over a million.
fn disabled_stage_ns() -> f64 {
    const N: u32 = 1_000_000;
    let start = std::time::Instant::now();
    for i in 0..N {
        let _span = tracing::debug_span!("probe").entered();
        puffin::profile_scope!("probe");
        std::hint::black_box(i);
    }
    start.elapsed().as_secs_f64() * 1e9 / f64::from(N)
}
