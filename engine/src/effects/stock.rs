//! What XNA's stock effects share: what `EffectPass::apply` leaves on the device
//! ([`AppliedEffect`]), directional lights, the fog vector, the clip-space transform, and the
//! writer of a stock shader's uniform block. The effects themselves: `BasicEffect`
//! (`crate::effects::basic`), [`AlphaTestEffect`](alpha_test::AlphaTestEffect),
//! [`DualTextureEffect`](dual_texture::DualTextureEffect), `SkinnedEffect` and
//! `EnvironmentMapEffect`.

use std::sync::{Arc, Mutex};

pub(crate) use xnagraph_graph::{clip_transform_of, fog_vector};
use xnagraph_graph::{flip_y, StockMaterial, StockShader, TextureState, MATERIAL_FLOATS};

use crate::device::draw_state::{AppliedEffect, BoundTexture};
use crate::device::shared::DeviceShared;
use crate::error::Result;
use crate::finite;
use crate::math::{Matrix, Vector3};
use crate::resources::texture::TextureRef;

/// A stock effect as its passes see it.
pub(crate) trait StockEffect: std::fmt::Debug {
    /// The device the effect was made on.
    fn device(&self) -> &Arc<DeviceShared>;
    /// The effect's values as the draws that follow use them, or XNA's error for an effect
    /// that cannot be applied as it is.
    fn applied(&self) -> Result<AppliedEffect> {
        self.applied_with(None)
    }
    /// As [`StockEffect::applied`]; with `Some(texture)`, that texture is sampled in place of
    /// the effect's own `Texture` (which then need not be set): what a `SpriteBatch` does when
    /// it binds each sprite's texture to `Textures[0]` after applying the pass.
    fn applied_with(&self, texture0: Option<Arc<TextureState>>) -> Result<AppliedEffect>;
    /// Makes `target` (the device's applied effect) what [`StockEffect::applied`] gives, or
    /// returns its error and leaves `target` as it was: what `EffectPass::apply` does, under
    /// the recording lock. Says what it changed: [`AppliedChange::OwnValues`] only where no
    /// more than a draw's own values (what a repeat of the last draw carries) changed.
    fn apply_to(&self, target: &mut Option<Box<AppliedEffect>>) -> Result<AppliedChange> {
        let applied = self.applied()?;
        match target {
            Some(effect) => **effect = applied,
            none => *none = Some(Box::new(applied)),
        }
        Ok(AppliedChange::More)
    }
    /// What `EffectPass::apply` writes into `GraphicsDevice.Textures`, by slot: each texture
    /// the effect's shader samples (`Texture` at 0; `Texture2` or `EnvironmentMap` at 1), as
    /// XNA's `Apply` sets each sampler's texture on the device. A slot the shader does not
    /// sample (BasicEffect without `TextureEnabled`) is left as it is.
    fn device_textures(&self) -> Vec<(usize, Arc<dyn BoundTexture>)>;
}

/// What [`StockEffect::apply_to`] changed of the device's applied effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AppliedChange {
    /// A BasicEffect's own values of a draw (World, the material colours), kept as they are;
    /// nothing a draw compares with the last one.
    OwnValues,
    /// Anything more: the shader, a value a run of draws shares, a texture.
    More,
}

/// `texture` at `slot`, as a device slot holds it.
pub(crate) fn slot_of(
    slot: usize,
    texture: &Option<TextureRef>,
) -> Option<(usize, Arc<dyn BoundTexture>)> {
    texture.clone().map(|t| (slot, Arc::new(t) as Arc<dyn BoundTexture>))
}

/// XNA's `DirectionalLight` of an effect: a light infinitely far away shining along
/// `direction`, contributing `diffuse_color` by the cosine of its angle with the normal and
/// `specular_color` by the Blinn-Phong term. A disabled light contributes nothing. Its
/// direction is used as given (XNA does not normalise it). Defaults: disabled, direction
/// (0, −1, 0), white diffuse, black specular.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirectionalLight {
    /// `Enabled`.
    pub enabled: bool,
    /// `Direction`: where the light travels (from the light towards the scene).
    pub direction: Vector3,
    /// `DiffuseColor`.
    pub diffuse_color: Vector3,
    /// `SpecularColor`.
    pub specular_color: Vector3,
}

