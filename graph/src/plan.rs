//! The compiler's output: what a backend executes, with every policy decision already made.
//!
//! A [`FramePlan`] owns the frame it was compiled from (so every `Arc` a node names stays alive
//! until the plan is dropped, after submission) and lists [`PlanNode`]s in execution order. Each
//! node carries the barriers that must precede it, in synchronization2 terms expressed as
//! [`Access`] kinds; a backend maps each kind to its native stage/access/layout in one table.

use std::ops::Range;
use std::sync::Arc;

use crate::commands::{FrameCommands, Node, PassOp};
use crate::resource::TextureState;

/// Which native image of a texture state a barrier or attachment names. A multisampled render
/// target has a sample image plus its single-sample (resolved, sampled) image; a render target
/// with a depth format has a depth/stencil image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Image {
    /// The single-sample colour image: what is sampled, read back, uploaded to and mip-mapped.
    Color,
    /// The multisample colour image of a multisampled target.
    Samples,
    /// The depth/stencil image (multisampled when the target is).
    DepthStencil,
}

/// How a subresource is used, in the spirit of vk-sync's access types. Each maps to exactly one
/// (stage, access, layout) triple in a backend's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Access {
    /// Nothing yet, or content that may be discarded (layout UNDEFINED as a source).
    Nothing,
    /// Written as a colour attachment without reading it (CLEAR or DONT_CARE load, no blending).
    ColorAttachmentWrite,
    /// Colour attachment loaded and written (LOAD op, or blending).
    ColorAttachmentReadWrite,
    /// Read and written as a depth/stencil attachment (depth tests read it).
    DepthStencilAttachmentReadWrite,
    /// Sampled by a fragment shader.
    FragmentSampled,
    /// Sampled by a vertex shader (vertex texture fetch), and perhaps also by a fragment
    /// shader: what a subresource is in after both kinds of sampling in one pass or in
    /// consecutive ones (the same layout as [`Access::FragmentSampled`]).
    VertexSampled,
    /// Read by a transfer: a readback, or the source level of a mip blit.
    TransferRead,
    /// Written by a transfer: an upload, a transfer clear, or the destination level of a mip blit.
    TransferWrite,
    /// Read as vertex attributes by a draw (buffers only).
    VertexInput,
    /// Read as indices by a draw (buffers only).
    IndexRead,
    /// Handed to presentation without leaving the engine: the offscreen back buffer of a
    /// headless device, or the source a copy into the swapchain image reads. It stays readable.
    Present,
    /// Handed to the presentation engine: a swapchain image drawn straight into
    /// ([`crate::PresentMode::Direct`]). Its content is no longer the engine's.
    PresentSwapchain,
    /// Only ever a barrier's source: the first use in a frame of a [`TransientImage`], whose
    /// memory another transient image may have used before it (earlier in the frame, or in an
    /// earlier submission). The content is undefined (layout UNDEFINED), and the barrier waits for
    /// every access a transient image can have had: attachment, sampling and transfer stages,
    /// their writes made available.
    Aliased,
}

/// A clear value for a CLEAR load op.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClearValue {
    /// RGBA as floats in [0, 1].
    Color([f32; 4]),
    /// Depth and stencil (stencil ignored for a format without one).
    DepthStencil {
        /// Depth in [0, 1].
        depth: f32,
        /// The stencil value every sample takes.
        stencil: u32,
    },
}

/// How an attachment's content begins when its pass starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LoadOp {
    /// Fill it with a value first.
    Clear(ClearValue),
    /// Keep the content it had.
    Load,
    /// The content is not observed; the backend may leave anything there.
    DontCare,
}

/// The colour a poisoned colour attachment holds: magenta, which no test draws.
pub const POISON_COLOR: [f32; 4] = [1.0, 0.0, 1.0, 1.0];
/// The depth and stencil a poisoned depth attachment holds: depth 0 fails every LessEqual test.
pub const POISON_DEPTH: (f32, u32) = (0.0, 0);

impl ClearValue {
    /// The value that makes undefined content visible (the poisoning a backend does in tests):
    /// [`POISON_DEPTH`] for a depth/stencil attachment, else [`POISON_COLOR`].
    pub fn poison(depth: bool) -> ClearValue {
        if depth {
            ClearValue::DepthStencil { depth: POISON_DEPTH.0, stencil: POISON_DEPTH.1 }
        } else {
            ClearValue::Color(POISON_COLOR)
        }
    }
}

