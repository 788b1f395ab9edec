//! Plans of depth/stencil uploads and readbacks (a capture's depth snapshot and its restore):
//! the compiler derives their layouts, barriers, store and load ops like any other access.

use std::sync::Arc;

use super::compile;
use super::testkit::*;
use crate::commands::{depth_stencil_size, Node};
use crate::format::DepthFormat;
use crate::plan::{Access::*, Image, LoadOp, PlanNodeKind, StoreOp};
use crate::resource::TextureState;

fn depth_readback(target: &Arc<TextureState>) -> Node {
    whole_image_readback(target, Image::DepthStencil)
}

fn depth_upload(target: &Arc<TextureState>) -> Step {
    let (w, h) = target.desc().level_size(0);
    let data = vec![0; depth_stencil_size(DepthFormat::Depth24Stencil8, w, h)];
    whole_image_upload(target, Image::DepthStencil, data)
}

#[test]
fn a_depth_readback_reads_the_stored_depth_image_in_transfer_source_layout() {
    // A DiscardContents target: only the readback makes the pass store its depth.
    let (t, rt) =
        (texture(4, 4, 1), target_with_depth(8, 0, DepthFormat::Depth24Stencil8, DISCARD));
    let mut commands = frame(vec![bind(&rt, vec![clear_all(RED), draw(&t)]), unbind()]);
    commands.nodes.push(depth_readback(&rt));
    let plan = compile(commands);
    let at = plan.nodes.iter().position(|n| matches!(n.kind, PlanNodeKind::Readback { .. }));
    let at = at.expect("the readback is kept");
    let id = rt.id().0;
    assert_eq!(
        barriers(&plan, at),
        [(
            id,
            Image::DepthStencil,
            0..1,
            0..1,
            DepthStencilAttachmentReadWrite,
            TransferRead,
            false
        )]
    );
    let depth = pass(&plan, 0).depth.as_ref().expect("the target's depth is attached");
    assert_eq!(depth.store, StoreOp::Store, "the readback reads what the pass wrote");
}

#[test]
fn a_depth_upload_defines_the_depth_image_the_next_pass_loads() {
    let (t, rt) =
        (texture(4, 4, 1), target_with_depth(8, 0, DepthFormat::Depth24Stencil8, PRESERVE));
    let plan = compile(frame(vec![depth_upload(&rt), bind(&rt, vec![draw(&t)])]));
    assert!(matches!(plan.nodes[0].kind, PlanNodeKind::Upload { .. }));
    let id = rt.id().0;
    assert_eq!(
        barriers(&plan, 0),
        [(id, Image::DepthStencil, 0..1, 0..1, Nothing, TransferWrite, true)],
        "the whole image is replaced: its old content is discarded"
    );
    let depth_barrier = (
        id,
        Image::DepthStencil,
        0..1,
        0..1,
        TransferWrite,
        DepthStencilAttachmentReadWrite,
        false,
    );
    assert!(barriers(&plan, 1).contains(&depth_barrier), "{:?}", barriers(&plan, 1));
    let depth = pass(&plan, 1).depth.as_ref().expect("the target's depth is attached");
    assert_eq!(depth.load, LoadOp::Load, "the pass draws over the uploaded depth");
}
