//! Transfers: uploads, readbacks, mip cascades and image clears.
//!
//! In: an [`Upload`] (tightly packed bytes of one region of one subresource, slice after slice
//! for a volume's box) or a [`Readback`] (one region of one subresource) of the `Color` image
//! (those of a depth/stencil or sample image, the capture planes, are handed to
//! [`crate::capture`]), a mipmapped target's layer, or
//! [`ImageClear`]s (whole subresources of any image). Out: a buffer→image copy through the
//! frame's staging buffer; an image→buffer copy into a fresh host-visible buffer whose bytes the
//! backend hands out after the fence; a blit cascade level i-1 → i with each finished level
//! moved from TransferWrite to TransferRead through the access table; vkCmdClearColorImage or
//! vkCmdClearDepthStencilImage (every aspect of the depth format) per clear. The plan has
//! already put every subresource in the layout its node needs.

use ash::vk;
use xnagraph_graph::{
    Access, BackendError, ClearValue, Image, ImageClear, NativeHandle, Readback, Rect, Slices,
    TextureDesc, Upload,
};

use crate::frame::{HostBuffer, PendingReadback};
use crate::record::Recorder;
use crate::sync::{host_read_barrier, image_barrier, layout, record_image_barriers};

/// Checks that `rect` × `slices` of `level`/`layer` lies inside the texture; returns its offset
/// and extent (the z range is the box's depth slices, for a volume).
fn region(
    desc: &TextureDesc,
    level: u32,
    layer: u32,
    rect: Rect,
    slices: Slices,
) -> Result<(vk::Offset3D, vk::Extent3D), BackendError> {
    let (w, h) = desc.level_size(level);
    let inside = level < desc.mip_levels
        && layer < desc.layers
        && slices.front < slices.back
        && slices.back <= desc.level_depth(level)
        && i32::try_from(slices.back).is_ok()
        && rect.x >= 0
        && rect.y >= 0
        && rect.width > 0
        && rect.height > 0
        && i64::from(rect.x) + i64::from(rect.width) <= i64::from(w)
        && i64::from(rect.y) + i64::from(rect.height) <= i64::from(h);
    if !inside {
        return Err(BackendError::Native(format!(
            "region {rect:?} {slices:?} of level {level} layer {layer} lies outside a {w}x{h}x{} \
             level",
            desc.level_depth(level)
        )));
    }
    // Block-compressed copies start on a block and cover whole blocks unless they reach the
    // level's edge.
    let b = desc.format.block_edge() as i32;
    let aligned = |start: i32, len: i32, edge: u32| {
        start % b == 0 && (len % b == 0 || i64::from(start) + i64::from(len) == i64::from(edge))
    };
    if !aligned(rect.x, rect.width, w) || !aligned(rect.y, rect.height, h) {
        return Err(BackendError::Native(format!(
            "region {rect:?} is not aligned to {:?}'s {b}x{b} blocks",
            desc.format
        )));
    }
    Ok((
        vk::Offset3D { x: rect.x, y: rect.y, z: slices.front as i32 },
        vk::Extent3D {
            width: rect.width as u32,
            height: rect.height as u32,
            depth: slices.count(),
        },
    ))
}

/// Whether `texture` is a multisampled target (its depth moves as sample planes).
fn multisampled(texture: &xnagraph_graph::TextureState) -> bool {
    texture.desc().render_target.is_some_and(|rt| rt.is_multisampled())
}

fn copy_region(
    buffer_offset: u64,
    level: u32,
    layer: u32,
    offset: vk::Offset3D,
    extent: vk::Extent3D,
) -> vk::BufferImageCopy {
    vk::BufferImageCopy {
        buffer_offset,
        buffer_row_length: 0,
        buffer_image_height: 0,
        image_subresource: vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: level,
            base_array_layer: layer,
            layer_count: 1,
        },
        image_offset: offset,
        image_extent: extent,
    }
}

pub(crate) fn record_upload(rec: &mut Recorder<'_>, upload: &Upload) -> Result<(), BackendError> {
    match upload.image {
        Image::Color => {}
        Image::Samples => return crate::capture::samples::record_samples_upload(rec, upload),
        Image::DepthStencil if multisampled(&upload.texture) => {
            return crate::capture::depth_samples::record_depth_samples_upload(rec, upload)
        }
        Image::DepthStencil => return crate::capture::depth::record_depth_upload(rec, upload),
    }
    let texture = rec.textures.get(upload.texture.native())?;
    let desc = &texture.desc;
    let (offset, extent) = region(desc, upload.level, upload.layer, upload.rect, upload.slices)?;
    let expected = desc.format.region_size(extent.width, extent.height) * extent.depth as usize;
    if upload.data.len() != expected {
        return Err(BackendError::Native(format!(
            "upload of {} bytes for a region of {expected}",
            upload.data.len()
        )));
    }
    let (staging, at) = rec.stage(&upload.data)?;
    let image = texture.color.as_ref().map(|m| m.image).unwrap_or_default();
    let copy = copy_region(at, upload.level, upload.layer, offset, extent);
    // SAFETY: recording outside rendering; the staging range was written above and the plan put
    // the subresource in TRANSFER_DST layout.
    unsafe {
        rec.gpu.device.cmd_copy_buffer_to_image(
            rec.cmd,
            staging,
            image,
            layout(Access::TransferWrite),
            &[copy],
        )
    };
    Ok(())
}

