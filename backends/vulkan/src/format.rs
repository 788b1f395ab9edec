//! The one table from XNA formats to Vulkan formats, and what the adapter can do with each.
//!
//! In: a [`SurfaceFormat`] or [`DepthFormat`]. Out: the `VkFormat` (and component swizzle) the
//! backend allocates, and — measured once at start-up with vkGetPhysicalDeviceFormatProperties —
//! whether it can be sampled, rendered to, blended and linearly blitted. Depth formats fall back
//! to the nearest format the adapter supports; `applied_depth` reports what will really be
//! allocated, in XNA's terms.

use ash::vk;
use xnagraph_graph::{DepthFormat, FormatSupport, SurfaceFormat};

/// The Vulkan format of a surface format, with the swizzle its sampled view needs.
pub(crate) fn surface_format(format: SurfaceFormat) -> (vk::Format, vk::ComponentMapping) {
    use SurfaceFormat as S;
    let vk_format = match format {
        S::Color => vk::Format::R8G8B8A8_UNORM,
        S::Bgr565 => vk::Format::R5G6B5_UNORM_PACK16,
        S::Bgra5551 => vk::Format::A1R5G5B5_UNORM_PACK16,
        // XNA keeps alpha in the top nibble, then red, green, blue (D3DFMT_A4R4G4B4).
        S::Bgra4444 => vk::Format::A4R4G4B4_UNORM_PACK16,
        S::Dxt1 => vk::Format::BC1_RGBA_UNORM_BLOCK,
        S::Dxt3 => vk::Format::BC2_UNORM_BLOCK,
        S::Dxt5 => vk::Format::BC3_UNORM_BLOCK,
        S::NormalizedByte2 => vk::Format::R8G8_SNORM,
        S::NormalizedByte4 => vk::Format::R8G8B8A8_SNORM,
        S::Rgba1010102 => vk::Format::A2B10G10R10_UNORM_PACK32,
        S::Rg32 => vk::Format::R16G16_UNORM,
        S::Rgba64 => vk::Format::R16G16B16A16_UNORM,
        S::Alpha8 => vk::Format::R8_UNORM,
        S::Single => vk::Format::R32_SFLOAT,
        S::Vector2 => vk::Format::R32G32_SFLOAT,
        S::Vector4 => vk::Format::R32G32B32A32_SFLOAT,
        S::HalfSingle => vk::Format::R16_SFLOAT,
        S::HalfVector2 => vk::Format::R16G16_SFLOAT,
        S::HalfVector4 | S::HdrBlendable => vk::Format::R16G16B16A16_SFLOAT,
    };
    (vk_format, sampled_swizzle(format))
}

/// How a sampled view reads the channels a format stores, as XNA on Direct3D 9 does: Alpha8 is
/// (0, 0, 0, a), and every channel a format lacks reads as 1 (Vulkan alone would read a missing
/// red, green or blue as 0). See [`SurfaceFormat`]'s documentation.
fn sampled_swizzle(format: SurfaceFormat) -> vk::ComponentMapping {
    use vk::ComponentSwizzle as C;
    use SurfaceFormat as S;
    let (r, g, b, a) = match format {
        S::Alpha8 => (C::ZERO, C::ZERO, C::ZERO, C::R),
        S::Single | S::HalfSingle => (C::R, C::ONE, C::ONE, C::ONE),
        S::Vector2 | S::HalfVector2 | S::Rg32 | S::NormalizedByte2 => (C::R, C::G, C::ONE, C::ONE),
        _ => (C::IDENTITY, C::IDENTITY, C::IDENTITY, C::IDENTITY),
    };
    vk::ComponentMapping { r, g, b, a }
}

/// Whether a colour attachment of the format stores the channels XNA's format holds. An
/// attachment view cannot swizzle, so a draw into `Alpha8`'s R8 image would store the red it
/// writes where XNA keeps alpha: `Alpha8` is offered for sampling only, and a render target that
/// prefers it is `Color` (XNA's preferred-format substitution).
fn attachment_holds_its_channels(format: SurfaceFormat) -> bool {
    format != SurfaceFormat::Alpha8
}

/// Vulkan formats that can hold a depth format, best first.
fn depth_candidates(format: DepthFormat) -> &'static [vk::Format] {
    match format {
        DepthFormat::None => &[],
        DepthFormat::Depth16 => &[vk::Format::D16_UNORM],
        DepthFormat::Depth24 => &[vk::Format::X8_D24_UNORM_PACK32, vk::Format::D32_SFLOAT],
        DepthFormat::Depth24Stencil8 => {
            &[vk::Format::D24_UNORM_S8_UINT, vk::Format::D32_SFLOAT_S8_UINT]
        }
    }
}

/// The aspects of a depth/stencil Vulkan format.
pub(crate) fn depth_aspects(format: vk::Format) -> vk::ImageAspectFlags {
    match format {
        vk::Format::D24_UNORM_S8_UINT | vk::Format::D32_SFLOAT_S8_UINT => {
            vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL
        }
        _ => vk::ImageAspectFlags::DEPTH,
    }
}

/// Scale from XNA's depth bias (a fraction of the depth range) to Vulkan's constant factor.
pub(crate) fn depth_bias_scale(format: vk::Format) -> f32 {
    match format {
        vk::Format::D16_UNORM => 65535.0,
        vk::Format::D32_SFLOAT | vk::Format::D32_SFLOAT_S8_UINT => 8_388_608.0,
        _ => 16_777_215.0,
    }
}

/// What the adapter supports, measured once.
pub(crate) struct FormatTable {
    support: [FormatSupport; SurfaceFormat::ALL.len()],
    mip_filter: [Option<vk::Filter>; SurfaceFormat::ALL.len()],
    /// Indexed by `DepthFormat as usize`.
    depth: [Option<(DepthFormat, vk::Format)>; 4],
}

