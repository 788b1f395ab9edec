//! Stage 7, barriers: the one batch of transitions before each plan node.
//!
//! In: the plan's nodes in execution order (stage 6) and each texture's tracked state from the
//! previous frame. Out: every node's `barriers`, and the tracked states advanced to the end of
//! the frame.
//!
//! Walking the nodes in order, each use (see the `access` module) of each subresource is compared
//! with the access the subresource was last left in:
//! - a read after the same read (sampled → sampled, transfer-read → transfer-read) needs no
//!   barrier: same layout, and reads do not hazard with reads;
//! - anything else is a barrier from the old access to the new one, including a write after a
//!   read with a layout change (the read must finish before the write) and a write after a
//!   write (attachment → attachment across passes, upload → upload);
//! - `discard` is set when the old content need not survive: the subresource was never written,
//!   its last store dropped it, or the use overwrites it whole (a CLEAR or DONT_CARE load, the
//!   resolve, a transfer clear, the upper levels of a mip cascade, an upload of the whole level).
//!
//! Adjacent levels, then adjacent layers, with equal transitions merge into one range.
//!
//! Before tracking a pass, its LOADs of content that does not exist become DONT_CARE
//! (`load::settle_load`). After each node the tracker records what it left behind:
//! stored attachments, resolved and cleared images hold content, dropped ones do not; a cascade leaves
//! every level of its layer in transfer-read; a presented back buffer goes to the swapchain, so
//! the next frame's back buffer has no content to keep.

use super::access::{for_each_use, Use};
use super::load::settle_load;
use super::track::FrameTracker;
use crate::commands::{FrameCommands, Node};
use crate::plan::{Access, Barrier, Image, PlanNode, PlanNodeKind, StoreOp};
use crate::present::PresentMode;

fn is_read_only(access: Access) -> bool {
    matches!(
        access,
        Access::FragmentSampled
            | Access::VertexSampled
            | Access::TransferRead
            | Access::Present
            | Access::PresentSwapchain
    )
}

/// Sampling after sampling in the same layout needs no barrier: the subresource is then in
/// the access covering both (a later writer waits for every stage that sampled it).
fn sampled_union(from: Access, to: Access) -> Option<Access> {
    use Access::{FragmentSampled, VertexSampled};
    match (from, to) {
        (FragmentSampled | VertexSampled, FragmentSampled | VertexSampled) => {
            Some(if from == to { to } else { VertexSampled })
        }
        _ => None,
    }
}

/// Moves every subresource of `u` to its access, appending the barriers that takes.
fn transition(tracker: &mut FrameTracker, u: &Use<'_>, out: &mut Vec<Barrier>) {
    let state = tracker.state(u.texture);
    let start = out.len();
    for layer in u.layers.clone() {
        for level in u.levels.clone() {
            let Some(sub) = state.get_mut(u.image, level, layer) else {
                continue;
            };
            let from = *sub;
            sub.access = u.access;
            if from.access == u.access && is_read_only(u.access) {
                continue;
            }
            if let (Some(both), true) = (sampled_union(from.access, u.access), from.defined) {
                sub.access = both;
                continue;
            }
            let discard = u.discard || !from.defined || from.access == Access::Nothing;
            let previous = if out.len() > start { out.last_mut() } else { None };
            if let Some(last) = previous {
                if last.layers.start == layer
                    && last.levels.end == level
                    && last.src == from.access
                    && last.discard == discard
                {
                    last.levels.end = level + 1;
                    continue;
                }
            }
            out.push(Barrier {
                texture: u.texture.clone(),
                image: u.image,
                levels: level..level + 1,
                layers: layer..layer + 1,
                src: from.access,
                dst: u.access,
                discard,
            });
        }
    }
    merge_adjacent_layers(out, start);
}

fn merge_adjacent_layers(out: &mut Vec<Barrier>, start: usize) {
    if out.len() <= start + 1 {
        return;
    }
    let mut w = start;
    for r in start + 1..out.len() {
        let (a, b) = (&out[w], &out[r]);
        if a.levels == b.levels
            && a.layers.end == b.layers.start
            && (a.src, a.discard) == (b.src, b.discard)
        {
            out[w].layers.end = out[r].layers.end;
        } else {
            w += 1;
            out.swap(w, r);
        }
    }
    out.truncate(w + 1);
}

