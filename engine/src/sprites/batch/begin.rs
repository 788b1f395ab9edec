//! `SpriteBatch::begin` and its overloads: the batch's states, its effect (a pixel stage, or a
//! stock or custom geometry effect copied for the batch) and, in `Immediate` mode, its
//! projection, checked against what the device can honour before anything is drawn.

use std::sync::Arc;

use xnagraph_graph::{BlendState, DepthStencilState, RasterizerState, SamplerState};

use super::geometry::project;
use super::{
    BatchState, GeometryEffect, SpriteBatch, SpriteBatchEffect, SpriteBatchOptions, SpriteSortMode,
};
use crate::device::shared::DeviceShared;
use crate::effects::stock::StockEffect;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::finite::{check_finite, check_rasterizer};
use crate::math::Matrix;

/// A copy of a stock geometry effect for a batch: `Argument` on `effect` when the effect
/// belongs to another device.
fn stock_effect<E>(effect: &E, device: &Arc<DeviceShared>) -> Result<GeometryEffect>
where
    E: StockEffect + Clone + Send + Sync + 'static,
{
    if !Arc::ptr_eq(effect.device(), device) {
        return Err(XnaError::argument(
            "effect",
            "The effect was created on a different GraphicsDevice.",
        ));
    }
    check_geometry(device)?;
    Ok(GeometryEffect::Stock(Box::new(effect.clone())))
}

/// `NotSupported` on a renderer that lowers no geometry, where an effect's own vertex stage
/// cannot run.
fn check_geometry(device: &DeviceShared) -> Result<()> {
    if !device.caps.geometry {
        return Err(XnaError::not_supported(
            "A SpriteBatch effect with its own vertex stage is not supported by the active \
             renderer (it lowers no geometry).",
        ));
    }
    Ok(())
}

impl SpriteBatch {
    /// XNA's `SpriteBatch.Begin()`: deferred, alpha blend, linear clamp, no depth, cull
    /// counter-clockwise.
    ///
    /// Errors: as [`SpriteBatch::begin_with_effect`].
    pub fn begin(&mut self) -> Result<()> {
        self.begin_with(SpriteSortMode::Deferred, None, None, None, None, None)
    }

    /// XNA's `SpriteBatch.Begin(sortMode, blendState, samplerState, depthStencilState,
    /// rasterizerState, effect, transformMatrix)` without an effect; `None` picks XNA's default
    /// for that state. Errors: as [`SpriteBatch::begin_with_effect`].
    ///
    /// States the device cannot honour are `NotSupported` here: `FillMode::WireFrame` without
    /// wire-frame support,
    /// `TextureFilter::Anisotropic` without anisotropic filtering (never silently trilinear),
    /// several targets bound without independent blending, or a blending state while a bound
    /// target's format cannot blend.
    ///
    /// The projection (pixels of the viewport to clip space) is taken where XNA, MonoGame and
    /// FNA take it: from the viewport at `begin` in `Immediate` mode, and from the viewport at
    /// `end` in the other modes. Each draw goes into the viewport current when it is recorded
    /// (`Immediate`: at the draw call; otherwise: at `end`), so in `Immediate` mode a draw
    /// after a viewport change lands in the new viewport, scaled by the projection of `begin`.
    ///
    /// [`SpriteBatch::begin_with_options`] takes the same by name.
    pub fn begin_with(
        &mut self,
        sort: SpriteSortMode,
        blend: Option<BlendState>,
        sampler: Option<SamplerState>,
        depth_stencil: Option<DepthStencilState>,
        rasterizer: Option<RasterizerState>,
        transform: Option<Matrix>,
    ) -> Result<()> {
        let effect: Option<SpriteBatchEffect<'_>> = None;
        self.begin_with_effect(sort, blend, sampler, depth_stencil, rasterizer, effect, transform)
    }

    /// XNA's `SpriteBatch.Begin` with every argument by name ([`SpriteBatchOptions`]; its
    /// `Default` is `Begin()`): the same batch, rules and errors as
    /// [`SpriteBatch::begin_with_effect`] given the same values.
    pub fn begin_with_options(&mut self, options: &SpriteBatchOptions<'_>) -> Result<()> {
        let o = *options;
        self.begin_with_effect(
            o.sort_mode,
            Some(o.blend_state),
            Some(o.sampler_state),
            Some(o.depth_stencil_state),
            Some(o.rasterizer_state),
            o.effect,
            Some(o.transform_matrix),
        )
    }

