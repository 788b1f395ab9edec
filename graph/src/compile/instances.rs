//! Stage 7, instances: runs of draws that differ only in their stock effect's values become one
//! instanced draw.
//!
//! In: the plan's nodes, every pass's ops decided (stages 2–6), and whether the frame asks for
//! merging ([`FrameCommands::merge_instances`], `DeviceOptions::auto_instancing`). Out: the same
//! nodes where each run of two or more consecutive planned draws that a merge cannot tell apart
//! is one [`PlannedOp`] whose [`PlannedOp::instances`] counts the run and
//! [`PlannedOp::repeats`] its draws' repeats: the backend draws the first draw's buffers once
//! per draw and repeat of the run, instance `i` reading the `i`th one's own values (transform,
//! World, material colours: [`BASIC_INSTANCE_PARTS`](crate::geometry::BASIC_INSTANCE_PARTS))
//! from a per-frame buffer of instances, and what the run shares from the first draw's uniform
//! block.
//!
//! A device that merges also merges as it records: a draw that the last draw of its segment
//! could merge with becomes one of that draw's [`GeometryDraw::repeats`] (its transform and
//! block only), so a run of ten thousand draws reaches the compiler as one draw and costs every
//! stage one op. A draw with repeats is drawn as one instanced draw whether or not its frame
//! asks for merging (the run is a recorded fact, and a capture replays it so). This stage
//! merges what recording did not: runs in a capture of separately recorded draws, and runs
//! a test builds by hand.
//!
//! XNA teaches drawing a mesh many times as set World, apply, DrawIndexedPrimitives, once per
//! object: thousands of draws a frame that each differ only in a few matrices and colours. What
//! the run must share, draw by draw, so that one instanced draw gives the same pixels:
//! - a BasicEffect draw ([`StockShader::Basic`](crate::geometry::StockShader::Basic), the one
//!   stock effect with an instanced stage pair), of one instance, whose vertex streams are all
//!   per vertex (no instance data of its own);
//! - the same pipeline: states, stock variant, vertex layout, topology;
//! - the same eye position, fog colour, lights and options: what a draw may change in a run is
//!   what XNA sets per object, World and the material colours
//!   ([`StockMaterial::shares_run_values`](crate::geometry::StockMaterial::shares_run_values));
//! - the same vertex streams (buffer and offset, or arena range), indices and draw call;
//! - the same textures and samplers, viewport and scissor.
//!
//! Only draws next to each other in the segment merge: an op between them (a clear, a query, a
//! draw that differs) ends the run, so the merged draw lands where its draws were and the order
//! of everything else is kept. Within a run, instance order is draw order, and the GPU rasterises
//! instances in order, so blending and depth ties resolve as they did.

use std::sync::Arc;

use crate::commands::{Draw, FrameCommands, Node, PassOp};
use crate::geometry::{GeometryDraw, IndexSource, VertexSource};
use crate::plan::{PlanNode, PlanNodeKind, PlannedOp};

/// The most draws one merged op draws, repeats included (bounds the frame's buffer of instances
/// per draw).
pub const MAX_RUN: u32 = 1 << 16;

/// Merges the runs of every pass when the frame asks for it.
pub fn merge_instance_runs(frame: &FrameCommands, nodes: &mut [PlanNode]) {
    if !frame.merge_instances {
        return;
    }
    for node in nodes {
        let PlanNodeKind::Pass(pass) = &mut node.kind else { continue };
        let Some(Node::Pass(segment)) = frame.nodes.get(pass.segment) else { continue };
        let draw_at = |i: usize| match segment.ops.get(i) {
            Some(PassOp::Draw(d)) if mergeable(d) => Some(d),
            _ => None,
        };
        let mut merged: Vec<PlannedOp> = Vec::with_capacity(pass.ops.len());
        // The last merged op's draw (None when it cannot merge).
        let mut first: Option<&Draw> = None;
        for &op in &pass.ops {
            let d = draw_at(op.index);
            if let (Some(last), Some(d), Some(first)) = (merged.last_mut(), d, &first) {
                let next = last.index + last.instances as usize;
                if op.index == next
                    && last.draws() + op.draws() <= MAX_RUN
                    && same_but_values(first, d)
                {
                    last.instances += 1;
                    last.repeats += op.repeats;
                    continue;
                }
            }
            first = d;
            merged.push(op);
        }
        pass.ops = merged;
    }
}

/// A draw that can take part in a run.
fn mergeable(d: &Draw) -> bool {
    d.geometry.as_deref().is_some_and(GeometryDraw::can_repeat)
}

