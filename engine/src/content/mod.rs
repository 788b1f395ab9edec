//! Content: XNA's `ContentManager` over compiled `.xnb` files (`manager.rs`: names and
//! caching; `xnb.rs`: the container, its header and decompression; `readers.rs`: the type
//! readers; `gltf/`: glTF 2.0 models), and, here, `Texture2D` loaded from image files and streams (PNG, JPEG, BMP, GIF,
//! TGA, QOI, each format a Cargo feature of its own: `image_file/`) and saved as PNG. A format
//! whose feature this build lacks is `NotSupported`, naming the feature.
//!
//! Rules kept here: every colour type and bit depth becomes `SurfaceFormat::Color` (palette and
//! low-bit grey expanded, a PNG `tRNS` chunk becoming alpha, 16-bit samples rounded to 8 bits; a
//! GIF gives its first frame); alpha is premultiplied on load unless
//! [`LoadOptions::premultiply_alpha`] is off; the image's size meets the texture size rules before
//! its pixels are decoded; a decoder failure is `InvalidOperation` carrying the decoder's message
//! (and the file's name when loaded from a file), never a panic.

mod gltf;
mod image_file;
mod manager;
mod readers;
mod xnb;

pub use image_file::LoadOptions;
pub use manager::{Content, ContentManager};

use std::io::{Read, Write};
use std::path::Path;

use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::math::Color;
use crate::resources::texture::Texture2D;

impl Texture2D {
    /// `Texture2D.FromStream(device, stream)`: a one-level `SurfaceFormat::Color` texture from
    /// an image stream, premultiplied (see [`LoadOptions`]).
    ///
    /// The format is recognised by its signature: PNG (every colour type, palette with `tRNS`
    /// transparency, 1 to 16 bits per sample), JPEG, BMP, GIF (its first frame) and QOI. TGA has
    /// no signature and is read only from a file named `.tga`. Each format is read where its
    /// Cargo feature is on (`png`, the default, `jpeg`, `bmp`, `gif`, `tga`, `qoi`); a format
    /// whose feature is off is `NotSupported`, naming the feature. Where it differs from XNA: XNA
    /// reads PNG, JPEG and GIF; alpha is premultiplied as the content pipeline does, where
    /// XNA's `FromStream` keeps straight alpha ([`Texture2D::from_stream_with`] does that).
    /// Errors (`InvalidOperation`, saying what is wrong): data in no format read, corrupt data
    /// with the decoder's message, truncated data with the byte where it ends, an image of
    /// zero size; one beyond the profile's texture size is `NotSupported`, as `new Texture2D`
    /// of that size. A stream that fails to read is [`XnaError::Io`] with the stream's error; a
    /// disposed device is `ObjectDisposed`.
    pub fn from_stream(device: &GraphicsDevice, stream: impl Read) -> Result<Texture2D> {
        Self::from_stream_with(device, stream, LoadOptions::default())
    }

    /// [`Texture2D::from_stream`] with explicit [`LoadOptions`] (not XNA: its `FromStream`
    /// takes none, and keeps straight alpha, as `premultiply_alpha: false` does).
    pub fn from_stream_with(
        device: &GraphicsDevice,
        stream: impl Read,
        options: LoadOptions,
    ) -> Result<Texture2D> {
        device.shared.check_alive()?;
        let mut data = Vec::new();
        let mut stream = stream;
        stream.read_to_end(&mut data).map_err(|e| XnaError::io("Reading the stream failed", e))?;
        let (w, h, texels) = image_file::decode(device, &data, None, "the stream", options)?;
        Self::from_texels(device, w, h, &texels)
    }

    /// Loads an image file (not XNA, which loads a file through `FromStream` over
    /// `File.OpenRead`), as the content pipeline's default texture import (premultiplied):
    /// [`Texture2D::from_stream`] over the file's bytes, the extension naming the format where
    /// the data has no signature (`.tga`). Every error names the file; one that cannot be
    /// read is [`XnaError::Io`] whose source is the `std::io::Error` (`NotFound` for a missing
    /// file), as .NET's `File.OpenRead` throws `FileNotFoundException` or `IOException`.
    pub fn from_file(device: &GraphicsDevice, path: impl AsRef<Path>) -> Result<Texture2D> {
        Self::from_file_with(device, path, LoadOptions::default())
    }

    /// [`Texture2D::from_file`] with explicit [`LoadOptions`] (not XNA).
    pub fn from_file_with(
        device: &GraphicsDevice,
        path: impl AsRef<Path>,
        options: LoadOptions,
    ) -> Result<Texture2D> {
        device.shared.check_alive()?;
        let path = path.as_ref();
        let data = std::fs::read(path)
            .map_err(|e| XnaError::io(format!("Could not read '{}'", path.display()), e))?;
        let source = format!("'{}'", path.display());
        let (w, h, texels) = image_file::decode(device, &data, Some(path), &source, options)?;
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
    /// Errors: a width or height that is not positive is `ArgumentOutOfRange` on `width` or
    /// `height`; a format other than `SurfaceFormat::Color`, or a build without the `png`
    /// feature, is `NotSupported`; a disposed texture or device is `ObjectDisposed`; a render
    /// target still bound is `InvalidOperation`, as its `GetData`; a failing stream is
    /// [`XnaError::Io`] with the write error.
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
        image_file::encode_png(stream, &rgba, width as u32, height as u32)
    }
}
