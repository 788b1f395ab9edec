//! Recording: the one [`FrameBuilder`] that turns a game's calls into [`FrameCommands`].
//!
//! In: the calls the public API has validated — binds, clears, draws, uploads, readbacks,
//! presents, flushes. Out: the frame's nodes in recording order.
//!
//! The builder owns the frame being recorded and the bookkeeping around it: the current bind
//! cycle and its attachments, whether the frame's last node is that cycle's open segment, how
//! the next segment of the cycle starts once an upload, a readback or a flush has split it, and
//! the readback ids. It records what happened and decides nothing: a bind is recorded as a bind
//! with its usage ([`SegmentStart::Bind`]), a clear with its aspects, a draw as drawn. Whether a
//! bind clears, what is loaded or stored, is the compiler's.
//!
//! A segment is opened lazily, by the first clear or draw after an interruption, except that a
//! bind opens its segment at once: a bind that draws nothing is still an event (a discarding
//! bind leaves black behind). A flush hands over the frame; a cycle still open at that moment
//! is marked ([`FrameCommands::open_cycle`]) and continues in the next frame.

use std::sync::Arc;

use crate::commands::{
    Clear, ColorBinding, Draw, FrameCommands, Node, PassOp, PassSegment, Readback, ReadbackId,
    Rect, SegmentStart, Slices, Upload,
};
use crate::geometry::GeometryDraw;
use crate::plan::Image;
use crate::resource::{RenderTargetUsage, TextureState};

mod spare;

pub use spare::SpareLists;

/// Records one device's frames (see the module doc).
#[derive(Debug)]
pub struct FrameBuilder {
    frame: FrameCommands,
    back_buffer: Arc<TextureState>,
    /// The attachments of the current bind cycle: the bound targets, or the back buffer.
    cycle: Vec<ColorBinding>,
    /// How the cycle's next segment starts; `None` while the frame's last node is the cycle's
    /// open segment.
    next_start: Option<SegmentStart>,
    /// The current cycle's latest segment in this frame (an index into `frame.nodes`).
    cycle_segment: Option<usize>,
    next_readback: u64,
    /// Segments opened so far, across frames: the serial of the open (or next) segment.
    segments_opened: u64,
    /// Emptied lists of submitted frames, recorded into before any new one is allocated.
    spare: SpareLists,
    /// The combinations drawn so far, across frames, and where new ones are requested.
    pipelines: crate::pipeline_request::PipelineRequests,
    /// Where the last draw went (its segment's serial and that segment's op count after it)
    /// while nothing has been recorded or marked since: the draw [`Self::last_draw_mut`] gives.
    last_draw: Option<(u64, usize)>,
}

impl FrameBuilder {
    /// A builder whose unbound target is `back_buffer`; the first draw of a frame begins a
    /// segment on it that starts as a bind with the back buffer's usage (see [`Self::present`]).
    pub fn new(back_buffer: Arc<TextureState>) -> Self {
        let mut builder = FrameBuilder {
            frame: FrameCommands::default(),
            cycle: Vec::new(),
            back_buffer,
            next_start: None,
            cycle_segment: None,
            next_readback: 0,
            segments_opened: 0,
            spare: SpareLists::default(),
            pipelines: Default::default(),
            last_draw: None,
        };
        builder.start_frame();
        builder
    }

    /// The device's back buffer: what `Present` shows and `SetRenderTarget(null)` binds.
    pub fn back_buffer(&self) -> &Arc<TextureState> {
        &self.back_buffer
    }

    /// `GraphicsDevice.Reset`: `back_buffer` replaces the back buffer and a new frame starts on
    /// it, as after a present. Nodes already recorded keep the old back buffer alive.
    pub fn replace_back_buffer(&mut self, back_buffer: Arc<TextureState>) {
        self.back_buffer = back_buffer;
        self.start_frame();
    }

    /// The current cycle's first attachment (the back buffer when nothing is bound).
    pub fn primary(&self) -> &Arc<TextureState> {
        &self.cycle[0].target
    }

