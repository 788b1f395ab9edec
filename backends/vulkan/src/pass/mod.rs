//! Render passes: dynamic rendering over the planned attachments, then the segment's clears and
//! draws.
//!
//! In: a [`PlannedPass`] — attachments with their load/store ops and resolve flags, and the indices
//! of the segment's ops to run. Out: vkCmdBeginRendering (render area = attachment size; a
//! resolving `Samples` attachment averages into the `Color` image's view of that layer, or, on a
//! driver that resolves every view into layer 0, by a transfer resolve right after the pass), the
//! ops (clears via vkCmdClearAttachments on the aspects present; sprite draws with their pipeline,
//! viewport, scissor, transform and texture), vkCmdEndRendering. Nothing here decides a load or
//! store op, or which attachments an op writes: they come from the plan as they are.
//!
//! The ops inside a pass go to their own modules: sprite draws to `sprites`, geometry draws to
//! [`geometry`], occlusion queries to [`queries`]; the descriptor sets a frame's draws share are
//! kept by [`draw_sets`].
//!
//! With [`crate::VulkanConfig::poison_undefined`] (tests), what the plan calls undefined is made
//! visible: a DONT_CARE load becomes a CLEAR to the poison value
//! ([`xnagraph_graph::LoadOp::poisoned_when`]), and an attachment stored with DONT_CARE is
//! overwritten with the poison value by a transfer clear right after the pass (moved to the
//! transfer access and back through the access table), so a wrong decision shows in pixels even on
//! drivers that keep old content under DONT_CARE.

use ash::vk;
use xnagraph_graph::{
    Access, BackendError, Clear, ClearValue, ColorWrites, Image, LoadOp, Node, PassOp,
    PlannedAttachment, PlannedPass, StoreOp,
};

use crate::format::depth_aspects;
use crate::pipeline::PassFormats;
use crate::record::Recorder;
use crate::sync::{image_barrier, layout, record_image_barriers};

pub(crate) mod draw_sets;
pub(crate) mod geometry;
pub(crate) mod queries;
mod sprites;

use sprites::{draw, DrawState};
pub(crate) use sprites::{set_source, viewport_and_scissor};

fn malformed(message: &str) -> BackendError {
    BackendError::Native(format!("malformed plan: {message}"))
}

fn load_op(
    load: LoadOp,
    depth: bool,
) -> Result<(vk::AttachmentLoadOp, vk::ClearValue), BackendError> {
    Ok(match load {
        LoadOp::Load => (vk::AttachmentLoadOp::LOAD, vk::ClearValue::default()),
        LoadOp::DontCare => (vk::AttachmentLoadOp::DONT_CARE, vk::ClearValue::default()),
        LoadOp::Clear(ClearValue::Color(c)) if !depth => (
            vk::AttachmentLoadOp::CLEAR,
            vk::ClearValue { color: vk::ClearColorValue { float32: c } },
        ),
        LoadOp::Clear(ClearValue::DepthStencil { depth: d, stencil }) if depth => (
            vk::AttachmentLoadOp::CLEAR,
            vk::ClearValue { depth_stencil: vk::ClearDepthStencilValue { depth: d, stencil } },
        ),
        LoadOp::Clear(_) => {
            return Err(malformed("clear value of the wrong kind for its attachment"))
        }
    })
}

fn store_op(store: StoreOp) -> vk::AttachmentStoreOp {
    match store {
        StoreOp::Store => vk::AttachmentStoreOp::STORE,
        StoreOp::DontCare => vk::AttachmentStoreOp::DONT_CARE,
    }
}

/// The attachments of a pass, lowered.
struct Attachments {
    colors: Vec<vk::RenderingAttachmentInfo<'static>>,
    depth: Option<vk::RenderingAttachmentInfo<'static>>,
    formats: PassFormats,
    extent: vk::Extent2D,
    /// Indices of the colour attachments whose resolve runs as a transfer after the pass (see
    /// [`crate::device::Gpu::resolve_ignores_view_layer`]).
    late_resolves: Vec<usize>,
}

