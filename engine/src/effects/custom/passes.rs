//! A custom effect's techniques, passes and parameters as XNA's API shows them: their names,
//! `EffectPass::Apply` (the values as they are at the call, copied for the draws that follow)
//! and `EffectParameter::SetValue`.

use std::sync::Arc;

use super::parameter::{
    self, EffectAnnotation, EffectValue, ParameterClass, ParameterInfo, ParameterType, Value,
};
use super::reflect::StageInfo;
use super::{CustomPass, CustomTechnique, EffectParameter};
use xnagraph_graph::CustomStage;

use crate::device::draw_state::{BoundTexture, CustomApplied, PassSampler};
use crate::device::shared::DeviceShared;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::resources::texture::TextureRef;

impl<'a> CustomTechnique<'a> {
    /// XNA's `EffectTechnique.Name`, as the technique's source named it; empty once the effect
    /// is disposed.
    pub fn name(&self) -> String {
        let techniques = lock(&self.effect.core.techniques);
        techniques
            .as_ref()
            .and_then(|t| t.get(self.index))
            .map_or(String::new(), |t| t.name.clone())
    }

    /// XNA's `EffectTechnique.Passes`, in the order the source lists them; empty once the effect
    /// is disposed.
    pub fn passes(&self) -> Vec<CustomPass<'a>> {
        let techniques = lock(&self.effect.core.techniques);
        let n = techniques.as_ref().and_then(|t| t.get(self.index)).map_or(0, |t| t.passes.len());
        (0..n)
            .map(|index| CustomPass { effect: self.effect, technique: self.index, index })
            .collect()
    }
}

impl CustomPass<'_> {
    /// XNA's `EffectPass.Name`, as the pass's source named it; empty once the effect is
    /// disposed.
    pub fn name(&self) -> String {
        let techniques = lock(&self.effect.core.techniques);
        let pass = techniques.as_ref().and_then(|t| t.get(self.technique)?.passes.get(self.index));
        pass.map_or(String::new(), |p| p.name.clone())
    }

    /// XNA's `EffectPass.Apply()`: the pass's program and the parameters' values as they are now
    /// become the device's for the draws that follow, and each texture parameter goes into the
    /// slot of `GraphicsDevice::textures` (a fragment sampler) or
    /// `GraphicsDevice::vertex_textures` (a vertex sampler) at its sampler's binding, XNA's null
    /// where the parameter holds none. Draws sample what those slots hold at the draw, so a
    /// texture set there after `apply` is the one sampled (as `SpriteBatch` does with
    /// `Textures[0]` in XNA); a draw whose pass samples an empty slot is `InvalidOperation`.
    ///
    /// Errors: a disposed effect or device is `ObjectDisposed`; a texture parameter holding a
    /// texture of another device is `Argument` on `value`; one holding a disposed texture is
    /// `ObjectDisposed`.
    pub fn apply(&self) -> Result<()> {
        let (device, applied, textures) = self.applied()?;
        let mut rec = lock(&device.rec);
        let mut replaced = Vec::with_capacity(textures.len());
        for (sampler, texture) in applied.samplers.iter().zip(textures) {
            let texture = texture.map(|t| Arc::new(t) as Arc<dyn BoundTexture>);
            let slots: &mut [_] = match sampler.stage {
                CustomStage::Vertex => &mut rec.draw.vertex_textures,
                CustomStage::Fragment => &mut rec.draw.textures,
            };
            // Bindings were checked against the slots when the effect was made.
            if let Some(slot) = slots.get_mut(sampler.binding as usize) {
                replaced.push(std::mem::replace(slot, texture));
            }
        }
        rec.draw.effect = None;
        rec.draw.custom = Some(Arc::new(applied));
        // A texture replaced may be the game's last reference: dropping it disposes it, which
        // takes the recording lock.
        drop(rec);
        drop(replaced);
        Ok(())
    }

    /// What a `SpriteBatch` drawing through this pass records: what [`CustomPass::apply`]
    /// leaves on the device, with the pass's own textures in `batch_textures` (a batch reads
    /// its effect's textures, not the device's). The fragment sampler at binding 0
    /// (`Textures[0]`, which a batch sets to each run's texture after applying the pass) need
    /// not have a texture set: it holds the effect's white texel until the batch puts its own
    /// there. Any other sampler without a texture is `InvalidOperation`, as a draw sampling an
    /// empty slot is.
    pub(crate) fn applied_for_batch(&self) -> Result<CustomApplied> {
        let (_, mut applied, textures) = self.applied()?;
        let white = &self.effect.core.white;
        applied.batch_textures = applied
            .samplers
            .iter()
            .zip(textures)
            .map(|(sampler, texture)| match texture {
                _ if sampler.stage == CustomStage::Fragment && sampler.binding == 0 => {
                    Ok(white.clone())
                }
                Some(texture) => texture.core.state(),
                None => Err(XnaError::invalid_operation(format!(
                    "The effect parameter '{}' (Texture2D) has no texture set.",
                    sampler.name
                ))),
            })
            .collect::<Result<_>>()?;
        Ok(applied)
    }

    /// What the pass leaves on the device, the device, and the texture of each of the pass's
    /// samplers (in the order of `CustomApplied::samplers`).
    fn applied(&self) -> Result<(Arc<DeviceShared>, CustomApplied, Vec<Option<TextureRef>>)> {
        let core = &self.effect.core;
        core.res.check_alive()?;
        let device =
            core.device.upgrade().ok_or(XnaError::ObjectDisposed { object: "GraphicsDevice" })?;
        device.check_alive()?;
        let techniques = lock(&core.techniques);
        let pass = techniques
            .as_ref()
            .and_then(|t| t.get(self.technique)?.passes.get(self.index))
            .ok_or(XnaError::ObjectDisposed { object: "Effect" })?;
        let values = lock(&core.values);
        let block = |info: &StageInfo| {
            let mut bytes = vec![0u8; info.block_size as usize];
            for m in &info.members {
                let i = core.parameters.iter().position(|p| p.name == m.name);
                if let Some(Value::Numbers(words)) = i.and_then(|i| values.get(i)) {
                    parameter::write_member(&mut bytes, m, words);
                }
            }
            bytes
        };
        let mut samplers = Vec::new();
        let mut textures = Vec::new();
        for (stage, info) in
            [(CustomStage::Vertex, &pass.vertex), (CustomStage::Fragment, &pass.fragment)]
        {
            for s in &info.samplers {
                let i = core.parameters.iter().position(|p| p.name == s.name);
                let texture = match i.and_then(|i| values.get(i)) {
                    Some(Value::Texture(Some(t))) => {
                        if !std::ptr::eq(t.core.res.device.as_ptr(), Arc::as_ptr(&device)) {
                            return Err(XnaError::argument(
                                "value",
                                format!(
                                    "The texture of '{}' belongs to another GraphicsDevice.",
                                    s.name
                                ),
                            ));
                        }
                        t.core.state()?;
                        Some(t.clone())
                    }
                    _ => None,
                };
                samplers.push(PassSampler { stage, binding: s.binding, name: s.name.clone() });
                textures.push(texture);
            }
        }
        let applied = CustomApplied {
            state: pass.state.clone(),
            inputs: pass.inputs.clone(),
            vertex_uniforms: block(&pass.vertex),
            fragment_uniforms: block(&pass.fragment),
            samplers,
            batch_textures: Vec::new(),
            white: core.white.clone(),
        };
        drop(values);
        drop(techniques);
        Ok((device, applied, textures))
    }
}

