//! Transfers of a multisampled target's sample image: the content a capture's snapshot holds.
//!
//! In: an [`Upload`] or [`Readback`] of [`Image::Samples`] (level 0 of one layer, the whole
//! level) in the backend-neutral encoding of [`sample_planes_size`]: `samples` planes one after
//! another, plane `s` the width × height image of every texel's sample `s`, in the texture's own
//! format. No copy reaches the samples of a multisample image, so both directions draw:
//! - readback ("gather"): a full-screen triangle into a private single-sample image of the
//!   target's format, width × (height · samples), whose fragment stage fetches sample
//!   `y / height` of texel `(x, y mod height)` from the multisample image (sampled: the plan put
//!   it in the fragment-sampled layout); then that image is copied into a host buffer as any
//!   colour readback is.
//! - upload ("scatter"): the planes are copied from the staging buffer into a private image of
//!   that shape, then a full-screen triangle is drawn into the multisample image as a colour
//!   attachment (DONT_CARE, STORE; the plan already discarded it) with per-sample shading
//!   (`sampleRateShading`; without it the upload is `NotSupported`): sample `s` of texel (x, y)
//!   takes the planes' texel `(x, y + s · height)`. Blending is off and every channel written.
//!
//! The round trip goes through the fragment stage's floats, which hold every value of the
//! UNORM, float and packed formats exactly; a signed normalised format (`NormalizedByte2`,
//! `NormalizedByte4`) comes back with -128 as -127 (both are -1.0). The private images and
//! their transitions are this module's own (the transitions through the access table); they
//! are retired with the submission ([`crate::retirement`]).

use std::collections::HashMap;

use ash::vk;
use vk_mem::Alloc;
use xnagraph_graph::{
    sample_planes_size, Access, BackendError, Image, Readback, Rect, Slices, TextureState, Upload,
};

use crate::device::Gpu;
use crate::frame::PendingReadback;
use crate::pipeline::shader_module;
use crate::record::Recorder;
use crate::sync::{image_barrier, layout, record_image_barriers};
use crate::texture::NativeTexture;
use crate::vk_error;

/// Which way a pipeline moves samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Direction {
    /// Multisample image → planes.
    Gather,
    /// Planes → multisample image.
    Scatter,
}

/// The shaders, sampler and pipelines of sample-plane transfers, made at their first use.
#[derive(Default)]
pub(crate) struct SamplePipelines {
    pub vertex: vk::ShaderModule,
    gather: vk::ShaderModule,
    scatter: vk::ShaderModule,
    pub sampler: vk::Sampler,
    pipelines: HashMap<(Direction, vk::Format, vk::SampleCountFlags), vk::Pipeline>,
}

