//! Stage 9, output: the plan as text and as Graphviz DOT.
//!
//! In: a finished [`FramePlan`]. Out: text meant to be diffed between compiler versions or
//! frames. Textures are named `t0`, `t1`, … in order of first appearance in the plan (not by
//! process-wide id), so the same frame prints the same way in every run. The text has a cost
//! line, one legend line per texture, then per node one line (ending in its
//! quoted [`FramePlan::node_label`]), its barriers, for a pass one line
//! per attachment with its load, store and resolve, and for transfer clears one line per
//! cleared subresource with its value. The DOT graph has one box per node and
//! one edge per dependent pair, labelled with its hazards, of [`super::nodes::dependency_graph`].

use std::collections::HashMap;
use std::fmt::{self, Display, Formatter, Write};
use std::sync::Arc;

use super::nodes::dependency_graph;
use crate::commands::Node;
use crate::plan::*;
use crate::present::PresentMode;
use crate::resource::{TextureId, TextureState};

/// Frame-local names of the plan's textures, in order of first appearance.
struct Names {
    index: HashMap<TextureId, usize>,
    order: Vec<Arc<TextureState>>,
}

impl Names {
    fn of(plan: &FramePlan) -> Names {
        let order = plan.textures();
        let index = order.iter().enumerate().map(|(i, t)| (t.id(), i)).collect();
        Names { index, order }
    }

    fn name(&self, t: &TextureState) -> String {
        self.index.get(&t.id()).map_or_else(|| "t?".to_owned(), |i| format!("t{i}"))
    }
}

fn image_name(image: Image) -> &'static str {
    match image {
        Image::Color => "color",
        Image::Samples => "samples",
        Image::DepthStencil => "depth",
    }
}

/// A pass's op indices; with several attachments, each op's write masks too (`2 (f 0)`: op 2
/// writes every channel of the first attachment and none of the second).
struct Ops<'a>(&'a PlannedPass);

impl Display for Ops<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let attachments = self.0.colors.len();
        for (i, op) in self.0.ops.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", op.index)?;
            if op.instances > 1 {
                // A merged run: draws index..=last as one instanced draw.
                write!(f, "-{}", op.index + op.instances as usize - 1)?;
            }
            if op.draws() > 1 {
                write!(f, " as {} instances", op.draws())?;
            }
            if attachments > 1 {
                let masks: Vec<_> =
                    (0..attachments).map(|s| format!("{:x}", op.writes.get(s))).collect();
                write!(f, " ({})", masks.join(" "))?;
            }
        }
        Ok(())
    }
}

struct Value<'a>(&'a ClearValue);

impl Display for Value<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            ClearValue::Color([r, g, b, a]) => write!(f, "({r} {g} {b} {a})"),
            ClearValue::DepthStencil { depth, stencil } => {
                write!(f, "(depth {depth} stencil {stencil})")
            }
        }
    }
}

struct Load<'a>(&'a LoadOp);

impl Display for Load<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            LoadOp::Clear(value) => write!(f, "clear{}", Value(value)),
            LoadOp::Load => f.write_str("load"),
            LoadOp::DontCare => f.write_str("dont-care"),
        }
    }
}

fn store_name(store: StoreOp) -> &'static str {
    match store {
        StoreOp::Store => "store",
        StoreOp::DontCare => "dont-care",
    }
}

/// A one-line summary of a node, for the text and the DOT labels.
fn node_line(plan: &FramePlan, names: &Names, kind: &PlanNodeKind) -> String {
    match kind {
        PlanNodeKind::Pass(pass) => {
            let targets: Vec<_> = pass.colors.iter().map(|a| names.name(&a.texture)).collect();
            format!("pass segment {} -> {} ops [{}]", pass.segment, targets.join(","), Ops(pass))
        }
        PlanNodeKind::ClearImages { .. } => "clear images".to_owned(),
        PlanNodeKind::Upload { node } => match plan.frame.nodes.get(*node) {
            Some(Node::Upload(u)) => format!(
                "upload node {node} -> {} level {} layer {}",
                names.name(&u.texture),
                u.level,
                u.layer
            ),
            _ => format!("upload node {node}"),
        },
        PlanNodeKind::Readback { node } => match plan.frame.nodes.get(*node) {
            Some(Node::Readback(r)) => format!(
                "readback node {node} <- {} level {} layer {}",
                names.name(&r.texture),
                r.level,
                r.layer
            ),
            _ => format!("readback node {node}"),
        },
        PlanNodeKind::GenerateMips { texture, layer } => {
            format!("mips {} layer {layer}", names.name(texture))
        }
        PlanNodeKind::BufferUpload { node, rename } => match plan.frame.nodes.get(*node) {
            Some(Node::BufferUpload(u)) => format!(
                "buffer upload node {node} -> {} bytes {:?} {:?}{}",
                u.buffer.name(),
                u.range(),
                u.options,
                if *rename { " rename" } else { "" }
            ),
            _ => format!("buffer upload node {node}"),
        },
        PlanNodeKind::BufferReadback { node } => match plan.frame.nodes.get(*node) {
            Some(Node::BufferReadback(r)) => {
                format!("buffer readback node {node} <- {} bytes {:?}", r.buffer.name(), r.range())
            }
            _ => format!("buffer readback node {node}"),
        },
        PlanNodeKind::Present { node } => match plan.frame.nodes.get(*node) {
            Some(Node::Present(t)) => match plan.frame.presentation {
                PresentMode::Offscreen => format!("present node {node} {}", names.name(t)),
                mode => format!("present node {node} {} {}", names.name(t), mode.describe()),
            },
            _ => format!("present node {node}"),
        },
    }
}

