//! Graphics resources: what a game creates on a device and hands to draws.
//!
//! `resource.rs` holds the core every resource wraps (its device-lifetime token, its name and
//! tag, disposal). The resource kinds: `texture.rs` (`Texture2D`), `texture3d.rs`, `cube.rs`
//! (`TextureCube`, `RenderTargetCube`), `render_target.rs` (`RenderTarget2D` and binding),
//! `target.rs` (what 2D and cube targets share), `buffer/` (vertex and index buffers) and
//! `occlusion_query.rs`.
//!
//! Calls go down into [`crate::device`]: a resource is made through a `GraphicsDevice`, keeps a
//! weak token to the device's shared state, and records its uploads and readbacks there.
//! Content loading, effects, sprites and draws call into resources; resources call none of
//! them.

pub(crate) mod buffer;
pub(crate) mod cube;
pub(crate) mod occlusion_query;
pub(crate) mod render_target;
pub(crate) mod resource;
pub(crate) mod target;
pub(crate) mod texture;
pub(crate) mod texture3d;
pub(crate) mod texture_data;
