//! The texture readers: `Texture2DReader`, `Texture3DReader` and `TextureCubeReader`.
//!
//! In: a [`ContentReader`] at a texture object's data (after its reader index). Out: the
//! texture, every level the file holds uploaded, or a `ContentLoad` error naming what is wrong
//! and the byte where it lies.
//!
//! The three layouts share their parts: XNA 4.0's `SurfaceFormat` number (`i32`), the size
//! (width and height; width, height and depth; a cube's edge), the level count, then each
//! level as its byte count (`i32`) and its bytes; a cube holds its six faces one after another
//! in `CubeMapFace` order (+X, -X, +Y, -Y, +Z, -Z), each with all of its levels. Sizes and
//! counts are 32-bit little-endian integers, `int` or `uint` as the writer has them (the same
//! bits below 2^31), read as `int` as XNA's readers read them: a negative one is refused.
//!
//! What is decided here: a format number is one of XNA 4.0's twenty (MonoGame's own numbers are
//! named and refused); the level count lies within 1 and the full chain of the size; each
//! level's byte count is exactly the level's size in the format (whole 4×4 blocks for DXT, times
//! the slices of a volume level). The texture is made as XNA's readers make it, by the engine's
//! own constructor with `mipMap` set when the file has more than one level (so levels the file
//! leaves out of the chain read back as zero); what the constructor refuses (a format the kind
//! cannot hold, such as DXT for a volume; a size past the profile's limit; a kind the profile
//! lacks) becomes a `ContentLoad` error naming the format, the size and the constructor's
//! message.

use xnagraph_graph::{full_mip_count, SurfaceFormat, TextureDesc};

use super::ContentReader;
use crate::error::Result;
use crate::resources::cube::{CubeMapFace, TextureCube};
use crate::resources::texture::Texture2D;
use crate::resources::texture3d::Texture3D;

/// XNA 4.0's `SurfaceFormat` numbers, as the texture readers store them.
pub(super) fn surface_format(n: i32) -> std::result::Result<SurfaceFormat, String> {
    use SurfaceFormat as S;
    Ok(match n {
        0 => S::Color,
        1 => S::Bgr565,
        2 => S::Bgra5551,
        3 => S::Bgra4444,
        4 => S::Dxt1,
        5 => S::Dxt3,
        6 => S::Dxt5,
        7 => S::NormalizedByte2,
        8 => S::NormalizedByte4,
        9 => S::Rgba1010102,
        10 => S::Rg32,
        11 => S::Rgba64,
        12 => S::Alpha8,
        13 => S::Single,
        14 => S::Vector2,
        15 => S::Vector4,
        16 => S::HalfSingle,
        17 => S::HalfVector2,
        18 => S::HalfVector4,
        19 => S::HdrBlendable,
        _ => {
            let name = match n {
                30 => "ColorSRgb",
                31 => "Bgr32SRgb",
                32 => "Bgra32SRgb",
                33 => "Dxt1SRgb",
                34 => "Dxt3SRgb",
                35 => "Dxt5SRgb",
                50 => "RgbPvrtc2Bpp",
                51 => "RgbPvrtc4Bpp",
                52 => "RgbaPvrtc2Bpp",
                53 => "RgbaPvrtc4Bpp",
                60 => "RgbEtc1",
                70 => "Dxt1a",
                80 => "RgbaAtcExplicitAlpha",
                81 => "RgbaAtcInterpolatedAlpha",
                90..=95 => "ETC2",
                96 => "Astc4X4Rgba",
                _ => return Err(format!("unknown SurfaceFormat {n}")),
            };
            return Err(format!(
                "SurfaceFormat {n} ({name}, a MonoGame format) is not one xnagraph creates"
            ));
        }
    })
}

