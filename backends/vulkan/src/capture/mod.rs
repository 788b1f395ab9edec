//! Capture transfers: uploads and readbacks of a render target's capture planes.
//!
//! A capture's snapshot holds a target's images in a backend-neutral encoding the graph crate
//! defines, so that any backend restores what another read back: the depth/stencil image as
//! [`depth_stencil_size`](xnagraph_graph::depth_stencil_size) lays it out (every texel's depth
//! as an `f32`, then every texel's stencil byte), and a multisampled target's samples as planes
//! ([`sample_planes_size`](xnagraph_graph::sample_planes_size): plane `s` holds every texel's
//! sample `s`; a multisampled depth/stencil image is that encoding for an image `samples` times
//! as tall). Those are the capture planes: an upload or readback of the [`Image::DepthStencil`]
//! or [`Image::Samples`] image, which [`crate::transfer`] hands to this module's children by
//! image and sample count.
//!
//! - [`depth`]: a single-sample target's depth/stencil image, a buffer↔image copy per aspect,
//!   converted to and from the encoding on the CPU.
//! - [`samples`]: a multisampled target's sample image (colour), drawn both ways through a
//!   private single-sample image of planes (gather, scatter).
//! - [`depth_samples`]: a multisampled target's depth/stencil image, drawn both ways sample by
//!   sample, since no copy reaches the samples of a multisample image.
//!
//! The SDL_gpu backend has the same `depth` and `samples`; its third module, `depth_draws`, is
//! another mechanism for another reason: draws that stand in for the copy of a depth/stencil
//! format with a stencil (SDL would copy both aspects at once), and the per-sample restore of a
//! multisampled one. Here a single-sample depth/stencil image always copies, aspect by aspect.
//!
//! [`Image::DepthStencil`]: xnagraph_graph::Image::DepthStencil
//! [`Image::Samples`]: xnagraph_graph::Image::Samples

pub(crate) mod depth;
pub(crate) mod depth_samples;
pub(crate) mod samples;
