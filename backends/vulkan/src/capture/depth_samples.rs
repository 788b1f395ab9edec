//! Transfers of a multisampled target's depth/stencil image: its every sample, as a capture's
//! snapshot holds it.
//!
//! In: an [`Upload`] or [`Readback`] of [`Image::DepthStencil`] of a multisampled target (level
//! 0, layer 0, the whole level) in the backend-neutral encoding of [`depth_stencil_size`] for an
//! image `samples` times as tall: every sample's depth plane as `f32`s (plane `s` is rows
//! `[s · height, (s + 1) · height)`), then every sample's stencil plane as bytes when the format
//! has a stencil. No copy reaches the samples of a multisample image, so both directions draw
//! full-screen triangles ([`crate::capture::samples`] does the same for colour):
//! - readback: the depth aspect is fetched sample by sample (`sampler2DMS`) into a private
//!   `R32_SFLOAT` planes image, the stencil aspect (`usampler2DMS`) into an `R8_UINT` one, both
//!   then copied into one host buffer: the bytes are the encoding as they stand.
//! - upload: the planes are copied from staging into such private images, then one pass over
//!   the multisampled depth/stencil attachment (depth DONT_CARE, stencil cleared to 0, both
//!   STORE) with per-sample shading writes `gl_FragDepth` of every sample from its plane (depth
//!   test always passing), then eight draws, one per stencil bit, write that bit through a
//!   stencil write mask where the plane's byte has it (a fragment lacking it is discarded): no
//!   stencil export is needed.
//!
//! The plan has put the depth image in the fragment-sampled layout for a readback and the
//! attachment layout (discarded) for an upload; the private images are this module's, retired
//! with the submission. Without `sampleRateShading` the upload is `NotSupported`.
//!
//! The SDL_gpu backend's `capture::depth_draws` is not this module's counterpart: it draws where
//! SDL_gpu cannot copy a depth/stencil format at all, and its multisampled readback is refused
//! (see [`crate::capture`]).

use std::collections::HashMap;

use ash::vk;
use xnagraph_graph::{depth_stencil_size, Access, BackendError, Image, Readback, Upload};

use crate::capture::samples::{
    color_range, draw_fullscreen, fullscreen_pipeline, planes_copy, whole_samples, Planes,
    ScratchImage,
};
use crate::device::Gpu;
use crate::frame::{HostBuffer, PendingReadback};
use crate::pipeline::shader_module;
use crate::record::Recorder;
use crate::sync::{host_read_barrier, image_barrier, layout, record_image_barriers};

/// What a pipeline of this module draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    GatherDepth,
    GatherStencil,
    ScatterDepth,
    /// Writes this bit of the stencil.
    ScatterStencil(u32),
}

/// The stages and pipelines of multisampled depth/stencil transfers, made at their first use.
#[derive(Default)]
pub(crate) struct DepthSamplePipelines {
    modules: Vec<vk::ShaderModule>,
    pipelines: HashMap<(Kind, vk::Format, vk::SampleCountFlags), vk::Pipeline>,
}

impl DepthSamplePipelines {
    fn module(&mut self, gpu: &Gpu, kind: Kind) -> Result<vk::ShaderModule, BackendError> {
        if self.modules.is_empty() {
            for stage in [
                xnagraph_shaders::DEPTH_GATHER_FRAG,
                xnagraph_shaders::STENCIL_GATHER_FRAG,
                xnagraph_shaders::DEPTH_SCATTER_FRAG,
                xnagraph_shaders::STENCIL_SCATTER_FRAG,
            ] {
                let module = shader_module(gpu, &stage.words())?;
                self.modules.push(module);
            }
        }
        Ok(self.modules[match kind {
            Kind::GatherDepth => 0,
            Kind::GatherStencil => 1,
            Kind::ScatterDepth => 2,
            Kind::ScatterStencil(_) => 3,
        }])
    }

