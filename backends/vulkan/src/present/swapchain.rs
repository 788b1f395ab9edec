//! One swapchain: its creation for a surface (format, image count, present mode, usage) and
//! its destruction with what belongs to each image (a view and a render-finished semaphore).
//! The choices it makes are the mechanism's: an 8-bit UNORM surface format when offered (the
//! values an XNA `Color` back buffer holds), FIFO unless presents should not wait for the
//! retrace (MAILBOX, else IMMEDIATE), one image more than the surface's minimum.

use ash::vk;
use xnagraph_graph::{BackendError, SurfaceFormat, SwapchainDesc};

use super::PresentPacing;
use crate::debug_names;
use crate::device::Gpu;
use crate::vk_error;

/// One swapchain and what belongs to each of its images.
pub(super) struct Chain {
    pub handle: vk::SwapchainKHR,
    pub images: Vec<vk::Image>,
    pub views: Vec<vk::ImageView>,
    /// Signalled by the submission that finishes an image's frame; waited by its present.
    pub render_finished: Vec<vk::Semaphore>,
    pub format: vk::Format,
    pub extent: vk::Extent2D,
    pub mode: vk::PresentModeKHR,
    pub desc: SwapchainDesc,
}

/// The XNA format whose values `format` stores unchanged when drawn into.
fn xna_format(format: vk::Format) -> Option<SurfaceFormat> {
    match format {
        vk::Format::B8G8R8A8_UNORM | vk::Format::R8G8B8A8_UNORM => Some(SurfaceFormat::Color),
        _ => None,
    }
}

/// The surface format: 8-bit UNORM (the values XNA's `Color` back buffer holds) when offered.
fn choose_format(formats: &[vk::SurfaceFormatKHR]) -> Option<vk::SurfaceFormatKHR> {
    formats.iter().find(|f| xna_format(f.format).is_some()).or_else(|| formats.first()).copied()
}

/// The present mode for `pacing` among those the surface offers.
pub(super) fn choose_mode(
    pacing: PresentPacing,
    offered: &[vk::PresentModeKHR],
) -> vk::PresentModeKHR {
    let preference: &[vk::PresentModeKHR] = match pacing {
        PresentPacing::VerticalSync => &[],
        PresentPacing::Immediate => &[vk::PresentModeKHR::MAILBOX, vk::PresentModeKHR::IMMEDIATE],
    };
    preference.iter().copied().find(|m| offered.contains(m)).unwrap_or(vk::PresentModeKHR::FIFO)
}

/// Why the swapchain is (re)created, for the log.
#[derive(Debug)]
pub(super) enum Reason {
    First,
    Resized,
    OutOfDate,
    Pacing,
}

