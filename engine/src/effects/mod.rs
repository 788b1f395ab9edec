//! Effects: XNA's stock effects, the sprite pixel-stage `Effect`, custom GLSL and HLSL effects,
//! and the one SPIR-V reader they share.
//!
//! `stock.rs` holds what the stock effects share (what `EffectPass::apply` leaves on the
//! device, lights, fog, the uniform block writer); `basic.rs` (`BasicEffect`), `alpha_test.rs`,
//! `dual_texture.rs`, `skinned.rs`, `environment_map.rs` are the stock effects, `parameters.rs` their parameter collection and
//! `traits.rs` XNA's `IEffectMatrices`, `IEffectLights`, `IEffectFog`. `sprite/` is the
//! pixel stage a `SpriteBatch` runs; `custom/` effects of GLSL, HLSL or SPIR-V techniques, with
//! parameters reflected from their SPIR-V by `spirv.rs` (and an HLSL source's semantics and
//! annotations read from its text by `custom/hlsl.rs`); `glsl.rs` compiles GLSL and HLSL at run
//! time (the `runtime-effects` feature).
//!
//! Calls go down: an effect reads resources (its textures) and records what `apply` sets into
//! the device's draw state ([`crate::device::shared`]); draws and sprite batches read that
//! state. Effects call no draw.

pub(crate) mod alpha_test;
pub(crate) mod basic;
pub(crate) mod custom;
pub(crate) mod dual_texture;
pub(crate) mod environment_map;
pub(crate) mod glsl;
pub(crate) mod parameters;
pub(crate) mod skinned;
pub(crate) mod spirv;
pub(crate) mod sprite;
pub(crate) mod stock;
pub(crate) mod technique;
pub(crate) mod traits;
