//! Volumes at the backend: what a 3D image may be, and the adapter's limit reported.

mod common;

use common::*;
use xnagraph_graph::{
    Backend, BackendError, DepthFormat, RenderTargetDesc, RenderTargetUsage, SurfaceFormat,
    TextureDesc,
};

fn refused(s: &mut Session, desc: TextureDesc) -> bool {
    matches!(s.backend.create_texture(&desc), Err(BackendError::NotSupported(_)))
}

/// The adapter's 3D extent limit is reported; a volume up to it, with its full chain, is made;
/// one past it, one with more levels than its largest edge allows, or one that is a render
/// target is refused, not made wrong.
#[test]
fn volumes_are_refused_past_the_reported_limit_and_as_render_targets() {
    let mut s = Session::new();
    let max = s.backend.capabilities().max_volume_dimension;
    assert!(max >= 256, "lavapipe makes 3D images (limit {max})");
    let volume = |w, h, d, levels| TextureDesc::volume(w, h, d, levels, SurfaceFormat::Color);
    assert!(s.backend.create_texture(&volume(1, 1, 8, 4)).is_ok(), "depth decides the chain");
    assert!(refused(&mut s, volume(1, 1, 8, 5)));
    assert!(refused(&mut s, volume(4, 4, max + 1, 1)));
    let target = RenderTargetDesc {
        depth: DepthFormat::None,
        sample_count: 0,
        usage: RenderTargetUsage::DiscardContents,
        back_buffer: false,
    };
    assert!(refused(&mut s, TextureDesc { render_target: Some(target), ..volume(4, 4, 4, 1) }));
    s.finish();
}
