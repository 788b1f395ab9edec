//! The frame command list: what the public API records between flushes.
//!
//! A frame is a sequence of [`Node`]s in recording order. A [`PassSegment`] is one render-target
//! bind cycle (or the continuation of one that an upload or readback interrupted); it holds its
//! attachments and the textures its draws sample by `Arc`, and its [`PassOp`]s (clears and
//! draws) in order. Uploads carry a copy of the caller's data. The sprites of every draw live in
//! one arena, [`FrameCommands::sprites`], one instance each.

use std::sync::Arc;

use crate::resource::TextureState;

/// An integer rectangle in pixels (XNA's `Rectangle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

impl Rect {
    pub const fn new(x: i32, y: i32, width: i32, height: i32) -> Self {
        Rect { x, y, width, height }
    }
}

/// XNA's `Viewport` (pixels, depth range).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Viewport {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
    pub min_depth: f32,
    pub max_depth: f32,
}

impl Viewport {
    pub fn new(x: i32, y: i32, width: i32, height: i32) -> Self {
        Viewport { x, y, width, height, min_depth: 0.0, max_depth: 1.0 }
    }
}

/// XNA's `Blend`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Blend {
    One,
    Zero,
    SourceColor,
    InverseSourceColor,
    SourceAlpha,
    InverseSourceAlpha,
    DestinationColor,
    InverseDestinationColor,
    DestinationAlpha,
    InverseDestinationAlpha,
    BlendFactor,
    InverseBlendFactor,
    SourceAlphaSaturation,
}

/// XNA's `BlendFunction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlendFunction {
    Add,
    Subtract,
    ReverseSubtract,
    Min,
    Max,
}

/// XNA's `BlendState` as pipeline data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlendState {
    pub color_source_blend: Blend,
    pub color_destination_blend: Blend,
    pub color_blend_function: BlendFunction,
    pub alpha_source_blend: Blend,
    pub alpha_destination_blend: Blend,
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

    pub const OPAQUE: BlendState = Self::uniform(Blend::One, Blend::Zero);
    pub const ALPHA_BLEND: BlendState = Self::uniform(Blend::One, Blend::InverseSourceAlpha);
    pub const ADDITIVE: BlendState = Self::uniform(Blend::SourceAlpha, Blend::One);
    pub const NON_PREMULTIPLIED: BlendState =
        Self::uniform(Blend::SourceAlpha, Blend::InverseSourceAlpha);
}

/// XNA's `TextureFilter` (the subset SpriteBatch's stock samplers use, plus the rest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureFilter {
    Linear,
    Point,
    Anisotropic,
    LinearMipPoint,
    PointMipLinear,
    MinLinearMagPointMipLinear,
    MinLinearMagPointMipPoint,
    MinPointMagLinearMipLinear,
    MinPointMagLinearMipPoint,
}

/// XNA's `TextureAddressMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureAddressMode {
    Wrap,
    Clamp,
    Mirror,
}

/// XNA's `SamplerState` as pipeline data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SamplerState {
    pub filter: TextureFilter,
    pub address_u: TextureAddressMode,
    pub address_v: TextureAddressMode,
    pub address_w: TextureAddressMode,
    pub max_anisotropy: u32,
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
    pub const POINT_CLAMP: SamplerState = Self::of(TextureFilter::Point, TextureAddressMode::Clamp);
    pub const POINT_WRAP: SamplerState = Self::of(TextureFilter::Point, TextureAddressMode::Wrap);
    pub const LINEAR_CLAMP: SamplerState =
        Self::of(TextureFilter::Linear, TextureAddressMode::Clamp);
    pub const LINEAR_WRAP: SamplerState = Self::of(TextureFilter::Linear, TextureAddressMode::Wrap);
    pub const ANISOTROPIC_CLAMP: SamplerState =
        Self::of(TextureFilter::Anisotropic, TextureAddressMode::Clamp);
    pub const ANISOTROPIC_WRAP: SamplerState =
        Self::of(TextureFilter::Anisotropic, TextureAddressMode::Wrap);
}

/// XNA's `CompareFunction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareFunction {
    Always,
    Never,
    Less,
    LessEqual,
    Equal,
    GreaterEqual,
    Greater,
    NotEqual,
}

/// XNA's `StencilOperation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StencilOperation {
    Keep,
    Zero,
    Replace,
    Increment,
    Decrement,
    IncrementSaturation,
    DecrementSaturation,
    Invert,
}

