//! `mixed`: a frame that exercises every compiler stage every frame.
//!
//! Render targets of several sizes (preserving and discarding, one at 4x with depth), a
//! mipmapped target drawn into and sampled small (so its lower levels are read after the
//! cascade), two targets bound together (multiple render targets), the face of a cube target
//! the frame's index picks, cleared and then sampled through a cube lookup, all composited
//! into the back buffer; a readback of one target every [`READBACK_EVERY`] frames splits the
//! frame in two flushes.

use xnagraph::{
    Color, CubeMapFace, DepthFormat, GraphicsDevice, Rectangle, RenderTarget2D,
    RenderTargetBinding, RenderTargetCube, RenderTargetUsage, SpriteBatch, SurfaceFormat,
    Texture2D, Vector2, Vector3,
};

use super::{Rng, Scenario};

/// Frames between two readbacks.
pub const READBACK_EVERY: u32 = 30;

/// The mixed scenario.
pub struct Mixed {
    sized: Vec<RenderTarget2D>,
    mipmapped: RenderTarget2D,
    mrt: [RenderTarget2D; 2],
    cube: RenderTargetCube,
    white: Texture2D,
    batch: SpriteBatch,
    rng: Rng,
}

fn target(
    device: &GraphicsDevice,
    edge: i32,
    mip: bool,
    depth: DepthFormat,
    samples: i32,
    usage: RenderTargetUsage,
) -> xnagraph::Result<RenderTarget2D> {
    RenderTarget2D::with_options(
        device,
        edge,
        edge,
        mip,
        SurfaceFormat::Color,
        depth,
        samples,
        usage,
    )
}

impl Mixed {
    /// Creates the targets.
    pub fn new(device: &GraphicsDevice, seed: u64) -> xnagraph::Result<Mixed> {
        use RenderTargetUsage::{DiscardContents, PreserveContents};
        let sized = vec![
            target(device, 64, false, DepthFormat::None, 0, DiscardContents)?,
            target(device, 128, false, DepthFormat::None, 0, PreserveContents)?,
            target(device, 200, false, DepthFormat::Depth24Stencil8, 4, DiscardContents)?,
            target(device, 96, false, DepthFormat::Depth16, 0, PreserveContents)?,
        ];
        let white = Texture2D::new(device, 1, 1)?;
        white.set_data(&[Color::WHITE])?;
        Ok(Mixed {
            sized,
            mipmapped: target(device, 256, true, DepthFormat::None, 0, DiscardContents)?,
            mrt: [
                target(device, 64, false, DepthFormat::None, 0, DiscardContents)?,
                target(device, 64, false, DepthFormat::None, 0, DiscardContents)?,
            ],
            cube: RenderTargetCube::new(
                device,
                32,
                false,
                SurfaceFormat::Color,
                DepthFormat::None,
            )?,
            white,
            batch: SpriteBatch::new(device)?,
            rng: Rng::new(seed),
        })
    }

    fn sprites(&mut self, edge: i32, count: u32) -> xnagraph::Result<()> {
        self.batch.begin()?;
        for _ in 0..count {
            let color = Color::new(
                self.rng.below(256) as u8,
                self.rng.below(256) as u8,
                self.rng.below(256) as u8,
                255,
            );
            let x = self.rng.below(edge as u32) as i32;
            let y = self.rng.below(edge as u32) as i32;
            let w = 1 + self.rng.below(edge as u32 / 2) as i32;
            self.batch.draw_rect(&self.white, Rectangle::new(x, y, w, w), color)?;
        }
        self.batch.end()
    }
}

impl Scenario for Mixed {
    fn record(&mut self, device: &GraphicsDevice, index: u32) -> xnagraph::Result<()> {
        for i in 0..self.sized.len() {
            device.set_render_target(Some(&self.sized[i]))?;
            if !index.is_multiple_of(3)
                || self.sized[i].render_target_usage() == RenderTargetUsage::DiscardContents
            {
                device.clear(Color::new(40 * i as u8, 20, 80, 255))?;
            }
            let edge = self.sized[i].width();
            self.sprites(edge, 50)?;
        }
        device.set_render_target(Some(&self.mipmapped))?;
        device.clear(Color::CORNFLOWER_BLUE)?;
        self.sprites(256, 100)?;
        device.set_render_targets(&[
            RenderTargetBinding::from(&self.mrt[0]),
            RenderTargetBinding::from(&self.mrt[1]),
        ])?;
        device.clear(Color::new(10, 200, 10, 255))?;
        self.sprites(64, 20)?;
        let face = CubeMapFace::ALL[index as usize % 6];
        device.set_render_target_cube(Some(&self.cube), face)?;
        device.clear(Color::new(200, 10 * face as u8, 10, 255))?;
        device.set_render_target(None)?;
        device.clear(Color::BLACK)?;
        self.batch.begin()?;
        let mut x = 0;
        for t in self.sized.iter().chain(&self.mrt) {
            self.batch.draw_rect(t, Rectangle::new(x, 0, 48, 48), Color::WHITE)?;
            x += 50;
        }
        // Drawn at an eighth of its size: sampled from its third level.
        self.batch.draw_rect(&self.mipmapped, Rectangle::new(0, 50, 32, 32), Color::WHITE)?;
        self.batch.draw(&self.white, Vector2::new(40.0, 50.0), Color::RED)?;
        self.batch.end()?;
        self.batch.begin()?;
        let direction = Vector3::new(1.0, 0.2, -0.3);
        self.batch.draw_cube_direction(&self.cube, Rectangle::new(80, 50, 32, 32), direction)?;
        self.batch.end()?;
        if index % READBACK_EVERY == READBACK_EVERY - 1 {
            let mut texels = vec![Color::TRANSPARENT; 64 * 64];
            self.mrt[1].get_data(&mut texels)?;
        }
        Ok(())
    }
}
