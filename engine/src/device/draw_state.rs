//! The device's draw state: what `GraphicsDevice`'s state setters (`crate::draw::states`) and
//! the effects' `apply` leave for the geometry draws that follow.
//!
//! In: the setters' checked values, a bound buffer seen through [`BoundBuffer`], a texture in
//! `Textures` or `VertexTextures` seen through [`BoundTexture`], and the values an effect pass
//! applies ([`AppliedEffect`], [`CustomApplied`]). Out: the [`DrawStates`] a draw reads under
//! the recording lock. It decides XNA's defaults and nothing else. It lives with the device,
//! which holds it, and names no resource or effect type: a bound buffer or texture is the one
//! thing it asks of one (its native state, or `ObjectDisposed` once disposed), so the device's
//! shared state does not depend on the resource and effect modules that depend on it.

use std::sync::Arc;

use xnagraph_graph::{
    BasicDrawValues, BasicRunBasis, BlendState, BufferState, DepthStencilState, EffectState,
    RasterizerState, Rect, SamplerState, StockMaterial, TextureState, VertexLayout, Viewport,
};

use crate::error::Result;
use crate::vertex::{IndexElementSize, VertexDeclaration, VertexElementUsage};

/// How many sampler slots `SamplerStates` has.
pub const SAMPLER_SLOTS: usize = 16;
/// How many vertex streams `SetVertexBuffers` binds at most (XNA's 16).
pub const MAX_VERTEX_STREAMS: usize = 16;

/// HiDef's vertex texture samplers (XNA's `VertexSamplerStates` has four slots).
pub const VERTEX_SAMPLER_SLOTS: usize = 4;

/// What the draw state asks of a bound vertex or index buffer.
pub(crate) trait BoundBuffer: Send + Sync {
    /// The buffer's native state; `ObjectDisposed` once the buffer is disposed.
    fn state(&self) -> Result<Arc<BufferState>>;
    /// Whether the buffer's native state is `state` (what [`BoundBuffer::state`] would give,
    /// without taking a reference); `ObjectDisposed` once the buffer is disposed.
    fn holds(&self, state: &Arc<BufferState>) -> Result<bool>;
}

/// What the draw state asks of a texture in `Textures` or `VertexTextures`.
pub(crate) trait BoundTexture: Send + Sync {
    /// The texture's native state; `ObjectDisposed` once the texture is disposed.
    fn state(&self) -> Result<Arc<TextureState>>;
    /// The texture itself, for the collections' getters (which know its type).
    fn as_any(&self) -> &dyn std::any::Any;
}

/// A texture slot of `Textures` or `VertexTextures`: the texture, or XNA's null.
pub(crate) type TextureSlot = Option<Arc<dyn BoundTexture>>;

/// A bound vertex stream.
#[derive(Clone)]
pub(crate) struct BoundStream {
    pub core: Arc<dyn BoundBuffer>,
    pub declaration: VertexDeclaration,
    pub vertex_count: i32,
    pub vertex_offset: i32,
    pub instance_frequency: i32,
}

/// The bound index buffer.
#[derive(Clone)]
pub(crate) struct BoundIndices {
    pub core: Arc<dyn BoundBuffer>,
    pub element_size: IndexElementSize,
    pub index_count: i32,
}

/// The device's draw state (see the module doc).
#[derive(Clone)]
pub(crate) struct DrawStates {
    pub blend: BlendState,
    pub depth_stencil: DepthStencilState,
    pub rasterizer: RasterizerState,
    pub samplers: [SamplerState; SAMPLER_SLOTS],
    pub streams: Vec<BoundStream>,
    pub indices: Option<BoundIndices>,
    /// What the last `EffectPass::apply` of a stock effect recorded (boxed, so that an apply
    /// rewrites it in place and a draw moves it aside while it records, without copying).
    pub effect: Option<Box<AppliedEffect>>,
    /// What the last `CustomPass::apply` recorded; `effect` is `None` after it, so whichever
    /// was applied last draws.
    pub custom: Option<Arc<CustomApplied>>,
    /// `VertexSamplerStates`.
    pub vertex_samplers: [SamplerState; VERTEX_SAMPLER_SLOTS],
    /// `Textures`: what a custom pass's fragment samplers read, by binding.
    pub textures: [TextureSlot; SAMPLER_SLOTS],
    /// `VertexTextures`: what a custom pass's vertex samplers read, by binding.
    pub vertex_textures: [TextureSlot; VERTEX_SAMPLER_SLOTS],
    /// The vertex layout the last stock effect's draw from the bound streams read, and what
    /// it was derived from.
    pub last_layout: Option<LastLayout>,
    /// `Viewport`.
    pub viewport: Viewport,
    /// `ScissorRectangle`, clipped to the current target.
    pub scissor: Rect,
}

