//! XNA's `SpriteSortMode` and `SpriteEffects`, the effects `SpriteBatch.Begin` takes
//! ([`SpriteBatchEffect`]), and the descriptors of `SpriteBatch`'s long overloads:
//! [`SpriteBatchOptions`] for `Begin`, [`SpriteOptions`] for `Draw`.

use crate::effects::alpha_test::AlphaTestEffect;
use crate::effects::basic::BasicEffect;
use crate::effects::custom::CustomEffect;
use crate::effects::dual_texture::DualTextureEffect;
use crate::effects::sprite::Effect;
use crate::math::{Color, Matrix, Rectangle, Vector2};
use xnagraph_graph::{BlendState, DepthStencilState, RasterizerState, SamplerState};

/// XNA's `SpriteSortMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SpriteSortMode {
    /// XNA's `SpriteSortMode.Deferred`: drawn in call order, at `end`.
    #[default]
    Deferred,
    /// XNA's `SpriteSortMode.Immediate`: drawn at once, one draw per call.
    Immediate,
    /// XNA's `SpriteSortMode.Texture`: grouped by texture at `end` (call order within a
    /// texture).
    Texture,
    /// XNA's `SpriteSortMode.BackToFront`: highest layer depth first.
    BackToFront,
    /// XNA's `SpriteSortMode.FrontToBack`: lowest layer depth first.
    FrontToBack,
}

bitflags::bitflags! {
    /// XNA's `SpriteEffects` flags: `FLIP_HORIZONTALLY | FLIP_VERTICALLY` mirrors both ways.
    /// A bitflags type (`contains`, `|`, `empty`, iteration); bits other than XNA's two are
    /// ignored by the draws. Empty by default, as XNA's `SpriteEffects.None`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct SpriteEffects: u8 {
        /// `SpriteEffects.FlipHorizontally`: mirror the texture left to right.
        const FLIP_HORIZONTALLY = 1;
        /// `SpriteEffects.FlipVertically`: mirror the texture top to bottom.
        const FLIP_VERTICALLY = 2;
    }
}

impl SpriteEffects {
    /// `SpriteEffects.None`: no flag set.
    pub const NONE: SpriteEffects = SpriteEffects::empty();
}

/// An effect `SpriteBatch.Begin` takes: XNA's `Effect effect` argument, which may be any
/// effect. Made with `into()` from a reference to the effect (`SpriteBatch::begin_with_effect`
/// takes anything that converts).
///
/// - [`SpriteBatchEffect::Pixel`]: a sprite pixel stage ([`Effect`]). The stock vertex stage
///   places the sprites (projection and `transformMatrix` apply) and the effect colours them.
/// - [`SpriteBatchEffect::Basic`], [`SpriteBatchEffect::AlphaTest`],
///   [`SpriteBatchEffect::DualTexture`], [`SpriteBatchEffect::Custom`]: a stock or custom
///   geometry effect, with its own vertex stage. As
///   in XNA, the sprites become `VertexPositionColorTexture` quads (x and y in the batch's
///   pixels, z the layer depth, the tint as vertex colour, each corner's texture coordinate
///   with the flips applied), drawn through the effect's pass in the batch's sort order, one
///   draw per run of sprites sharing a texture (per pass of a custom effect); the effect's
///   vertex stage (a stock effect's World × View × Projection) places them, and the batch's
///   projection and `transformMatrix` are not applied. Each sprite's texture is sampled in
///   place of the effect's `Texture` (XNA's SpriteBatch sets `Textures[0]` after applying the
///   pass); the effect the game holds is not changed.
#[derive(Clone, Copy, Debug)]
pub enum SpriteBatchEffect<'a> {
    /// A sprite pixel stage.
    Pixel(&'a Effect),
    /// `BasicEffect`.
    Basic(&'a BasicEffect),
    /// `AlphaTestEffect`.
    AlphaTest(&'a AlphaTestEffect),
    /// `DualTextureEffect`. It reads `TextureCoordinate1`, which the quads lack: as in XNA,
    /// whose SpriteBatch vertices have one texture coordinate, its draws are
    /// `InvalidOperation` naming the element (at the draw or `end` that records them).
    DualTexture(&'a DualTextureEffect),
    /// A custom geometry effect: every pass of its current technique, in order, draws each run
    /// of sprites (as XNA's SpriteBatch does). Its vertex stage reads the quads' `Position`,
    /// `Color` and `TextureCoordinate`; the fragment sampler at binding 0 (`Textures[0]`)
    /// samples each sprite's texture, with the batch's sampler state, whatever texture the
    /// parameter holds.
    Custom(&'a CustomEffect),
}

impl<'a> From<&'a CustomEffect> for SpriteBatchEffect<'a> {
    fn from(effect: &'a CustomEffect) -> Self {
        SpriteBatchEffect::Custom(effect)
    }
}

impl<'a> From<&'a Effect> for SpriteBatchEffect<'a> {
    fn from(effect: &'a Effect) -> Self {
        SpriteBatchEffect::Pixel(effect)
    }
}

impl<'a> From<&'a BasicEffect> for SpriteBatchEffect<'a> {
    fn from(effect: &'a BasicEffect) -> Self {
        SpriteBatchEffect::Basic(effect)
    }
}

impl<'a> From<&'a AlphaTestEffect> for SpriteBatchEffect<'a> {
    fn from(effect: &'a AlphaTestEffect) -> Self {
        SpriteBatchEffect::AlphaTest(effect)
    }
}

