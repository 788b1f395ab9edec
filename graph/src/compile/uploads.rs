//! Dead uploads: an upload that a later upload of the same subresource overwrites entirely,
//! with nothing else touching that texture in between, never needs to reach the GPU.
//!
//! In: the frame, and the plan nodes in recording order. Out: the same nodes without the dead
//! uploads. Decided here, conservatively: any other node that names the texture (a pass drawing
//! to it or sampling it, a readback, a present) keeps every upload before it alive; a partial
//! upload kills nothing, since it merges with what it does not cover, but a later whole upload
//! kills it along with what it merged with. The common case this removes is a texture
//! created (and recorded as zero-filled) and then given its pixels by a whole-level `SetData`
//! in the same frame.

use std::collections::HashMap;

use crate::commands::{FrameCommands, Node, PassOp, Rect};
use crate::plan::{PlanNode, PlanNodeKind};
use crate::resource::TextureId;

/// Drops uploads that a later whole-subresource upload makes unobservable.
pub(crate) fn drop_dead_uploads(frame: &FrameCommands, nodes: &mut Vec<PlanNode>) {
    if !frame.nodes.iter().any(|n| matches!(n, Node::Upload(_))) {
        return;
    }
    // Per texture: the uploads of each (level, layer) since the texture was last used otherwise.
    let mut pending: HashMap<TextureId, HashMap<(u32, u32), Vec<usize>>> = HashMap::new();
    let mut dead = vec![false; frame.nodes.len()];
    for (i, node) in frame.nodes.iter().enumerate() {
        match node {
            Node::Upload(u) => {
                let (w, h) = u.texture.desc().level_size(u.level);
                let whole = u.rect == Rect::new(0, 0, w as i32, h as i32);
                let earlier = pending
                    .entry(u.texture.id())
                    .or_default()
                    .entry((u.level, u.layer))
                    .or_default();
                if whole {
                    for &j in earlier.iter() {
                        dead[j] = true;
                    }
                    earlier.clear();
                }
                // A partial upload merges with what it does not cover, so it kills nothing;
                // a later whole-subresource upload still kills it and everything before it.
                earlier.push(i);
            }
            Node::Pass(segment) => {
                for c in &segment.colors {
                    pending.remove(&c.target.id());
                }
                for op in &segment.ops {
                    if let PassOp::Draw(d) = op {
                        pending.remove(&d.texture.id());
                    }
                }
            }
            Node::Readback(r) => {
                pending.remove(&r.texture.id());
            }
            Node::Present(t) => {
                pending.remove(&t.id());
            }
        }
    }
    nodes.retain(|n| !matches!(n.kind, PlanNodeKind::Upload { node } if dead[node]));
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::testkit::*;
    use crate::commands::Rect;
    use crate::compile::compile;
    use crate::plan::PlanNodeKind;
    use crate::resource::TextureState;

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
