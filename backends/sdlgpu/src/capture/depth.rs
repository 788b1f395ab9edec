//! Transfers of a render target's depth/stencil image: the content a capture's snapshot holds.
//!
//! In: an [`Upload`] or [`Readback`] of [`Image::DepthStencil`] (level 0, layer 0, the whole
//! level of a single-sample target) in the backend-neutral encoding of
//! [`depth_stencil_size`](xnagraph_graph::depth_stencil_size): every texel's depth as an `f32`,
//! then every texel's stencil byte when the format has one. Out, by the target's SDL format:
//! - depth only (D16_UNORM, D24_UNORM, D32_FLOAT): SDL's texture transfers, which copy the one
//!   depth aspect in the layout of [`DepthTexels`], converted to and from the encoding on the
//!   CPU (when the upload is staged, and when the readback's bytes are taken after its fence);
//! - depth and stencil (D24_UNORM_S8_UINT, D32_FLOAT_S8_UINT): SDL would copy both aspects at
//!   once, which Vulkan forbids, so the two parts travel as an R32_FLOAT and an R8_UNORM
//!   texture (in the encoding's own layout, no conversion) and reach the depth/stencil texture
//!   through draws (`depth_draws`). Those textures live for one submission.
//!
//! A multisampled target's depth/stencil image is restored from the encoding of its planes (an
//! image `samples` times as tall, sample `s` in rows `[s · height, (s + 1) · height)`), whatever
//! its format: no copy reaches the samples, so the planes travel as an R32_FLOAT texture (the
//! depths as the values a draw writes, 16- and 24-bit ones lifted to at or just above their
//! texel) and, with a stencil, an R8_UNORM texture, drawn per sample (`depth_draws`). Its
//! readback is refused: SDL_gpu cannot sample a multisampled texture.
//!
//! SDL_gpu gives a multi-layer target one depth texture per layer where Vulkan has one image
//! for every layer: a restore writes every layer's texture, a readback reads layer 0's.

use std::borrow::Cow;

use sdl3_sys::gpu::*;
use xnagraph_graph::{
    depth_stencil_size, BackendError, DepthFormat, DepthTexels, Image, Readback, Rect, Slices,
    Upload,
};

use crate::record::Recorder;
use crate::texture::{NativeTexture, TextureTable};

/// How a depth readback's bytes become the neutral encoding (a readback through draws of a
/// float depth needs nothing: its bytes are the encoding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decode {
    /// Copied texels of this layout.
    Copied(DepthTexels),
    /// A 24-bit depth read through draws, for this many texels: the sampled `f32`s, the probed
    /// texels (`depth_draws`; above 2²⁴ - 1 where no candidate passed, and the sampled depth is
    /// rounded to its nearest texel instead), then the stencil bytes.
    Probed(usize),
}

impl Decode {
    /// The downloaded `bytes` in the neutral encoding.
    pub fn apply(self, bytes: &[u8]) -> Vec<u8> {
        match self {
            Decode::Copied(layout) => layout.decode(bytes),
            Decode::Probed(texels) => {
                let (sampled, rest) = bytes.split_at((texels * 4).min(bytes.len()));
                let (probed, stencil) = rest.split_at((texels * 4).min(rest.len()));
                let layout = DepthTexels::Unorm24In32;
                let mut out = Vec::with_capacity(texels * 5);
                for (s, p) in sampled.chunks_exact(4).zip(probed.chunks_exact(4)) {
                    let texel = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
                    out.extend(match texel {
                        0..=0x00FF_FFFF => layout.decode(p),
                        _ => layout.requantize(s),
                    });
                }
                out.extend_from_slice(stencil);
                out
            }
        }
    }
}

/// The neutral encoding's depth `f32`s as the values a restore draw writes to a depth of `layout`:
/// for 16 bits, as [`restore_depths16`]; for 24 bits, each texel's value c as the smallest `f32` at
/// or above c / (2²⁴ - 1) (where the nearest one may lie below it), which a conversion to 24 bits
/// that rounds to nearest or toward zero turns back into c.
fn restore_depths(layout: DepthTexels, neutral: &[u8]) -> Vec<u8> {
    if layout == DepthTexels::Unorm16 {
        return restore_depths16(neutral);
    }
    if layout != DepthTexels::Unorm24In32 {
        return neutral.to_vec();
    }
    let texels = layout.encode(neutral);
    let mut out = Vec::with_capacity(neutral.len());
    for t in texels.chunks_exact(4) {
        let c = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
        let depth = match c {
            0 => 0.0,
            0x00FF_FFFF.. => 1.0,
            // `c as f32` is exact; one step up its significand, scaled by 2⁻²⁴ (exact).
            _ => f32::from_bits((c as f32).to_bits() + 1) * (-24f32).exp2(),
        };
        out.extend_from_slice(&depth.to_le_bytes());
    }
    out
}

