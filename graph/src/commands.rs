//! The frame command list: what the public API records between flushes.
//!
//! A frame is a sequence of [`Node`]s in recording order. A [`PassSegment`] is one render-target
//! bind cycle (or the continuation of one that an upload, a readback or a flush interrupted); it
//! holds its attachments and the textures its draws sample by `Arc`, says how it began
//! ([`SegmentStart`]), and lists its [`PassOp`]s (clears and draws) in order. Uploads carry a
//! copy of the caller's data. The sprites of every draw live in one arena,
//! [`FrameCommands::sprites`], one instance each. Frames are built by
//! [`crate::builder::FrameBuilder`], which records what the game did and decides nothing.

use std::sync::Arc;

use crate::resource::{RenderTargetUsage, TextureState};

/// An integer rectangle in pixels (XNA's `Rectangle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rect {
    /// Left edge, in pixels.
    pub x: i32,
    /// Top edge, in pixels.
    pub y: i32,
    /// Width, in pixels.
    pub width: i32,
    /// Height, in pixels.
    pub height: i32,
}

impl Rect {
    /// `new Rectangle(x, y, width, height)`.
    pub const fn new(x: i32, y: i32, width: i32, height: i32) -> Self {
        Rect { x, y, width, height }
    }
}

/// The depth slices `front..back` a transfer covers: the z range of XNA's `Texture3D` box. A 2D
/// texture or a cube face has one slice, [`Slices::FLAT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slices {
    /// The first slice covered.
    pub front: u32,
    /// One past the last slice covered.
    pub back: u32,
}

impl Slices {
    /// The one slice of a 2D subresource.
    pub const FLAT: Slices = Slices { front: 0, back: 1 };

    /// How many slices are covered.
    pub fn count(self) -> u32 {
        self.back.saturating_sub(self.front)
    }
}

/// XNA's `Viewport` (pixels, depth range).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Viewport {
    /// Left edge of the viewport, in pixels of the bound target.
    pub x: i32,
    /// Top edge of the viewport, in pixels.
    pub y: i32,
    /// Width, in pixels.
    pub width: i32,
    /// Height, in pixels.
    pub height: i32,
    /// Depth the near plane maps to (XNA's `MinDepth`, in [0, 1]).
    pub min_depth: f32,
    /// Depth the far plane maps to (XNA's `MaxDepth`, in [0, 1]).
    pub max_depth: f32,
}

impl Viewport {
    /// `new Viewport(x, y, width, height)`: depth range 0 to 1.
    pub fn new(x: i32, y: i32, width: i32, height: i32) -> Self {
        Viewport { x, y, width, height, min_depth: 0.0, max_depth: 1.0 }
    }
}

/// XNA's `Blend`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// XNA's `BlendState` as pipeline data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlendState {
    /// Factor applied to the source colour (XNA's default: `One`).
    pub color_source_blend: Blend,
    /// Factor applied to the destination colour (XNA's default: `Zero`).
    pub color_destination_blend: Blend,
    /// How source and destination colour combine (XNA's default: `Add`).
    pub color_blend_function: BlendFunction,
    /// Factor applied to the source alpha (XNA's default: `One`).
    pub alpha_source_blend: Blend,
    /// Factor applied to the destination alpha (XNA's default: `Zero`).
    pub alpha_destination_blend: Blend,
    /// How source and destination alpha combine (XNA's default: `Add`).
    pub alpha_blend_function: BlendFunction,
    /// RGBA write mask, bit 0 = red.
    pub color_write_channels: u8,
    /// The constant colour `Blend::BlendFactor` and `Blend::InverseBlendFactor` use, as XNA's
    /// `Color` bytes R G B A (opaque white by default, as in XNA).
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
            color_write_channels: 0xF,
            blend_factor: [255; 4],
        }
    }
    /// Whether drawing with this state reads the destination (anything but One·src + Zero·dst
    /// for colour and alpha): the one predicate for "blending is on", which needs a blendable
    /// target format.
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
pub enum TextureAddressMode {
    /// Repeat the texture: coordinates are taken modulo 1.
    Wrap,
    /// Clamp coordinates to [0, 1]: edge texels repeat.
    Clamp,
    /// Mirror the texture at every integer boundary.
    Mirror,
}

