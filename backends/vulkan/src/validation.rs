//! Validation-layer messages, collected per device for tests.
//!
//! When a backend is created with validation on, Khronos' validation layer (with synchronization
//! validation) reports through a debug-utils messenger whose user data is that backend's
//! [`Diagnostics`]. Every WARNING and ERROR message lands in that device's list, so devices of
//! parallel tests never see each other's messages, and is emitted as a `tracing` event of the
//! same level (target `xnagraph_vulkan::validation`). Read them through
//! [`crate::VulkanBackend::diagnostics`].

use std::ffi::{c_void, CStr};

use ash::vk;
use xnagraph_graph::Diagnostics;

/// The debug-utils callback: records warnings and errors, never aborts the call.
///
/// `user` is the address of the [`Diagnostics`] the device keeps boxed until after its instance
/// is destroyed.
pub(crate) unsafe extern "system" fn on_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    let wanted = vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
        | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR;
    if !severity.intersects(wanted) {
        return vk::FALSE;
    }
    // SAFETY: the layer passes a valid callback-data pointer (or null) for the duration of the
    // call, and `p_message`, when set, is a NUL-terminated string.
    let text = unsafe {
        data.as_ref()
            .filter(|d| !d.p_message.is_null())
            .map(|d| CStr::from_ptr(d.p_message).to_string_lossy().into_owned())
    }
    .unwrap_or_default();
    let level = if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR) {
        tracing::error!(target: "xnagraph_vulkan::validation", "{text}");
        "error"
    } else {
        tracing::warn!(target: "xnagraph_vulkan::validation", "{text}");
        "warning"
    };
    // SAFETY: `user` is the boxed `Diagnostics` of the instance's `Gpu`, which outlives the
    // instance and every messenger (see `Gpu::destroy`).
    if let Some(diagnostics) = unsafe { user.cast::<Diagnostics>().as_ref() } {
        diagnostics.report(format!("{level}: {text}"));
    }
    vk::FALSE
}
