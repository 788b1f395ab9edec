//! Graphics pipelines and samplers, built on first use and cached.
//!
//! In: a draw's [`PipelineKey`] plus the attachment formats and sample count of the pass it is
//! in, or its [`SamplerState`] and the mip levels of the texture it samples. Out: a `VkPipeline`
//! (dynamic rendering; viewport, scissor, blend constants and stencil reference dynamic, built
//! through one `VkPipelineCache`) or a `VkSampler`. The translation of XNA's blend,
//! depth/stencil, rasterizer and sampler states to Vulkan lives here. XNA's `BlendFactor` and
//! `ReferenceStencil` change per draw in games (fades, stencil masks), so they are dynamic state
//! set with each draw ([`DynamicState`]) and never select a pipeline: the cache key is the
//! draw's key with both zeroed. The pipeline layout follows the stock shaders' resource layout:
//! set 0 empty, set 1 the vertex uniform block, set 2 the fragment texture. A sprite draw of
//! several textures (unless `VulkanConfig::texture_indexing` is off) uses a second layout whose
//! set 2 is an
//! array of [`MAX_DRAW_TEXTURES`] textures, with the indexing fragment stage; sets 0 and 1 are
//! the same, so the uniform set stays bound across both layouts. A custom effect's
//! fragment module (created with the effect, checked against this layout by the engine)
//! replaces the stock fragment stage; it and the pipelines built from it are freed together
//! once the GPU is done with them.

use std::collections::HashMap;

use ash::vk;
use xnagraph_graph::{
    BackendError, Blend, BlendFunction, ColorWrites, CompareFunction, CullMode, FillMode,
    NativeHandle, PipelineKey, SamplerState, ShaderKind, SpriteInstance, StencilOperation,
    TextureAddressMode, TextureFilter, MAX_DRAW_TEXTURES,
};

use crate::device::Gpu;
use crate::format::{depth_aspects, depth_bias_scale};
use crate::vk_error;

/// What selects one pipeline object.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PassFormats {
    pub colors: Vec<vk::Format>,
    /// `UNDEFINED` without a depth attachment.
    pub depth: vk::Format,
    pub samples: vk::SampleCountFlags,
}

/// The per-draw values the pipelines leave dynamic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct DynamicState {
    /// XNA's `BlendFactor`, as vkCmdSetBlendConstants takes it.
    pub blend_constants: [f32; 4],
    /// XNA's `ReferenceStencil`, for both faces.
    pub stencil_reference: u32,
}

impl DynamicState {
    pub fn of(key: &PipelineKey) -> DynamicState {
        DynamicState {
            blend_constants: key.blend.blend_factor.map(|c| f32::from(c) / 255.0),
            stencil_reference: key.depth_stencil.reference_stencil,
        }
    }
}

/// The key a pipeline is cached under: everything of the draw's key but its dynamic state.
pub(crate) fn static_part(key: &PipelineKey) -> PipelineKey {
    let mut k = *key;
    k.blend.blend_factor = [0; 4];
    k.depth_stencil.reference_stencil = 0;
    k
}

/// XNA's `MaxMipLevel` (the most detailed level a sampler uses) for a texture of `levels`
/// levels: Direct3D 9 clamps it to the least detailed level the texture has.
pub(crate) fn most_detailed_level(max_mip_level: u32, levels: u32) -> u32 {
    max_mip_level.min(levels.max(1) - 1)
}

/// The vertex side of a pipeline: its two stages, vertex input and topology.
pub(crate) struct VertexSide<'a> {
    pub stages: [vk::PipelineShaderStageCreateInfo<'a>; 2],
    pub input: vk::PipelineVertexInputStateCreateInfo<'a>,
    pub topology: vk::PrimitiveTopology,
    /// The pipeline layout: the sprite layout ([`Pipelines::indexed_layout`] for the indexing
    /// sprite stage), the stock geometry effects', or a custom effect program's.
    pub layout: vk::PipelineLayout,
}

