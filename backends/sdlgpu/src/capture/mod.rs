//! Capture transfers: uploads and readbacks of a render target's capture planes.
//!
//! A capture's snapshot holds a target's images in a backend-neutral encoding the graph crate
//! defines, so that a capture the Vulkan backend read back restores here: the depth/stencil image
//! as [`depth_stencil_size`](xnagraph_graph::depth_stencil_size) lays it out (every texel's
//! depth as an `f32`, then every texel's stencil byte), and a multisampled target's samples as
//! planes ([`sample_planes_size`](xnagraph_graph::sample_planes_size): plane `s` holds every
//! texel's sample `s`; a multisampled depth/stencil image is that encoding for an image `samples`
//! times as tall). Those are the capture planes: an upload or readback of the
//! [`Image::DepthStencil`] or [`Image::Samples`] image, which [`crate::transfer`] hands to this
//! module's children by image.
//!
//! - [`depth`]: a target's depth/stencil image: a copy for a depth-only format, converted on the
//!   CPU, else (a stencil, or a multisampled target) through `depth_draws`.
//! - [`samples`]: the restore of a multisampled target's sample image (colour), one per-sample
//!   draw; its readback is refused (SDL_gpu cannot sample a multisampled texture).
//! - [`depth_draws`]: the draws that stand in for a depth/stencil copy SDL_gpu cannot make: a
//!   format with a stencil (SDL would copy both aspects at once, which Vulkan forbids) both ways,
//!   and the per-sample restore of a multisampled depth/stencil image.
//!
//! The Vulkan backend has the same `depth` and `samples`; its third module, `depth_samples`, is
//! another mechanism for another reason: draws in both directions for a multisampled target's
//! depth/stencil image, where every single-sample depth/stencil image copies aspect by aspect.
//!
//! [`Image::DepthStencil`]: xnagraph_graph::Image::DepthStencil
//! [`Image::Samples`]: xnagraph_graph::Image::Samples

pub(crate) mod depth;
pub(crate) mod depth_draws;
pub(crate) mod samples;
