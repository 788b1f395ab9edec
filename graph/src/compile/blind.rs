//! The frame-blind policy, as a real plan: what a driver that sees one call at a time must do.
//!
//! In: the passes of stage 2 with their load ops and in-pass clears. Out: the same passes with
//! the frame-blind load and store ops ([`CompilePolicy::FrameBlind`](super::CompilePolicy)).
//!
//! Per attachment: CLEAR when a clear is pending at the start of the segment (the load stage's
//! CLEAR stands), otherwise LOAD — the driver cannot know that nothing reads the old content;
//! always STORE, multisample samples and depth included — it cannot know that nothing reads them
//! later; a multisampled colour attachment always resolves. No node is culled, no clear-only pass
//! becomes a transfer clear, and every segment that renders a mipmapped target is followed by
//! its cascade. Barriers are derived as for the graph's own policy, so the plan is as correct
//! as it; it only does more work. [`frame_blind_cost`](super::frame_blind_cost) estimates the
//! same policy from the recorded frame alone.

use crate::plan::{Image, LoadOp, PlanNode, PlanNodeKind, StoreOp};

/// Rewrites the load ops that are not CLEARs to LOAD, every store op to STORE, and resolves
/// every multisampled colour attachment.
pub(crate) fn apply_frame_blind_ops(nodes: &mut [PlanNode]) {
    for node in nodes {
        let PlanNodeKind::Pass(pass) = &mut node.kind else {
            continue;
        };
        for att in pass.colors.iter_mut().chain(pass.depth.iter_mut()) {
            if att.load == LoadOp::DontCare {
                att.load = LoadOp::Load;
            }
            att.store = StoreOp::Store;
            att.resolve = att.image == Image::Samples;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::compile::testkit::*;
    use crate::compile::{compile, compile_with, frame_blind_cost, CompilePolicy};
    use crate::format::{DepthFormat, SurfaceFormat};
    use crate::plan::{ClearValue, Image, LoadOp, StoreOp};

    fn blind(steps: Vec<Step>) -> crate::plan::FramePlan {
        compile_with(frame(steps), CompilePolicy::FrameBlind)
    }

    /// The worked example under both policies: the frame-blind plan stores the samples and the
    /// depth the graph drops, and its cost is what the estimate from the recorded frame says.
    #[test]
    fn frame_blind_plan_stores_samples_and_depth_and_costs_what_the_estimate_says() {
        let sprite = texture(4, 4, 1);
        let scene = render_target(
            16,
            8,
            1,
            1,
            SurfaceFormat::HdrBlendable,
            4,
            DepthFormat::Depth24Stencil8,
            DISCARD,
            false,
        );
        let half = target(8, 4, 0, DISCARD);
        let bb = back_buffer(16, 8, DISCARD);
        let steps = || {
            vec![
                bind(&scene, vec![draw(&sprite), draw(&sprite)]),
                bind(&half, vec![draw(&scene)]),
                bind(&bb, vec![draw(&half)]),
                present(&bb),
            ]
        };
        let estimate = frame_blind_cost(&frame(steps()));
        let plan = blind(steps());
        assert_eq!(kinds(&plan), ["pass", "pass", "pass", "present"]);
        let p = pass(&plan, 0);
        let black = ClearValue::DepthStencil { depth: 1.0, stencil: 0 };
        let (samples, depth) = (&p.colors[0], p.depth.as_ref().unwrap());
        assert_eq!(
            (samples.image, samples.load, samples.store),
            (Image::Samples, clear_of(BLACK), StoreOp::Store)
        );
        assert!(samples.resolve);
        assert_eq!((depth.load, depth.store), (LoadOp::Clear(black), StoreOp::Store));
        assert_eq!(
            (plan.cost.bytes_loaded, plan.cost.bytes_stored),
            (estimate.bytes_loaded, estimate.bytes_stored)
        );
        let graph = compile(frame(steps()));
        assert_eq!(pass(&graph, 0).colors[0].store, StoreOp::DontCare);
        assert!(graph.cost.bytes_stored < plan.cost.bytes_stored);
    }

    /// Without a pending clear the frame-blind policy loads what the graph does not care about,
    /// and keeps a pass whose results nothing observes.
    #[test]
    fn frame_blind_plan_loads_without_a_pending_clear_and_stores_samples() {
        let t = texture(4, 4, 1);
        let rt = target(8, 8, 0, DISCARD);
        let unseen = target(8, 8, 4, DISCARD);
        // A first frame gives the target content, so that the load is not settled away.
        let _ = blind(vec![bind(&rt, vec![clear_color(RED), draw(&t)]), readback(&rt, 0, 0)]);
        let steps = || {
            vec![
                bind(&rt, vec![draw(&t)]),
                upload(&t, 0, 0),
                resume(&rt, vec![draw(&t)]),
                bind(&unseen, vec![draw(&t)]),
                unbind(),
                readback(&rt, 0, 0),
            ]
        };
        let plan = blind(steps());
        let all = ["pass", "upload", "pass", "pass", "pass", "readback"];
        assert_eq!(kinds(&plan), all, "the back buffer's empty pass included");
        assert_eq!(pass(&plan, 0).colors[0].load, clear_of(BLACK), "the discarding bind");
        assert_eq!(pass(&plan, 2).colors[0].load, LoadOp::Load, "the continued cycle");
        assert_eq!(pass(&plan, 3).colors[0].load, clear_of(BLACK));
        assert_eq!(pass(&plan, 3).colors[0].store, StoreOp::Store, "nothing loads the samples");
        let graph = compile(frame(steps()));
        assert_eq!(pass(&graph, 3).colors[0].store, StoreOp::DontCare);
    }

    /// A cascade after every segment that renders a mipmapped target, where the graph has one
    /// per run of segments.
    #[test]
    fn frame_blind_plan_cascades_after_every_segment() {
        let t = texture(4, 4, 1);
        let rt = mipmapped_target(8, 4, PRESERVE);
        let steps = || {
            vec![
                bind(&rt, vec![clear_color(RED), draw(&t)]),
                bind(&rt, vec![draw(&t)]),
                readback(&rt, 1, 0),
            ]
        };
        assert_eq!(kinds(&blind(steps())), ["pass", "mips", "pass", "mips", "readback"]);
        assert_eq!(kinds(&compile(frame(steps()))), ["pass", "pass", "mips", "readback"]);
    }
}