/// XNA's `SamplerState` as pipeline data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SamplerState {
    /// Minification, magnification and mip filter.
    pub filter: TextureFilter,
    /// Addressing of the u coordinate.
    pub address_u: TextureAddressMode,
    /// Addressing of the v coordinate.
    pub address_v: TextureAddressMode,
    /// Addressing of the w coordinate (3D textures).
    pub address_w: TextureAddressMode,
    /// Largest anisotropy used by `TextureFilter::Anisotropic` (XNA's default: 4).
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
}

/// XNA's `CompareFunction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepthStencilState {
    /// Whether the depth test runs.
    pub depth_buffer_enable: bool,
    /// Whether passing fragments write their depth.
    pub depth_buffer_write_enable: bool,
    /// The depth test (XNA's default: `LessEqual`).
    pub depth_buffer_function: CompareFunction,
    /// Whether the stencil test runs.
    pub stencil_enable: bool,
    /// The stencil test, reference against stored value (XNA's default: `Always`).
    pub stencil_function: CompareFunction,
    /// What a fragment passing both tests does to the stencil value.
    pub stencil_pass: StencilOperation,
    /// What a fragment failing the stencil test does to it.
    pub stencil_fail: StencilOperation,
    /// What a fragment passing the stencil test but failing the depth test does to it.
    pub stencil_depth_buffer_fail: StencilOperation,
    /// The reference value of the stencil test and of `StencilOperation::Replace`.
    pub reference_stencil: u32,
    /// Bits of the stored and reference values the stencil test compares.
    pub stencil_mask: u32,
    /// Bits of the stencil value a stencil operation may change.
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
pub enum FillMode {
    /// Fill triangles.
    Solid,
    /// Draw triangle edges only (needs the device's non-solid fill mode, else `NotSupported`).
    WireFrame,
}

/// XNA's `RasterizerState` as pipeline data (depth bias as raw bits so the key hashes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RasterizerState {
    /// Which triangles are culled.
    pub cull_mode: CullMode,
    /// Solid or wireframe.
    pub fill_mode: FillMode,
    /// Whether the device's scissor rectangle clips drawing.
    pub scissor_test_enable: bool,
    /// Whether a multisampled target is rasterized with multisampling.
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

/// Which shaders a draw uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderKind {
    /// `shaders/glsl/sprite.{vert,frag}`: position, colour, texcoord; tint × texture sample.
    /// One colour output (location 0): it writes the first bound target only.
    Sprite,
    /// The stock sprite vertex stage with `shaders/glsl/cube_sample.frag`: samples a cube
    /// texture in the direction the tint's RGB encodes (each component mapped from [0, 1] to
    /// [-1, 1]), untinted. The draw's texture must be a cube. One colour output (location 0).
    CubeSample,
    /// The stock sprite vertex stage with a custom effect's fragment stage, which writes
    /// `outputs` colour outputs (locations `0..outputs`). The draw holds the effect
    /// ([`Draw::effect`]) so its native stage outlives the submission.
    Custom(crate::effect::EffectKey),
}

impl ShaderKind {
    /// How many colour outputs the fragment stage writes, from location 0: the attachments a
    /// draw can write (`colors[0..outputs]`).
    pub fn outputs(self) -> usize {
        match self {
            ShaderKind::Sprite | ShaderKind::CubeSample => 1,
            ShaderKind::Custom(effect) => usize::from(effect.outputs),
        }
    }
}

/// Everything that selects a pipeline, apart from the attachment formats of the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineKey {
    /// The stock shader.
    pub shader: ShaderKind,
    /// Blend state of every colour attachment.
    pub blend: BlendState,
    /// Depth and stencil tests.
    pub depth_stencil: DepthStencilState,
    /// Culling, fill mode, scissor test and depth bias.
    pub rasterizer: RasterizerState,
}