/// As [`restore_depths`] for a 16-bit depth (drawn only into a multisampled one: a single-sample
/// one is copied): each texel's value c as the smallest `f32` at or above c / (2¹⁶ - 1).
fn restore_depths16(neutral: &[u8]) -> Vec<u8> {
    let texels = DepthTexels::Unorm16.encode(neutral);
    let mut out = Vec::with_capacity(neutral.len());
    for t in texels.chunks_exact(2) {
        let c = f64::from(u16::from_le_bytes([t[0], t[1]]));
        let exact = c / 65_535.0;
        let mut depth = exact as f32;
        if f64::from(depth) < exact {
            depth = f32::from_bits(depth.to_bits() + 1);
        }
        out.extend_from_slice(&depth.to_le_bytes());
    }
    out
}

/// The layout of the depth aspect of `format` (its stencil aside).
fn depth_layout(format: SDL_GPUTextureFormat) -> DepthTexels {
    if format == SDL_GPU_TEXTUREFORMAT_D16_UNORM {
        DepthTexels::Unorm16
    } else if format == SDL_GPU_TEXTUREFORMAT_D24_UNORM
        || format == SDL_GPU_TEXTUREFORMAT_D24_UNORM_S8_UINT
    {
        DepthTexels::Unorm24In32
    } else {
        DepthTexels::Float32
    }
}

/// How a depth/stencil image of an SDL format is transferred.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Route {
    /// SDL's texture transfers, in this layout.
    Copy(DepthTexels),
    /// Draws (a format with a stencil aspect).
    Draws,
}

/// The route of a depth/stencil texture of `format`.
pub(crate) fn route(format: SDL_GPUTextureFormat) -> Route {
    if crate::format::has_stencil(format) {
        Route::Draws
    } else {
        Route::Copy(depth_layout(format))
    }
}

/// Checks that a depth/stencil transfer names the whole depth image; returns its size, the
/// target's depth format and its sample count (1 for a single-sample target).
fn whole_depth(
    texture: &NativeTexture,
    level: u32,
    layer: u32,
    rect: Rect,
    slices: Slices,
) -> Result<(u32, u32, DepthFormat, u32), BackendError> {
    let desc = &texture.desc;
    let Some(rt) = desc.render_target.filter(|rt| rt.depth.has_depth()) else {
        return Err(BackendError::Native(
            "a depth/stencil transfer of a texture without one".into(),
        ));
    };
    let (w, h) = desc.level_size(0);
    if (level, layer, rect, slices) != (0, 0, Rect::new(0, 0, w as i32, h as i32), Slices::FLAT) {
        return Err(BackendError::Native(format!(
            "a depth/stencil transfer covers the whole {w}x{h} image, not {rect:?} of level \
             {level} layer {layer}"
        )));
    }
    Ok((w, h, rt.depth, rt.sample_count.max(1)))
}

/// The route of an upload into the depth/stencil textures of `t`: every sample of a
/// multisampled one is drawn (no copy reaches the samples), whatever the format.
fn upload_route(t: &NativeTexture, samples: u32) -> Route {
    if samples > 1 {
        Route::Draws
    } else {
        route(t.depth_format)
    }
}

/// The bytes an upload stages: its data, or for a depth/stencil upload that copies, its depth
/// in the native layout.
pub(crate) fn staged_bytes<'a>(
    textures: &TextureTable,
    u: &'a Upload,
) -> Result<Cow<'a, [u8]>, BackendError> {
    if u.image != Image::DepthStencil {
        return Ok(Cow::Borrowed(&u.data));
    }
    let t = textures.get(u.texture.native())?;
    let (w, h, depth, samples) = whole_depth(t, u.level, u.layer, u.rect, u.slices)?;
    // A multisampled image's content is the encoding of its planes: `samples` times as tall.
    let h = h * samples;
    let expected = depth_stencil_size(depth, w, h);
    if u.data.len() != expected {
        return Err(BackendError::Native(format!(
            "depth/stencil upload of {} bytes for an image of {expected}",
            u.data.len()
        )));
    }
    Ok(match upload_route(t, samples) {
        Route::Copy(texels) => Cow::Owned(texels.encode(&u.data)),
        Route::Draws => {
            let (depths, stencil) = u.data.split_at(w as usize * h as usize * 4);
            let mut staged = restore_depths(depth_layout(t.depth_format), depths);
            staged.extend_from_slice(stencil);
            Cow::Owned(staged)
        }
    })
}

