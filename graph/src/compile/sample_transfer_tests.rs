//! Plans of sample-plane uploads and readbacks (a capture's multisample snapshot and its
//! restore): the readback samples the multisample image in a fragment shader, the upload writes
//! every sample as a colour attachment; the compiler derives their layouts, barriers, store and
//! load ops like any other access.

use std::sync::Arc;

use super::compile;
use super::testkit::*;
use crate::commands::{depth_stencil_size, sample_planes_size, Node};
use crate::format::{DepthFormat, SurfaceFormat};
use crate::plan::{Access::*, Image, LoadOp, PlanNodeKind, StoreOp};
use crate::resource::TextureState;

const SAMPLES: u32 = 4;

fn samples_readback(target: &Arc<TextureState>) -> Node {
    whole_image_readback(target, Image::Samples)
}

fn samples_upload(target: &Arc<TextureState>) -> Step {
    let (w, h) = target.desc().level_size(0);
    let data = vec![0; sample_planes_size(SurfaceFormat::Color, w, h, SAMPLES)];
    whole_image_upload(target, Image::Samples, data)
}

/// The store op of the `Samples` attachment of the pass at plan node `i`.
fn samples_store(plan: &crate::plan::FramePlan, i: usize) -> StoreOp {
    let att = pass(plan, i).colors.iter().find(|a| a.image == Image::Samples);
    att.expect("the multisample image is attached").store
}

#[test]
fn a_samples_readback_samples_the_stored_multisample_image_in_a_fragment_shader() {
    // A DiscardContents target: only the readback makes the pass store its samples.
    let (t, rt) = (texture(4, 4, 1), target(8, 8, SAMPLES, DISCARD));
    let mut commands = frame(vec![bind(&rt, vec![clear_all(RED), draw(&t)]), unbind()]);
    commands.nodes.push(samples_readback(&rt));
    let plan = compile(commands);
    let at = plan.nodes.iter().position(|n| matches!(n.kind, PlanNodeKind::Readback { .. }));
    let at = at.expect("the readback is kept");
    let id = rt.id().0;
    assert_eq!(
        barriers(&plan, at),
        [(id, Image::Samples, 0..1, 0..1, ColorAttachmentWrite, FragmentSampled, false)]
    );
    assert_eq!(samples_store(&plan, 0), StoreOp::Store, "the readback reads what the pass wrote");
}

#[test]
fn without_a_samples_readback_a_discarding_targets_samples_are_dropped() {
    let (t, rt) = (texture(4, 4, 1), target(8, 8, SAMPLES, DISCARD));
    let plan = compile(frame(vec![bind(&rt, vec![clear_all(RED), draw(&t)]), unbind()]));
    assert_eq!(samples_store(&plan, 0), StoreOp::DontCare);
}

#[test]
fn a_samples_upload_defines_the_multisample_image_the_next_pass_loads() {
    let (t, rt) = (texture(4, 4, 1), target(8, 8, SAMPLES, PRESERVE));
    let plan = compile(frame(vec![samples_upload(&rt), bind(&rt, vec![draw(&t)])]));
    assert!(matches!(plan.nodes[0].kind, PlanNodeKind::Upload { .. }));
    let id = rt.id().0;
    assert_eq!(
        barriers(&plan, 0),
        [(id, Image::Samples, 0..1, 0..1, Nothing, ColorAttachmentWrite, true)],
        "every sample is written as a colour attachment: the old content is discarded"
    );
    let samples = (id, Image::Samples, 0..1, 0..1, ColorAttachmentWrite, ColorAttachmentReadWrite);
    let samples = (samples.0, samples.1, samples.2, samples.3, samples.4, samples.5, false);
    assert!(barriers(&plan, 1).contains(&samples), "{:?}", barriers(&plan, 1));
    let att = pass(&plan, 1).colors.iter().find(|a| a.image == Image::Samples).unwrap();
    assert_eq!(att.load, LoadOp::Load, "the pass draws over the uploaded samples");
}

