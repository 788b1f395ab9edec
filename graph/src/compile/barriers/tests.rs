//! Tests of the barrier derivation.

#[test]
fn sampled_union_needs_no_barrier_between_samplings() {
    use super::sampled_union;
    use crate::plan::Access::{FragmentSampled as F, TransferWrite as T, VertexSampled as V};
    assert_eq!(sampled_union(F, V), Some(V), "fragment then vertex sampling covers both");
    assert_eq!(sampled_union(V, F), Some(V), "vertex then fragment sampling covers both");
    assert_eq!(sampled_union(F, F), Some(F));
    assert_eq!(sampled_union(T, V), None, "a write before sampling needs its barrier");
    assert_eq!(sampled_union(V, T), None, "a write after sampling waits for it");
}

use crate::compile::compile;
use crate::compile::nodes::Hazard;
use crate::compile::testkit::*;
use crate::format::DepthFormat;
use crate::plan::{Access::*, Image};

#[test]
fn first_use_from_undefined_discards() {
    let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
    let plan = compile(frame(vec![bind(&rt, vec![clear_color(RED), draw(&t)])]));
    let (rt, t) = (rt.id().0, t.id().0);
    assert_eq!(
        barriers(&plan, 0),
        [
            (t, Image::Color, 0..1, 0..1, Nothing, FragmentSampled, true),
            (rt, Image::Color, 0..1, 0..1, Nothing, ColorAttachmentWrite, true),
        ]
    );
}

#[test]
fn transfer_clear_then_sample() {
    let (t, a, b) = (texture(4, 4, 1), target(4, 4, 0, DISCARD), target(4, 4, 0, DISCARD));
    let plan = compile(frame(vec![
        bind(&a, vec![clear_color(RED)]),
        bind(&b, vec![clear_color(BLUE), draw(&t), draw(&a)]),
    ]));
    let id = a.id().0;
    assert_eq!(barriers(&plan, 0), [(id, Image::Color, 0..1, 0..1, Nothing, TransferWrite, true)]);
    let expected = (id, Image::Color, 0..1, 0..1, TransferWrite, FragmentSampled, false);
    assert!(barriers(&plan, 1).contains(&expected), "{:?}", barriers(&plan, 1));
    let raw = edges(&plan).contains(&(0, 1, Hazard::ReadAfterWrite));
    assert!(raw, "the sampling pass waits for the clear");
}

#[test]
fn transfer_clear_then_readback_waits_for_the_clear() {
    let rt = target(4, 4, 0, DISCARD);
    let plan = compile(frame(vec![bind(&rt, vec![clear_color(RED)]), readback(&rt, 0, 0)]));
    assert_eq!(kinds(&plan), ["clear", "readback"]);
    let id = rt.id().0;
    assert_eq!(
        barriers(&plan, 1),
        [(id, Image::Color, 0..1, 0..1, TransferWrite, TransferRead, false)]
    );
}

#[test]
fn render_to_texture_then_sample() {
    let (t, a, b) = (texture(4, 4, 1), target(4, 4, 0, DISCARD), target(4, 4, 0, DISCARD));
    let plan = compile(frame(vec![
        bind(&a, vec![clear_color(RED), draw(&t)]),
        bind(&b, vec![clear_color(RED), draw(&a)]),
    ]));
    let expected =
        (a.id().0, Image::Color, 0..1, 0..1, ColorAttachmentWrite, FragmentSampled, false);
    assert!(barriers(&plan, 1).contains(&expected), "{:?}", barriers(&plan, 1));
}

#[test]
fn upload_then_sample() {
    let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
    let plan = compile(frame(vec![upload(&t, 0, 0), bind(&rt, vec![clear_color(RED), draw(&t)])]));
    let id = t.id().0;
    assert_eq!(barriers(&plan, 0), [(id, Image::Color, 0..1, 0..1, Nothing, TransferWrite, true)]);
    assert!(barriers(&plan, 1).contains(&(
        id,
        Image::Color,
        0..1,
        0..1,
        TransferWrite,
        FragmentSampled,
        false
    )));
}

