//! The options a device is created with: XNA's `PresentationParameters` and the engine's own.

use xnagraph_graph::{DepthFormat, RenderTargetUsage, SurfaceFormat};

/// XNA's `PresentationParameters` (the headless subset: no window handle).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PresentationParameters {
    pub back_buffer_width: i32,
    pub back_buffer_height: i32,
    pub back_buffer_format: SurfaceFormat,
    pub depth_stencil_format: DepthFormat,
    /// Requested multisample count (0 or 1: none).
    pub multi_sample_count: i32,
    /// How the back buffer treats its content when it is bound again (see `set_render_targets`).
    pub render_target_usage: RenderTargetUsage,
}

impl Default for PresentationParameters {
    fn default() -> Self {
        PresentationParameters {
            back_buffer_width: 800,
            back_buffer_height: 480,
            back_buffer_format: SurfaceFormat::Color,
            depth_stencil_format: DepthFormat::None,
            multi_sample_count: 0,
            render_target_usage: RenderTargetUsage::DiscardContents,
        }
    }
}

/// Which native API lowers the plans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BackendKind {
    #[default]
    Vulkan,
}

/// Engine options XNA has no place for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceOptions {
    pub backend: BackendKind,
    /// Khronos validation with synchronization validation (also on with `XNAGRAPH_VALIDATION=1`).
    pub validation: bool,
    /// Submissions that may be in flight before `present` waits (at least 1).
    pub frames_in_flight: u32,
}

impl Default for DeviceOptions {
    fn default() -> Self {
        DeviceOptions { backend: BackendKind::Vulkan, validation: false, frames_in_flight: 2 }
    }
}
