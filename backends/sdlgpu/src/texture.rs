//! Native textures: the SDL textures behind one [`TextureState`](xnagraph_graph::TextureState).
//!
//! A texture state names a colour texture (2D, cube or 3D) and, for a render target, its
//! companions. SDL_gpu forbids a sample count above one on any array or cube texture, so the
//! multisample and depth companions are single-layer 2D textures, one per layer: a
//! multisampled cube face owns its own multisample texture, which resolves into that face's
//! layer of the cube (`resolve_layer`). Where the driver ignores the resolve layer, a
//! multisampled array or cube target also has one single-layer texture every layer resolves
//! into first, then copied into its layer (`resolve_stage`).

use std::collections::HashMap;

use sdl3_sys::gpu::*;
use xnagraph_graph::{BackendError, Diagnostics, Image, NativeHandle, TextureDesc};

use crate::device::sdl_error;
use crate::format::{sample_count, surface_format, FormatTable};

/// The SDL textures of one texture state.
pub(crate) struct NativeTexture {
    pub desc: TextureDesc,
    pub format: SDL_GPUTextureFormat,
    pub color: *mut SDL_GPUTexture,
    /// One multisample texture per layer of a multisampled render target.
    pub samples: Vec<*mut SDL_GPUTexture>,
    /// One depth/stencil texture per layer of a render target with a depth format.
    pub depth: Vec<*mut SDL_GPUTexture>,
    pub depth_format: SDL_GPUTextureFormat,
    /// The depth textures have SAMPLER usage: a target whose depth a capture reads back as one
    /// image ([`TextureDesc::snapshots_single_sample_depth`]) in a format whose readback
    /// samples the depth (see `capture::depth`), where the device allows.
    pub depth_sampled: bool,
    /// A multisampled target of several layers on a driver that ignores the resolve layer:
    /// the single-layer texture a layer's samples resolve into before the copy into its layer.
    pub resolve_stage: Option<*mut SDL_GPUTexture>,
}

impl NativeTexture {
    /// The SDL texture and layer an attachment or transfer of `image`, `layer` names.
    pub fn image(
        &self,
        image: Image,
        layer: u32,
    ) -> Result<(*mut SDL_GPUTexture, u32), BackendError> {
        let missing = || BackendError::Native(format!("malformed plan: no {image:?} image"));
        match image {
            Image::Color => Ok((self.color, layer)),
            Image::Samples => self.samples.get(layer as usize).map(|t| (*t, 0)).ok_or_else(missing),
            Image::DepthStencil => {
                self.depth.get(layer as usize).map(|t| (*t, 0)).ok_or_else(missing)
            }
        }
    }

    /// Native textures this state holds.
    pub fn image_count(&self) -> usize {
        1 + self.samples.len() + self.depth.len() + usize::from(self.resolve_stage.is_some())
    }

    /// Whether the colour texture is a cube.
    pub fn is_cube(&self) -> bool {
        self.desc.layers == 6 && !self.desc.is_volume()
    }
}

fn create_one(
    device: *mut SDL_GPUDevice,
    info: &SDL_GPUTextureCreateInfo,
    diagnostics: &Diagnostics,
) -> Result<*mut SDL_GPUTexture, BackendError> {
    // SAFETY: a live device and a complete create info.
    let t = unsafe { SDL_CreateGPUTexture(device, info) };
    if t.is_null() {
        return Err(BackendError::OutOfMemory(sdl_error("SDL_CreateGPUTexture")));
    }
    diagnostics.object_created();
    Ok(t)
}

