//! XNA's surface and depth formats, and the facts about them every layer needs: bytes per
//! element, block size, which aspects a depth format has.

/// XNA 4.0's `SurfaceFormat`, in XNA's order.
///
/// Data passed to `SetData` and returned by `GetData` is in XNA's memory layout (little-endian
/// words, bit 0 the least significant), listed per variant.
///
/// **Missing channels.** A format that stores fewer than four channels samples the missing ones
/// as 1, as XNA does on Direct3D 9: `Single` and `HalfSingle` read as (r, 1, 1, 1); `Vector2`,
/// `HalfVector2`, `Rg32` and `NormalizedByte2` as (r, g, 1, 1). This is a deliberate choice over
/// the Direct3D 10+ and Vulkan convention (missing colour channels read as 0, alpha as 1), so
/// that a shader written for XNA (e.g. a tint multiplied by a `Single` height map) sees the
/// values it saw there. `Alpha8` reads as (0, 0, 0, a), as in XNA. Render targets store exactly
/// what is drawn; the rule applies to sampling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum SurfaceFormat {
    /// 32 bits: bytes R, G, B, A (unsigned normalized).
    Color,
    /// 16 bits: R in bits 11–15, G in 5–10, B in 0–4.
    Bgr565,
    /// 16 bits: A in bit 15, R in 10–14, G in 5–9, B in 0–4.
    Bgra5551,
    /// 16 bits: A in bits 12–15, R in 8–11, G in 4–7, B in 0–3.
    Bgra4444,
    /// BC1: 8-byte blocks of 4×4 texels.
    Dxt1,
    /// BC2: 16-byte blocks of 4×4 texels.
    Dxt3,
    /// BC3: 16-byte blocks of 4×4 texels.
    Dxt5,
    /// 16 bits: signed bytes x, y (signed normalized); samples as (x, y, 1, 1).
    NormalizedByte2,
    /// 32 bits: signed bytes x, y, z, w (signed normalized).
    NormalizedByte4,
    /// 32 bits: R in bits 0–9, G in 10–19, B in 20–29, A in 30–31.
    Rgba1010102,
    /// 32 bits: unsigned shorts R, G (normalized); samples as (r, g, 1, 1).
    Rg32,
    /// 64 bits: unsigned shorts R, G, B, A (normalized).
    Rgba64,
    /// 8 bits of alpha; samples as (0, 0, 0, a). The Vulkan backend cannot make a draw store
    /// alpha into it, so a render target that prefers it is `Color`.
    Alpha8,
    /// A 32-bit float; samples as (r, 1, 1, 1).
    Single,
    /// Two 32-bit floats; samples as (r, g, 1, 1).
    Vector2,
    /// Four 32-bit floats R, G, B, A.
    Vector4,
    /// A 16-bit float; samples as (r, 1, 1, 1).
    HalfSingle,
    /// Two 16-bit floats; samples as (r, g, 1, 1).
    HalfVector2,
    /// Four 16-bit floats R, G, B, A.
    HalfVector4,
    /// The platform's blendable HDR format: four 16-bit floats, like `HalfVector4`.
    HdrBlendable,
}

impl SurfaceFormat {
    /// Every format, in XNA's order.
    pub const ALL: [SurfaceFormat; 20] = [
        Self::Color,
        Self::Bgr565,
        Self::Bgra5551,
        Self::Bgra4444,
        Self::Dxt1,
        Self::Dxt3,
        Self::Dxt5,
        Self::NormalizedByte2,
        Self::NormalizedByte4,
        Self::Rgba1010102,
        Self::Rg32,
        Self::Rgba64,
        Self::Alpha8,
        Self::Single,
        Self::Vector2,
        Self::Vector4,
        Self::HalfSingle,
        Self::HalfVector2,
        Self::HalfVector4,
        Self::HdrBlendable,
    ];

    /// Whether the format stores 4×4 texel blocks (DXT1/3/5).
    pub fn is_block_compressed(self) -> bool {
        matches!(self, Self::Dxt1 | Self::Dxt3 | Self::Dxt5)
    }

    /// Bytes of one element: a texel, or a 4×4 block for the DXT formats.
    pub fn element_size(self) -> usize {
        match self {
            Self::Alpha8 => 1,
            Self::Bgr565 | Self::Bgra5551 | Self::Bgra4444 | Self::NormalizedByte2 => 2,
            Self::HalfSingle => 2,
            Self::Color
            | Self::NormalizedByte4
            | Self::Rgba1010102
            | Self::Rg32
            | Self::Single
            | Self::HalfVector2 => 4,
            Self::Rgba64 | Self::Vector2 | Self::HalfVector4 | Self::HdrBlendable => 8,
            Self::Vector4 => 16,
            Self::Dxt1 => 8,
            Self::Dxt3 | Self::Dxt5 => 16,
        }
    }

    /// Texels along each edge of one element (4 for block-compressed formats, else 1).
    pub fn block_edge(self) -> u32 {
        if self.is_block_compressed() {
            4
        } else {
            1
        }
    }

    /// Bytes of a `width` × `height` region: whole blocks for compressed formats
    /// (`ceil(w/4) × ceil(h/4)` blocks), texels otherwise.
    pub fn region_size(self, width: u32, height: u32) -> usize {
        let b = self.block_edge();
        let (bw, bh) = (width.div_ceil(b) as usize, height.div_ceil(b) as usize);
        bw * bh * self.element_size()
    }
}

/// XNA 4.0's `DepthFormat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum DepthFormat {
    /// No depth buffer.
    #[default]
    None,
    /// 16-bit depth, no stencil.
    Depth16,
    /// 24-bit depth, no stencil (a backend may allocate 32-bit float depth where 24-bit is missing;
    /// the device reports what it applied).
    Depth24,
    /// 24-bit depth with an 8-bit stencil (a backend may allocate 32-bit float depth with stencil
    /// where this is missing).
    Depth24Stencil8,
}

impl DepthFormat {
    /// Whether the format has a depth aspect (anything but `None`).
    pub fn has_depth(self) -> bool {
        self != Self::None
    }

    /// Whether the format has a stencil aspect (only `Depth24Stencil8`).
    pub fn has_stencil(self) -> bool {
        self == Self::Depth24Stencil8
    }

    /// Bytes per sample of the depth/stencil attachment (as stored by the GPU families).
    pub fn bytes_per_sample(self) -> usize {
        match self {
            Self::None => 0,
            Self::Depth16 => 2,
            Self::Depth24 | Self::Depth24Stencil8 => 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_compressed_sizes_count_whole_blocks() {
        assert_eq!(SurfaceFormat::Dxt1.region_size(5, 5), 4 * 8);
        assert_eq!(SurfaceFormat::Dxt5.region_size(4, 4), 16);
        assert_eq!(SurfaceFormat::Color.region_size(3, 2), 24);
    }
}
