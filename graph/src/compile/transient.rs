//! Stage 9, transients: the multisample and depth/stencil images that live only inside the
//! frame, whose memory other such images may share.
//!
//! In: the plan's nodes with their barriers (stage 8) and the tracked state the frame leaves each
//! image in. Out: the plan's [`TransientImages`], and, when the frame asks for aliasing
//! ([`FrameCommands::alias_transients`]), the first barrier of each transient image taking
//! [`Access::Aliased`] as its source.
//!
//! A render target's multisample image and its depth/stencil image are attachments and nothing
//! else (a capture's snapshot aside): nothing samples them, and XNA's `DiscardContents` drops
//! them whenever the target is set. So in most frames such an image's first use overwrites it
//! whole (its first barrier discards) and its last pass drops it (the frame leaves it without
//! content): its memory matters only from its first use to its last. Such an image is
//! *transient* in the frame; two transient images whose node ranges do not overlap can share
//! memory, as industrial render graphs alias their transient resources. The rule is the
//! compiler's own load and store decisions, not a guess about usage: a `PreserveContents` target,
//! a target still bound when the frame ends (its pass goes on in the next frame) and a captured
//! sample image keep their content, so they are *resident* and need memory of their own.
//!
//! The first use of an aliased image waits for every earlier use of the memory: its barrier's
//! source is [`Access::Aliased`] (UNDEFINED, after every attachment, sampling and transfer access
//! a transient image can have had), whatever image used the memory before, in this frame or in
//! an earlier submission. A resident image that a backend moves out of shared memory needs no
//! more: a transient image leaves the frame without content, so the next frame's first use of
//! it discards.
//!
//! The multisample image of a layered (cube) target stays resident: the barriers of its layers
//! merge into one range.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::access::for_each_use;
use super::track::FrameTracker;
use crate::commands::FrameCommands;
use crate::plan::{Access, Image, PlanNode, PlanNodeKind, TransientImage, TransientImages};
use crate::resource::{TextureId, TextureState};

/// One multisample or depth/stencil image the frame uses.
struct Used {
    texture: Arc<TextureState>,
    image: Image,
    layer: u32,
    first: usize,
    last: usize,
}

/// Finds the frame's transient images and, when `frame` asks for aliasing, gives each first
/// barrier its [`Access::Aliased`] source.
pub(crate) fn find_transients(
    frame: &FrameCommands,
    nodes: &mut [PlanNode],
    tracker: &mut FrameTracker,
) -> TransientImages {
    let used = used_images(frame, nodes);
    let mut out = TransientImages { aliased: frame.alias_transients, ..Default::default() };
    for u in used {
        let layered = u.image == Image::Samples && u.texture.desc().layers > 1;
        let enters = !first_use_discards(&nodes[u.first], &u);
        let leaves = tracker.get(&u.texture, u.image, 0, u.layer).defined;
        if layered || enters || leaves {
            out.resident.push((u.texture, u.image, u.layer));
            continue;
        }
        if out.aliased {
            for b in nodes[u.first].barriers.iter_mut().filter(|b| names(b, &u)) {
                b.src = Access::Aliased;
                b.discard = true;
            }
        }
        let nodes = u.first..u.last + 1;
        out.images.push(TransientImage {
            texture: u.texture,
            image: u.image,
            layer: u.layer,
            nodes,
        });
    }
    out
}

/// Every multisample and depth/stencil image the nodes use, with its first and last node, in
/// order of first use. A pass uses them only as attachments (what its draws sample is a colour
/// image), so its draws are not walked.
fn used_images(frame: &FrameCommands, nodes: &[PlanNode]) -> Vec<Used> {
    let mut index: HashMap<(TextureId, Image, u32), usize> = HashMap::new();
    let mut used: Vec<Used> = Vec::new();
    let mut note = |texture: &Arc<TextureState>, image: Image, layers: Range<u32>, i: usize| {
        let layers = match image {
            Image::Color => return,
            Image::DepthStencil => 0..1,
            Image::Samples => layers,
        };
        for layer in layers {
            let next = used.len();
            let at = *index.entry((texture.id(), image, layer)).or_insert(next);
            if at == next {
                let texture = texture.clone();
                used.push(Used { texture, image, layer, first: i, last: i });
            }
            used[at].last = i;
        }
    };
    for (i, node) in nodes.iter().enumerate() {
        match &node.kind {
            PlanNodeKind::Pass(pass) => {
                for att in pass.colors.iter().chain(&pass.depth) {
                    note(&att.texture, att.image, att.layer..att.layer + 1, i);
                }
            }
            kind => for_each_use(kind, frame, |u| note(u.texture, u.image, u.layers, i)),
        }
    }
    used
}

/// Whether a barrier transitions `u`'s image (its level 0, its layer).
fn names(b: &crate::plan::Barrier, u: &Used) -> bool {
    b.texture.id() == u.texture.id()
        && b.image == u.image
        && b.levels.start == 0
        && b.layers.contains(&u.layer)
}

/// Whether the image's first use in the frame overwrites it whole: its barrier there discards.
/// No barrier there means a read after a read of content the image already held.
fn first_use_discards(node: &PlanNode, u: &Used) -> bool {
    node.barriers.iter().filter(|b| names(b, u)).all(|b| b.discard)
        && node.barriers.iter().any(|b| names(b, u))
}

#[cfg(test)]
mod tests;
