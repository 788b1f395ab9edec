//! Stage 5, mips: where the mip cascades of rendered targets go.
//!
//! In: the live passes with their stores and resolves (stages 3–4), in recording order. Out: the
//! plan's node list in execution order, with a [`PlanNodeKind::GenerateMips`] node inserted for
//! each (mipmapped render target, layer) whose level 0 was rendered.
//!
//! A pass writes level 0 of a layer when it renders to that layer's `Color` image directly or
//! resolves into it. The cascade of that layer goes right after the last such pass before the
//! layer's next *read* — a draw sampling the texture, a readback, or an upload (whose level the
//! cascade must not overwrite afterwards, and which sees the cascaded levels, as when XNA
//! regenerates them at unbind) — or after the last such pass of the frame when nothing reads it.
//! The resolve happens at the end of its pass, so the cascade always follows it; a pass that the
//! next stage turns into transfer clears keeps the cascade placed after it. Plain textures
//! (no render-target description) never get generated mips: their upper levels are authored.

use std::sync::Arc;

use super::track::IdMap;
use crate::commands::{FrameCommands, Node, PassOp};
use crate::plan::{Image, PlanNode, PlanNodeKind};
use crate::resource::{TextureId, TextureState};

/// Whether rendering into `texture` must be followed by a mip cascade.
fn has_generated_mips(texture: &TextureState) -> bool {
    let desc = texture.desc();
    desc.render_target.is_some() && desc.mip_levels > 1
}

struct Cascade {
    /// Index (in the input list) of the node the cascade follows.
    after: usize,
    texture: Arc<TextureState>,
    layer: u32,
}

#[derive(Default)]
struct Pending {
    /// (texture, layer) → (last writer, texture) of layers rendered since their last cascade.
    dirty: IdMap<(TextureId, u32), (usize, Arc<TextureState>)>,
    cascades: Vec<Cascade>,
}

impl Pending {
    fn flush(&mut self, id: TextureId, layer: u32) {
        if let Some((after, texture)) = self.dirty.remove(&(id, layer)) {
            self.cascades.push(Cascade { after, texture, layer });
        }
    }

    fn flush_all_layers(&mut self, texture: &TextureState) {
        if self.dirty.is_empty() || !has_generated_mips(texture) {
            return;
        }
        for layer in 0..texture.desc().layers.max(1) {
            self.flush(texture.id(), layer);
        }
    }
}

/// Where cascades go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// Once per run of segments that write level 0, before the next read (the graph's policy).
    SegmentRun,
    /// After every segment that writes level 0 (the frame-blind policy).
    EverySegment,
}

