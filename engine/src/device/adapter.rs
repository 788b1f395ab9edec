//! XNA's `GraphicsAdapter` and `DisplayMode`: the GPUs a backend can create a device on, what
//! each could do, and the display's modes.
//!
//! In: a backend kind (the default one for [`GraphicsAdapter::adapters`]), and for the queries
//! a profile and the format, depth format and multisample count a game would ask for. Out: the
//! listed adapters (the default first, as XNA's `DefaultAdapter` is `Adapters[0]`), each with
//! the identity, capabilities and format table its backend measured (no device is created on
//! Vulkan); the formats a render target or back buffer would really get; whether a profile is
//! supported; the display's modes.
//!
//! Decided here, each in one function with a test named after it: the render-target format
//! verdict (a format the profile forbids for this kind of target, or the adapter cannot render,
//! becomes `Color`: [`selected_render_target_format`], which render targets and the back buffer
//! apply too), the multisample count a request gets ([`selected_sample_count`]), and what a
//! profile needs of an adapter ([`profile_supported`]). The depth format a request gets is the
//! backend's substitution ([`AdapterInfo::applied_depth`]).

use std::sync::Arc;

use xnagraph_graph::{
    AdapterInfo, Capabilities, DepthFormat, FormatSupport, SurfaceFormat, MAX_COLOR_ATTACHMENTS,
};

use crate::device::options::BackendKind;
use crate::device::profile::GraphicsProfile;
use crate::error::{Result, XnaError};
use crate::Rectangle;

/// XNA's `GraphicsAdapter`: one GPU a backend can create a device on.
///
/// Obtained from [`GraphicsAdapter::adapters`] (or [`GraphicsAdapter::adapters_for`] a given
/// backend) and from [`crate::GraphicsDevice::adapter`]; a device is created on one with
/// [`crate::GraphicsDevice::with_adapter`]. Every answer comes from what the backend measured
/// for this adapter (its limits, sample counts and per-format support), the same data a device
/// on it validates against.
///
/// Where xnagraph differs from XNA: there is no `IsWideScreen`, `MonitorHandle` or
/// `UseReferenceDevice`/`UseNullDevice`; an adapter belongs to the backend that listed it
/// ([`GraphicsAdapter::backend`]); two adapters are equal when they are the same GPU of the
/// same backend.
#[derive(Clone, Debug)]
pub struct GraphicsAdapter {
    backend: BackendKind,
    info: Arc<AdapterInfo>,
}

impl PartialEq for GraphicsAdapter {
    fn eq(&self, other: &Self) -> bool {
        self.backend == other.backend && self.info.identity == other.info.identity
    }
}

impl Eq for GraphicsAdapter {}

impl GraphicsAdapter {
    /// XNA's `GraphicsAdapter.Adapters`: the adapters the default backend
    /// ([`BackendKind::default`]) can create a device on, the default adapter first. See
    /// [`Self::adapters_for`].
    ///
    /// Errors: no Vulkan loader, or a backend this build lacks, is `NotSupported`.
    pub fn adapters() -> Result<Vec<GraphicsAdapter>> {
        Self::adapters_for(BackendKind::default())
    }

    /// The adapters `backend` can create a device on, the one it picks by default first.
    ///
    /// - Vulkan: every physical device of the process's instance that supports Vulkan 1.3 with
    ///   dynamic rendering and synchronization2, in the order the backend ranks them (discrete,
    ///   integrated, virtual, CPU; among equals the driver's order). No device is created. On
    ///   lavapipe that is one adapter, "llvmpipe (LLVM …)".
    /// - SDL_gpu: SDL 3.4 chooses its own device, so the list is that one adapter, found by
    ///   creating a headless SDL_gpu device once and reading what it reports. SDL reports no
    ///   vendor or device id: both are 0.
    /// - Null: one adapter, "null (no GPU)", with the null backend's capabilities.
    ///
    /// Not part of XNA, which has one list. Errors: as [`Self::adapters`]; an empty list where
    /// the backend finds no usable adapter.
    pub fn adapters_for(backend: BackendKind) -> Result<Vec<GraphicsAdapter>> {
        let infos = crate::device::backends::adapters(backend)?;
        Ok(infos
            .into_iter()
            .map(|info| GraphicsAdapter { backend, info: Arc::new(info) })
            .collect())
    }

