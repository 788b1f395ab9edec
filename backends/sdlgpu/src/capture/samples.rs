//! Restores of a multisampled target's sample image: the content a Vulkan capture's snapshot
//! holds, replayed on SDL_gpu.
//!
//! In: an [`Upload`] of [`Image::Samples`] (level 0 of one layer, the whole level) in the
//! backend-neutral encoding of [`sample_planes_size`]: `samples` planes one after another, plane
//! `s` the width × height image of every texel's sample `s`, in the texture's own format. Out:
//! the planes copied from the upload transfer buffer into a temporary single-sample texture of
//! the target's format, width × (height · samples), with SAMPLER usage (it lives for the
//! submission, as those of `depth` do), then one render pass on that layer's multisample
//! texture (load DONT_CARE, store STORE: the plan already discarded it) with one full-target
//! triangle (`FULLSCREEN_VERT`, `SAMPLE_SCATTER_SDL_FRAG`, the sample count in its uniform
//! block). The fragment stage reads `gl_SampleID`, so it runs once per sample: sample `s` of
//! texel (x, y) takes the planes' texel (x, y + s · height). Blending is off and every channel
//! written. This is the Vulkan backend's scatter, sample for sample: SDL's sample index is the
//! Vulkan sample index it lowers to, so planes a Vulkan capture read back restore exactly.
//!
//! Per-sample shading needs Vulkan's `sampleRateShading`, which SDL's Vulkan driver requires of
//! every device it accepts (it enables the feature unconditionally), so the restore is always
//! offered ([`xnagraph_graph::Capabilities::sample_restore`]). The other direction, a readback,
//! would sample the multisample texture, which SDL_gpu cannot: it stays refused
//! (`Capabilities::sample_readback` is false). SDL_gpu gives each layer of a multisampled array
//! or cube target its own multisample texture (`texture`), so a layer's restore draws into that
//! layer's texture. A multisampled depth/stencil image is restored the same way by
//! `depth` and `depth_draws`.
//!
//! The shaders, the sampler and each (format, sample count) pipeline are made on first use.

use std::collections::HashMap;

use sdl3_sys::gpu::*;
use xnagraph_graph::{sample_planes_size, BackendError, Image, Rect, Slices, Upload};

use crate::capture::depth_draws::fetch_sampler;
use crate::device::sdl_error;
use crate::pipeline::shader;
use crate::record::Recorder;

/// The stages, sampler and pipelines of sample restores.
pub(crate) struct SamplePrograms {
    /// Vertex and fragment stage; null until first use.
    stages: [*mut SDL_GPUShader; 2],
    sampler: *mut SDL_GPUSampler,
    pipelines: HashMap<(SDL_GPUTextureFormat, SDL_GPUSampleCount), *mut SDL_GPUGraphicsPipeline>,
}

impl Default for SamplePrograms {
    fn default() -> Self {
        SamplePrograms {
            stages: [std::ptr::null_mut(); 2],
            sampler: std::ptr::null_mut(),
            pipelines: HashMap::new(),
        }
    }
}

impl SamplePrograms {
    /// Pipelines built so far.
    pub fn count(&self) -> usize {
        self.pipelines.len()
    }

    fn ensure_stages(&mut self, device: *mut SDL_GPUDevice) -> Result<(), BackendError> {
        if !self.stages[0].is_null() {
            return Ok(());
        }
        use xnagraph_shaders as s;
        let vertex = shader(device, &s::FULLSCREEN_VERT.words(), SDL_GPU_SHADERSTAGE_VERTEX, 0, 0)?;
        let fragment =
            shader(device, &s::SAMPLE_SCATTER_SDL_FRAG.words(), SDL_GPU_SHADERSTAGE_FRAGMENT, 1, 1);
        let fragment = match fragment {
            Ok(f) => f,
            Err(e) => {
                // SAFETY: made above, used by nothing.
                unsafe { SDL_ReleaseGPUShader(device, vertex) };
                return Err(e);
            }
        };
        let sampler = match fetch_sampler(device) {
            Ok(sampler) => sampler,
            Err(e) => {
                // SAFETY: made above, used by nothing.
                unsafe {
                    SDL_ReleaseGPUShader(device, vertex);
                    SDL_ReleaseGPUShader(device, fragment);
                }
                return Err(e);
            }
        };
        self.stages = [vertex, fragment];
        self.sampler = sampler;
        Ok(())
    }

    /// The scatter pipeline into a colour target of `format` with `samples` samples.
    fn pipeline(
        &mut self,
        device: *mut SDL_GPUDevice,
        format: SDL_GPUTextureFormat,
        samples: SDL_GPUSampleCount,
    ) -> Result<*mut SDL_GPUGraphicsPipeline, BackendError> {
        if let Some(p) = self.pipelines.get(&(format, samples)) {
            return Ok(*p);
        }
        self.ensure_stages(device)?;
        // Blending off, no write mask: every channel is written as fetched.
        let target = SDL_GPUColorTargetDescription { format, ..Default::default() };
        let info = SDL_GPUGraphicsPipelineCreateInfo {
            vertex_shader: self.stages[0],
            fragment_shader: self.stages[1],
            primitive_type: SDL_GPU_PRIMITIVETYPE_TRIANGLELIST,
            rasterizer_state: SDL_GPURasterizerState {
                fill_mode: SDL_GPU_FILLMODE_FILL,
                cull_mode: SDL_GPU_CULLMODE_NONE,
                front_face: SDL_GPU_FRONTFACE_CLOCKWISE,
                ..Default::default()
            },
            multisample_state: SDL_GPUMultisampleState {
                sample_count: samples,
                ..Default::default()
            },
            target_info: SDL_GPUGraphicsPipelineTargetInfo {
                color_target_descriptions: &target,
                num_color_targets: 1,
                ..Default::default()
            },
            ..Default::default()
        };
        // SAFETY: `target` lives across the call; the stages are live.
        let p = unsafe { SDL_CreateGPUGraphicsPipeline(device, &info) };
        if p.is_null() {
            return Err(BackendError::Native(sdl_error("SDL_CreateGPUGraphicsPipeline")));
        }
        self.pipelines.insert((format, samples), p);
        Ok(p)
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
        *self = SamplePrograms::default();
    }
}

