//! Region checks shared by every texture data path: the level and rectangle (block-aligned for
//! compressed formats), the element type and count, and writing a region into a level's bytes.

use bytemuck::Pod;
use xnagraph_graph::{Rect, TextureDesc};

use crate::error::{Result, XnaError};

/// Level and rectangle checks shared by every data path.
pub(super) fn validate_region(
    desc: &TextureDesc,
    level: i32,
    rect: Option<Rect>,
) -> Result<(u32, Rect)> {
    if level < 0 || level as u32 >= desc.mip_levels {
        return Err(XnaError::out_of_range(
            "level",
            format!("The level must be between 0 and {}.", desc.mip_levels - 1),
        ));
    }
    let level = level as u32;
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
    if b > 1 {
        let aligned_end = |start: i32, len: i32, edge: u32| {
            (start + len) % b == 0 || (start + len) as u32 == edge
        };
        if rect.x % b != 0
            || rect.y % b != 0
            || !aligned_end(rect.x, rect.width, lw)
            || !aligned_end(rect.y, rect.height, lh)
        {
            return Err(XnaError::argument(
                "rect",
                "The rectangle must be aligned to the format's 4x4 blocks.",
            ));
        }
    }
    Ok((level, rect))
}

/// Element-size and count checks; returns the bytes of `data[start..start + count]`.
pub(super) fn checked_bytes<'a, T: Pod>(
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

pub(super) fn checked_slice(
    desc: &TextureDesc,
    rect: Rect,
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
    let needed = desc.format.region_size(rect.width as u32, rect.height as u32);
    if element_count * elem != needed {
        return Err(XnaError::argument(
            "elementCount",
            "The size of the data passed in is too large or too small for this resource.",
        ));
    }
    Ok(start_index * elem..(start_index + element_count) * elem)
}

/// Copies `bytes` (a tightly packed region) into a level's shadow.
pub(super) fn write_into_level(
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
