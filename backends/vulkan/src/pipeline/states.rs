//! The translation of XNA's device states into Vulkan pipeline and sampler state: blend,
//! depth/stencil and rasterizer states into the fixed-function part of a graphics pipeline
//! (shared by sprite and geometry draws, whose shaders and vertex input come in a
//! [`VertexSide`]), and sampler states into `VkSampler`s. What the device lacks
//! (`fillModeNonSolid`, `independentBlend`, `samplerAnisotropy`) is `NotSupported` here, when
//! the first draw asks for it.

use ash::vk;
use xnagraph_graph::{
    BackendError, Blend, BlendFunction, ColorWrites, CompareFunction, CullMode, FillMode,
    PipelineKey, SamplerState, StencilOperation, TextureAddressMode, TextureFilter,
};

use super::{most_detailed_level, PassFormats, Pipelines, VertexSide};
use crate::device::Gpu;
use crate::format::{depth_aspects, depth_bias_scale};
use crate::vk_error;

impl Pipelines {
    /// Builds a pipeline for `key` over the shaders, vertex input and topology of `side`: the
    /// translation of the draw's blend, depth/stencil and rasterizer states, shared by sprite
    /// and geometry draws.
    pub(crate) fn build_with(
        &self,
        gpu: &Gpu,
        key: &PipelineKey,
        formats: &PassFormats,
        writes: ColorWrites,
        side: &VertexSide<'_>,
    ) -> Result<vk::Pipeline, BackendError> {
        let assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(side.topology);
        let viewport =
            vk::PipelineViewportStateCreateInfo::default().viewport_count(1).scissor_count(1);

        let r = key.rasterizer;
        let polygon_mode = match r.fill_mode {
            FillMode::Solid => vk::PolygonMode::FILL,
            FillMode::WireFrame if gpu.features.fill_mode_non_solid => vk::PolygonMode::LINE,
            FillMode::WireFrame => {
                return Err(BackendError::NotSupported(
                    "FillMode.WireFrame (fillModeNonSolid)".into(),
                ))
            }
        };
        // XNA names the face it culls by its winding on screen; with y pointing down in Vulkan
        // clip space, XNA's clockwise is Vulkan's clockwise.
        let cull = match r.cull_mode {
            CullMode::None => vk::CullModeFlags::NONE,
            CullMode::CullCounterClockwiseFace => vk::CullModeFlags::BACK,
            CullMode::CullClockwiseFace => vk::CullModeFlags::FRONT,
        };
        let bias = f32::from_bits(r.depth_bias_bits);
        let slope = f32::from_bits(r.slope_scale_depth_bias_bits);
        let has_depth = formats.depth != vk::Format::UNDEFINED;
        let bias_on = has_depth && (bias != 0.0 || slope != 0.0);
        let raster = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(polygon_mode)
            .cull_mode(cull)
            .front_face(vk::FrontFace::CLOCKWISE)
            .depth_bias_enable(bias_on)
            .depth_bias_constant_factor(if bias_on {
                bias * depth_bias_scale(formats.depth)
            } else {
                0.0
            })
            .depth_bias_slope_factor(if bias_on { slope } else { 0.0 })
            .line_width(1.0);
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(formats.samples);

        let d = key.depth_stencil;
        let has_stencil =
            has_depth && depth_aspects(formats.depth).contains(vk::ImageAspectFlags::STENCIL);
        let stencil = vk::StencilOpState {
            fail_op: stencil_op(d.stencil_fail),
            pass_op: stencil_op(d.stencil_pass),
            depth_fail_op: stencil_op(d.stencil_depth_buffer_fail),
            compare_op: compare(d.stencil_function),
            compare_mask: d.stencil_mask,
            write_mask: d.stencil_write_mask,
            // Dynamic: set with each draw.
            reference: 0,
        };
        let depth_stencil = vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(has_depth && d.depth_buffer_enable)
            .depth_write_enable(has_depth && d.depth_buffer_enable && d.depth_buffer_write_enable)
            .depth_compare_op(compare(d.depth_buffer_function))
            .stencil_test_enable(has_stencil && d.stencil_enable)
            .front(stencil)
            .back(stencil)
            .min_depth_bounds(0.0)
            .max_depth_bounds(1.0);

        let b = key.blend;
        let blend_on = b.blends();
        if formats.colors.len() > 1 && !gpu.features.independent_blend {
            // Only the first target is written; the others need a different blend state.
            return Err(BackendError::NotSupported(
                "drawing with several render targets bound (independentBlend)".into(),
            ));
        }
        let blend_attachments: Vec<_> = (0..formats.colors.len())
            .map(|i| {
                // The plan says which channels of which attachment the draw writes.
                let mask = vk::ColorComponentFlags::from_raw(u32::from(writes.get(i) & 0xF));
                vk::PipelineColorBlendAttachmentState::default()
                    .blend_enable(blend_on && writes.get(i) != 0)
                    .src_color_blend_factor(blend_factor(b.color_source_blend))
                    .dst_color_blend_factor(blend_factor(b.color_destination_blend))
                    .color_blend_op(blend_op(b.color_blend_function))
                    .src_alpha_blend_factor(blend_factor(b.alpha_source_blend))
                    .dst_alpha_blend_factor(blend_factor(b.alpha_destination_blend))
                    .alpha_blend_op(blend_op(b.alpha_blend_function))
                    .color_write_mask(mask)
            })
            .collect();
        // The blend constants are dynamic: set with each draw.
        let blend =
            vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachments);
        let dynamic_states = [
            vk::DynamicState::VIEWPORT,
            vk::DynamicState::SCISSOR,
            vk::DynamicState::BLEND_CONSTANTS,
            vk::DynamicState::STENCIL_REFERENCE,
        ];
        let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic_states);
        let stencil_format = if has_stencil { formats.depth } else { vk::Format::UNDEFINED };
        let mut rendering = vk::PipelineRenderingCreateInfo::default()
            .color_attachment_formats(&formats.colors)
            .depth_attachment_format(formats.depth)
            .stencil_attachment_format(stencil_format);
        let info = vk::GraphicsPipelineCreateInfo::default()
            .stages(&side.stages)
            .vertex_input_state(&side.input)
            .input_assembly_state(&assembly)
            .viewport_state(&viewport)
            .rasterization_state(&raster)
            .multisample_state(&multisample)
            .depth_stencil_state(&depth_stencil)
            .color_blend_state(&blend)
            .dynamic_state(&dynamic)
            .layout(side.layout)
            .push_next(&mut rendering);
        // SAFETY: every state struct above lives across the call; modules and layout are live.
        let made = unsafe { gpu.device.create_graphics_pipelines(self.cache, &[info], None) };
        match made {
            Ok(p) => Ok(p[0]),
            Err((_, e)) => Err(vk_error("vkCreateGraphicsPipelines", e)),
        }
    }

    /// The sampler for an XNA sampler state sampling a texture of `levels` mip levels.
    pub fn sampler(
        &mut self,
        gpu: &Gpu,
        state: &SamplerState,
        levels: u32,
    ) -> Result<vk::Sampler, BackendError> {
        let state = &SamplerState {
            max_mip_level: most_detailed_level(state.max_mip_level, levels),
            ..*state
        };
        if let Some(s) = self.samplers.get(state) {
            return Ok(*s);
        }
        use vk::Filter as F;
        use vk::SamplerMipmapMode as M;
        let (min, mag, mip) = match state.filter {
            TextureFilter::Linear | TextureFilter::Anisotropic => (F::LINEAR, F::LINEAR, M::LINEAR),
            TextureFilter::Point => (F::NEAREST, F::NEAREST, M::NEAREST),
            TextureFilter::LinearMipPoint => (F::LINEAR, F::LINEAR, M::NEAREST),
            TextureFilter::PointMipLinear => (F::NEAREST, F::NEAREST, M::LINEAR),
            TextureFilter::MinLinearMagPointMipLinear => (F::LINEAR, F::NEAREST, M::LINEAR),
            TextureFilter::MinLinearMagPointMipPoint => (F::LINEAR, F::NEAREST, M::NEAREST),
            TextureFilter::MinPointMagLinearMipLinear => (F::NEAREST, F::LINEAR, M::LINEAR),
            TextureFilter::MinPointMagLinearMipPoint => (F::NEAREST, F::LINEAR, M::NEAREST),
        };
        let anisotropic = state.filter == TextureFilter::Anisotropic;
        if anisotropic && !gpu.features.sampler_anisotropy {
            return Err(BackendError::NotSupported(
                "TextureFilter.Anisotropic (samplerAnisotropy)".into(),
            ));
        }
        let max_anisotropy = state.driver_max_anisotropy(gpu.limits.max_sampler_anisotropy);
        let info = vk::SamplerCreateInfo::default()
            .min_filter(min)
            .mag_filter(mag)
            .mipmap_mode(mip)
            .address_mode_u(address(state.address_u))
            .address_mode_v(address(state.address_v))
            .address_mode_w(address(state.address_w))
            .anisotropy_enable(anisotropic)
            .max_anisotropy(max_anisotropy)
            // XNA's MaxMipLevel is the most detailed level used (clamped above, so the range
            // is never empty: minLod <= maxLod).
            .min_lod(state.max_mip_level as f32)
            .max_lod(vk::LOD_CLAMP_NONE);
        // SAFETY: a valid create info for this device.
        let sampler = unsafe { gpu.device.create_sampler(&info, None) }
            .map_err(|e| vk_error("vkCreateSampler", e))?;
        self.samplers.insert(*state, sampler);
        Ok(sampler)
    }
}

