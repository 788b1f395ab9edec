//! Depth/stencil transfers through draws, for the formats SDL_gpu cannot copy: a copy of a
//! texture with a depth and a stencil aspect names both aspects at once, which Vulkan forbids.
//!
//! In: a single-sample depth/stencil texture (the target's, with SAMPLER usage for a readback),
//! and for a restore two sampled textures holding the neutral encoding's two parts (depth as
//! R32_FLOAT, stencil as R8_UNORM). Out: render passes of full-target triangles
//! (`FULLSCREEN_VERT`):
//! - restore: one render pass on the depth/stencil texture, its stencil cleared to 0; one draw
//!   writes `gl_FragDepth` from the depth texels (depth test ALWAYS, depth write on), then one
//!   draw per stencil bit b REPLACEs with reference 0xFF and write mask 1 << b where the stencil
//!   texel has bit b (the others are discarded);
//! - readback: the depth texture sampled into an R32_FLOAT colour target; then, into an
//!   R8_UNORM target cleared to 0 with the depth/stencil texture loaded, one additive draw per
//!   bit b of (1 << b) / 255, stencil test EQUAL with compare mask and reference 1 << b: the
//!   unorm sum of the bits set is the stencil value, exactly.
//! - restore of every sample of a multisampled depth/stencil texture: the same render pass and
//!   draws from planes `samples` times as tall (`DEPTH_SCATTER_SDL_FRAG`,
//!   `STENCIL_SCATTER_SDL_FRAG`, the sample count and bit in their uniform block), which read
//!   `gl_SampleID` and so run per sample: sample s of texel (x, y) takes the planes' texel
//!   (x, y + s · height), a stencil bit's draw discarding the samples whose byte lacks it;
//! - a 24-bit depth is also probed: a driver's unorm-to-float conversion when sampling may miss
//!   the nearest float by a step or two (lavapipe's multiplies by a rounded reciprocal), so with
//!   the texture loaded as the depth attachment, one draw per candidate q - 3 to q + 3 around the
//!   sampled value's nearest texel q writes its depth (`DEPTH_PROBE_FRAG`) with the depth test
//!   EQUAL, and the candidate that passes into an R32_UINT target: the texel itself.
//!
//! The shaders and each (program, depth format) pipeline are made on first use.
//!
//! The Vulkan backend's `capture::depth_samples` is not this module's counterpart: there every
//! single-sample depth/stencil image copies, and only a multisampled one is drawn, in both
//! directions (see [`crate::capture`]).

use std::collections::HashMap;

use sdl3_sys::gpu::*;
use xnagraph_graph::BackendError;

use crate::device::sdl_error;
use crate::pipeline::shader;

/// One of the transfer draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Program {
    DepthWrite,
    /// Sets one stencil bit.
    StencilWrite(u32),
    DepthRead,
    /// Adds one stencil bit's value.
    StencilRead(u32),
    /// Writes the 24-bit depth candidate that equals the texel.
    DepthProbe,
    /// Writes every sample's depth of a target of this many samples.
    DepthScatter(u32),
    /// Sets one stencil bit (the second) of every sample of a target of this many samples.
    StencilScatter(u32, u32),
}

impl Program {
    /// The sample count of the depth/stencil texture the program draws into.
    fn samples(self) -> u32 {
        match self {
            Program::DepthScatter(samples) | Program::StencilScatter(samples, _) => samples,
            _ => 1,
        }
    }
}

/// The stages, sampler and pipelines of the transfer draws.
pub(crate) struct DepthPrograms {
    /// Vertex, depth write, stencil write, depth read, stencil read, depth probe, depth
    /// scatter, stencil scatter; null until first use.
    stages: [*mut SDL_GPUShader; 8],
    sampler: *mut SDL_GPUSampler,
    pipelines: HashMap<(Program, SDL_GPUTextureFormat), *mut SDL_GPUGraphicsPipeline>,
}

impl Default for DepthPrograms {
    fn default() -> Self {
        DepthPrograms {
            stages: [std::ptr::null_mut(); 8],
            sampler: std::ptr::null_mut(),
            pipelines: HashMap::new(),
        }
    }
}

