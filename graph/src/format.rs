//! XNA's surface and depth formats, and the facts about them every layer needs: bytes per
//! element, block size, which aspects a depth format has.

/// XNA 4.0's `SurfaceFormat`, in XNA's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SurfaceFormat {
    /// 32-bit RGBA, 8 bits per channel, unsigned normalized; bytes R, G, B, A in memory (XNA's
    /// `Color`).
    Color,
    /// 16-bit packed RGB: 5 bits red, 6 green, 5 blue.
    Bgr565,
    /// 16-bit packed RGBA: 5 bits per colour channel, 1 bit alpha.
    Bgra5551,
    /// 16-bit packed RGBA, 4 bits per channel.
    Bgra4444,
    /// DXT1 (BC1) block compression: 8 bytes per 4×4 block, 1-bit alpha.
    Dxt1,
    /// DXT3 (BC2) block compression: 16 bytes per 4×4 block, explicit 4-bit alpha.
    Dxt3,
    /// DXT5 (BC3) block compression: 16 bytes per 4×4 block, interpolated alpha.
    Dxt5,
    /// Two signed normalized 8-bit channels (red, green).
    NormalizedByte2,
    /// Four signed normalized 8-bit channels.
    NormalizedByte4,
    /// 32-bit packed RGBA: 10 bits per colour channel, 2 bits alpha, unsigned normalized.
    Rgba1010102,
    /// Two unsigned normalized 16-bit channels (red, green).
    Rg32,
    /// Four unsigned normalized 16-bit channels.
    Rgba64,
    /// One 8-bit unsigned normalized alpha channel; samples as (0, 0, 0, a), as in XNA.
    Alpha8,
    /// One 32-bit float channel (red).
    Single,
    /// Two 32-bit float channels.
    Vector2,
    /// Four 32-bit float channels.
    Vector4,
    /// One 16-bit float channel (red).
    HalfSingle,
    /// Two 16-bit float channels.
    HalfVector2,
    /// Four 16-bit float channels.
    HalfVector4,
    /// XNA's platform HDR format that can be blended; here four 16-bit float channels, as
    /// `HalfVector4`.
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
