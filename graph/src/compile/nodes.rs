//! Stage 1, segments → nodes: every recorded [`Node`] becomes one plan node, in recording order.
//!
//! In: the frame's nodes. Out: plan node candidates — each pass segment becomes a
//! [`PlannedPass`](crate::plan::PlannedPass) naming its attachments (the `Samples` image of a
//! multisampled target, else its `Color` image, plus the primary target's depth/stencil when it has
//! one) with every op still listed and placeholder load/store ops that the next stages decide;
//! uploads, readbacks and presents keep their index. Recording order is execution order: an upload
//! recorded after a draw runs after it, so the draw never sees its data.
//!
//! The same module derives the dependency DAG of a plan ([`dependency_graph`]): one edge per
//! ordered pair of nodes that hazard on some subresource (texture, image, mip level, array
//! layer), weighted with the set of [`Hazards`] between them — read-after-write,
//! write-after-read, write-after-write — so a pair that hazards in several ways shows each. The
//! plan's order is one topological order of that DAG.

use petgraph::graph::{DiGraph, NodeIndex};

use super::access::{for_each_use, op_writes};
use super::track::IdMap;
use crate::commands::{ColorBinding, FrameCommands, Node};
use crate::plan::{
    FramePlan, Image, LoadOp, PlanNode, PlanNodeKind, PlannedAttachment, PlannedOp, StoreOp,
};
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
                let n = segment.colors.len();
                let ops = (segment.ops.iter().enumerate())
                    .map(|(index, op)| PlannedOp::alone(index, op, op_writes(op, n)))
                    .collect();
                PlanNodeKind::Pass(crate::plan::PlannedPass { segment: i, colors, depth, ops })
            }
            Node::Upload(_) => PlanNodeKind::Upload { node: i },
            Node::Readback(_) => PlanNodeKind::Readback { node: i },
            Node::Present(_) => PlanNodeKind::Present { node: i },
            // Whether the write renames the buffer is decided with its barriers.
            Node::BufferUpload(_) => PlanNodeKind::BufferUpload { node: i, rename: false },
            Node::BufferReadback(_) => PlanNodeKind::BufferReadback { node: i },
        };
        nodes.push(PlanNode { buffer_barriers: Vec::new(), barriers: Vec::new(), kind });
    }
    nodes
}

/// Why one plan node must run after another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Hazard {
    /// The later node reads what the earlier one wrote.
    ReadAfterWrite,
    /// The later node overwrites what the earlier one reads.
    WriteAfterRead,
    /// Both write; the later write must land last.
    WriteAfterWrite,
}

impl Hazard {
    /// The short name the DOT output labels an edge with (`RAW`, `WAR`, `WAW`).
    pub fn abbreviation(self) -> &'static str {
        match self {
            Hazard::ReadAfterWrite => "RAW",
            Hazard::WriteAfterRead => "WAR",
            Hazard::WriteAfterWrite => "WAW",
        }
    }
}

/// A set of [`Hazard`]s: the weight of one edge of the dependency DAG.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hazards(u8);

impl Hazards {
    const ALL: [Hazard; 3] =
        [Hazard::ReadAfterWrite, Hazard::WriteAfterRead, Hazard::WriteAfterWrite];

    fn bit(h: Hazard) -> u8 {
        1 << h as u8
    }

    /// The set of one hazard.
    pub fn of(h: Hazard) -> Self {
        Hazards(Self::bit(h))
    }

    /// Adds `h` to the set.
    pub fn insert(&mut self, h: Hazard) {
        self.0 |= Self::bit(h);
    }

    /// Whether `h` is in the set.
    pub fn contains(self, h: Hazard) -> bool {
        self.0 & Self::bit(h) != 0
    }

    /// The hazards in the set, read-after-write first.
    pub fn iter(self) -> impl Iterator<Item = Hazard> {
        Self::ALL.into_iter().filter(move |&h| self.contains(h))
    }

    /// The abbreviations joined by `+`, e.g. `RAW+WAW`.
    pub fn label(self) -> String {
        self.iter().map(Hazard::abbreviation).collect::<Vec<_>>().join("+")
    }
}

/// What happened to one subresource so far: its last writer, and the readers since (a list
/// threaded through one shared vector, so that no subresource allocates one of its own).
#[derive(Clone, Copy, Default)]
struct History {
    last_writer: Option<NodeIndex>,
    readers: Option<u32>,
}

/// One subresource: texture, image, mip level, array layer.
pub(crate) type Subresource = (TextureId, Image, u32, u32);

/// The dependency DAG of a list of plan nodes, with what it leaves at the end of the frame.
pub(crate) struct Dag {
    /// Node weights are indices into the list; graph node `i` is list node `i`.
    pub graph: DiGraph<usize, Hazards>,
    history: IdMap<Subresource, History>,
}

impl Dag {
    /// The node that last wrote `key` in the list, if any did.
    pub fn last_writer(&self, key: &Subresource) -> Option<usize> {
        let w = self.history.get(key)?.last_writer?;
        Some(self.graph[w])
    }
}

/// The dependency DAG of a plan: node weights are indices into `plan.nodes`, edges point from
/// the earlier node to the one that depends on it, weighted with every hazard between the two.
pub fn dependency_graph(plan: &FramePlan) -> DiGraph<usize, Hazards> {
    build_dag(&plan.nodes, &plan.frame).graph
}

