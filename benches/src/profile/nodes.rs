//! What each node of a compiled plan does, kept after the plan is dropped: the profile's
//! table columns (name, kind, attachments, load/store ops, draws) and the node's attachment
//! traffic.

use xnagraph_graph::compile::node_cost;
use xnagraph_graph::{FramePlan, Image, LoadOp, Node, PassOp, PlanNodeKind, StoreOp};

/// One plan node, described.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NodeInfo {
    /// The node's label (`pass scene + depth`, `upload sprites`, …), as in command-buffer
    /// labels and the plan text.
    pub name: String,
    /// `pass`, `clear`, `upload`, `readback`, `mips`, `present`, `buffer-upload` or
    /// `buffer-readback`.
    pub kind: &'static str,
    /// A pass's attachments, `name:image` each (`scene:samples`, `scene:depth`); the texture
    /// of other nodes.
    pub attachments: String,
    /// A pass's load and store op per attachment (`clear/store+resolve, load/dont-care`).
    pub ops: String,
    /// Draws executed in the pass.
    pub draws: u32,
    /// Attachment bytes the node loads (LOAD ops).
    pub bytes_loaded: u64,
    /// Attachment bytes the node stores (STORE ops, resolves, transfer clears).
    pub bytes_stored: u64,
}

fn image_name(image: Image) -> &'static str {
    match image {
        Image::Color => "color",
        Image::Samples => "samples",
        Image::DepthStencil => "depth",
    }
}

fn load_name(load: LoadOp) -> &'static str {
    match load {
        LoadOp::Clear(_) => "clear",
        LoadOp::Load => "load",
        LoadOp::DontCare => "dont-care",
    }
}

/// Every node of `plan`, in plan order.
pub fn describe(plan: &FramePlan) -> Vec<NodeInfo> {
    plan.nodes
        .iter()
        .map(|node| {
            let cost = node_cost(&plan.frame, node);
            let mut info = NodeInfo {
                name: plan.node_label(&node.kind),
                kind: "",
                attachments: String::new(),
                ops: String::new(),
                draws: 0,
                bytes_loaded: cost.bytes_loaded,
                bytes_stored: cost.bytes_stored,
            };
            match &node.kind {
                PlanNodeKind::Pass(pass) => {
                    info.kind = "pass";
                    let attachments: Vec<_> = pass.colors.iter().chain(pass.depth.iter()).collect();
                    info.attachments = attachments
                        .iter()
                        .map(|a| format!("{}:{}", a.texture.name(), image_name(a.image)))
                        .collect::<Vec<_>>()
                        .join(", ");
                    info.ops = attachments
                        .iter()
                        .map(|a| {
                            let store =
                                if a.store == StoreOp::Store { "store" } else { "dont-care" };
                            let resolve = if a.resolve { "+resolve" } else { "" };
                            format!("{}/{store}{resolve}", load_name(a.load))
                        })
                        .collect::<Vec<_>>()
                        .join(", ");
                    if let Some(Node::Pass(segment)) = plan.frame.nodes.get(pass.segment) {
                        info.draws = pass
                            .ops
                            .iter()
                            .filter(|op| matches!(segment.ops.get(op.index), Some(PassOp::Draw(_))))
                            .count() as u32;
                    }
                }
                PlanNodeKind::ClearImages { clears } => {
                    info.kind = "clear";
                    info.attachments = clears
                        .iter()
                        .map(|c| format!("{}:{}", c.texture.name(), image_name(c.image)))
                        .collect::<Vec<_>>()
                        .join(", ");
                }
                PlanNodeKind::Upload { node } => {
                    info.kind = "upload";
                    if let Some(Node::Upload(u)) = plan.frame.nodes.get(*node) {
                        info.attachments = u.texture.name();
                    }
                }
                PlanNodeKind::Readback { node } => {
                    info.kind = "readback";
                    if let Some(Node::Readback(r)) = plan.frame.nodes.get(*node) {
                        info.attachments = r.texture.name();
                    }
                }
                PlanNodeKind::GenerateMips { texture, .. } => {
                    info.kind = "mips";
                    info.attachments = texture.name();
                }
                PlanNodeKind::Present { node } => {
                    info.kind = "present";
                    if let Some(Node::Present(t)) = plan.frame.nodes.get(*node) {
                        info.attachments = t.name();
                    }
                }
                PlanNodeKind::BufferUpload { .. } => info.kind = "buffer-upload",
                PlanNodeKind::BufferReadback { .. } => info.kind = "buffer-readback",
            }
            info
        })
        .collect()
}
