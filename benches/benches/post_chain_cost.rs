//! What the compiler saves on a standard post-processing frame, run for real on the GPU under
//! both compile policies: a scene of 400 sprites into a 128×128 4x HdrBlendable target with
//! Depth24Stencil8 (DiscardContents), a four-step downsample chain (each half the size of the
//! previous, sampling it), a bloom combine into the back buffer (the scene's resolve, then the
//! last downsample added over it) and a present. Reports each plan's attachment bytes loaded
//! and stored, and whether the two back buffers are identical. The same frame is asserted in
//! the engine's `savings` test.
//!
//! ```text
//! cargo bench -p xnagraph-benches --bench post_chain_cost
//! ```

use xnagraph::{
    BlendState, Color, CompilePolicy, DepthFormat, DeviceOptions, GraphicsDevice, GraphicsProfile,
    PlanCost, PresentationParameters, Rectangle, RenderTarget2D, RenderTargetUsage, SamplerState,
    SpriteBatch, SpriteEffects, SpriteSortMode, SurfaceFormat, Texture2D, Vector2,
};
use xnagraph_benches::{json, number, string};

const SIZE: i32 = 128;
const SPRITES: u32 = 400;

fn hdr_target(
    device: &GraphicsDevice,
    size: i32,
    depth: DepthFormat,
    samples: i32,
) -> xnagraph::Result<RenderTarget2D> {
    let usage = RenderTargetUsage::DiscardContents;
    let format = SurfaceFormat::HdrBlendable;
    RenderTarget2D::with_options(device, size, size, false, format, depth, samples, usage)
}

fn blit(
    device: &GraphicsDevice,
    source: &Texture2D,
    size: i32,
    blend: BlendState,
) -> xnagraph::Result<()> {
    let mut sb = SpriteBatch::new(device)?;
    let linear = Some(SamplerState::LINEAR_CLAMP);
    sb.begin_with(SpriteSortMode::Deferred, Some(blend), linear, None, None, None)?;
    sb.draw_rect(source, Rectangle::new(0, 0, size, size), Color::WHITE)?;
    sb.end()
}

fn run(policy: CompilePolicy) -> xnagraph::Result<(PlanCost, i32, Vec<Color>)> {
    let params = PresentationParameters {
        back_buffer_width: SIZE,
        back_buffer_height: SIZE,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions { compile_policy: policy, ..DeviceOptions::default() };
    let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options)?;
    let scene = hdr_target(&device, SIZE, DepthFormat::Depth24Stencil8, 4)?;
    let chain = (1..=4)
        .map(|step| hdr_target(&device, SIZE >> step, DepthFormat::None, 0))
        .collect::<xnagraph::Result<Vec<_>>>()?;
    let white = Texture2D::new(&device, 1, 1)?;
    white.set_data(&[Color::WHITE])?;

    device.set_render_target(Some(&scene))?;
    let mut sb = SpriteBatch::new(&device)?;
    sb.begin()?;
    let mut seed = 0x5eed_u64;
    let mut below = |n: u32| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as u32 % n
    };
    for i in 0..SPRITES {
        let color =
            Color::new((i * 37 % 256) as u8, (i * 91 % 256) as u8, (i * 173 % 256) as u8, 255);
        let quarter = SIZE as u32 * 4;
        let position = Vector2::new(below(quarter) as f32 / 4.0, below(quarter) as f32 / 4.0);
        let scale = Vector2::new(2.0 + below(24) as f32, 2.0 + below(24) as f32);
        let rotation = below(628) as f32 / 100.0;
        let origin = Vector2::new(0.5, 0.5);
        sb.draw_ex(
            &white,
            position,
            None,
            color,
            rotation,
            origin,
            scale,
            SpriteEffects::NONE,
            0.0,
        )?;
    }
    sb.end()?;
    let mut previous: &RenderTarget2D = &scene;
    for target in &chain {
        device.set_render_target(Some(target))?;
        blit(&device, previous, target.width(), BlendState::OPAQUE)?;
        previous = target;
    }
    device.set_render_target(None)?;
    blit(&device, &scene, SIZE, BlendState::OPAQUE)?;
    blit(&device, previous, SIZE, BlendState::ADDITIVE)?;
    device.present()?;
    let cost = device.last_plan_cost().unwrap_or_default();
    let mut pixels = vec![Color::TRANSPARENT; (SIZE * SIZE) as usize];
    let n = pixels.len();
    device.get_back_buffer_data(None, &mut pixels, 0, n)?;
    Ok((cost, scene.multi_sample_count(), pixels))
}

fn main() {
    let (graph, blind) = match (run(CompilePolicy::Graph), run(CompilePolicy::FrameBlind)) {
        (Ok(graph), Ok(blind)) => (graph, blind),
        (Err(e), _) | (_, Err(e)) => {
            println!(
                "{}",
                json(&[("bench", string("post_chain_cost")), ("error", string(&e.to_string()))])
            );
            return;
        }
    };
    let traffic = |c: &PlanCost| c.bytes_loaded + c.bytes_stored;
    let ratio = traffic(&graph.0) as f64 / traffic(&blind.0).max(1) as f64;
    println!(
        "{}",
        json(&[
            ("bench", string("post_chain_cost")),
            ("scene_samples", graph.1.to_string()),
            ("plan_bytes_loaded", graph.0.bytes_loaded.to_string()),
            ("plan_bytes_stored", graph.0.bytes_stored.to_string()),
            ("frame_blind_bytes_loaded", blind.0.bytes_loaded.to_string()),
            ("frame_blind_bytes_stored", blind.0.bytes_stored.to_string()),
            ("plan_to_frame_blind", number(ratio)),
            ("identical_pixels", (graph.2 == blind.2).to_string()),
        ])
    );
}