/// The DAG of `nodes` (in execution order) over `frame`. A use that reads a subresource — a
/// write that keeps part of what was there counts, see [`super::access`] — depends on its last
/// writer (RAW); a write depends on the reads since the last write (WAR) and on that write
/// (WAW).
pub(crate) fn build_dag(nodes: &[PlanNode], frame: &FrameCommands) -> Dag {
    let mut graph = DiGraph::with_capacity(nodes.len(), nodes.len() * 2);
    let mut history: IdMap<Subresource, History> = IdMap::default();
    history.reserve(nodes.len() * 2);
    // Reader lists: (reader, the next older reader of the same subresource).
    let mut readers: Vec<(NodeIndex, Option<u32>)> = Vec::with_capacity(nodes.len() * 4);
    let link = |g: &mut DiGraph<usize, Hazards>, from: NodeIndex, to: NodeIndex, h: Hazard| {
        if from == to {
            return;
        }
        match g.find_edge(from, to) {
            Some(e) => g[e].insert(h),
            None => {
                g.add_edge(from, to, Hazards::of(h));
            }
        }
    };
    for (i, node) in nodes.iter().enumerate() {
        let me = graph.add_node(i);
        for_each_use(&node.kind, frame, |u| {
            for layer in u.layers.clone() {
                for level in u.levels.clone() {
                    let key = (u.texture.id(), u.image, level, layer);
                    let h = history.entry(key).or_default();
                    if u.reads() {
                        if let Some(w) = h.last_writer {
                            link(&mut graph, w, me, Hazard::ReadAfterWrite);
                        }
                        if h.readers.map(|r| readers[r as usize].0) != Some(me) {
                            readers.push((me, h.readers));
                            h.readers = Some(readers.len() as u32 - 1);
                        }
                    }
                    if u.writes() {
                        let mut next = h.readers.take();
                        while let Some(r) = next {
                            let (reader, older) = readers[r as usize];
                            link(&mut graph, reader, me, Hazard::WriteAfterRead);
                            next = older;
                        }
                        if let Some(w) = h.last_writer {
                            link(&mut graph, w, me, Hazard::WriteAfterWrite);
                        }
                        h.last_writer = Some(me);
                    }
                }
            }
        });
    }
    Dag { graph, history }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::Rect;
    use crate::compile::compile;
    use crate::compile::testkit::*;

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
        let plan = compile(f);
        let e = edges(&plan);
        let between: Vec<_> = e.iter().filter(|(a, b, _)| (*a, *b) == (0, 2)).collect();
        assert_eq!(
            between,
            [&(0, 2, Hazard::ReadAfterWrite), &(0, 2, Hazard::WriteAfterWrite)],
            "the LOAD reads what pass 0 wrote, and the pass writes over it"
        );
        let dot = crate::compile::to_dot(&plan);
        assert!(dot.contains("n0 -> n2 [label=\"RAW+WAW\"]"), "{dot}");
    }

    #[test]
    fn a_partial_upload_depends_on_the_texels_it_keeps() {
        let t = texture(4, 4, 1);
        let f = frame(vec![upload(&t, 0, 0), upload_rect(&t, 0, 0, Rect::new(1, 1, 2, 2))]);
        let expected = [(0, 1, Hazard::ReadAfterWrite), (0, 1, Hazard::WriteAfterWrite)];
        assert_eq!(edges(&compile(f)), expected);
    }

    #[test]
    fn a_clear_after_a_write_is_a_write_after_write_only() {
        let (t, a, b) = (texture(4, 4, 1), target(4, 4, 0, DISCARD), target(4, 4, 0, DISCARD));
        // `b` keeps the first pass observed; the second pass clears `a` without reading it.
        let f =
            frame(vec![bind_many(&[&a, &b], vec![draw(&t)]), bind(&a, vec![draw(&t)]), unbind()]);
        let e = edges(&compile(f));
        assert!(e.contains(&(0, 1, Hazard::WriteAfterWrite)), "{e:?}");
        assert!(!e.contains(&(0, 1, Hazard::ReadAfterWrite)), "{e:?}");
    }

    /// A sample count of one is single-sampled (as XNA's `MultiSampleCount` 1): the pass renders
    /// into the colour image, which the tracker knows.
    #[test]
    fn a_sample_count_of_one_renders_into_the_colour_image() {
        let (t, rt) = (texture(4, 4, 1), target(4, 4, 1, DISCARD));
        let plan = compile(frame(vec![bind(&rt, vec![draw(&t)])]));
        let a = &pass(&plan, 0).colors[0];
        assert_eq!((a.image, a.resolve), (Image::Color, false));
        let into = (rt.id().0, Image::Color, 0..1, 0..1);
        let rows = barriers(&plan, 0);
        assert!(rows.iter().any(|r| (r.0, r.1, r.2.clone(), r.3.clone()) == into), "{rows:?}");
    }

    #[test]
    fn hazard_sets_list_each_kind_once_in_order() {
        let mut h = Hazards::of(Hazard::WriteAfterWrite);
        h.insert(Hazard::ReadAfterWrite);
        h.insert(Hazard::WriteAfterWrite);
        assert_eq!(h.iter().collect::<Vec<_>>(), [Hazard::ReadAfterWrite, Hazard::WriteAfterWrite]);
        assert!(!h.contains(Hazard::WriteAfterRead));
        assert_eq!(h.label(), "RAW+WAW");
    }
}
