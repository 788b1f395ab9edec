//! Stage 3, store ops: what each attachment keeps when its pass ends, and which multisampled
//! attachments resolve.
//!
//! In: passes with their load ops (stage 2) in recording order. Out: every attachment's
//! [`StoreOp`] and `resolve` flag.
//!
//! One backward walk over the frame remembers, per (texture, image, layer), the next event that
//! touches level 0 after the node being decided:
//! - a *read*: a later pass loads it or samples it, a readback (of the samples too: a capture's
//!   sample planes), an upload (which may keep the texels it does not cover, and whose level a
//!   mip cascade must not overwrite), a present;
//! - an *overwrite*: a later pass CLEARs it or does not care about it, or resolves into it, or
//!   an upload of sample planes rewrites every sample.
//!
//! STORE when the next event reads; DONT_CARE when it overwrites. With no later event the content
//! must survive the frame when something could still observe it: the resolved `Color` image of
//! any render target (it may be sampled or read back in a later frame), the samples and
//! depth/stencil of a preserving target (its next bind loads them), and every attachment of the
//! bind cycle that was still open when the frame was flushed ([`FrameCommands::open_cycle`]: the
//! next frame continues that cycle and loads them). The samples and depth of a DiscardContents
//! target are therefore dropped unless a later segment of this frame, or of the next frame
//! continuing its cycle, loads them. A multisampled attachment resolves unless its `Color` image
//! is overwritten before anything reads it.

use super::track::IdMap;
use crate::commands::{FrameCommands, Node, PassOp};
use crate::plan::{Image, LoadOp, PlanNode, PlanNodeKind, PlannedAttachment, StoreOp};
use crate::resource::TextureId;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    Read,
    Overwrite,
}

type Key = (TextureId, Image, u32);

fn key(att: &PlannedAttachment) -> Key {
    (att.texture.id(), att.image, att.layer)
}

/// Whether content left in `image` at the end of the frame can still be observed.
fn survives_frame(att: &PlannedAttachment) -> bool {
    match att.image {
        Image::Color => true,
        Image::Samples | Image::DepthStencil => {
            att.texture.desc().render_target.is_some_and(|rt| rt.usage.preserves_contents())
        }
    }
}

fn store_for(att: &PlannedAttachment, next: Option<Next>) -> StoreOp {
    match next {
        Some(Next::Read) => StoreOp::Store,
        Some(Next::Overwrite) => StoreOp::DontCare,
        None if survives_frame(att) => StoreOp::Store,
        None => StoreOp::DontCare,
    }
}