    /// The pipeline of `kind` over `vertex`, through `layout` (set 2: one combined image
    /// sampler): a gather draws into one colour attachment of `format`, a scatter into a
    /// depth/stencil attachment of `format` with `samples` samples.
    fn pipeline(
        &mut self,
        gpu: &Gpu,
        (layout, vertex): (vk::PipelineLayout, vk::ShaderModule),
        kind: Kind,
        format: vk::Format,
        samples: vk::SampleCountFlags,
    ) -> Result<vk::Pipeline, BackendError> {
        let key = (kind, format, samples);
        if let Some(p) = self.pipelines.get(&key) {
            return Ok(*p);
        }
        let fragment = self.module(gpu, kind)?;
        let bit = match kind {
            Kind::ScatterStencil(bit) => bit as i32,
            _ => 0,
        };
        let constants = [samples.as_raw() as i32, bit];
        let entries = [
            vk::SpecializationMapEntry { constant_id: 0, offset: 0, size: 4 },
            vk::SpecializationMapEntry { constant_id: 1, offset: 4, size: 4 },
        ];
        let scatter = matches!(kind, Kind::ScatterDepth | Kind::ScatterStencil(_));
        let entries =
            if matches!(kind, Kind::ScatterStencil(_)) { &entries[..] } else { &entries[..1] };
        let specialization = vk::SpecializationInfo::default()
            .map_entries(entries)
            .data(bytemuck::cast_slice(&constants));
        let mut fragment_stage = vk::PipelineShaderStageCreateInfo::default().module(fragment);
        if scatter {
            fragment_stage = fragment_stage.specialization_info(&specialization);
        }
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(if scatter { samples } else { vk::SampleCountFlags::TYPE_1 })
            .sample_shading_enable(scatter)
            .min_sample_shading(if scatter { 1.0 } else { 0.0 });
        let stencil = match kind {
            Kind::ScatterStencil(bit) => vk::StencilOpState {
                fail_op: vk::StencilOp::KEEP,
                pass_op: vk::StencilOp::REPLACE,
                depth_fail_op: vk::StencilOp::KEEP,
                compare_op: vk::CompareOp::ALWAYS,
                compare_mask: 0xFF,
                write_mask: 1 << bit,
                reference: 0xFF,
            },
            _ => vk::StencilOpState::default(),
        };
        let depth = vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(kind == Kind::ScatterDepth)
            .depth_write_enable(kind == Kind::ScatterDepth)
            .depth_compare_op(vk::CompareOp::ALWAYS)
            .stencil_test_enable(matches!(kind, Kind::ScatterStencil(_)))
            .front(stencil)
            .back(stencil)
            .max_depth_bounds(1.0);
        let attachments = [vk::PipelineColorBlendAttachmentState::default()
            .blend_enable(false)
            .color_write_mask(vk::ColorComponentFlags::RGBA)];
        let colors = [format];
        let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(if scatter {
            &attachments[..0]
        } else {
            &attachments[..]
        });
        let has_stencil =
            crate::format::depth_aspects(format).contains(vk::ImageAspectFlags::STENCIL);
        let mut rendering = if scatter {
            vk::PipelineRenderingCreateInfo::default()
                .depth_attachment_format(format)
                .stencil_attachment_format(if has_stencil { format } else { vk::Format::UNDEFINED })
        } else {
            vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&colors)
        };
        let pipeline = fullscreen_pipeline(
            gpu,
            (layout, vertex),
            fragment_stage,
            &multisample,
            &depth,
            &blend,
            &mut rendering,
        )?;
        self.pipelines.insert(key, pipeline);
        Ok(pipeline)
    }

    /// # Safety
    /// No submission that used these pipelines may still be executing.
    pub unsafe fn destroy(&mut self, gpu: &Gpu) {
        // SAFETY: the caller's contract; each handle is destroyed once.
        unsafe {
            for (_, p) in self.pipelines.drain() {
                gpu.device.destroy_pipeline(p, None);
            }
            for m in self.modules.drain(..) {
                gpu.device.destroy_shader_module(m, None);
            }
        }
    }
}

/// The pipeline layout and full-screen vertex stage every pipeline here is built over.
fn layout_and_vertex(
    rec: &mut Recorder<'_>,
) -> Result<(vk::PipelineLayout, vk::ShaderModule), BackendError> {
    rec.pipelines.samples.modules(rec.gpu)?;
    Ok((rec.pipelines.layout, rec.pipelines.samples.vertex))
}

/// The planes formats of the depth and stencil aspects.
const PLANES: [(vk::Format, Kind, Kind); 2] = [
    (vk::Format::R32_SFLOAT, Kind::GatherDepth, Kind::ScatterDepth),
    (vk::Format::R8_UINT, Kind::GatherStencil, Kind::ScatterStencil(0)),
];

