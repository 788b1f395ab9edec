//! Texture content: `Texture2D` loaded from PNG files and streams, and saved as PNG.
//!
//! Rules kept here: every PNG colour type and bit depth becomes `SurfaceFormat::Color` (palette
//! and low-bit grey expanded, a `tRNS` chunk becoming alpha, 16-bit samples rounded to 8 bits);
//! alpha is premultiplied on load unless [`LoadOptions::premultiply_alpha`] is off; the image's
//! size meets the texture size rules before its pixels are decoded; a decoder failure is
//! `InvalidOperation` carrying the decoder's message (and the file's name when loaded from a
//! file), never a panic.

use std::io::{Read, Write};
use std::path::Path;

use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::math::Color;
use crate::texture::{validate_size, Texture2D};

/// How a texture is loaded from an image ([`Texture2D::from_stream_with`],
/// [`Texture2D::from_file_with`]).
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
/// ancillary chunks. The size rules refuse anything larger before the pixels are decoded.
const DECODE_LIMIT_BYTES: usize = 4096 * 4096 * 8 + (16 << 20);

/// One straight-alpha channel premultiplied by `alpha`, rounded to nearest as the content
/// pipeline's float conversion does.
pub(crate) fn premultiply(channel: u8, alpha: u8) -> u8 {
    ((u32::from(channel) * u32::from(alpha) + 127) / 255) as u8
}

/// A 16-bit PNG sample (big-endian) rounded to 8 bits.
fn sample16(bytes: &[u8]) -> u8 {
    let v = u32::from(u16::from_be_bytes([bytes[0], bytes[1]]));
    ((v * 255 + 32767) / 65535) as u8
}

/// The decoder's error as XNA's `InvalidOperationException`, naming the source.
fn decode_error(source: &str, what: impl std::fmt::Display) -> XnaError {
    let what = what.to_string();
    let what = what.trim_end_matches('.');
    XnaError::invalid_operation(format!("Could not load a texture from {source}: {what}."))
}

/// Decodes a PNG into texels, checking its size against the device's texture size rules first.
fn decode(
    device: &GraphicsDevice,
    reader: impl Read,
    source: &str,
    options: LoadOptions,
) -> Result<(u32, u32, Vec<Color>)> {
    let mut decoder =
        png::Decoder::new_with_limits(reader, png::Limits { bytes: DECODE_LIMIT_BYTES });
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().map_err(|e| decode_error(source, e))?;
    let (w, h) = (reader.info().width, reader.info().height);
    let clamp = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
    validate_size(&device.shared, clamp(w), clamp(h))?;
    let mut buf = vec![0u8; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut buf).map_err(|e| decode_error(source, e))?;
    let (color_type, depth) = (frame.color_type, frame.bit_depth);
    let channels = color_type.samples();
    let bytes_per_sample = match depth {
        png::BitDepth::Eight => 1,
        png::BitDepth::Sixteen => 2,
        other => return Err(decode_error(source, format!("unexpected bit depth {other:?}"))),
    };
    let sample = |s: &[u8]| if bytes_per_sample == 2 { sample16(s) } else { s[0] };
    let mut texels = Vec::with_capacity((w * h) as usize);
    for row in buf[..frame.buffer_size()].chunks_exact(frame.line_size) {
        for px in row[..w as usize * channels * bytes_per_sample]
            .chunks_exact(channels * bytes_per_sample)
        {
            let mut s = [0u8; 4];
            for (slot, bytes) in s.iter_mut().zip(px.chunks_exact(bytes_per_sample)) {
                *slot = sample(bytes);
            }
            let c = match color_type {
                png::ColorType::Grayscale => Color::new(s[0], s[0], s[0], 255),
                png::ColorType::GrayscaleAlpha => Color::new(s[0], s[0], s[0], s[1]),
                png::ColorType::Rgb => Color::new(s[0], s[1], s[2], 255),
                png::ColorType::Rgba => Color::new(s[0], s[1], s[2], s[3]),
                png::ColorType::Indexed => {
                    return Err(decode_error(source, "the palette was not expanded"))
                }
            };
            texels.push(c);
        }
    }
    if options.premultiply_alpha {
        for c in &mut texels {
            *c = Color::new(
                premultiply(c.r, c.a),
                premultiply(c.g, c.a),
                premultiply(c.b, c.a),
                c.a,
            );
        }
    }
    Ok((w, h, texels))
}

