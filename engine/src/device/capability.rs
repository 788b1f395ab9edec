//! Checks of a call against what the device can do, made at the call that asks for it.
//!
//! In: the device's [`Capabilities`] and [`FormatSupport`], and what the call asks for (the
//! states a `SpriteBatch.Begin` or a geometry draw uses with the bound targets, the format of a
//! mipmapped render target). Out: `Ok`, or XNA's `NotSupportedException` naming what is
//! missing, so nothing is discovered at the flush and nothing is silently lowered (anisotropic
//! filtering to trilinear, wire frame to solid).

use xnagraph_graph::{
    BlendState, Capabilities, FillMode, FormatSupport, RasterizerState, SamplerState,
    SurfaceFormat, TextureFilter, MAX_COLOR_ATTACHMENTS,
};

use crate::device::shared::{DeviceShared, Recording};
use crate::error::{Result, XnaError};

/// The states of a batch of draws into targets of `targets` formats.
pub(crate) fn check_draw_states(
    caps: &Capabilities,
    targets: &[(SurfaceFormat, FormatSupport)],
    blend: &BlendState,
    sampler: &SamplerState,
    rasterizer: &RasterizerState,
) -> Result<()> {
    if rasterizer.fill_mode == FillMode::WireFrame && !caps.wire_frame {
        return Err(XnaError::not_supported("FillMode.WireFrame is not supported by this device."));
    }
    if sampler.filter == TextureFilter::Anisotropic && !caps.anisotropic_filtering {
        return Err(XnaError::not_supported(
            "TextureFilter.Anisotropic is not supported by this device.",
        ));
    }
    if targets.len() > 1 && !caps.independent_blend {
        return Err(XnaError::not_supported(
            "Drawing with several render targets bound is not supported by this device.",
        ));
    }
    if blend.blends() {
        if let Some((format, _)) = targets.iter().find(|(_, s)| !s.blendable) {
            return Err(XnaError::not_supported(format!(
                "Blending into a {format:?} render target is not supported by this device."
            )));
        }
    }
    Ok(())
}

/// `RasterizerState.MultiSampleAntiAlias` off while drawing into a multisampled target: XNA
/// then rasterises each pixel once, at its centre, and writes every sample of a covered pixel
/// (hard edges after the resolve). Core Vulkan ties coverage to the attachment's sample count;
/// doing this needs every sample located at the pixel centre (VK_EXT_sample_locations) or
/// single-sample rasterisation into a multisampled attachment, which no backend here lowers,
/// so it is `NotSupported` rather than drawn antialiased. Into a single-sampled target the
/// flag changes nothing and is accepted.
pub(crate) fn check_multisample_rasterization(
    rasterizer: &RasterizerState,
    multisampled_target: bool,
) -> Result<()> {
    if !rasterizer.multisample_anti_alias && multisampled_target {
        return Err(XnaError::not_supported(
            "RasterizerState.MultiSampleAntiAlias = false (single-sample rasterization into a \
             multisampled render target) is not supported by this renderer.",
        ));
    }
    Ok(())
}

/// A `Texture3D` of `width` × `height` × `depth` needs the device's volume capability: none at
/// all (`max_volume_dimension` 0) refuses every volume, whatever the profile allows.
pub(crate) fn check_volume(caps: &Capabilities, width: u32, height: u32, depth: u32) -> Result<()> {
    let max = caps.max_volume_dimension;
    if max == 0 {
        return Err(XnaError::not_supported("Texture3D is not supported by this device."));
    }
    if width > max || height > max || depth > max {
        return Err(XnaError::not_supported(format!(
            "Texture3D size {width}x{height}x{depth} exceeds this device's limit of {max}."
        )));
    }
    Ok(())
}

/// A mipmapped render target's levels are generated from level 0 by blits.
pub(crate) fn check_mip_generation(format: SurfaceFormat, support: FormatSupport) -> Result<()> {
    if support.mip_generation {
        Ok(())
    } else {
        Err(XnaError::not_supported(format!(
            "Mipmapped {format:?} render targets are not supported by this device."
        )))
    }
}

/// Refuses states the device cannot honour when drawing into the current targets (see
/// [`check_draw_states`]).
pub(crate) fn check_states(
    device: &DeviceShared,
    rec: &Recording,
    blend: &BlendState,
    sampler: &SamplerState,
    rasterizer: &RasterizerState,
) -> Result<()> {
    // On the stack: a sprite batch's `begin` and `end` allocate nothing for this check.
    let primary = rec.primary().desc();
    let mut multisampled = rec.bindings.is_empty() && is_multisampled(primary);
    let mut targets =
        [(primary.format, device.format_support(primary.format)); MAX_COLOR_ATTACHMENTS];
    let mut count = 1;
    if !rec.bindings.is_empty() {
        count = rec.bindings.len().min(MAX_COLOR_ATTACHMENTS);
        for (slot, b) in targets.iter_mut().zip(&rec.bindings) {
            let desc = b.state.desc();
            multisampled |= is_multisampled(desc);
            *slot = (desc.format, device.format_support(desc.format));
        }
    }
    check_multisample_rasterization(rasterizer, multisampled)?;
    check_draw_states(&device.caps, &targets[..count], blend, sampler, rasterizer)
}