fn lower_attachments(rec: &Recorder<'_>, pass: &PlannedPass) -> Result<Attachments, BackendError> {
    if pass.colors.is_empty() {
        return Err(malformed("a pass without colour attachments"));
    }
    let mut extent = vk::Extent2D { width: u32::MAX, height: u32::MAX };
    let mut samples = None;
    let mut check =
        |t: &crate::texture::NativeTexture, a: &PlannedAttachment| -> Result<(), BackendError> {
            let s = if a.image == Image::Color { vk::SampleCountFlags::TYPE_1 } else { t.samples };
            if *samples.get_or_insert(s) != s {
                return Err(malformed("attachments with different sample counts"));
            }
            if a.layer >= t.desc.layers {
                return Err(malformed("attachment layer out of range"));
            }
            extent.width = extent.width.min(t.desc.width);
            extent.height = extent.height.min(t.desc.height);
            Ok(())
        };
    let mut colors = Vec::with_capacity(pass.colors.len());
    let mut late_resolves = Vec::new();
    let mut color_formats = Vec::with_capacity(pass.colors.len());
    for a in &pass.colors {
        let t = rec.textures.get(a.texture.native())?;
        if a.image == Image::DepthStencil {
            return Err(malformed("a depth image as a colour attachment"));
        }
        check(t, a)?;
        let (load, clear) = load_op(a.load.poisoned_when(rec.poison_undefined, false), false)?;
        if a.resolve && a.image != Image::Samples {
            return Err(malformed("resolve from a single-sample attachment"));
        }
        // A late resolve reads the samples after the pass: they are kept until then (what the
        // plan decided for them afterwards still holds, poisoned in tests when dropped).
        let late = a.resolve && a.layer != 0 && rec.gpu.resolve_ignores_view_layer;
        if late {
            late_resolves.push(colors.len());
        }
        let store = if late { vk::AttachmentStoreOp::STORE } else { store_op(a.store) };
        let mut info = vk::RenderingAttachmentInfo::default()
            .image_view(t.attachment_view(a.image, a.layer)?)
            .image_layout(layout(Access::ColorAttachmentWrite))
            .load_op(load)
            .store_op(store)
            .clear_value(clear);
        if a.resolve && !late {
            info = info
                .resolve_mode(vk::ResolveModeFlags::AVERAGE)
                .resolve_image_view(t.attachment_view(Image::Color, a.layer)?)
                .resolve_image_layout(layout(Access::ColorAttachmentWrite));
        }
        colors.push(info);
        color_formats.push(t.color_format());
    }
    let mut depth = None;
    let mut depth_format = vk::Format::UNDEFINED;
    if let Some(a) = &pass.depth {
        let t = rec.textures.get(a.texture.native())?;
        if a.image != Image::DepthStencil {
            return Err(malformed("a colour image as the depth attachment"));
        }
        check(t, a)?;
        let (load, clear) = load_op(a.load.poisoned_when(rec.poison_undefined, true), true)?;
        depth = Some(
            vk::RenderingAttachmentInfo::default()
                .image_view(t.attachment_view(Image::DepthStencil, a.layer)?)
                .image_layout(layout(Access::DepthStencilAttachmentReadWrite))
                .load_op(load)
                .store_op(store_op(a.store))
                .clear_value(clear),
        );
        depth_format = t.depth_format;
    }
    let samples = samples.unwrap_or(vk::SampleCountFlags::TYPE_1);
    Ok(Attachments {
        colors,
        depth,
        formats: PassFormats { colors: color_formats, depth: depth_format, samples },
        extent,
        late_resolves,
    })
}

/// The formats and sample count of a pass over `targets` (the first holding the depth buffer,
/// if it has one), as [`lower_attachments`] finds them for the planned pass: each target's
/// colour format, the first's depth format, and the samples drawn into (a multisampled target
/// is drawn through its samples image).
pub(crate) fn target_formats(
    textures: &crate::texture::TextureTable,
    targets: &[std::sync::Arc<xnagraph_graph::TextureState>],
) -> Result<PassFormats, BackendError> {
    let mut colors = Vec::with_capacity(targets.len());
    for target in targets {
        colors.push(textures.get(target.native())?.color_format());
    }
    let first = targets.first().ok_or_else(|| malformed("a pipeline request without targets"))?;
    let t = textures.get(first.native())?;
    let depth = if first.desc().depth_format().has_depth() {
        t.depth_format
    } else {
        vk::Format::UNDEFINED
    };
    Ok(PassFormats { colors, depth, samples: t.samples })
}

