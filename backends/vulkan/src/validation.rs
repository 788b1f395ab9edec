//! Validation-layer messages, collected for tests.
//!
//! When a backend is created with validation on, Khronos' validation layer (with synchronization
//! validation) reports through a debug-utils messenger. Every WARNING and ERROR message lands in
//! one process-wide list; [`take_messages`] empties it and [`messages_so_far`] counts what has
//! been reported since the process started. Tests assert the list is empty at their end.

use std::ffi::{c_void, CStr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ash::vk;

static MESSAGES: Mutex<Vec<String>> = Mutex::new(Vec::new());
static TOTAL: AtomicUsize = AtomicUsize::new(0);

/// Takes every warning and error reported since the last call.
pub fn take_messages() -> Vec<String> {
    std::mem::take(&mut *MESSAGES.lock().unwrap_or_else(|p| p.into_inner()))
}

/// How many warnings and errors have been reported in this process, taken or not.
pub fn messages_so_far() -> usize {
    TOTAL.load(Ordering::Relaxed)
}

fn record(message: String) {
    TOTAL.fetch_add(1, Ordering::Relaxed);
    MESSAGES.lock().unwrap_or_else(|p| p.into_inner()).push(message);
}

/// The debug-utils callback: records warnings and errors, never aborts the call.
pub(crate) unsafe extern "system" fn on_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    _user: *mut c_void,
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
        "error"
    } else {
        "warning"
    };
    eprintln!("vulkan validation {level}: {text}");
    record(format!("{level}: {text}"));
    vk::FALSE
}
