//! Tests of the transient-image stage.

use crate::commands::FrameCommands;
use crate::compile::compile;
use crate::compile::testkit::*;
use crate::format::DepthFormat;
use crate::plan::{Access, FramePlan, Image};

const D24S8: DepthFormat = DepthFormat::Depth24Stencil8;

fn aliased(mut frame: FrameCommands) -> FrameCommands {
    frame.alias_transients = true;
    frame
}

/// `(texture id, image, layer, first node, end node)` of each transient image.
fn transients(plan: &FramePlan) -> Vec<(u64, Image, u32, usize, usize)> {
    let images = plan.transients.images.iter();
    images.map(|t| (t.texture.id().0, t.image, t.layer, t.nodes.start, t.nodes.end)).collect()
}

fn resident(plan: &FramePlan) -> Vec<(u64, Image, u32)> {
    plan.transients.resident.iter().map(|(t, image, layer)| (t.id().0, *image, *layer)).collect()
}

/// The barriers of the whole plan whose source is `Aliased`, as `(node, texture id, image)`.
fn aliased_barriers(plan: &FramePlan) -> Vec<(usize, u64, Image)> {
    let mut out = Vec::new();
    for (i, node) in plan.nodes.iter().enumerate() {
        for b in node.barriers.iter().filter(|b| b.src == Access::Aliased) {
            assert!(b.discard, "an aliased first use discards");
            out.push((i, b.texture.id().0, b.image));
        }
    }
    out
}

/// Two 4x targets with depth, each drawn in its own pass, the second sampling the first: a
/// scene and the reflection it samples.
fn two_scenes() -> (FrameCommands, u64, u64) {
    let (reflection, scene) =
        (target_with_depth(8, 4, D24S8, DISCARD), target_with_depth(8, 4, D24S8, DISCARD));
    let (bb, t) = (back_buffer(8, 8, DISCARD), texture(4, 4, 1));
    let frame = frame(vec![
        bind(&reflection, vec![clear_all(BLACK), draw(&t)]),
        bind(&scene, vec![clear_all(BLACK), draw(&reflection)]),
        bind(&bb, vec![draw(&scene)]),
        present(&bb),
    ]);
    (frame, reflection.id().0, scene.id().0)
}

#[test]
fn discarded_sample_and_depth_images_are_transient_over_their_own_pass() {
    let (frame, r, s) = two_scenes();
    let plan = compile(frame);
    assert_eq!(
        transients(&plan),
        [
            (r, Image::Samples, 0, 0, 1),
            (r, Image::DepthStencil, 0, 0, 1),
            (s, Image::Samples, 0, 1, 2),
            (s, Image::DepthStencil, 0, 1, 2),
        ]
    );
    assert!(plan.transients.resident.is_empty());
    let (first, second) = (&plan.transients.images[0], &plan.transients.images[2]);
    assert!(!first.overlaps(second), "one pass's images may share the other's memory");
    assert!(first.overlaps(&plan.transients.images[1]), "a pass's samples and depth do not");
}

#[test]
fn without_aliasing_no_first_use_waits_for_shared_memory() {
    let (frame, ..) = two_scenes();
    let plan = compile(frame);
    assert!(!plan.transients.aliased);
    assert_eq!(aliased_barriers(&plan), []);
}

#[test]
fn aliased_first_use_waits_for_every_earlier_use_of_the_memory() {
    let (frame, r, s) = two_scenes();
    let plan = compile(aliased(frame));
    assert!(plan.transients.aliased);
    let text = plan.to_string();
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("transient ")).collect();
    assert_eq!(lines.len(), 4, "the plan text lists each transient image:\n{text}");
    assert!(lines[0].ends_with(".samples layer 0 nodes 0-0"), "{}", lines[0]);
    assert_eq!(
        aliased_barriers(&plan),
        [
            (0, r, Image::Samples),
            (0, r, Image::DepthStencil),
            (1, s, Image::Samples),
            (1, s, Image::DepthStencil)
        ]
    );
}

#[test]
fn every_frame_first_use_of_a_transient_image_is_aliased_again() {
    let (target, bb) = (target_with_depth(8, 4, D24S8, DISCARD), back_buffer(8, 8, DISCARD));
    let t = texture(4, 4, 1);
    let steps = || {
        vec![
            bind(&target, vec![clear_all(BLACK), draw(&t)]),
            bind(&bb, vec![draw(&target)]),
            present(&bb),
        ]
    };
    let mut all = steps();
    all.push(flush());
    all.extend(steps());
    for frame in frames(all) {
        let plan = compile(aliased(frame));
        let id = target.id().0;
        assert_eq!(
            aliased_barriers(&plan),
            [(0, id, Image::Samples), (0, id, Image::DepthStencil)]
        );
    }
}

#[test]
fn preserved_samples_and_depth_are_resident() {
    let (target, bb) = (target_with_depth(8, 4, D24S8, PRESERVE), back_buffer(8, 8, DISCARD));
    let t = texture(4, 4, 1);
    let plan = compile(aliased(frame(vec![
        bind(&target, vec![clear_all(BLACK), draw(&t)]),
        bind(&bb, vec![draw(&target)]),
        present(&bb),
    ])));
    let id = target.id().0;
    assert_eq!(transients(&plan), []);
    assert_eq!(resident(&plan), [(id, Image::Samples, 0), (id, Image::DepthStencil, 0)]);
    assert_eq!(aliased_barriers(&plan), []);
}

#[test]
fn a_target_still_bound_when_the_frame_ends_keeps_its_samples() {
    let target = target_with_depth(8, 4, D24S8, DISCARD);
    let t = texture(4, 4, 1);
    let mut frames = frames(vec![
        bind(&target, vec![clear_all(BLACK), draw(&t)]),
        flush(),
        resume(&target, vec![draw(&t)]),
    ]);
    let id = target.id().0;
    let first = compile(aliased(frames.remove(0)));
    assert_eq!(transients(&first), [], "the pass goes on in the next frame");
    assert_eq!(resident(&first), [(id, Image::Samples, 0), (id, Image::DepthStencil, 0)]);
    let second = compile(aliased(frames.remove(0)));
    assert!(resident(&second).contains(&(id, Image::Samples, 0)), "its first use loads");
}

#[test]
fn the_samples_of_a_cube_target_stay_resident() {
    let (cube, bb) = (target_cube(8, 1, 4, DISCARD), back_buffer(8, 8, DISCARD));
    let t = texture(4, 4, 1);
    let plan = compile(aliased(frame(vec![
        bind_face(&cube, 0, vec![clear_all(BLACK), draw(&t)]),
        bind(&bb, vec![draw(&cube)]),
        present(&bb),
    ])));
    let id = cube.id().0;
    assert!(resident(&plan).contains(&(id, Image::Samples, 0)));
    assert_eq!(transients(&plan), [(id, Image::DepthStencil, 0, 0, 1)]);
}