impl Chain {
    /// A swapchain for `surface` of `extent` presenting in `mode`, replacing `old` (which the
    /// caller destroys afterwards).
    pub fn create(
        gpu: &Gpu,
        loader: &ash::khr::swapchain::Device,
        (surface_loader, surface): (&ash::khr::surface::Instance, vk::SurfaceKHR),
        caps: vk::SurfaceCapabilitiesKHR,
        extent: vk::Extent2D,
        mode: vk::PresentModeKHR,
        old: vk::SwapchainKHR,
    ) -> Result<Chain, BackendError> {
        // SAFETY: the surface and adapter belong to this instance.
        let formats =
            unsafe { surface_loader.get_physical_device_surface_formats(gpu.physical, surface) }
                .map_err(|e| vk_error("vkGetPhysicalDeviceSurfaceFormatsKHR", e))?;
        let format = choose_format(&formats)
            .ok_or_else(|| BackendError::NotSupported("the surface offers no format".into()))?;
        let mut count = caps.min_image_count + 1;
        if caps.max_image_count > 0 {
            count = count.min(caps.max_image_count);
        }
        let alpha = [
            vk::CompositeAlphaFlagsKHR::OPAQUE,
            vk::CompositeAlphaFlagsKHR::INHERIT,
            vk::CompositeAlphaFlagsKHR::PRE_MULTIPLIED,
            vk::CompositeAlphaFlagsKHR::POST_MULTIPLIED,
        ]
        .into_iter()
        .find(|a| caps.supported_composite_alpha.contains(*a))
        .unwrap_or(vk::CompositeAlphaFlagsKHR::OPAQUE);
        // Drawn into, blitted into, and read back (GetBackBufferData before Present).
        let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT
            | vk::ImageUsageFlags::TRANSFER_DST
            | vk::ImageUsageFlags::TRANSFER_SRC;
        if !caps.supported_usage_flags.contains(usage) {
            return Err(BackendError::NotSupported(format!(
                "the surface's images cannot be {usage:?}"
            )));
        }
        let info = vk::SwapchainCreateInfoKHR::default()
            .surface(surface)
            .min_image_count(count)
            .image_format(format.format)
            .image_color_space(format.color_space)
            .image_extent(extent)
            .image_array_layers(1)
            .image_usage(usage)
            .image_sharing_mode(vk::SharingMode::EXCLUSIVE)
            .pre_transform(caps.current_transform)
            .composite_alpha(alpha)
            .present_mode(mode)
            .clipped(true)
            .old_swapchain(old);
        // SAFETY: a valid create info; the old swapchain is idle (waited above).
        let handle = unsafe { loader.create_swapchain(&info, None) }
            .map_err(|e| vk_error("vkCreateSwapchainKHR", e))?;
        gpu.diagnostics.object_created();
        let mut chain = Chain {
            handle,
            images: Vec::new(),
            views: Vec::new(),
            render_finished: Vec::new(),
            format: format.format,
            extent,
            mode,
            desc: SwapchainDesc {
                width: extent.width,
                height: extent.height,
                format: xna_format(format.format),
                resolve_target: false,
            },
        };
        // SAFETY: the swapchain was just created.
        match unsafe { loader.get_swapchain_images(handle) } {
            Ok(images) => chain.images = images,
            Err(e) => {
                // SAFETY: nothing uses the new swapchain yet.
                unsafe { chain.destroy(gpu, loader) };
                return Err(vk_error("vkGetSwapchainImagesKHR", e));
            }
        }
        debug_names::name_handle(gpu, handle, "swapchain");
        for (i, &image) in chain.images.iter().enumerate() {
            let view_info = vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(format.format)
                .subresource_range(vk::ImageSubresourceRange {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    base_mip_level: 0,
                    level_count: 1,
                    base_array_layer: 0,
                    layer_count: 1,
                });
            // SAFETY: valid create infos for images of this device's swapchain.
            let created = unsafe {
                gpu.device.create_image_view(&view_info, None).and_then(|v| {
                    gpu.device
                        .create_semaphore(&vk::SemaphoreCreateInfo::default(), None)
                        .map(|s| (v, s))
                        .inspect_err(|_| gpu.device.destroy_image_view(v, None))
                })
            };
            let (view, semaphore) = match created {
                Ok(c) => c,
                Err(e) => {
                    // SAFETY: nothing uses the new swapchain yet.
                    unsafe { chain.destroy(gpu, loader) };
                    return Err(vk_error("vkCreateImageView", e));
                }
            };
            gpu.diagnostics.object_created();
            gpu.diagnostics.object_created();
            debug_names::name_handle(gpu, image, &format!("swapchain image {i}"));
            debug_names::name_handle(gpu, view, &format!("swapchain image {i} view"));
            debug_names::name_handle(
                gpu,
                semaphore,
                &format!("swapchain image {i} render finished"),
            );
            chain.views.push(view);
            chain.render_finished.push(semaphore);
        }
        Ok(chain)
    }

    /// # Safety
    /// The device must be idle (no submission or present uses the chain's objects).
    pub unsafe fn destroy(self, gpu: &Gpu, loader: &ash::khr::swapchain::Device) {
        for (&view, &semaphore) in self.views.iter().zip(&self.render_finished) {
            // SAFETY: idle device (caller's contract).
            unsafe {
                gpu.device.destroy_image_view(view, None);
                gpu.device.destroy_semaphore(semaphore, None);
            }
            gpu.diagnostics.object_destroyed();
            gpu.diagnostics.object_destroyed();
        }
        // SAFETY: idle device; the images belong to the swapchain.
        unsafe { loader.destroy_swapchain(self.handle, None) };
        gpu.diagnostics.object_destroyed();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn present_interval_picks_fifo_or_mailbox_then_immediate() {
        use vk::PresentModeKHR as M;
        let all = [M::IMMEDIATE, M::MAILBOX, M::FIFO, M::FIFO_RELAXED];
        assert_eq!(choose_mode(PresentPacing::VerticalSync, &all), M::FIFO);
        assert_eq!(choose_mode(PresentPacing::Immediate, &all), M::MAILBOX);
        assert_eq!(choose_mode(PresentPacing::Immediate, &[M::FIFO, M::IMMEDIATE]), M::IMMEDIATE);
        assert_eq!(choose_mode(PresentPacing::Immediate, &[M::FIFO]), M::FIFO);
    }

    #[test]
    fn only_8_bit_unorm_surfaces_stand_for_a_color_back_buffer() {
        assert_eq!(xna_format(vk::Format::B8G8R8A8_UNORM), Some(SurfaceFormat::Color));
        assert_eq!(xna_format(vk::Format::R8G8B8A8_UNORM), Some(SurfaceFormat::Color));
        assert_eq!(xna_format(vk::Format::B8G8R8A8_SRGB), None);
        let srgb_first = [
            vk::SurfaceFormatKHR { format: vk::Format::B8G8R8A8_SRGB, ..Default::default() },
            vk::SurfaceFormatKHR { format: vk::Format::B8G8R8A8_UNORM, ..Default::default() },
        ];
        assert_eq!(choose_format(&srgb_first).map(|f| f.format), Some(vk::Format::B8G8R8A8_UNORM));
    }
}