/// The sampler of the transfer draws, whose stages only fetch texels: nearest, clamped.
pub(crate) fn fetch_sampler(
    device: *mut SDL_GPUDevice,
) -> Result<*mut SDL_GPUSampler, BackendError> {
    let info = SDL_GPUSamplerCreateInfo {
        min_filter: SDL_GPU_FILTER_NEAREST,
        mag_filter: SDL_GPU_FILTER_NEAREST,
        mipmap_mode: SDL_GPU_SAMPLERMIPMAPMODE_NEAREST,
        address_mode_u: SDL_GPU_SAMPLERADDRESSMODE_CLAMP_TO_EDGE,
        address_mode_v: SDL_GPU_SAMPLERADDRESSMODE_CLAMP_TO_EDGE,
        address_mode_w: SDL_GPU_SAMPLERADDRESSMODE_CLAMP_TO_EDGE,
        ..Default::default()
    };
    // SAFETY: a live device and a complete create info.
    let sampler = unsafe { SDL_CreateGPUSampler(device, &info) };
    if sampler.is_null() {
        return Err(BackendError::Native(sdl_error("SDL_CreateGPUSampler")));
    }
    Ok(sampler)
}

/// A stage's one-word uniform block (a stencil bit, a candidate offset; std140: 16 bytes).
fn uniform(word: u32) -> [u32; 4] {
    [word, 0, 0, 0]
}

impl DepthPrograms {
    /// Pipelines built so far.
    pub fn count(&self) -> usize {
        self.pipelines.len()
    }

    fn ensure_stages(&mut self, device: *mut SDL_GPUDevice) -> Result<(), BackendError> {
        if !self.stages[0].is_null() {
            return Ok(());
        }
        use xnagraph_shaders as s;
        let fragment = SDL_GPU_SHADERSTAGE_FRAGMENT;
        let made = [
            (s::FULLSCREEN_VERT, SDL_GPU_SHADERSTAGE_VERTEX, 0, 0),
            (s::DEPTH_WRITE_FRAG, fragment, 1, 0),
            (s::STENCIL_WRITE_FRAG, fragment, 1, 1),
            (s::DEPTH_READ_FRAG, fragment, 1, 0),
            (s::STENCIL_READ_FRAG, fragment, 0, 1),
            (s::DEPTH_PROBE_FRAG, fragment, 1, 1),
            (s::DEPTH_SCATTER_SDL_FRAG, fragment, 1, 1),
            (s::STENCIL_SCATTER_SDL_FRAG, fragment, 1, 1),
        ];
        let mut stages = [std::ptr::null_mut(); 8];
        for (i, (stage, kind, samplers, uniforms)) in made.into_iter().enumerate() {
            match shader(device, &stage.words(), kind, samplers, uniforms) {
                Ok(s) => stages[i] = s,
                Err(e) => {
                    for s in stages.into_iter().filter(|s| !s.is_null()) {
                        // SAFETY: made above, used by nothing.
                        unsafe { SDL_ReleaseGPUShader(device, s) };
                    }
                    return Err(e);
                }
            }
        }
        let sampler = match fetch_sampler(device) {
            Ok(sampler) => sampler,
            Err(e) => {
                for s in stages {
                    // SAFETY: made above, used by nothing.
                    unsafe { SDL_ReleaseGPUShader(device, s) };
                }
                return Err(e);
            }
        };
        self.stages = stages;
        self.sampler = sampler;
        Ok(())
    }

