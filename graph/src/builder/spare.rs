//! Recycled lists: the emptied vectors of submitted frames, which later frames record into
//! instead of allocating their own.
//!
//! Each frame's node list, each pass segment's attachment and op lists, the texture list of
//! each draw of several textures ([`crate::DrawTextures`]) and the boxed geometry of each 3D
//! draw ([`crate::GeometryDraw`]) are allocations that the recording of a frame makes. Once a frame has been compiled and submitted, the engine
//! empties them ([`SpareLists::take_from`], away from any lock, since emptying drops the
//! textures they hold) and gives them back to the recorder ([`crate::FrameBuilder::recycle`]),
//! so that after a few frames of warm-up, recording a frame allocates none of them.
//!
//! The byte buffers of a frame's texture and buffer uploads (`SetData`'s copies of the
//! caller's data) come back the same way and are handed out again for later uploads
//! ([`crate::FrameBuilder::upload_buffer`]): a game that streams megabytes into a dynamic
//! texture every frame then copies them into memory it has written before, instead of into a
//! fresh allocation whose every page faults on first touch (a fresh allocation on the game
//! thread, freed on the render thread, rarely gets its pages back). What is kept is bounded in
//! bytes, and a buffer no upload has wanted for [`SPARE_UPLOAD_FRAMES`] returned frames is
//! dropped, so a burst of uploads (a level's textures) holds no memory for long.

use std::sync::Arc;

use crate::commands::{ColorBinding, FrameCommands, Node, PassOp, PassSegment};
use crate::geometry::GeometryDraw;
use crate::resource::TextureState;

/// At most this many spare node lists are kept (a few frames in flight each hold one).
const SPARE_NODE_LISTS: usize = 8;
/// At most this many spare attachment lists and op lists each (one per pass segment).
const SPARE_SEGMENT_LISTS: usize = 256;
/// At most this many spare geometry boxes (one per 3D draw; about 0.7 KiB each).
const SPARE_GEOMETRIES: usize = 32 << 10;
/// Upload buffers smaller than this are not kept: the allocator serves them well.
const SPARE_UPLOAD_MIN: usize = 64 << 10;
/// At most this many bytes of spare upload buffers are kept (four frames of 64 MiB).
const SPARE_UPLOAD_BYTES: usize = 256 << 20;
/// A spare upload buffer is dropped once this many frames came back without an upload taking
/// it.
pub const SPARE_UPLOAD_FRAMES: u64 = 120;

/// An emptied upload buffer and the frame count at which it came back.
#[derive(Debug)]
pub(super) struct SpareBytes {
    bytes: Vec<u8>,
    returned: u64,
}

/// Emptied lists of submitted frames, keeping their capacity (see the module doc).
#[derive(Debug, Default)]
pub struct SpareLists {
    pub(super) nodes: Vec<Vec<Node>>,
    pub(super) colors: Vec<Vec<ColorBinding>>,
    pub(super) ops: Vec<Vec<PassOp>>,
    pub(super) textures: Vec<Vec<Arc<TextureState>>>,
    /// Emptied geometry boxes of 3D draws: a draw recorded into one writes memory an earlier
    /// frame touched, where a fresh box of a frame of thousands of draws faults in its pages.
    #[allow(clippy::vec_box, reason = "the boxes are what is kept: draws take them as they are")]
    pub(super) geometries: Vec<Box<GeometryDraw>>,
    /// Emptied upload buffers, in the order they came back.
    uploads: Vec<SpareBytes>,
    /// Frames whose lists came back to the recorder ([`SpareLists::append`]): the clock of
    /// the upload buffers' ages.
    frames: u64,
}

impl SpareLists {
    /// Empties `frame`'s node list and its pass segments' lists into these spares (dropping
    /// what they held), up to the bounds on spare lists; the sprite and geometry arenas are
    /// left in `frame`.
    pub fn take_from(&mut self, frame: &mut FrameCommands) {
        let mut nodes = std::mem::take(&mut frame.nodes);
        for node in nodes.drain(..) {
            let data = match node {
                Node::Upload(upload) => upload.data,
                Node::BufferUpload(upload) => upload.data,
                Node::Pass(segment) => {
                    self.take_segment(segment);
                    continue;
                }
                _ => continue,
            };
            if data.capacity() >= SPARE_UPLOAD_MIN {
                self.keep_upload(data, 0);
            }
        }
        keep(&mut self.nodes, nodes, SPARE_NODE_LISTS);
    }