impl LoadOp {
    /// The load op an attachment really gets: this one, or where undefined content is poisoned
    /// (`poison`, in tests) and this is DONT_CARE, a CLEAR to [`ClearValue::poison`] of a
    /// colour or (`depth`) depth/stencil attachment, so that a wrong DONT_CARE shows in pixels
    /// even on drivers that keep old content under it.
    pub fn poisoned_when(self, poison: bool, depth: bool) -> LoadOp {
        match self {
            LoadOp::DontCare if poison => LoadOp::Clear(ClearValue::poison(depth)),
            other => other,
        }
    }
}

/// What happens to an attachment's content when its pass ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreOp {
    /// Write it back: something later observes it.
    Store,
    /// Nothing observes it; the backend may discard it.
    DontCare,
}

/// One attachment of a planned pass.
#[derive(Clone, Debug)]
pub struct PlannedAttachment {
    /// The texture whose image is attached.
    pub texture: Arc<TextureState>,
    /// `Color` for a single-sample target, `Samples` for a multisampled one, `DepthStencil`.
    pub image: Image,
    /// The array layer (cube face) attached; 0 for a 2D target.
    pub layer: u32,
    /// How the attachment begins.
    pub load: LoadOp,
    /// What the attachment keeps at the end.
    pub store: StoreOp,
    /// For `Samples`: resolve into the `Color` image (same layer, level 0) at the end of the pass.
    pub resolve: bool,
}

/// At most this many colour attachments in one pass (XNA's four render-target bindings).
pub const MAX_COLOR_ATTACHMENTS: usize = 4;

/// Per colour attachment slot of a pass, the channels an op writes: RGBA bits, bit 0 red; 0
/// leaves that attachment as it is. The backend masks colour output with it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColorWrites(pub [u8; MAX_COLOR_ATTACHMENTS]);

impl ColorWrites {
    /// The channels written into attachment `slot` (none past the last slot).
    pub fn get(self, slot: usize) -> u8 {
        self.0.get(slot).copied().unwrap_or(0)
    }

    /// The channels a draw of `key` writes into a pass of `attachments` colour attachments: its
    /// `ColorWriteChannels` on each slot its shader has an output for. The compiler plans draws
    /// with it and [`crate::PipelineRequest`]s carry it, so both name the same pipeline.
    pub fn of_draw(key: &crate::PipelineKey, attachments: usize) -> ColorWrites {
        ColorWrites::on_slots(
            key.blend.color_write_channels.bits(),
            key.shader.outputs(),
            attachments,
        )
    }

    /// `mask` on the first `outputs` of `attachments` slots.
    pub(crate) fn on_slots(mask: u8, outputs: usize, attachments: usize) -> ColorWrites {
        let mut writes = ColorWrites::default();
        for slot in writes.0.iter_mut().take(outputs.min(attachments).min(MAX_COLOR_ATTACHMENTS)) {
            *slot = mask;
        }
        writes
    }
}

/// One op of a segment that runs inside its planned pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedOp {
    /// Index into the segment's `ops`.
    pub index: usize,
    /// What the op writes into each colour attachment: a colour clear, every channel of every
    /// attachment; a draw, the channels its shader outputs, through its blend state's mask.
    pub writes: ColorWrites,
    /// How many of the segment's draws from `index` on this op draws, as one instanced draw of
    /// one instance per draw (1: the op alone). More than 1 only where the compiler merged a run
    /// of draws that differ in nothing but their stock effect's values
    /// ([`crate::compile::instances`]).
    pub instances: u32,
    /// The repeats those draws carry ([`crate::GeometryDraw::repeats`] and
    /// [`crate::GeometryDraw::repeat_values`]), summed: the op draws
    /// `instances + repeats` instances, one per draw and one per repeat, in recording order.
    pub repeats: u32,
}

impl PlannedOp {
    /// `op`, the segment's op at `index`, planned alone: a clear, a query, or a draw with its
    /// repeats.
    pub fn alone(index: usize, op: &crate::PassOp, writes: ColorWrites) -> Self {
        let repeats = match op {
            crate::PassOp::Draw(d) => d.geometry.as_ref().map_or(0, |g| g.draws() - 1),
            _ => 0,
        };
        PlannedOp { index, writes, instances: 1, repeats }
    }

