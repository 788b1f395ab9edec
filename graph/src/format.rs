//! XNA's surface and depth formats, and the facts about them every layer needs: bytes per
//! element, block size, which aspects a depth format has.

/// XNA 4.0's `SurfaceFormat`, in XNA's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SurfaceFormat {
    Color,
    Bgr565,
    Bgra5551,
    Bgra4444,
    Dxt1,
    Dxt3,
    Dxt5,
    NormalizedByte2,
    NormalizedByte4,
    Rgba1010102,
    Rg32,
    Rgba64,
    Alpha8,
    Single,
    Vector2,
    Vector4,
    HalfSingle,
    HalfVector2,
    HalfVector4,
    HdrBlendable,
}

impl SurfaceFormat {
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
    #[default]
    None,
    Depth16,
    Depth24,
    Depth24Stencil8,
}

impl DepthFormat {
    pub fn has_depth(self) -> bool {
        self != Self::None
    }

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
