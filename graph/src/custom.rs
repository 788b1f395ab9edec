//! Custom geometry effects: a vertex and a fragment stage compiled at run time, drawn by a
//! geometry draw in place of the stock `BasicEffect` shaders.
//!
//! The stages use SDL_gpu's resource layout, as the stock shaders do: the vertex stage's
//! samplers at set 0 (bindings `0..n`), its uniform block at set 1, binding 0; the fragment
//! stage's samplers at set 2 and its uniform block at set 3, binding 0. The backend builds one
//! program per effect pass from the two modules and [`CustomResources`] (the bindings each set
//! has), and frees it like an effect's fragment stage, through the retirement queue, once the
//! last [`crate::EffectState`] naming it drops.
//!
//! A draw carries the values the pass's `Apply` recorded ([`CustomDraw`]): each stage's
//! uniform bytes, already laid out as the block declares, and each sampler's texture and
//! sampler state. The compiler orders the draw after earlier writes of every texture it
//! samples, as for a sprite's texture.

use std::sync::Arc;

use crate::effect::EffectState;
use crate::resource::TextureState;
use crate::states::SamplerState;

/// The stage a sampler belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CustomStage {
    /// The vertex stage (vertex texture fetch, XNA's `VertexSamplerStates`; set 0).
    Vertex,
    /// The fragment stage (XNA's `SamplerStates`; set 2).
    Fragment,
}

/// What a custom program binds, for the backend's descriptor layouts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CustomResources {
    /// Bindings of the vertex stage's samplers (set 0).
    pub vertex_samplers: Vec<u32>,
    /// Size in bytes of the vertex stage's uniform block (set 1, binding 0); 0 without one.
    pub vertex_uniform_bytes: u32,
    /// Bindings of the fragment stage's samplers (set 2).
    pub fragment_samplers: Vec<u32>,
    /// Size in bytes of the fragment stage's uniform block (set 3, binding 0); 0 without one.
    pub fragment_uniform_bytes: u32,
    /// Colour outputs written, at locations `0..outputs` (1 to 4).
    pub outputs: u32,
}

/// One sampler of a custom draw: the texture and how it is sampled.
#[derive(Clone, Debug)]
pub struct CustomSampler {
    /// The stage whose set holds it.
    pub stage: CustomStage,
    /// Its binding in that set.
    pub binding: u32,
    /// The texture (held so it outlives the submission).
    pub texture: Arc<TextureState>,
    /// `SamplerStates[binding]` or `VertexSamplerStates[binding]` at the draw.
    pub sampler: SamplerState,
}

/// The values of a custom geometry draw, as its pass's `Apply` recorded them.
#[derive(Clone, Debug)]
pub struct CustomDraw {
    /// The program (held so its native objects outlive the submission).
    pub effect: Arc<EffectState>,
    /// The vertex stage's uniform block bytes (empty without a block).
    pub vertex_uniforms: Vec<u8>,
    /// The fragment stage's uniform block bytes (empty without a block).
    pub fragment_uniforms: Vec<u8>,
    /// Every sampler the program binds.
    pub samplers: Vec<CustomSampler>,
}
