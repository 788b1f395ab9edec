//! The standard post-processing frame, shared by the `post_chain_cost` benchmark and the test
//! that asserts what the compiler saves on it.
//!
//! A scene of [`SPRITES`] sprites (distinct colours, positions, sizes and rotations, from a
//! seeded generator) into a [`SIZE`]² 4x `HdrBlendable` target with `Depth24Stencil8`
//! (DiscardContents), a four-step downsample chain (each half the size of the previous, sampling
//! it), a bloom combine into the back buffer (the scene's resolve, then the last downsample added
//! over it) and a present. With a reflection ([`PostChain::with_reflection`]), a planar
//! reflection of the sprites (mirrored top to bottom, half as bright) is drawn first into a
//! second target like the scene's, and the scene starts from it: two 4x passes whose samples and
//! depth the device may place in the same memory (`DeviceOptions::transient_aliasing`).

use crate::coverage::{area_inside, sprite_corners};
use xnagraph::{
    diagnostics::Diagnostics, BlendState, Color, CompilePolicy, DepthFormat, DeviceOptions,
    GraphicsDevice, GraphicsProfile, PlanCost, PresentationParameters, Rectangle, RenderTarget2D,
    RenderTargetUsage, SamplerState, SpriteBatch, SpriteEffects, SpriteSortMode, SurfaceFormat,
    Texture2D, Vector2,
};

/// The back buffer's and the scene's edge, in pixels.
pub const SIZE: i32 = 128;
/// Sprites drawn into the scene.
pub const SPRITES: u32 = 400;

/// What one run of the frame gives.
pub struct PostChainRun {
    /// The presented frame's plan cost.
    pub cost: PlanCost,
    /// The scene target's applied sample count (4 where the adapter offers it).
    pub scene_samples: i32,
    /// The back buffer after the present.
    pub pixels: Vec<Color>,
    /// The device's validation messages and live objects.
    pub diagnostics: Diagnostics,
}

fn hdr_target(
    device: &GraphicsDevice,
    (width, height): (i32, i32),
    depth: DepthFormat,
    samples: i32,
) -> xnagraph::Result<RenderTarget2D> {
    let usage = RenderTargetUsage::DiscardContents;
    let format = SurfaceFormat::HdrBlendable;
    RenderTarget2D::with_options(device, width, height, false, format, depth, samples, usage)
}

/// Draws `source` stretched over the whole of the current `width`×`height` target.
fn blit(
    sb: &mut SpriteBatch,
    source: &Texture2D,
    (width, height): (i32, i32),
    blend: BlendState,
) -> xnagraph::Result<()> {
    let linear = Some(SamplerState::LINEAR_CLAMP);
    sb.begin_with(SpriteSortMode::Deferred, Some(blend), linear, None, None, None)?;
    sb.draw_rect(source, Rectangle::new(0, 0, width, height), Color::WHITE)?;
    sb.end()
}

/// The sprites' origin in their 1×1 white texture: its centre.
const SPRITE_ORIGIN: Vector2 = Vector2::new(0.5, 0.5);

/// One scene sprite's placement: `Draw(white, position, null, color, rotation, (0.5, 0.5),
/// scale, None, 0)` of the 1×1 white texture.
#[derive(Clone, Copy, Debug)]
pub struct SpritePlacement {
    /// Where the sprite's centre lands, in pixels.
    pub position: Vector2,
    /// Its size in pixels (the texture is 1×1).
    pub scale: Vector2,
    /// Its rotation about its centre, in radians.
    pub rotation: f32,
    /// Its colour.
    pub color: Color,
}