    /// Empties a pass segment's lists into these spares.
    fn take_segment(&mut self, mut segment: PassSegment) {
        segment.colors.clear();
        for op in segment.ops.drain(..) {
            if let PassOp::Draw(draw) = op {
                let mut more = draw.textures.more;
                more.clear();
                keep(&mut self.textures, more, SPARE_SEGMENT_LISTS);
                if let Some(mut geometry) = draw.geometry {
                    if self.geometries.len() < SPARE_GEOMETRIES {
                        geometry.empty();
                        self.geometries.push(geometry);
                    }
                }
            }
        }
        keep(&mut self.colors, segment.colors, SPARE_SEGMENT_LISTS);
        keep(&mut self.ops, segment.ops, SPARE_SEGMENT_LISTS);
    }

    /// Moves every spare list of `other` into these, up to the bounds.
    pub(super) fn append(&mut self, other: &mut SpareLists) {
        for list in other.nodes.drain(..) {
            keep(&mut self.nodes, list, SPARE_NODE_LISTS);
        }
        for list in other.colors.drain(..) {
            keep(&mut self.colors, list, SPARE_SEGMENT_LISTS);
        }
        for list in other.ops.drain(..) {
            keep(&mut self.ops, list, SPARE_SEGMENT_LISTS);
        }
        for list in other.textures.drain(..) {
            keep(&mut self.textures, list, SPARE_SEGMENT_LISTS);
        }
        let room = SPARE_GEOMETRIES.saturating_sub(self.geometries.len());
        let taken = other.geometries.len().min(room);
        self.geometries.extend(other.geometries.drain(..taken));
        other.geometries.clear();
        self.frames += 1;
        let now = self.frames;
        self.uploads.retain(|spare| now - spare.returned < SPARE_UPLOAD_FRAMES);
        for spare in std::mem::take(&mut other.uploads) {
            self.keep_upload(spare.bytes, now);
        }
    }

    /// Keeps `bytes`, emptied, as returned at frame `returned`, unless that would hold more
    /// than [`SPARE_UPLOAD_BYTES`].
    fn keep_upload(&mut self, mut bytes: Vec<u8>, returned: u64) {
        if self.upload_bytes() + bytes.capacity() <= SPARE_UPLOAD_BYTES {
            bytes.clear();
            self.uploads.push(SpareBytes { bytes, returned });
        }
    }

    /// An empty buffer for an upload of `len` bytes: the smallest spare that holds them
    /// without growing, else a new one of exactly that capacity.
    pub(super) fn upload_buffer(&mut self, len: usize) -> Vec<u8> {
        let fitting = (0..self.uploads.len())
            .filter(|&i| self.uploads[i].bytes.capacity() >= len)
            .min_by_key(|&i| self.uploads[i].bytes.capacity());
        match fitting {
            Some(i) => self.uploads.remove(i).bytes,
            None => Vec::with_capacity(len),
        }
    }

    /// Spare upload buffers kept, and their bytes.
    pub fn upload_spares(&self) -> (usize, usize) {
        (self.uploads.len(), self.upload_bytes())
    }

    /// The bytes the spare upload buffers hold.
    fn upload_bytes(&self) -> usize {
        self.uploads.iter().map(|spare| spare.bytes.capacity()).sum()
    }

    /// `geometry` in a box, a spare one of a submitted frame when there is one.
    pub(super) fn boxed_geometry(&mut self, geometry: GeometryDraw) -> Box<GeometryDraw> {
        let mut boxed = self.spare_geometry();
        *boxed = geometry;
        boxed
    }

    /// A box holding the draw of nothing: a spare one of a submitted frame, whose lists keep
    /// their capacity, when there is one.
    pub(super) fn spare_geometry(&mut self) -> Box<GeometryDraw> {
        self.geometries.pop().unwrap_or_default()
    }