fn attachment_line(names: &Names, slot: &str, a: &PlannedAttachment) -> String {
    let resolve = if a.resolve { " resolve" } else { "" };
    let (name, image) = (names.name(&a.texture), image_name(a.image));
    let (load, store) = (Load(&a.load), store_name(a.store));
    format!("{slot} {name}.{image} layer {} load {load} store {store}{resolve}", a.layer)
}

fn clear_line(names: &Names, c: &ImageClear) -> String {
    format!(
        "clear {}.{} level {} layer {} to {}",
        names.name(&c.texture),
        image_name(c.image),
        c.level,
        c.layer,
        Value(&c.value)
    )
}

/// One buffer barrier: the buffer (by name), the bytes, the earlier and the node's access.
fn buffer_barrier_line(b: &BufferBarrier) -> String {
    format!("buffer barrier {} bytes {:?} {:?} -> {:?}", b.buffer.name(), b.range, b.src, b.dst)
}

/// The lines under a node's summary that say what it does: attachments or clears.
fn detail_lines(names: &Names, kind: &PlanNodeKind) -> Vec<String> {
    match kind {
        PlanNodeKind::Pass(pass) => {
            let colors = pass.colors.iter().map(|a| attachment_line(names, "color", a));
            let depth = pass.depth.iter().map(|a| attachment_line(names, "depth", a));
            colors.chain(depth).collect()
        }
        PlanNodeKind::ClearImages { clears } => {
            clears.iter().map(|c| clear_line(names, c)).collect()
        }
        _ => Vec::new(),
    }
}

impl Display for FramePlan {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let c = &self.cost;
        writeln!(
            f,
            "plan: {} nodes, {} barriers, {} bytes loaded, {} bytes stored",
            c.nodes, c.barriers, c.bytes_loaded, c.bytes_stored
        )?;
        if self.frame.presentation != PresentMode::Offscreen {
            writeln!(f, "presentation: {}", self.frame.presentation.describe())?;
        }
        let names = Names::of(self);
        for (i, t) in names.order.iter().enumerate() {
            let d = t.desc();
            write!(
                f,
                "t{i}: {}x{} {:?} levels {} layers {}",
                d.width, d.height, d.format, d.mip_levels, d.layers
            )?;
            if let Some(rt) = d.render_target {
                let kind = if rt.back_buffer { "back buffer" } else { "target" };
                write!(
                    f,
                    ", {kind} {:?} samples {} depth {:?}",
                    rt.usage, rt.sample_count, rt.depth
                )?;
            }
            writeln!(f)?;
        }
        for (i, node) in self.nodes.iter().enumerate() {
            let label = self.node_label(&node.kind);
            writeln!(f, "{i}: {} \"{label}\"", node_line(self, &names, &node.kind))?;
            for b in &node.barriers {
                let discard = if b.discard { " discard" } else { "" };
                writeln!(
                    f,
                    "  barrier {}.{} levels {:?} layers {:?} {:?} -> {:?}{discard}",
                    names.name(&b.texture),
                    image_name(b.image),
                    b.levels,
                    b.layers,
                    b.src,
                    b.dst
                )?;
            }
            for b in &node.buffer_barriers {
                writeln!(f, "  {}", buffer_barrier_line(b))?;
            }
            for line in detail_lines(&names, &node.kind) {
                writeln!(f, "  {line}")?;
            }
        }
        if self.transients.aliased {
            for t in &self.transients.images {
                writeln!(
                    f,
                    "transient {}.{} layer {} nodes {}-{}",
                    names.name(&t.texture),
                    image_name(t.image),
                    t.layer,
                    t.nodes.start,
                    t.nodes.end - 1
                )?;
            }
        }
        Ok(())
    }
}