/// Records what a node leaves behind in its subresources, beyond the access of its uses.
fn record_effects(kind: &PlanNodeKind, frame: &FrameCommands, tracker: &mut FrameTracker) {
    match kind {
        PlanNodeKind::Pass(pass) => {
            for att in pass.colors.iter().chain(pass.depth.iter()) {
                let state = tracker.state(&att.texture);
                if let Some(sub) = state.get_mut(att.image, 0, att.layer) {
                    sub.defined = att.store == StoreOp::Store;
                }
                if att.resolve {
                    if let Some(sub) = state.get_mut(Image::Color, 0, att.layer) {
                        sub.defined = true;
                    }
                }
            }
        }
        PlanNodeKind::ClearImages { clears } => {
            for c in clears {
                if let Some(sub) = tracker.state(&c.texture).get_mut(c.image, c.level, c.layer) {
                    sub.defined = true;
                }
            }
        }
        PlanNodeKind::Upload { node } => {
            if let Some(Node::Upload(u)) = frame.nodes.get(*node) {
                if let Some(sub) = tracker.state(&u.texture).get_mut(u.image, u.level, u.layer) {
                    sub.defined = true;
                }
            }
        }
        PlanNodeKind::GenerateMips { texture, layer } => {
            let state = tracker.state(texture);
            let defined = state.get(Image::Color, 0, *layer).is_some_and(|s| s.defined);
            for level in 0..texture.desc().mip_levels.max(1) {
                if let Some(sub) = state.get_mut(Image::Color, level, *layer) {
                    *sub = super::track::SubState { access: Access::TransferRead, defined };
                }
            }
        }
        // A swapchain image drawn straight into goes to the presentation engine with its
        // content: nothing of it is the back buffer's any more.
        PlanNodeKind::Present { node } if frame.presentation == PresentMode::Direct => {
            if let Some(Node::Present(t)) = frame.nodes.get(*node) {
                if let Some(sub) = tracker.state(t).get_mut(Image::Color, 0, 0) {
                    sub.defined = false;
                }
            }
        }
        // The offscreen back buffer keeps what was presented, so GetBackBufferData after Present
        // reads the frame; whether the next frame loads it is its usage's decision (load ops).
        PlanNodeKind::Present { .. }
        | PlanNodeKind::Readback { .. }
        | PlanNodeKind::BufferUpload { .. }
        | PlanNodeKind::BufferReadback { .. } => {}
    }
}

/// Settles the loads of undefined content and derives every node's barriers.
pub(crate) fn derive_barriers(
    frame: &FrameCommands,
    nodes: &mut [PlanNode],
    tracker: &mut FrameTracker,
) {
    for node in nodes {
        let PlanNode { barriers, kind, .. } = node;
        if let PlanNodeKind::Pass(pass) = kind {
            for att in pass.colors.iter_mut().chain(pass.depth.iter_mut()) {
                let content = tracker.get(&att.texture, att.image, 0, att.layer);
                settle_load(&mut att.load, content.defined);
            }
        }
        for_each_use(kind, frame, |u| transition(tracker, &u, barriers));
        record_effects(kind, frame, tracker);
    }
}

#[cfg(test)]
mod tests {

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
    use crate::compile::nodes::{dependency_graph, Hazard};
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
        assert_eq!(
            barriers(&plan, 0),
            [(id, Image::Color, 0..1, 0..1, Nothing, TransferWrite, true)]
        );
        let expected = (id, Image::Color, 0..1, 0..1, TransferWrite, FragmentSampled, false);
        assert!(barriers(&plan, 1).contains(&expected), "{:?}", barriers(&plan, 1));
        let g = dependency_graph(&plan);
        let raw = g.edge_indices().any(|e| {
            let (from, to) = g.edge_endpoints(e).unwrap();
            (g[from], g[to]) == (0, 1) && g[e].contains(Hazard::ReadAfterWrite)
        });
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
        let plan =
            compile(frame(vec![upload(&t, 0, 0), bind(&rt, vec![clear_color(RED), draw(&t)])]));
        let id = t.id().0;
        assert_eq!(
            barriers(&plan, 0),
            [(id, Image::Color, 0..1, 0..1, Nothing, TransferWrite, true)]
        );
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
        let (t, rt, other) =
            (texture(4, 4, 1), target(4, 4, 0, PRESERVE), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![
            bind(&rt, vec![clear_color(RED), draw(&t)]),
            bind(&other, vec![clear_color(RED), draw(&rt)]),
            bind(&rt, vec![draw(&t)]),
        ]));
        let expected =
            (rt.id().0, Image::Color, 0..1, 0..1, FragmentSampled, ColorAttachmentReadWrite, false);
        assert!(barriers(&plan, 2).contains(&expected), "{:?}", barriers(&plan, 2));
        let g = dependency_graph(&plan);
        let war = g.edge_indices().any(|e| {
            let (a, b) = g.edge_endpoints(e).unwrap();
            (g[a], g[b]) == (1, 2) && g[e].contains(Hazard::WriteAfterRead)
        });
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
        assert!(barriers(&plan, 0).contains(&(
            id,
            Image::DepthStencil,
            0..1,
            0..1,
            Nothing,
            rw,
            true
        )));
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
        let sampled = |levels, layers| {
            (id, Image::Color, levels, layers, TransferWrite, FragmentSampled, false)
        };
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
        use super::{transition, Use};
        use crate::compile::track::FrameTracker;
        let (a, b) = (texture(4, 4, 1), texture(4, 4, 2));
        let use_of = |texture, levels| Use {
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
}