    /// Whether the frame recorded since the last flush draws or clears the back buffer.
    pub fn draws_back_buffer(&self) -> bool {
        self.frame.nodes.iter().any(|n| {
            matches!(n, Node::Pass(s) if s.colors.iter().any(|c| Arc::ptr_eq(&c.target, &self.back_buffer)))
        })
    }

    /// Whether nothing was recorded since the last flush.
    pub fn is_empty(&self) -> bool {
        self.frame.is_empty()
    }

    /// `SetRenderTargets`: begins a bind cycle over `targets`, or over the back buffer when
    /// `targets` is empty, and opens its segment.
    pub fn bind(&mut self, targets: Vec<ColorBinding>) {
        if targets.is_empty() {
            self.cycle_on_back_buffer();
        } else {
            self.cycle = targets;
        }
        self.open_segment(self.bind_start());
    }

    /// How a bind of the current cycle starts: with its first target's usage.
    fn bind_start(&self) -> SegmentStart {
        let usage = self.primary().desc().render_target.map_or(
            // A plain texture cannot be bound; were it, it would keep nothing.
            RenderTargetUsage::DiscardContents,
            |rt| rt.usage,
        );
        SegmentStart::Bind { usage }
    }

    /// A new frame begins on the back buffer as if it had just been bound: its presentation
    /// usage decides whether it starts from the presented frame or discards it (a discarding
    /// back buffer starts at opaque black, as a discarding target bind does). The segment opens
    /// with the frame's first clear or draw, so a frame that never touches the back buffer
    /// records nothing for it.
    fn start_frame(&mut self) {
        self.cycle_on_back_buffer();
        self.next_start = Some(self.bind_start());
        self.cycle_segment = None;
    }

    /// Recording returns to the back buffer without a bind (a bound target was destroyed):
    /// the next draw begins an [`SegmentStart::Implicit`] segment.
    pub fn return_to_back_buffer(&mut self) {
        self.cycle_on_back_buffer();
        self.next_start = Some(SegmentStart::Implicit);
        self.cycle_segment = None;
    }

    /// The current cycle becomes the back buffer's, in the cycle's own list.
    fn cycle_on_back_buffer(&mut self) {
        self.cycle.clear();
        self.cycle.push(ColorBinding { target: self.back_buffer.clone(), layer: 0 });
    }

    /// Takes the emptied lists of submitted frames (see [`SpareLists`]): later frames record
    /// into them instead of allocating. `spare` is left empty (bar what exceeds the bounds).
    pub fn recycle(&mut self, spare: &mut SpareLists) {
        self.spare.append(spare);
    }

    /// An empty buffer for `len` bytes of an upload's data (`SetData`'s copy of the caller's
    /// data, to become [`Upload::data`](crate::Upload) or
    /// [`BufferUpload::data`](crate::BufferUpload)): a spare one of a submitted frame that holds
    /// them when there is one (see [`SpareLists`]), else a new one.
    pub fn upload_buffer(&mut self, len: usize) -> Vec<u8> {
        self.spare.upload_buffer(len)
    }

    /// Spare upload buffers the builder holds, and their bytes.
    pub fn upload_spares(&self) -> (usize, usize) {
        self.spare.upload_spares()
    }

    /// An empty list for a draw's textures ([`crate::DrawTextures::many`]): a spare one of a
    /// submitted frame when there is one, so a warm frame's draws of several textures allocate
    /// nothing either.
    pub fn texture_list(&mut self) -> Vec<Arc<TextureState>> {
        self.spare.textures.pop().unwrap_or_default()
    }

    /// `geometry` boxed for a [`Draw::geometry`](crate::Draw): in a spare box of a submitted
    /// frame when there is one, so that a warm frame's 3D draws allocate no box either.
    pub fn boxed_geometry(&mut self, geometry: GeometryDraw) -> Box<GeometryDraw> {
        self.spare.boxed_geometry(geometry)
    }

    /// A box holding the draw of nothing ([`GeometryDraw::default`]) for a
    /// [`Draw::geometry`](crate::Draw) to be written into: a spare box of a submitted frame when
    /// there is one, whose lists (streams, vertex bindings, bones) keep their capacity, so that
    /// a warm frame's 3D draws filled in place allocate nothing.
    pub fn spare_geometry(&mut self) -> Box<GeometryDraw> {
        self.spare.spare_geometry()
    }

