//! The render-graph compiler: [`FrameCommands`] → [`FramePlan`].
//!
//! One frame goes through ten stages, one module each, every decision made once:
//!
//! 0. [`present`] — for a device with a window, whether the frame draws straight into the
//!    swapchain image, into the offscreen back buffer that the present copies, or presents
//!    nothing (a window without area).
//! 1. [`nodes`] — every recorded node becomes a plan node, in recording order; the dependency
//!    DAG of per-subresource hazards is derived from the nodes.
//! 2. [`load`] — leading clears become CLEAR load ops, preserved content LOADs, the rest is
//!    DONT_CARE; redundant clears leave the pass.
//! 3. [`store`] — STORE what a later node or a later frame can observe, resolve multisampled
//!    colour that is observed, drop the rest.
//! 4. `cull` — the dependency DAG is built over the nodes; liveness flows back from what the
//!    frame leaves behind (readbacks, presents, stored content that survives it) along the
//!    read-after-write edges, and nodes whose results nothing observes leave the plan (among
//!    them uploads a later whole-subresource upload overwrites before any use).
//! 5. [`mips`] — a cascade after the last pass that renders a mipmapped target's layer, before
//!    its next read.
//! 6. [`clears`] — a pass left with nothing to execute but its CLEAR load ops becomes transfer
//!    clears of the images whose content is observed, or nothing.
//! 7. [`instances`] — a run of consecutive BasicEffect draws that differ only in the effect's
//!    values becomes one instanced draw (when the frame asks for it).
//! 8. [`barriers`] — per-subresource tracking (carried across frames in [`track`]), one batch of
//!    barriers per node; LOADs of content that does not exist become DONT_CARE here.
//!    Buffers get theirs in `buffers`: per-range hazards, and whether a `Discard` write renames
//!    its buffer.
//! 9. [`transient`] — which multisample and depth/stencil images neither take content into the
//!    frame nor leave any behind, so that they may share memory where their uses do not overlap
//!    (when the frame asks for it, their first barriers wait for whatever used that memory).
//! 10. [`output`] — the plan as text and as DOT; [`cost`] counts what it loads, stores and syncs.
//!
//! What each node touches is written once, in `access`, for the barriers and the DAG alike.
//!
//! Every stage runs inside a `tracing` span and a `puffin` scope named `compile::<stage>`,
//! nested in one `compile` span; the caller's span carries the frame number.
//!
//! Under [`CompilePolicy::FrameBlind`] stages 3, 4 and 6 give way to `blind` (every attachment
//! LOADed unless cleared, STOREd and resolved) and stage 5 places a cascade after every segment,
//! so that both policies can run the same frame and be compared.

mod access;
pub mod barriers;
mod blind;
mod buffers;
pub mod clears;
pub mod cost;
mod cull;
pub mod instances;
pub mod load;
pub mod mips;
pub mod nodes;
pub mod output;
pub mod present;
pub mod store;
pub mod track;
pub mod transient;

#[cfg(test)]
mod depth_transfer_tests;
#[cfg(test)]
mod sample_transfer_tests;
#[cfg(test)]
pub(crate) mod testkit;

pub use cost::{attachment_bytes, frame_blind_cost, node_cost};
pub use nodes::{dependency_graph, Hazard, Hazards};
pub use output::to_dot;
pub use track::TrackingCommit;

use crate::commands::FrameCommands;
use crate::plan::FramePlan;

/// Runs one compile stage inside a `tracing` span (DEBUG) and a `puffin` scope of the same
/// name. With no subscriber interested in the span and puffin's scopes off (its default), each
/// costs a relaxed atomic load; stages are whole passes over the frame, never per node.
macro_rules! stage {
    ($name:literal, $body:expr) => {{
        let _span = tracing::debug_span!($name).entered();
        crate::profile_scope!($name);
        $body
    }};
}

