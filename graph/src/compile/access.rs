//! What each plan node touches: the subresource ranges it uses and the [`Access`] of each use.
//!
//! In: a [`PlanNodeKind`] with its load ops, stores and resolves already derived, and the frame it
//! indexes. Out: a stream of [`SubresourceUse`]s, consumed by the barrier stage (which transitions
//! each range to the use's access) and by the dependency graph (which derives hazards from whether
//! a use reads or writes).
//!
//! Decided here: a colour attachment is `ColorAttachmentReadWrite` when it is loaded or when a draw
//! of the pass reads the destination (blending, a partial write mask, min/max), and
//! `ColorAttachmentWrite` otherwise; which colour attachments an op writes ([`op_writes`]: a colour
//! clear every attachment, a draw only the outputs of its shader, through its write mask), so an
//! attachment a draw leaves alone is not read by it; the resolved image of a multisampled
//! attachment is written as a colour attachment (Vulkan's resolve attachment); a sampled texture is
//! read at all its levels and layers; a depth/stencil attachment is always read-write (depth tests
//! read it); a transfer clear writes its whole subresource without reading it. An upload or
//! readback of a multisampled target's `Samples` image ([`crate::sample_planes_size`]) or
//! depth/stencil image is a draw, not a copy: the readback samples it in a fragment shader, the
//! upload writes every sample of it as an attachment without reading it (it defines the image like
//! a clear).

use std::ops::Range;
use std::sync::Arc;

use crate::commands::{
    Blend, BlendFunction, BlendState, ColorWriteChannels, FrameCommands, Node, PassOp, PassSegment,
};
use crate::plan::{
    Access, ColorWrites, Image, LoadOp, PlanNodeKind, PlannedAttachment, PlannedPass,
    MAX_COLOR_ATTACHMENTS,
};
use crate::present::PresentMode;
use crate::resource::TextureState;

/// The access a present leaves the back buffer's colour image in: handed to the presentation
/// engine when the frame was drawn straight into the swapchain image, otherwise kept readable
/// (headless, or the source of the copy into the swapchain image).
pub(crate) fn present_access(mode: PresentMode) -> Access {
    match mode {
        PresentMode::Direct => Access::PresentSwapchain,
        PresentMode::Offscreen | PresentMode::Copy | PresentMode::Skip => Access::Present,
    }
}

/// One use of a subresource range by a plan node.
#[derive(Clone, Debug)]
pub(crate) struct SubresourceUse<'a> {
    pub texture: &'a Arc<TextureState>,
    pub image: Image,
    pub levels: Range<u32>,
    pub layers: Range<u32>,
    pub access: Access,
    /// The use overwrites the whole range without reading it first.
    pub discard: bool,
}

impl<'a> SubresourceUse<'a> {
    /// A use of every level and layer of `texture`'s colour image (a sampled texture).
    fn whole(texture: &'a Arc<TextureState>, access: Access) -> Self {
        let desc = texture.desc();
        SubresourceUse {
            texture,
            image: Image::Color,
            levels: 0..desc.mip_levels.max(1),
            layers: 0..desc.layers.max(1),
            access,
            discard: false,
        }
    }

    /// Whether the result depends on what the range held: a read, or a write that keeps part
    /// of it (a partial upload, an attachment that is loaded).
    pub fn reads(&self) -> bool {
        match self.access {
            Access::Nothing | Access::Aliased => false,
            Access::FragmentSampled
            | Access::VertexSampled
            | Access::VertexInput
            | Access::IndexRead
            | Access::TransferRead
            | Access::Present
            | Access::PresentSwapchain => true,
            Access::ColorAttachmentWrite
            | Access::ColorAttachmentReadWrite
            | Access::DepthStencilAttachmentReadWrite
            | Access::TransferWrite => !self.discard,
        }
    }

    pub fn writes(&self) -> bool {
        matches!(
            self.access,
            Access::ColorAttachmentWrite
                | Access::ColorAttachmentReadWrite
                | Access::DepthStencilAttachmentReadWrite
                | Access::TransferWrite
        )
    }
}