#[test]
fn write_after_read_with_layout_change_is_a_dependency() {
    let (t, rt, other) = (texture(4, 4, 1), target(4, 4, 0, PRESERVE), target(4, 4, 0, DISCARD));
    let plan = compile(frame(vec![
        bind(&rt, vec![clear_color(RED), draw(&t)]),
        bind(&other, vec![clear_color(RED), draw(&rt)]),
        bind(&rt, vec![draw(&t)]),
    ]));
    let expected =
        (rt.id().0, Image::Color, 0..1, 0..1, FragmentSampled, ColorAttachmentReadWrite, false);
    assert!(barriers(&plan, 2).contains(&expected), "{:?}", barriers(&plan, 2));
    let war = edges(&plan).contains(&(1, 2, Hazard::WriteAfterRead));
    assert!(war, "the sampling pass must finish before the target is rendered again");
}

#[test]
fn attachment_write_then_transfer_read() {
    let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
    let plan =
        compile(frame(vec![bind(&rt, vec![clear_color(RED), draw(&t)]), readback(&rt, 0, 0)]));
    let id = rt.id().0;
    assert_eq!(
        barriers(&plan, 1),
        [(id, Image::Color, 0..1, 0..1, ColorAttachmentWrite, TransferRead, false)]
    );
}

#[test]
fn transfer_write_then_attachment_load() {
    let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, PRESERVE));
    let plan = compile(frame(vec![upload(&rt, 0, 0), bind(&rt, vec![draw(&t)])]));
    let id = rt.id().0;
    assert!(barriers(&plan, 1).contains(&(
        id,
        Image::Color,
        0..1,
        0..1,
        TransferWrite,
        ColorAttachmentReadWrite,
        false
    )));
}

#[test]
fn write_after_write_between_two_passes_with_load() {
    let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
    let plan = compile(frame(vec![
        bind(&rt, vec![clear_color(RED), draw(&t)]),
        readback(&t, 0, 0),
        resume(&rt, vec![draw(&t)]),
    ]));
    let id = rt.id().0;
    assert!(barriers(&plan, 2).contains(&(
        id,
        Image::Color,
        0..1,
        0..1,
        ColorAttachmentWrite,
        ColorAttachmentReadWrite,
        false
    )));
}

#[test]
fn depth_write_after_write_between_two_passes_with_load() {
    let t = texture(4, 4, 1);
    let rt = target_with_depth(4, 0, DepthFormat::Depth24Stencil8, PRESERVE);
    let plan = compile(frame(vec![
        bind(&rt, vec![clear_all(BLACK), draw(&t)]),
        bind(&rt, vec![draw(&t)]),
    ]));
    let id = rt.id().0;
    let rw = DepthStencilAttachmentReadWrite;
    assert!(barriers(&plan, 0).contains(&(id, Image::DepthStencil, 0..1, 0..1, Nothing, rw, true)));
    assert!(barriers(&plan, 1).contains(&(id, Image::DepthStencil, 0..1, 0..1, rw, rw, false)));
}

#[test]
fn sample_after_sample_needs_no_barrier() {
    let (t, a, b) = (texture(4, 4, 1), target(4, 4, 0, DISCARD), target(4, 4, 0, DISCARD));
    let plan = compile(frame(vec![
        upload(&t, 0, 0),
        bind(&a, vec![clear_color(RED), draw(&t)]),
        bind(&b, vec![clear_color(RED), draw(&t), draw(&a), draw(&t)]),
    ]));
    let into_b = barriers(&plan, 2);
    assert!(into_b.iter().all(|b| b.0 != t.id().0), "{into_b:?}");
}

#[test]
fn transfer_read_then_sample_changes_layout() {
    let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
    let plan = compile(frame(vec![
        upload(&t, 0, 0),
        readback(&t, 0, 0),
        bind(&rt, vec![clear_color(RED), draw(&t)]),
    ]));
    let id = t.id().0;
    assert!(barriers(&plan, 2).contains(&(
        id,
        Image::Color,
        0..1,
        0..1,
        TransferRead,
        FragmentSampled,
        false
    )));
}

#[test]
fn multisampled_resolve_target_is_written_as_a_colour_attachment() {
    let (t, rt) = (texture(4, 4, 1), target(4, 4, 4, DISCARD));
    let plan =
        compile(frame(vec![bind(&rt, vec![clear_color(RED), draw(&t)]), readback(&rt, 0, 0)]));
    let id = rt.id().0;
    let b = barriers(&plan, 0);
    assert!(b.contains(&(id, Image::Samples, 0..1, 0..1, Nothing, ColorAttachmentWrite, true)));
    assert!(b.contains(&(id, Image::Color, 0..1, 0..1, Nothing, ColorAttachmentWrite, true)));
    assert_eq!(
        barriers(&plan, 1),
        [(id, Image::Color, 0..1, 0..1, ColorAttachmentWrite, TransferRead, false)]
    );
}