/// The planes' height (`height` × `samples` rows) after checking it fits in one texture.
pub(crate) fn planes_height(
    name: &str,
    (width, height, samples): (u32, u32, u32),
    max_dimension: u32,
) -> Result<u32, BackendError> {
    let rows = u64::from(height) * u64::from(samples);
    if rows > u64::from(max_dimension) {
        return Err(BackendError::NotSupported(format!(
            "the sample planes of texture \"{name}\" ({width}x{height}, {samples} samples: \
             {rows} rows, past SDL_gpu's texture dimension {max_dimension})"
        )));
    }
    Ok(rows as u32)
}

/// Records the restore of every sample of layer `u.layer` of a multisampled target from the
/// planes staged for upload node `node`.
pub(crate) fn record_samples_upload(
    rec: &mut Recorder<'_>,
    node: usize,
    u: &Upload,
) -> Result<(), BackendError> {
    let t = rec.textures.get(u.texture.native())?;
    let (desc, format) = (t.desc, t.format);
    let samples = desc.sample_count();
    let (w, h) = desc.level_size(0);
    let target = match t.image(Image::Samples, u.layer) {
        Ok((target, _)) if samples > 1 => target,
        _ => {
            return Err(BackendError::Native(format!(
                "a sample-plane upload into layer {} of a texture without such a multisample \
                 image",
                u.layer
            )))
        }
    };
    if (u.level, u.rect, u.slices) != (0, Rect::new(0, 0, w as i32, h as i32), Slices::FLAT) {
        return Err(BackendError::Native(format!(
            "a sample-plane upload covers the whole {w}x{h} level 0, not {:?} of level {}",
            u.rect, u.level
        )));
    }
    let expected = sample_planes_size(desc.format, w, h, samples);
    if u.data.len() != expected {
        return Err(BackendError::Native(format!(
            "a sample-plane upload of {} bytes for planes of {expected}",
            u.data.len()
        )));
    }
    let rows = planes_height(&u.texture.name(), (w, h, samples), crate::MAX_TEXTURE_DIMENSION)?;
    let count = crate::format::sample_count(samples);
    let offset = rec.staged(node)?;
    let pipeline = rec.pipelines.samples.pipeline(rec.device, format, count)?;
    let planes =
        crate::capture::depth::temporary(rec, format, SDL_GPU_TEXTUREUSAGE_SAMPLER, (w, rows))?;
    let source = SDL_GPUTextureTransferInfo {
        transfer_buffer: rec.uploads,
        offset,
        pixels_per_row: w,
        rows_per_layer: rows,
    };
    let region = SDL_GPUTextureRegion { texture: planes, w, h: rows, d: 1, ..Default::default() };
    let color = SDL_GPUColorTargetInfo {
        texture: target,
        load_op: SDL_GPU_LOADOP_DONT_CARE,
        store_op: SDL_GPU_STOREOP_STORE,
        ..Default::default()
    };
    let binding =
        SDL_GPUTextureSamplerBinding { texture: planes, sampler: rec.pipelines.samples.sampler };
    let uniform = [samples, 0, 0, 0];
    // SAFETY: recording outside any pass; the transfer buffer holds the planes at `offset`;
    // every texture, the pipeline and the sampler are live; SDL copies the uniform data.
    unsafe {
        let copy = SDL_BeginGPUCopyPass(rec.cmd);
        SDL_UploadToGPUTexture(copy, &source, &region, false);
        SDL_EndGPUCopyPass(copy);
        let pass = SDL_BeginGPURenderPass(rec.cmd, &color, 1, std::ptr::null());
        if pass.is_null() {
            return Err(BackendError::Native(sdl_error("SDL_BeginGPURenderPass")));
        }
        SDL_BindGPUGraphicsPipeline(pass, pipeline);
        SDL_BindGPUFragmentSamplers(pass, 0, &binding, 1);
        SDL_PushGPUFragmentUniformData(rec.cmd, 0, uniform.as_ptr().cast(), 16);
        SDL_DrawGPUPrimitives(pass, 3, 1, 0, 0);
        SDL_EndGPURenderPass(pass);
    }
    Ok(())
}

/// Readbacks reach the colour and depth/stencil images, never a multisample image
/// (`Capabilities::sample_readback` is false: SDL_gpu cannot sample a multisampled texture);
/// uploads restore it (this module).
pub(crate) fn samples_readback() -> BackendError {
    BackendError::NotSupported("a readback of a multisample image".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planes_past_the_texture_dimension_are_refused_naming_the_texture() {
        assert_eq!(planes_height("t", (64, 2048, 4), 8192).unwrap(), 8192);
        match planes_height("scene", (64, 2049, 4), 8192) {
            Err(BackendError::NotSupported(m)) => {
                assert!(m.contains("\"scene\"") && m.contains("8196 rows"), "{m}")
            }
            other => panic!("{other:?}"),
        }
    }
}