    /// XNA's `GraphicsAdapter.DefaultAdapter`: `Adapters[0]`, the adapter a device made without
    /// one runs on.
    ///
    /// Errors: as [`Self::adapters`]; `NotSupported` when the backend finds no usable adapter
    /// (where XNA's list is never empty).
    pub fn default_adapter() -> Result<GraphicsAdapter> {
        Self::adapters()?.into_iter().next().ok_or_else(|| {
            XnaError::not_supported("The default backend finds no usable graphics adapter.")
        })
    }

    /// XNA's `GraphicsAdapter.Adapters[index]`: an index past the list is
    /// `ArgumentOutOfRange` naming `index`, as XNA's collection raises it.
    pub fn adapter(index: usize) -> Result<GraphicsAdapter> {
        let mut listed = Self::adapters()?;
        if index >= listed.len() {
            return Err(XnaError::out_of_range(
                "index",
                format!("there are {} adapters", listed.len()),
            ));
        }
        Ok(listed.swap_remove(index))
    }

    /// An adapter of `backend` from what a device on it reports (its backend's
    /// [`AdapterInfo::of`]).
    pub(crate) fn from_info(backend: BackendKind, info: AdapterInfo) -> GraphicsAdapter {
        GraphicsAdapter { backend, info: Arc::new(info) }
    }

    /// The backend that listed this adapter (not XNA).
    pub fn backend(&self) -> BackendKind {
        self.backend
    }

    /// The driver's identification of the adapter (not XNA): its description, ids and uuid.
    pub(crate) fn identity(&self) -> &xnagraph_graph::AdapterIdentity {
        &self.info.identity
    }

    /// XNA's `Description`: the adapter's name as its driver reports it (e.g. "llvmpipe (LLVM
    /// 15.0.6, 256 bits)"). [`crate::GraphicsDevice::adapter_name`] adds the device type.
    pub fn description(&self) -> &str {
        &self.info.identity.description
    }

    /// XNA's `VendorId`: the PCI vendor id (Vulkan's `vendorID`; lavapipe reports Mesa's
    /// 0x10005). 0 on SDL_gpu and the null backend, which report none. XNA's is an `int`.
    pub fn vendor_id(&self) -> u32 {
        self.info.identity.vendor_id
    }

    /// XNA's `DeviceId`: the vendor's device id (Vulkan's `deviceID`). 0 on SDL_gpu and the
    /// null backend, which report none. XNA's is an `int`.
    pub fn device_id(&self) -> u32 {
        self.info.identity.device_id
    }

    /// The limits and features a device on this adapter has (not XNA; what
    /// [`crate::GraphicsDevice::capabilities`] reports on such a device).
    pub fn capabilities(&self) -> &Capabilities {
        &self.info.capabilities
    }

    /// What a device on this adapter can do with `format` (not XNA; what
    /// [`crate::GraphicsDevice::format_support`] reports on such a device).
    pub fn format_support(&self, format: SurfaceFormat) -> FormatSupport {
        self.info.format_support(format)
    }

    /// XNA's `IsProfileSupported`: whether a device of `profile` can be created on this
    /// adapter and do everything the profile allows. Reach needs 2048-texel textures, 512-texel
    /// cubes, geometry and `Color` render targets; HiDef 4096-texel textures and cubes,
    /// 256-texel volumes, four simultaneous render targets with independent blending, geometry
    /// and `Color` render targets. A device of an unsupported profile made with
    /// [`crate::GraphicsDevice::with_adapter`] is refused with `NotSupported`.
    pub fn is_profile_supported(&self, profile: GraphicsProfile) -> bool {
        profile_supported(profile, &self.info.capabilities, |f| self.info.format_support(f))
    }