/// Creates the textures of `desc`; `stage_resolves`: the driver ignores the resolve layer (see
/// [`NativeTexture::resolve_stage`]).
pub(crate) fn create(
    device: *mut SDL_GPUDevice,
    formats: &FormatTable,
    diagnostics: &Diagnostics,
    desc: &TextureDesc,
    stage_resolves: bool,
) -> Result<NativeTexture, BackendError> {
    let format = surface_format(desc.format).ok_or_else(|| {
        BackendError::NotSupported(format!("{:?} textures on SDL_gpu", desc.format))
    })?;
    let rt = desc.render_target;
    let (kind, layers_or_depth) = if let Some(d) = desc.volume_depth {
        (SDL_GPU_TEXTURETYPE_3D, d)
    } else if desc.layers == 6 {
        (SDL_GPU_TEXTURETYPE_CUBE, 6)
    } else {
        (SDL_GPU_TEXTURETYPE_2D, 1)
    };
    let usage = if rt.is_some() {
        SDL_GPU_TEXTUREUSAGE_SAMPLER | SDL_GPU_TEXTUREUSAGE_COLOR_TARGET
    } else {
        SDL_GPU_TEXTUREUSAGE_SAMPLER
    };
    let info = SDL_GPUTextureCreateInfo {
        r#type: kind,
        format,
        usage,
        width: desc.width,
        height: desc.height,
        layer_count_or_depth: layers_or_depth,
        num_levels: desc.mip_levels.max(1),
        sample_count: SDL_GPU_SAMPLECOUNT_1,
        ..Default::default()
    };
    let mut texture = NativeTexture {
        desc: *desc,
        format,
        color: create_one(device, &info, diagnostics)?,
        samples: Vec::new(),
        depth: Vec::new(),
        depth_format: SDL_GPU_TEXTUREFORMAT_INVALID,
        depth_sampled: false,
        resolve_stage: None,
    };
    if let Some(rt) = rt {
        let single = |format, usage, samples| SDL_GPUTextureCreateInfo {
            r#type: SDL_GPU_TEXTURETYPE_2D,
            format,
            usage,
            width: desc.width,
            height: desc.height,
            layer_count_or_depth: 1,
            num_levels: 1,
            sample_count: samples,
            ..Default::default()
        };
        let samples = sample_count(rt.sample_count);
        let made = (|| {
            if rt.is_multisampled() {
                for _ in 0..desc.layers {
                    let info = single(format, SDL_GPU_TEXTUREUSAGE_COLOR_TARGET, samples);
                    texture.samples.push(create_one(device, &info, diagnostics)?);
                }
                if stage_resolves && desc.layers > 1 {
                    let info =
                        single(format, SDL_GPU_TEXTUREUSAGE_COLOR_TARGET, SDL_GPU_SAMPLECOUNT_1);
                    texture.resolve_stage = Some(create_one(device, &info, diagnostics)?);
                }
            }
            if rt.depth.has_depth() {
                let f = formats.depth_format(rt.depth).ok_or_else(|| {
                    BackendError::NotSupported(format!("depth format {:?}", rt.depth))
                })?;
                texture.depth_format = f;
                texture.depth_sampled = desc.snapshots_single_sample_depth()
                    && crate::capture::depth::route(f) == crate::capture::depth::Route::Draws
                    && formats.depth_samplable(rt.depth);
                let usage = if texture.depth_sampled {
                    SDL_GPU_TEXTUREUSAGE_DEPTH_STENCIL_TARGET | SDL_GPU_TEXTUREUSAGE_SAMPLER
                } else {
                    SDL_GPU_TEXTUREUSAGE_DEPTH_STENCIL_TARGET
                };
                for _ in 0..desc.layers {
                    let info = single(f, usage, samples);
                    texture.depth.push(create_one(device, &info, diagnostics)?);
                }
            }
            Ok(())
        })();
        if let Err(e) = made {
            // SAFETY: nothing has used the textures made so far.
            unsafe { release(device, diagnostics, texture) };
            return Err(e);
        }
    }
    Ok(texture)
}

/// Releases the SDL textures (SDL frees the memory once the GPU is done with it).
///
/// # Safety
/// No command recorded later names them.
pub(crate) unsafe fn release(
    device: *mut SDL_GPUDevice,
    diagnostics: &Diagnostics,
    texture: NativeTexture,
) {
    let all = std::iter::once(texture.color)
        .chain(texture.samples)
        .chain(texture.depth)
        .chain(texture.resolve_stage);
    for t in all {
        // SAFETY: caller's contract.
        unsafe { SDL_ReleaseGPUTexture(device, t) };
        diagnostics.object_destroyed();
    }
}

/// The backend's textures by handle.
#[derive(Default)]
pub(crate) struct TextureTable {
    map: HashMap<NativeHandle, NativeTexture>,
}

impl TextureTable {
    pub fn insert(&mut self, handle: NativeHandle, texture: NativeTexture) {
        self.map.insert(handle, texture);
    }

    pub fn get(&self, handle: NativeHandle) -> Result<&NativeTexture, BackendError> {
        self.map
            .get(&handle)
            .ok_or_else(|| BackendError::Native(format!("texture {} was freed", handle.0)))
    }

    pub fn remove(&mut self, handle: NativeHandle) -> Option<NativeTexture> {
        self.map.remove(&handle)
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn image_count(&self) -> usize {
        self.map.values().map(NativeTexture::image_count).sum()
    }

    pub fn drain(&mut self) -> impl Iterator<Item = NativeTexture> + '_ {
        self.map.drain().map(|(_, t)| t)
    }
}