pub(crate) struct Pipelines {
    vertex: vk::ShaderModule,
    fragment: vk::ShaderModule,
    /// The stock cube-sampling fragment stage (`ShaderKind::CubeSample`).
    cube_fragment: vk::ShaderModule,
    /// The stock sprite stage indexing an array of textures (a draw of several textures).
    indexed_fragment: vk::ShaderModule,
    /// Sets 0 (empty), 1 (uniform buffer) and 2 (combined image sampler).
    pub set_layouts: [vk::DescriptorSetLayout; 3],
    pub layout: vk::PipelineLayout,
    /// Set 2 of the indexing stage: [`MAX_DRAW_TEXTURES`] combined image samplers.
    pub indexed_set_layout: vk::DescriptorSetLayout,
    /// Sets 0 and 1 as [`Pipelines::layout`], set 2 [`Pipelines::indexed_set_layout`].
    pub indexed_layout: vk::PipelineLayout,
    cache: vk::PipelineCache,
    /// Keyed also by whether the pipeline is the indexing sprite stage's.
    pipelines: HashMap<(PipelineKey, PassFormats, ColorWrites, bool), vk::Pipeline>,
    /// Keyed by the state with its `max_mip_level` already clamped to the sampled texture.
    samplers: HashMap<SamplerState, vk::Sampler>,
    /// Custom effects' fragment stages, by the handle their `EffectState` retires.
    effects: HashMap<NativeHandle, vk::ShaderModule>,
    next_effect: u64,
    /// Geometry draws' pipelines (`crate::geometry`).
    pub geometry: crate::geometry::GeometryPipelines,
}

/// The fragment stage of a sprite draw of several textures drawn at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IndexedStage {
    /// `sprite_indexed.frag`: the array indexed non-uniformly by the sprite's slot.
    NonUniform,
    /// `sprite_branched.frag`: a switch of constant indices.
    Branched,
}

impl IndexedStage {
    /// The stage `mode` asks for on a device that does (`nonuniform`) or does not index
    /// sampled images non-uniformly; `None`: draws of several textures go run by run.
    pub fn choose(mode: crate::TextureIndexing, nonuniform: bool) -> Option<IndexedStage> {
        use crate::TextureIndexing as M;
        match mode {
            M::Auto if nonuniform => Some(IndexedStage::NonUniform),
            M::Auto | M::Runs => None,
            M::Branches => Some(IndexedStage::Branched),
        }
    }
}

/// Marks an effect's handle, so it never equals a texture's.
const EFFECT_HANDLE_TAG: u64 = 1 << 63;

pub(crate) fn shader_module(gpu: &Gpu, words: &[u32]) -> Result<vk::ShaderModule, BackendError> {
    let info = vk::ShaderModuleCreateInfo::default().code(words);
    // SAFETY: the words are the committed SPIR-V of a stock shader, or an effect's that the
    // engine compiled and checked against this pipeline layout.
    unsafe { gpu.device.create_shader_module(&info, None) }
        .map_err(|e| vk_error("vkCreateShaderModule", e))
}

impl Pipelines {
    pub fn new(gpu: &Gpu) -> Result<Pipelines, BackendError> {
        let mut p = Pipelines {
            vertex: vk::ShaderModule::null(),
            fragment: vk::ShaderModule::null(),
            cube_fragment: vk::ShaderModule::null(),
            indexed_fragment: vk::ShaderModule::null(),
            set_layouts: [vk::DescriptorSetLayout::null(); 3],
            layout: vk::PipelineLayout::null(),
            indexed_set_layout: vk::DescriptorSetLayout::null(),
            indexed_layout: vk::PipelineLayout::null(),
            cache: vk::PipelineCache::null(),
            pipelines: HashMap::new(),
            samplers: HashMap::new(),
            effects: HashMap::new(),
            next_effect: 0,
            geometry: Default::default(),
        };
        match p.build_fixed(gpu) {
            Ok(()) => Ok(p),
            Err(e) => {
                // SAFETY: nothing from `p` has been used by the GPU.
                unsafe { p.destroy(gpu) };
                Err(e)
            }
        }
    }