/// Whether `b` draws what `a` draws with other values of a draw's own only
/// ([`StockMaterial::shares_run_values`](crate::geometry::StockMaterial::shares_run_values)).
/// The recording's merge ([`GeometryDraw::repeats`]) asks the same of the device's state
/// before a draw is made.
fn same_but_values(a: &Draw, b: &Draw) -> bool {
    let (Some(ga), Some(gb)) = (a.geometry.as_deref(), b.geometry.as_deref()) else {
        return false;
    };
    a.pipeline == b.pipeline
        && a.sampler == b.sampler
        && a.textures.len() == b.textures.len()
        && Arc::ptr_eq(a.textures.first(), b.textures.first())
        && a.viewport == b.viewport
        && a.scissor == b.scissor
        && same_geometry(ga, gb)
}

fn same_geometry(a: &GeometryDraw, b: &GeometryDraw) -> bool {
    let same_stream = |x: &VertexSource, y: &VertexSource| match (x, y) {
        (
            VertexSource::Buffer { buffer: bx, offset: ox },
            VertexSource::Buffer { buffer: by, offset: oy },
        ) => Arc::ptr_eq(bx, by) && ox == oy,
        (VertexSource::User(rx), VertexSource::User(ry)) => rx == ry,
        _ => false,
    };
    let same_indices = |x: &IndexSource, y: &IndexSource| {
        let buffers = match (&x.buffer, &y.buffer) {
            (Some(bx), Some(by)) => Arc::ptr_eq(bx, by),
            (None, None) => x.user == y.user,
            _ => false,
        };
        buffers && x.element_size == y.element_size
    };
    a.primitive == b.primitive
        && a.call == b.call
        && a.layout == b.layout
        && a.material.shares_run_values(&b.material)
        && a.streams.len() == b.streams.len()
        && a.streams.iter().zip(&b.streams).all(|(x, y)| same_stream(x, y))
        && match (&a.indices, &b.indices) {
            (Some(x), Some(y)) => same_indices(x, y),
            (None, None) => true,
            _ => false,
        }
        && match (&a.texture2, &b.texture2) {
            (None, None) => true,
            (Some((tx, sx)), Some((ty, sy))) => Arc::ptr_eq(tx, ty) && sx == sy,
            _ => false,
        }
}

#[cfg(test)]
mod tests {
    use super::MAX_RUN;
    use crate::commands::PassOp;
    use crate::compile::compile;
    use crate::compile::testkit::*;
    use crate::geometry::{BasicInstance, DrawCall, StockShader};
    use crate::FramePlan;

    /// Each planned op of the first pass as (first draw, draws).
    fn runs(plan: &FramePlan) -> Vec<(usize, u32)> {
        pass(plan, 0).ops.iter().map(|o| (o.index, o.instances)).collect()
    }

    fn merged(ops: Vec<PassOp>) -> FramePlan {
        let bb = back_buffer(8, 8, DISCARD);
        let mut f = frame(vec![bind(&bb, ops), present(&bb)]);
        f.merge_instances = true;
        compile(f)
    }

    const UNLIT: [f32; 4] = [0.0; 4];

    #[test]
    fn draws_that_differ_only_in_their_values_merge_into_one_op() {
        let t = texture(2, 2, 1);
        let plan = merged((0..5).map(|i| basic_cube(&t, i as f32, UNLIT)).collect());
        assert_eq!(runs(&plan), [(0, 5)]);
        assert!(plan.to_string().contains("ops [0-4 as 5 instances]"), "{plan}");
    }

    /// `op` (a draw) with `n` repeats of other values.
    fn repeated(mut op: PassOp, n: usize) -> PassOp {
        if let PassOp::Draw(d) = &mut op {
            let g = d.geometry.as_mut().unwrap();
            let block = g.material.block;
            g.repeats = (0..n).map(|i| BasicInstance::new(&[i as f32; 16], &block)).collect();
        }
        op
    }

    fn repeats(plan: &FramePlan) -> Vec<u32> {
        pass(plan, 0).ops.iter().map(|o| o.repeats).collect()
    }

    #[test]
    fn a_draw_with_repeats_is_one_op_of_all_its_draws_merging_or_not() {
        let t = texture(2, 2, 1);
        let plan = merged(vec![repeated(basic_cube(&t, 1.0, UNLIT), 3)]);
        assert_eq!((runs(&plan), repeats(&plan)), (vec![(0, 1)], vec![3]));
        assert!(plan.to_string().contains("ops [0 as 4 instances]"), "{plan}");
        // The repeats were recorded: a frame that does not merge still draws them as one op.
        let bb = back_buffer(8, 8, DISCARD);
        let ops = vec![repeated(basic_cube(&t, 1.0, UNLIT), 3)];
        let plan = compile(frame(vec![bind(&bb, ops), present(&bb)]));
        assert!(plan.to_string().contains("ops [0 as 4 instances]"), "{plan}");
    }

