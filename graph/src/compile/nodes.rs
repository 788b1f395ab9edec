//! Stage 1, segments → nodes: every recorded [`Node`] becomes one plan node, in recording order.
//!
//! In: the frame's nodes. Out: plan node candidates — each pass segment becomes a
//! [`crate::plan::PlannedPass`] naming its attachments (the `Samples` image of a multisampled target, else
//! its `Color` image, plus the primary target's depth/stencil when it has one) with every op
//! still listed and placeholder load/store ops that the next stages decide; uploads, readbacks
//! and presents keep their index. Recording order is execution order: an upload recorded after
//! a draw runs after it, so the draw never sees its data.
//!
//! The same module derives the dependency DAG of a finished plan ([`dependency_graph`]): an
//! edge for each read-after-write, write-after-read and write-after-write hazard per
//! subresource (texture, image, mip level, array layer). The plan's order is one topological
//! order of that DAG; the DAG is what the DOT output draws.

use std::collections::HashMap;

use petgraph::graph::{DiGraph, NodeIndex};

use super::access::for_each_use;
use crate::commands::{ColorBinding, FrameCommands, Node};
use crate::plan::{FramePlan, Image, LoadOp, PlanNode, PlanNodeKind, PlannedAttachment, StoreOp};
use crate::resource::TextureId;

/// The attachment image a colour binding renders into.
pub(crate) fn color_image(binding: &ColorBinding) -> Image {
    if binding.target.desc().sample_count() > 1 {
        Image::Samples
    } else {
        Image::Color
    }
}

/// One plan node per recorded node, in recording order, with load/store ops still undecided.
pub(crate) fn recorded_nodes(frame: &FrameCommands) -> Vec<PlanNode> {
    let undecided = |binding: &ColorBinding, image: Image, layer: u32| PlannedAttachment {
        texture: binding.target.clone(),
        image,
        layer,
        load: LoadOp::DontCare,
        store: StoreOp::Store,
        resolve: false,
    };
    let mut nodes = Vec::with_capacity(frame.nodes.len() + frame.nodes.len() / 4);
    for (i, node) in frame.nodes.iter().enumerate() {
        let kind = match node {
            Node::Pass(segment) => {
                let colors =
                    segment.colors.iter().map(|c| undecided(c, color_image(c), c.layer)).collect();
                let depth = segment
                    .colors
                    .first()
                    .filter(|c| c.target.desc().depth_format().has_depth())
                    .map(|c| undecided(c, Image::DepthStencil, 0));
                let ops = (0..segment.ops.len()).collect();
                PlanNodeKind::Pass(crate::plan::PlannedPass { segment: i, colors, depth, ops })
            }
            Node::Upload(_) => PlanNodeKind::Upload { node: i },
            Node::Readback(_) => PlanNodeKind::Readback { node: i },
            Node::Present(_) => PlanNodeKind::Present { node: i },
        };
        nodes.push(PlanNode { barriers: Vec::new(), kind });
    }
    nodes
}

/// Why one plan node must run after another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Hazard {
    ReadAfterWrite,
    WriteAfterRead,
    WriteAfterWrite,
}

impl Hazard {
    pub fn abbreviation(self) -> &'static str {
        match self {
            Hazard::ReadAfterWrite => "RAW",
            Hazard::WriteAfterRead => "WAR",
            Hazard::WriteAfterWrite => "WAW",
        }
    }
}

#[derive(Default)]
struct History {
    last_writer: Option<NodeIndex>,
    readers: Vec<NodeIndex>,
}