/// Which policy decides the loads, stores, resolves and cascades of a plan (not XNA: a choice of
/// xnagraph's frame compiler, through `DeviceOptions::compile_policy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum CompilePolicy {
    /// The compiler's own: the whole frame decides every load, store, resolve, cascade and
    /// culled node (the stages above).
    #[default]
    Graph,
    /// What a driver that sees one call at a time must do (FNA3D's SDL_GPU driver, for one):
    /// CLEAR when a clear is pending at the start of a segment, otherwise LOAD; always STORE,
    /// multisample samples and depth included; every multisampled attachment resolves; a cascade
    /// after every segment that renders a mipmapped target; nothing culled. Resolves, cascades
    /// and barriers stay correct, so both policies give the same pixels; benchmarks and tests run
    /// it to measure what the compiler saves.
    FrameBlind,
}

/// Compiles one frame for submission. Cross-frame state (per-subresource access, whether content
/// exists) lives in each texture state's tracker; the returned [`TrackingCommit`] holds it
/// advanced to the end of the plan. Commit it once the backend has accepted the plan, before the
/// next compile; drop it when the submission failed, so that the next frame starts from the
/// state the GPU really reached.
pub fn compile_for_submission(frame: FrameCommands) -> (FramePlan, TrackingCommit) {
    compile_for_submission_with(frame, CompilePolicy::Graph)
}

/// [`compile_for_submission`] under `policy`.
pub fn compile_for_submission_with(
    mut frame: FrameCommands,
    policy: CompilePolicy,
) -> (FramePlan, TrackingCommit) {
    let _compile = tracing::debug_span!("compile", ?policy).entered();
    crate::profile_scope!("compile");
    frame.presentation = stage!("compile::present", present::decide_present_mode(&frame));
    let mut nodes = stage!("compile::nodes", nodes::recorded_nodes(&frame));
    stage!("compile::load", load::derive_load_ops(&frame, &mut nodes));
    let mut nodes = match policy {
        CompilePolicy::Graph => {
            stage!("compile::store", store::derive_store_ops(&frame, &mut nodes));
            stage!("compile::cull", cull::cull_unobserved(&frame, &mut nodes));
            let mut nodes = stage!(
                "compile::mips",
                mips::insert_mip_cascades(&frame, nodes, mips::Placement::SegmentRun)
            );
            stage!("compile::clears", clears::lower_clear_only_passes(&mut nodes));
            nodes
        }
        CompilePolicy::FrameBlind => {
            stage!("compile::blind", blind::apply_frame_blind_ops(&mut nodes));
            stage!(
                "compile::mips",
                mips::insert_mip_cascades(&frame, nodes, mips::Placement::EverySegment)
            )
        }
    };
    stage!("compile::instances", instances::merge_instance_runs(&frame, &mut nodes));
    let mut tracker = track::FrameTracker::default();
    stage!("compile::barriers", barriers::derive_barriers(&frame, &mut nodes, &mut tracker));
    let mut buffer_tracker = buffers::BufferTracker::default();
    stage!(
        "compile::buffers",
        buffers::derive_buffer_barriers(&frame, &mut nodes, &mut buffer_tracker)
    );
    let transients =
        stage!("compile::transient", transient::find_transients(&frame, &mut nodes, &mut tracker));
    let cost = stage!("compile::cost", cost::plan_cost(&frame, &nodes));
    (
        FramePlan { frame, nodes, cost, transients },
        tracker.into_commit().with_buffers(buffer_tracker.into_entries()),
    )
}

/// Compiles one frame and commits its tracked state at once: for callers that execute every
/// plan they compile (tests, tools). A caller whose submission can fail uses
/// [`compile_for_submission`].
pub fn compile(frame: FrameCommands) -> FramePlan {
    compile_with(frame, CompilePolicy::Graph)
}

/// [`compile`] under `policy`.
pub fn compile_with(frame: FrameCommands, policy: CompilePolicy) -> FramePlan {
    let (plan, tracking) = compile_for_submission_with(frame, policy);
    tracking.commit();
    plan
}

#[cfg(test)]
mod tests {
    use super::testkit::*;
    use super::*;
    use crate::commands::PassOp;
    use crate::format::{DepthFormat, SurfaceFormat};
    use crate::plan::{Access, ClearValue, Image, LoadOp, StoreOp};

