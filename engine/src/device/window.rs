//! Devices that present to a window: creation, and the window's test switches and counters.
//! The rules presenting follows (pacing, what `Present` to a swapchain means for
//! `GetBackBufferData`) are in [`super::present`].
//!
//! A device is created for any window that has raw-window-handle 0.6 handles (winit 0.30's
//! `Window` has them); the backend keeps the window alive for as long as its surface. Before
//! each compile the engine asks the backend what the frame presents to now
//! ([`xnagraph_graph::PresentTarget`]), and the compiler decides whether the frame draws
//! straight into the swapchain image or into the offscreen back buffer that the present copies
//! (`xnagraph_graph::compile::present`). Resizing is XNA's: the game calls
//! [`GraphicsDevice::reset`] with the window's new size, and the swapchain follows the back
//! buffer at the next present.

use std::sync::Arc;

use xnagraph_graph::PresentStats;

use super::present::{check_interval, is_immediate};
use crate::device::options::{DeviceOptions, PresentationParameters};
use crate::device::profile::GraphicsProfile;
use crate::device::GraphicsDevice;
use crate::error::Result;

impl GraphicsDevice {
    /// `new GraphicsDevice(adapter, profile, presentationParameters)` for a window (XNA's
    /// `DeviceWindowHandle`): the device presents to `window`'s swapchain. Everything else is as
    /// [`GraphicsDevice::with_options`]: the back buffer has the size, format, depth, multisampling
    /// and usage of `params`, and is scaled to the window when their sizes differ. The swapchain is
    /// created at the first present, at the window's size, and follows the window (and the back
    /// buffer, after [`GraphicsDevice::reset`]) from then on. `params.presentation_interval` paces
    /// presents: `Default` and `One` wait for the vertical retrace, `Immediate` does not; `Two`,
    /// and `Immediate` where the window offers no mode that presents at once, are `NotSupported`.
    /// The device keeps `window` alive until its surface is destroyed. A window without native
    /// handles, a display without Vulkan surfaces, or an adapter that cannot present to the window
    /// is `NotSupported`; the null backend cannot present (`NotSupported`). On SDL_gpu
    /// ([`BackendKind::SdlGpu`](crate::BackendKind::SdlGpu)) SDL wraps the X11, Wayland, Win32 or
    /// AppKit window and claims it for its GPU device; SDL runs one video driver per process, so a
    /// process that already made a headless SDL_gpu device cannot make one for a window
    /// (`NotSupported`).
    pub fn for_window<W>(
        profile: GraphicsProfile,
        params: PresentationParameters,
        options: DeviceOptions,
        window: Arc<W>,
    ) -> Result<GraphicsDevice>
    where
        W: raw_window_handle::HasWindowHandle
            + raw_window_handle::HasDisplayHandle
            + Send
            + Sync
            + 'static,
    {
        check_interval(params.presentation_interval)?;
        let mut backend = super::backends::for_window(&options, window)?;
        let immediate = is_immediate(params.presentation_interval);
        backend.check_present_pacing(immediate)?;
        backend.set_present_immediate(immediate);
        Self::with_backend(profile, params, options, backend, None)
    }

    /// Test support (not XNA), for a lost window: `false` releases the window from the GPU
    /// device, so that the next `Present` fails with the native API's error (the device stays
    /// usable); `true` claims the same window again, and presenting resumes. Available on
    /// SDL_gpu (`SDL_ReleaseWindowFromGPUDevice` / `SDL_ClaimWindowForGPUDevice`); Vulkan and a
    /// device without a window are `NotSupported`. Frames handed to the render thread before
    /// the call are submitted first.
    pub fn set_window_claimed(&self, claimed: bool) -> Result<()> {
        self.shared.check_alive()?;
        self.shared.drain();
        self.shared.with_backend(|b| b.set_window_claimed(claimed))
    }

    /// What this device has presented to its window (not XNA): images presented, presents
    /// skipped (a window without area, an out-of-date swapchain), swapchains created; and a
    /// test switch that reports the window as having no area. `None` for a headless device.
    pub fn present_stats(&self) -> Option<PresentStats> {
        self.shared.backend_call(|b| Ok(b.present_stats())).ok().and_then(|r| r.ok()).flatten()
    }
}
