//! How an [`SdlGpuBackend`](crate::SdlGpuBackend) is created: SDL_gpu's debug mode, the
//! submissions in flight, the GPU wait limit and the poisoning test switch.

use std::time::Duration;

/// How the backend is created.
#[derive(Clone, Debug)]
pub struct SdlGpuConfig {
    /// SDL_gpu's debug mode: SDL validates its own calls and loads Khronos' validation layer
    /// underneath (with synchronization validation); warnings and errors of both reach this
    /// device's [`Diagnostics`](xnagraph_graph::Diagnostics). On by default in debug builds, off
    /// in release builds.
    pub debug_mode: bool,
    /// Submissions that may be executing at once (at least 1; default 2).
    pub frames_in_flight: u32,
    /// The longest any wait for the GPU may take (default 10 s); longer is
    /// [`BackendError::DeviceLost`](xnagraph_graph::BackendError::DeviceLost).
    pub timeout: Duration,
    /// A debug switch for tests: every attachment the plan loads with DONT_CARE starts as the
    /// poison value, and every attachment it stores with DONT_CARE is cleared to it after the
    /// pass (magenta colour, depth 0, stencil 0), so a wrong decision shows in pixels.
    pub poison_undefined: bool,
}

impl Default for SdlGpuConfig {
    fn default() -> Self {
        SdlGpuConfig {
            debug_mode: cfg!(debug_assertions),
            frames_in_flight: 2,
            timeout: Duration::from_secs(10),
            poison_undefined: false,
        }
    }
}