/// The scene's `sprites` sprites in frame `frame` of a `size` scene: the same on every run (a
/// seeded 64-bit linear congruential generator), moved right by `frame` pixels (wrapping).
/// Both the recording and [`PostChain::scene_coverage`] take them from here.
pub fn placements((width, height): (i32, i32), sprites: u32, frame: u32) -> Vec<SpritePlacement> {
    let mut seed = 0x5eed_u64;
    let mut below = |n: u32| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as u32 % n
    };
    let spread = (width.min(height) as f32 / SIZE as f32).max(1.0);
    (0..sprites)
        .map(|i| {
            let color =
                Color::new((i * 37 % 256) as u8, (i * 91 % 256) as u8, (i * 173 % 256) as u8, 255);
            let (qw, qh) = (width as u32 * 4, height as u32 * 4);
            let position = Vector2::new(
                (below(qw) as f32 / 4.0 + frame as f32) % width as f32,
                below(qh) as f32 / 4.0,
            );
            let scale =
                Vector2::new((2.0 + below(24) as f32) * spread, (2.0 + below(24) as f32) * spread);
            let rotation = below(628) as f32 / 100.0;
            SpritePlacement { position, scale, rotation, color }
        })
        .collect()
}

/// The area, in pixels, that frame `frame`'s `sprites` sprites ([`placements`]) cover inside a
/// `size` scene target, summed over the sprites (overlaps counted once per sprite, since each
/// is blended): the fragments the scene pass shades. Each sprite is the rotated rectangle
/// SpriteBatch draws, clipped to the target.
pub fn scene_coverage(size: (i32, i32), sprites: u32, frame: u32) -> f64 {
    let (width, height) = (f64::from(size.0), f64::from(size.1));
    placements(size, sprites, frame)
        .iter()
        .map(|s| {
            let corners = sprite_corners(
                [s.position.x, s.position.y],
                [1.0, 1.0],
                [SPRITE_ORIGIN.x, SPRITE_ORIGIN.y],
                [s.scale.x, s.scale.y],
                s.rotation,
            );
            area_inside(&corners, width, height)
        })
        .sum()
}

/// The screens of fragments (the covered area over the target's) that the scene's sprites
/// cover, averaged over frames `0..frames` (at least frame 0).
pub fn coverage_screens(size: (i32, i32), sprites: u32, frames: u32) -> f64 {
    let frames = frames.max(1);
    let area: f64 = (0..frames).map(|f| scene_coverage(size, sprites, f)).sum();
    area / (f64::from(frames) * f64::from(size.0) * f64::from(size.1))
}

/// The size of step `step` (1 to 4) of the downsample chain of a `size` scene: halved `step`
/// times, at least 1×1.
pub fn chain_size(size: (i32, i32), step: u32) -> (i32, i32) {
    ((size.0 >> step).max(1), (size.1 >> step).max(1))
}

/// The frame's targets and sprites, for drawing it any number of times on one device.
pub struct PostChain {
    size: (i32, i32),
    reflection: Option<RenderTarget2D>,
    scene: RenderTarget2D,
    chain: Vec<RenderTarget2D>,
    white: Texture2D,
    batch: SpriteBatch,
    sprites: u32,
}

impl PostChain {
    /// Creates the scene target (the back buffer's size, 4x, depth), the four downsample
    /// targets and the sprites' texture on `device`, whose back buffer is `size`.
    pub fn new(device: &GraphicsDevice, size: (i32, i32), sprites: u32) -> xnagraph::Result<Self> {
        Self::with_reflection(device, size, sprites, false)
    }

    /// [`PostChain::new`], with a planar reflection pass before the scene when `reflection`
    /// (its own 4x `HdrBlendable` target with `Depth24Stencil8`, which the scene samples).
    pub fn with_reflection(
        device: &GraphicsDevice,
        size: (i32, i32),
        sprites: u32,
        reflection: bool,
    ) -> xnagraph::Result<Self> {
        let reflection = match reflection {
            true => Some(hdr_target(device, size, DepthFormat::Depth24Stencil8, 4)?),
            false => None,
        };
        let scene = hdr_target(device, size, DepthFormat::Depth24Stencil8, 4)?;
        let chain = (1..=4)
            .map(|step| hdr_target(device, chain_size(size, step), DepthFormat::None, 0))
            .collect::<xnagraph::Result<Vec<_>>>()?;
        let white = Texture2D::new(device, 1, 1)?;
        white.set_data(&[Color::WHITE])?;
        let batch = SpriteBatch::new(device)?;
        Ok(PostChain { size, reflection, scene, chain, white, batch, sprites })
    }

