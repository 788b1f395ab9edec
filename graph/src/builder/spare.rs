//! Recycled lists: the emptied vectors of submitted frames, which later frames record into
//! instead of allocating their own.
//!
//! Each frame's node list, each pass segment's attachment and op lists, and the texture list of
//! each draw of several textures ([`crate::DrawTextures`]) are vectors that grow as the frame
//! is recorded. Once a frame has been compiled and submitted, the engine
//! empties them ([`SpareLists::take_from`], away from any lock, since emptying drops the
//! textures they hold) and gives them back to the recorder ([`crate::FrameBuilder::recycle`]),
//! so that after a few frames of warm-up, recording a frame allocates none of them.

use std::sync::Arc;

use crate::commands::{ColorBinding, FrameCommands, Node, PassOp};
use crate::resource::TextureState;

/// At most this many spare node lists are kept (a few frames in flight each hold one).
const SPARE_NODE_LISTS: usize = 8;
/// At most this many spare attachment lists and op lists each (one per pass segment).
const SPARE_SEGMENT_LISTS: usize = 256;

/// Emptied lists of submitted frames, keeping their capacity (see the module doc).
#[derive(Debug, Default)]
pub struct SpareLists {
    pub(super) nodes: Vec<Vec<Node>>,
    pub(super) colors: Vec<Vec<ColorBinding>>,
    pub(super) ops: Vec<Vec<PassOp>>,
    pub(super) textures: Vec<Vec<Arc<TextureState>>>,
}

impl SpareLists {
    /// Empties `frame`'s node list and its pass segments' lists into these spares (dropping
    /// what they held), up to the bounds on spare lists; the sprite and geometry arenas are
    /// left in `frame`.
    pub fn take_from(&mut self, frame: &mut FrameCommands) {
        let mut nodes = std::mem::take(&mut frame.nodes);
        for node in nodes.drain(..) {
            if let Node::Pass(mut segment) = node {
                segment.colors.clear();
                for op in segment.ops.drain(..) {
                    if let PassOp::Draw(draw) = op {
                        let mut more = draw.textures.more;
                        more.clear();
                        keep(&mut self.textures, more, SPARE_SEGMENT_LISTS);
                    }
                }
                keep(&mut self.colors, segment.colors, SPARE_SEGMENT_LISTS);
                keep(&mut self.ops, segment.ops, SPARE_SEGMENT_LISTS);
            }
        }
        keep(&mut self.nodes, nodes, SPARE_NODE_LISTS);
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
    use crate::compile::testkit::{back_buffer, draw, target, texture, DISCARD};

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
}