/// The draw state with a count of the mutable accesses to it ([`Versioned::version`]): every
/// `&mut` borrow through `DerefMut` counts one, whether or not it changes a value, so two equal
/// counts mean nothing of the state was written in between. A draw that repeats the last one
/// reads that rather than comparing every state the last one was recorded with
/// (`draw::repeat`). The one borrow that does not count is [`Versioned::own_values_mut`], for
/// what `Apply` keeps of a draw's own values.
pub(crate) struct Versioned<T> {
    value: T,
    version: u64,
}

impl<T> Versioned<T> {
    pub fn new(value: T) -> Self {
        Versioned { value, version: 0 }
    }

    /// How many mutable borrows the value has had.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Counts a change made through [`Versioned::own_values_mut`] that turned out to be more
    /// than a draw's own values.
    pub fn count_change(&mut self) {
        self.version = self.version.wrapping_add(1);
    }

    /// The value, borrowed without counting: only for writing what a repeat of the last draw
    /// carries as its own (a BasicEffect's World and material colours, kept by its `Apply`).
    /// Whoever writes more through it calls [`Versioned::count_change`].
    pub fn own_values_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

impl<T> std::ops::Deref for Versioned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> std::ops::DerefMut for Versioned<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.count_change();
        &mut self.value
    }
}

/// A stock effect's vertex layout of some vertex streams, with what it depends on: the
/// streams' declarations and instance frequencies and the elements the effect reads
/// ([`AppliedEffect::needs`]). A draw that finds the same copies the layout rather than
/// deriving it (and allocating) again.
#[derive(Clone)]
pub(crate) struct LastLayout {
    pub streams: Vec<(VertexDeclaration, u32)>,
    pub needs: [bool; 5],
    pub layout: VertexLayout,
}

impl LastLayout {
    /// Whether this is the layout of `streams` for an effect of `needs`.
    pub fn is_of(&self, streams: &[BoundStream], needs: [bool; 5]) -> bool {
        self.needs == needs
            && self.streams.len() == streams.len()
            && self.streams.iter().zip(streams).all(|((declaration, frequency), s)| {
                *frequency == s.instance_frequency as u32 && *declaration == s.declaration
            })
    }
}

impl Default for DrawStates {
    /// XNA's defaults: Opaque, Default, CullCounterClockwise, LinearWrap in every sampler slot
    /// and vertex sampler slot, no texture in any texture slot; the viewport and scissor
    /// rectangle are the target's (`Recording::reset_viewport_and_scissor`).
    fn default() -> Self {
        DrawStates {
            blend: BlendState::OPAQUE,
            depth_stencil: DepthStencilState::DEFAULT,
            rasterizer: RasterizerState::CULL_COUNTER_CLOCKWISE,
            samplers: [SamplerState::LINEAR_WRAP; SAMPLER_SLOTS],
            streams: Vec::new(),
            indices: None,
            effect: None,
            custom: None,
            vertex_samplers: [SamplerState::LINEAR_WRAP; VERTEX_SAMPLER_SLOTS],
            textures: std::array::from_fn(|_| None),
            vertex_textures: std::array::from_fn(|_| None),
            last_layout: None,
            viewport: Viewport::default(),
            scissor: Rect::default(),
        }
    }
}

/// What `EffectPass::apply` left on the device for the draws that follow.
#[derive(Clone, Debug)]
pub(crate) struct AppliedEffect {
    /// World × View × Projection, then y flipped for Vulkan's clip space; column-major. A
    /// BasicEffect's, with its block's own parts, may be older than its last `Apply`
    /// ([`AppliedEffect::derive_values`]).
    pub transform: [f32; 16],
    /// The shader pair and the rest of its uniform block.
    pub material: StockMaterial,
    /// A BasicEffect's values as its last `Apply` took them ([`BasicApplied`]); `None` for the
    /// other effects.
    pub basic: Option<BasicApplied>,
    /// The texture sampled at set 2, binding 0 (a white texel when the effect samples none).
    pub texture: Arc<TextureState>,
    /// DualTextureEffect's `Texture2` or EnvironmentMapEffect's `EnvironmentMap` (a cube),
    /// sampled with `SamplerStates[1]`.
    pub texture2: Option<Arc<TextureState>>,
    /// SkinnedEffect's bones, three rows each ([`xnagraph_graph::GeometryDraw::bones`]); empty
    /// for the other effects.
    pub bones: Vec<[f32; 4]>,
    /// The vertex declaration must have `Color0`.
    pub needs_color: bool,
    /// The vertex declaration must have `TextureCoordinate0`.
    pub needs_texture_coordinate: bool,
    /// The vertex declaration must have `Normal0`.
    pub needs_normal: bool,
    /// The vertex declaration must have `TextureCoordinate1`.
    pub needs_texture_coordinate1: bool,
    /// The vertex declaration must have `BlendIndices0` and `BlendWeight0`.
    pub needs_skinning: bool,
    /// Whether a draw samples what `Textures[0]` and `Textures[1]` hold at the draw in place
    /// of `texture` and `texture2`: set by `EffectPass::apply` for the slots it wrote, as XNA's
    /// draws sample the device's textures; a `SpriteBatch`'s draws sample their own.
    pub reads_slots: [bool; 2],
}