/// The plan's dependency DAG in Graphviz DOT: one box per node (its line, attachments and
/// barrier count), one edge per dependent pair labelled with its hazards (RAW, WAR, WAW, joined
/// by `+`).
pub fn to_dot(plan: &FramePlan) -> String {
    let names = Names::of(plan);
    let mut out = String::from(
        "digraph frame {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n",
    );
    if plan.frame.presentation != PresentMode::Offscreen {
        let _ = writeln!(out, "  label=\"presentation: {}\";", plan.frame.presentation.describe());
    }
    for (i, node) in plan.nodes.iter().enumerate() {
        let mut label = format!("{i}: {}", node_line(plan, &names, &node.kind));
        for line in detail_lines(&names, &node.kind) {
            label.push('\n');
            label.push_str(&line);
        }
        if !node.barriers.is_empty() {
            let _ = write!(label, "\n{} barriers", node.barriers.len());
        }
        for b in &node.buffer_barriers {
            label.push('\n');
            label.push_str(&buffer_barrier_line(b));
        }
        let label = label.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\l");
        let _ = writeln!(out, "  n{i} [label=\"{label}\\l\"];");
    }
    let graph = dependency_graph(plan);
    let mut edges: Vec<_> = graph
        .edge_indices()
        .filter_map(|e| graph.edge_endpoints(e).map(|(a, b)| (graph[a], graph[b], graph[e])))
        .collect();
    edges.sort_unstable();
    for (from, to, hazards) in edges {
        let _ = writeln!(out, "  n{from} -> n{to} [label=\"{}\"];", hazards.label());
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;
    use crate::compile::testkit::*;

    fn small_frame() -> FramePlan {
        let (t, rt) = (texture(4, 4, 1), target(8, 8, 0, DISCARD));
        t.set_name("sprites");
        rt.set_name("hud");
        compile(frame(vec![
            upload(&t, 0, 0),
            bind(&rt, vec![clear_color(RED), draw(&t)]),
            readback(&rt, 0, 0),
        ]))
    }

    #[test]
    /// Also: each node line ends in its label, named after the textures' names.
    fn text_names_textures_by_first_appearance() {
        let text = small_frame().to_string();
        let expected = "\
plan: 3 nodes, 4 barriers, 0 bytes loaded, 256 bytes stored
t0: 4x4 Color levels 1 layers 1
t1: 8x8 Color levels 1 layers 1, target DiscardContents samples 0 depth None
0: upload node 0 -> t0 level 0 layer 0 \"upload sprites\"
  barrier t0.color levels 0..1 layers 0..1 Nothing -> TransferWrite discard
1: pass segment 1 -> t1 ops [1] \"pass hud\"
  barrier t0.color levels 0..1 layers 0..1 TransferWrite -> FragmentSampled
  barrier t1.color levels 0..1 layers 0..1 Nothing -> ColorAttachmentWrite discard
  color t1.color layer 0 load clear(1 0 0 1) store store
2: readback node 2 <- t1 level 0 layer 0 \"readback hud\"
  barrier t1.color levels 0..1 layers 0..1 ColorAttachmentWrite -> TransferRead
";
        assert_eq!(text, expected);
    }

    #[test]
    fn dot_has_a_box_per_node_and_an_edge_per_hazard() {
        let dot = to_dot(&small_frame());
        assert!(dot.starts_with("digraph frame {"));
        assert_eq!(dot.matches(" [label=").count(), 3 + 2, "{dot}");
        assert!(dot.contains("n0 -> n1 [label=\"RAW\"]"), "{dot}");
        assert!(dot.contains("n1 -> n2 [label=\"RAW\"]"), "{dot}");
        let upload = "  n0 [label=\"0: upload node 0 -> t0 level 0 layer 0\\l1 barriers\\l\"];\n";
        assert!(dot.contains(upload), "a node's box counts its barriers: {dot}");
    }

    /// Every node line names its texture, also where no barrier named it first: a readback and a
    /// present of images already in their layouts, an upload of a level the texture lacks.
    #[test]
    fn a_node_without_barriers_still_names_its_texture() {
        let (t, bb, u) = (texture(4, 4, 1), back_buffer(4, 4, DISCARD), texture(2, 2, 1));
        let _ = compile(frame(vec![
            upload(&t, 0, 0),
            bind(&bb, vec![draw(&t)]),
            readback(&t, 0, 0),
            present(&bb),
        ]));
        let plan = compile(frame(vec![
            readback(&t, 0, 0),
            upload_rect(&u, 3, 0, crate::commands::Rect::new(0, 0, 1, 1)),
            present(&bb),
        ]));
        let expected = "\
plan: 3 nodes, 0 barriers, 0 bytes loaded, 0 bytes stored
t0: 4x4 Color levels 1 layers 1
t1: 2x2 Color levels 1 layers 1
t2: 4x4 Color levels 1 layers 1, back buffer DiscardContents samples 0 depth None
0: readback node 0 <- t0 level 0 layer 0 \"readback unnamed\"
1: upload node 1 -> t1 level 3 layer 0 \"upload unnamed\"
2: present node 2 t2 \"present back buffer\"
";
        assert_eq!(plan.to_string(), expected);
        let dot = to_dot(&plan);
        let readback = "  n0 [label=\"0: readback node 0 <- t0 level 0 layer 0\\l\"];\n";
        assert!(dot.contains(readback), "no barrier count without barriers: {dot}");
    }
}
