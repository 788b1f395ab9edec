//! What `RenderTarget2D` and `RenderTargetCube` share: the description a target is created
//! with, and the two ways a target ends.
//!
//! In: the device, the size and layer count (1, or 6 for a cube) and XNA's preferred format,
//! depth format, multisample count and usage. Out: the applied [`TextureDesc`] and what the
//! target reports afterwards ([`RenderTargetInfo`]). It decides the format verdict (a format
//! the profile forbids for this kind of target, or the device cannot render, becomes `Color`),
//! the mip-generation check of a mipmapped target, the applied depth format and the clamped
//! sample count.
//!
//! A bound target ends in one of two ways: `dispose()` refuses ("Disposing target that is still
//! bound", here); dropping it detaches it — the bindings are cleared, recording returns to the
//! back buffer, and `present` keeps refusing until the game binds again (`TextureCore::drop_last`
//! and `Recording::detach_destroyed`).

use xnagraph_graph::{
    full_mip_count, DepthFormat, RenderTargetDesc, RenderTargetUsage, SurfaceFormat, TextureDesc,
};

use crate::device::adapter::{selected_render_target_format, selected_sample_count};
use crate::device::capability::check_mip_generation;
use crate::device::shared::DeviceShared;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::resources::texture::{RenderTargetInfo, TextureCore};

/// The applied description of a render target of `w`×`h` with `layers` layers (1, or 6 for a
/// cube), shared by `RenderTarget2D` and `RenderTargetCube`: the format verdict (a format the
/// profile forbids or the device cannot render becomes `Color`), the mip-generation check of a
/// mipmapped target, the applied depth format and the clamped sample count.
pub(crate) fn target_desc(
    shared: &DeviceShared,
    (w, h, layers): (u32, u32, u32),
    mip_map: bool,
    preferred_format: SurfaceFormat,
    preferred_depth_format: DepthFormat,
    preferred_multi_sample_count: i32,
    usage: RenderTargetUsage,
) -> Result<(TextureDesc, RenderTargetInfo)> {
    let format = select_render_target_format(shared, preferred_format, layers == 6);
    if mip_map {
        check_mip_generation(format, shared.format_support(format))?;
    }
    // Mipmapped non-power-of-two targets are allowed under Reach too.
    let levels = if mip_map { full_mip_count(w, h, 1) } else { 1 };
    let depth = shared.applied_depth_format(preferred_depth_format);
    let sample_count = selected_sample_count(&shared.caps, preferred_multi_sample_count);
    let desc = TextureDesc {
        width: w,
        height: h,
        mip_levels: levels,
        layers,
        volume_depth: None,
        format,
        render_target: Some(RenderTargetDesc { depth, sample_count, usage, back_buffer: false }),
    };
    Ok((desc, RenderTargetInfo { usage, depth, sample_count }))
}

/// `Dispose()` of a render target (2D or cube): refused while any face of it is bound to its
/// live device, as XNA does.
pub(crate) fn dispose_target(core: &TextureCore) -> Result<()> {
    if let Some(device) = core.res.device_if_alive() {
        if lock(&device.rec).is_bound(core.res.id) {
            return Err(XnaError::invalid_operation("Disposing target that is still bound"));
        }
    }
    core.dispose(true);
    Ok(())
}

/// XNA's "preferred" format on this device (the rule is
/// [`selected_render_target_format`]'s).
fn select_render_target_format(
    device: &DeviceShared,
    preferred: SurfaceFormat,
    cube: bool,
) -> SurfaceFormat {
    selected_render_target_format(device.profile, preferred, cube, device.format_support(preferred))
}