    /// XNA's `QueryRenderTargetFormat`: the format, depth format and multisample count a
    /// `RenderTarget2D` of `profile` asking for these would get on this adapter, by the rules
    /// render targets are created with: a format the profile forbids or the adapter cannot
    /// render becomes `Color`; the depth format is the
    /// nearest the adapter has (Depth24Stencil8 falls back to Depth24, then Depth16); the count
    /// is rounded down to a power of two the adapter supports, 0 and 1 (and a negative count)
    /// meaning none.
    ///
    /// XNA returns `true` when all three are what was asked for and passes the selections out;
    /// here the selections are returned, and the request was supported as it stands when they
    /// equal it. Where xnagraph differs: an adapter that renders `NormalizedByte2`/`4` keeps
    /// them (an extension over XNA's HiDef list, as `RenderTarget2D` does).
    pub fn query_render_target_format(
        &self,
        profile: GraphicsProfile,
        format: SurfaceFormat,
        depth_format: DepthFormat,
        multi_sample_count: i32,
    ) -> (SurfaceFormat, DepthFormat, i32) {
        let format =
            selected_render_target_format(profile, format, false, self.format_support(format));
        let depth = self.info.applied_depth[depth_format as usize];
        let count = selected_sample_count(&self.info.capabilities, multi_sample_count);
        (format, depth, count as i32)
    }

    /// XNA's `QueryBackBufferFormat`: what a device's back buffer asking for these would get,
    /// by the rules [`crate::GraphicsDevice::with_adapter`] applies to
    /// [`crate::PresentationParameters`] (the same as a `RenderTarget2D`'s, see
    /// [`Self::query_render_target_format`]; [`crate::GraphicsDevice::presentation_parameters`]
    /// reports the result on a device).
    pub fn query_back_buffer_format(
        &self,
        profile: GraphicsProfile,
        format: SurfaceFormat,
        depth_format: DepthFormat,
        multi_sample_count: i32,
    ) -> (SurfaceFormat, DepthFormat, i32) {
        self.query_render_target_format(profile, format, depth_format, multi_sample_count)
    }

    /// XNA's `SupportedDisplayModes`: the modes of the display this process's windows open on.
    ///
    /// Where xnagraph differs: the display is the X server's (`DISPLAY`; XWayland under
    /// Wayland), asked through the X protocol in a build with the `game` feature on Unix other
    /// than Apple's, whatever GPU this adapter is: XRandR's modes of the screen, each size once
    /// with the screen's format, largest first, or the screen's current mode alone where the
    /// server has no RandR. Where there is no X display (headless, without the `game` feature,
    /// other platforms) the list is empty: no monitor information is available, and nothing
    /// is made up. xnagraph never changes the display's mode; a full-screen window covers the
    /// monitor at its current mode.
    pub fn supported_display_modes(&self) -> Vec<DisplayMode> {
        display::modes().map(|(_, modes)| modes).unwrap_or_default()
    }

    /// XNA's `CurrentDisplayMode`: the display's current mode, from the same source as
    /// [`Self::supported_display_modes`] (the X screen's size and depth: `Color` for 24 or 32
    /// bits, `Bgr565` for 16). `None` where no display is available (headless), where XNA
    /// always has one.
    pub fn current_display_mode(&self) -> Option<DisplayMode> {
        display::modes().map(|(current, _)| current)
    }
}

/// XNA's `DisplayMode`: a display's size and format.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DisplayMode {
    /// Width in pixels (XNA's `Width`).
    pub width: i32,
    /// Height in pixels (XNA's `Height`).
    pub height: i32,
    /// The format of the display's pixels (XNA's `Format`).
    pub format: SurfaceFormat,
    /// `width / height` (XNA's `AspectRatio`; 0 for a zero height).
    pub aspect_ratio: f32,
    /// The area a game's essential content should lie in (XNA's `TitleSafeArea`): the whole
    /// mode, as XNA reports it on Windows (on Xbox it was smaller).
    pub title_safe_area: Rectangle,
}

impl DisplayMode {
    /// The mode of `width` × `height` pixels of `format`, with XNA's aspect ratio and title-safe
    /// area.
    pub fn new(width: i32, height: i32, format: SurfaceFormat) -> DisplayMode {
        DisplayMode {
            width,
            height,
            format,
            aspect_ratio: if height == 0 { 0.0 } else { width as f32 / height as f32 },
            title_safe_area: Rectangle::new(0, 0, width, height),
        }
    }
}

