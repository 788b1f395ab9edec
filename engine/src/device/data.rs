//! The checks every data path shares, and reading a region back.
//!
//! In: a texture's description and the caller's level, rectangle, element type, start index
//! and count. Out: the validated subresource region and the byte range of the caller's data
//! it covers, or the `XnaError` XNA names (a level out of range, a rectangle outside the level,
//! an element size that does not divide the format's, a count
//! that does not match the region; a rectangle in a block-compressed format is first rounded
//! out to the 4×4 blocks it touches). `SetData` and `GetData` of every texture kind, and
//! `GetBackBufferData`, go through these functions.

use std::sync::Arc;

use bytemuck::Pod;
use xnagraph_graph::{Rect, Slices, TextureDesc, TextureState};

use crate::device::shared::DeviceShared;
use crate::error::{Result, XnaError};

/// The level check every data path shares.
fn validate_level(desc: &TextureDesc, level: i32) -> Result<u32> {
    if level < 0 || level as u32 >= desc.mip_levels {
        return Err(XnaError::out_of_range(
            "level",
            format!("The level must be between 0 and {}.", desc.mip_levels - 1),
        ));
    }
    Ok(level as u32)
}

/// A rectangle of a block-compressed level rounded out to the `b`×`b` blocks it touches (the
/// last block row or column ending at the level's edge, where the level is not a whole number
/// of blocks), as XNA's `SetData`/`GetData` read and write whole blocks.
fn round_out_to_blocks(rect: Rect, b: i32, (lw, lh): (u32, u32)) -> Rect {
    let out = |start: i32, len: i32, edge: u32| {
        let first = start / b * b;
        let end = ((start + len + b - 1) / b * b).min(edge as i32);
        (first, end - first)
    };
    let (x, width) = out(rect.x, rect.width, lw);
    let (y, height) = out(rect.y, rect.height, lh);
    Rect::new(x, y, width, height)
}

/// Level and rectangle checks shared by every data path: the rectangle (the whole level when
/// `None`) must lie inside the level; in a block-compressed format it is rounded out to the
/// 4×4 blocks it touches, and the data must then cover those whole blocks (MonoGame rounds the
/// start down and the size up separately, which can miss the last block a rectangle off the
/// grid touches; xnagraph takes every block touched).
pub(crate) fn validate_region(
    desc: &TextureDesc,
    level: i32,
    rect: Option<Rect>,
) -> Result<(u32, Rect)> {
    let level = validate_level(desc, level)?;
    let (lw, lh) = desc.level_size(level);
    let rect = rect.unwrap_or(Rect::new(0, 0, lw as i32, lh as i32));
    let inside = rect.x >= 0
        && rect.y >= 0
        && rect.width > 0
        && rect.height > 0
        && rect.x as i64 + rect.width as i64 <= lw as i64
        && rect.y as i64 + rect.height as i64 <= lh as i64;
    if !inside {
        return Err(XnaError::argument(
            "rect",
            format!("The rectangle {rect:?} is not inside level {level} ({lw}x{lh})."),
        ));
    }
    let b = desc.format.block_edge() as i32;
    let rect = if b > 1 { round_out_to_blocks(rect, b, (lw, lh)) } else { rect };
    Ok((level, rect))
}

/// A volume's box, as XNA's `Texture3D` data calls name it: `left..right`, `top..bottom`,
/// `front..back` of `level`. Each range must be non-empty and inside the level; the first
/// bound that is not names the `Argument` error.
pub(crate) fn validate_box(desc: &TextureDesc, level: i32, bounds: [i32; 6]) -> Result<BoxRegion> {
    let level = validate_level(desc, level)?;
    let [left, top, right, bottom, front, back] = bounds;
    let (w, h) = desc.level_size(level);
    let d = desc.level_depth(level);
    let axes = [
        (left, right, w, "left", "right"),
        (top, bottom, h, "top", "bottom"),
        (front, back, d, "front", "back"),
    ];
    for (low, high, edge, low_name, high_name) in axes {
        let param = if low < 0 {
            low_name
        } else if high <= low || high as u32 > edge {
            high_name
        } else {
            continue;
        };
        return Err(XnaError::argument(
            param,
            format!(
                "The box ({left}, {top}, {front})-({right}, {bottom}, {back}) is not inside \
                 level {level} ({w}x{h}x{d})."
            ),
        ));
    }
    Ok(BoxRegion {
        level,
        rect: Rect::new(left, top, right - left, bottom - top),
        slices: Slices { front: front as u32, back: back as u32 },
    })
}