fn is_multisampled(desc: &xnagraph_graph::TextureDesc) -> bool {
    desc.render_target.is_some_and(|r| r.is_multisampled())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full() -> Capabilities {
        Capabilities {
            max_texture_dimension: 4096,
            max_cube_dimension: 4096,
            max_volume_dimension: 256,
            max_color_attachments: 4,
            sample_counts: 1,
            wire_frame: true,
            anisotropic_filtering: true,
            independent_blend: true,
            geometry: true,
            scaled_vertex_formats: true,
            instance_divisor: true,
            depth_readback: true,
            sample_readback: true,
            sample_restore: true,
        }
    }

    const ALL: FormatSupport =
        FormatSupport { sampled: true, render_target: true, blendable: true, mip_generation: true };
    const COLOR: (SurfaceFormat, FormatSupport) = (SurfaceFormat::Color, ALL);

    fn check(caps: &Capabilities, targets: &[(SurfaceFormat, FormatSupport)]) -> Result<()> {
        let (b, s, r) =
            (BlendState::OPAQUE, SamplerState::LINEAR_CLAMP, RasterizerState::CULL_NONE);
        check_draw_states(caps, targets, &b, &s, &r)
    }

    fn is_not_supported(r: Result<()>) -> bool {
        matches!(r, Err(XnaError::NotSupported { .. }))
    }

    #[test]
    fn wire_frame_needs_the_device_feature() {
        let wire = RasterizerState { fill_mode: FillMode::WireFrame, ..RasterizerState::CULL_NONE };
        let (b, s) = (BlendState::OPAQUE, SamplerState::LINEAR_CLAMP);
        assert!(check_draw_states(&full(), &[COLOR], &b, &s, &wire).is_ok());
        let caps = Capabilities { wire_frame: false, ..full() };
        assert!(is_not_supported(check_draw_states(&caps, &[COLOR], &b, &s, &wire)));
        assert!(check(&caps, &[COLOR]).is_ok(), "solid fill needs nothing");
    }

    #[test]
    fn anisotropic_filtering_is_refused_not_lowered_to_trilinear() {
        let (b, r) = (BlendState::OPAQUE, RasterizerState::CULL_NONE);
        let aniso = SamplerState::ANISOTROPIC_CLAMP;
        assert!(check_draw_states(&full(), &[COLOR], &b, &aniso, &r).is_ok());
        let caps = Capabilities { anisotropic_filtering: false, ..full() };
        assert!(is_not_supported(check_draw_states(&caps, &[COLOR], &b, &aniso, &r)));
        assert!(check(&caps, &[COLOR]).is_ok(), "linear filtering needs nothing");
    }

    #[test]
    fn several_targets_need_independent_blend() {
        let caps = Capabilities { independent_blend: false, ..full() };
        assert!(check(&full(), &[COLOR, COLOR]).is_ok());
        assert!(is_not_supported(check(&caps, &[COLOR, COLOR])));
        assert!(check(&caps, &[COLOR]).is_ok());
    }

    #[test]
    fn blending_needs_a_blendable_format_on_every_target() {
        let fixed = (SurfaceFormat::NormalizedByte4, FormatSupport { blendable: false, ..ALL });
        let (s, r) = (SamplerState::LINEAR_CLAMP, RasterizerState::CULL_NONE);
        let alpha = BlendState::ALPHA_BLEND;
        assert!(is_not_supported(check_draw_states(&full(), &[COLOR, fixed], &alpha, &s, &r)));
        assert!(check_draw_states(&full(), &[COLOR], &alpha, &s, &r).is_ok());
        assert!(check(&full(), &[fixed]).is_ok(), "opaque drawing does not blend");
    }

    #[test]
    fn volumes_need_the_device_volume_capability() {
        assert!(check_volume(&full(), 256, 1, 256).is_ok());
        assert!(is_not_supported(check_volume(&full(), 4, 257, 4)));
        let none = Capabilities { max_volume_dimension: 0, ..full() };
        let refused = check_volume(&none, 1, 1, 1).unwrap_err();
        assert_eq!(refused.message(), "Texture3D is not supported by this device.");
    }

    #[test]
    fn mipmapped_targets_need_blits() {
        assert!(check_mip_generation(SurfaceFormat::Color, ALL).is_ok());
        let no_blit = FormatSupport { mip_generation: false, ..ALL };
        assert!(is_not_supported(check_mip_generation(SurfaceFormat::Vector4, no_blit)));
    }
}