/// A texture of the target's size that lives for this submission.
pub(crate) fn temporary(
    rec: &mut Recorder<'_>,
    format: SDL_GPUTextureFormat,
    usage: SDL_GPUTextureUsageFlags,
    (width, height): (u32, u32),
) -> Result<*mut SDL_GPUTexture, BackendError> {
    let info = SDL_GPUTextureCreateInfo {
        r#type: SDL_GPU_TEXTURETYPE_2D,
        format,
        usage,
        width,
        height,
        layer_count_or_depth: 1,
        num_levels: 1,
        sample_count: SDL_GPU_SAMPLECOUNT_1,
        ..Default::default()
    };
    // SAFETY: a live device and a complete create info.
    let t = unsafe { SDL_CreateGPUTexture(rec.device, &info) };
    if t.is_null() {
        return Err(BackendError::OutOfMemory(crate::device::sdl_error("SDL_CreateGPUTexture")));
    }
    rec.diagnostics.object_created();
    rec.temporaries.push(t);
    Ok(t)
}

fn whole(texture: *mut SDL_GPUTexture, (w, h): (u32, u32)) -> SDL_GPUTextureRegion {
    SDL_GPUTextureRegion { texture, w, h, d: 1, ..Default::default() }
}

fn in_buffer(
    transfer_buffer: *mut SDL_GPUTransferBuffer,
    offset: u32,
    (w, h): (u32, u32),
) -> SDL_GPUTextureTransferInfo {
    SDL_GPUTextureTransferInfo { transfer_buffer, offset, pixels_per_row: w, rows_per_layer: h }
}

pub(crate) fn record_depth_upload(
    rec: &mut Recorder<'_>,
    node: usize,
    u: &Upload,
) -> Result<(), BackendError> {
    let t = rec.textures.get(u.texture.native())?;
    let (w, h, _, samples) = whole_depth(t, u.level, u.layer, u.rect, u.slices)?;
    let (targets, format, route) = (t.depth.clone(), t.depth_format, upload_route(t, samples));
    let offset = rec.staged(node)?;
    if samples > 1 {
        let name = u.texture.name();
        let rows = crate::capture::samples::planes_height(
            &name,
            (w, h, samples),
            crate::MAX_TEXTURE_DIMENSION,
        )?;
        return record_depth_samples_upload(rec, offset, (targets, format, samples), (w, rows));
    }
    let size = (w, h);
    match route {
        Route::Copy(_) => {
            // SAFETY: recording outside any pass; the transfer buffer holds the native bytes
            // at `offset` (`staged_bytes`).
            unsafe {
                let copy = SDL_BeginGPUCopyPass(rec.cmd);
                for target in targets {
                    let source = in_buffer(rec.uploads, offset, size);
                    SDL_UploadToGPUTexture(copy, &source, &whole(target, size), false);
                }
                SDL_EndGPUCopyPass(copy);
            }
        }
        Route::Draws => {
            let sampled = SDL_GPU_TEXTUREUSAGE_SAMPLER;
            let depth = temporary(rec, SDL_GPU_TEXTUREFORMAT_R32_FLOAT, sampled, size)?;
            let stencil = temporary(rec, SDL_GPU_TEXTUREFORMAT_R8_UNORM, sampled, size)?;
            let stencil_at = offset + w * h * 4;
            // SAFETY: recording outside any pass; the transfer buffer holds the encoding at
            // `offset`: the depth `f32`s, then the stencil bytes.
            unsafe {
                let copy = SDL_BeginGPUCopyPass(rec.cmd);
                let source = in_buffer(rec.uploads, offset, size);
                SDL_UploadToGPUTexture(copy, &source, &whole(depth, size), false);
                let source = in_buffer(rec.uploads, stencil_at, size);
                SDL_UploadToGPUTexture(copy, &source, &whole(stencil, size), false);
                SDL_EndGPUCopyPass(copy);
            }
            for target in targets {
                rec.pipelines.depth.restore(rec.device, rec.cmd, target, format, depth, stencil)?;
            }
        }
    }
    Ok(())
}