/// XNA's render-target format rule: `preferred` when the profile allows it for this kind of
/// target (a `cube` has XNA's narrower list, [`GraphicsProfile::supports_cube_target_format`])
/// and the adapter can render to it, else `Color`. The one home of the rule: render targets,
/// the back buffer and [`GraphicsAdapter::query_render_target_format`] all apply it.
pub(crate) fn selected_render_target_format(
    profile: GraphicsProfile,
    preferred: SurfaceFormat,
    cube: bool,
    support: FormatSupport,
) -> SurfaceFormat {
    let profile_allows = if cube {
        profile.supports_cube_target_format(preferred)
    } else {
        profile.supports_render_target_format(preferred)
    };
    if profile_allows && support.render_target {
        preferred
    } else {
        SurfaceFormat::Color
    }
}

/// The multisample count a request gets: negative counts mean none, as 0 and 1 do, and the
/// rest rounds down to a power of two the adapter supports ([`Capabilities::clamp_sample_count`]).
pub(crate) fn selected_sample_count(caps: &Capabilities, requested: i32) -> u32 {
    caps.clamp_sample_count(requested.max(0) as u32)
}

/// What a profile needs of an adapter: what the engine checks a device of that profile's
/// calls against must allow everything the profile allows. Reach: 2048-texel textures,
/// 512-texel cubes, geometry, and `Color` render targets. HiDef: 4096-texel textures and cubes,
/// 256-texel volumes, four simultaneous render targets (with independent blending, which
/// drawing into several needs), geometry, and `Color` render targets.
pub(crate) fn profile_supported(
    profile: GraphicsProfile,
    caps: &Capabilities,
    support: impl Fn(SurfaceFormat) -> FormatSupport,
) -> bool {
    let color = support(SurfaceFormat::Color);
    let common = caps.max_texture_dimension >= profile.max_texture_size()
        && caps.max_cube_dimension >= profile.max_cube_size()
        && caps.geometry
        && color.sampled
        && color.render_target;
    match profile {
        GraphicsProfile::Reach => common,
        GraphicsProfile::HiDef => {
            let targets = profile.max_render_targets().min(MAX_COLOR_ATTACHMENTS);
            common
                && caps.max_volume_dimension >= profile.max_volume_extent()
                && caps.max_color_attachments as usize >= targets
                && caps.independent_blend
        }
    }
}

/// The X server's screen, for the display modes.
mod display {
    use super::DisplayMode;

    /// The current mode and the supported ones, or `None` without an X display.
    #[cfg(all(feature = "game", unix, not(target_vendor = "apple")))]
    pub(super) fn modes() -> Option<(DisplayMode, Vec<DisplayMode>)> {
        use x11rb::connection::Connection;
        use x11rb::protocol::randr::ConnectionExt as _;
        use xnagraph_graph::SurfaceFormat;

        let (conn, screen_num) = x11rb::connect(None).ok()?;
        let screen = conn.setup().roots.get(screen_num)?;
        let format =
            if screen.root_depth <= 16 { SurfaceFormat::Bgr565 } else { SurfaceFormat::Color };
        let current = DisplayMode::new(
            i32::from(screen.width_in_pixels),
            i32::from(screen.height_in_pixels),
            format,
        );
        let mut sizes: Vec<(i32, i32)> = conn
            .randr_get_screen_resources_current(screen.root)
            .ok()
            .and_then(|cookie| cookie.reply().ok())
            .map(|r| r.modes.iter().map(|m| (i32::from(m.width), i32::from(m.height))).collect())
            .unwrap_or_default();
        if sizes.is_empty() {
            sizes.push((current.width, current.height));
        }
        sizes.sort_by(|a, b| b.cmp(a));
        sizes.dedup();
        let modes = sizes.into_iter().map(|(w, h)| DisplayMode::new(w, h, format)).collect();
        Some((current, modes))
    }