pub(crate) fn record_readback(
    rec: &mut Recorder<'_>,
    readback: &Readback,
) -> Result<(), BackendError> {
    match readback.image {
        Image::Color => {}
        Image::Samples => return crate::capture::samples::record_samples_readback(rec, readback),
        Image::DepthStencil if multisampled(&readback.texture) => {
            return crate::capture::depth_samples::record_depth_samples_readback(rec, readback)
        }
        Image::DepthStencil => return crate::capture::depth::record_depth_readback(rec, readback),
    }
    let texture = rec.textures.get(readback.texture.native())?;
    let desc = &texture.desc;
    let (offset, extent) =
        region(desc, readback.level, readback.layer, readback.rect, readback.slices)?;
    let len = desc.format.region_size(extent.width, extent.height) * extent.depth as usize;
    let copy = copy_region(0, readback.level, readback.layer, offset, extent);
    let image = texture.image(Image::Color, 0).map(|(image, _)| image).unwrap_or_default();
    let swap_red_blue = texture.presenting.is_some_and(|p| p.swap_red_blue);
    // The plan put the subresource in TRANSFER_SRC layout.
    let buffer = copy_to_host(rec, image, &[copy], len)?;
    rec.readbacks.push(PendingReadback {
        id: readback.id,
        buffer,
        len,
        swap_red_blue,
        depth: None,
    });
    Ok(())
}

/// Records the copy of `regions` of `image`, which must be in the transfer-source layout, into
/// a fresh host-readable buffer of `len` bytes, then the barrier that makes the bytes visible to
/// the host; the caller queues the buffer as a pending readback.
pub(crate) fn copy_to_host(
    rec: &mut Recorder<'_>,
    image: vk::Image,
    regions: &[vk::BufferImageCopy],
    len: usize,
) -> Result<HostBuffer, BackendError> {
    let buffer = HostBuffer::new(rec.gpu, len as u64, vk::BufferUsageFlags::TRANSFER_DST, true)?;
    let host = [host_read_barrier(buffer.buffer)];
    let dependency = vk::DependencyInfo::default().buffer_memory_barriers(&host);
    // SAFETY: recording outside rendering; the caller's image is in TRANSFER_SRC layout and the
    // buffer is fresh.
    unsafe {
        rec.gpu.device.cmd_copy_image_to_buffer(
            rec.cmd,
            image,
            layout(Access::TransferRead),
            buffer.buffer,
            regions,
        );
        rec.gpu.device.cmd_pipeline_barrier2(rec.cmd, &dependency);
    }
    Ok(buffer)
}

pub(crate) fn record_mips(
    rec: &mut Recorder<'_>,
    handle: NativeHandle,
    layer: u32,
) -> Result<(), BackendError> {
    let texture = rec.textures.get(handle)?;
    let desc = texture.desc;
    if layer >= desc.layers {
        return Err(BackendError::Native(format!(
            "mip cascade of layer {layer} of {}",
            desc.layers
        )));
    }
    let filter = rec.formats.mip_filter(desc.format).ok_or_else(|| {
        BackendError::NotSupported(format!(
            "generating mips of {:?} (no blit support)",
            desc.format
        ))
    })?;
    let image = texture.color.as_ref().map(|m| m.image).unwrap_or_default();
    let device = &rec.gpu.device;
    let corner = |level: u32| {
        let (w, h) = desc.level_size(level);
        [vk::Offset3D { x: 0, y: 0, z: 0 }, vk::Offset3D { x: w as i32, y: h as i32, z: 1 }]
    };
    let layers = |level: u32| vk::ImageSubresourceLayers {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        mip_level: level,
        base_array_layer: layer,
        layer_count: 1,
    };
    for level in 1..desc.mip_levels {
        let blit = vk::ImageBlit {
            src_subresource: layers(level - 1),
            src_offsets: corner(level - 1),
            dst_subresource: layers(level),
            dst_offsets: corner(level),
        };
        // SAFETY: recording outside rendering; level-1 is in TRANSFER_SRC (the plan's barrier or
        // the previous step) and `level` in TRANSFER_DST (the plan's barrier).
        unsafe {
            device.cmd_blit_image(
                rec.cmd,
                image,
                layout(Access::TransferRead),
                image,
                layout(Access::TransferWrite),
                &[blit],
                filter,
            )
        };
        let range = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: level,
            level_count: 1,
            base_array_layer: layer,
            layer_count: 1,
        };
        let step = image_barrier(image, range, Access::TransferWrite, Access::TransferRead, false);
        record_image_barriers(device, rec.cmd, &[step]);
    }
    Ok(())
}

