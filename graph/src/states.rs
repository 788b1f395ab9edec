//! XNA's device states as pipeline data: `BlendState`, `SamplerState`, `DepthStencilState` and
//! `RasterizerState` with their enums and XNA's stock values.
//!
//! A draw records the states it was issued with (see [`crate::commands::Draw`]); the compiler
//! reads the few fields that decide what a draw reads or writes (a blend that reads the
//! destination, the colour write mask), and a backend translates the rest into its pipeline
//! state. They are re-exported by [`crate::commands`].

/// XNA's `Blend`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum Blend {
    /// Factor (1, 1, 1, 1).
    One,
    /// Factor (0, 0, 0, 0).
    Zero,
    /// The source colour.
    SourceColor,
    /// One minus the source colour.
    InverseSourceColor,
    /// The source alpha.
    SourceAlpha,
    /// One minus the source alpha.
    InverseSourceAlpha,
    /// The destination colour.
    DestinationColor,
    /// One minus the destination colour.
    InverseDestinationColor,
    /// The destination alpha.
    DestinationAlpha,
    /// One minus the destination alpha.
    InverseDestinationAlpha,
    /// The blend state's constant `BlendFactor`.
    BlendFactor,
    /// One minus the constant `BlendFactor`.
    InverseBlendFactor,
    /// min(source alpha, 1 − destination alpha) for colour; 1 for alpha.
    SourceAlphaSaturation,
}

/// XNA's `BlendFunction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum BlendFunction {
    /// source × source factor + destination × destination factor.
    Add,
    /// source × source factor − destination × destination factor.
    Subtract,
    /// destination × destination factor − source × source factor.
    ReverseSubtract,
    /// The smaller of source and destination (factors ignored).
    Min,
    /// The larger of source and destination (factors ignored).
    Max,
}

bitflags::bitflags! {
    /// XNA's `ColorWriteChannels`: the colour channels a draw writes, as a bitflags type
    /// (`RED | GREEN`, `contains`, `empty` for none). Serialized as its bits (red is bit 0).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
    pub struct ColorWriteChannels: u8 {
        /// `ColorWriteChannels.Red`.
        const RED = 1;
        /// `ColorWriteChannels.Green`.
        const GREEN = 2;
        /// `ColorWriteChannels.Blue`.
        const BLUE = 4;
        /// `ColorWriteChannels.Alpha`.
        const ALPHA = 8;
        /// `ColorWriteChannels.All`.
        const ALL = 0xF;
    }
}

impl ColorWriteChannels {
    /// `ColorWriteChannels.None`: the draw writes no colour.
    pub const NONE: ColorWriteChannels = ColorWriteChannels::empty();
}

impl Default for ColorWriteChannels {
    /// `All`, XNA's default.
    fn default() -> Self {
        ColorWriteChannels::ALL
    }
}

/// XNA's `BlendState` as pipeline data.
///
/// Where it differs from XNA: a plain `Copy` value compared by its fields, not a graphics
/// resource, so there is no `Dispose`, `Name` or `Tag`, and no `InvalidOperation` for changing
/// a state once bound (a changed value is simply another state); XNA's stock objects are the
/// constants ([`BlendState::OPAQUE`], ...). One write mask for every target: XNA's
/// `ColorWriteChannels1` to `3` and `MultiSampleMask` are not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub struct BlendState {
    /// XNA's `ColorSourceBlend`: the factor applied to the source colour (default `One`).
    pub color_source_blend: Blend,
    /// XNA's `ColorDestinationBlend`: the factor applied to the destination colour (default
    /// `Zero`).
    pub color_destination_blend: Blend,
    /// XNA's `ColorBlendFunction`: how source and destination colour combine (default `Add`).
    pub color_blend_function: BlendFunction,
    /// XNA's `AlphaSourceBlend`: the factor applied to the source alpha (default `One`).
    pub alpha_source_blend: Blend,
    /// XNA's `AlphaDestinationBlend`: the factor applied to the destination alpha (default
    /// `Zero`).
    pub alpha_destination_blend: Blend,
    /// XNA's `AlphaBlendFunction`: how source and destination alpha combine (default `Add`).
    pub alpha_blend_function: BlendFunction,
    /// XNA's `ColorWriteChannels`: the channels a draw writes (default all four), to every
    /// bound target.
    pub color_write_channels: ColorWriteChannels,
    /// XNA's `BlendFactor`: the constant colour `Blend::BlendFactor` and
    /// `Blend::InverseBlendFactor` use, as `Color` bytes R G B A (opaque white by default, as
    /// in XNA).
    pub blend_factor: [u8; 4],
}