impl ContentReader<'_> {
    /// A texture's format number, as a [`SurfaceFormat`].
    fn texture_format(&mut self) -> Result<SurfaceFormat> {
        let at = self.xnb.position();
        let n = self.xnb.i32("a texture's format")?;
        surface_format(n).map_err(|what| self.xnb.error_at(at, what))
    }

    /// A texture's level count, within 1 and the full chain of `size` (its two or three
    /// edges, each taken as at least 1, so that a size the constructor refuses is reported by
    /// the constructor, not here).
    fn level_count(&mut self, size: &[i32]) -> Result<i32> {
        let at = self.xnb.position();
        let levels = self.xnb.i32("a texture's level count")?;
        let edge = |i: usize| size.get(i).map_or(1, |&e| e.max(1) as u32);
        let full = full_mip_count(edge(0), edge(1), edge(2)) as i32;
        if levels < 1 || levels > full {
            let shape: Vec<String> = size.iter().map(i32::to_string).collect();
            return Err(self.xnb.error_at(
                at,
                format!(
                    "the texture's level count {levels} is not within 1..={full} for {}",
                    shape.join("x")
                ),
            ));
        }
        Ok(levels)
    }

    /// One level's byte count and bytes, the count checked to be `want`, the level's size; and
    /// where the bytes start. `level` names the level in messages.
    fn level_bytes(&mut self, level: &str, want: usize) -> Result<(usize, &[u8])> {
        let size_at = self.xnb.position();
        let size = self.xnb.count("a texture level's size")?;
        if size != want {
            return Err(self
                .xnb
                .error_at(size_at, format!("{level} holds {size} bytes, not {want}")));
        }
        let at = self.xnb.position();
        Ok((at, self.xnb.bytes(size, "a texture level's bytes")?))
    }

    /// `Texture2DReader`: format, width, height, level count, then each level's size and bytes.
    pub(super) fn texture2d(&mut self) -> Result<Texture2D> {
        let start = self.xnb.position();
        let format = self.texture_format()?;
        let width = self.xnb.i32("a texture's width")?;
        let height = self.xnb.i32("a texture's height")?;
        let levels = self.level_count(&[width, height])?;
        let texture = Texture2D::with_format(self.device, width, height, levels > 1, format)
            .map_err(|e| {
                self.xnb.error_at(
                    start,
                    format!(
                        "the {format:?} texture of {width}x{height} with {levels} levels cannot \
                         be created ({e})"
                    ),
                )
            })?;
        // The size of each level, by graph's one rule (the constructor accepted the size).
        let desc = TextureDesc::texture_2d(width as u32, height as u32, levels as u32, format);
        for level in 0..levels {
            let (lw, lh) = desc.level_size(level as u32);
            let name = format!("level {level} ({lw}x{lh} {format:?})");
            let (at, bytes) = self.level_bytes(&name, format.region_size(lw, lh))?;
            texture
                .set_data_region(level, None, bytes, 0, bytes.len())
                .map_err(|e| self.xnb.error_at(at, format!("{name} does not upload ({e})")))?;
        }
        Ok(texture)
    }

    /// `Texture3DReader`: format, width, height, depth, level count, then each level's size and
    /// bytes (slice after slice, row after row).
    pub(super) fn texture3d(&mut self) -> Result<Texture3D> {
        let start = self.xnb.position();
        let format = self.texture_format()?;
        let width = self.xnb.i32("a volume texture's width")?;
        let height = self.xnb.i32("a volume texture's height")?;
        let depth = self.xnb.i32("a volume texture's depth")?;
        let levels = self.level_count(&[width, height, depth])?;
        let texture = Texture3D::new(self.device, width, height, depth, levels > 1, format)
            .map_err(|e| {
                self.xnb.error_at(
                    start,
                    format!(
                        "the {format:?} Texture3D of {width}x{height}x{depth} with {levels} \
                         levels cannot be created ({e})"
                    ),
                )
            })?;
        let [w, h, d] = [width, height, depth].map(|e| e as u32);
        let desc = TextureDesc::volume(w, h, d, levels as u32, format);
        for level in 0..levels {
            let (lw, lh) = desc.level_size(level as u32);
            let ld = desc.level_depth(level as u32);
            let name = format!("level {level} ({lw}x{lh}x{ld} {format:?})");
            let want = format.region_size(lw, lh) * ld as usize;
            let (at, bytes) = self.level_bytes(&name, want)?;
            let [r, b, k] = [lw, lh, ld].map(|e| e as i32);
            texture
                .set_data_box(level, 0, 0, r, b, 0, k, bytes, 0, bytes.len())
                .map_err(|e| self.xnb.error_at(at, format!("{name} does not upload ({e})")))?;
        }
        Ok(texture)
    }

    /// `TextureCubeReader`: format, edge, level count, then for each face in `CubeMapFace`
    /// order each level's size and bytes.
    pub(super) fn texture_cube(&mut self) -> Result<TextureCube> {
        let start = self.xnb.position();
        let format = self.texture_format()?;
        let size = self.xnb.i32("a cube texture's size")?;
        let levels = self.level_count(&[size, size])?;
        let texture = TextureCube::new(self.device, size, levels > 1, format).map_err(|e| {
            self.xnb.error_at(
                start,
                format!(
                    "the {format:?} TextureCube of size {size} with {levels} levels cannot be \
                     created ({e})"
                ),
            )
        })?;
        let desc = TextureDesc::texture_2d(size as u32, size as u32, levels as u32, format);
        for face in CubeMapFace::ALL {
            for level in 0..levels {
                let (edge, _) = desc.level_size(level as u32);
                let name = format!("face {face:?} level {level} ({edge}x{edge} {format:?})");
                let (at, bytes) = self.level_bytes(&name, format.region_size(edge, edge))?;
                texture
                    .set_data_region(face, level, None, bytes, 0, bytes.len())
                    .map_err(|e| self.xnb.error_at(at, format!("{name} does not upload ({e})")))?;
            }
        }
        Ok(texture)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surface_format_numbers_are_xna_4s() {
        for (n, format) in SurfaceFormat::ALL.iter().enumerate() {
            assert_eq!(surface_format(n as i32), Ok(*format), "SurfaceFormat {n}");
        }
        assert!(surface_format(33).unwrap_err().contains("Dxt1SRgb"));
        assert!(surface_format(-1).unwrap_err().contains("unknown SurfaceFormat -1"));
    }
}