/// The dependency DAG of a plan: node weights are indices into `plan.nodes`, edges point from
/// the earlier node to the one that depends on it.
pub fn dependency_graph(plan: &FramePlan) -> DiGraph<usize, Hazard> {
    let mut graph = DiGraph::with_capacity(plan.nodes.len(), plan.nodes.len() * 2);
    let mut history: HashMap<(TextureId, Image, u32, u32), History> = HashMap::new();
    let link = |g: &mut DiGraph<usize, Hazard>, from: NodeIndex, to: NodeIndex, h: Hazard| {
        if from != to && g.find_edge(from, to).is_none() {
            g.add_edge(from, to, h);
        }
    };
    for (i, node) in plan.nodes.iter().enumerate() {
        let me = graph.add_node(i);
        for_each_use(&node.kind, &plan.frame, |u| {
            for layer in u.layers.clone() {
                for level in u.levels.clone() {
                    let key = (u.texture.id(), u.image, level, layer);
                    let h = history.entry(key).or_default();
                    if u.reads() {
                        if let Some(w) = h.last_writer {
                            link(&mut graph, w, me, Hazard::ReadAfterWrite);
                        }
                        if h.readers.last() != Some(&me) {
                            h.readers.push(me);
                        }
                    }
                    if u.writes() {
                        for &r in &h.readers {
                            link(&mut graph, r, me, Hazard::WriteAfterRead);
                        }
                        if let Some(w) = h.last_writer {
                            link(&mut graph, w, me, Hazard::WriteAfterWrite);
                        }
                        h.last_writer = Some(me);
                        h.readers.clear();
                    }
                }
            }
        });
    }
    graph
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;
    use crate::compile::testkit::*;

    fn edges(plan: &FramePlan) -> Vec<(usize, usize, Hazard)> {
        let g = dependency_graph(plan);
        let mut e: Vec<_> = g
            .edge_indices()
            .filter_map(|e| {
                let (a, b) = g.edge_endpoints(e)?;
                Some((g[a], g[b], g[e]))
            })
            .collect();
        e.sort();
        e
    }

    #[test]
    fn recording_order_is_execution_order() {
        let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
        let f = frame(vec![upload(&t, 0, 0), bind(&rt, vec![draw(&t)]), readback(&rt, 0, 0)]);
        let plan = compile(f);
        assert_eq!(kinds(&plan), ["upload", "pass", "readback"]);
        assert!(matches!(plan.nodes[0].kind, PlanNodeKind::Upload { node: 0 }));
        assert!(matches!(plan.nodes[2].kind, PlanNodeKind::Readback { node: 2 }));
    }

    #[test]
    fn set_data_after_draw_is_ordered_after_it() {
        let (t, a, b) = (texture(4, 4, 1), target(4, 4, 0, DISCARD), target(4, 4, 0, DISCARD));
        let f = frame(vec![
            upload(&t, 0, 0),
            bind(&a, vec![clear_color(BLACK), draw(&t)]),
            upload(&t, 0, 0),
            bind(&b, vec![clear_color(BLACK), draw(&t)]),
        ]);
        let plan = compile(f);
        assert_eq!(kinds(&plan), ["upload", "pass", "upload", "pass"]);
        let e = edges(&plan);
        assert!(e.contains(&(0, 1, Hazard::ReadAfterWrite)), "{e:?}");
        assert!(
            e.contains(&(1, 2, Hazard::WriteAfterRead)),
            "the second upload waits for the draw"
        );
        assert!(e.contains(&(2, 3, Hazard::ReadAfterWrite)), "{e:?}");
        assert!(!e.iter().any(|&(from, to, _)| from == 2 && to == 1));
    }

    #[test]
    fn independent_passes_have_no_edge() {
        let (t, a, b) = (texture(4, 4, 1), target(4, 4, 0, DISCARD), target(4, 4, 0, DISCARD));
        let f = frame(vec![
            bind(&a, vec![clear_color(BLACK), draw(&t)]),
            bind(&b, vec![clear_color(BLACK), draw(&t)]),
        ]);
        assert!(edges(&compile(f)).is_empty());
    }

    #[test]
    fn rebinding_a_loaded_target_is_a_write_after_write_and_read_after_write() {
        let (t, a) = (texture(4, 4, 1), target(4, 4, 0, PRESERVE));
        let f = frame(vec![
            bind(&a, vec![clear_color(RED), draw(&t)]),
            readback(&t, 0, 0),
            bind(&a, vec![draw(&t)]),
        ]);
        let e = edges(&compile(f));
        assert!(e.contains(&(0, 2, Hazard::ReadAfterWrite)), "{e:?}");
    }
}