impl BlendState {
    const fn uniform(src: Blend, dst: Blend) -> Self {
        BlendState {
            color_source_blend: src,
            color_destination_blend: dst,
            color_blend_function: BlendFunction::Add,
            alpha_source_blend: src,
            alpha_destination_blend: dst,
            alpha_blend_function: BlendFunction::Add,
            color_write_channels: ColorWriteChannels::ALL,
            blend_factor: [255; 4],
        }
    }
    /// Not XNA: whether drawing with this state reads the destination (anything but One·src +
    /// Zero·dst for colour and alpha): the one predicate for "blending is on", which needs a
    /// blendable target format.
    pub fn blends(&self) -> bool {
        let opaque =
            |src, dst, f| src == Blend::One && dst == Blend::Zero && f == BlendFunction::Add;
        !(opaque(self.color_source_blend, self.color_destination_blend, self.color_blend_function)
            && opaque(
                self.alpha_source_blend,
                self.alpha_destination_blend,
                self.alpha_blend_function,
            ))
    }

    /// `BlendState.Opaque`: the source replaces the destination.
    pub const OPAQUE: BlendState = Self::uniform(Blend::One, Blend::Zero);
    /// `BlendState.AlphaBlend`: premultiplied alpha, source + destination × (1 − source alpha).
    pub const ALPHA_BLEND: BlendState = Self::uniform(Blend::One, Blend::InverseSourceAlpha);
    /// `BlendState.Additive`: source × source alpha added to the destination.
    pub const ADDITIVE: BlendState = Self::uniform(Blend::SourceAlpha, Blend::One);
    /// `BlendState.NonPremultiplied`: source × source alpha + destination × (1 − source alpha).
    pub const NON_PREMULTIPLIED: BlendState =
        Self::uniform(Blend::SourceAlpha, Blend::InverseSourceAlpha);
}

/// XNA's `TextureFilter` (the subset SpriteBatch's stock samplers use, plus the rest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum TextureFilter {
    /// Linear minification, magnification and mip filtering.
    Linear,
    /// Point (nearest) minification, magnification and mip filtering.
    Point,
    /// Anisotropic filtering, up to the sampler's `max_anisotropy`.
    Anisotropic,
    /// Linear minification and magnification, point mip filtering.
    LinearMipPoint,
    /// Point minification and magnification, linear mip filtering.
    PointMipLinear,
    /// Linear minification, point magnification, linear mip filtering.
    MinLinearMagPointMipLinear,
    /// Linear minification, point magnification, point mip filtering.
    MinLinearMagPointMipPoint,
    /// Point minification, linear magnification, linear mip filtering.
    MinPointMagLinearMipLinear,
    /// Point minification, linear magnification, point mip filtering.
    MinPointMagLinearMipPoint,
}

/// XNA's `TextureAddressMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum TextureAddressMode {
    /// Repeat the texture: coordinates are taken modulo 1.
    Wrap,
    /// Clamp coordinates to [0, 1]: edge texels repeat.
    Clamp,
    /// Mirror the texture at every integer boundary.
    Mirror,
}

/// XNA's `SamplerState` as pipeline data.
///
/// Where it differs from XNA: a plain `Copy` value compared by its fields, not a graphics
/// resource (no `Dispose`, `Name` or `Tag`, and no `InvalidOperation` for changing a state
/// once bound); XNA's stock objects are the constants ([`SamplerState::LINEAR_CLAMP`], ...).
/// XNA's `MipMapLevelOfDetailBias` is not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub struct SamplerState {
    /// XNA's `Filter`: the minification, magnification and mip filter.
    pub filter: TextureFilter,
    /// XNA's `AddressU`: addressing of the u coordinate.
    pub address_u: TextureAddressMode,
    /// XNA's `AddressV`: addressing of the v coordinate.
    pub address_v: TextureAddressMode,
    /// XNA's `AddressW`: addressing of the w coordinate (3D textures).
    pub address_w: TextureAddressMode,
    /// XNA's `MaxAnisotropy`: the largest anisotropy `TextureFilter::Anisotropic` uses
    /// (default 4; clamped to the device's limit, see [`Self::driver_max_anisotropy`]).
    pub max_anisotropy: u32,
    /// Index of the most detailed mip level that may be sampled (XNA's `MaxMipLevel`; 0 allows
    /// level 0).
    pub max_mip_level: u32,
}

