//! xnagraph: Microsoft XNA 4.0's immediate-style graphics API over a per-frame render graph.
//!
//! A game calls XNA's types by their names, in Rust's casing. Every call validates its
//! arguments and records; nothing reaches the GPU until a flush ([`GraphicsDevice::present`],
//! a `get_data`, [`GraphicsDevice::flush`]), when the frame is compiled into a plan (load and
//! store ops, resolves, mip cascades, barriers) and lowered by the backend (Vulkan, or SDL_gpu
//! with [`BackendKind::SdlGpu`]). Errors are [`XnaError`] values named after XNA's exceptions;
//! no call panics on bad input.
//!
//! ```
//! use xnagraph::{Color, GraphicsDevice, GraphicsProfile, PresentationParameters, Rectangle};
//! use xnagraph::{RenderTarget2D, SpriteBatch};
//!
//! # fn main() -> xnagraph::Result<()> {
//! let params = PresentationParameters {
//!     back_buffer_width: 64,
//!     back_buffer_height: 48,
//!     ..PresentationParameters::default()
//! };
//! let device = GraphicsDevice::new(GraphicsProfile::HiDef, params)?; // headless
//! let target = RenderTarget2D::new(&device, 16, 16)?;
//! device.set_render_target(Some(&target))?;
//! device.clear(Color::CORNFLOWER_BLUE)?;
//! device.set_render_target(None)?;
//! device.clear(Color::BLACK)?;
//! let mut batch = SpriteBatch::new(&device)?;
//! batch.begin()?;
//! batch.draw_rect(&target, Rectangle::new(8, 4, 32, 32), Color::WHITE)?;
//! batch.end()?;
//! device.present()?; // the frame is compiled and submitted here
//!
//! let mut pixels = vec![Color::TRANSPARENT; 64 * 48];
//! device.get_back_buffer_data(None, &mut pixels, 0, 64 * 48)?;
//! assert_eq!(pixels[20 * 64 + 20], Color::CORNFLOWER_BLUE);
//! assert_eq!(pixels[2 * 64 + 2], Color::BLACK);
//! # Ok(()) }
//! ```
//!
//! # A map of the API
//!
//! | for | look at |
//! | --- | --- |
//! | the game loop, window, keyboard and mouse | [`game`]: [`game::Game`], [`game::GameContext`] |
//! | the device, its options and states | [`GraphicsDevice`], [`PresentationParameters`], [`DeviceOptions`], [`BlendState`], [`SamplerState`], [`DepthStencilState`], [`RasterizerState`] |
//! | textures and render targets | [`Texture2D`], [`Texture3D`], [`TextureCube`], [`RenderTarget2D`] (and [`RenderTargetOptions`]), [`RenderTargetCube`] |
//! | sprites and text | [`SpriteBatch`] (and [`SpriteBatchOptions`], [`SpriteOptions`]), [`SpriteFont`] |
//! | geometry | [`VertexBuffer`], [`IndexBuffer`], [`VertexDeclaration`], [`GraphicsDevice::draw_indexed_primitives`] |
//! | effects | [`BasicEffect`], [`AlphaTestEffect`], [`DualTextureEffect`], [`CustomEffect`] (GLSL techniques), [`Effect`] (a sprite pixel stage) |
//! | queries and capture | [`OcclusionQuery`], [`GraphicsDevice::capture_frames`] |
//! | maths | [`Vector2`], [`Vector3`], [`Vector4`], [`Matrix`], [`Color`], [`Rectangle`] |
//! | validation messages, live objects | [`diagnostics`] |
//!
//! The crate's `examples/` folder holds a small game for each row (`cargo run -p xnagraph
//! --example sprites`). A game's own vertex type derives `Pod` through [`bytemuck`], re-exported.
//!
//! # Threads
//!
//! The device and every resource ([`GraphicsDevice`], textures, targets, buffers, effects,
//! queries, fonts) are `Send + Sync` handles to shared, internally synchronised state: a
//! loading thread may create a texture the game's thread draws. [`SpriteBatch`], the stock
//! effects and [`game::GameContext`] are `Send + Sync` too, and are used through `&mut`. The
//! borrowed views of a stock effect ([`EffectTechnique`], [`EffectPass`],
//! [`EffectParameterCollection`], [`StockParameter`]) are neither: they stay on the thread that
//! borrowed the effect. Every value type (states, maths, options, errors) is `Send + Sync`. The
//! test `tests/send_sync.rs` asserts each of these at compile time.

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
pub mod math;
mod occlusion_query;
mod options;
mod profile;
mod registry;
mod render_target;
mod render_thread;
mod resource;
mod shared;
mod spirv;
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
pub use content::{Content, ContentManager, LoadOptions};
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
pub use math::{
    packed, BoundingBox, BoundingFrustum, BoundingSphere, Color, ContainmentType, Curve,
    CurveContinuity, CurveKey, CurveKeyCollection, CurveLoopType, CurveTangent, MathError,
    MathHelper, Matrix, Plane, PlaneIntersectionType, Point, Quaternion, Ray, Rectangle, Vector2,
    Vector3, Vector4,
};
pub use occlusion_query::{OcclusionQuery, OCCLUSION_QUERY_NOT_SUPPORTED};
pub use options::{
    BackendKind, DeviceOptions, PresentInterval, PresentationParameters, TextureIndexing,
};
pub use profile::GraphicsProfile;
pub use registry::{ResourceEventArgs, ResourceId};
pub use render_target::{
    BindingTarget, RenderTarget2D, RenderTargetBinding, RenderTargetOptions,
    MAX_RENDER_TARGET_BINDINGS,
};
pub use shared::DeviceEvents;
pub use sprite_batch::{
    SpriteBatch, SpriteBatchOptions, SpriteEffects, SpriteOptions, SpriteSortMode,
};
pub use sprite_font::{FontOptions, SpriteFont};
pub use texture::Texture2D;
pub use texture3d::Texture3D;
pub use xnagraph_graph::{GpuFrameTiming, GpuNodeTime, GpuTimingSupport};

pub use xnagraph_graph::compile::CompilePolicy;
pub use xnagraph_graph::{
    Blend, BlendFunction, BlendState, Capabilities, ColorWriteChannels, CompareFunction, CullMode,
    DepthFormat, DepthStencilState, FillMode, FormatSupport, LiveObjects, PlanCost,
    PresentCounters, PresentStats, PrimitiveType, RasterizerState, RenderTargetUsage, SamplerState,
    StencilOperation, SurfaceFormat, TextureAddressMode, TextureFilter, Viewport,
};

/// Diagnostics (not XNA): per-device validation messages collected by the backend's debug
/// messenger and live native object counts ([`Diagnostics`](diagnostics::Diagnostics), read
/// through [`GraphicsDevice::diagnostics`]), and the null backend's probe
/// ([`crate::BackendKind::Null`]).
pub mod diagnostics {
    pub use xnagraph_graph::null::{BackendCall, NullProbe};
    pub use xnagraph_graph::{BackendError, Diagnostics};
}

/// `bytemuck`, re-exported: a game that derives `Pod` for its own vertex or instance type, to
/// hand it to `set_data`, needs no dependency of its own; the derive is told where the crate
/// is with `#[bytemuck(crate = "xnagraph::bytemuck")]`.
pub use bytemuck;
