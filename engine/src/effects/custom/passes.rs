//! A custom effect's techniques, passes and parameters as XNA's API shows them: their names,
//! `EffectPass::Apply` (the values as they are at the call, copied for the draws that follow)
//! and `EffectParameter::SetValue`.

use std::sync::Arc;

use super::parameter::{self, EffectValue, ParameterClass, ParameterInfo, ParameterType, Value};
use super::reflect::StageInfo;
use super::{CustomPass, CustomTechnique, EffectParameter};
use xnagraph_graph::CustomStage;

use crate::device::draw_state::CustomApplied;
use crate::device::shared::DeviceShared;
use crate::error::{Result, XnaError};
use crate::event::lock;

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
    /// become the device's for the draws that follow. A disposed effect or device is
    /// `ObjectDisposed`; a texture parameter the pass samples without a texture set is
    /// `InvalidOperation` (XNA binds no texture there); a texture of another
    /// device is `Argument` on `value`; a disposed texture is `ObjectDisposed`.
    pub fn apply(&self) -> Result<()> {
        let (device, applied) = self.applied(false)?;
        let mut rec = lock(&device.rec);
        rec.draw.effect = None;
        rec.draw.custom = Some(Arc::new(applied));
        Ok(())
    }

    /// What [`CustomPass::apply`] leaves on the device, and the device. With `sprites`, the
    /// fragment sampler at binding 0 (`Textures[0]`, which a `SpriteBatch` sets to each run's
    /// texture after applying the pass) need not have a texture set: it holds the effect's
    /// white texel until the batch puts its own there.
    pub(crate) fn applied(&self, sprites: bool) -> Result<(Arc<DeviceShared>, CustomApplied)> {
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
        let mut textures = Vec::new();
        for (stage, info) in
            [(CustomStage::Vertex, &pass.vertex), (CustomStage::Fragment, &pass.fragment)]
        {
            for s in &info.samplers {
                if sprites && stage == CustomStage::Fragment && s.binding == 0 {
                    textures.push((stage, 0, core.white.clone()));
                    continue;
                }
                let i = core.parameters.iter().position(|p| p.name == s.name);
                let Some(Value::Texture(Some(t))) = i.and_then(|i| values.get(i)) else {
                    return Err(XnaError::invalid_operation(format!(
                        "The effect parameter '{}' (Texture2D) has no texture set.",
                        s.name
                    )));
                };
                if !std::ptr::eq(t.core.res.device.as_ptr(), Arc::as_ptr(&device)) {
                    return Err(XnaError::argument(
                        "value",
                        format!("The texture of '{}' belongs to another GraphicsDevice.", s.name),
                    ));
                }
                textures.push((stage, s.binding, t.core.state()?));
            }
        }
        let applied = CustomApplied {
            state: pass.state.clone(),
            inputs: pass.inputs.clone(),
            vertex_uniforms: block(&pass.vertex),
            fragment_uniforms: block(&pass.fragment),
            textures,
            white: core.white.clone(),
        };
        drop(values);
        drop(techniques);
        Ok((device, applied))
    }
}

impl EffectParameter<'_> {
    fn info(&self) -> &ParameterInfo {
        &self.effect.core.parameters[self.index]
    }

    /// XNA's `EffectParameter.Name`: the GLSL name of the block member or sampler.
    pub fn name(&self) -> &str {
        &self.info().name
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
