//! Image files through the `image` crate, each codec a Cargo feature of the engine (`png`,
//! `jpeg`, `bmp`, `gif`, `tga`, `qoi`).
//!
//! In: an image's bytes (and its file's name, whose extension names a format without a
//! signature). Out: its texels as `SurfaceFormat::Color`, premultiplied unless asked not to, or
//! the error that says what is wrong: `NotSupported` naming the feature of a format this build
//! does not read, `InvalidOperation` for data in no format, corrupt or truncated data, and the
//! texture size rules before the pixels are decoded. And the other way, 8-bit RGBA written as
//! PNG for `SaveAsPng`.

use std::io::Write;
use std::path::Path;

use super::LoadOptions;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::math::Color;
use crate::resources::texture::validate_size;

/// The decoder's allocation limit: a HiDef-sized image at 16 bits per channel, plus room for
/// ancillary data. The size rules refuse anything larger before the pixels are decoded.
const DECODE_LIMIT_BYTES: u64 = 4096 * 4096 * 8 + (16 << 20);

/// One straight-alpha channel premultiplied by `alpha`, rounded to nearest as the content
/// pipeline's float conversion does.
fn premultiply(channel: u8, alpha: u8) -> u8 {
    ((u32::from(channel) * u32::from(alpha) + 127) / 255) as u8
}

/// The formats this build reads, each with its engine feature and whether it is on.
const CODECS: [(image::ImageFormat, &str, &str, bool); 6] = [
    (image::ImageFormat::Png, "PNG", "png", cfg!(feature = "png")),
    (image::ImageFormat::Jpeg, "JPEG", "jpeg", cfg!(feature = "jpeg")),
    (image::ImageFormat::Bmp, "BMP", "bmp", cfg!(feature = "bmp")),
    (image::ImageFormat::Gif, "GIF", "gif", cfg!(feature = "gif")),
    (image::ImageFormat::Tga, "TGA", "tga", cfg!(feature = "tga")),
    (image::ImageFormat::Qoi, "QOI", "qoi", cfg!(feature = "qoi")),
];

/// The formats read, as named in messages ("PNG, JPEG or BMP"; "none" in a build without one).
fn formats_read() -> String {
    let names: Vec<_> = CODECS.iter().filter(|c| c.3).map(|c| c.1).collect();
    match names.as_slice() {
        [] => "none (no image codec feature is on)".into(),
        [one] => (*one).into(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// `NotSupported` for a format whose codec this build lacks.
fn check_codec(format: image::ImageFormat, source: &str) -> Result<()> {
    match CODECS.iter().find(|c| c.0 == format) {
        Some(&(_, _, _, true)) => Ok(()),
        Some(&(_, name, feature, false)) => Err(XnaError::not_supported(format!(
            "Could not load a texture from {source}: {name} images are not read by this build \
             (xnagraph's `{feature}` feature)."
        ))),
        None => Err(decode_error(
            source,
            format!("unsupported image format {format:?}; the formats read are {}", formats_read()),
        )),
    }
}

/// The decoder's error as XNA's `InvalidOperationException`, naming the source.
fn decode_error(source: &str, what: impl std::fmt::Display) -> XnaError {
    let what = what.to_string();
    let what = what.trim_end_matches('.');
    XnaError::invalid_operation(format!("Could not load a texture from {source}: {what}."))
}

/// Whether `error` or one of its causes is an unexpected end of the data.
fn is_truncation(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(e) = cause {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::UnexpectedEof {
                return true;
            }
        }
        // Some decoders carry the end of data in their own error type, with the I/O error's
        // words only.
        let text = e.to_string().to_ascii_lowercase();
        if text.contains("failed to fill whole buffer") || text.contains("end of file") {
            return true;
        }
        cause = e.source();
    }
    false
}

/// What went wrong while decoding `len` bytes, in words: a truncation names the byte where the
/// data ends, an unknown format lists the formats read, anything else carries the decoder's
/// message.
fn describe(error: &image::ImageError, len: usize) -> String {
    match error {
        image::ImageError::Unsupported(e) => {
            format!("unsupported image format ({e}); the formats read are {}", formats_read())
        }
        image::ImageError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            format!("the data is truncated at byte {len} ({io})")
        }
        e if is_truncation(e) => format!("the data is truncated at byte {len} ({e})"),
        e => e.to_string(),
    }
}

/// Decodes an image held in `data` into texels, checking its size against the device's texture
/// size rules first. `format` is the format named by the file's extension, if any; the data's
/// own signature wins over it.
pub(super) fn decode(
    device: &GraphicsDevice,
    data: &[u8],
    path: Option<&Path>,
    source: &str,
    options: LoadOptions,
) -> Result<(u32, u32, Vec<Color>)> {
    let mut reader = image::ImageReader::new(std::io::Cursor::new(data));
    if let Some(format) = path.and_then(|p| image::ImageFormat::from_path(p).ok()) {
        reader.set_format(format);
    }
    let mut reader = reader.with_guessed_format().map_err(|e| decode_error(source, e))?;
    let Some(format) = reader.format() else {
        return Err(decode_error(
            source,
            format!(
                "unsupported image format (no known signature); the formats read are {}",
                formats_read()
            ),
        ));
    };
    check_codec(format, source)?;
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(DECODE_LIMIT_BYTES);
    reader.limits(limits);
    let fail = |e: image::ImageError| decode_error(source, describe(&e, data.len()));
    let decoder = reader.into_decoder().map_err(fail)?;
    let (w, h) = image::ImageDecoder::dimensions(&decoder);
    if w == 0 || h == 0 {
        return Err(decode_error(source, format!("the image's dimensions are {w}x{h}")));
    }
    let clamp = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
    validate_size(&device.shared, clamp(w), clamp(h))?;
    let image = image::DynamicImage::from_decoder(decoder).map_err(fail)?;
    let rgba = image.into_rgba8();
    let texels = rgba
        .pixels()
        .map(|p| {
            let [r, g, b, a] = p.0;
            if options.premultiply_alpha {
                Color::new(premultiply(r, a), premultiply(g, a), premultiply(b, a), a)
            } else {
                Color::new(r, g, b, a)
            }
        })
        .collect();
    Ok((w, h, texels))
}

/// 8-bit RGBA written as a PNG into `stream` (`SaveAsPng`).
#[cfg(feature = "png")]
pub(super) fn encode_png(stream: impl Write, rgba: &[u8], width: u32, height: u32) -> Result<()> {
    let encoder = image::codecs::png::PngEncoder::new(stream);
    image::ImageEncoder::write_image(encoder, rgba, width, height, image::ExtendedColorType::Rgba8)
        .map_err(|e| match e {
            image::ImageError::IoError(e) => {
                XnaError::io("SaveAsPng could not write the stream", e)
            }
            e => XnaError::invalid_operation(format!("SaveAsPng failed: {e}.")),
        })
}

/// `SaveAsPng` in a build without the `png` feature: `NotSupported`.
#[cfg(not(feature = "png"))]
pub(super) fn encode_png(
    _stream: impl Write,
    _rgba: &[u8],
    _width: u32,
    _height: u32,
) -> Result<()> {
    Err(XnaError::not_supported(
        "SaveAsPng needs the PNG encoder: build xnagraph with the `png` feature.",
    ))
}
