//! A stock effect's technique and pass (XNA's `EffectTechnique` and `EffectPass` of
//! BasicEffect, AlphaTestEffect, DualTextureEffect, SkinnedEffect and EnvironmentMapEffect: one
//! technique of one pass), and what every stock effect needs to be made: its white texel and the
//! renderer's geometry check.

use crate::device::GraphicsDevice;
use crate::effects::stock::{AppliedChange, StockEffect};
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::resources::texture::Texture2D;

/// XNA's `EffectTechnique` of a stock effect: one pass.
#[derive(Debug)]
pub struct EffectTechnique<'a> {
    effect: &'a dyn StockEffect,
    name: &'static str,
}

/// XNA's `EffectPass` of a stock effect: [`EffectPass::apply`] records the effect's state on
/// the device.
#[derive(Debug)]
pub struct EffectPass<'a> {
    effect: &'a dyn StockEffect,
    name: &'static str,
}

/// The one technique of a stock effect named `name`.
pub(crate) fn technique<'a>(
    effect: &'a dyn StockEffect,
    name: &'static str,
) -> EffectTechnique<'a> {
    EffectTechnique { effect, name }
}

/// One white texel, the texture a stock effect samples when it has none.
pub(crate) fn white_texel(device: &GraphicsDevice) -> Result<Texture2D> {
    let white = Texture2D::new(device, 1, 1)?;
    white.set_data(&[0xFFFF_FFFFu32])?;
    Ok(white)
}

/// Refuses a geometry effect on a renderer that lowers no geometry.
pub(crate) fn check_geometry(device: &GraphicsDevice, effect: &str) -> Result<()> {
    device.shared.check_alive()?;
    if !device.shared.caps.geometry {
        return Err(XnaError::not_supported(format!(
            "{effect} is not supported by the active renderer (it lowers no geometry)."
        )));
    }
    Ok(())
}

impl<'a> EffectTechnique<'a> {
    /// `EffectTechnique.Name`: the effect's type name (`"BasicEffect"`, `"AlphaTestEffect"`,
    /// `"DualTextureEffect"`).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// `EffectTechnique.Passes`: the one pass of a stock effect.
    pub fn passes(&self) -> [EffectPass<'a>; 1] {
        [EffectPass { effect: self.effect, name: self.name }]
    }
}

impl EffectPass<'_> {
    /// `EffectPass.Name`: the same name as its technique's.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// `Apply`: the effect's values as they are now become the device's for the draws that
    /// follow. A NaN or infinite colour, alpha, light or fog value is `ArgumentException`; a
    /// texture the effect must sample and has not got is `InvalidOperationException` (XNA would
    /// sample an unset texture); a disposed texture is `ObjectDisposedException`.
    ///
    /// As XNA's, `Apply` also writes the textures the effect samples into
    /// `GraphicsDevice.Textures` (`Texture` at slot 0; DualTextureEffect's `Texture2` and
    /// EnvironmentMapEffect's `EnvironmentMap` at slot 1), and the draws that follow sample
    /// what those slots hold at the draw: a texture the game sets into `Textures[0]` after
    /// `Apply` is the one drawn. A draw whose slot is then empty, or holds a texture of
    /// another kind than the effect samples there, is `InvalidOperationException`.
    pub fn apply(&self) -> Result<()> {
        let device = self.effect.device();
        device.check_alive()?;
        let writes = self.effect.device_textures();
        let mut rec = lock(&device.rec);
        // Written uncounted: a draw after an `Apply` that changed only a draw's own values has
        // the draw state the last draw had (`Versioned`).
        let change = self.effect.apply_to(&mut rec.draw.own_values_mut().effect)?;
        if change != AppliedChange::OwnValues {
            rec.draw.count_change();
        }
        let mut replaced = Vec::with_capacity(writes.len());
        for (slot, texture) in writes {
            if let Some(applied) = rec.draw.effect.as_deref_mut() {
                applied.reads_slots[slot] = true;
            }
            replaced.push(rec.draw.textures[slot].replace(texture));
        }
        // A texture replaced may be the game's last reference: dropping it disposes it, which
        // takes the recording lock.
        drop(rec);
        drop(replaced);
        Ok(())
    }
}