/// One sprite as `sprite.vert` reads it: an instance (48 bytes) whose four corners the vertex
/// stage expands, drawn as a four-vertex strip TL, TR, BL, BR. Corner `i` lies at
/// `origin + right·(i & 1) + down·(i >> 1)` and samples `texcoords` interpolated the same way,
/// so a rotated, scaled, flipped sprite costs the CPU one instance instead of four vertices.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SpriteInstance {
    /// The top-left corner, in pixels before the draw's transform.
    pub origin: [f32; 2],
    /// The edge from the top-left to the top-right corner.
    pub right: [f32; 2],
    /// The edge from the top-left to the bottom-left corner.
    pub down: [f32; 2],
    /// Texture coordinates at the top-left (u, v) and bottom-right (u, v) corners, flips applied.
    pub texcoords: [f32; 4],
    /// XNA's layer depth, written as the corners' z.
    pub depth: f32,
    /// The tint as XNA's `Color` bytes, R G B A.
    pub color: [u8; 4],
}

impl SpriteInstance {
    /// Corner `i` (0 TL, 1 TR, 2 BL, 3 BR): its position and texture coordinates, as the
    /// vertex stage computes them.
    pub fn corner(&self, i: usize) -> ([f32; 2], [f32; 2]) {
        let (x, y) = ((i & 1) as f32, (i >> 1) as f32);
        let [u0, v0, u1, v1] = self.texcoords;
        (
            [
                self.origin[0] + self.right[0] * x + self.down[0] * y,
                self.origin[1] + self.right[1] * x + self.down[1] * y,
            ],
            [u0 + (u1 - u0) * x, v0 + (v1 - v0) * y],
        )
    }
}

/// A clear command. Each aspect is `Some` only when the caller asked for it *and* the bound
/// target has it (the engine filters), so the compiler never sees a clear of a missing aspect.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Clear {
    /// Clear the colour attachments to this RGBA value.
    pub color: Option<[f32; 4]>,
    /// Clear the depth to this value.
    pub depth: Option<f32>,
    /// Clear the stencil to this value.
    pub stencil: Option<u32>,
}

/// One draw of quads from the frame's vertex arena.
#[derive(Clone, Debug)]
pub struct Draw {
    /// Blend, depth/stencil and rasterizer state of the draw.
    pub pipeline: PipelineKey,
    /// How the draw samples its texture.
    pub sampler: SamplerState,
    /// The texture sampled (held so it outlives the frame's submission).
    pub texture: Arc<TextureState>,
    /// The custom effect of a [`ShaderKind::Custom`] draw (held so its native fragment stage
    /// outlives the frame's submission); `None` for the stock shaders.
    pub effect: Option<Arc<crate::effect::EffectState>>,
    /// First sprite in [`FrameCommands::sprites`].
    pub first_sprite: u32,
    /// Number of sprites, from `first_sprite` on.
    pub sprite_count: u32,
    /// The viewport in force when the draw was recorded.
    pub viewport: Viewport,
    /// Applied only when `pipeline.rasterizer.scissor_test_enable`.
    pub scissor: Rect,
    /// Column-major clip-space transform applied in the vertex shader.
    pub transform: [f32; 16],
}

/// An operation inside a bind cycle, in recording order.
#[derive(Clone, Debug)]
pub enum PassOp {
    /// `Clear`: clear the aspects given.
    Clear(Clear),
    /// A draw of sprites.
    Draw(Draw),
}

/// One colour attachment of a pass segment: a 2D target (`layer` 0) or a cube face.
#[derive(Clone, Debug)]
pub struct ColorBinding {
    /// The texture whose image is attached.
    pub target: Arc<TextureState>,
    /// The array layer (cube face) attached; 0 for a 2D target.
    pub layer: u32,
}