pub(crate) fn record_pass(rec: &mut Recorder<'_>, pass: &PlannedPass) -> Result<(), BackendError> {
    let Some(Node::Pass(segment)) = rec.frame.nodes.get(pass.segment) else {
        return Err(malformed("pass names a node that is not a segment"));
    };
    let att = lower_attachments(rec, pass)?;
    let has_stencil = att.depth.is_some()
        && depth_aspects(att.formats.depth).contains(vk::ImageAspectFlags::STENCIL);
    let area = vk::Rect2D { offset: vk::Offset2D { x: 0, y: 0 }, extent: att.extent };
    let mut info = vk::RenderingInfo::default()
        .render_area(area)
        .layer_count(1)
        .color_attachments(&att.colors);
    if let Some(d) = &att.depth {
        info = info.depth_attachment(d);
        if has_stencil {
            info = info.stencil_attachment(d);
        }
    }
    queries::reset_for_pass(rec, pass)?;
    let device = &rec.gpu.device;
    // SAFETY: `cmd` is recording outside any rendering; the views are live and the plan's
    // barriers put them in the layouts named above.
    unsafe { device.cmd_begin_rendering(rec.cmd, &info) };
    let mut state = DrawState::fresh();
    let mut geometry_state = geometry::GeometryState::fresh();
    let mut result = Ok(());
    for op in &pass.ops {
        result = match segment.ops.get(op.index) {
            Some(PassOp::Clear(c)) => {
                clear(rec, c, op.writes, &att, has_stencil);
                Ok(())
            }
            Some(PassOp::Draw(d)) if d.geometry.is_some() => {
                // A geometry draw binds its own pipeline, streams and dynamic state.
                state = DrawState::fresh();
                match segment.ops.get(op.index..op.index + op.instances.max(1) as usize) {
                    Some(run) => geometry::draw(
                        rec,
                        run,
                        op.writes,
                        &att.formats,
                        att.extent,
                        &mut geometry_state,
                    ),
                    None => Err(malformed("a merged run past the segment's ops")),
                }
            }
            Some(PassOp::Draw(d)) => {
                // A sprite draw binds its own pipeline, sets and buffers.
                geometry_state = geometry::GeometryState::fresh();
                draw(rec, d, op.writes, &att, &mut state)
            }
            Some(PassOp::Query(q)) => queries::record_op(rec, q),
            None => Err(malformed("pass op index out of range")),
        };
        if result.is_err() {
            break;
        }
    }
    // SAFETY: rendering was begun above on this command buffer.
    unsafe { rec.gpu.device.cmd_end_rendering(rec.cmd) };
    for &i in &att.late_resolves {
        result = result.and_then(|()| resolve_late(rec, &pass.colors[i], att.extent));
    }
    if rec.poison_undefined {
        result = result.and_then(|()| poison_dropped(rec, pass));
    }
    result
}

/// The resolve of a samples attachment into its layer of the colour image, as a transfer after
/// the pass, for a driver whose resolve attachments ignore the view's layer. Both images are
/// moved to the transfer accesses and back through the access table, so the plan's next barrier
/// finds them as a resolving pass leaves them.
fn resolve_late(
    rec: &Recorder<'_>,
    a: &PlannedAttachment,
    extent: vk::Extent2D,
) -> Result<(), BackendError> {
    let device = &rec.gpu.device;
    let t = rec.textures.get(a.texture.native())?;
    let missing = || malformed("resolve image missing");
    let (samples, samples_layer) = t.image(Image::Samples, a.layer).ok_or_else(missing)?;
    let (color, color_layer) = t.image(Image::Color, a.layer).ok_or_else(missing)?;
    let range = |layer| vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: layer,
        layer_count: 1,
    };
    let (src, dst) = (range(samples_layer), range(color_layer));
    let drawn = Access::ColorAttachmentReadWrite;
    let resolved = Access::ColorAttachmentWrite;
    record_image_barriers(
        device,
        rec.cmd,
        &[
            image_barrier(samples, src, drawn, Access::TransferRead, false),
            image_barrier(color, dst, resolved, Access::TransferWrite, true),
        ],
    );
    let layers = |layer| vk::ImageSubresourceLayers {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        mip_level: 0,
        base_array_layer: layer,
        layer_count: 1,
    };
    let region = vk::ImageResolve {
        src_subresource: layers(samples_layer),
        src_offset: vk::Offset3D::default(),
        dst_subresource: layers(color_layer),
        dst_offset: vk::Offset3D::default(),
        extent: vk::Extent3D { width: extent.width, height: extent.height, depth: 1 },
    };
    // SAFETY: recording outside rendering; the barriers above put the samples in TRANSFER_SRC
    // and the colour layer in TRANSFER_DST, and the images carry those usages.
    unsafe {
        device.cmd_resolve_image(
            rec.cmd,
            samples,
            layout(Access::TransferRead),
            color,
            layout(Access::TransferWrite),
            &[region],
        )
    };
    record_image_barriers(
        device,
        rec.cmd,
        &[
            image_barrier(samples, src, Access::TransferRead, drawn, false),
            image_barrier(color, dst, Access::TransferWrite, resolved, false),
        ],
    );
    Ok(())
}