    /// The frame's node list, a spare one when the frame has none yet.
    fn nodes_mut(&mut self) -> &mut Vec<Node> {
        if self.frame.nodes.capacity() == 0 {
            if let Some(spare) = self.spare.nodes.pop() {
                self.frame.nodes = spare;
            }
        }
        &mut self.frame.nodes
    }

    /// A clear of the aspects that are `Some`, in the current cycle.
    pub fn clear(&mut self, clear: Clear) {
        self.push_op(PassOp::Clear(clear));
    }

    /// Where the combinations recorded from now on are requested ([`crate::pipeline_request`]);
    /// `None` requests nothing (every pipeline is then built when its frame is lowered).
    pub fn set_pipeline_sink(&mut self, sink: Option<crate::PipelineSink>) {
        self.pipelines.set_sink(sink);
    }

    /// Combinations the pipeline requests remember.
    #[cfg(test)]
    pub(crate) fn pipeline_combinations(&self) -> usize {
        self.pipelines.seen()
    }

    /// A draw in the current cycle; its sprites must already be in [`Self::sprites_mut`].
    /// The first draw of each combination of pipeline key, bound targets' formats, written
    /// channels and vertex side hands a [`crate::PipelineRequest`] to the sink set here.
    pub fn draw(&mut self, draw: Draw) {
        self.pipelines.note(&draw, &self.cycle);
        self.push_op(PassOp::Draw(draw));
        if let Some(Node::Pass(segment)) = self.frame.nodes.last() {
            self.last_draw = Some((self.segments_opened, segment.ops.len()));
        }
    }

    /// The draw just recorded, while it is still the last op of the open segment and no op
    /// position has been taken since ([`Self::next_op_position`]): the draw a following draw
    /// that differs only in its stock values may be recorded into as a repeat
    /// ([`GeometryDraw::repeats`]), which stays in the same place in the frame. Anything
    /// recorded after it (an op, a split of the segment, another frame) ends that.
    pub fn last_draw_mut(&mut self) -> Option<&mut Draw> {
        let (serial, len) = self.last_draw?;
        if self.next_start.is_some() || serial != self.segments_opened {
            return None;
        }
        match self.frame.nodes.last_mut() {
            Some(Node::Pass(segment)) if segment.ops.len() == len => match segment.ops.last_mut() {
                Some(PassOp::Draw(d)) => Some(d),
                _ => None,
            },
            _ => None,
        }
    }

    /// Where the draw [`Self::last_draw_mut`] gives was recorded: its segment's serial and its
    /// place in it, unique for the builder's life. Equal positions name the same draw.
    pub fn last_draw_at(&self) -> Option<(u64, usize)> {
        self.last_draw
    }

    /// The frame's sprite arena, which draws index.
    pub fn sprites_mut(&mut self) -> &mut crate::SpriteArena {
        &mut self.frame.sprites
    }

    /// The frame's geometry arena (`DrawUserPrimitives` bytes), which geometry draws index.
    pub fn geometry_bytes_mut(&mut self) -> &mut Vec<u8> {
        &mut self.frame.geometry_bytes
    }

    /// A CPU → texture upload; it splits the current cycle.
    pub fn upload(&mut self, upload: Upload) {
        self.push_outside_pass(Node::Upload(upload));
    }

    /// A texture → CPU copy; it splits the current cycle. The id names the bytes the backend
    /// returns for it.
    pub fn readback(
        &mut self,
        texture: Arc<TextureState>,
        level: u32,
        layer: u32,
        rect: Rect,
    ) -> ReadbackId {
        self.readback_slices(texture, level, layer, rect, Slices::FLAT)
    }

    /// A texture → CPU copy of `slices` of a region (a volume's box); otherwise as
    /// [`Self::readback`].
    pub fn readback_slices(
        &mut self,
        texture: Arc<TextureState>,
        level: u32,
        layer: u32,
        rect: Rect,
        slices: Slices,
    ) -> ReadbackId {
        self.readback_image(texture, Image::Color, level, layer, rect, slices)
    }