    #[test]
    fn draws_with_repeats_merge_and_the_run_counts_every_repeat() {
        let t = texture(2, 2, 1);
        let plan = merged(vec![
            repeated(basic_cube(&t, 1.0, UNLIT), 2),
            basic_cube(&t, 2.0, UNLIT),
            repeated(basic_cube(&t, 3.0, UNLIT), 4),
        ]);
        assert_eq!((runs(&plan), repeats(&plan)), (vec![(0, 3)], vec![6]));
        assert!(plan.to_string().contains("ops [0-2 as 9 instances]"), "{plan}");
    }

    #[test]
    fn a_run_holds_at_most_max_run_draws_repeats_included() {
        let t = texture(2, 2, 1);
        let full = MAX_RUN as usize - 1;
        let plan = merged(vec![
            repeated(basic_cube(&t, 1.0, UNLIT), full - 1),
            basic_cube(&t, 2.0, UNLIT),
            basic_cube(&t, 3.0, UNLIT),
        ]);
        assert_eq!(runs(&plan), [(0, 2), (2, 1)]);
        assert_eq!(pass(&plan, 0).ops[0].draws(), MAX_RUN);
    }

    #[test]
    fn a_draw_that_differs_in_anything_drawn_ends_the_run() {
        let (t, u) = (texture(2, 2, 1), texture(2, 2, 1));
        // Another texture, another option (fog), another index range, a sprite draw.
        let fogged = [0.0, 0.0, 0.0, 1.0];
        let mut other_range = basic_cube(&t, 9.0, UNLIT);
        if let PassOp::Draw(d) = &mut other_range {
            let g = d.geometry.as_mut().unwrap();
            g.call = DrawCall::Indexed {
                base_vertex: 0,
                first_index: 6,
                index_count: 30,
                min_vertex: 0,
                vertex_span: 24,
            };
        }
        let plan = merged(vec![
            basic_cube(&t, 1.0, UNLIT),
            basic_cube(&t, 2.0, UNLIT),
            basic_cube(&u, 3.0, UNLIT),
            basic_cube(&u, 4.0, fogged),
            basic_cube(&u, 5.0, fogged),
            other_range,
            draw(&t),
            basic_cube(&t, 6.0, UNLIT),
        ]);
        assert_eq!(runs(&plan), [(0, 2), (2, 1), (3, 2), (5, 1), (6, 1), (7, 1)]);
    }

    #[test]
    fn draws_with_other_lights_or_eye_or_fog_colour_do_not_merge() {
        let t = texture(2, 2, 1);
        // A light direction, the eye position, the fog colour: the run's values.
        let with = |i: usize, value: f32| {
            let mut op = basic_cube(&t, 2.0, UNLIT);
            if let PassOp::Draw(d) = &mut op {
                d.geometry.as_mut().unwrap().material.block[i] = value;
            }
            op
        };
        let plan = merged(vec![
            basic_cube(&t, 1.0, UNLIT),
            with(56, -1.0),
            with(56, -1.0),
            with(44, 3.0),
            with(48, 0.5),
            basic_cube(&t, 3.0, UNLIT),
        ]);
        assert_eq!(runs(&plan), [(0, 1), (1, 2), (3, 1), (4, 1), (5, 1)]);
    }

    #[test]
    fn an_op_between_two_draws_keeps_them_apart() {
        let t = texture(2, 2, 1);
        let plan = merged(vec![
            basic_cube(&t, 1.0, UNLIT),
            clear(Some([1.0, 0.0, 0.0, 1.0]), None, None),
            basic_cube(&t, 2.0, UNLIT),
            basic_cube(&t, 3.0, UNLIT),
        ]);
        assert_eq!(runs(&plan), [(0, 1), (1, 1), (2, 2)]);
    }

    #[test]
    fn only_basic_effect_draws_merge() {
        let t = texture(2, 2, 1);
        // SkinnedEffect shares BasicEffect's block layout, but its bones travel beside the
        // block and its stages have no instanced pair: its draws stay one op each.
        let skinned = |value: f32| {
            let mut op = basic_cube(&t, value, [4.0, 1.0, 1.0, 0.0]);
            if let PassOp::Draw(d) = &mut op {
                let g = d.geometry.as_mut().unwrap();
                g.material.shader = StockShader::Skinned;
                g.bones = vec![[value; 4]; 3];
            }
            op
        };
        let plan = merged(vec![skinned(1.0), skinned(2.0), skinned(3.0)]);
        assert_eq!(runs(&plan), [(0, 1), (1, 1), (2, 1)]);
    }

    #[test]
    fn a_frame_that_does_not_ask_merges_nothing() {
        let t = texture(2, 2, 1);
        let bb = back_buffer(8, 8, DISCARD);
        let ops = (0..3).map(|i| basic_cube(&t, i as f32, UNLIT)).collect();
        let plan = compile(frame(vec![bind(&bb, ops), present(&bb)]));
        assert_eq!(runs(&plan), [(0, 1), (1, 1), (2, 1)]);
    }
}