impl Default for DirectionalLight {
    fn default() -> Self {
        DirectionalLight {
            enabled: false,
            direction: Vector3::new(0.0, -1.0, 0.0),
            diffuse_color: Vector3::ONE,
            specular_color: Vector3::ZERO,
        }
    }
}

/// XNA's `EnableDefaultLighting` rig (key, fill and back lights, all enabled) and the ambient
/// colour it sets.
/// The values of a lit stock effect (BasicEffect's, SkinnedEffect's, EnvironmentMapEffect's)
/// that reach the GPU as floats, checked finite at Apply: its scalars (alpha, fog range, ...),
/// its colours and the three lights' vectors. Runs once per draw, so it reads them in place
/// (no list is built).
pub(crate) struct LitValues<'a> {
    pub scalars: &'a [f32],
    pub colors: &'a [Vector3],
    pub lights: [&'a DirectionalLight; 3],
    /// Whether the lights' specular colours reach the GPU (not for EnvironmentMapEffect).
    pub light_specular: bool,
}

impl LitValues<'_> {
    /// XNA's `ArgumentException` ("value") for a non-finite value, as its setters raise.
    pub(crate) fn check(&self) -> Result<()> {
        let xyz = |v: &Vector3| [v.x, v.y, v.z];
        let mut bad = !finite::all_finite(self.scalars);
        for v in self.colors {
            bad |= !finite::all_finite(&xyz(v));
        }
        for light in self.lights {
            bad |= !finite::all_finite(&xyz(&light.direction));
            bad |= !finite::all_finite(&xyz(&light.diffuse_color));
            bad |= self.light_specular && !finite::all_finite(&xyz(&light.specular_color));
        }
        if bad {
            return Err(finite::not_finite("value"));
        }
        Ok(())
    }
}

pub(crate) fn default_lighting() -> ([DirectionalLight; 3], Vector3) {
    let light = |direction, diffuse_color, specular_color| DirectionalLight {
        enabled: true,
        direction,
        diffuse_color,
        specular_color,
    };
    let key = Vector3::new(1.0, 0.960_784_4, 0.807_843_2);
    let back = Vector3::new(0.323_137_3, 0.360_784_4, 0.393_725_5);
    (
        [
            light(Vector3::new(-0.526_540_8, -0.573_576_5, -0.627_506_9), key, key),
            light(
                Vector3::new(0.719_846_4, 0.342_020_1, 0.604_022_7),
                Vector3::new(0.964_705_9, 0.760_784_4, 0.407_843_2),
                Vector3::ZERO,
            ),
            light(Vector3::new(0.454_519_5, -0.766_044_4, 0.454_519_5), back, back),
        ],
        Vector3::new(0.053_333_32, 0.098_823_54, 0.181_960_8),
    )
}

/// World × View × Projection with y flipped for Vulkan's clip space, column-major for the
/// shaders (whose `M * v` is XNA's `v * M`).
pub(crate) fn clip_transform(world: &Matrix, view: &Matrix, projection: &Matrix) -> [f32; 16] {
    flip_y(world.mul(view).mul(projection)).to_column_major()
}

/// `EyePosition` (View's inverse, its translation) of the last View an effect asked for: a
/// game sets View once a frame and applies the pass for every draw, so the inverse is
/// computed once per View. Views are compared bit for bit, so the result is always the one
/// the inverse gives. Behind a lock, as an effect is applied through `&self`; when another
/// thread holds it, the inverse is computed without it.
#[derive(Debug)]
pub(crate) struct EyeCache(Mutex<(Matrix, Vector3)>);

impl EyeCache {
    pub fn new() -> Self {
        EyeCache(Mutex::new((Matrix::IDENTITY, Matrix::IDENTITY.invert().translation())))
    }

    /// `view`'s inverse's translation.
    pub fn eye_position(&self, view: &Matrix) -> Vector3 {
        let Ok(mut last) = self.0.try_lock() else {
            return view.invert().translation();
        };
        if bytemuck::bytes_of(&last.0) != bytemuck::bytes_of(view) {
            *last = (*view, view.invert().translation());
        }
        last.1
    }
}

