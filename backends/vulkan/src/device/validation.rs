//! Validation-layer messages, collected per device for tests.
//!
//! When a backend is created with validation on, Khronos' validation layer (with synchronization
//! validation) reports through a debug-utils messenger whose user data is that backend's
//! [`Diagnostics`]. Devices share their instance (see `instance`), and an instance's messengers
//! each hear every message of the instance, so each message is routed by the objects it names:
//! the handles a device registers ([`claim`]: its VkDevice, VkQueue, command buffers, images
//! and buffers) make a message that device's alone; a message naming none of any live device (the
//! instance, an adapter) is reported by every messenger, so it still fails every test alive.
//! Every WARNING and ERROR message that lands in a device's list is emitted as a `tracing`
//! event of the same level (target `xnagraph_vulkan::validation`). Read them through
//! [`crate::VulkanBackend::diagnostics`].

use std::collections::HashMap;
use std::ffi::{c_void, CStr};
use std::sync::Mutex;

use ash::vk;
use xnagraph_graph::Diagnostics;

/// The live devices' dispatchable handles (raw), each with the record of its device.
static OWNERS: Mutex<Option<HashMap<u64, Diagnostics>>> = Mutex::new(None);

/// Makes messages naming `handle` the device's of `diagnostics` alone, until [`forget`] or
/// [`release_all`]: its VkDevice, VkQueue and command buffers, and the images and buffers
/// hazards name (the layer gives every non-dispatchable handle an id unique in the instance).
pub(crate) fn claim(handle: impl vk::Handle, diagnostics: &Diagnostics) {
    let mut owners = OWNERS.lock().unwrap_or_else(|p| p.into_inner());
    owners.get_or_insert_with(HashMap::new).insert(handle.as_raw(), diagnostics.clone());
}

/// Forgets every handle claimed for `diagnostics` (after its device was destroyed).
pub(crate) fn release_all(diagnostics: &Diagnostics) {
    let mut owners = OWNERS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(map) = owners.as_mut() {
        map.retain(|_, d| !d.same_record(diagnostics));
    }
}

/// Forgets `handle` (destroyed), whichever device claimed it.
pub(crate) fn forget(handle: impl vk::Handle) {
    let mut owners = OWNERS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(map) = owners.as_mut() {
        map.remove(&handle.as_raw());
    }
}

/// Whether a message naming `objects` is for the device of `me`: it names one of its handles,
/// or no handle of any live device.
fn addressed_to(objects: &[vk::DebugUtilsObjectNameInfoEXT<'_>], me: &Diagnostics) -> bool {
    let owners = OWNERS.lock().unwrap_or_else(|p| p.into_inner());
    let Some(map) = owners.as_ref() else { return true };
    let mut named_any = false;
    for object in objects {
        if let Some(owner) = map.get(&object.object_handle) {
            if owner.same_record(me) {
                return true;
            }
            named_any = true;
        }
    }
    !named_any
}

/// A messenger reporting warnings and errors into `diagnostics`, which must outlive it.
pub(crate) fn messenger_info(
    diagnostics: &Diagnostics,
) -> vk::DebugUtilsMessengerCreateInfoEXT<'static> {
    vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
        )
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
        )
        .pfn_user_callback(Some(on_message))
        .user_data(std::ptr::from_ref(diagnostics).cast_mut().cast())
}

/// The debug-utils callback: records warnings and errors, never aborts the call.
///
/// `user` is the address of the [`Diagnostics`] the device (or, for the instance's creation
/// and destruction, the shared instance) keeps boxed until after its messenger is destroyed.
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
    // SAFETY: `user` is the boxed `Diagnostics` of the messenger's device or instance, which
    // outlives the messenger.
    let Some(diagnostics) = (unsafe { user.cast::<Diagnostics>().as_ref() }) else {
        return vk::FALSE;
    };
    // SAFETY: the layer passes a valid callback-data pointer (or null) for the duration of the
    // call, with `object_count` objects at `p_objects`.
    let objects = unsafe {
        data.as_ref()
            .filter(|d| !d.p_objects.is_null() && d.object_count > 0)
            .map_or(&[][..], |d| std::slice::from_raw_parts(d.p_objects, d.object_count as usize))
    };
    if !addressed_to(objects, diagnostics) {
        return vk::FALSE;
    }
    // SAFETY: as above; `p_message`, when set, is a NUL-terminated string.
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
    diagnostics.report(format!("{level}: {text}"));
    vk::FALSE
}