impl SamplePipelines {
    pub fn modules(&mut self, gpu: &Gpu) -> Result<(), BackendError> {
        if self.vertex == vk::ShaderModule::null() {
            self.vertex = shader_module(gpu, &xnagraph_shaders::FULLSCREEN_VERT.words())?;
        }
        if self.gather == vk::ShaderModule::null() {
            self.gather = shader_module(gpu, &xnagraph_shaders::SAMPLE_GATHER_FRAG.words())?;
        }
        if self.scatter == vk::ShaderModule::null() {
            self.scatter = shader_module(gpu, &xnagraph_shaders::SAMPLE_SCATTER_FRAG.words())?;
        }
        if self.sampler == vk::Sampler::null() {
            // Only texel fetches go through it.
            let info = vk::SamplerCreateInfo::default()
                .mag_filter(vk::Filter::NEAREST)
                .min_filter(vk::Filter::NEAREST)
                .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
                .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE);
            // SAFETY: a valid create info for this device.
            self.sampler = unsafe { gpu.device.create_sampler(&info, None) }
                .map_err(|e| vk_error("vkCreateSampler", e))?;
        }
        Ok(())
    }

    /// The pipeline drawing `direction` into an attachment of `format` with `samples` samples
    /// (the planes image's one sample for a gather), through `layout` (set 2: one combined image
    /// sampler).
    fn pipeline(
        &mut self,
        gpu: &Gpu,
        layout: vk::PipelineLayout,
        direction: Direction,
        format: vk::Format,
        samples: vk::SampleCountFlags,
    ) -> Result<vk::Pipeline, BackendError> {
        self.modules(gpu)?;
        let key = (direction, format, samples);
        if let Some(p) = self.pipelines.get(&key) {
            return Ok(*p);
        }
        let count = [samples.as_raw() as i32];
        let entries = [vk::SpecializationMapEntry { constant_id: 0, offset: 0, size: 4 }];
        let specialization = vk::SpecializationInfo::default()
            .map_entries(&entries)
            .data(bytemuck::cast_slice(&count));
        let fragment = match direction {
            Direction::Gather => vk::PipelineShaderStageCreateInfo::default().module(self.gather),
            Direction::Scatter => vk::PipelineShaderStageCreateInfo::default()
                .module(self.scatter)
                .specialization_info(&specialization),
        };
        // The scatter stage reads gl_SampleID, which runs it once per sample; asking for
        // full-rate sample shading says so explicitly.
        let per_sample = direction == Direction::Scatter;
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(samples)
            .sample_shading_enable(per_sample)
            .min_sample_shading(if per_sample { 1.0 } else { 0.0 });
        let depth = vk::PipelineDepthStencilStateCreateInfo::default();
        let attachments = [vk::PipelineColorBlendAttachmentState::default()
            .blend_enable(false)
            .color_write_mask(vk::ColorComponentFlags::RGBA)];
        let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&attachments);
        let formats = [format];
        let mut rendering =
            vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&formats);
        let pipeline = fullscreen_pipeline(
            gpu,
            (layout, self.vertex),
            fragment,
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
        // SAFETY: the caller's contract; null handles are skipped and each is destroyed once.
        unsafe {
            for (_, p) in self.pipelines.drain() {
                gpu.device.destroy_pipeline(p, None);
            }
            if self.sampler != vk::Sampler::null() {
                gpu.device.destroy_sampler(self.sampler, None);
            }
            for m in [self.vertex, self.gather, self.scatter] {
                if m != vk::ShaderModule::null() {
                    gpu.device.destroy_shader_module(m, None);
                }
            }
        }
        *self = SamplePipelines::default();
    }
}

/// A pipeline drawing the full-screen triangle of [`xnagraph_shaders::FULLSCREEN_VERT`]
/// (`vertex`, no vertex input, no culling, viewport and scissor dynamic) with `fragment` (its
/// module and specialisation; the stage and entry point are set here), through `layout`, with
/// the given multisample, depth/stencil, blend and attachment-format states: what every
/// transfer through draws here shares.
pub(crate) fn fullscreen_pipeline(
    gpu: &Gpu,
    (layout, vertex): (vk::PipelineLayout, vk::ShaderModule),
    fragment: vk::PipelineShaderStageCreateInfo<'_>,
    multisample: &vk::PipelineMultisampleStateCreateInfo<'_>,
    depth: &vk::PipelineDepthStencilStateCreateInfo<'_>,
    blend: &vk::PipelineColorBlendStateCreateInfo<'_>,
    rendering: &mut vk::PipelineRenderingCreateInfo<'_>,
) -> Result<vk::Pipeline, BackendError> {
    let stages = [
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(vertex)
            .name(c"main"),
        fragment.stage(vk::ShaderStageFlags::FRAGMENT).name(c"main"),
    ];
    let input = vk::PipelineVertexInputStateCreateInfo::default();
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
        .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
    let viewport =
        vk::PipelineViewportStateCreateInfo::default().viewport_count(1).scissor_count(1);
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        .line_width(1.0);
    let dynamic_states = [vk::DynamicState::VIEWPORT, vk::DynamicState::SCISSOR];
    let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic_states);
    let info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&input)
        .input_assembly_state(&assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(multisample)
        .depth_stencil_state(depth)
        .color_blend_state(blend)
        .dynamic_state(&dynamic)
        .layout(layout)
        .push_next(rendering);
    // SAFETY: every state struct above (and the caller's) lives across the call; modules and
    // layout are live.
    let made =
        unsafe { gpu.device.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None) };
    match made {
        Ok(p) => Ok(p[0]),
        Err((_, e)) => Err(vk_error("vkCreateGraphicsPipelines", e)),
    }
}