#[test]
fn blending_draw_reads_the_attachment() {
    let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
    let alpha = crate::commands::BlendState::ALPHA_BLEND;
    let plan = compile(frame(vec![bind(&rt, vec![clear_color(RED), draw_with(&t, alpha)])]));
    let id = rt.id().0;
    assert!(barriers(&plan, 0).contains(&(
        id,
        Image::Color,
        0..1,
        0..1,
        Nothing,
        ColorAttachmentReadWrite,
        true
    )));
}

#[test]
fn state_carries_across_frames() {
    let (t, rt, bb) = (texture(4, 4, 1), target(4, 4, 0, DISCARD), back_buffer(4, 4, DISCARD));
    let _ = compile(frame(vec![bind(&rt, vec![clear_color(RED), draw(&t)])]));
    let plan = compile(frame(vec![bind(&bb, vec![clear_color(RED), draw(&rt)]), present(&bb)]));
    let b = barriers(&plan, 0);
    assert!(b.contains(&(
        rt.id().0,
        Image::Color,
        0..1,
        0..1,
        ColorAttachmentWrite,
        FragmentSampled,
        false
    )));
    assert_eq!(
        barriers(&plan, 1),
        [(bb.id().0, Image::Color, 0..1, 0..1, ColorAttachmentWrite, Present, false)]
    );
    // The next frame's back buffer comes back from presentation with nothing to keep.
    let plan = compile(frame(vec![bind(&bb, vec![draw(&t)]), present(&bb)]));
    assert!(barriers(&plan, 0).contains(&(
        bb.id().0,
        Image::Color,
        0..1,
        0..1,
        Present,
        ColorAttachmentWrite,
        true
    )));
}

#[test]
fn presented_back_buffer_keeps_its_content_for_readback() {
    let bb = back_buffer(8, 8, DISCARD);
    let _ = compile(frame(vec![bind(&bb, vec![clear_color(RED)]), present(&bb)]));
    let plan = compile(frame(vec![readback(&bb, 0, 0)]));
    assert_eq!(
        barriers(&plan, 0),
        [(bb.id().0, Image::Color, 0..1, 0..1, Present, TransferRead, false)],
        "reading the presented frame back must not discard it"
    );
}

#[test]
fn sampled_cube_levels_and_faces_merge_into_one_range() {
    let t = texture(4, 4, 1);
    let cube = target_cube(8, 3, 0, PRESERVE);
    let rt = target_with_depth(4, 0, DepthFormat::None, DISCARD);
    let plan = compile(frame(vec![bind(&rt, vec![clear_color(RED), draw(&cube), draw(&t)])]));
    let id = cube.id().0;
    assert!(barriers(&plan, 0).contains(&(
        id,
        Image::Color,
        0..3,
        0..6,
        Nothing,
        FragmentSampled,
        true
    )));
}

#[test]
fn only_an_upload_of_the_whole_level_discards_what_was_there() {
    use crate::commands::Rect;
    // A preserving target: its second bind loads what the first pass drew, so culling
    // keeps both passes.
    let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, PRESERVE));
    let partial = upload_rect(&t, 0, 0, Rect::new(1, 2, 3, 2));
    // Each upload follows a draw that sampled the texture, so the uploads stay in the plan
    // and the old content is defined when each one begins.
    let plan = compile(frame(vec![
        upload(&t, 0, 0),
        bind(&rt, vec![clear_color(RED), draw(&t)]),
        partial,
        bind(&rt, vec![draw(&t)]),
        upload(&t, 0, 0),
        readback(&t, 0, 0),
    ]));
    assert_eq!(kinds(&plan), ["upload", "pass", "upload", "pass", "upload", "readback"]);
    let id = t.id().0;
    let keeps = (id, Image::Color, 0..1, 0..1, FragmentSampled, TransferWrite, false);
    assert_eq!(barriers(&plan, 2), [keeps], "a partial upload merges with the old texels");
    let discards = (id, Image::Color, 0..1, 0..1, FragmentSampled, TransferWrite, true);
    assert_eq!(barriers(&plan, 4), [discards], "a whole-level upload replaces them");
}