/// Records the restore of every sample of the multisampled depth/stencil `targets` (one per
/// layer) of `format` from the planes (`size`: the target's width, `samples` times its height)
/// staged at `offset`: the depths into an R32_FLOAT texture, the stencil bytes (a format with
/// one) into an R8_UNORM texture, then per-sample draws (`depth_draws`).
fn record_depth_samples_upload(
    rec: &mut Recorder<'_>,
    offset: u32,
    (targets, format, samples): (Vec<*mut SDL_GPUTexture>, SDL_GPUTextureFormat, u32),
    size: (u32, u32),
) -> Result<(), BackendError> {
    let sampled = SDL_GPU_TEXTUREUSAGE_SAMPLER;
    let depth = temporary(rec, SDL_GPU_TEXTUREFORMAT_R32_FLOAT, sampled, size)?;
    let stencil = match crate::format::has_stencil(format) {
        true => Some(temporary(rec, SDL_GPU_TEXTUREFORMAT_R8_UNORM, sampled, size)?),
        false => None,
    };
    let stencil_at = offset + size.0 * size.1 * 4;
    // SAFETY: recording outside any pass; the transfer buffer holds the planes' encoding at
    // `offset`: the depth `f32`s, then (with a stencil) the stencil bytes.
    unsafe {
        let copy = SDL_BeginGPUCopyPass(rec.cmd);
        let source = in_buffer(rec.uploads, offset, size);
        SDL_UploadToGPUTexture(copy, &source, &whole(depth, size), false);
        if let Some(stencil) = stencil {
            let source = in_buffer(rec.uploads, stencil_at, size);
            SDL_UploadToGPUTexture(copy, &source, &whole(stencil, size), false);
        }
        SDL_EndGPUCopyPass(copy);
    }
    for target in targets {
        let programs = &mut rec.pipelines.depth;
        programs.restore_samples(rec.device, rec.cmd, target, (format, samples), depth, stencil)?;
    }
    Ok(())
}