/// Decides every attachment's store op and resolve.
pub(crate) fn derive_store_ops(frame: &FrameCommands, nodes: &mut [PlanNode]) {
    let mut next: IdMap<Key, Next> = IdMap::default();
    next.reserve(nodes.len() * 2);
    // The continuation of a cycle still open at the flush loads its attachments next frame.
    let open = nodes.iter().find_map(|n| match &n.kind {
        PlanNodeKind::Pass(pass) if Some(pass.segment) == frame.open_cycle => Some(pass),
        _ => None,
    });
    for att in open.iter().flat_map(|pass| pass.colors.iter().chain(pass.depth.iter())) {
        next.insert(key(att), Next::Read);
    }
    for node in nodes.iter_mut().rev() {
        let mut read = |id: TextureId, image: Image, layer: u32| {
            next.insert((id, image, layer), Next::Read);
        };
        match &mut node.kind {
            PlanNodeKind::Pass(pass) => {
                for att in pass.colors.iter_mut().chain(pass.depth.iter_mut()) {
                    att.store = store_for(att, next.get(&key(att)).copied());
                    if att.image == Image::Samples {
                        let resolved = (att.texture.id(), Image::Color, att.layer);
                        att.resolve = next.get(&resolved) != Some(&Next::Overwrite);
                    }
                }
                // This pass's own events, as the earlier nodes see them.
                for att in pass.colors.iter().chain(pass.depth.iter()) {
                    if att.resolve {
                        next.insert((att.texture.id(), Image::Color, att.layer), Next::Overwrite);
                    }
                    let event =
                        if matches!(att.load, LoadOp::Load) { Next::Read } else { Next::Overwrite };
                    next.insert(key(att), event);
                }
                if let Some(Node::Pass(segment)) = frame.nodes.get(pass.segment) {
                    for op in pass.ops.iter().filter_map(|o| segment.ops.get(o.index)) {
                        if let PassOp::Draw(draw) = op {
                            for texture in draw.textures.iter() {
                                for layer in 0..texture.desc().layers.max(1) {
                                    next.insert((texture.id(), Image::Color, layer), Next::Read);
                                }
                            }
                        }
                    }
                }
            }
            PlanNodeKind::Upload { node } => {
                if let Some(Node::Upload(u)) = frame.nodes.get(*node) {
                    // Sample planes rewrite every sample: nothing earlier survives them.
                    if super::access::transfers_samples(&u.texture, u.image) {
                        next.insert((u.texture.id(), u.image, u.layer), Next::Overwrite);
                    } else {
                        read(u.texture.id(), u.image, u.layer);
                    }
                }
            }
            PlanNodeKind::Readback { node } => {
                if let Some(Node::Readback(r)) = frame.nodes.get(*node) {
                    read(r.texture.id(), r.image, r.layer);
                }
            }
            PlanNodeKind::Present { node } => {
                if let Some(Node::Present(t)) = frame.nodes.get(*node) {
                    read(t.id(), Image::Color, 0);
                }
            }
            PlanNodeKind::GenerateMips { texture, layer } => {
                read(texture.id(), Image::Color, *layer)
            }
            // Buffers have no attachments to store.
            PlanNodeKind::BufferUpload { .. } | PlanNodeKind::BufferReadback { .. } => {}
            // Transfer clears are made from passes after this stage; they overwrite what they
            // name all the same.
            PlanNodeKind::ClearImages { clears } => {
                for c in clears.iter().filter(|c| c.level == 0) {
                    next.insert((c.texture.id(), c.image, c.layer), Next::Overwrite);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::compile::compile;
    use crate::compile::testkit::*;
    use crate::format::DepthFormat;
    use crate::plan::{LoadOp, StoreOp};

    #[test]
    fn render_target_color_survives_the_frame() {
        let (t, rt) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![bind(&rt, vec![clear_color(RED), draw(&t)])]));
        assert_eq!(pass(&plan, 0).colors[0].store, StoreOp::Store);
    }

    #[test]
    fn discarding_bind_next_drops_the_store() {
        let (t, rt, kept) = (texture(4, 4, 1), target(4, 4, 0, PRESERVE), target(4, 4, 0, DISCARD));
        // `kept` keeps the first pass observed; `rt` alone is cleared by the next bind.
        let plan = compile(frame(vec![
            bind_many(&[&rt, &kept], vec![clear_color(RED), draw(&t)]),
            bind(&rt, vec![clear_color(BLUE), draw(&t)]),
        ]));
        assert_eq!(pass(&plan, 0).colors[0].store, StoreOp::DontCare);
        assert_eq!(pass(&plan, 0).colors[1].store, StoreOp::Store);
        assert_eq!(pass(&plan, 1).colors[0].store, StoreOp::Store);
    }

    #[test]
    fn sampled_by_a_later_pass_is_stored() {
        let (t, a, b) = (texture(4, 4, 1), target(4, 4, 0, DISCARD), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![
            bind(&a, vec![clear_color(RED), draw(&t)]),
            bind(&b, vec![clear_color(BLUE), draw(&a)]),
            bind(&a, vec![clear_color(RED), draw(&t)]),
        ]));
        assert_eq!(pass(&plan, 0).colors[0].store, StoreOp::Store, "pass 1 samples it first");
    }

    #[test]
    fn preserving_target_stores_samples_and_depth() {
        let t = texture(4, 4, 1);
        let rt = target_with_depth(4, 4, DepthFormat::Depth24Stencil8, PRESERVE);
        let plan = compile(frame(vec![bind(&rt, vec![clear_all(BLACK), draw(&t)])]));
        let p = pass(&plan, 0);
        assert_eq!(p.colors[0].store, StoreOp::Store);
        assert!(p.colors[0].resolve);
        assert_eq!(p.depth.as_ref().unwrap().store, StoreOp::Store);
    }

    #[test]
    fn discard_target_depth_is_stored_only_for_a_continue_that_loads_it() {
        let t = texture(4, 4, 1);
        let rt = target_with_depth(4, 0, DepthFormat::Depth16, DISCARD);
        let plan = compile(frame(vec![
            bind(&rt, vec![draw(&t)]),
            readback(&t, 0, 0),
            resume(&rt, vec![draw(&t)]),
            unbind(),
        ]));
        assert_eq!(pass(&plan, 0).depth.as_ref().unwrap().store, StoreOp::Store);
        assert_eq!(pass(&plan, 2).depth.as_ref().unwrap().load, LoadOp::Load);
        assert_eq!(pass(&plan, 2).depth.as_ref().unwrap().store, StoreOp::DontCare);
    }

    #[test]
    fn a_cycle_open_at_a_flush_keeps_the_samples_and_depth_its_continuation_loads() {
        let t = texture(4, 4, 1);
        let rt = target_with_depth(8, 4, DepthFormat::Depth24Stencil8, DISCARD);
        let mut frames =
            frames(vec![bind(&rt, vec![draw(&t)]), flush(), resume(&rt, vec![draw(&t)]), unbind()])
                .into_iter();
        let plan = compile(frames.next().unwrap());
        let p = pass(&plan, 0);
        assert_eq!(p.colors[0].store, StoreOp::Store, "the next frame loads the samples");
        assert_eq!(p.depth.as_ref().unwrap().store, StoreOp::Store, "and the depth");
        let plan = compile(frames.next().unwrap());
        let p = pass(&plan, 0);
        assert_eq!(p.colors[0].load, LoadOp::Load);
        assert_eq!(p.depth.as_ref().unwrap().load, LoadOp::Load);
        assert_eq!(p.colors[0].store, StoreOp::DontCare, "the cycle ended in this frame");
        assert_eq!(p.depth.as_ref().unwrap().store, StoreOp::DontCare);
    }

    #[test]
    fn a_discard_bind_flushed_before_any_draw_clears_what_the_continuation_loads() {
        let t = texture(4, 4, 1);
        let rt = target_with_depth(8, 4, DepthFormat::Depth24Stencil8, DISCARD);
        let mut frames =
            frames(vec![bind(&rt, vec![]), flush(), resume(&rt, vec![draw(&t)]), unbind()])
                .into_iter();
        let plan = compile(frames.next().unwrap());
        let cleared: Vec<_> = match &plan.nodes[0].kind {
            crate::plan::PlanNodeKind::ClearImages { clears } => {
                clears.iter().map(|c| c.image).collect()
            }
            other => panic!("{other:?}"),
        };
        use crate::plan::Image;
        assert_eq!(cleared, [Image::Color, Image::Samples, Image::DepthStencil]);
        let plan = compile(frames.next().unwrap());
        let p = pass(&plan, 0);
        // Loads of content that exists: a LOAD of never-written content would be DONT_CARE.
        assert_eq!(p.colors[0].load, LoadOp::Load);
        assert_eq!(p.depth.as_ref().unwrap().load, LoadOp::Load);
    }

    /// Transfer clears are made after this stage, but one placed before it overwrites level 0 of
    /// what it names like a discarding bind; a clear of an upper level leaves level 0 alone.
    #[test]
    fn a_transfer_clear_of_level_0_overwrites_what_a_pass_left() {
        use crate::compile::{load, nodes::recorded_nodes};
        use crate::plan::{ClearValue, Image, ImageClear, PlanNode, PlanNodeKind};
        let (t, rt) = (texture(4, 4, 1), mipmapped_target(8, 3, PRESERVE));
        let store_before_a_clear_of = |level| {
            let f = frame(vec![bind(&rt, vec![clear_color(RED), draw(&t)])]);
            let mut nodes = recorded_nodes(&f);
            load::derive_load_ops(&f, &mut nodes);
            let (texture, value) = (rt.clone(), ClearValue::Color(BLUE));
            let clears = vec![ImageClear { texture, image: Image::Color, level, layer: 0, value }];
            nodes.push(PlanNode {
                buffer_barriers: Vec::new(),
                barriers: Vec::new(),
                kind: PlanNodeKind::ClearImages { clears },
            });
            super::derive_store_ops(&f, &mut nodes);
            pass_store(&nodes[0])
        };
        assert_eq!(store_before_a_clear_of(0), StoreOp::DontCare);
        assert_eq!(store_before_a_clear_of(1), StoreOp::Store);
    }

    fn pass_store(node: &crate::plan::PlanNode) -> StoreOp {
        match &node.kind {
            crate::plan::PlanNodeKind::Pass(p) => p.colors[0].store,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn back_buffer_color_is_stored() {
        let (t, bb) = (texture(4, 4, 1), back_buffer(4, 4, DISCARD));
        let plan = compile(frame(vec![bind(&bb, vec![draw(&t)]), present(&bb)]));
        assert_eq!(pass(&plan, 0).colors[0].store, StoreOp::Store);
    }

    #[test]
    fn multisampled_samples_kept_only_when_a_later_bind_loads_them() {
        let t = texture(4, 4, 1);
        let (rt, kept) = (target(4, 4, 4, PRESERVE), target(4, 4, 4, PRESERVE));
        // `kept` keeps the first pass observed; `rt` alone is rendered again.
        let plan = compile(frame(vec![
            bind_many(&[&rt, &kept], vec![clear_color(RED), draw(&t)]),
            bind(&rt, vec![clear_color(BLUE), draw(&t)]),
        ]));
        let first = &pass(&plan, 0).colors[0];
        assert_eq!(first.store, StoreOp::DontCare, "the next bind clears the samples");
        assert!(!first.resolve, "and resolves over the colour before anyone reads it");
        assert_eq!(pass(&plan, 1).colors[0].store, StoreOp::Store, "preserved past the frame");
    }

    /// The resolve is part of the pass that ends the bind cycle (its attachment line says so;
    /// the plan has no resolve node of its own), not of an earlier segment of the same cycle
    /// that an upload split off, and it comes before the pass that samples the target.
    #[test]
    fn the_resolve_happens_in_the_pass_that_ends_the_bind_cycle() {
        let (t, other) = (texture(4, 4, 1), target(4, 4, 0, DISCARD));
        let rt = target(8, 8, 4, DISCARD);
        let plan = compile(frame(vec![
            bind(&rt, vec![draw(&t)]),
            upload(&t, 0, 0),
            resume(&rt, vec![draw(&t)]),
            bind(&other, vec![draw(&rt)]),
        ]));
        assert_eq!(kinds(&plan), ["pass", "upload", "pass", "pass"]);
        let text = plan.to_string();
        // The plan's text: one block per node, opened by "<index>: <kind> ...".
        let mut blocks: Vec<Vec<&str>> = Vec::new();
        for line in text.lines() {
            if line.split(':').next().is_some_and(|n| n.parse::<usize>().is_ok()) {
                blocks.push(Vec::new());
            }
            if let Some(block) = blocks.last_mut() {
                block.push(line.trim());
            }
        }
        assert_eq!(blocks.len(), 4, "no separate resolve node: {text}");
        let name = text.lines().find(|l| l.contains("8x8")).and_then(|l| l.split(':').next());
        let name = name.unwrap();
        let color = |node: usize| -> Vec<&str> {
            blocks[node].iter().copied().filter(|l| l.starts_with("color")).collect()
        };
        let samples = format!("color {name}.samples layer 0");
        assert!(color(0)[0].starts_with(&samples) && !color(0)[0].ends_with("resolve"), "{text}");
        assert!(color(2)[0].starts_with(&samples) && color(2)[0].ends_with("resolve"), "{text}");
        let sampled =
            format!("{name}.color levels 0..1 layers 0..1 ColorAttachmentWrite -> FragmentSampled");
        assert!(blocks[3].iter().any(|l| l.ends_with(&sampled)), "{text}");
    }
}