/// Whether a draw with this blend state reads the colour already in the attachment.
pub(crate) fn reads_destination(blend: &BlendState) -> bool {
    let uses_destination = |b: Blend| {
        matches!(
            b,
            Blend::DestinationColor
                | Blend::InverseDestinationColor
                | Blend::DestinationAlpha
                | Blend::InverseDestinationAlpha
                | Blend::SourceAlphaSaturation
        )
    };
    let min_max = |f: BlendFunction| matches!(f, BlendFunction::Min | BlendFunction::Max);
    blend.color_write_channels != ColorWriteChannels::ALL
        || blend.color_destination_blend != Blend::Zero
        || blend.alpha_destination_blend != Blend::Zero
        || uses_destination(blend.color_source_blend)
        || uses_destination(blend.alpha_source_blend)
        || min_max(blend.color_blend_function)
        || min_max(blend.alpha_blend_function)
}

/// Which channels of each of a pass's `attachments` colour attachments `op` writes.
pub(crate) fn op_writes(op: &PassOp, attachments: usize) -> ColorWrites {
    match op {
        PassOp::Clear(c) if c.color.is_some() => {
            ColorWrites::on_slots(0xF, attachments, attachments)
        }
        PassOp::Clear(_) | PassOp::Query(_) => ColorWrites::default(),
        PassOp::Draw(d) => ColorWrites::of_draw(&d.pipeline, attachments),
    }
}

/// Whether a transfer of `image` of `texture` moves samples of a multisampled image (its
/// `Samples` image, or the depth/stencil image of a multisampled target): no copy reaches them,
/// so a draw does.
pub(crate) fn transfers_samples(texture: &TextureState, image: Image) -> bool {
    match image {
        Image::Samples => true,
        Image::DepthStencil => texture.desc().render_target.is_some_and(|rt| rt.is_multisampled()),
        Image::Color => false,
    }
}

/// How an upload writes `image` of `texture`: a transfer, except sample planes, which a draw
/// writes into every sample as an attachment.
fn upload_access(texture: &TextureState, image: Image) -> Access {
    match image {
        _ if !transfers_samples(texture, image) => Access::TransferWrite,
        Image::DepthStencil => Access::DepthStencilAttachmentReadWrite,
        _ => Access::ColorAttachmentWrite,
    }
}

/// How a readback reads `image` of `texture`: a transfer, except sample planes, which a
/// fragment shader fetches sample by sample (sampled) to lay them out.
fn readback_access(texture: &TextureState, image: Image) -> Access {
    if transfers_samples(texture, image) {
        Access::FragmentSampled
    } else {
        Access::TransferRead
    }
}

fn one(layer: u32) -> Range<u32> {
    layer..layer.saturating_add(1)
}

fn attachment_use(att: &PlannedAttachment, blends: bool) -> SubresourceUse<'_> {
    let loaded = matches!(att.load, LoadOp::Load);
    let access = match att.image {
        Image::DepthStencil => Access::DepthStencilAttachmentReadWrite,
        _ if loaded || blends => Access::ColorAttachmentReadWrite,
        _ => Access::ColorAttachmentWrite,
    };
    let layers = if att.image == Image::DepthStencil { 0..1 } else { one(att.layer) };
    SubresourceUse {
        texture: &att.texture,
        image: att.image,
        levels: 0..1,
        layers,
        access,
        discard: !loaded,
    }
}

/// How a pass's custom geometry draws sample `texture`: `VertexSampled` when a vertex stage
/// of any of them does (covering fragment sampling too), else `FragmentSampled`.
fn custom_access(
    segment: &PassSegment,
    pass: &PlannedPass,
    texture: crate::resource::TextureId,
) -> Access {
    let vertex = pass.ops.iter().any(|planned| {
        let Some(PassOp::Draw(d)) = segment.ops.get(planned.index) else { return false };
        let custom = d.geometry.as_ref().and_then(|g| g.custom.as_deref());
        custom.is_some_and(|c| {
            c.samplers
                .iter()
                .any(|s| s.stage == crate::custom::CustomStage::Vertex && s.texture.id() == texture)
        })
    });
    if vertex {
        Access::VertexSampled
    } else {
        Access::FragmentSampled
    }
}

