//! Custom geometry effects on SDL_gpu: each pass's two stages as SDL shaders, and the binding
//! of a draw's values.
//!
//! In: the two stages' SPIR-V and the [`CustomResources`] the engine reflected. The engine
//! already requires SDL_gpu's resource layout of every custom stage (vertex samplers at set 0,
//! the vertex uniform block at set 1, binding 0; fragment samplers at set 2, the fragment block
//! at set 3, binding 0), so the SPIR-V goes to `SDL_CreateGPUShader` as it is, with each
//! stage's resource counts: SDL numbers a stage's samplers `0..n`, so a stage whose highest
//! sampler binding is `b` declares `b + 1` samplers, and a binding the code leaves out is fed
//! the draw's white texel. Out: a program by handle, released with the pipelines built from it
//! once the effect's last state retires; per draw, the samplers bound and both blocks pushed.
//!
//! SDL_gpu's uniform buffers are windows of 4 KiB (`MAX_UBO_SECTION_SIZE`): a larger block is
//! `NotSupported` when the effect is made.

use std::collections::HashMap;

use sdl3_sys::gpu::*;
use xnagraph_graph::{
    BackendError, CustomDraw, CustomResources, CustomStage, Draw, NativeHandle, SamplerState,
};

use crate::record::Recorder;

/// The largest uniform block SDL_gpu binds (its uniform window on every driver).
pub(crate) const MAX_UNIFORM_BYTES: u32 = 4096;

/// One pass's SDL shaders and the resources they declare.
struct Program {
    vertex: *mut SDL_GPUShader,
    fragment: *mut SDL_GPUShader,
    resources: CustomResources,
}

/// Samplers a stage declares to SDL: one past its highest binding.
fn sampler_slots(bindings: &[u32]) -> u32 {
    bindings.iter().max().map_or(0, |b| b + 1)
}

/// Programs by handle.
#[derive(Default)]
pub(crate) struct CustomPrograms {
    programs: HashMap<NativeHandle, Program>,
}

impl CustomPrograms {
    pub fn count(&self) -> usize {
        self.programs.len()
    }

    /// The vertex and fragment shaders of `handle`.
    pub fn stages(
        &self,
        handle: NativeHandle,
    ) -> Result<(*mut SDL_GPUShader, *mut SDL_GPUShader), BackendError> {
        let p = self
            .programs
            .get(&handle)
            .ok_or_else(|| BackendError::Native("a draw names a freed custom effect".into()))?;
        Ok((p.vertex, p.fragment))
    }

    /// Creates the program of `handle`.
    pub fn create(
        &mut self,
        device: *mut SDL_GPUDevice,
        handle: NativeHandle,
        vertex: &[u32],
        fragment: &[u32],
        resources: &CustomResources,
    ) -> Result<(), BackendError> {
        for words in [vertex, fragment] {
            if !xnagraph_graph::effect::is_spirv(words) {
                return Err(BackendError::Native("an effect's code is not SPIR-V".into()));
            }
        }
        if resources.vertex_uniform_bytes.max(resources.fragment_uniform_bytes) > MAX_UNIFORM_BYTES
        {
            return Err(BackendError::NotSupported(format!(
                "a uniform block larger than {MAX_UNIFORM_BYTES} bytes on SDL_gpu"
            )));
        }
        let v = crate::pipeline::shader(
            device,
            vertex,
            SDL_GPU_SHADERSTAGE_VERTEX,
            sampler_slots(&resources.vertex_samplers),
            u32::from(resources.vertex_uniform_bytes > 0),
        )?;
        let f = match crate::pipeline::shader(
            device,
            fragment,
            SDL_GPU_SHADERSTAGE_FRAGMENT,
            sampler_slots(&resources.fragment_samplers),
            u32::from(resources.fragment_uniform_bytes > 0),
        ) {
            Ok(f) => f,
            Err(e) => {
                // SAFETY: just made; nothing uses it.
                unsafe { SDL_ReleaseGPUShader(device, v) };
                return Err(e);
            }
        };
        self.programs
            .insert(handle, Program { vertex: v, fragment: f, resources: resources.clone() });
        Ok(())
    }

    /// Releases the program of `handle` (the caller releases its pipelines); false when there
    /// is none.
    pub fn release(&mut self, device: *mut SDL_GPUDevice, handle: NativeHandle) -> bool {
        let Some(p) = self.programs.remove(&handle) else { return false };
        // SAFETY: SDL defers the release of a shader until the GPU is done with it.
        unsafe {
            SDL_ReleaseGPUShader(device, p.vertex);
            SDL_ReleaseGPUShader(device, p.fragment);
        }
        true
    }