    fn build_fixed(&mut self, gpu: &Gpu) -> Result<(), BackendError> {
        self.vertex = shader_module(gpu, &xnagraph_shaders::SPRITE_VERT.words())?;
        self.fragment = shader_module(gpu, &xnagraph_shaders::SPRITE_FRAG.words())?;
        self.cube_fragment = shader_module(gpu, &xnagraph_shaders::CUBE_SAMPLE_FRAG.words())?;
        let bindings: [&[vk::DescriptorSetLayoutBinding]; 3] = [
            &[],
            &[vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::VERTEX)],
            &[vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::FRAGMENT)],
        ];
        for (i, b) in bindings.iter().enumerate() {
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(b);
            // SAFETY: a valid create info for this device.
            self.set_layouts[i] = unsafe { gpu.device.create_descriptor_set_layout(&info, None) }
                .map_err(|e| vk_error("vkCreateDescriptorSetLayout", e))?;
        }
        let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&self.set_layouts);
        // SAFETY: the set layouts are live.
        self.layout = unsafe { gpu.device.create_pipeline_layout(&info, None) }
            .map_err(|e| vk_error("vkCreatePipelineLayout", e))?;
        if let Some(stage) = gpu.texture_indexing {
            let spirv = match stage {
                IndexedStage::NonUniform => xnagraph_shaders::SPRITE_INDEXED_FRAG,
                IndexedStage::Branched => xnagraph_shaders::SPRITE_BRANCHED_FRAG,
            };
            self.indexed_fragment = shader_module(gpu, &spirv.words())?;
            let binding = [vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .descriptor_count(MAX_DRAW_TEXTURES as u32)
                .stage_flags(vk::ShaderStageFlags::FRAGMENT)];
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&binding);
            // SAFETY: a valid create info for this device.
            self.indexed_set_layout =
                unsafe { gpu.device.create_descriptor_set_layout(&info, None) }
                    .map_err(|e| vk_error("vkCreateDescriptorSetLayout", e))?;
            let layouts = [self.set_layouts[0], self.set_layouts[1], self.indexed_set_layout];
            let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts);
            // SAFETY: the set layouts are live.
            self.indexed_layout = unsafe { gpu.device.create_pipeline_layout(&info, None) }
                .map_err(|e| vk_error("vkCreatePipelineLayout", e))?;
        }
        let info = vk::PipelineCacheCreateInfo::default();
        // SAFETY: an empty cache on a live device.
        self.cache = unsafe { gpu.device.create_pipeline_cache(&info, None) }
            .map_err(|e| vk_error("vkCreatePipelineCache", e))?;
        Ok(())
    }

    /// Creates a custom effect's fragment stage; the handle names it in
    /// [`xnagraph_graph::EffectKey::native`] until [`Pipelines::destroy_effect`].
    pub fn create_effect(
        &mut self,
        gpu: &Gpu,
        spirv: &[u32],
    ) -> Result<NativeHandle, BackendError> {
        if spirv.first() != Some(&0x0723_0203) {
            return Err(BackendError::Native("an effect's code is not SPIR-V".into()));
        }
        let module = shader_module(gpu, spirv)?;
        let handle = self.next_effect_handle();
        self.effects.insert(handle, module);
        Ok(handle)
    }

    /// Creates a custom geometry effect's program (`crate::custom`); the handle names it in
    /// [`xnagraph_graph::EffectKey::native`] until [`Pipelines::destroy_effect`].
    pub fn create_geometry_effect(
        &mut self,
        gpu: &Gpu,
        vertex: &[u32],
        fragment: &[u32],
        resources: &xnagraph_graph::CustomResources,
    ) -> Result<NativeHandle, BackendError> {
        let handle = self.next_effect_handle();
        self.geometry.custom.create(gpu, handle, vertex, fragment, resources)?;
        Ok(handle)
    }

    fn next_effect_handle(&mut self) -> NativeHandle {
        self.next_effect += 1;
        NativeHandle(EFFECT_HANDLE_TAG | self.next_effect)
    }

    /// Whether `handle` names a live effect (or custom geometry program) of these pipelines.
    pub fn is_effect(&self, handle: NativeHandle) -> bool {
        self.effects.contains_key(&handle) || self.geometry.custom.contains(handle)
    }

    /// Live effect fragment stages and custom geometry programs.
    pub fn effect_count(&self) -> usize {
        self.effects.len() + self.geometry.custom.count()
    }

    /// Frees an effect's fragment stage and every pipeline built from it.
    ///
    /// # Safety
    /// No submission that used the effect may still be executing.
    pub unsafe fn destroy_effect(&mut self, gpu: &Gpu, handle: NativeHandle) {
        // SAFETY: the caller's contract.
        if unsafe { self.geometry.destroy_custom(gpu, handle) } {
            return;
        }
        let Some(module) = self.effects.remove(&handle) else {
            return;
        };
        let uses =
            |k: &PipelineKey| matches!(k.shader, ShaderKind::Custom(e) if e.native == handle);
        let stale: Vec<_> = self.pipelines.keys().filter(|k| uses(&k.0)).cloned().collect();
        // SAFETY: the caller's contract: nothing executing uses the module or its pipelines.
        unsafe {
            for key in stale {
                if let Some(p) = self.pipelines.remove(&key) {
                    gpu.device.destroy_pipeline(p, None);
                }
            }
            gpu.device.destroy_shader_module(module, None);
        }
    }

    /// Pipeline objects built so far (one per static key, pass formats and planned writes; for
    /// geometry draws also per vertex layout and topology).
    pub fn pipeline_count(&self) -> usize {
        self.pipelines.len() + self.geometry.count()
    }

    /// The pipeline for a draw in a pass with these formats, writing the planned channels of
    /// each attachment; `indexed`: the stock sprite stage indexing an array of textures (only
    /// with [`crate::device::Gpu::texture_indexing`]).
    pub fn pipeline(
        &mut self,
        gpu: &Gpu,
        key: &PipelineKey,
        formats: &PassFormats,
        writes: ColorWrites,
        indexed: bool,
    ) -> Result<vk::Pipeline, BackendError> {
        let cache_key = (static_part(key), formats.clone(), writes, indexed);
        if let Some(p) = self.pipelines.get(&cache_key) {
            return Ok(*p);
        }
        let pipeline = self.build(gpu, &cache_key.0, formats, writes, indexed)?;
        self.pipelines.insert(cache_key, pipeline);
        Ok(pipeline)
    }

    fn build(
        &self,
        gpu: &Gpu,
        key: &PipelineKey,
        formats: &PassFormats,
        writes: ColorWrites,
        indexed: bool,
    ) -> Result<vk::Pipeline, BackendError> {
        let fragment = match key.shader {
            ShaderKind::Sprite if indexed => {
                if self.indexed_fragment == vk::ShaderModule::null() {
                    return Err(BackendError::Native(
                        "a draw of several textures without texture indexing".into(),
                    ));
                }
                self.indexed_fragment
            }
            _ if indexed => {
                return Err(BackendError::Native(
                    "malformed plan: several textures in a draw of another stage than the \
                     stock sprite stage"
                        .into(),
                ))
            }
            ShaderKind::Sprite => self.fragment,
            ShaderKind::CubeSample => self.cube_fragment,
            ShaderKind::Custom(effect) => *self
                .effects
                .get(&effect.native)
                .ok_or_else(|| BackendError::Native("a draw names a freed effect".into()))?,
            ShaderKind::Basic | ShaderKind::CustomGeometry(_) => {
                return Err(BackendError::Native(
                    "malformed plan: a sprite draw with a geometry shader".into(),
                ))
            }
        };
        let stages = [
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(self.vertex)
                .name(c"main"),
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(fragment)
                .name(c"main"),
        ];
        // One `SpriteInstance` per sprite; the shader expands its four strip vertices.
        let vertex_bindings = [vk::VertexInputBindingDescription {
            binding: 0,
            stride: std::mem::size_of::<SpriteInstance>() as u32,
            input_rate: vk::VertexInputRate::INSTANCE,
        }];
        let attribute = |location, format, offset| vk::VertexInputAttributeDescription {
            location,
            binding: 0,
            format,
            offset,
        };
        let vertex_attributes = [
            attribute(0, vk::Format::R32G32_SFLOAT, 0),
            attribute(1, vk::Format::R32G32_SFLOAT, 8),
            attribute(2, vk::Format::R32G32_SFLOAT, 16),
            attribute(3, vk::Format::R32G32B32A32_SFLOAT, 24),
            attribute(4, vk::Format::R32_SFLOAT, 40),
            attribute(5, vk::Format::R8G8B8A8_UNORM, 44),
            attribute(6, vk::Format::R32_UINT, 48),
        ];
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&vertex_bindings)
            .vertex_attribute_descriptions(&vertex_attributes);
        let side = VertexSide {
            stages,
            input: vertex_input,
            topology: vk::PrimitiveTopology::TRIANGLE_STRIP,
            layout: if indexed { self.indexed_layout } else { self.layout },
        };
        self.build_with(gpu, key, formats, writes, &side)
    }

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
        let max_anisotropy =
            (state.max_anisotropy.max(1) as f32).min(gpu.limits.max_sampler_anisotropy);
        let info = vk::SamplerCreateInfo::default()
            .min_filter(min)
            .mag_filter(mag)
            .mipmap_mode(mip)
            .address_mode_u(address(state.address_u))
            .address_mode_v(address(state.address_v))
            .address_mode_w(address(state.address_w))
            .anisotropy_enable(anisotropic)
            .max_anisotropy(if anisotropic { max_anisotropy } else { 1.0 })
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

    /// # Safety
    /// The device must be idle.
    pub unsafe fn destroy(&mut self, gpu: &Gpu) {
        // SAFETY: the device is idle (caller's contract); every handle is destroyed once and
        // null handles are skipped.
        unsafe {
            self.geometry.destroy(gpu);
            for (_, p) in self.pipelines.drain() {
                gpu.device.destroy_pipeline(p, None);
            }
            for (_, s) in self.samplers.drain() {
                gpu.device.destroy_sampler(s, None);
            }
            for (_, m) in self.effects.drain() {
                gpu.device.destroy_shader_module(m, None);
            }
            if self.cache != vk::PipelineCache::null() {
                gpu.device.destroy_pipeline_cache(self.cache, None);
            }
            for l in [self.layout, self.indexed_layout] {
                if l != vk::PipelineLayout::null() {
                    gpu.device.destroy_pipeline_layout(l, None);
                }
            }
            for l in self.set_layouts.into_iter().chain([self.indexed_set_layout]) {
                if l != vk::DescriptorSetLayout::null() {
                    gpu.device.destroy_descriptor_set_layout(l, None);
                }
            }
            for m in [self.vertex, self.fragment, self.cube_fragment, self.indexed_fragment] {
                if m != vk::ShaderModule::null() {
                    gpu.device.destroy_shader_module(m, None);
                }
            }
        }
        self.layout = vk::PipelineLayout::null();
        self.indexed_layout = vk::PipelineLayout::null();
        self.cache = vk::PipelineCache::null();
        self.set_layouts = [vk::DescriptorSetLayout::null(); 3];
        self.indexed_set_layout = vk::DescriptorSetLayout::null();
        self.vertex = vk::ShaderModule::null();
        self.fragment = vk::ShaderModule::null();
        self.cube_fragment = vk::ShaderModule::null();
        self.indexed_fragment = vk::ShaderModule::null();
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
