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
#![cfg_attr(
    feature = "game",
    doc = "| the game loop, window, keyboard and mouse | [`game`]: [`game::Game`], \
           [`game::GameContext`] |"
)]
#![cfg_attr(
    not(feature = "game"),
    doc = "| the game loop, window, keyboard and mouse | `game` (with the `game` feature): \
           `game::Game`, `game::GameContext` |"
)]
//! | the device, its options and states | [`GraphicsDevice`], [`PresentationParameters`], [`DeviceOptions`], [`BlendState`], [`SamplerState`], [`DepthStencilState`], [`RasterizerState`], [`TextureCollection`], [`SamplerStateCollection`] |
//! | textures and render targets | [`Texture2D`], [`Texture3D`], [`TextureCube`], [`RenderTarget2D`] (and [`RenderTargetOptions`]), [`RenderTargetCube`] |
//! | sprites and text | [`SpriteBatch`] (and [`SpriteBatchOptions`], [`SpriteOptions`]), [`SpriteFont`] |
//! | geometry | [`VertexBuffer`], [`IndexBuffer`], [`VertexDeclaration`], [`GraphicsDevice::draw_indexed_primitives`] |
//! | models | [`Model`] (loaded by [`ContentManager`], or from glTF by [`Model::from_gltf`]), [`ModelMesh`], [`ModelMeshPart`], [`ModelBone`], [`ModelEffect`], skins and animations ([`ModelSkin`], [`ModelAnimation`]) |
//! | effects | [`BasicEffect`], [`AlphaTestEffect`], [`DualTextureEffect`], [`SkinnedEffect`], [`EnvironmentMapEffect`], [`CustomEffect`] (GLSL, HLSL or SPIR-V techniques), [`Effect`] (a sprite pixel stage) |
//! | queries and capture | [`OcclusionQuery`], [`GraphicsDevice::capture_frames`] |
//! | maths | [`Vector2`], [`Vector3`], [`Vector4`], [`Matrix`], [`Color`], [`Rectangle`] |
//! | validation messages, live objects | [`diagnostics`] |
//!
//! The crate's `examples/` folder holds a small game for each row (`cargo run -p xnagraph
//! --example sprites`). A game's own vertex type derives `Pod` through [`bytemuck`], re-exported.
//!
//! # Cargo features
//!
//! A game builds only what it uses. The defaults (`vulkan`, `game`, `png`) make a windowed 2D
//! or 3D game; what a build lacks is `NotSupported` at the call that asks for it, naming the
//! feature.
//!
//! | feature | brings |
//! | --- | --- |
//! | `vulkan` (default) | the Vulkan backend (ash, vk-mem) |
//! | `sdlgpu` | the SDL_gpu backend, SDL 3.4 built from source (cmake) and linked statically |
//! | `sdlgpu-system` | the SDL_gpu backend over the system's SDL 3.4 found through pkg-config |
//! | `runtime-effects` | [`Effect::from_glsl`] and [`CustomEffect::new`] compile GLSL, [`CustomEffect::from_hlsl`] HLSL (glslang); without it effects come from SPIR-V ([`Effect::from_spirv`], [`CustomEffect::from_spirv`]) |
//! | `capture` | [`GraphicsDevice::capture_frames`] and its file writer (serde, postcard, zstd) |
//! | `profiling` | puffin scopes at the flush, the compiler's stages and the backends' steps |
#![cfg_attr(
    feature = "game",
    doc = "| `game` (default) | [`game`]: the game loop, window and input on winit |"
)]
#![cfg_attr(
    not(feature = "game"),
    doc = "| `game` (default) | `game`: the game loop, window and input on winit |"
)]
//! | `png` (default), `jpeg`, `bmp`, `gif`, `tga`, `qoi` | each an image format [`Texture2D::from_file`] reads |
//! | `gltf` | glTF 2.0 models: [`Model::from_gltf`], and `.glb` and `.gltf` files through [`ContentManager::load`] (the `gltf` crate) |
//! | `full` | all of the above but `sdlgpu-system` |
//! | `serde`, `glam`, `mint` | the math types' serde derives and conversions |
//!
//! # The source's floor plan
//!
//! Each folder is one thing a game touches, and calls go one way, from the top of this list to
//! the bottom; no file imports a file that imports it back.
//!
//! - `game/`: the game loop, window and input (winit), for a game that wants them; it creates
//!   the device for its window and calls the rest like any game code.
//! - `content/`: the `ContentManager` (`.xnb` files and their type readers), image files and
//!   glTF models; it makes textures, fonts, buffers and models like any game code.
//! - `models/`: XNA's `Model` (`ModelMesh`, `ModelMeshPart`, `ModelBone`); a model sets its
//!   effects' matrices and draws its parts through the device's geometry draws.
//! - `sprites/`: `SpriteBatch` (`batch/`) and `SpriteFont` (`font.rs`); a batch reads textures,
//!   fonts and a pixel-stage effect and records into the device's frame.
//! - `draw/`: the geometry draws and the device's draw-state setters; the draws read bound
//!   buffers and the applied effect from the device's draw state and record.
//! - `effects/`: the stock effects (`stock.rs`, `basic.rs`, `alpha_test.rs`,
//!   `dual_texture.rs`), the sprite pixel stage (`sprite/`), custom GLSL and HLSL effects (`custom/`)
//!   and the one SPIR-V reader (`spirv.rs`); an effect's `apply` writes the device's draw state.
//! - `resources/`: textures, cubes, volumes, render targets, buffers and queries, over the
//!   core every resource wraps (`resource.rs`); a resource holds a weak token to its device
//!   and records uploads and readbacks there.
//! - `device/`: `GraphicsDevice`, the state it shares with resources (`shared.rs`), the draw
//!   state it keeps (`draw_state.rs`, which names no resource or effect type), its registry of
//!   resources, one flush and one readback (`submit.rs`) and the checks every data transfer
//!   shares (`data.rs`), the render thread, presentation, options, capabilities, GPU timing and
//!   capture. It names nothing above it: the render thread sees the device as a
//!   `FrameSink`, and the draw state sees a bound buffer as a `BoundBuffer` and a texture in
//!   `Textures` as a `BoundTexture`.
//! - At the root: `error.rs` (`XnaError`), `event.rs` (XNA's events and the one lock helper),
//!   `finite.rs` (the finite-float checks), `math.rs` (the `xnagraph-math` crate, re-exported),
//!   `vertex.rs` (vertex declarations and the stock vertex types: values every layer reads).
//!
//! Below the engine, `xnagraph-graph` compiles a frame into a plan and the backends
//! (`xnagraph-vulkan`, `xnagraph-sdlgpu`) lower it; the engine reaches them only through the
//! device.
//!
//! # Threads
//!
//! The device and every resource ([`GraphicsDevice`], textures, targets, buffers, effects,
//! queries, fonts) are `Send + Sync` handles to shared, internally synchronised state: a
//! loading thread may create a texture the game's thread draws. A [`Model`] is `Send + Sync`,
//! its effects behind locks ([`ModelEffect`]). [`SpriteBatch`], the stock
#![cfg_attr(
    feature = "game",
    doc = "effects and [`game::GameContext`] are `Send + Sync` too, and are used through \
           `&mut`. The"
)]
#![cfg_attr(
    not(feature = "game"),
    doc = "effects and `game::GameContext` are `Send + Sync` too, and are used through \
           `&mut`. The"
)]
//! borrowed views of a stock effect ([`EffectTechnique`], [`EffectPass`],
//! [`EffectParameterCollection`], [`StockParameter`]) are neither: they stay on the thread that
//! borrowed the effect. Every value type (states, maths, options, errors) is `Send + Sync`. The
//! test `tests/send_sync.rs` asserts each of these at compile time.

