//! Texture transfers: uploads and readbacks through transfer buffers in copy passes, mip
//! cascades as blits, and image clears as render passes that only clear.
//!
//! In: the plan's upload, readback, mip and image clear nodes, the upload transfer buffer
//! holding every upload's bytes (staged before recording). An upload or readback of the `Color`
//! image is lowered here; those of a depth/stencil or sample image, the capture planes, are
//! handed to [`crate::capture`]. Out: copy passes, blits and clearing render passes in the
//! command buffer, and a download transfer buffer per readback, read once the submission's fence
//! signals. An upload cycles its texture only when it replaces the whole resource.

use sdl3_sys::gpu::*;
use xnagraph_graph::{BackendError, ClearValue, Image, ImageClear, Readback, Upload};

use crate::record::{PendingReadback, Recorder};

/// Whether an upload replaces every texel of every subresource: only then may SDL give the
/// texture fresh backing memory (cycle). A resource filled by several writes never cycles, or
/// the earlier writes would be orphaned on the old backing.
pub(crate) fn replaces_whole_resource(u: &Upload) -> bool {
    let desc = u.texture.desc();
    desc.mip_levels == 1 && desc.layers == 1 && u.level == 0 && u.covers_level()
}

fn region(
    t: &crate::texture::NativeTexture,
    level: u32,
    layer: u32,
    rect: xnagraph_graph::Rect,
    slices: xnagraph_graph::Slices,
) -> SDL_GPUTextureRegion {
    let volume = t.desc.is_volume();
    SDL_GPUTextureRegion {
        texture: t.color,
        mip_level: level,
        layer: if volume { 0 } else { layer },
        x: rect.x.max(0) as u32,
        y: rect.y.max(0) as u32,
        z: if volume { slices.front } else { 0 },
        w: rect.width.max(0) as u32,
        h: rect.height.max(0) as u32,
        d: if volume { slices.count() } else { 1 },
    }
}

/// A region edge in texels, rounded up to whole blocks: the staged rows of a compressed level
/// smaller than a block still hold one whole block (Vulkan's row length and image height are
/// multiples of the block edge).
fn whole_blocks(t: &crate::texture::NativeTexture, texels: i32) -> u32 {
    (texels.max(0) as u32).next_multiple_of(t.desc.format.block_edge())
}

pub(crate) fn record_upload(
    rec: &mut Recorder<'_>,
    node: usize,
    u: &Upload,
) -> Result<(), BackendError> {
    match u.image {
        Image::Color => {}
        Image::DepthStencil => return crate::capture::depth::record_depth_upload(rec, node, u),
        Image::Samples => return crate::capture::samples::record_samples_upload(rec, node, u),
    }
    let t = rec.textures.get(u.texture.native())?;
    let offset = rec.staged(node)?;
    let source = SDL_GPUTextureTransferInfo {
        transfer_buffer: rec.uploads,
        offset,
        pixels_per_row: whole_blocks(t, u.rect.width),
        rows_per_layer: whole_blocks(t, u.rect.height),
    };
    let destination = region(t, u.level, u.layer, u.rect, u.slices);
    // SAFETY: recording outside any pass; the transfer buffer holds the bytes at `offset`.
    unsafe {
        let copy = SDL_BeginGPUCopyPass(rec.cmd);
        SDL_UploadToGPUTexture(copy, &source, &destination, replaces_whole_resource(u));
        SDL_EndGPUCopyPass(copy);
    }
    Ok(())
}

/// A download transfer buffer of `len` bytes for readback `id`, registered as pending (its
/// bytes, decoded by `depth` when given, are taken after the submission's fence).
pub(crate) fn download_buffer(
    rec: &mut Recorder<'_>,
    id: xnagraph_graph::ReadbackId,
    len: u32,
    depth: Option<crate::capture::depth::Decode>,
) -> Result<*mut SDL_GPUTransferBuffer, BackendError> {
    let info = SDL_GPUTransferBufferCreateInfo {
        usage: SDL_GPU_TRANSFERBUFFERUSAGE_DOWNLOAD,
        size: len.max(4),
        ..Default::default()
    };
    // SAFETY: a live device and a complete create info.
    let buffer = unsafe { SDL_CreateGPUTransferBuffer(rec.device, &info) };
    if buffer.is_null() {
        return Err(BackendError::OutOfMemory(crate::device::sdl_error(
            "SDL_CreateGPUTransferBuffer",
        )));
    }
    rec.diagnostics.object_created();
    rec.readbacks.push(PendingReadback { id, buffer, len, depth });
    Ok(buffer)
}

pub(crate) fn record_readback(rec: &mut Recorder<'_>, r: &Readback) -> Result<(), BackendError> {
    match r.image {
        Image::Color => {}
        Image::DepthStencil => return crate::capture::depth::record_depth_readback(rec, r),
        Image::Samples => return Err(crate::capture::samples::samples_readback()),
    }
    let t = rec.textures.get(r.texture.native())?;
    let (w, h) = (r.rect.width.max(0) as u32, r.rect.height.max(0) as u32);
    let len = (t.desc.format.region_size(w, h) * r.slices.count() as usize) as u32;
    let buffer = download_buffer(rec, r.id, len, None)?;
    let source = region(t, r.level, r.layer, r.rect, r.slices);
    let destination = SDL_GPUTextureTransferInfo {
        transfer_buffer: buffer,
        offset: 0,
        pixels_per_row: whole_blocks(t, w as i32),
        rows_per_layer: whole_blocks(t, h as i32),
    };
    // SAFETY: recording outside any pass; the buffer is large enough for the region.
    unsafe {
        let copy = SDL_BeginGPUCopyPass(rec.cmd);
        SDL_DownloadFromGPUTexture(copy, &source, &destination);
        SDL_EndGPUCopyPass(copy);
    }
    Ok(())
}

