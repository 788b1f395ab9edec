//! xnagraph: Microsoft XNA 4.0's immediate-style graphics API over a per-frame render graph.
//!
//! A game creates a [`GraphicsDevice`], resources ([`Texture2D`], [`RenderTarget2D`]) and a
//! [`SpriteBatch`], and calls them as it would in XNA. Every call validates its arguments and
//! records; nothing reaches the GPU until a flush ([`GraphicsDevice::present`], a `get_data`,
//! [`GraphicsDevice::flush`]), when the frame is compiled into a plan (load/store ops, resolves,
//! mip cascades, barriers) and lowered by the backend. Errors are [`XnaError`] values named after
//! XNA's exceptions; no call panics on bad input.

mod capability;
mod device;
mod error;
mod math;
mod profile;
mod render_target;
mod resource;
mod sprite_batch;
mod texture;

pub use device::{
    BackendKind, ClearOptions, DeviceEvents, DeviceOptions, GraphicsDevice, PresentationParameters,
};
pub use error::{Result, XnaError};
pub use math::{Color, Matrix, Rectangle, Vector2};
pub use profile::GraphicsProfile;
pub use render_target::{RenderTarget2D, RenderTargetBinding, MAX_RENDER_TARGET_BINDINGS};
pub use resource::{Event, HandlerId, ResourceEventArgs, ResourceId};
pub use sprite_batch::{SpriteBatch, SpriteEffects, SpriteSortMode};
pub use texture::Texture2D;

pub use xnagraph_graph::{
    Blend, BlendFunction, BlendState, Capabilities, CompareFunction, CullMode, DepthFormat,
    DepthStencilState, FillMode, FormatSupport, LiveObjects, RasterizerState, RenderTargetUsage,
    SamplerState, StencilOperation, SurfaceFormat, TextureAddressMode, TextureFilter, Viewport,
};

/// Per-device diagnostics (not XNA): validation messages collected by the backend's debug
/// messenger and the count of live native objects, read through
/// [`GraphicsDevice::diagnostics`].
pub use xnagraph_graph::Diagnostics;
