//! The format table: XNA's surface and depth formats as SDL_gpu texture formats, and what the
//! device can do with each (asked of SDL_GPUTextureSupportsFormat once, at creation).
//!
//! SDL_gpu has no component swizzle, so a format whose XNA sampling needs one (Alpha8 read as
//! alpha, missing channels read as one) is refused rather than sampled with other values.

use sdl3_sys::gpu::*;
use xnagraph_graph::{DepthFormat, FormatSupport, SurfaceFormat};

/// The SDL format of `format`, when SDL_gpu samples it as XNA does.
pub(crate) fn surface_format(format: SurfaceFormat) -> Option<SDL_GPUTextureFormat> {
    use SurfaceFormat as S;
    Some(match format {
        S::Color => SDL_GPU_TEXTUREFORMAT_R8G8B8A8_UNORM,
        S::Bgr565 => SDL_GPU_TEXTUREFORMAT_B5G6R5_UNORM,
        S::Bgra5551 => SDL_GPU_TEXTUREFORMAT_B5G5R5A1_UNORM,
        S::Dxt1 => SDL_GPU_TEXTUREFORMAT_BC1_RGBA_UNORM,
        S::Dxt3 => SDL_GPU_TEXTUREFORMAT_BC2_RGBA_UNORM,
        S::Dxt5 => SDL_GPU_TEXTUREFORMAT_BC3_RGBA_UNORM,
        S::NormalizedByte4 => SDL_GPU_TEXTUREFORMAT_R8G8B8A8_SNORM,
        S::Rgba1010102 => SDL_GPU_TEXTUREFORMAT_R10G10B10A2_UNORM,
        S::Rgba64 => SDL_GPU_TEXTUREFORMAT_R16G16B16A16_UNORM,
        S::Vector4 => SDL_GPU_TEXTUREFORMAT_R32G32B32A32_FLOAT,
        S::HalfVector4 | S::HdrBlendable => SDL_GPU_TEXTUREFORMAT_R16G16B16A16_FLOAT,
        // XNA reads the missing channels as one (and Alpha8's only channel as alpha); without
        // a swizzle SDL_gpu would read them as zero. Bgra4444's SDL layout is not XNA's.
        S::Bgra4444
        | S::NormalizedByte2
        | S::Rg32
        | S::Alpha8
        | S::Single
        | S::Vector2
        | S::HalfSingle
        | S::HalfVector2 => return None,
    })
}

fn depth_candidates(format: DepthFormat) -> &'static [SDL_GPUTextureFormat] {
    match format {
        DepthFormat::None => &[],
        DepthFormat::Depth16 => &[SDL_GPU_TEXTUREFORMAT_D16_UNORM],
        DepthFormat::Depth24 => &[SDL_GPU_TEXTUREFORMAT_D24_UNORM, SDL_GPU_TEXTUREFORMAT_D32_FLOAT],
        DepthFormat::Depth24Stencil8 => {
            &[SDL_GPU_TEXTUREFORMAT_D24_UNORM_S8_UINT, SDL_GPU_TEXTUREFORMAT_D32_FLOAT_S8_UINT]
        }
    }
}

/// Whether an SDL depth format has a stencil aspect.
pub(crate) fn has_stencil(format: SDL_GPUTextureFormat) -> bool {
    format == SDL_GPU_TEXTUREFORMAT_D24_UNORM_S8_UINT
        || format == SDL_GPU_TEXTUREFORMAT_D32_FLOAT_S8_UINT
}

/// What one unit of XNA's depth bias is in the format's depth resolution.
pub(crate) fn depth_bias_scale(format: SDL_GPUTextureFormat) -> f32 {
    if format == SDL_GPU_TEXTUREFORMAT_D16_UNORM {
        65535.0
    } else if format == SDL_GPU_TEXTUREFORMAT_D32_FLOAT
        || format == SDL_GPU_TEXTUREFORMAT_D32_FLOAT_S8_UINT
    {
        8_388_608.0
    } else {
        16_777_215.0
    }
}

/// What the device supports, measured once.
pub(crate) struct FormatTable {
    support: [FormatSupport; SurfaceFormat::ALL.len()],
    depth: [Option<(DepthFormat, SDL_GPUTextureFormat)>; 4],
    /// Whether the applied format of each requested depth format can also be sampled.
    depth_samplable: [bool; 4],
    /// Bit set of sample counts (bit n ⇒ 2ⁿ) usable for `Color` targets.
    pub sample_counts: u32,
}

fn index_of(format: SurfaceFormat) -> usize {
    SurfaceFormat::ALL.iter().position(|f| *f == format).unwrap_or(0)
}