    /// DESIGN.md's worked example: a 4x HDR scene, a half-size target, the back buffer.
    #[test]
    fn worked_example_scene_half_back_buffer() {
        let (w, h) = (64, 32);
        let sprite = texture(4, 4, 1);
        let scene = render_target(
            w,
            h,
            1,
            1,
            SurfaceFormat::HdrBlendable,
            4,
            DepthFormat::Depth24Stencil8,
            DISCARD,
            false,
        );
        let half = target(w / 2, h / 2, 0, DISCARD);
        let bb = back_buffer(w, h, DISCARD);
        scene.set_name("scene");
        half.set_name("half");
        let draws = |t| -> Vec<PassOp> { (0..3).map(|_| draw(t)).collect() };
        let f = frame(vec![
            upload(&sprite, 0, 0),
            bind(&scene, draws(&sprite)),
            bind(&half, vec![draw(&scene)]),
            bind(&bb, vec![draw(&half)]),
            present(&bb),
        ]);
        let blind = frame_blind_cost(&f);
        let plan = compile(f);
        assert_eq!(kinds(&plan), ["upload", "pass", "pass", "pass", "present"]);

        // Node 1: scene.
        let p = pass(&plan, 1);
        assert_eq!(ops(&plan, 1), [0, 1, 2], "the draws; the bind is the load op");
        let samples = &p.colors[0];
        assert_eq!((samples.image, samples.load), (Image::Samples, clear_of(BLACK)));
        assert_eq!(samples.store, StoreOp::DontCare, "nothing loads a discard target's samples");
        assert!(samples.resolve, "node 2 samples the resolved image");
        let depth = p.depth.as_ref().unwrap();
        assert_eq!(depth.load, LoadOp::Clear(ClearValue::DepthStencil { depth: 1.0, stencil: 0 }));
        assert_eq!(depth.store, StoreOp::DontCare, "depth is never sampled");

        // Node 2: half.
        let p = pass(&plan, 2);
        let a = &p.colors[0];
        assert_eq!(
            (a.image, a.load, a.store, a.resolve),
            (Image::Color, clear_of(BLACK), StoreOp::Store, false)
        );
        assert!(p.depth.is_none());
        let expected = (
            scene.id().0,
            Image::Color,
            0..1,
            0..1,
            Access::ColorAttachmentWrite,
            Access::FragmentSampled,
            false,
        );
        assert!(barriers(&plan, 2).contains(&expected));

        // Node 3: back buffer, bound again with its DiscardContents presentation usage.
        let p = pass(&plan, 3);
        let a = &p.colors[0];
        assert_eq!((a.load, a.store), (clear_of(BLACK), StoreOp::Store));
        let expected = (
            half.id().0,
            Image::Color,
            0..1,
            0..1,
            Access::ColorAttachmentWrite,
            Access::FragmentSampled,
            false,
        );
        assert!(barriers(&plan, 3).contains(&expected));
        assert_eq!(
            barriers(&plan, 4),
            [(
                bb.id().0,
                Image::Color,
                0..1,
                0..1,
                Access::ColorAttachmentWrite,
                Access::Present,
                false
            )]
        );

        // The whole table, as the plan prints it.
        let table = "\
1: pass segment 1 -> t1 ops [0, 1, 2] \"pass scene\"
  barrier t0.color levels 0..1 layers 0..1 TransferWrite -> FragmentSampled
  barrier t1.samples levels 0..1 layers 0..1 Nothing -> ColorAttachmentWrite discard
  barrier t1.color levels 0..1 layers 0..1 Nothing -> ColorAttachmentWrite discard
  barrier t1.depth levels 0..1 layers 0..1 Nothing -> DepthStencilAttachmentReadWrite discard
  color t1.samples layer 0 load clear(0 0 0 1) store dont-care resolve
  depth t1.depth layer 0 load clear(depth 1 stencil 0) store dont-care
2: pass segment 2 -> t2 ops [0] \"pass half\"
  barrier t1.color levels 0..1 layers 0..1 ColorAttachmentWrite -> FragmentSampled
  barrier t2.color levels 0..1 layers 0..1 Nothing -> ColorAttachmentWrite discard
  color t2.color layer 0 load clear(0 0 0 1) store store
3: pass segment 3 -> t3 ops [0] \"pass back buffer\"
  barrier t2.color levels 0..1 layers 0..1 ColorAttachmentWrite -> FragmentSampled
  barrier t3.color levels 0..1 layers 0..1 Nothing -> ColorAttachmentWrite discard
  color t3.color layer 0 load clear(0 0 0 1) store store
4: present node 4 t3 \"present back buffer\"
  barrier t3.color levels 0..1 layers 0..1 ColorAttachmentWrite -> Present
";
        let text = plan.to_string();
        assert!(text.ends_with(table), "{text}");

        // Costs: the blind policy stores the 4x samples and the depth (48 bytes per pixel).
        let pixels = u64::from(w * h);
        assert_eq!(plan.cost.bytes_loaded, 0);
        assert_eq!(plan.cost.bytes_stored, pixels * 8 + pixels / 4 * 4 + pixels * 4);
        assert_eq!(blind.bytes_stored - plan.cost.bytes_stored, pixels * (4 * 8 + 4 * 4));
        assert_eq!(plan.cost.nodes, 5);
    }

