//! Stage 6, clears: passes that only clear become transfer clears.
//!
//! In: the plan's nodes in execution order, with load ops, store ops, resolves and mip cascades
//! decided (stages 2–5). Out: the same list where every pass with nothing left to execute (no
//! draw, no in-pass clear: all its clears were absorbed into CLEAR load ops) is replaced by a
//! [`PlanNodeKind::ClearImages`] node, or removed when it clears nothing anyone can observe.
//!
//! A render pass that does no work still begins and ends rendering over every attachment, which
//! some drivers pay for in full; a transfer clear writes only the images whose content is kept.
//! What such a pass leaves behind, attachment by attachment:
//! - a CLEAR colour attachment leaves the clear value in what is observed of it: its own image
//!   when it is stored, and the resolved `Color` image of the same layer when it resolves (a
//!   uniform clear resolves to itself), so each of those is cleared;
//! - a CLEAR depth/stencil attachment that is stored is cleared; a dropped one needs nothing;
//! - a LOAD or DONT_CARE attachment leaves its content as it was, or undefined, so it needs
//!   nothing — except multisample samples that are loaded and resolved: that resolve is real
//!   work (an earlier pass may have left resolving its samples to this one), so such a pass
//!   stays a pass.
//!
//! The cleared subresources are written as `TransferWrite` (see the `access` module). Mip cascades
//! were placed by the previous stage after the pass they follow, so a cleared mipmapped target
//! still gets its cascade after the clear.

use crate::plan::{Image, ImageClear, LoadOp, PlanNode, PlanNodeKind, PlannedPass, StoreOp};

/// What an op-less pass becomes: its clears, or `None` when it must stay a pass.
fn transfer_clears(pass: &PlannedPass) -> Option<Vec<ImageClear>> {
    if !pass.ops.is_empty() {
        return None;
    }
    let mut clears = Vec::new();
    for att in pass.colors.iter().chain(pass.depth.iter()) {
        let value = match att.load {
            LoadOp::Clear(value) => value,
            LoadOp::Load if att.resolve => return None,
            LoadOp::Load | LoadOp::DontCare => continue,
        };
        let mut clear = |image: Image| {
            clears.push(ImageClear {
                texture: att.texture.clone(),
                image,
                level: 0,
                layer: att.layer,
                value,
            });
        };
        if att.resolve {
            clear(Image::Color);
        }
        if att.store == StoreOp::Store {
            clear(att.image);
        }
    }
    Some(clears)
}