    /// No X display in this build: no monitor information.
    #[cfg(not(all(feature = "game", unix, not(target_vendor = "apple"))))]
    pub(super) fn modes() -> Option<(DisplayMode, Vec<DisplayMode>)> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps() -> Capabilities {
        Capabilities {
            max_texture_dimension: 4096,
            max_cube_dimension: 4096,
            max_volume_dimension: 256,
            max_color_attachments: 4,
            sample_counts: 1 | 2 | 4,
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

    const RENDERS: FormatSupport =
        FormatSupport { sampled: true, render_target: true, blendable: true, mip_generation: true };
    const NOT_RENDERED: FormatSupport = FormatSupport { render_target: false, ..RENDERS };

    #[test]
    fn a_format_the_profile_forbids_becomes_color() {
        let reach = GraphicsProfile::Reach;
        let hidef = GraphicsProfile::HiDef;
        let select = selected_render_target_format;
        assert_eq!(select(reach, SurfaceFormat::HalfVector4, false, RENDERS), SurfaceFormat::Color);
        assert_eq!(
            select(hidef, SurfaceFormat::HalfVector4, false, RENDERS),
            SurfaceFormat::HalfVector4
        );
        assert_eq!(select(hidef, SurfaceFormat::Dxt1, false, RENDERS), SurfaceFormat::Color);
    }

    #[test]
    fn a_format_the_adapter_cannot_render_becomes_color() {
        let hidef = GraphicsProfile::HiDef;
        let select = selected_render_target_format;
        assert_eq!(
            select(hidef, SurfaceFormat::Vector4, false, NOT_RENDERED),
            SurfaceFormat::Color
        );
        assert_eq!(select(hidef, SurfaceFormat::Vector4, false, RENDERS), SurfaceFormat::Vector4);
    }

    #[test]
    fn a_cube_target_takes_no_signed_normalised_format() {
        let hidef = GraphicsProfile::HiDef;
        let select = selected_render_target_format;
        let f = SurfaceFormat::NormalizedByte4;
        assert_eq!(select(hidef, f, true, RENDERS), SurfaceFormat::Color);
        assert_eq!(select(hidef, f, false, RENDERS), f);
    }

    #[test]
    fn a_sample_count_rounds_down_and_negative_means_none() {
        let counts = [-4, 0, 1, 2, 3, 4, 8, 16].map(|n| selected_sample_count(&caps(), n));
        assert_eq!(counts, [0, 0, 0, 2, 2, 4, 4, 4]);
    }

    #[test]
    fn hidef_needs_four_targets_volumes_and_4096_texels() {
        let ok = |c: &Capabilities, p| profile_supported(p, c, |_| RENDERS);
        assert!(ok(&caps(), GraphicsProfile::HiDef));
        for lacking in [
            Capabilities { max_texture_dimension: 2048, ..caps() },
            Capabilities { max_cube_dimension: 2048, ..caps() },
            Capabilities { max_volume_dimension: 0, ..caps() },
            Capabilities { max_color_attachments: 1, ..caps() },
            Capabilities { independent_blend: false, ..caps() },
        ] {
            assert!(!ok(&lacking, GraphicsProfile::HiDef), "{lacking:?}");
            assert!(ok(&lacking, GraphicsProfile::Reach), "{lacking:?}");
        }
    }

    #[test]
    fn reach_needs_2048_texels_geometry_and_color_targets() {
        let reach = GraphicsProfile::Reach;
        assert!(profile_supported(reach, &caps(), |_| RENDERS));
        let small = Capabilities { max_texture_dimension: 1024, ..caps() };
        assert!(!profile_supported(reach, &small, |_| RENDERS));
        let no_geometry = Capabilities { geometry: false, ..caps() };
        assert!(!profile_supported(reach, &no_geometry, |_| RENDERS));
        assert!(!profile_supported(reach, &caps(), |_| NOT_RENDERED));
    }

    #[test]
    fn a_display_mode_has_xnas_aspect_ratio_and_whole_title_safe_area() {
        let mode = DisplayMode::new(1280, 1024, SurfaceFormat::Color);
        assert_eq!(mode.aspect_ratio, 1.25);
        assert_eq!(mode.title_safe_area, Rectangle::new(0, 0, 1280, 1024));
        assert_eq!(DisplayMode::new(4, 0, SurfaceFormat::Color).aspect_ratio, 0.0);
    }
}
