//! Transfers of a render target's depth/stencil image: the content a capture's snapshot holds.
//!
//! In: an [`Upload`] or [`Readback`] of [`Image::DepthStencil`] (level 0, layer 0, the whole level
//! of a single-sample target) in the backend-neutral encoding of [`depth_stencil_size`]: every
//! texel's depth as an `f32`, then every texel's stencil byte when the format has one. Out: a
//! buffer↔image copy per aspect (DEPTH, then STENCIL), in the layout Vulkan defines for each aspect
//! of the native format (D16: 16-bit words; X8_D24 and D24S8: 32-bit words with the depth in the
//! low 24 bits; D32: `f32`; stencil: one byte), with the conversion to and from the encoding done
//! on the CPU by the graph crate's [`DepthTexels`] (when the upload is staged, and when the
//! readback's bytes are taken after its fence). The plan has already put the image in the layout
//! the copy needs.

use ash::vk;
use xnagraph_graph::{
    depth_stencil_size, Access, BackendError, DepthFormat, DepthTexels, Image, Readback, Rect,
    Slices, Upload,
};

use crate::frame::PendingReadback;
use crate::record::Recorder;
use crate::sync::layout;
use crate::texture::NativeTexture;
use crate::transfer::copy_to_host;

/// Where the copies of a depth/stencil image put each aspect in a buffer, and how to convert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DepthLayout {
    format: vk::Format,
    texels: usize,
    /// Byte offset of the stencil bytes, when the format has a stencil.
    stencil_at: Option<usize>,
    /// The depths were sampled (`crate::capture::depth_samples`): `f32`s as the device converts the
    /// format's values, rounded back to the format's steps when decoded.
    sampled: bool,
}

impl DepthLayout {
    fn new(format: vk::Format, texels: usize) -> Self {
        let depth_bytes = texels * texels_of(format).bytes();
        let stencil =
            matches!(format, vk::Format::D24_UNORM_S8_UINT | vk::Format::D32_SFLOAT_S8_UINT);
        // A depth/stencil copy's buffer offset must be a multiple of 4.
        let stencil_at = stencil.then(|| depth_bytes.next_multiple_of(4));
        DepthLayout { format, texels, stencil_at, sampled: false }
    }

    /// The layout of sampled depth planes of `format` (an `f32` per texel, then a stencil byte
    /// per texel when the format has one): decoding rounds each depth to the nearest value the
    /// format holds, as the copy of a single-sample image reads it, so both give one encoding.
    pub fn sampled(format: vk::Format, texels: usize) -> Self {
        let stencil =
            matches!(format, vk::Format::D24_UNORM_S8_UINT | vk::Format::D32_SFLOAT_S8_UINT);
        DepthLayout { format, texels, stencil_at: stencil.then_some(texels * 4), sampled: true }
    }

    /// Bytes of the native copy.
    fn native_len(&self) -> usize {
        match self.stencil_at {
            Some(at) => at + self.texels,
            None => self.texels * texels_of(self.format).bytes(),
        }
    }

    /// The native copy's bytes as the neutral encoding.
    pub fn decode(&self, native: &[u8]) -> Vec<u8> {
        let texels = texels_of(self.format);
        let mut out = if self.sampled {
            texels.requantize(&native[..self.texels * 4])
        } else {
            texels.decode(&native[..self.texels * texels.bytes()])
        };
        if let Some(at) = self.stencil_at {
            out.extend_from_slice(&native[at..at + self.texels]);
        }
        out
    }

    /// The neutral encoding as the native copy's bytes.
    fn encode(&self, neutral: &[u8]) -> Vec<u8> {
        let mut out = texels_of(self.format).encode(&neutral[..self.texels * 4]);
        out.resize(self.native_len(), 0);
        if let Some(at) = self.stencil_at {
            let stencil = neutral.get(self.texels * 4..).unwrap_or_default();
            out[at..at + self.texels].copy_from_slice(&stencil[..self.texels]);
        }
        out
    }

    /// One copy region per aspect.
    fn regions(&self, buffer_offset: u64, extent: vk::Extent3D) -> Vec<vk::BufferImageCopy> {
        let region = |offset: u64, aspect_mask| vk::BufferImageCopy {
            buffer_offset: buffer_offset + offset,
            buffer_row_length: 0,
            buffer_image_height: 0,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: 1,
            },
            image_offset: vk::Offset3D::default(),
            image_extent: extent,
        };
        let mut regions = vec![region(0, vk::ImageAspectFlags::DEPTH)];
        if let Some(at) = self.stencil_at {
            regions.push(region(at as u64, vk::ImageAspectFlags::STENCIL));
        }
        regions
    }
}

/// The layout of `format`'s depth aspect texels in a buffer copy.
fn texels_of(format: vk::Format) -> DepthTexels {
    match format {
        vk::Format::D16_UNORM => DepthTexels::Unorm16,
        vk::Format::D32_SFLOAT | vk::Format::D32_SFLOAT_S8_UINT => DepthTexels::Float32,
        // X8_D24 and D24S8: the 24 low bits hold the depth; the high 8 are undefined.
        _ => DepthTexels::Unorm24In32,
    }
}