    /// How many spare geometry boxes are kept.
    pub fn geometry_count(&self) -> usize {
        self.geometries.len()
    }

    /// How many spare lists are kept: (node lists, attachment lists, op lists, texture lists).
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        (self.nodes.len(), self.colors.len(), self.ops.len(), self.textures.len())
    }
}

/// Keeps an empty `list` that has capacity, unless `spares` already holds `bound` lists.
fn keep<T>(spares: &mut Vec<Vec<T>>, list: Vec<T>, bound: usize) {
    debug_assert!(list.is_empty());
    if list.capacity() > 0 && spares.len() < bound {
        spares.push(list);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::builder::FrameBuilder;
    use crate::commands::Draw;
    use crate::commands::{Clear, ColorBinding};
    use crate::compile::testkit::{back_buffer, basic_cube, draw, target, texture, DISCARD};
    use crate::geometry::GeometryDraw;

    fn op(texture: &Arc<crate::TextureState>) -> Draw {
        match draw(texture) {
            PassOp::Draw(d) => d,
            _ => unreachable!(),
        }
    }

    /// A frame recorded after its predecessor's lists came back records into those lists:
    /// the same allocations, emptied, and the textures they held are released.
    #[test]
    fn a_recycled_frame_records_into_the_lists_of_the_last_one() {
        let mut builder = FrameBuilder::new(back_buffer(8, 8, DISCARD));
        let rt = target(4, 4, 0, DISCARD);
        let sampled = texture(2, 2, 1);
        builder.bind(vec![ColorBinding { target: rt.clone(), layer: 0 }]);
        builder.draw(op(&sampled));
        builder.bind(Vec::new());
        builder.clear(Clear { color: Some([0.0; 4]), ..Default::default() });
        let mut frame = builder.take_frame();
        let nodes = frame.nodes.as_ptr();
        let segments: Vec<_> = frame
            .nodes
            .iter()
            .map(|n| match n {
                Node::Pass(s) => (s.colors.as_ptr(), s.ops.as_ptr()),
                _ => unreachable!(),
            })
            .collect();
        let held = Arc::strong_count(&sampled);
        let mut spares = SpareLists::default();
        spares.take_from(&mut frame);
        assert!(frame.nodes.is_empty());
        assert_eq!(spares.counts(), (1, 2, 2, 0));
        assert_eq!(Arc::strong_count(&sampled), held - 1, "the draw's texture is released");
        builder.recycle(&mut spares);
        assert_eq!(spares.counts(), (0, 0, 0, 0));

        builder.bind(vec![ColorBinding { target: rt, layer: 0 }]);
        builder.draw(op(&sampled));
        builder.bind(Vec::new());
        builder.draw(op(&sampled));
        let frame = builder.take_frame();
        assert_eq!(frame.nodes.as_ptr(), nodes, "the node list is reused");
        for node in &frame.nodes {
            let Node::Pass(s) = node else { unreachable!() };
            let (colors, ops) = (s.colors.as_ptr(), s.ops.as_ptr());
            assert!(segments.iter().any(|&(c, _)| c == colors), "an attachment list is reused");
            assert!(segments.iter().any(|&(_, o)| o == ops), "an op list is reused");
        }
    }

    /// A 3D draw recorded after its predecessor's frame came back is boxed in that frame's
    /// geometry box, emptied of the buffers and textures it held.
    #[test]
    fn a_recycled_frame_boxes_its_geometry_in_the_last_frames_boxes() {
        let mut builder = FrameBuilder::new(back_buffer(8, 8, DISCARD));
        let sampled = texture(2, 2, 1);
        let PassOp::Draw(mut d) = basic_cube(&sampled, 1.0, [0.0; 4]) else { unreachable!() };
        let geometry = *d.geometry.take().unwrap();
        let mut texture2 = Some((texture(2, 2, 1), crate::SamplerState::default()));
        let held = Arc::clone(&texture2.as_ref().unwrap().0);
        let mut first = geometry.clone();
        first.texture2 = texture2.take();
        d.geometry = Some(builder.boxed_geometry(first));
        let boxed: *const GeometryDraw = &**d.geometry.as_ref().unwrap();
        builder.bind(Vec::new());
        builder.draw(d);
        let mut frame = builder.take_frame();
        let mut spares = SpareLists::default();
        spares.take_from(&mut frame);
        assert_eq!(spares.geometry_count(), 1);
        assert_eq!(Arc::strong_count(&held), 1, "the spare box no longer holds its texture");
        builder.recycle(&mut spares);

        let again = builder.boxed_geometry(geometry.clone());
        assert_eq!(&*again as *const GeometryDraw, boxed, "the box is reused");
        assert_eq!(again.call, geometry.call);
        assert!(again.texture2.is_none());
        let fresh = builder.boxed_geometry(geometry);
        assert_ne!(&*fresh as *const GeometryDraw, boxed, "no spare left: a new box");
    }

    /// A spare box handed out to be filled in place holds the draw of nothing, with the lists
    /// of the draw it held before (emptied, their capacity kept), so a draw written into it
    /// allocates no list.
    #[test]
    fn a_spare_geometry_box_holds_the_draw_of_nothing_with_its_lists_kept() {
        let mut builder = FrameBuilder::new(back_buffer(8, 8, DISCARD));
        let sampled = texture(2, 2, 1);
        let PassOp::Draw(d) = basic_cube(&sampled, 1.0, [0.0; 4]) else { unreachable!() };
        let geometry = d.geometry.as_ref().unwrap();
        assert!(!geometry.streams.is_empty() && !geometry.layout.bindings.is_empty());
        let (streams, bindings) = (geometry.streams.as_ptr(), geometry.layout.bindings.as_ptr());
        builder.bind(Vec::new());
        builder.draw(d);
        let mut frame = builder.take_frame();
        let mut spares = SpareLists::default();
        spares.take_from(&mut frame);
        builder.recycle(&mut spares);

        let spare = builder.spare_geometry();
        let nothing = GeometryDraw::default();
        assert!(spare.streams.is_empty() && spare.layout.bindings.is_empty());
        assert_eq!(spare.streams.as_ptr(), streams, "the stream list is kept");
        assert_eq!(spare.layout.bindings.as_ptr(), bindings, "the binding list is kept");
        assert_eq!(spare.layout, nothing.layout);
        assert_eq!(spare.call, nothing.call);
        assert_eq!(spare.material, nothing.material);
        assert!(spare.indices.is_none() && spare.texture2.is_none() && spare.custom.is_none());
        assert_eq!(spare.instances, 1);
        let fresh = builder.spare_geometry();
        assert_eq!(fresh.call, nothing.call, "no spare left: a new box of the draw of nothing");
    }

    #[test]
    fn spares_are_bounded_and_lists_without_capacity_are_not_kept() {
        let mut spares = SpareLists::default();
        for _ in 0..SPARE_NODE_LISTS + 3 {
            let mut frame = FrameCommands::default();
            frame.nodes.reserve(1);
            spares.take_from(&mut frame);
        }
        spares.take_from(&mut FrameCommands::default());
        assert_eq!(spares.counts(), (SPARE_NODE_LISTS, 0, 0, 0));
    }

    /// A draw of several textures gives its texture list back, emptied; the builder hands it
    /// out again for the next such draw.
    #[test]
    fn a_draw_of_several_textures_gives_its_list_back() {
        let mut builder = FrameBuilder::new(back_buffer(8, 8, DISCARD));
        let (a, b) = (texture(2, 2, 1), texture(2, 2, 1));
        let mut list = builder.texture_list();
        list.extend([a.clone(), b.clone()]);
        let mut d = op(&a);
        d.textures = crate::DrawTextures::many(list).unwrap();
        let more = d.textures.more.as_ptr();
        builder.draw(d);
        let mut frame = builder.take_frame();
        let mut spares = SpareLists::default();
        spares.take_from(&mut frame);
        assert_eq!(spares.counts(), (1, 1, 1, 1));
        assert_eq!(Arc::strong_count(&b), 1, "the list's textures are released");
        builder.recycle(&mut spares);
        let list = builder.texture_list();
        assert!(list.is_empty());
        assert_eq!(list.as_ptr(), more, "the same list, handed out again");
    }

    /// A frame holding one texture upload of `data`.
    fn frame_with_upload(builder: &mut FrameBuilder, data: Vec<u8>) -> FrameCommands {
        builder.upload(crate::Upload {
            texture: texture(256, 100, 1),
            level: 0,
            layer: 0,
            rect: crate::Rect::new(0, 0, 256, 100),
            slices: crate::Slices::FLAT,
            image: crate::Image::Color,
            data,
        });
        builder.take_frame()
    }

    /// An upload's buffer comes back emptied with its frame and is handed out again for an
    /// upload it holds (the same allocation), not for a larger one; small buffers are not kept.
    #[test]
    fn upload_buffers_come_back_for_uploads_they_hold() {
        let mut builder = FrameBuilder::new(back_buffer(8, 8, DISCARD));
        let data = vec![7u8; 100 << 10];
        let first = data.as_ptr();
        let mut frame = frame_with_upload(&mut builder, data);
        let mut small = frame_with_upload(&mut builder, vec![1u8; 1 << 10]);
        let mut spares = SpareLists::default();
        spares.take_from(&mut frame);
        spares.take_from(&mut small);
        builder.recycle(&mut spares);
        assert_eq!(builder.upload_spares(), (1, 100 << 10), "only the large buffer is kept");
        let larger = builder.upload_buffer(200 << 10);
        assert_ne!(larger.as_ptr(), first, "a spare too small is not handed out");
        let reused = builder.upload_buffer(80 << 10);
        assert_eq!(reused.as_ptr(), first, "the spare buffer is handed out again");
        assert!(reused.is_empty() && reused.capacity() >= 100 << 10);
        assert_eq!(builder.upload_spares(), (0, 0));
    }

    /// A buffer upload's data comes back as a texture upload's does.
    #[test]
    fn buffer_upload_data_comes_back_too() {
        use crate::buffer::{BufferDesc, BufferKind, BufferState, SetDataOptions};
        use crate::resource::{NativeHandle, RetireSink};
        let mut builder = FrameBuilder::new(back_buffer(8, 8, DISCARD));
        let desc = BufferDesc { size: 128 << 10, kind: BufferKind::Vertex, dynamic: false };
        let buffer = BufferState::new(desc, NativeHandle(900), RetireSink::default());
        let data = vec![3u8; 128 << 10];
        let first = data.as_ptr();
        let options = SetDataOptions::None;
        builder.buffer_upload(crate::BufferUpload { buffer, offset: 0, data, options });
        let mut frame = builder.take_frame();
        let mut spares = SpareLists::default();
        spares.take_from(&mut frame);
        builder.recycle(&mut spares);
        let reused = builder.upload_buffer(100 << 10);
        assert_eq!(reused.as_ptr(), first, "the buffer upload's data is handed out again");
    }

    /// Spare upload buffers are bounded in bytes, and one that no upload took for
    /// SPARE_UPLOAD_FRAMES returned frames is dropped.
    #[test]
    fn spare_upload_buffers_are_bounded_and_age_out() {
        let mut builder = FrameBuilder::new(back_buffer(8, 8, DISCARD));
        let mut spares = SpareLists::default();
        // Capacity only: nothing is written, so no memory is touched.
        for _ in 0..5 {
            let mut frame = frame_with_upload(&mut builder, Vec::with_capacity(100 << 20));
            spares.take_from(&mut frame);
        }
        builder.recycle(&mut spares);
        assert_eq!(builder.upload_spares(), (2, 200 << 20), "kept up to SPARE_UPLOAD_BYTES");
        for _ in 0..SPARE_UPLOAD_FRAMES - 1 {
            builder.recycle(&mut SpareLists::default());
        }
        assert_eq!(builder.upload_spares().0, 2, "kept while younger than the bound");
        builder.recycle(&mut SpareLists::default());
        assert_eq!(builder.upload_spares(), (0, 0), "dropped once older");
    }
}
