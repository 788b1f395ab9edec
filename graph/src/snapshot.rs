//! What a capture snapshots of a texture: the rules the capture writer, its reader and trim,
//! and the backends that make such content readable share.
//!
//! In: a texture's description (and a backend's capabilities). Out: whether a capture's
//! snapshot holds the texture's depth/stencil content, its samples, and whether a backend reads
//! that depth back. Kept outside the capture module so that a build without the `capture`
//! feature makes the same textures as one with it, and a capture made by either replays.

/// Whether a capture snapshots the depth/stencil content of a texture described by `desc`: a
/// render target with a depth format whose content survives frames (PreserveContents; a
/// DiscardContents target's depth is undefined at every frame's start).
pub fn snapshots_depth(desc: &crate::TextureDesc) -> bool {
    desc.render_target
        .is_some_and(|rt| rt.depth != crate::DepthFormat::None && rt.usage.preserves_contents())
}

impl crate::TextureDesc {
    /// Whether a capture reads this texture's depth/stencil back as one single-sample image:
    /// the depth a capture snapshots ([`snapshots_depth`]) of a target that is not
    /// multisampled (a multisampled target's depth goes through its sample planes). A backend
    /// whose depth readback samples the depth image makes exactly these images samplable,
    /// deciding nothing from the target's usage itself.
    pub fn snapshots_single_sample_depth(&self) -> bool {
        snapshots_depth(self) && !self.render_target.is_some_and(|rt| rt.is_multisampled())
    }
}

/// Whether a backend of `caps` reads back the depth/stencil content a capture snapshots of a
/// texture described by `desc` ([`snapshots_depth`]): with
/// [`crate::Capabilities::depth_readback`], and for a multisampled target (every sample) also
/// [`crate::Capabilities::sample_readback`].
pub fn reads_depth_back(caps: &crate::Capabilities, desc: &crate::TextureDesc) -> bool {
    let multisampled = desc.render_target.is_some_and(|rt| rt.is_multisampled());
    snapshots_depth(desc) && caps.depth_readback && (caps.sample_readback || !multisampled)
}

/// Whether a capture snapshots the samples of a texture described by `desc`: a multisampled
/// render target whose content survives frames (PreserveContents; a DiscardContents target's
/// samples are undefined at every frame's start). Its depth/stencil image is
/// [`snapshots_depth`]'s.
pub fn snapshots_samples(desc: &crate::TextureDesc) -> bool {
    desc.render_target.is_some_and(|rt| rt.is_multisampled() && rt.usage.preserves_contents())
}
