//! Presentation: where the back buffer goes at `Present`, as the compiler sees it.
//!
//! A headless device presents to nothing: the back buffer is an offscreen image that `Present`
//! leaves readable. A device created for a window presents to a swapchain, which only the
//! backend can create, acquire and present; before each compile the engine asks it what the
//! window offers now ([`PresentTarget`]) and records that on the frame. The compiler then
//! decides the frame's [`PresentMode`] (`compile::present`): draw straight into the swapchain
//! image, or draw into the offscreen back buffer and copy it at the present, or present nothing
//! (a window of zero size). The backend carries the mode out and decides nothing.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use crate::format::SurfaceFormat;

/// A swapchain as the compiler needs to know it: the size and format of its images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapchainDesc {
    /// Width of the swapchain images in pixels.
    pub width: u32,
    /// Height of the swapchain images in pixels.
    pub height: u32,
    /// The XNA format whose values the swapchain images store unchanged when drawn into
    /// (`Color` for an 8-bit UNORM RGBA or BGRA surface), or `None` when no XNA format does
    /// (an sRGB or 10-bit surface): such a swapchain is only ever copied into.
    pub format: Option<SurfaceFormat>,
    /// Whether a multisampled back buffer can resolve into the images: they have the very
    /// native format its samples are stored in (a resolve converts nothing, so an RGBA back
    /// buffer cannot resolve into a BGRA swapchain image, though it can be drawn into one).
    pub resolve_target: bool,
}

/// What the back buffer is presented to, as the backend reports it before a compile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PresentTarget {
    /// No window: the back buffer is an offscreen image (a headless device).
    #[default]
    Offscreen,
    /// A window's swapchain.
    Window {
        /// The swapchain the next present goes to; `None` while the window has no area
        /// (minimised or zero-sized), when nothing can be presented.
        swapchain: Option<SwapchainDesc>,
        /// Whether a swapchain image is already acquired for the frame being drawn (an earlier
        /// flush of this frame drew straight into it): the frame continues in it.
        acquired: bool,
    },
}

/// How a frame reaches the screen; decided by the compiler for each plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PresentMode {
    /// Headless: the back buffer is offscreen and a present leaves it readable.
    #[default]
    Offscreen,
    /// The back buffer's work draws straight into the acquired swapchain image (a multisampled
    /// back buffer resolves into it), which is then presented. Nothing can read the frame after
    /// the present: the image belongs to the presentation engine.
    Direct,
    /// The back buffer is drawn offscreen and copied (scaled when the sizes differ) into the
    /// swapchain image at the present; the offscreen back buffer keeps the presented frame.
    Copy,
    /// The window has no area: the frame's work is submitted, nothing is presented, and the
    /// offscreen back buffer keeps the frame.
    Skip,
}

impl PresentMode {
    /// The name the plan text and DOT give the mode.
    pub fn describe(self) -> &'static str {
        match self {
            PresentMode::Offscreen => "offscreen",
            PresentMode::Direct => "direct (drawn straight into the swapchain image)",
            PresentMode::Copy => "copy (offscreen back buffer blitted into the swapchain image)",
            PresentMode::Skip => "skip (the window has no area: nothing presented)",
        }
    }
}

/// What a device with a window has presented (not XNA; for tests and tools). Shared between
/// the backend that counts and the caller that reads, with a test switch.
#[derive(Debug, Default)]
pub struct PresentCounters {
    /// Swapchain images handed to the presentation engine.
    pub presented: AtomicU64,
    /// Presents that showed nothing: the window had no area, or its swapchain was out of date.
    pub skipped: AtomicU64,
    /// Swapchains created (the first one included).
    pub recreations: AtomicU64,
    /// A test switch: the window is reported as having no area (as a minimised window on
    /// platforms that report one so), whatever its real size. X11 has no zero-sized windows.
    pub simulate_zero_extent: AtomicBool,
}

impl PresentCounters {
    /// Swapchain images presented so far.
    pub fn presented(&self) -> u64 {
        self.presented.load(Ordering::Relaxed)
    }

    /// Presents skipped so far.
    pub fn skipped(&self) -> u64 {
        self.skipped.load(Ordering::Relaxed)
    }

    /// Swapchains created so far.
    pub fn recreations(&self) -> u64 {
        self.recreations.load(Ordering::Relaxed)
    }

    /// Reports the window as having no area from the next frame on (see the field).
    pub fn simulate_zero_extent(&self, on: bool) {
        self.simulate_zero_extent.store(on, Ordering::Relaxed);
    }
}

/// A handle on a device's [`PresentCounters`].
pub type PresentStats = Arc<PresentCounters>;
