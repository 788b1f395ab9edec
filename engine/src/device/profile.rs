//! `GraphicsProfile`: the limits XNA's Reach and HiDef profiles impose, in one place.

use xnagraph_graph::SurfaceFormat;

/// XNA's `GraphicsProfile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GraphicsProfile {
    /// The broad profile: 2048 texture edges, 512 cube edges, one render target, a small format
    /// set, and no mipmaps on non-power-of-two textures.
    Reach,
    /// The full profile: 4096 texture and cube edges, four simultaneous render targets, every
    /// surface format (subject to what the adapter supports). The default.
    #[default]
    HiDef,
}

impl GraphicsProfile {
    /// Largest edge of a 2D texture or render target.
    pub fn max_texture_size(self) -> u32 {
        match self {
            GraphicsProfile::Reach => 2048,
            GraphicsProfile::HiDef => 4096,
        }
    }

    /// Largest edge of a cube texture or cube render target.
    pub fn max_cube_size(self) -> u32 {
        match self {
            GraphicsProfile::Reach => 512,
            GraphicsProfile::HiDef => 4096,
        }
    }

    /// Largest width, height or depth of a `Texture3D` (XNA's `MaxVolumeExtent`): none under
    /// Reach, which has no volume textures, 256 under HiDef.
    pub fn max_volume_extent(self) -> u32 {
        match self {
            GraphicsProfile::Reach => 0,
            GraphicsProfile::HiDef => 256,
        }
    }

    /// Whether a `Texture3D` of this format may be created under the profile (XNA's
    /// `ValidVolumeFormats`): none under Reach; under HiDef every texture format but the
    /// block-compressed ones.
    pub fn supports_volume_format(self, format: SurfaceFormat) -> bool {
        self.max_volume_extent() > 0
            && self.supports_texture_format(format)
            && !format.is_block_compressed()
    }

    /// Simultaneous render-target bindings.
    pub fn max_render_targets(self) -> usize {
        match self {
            GraphicsProfile::Reach => 1,
            GraphicsProfile::HiDef => 4,
        }
    }

    /// Whether a texture of this format may be created under the profile.
    pub fn supports_texture_format(self, format: SurfaceFormat) -> bool {
        match self {
            GraphicsProfile::HiDef => true,
            GraphicsProfile::Reach => matches!(
                format,
                SurfaceFormat::Color
                    | SurfaceFormat::Bgr565
                    | SurfaceFormat::Bgra5551
                    | SurfaceFormat::Bgra4444
                    | SurfaceFormat::Dxt1
                    | SurfaceFormat::Dxt3
                    | SurfaceFormat::Dxt5
                    | SurfaceFormat::NormalizedByte2
                    | SurfaceFormat::NormalizedByte4
            ),
        }
    }

    /// Whether a render target of this format may be created under the profile (before the
    /// backend's own verdict).
    pub fn supports_render_target_format(self, format: SurfaceFormat) -> bool {
        match self {
            GraphicsProfile::Reach => format == SurfaceFormat::Color,
            GraphicsProfile::HiDef => !format.is_block_compressed(),
        }
    }

    /// Whether a `RenderTargetCube` of this format may be created under the profile (before the
    /// backend's own verdict): XNA's render-target formats, where HiDef has no signed
    /// normalised ones (`NormalizedByte2`, `NormalizedByte4`) and no DXT. A cube target asked
    /// for any other format gets `Color`. Where xnagraph differs: a `RenderTarget2D` keeps
    /// `NormalizedByte2`/`NormalizedByte4` where the adapter renders them
    /// ([`Self::supports_render_target_format`]), an extension over XNA's list.
    pub fn supports_cube_target_format(self, format: SurfaceFormat) -> bool {
        self.supports_render_target_format(format)
            && !matches!(format, SurfaceFormat::NormalizedByte2 | SurfaceFormat::NormalizedByte4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_limits_are_xnas() {
        assert_eq!(GraphicsProfile::Reach.max_texture_size(), 2048);
        assert_eq!(GraphicsProfile::HiDef.max_texture_size(), 4096);
        assert_eq!(GraphicsProfile::Reach.max_cube_size(), 512);
        assert_eq!(GraphicsProfile::HiDef.max_cube_size(), 4096);
        assert_eq!(GraphicsProfile::Reach.max_render_targets(), 1);
        assert_eq!(GraphicsProfile::HiDef.max_render_targets(), 4);
        assert_eq!(GraphicsProfile::Reach.max_volume_extent(), 0);
        assert_eq!(GraphicsProfile::HiDef.max_volume_extent(), 256);
    }

    #[test]
    fn volumes_take_every_hidef_format_but_the_block_compressed_ones() {
        let hidef = |f| GraphicsProfile::HiDef.supports_volume_format(f);
        let refused: Vec<_> = SurfaceFormat::ALL.into_iter().filter(|&f| !hidef(f)).collect();
        assert_eq!(refused, [SurfaceFormat::Dxt1, SurfaceFormat::Dxt3, SurfaceFormat::Dxt5]);
        let reach = SurfaceFormat::ALL.into_iter();
        assert!(reach.filter(|&f| GraphicsProfile::Reach.supports_volume_format(f)).count() == 0);
    }

    #[test]
    fn cube_targets_take_no_signed_normalised_or_block_compressed_format() {
        let hidef = |f| GraphicsProfile::HiDef.supports_cube_target_format(f);
        let refused: Vec<_> = SurfaceFormat::ALL.into_iter().filter(|&f| !hidef(f)).collect();
        assert_eq!(
            refused,
            [
                SurfaceFormat::Dxt1,
                SurfaceFormat::Dxt3,
                SurfaceFormat::Dxt5,
                SurfaceFormat::NormalizedByte2,
                SurfaceFormat::NormalizedByte4
            ]
        );
        let reach = |f| GraphicsProfile::Reach.supports_cube_target_format(f);
        let kept: Vec<_> = SurfaceFormat::ALL.into_iter().filter(|&f| reach(f)).collect();
        assert_eq!(kept, [SurfaceFormat::Color]);
    }
}
