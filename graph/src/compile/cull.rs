//! Stage 4, culling: nodes whose results nothing observes leave the plan.
//!
//! In: the plan's nodes in recording order with load ops, store ops and resolves decided
//! (stages 2–3), and the dependency DAG built over them ([`super::nodes::build_dag`]). Out: the
//! same list without the dead nodes, in the same order — a topological order of the DAG.
//!
//! A node is observed when it has an effect outside the frame's DAG, or when a node that is
//! observed depends on what it wrote (a read-after-write edge; a write that keeps part of what
//! it overwrites counts as a read):
//! - a readback or a present is observed (the game or the screen sees it);
//! - an upload is observed when it is the last write of its subresource in the frame (the
//!   texture keeps it);
//! - a pass is observed when it is the last write of an attachment it stores, or of the `Color`
//!   image it resolves into: the content survives the frame. A pass whose every write is
//!   overwritten before anything reads it, or dropped by a DONT_CARE store, is not.
//!
//! Liveness flows backwards along the read-after-write edges, one walk from the last node to the
//! first, so a pass whose only reader is dead is dead too (the Frostbite frame graph's culling by
//! reference count, on subresources). Cascades, transfer clears and barriers are derived after
//! this stage, for the live nodes only.

use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use super::nodes::{build_dag, Dag, Hazard};
use crate::commands::{FrameCommands, Node};
use crate::plan::{Image, PlanNode, PlanNodeKind, StoreOp};

/// Whether `node` (at position `i`) has an effect outside the frame's DAG.
fn observed_outside(i: usize, node: &PlanNode, frame: &FrameCommands, dag: &Dag) -> bool {
    let last = |key| dag.last_writer(&key) == Some(i);
    match &node.kind {
        // An occlusion query's count is observed.
        PlanNodeKind::Pass(pass) => {
            has_query(pass, frame)
                || pass.colors.iter().chain(pass.depth.iter()).any(|att| {
                    let id = att.texture.id();
                    let layer = if att.image == Image::DepthStencil { 0 } else { att.layer };
                    (att.store == StoreOp::Store && last((id, att.image, 0, layer)))
                        || (att.resolve && last((id, Image::Color, 0, att.layer)))
                })
        }
        PlanNodeKind::Upload { node } => match frame.nodes.get(*node) {
            Some(Node::Upload(u)) => last((u.texture.id(), u.image, u.level, u.layer)),
            _ => false,
        },
        // Readbacks and presents are what the game sees; cascades and clears are made later
        // and are kept as they come.
        // A buffer keeps what is written into it past the frame, and its readbacks are seen.
        PlanNodeKind::Readback { .. }
        | PlanNodeKind::BufferUpload { .. }
        | PlanNodeKind::BufferReadback { .. }
        | PlanNodeKind::Present { .. }
        | PlanNodeKind::GenerateMips { .. }
        | PlanNodeKind::ClearImages { .. } => true,
    }
}

/// Removes the nodes whose results nothing observes.
fn has_query(pass: &crate::plan::PlannedPass, frame: &FrameCommands) -> bool {
    let Some(Node::Pass(segment)) = frame.nodes.get(pass.segment) else { return false };
    segment.ops.iter().any(|op| matches!(op, crate::commands::PassOp::Query(_)))
}

