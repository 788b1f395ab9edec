//! PNG through the `png` crate: every colour type and bit depth, read and written.
//!
//! In: the bytes of a PNG. Out: RGBA texels: palette and low-bit grey expanded, a `tRNS` chunk
//! becoming alpha, grey spread to the three channels, 16-bit samples rounded to 8 bits; or the
//! decoder's error in words (a bad CRC names its chunk, a truncation says where the data ends).
//! And 8-bit RGBA written as a PNG.

use std::io::Write;

use super::LoadOptions;
use super::{
    check_size, decode_error, is_truncation, round16, texels, truncated, DECODE_LIMIT_BYTES,
};
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::math::Color;

/// What went wrong while decoding `len` bytes, in words.
fn describe(error: png::DecodingError, len: usize) -> String {
    match error {
        png::DecodingError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            truncated(len, io)
        }
        e if is_truncation(&e) => truncated(len, e),
        e => e.to_string(),
    }
}

pub(super) fn decode(
    device: &GraphicsDevice,
    data: &[u8],
    source: &str,
    options: LoadOptions,
) -> Result<(u32, u32, Vec<Color>)> {
    let fail = |e: png::DecodingError| decode_error(source, describe(e, data.len()));
    let limits = png::Limits { bytes: DECODE_LIMIT_BYTES as usize };
    let mut decoder = png::Decoder::new_with_limits(std::io::Cursor::new(data), limits);
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().map_err(fail)?;
    let (w, h) = (reader.info().width, reader.info().height);
    check_size(device, source, w, h)?;
    let size = reader.output_buffer_size().ok_or_else(|| {
        decode_error(source, format!("an image of {w}x{h} is too large to decode"))
    })?;
    let mut buffer = vec![0; size];
    let frame = reader.next_frame(&mut buffer).map_err(fail)?;
    let bytes = &buffer[..frame.buffer_size()];
    let channels = frame.color_type.samples();
    let sample = |texel: &[u8], i: usize| match frame.bit_depth {
        png::BitDepth::Sixteen => round16(u16::from_be_bytes([texel[2 * i], texel[2 * i + 1]])),
        _ => texel[i],
    };
    let stride = channels * if frame.bit_depth == png::BitDepth::Sixteen { 2 } else { 1 };
    let rgba = bytes.chunks_exact(stride).map(|t| match frame.color_type {
        png::ColorType::Grayscale => [sample(t, 0), sample(t, 0), sample(t, 0), 255],
        png::ColorType::GrayscaleAlpha => [sample(t, 0), sample(t, 0), sample(t, 0), sample(t, 1)],
        png::ColorType::Rgb => [sample(t, 0), sample(t, 1), sample(t, 2), 255],
        // Rgba (and Indexed, which EXPAND has turned into Rgb or Rgba).
        _ => [sample(t, 0), sample(t, 1), sample(t, 2), sample(t, 3)],
    });
    Ok((w, h, texels(rgba, options)))
}

/// 8-bit RGBA written as a PNG into `stream`.
pub(super) fn encode(stream: impl Write, rgba: &[u8], width: u32, height: u32) -> Result<()> {
    let write_error = |e: png::EncodingError| match e {
        png::EncodingError::IoError(e) => XnaError::io("SaveAsPng could not write the stream", e),
        e => XnaError::invalid_operation(format!("SaveAsPng failed: {e}.")),
    };
    let mut encoder = png::Encoder::new(stream, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(write_error)?;
    writer.write_image_data(rgba).map_err(write_error)?;
    writer.finish().map_err(write_error)
}
