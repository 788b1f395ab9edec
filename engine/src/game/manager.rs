//! XNA's `GraphicsDeviceManager`: the game's preferences for its device, and `ApplyChanges`.
//!
//! The preferences are plain fields the game sets before the run (they create the device) or
//! at any time followed by [`GraphicsDeviceManager::apply_changes`], which turns them into
//! presentation parameters and resets the device (XNA's `GraphicsDevice.Reset`): a new back
//! buffer of the preferred size and format, render targets untouched.

use crate::device::options::{DeviceOptions, PresentInterval, PresentationParameters};
use crate::device::profile::GraphicsProfile;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::{DepthFormat, RenderTargetUsage, SurfaceFormat};

/// The sample count asked for when [`GraphicsDeviceManager::prefer_multi_sampling`] is set;
/// the device clamps it to what the adapter offers.
const PREFERRED_SAMPLE_COUNT: i32 = 4;

/// XNA's `GraphicsDeviceManager`: creates the game's [`GraphicsDevice`] from its preferences
/// and applies changed preferences to it.
#[derive(Debug)]
pub struct GraphicsDeviceManager {
    /// XNA's `PreferredBackBufferWidth` (default 800).
    pub preferred_back_buffer_width: i32,
    /// XNA's `PreferredBackBufferHeight` (default 480).
    pub preferred_back_buffer_height: i32,
    /// XNA's `PreferredBackBufferFormat` (default `Color`); a format the device cannot render
    /// to falls back to `Color`, as `PresentationParameters` does.
    pub preferred_back_buffer_format: SurfaceFormat,
    /// XNA's `PreferredDepthStencilFormat` (default `Depth24`).
    pub preferred_depth_stencil_format: DepthFormat,
    /// XNA's `PreferMultiSampling` (default off): asks for 4 samples, clamped by the device.
    pub prefer_multi_sampling: bool,
    /// XNA's `SynchronizeWithVerticalRetrace` (default on): `PresentInterval::One` when set,
    /// `Immediate` when not.
    pub synchronize_with_vertical_retrace: bool,
    /// XNA's `IsFullScreen` (default off). A windowed game covers its monitor with a
    /// borderless window (not an exclusive mode); headless it only travels in the parameters.
    pub is_full_screen: bool,
    /// XNA's `GraphicsProfile` (default `HiDef`), used when the device is created.
    pub graphics_profile: GraphicsProfile,
    /// Engine options for the device (not XNA): backend, validation, frames in flight.
    pub device_options: DeviceOptions,
    pub(crate) device: Option<GraphicsDevice>,
    applied: Option<PresentationParameters>,
}

impl Default for GraphicsDeviceManager {
    fn default() -> Self {
        GraphicsDeviceManager::new()
    }
}

impl GraphicsDeviceManager {
    /// XNA's default preferences: 800×480 `Color`, `Depth24`, no multisampling, synchronized
    /// with the vertical retrace, windowed, `HiDef`.
    pub fn new() -> Self {
        GraphicsDeviceManager {
            preferred_back_buffer_width: 800,
            preferred_back_buffer_height: 480,
            preferred_back_buffer_format: SurfaceFormat::Color,
            preferred_depth_stencil_format: DepthFormat::Depth24,
            prefer_multi_sampling: false,
            synchronize_with_vertical_retrace: true,
            is_full_screen: false,
            graphics_profile: GraphicsProfile::HiDef,
            device_options: DeviceOptions::default(),
            device: None,
            applied: None,
        }
    }

    /// The device (XNA's `GraphicsDevice` property); `None` until the game's run creates it.
    pub fn graphics_device(&self) -> Option<&GraphicsDevice> {
        self.device.as_ref()
    }

    /// The presentation parameters the preferences ask for (not XNA, whose manager builds them
    /// internally). The back buffer usage is kept from the device's current parameters (the
    /// manager has no preference for it).
    pub fn presentation_parameters(&self) -> PresentationParameters {
        let usage = self.device.as_ref().map_or(RenderTargetUsage::DiscardContents, |d| {
            d.presentation_parameters().render_target_usage
        });
        PresentationParameters {
            back_buffer_width: self.preferred_back_buffer_width,
            back_buffer_height: self.preferred_back_buffer_height,
            back_buffer_format: self.preferred_back_buffer_format,
            depth_stencil_format: self.preferred_depth_stencil_format,
            multi_sample_count: if self.prefer_multi_sampling { PREFERRED_SAMPLE_COUNT } else { 0 },
            render_target_usage: usage,
            presentation_interval: if self.synchronize_with_vertical_retrace {
                PresentInterval::One
            } else {
                PresentInterval::Immediate
            },
            is_full_screen: self.is_full_screen,
        }
    }