    /// The pipeline of `program` for a depth/stencil texture of `depth`.
    fn pipeline(
        &mut self,
        device: *mut SDL_GPUDevice,
        program: Program,
        depth: SDL_GPUTextureFormat,
    ) -> Result<*mut SDL_GPUGraphicsPipeline, BackendError> {
        if let Some(p) = self.pipelines.get(&(program, depth)) {
            return Ok(*p);
        }
        self.ensure_stages(device)?;
        let keep = SDL_GPU_STENCILOP_KEEP;
        let stencil = |compare_op, pass_op| SDL_GPUStencilOpState {
            fail_op: keep,
            pass_op,
            depth_fail_op: keep,
            compare_op,
        };
        let (fragment, color, depth_stencil) = match program {
            Program::DepthWrite | Program::DepthScatter(_) => (
                self.stages[if program == Program::DepthWrite { 1 } else { 6 }],
                None,
                SDL_GPUDepthStencilState {
                    compare_op: SDL_GPU_COMPAREOP_ALWAYS,
                    enable_depth_test: true,
                    enable_depth_write: true,
                    ..Default::default()
                },
            ),
            Program::StencilWrite(bit) | Program::StencilScatter(_, bit) => {
                let s = stencil(SDL_GPU_COMPAREOP_ALWAYS, SDL_GPU_STENCILOP_REPLACE);
                let state = SDL_GPUDepthStencilState {
                    back_stencil_state: s,
                    front_stencil_state: s,
                    compare_mask: 0xFF,
                    write_mask: 1 << bit,
                    enable_stencil_test: true,
                    ..Default::default()
                };
                let stage = if program == Program::StencilWrite(bit) { 2 } else { 7 };
                (self.stages[stage], None, state)
            }
            Program::DepthRead => {
                (self.stages[3], Some(SDL_GPU_TEXTUREFORMAT_R32_FLOAT), Default::default())
            }
            Program::StencilRead(bit) => {
                let s = stencil(SDL_GPU_COMPAREOP_EQUAL, keep);
                let state = SDL_GPUDepthStencilState {
                    back_stencil_state: s,
                    front_stencil_state: s,
                    compare_mask: 1 << bit,
                    write_mask: 0,
                    enable_stencil_test: true,
                    ..Default::default()
                };
                (self.stages[4], Some(SDL_GPU_TEXTUREFORMAT_R8_UNORM), state)
            }
            Program::DepthProbe => {
                let state = SDL_GPUDepthStencilState {
                    compare_op: SDL_GPU_COMPAREOP_EQUAL,
                    enable_depth_test: true,
                    ..Default::default()
                };
                (self.stages[5], Some(SDL_GPU_TEXTUREFORMAT_R32_UINT), state)
            }
        };
        let one = SDL_GPU_BLENDFACTOR_ONE;
        let targets: Vec<_> = color
            .into_iter()
            .map(|format| SDL_GPUColorTargetDescription {
                format,
                blend_state: SDL_GPUColorTargetBlendState {
                    src_color_blendfactor: one,
                    dst_color_blendfactor: one,
                    color_blend_op: SDL_GPU_BLENDOP_ADD,
                    src_alpha_blendfactor: one,
                    dst_alpha_blendfactor: one,
                    alpha_blend_op: SDL_GPU_BLENDOP_ADD,
                    enable_blend: matches!(program, Program::StencilRead(_)),
                    ..Default::default()
                },
            })
            .collect();
        // The depth read samples the texture and has no depth/stencil attachment.
        let attached = program != Program::DepthRead;
        let info = SDL_GPUGraphicsPipelineCreateInfo {
            vertex_shader: self.stages[0],
            fragment_shader: fragment,
            primitive_type: SDL_GPU_PRIMITIVETYPE_TRIANGLELIST,
            rasterizer_state: SDL_GPURasterizerState {
                fill_mode: SDL_GPU_FILLMODE_FILL,
                cull_mode: SDL_GPU_CULLMODE_NONE,
                front_face: SDL_GPU_FRONTFACE_CLOCKWISE,
                ..Default::default()
            },
            multisample_state: SDL_GPUMultisampleState {
                sample_count: crate::format::sample_count(program.samples()),
                ..Default::default()
            },
            depth_stencil_state: depth_stencil,
            target_info: SDL_GPUGraphicsPipelineTargetInfo {
                color_target_descriptions: targets.as_ptr(),
                num_color_targets: targets.len() as u32,
                depth_stencil_format: if attached { depth } else { SDL_GPU_TEXTUREFORMAT_INVALID },
                has_depth_stencil_target: attached,
                ..Default::default()
            },
            ..Default::default()
        };
        // SAFETY: `targets` lives across the call; the stages are live.
        let p = unsafe { SDL_CreateGPUGraphicsPipeline(device, &info) };
        if p.is_null() {
            return Err(BackendError::Native(sdl_error("SDL_CreateGPUGraphicsPipeline")));
        }
        self.pipelines.insert((program, depth), p);
        Ok(p)
    }

    /// Records the restore of `target` (a depth/stencil texture of `format`) from `depth`
    /// (R32_FLOAT) and `stencil` (R8_UNORM) textures of its size.
    pub fn restore(
        &mut self,
        device: *mut SDL_GPUDevice,
        cmd: *mut SDL_GPUCommandBuffer,
        target: *mut SDL_GPUTexture,
        format: SDL_GPUTextureFormat,
        depth: *mut SDL_GPUTexture,
        stencil: *mut SDL_GPUTexture,
    ) -> Result<(), BackendError> {
        let mut draws = vec![(self.pipeline(device, Program::DepthWrite, format)?, depth, None)];
        for bit in 0..8 {
            let p = self.pipeline(device, Program::StencilWrite(bit), format)?;
            draws.push((p, stencil, Some(uniform(bit))));
        }
        let stencil_ops = (SDL_GPU_LOADOP_CLEAR, SDL_GPU_STOREOP_STORE);
        self.restore_pass(cmd, target, stencil_ops, draws)
    }

