//! `post-chain`: the standard post-processing frame ([`crate::post_chain`]) at game size —
//! by default a 3840×2160 `HdrBlendable` scene at 4x with depth, a four-step downsample chain
//! and a bloom combine into the back buffer — run under the compiler's policy with transient
//! memory shared and not, and under the frame-blind one, on three devices, with the plans'
//! attachment bytes, the transient images' memory and the last frame's pixels compared.

use xnagraph::{Color, GraphicsDevice, PlanCost, TransientMemory};

use super::Scenario;
use crate::post_chain::PostChain;

/// The scenario: the frame drawn every frame.
pub struct Post {
    chain: PostChain,
}

impl Post {
    /// Creates the frame's targets on `device` (whose back buffer is `size`), with a planar
    /// reflection pass when `reflection` ([`PostChain::with_reflection`]).
    pub fn new(
        device: &GraphicsDevice,
        size: (i32, i32),
        sprites: u32,
        reflection: bool,
    ) -> xnagraph::Result<Post> {
        Ok(Post { chain: PostChain::with_reflection(device, size, sprites, reflection)? })
    }

    /// The scene's applied sample count.
    pub fn scene_samples(&self) -> i32 {
        self.chain.scene_samples()
    }
}

impl Scenario for Post {
    fn record(&mut self, device: &GraphicsDevice, index: u32) -> xnagraph::Result<()> {
        self.chain.record(device, index)
    }
}

/// What a run under one policy leaves to compare.
pub struct PolicyResult {
    /// The last frame's plan cost.
    pub cost: PlanCost,
    /// What the last frame's transient images took.
    pub transient: TransientMemory,
    /// The back buffer after the last frame.
    pub pixels: Vec<Color>,
}

/// Reads the back buffer and the last plan's cost of `device` after its last present.
pub fn finish(device: &GraphicsDevice) -> xnagraph::Result<PolicyResult> {
    let cost = device.last_plan_cost().unwrap_or_default();
    let transient = device.transient_memory().unwrap_or_default();
    let params = device.presentation_parameters();
    let n = (params.back_buffer_width * params.back_buffer_height) as usize;
    let mut pixels = vec![Color::TRANSPARENT; n];
    device.get_back_buffer_data(None, &mut pixels, 0, n)?;
    Ok(PolicyResult { cost, transient, pixels })
}

/// Pixels that differ between two results.
pub fn differing_pixels(a: &PolicyResult, b: &PolicyResult) -> usize {
    a.pixels.iter().zip(&b.pixels).filter(|(x, y)| x != y).count()
        + a.pixels.len().abs_diff(b.pixels.len())
}
