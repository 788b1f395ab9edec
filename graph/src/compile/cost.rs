//! What a plan costs, and what the frame-blind policy would cost for the same frame.
//!
//! In: a finished plan, or a recorded frame. Out: a [`PlanCost`] — node count, barrier count,
//! attachment bytes loaded and stored.
//!
//! Attachment bytes are those of level 0 of one layer: width × height × samples × bytes per
//! sample (the colour format's element size, or the depth format's sample size; the resolved
//! `Color` image has one sample). A plan's stored bytes count STORE attachments, resolves and
//! transfer clears (each writes its whole subresource).
//!
//! The frame-blind policy is what a driver that sees one call at a time must do (FNA3D's SDL_GPU
//! driver, for one): per pass segment, each attachment is CLEARed when a clear is pending at the
//! start of the segment (a discarding bind's, or the game's before the first draw) and LOADed
//! otherwise, and always STOREd — multisample samples and depth included — with a multisampled
//! colour attachment also resolved. It counts one node per recorded node plus one mip cascade per
//! mipmapped attachment per segment, and one barrier per attachment, per resolve, per distinct
//! texture sampled in a segment, per cascade and per upload, readback and present.

use std::collections::HashSet;

use crate::commands::{FrameCommands, Node, PassOp};
use crate::plan::{Image, LoadOp, PlanCost, PlanNode, PlanNodeKind, StoreOp};
use crate::resource::TextureState;

/// Bytes of level 0 of one layer of `image`.
pub fn attachment_bytes(texture: &TextureState, image: Image) -> u64 {
    let desc = texture.desc();
    let (w, h) = desc.level_size(0);
    let pixels = u64::from(w) * u64::from(h);
    let samples = u64::from(desc.sample_count().max(1));
    let color = desc.format.element_size() as u64;
    match image {
        Image::Color => pixels * color,
        Image::Samples => pixels * samples * color,
        Image::DepthStencil => pixels * samples * desc.depth_format().bytes_per_sample() as u64,
    }
}

/// The cost of one plan node alone (its barriers and the attachment bytes it loads and
/// stores), for per-node profiles; a plan's cost is the sum over its nodes.
pub fn node_cost(frame: &FrameCommands, node: &PlanNode) -> PlanCost {
    plan_cost(frame, std::slice::from_ref(node))
}

/// The cost of a compiled plan's nodes.
pub(crate) fn plan_cost(frame: &FrameCommands, nodes: &[PlanNode]) -> PlanCost {
    let mut cost = PlanCost { nodes: nodes.len(), ..PlanCost::default() };
    for node in nodes {
        cost.barriers += node.barriers.len();
        let pass = match &node.kind {
            PlanNodeKind::Pass(pass) => pass,
            PlanNodeKind::ClearImages { clears } => {
                for c in clears {
                    cost.bytes_stored += attachment_bytes(&c.texture, c.image);
                }
                continue;
            }
            _ => continue,
        };
        if let Some(Node::Pass(segment)) = frame.nodes.get(pass.segment) {
            let draw = |op: &&crate::plan::PlannedOp| {
                matches!(segment.ops.get(op.index), Some(PassOp::Draw(_)))
            };
            cost.draws += pass.ops.iter().filter(draw).count();
        }
        for att in pass.colors.iter().chain(pass.depth.iter()) {
            let bytes = attachment_bytes(&att.texture, att.image);
            if matches!(att.load, LoadOp::Load) {
                cost.bytes_loaded += bytes;
            }
            if att.store == StoreOp::Store {
                cost.bytes_stored += bytes;
            }
            if att.resolve {
                cost.bytes_stored += attachment_bytes(&att.texture, Image::Color);
            }
        }
    }
    cost
}

/// One attachment under the frame-blind policy: a barrier, a LOAD unless a clear is pending, a
/// STORE.
fn attach(cost: &mut PlanCost, texture: &TextureState, image: Image, clear_pending: bool) {
    let bytes = attachment_bytes(texture, image);
    cost.barriers += 1;
    if !clear_pending {
        cost.bytes_loaded += bytes;
    }
    cost.bytes_stored += bytes;
}

