//! Image files in a build without an image codec: every load and `SaveAsPng` is
//! `NotSupported`, naming the features that read them (`png`, `jpeg`, `bmp`, `gif`, `tga`,
//! `qoi`). An `.xnb` texture needs none of them.

use std::io::Write;
use std::path::Path;

use super::LoadOptions;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::math::Color;

pub(super) fn decode(
    _device: &GraphicsDevice,
    _data: &[u8],
    _path: Option<&Path>,
    source: &str,
    _options: LoadOptions,
) -> Result<(u32, u32, Vec<Color>)> {
    Err(XnaError::not_supported(format!(
        "Could not load a texture from {source}: this build reads no image format (xnagraph's \
         features `png`, `jpeg`, `bmp`, `gif`, `tga`, `qoi`)."
    )))
}

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
