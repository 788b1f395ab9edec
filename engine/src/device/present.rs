//! What presenting means for a device, whichever window it presents to: the pacing XNA's
//! `PresentInterval` asks for, what a frame presents to, and when `GetBackBufferData` may read
//! the back buffer after a present.
//!
//! In: the presentation parameters' interval, the recorder's back buffer, and the backend's
//! answer to what the frame presents to now. Out: `NotSupported` for an interval no backend
//! paces, whether presents go out at once, the [`PresentTarget`] the compiler decides from
//! (`xnagraph_graph::compile::present`: straight into the swapchain image, or into the
//! offscreen back buffer the present copies), and `InvalidOperation` for a read of an image
//! that belongs to the presentation engine.

use xnagraph_graph::{FrameBuilder, PresentTarget};

use crate::device::options::PresentInterval;
use crate::device::shared::DeviceShared;
use crate::error::{Result, XnaError};
use crate::event::lock;

/// Neither Vulkan nor SDL_gpu has a present mode for every second retrace.
pub(crate) fn check_interval(interval: PresentInterval) -> Result<()> {
    if interval == PresentInterval::Two {
        return Err(XnaError::not_supported(
            "PresentInterval.Two is not supported: presents go out at every retrace (One) or \
             at once (Immediate).",
        ));
    }
    Ok(())
}

/// Whether presents go out at once rather than with the vertical retrace.
pub(crate) fn is_immediate(interval: PresentInterval) -> bool {
    interval == PresentInterval::Immediate
}

/// `GetBackBufferData` after a frame was drawn straight into the swapchain image and presented,
/// with nothing drawn into the back buffer since, would read an image that belongs to the
/// presentation engine.
pub(crate) fn check_back_buffer_readable(builder: &FrameBuilder) -> Result<()> {
    if builder.back_buffer().given_to_presentation() && !builder.draws_back_buffer() {
        return Err(XnaError::invalid_operation(
            "GetBackBufferData cannot read the presented frame: it was drawn straight into the \
             window's swapchain image (the back buffer's RenderTargetUsage is DiscardContents), \
             which now belongs to the presentation engine. Read the back buffer before Present, \
             or create the device with RenderTargetUsage.PreserveContents.",
        ));
    }
    Ok(())
}

impl DeviceShared {
    /// What the frame being flushed presents to, as the backend reports it now. The caller
    /// holds `submission_order`.
    pub(crate) fn present_target(
        &self,
    ) -> Result<std::result::Result<PresentTarget, xnagraph_graph::BackendError>> {
        let back_buffer = lock(&self.rec).builder.back_buffer().clone();
        self.backend_call(|backend| backend.present_target(&back_buffer))
    }
}
