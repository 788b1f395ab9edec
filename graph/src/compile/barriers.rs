//! Stage 8, barriers: the one batch of transitions before each plan node.
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
//! (`load::settle_load`). After each node the tracker records what it left behind: stored
//! attachments, resolved and cleared images hold content, dropped ones do not; a cascade leaves
//! every level of its layer in transfer-read; a presented back buffer goes to the swapchain, so the
//! next frame's back buffer has no content to keep.

use super::access::{for_each_use, SubresourceUse};
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
fn transition(tracker: &mut FrameTracker, u: &SubresourceUse<'_>, out: &mut Vec<Barrier>) {
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
mod tests;