/// Checks that a depth/stencil transfer names the whole single-sample depth image; returns its
/// image, copy layout, extent and the target's depth format.
fn whole_depth(
    texture: &NativeTexture,
    level: u32,
    layer: u32,
    rect: Rect,
    slices: Slices,
) -> Result<(vk::Image, DepthLayout, vk::Extent3D, DepthFormat), BackendError> {
    let desc = &texture.desc;
    let depth = desc.render_target.map_or(DepthFormat::None, |rt| rt.depth);
    let (w, h) = desc.level_size(0);
    let image = texture.image(Image::DepthStencil, 0).map(|(image, _)| image);
    let Some(image) = image.filter(|_| depth != DepthFormat::None) else {
        return Err(BackendError::Native(
            "a depth/stencil transfer of a texture without one".into(),
        ));
    };
    if texture.samples != vk::SampleCountFlags::TYPE_1 {
        return Err(BackendError::NotSupported(
            "a copy of a multisampled depth/stencil image (its samples are drawn: \
             crate::capture::depth_samples)"
                .into(),
        ));
    }
    if (level, layer, rect, slices) != (0, 0, Rect::new(0, 0, w as i32, h as i32), Slices::FLAT) {
        return Err(BackendError::Native(format!(
            "a depth/stencil transfer covers the whole {w}x{h} image, not {rect:?} of level \
             {level} layer {layer}"
        )));
    }
    let layout = DepthLayout::new(texture.depth_format, w as usize * h as usize);
    Ok((image, layout, vk::Extent3D { width: w, height: h, depth: 1 }, depth))
}

pub(crate) fn record_depth_upload(
    rec: &mut Recorder<'_>,
    upload: &Upload,
) -> Result<(), BackendError> {
    let texture = rec.textures.get(upload.texture.native())?;
    let (image, layout_of, extent, depth) =
        whole_depth(texture, upload.level, upload.layer, upload.rect, upload.slices)?;
    let expected = depth_stencil_size(depth, extent.width, extent.height);
    if upload.data.len() != expected {
        return Err(BackendError::Native(format!(
            "depth/stencil upload of {} bytes for an image of {expected}",
            upload.data.len()
        )));
    }
    let native = layout_of.encode(&upload.data);
    let (staging, at) = rec.stage(&native)?;
    let regions = layout_of.regions(at, extent);
    // SAFETY: recording outside rendering; the staging range was written above and the plan put
    // the image in TRANSFER_DST layout.
    unsafe {
        rec.gpu.device.cmd_copy_buffer_to_image(
            rec.cmd,
            staging,
            image,
            layout(Access::TransferWrite),
            &regions,
        )
    };
    Ok(())
}

pub(crate) fn record_depth_readback(
    rec: &mut Recorder<'_>,
    readback: &Readback,
) -> Result<(), BackendError> {
    let texture = rec.textures.get(readback.texture.native())?;
    let (image, layout_of, extent, _) =
        whole_depth(texture, readback.level, readback.layer, readback.rect, readback.slices)?;
    let len = layout_of.native_len();
    // The plan put the image in TRANSFER_SRC layout.
    let buffer = copy_to_host(rec, image, &layout_of.regions(0, extent), len)?;
    rec.readbacks.push(PendingReadback {
        id: readback.id,
        buffer,
        len,
        swap_red_blue: false,
        depth: Some(layout_of),
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neutral(depths: &[f32], stencil: &[u8]) -> Vec<u8> {
        let mut bytes: Vec<u8> = depths.iter().flat_map(|d| d.to_le_bytes()).collect();
        bytes.extend_from_slice(stencil);
        bytes
    }

    #[test]
    fn every_24_bit_depth_survives_the_f32_encoding() {
        let layout = DepthLayout::new(vk::Format::X8_D24_UNORM_PACK32, 1);
        for v in (0..=0x00FF_FFFFu32).step_by(7).chain([0x00FF_FFFF, 0x0080_0000, 1]) {
            let native = v.to_le_bytes();
            let back = layout.encode(&layout.decode(&native));
            assert_eq!(u32::from_le_bytes(back[..4].try_into().unwrap()), v);
        }
    }

    #[test]
    fn the_stencil_follows_the_depth_words_on_a_four_byte_boundary() {
        let d16 = DepthLayout::new(vk::Format::D16_UNORM, 3);
        assert_eq!((d16.stencil_at, d16.native_len()), (None, 6));
        let d24s8 = DepthLayout::new(vk::Format::D24_UNORM_S8_UINT, 3);
        assert_eq!((d24s8.stencil_at, d24s8.native_len()), (Some(12), 15));
        let bytes = neutral(&[0.0, (4_194_304.0 / 16_777_215.0) as f32, 1.0], &[1, 2, 200]);
        let native = d24s8.encode(&bytes);
        assert_eq!(&native[12..], [1, 2, 200]);
        assert_eq!(u32::from_le_bytes(native[8..12].try_into().unwrap()), 0x00FF_FFFF);
        assert_eq!(d24s8.decode(&native), bytes);
        let d32s8 = DepthLayout::new(vk::Format::D32_SFLOAT_S8_UINT, 3);
        let bytes = neutral(&[0.25, 0.123_456_79, 0.999], &[9, 8, 7]);
        assert_eq!(d32s8.decode(&d32s8.encode(&bytes)), bytes);
    }
}