/// A private single-sample image of one transfer (the planes), with its view.
pub(crate) struct ScratchImage {
    pub image: vk::Image,
    alloc: vk_mem::Allocation,
    pub view: vk::ImageView,
}

impl ScratchImage {
    pub fn new(
        gpu: &Gpu,
        format: vk::Format,
        extent: vk::Extent2D,
        usage: vk::ImageUsageFlags,
    ) -> Result<ScratchImage, BackendError> {
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D { width: extent.width, height: extent.height, depth: 1 })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        let alloc_info = vk_mem::AllocationCreateInfo {
            usage: vk_mem::MemoryUsage::AutoPreferDevice,
            ..Default::default()
        };
        // SAFETY: a valid create info for this device; the allocator outlives the image.
        let (image, mut alloc) = unsafe { gpu.allocator.create_image(&info, &alloc_info) }
            .map_err(|e| vk_error("vmaCreateImage", e))?;
        let view_info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(format)
            .subresource_range(color_range());
        // SAFETY: `image` is live and the range lies inside it.
        match unsafe { gpu.device.create_image_view(&view_info, None) } {
            Ok(view) => {
                gpu.diagnostics.object_created();
                gpu.diagnostics.object_created();
                crate::device::validation::claim(image, &gpu.diagnostics);
                Ok(ScratchImage { image, alloc, view })
            }
            Err(e) => {
                // SAFETY: never used.
                unsafe { gpu.allocator.destroy_image(image, &mut alloc) };
                Err(vk_error("vkCreateImageView", e))
            }
        }
    }

    /// # Safety
    /// No pending or executing submission may use the image.
    pub unsafe fn destroy(mut self, gpu: &Gpu) {
        // SAFETY: the caller's contract; view and image came from this device and allocator.
        unsafe {
            gpu.device.destroy_image_view(self.view, None);
            gpu.allocator.destroy_image(self.image, &mut self.alloc);
        }
        crate::device::validation::forget(self.image);
        gpu.diagnostics.object_destroyed();
        gpu.diagnostics.object_destroyed();
    }
}

pub(crate) fn color_range() -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    }
}

/// What a sample-plane transfer moves: the multisample image's layer view, its width, height
/// and sample count, and the planes image's extent (width × height · samples).
pub(crate) struct Planes {
    pub view: vk::ImageView,
    pub size: (u32, u32, u32),
    pub extent: vk::Extent2D,
}