    /// A texture → CPU copy of a region of `image` (for [`Image::DepthStencil`], the whole
    /// depth/stencil content of a single-sample target, at level 0 and layer 0: see
    /// [`Readback::image`]); otherwise as [`Self::readback_slices`].
    pub fn readback_image(
        &mut self,
        texture: Arc<TextureState>,
        image: Image,
        level: u32,
        layer: u32,
        rect: Rect,
        slices: Slices,
    ) -> ReadbackId {
        self.next_readback += 1;
        let id = ReadbackId(self.next_readback);
        let readback = Readback { id, texture, level, layer, rect, slices, image };
        self.push_outside_pass(Node::Readback(readback));
        id
    }

    /// A vertex or index buffer's `SetData`: a node of its own, ordered as recorded against
    /// the draws around it (a draw recorded before it does not see the bytes); it splits the
    /// current cycle like a texture upload.
    pub fn buffer_upload(&mut self, upload: crate::commands::BufferUpload) {
        self.push_outside_pass(Node::BufferUpload(upload));
    }

    /// A vertex or index buffer's `GetData` of `len` bytes from `offset`; it splits the current
    /// cycle. The id names the bytes the backend returns for it.
    pub fn buffer_readback(
        &mut self,
        buffer: Arc<crate::buffer::BufferState>,
        offset: u64,
        len: u64,
    ) -> ReadbackId {
        self.next_readback += 1;
        let id = ReadbackId(self.next_readback);
        let readback = crate::commands::BufferReadback { id, buffer, offset, len };
        self.push_outside_pass(Node::BufferReadback(readback));
        id
    }

    /// `Present`: the back buffer is observed, and the next frame starts on it afresh, as a
    /// bind with the back buffer's usage.
    pub fn present(&mut self) {
        self.push_outside_pass(Node::Present(self.back_buffer.clone()));
        self.start_frame();
    }

    /// Hands over everything recorded since the last flush. A cycle still open continues in
    /// the next frame (as a [`SegmentStart::Continue`] segment), and the frame says so.
    pub fn take_frame(&mut self) -> FrameCommands {
        // A cycle is open when its segment is the last node or an upload or readback split it;
        // a bind that has not begun yet (a new frame's) or an implicit return stays as it is.
        if matches!(self.next_start, None | Some(SegmentStart::Continue)) {
            self.next_start = Some(SegmentStart::Continue);
            self.frame.open_cycle = self.cycle_segment;
        }
        self.cycle_segment = None;
        self.pipelines.trim();
        std::mem::take(&mut self.frame)
    }

    /// Drops everything recorded and returns to the back buffer (device disposal).
    pub fn discard_frame(&mut self) {
        self.frame = FrameCommands::default();
        self.start_frame();
    }

    fn open_segment(&mut self, start: SegmentStart) {
        self.segments_opened += 1;
        let mut colors = self.spare.colors.pop().unwrap_or_default();
        colors.extend_from_slice(&self.cycle);
        let ops = self.spare.ops.pop().unwrap_or_default();
        let segment = PassSegment { colors, start, ops };
        self.cycle_segment = Some(self.frame.nodes.len());
        self.nodes_mut().push(Node::Pass(segment));
        self.next_start = None;
    }

    /// Where the next pass op goes: the serial of its segment (the open one, or the one the op
    /// will open) and its index there. An occlusion query's `Begin` remembers it; its `End`
    /// records the span only if the next op still goes into the same segment. The next draw
    /// is then its own op ([`Self::last_draw_mut`] gives nothing), so that a span that begins
    /// between two draws never holds one of them as a repeat of the other.
    pub fn next_op_position(&mut self) -> (u64, usize) {
        self.last_draw = None;
        match (self.next_start, self.frame.nodes.last()) {
            (None, Some(Node::Pass(segment))) => (self.segments_opened, segment.ops.len()),
            _ => (self.segments_opened + 1, 0),
        }
    }

    /// Records an occlusion query's span: its `End` now and its `Begin` at `begin_index` of the
    /// same segment (what [`Self::next_op_position`] gave at `Begin`).
    pub fn query_span(&mut self, query: Arc<crate::query::QueryState>, begin_index: usize) {
        self.push_op(PassOp::Query(crate::query::QueryOp { query: query.clone(), begin: false }));
        if let Some(Node::Pass(segment)) = self.frame.nodes.last_mut() {
            let at = begin_index.min(segment.ops.len() - 1);
            segment.ops.insert(at, PassOp::Query(crate::query::QueryOp { query, begin: true }));
        }
    }

