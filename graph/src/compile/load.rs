//! Stage 2, load ops: how each attachment of a pass begins, and which clears stay in the pass.
//!
//! In: the plan node candidates of stage 1 and the frame's segments. Out: every attachment's
//! [`LoadOp`] and each pass's op list with absorbed and redundant clears left out.
//!
//! Rules, per attachment aspect (colour; depth and stencil together):
//! - A bind whose usage discards ([`SegmentStart::Bind`] with a usage that does not
//!   [preserve](crate::RenderTargetUsage::preserves_contents)) begins every colour attachment at
//!   opaque black and the depth/stencil attachment at depth 1, stencil 0, on the aspects the
//!   format has (`discard_bind_clear`, the one home of that rule). It counts as a clear that
//!   comes before every recorded op.
//! - The clears before the first draw of a segment merge with it (a later clear of an aspect
//!   overrides an earlier one) and become a CLEAR load op. Depth/stencil is absorbed only when
//!   the merged clears give every aspect of its format a value, since it has one load op.
//! - Otherwise the content is LOADed when it is preserved: the target's usage preserves, or the
//!   segment continues a bind cycle that an upload, a readback or a flush interrupted. Else it
//!   is DONT_CARE.
//! - A LOAD of content that was never written (or was dropped by a DONT_CARE store) becomes
//!   DONT_CARE; that is settled by `settle_load` while barriers are tracked, because only then
//!   is the content's state known.
//!
//! A clear op leaves the pass when each aspect it sets is either overridden by a later clear with
//! no draw in between, or absorbed into the load op with no kept clear of that aspect before it.
//! Every other clear stays an in-pass op, in order.

use super::access::op_writes;
use super::nodes::color_image;
use crate::commands::{Clear, FrameCommands, Node, PassOp, PassSegment, SegmentStart};
use crate::plan::{ClearValue, LoadOp, PlanNode, PlanNodeKind, PlannedOp};
use crate::resource::TextureState;

const COLOR: u8 = 1;
const DEPTH: u8 = 2;
const STENCIL: u8 = 4;

fn aspects(clear: &Clear) -> u8 {
    (if clear.color.is_some() { COLOR } else { 0 })
        | (if clear.depth.is_some() { DEPTH } else { 0 })
        | (if clear.stencil.is_some() { STENCIL } else { 0 })
}

/// What the clears at the start of a segment resolve to.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct LeadingClear {
    pub color: Option<[f32; 4]>,
    pub depth_stencil: Option<ClearValue>,
}

/// The clear a segment's start implies: opaque black, depth 1 and stencil 0 on the aspects that
/// exist (`depth_aspects`) for a discarding bind; nothing for any other start.
pub(crate) fn discard_bind_clear(start: SegmentStart, depth_aspects: u8) -> Option<Clear> {
    match start {
        SegmentStart::Bind { usage } if !usage.preserves_contents() => Some(Clear {
            color: Some([0.0, 0.0, 0.0, 1.0]),
            depth: (depth_aspects & DEPTH != 0).then_some(1.0),
            stencil: (depth_aspects & STENCIL != 0).then_some(0),
        }),
        _ => None,
    }
}

