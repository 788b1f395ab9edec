//! The back buffer a device's presentation parameters ask for, within the profile's and the
//! adapter's limits.

use xnagraph_graph::{
    Capabilities, DepthFormat, FormatSupport, RenderTargetDesc, SurfaceFormat, TextureDesc,
};

use crate::device::adapter::{selected_render_target_format, selected_sample_count};
use crate::device::options::PresentationParameters;
use crate::device::profile::GraphicsProfile;
use crate::error::{Result, XnaError};

/// What a back buffer may be on one device: the profile's and the adapter's limits.
pub(super) struct BackBufferLimits<'a> {
    pub(super) profile: GraphicsProfile,
    pub(super) caps: &'a Capabilities,
    pub(super) format_support: &'a [(SurfaceFormat, FormatSupport)],
    pub(super) applied_depth: [DepthFormat; 4],
}

impl BackBufferLimits<'_> {
    /// The back buffer `params` ask for, and the parameters as applied (format, depth and
    /// sample count after substitution and clamping). A non-positive width or height is
    /// `ArgumentOutOfRange` naming `BackBufferWidth` or `BackBufferHeight`; a size past the
    /// profile's or the adapter's limit is `NotSupported`.
    pub(super) fn apply(
        &self,
        params: PresentationParameters,
    ) -> Result<(TextureDesc, PresentationParameters)> {
        if params.back_buffer_width <= 0 {
            return Err(XnaError::out_of_range("BackBufferWidth", "must be positive"));
        }
        if params.back_buffer_height <= 0 {
            return Err(XnaError::out_of_range("BackBufferHeight", "must be positive"));
        }
        let profile = self.profile;
        let max = profile.max_texture_size().min(self.caps.max_texture_dimension);
        if params.back_buffer_width as u32 > max || params.back_buffer_height as u32 > max {
            return Err(XnaError::not_supported(format!(
                "The back buffer size exceeds the {profile:?} profile's limit of {max}."
            )));
        }
        let back_format = {
            let s = self.format_support.iter().find(|(f, _)| *f == params.back_buffer_format);
            let support = s.map_or_else(FormatSupport::default, |(_, s)| *s);
            selected_render_target_format(profile, params.back_buffer_format, false, support)
        };
        let desc = TextureDesc {
            width: params.back_buffer_width as u32,
            height: params.back_buffer_height as u32,
            mip_levels: 1,
            layers: 1,
            volume_depth: None,
            format: back_format,
            render_target: Some(RenderTargetDesc {
                depth: self.applied_depth[params.depth_stencil_format as usize],
                sample_count: selected_sample_count(self.caps, params.multi_sample_count),
                usage: params.render_target_usage,
                back_buffer: true,
            }),
        };
        let applied = PresentationParameters {
            back_buffer_format: back_format,
            depth_stencil_format: desc.depth_format(),
            multi_sample_count: desc.sample_count() as i32,
            ..params
        };
        Ok((desc, applied))
    }
}