#![warn(missing_docs)]

mod content;
mod device;
mod draw;
mod effects;
mod error;
mod event;
mod finite;
#[cfg(feature = "game")]
pub mod game;
pub mod math;
mod models;
mod resources;
mod sprites;
mod vertex;

pub use content::{Content, ContentManager, LoadOptions};
pub use device::adapter::{DisplayMode, GraphicsAdapter};
pub use device::capture::{CaptureSummary, CAPTURE_VARIABLE};
pub use device::clear::ClearOptions;
pub use device::options::{
    BackendKind, DeviceOptions, PresentInterval, PresentationParameters, TextureIndexing,
};
pub use device::profile::GraphicsProfile;
pub use device::registry::{ResourceEventArgs, ResourceId};
pub use device::shared::DeviceEvents;
pub use device::GraphicsDevice;
pub use draw::states::{
    SamplerStateCollection, TextureCollection, VertexBufferBinding, MAX_VERTEX_STREAMS,
    SAMPLER_SLOTS,
};
pub use draw::IndexElement;
pub use effects::alpha_test::AlphaTestEffect;
pub use effects::basic::BasicEffect;
pub use effects::custom::{
    AnnotationValue, CustomEffect, CustomPass, CustomTechnique, EffectAnnotation, EffectParameter,
    EffectValue, ParameterClass, ParameterType, PassSource, SpirvPassSource, SpirvTechniqueSource,
    TechniqueSource, VERTEX_SAMPLER_SLOTS,
};
pub use effects::dual_texture::DualTextureEffect;
pub use effects::environment_map::EnvironmentMapEffect;
pub use effects::parameters::{EffectParameterCollection, StockParameter};
pub use effects::skinned::SkinnedEffect;
pub use effects::sprite::Effect;
pub use effects::stock::DirectionalLight;
pub use effects::technique::{EffectPass, EffectTechnique};
pub use effects::traits::{EffectFog, EffectLights, EffectMatrices};
pub use error::{Result, XnaError};
pub use event::{Event, HandlerId};
pub use math::{
    packed, BoundingBox, BoundingFrustum, BoundingSphere, Color, ContainmentType, Curve,
    CurveContinuity, CurveKey, CurveKeyCollection, CurveLoopType, CurveTangent, MathError,
    MathHelper, Matrix, Plane, PlaneIntersectionType, Point, Quaternion, Ray, Rectangle, Vector2,
    Vector3, Vector4,
};
pub use models::{
    AnimationChannel, AnimationValues, BonePose, Interpolation, Model, ModelAnimation, ModelBone,
    ModelBoneCollection, ModelEffect, ModelEffectCollection, ModelMesh, ModelMeshCollection,
    ModelMeshPart, ModelSkin, ModelTag,
};
pub use resources::buffer::{
    BufferUsage, DynamicIndexBuffer, DynamicVertexBuffer, IndexBuffer, IndexElementSize,
    SetDataOptions, VertexBuffer, VertexDeclaration, VertexElement, VertexElementFormat,
    VertexElementUsage, VertexPositionColor, VertexPositionColorTexture,
    VertexPositionNormalTexture, VertexPositionTexture, VertexType,
};
pub use resources::cube::{CubeMapFace, RenderTargetCube, TextureCube};
pub use resources::occlusion_query::{OcclusionQuery, OCCLUSION_QUERY_NOT_SUPPORTED};
pub use resources::render_target::{
    BindingTarget, RenderTarget2D, RenderTargetBinding, RenderTargetOptions,
    MAX_RENDER_TARGET_BINDINGS,
};
pub use resources::texture::Texture2D;
pub use resources::texture3d::Texture3D;
pub use sprites::batch::{
    SpriteBatch, SpriteBatchEffect, SpriteBatchOptions, SpriteEffects, SpriteOptions,
    SpriteSortMode,
};
pub use sprites::font::{FontOptions, SpriteFont};
pub use xnagraph_graph::{GpuFrameTiming, GpuNodeTime, GpuTimingSupport};

pub use xnagraph_graph::compile::CompilePolicy;
pub use xnagraph_graph::{
    Blend, BlendFunction, BlendState, Capabilities, ColorWriteChannels, CompareFunction, CullMode,
    DepthFormat, DepthStencilState, FillMode, FormatSupport, LiveObjects, PlanCost,
    PresentCounters, PresentStats, PrimitiveType, RasterizerState, RenderTargetUsage, SamplerState,
    StencilOperation, SurfaceFormat, TextureAddressMode, TextureFilter, TransientMemory, Viewport,
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