pub(crate) fn record_depth_readback(
    rec: &mut Recorder<'_>,
    r: &Readback,
) -> Result<(), BackendError> {
    let t = rec.textures.get(r.texture.native())?;
    let (w, h, depth_format, samples) = whole_depth(t, r.level, r.layer, r.rect, r.slices)?;
    if samples > 1 {
        // SDL_gpu cannot sample a multisampled texture (`Capabilities::sample_readback`).
        return Err(BackendError::NotSupported(
            "a readback of a multisampled depth/stencil image".into(),
        ));
    }
    let (source, format) = (t.image(Image::DepthStencil, 0)?.0, t.depth_format);
    let route = route(format);
    if route == Route::Draws && !t.depth_sampled {
        return Err(BackendError::NotSupported(format!(
            "a readback of a {depth_format:?} image that is not sampled (a DiscardContents target, \
             or a device that cannot sample the format)"
        )));
    }
    let texels = w * h;
    let probed = depth_layout(format) == DepthTexels::Unorm24In32;
    let (len, decode) = match route {
        Route::Copy(layout) => (texels * layout.bytes() as u32, Some(Decode::Copied(layout))),
        Route::Draws if probed => (texels * 9, Some(Decode::Probed(texels as usize))),
        Route::Draws => (texels * 5, None),
    };
    let buffer = crate::transfer::download_buffer(rec, r.id, len, decode)?;
    let size = (w, h);
    let downloads = match route {
        Route::Copy(_) => vec![(source, 0)],
        Route::Draws => {
            let target = SDL_GPU_TEXTUREUSAGE_COLOR_TARGET;
            let sampled = target | SDL_GPU_TEXTUREUSAGE_SAMPLER;
            let depth = temporary(rec, SDL_GPU_TEXTUREFORMAT_R32_FLOAT, sampled, size)?;
            let stencil = temporary(rec, SDL_GPU_TEXTUREFORMAT_R8_UNORM, target, size)?;
            let probe = match probed {
                true => Some(temporary(rec, SDL_GPU_TEXTUREFORMAT_R32_UINT, target, size)?),
                false => None,
            };
            let programs = &mut rec.pipelines.depth;
            programs.read(rec.device, rec.cmd, source, format, depth, stencil, probe)?;
            // The probed words before the stencil bytes, on a 4-byte boundary.
            let mut downloads = vec![(depth, 0)];
            downloads.extend(probe.map(|p| (p, texels * 4)));
            downloads.push((stencil, if probed { texels * 8 } else { texels * 4 }));
            downloads
        }
    };
    // SAFETY: recording outside any pass; the buffer holds every download.
    unsafe {
        let copy = SDL_BeginGPUCopyPass(rec.cmd);
        for (texture, offset) in downloads {
            SDL_DownloadFromGPUTexture(
                copy,
                &whole(texture, size),
                &in_buffer(buffer, offset, size),
            );
        }
        SDL_EndGPUCopyPass(copy);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_formats_with_a_stencil_aspect_go_through_draws() {
        assert_eq!(route(SDL_GPU_TEXTUREFORMAT_D16_UNORM), Route::Copy(DepthTexels::Unorm16));
        assert_eq!(route(SDL_GPU_TEXTUREFORMAT_D24_UNORM), Route::Copy(DepthTexels::Unorm24In32));
        assert_eq!(route(SDL_GPU_TEXTUREFORMAT_D32_FLOAT), Route::Copy(DepthTexels::Float32));
        assert_eq!(route(SDL_GPU_TEXTUREFORMAT_D24_UNORM_S8_UINT), Route::Draws);
        assert_eq!(route(SDL_GPU_TEXTUREFORMAT_D32_FLOAT_S8_UINT), Route::Draws);
    }

    #[test]
    fn a_probed_texel_wins_over_the_sampled_depth_and_the_stencil_is_kept() {
        // Two texels sampled an ulp or two off; the first was probed, the second was not.
        let sampled = [0.2f32.to_bits() + 2, 0.2f32.to_bits() + 1];
        let mut bytes: Vec<u8> = sampled.iter().flat_map(|s| s.to_le_bytes()).collect();
        bytes.extend([3_355_444u32, 1 << 24].iter().flat_map(|p| p.to_le_bytes()));
        bytes.extend([0xA5, 0x5A]);
        let decoded = Decode::Probed(2).apply(&bytes);
        let probed = DepthTexels::Unorm24In32.decode(&3_355_444u32.to_le_bytes());
        assert_eq!(decoded[..4], probed[..]);
        assert_eq!(decoded[4..8], 0.2f32.to_le_bytes(), "the sampled depth's nearest texel");
        assert_eq!(decoded[8..], [0xA5, 0x5A]);
    }

    #[test]
    fn a_restored_24_bit_depth_lies_at_or_just_above_its_texel() {
        let texels = [0u32, 1, 723_723, 8_026_746, 8_388_607, 8_388_608, 16_777_214, 16_777_215];
        let bytes: Vec<u8> = texels.iter().flat_map(|t| t.to_le_bytes()).collect();
        let neutral = DepthTexels::Unorm24In32.decode(&bytes);
        let restored = restore_depths(DepthTexels::Unorm24In32, &neutral);
        for (c, d) in texels.iter().zip(restored.chunks_exact(4)) {
            let d = f64::from(f32::from_le_bytes(d.try_into().unwrap()));
            let exact = f64::from(*c) / 16_777_215.0;
            // At or above c, within half a step: rounding and truncation both give c.
            assert!(d >= exact && (d - exact) * 16_777_215.0 < 0.5, "{c}: {d} vs {exact}");
        }
        assert_eq!(restore_depths(DepthTexels::Float32, &neutral), neutral);
    }

    #[test]
    fn a_restored_16_bit_depth_lies_at_or_just_above_its_texel() {
        let texels = [0u16, 1, 21_845, 32_767, 32_768, 65_534, 65_535];
        let bytes: Vec<u8> = texels.iter().flat_map(|t| t.to_le_bytes()).collect();
        let neutral = DepthTexels::Unorm16.decode(&bytes);
        let restored = restore_depths(DepthTexels::Unorm16, &neutral);
        for (c, d) in texels.iter().zip(restored.chunks_exact(4)) {
            let d = f64::from(f32::from_le_bytes(d.try_into().unwrap()));
            let exact = f64::from(*c) / 65_535.0;
            assert!(d >= exact && (d - exact) * 65_535.0 < 0.5, "{c}: {d} vs {exact}");
        }
    }
}