/// Calls `f` with every use of `kind`, sampled textures of a pass before its attachments.
pub(crate) fn for_each_use<'a>(
    kind: &'a PlanNodeKind,
    frame: &'a FrameCommands,
    mut f: impl FnMut(SubresourceUse<'a>),
) {
    match kind {
        PlanNodeKind::Pass(pass) => pass_uses(pass, frame, &mut f),
        PlanNodeKind::ClearImages { clears } => {
            for c in clears {
                f(SubresourceUse {
                    texture: &c.texture,
                    image: c.image,
                    levels: one(c.level),
                    layers: one(c.layer),
                    access: Access::TransferWrite,
                    discard: true,
                });
            }
        }
        PlanNodeKind::Upload { node } => {
            if let Some(Node::Upload(u)) = frame.nodes.get(*node) {
                f(SubresourceUse {
                    texture: &u.texture,
                    image: u.image,
                    levels: one(u.level),
                    layers: one(u.layer),
                    access: upload_access(&u.texture, u.image),
                    discard: transfers_samples(&u.texture, u.image) || u.covers_level(),
                });
            }
        }
        PlanNodeKind::Readback { node } => {
            if let Some(Node::Readback(r)) = frame.nodes.get(*node) {
                f(SubresourceUse {
                    texture: &r.texture,
                    image: r.image,
                    levels: one(r.level),
                    layers: one(r.layer),
                    access: readback_access(&r.texture, r.image),
                    discard: false,
                });
            }
        }
        PlanNodeKind::GenerateMips { texture, layer } => {
            let layers = one(*layer);
            let image = Image::Color;
            let access = Access::TransferRead;
            f(SubresourceUse {
                texture,
                image,
                levels: 0..1,
                layers: layers.clone(),
                access,
                discard: false,
            });
            let levels = 1..texture.desc().mip_levels.max(1);
            if !levels.is_empty() {
                let access = Access::TransferWrite;
                f(SubresourceUse { texture, image, levels, layers, access, discard: true });
            }
        }
        // Buffers have no subresources of a texture; their uses are `compile::buffers`'.
        PlanNodeKind::BufferUpload { .. } | PlanNodeKind::BufferReadback { .. } => {}
        PlanNodeKind::Present { node } => {
            if let Some(Node::Present(texture)) = frame.nodes.get(*node) {
                f(SubresourceUse {
                    texture,
                    image: Image::Color,
                    levels: 0..1,
                    layers: 0..1,
                    access: present_access(frame.presentation),
                    discard: false,
                });
            }
        }
    }
}

/// A pass's uses: the textures its draws sample, then each attachment (a colour attachment
/// read-write where a draw reads what is there, its resolve image, the depth/stencil attachment).
fn pass_uses<'a>(
    pass: &'a PlannedPass,
    frame: &'a FrameCommands,
    f: &mut impl FnMut(SubresourceUse<'a>),
) {
    let blends = match frame.nodes.get(pass.segment) {
        Some(Node::Pass(segment)) => sampled_uses(segment, pass, f),
        _ => [false; MAX_COLOR_ATTACHMENTS],
    };
    for (slot, att) in pass.colors.iter().enumerate() {
        f(attachment_use(att, blends.get(slot).copied().unwrap_or(false)));
        if att.resolve {
            f(SubresourceUse {
                texture: &att.texture,
                image: Image::Color,
                levels: 0..1,
                layers: one(att.layer),
                access: Access::ColorAttachmentWrite,
                discard: true,
            });
        }
    }
    if let Some(depth) = &pass.depth {
        f(attachment_use(depth, false));
    }
}