impl Clone for EyeCache {
    fn clone(&self) -> Self {
        EyeCache::new()
    }
}

/// Fills a stock shader's uniform block after the transform, vec4 by vec4 (std140), in place.
pub(crate) struct Block<'a> {
    floats: &'a mut [f32; MATERIAL_FLOATS],
    len: usize,
}

impl<'a> Block<'a> {
    pub fn new(floats: &'a mut [f32; MATERIAL_FLOATS]) -> Self {
        Block::at(floats, 0)
    }

    /// Writes from float `start` on, leaving the floats before it as they are.
    pub fn at(floats: &'a mut [f32; MATERIAL_FLOATS], start: usize) -> Self {
        Block { floats, len: start }
    }

    /// Leaves the next `floats` floats as they are.
    pub fn skip(&mut self, floats: usize) -> &mut Self {
        self.len += floats;
        self
    }

    /// Appends one vec4.
    pub fn vec4(&mut self, v: [f32; 4]) -> &mut Self {
        self.floats[self.len..self.len + 4].copy_from_slice(&v);
        self.len += 4;
        self
    }

    /// Appends a vec3 and its fourth component.
    pub fn vec3(&mut self, v: Vector3, w: f32) -> &mut Self {
        self.vec4([v.x, v.y, v.z, w])
    }

    /// Appends a mat4 (XNA's matrix, row by row: see [`clip_transform`]).
    pub fn mat4(&mut self, m: &Matrix) -> &mut Self {
        for row in m.m {
            self.vec4(row);
        }
        self
    }

    /// Appends three directional lights as the stock blocks hold them: the directions, then
    /// the diffuse colours, then (with `specular`) the specular colours, a disabled light's
    /// colours black.
    pub fn lights(&mut self, lights: [&DirectionalLight; 3], specular: bool) -> &mut Self {
        let colour = |l: &DirectionalLight, c: Vector3| if l.enabled { c } else { Vector3::ZERO };
        for l in lights {
            self.vec3(l.direction, 0.0);
        }
        for l in lights {
            self.vec3(colour(l, l.diffuse_color), 0.0);
        }
        if specular {
            for l in lights {
                self.vec3(colour(l, l.specular_color), 0.0);
            }
        }
        self
    }

    /// Ends `shader`'s block: its last vec4 written is the options word, where
    /// [`StockShader::options_at`] says the pipeline's variant is read from.
    pub fn end(&self, shader: StockShader) {
        debug_assert_eq!(self.len, shader.options_at() + 4, "the options word ends the block");
    }

    /// The block as `shader`'s material ([`Block::end`]).
    pub fn material(&self, shader: StockShader) -> StockMaterial {
        self.end(shader);
        StockMaterial { shader, block: *self.floats }
    }
}

/// 1.0 for true, 0.0 for false: a shader switch.
pub(crate) fn switch(on: bool) -> f32 {
    f32::from(u8::from(on))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cached eye position is the inverse's, bit for bit, for a repeated View, a changed
    /// one, and views equal as numbers but not as bits (0 and -0).
    #[test]
    fn the_eye_cache_gives_the_inverses_translation_of_every_view() {
        let cache = EyeCache::new();
        let a = Matrix::create_look_at(Vector3::new(1.0, 2.0, 3.0), Vector3::ZERO, Vector3::UNIT_Y);
        let b = Matrix::create_look_at(Vector3::new(-4.0, 0.5, 9.0), Vector3::ONE, Vector3::UNIT_Y);
        let mut negative_zero = Matrix::IDENTITY;
        negative_zero.m[3][0] = -0.0;
        let bits = |v: Vector3| [v.x, v.y, v.z].map(f32::to_bits);
        for view in [a, a, b, a, Matrix::IDENTITY, negative_zero, Matrix::IDENTITY] {
            let expected = view.invert().translation();
            assert_eq!(bits(cache.eye_position(&view)), bits(expected), "{view:?}");
        }
    }
}
