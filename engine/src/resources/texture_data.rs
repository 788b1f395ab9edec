//! How a texture's texels move: zero-filled levels for a new texture, whole-level readbacks and
//! uploads recorded into the frame.

use std::sync::Arc;

use xnagraph_graph::{Rect, Slices, TextureDesc, TextureState, Upload};

use crate::device::shared::DeviceShared;
use crate::device::submit::ReadRegion;
use crate::error::Result;
use crate::event::lock;

/// Every level of `desc` as zero bytes (every slice of a volume's level).
pub(crate) fn zeroed_levels(desc: &TextureDesc) -> Vec<Vec<u8>> {
    (0..desc.mip_levels)
        .map(|l| {
            let (w, h) = desc.level_size(l);
            vec![0u8; desc.format.region_size(w, h) * desc.level_depth(l) as usize]
        })
        .collect()
}

/// Records a whole-level upload of zeros to every level of every layer of a new plain texture: a
/// new texture
/// reads back as zero, as the CPU image it starts from (the cull stage drops what a later
/// whole-level `SetData` replaces before any use).
pub(crate) fn record_zero_fill(device: &DeviceShared, state: &Arc<TextureState>) {
    let desc = *state.desc();
    let mut rec = lock(&device.rec);
    for layer in 0..desc.layers {
        for (level, data) in zeroed_levels(&desc).into_iter().enumerate() {
            let level = level as u32;
            let (w, h) = desc.level_size(level);
            rec.builder.upload(Upload {
                image: xnagraph_graph::Image::Color,
                texture: state.clone(),
                level,
                layer,
                rect: Rect::new(0, 0, w as i32, h as i32),
                slices: Slices { front: 0, back: desc.level_depth(level) },
                data,
            });
        }
    }
}

/// Every level of `state` read back in one flush, except `skip`, which is left zero-filled.
pub(crate) fn read_levels_except(
    device: &DeviceShared,
    state: &Arc<TextureState>,
    skip: u32,
) -> Result<Vec<Vec<u8>>> {
    let desc = *state.desc();
    let regions: Vec<ReadRegion> = (0..desc.mip_levels)
        .filter(|&l| l != skip)
        .map(|level| {
            let (w, h) = desc.level_size(level);
            ReadRegion {
                image: xnagraph_graph::Image::Color,
                texture: state.clone(),
                level,
                layer: 0,
                rect: Rect::new(0, 0, w as i32, h as i32),
                slices: Slices::FLAT,
            }
        })
        .collect();
    let mut read =
        if regions.is_empty() { Vec::new() } else { device.read_back_all(regions)? }.into_iter();
    Ok((0..desc.mip_levels)
        .map(|l| {
            let (w, h) = desc.level_size(l);
            if l == skip {
                vec![0; desc.format.region_size(w, h)]
            } else {
                read.next().unwrap_or_default()
            }
        })
        .collect())
}

/// Records an upload of `data` into `rect` of one 2D subresource (a level of a layer).
pub(crate) fn record_upload(
    device: &DeviceShared,
    state: &Arc<TextureState>,
    (level, layer): (u32, u32),
    rect: Rect,
    data: Vec<u8>,
) {
    lock(&device.rec).builder.upload(Upload {
        image: xnagraph_graph::Image::Color,
        texture: state.clone(),
        level,
        layer,
        rect,
        slices: Slices::FLAT,
        data,
    });
}
