//! xnagraph: Microsoft XNA 4.0's immediate-style graphics API over a per-frame render graph.
//!
//! A game creates a [`GraphicsDevice`], resources ([`Texture2D`], [`Texture3D`],
//! [`TextureCube`], [`RenderTarget2D`], [`RenderTargetCube`]) and a
//! [`SpriteBatch`] (with [`SpriteFont`] for text), and calls them as it would in XNA. Every call validates its arguments and
//! records; nothing reaches the GPU until a flush ([`GraphicsDevice::present`], a `get_data`,
//! [`GraphicsDevice::flush`]), when the frame is compiled into a plan (load/store ops, resolves,
//! mip cascades, barriers) and lowered by the backend. Errors are [`XnaError`] values named after
//! XNA's exceptions; no call panics on bad input.

#![warn(missing_docs)]

mod basic_effect;
mod buffer;
mod capability;
mod capture;
mod clear;
mod content;
mod cube;
mod custom_effect;
mod data;
mod device;
mod draw;
mod effect;
mod effects;
mod error;
mod event;
mod finite;
pub mod game;
mod gpu_timing;
mod math;
mod math3d;
mod occlusion_query;
mod options;
mod profile;
mod registry;
mod render_target;
mod render_thread;
mod resource;
mod shared;
mod sprite_batch;
mod sprite_font;
mod submit;
mod texture;
mod texture3d;
mod window;

pub use basic_effect::{BasicEffect, EffectPass, EffectTechnique};
pub use buffer::{
    BufferUsage, DynamicIndexBuffer, DynamicVertexBuffer, IndexBuffer, IndexElementSize,
    SetDataOptions, VertexBuffer, VertexDeclaration, VertexElement, VertexElementFormat,
    VertexElementUsage, VertexPositionColor, VertexPositionColorTexture,
    VertexPositionNormalTexture, VertexPositionTexture, VertexType,
};
pub use capture::{CaptureSummary, CAPTURE_VARIABLE};
pub use clear::ClearOptions;
pub use content::LoadOptions;
pub use cube::{CubeMapFace, RenderTargetCube, TextureCube};
pub use custom_effect::{
    CustomEffect, CustomPass, CustomTechnique, EffectParameter, EffectValue, ParameterClass,
    ParameterType, PassSource, TechniqueSource, VERTEX_SAMPLER_SLOTS,
};
pub use device::GraphicsDevice;
pub use draw::states::{VertexBufferBinding, MAX_VERTEX_STREAMS, SAMPLER_SLOTS};
pub use draw::IndexElement;
pub use effect::Effect;
pub use effects::alpha_test::AlphaTestEffect;
pub use effects::dual_texture::DualTextureEffect;
pub use effects::parameters::{EffectParameterCollection, StockParameter};
pub use effects::traits::{EffectFog, EffectLights, EffectMatrices};
pub use effects::DirectionalLight;
pub use error::{Result, XnaError};
pub use event::{Event, HandlerId};
pub use math::{Color, Matrix, Rectangle, Vector2, Vector3, Vector4};
pub use occlusion_query::{OcclusionQuery, OCCLUSION_QUERY_NOT_SUPPORTED};
pub use options::{
    BackendKind, DeviceOptions, PresentInterval, PresentationParameters, TextureIndexing,
};
pub use profile::GraphicsProfile;
pub use registry::{ResourceEventArgs, ResourceId};
pub use render_target::{
    BindingTarget, RenderTarget2D, RenderTargetBinding, MAX_RENDER_TARGET_BINDINGS,
};
pub use shared::DeviceEvents;
pub use sprite_batch::{SpriteBatch, SpriteEffects, SpriteSortMode};
pub use sprite_font::{FontOptions, SpriteFont};
pub use texture::Texture2D;
pub use texture3d::Texture3D;
pub use xnagraph_graph::{GpuFrameTiming, GpuNodeTime, GpuTimingSupport};

pub use xnagraph_graph::compile::CompilePolicy;
pub use xnagraph_graph::{
    Blend, BlendFunction, BlendState, Capabilities, CompareFunction, CullMode, DepthFormat,
    DepthStencilState, FillMode, FormatSupport, LiveObjects, PlanCost, PresentCounters,
    PresentStats, PrimitiveType, RasterizerState, RenderTargetUsage, SamplerState,
    StencilOperation, SurfaceFormat, TextureAddressMode, TextureFilter, Viewport,
};

/// Diagnostics: the null backend's probe ([`crate::BackendKind::Null`]); per-device validation
/// messages and live native object counts are read through [`GraphicsDevice::diagnostics`].
pub mod diagnostics {
    pub use xnagraph_graph::null::{BackendCall, NullProbe};
    pub use xnagraph_graph::BackendError;
}
/// Per-device diagnostics (not XNA): validation messages collected by the backend's debug
/// messenger and the count of live native objects, read through
/// [`GraphicsDevice::diagnostics`].
pub use xnagraph_graph::Diagnostics;
