//! The native objects of a texture one by one: an image with memory of its own or without
//! (to be bound into a shared heap), a view, and their destruction once the GPU is done.

use ash::vk;
use vk_mem::Alloc;
use xnagraph_graph::{BackendError, TextureDesc};

use super::{ImageMemory, Memory, NativeTexture};
use crate::device::Gpu;
use crate::vk_error;

pub(super) fn allocate_image(
    gpu: &Gpu,
    format: vk::Format,
    desc: &TextureDesc,
    layers_levels: (u32, u32),
    samples: vk::SampleCountFlags,
    usage: vk::ImageUsageFlags,
    flags: vk::ImageCreateFlags,
) -> Result<ImageMemory, BackendError> {
    allocate(gpu, &image_info(format, desc, layers_levels, samples, usage, flags))
}

pub(super) fn image_info(
    format: vk::Format,
    desc: &TextureDesc,
    (layers, mip_levels): (u32, u32),
    samples: vk::SampleCountFlags,
    usage: vk::ImageUsageFlags,
    flags: vk::ImageCreateFlags,
) -> vk::ImageCreateInfo<'static> {
    vk::ImageCreateInfo::default()
        .flags(flags)
        .image_type(if desc.is_volume() { vk::ImageType::TYPE_3D } else { vk::ImageType::TYPE_2D })
        .format(format)
        .extent(vk::Extent3D { width: desc.width, height: desc.height, depth: desc.level_depth(0) })
        .mip_levels(mip_levels)
        .array_layers(layers)
        .samples(samples)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage)
        .sharing_mode(vk::SharingMode::EXCLUSIVE)
        .initial_layout(vk::ImageLayout::UNDEFINED)
}

/// An image with memory of its own.
pub(crate) fn allocate(
    gpu: &Gpu,
    info: &vk::ImageCreateInfo<'_>,
) -> Result<ImageMemory, BackendError> {
    let alloc_info = vk_mem::AllocationCreateInfo {
        usage: vk_mem::MemoryUsage::AutoPreferDevice,
        ..Default::default()
    };
    // SAFETY: a valid create info for this device; the allocator outlives the image.
    let (image, alloc) = unsafe { gpu.allocator.create_image(info, &alloc_info) }
        .map_err(|e| vk_error("vmaCreateImage", e))?;
    gpu.diagnostics.object_created();
    crate::device::validation::claim(image, &gpu.diagnostics);
    Ok(ImageMemory { image, memory: Memory::Own(alloc) })
}

/// An image without memory, to be bound into shared memory.
pub(crate) fn unbound_image(
    gpu: &Gpu,
    info: &vk::ImageCreateInfo<'_>,
) -> Result<vk::Image, BackendError> {
    // SAFETY: a valid create info for this device.
    let image =
        unsafe { gpu.device.create_image(info, None) }.map_err(|e| vk_error("vkCreateImage", e))?;
    gpu.diagnostics.object_created();
    crate::device::validation::claim(image, &gpu.diagnostics);
    Ok(image)
}

pub(super) fn create_view(
    gpu: &Gpu,
    image: vk::Image,
    view_type: vk::ImageViewType,
    format: vk::Format,
    components: vk::ComponentMapping,
    range: vk::ImageSubresourceRange,
) -> Result<vk::ImageView, BackendError> {
    let info = vk::ImageViewCreateInfo::default()
        .image(image)
        .view_type(view_type)
        .format(format)
        .components(components)
        .subresource_range(range);
    // SAFETY: `image` is live and the range lies inside it.
    let view = unsafe { gpu.device.create_image_view(&info, None) }
        .map_err(|e| vk_error("vkCreateImageView", e))?;
    gpu.diagnostics.object_created();
    Ok(view)
}

/// Frees every native object of a texture.
///
/// # Safety
/// No pending or executing submission may use the texture.
pub(crate) unsafe fn destroy(gpu: &Gpu, mut t: NativeTexture) {
    let views = t.color_views.iter().chain(&t.msaa_views).chain(&t.depth_views);
    let views = views.chain(&t.depth_aspect_views);
    for view in views.chain(std::iter::once(&t.sampled_view)) {
        if *view != vk::ImageView::null() {
            // SAFETY: the caller guarantees the GPU is done with the view.
            unsafe { gpu.device.destroy_image_view(*view, None) };
            gpu.diagnostics.object_destroyed();
        }
    }
    let memories = [t.color.take(), t.depth.take()].into_iter().flatten();
    for memory in memories.chain(std::mem::take(&mut t.msaa)) {
        // SAFETY: as above.
        unsafe { destroy_image(gpu, memory) };
    }
}

/// Frees one image and, when it has its own, its memory (shared memory is its heap's).
///
/// # Safety
/// No pending or executing submission may use the image.
pub(crate) unsafe fn destroy_image(gpu: &Gpu, memory: ImageMemory) {
    let ImageMemory { image, memory } = memory;
    match memory {
        // SAFETY: the caller's guarantee; the image and allocation came from this allocator
        // together.
        Memory::Own(mut alloc) => unsafe { gpu.allocator.destroy_image(image, &mut alloc) },
        // SAFETY: the caller's guarantee; destroying an image leaves the memory it was bound
        // to (a heap, perhaps already freed) alone.
        Memory::Unbound | Memory::Shared { .. } => unsafe { gpu.device.destroy_image(image, None) },
    }
    crate::device::validation::forget(image);
    gpu.diagnostics.object_destroyed();
}

/// Frees image views.
///
/// # Safety
/// No pending or executing submission may use them.
pub(crate) unsafe fn destroy_views(gpu: &Gpu, views: &[vk::ImageView]) {
    for view in views.iter().filter(|v| **v != vk::ImageView::null()) {
        // SAFETY: the caller's guarantee.
        unsafe { gpu.device.destroy_image_view(*view, None) };
        gpu.diagnostics.object_destroyed();
    }
}
