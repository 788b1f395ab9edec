//! Stage 7b, buffers: per-range hazards of vertex and index buffers, their barriers, and where a
//! `Discard` write renames its buffer.
//!
//! In: the plan's nodes in execution order (which is recording order for buffer nodes: an upload
//! recorded after a draw runs after it, so the draw does not see its bytes), and each buffer's
//! tracked uses from the frames before. Out: each node's [`BufferBarrier`]s, each buffer upload's
//! `rename` decision, and the buffers' tracked uses advanced to the end of the plan (committed
//! with the texture states).
//!
//! Decided here, once:
//! - a use waits only for earlier uses of bytes it overlaps, and only when one of the two writes
//!   (read after read never waits); the barrier covers the overlap alone;
//! - a write stays tracked after reads of its bytes: a read of another kind (a copy after a
//!   vertex fetch) waits for the write itself, since the fetch's barrier made the write visible
//!   to the fetch alone;
//! - a draw reads the vertices it draws (an indexed draw, its streams from their offsets to the
//!   end, as indices are read on the GPU) and the
//!   indices it draws, as [`Access::VertexInput`] and [`Access::IndexRead`]; the pass waits, in
//!   its one barrier batch, for earlier writes of those bytes, and a later write waits for the
//!   draw, so a `SetData` recorded after a draw is invisible to it;
//! - a `Discard` write to a buffer with any tracked use renames it: the backend gives it fresh
//!   storage, the earlier uses keep the old one (retired after them), and the write waits for
//!   nothing. A `Discard` write to an unused buffer writes in place: there is nothing to wait for.
//!   So a dynamic buffer rewritten every frame with `Discard` never stalls on the frame before,
//!   and one filled piece by piece with `NoOverwrite` waits for nothing as long as the pieces do
//!   not overlap what earlier uses touched.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use crate::buffer::{BufferId, BufferState, BufferTrack, SetDataOptions};
use crate::commands::{FrameCommands, Node, PassOp};
use crate::plan::{Access, BufferBarrier, PlanNode, PlanNodeKind};

/// Whether a use of `access` writes the bytes.
fn writes(access: Access) -> bool {
    matches!(access, Access::TransferWrite)
}

/// The buffers' tracked uses while a plan is derived, checked out on first use.
#[derive(Debug, Default)]
pub(crate) struct BufferTracker {
    index: HashMap<BufferId, usize>,
    entries: Vec<(Arc<BufferState>, BufferTrack)>,
}

impl BufferTracker {
    fn state(&mut self, buffer: &Arc<BufferState>) -> &mut BufferTrack {
        let next = self.entries.len();
        let i = *self.index.entry(buffer.id()).or_insert(next);
        if i == next {
            let track = buffer.tracked.lock().unwrap_or_else(|p| p.into_inner()).clone();
            self.entries.push((buffer.clone(), track));
        }
        &mut self.entries[i].1
    }

    pub(crate) fn into_entries(self) -> Vec<(Arc<BufferState>, BufferTrack)> {
        self.entries
    }
}

/// Orders a use of `range` with `access` after the tracked uses it conflicts with: one barrier
/// per conflicting overlap, then the use is tracked.
///
/// A write stays tracked after reads of its bytes, because each kind of read needs the write
/// made visible to it by a barrier of its own: a vertex fetch that waited for an upload does
/// not make the upload visible to a later copy. So a read waits for a tracked write except
/// where a read of the same kind already did (those bytes are visible to it), and a write
/// waits for a tracked write except where a read already waited for it (the write then waits
/// for that read, which chains the two). A write replaces whatever it overlaps.
fn use_range(
    buffer: &Arc<BufferState>,
    track: &mut BufferTrack,
    range: Range<u64>,
    access: Access,
    barriers: &mut Vec<BufferBarrier>,
) {
    // A read of bytes a read of the same kind already covers: that read waited for every
    // tracked write it overlaps (a later write would have cut it), so this one waits for
    // nothing and tracks nothing new. The common case of many draws of one buffer.
    if range.is_empty() || (!writes(access) && track.uses.contains(&(range.clone(), access))) {
        return;
    }
    let earlier = std::mem::take(&mut track.uses);
    // Bytes a tracked read covers (of the same kind as this read; of any kind for a write):
    // every such read came after the tracked write of its bytes, and waited for it.
    let chained: Vec<Range<u64>> = earlier
        .iter()
        .filter(|(_, a)| !writes(*a) && (writes(access) || *a == access))
        .map(|(r, _)| r.clone())
        .collect();
    let mut kept = Vec::with_capacity(earlier.len() + 1);
    for (r, a) in earlier {
        let overlap = r.start.max(range.start)..r.end.min(range.end);
        if overlap.is_empty() || !(writes(access) || writes(a)) {
            kept.push((r, a));
            continue;
        }
        let waits = if writes(a) { uncovered(&overlap, &chained) } else { vec![overlap.clone()] };
        for piece in waits {
            barriers.push(BufferBarrier {
                buffer: buffer.clone(),
                range: piece,
                src: a,
                dst: access,
            });
        }
        if !writes(access) {
            kept.push((r, a)); // a read leaves the write tracked for other kinds of reads
            continue;
        }
        if r.start < overlap.start {
            kept.push((r.start..overlap.start, a));
        }
        if overlap.end < r.end {
            kept.push((overlap.end..r.end, a));
        }
    }
    if !kept.contains(&(range.clone(), access)) {
        kept.push((range, access));
    }
    track.uses = kept;
}