pub(crate) fn record_depth_samples_readback(
    rec: &mut Recorder<'_>,
    readback: &Readback,
) -> Result<(), BackendError> {
    let texture = rec.textures.get(readback.texture.native())?;
    let region = (readback.level, readback.layer, readback.rect, readback.slices);
    let Planes { size: (w, h, samples), extent, .. } =
        whole_samples(rec.gpu, (&readback.texture, Image::DepthStencil), texture, region)?;
    let views = texture.depth_aspect_views.clone();
    let format = texture.depth_format;
    let texels = w as usize * h as usize * samples as usize;
    let len = texels * 4 + if views.len() > 1 { texels } else { 0 };
    let shared = layout_and_vertex(rec)?;
    let buffer = HostBuffer::new(rec.gpu, len as u64, vk::BufferUsageFlags::TRANSFER_DST, true)?;
    let mut offset = 0u64;
    let mut recorded = Ok(());
    for (view, (planes_format, kind, _)) in views.iter().zip(PLANES) {
        recorded = (|| {
            let pipeline = rec.pipelines.depth_samples.pipeline(
                rec.gpu,
                shared,
                kind,
                planes_format,
                vk::SampleCountFlags::TYPE_1,
            )?;
            let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC;
            let planes = ScratchImage::new(rec.gpu, planes_format, extent, usage)?;
            let (image, planes_view) = (planes.image, planes.view);
            rec.scratch.push(planes);
            let range = color_range();
            let start =
                image_barrier(image, range, Access::Nothing, Access::ColorAttachmentWrite, true);
            record_image_barriers(&rec.gpu.device, rec.cmd, &[start]);
            draw_fullscreen(rec, pipeline, (*view, planes_view), extent)?;
            let to_copy = image_barrier(
                image,
                range,
                Access::ColorAttachmentWrite,
                Access::TransferRead,
                false,
            );
            record_image_barriers(&rec.gpu.device, rec.cmd, &[to_copy]);
            // SAFETY: recording outside rendering; the planes image is in TRANSFER_SRC layout
            // and the range lies inside the fresh buffer.
            unsafe {
                rec.gpu.device.cmd_copy_image_to_buffer(
                    rec.cmd,
                    image,
                    layout(Access::TransferRead),
                    buffer.buffer,
                    &[planes_copy(offset, extent)],
                )
            };
            offset += texels as u64 * 4;
            Ok(())
        })();
        if recorded.is_err() {
            break;
        }
    }
    if let Err(e) = recorded {
        // SAFETY: the submission this was recorded into is never made.
        unsafe { buffer.destroy(rec.gpu) };
        return Err(e);
    }
    let host = [host_read_barrier(buffer.buffer)];
    let dependency = vk::DependencyInfo::default().buffer_memory_barriers(&host);
    // SAFETY: recording outside rendering; the copies above wrote the buffer.
    unsafe { rec.gpu.device.cmd_pipeline_barrier2(rec.cmd, &dependency) };
    rec.readbacks.push(PendingReadback {
        id: readback.id,
        buffer,
        len,
        swap_red_blue: false,
        depth: Some(crate::capture::depth::DepthLayout::sampled(format, texels)),
    });
    Ok(())
}