/// The [`Planes`] of a transfer of `image` (`Samples`, or a multisampled `DepthStencil`, whose
/// view is its attachment view), after checking that it names the whole level 0 of one layer
/// of a multisampled target whose planes fit in one image.
pub(crate) fn whole_samples(
    gpu: &Gpu,
    (state, image): (&TextureState, Image),
    texture: &NativeTexture,
    (level, layer, rect, slices): (u32, u32, Rect, Slices),
) -> Result<Planes, BackendError> {
    let desc = &texture.desc;
    let (w, h) = desc.level_size(0);
    let samples = texture.samples.as_raw();
    let has_image = match image {
        Image::Samples => !texture.msaa.is_empty(),
        Image::DepthStencil => texture.depth.is_some() && layer == 0,
        Image::Color => false,
    };
    if !has_image || samples <= 1 {
        return Err(BackendError::Native(format!(
            "a sample-plane transfer of layer {layer} of the {image:?} image of a texture that \
             has no such multisampled image"
        )));
    }
    if (level, rect, slices) != (0, Rect::new(0, 0, w as i32, h as i32), Slices::FLAT) {
        return Err(BackendError::Native(format!(
            "a sample-plane transfer covers the whole {w}x{h} level 0, not {rect:?} of level \
             {level}"
        )));
    }
    let view = texture.attachment_view(image, layer)?;
    let planes_height = u64::from(h) * u64::from(samples);
    if planes_height > u64::from(gpu.limits.max_image_dimension2_d) {
        return Err(BackendError::NotSupported(format!(
            "the sample planes of texture \"{}\" ({w}x{h}, {samples} samples: {planes_height} \
             rows, past maxImageDimension2D {})",
            state.name(),
            gpu.limits.max_image_dimension2_d
        )));
    }
    let extent = vk::Extent2D { width: w, height: planes_height as u32 };
    Ok(Planes { view, size: (w, h, samples), extent })
}

/// Draws the full-screen triangle into `target` (`extent`), sampling `source` through the
/// sampler at set 2.
pub(crate) fn draw_fullscreen(
    rec: &mut Recorder<'_>,
    pipeline: vk::Pipeline,
    (source, target): (vk::ImageView, vk::ImageView),
    extent: vk::Extent2D,
) -> Result<(), BackendError> {
    let sampler = rec.pipelines.samples.sampler;
    let src = crate::pass::set_source(rec);
    let set = rec.draw_sets.texture(&src, source, sampler)?;
    let attachment = [vk::RenderingAttachmentInfo::default()
        .image_view(target)
        .image_layout(layout(Access::ColorAttachmentWrite))
        .load_op(vk::AttachmentLoadOp::DONT_CARE)
        .store_op(vk::AttachmentStoreOp::STORE)];
    let area = vk::Rect2D { offset: vk::Offset2D::default(), extent };
    let info = vk::RenderingInfo::default()
        .render_area(area)
        .layer_count(1)
        .color_attachments(&attachment);
    let viewport = vk::Viewport {
        x: 0.0,
        y: 0.0,
        width: extent.width as f32,
        height: extent.height as f32,
        min_depth: 0.0,
        max_depth: 1.0,
    };
    let device = &rec.gpu.device;
    // SAFETY: recording outside rendering; the views are live, the target is in the colour
    // attachment layout and the source in the sampled layout (the plan's barriers or this
    // module's), and the set was written for this frame.
    unsafe {
        device.cmd_begin_rendering(rec.cmd, &info);
        device.cmd_bind_pipeline(rec.cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
        device.cmd_set_viewport(rec.cmd, 0, &[viewport]);
        device.cmd_set_scissor(rec.cmd, 0, &[area]);
        device.cmd_bind_descriptor_sets(
            rec.cmd,
            vk::PipelineBindPoint::GRAPHICS,
            rec.pipelines.layout,
            2,
            &[set],
            &[],
        );
        device.cmd_draw(rec.cmd, 3, 1, 0, 0);
        device.cmd_end_rendering(rec.cmd);
    }
    Ok(())
}

pub(crate) fn planes_copy(buffer_offset: u64, extent: vk::Extent2D) -> vk::BufferImageCopy {
    vk::BufferImageCopy {
        buffer_offset,
        buffer_row_length: 0,
        buffer_image_height: 0,
        image_subresource: vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: 1,
        },
        image_offset: vk::Offset3D::default(),
        image_extent: vk::Extent3D { width: extent.width, height: extent.height, depth: 1 },
    }
}