impl<'a> From<&'a DualTextureEffect> for SpriteBatchEffect<'a> {
    fn from(effect: &'a DualTextureEffect) -> Self {
        SpriteBatchEffect::DualTexture(effect)
    }
}

/// What [`SpriteBatch::begin_with_options`](crate::SpriteBatch::begin_with_options) begins a
/// batch with, by name: XNA's `Begin(sortMode, blendState, samplerState, depthStencilState,
/// rasterizerState, effect, transformMatrix)` as a descriptor. `Default` is XNA's `Begin()`:
/// deferred, alpha blend, linear clamp, no depth, cull counter-clockwise, the stock effect, no
/// transform.
///
/// ```no_run
/// # use xnagraph::*;
/// # fn f(batch: &mut SpriteBatch) -> Result<()> {
/// batch.begin_with_options(&SpriteBatchOptions {
///     sort_mode: SpriteSortMode::BackToFront,
///     sampler_state: SamplerState::POINT_CLAMP,
///     ..SpriteBatchOptions::default()
/// })?;
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SpriteBatchOptions<'a> {
    /// `sortMode`.
    pub sort_mode: SpriteSortMode,
    /// `blendState` (XNA's null: `BlendState::ALPHA_BLEND`).
    pub blend_state: BlendState,
    /// `samplerState` (XNA's null: `SamplerState::LINEAR_CLAMP`).
    pub sampler_state: SamplerState,
    /// `depthStencilState` (XNA's null: `DepthStencilState::NONE`).
    pub depth_stencil_state: DepthStencilState,
    /// `rasterizerState` (XNA's null: `RasterizerState::CULL_COUNTER_CLOCKWISE`).
    pub rasterizer_state: RasterizerState,
    /// `effect` (`None`: the stock one); see [`SpriteBatchEffect`].
    pub effect: Option<SpriteBatchEffect<'a>>,
    /// `transformMatrix`, applied to every sprite before the projection.
    pub transform_matrix: Matrix,
}

impl Default for SpriteBatchOptions<'_> {
    fn default() -> Self {
        SpriteBatchOptions {
            sort_mode: SpriteSortMode::Deferred,
            blend_state: BlendState::ALPHA_BLEND,
            sampler_state: SamplerState::LINEAR_CLAMP,
            depth_stencil_state: DepthStencilState::NONE,
            rasterizer_state: RasterizerState::CULL_COUNTER_CLOCKWISE,
            effect: None,
            transform_matrix: Matrix::IDENTITY,
        }
    }
}

/// How [`SpriteBatch::draw_with`](crate::SpriteBatch::draw_with) draws a sprite, by name: the
/// arguments of XNA's `Draw(texture, position, sourceRectangle, color, rotation, origin, scale,
/// effects, layerDepth)` after the position. `Default` draws the whole texture untinted, as
/// `Draw(texture, position, Color.White)` does: white, no rotation, origin (0, 0), scale 1, no
/// flip, depth 0.
///
/// ```no_run
/// # use xnagraph::*;
/// # fn f(batch: &mut SpriteBatch, ship: &Texture2D) -> Result<()> {
/// let options = SpriteOptions {
///     rotation: 0.5,
///     origin: Vector2::new(16.0, 16.0),
///     ..SpriteOptions::default()
/// };
/// batch.draw_with(ship, Vector2::new(100.0, 80.0), &options)?;
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpriteOptions {
    /// `sourceRectangle`: the texels drawn, in texels (`None`: the whole texture).
    pub source: Option<Rectangle>,
    /// `color`: the tint, multiplied with the texels.
    pub color: Color,
    /// `rotation`: radians, clockwise, about the origin.
    pub rotation: f32,
    /// `origin`: the point of the source, in texels, placed at the position.
    pub origin: Vector2,
    /// `scale` of each axis.
    pub scale: Vector2,
    /// `effects`: flips.
    pub effects: SpriteEffects,
    /// `layerDepth`: the sort key of `BackToFront` and `FrontToBack`, and the depth written.
    pub layer_depth: f32,
}

impl Default for SpriteOptions {
    fn default() -> Self {
        SpriteOptions {
            source: None,
            color: Color::WHITE,
            rotation: 0.0,
            origin: Vector2::ZERO,
            scale: Vector2::ONE,
            effects: SpriteEffects::NONE,
            layer_depth: 0.0,
        }
    }
}
