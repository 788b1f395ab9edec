//! What the compiler saves: the standard post-processing frame run under the compiler's policy
//! and under the frame-blind one, on two devices, with the same pixels and far fewer attachment
//! bytes for the compiler's plan.

mod common;

use common::*;
use xnagraph::{
    BlendState, Color, CompilePolicy, DepthFormat, DeviceOptions, GraphicsDevice, GraphicsProfile,
    PlanCost, Rectangle, RenderTarget2D, RenderTargetUsage, SamplerState, SpriteBatch,
    SpriteEffects, SpriteSortMode, SurfaceFormat, Texture2D, Vector2,
};

const SIZE: i32 = 128;
const SPRITES: u32 = 400;

/// A deterministic generator (64-bit LCG), so both devices draw the same sprites.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }

    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
}

fn hdr_target(
    device: &GraphicsDevice,
    size: i32,
    depth: DepthFormat,
    samples: i32,
) -> RenderTarget2D {
    RenderTarget2D::with_options(
        device,
        size,
        size,
        false,
        SurfaceFormat::HdrBlendable,
        depth,
        samples,
        RenderTargetUsage::DiscardContents,
    )
    .expect("render target")
}

/// Draws `source` stretched over the whole of the current target.
fn blit(device: &GraphicsDevice, source: &Texture2D, size: i32, blend: BlendState) {
    let mut sb = SpriteBatch::new(device).unwrap();
    let linear = Some(SamplerState::LINEAR_CLAMP);
    sb.begin_with(SpriteSortMode::Deferred, Some(blend), linear, None, None, None).unwrap();
    sb.draw_rect(source, Rectangle::new(0, 0, size, size), Color::WHITE).unwrap();
    sb.end().unwrap();
}

/// The standard frame: a scene of `SPRITES` sprites (distinct colours, positions, sizes and
/// rotations) into a 4x HdrBlendable target with Depth24Stencil8, a four-step downsample chain
/// (each half the size of the previous, sampling it), and a bloom combine into the back buffer
/// (the scene's resolve, then the last downsample added over it). Returns the presented
/// frame's plan cost and the back buffer's pixels, or `None` where the adapter does not give 4x.
fn standard_frame(policy: CompilePolicy) -> Option<(PlanCost, Vec<Color>)> {
    let options = DeviceOptions { compile_policy: policy, ..test_options() };
    let device = device_with_options(GraphicsProfile::HiDef, params(SIZE, SIZE), options);
    let scene = hdr_target(&device, SIZE, DepthFormat::Depth24Stencil8, 4);
    if !multisampled_as_requested("standard_frame", scene.multi_sample_count(), 4) {
        return None;
    }
    let chain: Vec<_> =
        (1..=4).map(|step| hdr_target(&device, SIZE >> step, DepthFormat::None, 0)).collect();
    let white = white(&device);

    device.set_render_target(Some(&scene)).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin().unwrap();
    let mut rng = Lcg(0x5eed);
    for i in 0..SPRITES {
        let color =
            Color::new((i * 37 % 256) as u8, (i * 91 % 256) as u8, (i * 173 % 256) as u8, 255);
        let position = Vector2::new(
            rng.below(SIZE as u32 * 4) as f32 / 4.0,
            rng.below(SIZE as u32 * 4) as f32 / 4.0,
        );
        let scale = Vector2::new(2.0 + rng.below(24) as f32, 2.0 + rng.below(24) as f32);
        let rotation = rng.below(628) as f32 / 100.0;
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
        )
        .unwrap();
    }
    sb.end().unwrap();

    let mut previous: &RenderTarget2D = &scene;
    for target in &chain {
        device.set_render_target(Some(target)).unwrap();
        blit(&device, previous, target.width(), BlendState::OPAQUE);
        previous = target;
    }

    device.set_render_target(None).unwrap();
    blit(&device, &scene, SIZE, BlendState::OPAQUE);
    blit(&device, previous, SIZE, BlendState::ADDITIVE);
    device.present().unwrap();
    let cost = device.last_plan_cost().expect("the present compiled a plan");
    Some((cost, read_back_buffer(&device)))
}

/// The standard frame gives the same pixels under both policies, and the compiler's plan loads
/// and stores at most 60% of the attachment bytes of the frame-blind plan.
#[test]
fn the_compiler_saves_at_least_forty_percent_of_attachment_traffic_with_the_same_pixels() {
    let _v = Validation::new();
    let Some((graph, graph_pixels)) = standard_frame(CompilePolicy::Graph) else { return };
    let Some((blind, blind_pixels)) = standard_frame(CompilePolicy::FrameBlind) else { return };
    let traffic = |c: &PlanCost| c.bytes_loaded + c.bytes_stored;
    println!(
        "{{\"bench\":\"post_chain_cost\",\"graph_bytes_loaded\":{},\"graph_bytes_stored\":{},\"graph_bytes\":{},\"frame_blind_bytes_loaded\":{},\"frame_blind_bytes_stored\":{},\"frame_blind_bytes\":{}}}",
        graph.bytes_loaded,
        graph.bytes_stored,
        traffic(&graph),
        blind.bytes_loaded,
        blind.bytes_stored,
        traffic(&blind)
    );
    let differing = graph_pixels.iter().zip(&blind_pixels).filter(|(a, b)| a != b).count();
    assert_eq!(differing, 0, "pixels differ between the policies");
    // The frame is not trivially dark: the scene and the bloom show.
    let lit = graph_pixels.iter().filter(|p| p.r > 0 || p.g > 0 || p.b > 0).count();
    assert!(lit > graph_pixels.len() / 2, "only {lit} lit pixels");
    assert!(
        traffic(&graph) * 100 <= traffic(&blind) * 60,
        "graph {} bytes against frame-blind {}",
        traffic(&graph),
        traffic(&blind)
    );
}