/// A validated box of one level of a volume.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BoxRegion {
    pub level: u32,
    pub rect: Rect,
    pub slices: Slices,
}

impl BoxRegion {
    /// Bytes of the box, tightly packed, slice after slice.
    pub fn byte_len(&self, desc: &TextureDesc) -> usize {
        let (w, h) = (self.rect.width as u32, self.rect.height as u32);
        desc.format.region_size(w, h) * self.slices.count() as usize
    }
}

/// Element-size and count checks; returns the bytes of `data[start..start + count]`.
pub(crate) fn checked_bytes<'a, T: Pod>(
    desc: &TextureDesc,
    rect: Rect,
    data: &'a [T],
    start_index: usize,
    element_count: usize,
) -> Result<&'a [u8]> {
    let slice = checked_slice(
        desc,
        rect,
        data.len(),
        start_index,
        element_count,
        std::mem::size_of::<T>(),
    )?;
    Ok(&bytemuck::cast_slice(data)[slice])
}

pub(crate) fn checked_slice(
    desc: &TextureDesc,
    rect: Rect,
    len: usize,
    start_index: usize,
    element_count: usize,
    elem: usize,
) -> Result<std::ops::Range<usize>> {
    let needed = desc.format.region_size(rect.width as u32, rect.height as u32);
    checked_elements(desc, needed, len, start_index, element_count, elem)
}

/// Element-size and count checks of `element_count` elements of `elem` bytes from
/// `start_index` of `len`, against a region of `needed` bytes; returns their byte range.
pub(crate) fn checked_elements(
    desc: &TextureDesc,
    needed: usize,
    len: usize,
    start_index: usize,
    element_count: usize,
    elem: usize,
) -> Result<std::ops::Range<usize>> {
    let format_size = desc.format.element_size();
    if elem == 0 || !format_size.is_multiple_of(elem) {
        return Err(XnaError::argument(
            "T",
            "The type you are using for T in this method is an invalid size for this resource.",
        ));
    }
    if start_index.checked_add(element_count).is_none_or(|end| end > len) {
        return Err(XnaError::argument(
            "data",
            format!(
                "The start index {start_index} and element count {element_count} exceed the \
                 {len} elements of data."
            ),
        ));
    }
    if element_count * elem != needed {
        return Err(XnaError::argument(
            "elementCount",
            "The size of the data passed in is too large or too small for this resource.",
        ));
    }
    Ok(start_index * elem..(start_index + element_count) * elem)
}

/// Copies `bytes` (a tightly packed region) into a level's shadow.
pub(crate) fn write_into_level(
    level_bytes: &mut [u8],
    desc: &TextureDesc,
    level: u32,
    rect: Rect,
    bytes: &[u8],
) {
    let f = desc.format;
    let b = f.block_edge();
    let (lw, _) = desc.level_size(level);
    let row_bytes = f.region_size(lw, 1);
    let src_row = f.region_size(rect.width as u32, 1);
    let x_off = f.region_size(rect.x as u32, 1);
    let rows = (rect.height as u32).div_ceil(b) as usize;
    let y0 = rect.y as usize / b as usize;
    for r in 0..rows {
        let dst = (y0 + r) * row_bytes + x_off;
        level_bytes[dst..dst + src_row].copy_from_slice(&bytes[r * src_row..(r + 1) * src_row]);
    }
}

/// Validates and reads a region of any texture state (the back buffer too) into
/// `data[start..start + count]`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn read_region<T: Pod>(
    device: &DeviceShared,
    state: &Arc<TextureState>,
    level: i32,
    layer: u32,
    rect: Option<Rect>,
    data: &mut [T],
    start_index: usize,
    element_count: usize,
) -> Result<()> {
    let (level, rect) = validate_region(state.desc(), level, rect)?;
    let slice = checked_slice(
        state.desc(),
        rect,
        data.len(),
        start_index,
        element_count,
        std::mem::size_of::<T>(),
    )?;
    copy_out(&device.read_back(state.clone(), level, layer, rect)?, data, slice)
}

/// Copies read-back `bytes` into the bytes `slice` of `data`.
pub(crate) fn copy_out<T: Pod>(
    bytes: &[u8],
    data: &mut [T],
    slice: std::ops::Range<usize>,
) -> Result<()> {
    let out: &mut [u8] = bytemuck::cast_slice_mut(data);
    let dst = &mut out[slice];
    if bytes.len() != dst.len() {
        return Err(XnaError::invalid_operation(
            "the backend returned a readback of the wrong size",
        ));
    }
    dst.copy_from_slice(bytes);
    Ok(())
}
