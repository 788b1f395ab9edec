//! VK_EXT_debug_utils names: each texture's native objects carry its name, and each plan node's
//! commands sit inside a label named after the node, so capture tools (RenderDoc, Nsight) and the
//! validation layer's messages show the frame graph. Every function does nothing when the
//! instance lacks the extension.

use std::ffi::CString;

use ash::vk::{self, Handle};

use crate::device::Gpu;
use crate::texture::NativeTexture;

/// `text` as a C string; an interior NUL (which Vulkan cannot carry) becomes a space.
fn c_text(text: &str) -> CString {
    CString::new(text.replace('\0', " ")).unwrap_or_default()
}

fn name_object<T: Handle>(utils: &ash::ext::debug_utils::Device, object: T, name: &str) {
    let name = c_text(name);
    let info = vk::DebugUtilsObjectNameInfoEXT::default().object_handle(object).object_name(&name);
    // SAFETY: `object` is a live handle created from the device `utils` was loaded for. The
    // call fails only when host memory runs out, and a missing name changes nothing the frame
    // does, so its result is not an error of the frame.
    let _ = unsafe { utils.set_debug_utils_object_name(&info) };
}

/// Names every image of `texture` and its sampled view after `name`: the colour image `name`,
/// each multisample image `name samples N`, the depth image `name depth`, the view `name view`.
pub(crate) fn name_texture(gpu: &Gpu, texture: &NativeTexture, name: &str) {
    let Some(utils) = &gpu.debug_utils else { return };
    if let Some(color) = &texture.color {
        name_object(utils, color.image, name);
    }
    for (layer, samples) in texture.msaa.iter().enumerate() {
        name_object(utils, samples.image, &format!("{name} samples {layer}"));
    }
    if let Some(depth) = &texture.depth {
        name_object(utils, depth.image, &format!("{name} depth"));
    }
    if texture.sampled_view != vk::ImageView::null() {
        name_object(utils, texture.sampled_view, &format!("{name} view"));
    }
}

/// Opens a command-buffer label named `text`; [`end_label`] closes it.
pub(crate) fn begin_label(gpu: &Gpu, cmd: vk::CommandBuffer, text: &str) {
    let Some(utils) = &gpu.debug_utils else { return };
    let text = c_text(text);
    let label = vk::DebugUtilsLabelEXT::default().label_name(&text);
    // SAFETY: `cmd` is in the recording state, from this device.
    unsafe { utils.cmd_begin_debug_utils_label(cmd, &label) };
}

/// Closes the label [`begin_label`] opened last on `cmd`.
pub(crate) fn end_label(gpu: &Gpu, cmd: vk::CommandBuffer) {
    let Some(utils) = &gpu.debug_utils else { return };
    // SAFETY: `cmd` is recording and has an open label (paired with `begin_label`).
    unsafe { utils.cmd_end_debug_utils_label(cmd) };
}

/// Names one object of the device (swapchain, its images and views, semaphores).
pub(crate) fn name_handle<T: Handle>(gpu: &Gpu, object: T, name: &str) {
    if let Some(utils) = &gpu.debug_utils {
        name_object(utils, object, name);
    }
}