impl SamplerState {
    const fn of(filter: TextureFilter, mode: TextureAddressMode) -> Self {
        SamplerState {
            filter,
            address_u: mode,
            address_v: mode,
            address_w: mode,
            max_anisotropy: 4,
            max_mip_level: 0,
        }
    }
    /// `SamplerState.PointClamp`.
    pub const POINT_CLAMP: SamplerState = Self::of(TextureFilter::Point, TextureAddressMode::Clamp);
    /// `SamplerState.PointWrap`.
    pub const POINT_WRAP: SamplerState = Self::of(TextureFilter::Point, TextureAddressMode::Wrap);
    /// `SamplerState.LinearClamp` (SpriteBatch's default).
    pub const LINEAR_CLAMP: SamplerState =
        Self::of(TextureFilter::Linear, TextureAddressMode::Clamp);
    /// `SamplerState.LinearWrap`.
    pub const LINEAR_WRAP: SamplerState = Self::of(TextureFilter::Linear, TextureAddressMode::Wrap);
    /// `SamplerState.AnisotropicClamp`.
    pub const ANISOTROPIC_CLAMP: SamplerState =
        Self::of(TextureFilter::Anisotropic, TextureAddressMode::Clamp);
    /// `SamplerState.AnisotropicWrap`.
    pub const ANISOTROPIC_WRAP: SamplerState =
        Self::of(TextureFilter::Anisotropic, TextureAddressMode::Wrap);

    /// Not XNA: the anisotropy a backend's sampler is created with, given the device's largest
    /// (`maxSamplerAnisotropy` on Vulkan): `max_anisotropy` (0 read as 1) clamped to
    /// `device_limit` when the filter is `Anisotropic`, else 1. XNA accepts any `MaxAnisotropy`
    /// and the driver clamps it; Vulkan and SDL_gpu refuse a value above the limit, so every
    /// backend asks here.
    pub fn driver_max_anisotropy(&self, device_limit: f32) -> f32 {
        if self.filter == TextureFilter::Anisotropic {
            (self.max_anisotropy.max(1) as f32).min(device_limit.max(1.0))
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod sampler_tests {
    use super::*;

    #[test]
    fn driver_max_anisotropy_clamps_to_the_device_limit_and_ignores_other_filters() {
        let aniso =
            |max_anisotropy| SamplerState { max_anisotropy, ..SamplerState::ANISOTROPIC_WRAP };
        assert_eq!(aniso(1000).driver_max_anisotropy(16.0), 16.0);
        assert_eq!(aniso(8).driver_max_anisotropy(16.0), 8.0);
        assert_eq!(aniso(0).driver_max_anisotropy(16.0), 1.0);
        let linear = SamplerState { max_anisotropy: 1000, ..SamplerState::LINEAR_WRAP };
        assert_eq!(linear.driver_max_anisotropy(16.0), 1.0);
    }
}

/// XNA's `CompareFunction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum CompareFunction {
    /// The test always passes.
    Always,
    /// The test never passes.
    Never,
    /// Passes when the new value is less than the stored one.
    Less,
    /// Passes when the new value is less than or equal to the stored one.
    LessEqual,
    /// Passes when the values are equal.
    Equal,
    /// Passes when the new value is greater than or equal to the stored one.
    GreaterEqual,
    /// Passes when the new value is greater than the stored one.
    Greater,
    /// Passes when the values differ.
    NotEqual,
}

/// XNA's `StencilOperation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum StencilOperation {
    /// Keep the stored value.
    Keep,
    /// Set it to 0.
    Zero,
    /// Set it to the reference stencil value.
    Replace,
    /// Add one, wrapping to 0 past the maximum.
    Increment,
    /// Subtract one, wrapping to the maximum below 0.
    Decrement,
    /// Add one, clamped to the maximum.
    IncrementSaturation,
    /// Subtract one, clamped to 0.
    DecrementSaturation,
    /// Invert its bits.
    Invert,
}

/// XNA's `DepthStencilState` as pipeline data (one-sided stencil).
///
/// Where it differs from XNA: a plain `Copy` value compared by its fields, not a graphics
/// resource (no `Dispose`, `Name` or `Tag`, and no `InvalidOperation` for changing a state
/// once bound); XNA's stock objects are the constants ([`DepthStencilState::DEFAULT`], ...).
/// XNA's `TwoSidedStencilMode` and its `CounterClockwiseStencil*` operations are not kept:
/// both faces use the one stencil setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub struct DepthStencilState {
    /// XNA's `DepthBufferEnable`: whether the depth test runs.
    pub depth_buffer_enable: bool,
    /// XNA's `DepthBufferWriteEnable`: whether passing fragments write their depth.
    pub depth_buffer_write_enable: bool,
    /// XNA's `DepthBufferFunction`: the depth test (default `LessEqual`).
    pub depth_buffer_function: CompareFunction,
    /// XNA's `StencilEnable`: whether the stencil test runs.
    pub stencil_enable: bool,
    /// XNA's `StencilFunction`: the stencil test, reference against stored value (default
    /// `Always`).
    pub stencil_function: CompareFunction,
    /// XNA's `StencilPass`: what a fragment passing both tests does to the stencil value.
    pub stencil_pass: StencilOperation,
    /// XNA's `StencilFail`: what a fragment failing the stencil test does to it.
    pub stencil_fail: StencilOperation,
    /// XNA's `StencilDepthBufferFail`: what a fragment passing the stencil test but failing
    /// the depth test does to it.
    pub stencil_depth_buffer_fail: StencilOperation,
    /// XNA's `ReferenceStencil`: the reference value of the stencil test and of
    /// `StencilOperation::Replace`.
    pub reference_stencil: u32,
    /// XNA's `StencilMask`: bits of the stored and reference values the stencil test
    /// compares.
    pub stencil_mask: u32,
    /// XNA's `StencilWriteMask`: bits of the stencil value a stencil operation may change.
    pub stencil_write_mask: u32,
}