/// What a driver that sees one call at a time must do for `frame` (see the module doc).
pub fn frame_blind_cost(frame: &FrameCommands) -> PlanCost {
    let mut cost = PlanCost::default();
    let mut sampled = HashSet::new();
    for node in &frame.nodes {
        cost.nodes += 1;
        let Node::Pass(segment) = node else {
            cost.barriers += 1;
            continue;
        };
        // A discarding bind is a pending clear of every aspect, as the engine issues it.
        let bind_clear = super::load::discard_bind_clear(segment.start, 0).is_some();
        let (mut color_pending, mut depth_pending) = (bind_clear, bind_clear);
        for op in &segment.ops {
            cost.draws += usize::from(matches!(op, PassOp::Draw(_)));
            match op {
                PassOp::Clear(c) => {
                    color_pending |= c.color.is_some();
                    depth_pending |= c.depth.is_some() || c.stencil.is_some();
                }
                PassOp::Draw(_) => break,
                PassOp::Query(_) => {}
            }
        }
        for binding in &segment.colors {
            let target = &*binding.target;
            if target.desc().sample_count() > 1 {
                attach(&mut cost, target, Image::Samples, color_pending);
                cost.bytes_stored += attachment_bytes(target, Image::Color);
                cost.barriers += 1;
            } else {
                attach(&mut cost, target, Image::Color, color_pending);
            }
            if target.desc().render_target.is_some() && target.desc().mip_levels > 1 {
                cost.nodes += 1;
                cost.barriers += 1;
            }
        }
        if let Some(primary) = segment.colors.first() {
            if primary.target.desc().depth_format().has_depth() {
                let target = &*primary.target;
                attach(&mut cost, target, Image::DepthStencil, depth_pending);
            }
        }
        sampled.clear();
        for op in &segment.ops {
            if let PassOp::Draw(draw) = op {
                sampled.extend(draw.textures.iter().map(|t| t.id()));
            }
        }
        cost.barriers += sampled.len();
    }
    cost
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;
    use crate::compile::testkit::*;
    use crate::format::DepthFormat;

    #[test]
    fn attachment_bytes_count_samples_and_depth() {
        let rt = target_with_depth(16, 4, DepthFormat::Depth24Stencil8, DISCARD);
        assert_eq!(attachment_bytes(&rt, Image::Color), 16 * 16 * 4);
        assert_eq!(attachment_bytes(&rt, Image::Samples), 16 * 16 * 4 * 4);
        assert_eq!(attachment_bytes(&rt, Image::DepthStencil), 16 * 16 * 4 * 4);
    }

    #[test]
    fn frame_blind_policy_loads_without_a_pending_clear_and_always_stores() {
        let t = texture(4, 4, 1);
        let rt = target_with_depth(8, 4, DepthFormat::Depth24Stencil8, DISCARD);
        let f = frame(vec![bind(&rt, vec![clear_color(RED), draw(&t), draw(&t)]), unbind()]);
        let blind = frame_blind_cost(&f);
        let samples = 8 * 8 * 4 * 4;
        assert_eq!(blind.bytes_loaded, 0, "the discarding bind's clear is pending everywhere");
        assert_eq!(blind.bytes_stored, samples + 8 * 8 * 4 + samples + 4, "and the back buffer");
        assert_eq!(blind.barriers, 4 + 1, "samples, resolve, depth, one sampled texture; bb");
        assert_eq!(blind.nodes, 2);
        let plan = compile(f);
        assert_eq!(plan.cost.bytes_loaded, 0);
        assert_eq!(plan.cost.bytes_stored, 8 * 8 * 4 + 4, "the resolve and the back buffer");
        assert_eq!(plan.cost.nodes, 2);
        assert_eq!(plan.cost.barriers, 4 + 1);
        // A preserving bind has no clear pending: samples and depth are loaded.
        let kept = target_with_depth(8, 4, DepthFormat::Depth24Stencil8, PRESERVE);
        let blind = frame_blind_cost(&frame(vec![bind(&kept, vec![draw(&t)])]));
        assert_eq!(blind.bytes_loaded, samples * 2);
    }

    #[test]
    fn a_plan_counts_the_bytes_it_loads() {
        let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, PRESERVE));
        let _ = compile(frame(vec![bind(&rt, vec![clear_color(RED), draw(&t)])]));
        let plan = compile(frame(vec![bind(&rt, vec![draw(&t)])]));
        assert_eq!(pass(&plan, 0).colors[0].load, LoadOp::Load);
        assert_eq!((plan.cost.bytes_loaded, plan.cost.bytes_stored), (4 * 4 * 4, 4 * 4 * 4));
    }

    /// Per aspect: a colour clear before the first draw spares the colour load, a depth or a
    /// stencil clear the depth/stencil load; a clear after a draw spares nothing.
    #[test]
    fn frame_blind_policy_takes_leading_clears_as_pending_per_aspect() {
        let t = texture(4, 4, 1);
        let rt = target_with_depth(8, 0, DepthFormat::Depth24Stencil8, PRESERVE);
        let (color, depth) = (8 * 8 * 4, 8 * 8 * 4);
        let loaded = |ops| frame_blind_cost(&frame(vec![bind(&rt, ops)])).bytes_loaded;
        assert_eq!(loaded(vec![clear_color(RED), draw(&t)]), depth);
        assert_eq!(loaded(vec![clear(None, Some(0.5), None), draw(&t)]), color);
        assert_eq!(loaded(vec![clear(None, None, Some(3)), draw(&t)]), color);
        assert_eq!(loaded(vec![draw(&t), clear_all(RED)]), color + depth);
    }

    /// Uploads, readbacks and presents each cost the blind policy one node and one barrier.
    #[test]
    fn frame_blind_policy_counts_a_barrier_per_transfer_and_present() {
        let (t, bb) = (texture(4, 4, 1), back_buffer(4, 4, DISCARD));
        let blind =
            frame_blind_cost(&frame(vec![upload(&t, 0, 0), readback(&t, 0, 0), present(&bb)]));
        assert_eq!((blind.nodes, blind.barriers), (3, 3));
        assert_eq!((blind.bytes_loaded, blind.bytes_stored), (0, 0));
    }

    /// A rendered mipmapped target costs the blind policy a cascade (a node and a barrier) per
    /// segment; a one-level target and a sampled mipmapped texture cost none.
    #[test]
    fn frame_blind_policy_counts_a_cascade_per_mipmapped_attachment() {
        let (t, one) = (texture(4, 4, 3), target(8, 8, 0, DISCARD));
        let mipmapped = mipmapped_target(8, 4, DISCARD);
        let blind = frame_blind_cost(&frame(vec![bind(&mipmapped, vec![draw(&t)])]));
        assert_eq!((blind.nodes, blind.barriers), (2, 3), "pass, cascade; target, cascade, t");
        let blind = frame_blind_cost(&frame(vec![bind(&one, vec![draw(&t)])]));
        assert_eq!((blind.nodes, blind.barriers), (1, 2), "pass; target, t");
    }

    /// A sample count of one is single-sampled (as XNA's `MultiSampleCount` 1): the colour image
    /// is the attachment, stored once, with nothing to resolve.
    #[test]
    fn a_sample_count_of_one_costs_one_colour_image() {
        let t = texture(4, 4, 1);
        let rt = target(8, 8, 1, DISCARD);
        let blind = frame_blind_cost(&frame(vec![bind(&rt, vec![draw(&t)])]));
        assert_eq!((blind.bytes_stored, blind.barriers), (8 * 8 * 4, 2));
    }
}