    fn push_op(&mut self, op: PassOp) {
        if let Some(start) = self.next_start {
            self.open_segment(start);
        }
        match self.frame.nodes.last_mut() {
            Some(Node::Pass(segment)) => segment.ops.push(op),
            // `open_segment` just pushed a segment, or the last node is the open one.
            _ => unreachable!("the cycle's open segment is the frame's last node"),
        }
    }

    fn push_outside_pass(&mut self, node: Node) {
        if self.next_start.is_none() {
            self.next_start = Some(SegmentStart::Continue);
        }
        self.nodes_mut().push(node);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::testkit::{back_buffer, draw, target, texture, DISCARD, PRESERVE};

    fn starts(frame: &FrameCommands) -> Vec<Option<SegmentStart>> {
        frame
            .nodes
            .iter()
            .map(|n| match n {
                Node::Pass(p) => Some(p.start),
                _ => None,
            })
            .collect()
    }

    fn op(d: PassOp) -> Draw {
        match d {
            PassOp::Draw(d) => d,
            PassOp::Clear(_) | PassOp::Query(_) => unreachable!(),
        }
    }

    #[test]
    fn a_bind_opens_its_segment_with_the_first_targets_usage() {
        let (a, b) = (target(4, 4, 0, PRESERVE), target(4, 4, 0, DISCARD));
        let mut builder = FrameBuilder::new(back_buffer(4, 4, DISCARD));
        builder.bind(vec![
            ColorBinding { target: a.clone(), layer: 0 },
            ColorBinding { target: b, layer: 0 },
        ]);
        builder.bind(vec![]);
        let frame = builder.take_frame();
        assert_eq!(
            starts(&frame),
            [
                Some(SegmentStart::Bind { usage: RenderTargetUsage::PreserveContents }),
                Some(SegmentStart::Bind { usage: RenderTargetUsage::DiscardContents }),
            ]
        );
    }

    #[test]
    fn an_upload_splits_the_cycle_and_the_next_draw_continues_it() {
        let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
        let mut builder = FrameBuilder::new(back_buffer(4, 4, DISCARD));
        builder.bind(vec![ColorBinding { target: rt, layer: 0 }]);
        builder.upload(Upload {
            image: Image::Color,
            texture: t.clone(),
            level: 0,
            layer: 0,
            rect: Rect::new(0, 0, 4, 4),
            slices: Slices::FLAT,
            data: vec![0; 64],
        });
        builder.upload(Upload {
            image: Image::Color,
            texture: t.clone(),
            level: 0,
            layer: 0,
            rect: Rect::new(0, 0, 4, 4),
            slices: Slices::FLAT,
            data: vec![0; 64],
        });
        builder.draw(op(draw(&t)));
        builder.draw(op(draw(&t)));
        let frame = builder.take_frame();
        let bind = Some(SegmentStart::Bind { usage: RenderTargetUsage::DiscardContents });
        assert_eq!(starts(&frame), [bind, None, None, Some(SegmentStart::Continue)]);
        assert_eq!(frame.open_cycle, Some(3));
    }

    #[test]
    fn a_flush_inside_a_cycle_marks_it_open_and_the_next_frame_continues_it() {
        let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
        let mut builder = FrameBuilder::new(back_buffer(4, 4, DISCARD));
        builder.bind(vec![ColorBinding { target: rt, layer: 0 }]);
        let id = builder.readback(t.clone(), 0, 0, Rect::new(0, 0, 1, 1));
        assert_eq!(id, ReadbackId(1));
        let first = builder.take_frame();
        assert_eq!(first.open_cycle, Some(0), "the segment before the readback");
        // A frame with no segment of the cycle marks nothing.
        builder.readback(t.clone(), 0, 0, Rect::new(0, 0, 1, 1));
        assert_eq!(builder.take_frame().open_cycle, None);
        builder.draw(op(draw(&t)));
        let second = builder.take_frame();
        assert_eq!(starts(&second), [Some(SegmentStart::Continue)]);
        assert_eq!(second.open_cycle, Some(0));
    }

    /// A draw can take repeats only while it is the last thing recorded: an op after it, a
    /// split of its segment, an op position taken (an occlusion query's `Begin`) or a new
    /// frame ends that.
    #[test]
    fn only_the_draw_recorded_last_can_be_drawn_again() {
        let t = texture(4, 4, 1);
        let mut builder = FrameBuilder::new(back_buffer(4, 4, DISCARD));
        assert!(builder.last_draw_mut().is_none(), "nothing drawn yet");
        builder.draw(op(draw(&t)));
        assert!(builder.last_draw_mut().is_some(), "the draw just recorded");
        builder.clear(Clear { color: Some([0.0; 4]), depth: None, stencil: None });
        assert!(builder.last_draw_mut().is_none(), "a clear after it");
        builder.draw(op(draw(&t)));
        builder.next_op_position();
        assert!(builder.last_draw_mut().is_none(), "a position taken after it");
        builder.draw(op(draw(&t)));
        builder.readback(t.clone(), 0, 0, Rect::new(0, 0, 1, 1));
        assert!(builder.last_draw_mut().is_none(), "its segment split");
        builder.draw(op(draw(&t)));
        builder.present();
        builder.take_frame();
        assert!(builder.last_draw_mut().is_none(), "another frame");
    }

    #[test]
    fn a_frame_starts_as_a_bind_of_the_back_buffer_with_its_usage() {
        let t = texture(4, 4, 1);
        for usage in [DISCARD, PRESERVE] {
            let mut builder = FrameBuilder::new(back_buffer(4, 4, usage));
            builder.draw(op(draw(&t)));
            builder.present();
            let frame = builder.take_frame();
            let bind = Some(SegmentStart::Bind { usage });
            assert_eq!(starts(&frame), [bind, None]);
            assert_eq!(frame.open_cycle, None, "presenting closed the cycle");
            // A flush with nothing drawn after the present leaves the next frame's bind pending.
            assert!(builder.take_frame().is_empty());
            builder.draw(op(draw(&t)));
            assert_eq!(starts(&builder.take_frame()), [bind], "{usage:?}");
        }
    }

    #[test]
    fn a_replaced_back_buffer_is_drawn_and_presented_from_then_on() {
        let old = back_buffer(4, 4, DISCARD);
        let new = back_buffer(8, 8, PRESERVE);
        let mut builder = FrameBuilder::new(old.clone());
        builder.bind(vec![ColorBinding { target: target(4, 4, 1, DISCARD), layer: 0 }]);
        builder.replace_back_buffer(new.clone());
        assert!(Arc::ptr_eq(builder.primary(), &new), "recording returns to the new back buffer");
        builder.draw(op(draw(&texture(1, 1, 1))));
        builder.present();
        let frame = builder.take_frame();
        let Some(Node::Pass(segment)) = frame.nodes.iter().rev().nth(1) else {
            panic!("a pass then a present: {:?}", frame.nodes)
        };
        assert!(Arc::ptr_eq(&segment.colors[0].target, &new));
        assert_eq!(
            segment.start,
            SegmentStart::Bind { usage: RenderTargetUsage::PreserveContents }
        );
        let Some(Node::Present(presented)) = frame.nodes.last() else { panic!() };
        assert!(Arc::ptr_eq(presented, &new));
    }

    #[test]
    fn returning_to_the_back_buffer_without_a_bind_starts_implicitly() {
        let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
        let bb = back_buffer(4, 4, DISCARD);
        let mut builder = FrameBuilder::new(bb.clone());
        builder.bind(vec![ColorBinding { target: rt, layer: 0 }]);
        builder.return_to_back_buffer();
        assert!(Arc::ptr_eq(builder.primary(), &bb));
        builder.draw(op(draw(&t)));
        let frame = builder.take_frame();
        assert_eq!(starts(&frame)[1], Some(SegmentStart::Implicit));
        assert_eq!(frame.open_cycle, Some(1), "the back buffer's cycle goes on after a flush");
    }
}