    /// A frame whose submission failed never ran: the next frame's barriers start from the
    /// state the last committed plan left, not from the one the failed plan would have.
    #[test]
    fn a_plan_whose_submission_failed_leaves_tracked_state_as_it_was() {
        let t = texture(4, 4, 1);
        let (plan, tracking) = compile_for_submission(frame(vec![upload(&t, 0, 0)]));
        assert_eq!(barriers(&plan, 0)[0].4, Access::Nothing);
        assert!(!tracking.is_empty());
        drop((plan, tracking)); // the backend refused it

        let (plan, tracking) = compile_for_submission(frame(vec![readback(&t, 0, 0)]));
        assert_eq!(
            barriers(&plan, 0),
            [(t.id().0, Image::Color, 0..1, 0..1, Access::Nothing, Access::TransferRead, true)],
            "the refused upload never happened"
        );
        tracking.commit();

        let (plan, _) = compile_for_submission(frame(vec![upload(&t, 0, 0)]));
        assert_eq!(
            barriers(&plan, 0),
            [(
                t.id().0,
                Image::Color,
                0..1,
                0..1,
                Access::TransferRead,
                Access::TransferWrite,
                true
            )],
            "the committed readback did"
        );
    }

    #[test]
    fn empty_frame_compiles_to_an_empty_plan() {
        let plan = compile(FrameCommands::default());
        assert!(plan.nodes.is_empty());
        assert_eq!(plan.cost, crate::plan::PlanCost::default());
    }

    #[test]
    fn malformed_segments_do_not_panic() {
        use crate::commands::{Node, PassSegment, SegmentStart};
        let t = texture(4, 4, 1);
        let empty = Node::Pass(PassSegment {
            colors: vec![],
            start: SegmentStart::Bind { usage: crate::RenderTargetUsage::DiscardContents },
            ops: vec![draw(&t)],
        });
        let mut f = frame(vec![readback(&t, 7, 9), upload(&t, 3, 0)]);
        f.nodes.insert(0, empty);
        let plan = compile(f);
        assert_eq!(plan.nodes.len(), 2, "the pass without attachments writes nothing");
        let _ = plan.to_string();
        let _ = to_dot(&plan);
    }

    /// 256 segments, each binding a target, clearing it and drawing four sprites that sample
    /// the previous segment's target. Run with
    /// `cargo test --release -p xnagraph-graph -- --ignored --nocapture compile_256_segments`.
    #[test]
    #[ignore]
    fn compile_256_segments_timing() {
        let sprite = texture(4, 4, 1);
        let targets: Vec<_> = (0..257).map(|_| target(256, 256, 0, DISCARD)).collect();
        let build = || {
            let mut nodes = Vec::with_capacity(256);
            for i in 1..=256 {
                let prev = &targets[i - 1];
                let ops =
                    vec![clear_color(BLACK), draw(&sprite), draw(prev), draw(&sprite), draw(prev)];
                nodes.push(bind(&targets[i], ops));
            }
            frame(nodes)
        };
        let mut times = Vec::with_capacity(200);
        for _ in 0..200 {
            let f = build();
            let start = std::time::Instant::now();
            let plan = compile(f);
            times.push(start.elapsed());
            assert_eq!(plan.nodes.len(), 256);
        }
        times.sort();
        let (best, median, worst) = (times[0], times[100], times[199]);
        println!(
            "compile of a 256-segment frame: best {best:?}, median {median:?}, worst {worst:?}"
        );
    }
}