fn index_of(format: SurfaceFormat) -> usize {
    SurfaceFormat::ALL.iter().position(|f| *f == format).unwrap_or(0)
}

impl FormatTable {
    pub fn measure(instance: &ash::Instance, physical: vk::PhysicalDevice) -> FormatTable {
        let features = |f: vk::Format| {
            // SAFETY: a plain query on a live instance and one of its adapters.
            unsafe { instance.get_physical_device_format_properties(physical, f) }
                .optimal_tiling_features
        };
        let mut support = [FormatSupport::default(); SurfaceFormat::ALL.len()];
        let mut mip_filter = [None; SurfaceFormat::ALL.len()];
        for (i, format) in SurfaceFormat::ALL.iter().enumerate() {
            let f = features(surface_format(*format).0);
            let blits = vk::FormatFeatureFlags::BLIT_SRC | vk::FormatFeatureFlags::BLIT_DST;
            let copyable = f.contains(
                vk::FormatFeatureFlags::TRANSFER_SRC | vk::FormatFeatureFlags::TRANSFER_DST,
            );
            let attachment = attachment_holds_its_channels(*format);
            support[i] = FormatSupport {
                sampled: copyable && f.contains(vk::FormatFeatureFlags::SAMPLED_IMAGE),
                render_target: copyable
                    && attachment
                    && f.contains(
                        vk::FormatFeatureFlags::SAMPLED_IMAGE
                            | vk::FormatFeatureFlags::COLOR_ATTACHMENT,
                    ),
                blendable: attachment && f.contains(vk::FormatFeatureFlags::COLOR_ATTACHMENT_BLEND),
                mip_generation: f.contains(blits),
            };
            mip_filter[i] = if !f.contains(blits) {
                None
            } else if f.contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR) {
                Some(vk::Filter::LINEAR)
            } else {
                Some(vk::Filter::NEAREST)
            };
        }
        // Each request falls back to a weaker XNA format when none of its candidates works.
        let order = [DepthFormat::Depth16, DepthFormat::Depth24, DepthFormat::Depth24Stencil8];
        let mut depth = [None; 4];
        for (i, requested) in order.iter().enumerate() {
            for fallback in order[..=i].iter().rev() {
                // Plans may clear a depth image by transfer as well as by its load op.
                let needed = vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT
                    | vk::FormatFeatureFlags::TRANSFER_DST;
                let found =
                    depth_candidates(*fallback).iter().find(|c| features(**c).contains(needed));
                if let Some(f) = found {
                    depth[*requested as usize] = Some((*fallback, *f));
                    break;
                }
            }
        }
        FormatTable { support, mip_filter, depth }
    }

    pub fn support(&self, format: SurfaceFormat) -> FormatSupport {
        self.support[index_of(format)]
    }

    /// The filter a mip cascade blits this format with (LINEAR where supported), or None when
    /// the format cannot be blitted at all.
    pub fn mip_filter(&self, format: SurfaceFormat) -> Option<vk::Filter> {
        self.mip_filter[index_of(format)]
    }

    /// The XNA depth format that will really be allocated for `requested`.
    pub fn applied_depth(&self, requested: DepthFormat) -> DepthFormat {
        self.depth[requested as usize].map_or(DepthFormat::None, |(applied, _)| applied)
    }

    /// The Vulkan format allocated for `requested` (None for `DepthFormat::None` or no support).
    pub fn depth_format(&self, requested: DepthFormat) -> Option<vk::Format> {
        self.depth[requested as usize].map(|(_, f)| f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha8_samples_its_single_channel_as_alpha() {
        let (format, swizzle) = surface_format(SurfaceFormat::Alpha8);
        assert_eq!(format, vk::Format::R8_UNORM);
        assert_eq!(swizzle.a, vk::ComponentSwizzle::R);
        assert_eq!(swizzle.r, vk::ComponentSwizzle::ZERO);
    }

    #[test]
    fn only_alpha8_attachments_would_store_another_channel_than_xnas() {
        let stored: Vec<_> =
            SurfaceFormat::ALL.into_iter().filter(|f| !attachment_holds_its_channels(*f)).collect();
        assert_eq!(stored, [SurfaceFormat::Alpha8]);
    }

    #[test]
    fn missing_channels_read_as_one_and_present_ones_as_stored() {
        use vk::ComponentSwizzle as C;
        let single = sampled_swizzle(SurfaceFormat::Single);
        assert_eq!((single.r, single.g, single.b, single.a), (C::R, C::ONE, C::ONE, C::ONE));
        let two = sampled_swizzle(SurfaceFormat::Rg32);
        assert_eq!((two.r, two.g, two.b, two.a), (C::R, C::G, C::ONE, C::ONE));
        let color = sampled_swizzle(SurfaceFormat::Color);
        assert_eq!(
            (color.r, color.g, color.b, color.a),
            (C::IDENTITY, C::IDENTITY, C::IDENTITY, C::IDENTITY)
        );
    }

    #[test]
    fn hdr_blendable_shares_half_vector4_storage() {
        assert_eq!(
            surface_format(SurfaceFormat::HdrBlendable).0,
            surface_format(SurfaceFormat::HalfVector4).0
        );
    }

    #[test]
    fn only_combined_formats_have_a_stencil_aspect() {
        assert!(
            depth_aspects(vk::Format::D24_UNORM_S8_UINT).contains(vk::ImageAspectFlags::STENCIL)
        );
        assert_eq!(depth_aspects(vk::Format::X8_D24_UNORM_PACK32), vk::ImageAspectFlags::DEPTH);
    }
}
