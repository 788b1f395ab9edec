//! The formats read through the `image` crate: JPEG, BMP, GIF (its first frame), TGA and QOI,
//! each where its engine feature is on.
//!
//! In: the bytes and the format [`super::format_of`] found. Out: the texels, or the decoder's
//! error in words (a truncation says where the data ends).

use super::LoadOptions;
use super::{
    check_size, decode_error, is_truncation, texels, truncated, Format, DECODE_LIMIT_BYTES,
};
use crate::device::GraphicsDevice;
use crate::error::Result;
use crate::math::Color;

/// What went wrong while decoding `len` bytes, in words.
fn describe(error: &image::ImageError, len: usize) -> String {
    match error {
        image::ImageError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            truncated(len, io)
        }
        e if is_truncation(e) => truncated(len, e),
        e => e.to_string(),
    }
}

pub(super) fn decode(
    device: &GraphicsDevice,
    data: &[u8],
    format: Format,
    source: &str,
    options: LoadOptions,
) -> Result<(u32, u32, Vec<Color>)> {
    let format = match format {
        Format::Png => image::ImageFormat::Png,
        Format::Jpeg => image::ImageFormat::Jpeg,
        Format::Bmp => image::ImageFormat::Bmp,
        Format::Gif => image::ImageFormat::Gif,
        Format::Tga => image::ImageFormat::Tga,
        Format::Qoi => image::ImageFormat::Qoi,
    };
    let mut reader = image::ImageReader::with_format(std::io::Cursor::new(data), format);
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(DECODE_LIMIT_BYTES);
    reader.limits(limits);
    let fail = |e: image::ImageError| decode_error(source, describe(&e, data.len()));
    let decoder = reader.into_decoder().map_err(fail)?;
    let (w, h) = image::ImageDecoder::dimensions(&decoder);
    check_size(device, source, w, h)?;
    let image = image::DynamicImage::from_decoder(decoder).map_err(fail)?;
    let rgba = image.into_rgba8();
    Ok((w, h, texels(rgba.pixels().map(|p| p.0), options)))
}