fn blend_factor(b: Blend) -> vk::BlendFactor {
    use vk::BlendFactor as V;
    match b {
        Blend::One => V::ONE,
        Blend::Zero => V::ZERO,
        Blend::SourceColor => V::SRC_COLOR,
        Blend::InverseSourceColor => V::ONE_MINUS_SRC_COLOR,
        Blend::SourceAlpha => V::SRC_ALPHA,
        Blend::InverseSourceAlpha => V::ONE_MINUS_SRC_ALPHA,
        Blend::DestinationColor => V::DST_COLOR,
        Blend::InverseDestinationColor => V::ONE_MINUS_DST_COLOR,
        Blend::DestinationAlpha => V::DST_ALPHA,
        Blend::InverseDestinationAlpha => V::ONE_MINUS_DST_ALPHA,
        Blend::BlendFactor => V::CONSTANT_COLOR,
        Blend::InverseBlendFactor => V::ONE_MINUS_CONSTANT_COLOR,
        Blend::SourceAlphaSaturation => V::SRC_ALPHA_SATURATE,
    }
}

fn blend_op(f: BlendFunction) -> vk::BlendOp {
    match f {
        BlendFunction::Add => vk::BlendOp::ADD,
        BlendFunction::Subtract => vk::BlendOp::SUBTRACT,
        BlendFunction::ReverseSubtract => vk::BlendOp::REVERSE_SUBTRACT,
        BlendFunction::Min => vk::BlendOp::MIN,
        BlendFunction::Max => vk::BlendOp::MAX,
    }
}