impl DepthStencilState {
    const fn depth(enable: bool, write: bool) -> Self {
        DepthStencilState {
            depth_buffer_enable: enable,
            depth_buffer_write_enable: write,
            depth_buffer_function: CompareFunction::LessEqual,
            stencil_enable: false,
            stencil_function: CompareFunction::Always,
            stencil_pass: StencilOperation::Keep,
            stencil_fail: StencilOperation::Keep,
            stencil_depth_buffer_fail: StencilOperation::Keep,
            reference_stencil: 0,
            stencil_mask: u32::MAX,
            stencil_write_mask: u32::MAX,
        }
    }
    /// `DepthStencilState.Default`: depth test and write on.
    pub const DEFAULT: DepthStencilState = Self::depth(true, true);
    /// `DepthStencilState.DepthRead`: depth test on, no depth write.
    pub const DEPTH_READ: DepthStencilState = Self::depth(true, false);
    /// `DepthStencilState.None`: no depth test, no depth write (SpriteBatch's default).
    pub const NONE: DepthStencilState = Self::depth(false, false);
}

/// XNA's `CullMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum CullMode {
    /// Draw every triangle.
    None,
    /// Cull triangles whose vertices run clockwise on screen.
    CullClockwiseFace,
    /// Cull triangles whose vertices run counter-clockwise on screen (XNA's default).
    CullCounterClockwiseFace,
}

/// XNA's `FillMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum FillMode {
    /// Fill triangles.
    Solid,
    /// Draw triangle edges only (needs the device's non-solid fill mode, else `NotSupported`).
    WireFrame,
}