    /// The scene target's applied sample count (4 where the adapter offers it).
    pub fn scene_samples(&self) -> i32 {
        self.scene.multi_sample_count()
    }

    /// The area, in pixels, that frame `frame`'s sprites cover inside the scene target, summed
    /// over the sprites: [`scene_coverage`] of this frame's size and sprites.
    pub fn scene_coverage(&self, frame: u32) -> f64 {
        scene_coverage(self.size, self.sprites, frame)
    }

    /// Records the frame (everything but the present); `frame` moves the sprites, so
    /// consecutive frames differ while every run draws the same ones.
    pub fn record(&mut self, device: &GraphicsDevice, frame: u32) -> xnagraph::Result<()> {
        if let Some(reflection) = &self.reflection {
            let what = (self.size, self.sprites);
            record_reflection(device, &mut self.batch, reflection, &self.white, what, frame)?;
        }
        device.set_render_target(Some(&self.scene))?;
        let sb = &mut self.batch;
        sb.begin()?;
        if let Some(reflection) = &self.reflection {
            let whole = Rectangle::new(0, 0, self.size.0, self.size.1);
            sb.draw_rect(reflection, whole, Color::WHITE)?;
        }
        for sprite in placements(self.size, self.sprites, frame) {
            sb.draw_ex(
                &self.white,
                sprite.position,
                None,
                sprite.color,
                sprite.rotation,
                SPRITE_ORIGIN,
                sprite.scale,
                SpriteEffects::NONE,
                0.0,
            )?;
        }
        sb.end()?;
        let mut previous: &RenderTarget2D = &self.scene;
        for target in &self.chain {
            device.set_render_target(Some(target))?;
            blit(sb, previous, (target.width(), target.height()), BlendState::OPAQUE)?;
            previous = target;
        }
        device.set_render_target(None)?;
        blit(sb, &self.scene, self.size, BlendState::OPAQUE)?;
        blit(sb, previous, self.size, BlendState::ADDITIVE)
    }
}

/// The reflection pass into `reflection`: frame `frame`'s sprites of a `size` scene mirrored top
/// to bottom at half brightness, over black.
fn record_reflection(
    device: &GraphicsDevice,
    sb: &mut SpriteBatch,
    reflection: &RenderTarget2D,
    white: &Texture2D,
    (size, sprites): ((i32, i32), u32),
    frame: u32,
) -> xnagraph::Result<()> {
    device.set_render_target(Some(reflection))?;
    device.clear(Color::BLACK)?;
    sb.begin()?;
    for sprite in placements(size, sprites, frame) {
        let mirrored = Vector2::new(sprite.position.x, size.1 as f32 - sprite.position.y);
        let c = sprite.color;
        let dim = Color::new(c.r / 2, c.g / 2, c.b / 2, 255);
        sb.draw_ex(
            white,
            mirrored,
            None,
            dim,
            -sprite.rotation,
            SPRITE_ORIGIN,
            sprite.scale,
            SpriteEffects::NONE,
            0.0,
        )?;
    }
    sb.end()
}

/// Runs the frame once on a new device compiled under `policy`; `options` gives the rest of
/// the device's options (validation, poisoning).
pub fn run(policy: CompilePolicy, options: DeviceOptions) -> xnagraph::Result<PostChainRun> {
    let params = PresentationParameters {
        back_buffer_width: SIZE,
        back_buffer_height: SIZE,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions { compile_policy: policy, ..options };
    let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options)?;
    let diagnostics = device.diagnostics();
    let mut frame = PostChain::new(&device, (SIZE, SIZE), SPRITES)?;
    frame.record(&device, 0)?;
    device.present()?;
    let cost = device.last_plan_cost().unwrap_or_default();
    let mut pixels = vec![Color::TRANSPARENT; (SIZE * SIZE) as usize];
    let n = pixels.len();
    device.get_back_buffer_data(None, &mut pixels, 0, n)?;
    Ok(PostChainRun { cost, scene_samples: frame.scene_samples(), pixels, diagnostics })
}