/// Inserts the mip cascades into `nodes` (one plan node per recorded node, in order).
pub(crate) fn insert_mip_cascades(
    frame: &FrameCommands,
    nodes: Vec<PlanNode>,
    placement: Placement,
) -> Vec<PlanNode> {
    let mut pending = Pending::default();
    for (i, node) in nodes.iter().enumerate() {
        match &node.kind {
            PlanNodeKind::Pass(pass) => {
                if let Some(Node::Pass(segment)) = frame.nodes.get(pass.segment) {
                    for op in pass.ops.iter().filter_map(|o| segment.ops.get(o.index)) {
                        if let PassOp::Draw(draw) = op {
                            draw.textures.iter().for_each(|t| pending.flush_all_layers(t));
                        }
                    }
                }
                for att in &pass.colors {
                    let writes_level_0 = att.image == Image::Color || att.resolve;
                    if writes_level_0 && has_generated_mips(&att.texture) {
                        let entry = (i, att.texture.clone());
                        pending.dirty.insert((att.texture.id(), att.layer), entry);
                        if placement == Placement::EverySegment {
                            pending.flush(att.texture.id(), att.layer);
                        }
                    }
                }
            }
            PlanNodeKind::Upload { node } => {
                if let Some(Node::Upload(u)) = frame.nodes.get(*node) {
                    pending.flush(u.texture.id(), u.layer);
                }
            }
            PlanNodeKind::Readback { node } => {
                if let Some(Node::Readback(r)) = frame.nodes.get(*node) {
                    pending.flush(r.texture.id(), r.layer);
                }
            }
            // Made from passes after this stage, but a clear of level 0 is a write like any.
            PlanNodeKind::ClearImages { clears } => {
                for c in clears {
                    let level_0 = c.image == Image::Color && c.level == 0;
                    if level_0 && has_generated_mips(&c.texture) {
                        let entry = (i, c.texture.clone());
                        pending.dirty.insert((c.texture.id(), c.layer), entry);
                    }
                }
            }
            PlanNodeKind::Present { .. }
            | PlanNodeKind::GenerateMips { .. }
            | PlanNodeKind::BufferUpload { .. }
            | PlanNodeKind::BufferReadback { .. } => {}
        }
    }
    let mut rest: Vec<_> = pending.dirty.drain().collect();
    rest.sort_unstable_by_key(|((id, layer), (after, _))| (*after, *id, *layer));
    for ((_, layer), (after, texture)) in rest {
        pending.cascades.push(Cascade { after, texture, layer });
    }
    if pending.cascades.is_empty() {
        return nodes;
    }
    pending.cascades.sort_by_key(|c| c.after);
    let mut out = Vec::with_capacity(nodes.len() + pending.cascades.len());
    let mut cascades = pending.cascades.into_iter().peekable();
    for (i, node) in nodes.into_iter().enumerate() {
        out.push(node);
        while let Some(c) = cascades.next_if(|c| c.after == i) {
            let kind = PlanNodeKind::GenerateMips { texture: c.texture, layer: c.layer };
            out.push(PlanNode { buffer_barriers: Vec::new(), barriers: Vec::new(), kind });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;
    use crate::compile::testkit::*;
    use crate::plan::{Access, FramePlan};

    fn mips_of(plan: &FramePlan, i: usize) -> (TextureId, u32) {
        match &plan.nodes[i].kind {
            PlanNodeKind::GenerateMips { texture, layer } => (texture.id(), *layer),
            other => panic!("node {i} is {other:?}"),
        }
    }

    #[test]
    fn mipmapped_target_gets_cascade_after_last_write_before_read() {
        let (t, rt, other) =
            (texture(4, 4, 1), mipmapped_target(8, 4, PRESERVE), target(4, 4, 0, DISCARD));
        let t2 = target(4, 4, 0, DISCARD);
        let plan = compile(frame(vec![
            bind(&rt, vec![clear_color(RED), draw(&t)]),
            bind(&rt, vec![draw(&t)]),
            bind(&t2, vec![clear_color(BLUE), draw(&t)]),
            bind(&other, vec![clear_color(BLUE), draw(&rt)]),
        ]));
        assert_eq!(kinds(&plan), ["pass", "pass", "mips", "pass", "pass"]);
        assert_eq!(mips_of(&plan, 2), (rt.id(), 0));
        // Level 0 is read by the blits, the upper levels written; afterwards all are sampled
        // from transfer-read.
        let b = barriers(&plan, 2);
        let id = rt.id().0;
        assert!(b.contains(&(
            id,
            Image::Color,
            0..1,
            0..1,
            Access::ColorAttachmentReadWrite,
            Access::TransferRead,
            false
        )));
        assert!(b.contains(&(
            id,
            Image::Color,
            1..4,
            0..1,
            Access::Nothing,
            Access::TransferWrite,
            true
        )));
        let b = barriers(&plan, 4);
        assert!(
            b.contains(&(
                id,
                Image::Color,
                0..4,
                0..1,
                Access::TransferRead,
                Access::FragmentSampled,
                false
            )),
            "{b:?}"
        );
    }

    #[test]
    fn cascade_follows_the_last_write_when_nothing_reads_it() {
        let (t, rt) = (texture(4, 4, 1), mipmapped_target(8, 2, DISCARD));
        let plan =
            compile(frame(vec![bind(&rt, vec![clear_color(RED), draw(&t)]), upload(&t, 0, 0)]));
        assert_eq!(kinds(&plan), ["pass", "mips", "upload"]);
    }

    #[test]
    fn resolve_comes_before_the_cascade_of_each_rendered_face() {
        let t = texture(4, 4, 1);
        let cube = target_cube(8, 3, 4, DISCARD);
        let plan = compile(frame(vec![
            bind_face(&cube, 2, vec![draw(&t)]),
            bind_face(&cube, 5, vec![draw(&t)]),
            readback(&cube, 1, 5),
        ]));
        // Each face's cascade follows the last pass that resolved into it.
        assert_eq!(kinds(&plan), ["pass", "mips", "pass", "mips", "readback"]);
        assert!(pass(&plan, 0).colors[0].resolve);
        assert_eq!(mips_of(&plan, 1), (cube.id(), 2));
        assert_eq!(mips_of(&plan, 3), (cube.id(), 5));
    }

    #[test]
    fn plain_texture_never_gets_generated_mips() {
        let (t, rt) = (texture(8, 8, 4), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![
            upload(&t, 0, 0),
            bind(&rt, vec![clear_color(RED), draw(&t)]),
            readback(&t, 2, 0),
        ]));
        assert_eq!(kinds(&plan), ["upload", "pass", "readback"]);
    }

    #[test]
    fn a_readback_between_two_renders_gets_the_first_renders_cascade() {
        let (t, rt) = (texture(4, 4, 1), mipmapped_target(8, 4, PRESERVE));
        let plan = compile(frame(vec![
            bind(&rt, vec![clear_color(RED), draw(&t)]),
            unbind(),
            readback(&rt, 2, 0),
            bind(&rt, vec![draw(&t)]),
            unbind(),
        ]));
        // Without the rule the one cascade would follow the second render, after the readback
        // had read level 2 unfilled.
        assert_eq!(kinds(&plan), ["pass", "mips", "readback", "pass", "mips", "clear"]);
        assert_eq!(mips_of(&plan, 1), (rt.id(), 0));
        assert_eq!(mips_of(&plan, 4), (rt.id(), 0));
    }

    #[test]
    fn an_upload_between_two_renders_comes_after_the_first_renders_cascade() {
        let (t, rt) = (texture(4, 4, 1), mipmapped_target(8, 4, PRESERVE));
        let plan = compile(frame(vec![
            bind(&rt, vec![clear_color(RED), draw(&t)]),
            unbind(),
            upload(&rt, 2, 0),
            bind(&rt, vec![draw(&t)]),
            unbind(),
        ]));
        // The cascade must not follow the upload: it would overwrite the uploaded level 2.
        assert_eq!(kinds(&plan), ["pass", "mips", "upload", "pass", "mips", "clear"]);
    }

    #[test]
    fn a_read_of_another_layer_does_not_place_this_layers_cascade() {
        let t = texture(4, 4, 1);
        let cube = target_cube(8, 3, 0, PRESERVE);
        let plan = compile(frame(vec![
            bind_face(&cube, 1, vec![clear_color(RED), draw(&t)]),
            unbind(),
            readback(&cube, 1, 4),
            bind_face(&cube, 1, vec![draw(&t)]),
            unbind(),
        ]));
        assert_eq!(kinds(&plan), ["pass", "readback", "pass", "mips", "clear"]);
    }

    #[test]
    fn a_draw_sampling_between_two_renders_gets_the_first_renders_cascade() {
        let (t, rt, other) =
            (texture(4, 4, 1), mipmapped_target(8, 4, PRESERVE), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![
            bind(&rt, vec![clear_color(RED), draw(&t)]),
            bind(&other, vec![clear_color(BLUE), draw(&rt)]),
            bind(&rt, vec![draw(&t)]),
            unbind(),
        ]));
        // Without the rule the one cascade would follow the second render, after the draw had
        // sampled the upper levels unfilled.
        assert_eq!(kinds(&plan), ["pass", "mips", "pass", "pass", "mips", "clear"]);
    }

    /// Once per segment run: consecutive segments writing the target share one cascade, and
    /// two render-then-sample runs of the same target in one frame get one each.
    #[test]
    fn a_cascade_runs_once_per_run_of_segments_that_write_the_target() {
        let (t, rt) = (texture(4, 4, 1), mipmapped_target(8, 4, PRESERVE));
        let (first, second) = (target(4, 4, 0, DISCARD), target(4, 4, 0, DISCARD));
        let plan = compile(frame(vec![
            bind(&rt, vec![clear_color(RED), draw(&t)]),
            bind(&rt, vec![draw(&t)]),
            bind(&first, vec![draw(&rt)]),
            bind(&rt, vec![draw(&t)]),
            bind(&rt, vec![draw(&t)]),
            bind(&second, vec![draw(&rt)]),
            unbind(),
        ]));
        let run = ["pass", "pass", "mips", "pass"];
        assert_eq!(kinds(&plan)[..8], [run, run].concat());
        assert_eq!((mips_of(&plan, 2), mips_of(&plan, 6)), ((rt.id(), 0), (rt.id(), 0)));
        let cascades = kinds(&plan).iter().filter(|k| **k == "mips").count();
        assert_eq!(cascades, 2);
    }

    /// Transfer clears are made after this stage, but one placed before it is a write of
    /// level 0 like any other: only a clear of the `Color` image's level 0 of a target with
    /// generated mips is followed by a cascade.
    #[test]
    fn a_transfer_clear_of_level_0_colour_is_followed_by_its_cascade() {
        use crate::format::{DepthFormat, SurfaceFormat};
        use crate::plan::{ClearValue, ImageClear};
        let mipmapped =
            render_target(8, 8, 3, 1, SurfaceFormat::Color, 4, DepthFormat::None, DISCARD, false);
        let one_level = target(8, 8, 4, DISCARD);
        let cascades = |texture: &Arc<TextureState>, image, level| {
            let value = ClearValue::Color(RED);
            let clears =
                vec![ImageClear { texture: texture.clone(), image, level, layer: 0, value }];
            let nodes = vec![PlanNode {
                buffer_barriers: Vec::new(),
                barriers: Vec::new(),
                kind: PlanNodeKind::ClearImages { clears },
            }];
            insert_mip_cascades(&FrameCommands::default(), nodes, Placement::SegmentRun).len() - 1
        };
        assert_eq!(cascades(&mipmapped, Image::Color, 0), 1);
        assert_eq!(cascades(&mipmapped, Image::Samples, 0), 0, "the samples are not level 0");
        assert_eq!(cascades(&mipmapped, Image::Color, 1), 0, "an upper level is the cascade's");
        assert_eq!(cascades(&one_level, Image::Color, 0), 0, "no generated mips");
    }

    #[test]
    fn upload_to_an_upper_level_comes_after_the_cascade() {
        let (t, rt) = (texture(4, 4, 1), mipmapped_target(8, 4, PRESERVE));
        let plan =
            compile(frame(vec![bind(&rt, vec![clear_color(RED), draw(&t)]), upload(&rt, 2, 0)]));
        assert_eq!(kinds(&plan), ["pass", "mips", "upload"]);
    }
}
