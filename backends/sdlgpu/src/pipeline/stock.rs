//! The stock geometry effects' shaders.
//!
//! In: a [`StockVariant`] named by a geometry draw. Out: its vertex and fragment stages as SDL
//! shaders, made the first time a draw uses that effect with those options (the SPIR-V is
//! [`xnagraph_shaders::stock_stages`], the Vulkan backend's, frozen to the variant's options by
//! [`xnagraph_shaders::specialize`]: SDL_gpu has no specialization constants, so each variant is
//! its own pair of shaders, as XNA's BasicEffect is one of its precompiled shaders), in SDL_gpu's
//! resource layout: the
//! vertex stage reads one uniform block (set 1), the fragment stage two samplers (set 2:
//! `Texture`, `Texture2`) and the same block (set 3); SkinnedEffect's vertex stage reads its
//! bones as a second uniform block (set 1, binding 1). Nothing here decides anything about a
//! frame.

use std::collections::HashMap;

use sdl3_sys::gpu::*;
use xnagraph_graph::{BackendError, StockShader, StockVariant};

use super::shader;

/// The stages made so far.
#[derive(Default)]
pub(crate) struct StockEffects {
    stages: HashMap<StockVariant, (*mut SDL_GPUShader, *mut SDL_GPUShader)>,
}

impl StockEffects {
    /// `variant`'s vertex and fragment stages, made on first use.
    pub fn stages(
        &mut self,
        device: *mut SDL_GPUDevice,
        variant: StockVariant,
    ) -> Result<(*mut SDL_GPUShader, *mut SDL_GPUShader), BackendError> {
        if let Some(s) = self.stages.get(&variant) {
            return Ok(*s);
        }
        let (vertex, fragment) = xnagraph_shaders::stock_stages(variant.shader, false);
        let constants = variant.constants();
        let vertex = xnagraph_shaders::specialize(&vertex.words(), &constants);
        let fragment = xnagraph_shaders::specialize(&fragment.words(), &constants);
        // SDL_gpu's resource layout: the vertex stage reads one uniform block (set 1); the
        // fragment stage two samplers (set 2) and the same block (set 3). Every stock fragment
        // stage is made with both samplers, so that one binding serves them all.
        let uniforms = if variant.shader == StockShader::Skinned { 2 } else { 1 };
        let v = self::shader(device, &vertex, SDL_GPU_SHADERSTAGE_VERTEX, 0, uniforms)?;
        let f = match self::shader(device, &fragment, SDL_GPU_SHADERSTAGE_FRAGMENT, 2, 1) {
            Ok(f) => f,
            Err(e) => {
                // SAFETY: just made; nothing uses it.
                unsafe { SDL_ReleaseGPUShader(device, v) };
                return Err(e);
            }
        };
        self.stages.insert(variant, (v, f));
        Ok((v, f))
    }

    /// Releases every stage.
    ///
    /// # Safety
    /// The GPU is idle or SDL defers the release (it does for shaders).
    pub unsafe fn destroy(&mut self, device: *mut SDL_GPUDevice) {
        // SAFETY: the caller's contract; every handle is released once.
        unsafe {
            for (_, (v, f)) in self.stages.drain() {
                SDL_ReleaseGPUShader(device, v);
                SDL_ReleaseGPUShader(device, f);
            }
        }
    }
}