/// Merges `start_clear` and the leading clears of `ops`, and writes into `kept` the op indices
/// that must still run inside the pass. `depth_aspects` is the depth attachment's aspects (0
/// without one).
pub(crate) fn plan_clears(
    ops: &[PassOp],
    start_clear: Option<Clear>,
    depth_aspects: u8,
    scratch: &mut Vec<u8>,
    kept: &mut Vec<usize>,
) -> LeadingClear {
    kept.clear();
    // The start's clear and the clears before the first draw, merged.
    let first_draw = ops.iter().position(|op| matches!(op, PassOp::Draw(_))).unwrap_or(ops.len());
    let mut merged = start_clear.unwrap_or_default();
    for op in &ops[..first_draw] {
        if let PassOp::Clear(c) = op {
            merged.color = c.color.or(merged.color);
            merged.depth = c.depth.or(merged.depth);
            merged.stencil = c.stencil.or(merged.stencil);
        }
    }
    let mut leading = LeadingClear { color: merged.color, depth_stencil: None };
    let mut absorbed = if merged.color.is_some() { COLOR } else { 0 };
    let has_stencil = depth_aspects & STENCIL != 0;
    if let (true, Some(depth)) = (depth_aspects & DEPTH != 0, merged.depth) {
        if merged.stencil.is_some() || !has_stencil {
            let stencil = merged.stencil.unwrap_or(0);
            leading.depth_stencil = Some(ClearValue::DepthStencil { depth, stencil });
            absorbed |= DEPTH | STENCIL;
        }
    }
    let mut start = 0;
    while start < ops.len() {
        let end = ops[start..]
            .iter()
            .position(|op| matches!(op, PassOp::Draw(_)))
            .map_or(ops.len(), |n| start + n);
        if start == end {
            kept.push(start);
            start += 1;
            continue;
        }
        // Aspects of each clear in this run that no later clear of the run overrides.
        scratch.clear();
        scratch.resize(end - start, 0);
        let mut later = 0u8;
        for i in (start..end).rev() {
            if let PassOp::Clear(c) = &ops[i] {
                scratch[i - start] = aspects(c) & !later;
                later |= aspects(c);
            }
        }
        // Only the leading run is absorbed into the load ops.
        let absorbed = if start == 0 { absorbed } else { 0 };
        let mut kept_aspects = 0u8;
        for i in start..end {
            // A query's ops stay where they were recorded.
            if matches!(ops[i], PassOp::Query(_)) {
                kept.push(i);
                continue;
            }
            let PassOp::Clear(c) = &ops[i] else { continue };
            let remaining = scratch[i - start] & !(absorbed & !kept_aspects);
            if remaining != 0 {
                kept.push(i);
                kept_aspects |= aspects(c);
            }
        }
        start = end;
    }
    leading
}

/// The load op of an attachment that no clear covers.
pub(crate) fn preserved_load(target: &TextureState, start: SegmentStart) -> LoadOp {
    let preserves = target.desc().render_target.is_some_and(|rt| rt.usage.preserves_contents());
    if start == SegmentStart::Continue || preserves {
        LoadOp::Load
    } else {
        LoadOp::DontCare
    }
}

/// A LOAD of content that does not exist loads nothing: it becomes DONT_CARE.
pub(crate) fn settle_load(load: &mut LoadOp, content_defined: bool) {
    if matches!(load, LoadOp::Load) && !content_defined {
        *load = LoadOp::DontCare;
    }
}

fn depth_aspects(segment: &PassSegment) -> u8 {
    let format = segment.colors.first().map(|c| c.target.desc().depth_format());
    match format {
        Some(f) if f.has_stencil() => DEPTH | STENCIL,
        Some(f) if f.has_depth() => DEPTH,
        _ => 0,
    }
}