#[test]
fn a_samples_upload_overwrites_what_an_earlier_pass_left_in_the_samples() {
    // Frame: a pass drawing the samples, then a resolve readback of its colour (so the pass
    // is observed), then sample planes replacing every sample, then a pass loading them.
    let (t, rt) = (texture(4, 4, 1), target(8, 8, SAMPLES, PRESERVE));
    let plan = compile(frame(vec![
        bind(&rt, vec![clear_all(RED), draw(&t)]),
        unbind(),
        readback(&rt, 0, 0),
        samples_upload(&rt),
        bind(&rt, vec![draw(&t)]),
    ]));
    let passes: Vec<usize> = (0..plan.nodes.len())
        .filter(|&i| matches!(plan.nodes[i].kind, PlanNodeKind::Pass(_)))
        .collect();
    assert_eq!(passes.len(), 2, "{:?}", kinds(&plan));
    assert_eq!(
        samples_store(&plan, passes[0]),
        StoreOp::DontCare,
        "the upload rewrites every sample: nothing reads what the first pass left there"
    );
    assert_eq!(
        samples_store(&plan, passes[1]),
        StoreOp::Store,
        "a preserving target's samples survive"
    );
}

fn multisampled_depth_target() -> Arc<TextureState> {
    target_with_depth(8, SAMPLES, DepthFormat::Depth24Stencil8, PRESERVE)
}

/// The upload of every depth and stencil sample of `target` (planes `SAMPLES` times as tall).
fn depth_upload(target: &Arc<TextureState>) -> Step {
    let (w, h) = target.desc().level_size(0);
    let data = vec![0; depth_stencil_size(DepthFormat::Depth24Stencil8, w, h * SAMPLES)];
    whole_image_upload(target, Image::DepthStencil, data)
}

#[test]
fn a_multisampled_depth_readback_samples_the_stored_depth_image() {
    let (t, rt) = (texture(4, 4, 1), multisampled_depth_target());
    let mut commands = frame(vec![bind(&rt, vec![clear_all(RED), draw(&t)]), unbind()]);
    commands.nodes.push(whole_image_readback(&rt, Image::DepthStencil));
    let plan = compile(commands);
    let at = plan.nodes.iter().position(|n| matches!(n.kind, PlanNodeKind::Readback { .. }));
    let id = rt.id().0;
    let row = (id, Image::DepthStencil, 0..1, 0..1, DepthStencilAttachmentReadWrite);
    let row = (row.0, row.1, row.2, row.3, row.4, FragmentSampled, false);
    assert_eq!(barriers(&plan, at.expect("the readback is kept")), [row]);
    let depth = pass(&plan, 0).depth.as_ref().expect("the target's depth is attached");
    assert_eq!(depth.store, StoreOp::Store, "the readback reads what the pass wrote");
}

#[test]
fn a_multisampled_depth_upload_writes_every_sample_as_an_attachment_the_next_pass_loads() {
    let (t, rt) = (texture(4, 4, 1), multisampled_depth_target());
    let plan = compile(frame(vec![
        bind(&rt, vec![clear_all(RED), draw(&t)]),
        unbind(),
        depth_upload(&rt),
        bind(&rt, vec![draw(&t)]),
    ]));
    let at = plan.nodes.iter().position(|n| matches!(n.kind, PlanNodeKind::Upload { .. }));
    let at = at.expect("the upload is kept");
    let id = rt.id().0;
    let discarded = barriers(&plan, at).into_iter().any(|b| {
        (b.0, b.1, b.5, b.6) == (id, Image::DepthStencil, DepthStencilAttachmentReadWrite, true)
    });
    assert!(discarded, "every sample is written: {:?}", barriers(&plan, at));
    let depth = |i: usize| pass(&plan, i).depth.as_ref().expect("the target's depth is attached");
    let passes: Vec<usize> = (0..plan.nodes.len())
        .filter(|&i| matches!(plan.nodes[i].kind, PlanNodeKind::Pass(_)))
        .collect();
    if passes.len() == 2 {
        assert_eq!(depth(passes[0]).store, StoreOp::DontCare, "the upload overwrites it");
    }
    let last = *passes.last().unwrap();
    assert!(last > at);
    assert_eq!(depth(last).load, LoadOp::Load, "the pass draws over the uploaded depth");
}