/// XNA's `RasterizerState` as pipeline data (depth bias as raw bits so the key hashes).
///
/// Where it differs from XNA: a plain `Copy` value compared by its fields, not a graphics
/// resource (no `Dispose`, `Name` or `Tag`, and no `InvalidOperation` for changing a state
/// once bound); XNA's stock objects are the constants ([`RasterizerState::CULL_NONE`], ...).
/// A NaN or infinite depth bias is `Argument` on `rasterizerState` where the state is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub struct RasterizerState {
    /// XNA's `CullMode`: which triangles are culled.
    pub cull_mode: CullMode,
    /// XNA's `FillMode`: solid or wireframe.
    pub fill_mode: FillMode,
    /// XNA's `ScissorTestEnable`: whether the device's scissor rectangle clips drawing.
    pub scissor_test_enable: bool,
    /// XNA's `MultiSampleAntiAlias`: whether a multisampled target is rasterized with
    /// multisampling.
    pub multisample_anti_alias: bool,
    /// XNA's `DepthBias` (an `f32`), as its bits.
    pub depth_bias_bits: u32,
    /// XNA's `SlopeScaleDepthBias` (an `f32`), as its bits.
    pub slope_scale_depth_bias_bits: u32,
}

impl RasterizerState {
    const fn cull(cull_mode: CullMode) -> Self {
        RasterizerState {
            cull_mode,
            fill_mode: FillMode::Solid,
            scissor_test_enable: false,
            multisample_anti_alias: true,
            depth_bias_bits: 0,
            slope_scale_depth_bias_bits: 0,
        }
    }
    /// `RasterizerState.CullNone`.
    pub const CULL_NONE: RasterizerState = Self::cull(CullMode::None);
    /// `RasterizerState.CullClockwise`.
    pub const CULL_CLOCKWISE: RasterizerState = Self::cull(CullMode::CullClockwiseFace);
    /// `RasterizerState.CullCounterClockwise` (XNA's default, and SpriteBatch's).
    pub const CULL_COUNTER_CLOCKWISE: RasterizerState =
        Self::cull(CullMode::CullCounterClockwiseFace);
}

/// `new BlendState()` in XNA: [`BlendState::OPAQUE`] (One, Zero, Add; all channels written).
impl Default for BlendState {
    fn default() -> Self {
        BlendState::OPAQUE
    }
}

/// `new SamplerState()` in XNA: [`SamplerState::LINEAR_WRAP`].
impl Default for SamplerState {
    fn default() -> Self {
        SamplerState::LINEAR_WRAP
    }
}

/// `new DepthStencilState()` in XNA: [`DepthStencilState::DEFAULT`] (depth test LessEqual and
/// depth write on, stencil off).
impl Default for DepthStencilState {
    fn default() -> Self {
        DepthStencilState::DEFAULT
    }
}

/// `new RasterizerState()` in XNA: [`RasterizerState::CULL_COUNTER_CLOCKWISE`] (solid, no
/// depth bias, no scissor test, multisampling on).
impl Default for RasterizerState {
    fn default() -> Self {
        RasterizerState::CULL_COUNTER_CLOCKWISE
    }
}

#[cfg(test)]
mod default_tests {
    use super::*;

    /// The defaults are XNA's constructors', field by field.
    #[test]
    fn the_state_types_default_to_xnas_new_state() {
        let blend = BlendState::default();
        assert_eq!(
            (blend.color_source_blend, blend.color_destination_blend),
            (Blend::One, Blend::Zero)
        );
        assert_eq!(
            (blend.alpha_source_blend, blend.alpha_destination_blend),
            (Blend::One, Blend::Zero)
        );
        assert_eq!(blend.color_write_channels, ColorWriteChannels::ALL);
        assert_eq!(blend.blend_factor, [255; 4]);
        let sampler = SamplerState::default();
        assert_eq!(sampler.filter, TextureFilter::Linear);
        assert_eq!(sampler.address_u, TextureAddressMode::Wrap);
        assert_eq!(sampler.address_v, TextureAddressMode::Wrap);
        assert_eq!(sampler.address_w, TextureAddressMode::Wrap);
        let depth = DepthStencilState::default();
        assert!(depth.depth_buffer_enable && depth.depth_buffer_write_enable);
        assert_eq!(depth.depth_buffer_function, CompareFunction::LessEqual);
        assert!(!depth.stencil_enable);
        let rasterizer = RasterizerState::default();
        assert_eq!(rasterizer.cull_mode, CullMode::CullCounterClockwiseFace);
        assert_eq!(rasterizer.fill_mode, FillMode::Solid);
        assert!(!rasterizer.scissor_test_enable && rasterizer.multisample_anti_alias);
        assert_eq!(ColorWriteChannels::default(), ColorWriteChannels::ALL);
    }
}