    /// Records the restore of every sample of `target` (a depth/stencil texture of `format` with
    /// `samples` samples) from `depth` (R32_FLOAT) and, for a format with a stencil, `stencil`
    /// (R8_UNORM) planes: textures of its width and `samples` times its height, sample `s` in
    /// rows `[s · height, (s + 1) · height)`. Per-sample draws: the depth with the depth test
    /// ALWAYS, then each stencil bit over a stencil cleared to 0.
    #[allow(clippy::too_many_arguments)]
    pub fn restore_samples(
        &mut self,
        device: *mut SDL_GPUDevice,
        cmd: *mut SDL_GPUCommandBuffer,
        target: *mut SDL_GPUTexture,
        (format, samples): (SDL_GPUTextureFormat, u32),
        depth: *mut SDL_GPUTexture,
        stencil: Option<*mut SDL_GPUTexture>,
    ) -> Result<(), BackendError> {
        let block = |bit: u32| [samples, bit, 0, 0];
        let program = Program::DepthScatter(samples);
        let mut draws = vec![(self.pipeline(device, program, format)?, depth, Some(block(0)))];
        if let Some(stencil) = stencil {
            for bit in 0..8 {
                let p = self.pipeline(device, Program::StencilScatter(samples, bit), format)?;
                draws.push((p, stencil, Some(block(bit))));
            }
        }
        let stencil_ops = match stencil {
            Some(_) => (SDL_GPU_LOADOP_CLEAR, SDL_GPU_STOREOP_STORE),
            None => (SDL_GPU_LOADOP_DONT_CARE, SDL_GPU_STOREOP_DONT_CARE),
        };
        self.restore_pass(cmd, target, stencil_ops, draws)
    }

    /// Records one pass over the depth/stencil `target` (depth DONT_CARE then STORE, the
    /// stencil by `stencil_ops`, cleared to 0 when it loads by clearing; stencil reference 0xFF)
    /// that runs `draws`: each a pipeline, the texture it samples and its uniform block.
    #[allow(clippy::type_complexity)]
    fn restore_pass(
        &self,
        cmd: *mut SDL_GPUCommandBuffer,
        target: *mut SDL_GPUTexture,
        stencil_ops: (SDL_GPULoadOp, SDL_GPUStoreOp),
        draws: Vec<(*mut SDL_GPUGraphicsPipeline, *mut SDL_GPUTexture, Option<[u32; 4]>)>,
    ) -> Result<(), BackendError> {
        let info = SDL_GPUDepthStencilTargetInfo {
            texture: target,
            load_op: SDL_GPU_LOADOP_DONT_CARE,
            store_op: SDL_GPU_STOREOP_STORE,
            stencil_load_op: stencil_ops.0,
            stencil_store_op: stencil_ops.1,
            clear_stencil: 0,
            ..Default::default()
        };
        // SAFETY: recording outside any pass; every texture is live.
        let pass = unsafe { SDL_BeginGPURenderPass(cmd, std::ptr::null(), 0, &info) };
        if pass.is_null() {
            return Err(BackendError::Native(sdl_error("SDL_BeginGPURenderPass")));
        }
        // SAFETY: the stencil reference applies to the pass's draws.
        unsafe { SDL_SetGPUStencilReference(pass, 0xFF) };
        for (pipeline, texture, block) in draws {
            self.draw(cmd, pass, pipeline, Some(texture), block);
        }
        // SAFETY: begun above.
        unsafe { SDL_EndGPURenderPass(pass) };
        Ok(())
    }