/// A cube sampled after one face was rendered: that face comes from attachment-write with
/// its content, the five untouched ones from nothing, discarded, as one range.
#[test]
fn sampling_a_cube_transitions_each_face_from_its_own_state() {
    use crate::format::SurfaceFormat;
    let t = texture(4, 4, 1);
    let cube =
        render_target(8, 8, 1, 6, SurfaceFormat::Color, 0, DepthFormat::None, PRESERVE, false);
    let rt = target(4, 4, 0, DISCARD);
    let plan = compile(frame(vec![
        bind_face(&cube, 0, vec![draw(&t)]),
        bind(&rt, vec![draw(&cube), draw(&t)]),
    ]));
    let id = cube.id().0;
    let rows: Vec<_> = barriers(&plan, 1).into_iter().filter(|r| r.0 == id).collect();
    assert_eq!(
        rows,
        [
            (id, Image::Color, 0..1, 0..1, ColorAttachmentWrite, FragmentSampled, false),
            (id, Image::Color, 0..1, 1..6, Nothing, FragmentSampled, true),
        ]
    );
}

/// Levels already in the sampled layout get no barrier, and ranges merge only where the
/// level ranges match: a gap in one face's levels, or a face with other levels, stays apart.
#[test]
fn sampling_transitions_exactly_the_levels_and_faces_that_changed() {
    use crate::format::SurfaceFormat;
    let (t, a, b) = (texture(4, 4, 1), target(4, 4, 0, DISCARD), target(4, 4, 0, DISCARD));
    let cube =
        render_target(8, 8, 3, 6, SurfaceFormat::Color, 0, DepthFormat::None, PRESERVE, false);
    // Every level of every face ends up sampled.
    let _ = compile(frame(vec![
        bind_face(&cube, 0, vec![clear_color(RED), draw(&t)]),
        bind(&a, vec![draw(&cube)]),
    ]));
    let plan = compile(frame(vec![
        upload(&cube, 0, 0),
        upload(&cube, 2, 0),
        upload(&cube, 0, 1),
        upload(&cube, 1, 1),
        upload(&cube, 2, 1),
        bind(&b, vec![draw(&cube)]),
    ]));
    assert_eq!(kinds(&plan), ["upload", "upload", "upload", "upload", "upload", "pass"]);
    let id = cube.id().0;
    let rows: Vec<_> = barriers(&plan, 5).into_iter().filter(|r| r.0 == id).collect();
    let sampled =
        |levels, layers| (id, Image::Color, levels, layers, TransferWrite, FragmentSampled, false);
    assert_eq!(rows, [sampled(0..1, 0..1), sampled(2..3, 0..1), sampled(0..3, 1..2)]);
}

/// Content whose last store dropped it is not kept by the next use, even one that reads:
/// the barrier discards it.
#[test]
fn a_use_of_content_a_store_dropped_discards_it() {
    use crate::compile::track::SubState;
    let rt = target(4, 4, 0, DISCARD);
    let dropped = SubState { access: ColorAttachmentWrite, defined: false };
    *rt.tracked.lock().unwrap().get_mut(Image::Color, 0, 0).unwrap() = dropped;
    let plan = compile(frame(vec![readback(&rt, 0, 0)]));
    assert_eq!(
        barriers(&plan, 0),
        [(rt.id().0, Image::Color, 0..1, 0..1, ColorAttachmentWrite, TransferRead, true)]
    );
}

/// Adjacent subresources merge within one use only: the next use's first barrier starts
/// its own, even where it continues the previous one's range with the same transition.
#[test]
fn a_barrier_never_merges_with_another_uses() {
    use super::{transition, SubresourceUse};
    use crate::compile::track::FrameTracker;
    let (a, b) = (texture(4, 4, 1), texture(4, 4, 2));
    let use_of = |texture, levels| SubresourceUse {
        texture,
        image: Image::Color,
        levels,
        layers: 0..1,
        access: TransferWrite,
        discard: true,
    };
    let (mut tracker, mut out) = (FrameTracker::default(), Vec::new());
    transition(&mut tracker, &use_of(&a, 0..1), &mut out);
    transition(&mut tracker, &use_of(&b, 1..2), &mut out);
    let rows: Vec<_> =
        out.iter().map(|b| (b.texture.id().0, b.levels.clone(), b.src, b.dst)).collect();
    assert_eq!(
        rows,
        [(a.id().0, 0..1, Nothing, TransferWrite), (b.id().0, 1..2, Nothing, TransferWrite)]
    );
}