/// The textures the draws of a pass sample, each at every level and layer: a DualTextureEffect
/// draw's second texture, a custom geometry effect's samplers (each once per pass, at the stages
/// that sample it) and the sprite textures (once per run of one texture). Returns, per colour
/// attachment slot, whether a draw reads what is already there (blending, a partial write
/// mask).
fn sampled_uses<'a>(
    segment: &'a PassSegment,
    pass: &'a PlannedPass,
    f: &mut impl FnMut(SubresourceUse<'a>),
) -> [bool; MAX_COLOR_ATTACHMENTS] {
    let mut blends = [false; MAX_COLOR_ATTACHMENTS];
    let mut previous = None;
    let mut sampled = Vec::new();
    for planned in &pass.ops {
        let Some(PassOp::Draw(draw)) = segment.ops.get(planned.index) else {
            continue;
        };
        let blending = reads_destination(&draw.pipeline.blend);
        for (reads, &w) in blends.iter_mut().zip(&planned.writes.0) {
            *reads |= w != 0 && (w != 0xF || blending);
        }
        if let Some(t) = draw.geometry.as_ref().and_then(|g| g.texture2.as_ref().map(|(t, _)| t)) {
            f(SubresourceUse::whole(t, Access::FragmentSampled));
        }
        let custom = draw.geometry.as_ref().and_then(|g| g.custom.as_deref());
        for s in custom.map_or(&[][..], |c| &c.samplers[..]) {
            if sampled.contains(&s.texture.id()) {
                continue;
            }
            sampled.push(s.texture.id());
            f(SubresourceUse::whole(&s.texture, custom_access(segment, pass, s.texture.id())));
        }
        for texture in draw.textures.iter() {
            // Sprite batches sample one texture many times in a row; one use is enough.
            if previous == Some(texture.id()) {
                continue;
            }
            previous = Some(texture.id());
            f(SubresourceUse::whole(texture, Access::FragmentSampled));
        }
    }
    blends
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sprite_draw_writes_only_the_first_attachment_and_a_colour_clear_every_one() {
        use crate::compile::compile;
        use crate::compile::testkit::*;
        let t = texture(1, 1, 1);
        let (a, b) = (target(4, 4, 0, PRESERVE), target(4, 4, 0, PRESERVE));
        let masked = BlendState {
            color_write_channels: ColorWriteChannels::RED | ColorWriteChannels::BLUE,
            ..BlendState::OPAQUE
        };
        let plan = compile(frame(vec![
            bind_many(&[&a, &b], vec![draw(&t), clear_color(RED), draw_with(&t, masked)]),
            unbind(),
        ]));
        let writes: Vec<_> = pass(&plan, 0).ops.iter().map(|o| o.writes.0).collect();
        assert_eq!(writes, [[0xF, 0, 0, 0], [0xF, 0xF, 0, 0], [0b0101, 0, 0, 0]]);
        assert!(plan.to_string().contains("ops [0 (f 0), 1 (f f), 2 (5 0)]"), "{plan}");
        // The partial mask reads the first attachment; no draw touches the second.
        let rows = barriers(&plan, 0);
        let access = |id: u64| rows.iter().find(|r| r.0 == id && r.1 == Image::Color).unwrap().5;
        assert_eq!(access(a.id().0), Access::ColorAttachmentReadWrite);
        assert_eq!(access(b.id().0), Access::ColorAttachmentWrite);
        assert_eq!(op_writes(&clear(None, Some(1.0), None), 2), ColorWrites::default());
    }

    #[test]
    fn a_custom_effect_draw_writes_its_outputs_through_the_mask() {
        use crate::commands::ShaderKind;
        use crate::compile::compile;
        use crate::compile::testkit::*;
        use crate::effect::{EffectKey, EffectState};
        use crate::resource::{NativeHandle, RetireSink};
        let t = texture(1, 1, 1);
        let targets: Vec<_> = (0..4).map(|_| target(4, 4, 0, PRESERVE)).collect();
        let effect = |outputs| {
            EffectState::new(EffectKey { native: NativeHandle(50), outputs }, RetireSink::default())
        };
        let with_effect = |op: PassOp, effect: Arc<EffectState>| match op {
            PassOp::Draw(mut d) => {
                d.pipeline.shader = ShaderKind::Custom(effect.key());
                d.effect = Some(effect);
                PassOp::Draw(d)
            }
            other => other,
        };
        let masked = BlendState {
            color_write_channels: ColorWriteChannels::GREEN | ColorWriteChannels::BLUE,
            ..BlendState::OPAQUE
        };
        let plan = compile(frame(vec![
            bind_many(
                &targets.iter().collect::<Vec<_>>(),
                vec![
                    with_effect(draw(&t), effect(3)),
                    with_effect(draw_with(&t, masked), effect(2)),
                    with_effect(draw(&t), effect(4)),
                ],
            ),
            unbind(),
        ]));
        let writes: Vec<_> = pass(&plan, 0).ops.iter().map(|o| o.writes.0).collect();
        assert_eq!(writes, [[0xF, 0xF, 0xF, 0], [0b0110, 0b0110, 0, 0], [0xF; 4]]);
        // More outputs than attachments write only the attachments there are.
        let two_outputs = with_effect(draw(&t), effect(2));
        assert_eq!(op_writes(&two_outputs, 1).0, [0xF, 0, 0, 0]);
    }

    #[test]
    fn only_blending_that_reads_the_destination_counts() {
        assert!(!reads_destination(&BlendState::OPAQUE));
        assert!(reads_destination(&BlendState::ALPHA_BLEND));
        assert!(reads_destination(&BlendState::ADDITIVE));
        let masked = BlendState {
            color_write_channels: ColorWriteChannels::ALL - ColorWriteChannels::ALPHA,
            ..BlendState::OPAQUE
        };
        assert!(reads_destination(&masked));
        let max = BlendState { color_blend_function: BlendFunction::Max, ..BlendState::OPAQUE };
        assert!(reads_destination(&max));
    }

    /// Each way a blend state can read the destination, alone on top of `Opaque`: one channel
    /// group's destination factor, a destination term in one source factor, min/max on one group.
    #[test]
    fn each_destination_term_alone_reads_the_destination() {
        let o = BlendState::OPAQUE;
        let cases = [
            ("colour destination", BlendState { color_destination_blend: Blend::One, ..o }),
            ("alpha destination", BlendState { alpha_destination_blend: Blend::One, ..o }),
            ("colour source", BlendState { color_source_blend: Blend::DestinationColor, ..o }),
            ("alpha source", BlendState { alpha_source_blend: Blend::DestinationAlpha, ..o }),
            ("colour min", BlendState { color_blend_function: BlendFunction::Min, ..o }),
            ("alpha max", BlendState { alpha_blend_function: BlendFunction::Max, ..o }),
            (
                "alpha masked",
                BlendState {
                    color_write_channels: ColorWriteChannels::ALL - ColorWriteChannels::ALPHA,
                    ..o
                },
            ),
        ];
        for (what, blend) in cases {
            assert!(reads_destination(&blend), "{what}");
        }
        let source_only = BlendState {
            color_source_blend: Blend::SourceAlpha,
            alpha_source_blend: Blend::InverseSourceAlpha,
            ..o
        };
        assert!(!reads_destination(&source_only), "source factors alone do not read it");
    }

    /// A cube face bound as the target is used at its own layer; the other faces keep their
    /// state.
    #[test]
    fn a_bound_cube_face_is_used_at_its_own_layer() {
        use crate::compile::compile;
        use crate::compile::testkit::*;
        use crate::format::{DepthFormat, SurfaceFormat};
        let t = texture(1, 1, 1);
        let cube = render_target(
            8,
            8,
            1,
            6,
            SurfaceFormat::Color,
            0,
            DepthFormat::Depth24,
            PRESERVE,
            false,
        );
        let plan = compile(frame(vec![bind_face(&cube, 3, vec![draw(&t)])]));
        let id = cube.id().0;
        let rows: Vec<_> = barriers(&plan, 0).into_iter().filter(|r| r.0 == id).collect();
        assert_eq!(
            rows,
            [
                (id, Image::Color, 0..1, 3..4, Access::Nothing, Access::ColorAttachmentWrite, true),
                (
                    id,
                    Image::DepthStencil,
                    0..1,
                    0..1,
                    Access::Nothing,
                    Access::DepthStencilAttachmentReadWrite,
                    true
                ),
            ],
            "the face's colour, and the one depth every face shares"
        );
    }
}