/// Overwrites every attachment the pass stores with DONT_CARE with the poison value: a transfer
/// clear between a transition to `TransferWrite` and one back to the attachment access, so the
/// plan's next barrier finds the image as the pass left it.
fn poison_dropped(rec: &Recorder<'_>, pass: &PlannedPass) -> Result<(), BackendError> {
    let device = &rec.gpu.device;
    for a in pass.colors.iter().chain(&pass.depth).filter(|a| a.store == StoreOp::DontCare) {
        let t = rec.textures.get(a.texture.native())?;
        let (image, layer) =
            t.image(a.image, a.layer).ok_or_else(|| malformed("attachment image missing"))?;
        let range = vk::ImageSubresourceRange {
            aspect_mask: t.aspect(a.image),
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: layer,
            layer_count: 1,
        };
        let attached = if a.image == Image::DepthStencil {
            Access::DepthStencilAttachmentReadWrite
        } else {
            Access::ColorAttachmentReadWrite
        };
        let to_clear = image_barrier(image, range, attached, Access::TransferWrite, true);
        record_image_barriers(device, rec.cmd, &[to_clear]);
        let dst = layout(Access::TransferWrite);
        // SAFETY: recording outside rendering; the image was just moved to TRANSFER_DST and was
        // created with TRANSFER_DST usage (every attachable image is).
        unsafe {
            match ClearValue::poison(a.image == Image::DepthStencil) {
                ClearValue::DepthStencil { depth, stencil } => {
                    let value = vk::ClearDepthStencilValue { depth, stencil };
                    device.cmd_clear_depth_stencil_image(rec.cmd, image, dst, &value, &[range]);
                }
                ClearValue::Color(float32) => {
                    let value = vk::ClearColorValue { float32 };
                    device.cmd_clear_color_image(rec.cmd, image, dst, &value, &[range]);
                }
            }
        }
        let back = image_barrier(image, range, Access::TransferWrite, attached, false);
        record_image_barriers(device, rec.cmd, &[back]);
    }
    Ok(())
}

fn clear(rec: &Recorder<'_>, c: &Clear, writes: ColorWrites, att: &Attachments, has_stencil: bool) {
    let mut clears = Vec::new();
    if let Some(color) = c.color {
        for i in (0..att.colors.len()).filter(|&i| writes.get(i) != 0) {
            clears.push(vk::ClearAttachment {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                color_attachment: i as u32,
                clear_value: vk::ClearValue { color: vk::ClearColorValue { float32: color } },
            });
        }
    }
    let mut aspects = vk::ImageAspectFlags::empty();
    if att.depth.is_some() && c.depth.is_some() {
        aspects |= vk::ImageAspectFlags::DEPTH;
    }
    if has_stencil && c.stencil.is_some() {
        aspects |= vk::ImageAspectFlags::STENCIL;
    }
    if !aspects.is_empty() {
        clears.push(vk::ClearAttachment {
            aspect_mask: aspects,
            color_attachment: 0,
            clear_value: vk::ClearValue {
                depth_stencil: vk::ClearDepthStencilValue {
                    depth: c.depth.unwrap_or(1.0),
                    stencil: c.stencil.unwrap_or(0),
                },
            },
        });
    }
    if clears.is_empty() {
        return;
    }
    let rect = vk::ClearRect {
        rect: vk::Rect2D { offset: vk::Offset2D::default(), extent: att.extent },
        base_array_layer: 0,
        layer_count: 1,
    };
    // SAFETY: inside rendering; the attachments cleared exist in this pass.
    unsafe { rec.gpu.device.cmd_clear_attachments(rec.cmd, &clears, &[rect]) };
}