/// XNA's `DepthStencilState` as pipeline data (one-sided stencil).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepthStencilState {
    pub depth_buffer_enable: bool,
    pub depth_buffer_write_enable: bool,
    pub depth_buffer_function: CompareFunction,
    pub stencil_enable: bool,
    pub stencil_function: CompareFunction,
    pub stencil_pass: StencilOperation,
    pub stencil_fail: StencilOperation,
    pub stencil_depth_buffer_fail: StencilOperation,
    pub reference_stencil: u32,
    pub stencil_mask: u32,
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
    pub const DEFAULT: DepthStencilState = Self::depth(true, true);
    pub const DEPTH_READ: DepthStencilState = Self::depth(true, false);
    pub const NONE: DepthStencilState = Self::depth(false, false);
}

/// XNA's `CullMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CullMode {
    None,
    CullClockwiseFace,
    CullCounterClockwiseFace,
}

/// XNA's `FillMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FillMode {
    Solid,
    WireFrame,
}

/// XNA's `RasterizerState` as pipeline data (depth bias as raw bits so the key hashes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RasterizerState {
    pub cull_mode: CullMode,
    pub fill_mode: FillMode,
    pub scissor_test_enable: bool,
    pub multisample_anti_alias: bool,
    pub depth_bias_bits: u32,
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
    pub const CULL_NONE: RasterizerState = Self::cull(CullMode::None);
    pub const CULL_CLOCKWISE: RasterizerState = Self::cull(CullMode::CullClockwiseFace);
    pub const CULL_COUNTER_CLOCKWISE: RasterizerState =
        Self::cull(CullMode::CullCounterClockwiseFace);
}

/// Which stock shader a draw uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderKind {
    /// `shaders/glsl/sprite.{vert,frag}`: position, colour, texcoord; tint × texture sample.
    Sprite,
}

/// Everything that selects a pipeline, apart from the attachment formats of the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineKey {
    pub shader: ShaderKind,
    pub blend: BlendState,
    pub depth_stencil: DepthStencilState,
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
    pub color: Option<[f32; 4]>,
    pub depth: Option<f32>,
    pub stencil: Option<u32>,
}

/// One draw of quads from the frame's vertex arena.
#[derive(Clone, Debug)]
pub struct Draw {
    pub pipeline: PipelineKey,
    pub sampler: SamplerState,
    pub texture: Arc<TextureState>,
    /// First sprite in [`FrameCommands::sprites`].
    pub first_sprite: u32,
    pub sprite_count: u32,
    pub viewport: Viewport,
    /// Applied only when `pipeline.rasterizer.scissor_test_enable`.
    pub scissor: Rect,
    /// Column-major clip-space transform applied in the vertex shader.
    pub transform: [f32; 16],
}

/// An operation inside a bind cycle, in recording order.
#[derive(Clone, Debug)]
pub enum PassOp {
    Clear(Clear),
    Draw(Draw),
}

/// One colour attachment of a pass segment: a 2D target (`layer` 0) or a cube face.
#[derive(Clone, Debug)]
pub struct ColorBinding {
    pub target: Arc<TextureState>,
    pub layer: u32,
}

/// How a pass segment began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentStart {
    /// A real `SetRenderTargets` transition (or the start of the frame on the back buffer).
    Bind,
    /// The same bind cycle resumed after an upload or readback split it.
    Continue,
}

/// One render-target bind cycle. Depth/stencil, when present, is the primary target's own.
#[derive(Clone, Debug)]
pub struct PassSegment {
    /// One to four attachments; `colors[0]` is the primary (the back buffer when unbound).
    pub colors: Vec<ColorBinding>,
    pub start: SegmentStart,
    pub ops: Vec<PassOp>,
}

impl PassSegment {
    pub fn primary(&self) -> &Arc<TextureState> {
        &self.colors[0].target
    }
}

/// A CPU → texture upload of one region of one subresource. `data` is tightly packed
/// (`format.region_size(width, height)` bytes).
#[derive(Clone, Debug)]
pub struct Upload {
    pub texture: Arc<TextureState>,
    pub level: u32,
    pub layer: u32,
    pub rect: Rect,
    pub data: Vec<u8>,
}

/// Names one readback within a frame so the caller can collect its bytes after the wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReadbackId(pub u64);

/// A texture → CPU copy of one region of one subresource (the resolved image of a
/// multisampled target), tightly packed.
#[derive(Clone, Debug)]
pub struct Readback {
    pub id: ReadbackId,
    pub texture: Arc<TextureState>,
    pub level: u32,
    pub layer: u32,
    pub rect: Rect,
}

/// One recorded node.
#[derive(Clone, Debug)]
pub enum Node {
    Pass(PassSegment),
    Upload(Upload),
    Readback(Readback),
    /// The back buffer is presented: its content is observed.
    Present(Arc<TextureState>),
}

/// One frame's recording, consumed by [`crate::compile::compile`].
#[derive(Clone, Debug, Default)]
pub struct FrameCommands {
    pub nodes: Vec<Node>,
    pub sprites: Vec<SpriteInstance>,
}

impl FrameCommands {
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}
