//! Image files: each format a Cargo feature of the engine (`png`, the default, through the `png`
//! crate; `jpeg`, `bmp`, `gif`, `tga`, `qoi` through the `image` crate).
//!
//! In: an image's bytes (and its file's name, whose extension names a format without a
//! signature). Out: its texels as `SurfaceFormat::Color`, premultiplied unless asked not to, or
//! the error that says what is wrong: `NotSupported` naming the feature of a format this build
//! does not read, `InvalidOperation` for data in no format, corrupt or truncated data, and the
//! texture size rules before the pixels are decoded. And the other way, 8-bit RGBA written as
//! PNG for `SaveAsPng`. It decides the format (the data's signature, else the file's extension)
//! and the conversion shared by every decoder: rounding 16-bit samples to 8 bits and
//! premultiplying alpha.

#[cfg(feature = "image")]
mod other;
#[cfg(feature = "png")]
mod png;

use std::io::Write;
use std::path::Path;

use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::math::Color;
use crate::resources::texture::validate_size;

/// How a texture is loaded from an image (not XNA: the options of
/// [`Texture2D::from_stream_with`](crate::Texture2D::from_stream_with) and
/// [`Texture2D::from_file_with`](crate::Texture2D::from_file_with)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// Multiply each colour channel by alpha on load, as XNA's content pipeline does by default
    /// (`TextureProcessor.PremultiplyAlpha`), so the texture suits the default
    /// `BlendState::AlphaBlend`. Off keeps the file's straight alpha, as XNA's
    /// `Texture2D.FromStream` itself does.
    pub premultiply_alpha: bool,
}

impl Default for LoadOptions {
    /// Premultiplied, as the content pipeline's default.
    fn default() -> Self {
        LoadOptions { premultiply_alpha: true }
    }
}

/// The decoder's allocation limit: a HiDef-sized image at 16 bits per channel, plus room for
/// ancillary data. The size rules refuse anything larger before the pixels are decoded.
#[cfg_attr(not(any(feature = "png", feature = "image")), allow(dead_code))]
const DECODE_LIMIT_BYTES: u64 = 4096 * 4096 * 8 + (16 << 20);

/// An image format this module knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Png,
    Jpeg,
    Bmp,
    Gif,
    Tga,
    Qoi,
}

/// Each format's name in messages, its engine feature and whether this build has it.
const CODECS: [(Format, &str, &str, bool); 6] = [
    (Format::Png, "PNG", "png", cfg!(feature = "png")),
    (Format::Jpeg, "JPEG", "jpeg", cfg!(feature = "jpeg")),
    (Format::Bmp, "BMP", "bmp", cfg!(feature = "bmp")),
    (Format::Gif, "GIF", "gif", cfg!(feature = "gif")),
    (Format::Tga, "TGA", "tga", cfg!(feature = "tga")),
    (Format::Qoi, "QOI", "qoi", cfg!(feature = "qoi")),
];

/// The format `data` starts with the signature of, else the one `path`'s extension names (TGA
/// has no signature).
fn format_of(data: &[u8], path: Option<&Path>) -> Option<Format> {
    let signature = if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(Format::Png)
    } else if data.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(Format::Jpeg)
    } else if data.starts_with(b"BM") {
        Some(Format::Bmp)
    } else if data.starts_with(b"GIF87a") || data.starts_with(b"GIF89a") {
        Some(Format::Gif)
    } else if data.starts_with(b"qoif") {
        Some(Format::Qoi)
    } else {
        None
    };
    signature.or_else(|| {
        let extension = path?.extension()?.to_str()?.to_ascii_lowercase();
        Some(match extension.as_str() {
            "png" => Format::Png,
            "jpg" | "jpeg" => Format::Jpeg,
            "bmp" => Format::Bmp,
            "gif" => Format::Gif,
            "tga" => Format::Tga,
            "qoi" => Format::Qoi,
            _ => return None,
        })
    })
}