    /// XNA's `SpriteBatch.Begin(sortMode, blendState, samplerState, depthStencilState,
    /// rasterizerState, effect, transformMatrix)`: as [`SpriteBatch::begin_with`], the sprites
    /// drawn through `effect` (`None`: the stock sprite stage), anything that converts into a
    /// [`SpriteBatchEffect`]: `Some(&effect)` of an [`Effect`](crate::Effect), a
    /// [`BasicEffect`](crate::BasicEffect), an [`AlphaTestEffect`](crate::AlphaTestEffect), a
    /// [`DualTextureEffect`](crate::DualTextureEffect) or a
    /// [`CustomEffect`](crate::CustomEffect). Without an effect,
    /// [`SpriteBatch::begin_with`] takes the same arguments (a bare `None` here names no
    /// effect type).
    ///
    /// A pixel-stage [`Effect`](crate::Effect) replaces the stock one; the stock vertex stage
    /// places the sprites. An effect with `n` outputs writes the first `n` bound render
    /// targets, each through the blend state's write mask; targets past them keep their
    /// content, as with the stock effect, which writes the first target only.
    ///
    /// A stock or custom geometry effect draws the sprites as XNA's SpriteBatch does through an
    /// effect with its own vertex shader: each sprite a `VertexPositionColorTexture` quad (x and y in
    /// the batch's pixels, z the layer depth, the tint as vertex colour, each corner's texture
    /// coordinates with the flips applied), the sprites in the sort mode's order, one draw per
    /// run of sprites sharing a texture, through each pass of the effect's current technique,
    /// each run's texture sampled in place of the effect's `Texture` (a custom effect's
    /// fragment sampler at binding 0) as XNA's SpriteBatch sets `Textures[0]` after applying
    /// the pass, so the effect's texture need not be set. The effect's vertex stage (a stock
    /// effect's World × View × Projection) places the quads: the batch's projection and
    /// `transform` are not applied
    /// (as in XNA, where the effect's vertex shader replaces SpriteBatch's). The batch's blend,
    /// sampler (`SamplerStates[0]`), depth/stencil and rasterizer states apply;
    /// DualTextureEffect's `Texture2` is sampled with the device's `SamplerStates[1]`. Where
    /// it differs from XNA: the effect is drawn with its values at `begin` (the batch keeps a
    /// copy; XNA applies the pass at `End`, or at `Begin` in `Immediate` mode), the effect the
    /// game holds is never changed, and a stock effect that cannot be applied as it is (a NaN
    /// value, a lit `BasicEffect`, whose normals the quads lack) fails at the draw or `end`
    /// that records it, as XNA's `Apply` or draw would (a custom effect's passes are applied
    /// at `begin`, and fail there; one reading a vertex element the quads lack fails at the
    /// draw or `end`).
    ///
    /// Errors: a disposed device or effect is `ObjectDisposed`; a second `begin` before `end`
    /// is `InvalidOperation`, as XNA; an effect of another device is `Argument` on `effect`; a
    /// stock geometry effect on a renderer that lowers no geometry is `NotSupported`; a
    /// non-finite transform or rasterizer depth bias is `Argument` on `transformMatrix` or
    /// `rasterizerState`; states the device cannot honour are `NotSupported` (see
    /// [`SpriteBatch::begin_with`]).
    #[allow(clippy::too_many_arguments)]
    pub fn begin_with_effect<'e>(
        &mut self,
        sort: SpriteSortMode,
        blend: Option<BlendState>,
        sampler: Option<SamplerState>,
        depth_stencil: Option<DepthStencilState>,
        rasterizer: Option<RasterizerState>,
        effect: Option<impl Into<SpriteBatchEffect<'e>>>,
        transform: Option<Matrix>,
    ) -> Result<()> {
        let device = self.device()?;
        if self.state.is_some() {
            return Err(XnaError::invalid_operation(
                "Begin cannot be called again until End has been successfully called.",
            ));
        }
        let (effect, geometry) = match effect.map(Into::into) {
            None => (None, None),
            Some(SpriteBatchEffect::Pixel(e)) => (Some(e.state_for(&device)?), None),
            Some(SpriteBatchEffect::Basic(e)) => (None, Some(stock_effect(e, &device)?)),
            Some(SpriteBatchEffect::AlphaTest(e)) => (None, Some(stock_effect(e, &device)?)),
            Some(SpriteBatchEffect::DualTexture(e)) => (None, Some(stock_effect(e, &device)?)),
            Some(SpriteBatchEffect::Custom(e)) => {
                let passes = e.sprite_passes(&device)?;
                check_geometry(&device)?;
                (None, Some(GeometryEffect::Custom(passes)))
            }
        };
        if let Some(rasterizer) = &rasterizer {
            check_rasterizer(rasterizer)?;
        }
        if let Some(transform) = &transform {
            check_finite(&[("transformMatrix", transform.m.as_flattened())])?;
        }
        let transform = transform.unwrap_or(Matrix::IDENTITY);
        let blend = blend.unwrap_or(BlendState::ALPHA_BLEND);
        let sampler = sampler.unwrap_or(SamplerState::LINEAR_CLAMP);
        let rasterizer = rasterizer.unwrap_or(RasterizerState::CULL_COUNTER_CLOCKWISE);
        let projected = {
            let mut rec = lock(&device.rec);
            // What the states need from the device is refused here, not discovered at the flush.
            crate::device::capability::check_states(&device, &rec, &blend, &sampler, &rasterizer)?;
            // Only a Deferred batch whose sprites open the frame hands its arena over as it is;
            // any other's is read back (copied after the frame's sprites, sorted, or written to
            // a capture), which mapped memory makes slow.
            let mapped = sort == SpriteSortMode::Deferred
                && geometry.is_none()
                && rec.builder.sprites_mut().is_empty()
                && !device.capture.capturing();
            if self.instances.capacity() == 0 || (self.instances.is_mapped() && !mapped) {
                let arena = std::mem::replace(&mut self.instances, rec.take_sprite_arena(mapped));
                rec.recycle_sprites(arena);
            }
            (sort == SpriteSortMode::Immediate).then(|| project(&transform, rec.draw.viewport))
        };
        self.state = Some(BatchState {
            sort,
            blend,
            sampler,
            depth_stencil: depth_stencil.unwrap_or(DepthStencilState::NONE),
            rasterizer,
            transform,
            projected,
        });
        self.effect = effect;
        self.geometry = geometry;
        self.clear_queue();
        self.clear_textures();
        Ok(())
    }
}