/// The parts of `range` that no range of `covers` covers, in order.
fn uncovered(range: &Range<u64>, covers: &[Range<u64>]) -> Vec<Range<u64>> {
    let mut pieces = vec![range.clone()];
    for c in covers {
        pieces = pieces
            .into_iter()
            .flat_map(|p| {
                let mut left = Vec::new();
                if p.start < c.start.min(p.end) {
                    left.push(p.start..c.start.min(p.end));
                }
                if c.end.max(p.start) < p.end {
                    left.push(c.end.max(p.start)..p.end);
                }
                left
            })
            .collect();
    }
    pieces
}

/// Derives every node's buffer barriers and renames (see the module doc).
pub(crate) fn derive_buffer_barriers(
    frame: &FrameCommands,
    nodes: &mut [PlanNode],
    tracker: &mut BufferTracker,
) {
    for node in nodes {
        let PlanNode { buffer_barriers, kind, .. } = node;
        match kind {
            PlanNodeKind::BufferUpload { node, rename } => {
                let Some(Node::BufferUpload(u)) = frame.nodes.get(*node) else { continue };
                let track = tracker.state(&u.buffer);
                *rename = u.options == SetDataOptions::Discard && track.is_used();
                if *rename {
                    track.uses.clear();
                }
                use_range(&u.buffer, track, u.range(), Access::TransferWrite, buffer_barriers);
            }
            PlanNodeKind::BufferReadback { node } => {
                let Some(Node::BufferReadback(r)) = frame.nodes.get(*node) else { continue };
                let track = tracker.state(&r.buffer);
                use_range(&r.buffer, track, r.range(), Access::TransferRead, buffer_barriers);
            }
            PlanNodeKind::Pass(pass) => {
                let Some(Node::Pass(segment)) = frame.nodes.get(pass.segment) else { continue };
                for op in &pass.ops {
                    let Some(PassOp::Draw(d)) = segment.ops.get(op.index) else { continue };
                    let Some(g) = &d.geometry else { continue };
                    for (buffer, range) in g.vertex_reads() {
                        let track = tracker.state(buffer);
                        use_range(buffer, track, range, Access::VertexInput, buffer_barriers);
                    }
                    if let Some((buffer, range)) = g.index_read() {
                        let track = tracker.state(buffer);
                        use_range(buffer, track, range, Access::IndexRead, buffer_barriers);
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::{BufferDesc, BufferKind};
    use crate::builder::FrameBuilder;
    use crate::commands::BufferUpload;
    use crate::compile::compile;
    use crate::compile::testkit::{back_buffer, DISCARD};
    use crate::plan::FramePlan;
    use crate::resource::{NativeHandle, RetireSink};

    fn buffer(size: u64) -> Arc<BufferState> {
        let desc = BufferDesc { size, kind: BufferKind::Vertex, dynamic: true };
        BufferState::new(desc, NativeHandle(900), RetireSink::default())
    }

    fn write(b: &mut FrameBuilder, buf: &Arc<BufferState>, at: u64, len: usize, o: SetDataOptions) {
        let upload =
            BufferUpload { buffer: buf.clone(), offset: at, data: vec![7; len], options: o };
        b.buffer_upload(upload);
    }

    /// Per node: (src, dst, range) of its buffer barriers.
    fn rows(plan: &FramePlan) -> Vec<Vec<(Access, Access, Range<u64>)>> {
        let row = |b: &BufferBarrier| (b.src, b.dst, b.range.clone());
        plan.nodes.iter().map(|n| n.buffer_barriers.iter().map(row).collect()).collect()
    }

    fn renames(plan: &FramePlan) -> Vec<bool> {
        (plan.nodes.iter())
            .filter_map(|n| match n.kind {
                PlanNodeKind::BufferUpload { rename, .. } => Some(rename),
                _ => None,
            })
            .collect()
    }

    fn builder() -> FrameBuilder {
        FrameBuilder::new(back_buffer(4, 4, DISCARD))
    }

    #[test]
    fn a_use_waits_only_for_conflicting_uses_of_the_bytes_it_overlaps() {
        use Access::{TransferRead as R, TransferWrite as W};
        let buf = buffer(256);
        let mut b = builder();
        write(&mut b, &buf, 0, 64, SetDataOptions::None);
        write(&mut b, &buf, 64, 64, SetDataOptions::None); // disjoint: no wait
        b.buffer_readback(buf.clone(), 32, 64); // reads 32..96: both writes' bytes
        b.buffer_readback(buf.clone(), 0, 128); // read after read: no wait for the first read
        write(&mut b, &buf, 96, 16, SetDataOptions::None); // after the read of 96..112 only
        let plan = compile(b.take_frame());
        assert_eq!(
            rows(&plan),
            vec![
                vec![],
                vec![],
                vec![(W, R, 32..64), (W, R, 64..96)],
                vec![(W, R, 0..32), (W, R, 96..128)],
                vec![(R, W, 96..112)],
            ]
        );
        // What the frame leaves tracked: the write, and the reads' bytes it did not cover.
        let track = buf.tracked.lock().unwrap().clone();
        assert!(track.uses().contains(&(96..112, W)), "{track:?}");
        assert!(track.uses().contains(&(112..128, R)), "{track:?}");
        assert!(!track.uses().iter().any(|(r, _)| r.start < 112 && r.end > 96 && r.start != 96));
    }

    #[test]
    fn a_discard_write_renames_a_used_buffer_and_waits_for_nothing() {
        let buf = buffer(256);
        let mut b = builder();
        write(&mut b, &buf, 0, 64, SetDataOptions::Discard); // new storage: in place
        b.buffer_readback(buf.clone(), 0, 64);
        write(&mut b, &buf, 0, 64, SetDataOptions::Discard); // read before: rename
        write(&mut b, &buf, 0, 64, SetDataOptions::None); // after the renamed write: waits
        let plan = compile(b.take_frame());
        assert_eq!(renames(&plan), [false, true, false]);
        let rows = rows(&plan);
        assert!(rows[2].is_empty(), "the renamed write waits for no earlier use: {rows:?}");
        assert_eq!(rows[3], [(Access::TransferWrite, Access::TransferWrite, 0..64)]);
        // The next frame's Discard renames again: the storage was used in the frame before.
        let mut b = builder();
        write(&mut b, &buf, 0, 8, SetDataOptions::Discard);
        assert_eq!(renames(&compile(b.take_frame())), [true]);
        assert!(plan.to_string().contains("bytes 0..64 Discard rename"), "{plan}");
    }

    #[test]
    fn a_no_overwrite_write_beside_earlier_uses_waits_for_nothing() {
        let buf = buffer(256);
        let mut b = builder();
        write(&mut b, &buf, 0, 64, SetDataOptions::Discard);
        b.buffer_readback(buf.clone(), 0, 64);
        write(&mut b, &buf, 64, 64, SetDataOptions::NoOverwrite);
        // Broken promises are still ordered: the overlap waits.
        write(&mut b, &buf, 32, 64, SetDataOptions::NoOverwrite);
        let plan = compile(b.take_frame());
        assert_eq!(renames(&plan), [false, false, false]);
        let rows = rows(&plan);
        assert!(rows[2].is_empty(), "{rows:?}");
        assert_eq!(
            rows[3],
            [
                (Access::TransferRead, Access::TransferWrite, 32..64),
                (Access::TransferWrite, Access::TransferWrite, 64..96)
            ]
        );
    }

    #[test]
    fn buffer_nodes_keep_recording_order_among_passes_and_print() {
        use crate::compile::testkit::{draw, texture};
        let buf = buffer(64);
        buf.set_name("quad");
        let t = texture(1, 1, 1);
        let mut b = builder();
        let crate::commands::PassOp::Draw(d) = draw(&t) else { unreachable!() };
        b.draw(d.clone());
        write(&mut b, &buf, 0, 16, SetDataOptions::None);
        b.draw(d);
        b.buffer_readback(buf.clone(), 0, 16);
        let plan = compile(b.take_frame());
        let kinds: Vec<_> = plan.nodes.iter().map(|n| plan.node_label(&n.kind)).collect();
        assert_eq!(
            kinds,
            ["pass back buffer", "upload quad", "pass back buffer", "readback quad"],
            "the upload runs between the draws it was recorded between"
        );
        let text = plan.to_string();
        assert!(text.contains("buffer upload node 1 -> quad bytes 0..16 None"), "{text}");
        assert!(
            text.contains("buffer barrier quad bytes 0..16 TransferWrite -> TransferRead"),
            "{text}"
        );
        let dot = crate::compile::to_dot(&plan);
        assert!(dot.contains("buffer barrier quad bytes 0..16"), "{dot}");
    }

    /// A geometry draw from `vb` (all of it: the draw is indexed) indexed through bytes 4..10
    /// of `ib`.
    fn geometry_draw(vb: &Arc<BufferState>, ib: &Arc<BufferState>) -> crate::commands::Draw {
        use crate::geometry::*;
        let t = crate::compile::testkit::texture(1, 1, 1);
        let crate::commands::PassOp::Draw(mut d) = crate::compile::testkit::draw(&t) else {
            unreachable!()
        };
        d.geometry = Some(Box::new(GeometryDraw {
            layout: VertexLayout {
                bindings: vec![BindingLayout { stride: 16, instance_frequency: 0 }],
                attributes: [None; ATTRIBUTES],
                custom: Vec::new(),
            },
            primitive: PrimitiveType::TriangleList,
            streams: vec![VertexSource::Buffer { buffer: vb.clone(), offset: 0 }],
            indices: Some(IndexSource { buffer: Some(ib.clone()), user: 0..0, element_size: 2 }),
            call: DrawCall::Indexed {
                base_vertex: 1,
                first_index: 2,
                index_count: 3,
                min_vertex: 0,
                vertex_span: 2,
            },
            ..GeometryDraw::default()
        }));
        d
    }

    #[test]
    fn a_draw_reads_its_vertices_and_indices_between_the_writes_around_it() {
        use Access::{IndexRead as I, TransferWrite as W, VertexInput as V};
        let (vb, ib) = (buffer(256), buffer(64));
        let mut b = builder();
        write(&mut b, &vb, 0, 256, SetDataOptions::None);
        write(&mut b, &ib, 0, 64, SetDataOptions::None);
        b.draw(geometry_draw(&vb, &ib));
        write(&mut b, &vb, 32, 8, SetDataOptions::None); // inside the vertices drawn
        write(&mut b, &ib, 20, 8, SetDataOptions::None); // outside: waits for the upload only
        let plan = compile(b.take_frame());
        let rows = rows(&plan);
        assert_eq!(rows[2], [(W, V, 0..256), (W, I, 4..10)], "the pass waits for the uploads");
        assert_eq!(rows[3], [(V, W, 32..40)], "a later write waits for the draw");
        assert_eq!(rows[4], [(W, W, 20..28)], "bytes the draw does not read");
    }

    #[test]
    fn a_read_of_another_kind_after_a_read_of_a_write_waits_for_the_write_too() {
        use Access::{IndexRead as I, TransferRead as R, TransferWrite as W, VertexInput as V};
        let (vb, ib) = (buffer(256), buffer(64));
        let mut b = builder();
        write(&mut b, &vb, 0, 256, SetDataOptions::None);
        write(&mut b, &ib, 0, 64, SetDataOptions::None);
        b.draw(geometry_draw(&vb, &ib));
        b.buffer_readback(vb.clone(), 0, 64); // a copy after the vertex fetch of the same bytes
        b.draw(geometry_draw(&vb, &ib)); // the fetch again: already visible
        write(&mut b, &vb, 0, 16, SetDataOptions::None); // after the reads: chained through them
        let plan = compile(b.take_frame());
        let rows = rows(&plan);
        assert_eq!(rows[2], [(W, V, 0..256), (W, I, 4..10)]);
        assert_eq!(rows[3], [(W, R, 0..64)], "the copy waits for the upload, not only the draw");
        assert_eq!(rows[4], [], "the second draw's bytes were made visible to it already");
        assert_eq!(rows[5], [(V, W, 0..16), (R, W, 0..16)], "no second wait for the upload");
    }

    #[test]
    fn a_failed_submission_leaves_the_tracked_uses_as_they_were() {
        let buf = buffer(64);
        let mut b = builder();
        write(&mut b, &buf, 0, 16, SetDataOptions::None);
        let (_plan, commit) = crate::compile::compile_for_submission(b.take_frame());
        drop(commit);
        assert!(!buf.tracked.lock().unwrap().is_used());
        let mut b = builder();
        write(&mut b, &buf, 0, 16, SetDataOptions::None);
        let (_plan, commit) = crate::compile::compile_for_submission(b.take_frame());
        commit.commit();
        assert_eq!(buf.tracked.lock().unwrap().uses(), [(0..16, Access::TransferWrite)]);
    }
}