/// How a pass segment began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentStart {
    /// A real `SetRenderTargets` transition. `usage` is the first target's (the back buffer's
    /// presentation usage when returning to it): as in XNA and FNA, the first target's usage
    /// decides whether the bind discards, and a discarding bind starts every attachment at
    /// opaque black, depth 1 and stencil 0 (the load stage turns that into CLEAR load ops).
    Bind {
        /// The usage that decides whether this bind discards.
        usage: RenderTargetUsage,
    },
    /// Drawing went back to the back buffer without a `SetRenderTargets` call, after a bound
    /// target was destroyed. Nothing is cleared. (A new frame starts as a `Bind` of the back
    /// buffer with its presentation usage.)
    Implicit,
    /// The same bind cycle resumed after an upload, a readback or a flush split it.
    Continue,
}

/// One render-target bind cycle. Depth/stencil, when present, is the primary target's own.
#[derive(Clone, Debug)]
pub struct PassSegment {
    /// One to four attachments; `colors[0]` is the primary (the back buffer when unbound).
    pub colors: Vec<ColorBinding>,
    /// A fresh bind, or the continuation of a split bind cycle.
    pub start: SegmentStart,
    /// Clears and draws, in recording order.
    pub ops: Vec<PassOp>,
}

impl Upload {
    /// Whether the upload replaces the whole level, so the old texels need not survive it.
    pub fn covers_level(&self) -> bool {
        self.texture.desc().covers_level(self.level, self.rect, self.slices)
    }
}

impl PassSegment {
    /// The primary render target (`colors[0]`): the one whose size and depth buffer the pass uses.
    pub fn primary(&self) -> &Arc<TextureState> {
        &self.colors[0].target
    }
}

/// A CPU → texture upload of one region of one subresource. `data` is tightly packed
/// (`format.region_size(width, height)` bytes per slice, slice after slice).
#[derive(Clone, Debug)]
pub struct Upload {
    /// The texture written.
    pub texture: Arc<TextureState>,
    /// The mip level written.
    pub level: u32,
    /// The array layer (cube face) written.
    pub layer: u32,
    /// The region written, in texels of that level.
    pub rect: Rect,
    /// The depth slices written (a volume's box); [`Slices::FLAT`] otherwise.
    pub slices: Slices,
    /// The caller's data, copied at the call, tightly packed in the texture's format.
    pub data: Vec<u8>,
}

/// Names one readback within a frame so the caller can collect its bytes after the wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReadbackId(pub u64);

/// A texture → CPU copy of one region of one subresource (the resolved image of a
/// multisampled target), tightly packed.
#[derive(Clone, Debug)]
pub struct Readback {
    /// The name the caller collects the bytes under.
    pub id: ReadbackId,
    /// The texture read.
    pub texture: Arc<TextureState>,
    /// The mip level read.
    pub level: u32,
    /// The array layer (cube face) read.
    pub layer: u32,
    /// The region read, in texels of that level.
    pub rect: Rect,
    /// The depth slices read (a volume's box); [`Slices::FLAT`] otherwise. The bytes come
    /// slice after slice.
    pub slices: Slices,
}

/// One recorded node.
#[derive(Clone, Debug)]
pub enum Node {
    /// A bind cycle (or its continuation) with its clears and draws.
    Pass(PassSegment),
    /// A `SetData`.
    Upload(Upload),
    /// A `GetData` (or `GetBackBufferData`).
    Readback(Readback),
    /// The back buffer is presented: its content is observed.
    Present(Arc<TextureState>),
}

/// One frame's recording, consumed by [`crate::compile::compile`].
#[derive(Clone, Debug, Default)]
pub struct FrameCommands {
    /// The recorded nodes, in recording order.
    pub nodes: Vec<Node>,
    /// Every draw's sprites, in one arena; a draw names its range.
    pub sprites: Vec<SpriteInstance>,
    /// The pass segment (an index into `nodes`) whose bind cycle was still open when the frame
    /// was flushed: the next frame continues that cycle and loads what its attachments hold.
    pub open_cycle: Option<usize>,
}

impl FrameCommands {
    /// Whether nothing was recorded (a flush of an empty frame submits nothing).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}