/// The formats read, as named in messages ("PNG, JPEG or BMP"; "none" in a build without one).
fn formats_read() -> String {
    let names: Vec<_> = CODECS.iter().filter(|c| c.3).map(|c| c.1).collect();
    match names.as_slice() {
        [] => "none (no image format feature is on)".into(),
        [one] => (*one).into(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The decoder's error as XNA's `InvalidOperationException`, naming the source.
fn decode_error(source: &str, what: impl std::fmt::Display) -> XnaError {
    let what = what.to_string();
    let what = what.trim_end_matches('.');
    XnaError::invalid_operation(format!("Could not load a texture from {source}: {what}."))
}

/// The words for data that ends early: where it ends, and the decoder's own.
#[cfg_attr(not(any(feature = "png", feature = "image")), allow(dead_code))]
fn truncated(len: usize, error: impl std::fmt::Display) -> String {
    format!("the data is truncated at byte {len} (unexpected end of file: {error})")
}

/// Whether `error` or one of its causes is an unexpected end of the data.
#[cfg_attr(not(any(feature = "png", feature = "image")), allow(dead_code))]
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

/// The header's size, checked before any pixel is decoded: not zero, and within the device's
/// texture size rules.
#[cfg_attr(not(any(feature = "png", feature = "image")), allow(dead_code))]
fn check_size(device: &GraphicsDevice, source: &str, w: u32, h: u32) -> Result<()> {
    if w == 0 || h == 0 {
        return Err(decode_error(source, format!("the image's dimensions are {w}x{h}")));
    }
    let clamp = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
    validate_size(&device.shared, clamp(w), clamp(h)).map(|_| ())
}

/// One straight-alpha channel premultiplied by `alpha`, rounded to nearest as the content
/// pipeline's float conversion does.
fn premultiply(channel: u8, alpha: u8) -> u8 {
    ((u32::from(channel) * u32::from(alpha) + 127) / 255) as u8
}

/// A 16-bit sample rounded to 8 bits (nearest), as XNA's content pipeline converts.
#[cfg_attr(not(feature = "png"), allow(dead_code))]
fn round16(sample: u16) -> u8 {
    ((u32::from(sample) * 255 + 32767) / 65535) as u8
}

/// Straight-alpha RGBA texels as the texture holds them.
#[cfg_attr(not(any(feature = "png", feature = "image")), allow(dead_code))]
fn texels(rgba: impl Iterator<Item = [u8; 4]>, options: LoadOptions) -> Vec<Color> {
    rgba.map(|[r, g, b, a]| {
        if options.premultiply_alpha {
            Color::new(premultiply(r, a), premultiply(g, a), premultiply(b, a), a)
        } else {
            Color::new(r, g, b, a)
        }
    })
    .collect()
}

/// Decodes an image held in `data` into texels, checking its size against the device's texture
/// size rules first.
#[cfg_attr(not(any(feature = "png", feature = "image")), allow(unused_variables))]
pub(super) fn decode(
    device: &GraphicsDevice,
    data: &[u8],
    path: Option<&Path>,
    source: &str,
    options: LoadOptions,
) -> Result<(u32, u32, Vec<Color>)> {
    let Some(format) = format_of(data, path) else {
        return Err(decode_error(
            source,
            format!(
                "unsupported image format (no known signature); the formats read are {}",
                formats_read()
            ),
        ));
    };
    let &(_, name, feature, built) = CODECS.iter().find(|c| c.0 == format).expect("every format");
    if !built {
        return Err(XnaError::not_supported(format!(
            "Could not load a texture from {source}: {name} images are not read by this build \
             (xnagraph's `{feature}` feature)."
        )));
    }
    match format {
        #[cfg(feature = "png")]
        Format::Png => png::decode(device, data, source, options),
        #[cfg(feature = "image")]
        other => other::decode(device, data, other, source, options),
        #[allow(unreachable_patterns)]
        _ => Err(XnaError::not_supported(format!("{name} images are not read by this build."))),
    }
}

/// 8-bit RGBA written as a PNG into `stream` (`SaveAsPng`); `NotSupported` without `png`.
pub(super) fn encode_png(stream: impl Write, rgba: &[u8], width: u32, height: u32) -> Result<()> {
    #[cfg(feature = "png")]
    return png::encode(stream, rgba, width, height);
    #[cfg(not(feature = "png"))]
    {
        let _ = (stream, rgba, width, height);
        Err(XnaError::not_supported(
            "SaveAsPng needs the PNG encoder: build xnagraph with the `png` feature.",
        ))
    }
}
