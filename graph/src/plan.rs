//! The compiler's output: what a backend executes, with every policy decision already made.
//!
//! A [`FramePlan`] owns the frame it was compiled from (so every `Arc` a node names stays alive
//! until the plan is dropped, after submission) and lists [`PlanNode`]s in execution order. Each
//! node carries the barriers that must precede it, in synchronization2 terms expressed as
//! [`Access`] kinds; a backend maps each kind to its native stage/access/layout in one table.

use std::ops::Range;
use std::sync::Arc;

use crate::commands::FrameCommands;
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
    ColorAttachmentWrite,
    /// Colour attachment loaded and written (LOAD op, or blending).
    ColorAttachmentReadWrite,
    DepthStencilAttachmentReadWrite,
    /// Sampled by a fragment shader.
    FragmentSampled,
    TransferRead,
    TransferWrite,
    /// Handed to presentation.
    Present,
}

/// A clear value for a CLEAR load op.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClearValue {
    Color([f32; 4]),
    DepthStencil { depth: f32, stencil: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LoadOp {
    Clear(ClearValue),
    Load,
    DontCare,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreOp {
    Store,
    DontCare,
}

/// One attachment of a planned pass.
#[derive(Clone, Debug)]
pub struct PlannedAttachment {
    pub texture: Arc<TextureState>,
    /// `Color` for a single-sample target, `Samples` for a multisampled one, `DepthStencil`.
    pub image: Image,
    pub layer: u32,
    pub load: LoadOp,
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
}

/// One op of a segment that runs inside its planned pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedOp {
    /// Index into the segment's `ops`.
    pub index: usize,
    /// What the op writes into each colour attachment: a colour clear, every channel of every
    /// attachment; a draw, the channels its shader outputs, through its blend state's mask.
    pub writes: ColorWrites,
}

/// A planned render pass over one recorded segment.
#[derive(Clone, Debug)]
pub struct PlannedPass {
    /// Index of the `Node::Pass` in `FramePlan::frame.nodes`.
    pub segment: usize,
    pub colors: Vec<PlannedAttachment>,
    pub depth: Option<PlannedAttachment>,
    /// The segment's ops to execute inside the pass, in order. Clears absorbed into a CLEAR
    /// load op, and clears made redundant by a later clear with nothing drawn in between, are
    /// left out.
    pub ops: Vec<PlannedOp>,
}

/// A state transition of one subresource range of one image.
#[derive(Clone, Debug)]
pub struct Barrier {
    pub texture: Arc<TextureState>,
    pub image: Image,
    pub levels: Range<u32>,
    pub layers: Range<u32>,
    pub src: Access,
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
    pub texture: Arc<TextureState>,
    /// `Color` or `Samples` with a [`ClearValue::Color`]; `DepthStencil` with a
    /// [`ClearValue::DepthStencil`] (every aspect of the depth format: depth, and stencil when
    /// the format has one).
    pub image: Image,
    pub level: u32,
    pub layer: u32,
    pub value: ClearValue,
}

#[derive(Clone, Debug)]
pub enum PlanNodeKind {
    Pass(PlannedPass),
    /// Transfer clears of whole subresources, in order; each subresource is in the
    /// `TransferWrite` access when the node runs.
    ClearImages {
        clears: Vec<ImageClear>,
    },
    /// Index of the `Node::Upload` in `frame.nodes`.
    Upload {
        node: usize,
    },
    /// Index of the `Node::Readback` in `frame.nodes`.
    Readback {
        node: usize,
    },
    /// Blit cascade level 0 → 1 → … of one layer of a mipmapped render target's `Color` image.
    GenerateMips {
        texture: Arc<TextureState>,
        layer: u32,
    },
    /// Index of the `Node::Present` in `frame.nodes`.
    Present {
        node: usize,
    },
}

#[derive(Clone, Debug)]
pub struct PlanNode {
    /// Barriers to issue (as one batch) before the node.
    pub barriers: Vec<Barrier>,
    pub kind: PlanNodeKind,
}

/// What the plan costs, for comparison against the frame-blind policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanCost {
    pub nodes: usize,
    pub barriers: usize,
    pub bytes_loaded: u64,
    pub bytes_stored: u64,
}

/// The compiled frame.
#[derive(Debug)]
pub struct FramePlan {
    pub frame: FrameCommands,
    pub nodes: Vec<PlanNode>,
    pub cost: PlanCost,
}