impl EffectParameter<'_> {
    fn info(&self) -> &ParameterInfo {
        &self.effect.core.parameters[self.index]
    }

    /// XNA's `EffectParameter.Name`: the source's name of the block member or sampler.
    pub fn name(&self) -> &str {
        &self.info().name
    }

    /// XNA's `EffectParameter.Semantic`: the semantic an HLSL source gives the parameter
    /// (`WORLD` for `float4x4 World : WORLD;`), as written; empty where there is none, and
    /// always for GLSL and SPIR-V, which have no semantics.
    pub fn semantic(&self) -> &str {
        &self.info().semantic
    }

    /// XNA's `EffectParameter.Annotations`: those an HLSL source attaches to the parameter, in
    /// source order (see [`CustomEffect::from_hlsl`](super::CustomEffect::from_hlsl) for what
    /// is read); empty for GLSL and SPIR-V.
    pub fn annotations(&self) -> &[EffectAnnotation] {
        &self.info().annotations
    }

    /// XNA's `EffectParameter.Annotations[name]`: `None` (XNA's null) when there is none.
    pub fn annotation(&self, name: &str) -> Option<&EffectAnnotation> {
        self.info().annotations.iter().find(|a| a.name == name)
    }

    /// XNA's `EffectParameter.ParameterType`, with the shape folded in (see [`ParameterType`]).
    pub fn parameter_type(&self) -> ParameterType {
        self.info().ty
    }

    /// XNA's `EffectParameter.ParameterClass`.
    pub fn parameter_class(&self) -> ParameterClass {
        self.info().ty.class()
    }

    /// XNA's `EffectParameter.Elements.Count`: the array length, 0 for a single value.
    pub fn element_count(&self) -> usize {
        self.info().count.unwrap_or(0) as usize
    }

    /// XNA's `EffectParameter.SetValue(value)`: `Matrix`, `Vector2`/`3`/`4`, `f32`, `i32`, `bool`
    /// or a slice of them (an array parameter: a shorter slice sets the first elements), or
    /// `&Texture2D`. A value of another type than the parameter's, a slice for a single value or a
    /// single value for an array, is `InvalidCast`; a slice longer than the array is
    /// `ArgumentOutOfRange`; a disposed effect or texture is `ObjectDisposed`. The value reaches
    /// draws at the next `EffectPass::apply`.
    pub fn set_value<V: EffectValue>(&self, value: V) -> Result<()> {
        let core = &self.effect.core;
        core.res.check_alive()?;
        if let Some(t) = value.texture() {
            t.core.state()?;
        }
        let mut values = lock(&core.values);
        let current =
            values.get(self.index).ok_or(XnaError::ObjectDisposed { object: "Effect" })?;
        let new = self.info().accept(&value, current)?;
        values[self.index] = new;
        Ok(())
    }
}

impl std::fmt::Debug for CustomTechnique<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CustomTechnique").field("name", &self.name()).finish()
    }
}

impl std::fmt::Debug for CustomPass<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CustomPass").field("name", &self.name()).finish()
    }
}

impl std::fmt::Debug for EffectParameter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EffectParameter")
            .field("name", &self.name())
            .field("type", &self.parameter_type())
            .field("elements", &self.element_count())
            .finish()
    }
}