    /// The draws the op makes: its run's draws and their repeats.
    pub fn draws(&self) -> u32 {
        self.instances + self.repeats
    }
}

/// A planned render pass over one recorded segment.
#[derive(Clone, Debug)]
pub struct PlannedPass {
    /// Index of the `Node::Pass` in `FramePlan::frame.nodes`.
    pub segment: usize,
    /// Colour attachments, in binding order (`colors[0]` is the primary target).
    pub colors: Vec<PlannedAttachment>,
    /// The primary target's depth/stencil image, when it has a depth format.
    pub depth: Option<PlannedAttachment>,
    /// The segment's ops to execute inside the pass, in order. Clears absorbed into a CLEAR
    /// load op, and clears made redundant by a later clear with nothing drawn in between, are
    /// left out.
    pub ops: Vec<PlannedOp>,
}

/// A state transition of one subresource range of one image.
#[derive(Clone, Debug)]
pub struct Barrier {
    /// The texture whose image changes state.
    pub texture: Arc<TextureState>,
    /// Which of its images.
    pub image: Image,
    /// The mip levels covered.
    pub levels: Range<u32>,
    /// The array layers (cube faces) covered.
    pub layers: Range<u32>,
    /// The access the range was last left in.
    pub src: Access,
    /// The access the next use needs.
    pub dst: Access,
    /// True when the previous content need not survive (transition from an undefined layout).
    pub discard: bool,
}

/// One subresource filled with one value by a transfer clear, outside any render pass.
///
/// The compiler turns a pass that would only clear (nothing drawn, every clear absorbed into a
/// CLEAR load op) into these: a render pass that does no work still costs a whole attachment
/// load/store cycle on some drivers, while a transfer clear writes each observed image once.
#[derive(Clone, Debug)]
pub struct ImageClear {
    /// The texture whose image is cleared.
    pub texture: Arc<TextureState>,
    /// `Color` or `Samples` with a [`ClearValue::Color`]; `DepthStencil` with a
    /// [`ClearValue::DepthStencil`] (every aspect of the depth format: depth, and stencil when
    /// the format has one).
    pub image: Image,
    /// The mip level cleared.
    pub level: u32,
    /// The array layer (cube face) cleared.
    pub layer: u32,
    /// The value every texel takes.
    pub value: ClearValue,
}

/// What one plan node does.
#[derive(Clone, Debug)]
pub enum PlanNodeKind {
    /// A render pass over one recorded segment.
    Pass(PlannedPass),
    /// Transfer clears of whole subresources, in order; each subresource is in the
    /// `TransferWrite` access when the node runs.
    ClearImages {
        /// The clears, in order.
        clears: Vec<ImageClear>,
    },
    /// Index of the `Node::Upload` in `frame.nodes`.
    Upload {
        /// Index into `frame.nodes`.
        node: usize,
    },
    /// Index of the `Node::Readback` in `frame.nodes`.
    Readback {
        /// Index into `frame.nodes`.
        node: usize,
    },
    /// Blit cascade level 0 → 1 → … of one layer of a mipmapped render target's `Color` image.
    GenerateMips {
        /// The render target whose levels are regenerated.
        texture: Arc<TextureState>,
        /// The layer (cube face) whose levels are regenerated.
        layer: u32,
    },
    /// Index of the `Node::Present` in `frame.nodes`.
    Present {
        /// Index into `frame.nodes`.
        node: usize,
    },
    /// A buffer upload (`Node::BufferUpload` at `node`).
    BufferUpload {
        /// Index into `frame.nodes`.
        node: usize,
        /// Write into fresh storage instead of the buffer's current one: decided by the compiler
        /// for a `Discard` write to a buffer that earlier uses (in this frame or one still in
        /// flight) may still read. Later uses see the fresh storage; earlier ones keep the old,
        /// which is retired after them, so no barrier orders this write after them.
        rename: bool,
    },
    /// A buffer readback (`Node::BufferReadback` at `node`).
    BufferReadback {
        /// Index into `frame.nodes`.
        node: usize,
    },
}