pub(crate) fn record_depth_samples_upload(
    rec: &mut Recorder<'_>,
    upload: &Upload,
) -> Result<(), BackendError> {
    if !rec.gpu.features.sample_rate_shading {
        return Err(BackendError::NotSupported(
            "restoring a multisampled depth/stencil image's samples (sampleRateShading)".into(),
        ));
    }
    let texture = rec.textures.get(upload.texture.native())?;
    let region = (upload.level, upload.layer, upload.rect, upload.slices);
    let Planes { view: target, size: (w, h, samples), extent } =
        whole_samples(rec.gpu, (&upload.texture, Image::DepthStencil), texture, region)?;
    let depth = upload.texture.desc().render_target.map(|rt| rt.depth).unwrap_or_default();
    let expected = depth_stencil_size(depth, w, h * samples);
    if upload.data.len() != expected {
        return Err(BackendError::Native(format!(
            "multisampled depth upload of {} bytes for planes of {expected}",
            upload.data.len()
        )));
    }
    let (format, sample_count) = (texture.depth_format, texture.samples);
    let has_stencil = crate::format::depth_aspects(format).contains(vk::ImageAspectFlags::STENCIL);
    let texels = w as usize * h as usize * samples as usize;
    let shared = layout_and_vertex(rec)?;
    let (staging, at) = rec.stage(&upload.data)?;
    // The planes of each aspect, sampled.
    let mut sets = Vec::new();
    let aspects = if has_stencil { 2 } else { 1 };
    for (i, (planes_format, _, kind)) in PLANES.into_iter().enumerate().take(aspects) {
        let usage = vk::ImageUsageFlags::TRANSFER_DST | vk::ImageUsageFlags::SAMPLED;
        let planes = ScratchImage::new(rec.gpu, planes_format, extent, usage)?;
        let (image, view) = (planes.image, planes.view);
        rec.scratch.push(planes);
        let range = color_range();
        let to_copy = image_barrier(image, range, Access::Nothing, Access::TransferWrite, true);
        record_image_barriers(&rec.gpu.device, rec.cmd, &[to_copy]);
        let offset = at + (i * texels * 4) as u64;
        // SAFETY: recording outside rendering; the staging range was written above and the
        // planes image is in TRANSFER_DST layout.
        unsafe {
            rec.gpu.device.cmd_copy_buffer_to_image(
                rec.cmd,
                staging,
                image,
                layout(Access::TransferWrite),
                &[planes_copy(offset, extent)],
            )
        };
        let to_sampled =
            image_barrier(image, range, Access::TransferWrite, Access::FragmentSampled, false);
        record_image_barriers(&rec.gpu.device, rec.cmd, &[to_sampled]);
        let sampler = rec.pipelines.samples.sampler;
        let src = crate::pass::set_source(rec);
        sets.push((kind, rec.draw_sets.texture(&src, view, sampler)?));
    }
    // One pass: the depth draw, then a draw per stencil bit.
    let mut draws = Vec::new();
    for (kind, set) in &sets {
        let kinds: Vec<Kind> = match kind {
            Kind::ScatterStencil(_) => (0..8).map(Kind::ScatterStencil).collect(),
            other => vec![*other],
        };
        for k in kinds {
            let pipeline =
                rec.pipelines.depth_samples.pipeline(rec.gpu, shared, k, format, sample_count)?;
            draws.push((pipeline, *set));
        }
    }
    let attachment = vk::RenderingAttachmentInfo::default()
        .image_view(target)
        .image_layout(layout(Access::DepthStencilAttachmentReadWrite))
        .load_op(vk::AttachmentLoadOp::DONT_CARE)
        .store_op(vk::AttachmentStoreOp::STORE);
    let stencil = attachment.load_op(vk::AttachmentLoadOp::CLEAR).clear_value(vk::ClearValue {
        depth_stencil: vk::ClearDepthStencilValue { depth: 1.0, stencil: 0 },
    });
    let size = vk::Extent2D { width: w, height: h };
    let area = vk::Rect2D { offset: vk::Offset2D::default(), extent: size };
    let mut info =
        vk::RenderingInfo::default().render_area(area).layer_count(1).depth_attachment(&attachment);
    if has_stencil {
        info = info.stencil_attachment(&stencil);
    }
    let viewport = vk::Viewport {
        x: 0.0,
        y: 0.0,
        width: w as f32,
        height: h as f32,
        min_depth: 0.0,
        max_depth: 1.0,
    };
    let device = &rec.gpu.device;
    // SAFETY: recording outside rendering; the target is in the depth/stencil attachment layout
    // (the plan's barrier), the planes in the sampled layout (this module's barriers), and the
    // sets were written for this frame.
    unsafe {
        device.cmd_begin_rendering(rec.cmd, &info);
        device.cmd_set_viewport(rec.cmd, 0, &[viewport]);
        device.cmd_set_scissor(rec.cmd, 0, &[area]);
        for (pipeline, set) in draws {
            device.cmd_bind_pipeline(rec.cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
            device.cmd_bind_descriptor_sets(
                rec.cmd,
                vk::PipelineBindPoint::GRAPHICS,
                rec.pipelines.layout,
                2,
                &[set],
                &[],
            );
            device.cmd_draw(rec.cmd, 3, 1, 0, 0);
        }
        device.cmd_end_rendering(rec.cmd);
    }
    Ok(())
}