/// Decides every attachment's load op and each pass's in-pass ops.
pub(crate) fn derive_load_ops(frame: &FrameCommands, nodes: &mut [PlanNode]) {
    let (mut scratch, mut kept) = (Vec::new(), Vec::new());
    for node in nodes {
        let PlanNodeKind::Pass(pass) = &mut node.kind else {
            continue;
        };
        let Some(Node::Pass(segment)) = frame.nodes.get(pass.segment) else {
            continue;
        };
        let aspects = depth_aspects(segment);
        let start_clear = discard_bind_clear(segment.start, aspects);
        let leading = plan_clears(&segment.ops, start_clear, aspects, &mut scratch, &mut kept);
        let n = segment.colors.len();
        pass.ops.clear();
        pass.ops.extend(kept.iter().map(|&index| {
            let op = &segment.ops[index];
            PlannedOp::alone(index, op, op_writes(op, n))
        }));
        for (att, binding) in pass.colors.iter_mut().zip(&segment.colors) {
            debug_assert_eq!(att.image, color_image(binding));
            att.load = match leading.color {
                Some(c) => LoadOp::Clear(ClearValue::Color(c)),
                None => preserved_load(&binding.target, segment.start),
            };
        }
        if let Some(depth) = &mut pass.depth {
            depth.load = match leading.depth_stencil {
                Some(value) => LoadOp::Clear(value),
                None => preserved_load(&depth.texture, segment.start),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;
    use crate::compile::testkit::*;
    use crate::format::DepthFormat;
    use crate::plan::{Image, StoreOp};

    fn kept(ops: &[PassOp], depth: u8) -> (LeadingClear, Vec<usize>) {
        let mut kept = Vec::new();
        (plan_clears(ops, None, depth, &mut Vec::new(), &mut kept), kept)
    }

    #[test]
    fn discard_bind_clears_to_black_depth_one_stencil_zero_and_samples_are_not_stored() {
        let t = texture(4, 4, 1);
        for format in [DepthFormat::Depth24, DepthFormat::Depth24Stencil8] {
            let rt = target_with_depth(8, 4, format, DISCARD);
            // Nothing but the bind and a draw is recorded: the bind alone is the clear.
            let plan = compile(frame(vec![bind(&rt, vec![draw(&t)]), unbind()]));
            let p = pass(&plan, 0);
            assert_eq!(p.colors[0].image, Image::Samples);
            assert_eq!(p.colors[0].load, clear_of(BLACK));
            assert_eq!(p.colors[0].store, StoreOp::DontCare);
            assert!(p.colors[0].resolve);
            let depth = p.depth.as_ref().unwrap();
            let one_zero = ClearValue::DepthStencil { depth: 1.0, stencil: 0 };
            assert_eq!(depth.load, LoadOp::Clear(one_zero), "{format:?}");
            assert_eq!(depth.store, StoreOp::DontCare);
            assert_eq!(ops(&plan, 0), [0], "the draw is the pass's only op");
        }
    }

    #[test]
    fn the_discard_bind_clear_covers_only_the_aspects_that_exist() {
        let start = SegmentStart::Bind { usage: crate::RenderTargetUsage::DiscardContents };
        let black = Some([0.0, 0.0, 0.0, 1.0]);
        let none = discard_bind_clear(start, 0).unwrap();
        assert_eq!((none.color, none.depth, none.stencil), (black, None, None));
        let depth = discard_bind_clear(start, DEPTH).unwrap();
        assert_eq!((depth.depth, depth.stencil), (Some(1.0), None));
        let both = discard_bind_clear(start, DEPTH | STENCIL).unwrap();
        assert_eq!((both.depth, both.stencil), (Some(1.0), Some(0)));
        for kept in [
            SegmentStart::Bind { usage: crate::RenderTargetUsage::PreserveContents },
            SegmentStart::Bind { usage: crate::RenderTargetUsage::PlatformContents },
            SegmentStart::Implicit,
            SegmentStart::Continue,
        ] {
            assert_eq!(discard_bind_clear(kept, DEPTH | STENCIL), None, "{kept:?}");
        }
    }

    #[test]
    fn an_explicit_clear_after_a_discard_bind_overrides_it_aspect_by_aspect() {
        let t = texture(4, 4, 1);
        let rt = target_with_depth(8, 0, DepthFormat::Depth24Stencil8, DISCARD);
        let depth_half = clear(None, Some(0.5), None);
        let plan = compile(frame(vec![bind(&rt, vec![depth_half, draw(&t)]), unbind()]));
        let p = pass(&plan, 0);
        assert_eq!(p.colors[0].load, clear_of(BLACK), "colour from the bind");
        let depth = p.depth.as_ref().unwrap().load;
        let expected = ClearValue::DepthStencil { depth: 0.5, stencil: 0 };
        assert_eq!(depth, LoadOp::Clear(expected), "depth from the clear, stencil from the bind");
        assert_eq!(ops(&plan, 0), [1], "the depth clear is absorbed with the bind's stencil");
    }

    #[test]
    fn preserve_contents_target_loads_on_rebind() {
        let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, PRESERVE));
        let plan = compile(frame(vec![
            bind(&rt, vec![clear_color(RED), draw(&t)]),
            bind(&t_other(), vec![draw(&t)]),
            bind(&rt, vec![draw(&t)]),
        ]));
        assert_eq!(pass(&plan, 0).colors[0].load, clear_of(RED));
        assert_eq!(pass(&plan, 2).colors[0].load, LoadOp::Load);
    }

    fn t_other() -> std::sync::Arc<TextureState> {
        target(2, 2, 0, DISCARD)
    }

    #[test]
    fn platform_contents_preserves_like_preserve_contents() {
        let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, PLATFORM));
        let plan = compile(frame(vec![bind(&rt, vec![draw(&t)]), bind(&rt, vec![draw(&t)])]));
        // The first bind has nothing to load yet; the second loads what the first drew.
        assert_eq!(pass(&plan, 0).colors[0].load, LoadOp::DontCare);
        assert_eq!(pass(&plan, 1).colors[0].load, LoadOp::Load);
    }

    #[test]
    fn discard_contents_rebind_clears_to_black_and_does_not_load() {
        let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![bind(&rt, vec![draw(&t)]), bind(&rt, vec![draw(&t)])]));
        // Nothing observes the first pass: the rebind clears what it drew, and it is culled.
        assert_eq!(kinds(&plan), ["pass"]);
        assert_eq!(pass(&plan, 0).segment, 1);
        assert_eq!(pass(&plan, 0).colors[0].load, clear_of(BLACK));
    }

    #[test]
    fn continued_segment_loads_what_its_bind_cycle_drew() {
        let (t, rt) = (texture(4, 4, 1), target(4, 4, 4, DISCARD));
        let plan = compile(frame(vec![
            bind(&rt, vec![clear_color(RED), draw(&t)]),
            upload(&t, 0, 0),
            resume(&rt, vec![draw(&t)]),
        ]));
        assert_eq!(pass(&plan, 2).colors[0].load, LoadOp::Load);
        assert_eq!(pass(&plan, 0).colors[0].store, StoreOp::Store, "samples kept for the resume");
        assert!(!pass(&plan, 0).colors[0].resolve, "the resumed segment resolves instead");
        assert!(pass(&plan, 2).colors[0].resolve);
    }

    #[test]
    fn load_of_never_written_content_is_dont_care() {
        let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, PRESERVE));
        let plan = compile(frame(vec![bind(&rt, vec![draw(&t)])]));
        assert_eq!(pass(&plan, 0).colors[0].load, LoadOp::DontCare);
        // Next frame the content exists.
        let plan = compile(frame(vec![bind(&rt, vec![draw(&t)])]));
        assert_eq!(pass(&plan, 0).colors[0].load, LoadOp::Load);
    }

    #[test]
    fn redundant_clears_merge() {
        let t = texture(1, 1, 1);
        let ops = [clear_color(RED), clear(Some(BLUE), Some(0.5), Some(3)), draw(&t)];
        let (leading, kept_ops) = kept(&ops, DEPTH | STENCIL);
        assert_eq!(leading.color, Some(BLUE));
        assert_eq!(
            leading.depth_stencil,
            Some(ClearValue::DepthStencil { depth: 0.5, stencil: 3 })
        );
        assert_eq!(kept_ops, [2]);
        // After a draw, consecutive clears collapse to the last one but stay in the pass.
        let ops = [draw(&t), clear_color(RED), clear_color(BLUE), draw(&t), clear_color(RED)];
        let (leading, kept_ops) = kept(&ops, 0);
        assert_eq!(leading, LeadingClear::default());
        assert_eq!(kept_ops, [0, 2, 3, 4]);
    }

    #[test]
    fn clear_of_depth_only_on_a_stencil_format_stays_in_the_pass() {
        let t = texture(1, 1, 1);
        let ops = [clear(Some(RED), Some(1.0), None), clear_color(BLUE), draw(&t)];
        let (leading, kept_ops) = kept(&ops, DEPTH | STENCIL);
        assert_eq!(leading.color, Some(BLUE));
        assert_eq!(leading.depth_stencil, None);
        // The first clear must run for its depth; the later colour clear must then run after it.
        assert_eq!(kept_ops, [0, 1, 2]);
    }

    /// The same through the whole compile: the depth attachment of a depth/stencil target keeps
    /// its stencil, so a depth-only clear runs in the pass over the loaded content.
    #[test]
    fn a_depth_only_clear_of_a_stencil_target_loads_and_clears_in_the_pass() {
        let t = texture(1, 1, 1);
        let rt = target_with_depth(4, 0, DepthFormat::Depth24Stencil8, PRESERVE);
        let _ = compile(frame(vec![bind(&rt, vec![clear_all(RED), draw(&t)])]));
        let plan = compile(frame(vec![bind(&rt, vec![clear(None, Some(0.5), None), draw(&t)])]));
        assert_eq!(pass(&plan, 0).depth.as_ref().unwrap().load, LoadOp::Load);
        assert_eq!(ops(&plan, 0), [0, 1]);
    }

    #[test]
    fn mrt_bind_clears_by_the_first_targets_usage_and_each_loads_by_its_own() {
        let t = texture(1, 1, 1);
        let (a, b) = (target(4, 4, 0, DISCARD), target(4, 4, 0, PRESERVE));
        // The readback of `b` is what keeps the first two passes observed.
        let plan = compile(frame(vec![
            bind_many(&[&a, &b], vec![clear_color(RED), draw(&t)]),
            bind_many(&[&b, &a], vec![draw(&t)]),
            unbind(),
            readback(&b, 0, 0),
            bind_many(&[&a, &b], vec![draw(&t)]),
        ]));
        assert_eq!(kinds(&plan), ["pass", "pass", "clear", "readback", "pass"]);
        let first = pass(&plan, 0);
        assert!(first.colors.iter().all(|c| c.load == clear_of(RED)));
        // A preserving first target: no bind clear; each attachment by its own usage.
        let second = pass(&plan, 1);
        assert_eq!(second.colors[0].load, LoadOp::Load, "b preserves");
        assert_eq!(second.colors[1].load, LoadOp::DontCare, "a discards");
        // A discarding first target clears every attachment, preserving or not.
        let third = pass(&plan, 4);
        assert!(third.colors.iter().all(|c| c.load == clear_of(BLACK)));
        assert_eq!(first.colors[0].store, StoreOp::DontCare, "a is not loaded again");
        assert_eq!(first.colors[1].store, StoreOp::Store, "b is loaded by the second bind");
    }

    #[test]
    fn clear_after_draws_stays_in_the_pass() {
        let (t, rt) = (texture(1, 1, 1), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![bind(&rt, vec![draw(&t), clear_color(RED), draw(&t)])]));
        let p = pass(&plan, 0);
        assert_eq!(p.colors[0].load, clear_of(BLACK), "the discarding bind");
        assert_eq!(ops(&plan, 0), [0, 1, 2]);
    }

    #[test]
    fn explicit_clear_wins_over_usage_aspect_by_aspect() {
        let t = texture(1, 1, 1);
        let rt = target_with_depth(4, 0, DepthFormat::Depth24, PRESERVE);
        let depth_only = clear(None, Some(1.0), None);
        let plan = compile(frame(vec![
            bind(&rt, vec![clear_all(BLACK), draw(&t)]),
            bind(&target(4, 4, 0, DISCARD), vec![draw(&t)]),
            bind(&rt, vec![depth_only, draw(&t)]),
        ]));
        let p = pass(&plan, 2);
        assert_eq!(p.colors[0].load, LoadOp::Load, "colour is preserved");
        assert!(matches!(p.depth.as_ref().unwrap().load, LoadOp::Clear(_)), "depth is cleared");
        assert_eq!(ops(&plan, 2), [1]);
    }
}