/// A dependency on one byte range of one buffer: the earlier use (`src`) must be done and its
/// writes visible before the node's use (`dst`). Buffers have no layouts; only stage and access
/// matter.
#[derive(Clone, Debug)]
pub struct BufferBarrier {
    /// The buffer.
    pub buffer: Arc<crate::buffer::BufferState>,
    /// The bytes covered.
    pub range: Range<u64>,
    /// The earlier use.
    pub src: Access,
    /// The node's use.
    pub dst: Access,
}

/// One step of a plan: its barriers, then its work.
#[derive(Clone, Debug)]
pub struct PlanNode {
    /// Barriers to issue (as one batch) before the node.
    pub barriers: Vec<Barrier>,
    /// Buffer barriers, issued in the same batch.
    pub buffer_barriers: Vec<BufferBarrier>,
    /// The work.
    pub kind: PlanNodeKind,
}

/// What the plan costs, for comparison against the frame-blind policy (not XNA).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanCost {
    /// Plan nodes.
    pub nodes: usize,
    /// Barriers (one per subresource range transition).
    pub barriers: usize,
    /// Attachment bytes read by LOAD ops.
    pub bytes_loaded: u64,
    /// Attachment bytes written by STORE ops, resolves and transfer clears.
    pub bytes_stored: u64,
    /// Draws of the frame's passes that the plan issues: a sprite draw of several textures
    /// counts once, however a backend lowers it, and so does a merged run of draws
    /// ([`PlannedOp::instances`]) or a draw with repeats.
    pub draws: usize,
}

/// The compiled frame.
#[derive(Debug)]
pub struct FramePlan {
    /// The recorded frame the plan indexes; owned so that every texture it names outlives the
    /// submission.
    pub frame: FrameCommands,
    /// The nodes, in execution order.
    pub nodes: Vec<PlanNode>,
    /// What the plan loads, stores and synchronizes.
    pub cost: PlanCost,
    /// The multisample and depth/stencil images whose content neither enters nor leaves the
    /// frame, and those that need memory of their own ([`crate::compile::transient`]).
    pub transients: TransientImages,
}

/// One multisample (`Samples`) or depth/stencil image whose content neither enters nor leaves
/// the frame: its first use overwrites it whole and its last drops it. Outside its nodes its
/// memory may hold another transient image of the frame or of another frame.
#[derive(Clone, Debug)]
pub struct TransientImage {
    /// The render target.
    pub texture: Arc<TextureState>,
    /// `Samples` or `DepthStencil`.
    pub image: Image,
    /// The layer of a `Samples` image (0 for a depth/stencil image, which all layers share).
    pub layer: u32,
    /// The plan nodes from its first use to its last (their indices in [`FramePlan::nodes`]).
    pub nodes: Range<usize>,
}

impl TransientImage {
    /// Whether two transient images are in use during a common node, so that their memory must
    /// not overlap.
    pub fn overlaps(&self, other: &TransientImage) -> bool {
        self.nodes.start < other.nodes.end && other.nodes.start < self.nodes.end
    }
}

/// What the compiler found about the frame's multisample and depth/stencil images.
#[derive(Clone, Debug, Default)]
pub struct TransientImages {
    /// Whether the frame asked for aliasing ([`crate::FrameCommands::alias_transients`]): the
    /// first use of each of [`Self::images`] then has a barrier from [`Access::Aliased`], and a
    /// backend may place them in memory they share.
    pub aliased: bool,
    /// The transient images, in order of first use.
    pub images: Vec<TransientImage>,
    /// The multisample and depth/stencil images the frame uses whose content enters or leaves
    /// it (a LOAD at their first use, a STORE at their last): each needs memory of its own.
    /// Their first use in the frame is a discard barrier whenever they held no content.
    pub resident: Vec<(Arc<TextureState>, Image, u32)>,
}