fn compare(c: CompareFunction) -> vk::CompareOp {
    match c {
        CompareFunction::Always => vk::CompareOp::ALWAYS,
        CompareFunction::Never => vk::CompareOp::NEVER,
        CompareFunction::Less => vk::CompareOp::LESS,
        CompareFunction::LessEqual => vk::CompareOp::LESS_OR_EQUAL,
        CompareFunction::Equal => vk::CompareOp::EQUAL,
        CompareFunction::GreaterEqual => vk::CompareOp::GREATER_OR_EQUAL,
        CompareFunction::Greater => vk::CompareOp::GREATER,
        CompareFunction::NotEqual => vk::CompareOp::NOT_EQUAL,
    }
}

fn stencil_op(s: StencilOperation) -> vk::StencilOp {
    match s {
        StencilOperation::Keep => vk::StencilOp::KEEP,
        StencilOperation::Zero => vk::StencilOp::ZERO,
        StencilOperation::Replace => vk::StencilOp::REPLACE,
        StencilOperation::Increment => vk::StencilOp::INCREMENT_AND_WRAP,
        StencilOperation::Decrement => vk::StencilOp::DECREMENT_AND_WRAP,
        StencilOperation::IncrementSaturation => vk::StencilOp::INCREMENT_AND_CLAMP,
        StencilOperation::DecrementSaturation => vk::StencilOp::DECREMENT_AND_CLAMP,
        StencilOperation::Invert => vk::StencilOp::INVERT,
    }
}

fn address(mode: TextureAddressMode) -> vk::SamplerAddressMode {
    match mode {
        TextureAddressMode::Wrap => vk::SamplerAddressMode::REPEAT,
        TextureAddressMode::Clamp => vk::SamplerAddressMode::CLAMP_TO_EDGE,
        TextureAddressMode::Mirror => vk::SamplerAddressMode::MIRRORED_REPEAT,
    }
}