pub(crate) fn record_samples_readback(
    rec: &mut Recorder<'_>,
    readback: &Readback,
) -> Result<(), BackendError> {
    let texture = rec.textures.get(readback.texture.native())?;
    let region = (readback.level, readback.layer, readback.rect, readback.slices);
    let Planes { view: source, size: (w, h, samples), extent } =
        whole_samples(rec.gpu, (&readback.texture, Image::Samples), texture, region)?;
    let (format, surface) = (texture.format, texture.desc.format);
    let pipeline = rec.pipelines.samples.pipeline(
        rec.gpu,
        rec.pipelines.layout,
        Direction::Gather,
        format,
        vk::SampleCountFlags::TYPE_1,
    )?;
    let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC;
    let planes = ScratchImage::new(rec.gpu, format, extent, usage)?;
    let (image, view) = (planes.image, planes.view);
    rec.scratch.push(planes);
    let to_attachment =
        image_barrier(image, color_range(), Access::Nothing, Access::ColorAttachmentWrite, true);
    record_image_barriers(&rec.gpu.device, rec.cmd, &[to_attachment]);
    draw_fullscreen(rec, pipeline, (source, view), extent)?;
    let to_copy = image_barrier(
        image,
        color_range(),
        Access::ColorAttachmentWrite,
        Access::TransferRead,
        false,
    );
    record_image_barriers(&rec.gpu.device, rec.cmd, &[to_copy]);
    let len = sample_planes_size(surface, w, h, samples);
    // The planes image is in TRANSFER_SRC layout after the barrier above.
    let buffer = crate::transfer::copy_to_host(rec, image, &[planes_copy(0, extent)], len)?;
    rec.readbacks.push(PendingReadback {
        id: readback.id,
        buffer,
        len,
        swap_red_blue: false,
        depth: None,
    });
    Ok(())
}

pub(crate) fn record_samples_upload(
    rec: &mut Recorder<'_>,
    upload: &Upload,
) -> Result<(), BackendError> {
    if !rec.gpu.features.sample_rate_shading {
        return Err(BackendError::NotSupported(
            "restoring a multisampled image's samples (sampleRateShading)".into(),
        ));
    }
    let texture = rec.textures.get(upload.texture.native())?;
    let region = (upload.level, upload.layer, upload.rect, upload.slices);
    let Planes { view: target, size: (w, h, samples), extent } =
        whole_samples(rec.gpu, (&upload.texture, Image::Samples), texture, region)?;
    let expected = sample_planes_size(texture.desc.format, w, h, samples);
    if upload.data.len() != expected {
        return Err(BackendError::Native(format!(
            "sample-plane upload of {} bytes for planes of {expected}",
            upload.data.len()
        )));
    }
    let (format, sample_count) = (texture.format, texture.samples);
    let pipeline = rec.pipelines.samples.pipeline(
        rec.gpu,
        rec.pipelines.layout,
        Direction::Scatter,
        format,
        sample_count,
    )?;
    let (staging, at) = rec.stage(&upload.data)?;
    let usage = vk::ImageUsageFlags::TRANSFER_DST | vk::ImageUsageFlags::SAMPLED;
    let planes = ScratchImage::new(rec.gpu, format, extent, usage)?;
    let (image, view) = (planes.image, planes.view);
    rec.scratch.push(planes);
    let to_copy = image_barrier(image, color_range(), Access::Nothing, Access::TransferWrite, true);
    record_image_barriers(&rec.gpu.device, rec.cmd, &[to_copy]);
    // SAFETY: recording outside rendering; the staging range was written above and the planes
    // image is in TRANSFER_DST layout.
    unsafe {
        rec.gpu.device.cmd_copy_buffer_to_image(
            rec.cmd,
            staging,
            image,
            layout(Access::TransferWrite),
            &[planes_copy(at, extent)],
        )
    };
    let to_sampled =
        image_barrier(image, color_range(), Access::TransferWrite, Access::FragmentSampled, false);
    record_image_barriers(&rec.gpu.device, rec.cmd, &[to_sampled]);
    draw_fullscreen(rec, pipeline, (view, target), vk::Extent2D { width: w, height: h })
}