impl FramePlan {
    /// Every texture the plan names (attachments, sampled textures, transfer and barrier
    /// subjects), each once, in order of first appearance.
    pub fn textures(&self) -> Vec<Arc<TextureState>> {
        let mut seen = std::collections::HashSet::new();
        let mut order = Vec::new();
        let mut see = |t: &Arc<TextureState>| {
            if seen.insert(t.id()) {
                order.push(t.clone());
            }
        };
        for node in &self.nodes {
            node.barriers.iter().for_each(|b| see(&b.texture));
            match &node.kind {
                PlanNodeKind::Pass(pass) => {
                    pass.colors.iter().chain(pass.depth.iter()).for_each(|a| see(&a.texture));
                    if let Some(Node::Pass(segment)) = self.frame.nodes.get(pass.segment) {
                        for op in &segment.ops {
                            if let PassOp::Draw(d) = op {
                                d.textures.iter().for_each(&mut see);
                                if let Some(t) = d
                                    .geometry
                                    .as_ref()
                                    .and_then(|g| g.texture2.as_ref().map(|(t, _)| t))
                                {
                                    see(t);
                                }
                            }
                        }
                    }
                }
                PlanNodeKind::ClearImages { clears } => clears.iter().for_each(|c| see(&c.texture)),
                PlanNodeKind::GenerateMips { texture, .. } => see(texture),
                PlanNodeKind::BufferUpload { .. } | PlanNodeKind::BufferReadback { .. } => {}
                PlanNodeKind::Upload { node }
                | PlanNodeKind::Readback { node }
                | PlanNodeKind::Present { node } => match self.frame.nodes.get(*node) {
                    Some(Node::Upload(u)) => see(&u.texture),
                    Some(Node::Readback(r)) => see(&r.texture),
                    Some(Node::Present(t)) => see(t),
                    _ => {}
                },
            }
        }
        order
    }

    /// A node's name for tools (command-buffer labels, the plan text): what it does and the
    /// names of the textures it does it to — `pass hud + back buffer`, `upload sprites`,
    /// `readback hud`, `mips sky`, `clear hud`, `present back buffer`.
    pub fn node_label(&self, kind: &PlanNodeKind) -> String {
        let names = |textures: &mut dyn Iterator<Item = &Arc<TextureState>>| {
            let mut names: Vec<String> = Vec::new();
            for name in textures.map(|t| t.name()) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            names.join(" + ")
        };
        let of_node = |verb: &str, node: usize| match self.frame.nodes.get(node) {
            Some(Node::Upload(u)) => format!("{verb} {}", u.texture.name()),
            Some(Node::Readback(r)) => format!("{verb} {}", r.texture.name()),
            Some(Node::Present(t)) => format!("{verb} {}", t.name()),
            Some(Node::BufferUpload(u)) => format!("{verb} {}", u.buffer.name()),
            Some(Node::BufferReadback(r)) => format!("{verb} {}", r.buffer.name()),
            _ => verb.to_owned(),
        };
        match kind {
            PlanNodeKind::Pass(pass) => {
                let mut targets = pass.colors.iter().chain(pass.depth.iter()).map(|a| &a.texture);
                format!("pass {}", names(&mut targets))
            }
            PlanNodeKind::ClearImages { clears } => {
                format!("clear {}", names(&mut clears.iter().map(|c| &c.texture)))
            }
            PlanNodeKind::GenerateMips { texture, .. } => format!("mips {}", texture.name()),
            PlanNodeKind::Upload { node } => of_node("upload", *node),
            PlanNodeKind::Readback { node } => of_node("readback", *node),
            PlanNodeKind::Present { node } => of_node("present", *node),
            PlanNodeKind::BufferUpload { node, .. } => of_node("upload", *node),
            PlanNodeKind::BufferReadback { node } => of_node("readback", *node),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poisoned_dont_care_load_becomes_a_clear_to_the_poison_value() {
        let color = LoadOp::Clear(ClearValue::Color(POISON_COLOR));
        let depth = LoadOp::Clear(ClearValue::DepthStencil { depth: 0.0, stencil: 0 });
        assert_eq!(LoadOp::DontCare.poisoned_when(true, false), color);
        assert_eq!(LoadOp::DontCare.poisoned_when(true, true), depth);
        // Unpoisoned, or a load the plan defined, stays as it is.
        assert_eq!(LoadOp::DontCare.poisoned_when(false, false), LoadOp::DontCare);
        assert_eq!(LoadOp::Load.poisoned_when(true, true), LoadOp::Load);
        let clear = LoadOp::Clear(ClearValue::Color([0.0, 1.0, 0.0, 1.0]));
        assert_eq!(clear.poisoned_when(true, false), clear);
    }
}