pub(crate) fn record_clears(
    rec: &mut Recorder<'_>,
    clears: &[ImageClear],
) -> Result<(), BackendError> {
    for c in clears {
        let texture = rec.textures.get(c.texture.native())?;
        let levels = if c.image == Image::Color { texture.desc.mip_levels } else { 1 };
        if c.level >= levels || c.layer >= texture.desc.layers {
            return Err(BackendError::Native(format!(
                "clear of level {} layer {} outside the {:?} image",
                c.level, c.layer, c.image
            )));
        }
        let (image, layer) = texture.image(c.image, c.layer).ok_or_else(|| {
            BackendError::Native(format!("clear names a missing {:?} image", c.image))
        })?;
        let range = vk::ImageSubresourceRange {
            aspect_mask: texture.aspect(c.image),
            base_mip_level: c.level,
            level_count: 1,
            base_array_layer: layer,
            layer_count: 1,
        };
        let dst = layout(Access::TransferWrite);
        match (c.image, c.value) {
            (Image::Color | Image::Samples, ClearValue::Color(float32)) => {
                let value = vk::ClearColorValue { float32 };
                // SAFETY: recording outside rendering; the plan put the subresource in
                // TRANSFER_DST layout and the image was created with TRANSFER_DST usage.
                unsafe {
                    rec.gpu.device.cmd_clear_color_image(rec.cmd, image, dst, &value, &[range])
                };
            }
            (Image::DepthStencil, ClearValue::DepthStencil { depth, stencil }) => {
                let value = vk::ClearDepthStencilValue { depth, stencil };
                // SAFETY: as above.
                unsafe {
                    rec.gpu.device.cmd_clear_depth_stencil_image(
                        rec.cmd,
                        image,
                        dst,
                        &value,
                        &[range],
                    )
                };
            }
            (image, _) => {
                return Err(BackendError::Native(format!(
                    "malformed plan: clear value of the wrong kind for the {image:?} image"
                )))
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use xnagraph_graph::SurfaceFormat;

    fn flat(
        desc: &TextureDesc,
        level: u32,
        layer: u32,
        rect: Rect,
    ) -> Result<(vk::Offset3D, vk::Extent3D), BackendError> {
        region(desc, level, layer, rect, Slices::FLAT)
    }

    #[test]
    fn a_volume_box_is_its_slices_of_the_level() {
        let desc = TextureDesc::volume(8, 8, 4, 2, SurfaceFormat::Color);
        let rect = Rect::new(1, 2, 3, 4);
        let (offset, extent) = region(&desc, 0, 0, rect, Slices { front: 1, back: 3 }).unwrap();
        assert_eq!((offset.z, extent.depth), (1, 2));
        assert!(region(&desc, 1, 0, Rect::new(0, 0, 4, 4), Slices { front: 1, back: 2 }).is_ok());
        assert!(region(&desc, 1, 0, Rect::new(0, 0, 4, 4), Slices { front: 1, back: 3 }).is_err());
        assert!(region(&desc, 0, 0, rect, Slices { front: 2, back: 2 }).is_err());
    }

    #[test]
    fn block_compressed_regions_must_cover_whole_blocks() {
        let desc = TextureDesc::texture_2d(10, 10, 1, SurfaceFormat::Dxt1);
        assert!(flat(&desc, 0, 0, Rect::new(0, 0, 8, 8)).is_ok());
        assert!(flat(&desc, 0, 0, Rect::new(8, 8, 2, 2)).is_ok(), "reaches the edge");
        assert!(flat(&desc, 0, 0, Rect::new(2, 0, 4, 4)).is_err());
        assert!(flat(&desc, 0, 0, Rect::new(0, 0, 6, 4)).is_err());
    }

    #[test]
    fn regions_outside_the_level_are_rejected() {
        let desc = TextureDesc::texture_2d(8, 8, 2, SurfaceFormat::Color);
        assert!(flat(&desc, 1, 0, Rect::new(0, 0, 4, 4)).is_ok());
        assert!(flat(&desc, 1, 0, Rect::new(0, 0, 5, 4)).is_err());
        assert!(flat(&desc, 2, 0, Rect::new(0, 0, 1, 1)).is_err());
        assert!(flat(&desc, 0, 1, Rect::new(0, 0, 1, 1)).is_err());
    }
}