pub(crate) fn cull_unobserved(frame: &FrameCommands, nodes: &mut Vec<PlanNode>) {
    let dag = build_dag(nodes, frame);
    let mut live: Vec<bool> =
        nodes.iter().enumerate().map(|(i, n)| observed_outside(i, n, frame, &dag)).collect();
    for i in (0..nodes.len()).rev() {
        if !live[i] {
            continue;
        }
        for e in dag.graph.edges_directed(NodeIndex::new(i), Direction::Incoming) {
            if e.weight().contains(Hazard::ReadAfterWrite) {
                live[dag.graph[e.source()]] = true;
            }
        }
    }
    let mut i = 0;
    nodes.retain(|_| {
        i += 1;
        live[i - 1]
    });
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::commands::{Rect, Slices};
    use crate::compile::compile;
    use crate::compile::testkit::*;
    use crate::plan::PlanNodeKind;
    use crate::resource::TextureState;

    /// Each plan node as the recorded node it comes from: `p2` a pass over segment 2, `u0` an
    /// upload, `r2` a readback, `c` transfer clears.
    fn sources(plan: &crate::plan::FramePlan) -> Vec<String> {
        plan.nodes
            .iter()
            .map(|n| match &n.kind {
                PlanNodeKind::Pass(p) => format!("p{}", p.segment),
                PlanNodeKind::Upload { node } => format!("u{node}"),
                PlanNodeKind::Readback { node } => format!("r{node}"),
                PlanNodeKind::Present { node } => format!("present{node}"),
                PlanNodeKind::ClearImages { .. } => "c".to_owned(),
                PlanNodeKind::GenerateMips { .. } => "mips".to_owned(),
                PlanNodeKind::BufferUpload { node, .. } => format!("bu{node}"),
                PlanNodeKind::BufferReadback { node } => format!("br{node}"),
            })
            .collect()
    }

    #[test]
    fn a_pass_overwritten_before_anything_reads_it_is_culled() {
        let (t, a, b) = (texture(4, 4, 1), target(4, 4, 0, DISCARD), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![
            bind(&a, vec![draw(&t)]),
            bind(&b, vec![draw(&t)]),
            bind(&a, vec![draw(&t)]),
            bind(&b, vec![draw(&a)]),
            unbind(),
        ]));
        // Segment 0 is cleared by segment 2's discarding bind before anything reads it; segment
        // 1 is overwritten by segment 3. The back buffer's bind clear stays (it survives).
        assert_eq!(sources(&plan), ["p2", "p3", "c"]);
    }

    #[test]
    fn a_pass_whose_only_reader_is_culled_is_culled_too() {
        let (t, a, b) = (texture(4, 4, 1), target(4, 4, 0, DISCARD), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![
            bind(&a, vec![draw(&t)]),
            bind(&b, vec![draw(&a)]),
            bind(&b, vec![draw(&t)]),
            bind(&a, vec![draw(&t)]),
            unbind(),
        ]));
        // Segment 1 reads segment 0, but segment 2 overwrites segment 1 unread: both go.
        assert_eq!(sources(&plan), ["p2", "p3", "c"]);
    }

    #[test]
    fn a_readback_keeps_what_it_reads_alive() {
        let (t, a) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![
            bind(&a, vec![draw(&t)]),
            unbind(),
            readback(&a, 0, 0),
            bind(&a, vec![draw(&t)]),
            unbind(),
        ]));
        assert_eq!(
            sources(&plan),
            ["p0", "r2", "p3", "c"],
            "the first unbind's clear is overwritten"
        );
    }

    #[test]
    fn a_partial_upload_keeps_the_pass_it_draws_over_alive() {
        let (t, a) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![
            bind(&a, vec![draw(&t)]),
            unbind(),
            upload_rect(&a, 0, 0, Rect::new(1, 1, 2, 2)),
            unbind(),
        ]));
        assert_eq!(sources(&plan), ["p0", "u2", "c"], "the upload keeps the pass's other texels");
        // A whole-level upload overwrites everything the pass drew.
        let plan =
            compile(frame(vec![bind(&a, vec![draw(&t)]), unbind(), upload(&a, 0, 0), unbind()]));
        assert_eq!(sources(&plan), ["u2", "c"]);
    }

    #[test]
    fn an_upload_overwritten_by_a_pass_before_any_use_is_culled() {
        let (t, a) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![
            upload(&t, 0, 0),
            upload(&a, 0, 0),
            bind(&a, vec![draw(&t)]),
            unbind(),
        ]));
        // The bind clears what the upload put in `a`; `t`'s upload is sampled.
        assert_eq!(sources(&plan), ["u0", "p2", "c"]);
    }

    #[test]
    fn depth_dropped_at_the_end_of_the_pass_keeps_nothing_alive() {
        let t = texture(4, 4, 1);
        let a = target_with_depth(4, 0, crate::format::DepthFormat::Depth24Stencil8, DISCARD);
        let plan =
            compile(frame(vec![bind(&a, vec![draw(&t)]), bind(&a, vec![draw(&t)]), unbind()]));
        // The depth of a DiscardContents target is dropped, its colour overwritten.
        assert_eq!(sources(&plan), ["p1", "c"]);
    }

    /// A pass that renders face 3 of a cube is the last write of that face, which survives the
    /// frame: it is kept.
    #[test]
    fn a_rendered_cube_face_is_observed_through_its_own_layer() {
        use crate::format::{DepthFormat, SurfaceFormat};
        let t = texture(4, 4, 1);
        let cube =
            render_target(8, 8, 1, 6, SurfaceFormat::Color, 0, DepthFormat::None, DISCARD, false);
        let plan = compile(frame(vec![bind_face(&cube, 3, vec![draw(&t)])]));
        assert_eq!(sources(&plan), ["p0"]);
    }

    /// A resolve is observed like a store: by the frame's end or by a live reader. One that only
    /// a culled pass samples, overwritten by a later resolve, is culled with its pass.
    #[test]
    fn a_resolve_read_only_by_a_culled_pass_is_culled() {
        let (t, ms, x) = (texture(4, 4, 1), target(4, 4, 4, DISCARD), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![
            bind(&ms, vec![draw(&t)]),
            bind(&x, vec![draw(&ms)]),
            bind(&ms, vec![draw(&t)]),
            bind(&x, vec![draw(&t)]),
            unbind(),
        ]));
        // Segment 0 resolves for segment 1, whose target segment 3 clears unread.
        assert_eq!(sources(&plan), ["p2", "p3", "c"]);
    }

    // Uploads: the common case is a texture created (and recorded as zero-filled) and then
    // given its pixels by a whole-level SetData in the same frame.

    fn uploads(plan: &crate::plan::FramePlan) -> Vec<usize> {
        plan.nodes
            .iter()
            .filter_map(|n| match n.kind {
                PlanNodeKind::Upload { node } => Some(node),
                _ => None,
            })
            .collect()
    }

    fn partial(texture: &Arc<TextureState>) -> Step {
        upload_rect(texture, 0, 0, Rect::new(0, 0, 1, 1))
    }

    #[test]
    fn an_upload_overwritten_before_any_use_is_dropped() {
        let t = texture(4, 4, 1);
        let plan = compile(frame(vec![upload(&t, 0, 0), upload(&t, 0, 0)]));
        assert_eq!(uploads(&plan), [1]);
    }

    #[test]
    fn an_upload_used_before_it_is_overwritten_stays() {
        let t = texture(4, 4, 1);
        let rt = target(4, 4, 0, DISCARD);
        let plan = compile(frame(vec![
            upload(&t, 0, 0),
            bind(&rt, vec![clear_color(RED), draw(&t)]),
            upload(&t, 0, 0),
            readback(&t, 0, 0),
        ]));
        assert_eq!(uploads(&plan), [0, 2]);
    }

    #[test]
    fn a_partial_upload_keeps_what_came_before_alive() {
        let t = texture(4, 4, 1);
        let plan = compile(frame(vec![upload(&t, 0, 0), partial(&t)]));
        assert_eq!(uploads(&plan), [0, 1]);
        // ...but a whole-level upload after both overwrites what they built.
        let plan = compile(frame(vec![upload(&t, 0, 0), partial(&t), upload(&t, 0, 0)]));
        assert_eq!(uploads(&plan), [2]);
    }

    /// A volume level is one subresource, written slice by slice: an upload of some slices
    /// keeps the others (a second slice written does not orphan the first); only a box over
    /// every slice of the level replaces what came before.
    #[test]
    fn an_upload_of_some_slices_of_a_volume_keeps_the_others() {
        let v = volume(4, 4, 2, 1);
        let centre = Rect::new(1, 1, 2, 2);
        let all = Rect::new(0, 0, 4, 4);
        let front = Slices { front: 0, back: 1 };
        let back = Slices { front: 1, back: 2 };
        let plan = compile(frame(vec![
            upload_box(&v, 0, all, Slices { front: 0, back: 2 }),
            upload_box(&v, 0, centre, front),
            upload_box(&v, 0, all, back),
        ]));
        assert_eq!(uploads(&plan), [0, 1, 2], "every slice written keeps the others");
        let plan = compile(frame(vec![
            upload_box(&v, 0, all, front),
            upload_box(&v, 0, all, back),
            upload_box(&v, 0, all, Slices { front: 0, back: 2 }),
        ]));
        assert_eq!(uploads(&plan), [2], "a box over every slice replaces the level");
    }

    #[test]
    fn uploads_of_other_levels_and_textures_are_independent() {
        let t = texture(4, 4, 3);
        let other = texture(4, 4, 1);
        let plan = compile(frame(vec![
            upload(&t, 0, 0),
            upload(&t, 1, 0),
            upload(&other, 0, 0),
            upload(&t, 0, 0),
        ]));
        assert_eq!(uploads(&plan), [1, 2, 3]);
    }
}