/// Replaces every pass that only clears by its transfer clears, dropping those that clear
/// nothing observable.
pub(crate) fn lower_clear_only_passes(nodes: &mut Vec<PlanNode>) {
    nodes.retain_mut(|node| {
        let PlanNodeKind::Pass(pass) = &node.kind else {
            return true;
        };
        match transfer_clears(pass) {
            None => true,
            Some(clears) if clears.is_empty() => false,
            Some(clears) => {
                node.kind = PlanNodeKind::ClearImages { clears };
                true
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use crate::compile::compile;
    use crate::compile::testkit::*;
    use crate::format::{DepthFormat, SurfaceFormat};
    use crate::plan::{Access, ClearValue, FramePlan, Image, PlanNodeKind};

    /// The clears of plan node `i` as `(texture id, image, level, layer, value)`.
    fn clears(plan: &FramePlan, i: usize) -> Vec<(u64, Image, u32, u32, ClearValue)> {
        match &plan.nodes[i].kind {
            PlanNodeKind::ClearImages { clears } => clears
                .iter()
                .map(|c| (c.texture.id().0, c.image, c.level, c.layer, c.value))
                .collect(),
            other => panic!("plan node {i} is {other:?}, not a clear"),
        }
    }

    const DEPTH_ONE: ClearValue = ClearValue::DepthStencil { depth: 1.0, stencil: 0 };

    #[test]
    fn clear_only_pass_becomes_a_transfer_clear() {
        let rt = target(8, 8, 0, DISCARD);
        let plan = compile(frame(vec![
            bind(&rt, vec![clear_color(BLACK), clear_color(RED)]),
            readback(&rt, 0, 0),
        ]));
        assert_eq!(kinds(&plan), ["clear", "readback"]);
        let id = rt.id().0;
        assert_eq!(clears(&plan, 0), [(id, Image::Color, 0, 0, ClearValue::Color(RED))]);
        assert_eq!(
            barriers(&plan, 0),
            [(id, Image::Color, 0..1, 0..1, Access::Nothing, Access::TransferWrite, true)]
        );
        assert_eq!(plan.cost.bytes_stored, 8 * 8 * 4, "the cleared bytes");
        let text = plan.to_string();
        assert!(
            text.contains("0: clear images \"clear unnamed\"\n  barrier t0.color levels 0..1 layers 0..1 Nothing -> TransferWrite discard\n  clear t0.color level 0 layer 0 to (1 0 0 1)\n"),
            "{text}"
        );
        assert!(crate::compile::to_dot(&plan).contains("clear t0.color level 0 layer 0"));
    }

    #[test]
    fn clear_only_multisampled_discard_target_clears_only_its_resolved_image() {
        let rt = target_with_depth(8, 4, DepthFormat::Depth24Stencil8, DISCARD);
        let plan = compile(frame(vec![bind(&rt, vec![]), unbind()]));
        // The samples and the depth of a DiscardContents target are never loaded again.
        assert_eq!(clears(&plan, 0), [(rt.id().0, Image::Color, 0, 0, ClearValue::Color(BLACK))]);
        assert_eq!(plan.nodes[0].barriers.len(), 1);
    }

    #[test]
    fn clear_only_preserving_multisampled_target_also_clears_its_samples() {
        let rt = target(8, 8, 4, PRESERVE);
        let plan = compile(frame(vec![bind(&rt, vec![clear_color(BLUE)])]));
        let id = rt.id().0;
        let blue = ClearValue::Color(BLUE);
        assert_eq!(
            clears(&plan, 0),
            [(id, Image::Color, 0, 0, blue), (id, Image::Samples, 0, 0, blue)]
        );
        // The next bind loads the cleared samples from transfer-write.
        let t = texture(4, 4, 1);
        let plan = compile(frame(vec![bind(&rt, vec![draw(&t)])]));
        let p = pass(&plan, 0);
        assert_eq!(p.colors[0].load, crate::plan::LoadOp::Load);
        assert!(barriers(&plan, 0).contains(&(
            id,
            Image::Samples,
            0..1,
            0..1,
            Access::TransferWrite,
            Access::ColorAttachmentReadWrite,
            false
        )));
    }

    #[test]
    fn clear_only_depth_that_is_stored_is_cleared_and_dropped_depth_is_not() {
        let stored = target_with_depth(4, 0, DepthFormat::Depth24Stencil8, PRESERVE);
        let dropped = target_with_depth(4, 0, DepthFormat::Depth24Stencil8, DISCARD);
        let plan = compile(frame(vec![
            bind(&stored, vec![clear_all(BLACK)]),
            bind(&dropped, vec![]),
            unbind(),
        ]));
        let black = ClearValue::Color(BLACK);
        let (s, d) = (stored.id().0, dropped.id().0);
        assert_eq!(
            clears(&plan, 0),
            [(s, Image::Color, 0, 0, black), (s, Image::DepthStencil, 0, 0, DEPTH_ONE)]
        );
        assert_eq!(clears(&plan, 1), [(d, Image::Color, 0, 0, black)]);
        assert!(barriers(&plan, 0).contains(&(
            s,
            Image::DepthStencil,
            0..1,
            0..1,
            Access::Nothing,
            Access::TransferWrite,
            true
        )));
        assert!(barriers(&plan, 1).iter().all(|b| b.1 != Image::DepthStencil));
    }

    #[test]
    fn empty_preserving_bind_emits_no_node() {
        let (t, rt, other) =
            (texture(4, 4, 1), target(4, 4, 0, PRESERVE), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![
            bind(&rt, vec![clear_color(RED), draw(&t)]),
            bind(&rt, vec![]),
            bind(&other, vec![clear_color(BLUE), draw(&rt)]),
        ]));
        assert_eq!(kinds(&plan), ["pass", "pass"]);
        assert_eq!(pass(&plan, 1).segment, 2);
        // The content the first pass stored is sampled directly.
        assert!(barriers(&plan, 1).contains(&(
            rt.id().0,
            Image::Color,
            0..1,
            0..1,
            Access::ColorAttachmentWrite,
            Access::FragmentSampled,
            false
        )));
    }

    #[test]
    fn pass_with_a_draw_stays_a_pass() {
        let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![bind(&rt, vec![draw(&t), clear_color(BLUE)]), unbind()]));
        assert_eq!(kinds(&plan), ["pass", "clear"]);
        assert_eq!(ops(&plan, 0), [0, 1], "an in-pass clear is work");
    }

    #[test]
    fn clear_only_pass_that_resolves_loaded_samples_stays_a_pass() {
        let (t, rt, other) =
            (texture(4, 4, 1), target(4, 4, 4, PRESERVE), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![
            bind(&rt, vec![clear_color(RED), draw(&t)]),
            bind(&rt, vec![]),
            bind(&other, vec![clear_color(BLUE), draw(&rt)]),
        ]));
        assert_eq!(kinds(&plan), ["pass", "pass", "pass"]);
        // The first pass leaves the resolve to the second, which must therefore run.
        assert!(!pass(&plan, 0).colors[0].resolve);
        let p = pass(&plan, 1);
        assert_eq!(p.colors[0].load, crate::plan::LoadOp::Load);
        assert!(p.colors[0].resolve);
    }

    #[test]
    fn clear_only_mipmapped_target_still_gets_its_cascade() {
        let (rt, other) = (
            render_target(8, 8, 4, 1, SurfaceFormat::Color, 4, DepthFormat::None, DISCARD, false),
            target(4, 4, 0, DISCARD),
        );
        let plan = compile(frame(vec![
            bind(&rt, vec![clear_color(RED)]),
            bind(&other, vec![clear_color(BLUE), draw(&rt)]),
        ]));
        assert_eq!(kinds(&plan), ["clear", "mips", "pass"]);
        let id = rt.id().0;
        assert_eq!(clears(&plan, 0), [(id, Image::Color, 0, 0, ClearValue::Color(RED))]);
        assert!(barriers(&plan, 1).contains(&(
            id,
            Image::Color,
            0..1,
            0..1,
            Access::TransferWrite,
            Access::TransferRead,
            false
        )));
        assert!(barriers(&plan, 2).contains(&(
            id,
            Image::Color,
            0..4,
            0..1,
            Access::TransferRead,
            Access::FragmentSampled,
            false
        )));
    }
}