    /// Records the readback of `source` (a depth/stencil texture of `format` with SAMPLER
    /// usage) into `depth` (an R32_FLOAT colour target, also sampled when probing) and
    /// `stencil` (R8_UNORM) of its size, and for a 24-bit depth into `probe` (R32_UINT).
    #[allow(clippy::too_many_arguments)]
    pub fn read(
        &mut self,
        device: *mut SDL_GPUDevice,
        cmd: *mut SDL_GPUCommandBuffer,
        source: *mut SDL_GPUTexture,
        format: SDL_GPUTextureFormat,
        depth: *mut SDL_GPUTexture,
        stencil: *mut SDL_GPUTexture,
        probe: Option<*mut SDL_GPUTexture>,
    ) -> Result<(), BackendError> {
        let depth_read = self.pipeline(device, Program::DepthRead, format)?;
        let depth_probe = match probe {
            Some(_) => Some(self.pipeline(device, Program::DepthProbe, format)?),
            None => None,
        };
        let mut bits = Vec::with_capacity(8);
        for bit in 0..8 {
            bits.push((self.pipeline(device, Program::StencilRead(bit), format)?, bit));
        }
        let color = |texture| SDL_GPUColorTargetInfo {
            texture,
            load_op: SDL_GPU_LOADOP_CLEAR,
            store_op: SDL_GPU_STOREOP_STORE,
            ..Default::default()
        };
        let begin = |target: &SDL_GPUColorTargetInfo,
                     ds: Option<&SDL_GPUDepthStencilTargetInfo>| {
            let ds = ds.map_or(std::ptr::null(), |d| d as *const _);
            // SAFETY: recording outside any pass; every texture is live.
            let pass = unsafe { SDL_BeginGPURenderPass(cmd, target, 1, ds) };
            if pass.is_null() {
                return Err(BackendError::Native(sdl_error("SDL_BeginGPURenderPass")));
            }
            Ok(pass)
        };
        let pass = begin(&color(depth), None)?;
        self.draw(cmd, pass, depth_read, Some(source), None);
        // SAFETY: begun above.
        unsafe { SDL_EndGPURenderPass(pass) };
        let attached = SDL_GPUDepthStencilTargetInfo {
            texture: source,
            load_op: SDL_GPU_LOADOP_LOAD,
            store_op: SDL_GPU_STOREOP_STORE,
            stencil_load_op: SDL_GPU_LOADOP_LOAD,
            stencil_store_op: SDL_GPU_STOREOP_STORE,
            ..Default::default()
        };
        let pass = begin(&color(stencil), Some(&attached))?;
        for (pipeline, bit) in bits {
            // SAFETY: the reference applies to the next draw.
            unsafe { SDL_SetGPUStencilReference(pass, 1 << bit) };
            self.draw(cmd, pass, pipeline, None, Some(uniform(bit)));
        }
        // SAFETY: begun above.
        unsafe { SDL_EndGPURenderPass(pass) };
        if let (Some(probe), Some(pipeline)) = (probe, depth_probe) {
            // Cleared to 2^24, which no candidate is.
            let none = SDL_GPUColorTargetInfo {
                clear_color: crate::pass::fcolor([16_777_216.0, 0.0, 0.0, 0.0]),
                ..color(probe)
            };
            let pass = begin(&none, Some(&attached))?;
            for offset in -3i32..=3 {
                self.draw(cmd, pass, pipeline, Some(depth), Some(uniform(offset as u32)));
            }
            // SAFETY: begun above.
            unsafe { SDL_EndGPURenderPass(pass) };
        }
        Ok(())
    }

    /// One full-target triangle with `pipeline`, sampling `texture`, with the uniform block
    /// `block`.
    fn draw(
        &self,
        cmd: *mut SDL_GPUCommandBuffer,
        pass: *mut SDL_GPURenderPass,
        pipeline: *mut SDL_GPUGraphicsPipeline,
        texture: Option<*mut SDL_GPUTexture>,
        block: Option<[u32; 4]>,
    ) {
        // SAFETY: a pass being recorded; the pipeline, texture and sampler are live, and the
        // uniform data outlives the call (SDL copies it).
        unsafe {
            SDL_BindGPUGraphicsPipeline(pass, pipeline);
            if let Some(texture) = texture {
                let binding = SDL_GPUTextureSamplerBinding { texture, sampler: self.sampler };
                SDL_BindGPUFragmentSamplers(pass, 0, &binding, 1);
            }
            if let Some(data) = block {
                SDL_PushGPUFragmentUniformData(cmd, 0, data.as_ptr().cast(), 16);
            }
            SDL_DrawGPUPrimitives(pass, 3, 1, 0, 0);
        }
    }

    /// Releases everything.
    ///
    /// # Safety
    /// SDL defers the release past the GPU's use (it does for every object here).
    pub unsafe fn destroy(&mut self, device: *mut SDL_GPUDevice) {
        // SAFETY: caller's contract.
        unsafe {
            for (_, p) in self.pipelines.drain() {
                SDL_ReleaseGPUGraphicsPipeline(device, p);
            }
            if !self.sampler.is_null() {
                SDL_ReleaseGPUSampler(device, self.sampler);
            }
            for s in self.stages.iter().filter(|s| !s.is_null()) {
                SDL_ReleaseGPUShader(device, *s);
            }
        }
        *self = DepthPrograms::default();
    }
}