impl FormatTable {
    /// Asks SDL what `device` can do with every format.
    ///
    /// # Safety
    /// `device` is a live SDL GPU device.
    pub unsafe fn measure(device: *mut SDL_GPUDevice) -> FormatTable {
        // SAFETY: a format query on a live device (caller's contract).
        let supports = |f, usage| unsafe {
            SDL_GPUTextureSupportsFormat(device, f, SDL_GPU_TEXTURETYPE_2D, usage)
        };
        let mut support = [FormatSupport::default(); SurfaceFormat::ALL.len()];
        for (i, format) in SurfaceFormat::ALL.iter().enumerate() {
            let Some(f) = surface_format(*format) else { continue };
            let sampled = supports(f, SDL_GPU_TEXTUREUSAGE_SAMPLER);
            let target = !format.is_block_compressed()
                && supports(f, SDL_GPU_TEXTUREUSAGE_SAMPLER | SDL_GPU_TEXTUREUSAGE_COLOR_TARGET);
            support[i] = FormatSupport {
                sampled,
                render_target: target,
                // SDL_gpu reports no blend capability apart from the colour-target usage, and
                // Vulkan does not require blending of signed-normalised attachments: refused
                // rather than risked.
                blendable: target && *format != SurfaceFormat::NormalizedByte4,
                // Levels are made by blits, which need both usages.
                mip_generation: target,
            };
        }
        let order = [DepthFormat::Depth16, DepthFormat::Depth24, DepthFormat::Depth24Stencil8];
        let mut depth = [None; 4];
        for (i, requested) in order.iter().enumerate() {
            for fallback in order[..=i].iter().rev() {
                let found = depth_candidates(*fallback)
                    .iter()
                    .find(|c| supports(**c, SDL_GPU_TEXTUREUSAGE_DEPTH_STENCIL_TARGET));
                if let Some(f) = found {
                    depth[*requested as usize] = Some((*fallback, *f));
                    break;
                }
            }
        }
        let mut depth_samplable = [false; 4];
        for (i, applied) in depth.iter().enumerate() {
            if let Some((_, f)) = applied {
                let usage =
                    SDL_GPU_TEXTUREUSAGE_DEPTH_STENCIL_TARGET | SDL_GPU_TEXTUREUSAGE_SAMPLER;
                depth_samplable[i] = supports(*f, usage);
            }
        }
        let mut sample_counts = 1;
        for (bit, count) in
            [(2, SDL_GPU_SAMPLECOUNT_2), (4, SDL_GPU_SAMPLECOUNT_4), (8, SDL_GPU_SAMPLECOUNT_8)]
        {
            // SAFETY: as above.
            if unsafe {
                SDL_GPUTextureSupportsSampleCount(
                    device,
                    SDL_GPU_TEXTUREFORMAT_R8G8B8A8_UNORM,
                    count,
                )
            } {
                sample_counts |= bit;
            }
        }
        FormatTable { support, depth, depth_samplable, sample_counts }
    }

    pub fn support(&self, format: SurfaceFormat) -> FormatSupport {
        self.support[index_of(format)]
    }

    pub fn applied_depth(&self, requested: DepthFormat) -> DepthFormat {
        self.depth[requested as usize].map_or(DepthFormat::None, |(applied, _)| applied)
    }

    pub fn depth_format(&self, requested: DepthFormat) -> Option<SDL_GPUTextureFormat> {
        self.depth[requested as usize].map(|(_, f)| f)
    }

    /// Whether the applied format of `requested` can be a sampled depth/stencil target.
    pub fn depth_samplable(&self, requested: DepthFormat) -> bool {
        self.depth_samplable[requested as usize]
    }

    /// Whether every applied depth format's content can be transferred: copied (depth only),
    /// or through draws that sample it (with a stencil; see `capture::depth`).
    pub fn depth_transfers(&self) -> bool {
        self.depth.iter().zip(self.depth_samplable).all(|(applied, samplable)| match applied {
            Some((_, f)) => {
                crate::capture::depth::route(*f) != crate::capture::depth::Route::Draws || samplable
            }
            None => true,
        })
    }
}

/// The SDL sample count for an applied count (0 or 1: one sample).
pub(crate) fn sample_count(count: u32) -> SDL_GPUSampleCount {
    match count {
        2 => SDL_GPU_SAMPLECOUNT_2,
        4 => SDL_GPU_SAMPLECOUNT_4,
        8 => SDL_GPU_SAMPLECOUNT_8,
        _ => SDL_GPU_SAMPLECOUNT_1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_xna_samples_through_a_swizzle_are_refused() {
        for f in [SurfaceFormat::Alpha8, SurfaceFormat::Single, SurfaceFormat::Vector2] {
            assert!(surface_format(f).is_none(), "{f:?}");
        }
        assert!(surface_format(SurfaceFormat::Color) == Some(SDL_GPU_TEXTUREFORMAT_R8G8B8A8_UNORM));
    }
}