pub(crate) fn record_mips(
    rec: &Recorder<'_>,
    handle: xnagraph_graph::NativeHandle,
    layer: u32,
) -> Result<(), BackendError> {
    let t = rec.textures.get(handle)?;
    for level in 1..t.desc.mip_levels {
        let (sw, sh) = t.desc.level_size(level - 1);
        let (dw, dh) = t.desc.level_size(level);
        let blit = SDL_GPUBlitInfo {
            source: SDL_GPUBlitRegion {
                texture: t.color,
                mip_level: level - 1,
                layer_or_depth_plane: layer,
                x: 0,
                y: 0,
                w: sw,
                h: sh,
            },
            destination: SDL_GPUBlitRegion {
                texture: t.color,
                mip_level: level,
                layer_or_depth_plane: layer,
                x: 0,
                y: 0,
                w: dw,
                h: dh,
            },
            load_op: SDL_GPU_LOADOP_DONT_CARE,
            filter: SDL_GPU_FILTER_LINEAR,
            ..Default::default()
        };
        // SAFETY: recording outside any pass; render targets have both blit usages.
        unsafe { SDL_BlitGPUTexture(rec.cmd, &blit) };
    }
    Ok(())
}

/// A render pass that only clears one subresource (an image clear, or a poisoned attachment
/// after its pass).
pub(crate) fn clear_texture(
    rec: &Recorder<'_>,
    texture: *mut SDL_GPUTexture,
    layer: u32,
    level: u32,
    value: ClearValue,
    depth_format: SDL_GPUTextureFormat,
) -> Result<(), BackendError> {
    let pass = match value {
        ClearValue::Color(c) => {
            let info = SDL_GPUColorTargetInfo {
                texture,
                mip_level: level,
                layer_or_depth_plane: layer,
                clear_color: crate::pass::fcolor(c),
                load_op: SDL_GPU_LOADOP_CLEAR,
                store_op: SDL_GPU_STOREOP_STORE,
                ..Default::default()
            };
            // SAFETY: recording outside any pass; the texture is live.
            unsafe { SDL_BeginGPURenderPass(rec.cmd, &info, 1, std::ptr::null()) }
        }
        ClearValue::DepthStencil { depth, stencil } => {
            let stencil_on = crate::format::has_stencil(depth_format);
            let info = SDL_GPUDepthStencilTargetInfo {
                texture,
                clear_depth: depth,
                load_op: SDL_GPU_LOADOP_CLEAR,
                store_op: SDL_GPU_STOREOP_STORE,
                stencil_load_op: if stencil_on {
                    SDL_GPU_LOADOP_CLEAR
                } else {
                    SDL_GPU_LOADOP_DONT_CARE
                },
                stencil_store_op: if stencil_on {
                    SDL_GPU_STOREOP_STORE
                } else {
                    SDL_GPU_STOREOP_DONT_CARE
                },
                clear_stencil: stencil as u8,
                ..Default::default()
            };
            // SAFETY: as above.
            unsafe { SDL_BeginGPURenderPass(rec.cmd, std::ptr::null(), 0, &info) }
        }
    };
    if pass.is_null() {
        return Err(BackendError::Native(crate::device::sdl_error("SDL_BeginGPURenderPass")));
    }
    // SAFETY: begun above.
    unsafe { SDL_EndGPURenderPass(pass) };
    Ok(())
}

pub(crate) fn record_clears(rec: &Recorder<'_>, clears: &[ImageClear]) -> Result<(), BackendError> {
    for c in clears {
        let t = rec.textures.get(c.texture.native())?;
        let (texture, layer, _) = rec.image(c.texture.native(), t, c.image, c.layer)?;
        let level = if c.image == Image::Color { c.level } else { 0 };
        clear_texture(rec, texture, layer, level, c.value, t.depth_format)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use xnagraph_graph::{Rect, RetireSink, Slices, SurfaceFormat, TextureDesc, TextureState};

    fn upload(desc: TextureDesc, level: u32, rect: Rect, slices: Slices) -> Upload {
        let texture =
            TextureState::new(desc, xnagraph_graph::NativeHandle(1), RetireSink::default());
        Upload {
            image: xnagraph_graph::Image::Color,
            texture,
            level,
            layer: 0,
            rect,
            slices,
            data: Vec::new(),
        }
    }

    #[test]
    fn only_a_write_of_the_whole_resource_cycles() {
        let flat = TextureDesc::texture_2d(4, 4, 1, SurfaceFormat::Color);
        assert!(replaces_whole_resource(&upload(flat, 0, Rect::new(0, 0, 4, 4), Slices::FLAT)));
        assert!(!replaces_whole_resource(&upload(flat, 0, Rect::new(1, 1, 2, 2), Slices::FLAT)));
        // A chain is filled level by level: no level's write replaces the resource.
        let chain = TextureDesc::texture_2d(4, 4, 3, SurfaceFormat::Color);
        assert!(!replaces_whole_resource(&upload(chain, 0, Rect::new(0, 0, 4, 4), Slices::FLAT)));
        // A volume written slice by slice (the Texture3D defect) never cycles.
        let volume = TextureDesc::volume(4, 4, 2, 1, SurfaceFormat::Color);
        let all = Rect::new(0, 0, 4, 4);
        assert!(!replaces_whole_resource(&upload(volume, 0, all, Slices { front: 0, back: 1 })));
        assert!(!replaces_whole_resource(&upload(volume, 0, all, Slices { front: 1, back: 2 })));
        assert!(replaces_whole_resource(&upload(volume, 0, all, Slices { front: 0, back: 2 })));
    }
}
