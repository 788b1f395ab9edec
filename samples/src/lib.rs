//! Programs that use only xnagraph's public API. The library part holds what more than one
//! program, test or benchmark shares: the [`breakout`] game, the README's sprite
//! [`scene`] and [`write_png`].

pub mod breakout;
pub mod model3d;
pub mod scene;

use xnagraph::Color;

/// Writes `pixels` (row by row, `width` × `height`) to `file` as an 8-bit RGBA PNG.
pub fn write_png(
    file: std::fs::File,
    width: u32,
    height: u32,
    pixels: &[Color],
) -> std::io::Result<()> {
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
    let bytes: Vec<u8> = pixels.iter().flat_map(|c| [c.r, c.g, c.b, c.a]).collect();
    writer.write_image_data(&bytes).map_err(std::io::Error::other)?;
    writer.finish().map_err(std::io::Error::other)
}