    /// Creates the device from the preferences with `create` (headless or for a window).
    pub(crate) fn create_device(
        &mut self,
        create: impl FnOnce(
            GraphicsProfile,
            PresentationParameters,
            DeviceOptions,
        ) -> Result<GraphicsDevice>,
    ) -> Result<&GraphicsDevice> {
        let params = self.presentation_parameters();
        let device = create(self.graphics_profile, params, self.device_options)?;
        self.applied = Some(params);
        Ok(self.device.insert(device))
    }

    /// XNA's `ApplyChanges`: resets the device with the preferences (a new back buffer of the
    /// preferred size, format, depth and sample count; the presentation interval and
    /// full-screen flag), when they differ from what was last applied. Render targets and
    /// textures keep their content. A non-positive width or height is `ArgumentOutOfRange`
    /// naming `BackBufferWidth` or `BackBufferHeight`, a size past the profile's limit is
    /// `NotSupported`; either leaves the device as it was. Before the device exists the
    /// preferences simply wait for its creation, as in XNA.
    pub fn apply_changes(&mut self) -> Result<()> {
        let params = self.presentation_parameters();
        let Some(device) = &self.device else { return Ok(()) };
        if self.applied == Some(params) {
            return Ok(());
        }
        device.reset(params)?;
        self.applied = Some(params);
        Ok(())
    }

    /// XNA's `ToggleFullScreen`: flips [`Self::is_full_screen`] and applies it at once.
    ///
    /// Errors: as [`Self::apply_changes`]; the flag then stays flipped, to be applied by the
    /// next successful `apply_changes`.
    pub fn toggle_full_screen(&mut self) -> Result<()> {
        self.is_full_screen = !self.is_full_screen;
        self.apply_changes()
    }

    /// XNA's handler of `GameWindow.ClientSizeChanged` for a resizable window: the back buffer
    /// follows the client area's new size. A zero-sized (minimised) client area changes
    /// nothing, as there is nothing to present to.
    pub(crate) fn client_size_changed(&mut self, width: u32, height: u32) -> Result<()> {
        if width == 0 || height == 0 {
            return Ok(());
        }
        let (Ok(width), Ok(height)) = (i32::try_from(width), i32::try_from(height)) else {
            return Err(XnaError::out_of_range("BackBufferWidth", "the window is too large"));
        };
        self.preferred_back_buffer_width = width;
        self.preferred_back_buffer_height = height;
        self.apply_changes()
    }

    /// Drops the device (the end of a run).
    pub(crate) fn release_device(&mut self) {
        self.device = None;
        self.applied = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BackendKind;

    fn null_manager() -> GraphicsDeviceManager {
        let mut graphics = GraphicsDeviceManager::new();
        graphics.device_options.backend = BackendKind::Null;
        graphics.preferred_back_buffer_width = 64;
        graphics.preferred_back_buffer_height = 32;
        graphics.create_device(GraphicsDevice::with_options).unwrap();
        graphics
    }

    fn size(graphics: &GraphicsDeviceManager) -> (i32, i32) {
        let p = graphics.graphics_device().unwrap().presentation_parameters();
        (p.back_buffer_width, p.back_buffer_height)
    }

    #[test]
    fn the_back_buffer_follows_the_client_size_and_ignores_a_minimised_window() {
        let mut graphics = null_manager();
        assert_eq!(size(&graphics), (64, 32));
        graphics.client_size_changed(300, 200).unwrap();
        assert_eq!(size(&graphics), (300, 200));
        assert_eq!(graphics.preferred_back_buffer_width, 300);
        graphics.client_size_changed(0, 0).unwrap();
        assert_eq!(size(&graphics), (300, 200), "a minimised window keeps the back buffer");
    }

    #[test]
    fn apply_changes_resets_only_when_the_preferences_changed() {
        let mut graphics = null_manager();
        let resets = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        let counter = resets.clone();
        graphics.graphics_device().unwrap().events().device_reset.subscribe(move |_| {
            counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
        graphics.apply_changes().unwrap();
        assert_eq!(resets.load(std::sync::atomic::Ordering::Relaxed), 0);
        graphics.preferred_back_buffer_height = 48;
        graphics.apply_changes().unwrap();
        assert_eq!(resets.load(std::sync::atomic::Ordering::Relaxed), 1);
        assert_eq!(size(&graphics), (64, 48));
    }
}