    /// Releases every program.
    ///
    /// # Safety
    /// The GPU is idle or SDL defers the release (it does).
    pub unsafe fn destroy(&mut self, device: *mut SDL_GPUDevice) {
        for (_, p) in self.programs.drain() {
            // SAFETY: the caller's contract; each shader is released once.
            unsafe {
                SDL_ReleaseGPUShader(device, p.vertex);
                SDL_ReleaseGPUShader(device, p.fragment);
            }
        }
    }
}

/// Binds a custom draw's samplers (each stage's `0..n`, the draw's white texel where the code
/// declares no sampler) and pushes both stages' uniform blocks.
pub(crate) fn bind_values(
    rec: &mut Recorder<'_>,
    rp: *mut SDL_GPURenderPass,
    d: &Draw,
    c: &CustomDraw,
) -> Result<(), BackendError> {
    let malformed = |m: &str| BackendError::Native(format!("malformed plan: {m}"));
    let resources = {
        let programs = &rec.pipelines.geometry.custom.programs;
        let p = programs
            .get(&c.effect.key().native)
            .ok_or_else(|| BackendError::Native("a draw names a freed custom effect".into()))?;
        p.resources.clone()
    };
    if c.samplers.len() != resources.vertex_samplers.len() + resources.fragment_samplers.len() {
        return Err(malformed("a custom draw without a texture for every sampler"));
    }
    let white = rec.textures.get(d.textures.first().native())?.color;
    let white_sampler = rec.pipelines.sampler(rec.device, &SamplerState::POINT_CLAMP, 1)?;
    let filler = SDL_GPUTextureSamplerBinding { texture: white, sampler: white_sampler };
    let mut stages = [
        vec![filler; sampler_slots(&resources.vertex_samplers) as usize],
        vec![filler; sampler_slots(&resources.fragment_samplers) as usize],
    ];
    for s in &c.samplers {
        let (slots, bindings) = match s.stage {
            CustomStage::Vertex => (&mut stages[0], &resources.vertex_samplers),
            CustomStage::Fragment => (&mut stages[1], &resources.fragment_samplers),
        };
        if !bindings.contains(&s.binding) {
            return Err(malformed("a sampler the program does not bind"));
        }
        let texture = rec.textures.get(s.texture.native())?;
        if texture.is_cube() || texture.desc.is_volume() {
            return Err(malformed("a custom effect sampling a texture that is not 2D"));
        }
        let sampler = rec.pipelines.sampler(rec.device, &s.sampler, texture.desc.mip_levels)?;
        let slot = slots
            .get_mut(s.binding as usize)
            .ok_or_else(|| malformed("a sampler past the program's slots"))?;
        *slot = SDL_GPUTextureSamplerBinding { texture: texture.color, sampler };
    }
    let blocks = [
        (&c.vertex_uniforms, resources.vertex_uniform_bytes),
        (&c.fragment_uniforms, resources.fragment_uniform_bytes),
    ];
    for (bytes, size) in blocks {
        if bytes.len() != size as usize {
            return Err(malformed("a uniform block's bytes differ from its size"));
        }
    }
    // SAFETY: inside a render pass of a recording command buffer; every texture and sampler is
    // live until the submission completes (released handles are deferred); the pushed bytes
    // are copied by SDL at the call.
    unsafe {
        let [vertex, fragment] = &stages;
        if !vertex.is_empty() {
            SDL_BindGPUVertexSamplers(rp, 0, vertex.as_ptr(), vertex.len() as u32);
        }
        if !fragment.is_empty() {
            SDL_BindGPUFragmentSamplers(rp, 0, fragment.as_ptr(), fragment.len() as u32);
        }
        if !c.vertex_uniforms.is_empty() {
            let (p, n) = (c.vertex_uniforms.as_ptr(), c.vertex_uniforms.len() as u32);
            SDL_PushGPUVertexUniformData(rec.cmd, 0, p.cast(), n);
        }
        if !c.fragment_uniforms.is_empty() {
            let (p, n) = (c.fragment_uniforms.as_ptr(), c.fragment_uniforms.len() as u32);
            SDL_PushGPUFragmentUniformData(rec.cmd, 0, p.cast(), n);
        }
    }
    Ok(())
}
