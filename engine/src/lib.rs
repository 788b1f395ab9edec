//! xnagraph: Microsoft XNA 4.0's immediate-style graphics API over a per-frame render graph.
//!
//! A game creates a [`GraphicsDevice`], resources ([`Texture2D`], [`RenderTarget2D`]) and a
//! [`SpriteBatch`], and calls them as it would in XNA. Every call validates its arguments and
//! records; nothing reaches the GPU until a flush ([`GraphicsDevice::present`], a `get_data`,
//! [`GraphicsDevice::flush`]), when the frame is compiled into a plan (load/store ops, resolves,
//! mip cascades, barriers) and lowered by the backend. Errors are [`XnaError`] values named after
//! XNA's exceptions; no call panics on bad input.

mod clear;
mod device;
mod error;
mod finite;
mod math;
mod profile;
mod render_target;
mod resource;
mod sprite_batch;
mod texture;

pub use clear::ClearOptions;
pub use device::{
    BackendKind, DeviceEvents, DeviceOptions, GraphicsDevice, PresentationParameters,
};
pub use error::{Result, XnaError};
pub use math::{Color, Matrix, Rectangle, Vector2};
pub use profile::GraphicsProfile;
pub use render_target::{RenderTarget2D, RenderTargetBinding, MAX_RENDER_TARGET_BINDINGS};
pub use resource::{Event, HandlerId, ResourceEventArgs, ResourceId};
pub use sprite_batch::{SpriteBatch, SpriteEffects, SpriteSortMode};
pub use texture::Texture2D;

pub use xnagraph_graph::{
    Blend, BlendFunction, BlendState, CompareFunction, CullMode, DepthFormat, DepthStencilState,
    FillMode, LiveObjects, RasterizerState, RenderTargetUsage, SamplerState, StencilOperation,
    SurfaceFormat, TextureAddressMode, TextureFilter, Viewport,
};

/// Diagnostics of the Vulkan backend: validation messages collected by its debug messenger, and
/// the process-wide count of live native objects.
pub mod diagnostics {
    pub use xnagraph_vulkan::live::native_objects as live_vulkan_objects;
    pub use xnagraph_vulkan::validation::{messages_so_far, take_messages};
}