impl Texture2D {
    /// `Texture2D.FromStream(device, stream)`: a one-level `SurfaceFormat::Color` texture from
    /// a PNG stream, premultiplied (see [`LoadOptions`]).
    ///
    /// Every PNG colour type is read: grey, grey with alpha, RGB, RGBA, palette (with `tRNS`
    /// transparency), 1 to 16 bits per sample. Where it differs from XNA: only PNG is read
    /// (XNA also reads JPEG and GIF); alpha is premultiplied as the content pipeline does, where
    /// XNA's `FromStream` keeps straight alpha ([`Texture2D::from_stream_with`] does that).
    /// Errors: a corrupt or truncated stream is `InvalidOperation` carrying the decoder's
    /// message; an image of zero size is refused by the decoder; one beyond the profile's
    /// texture size is `NotSupported`, as `new Texture2D` of that size.
    pub fn from_stream(device: &GraphicsDevice, stream: impl Read) -> Result<Texture2D> {
        Self::from_stream_with(device, stream, LoadOptions::default())
    }

    /// [`Texture2D::from_stream`] with explicit [`LoadOptions`].
    pub fn from_stream_with(
        device: &GraphicsDevice,
        stream: impl Read,
        options: LoadOptions,
    ) -> Result<Texture2D> {
        device.shared.check_alive()?;
        let (w, h, texels) = decode(device, stream, "the stream", options)?;
        Self::from_texels(device, w, h, &texels)
    }

    /// Loads a PNG file, as the content pipeline's default texture import (premultiplied):
    /// [`Texture2D::from_stream`] over the file. Every error names the file; one that cannot
    /// be opened is `Argument` for `path`.
    pub fn from_file(device: &GraphicsDevice, path: impl AsRef<Path>) -> Result<Texture2D> {
        Self::from_file_with(device, path, LoadOptions::default())
    }

    /// [`Texture2D::from_file`] with explicit [`LoadOptions`].
    pub fn from_file_with(
        device: &GraphicsDevice,
        path: impl AsRef<Path>,
        options: LoadOptions,
    ) -> Result<Texture2D> {
        device.shared.check_alive()?;
        let path = path.as_ref();
        let file = std::fs::File::open(path).map_err(|e| {
            XnaError::argument("path", format!("Could not open '{}': {e}.", path.display()))
        })?;
        let source = format!("'{}'", path.display());
        let (w, h, texels) = decode(device, file, &source, options)?;
        Self::from_texels(device, w, h, &texels)
    }

    fn from_texels(device: &GraphicsDevice, w: u32, h: u32, texels: &[Color]) -> Result<Texture2D> {
        let texture = Texture2D::new(device, w as i32, h as i32)?;
        texture.set_data(texels)?;
        Ok(texture)
    }

    /// `SaveAsPng(stream, width, height)`: level 0 written as an 8-bit RGBA PNG, the stored
    /// bytes as they are (a premultiplied texture is saved premultiplied). A size other than
    /// the texture's is scaled by nearest-texel sampling. Flushes and waits for the GPU, as
    /// `GetData`.
    ///
    /// Errors: a width or height that is not positive is `ArgumentOutOfRange`; a format other
    /// than `SurfaceFormat::Color` is `NotSupported`; a failing stream is `InvalidOperation`
    /// with the write error.
    pub fn save_as_png(&self, stream: impl Write, width: i32, height: i32) -> Result<()> {
        if width <= 0 {
            return Err(XnaError::out_of_range("width", "The width must be positive."));
        }
        if height <= 0 {
            return Err(XnaError::out_of_range("height", "The height must be positive."));
        }
        if self.format() != crate::SurfaceFormat::Color {
            return Err(XnaError::not_supported(format!(
                "SaveAsPng supports SurfaceFormat.Color textures, not {:?}.",
                self.format()
            )));
        }
        let (sw, sh) = (self.width() as usize, self.height() as usize);
        let mut texels = vec![Color::TRANSPARENT; sw * sh];
        self.get_data(&mut texels)?;
        let (dw, dh) = (width as usize, height as usize);
        let mut rgba = Vec::with_capacity(dw * dh * 4);
        for y in 0..dh {
            let row = &texels[(y * sh / dh) * sw..][..sw];
            for x in 0..dw {
                let c = row[x * sw / dw];
                rgba.extend_from_slice(&[c.r, c.g, c.b, c.a]);
            }
        }
        let write_error =
            |e: png::EncodingError| XnaError::invalid_operation(format!("SaveAsPng failed: {e}."));
        let mut encoder = png::Encoder::new(stream, width as u32, height as u32);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(write_error)?;
        writer.write_image_data(&rgba).map_err(write_error)?;
        writer.finish().map_err(write_error)
    }
}
