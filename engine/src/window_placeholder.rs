//! `GraphicsDevice::for_window`, as a stand-in until the windowed device lands: it keeps the
//! window alive for the device's lifetime in spirit only, ignores its surface and creates a
//! headless device whose back buffer has the parameters' size. Frames render and present
//! offscreen; nothing reaches the window.

use std::sync::Arc;

use raw_window_handle::{HasDisplayHandle, HasWindowHandle};

use crate::device::GraphicsDevice;
use crate::error::Result;
use crate::options::{DeviceOptions, PresentationParameters};
use crate::profile::GraphicsProfile;

impl GraphicsDevice {
    /// `new GraphicsDevice(adapter, profile, presentationParameters)` for a window: the device
    /// presents to `window`. For now the window is not used: the device renders headless into
    /// a back buffer of `params`' size, with the errors of [`GraphicsDevice::with_options`].
    pub fn for_window<W>(
        profile: GraphicsProfile,
        params: PresentationParameters,
        options: DeviceOptions,
        window: Arc<W>,
    ) -> Result<GraphicsDevice>
    where
        W: HasWindowHandle + HasDisplayHandle + Send + Sync + 'static,
    {
        drop(window);
        GraphicsDevice::with_options(profile, params, options)
    }
}