impl AppliedEffect {
    /// Derives a BasicEffect's values of a draw that its last `Apply` only kept into the
    /// transform and block: what a draw recorded whole does first. A draw merged into a run
    /// keeps the values instead (`draw::repeat`).
    pub fn derive_values(&mut self) {
        if let Some(basic) = self.basic.as_mut().filter(|b| b.stale) {
            self.transform = basic.basis.write_own(&basic.values, &mut self.material.block);
            basic.stale = false;
        }
    }

    /// What the vertex layout depends on: whether the declaration must have `Color0`,
    /// `TextureCoordinate0`, `Normal0`, `TextureCoordinate1`, and the skinning elements.
    pub fn needs(&self) -> [bool; 5] {
        [
            self.needs_color,
            self.needs_texture_coordinate,
            self.needs_normal,
            self.needs_texture_coordinate1,
            self.needs_skinning,
        ]
    }
}

/// How many values a BasicEffect's `Apply` compares with the last one's ([`BasicApplied::run`]).
pub(crate) const BASIC_RUN_VALUES: usize = 75;

/// What BasicEffect's last `Apply` left beside the device's applied block
/// ([`AppliedEffect::basic`]): every value of the effect a run shares as it was then, to tell
/// whether the next `Apply` changes any; what the draw's own values are derived with; and
/// those values, derived into the block and transform only when `stale` is false.
#[derive(Clone, Debug)]
pub(crate) struct BasicApplied {
    /// The effect's values that every draw of a run shares (View, Projection, lights, fog,
    /// switches: `BasicEffect::run_values`), as bits, of the `Apply` that wrote the block's
    /// shared parts.
    pub run: [u32; BASIC_RUN_VALUES],
    /// What `values` are derived with: a new one at each `Apply` that writes the shared parts,
    /// so two draws with the same one share every value of their run.
    pub basis: Arc<BasicRunBasis>,
    /// The draw's own values, as the last `Apply` took them.
    pub values: BasicDrawValues,
    /// Whether `values` are newer than the transform and the block's own parts.
    pub stale: bool,
}

/// What `CustomPass::apply` left on the device for the draws that follow.
#[derive(Clone, Debug)]
pub(crate) struct CustomApplied {
    pub state: Arc<EffectState>,
    pub inputs: Vec<InputBinding>,
    pub vertex_uniforms: Vec<u8>,
    pub fragment_uniforms: Vec<u8>,
    /// Every sampler of the pass. A draw reads each one's texture from `Textures` (fragment)
    /// or `VertexTextures` (vertex) at the sampler's binding.
    pub samplers: Vec<PassSampler>,
    /// For a `SpriteBatch` drawing through the pass, the texture of each of `samplers`: a batch
    /// reads its effect's own textures (its run's texture at fragment binding 0), not the
    /// device's. Empty for a pass applied to the device.
    pub batch_textures: Vec<Arc<TextureState>>,
    pub white: Arc<TextureState>,
}

/// One sampler of a custom pass: its stage, its binding (the slot of `Textures` or
/// `VertexTextures` it reads) and its parameter's name.
#[derive(Clone, Debug)]
pub(crate) struct PassSampler {
    pub stage: xnagraph_graph::CustomStage,
    pub binding: u32,
    pub name: String,
}

/// A vertex input: the element it reads and its location.
#[derive(Clone, Debug)]
pub(crate) struct InputBinding {
    pub usage: VertexElementUsage,
    pub usage_index: u32,
    pub location: u32,
    pub name: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_xnas() {
        let d = DrawStates::default();
        assert_eq!(d.blend, BlendState::OPAQUE);
        assert_eq!(d.depth_stencil, DepthStencilState::DEFAULT);
        assert_eq!(d.rasterizer, RasterizerState::CULL_COUNTER_CLOCKWISE);
        assert!(d.samplers.iter().all(|s| *s == SamplerState::LINEAR_WRAP));
        assert!(d.vertex_samplers.iter().all(|s| *s == SamplerState::LINEAR_WRAP));
        assert!(d.textures.iter().chain(&d.vertex_textures).all(Option::is_none));
    }

    #[test]
    fn every_mutable_borrow_counts_but_the_own_values_one() {
        let mut d = Versioned::new(DrawStates::default());
        let start = d.version();
        let _ = d.blend;
        assert_eq!(d.version(), start, "a read does not count");
        d.own_values_mut().effect = None;
        assert_eq!(d.version(), start);
        d.blend = BlendState::ADDITIVE;
        assert_eq!(d.version(), start + 1);
        let _ = &mut d.streams;
        assert_eq!(d.version(), start + 2, "a borrow counts whether or not it writes");
        d.count_change();
        assert_eq!(d.version(), start + 3);
    }
}
