//! Graphics pipelines and samplers, built on first use and cached.
//!
//! In: a draw's [`PipelineKey`] plus the attachment formats and sample count of the pass it is
//! in, or its [`SamplerState`] and the mip levels of the texture it samples. Out: a `VkPipeline`
//! (dynamic rendering; viewport, scissor, blend constants and stencil reference dynamic, built
//! through one `VkPipelineCache`) or a `VkSampler`. The translation of XNA's blend,
//! depth/stencil, rasterizer and sampler states to Vulkan lives in [`states`]. XNA's `BlendFactor`
//! and `ReferenceStencil` change per draw in games (fades, stencil masks), so they are dynamic
//! state set with each draw ([`DynamicState`]) and never select a pipeline: the cache key is the
//! draw's key with both zeroed. The pipeline layout follows the stock shaders' resource layout: set
//! 0 empty, set 1 the vertex uniform block, set 2 the fragment texture. A sprite draw of several
//! textures (unless `VulkanConfig::texture_indexing` is off) uses a second layout whose set 2 is an
//! array of [`MAX_DRAW_TEXTURES`] textures, with the indexing fragment stage; sets 0 and 1 are the
//! same, so the uniform set stays bound across both layouts. A custom effect's fragment module
//! (created with the effect, checked against this layout by the engine) replaces the stock fragment
//! stage; it and the pipelines built from it are freed together once the GPU is done with them. The
//! translation of XNA's states into pipeline and sampler state is [`states`].
//!
//! The geometry effects' stages: the stock effects' shader modules and their shared pipeline
//! layout are [`stock`]'s, a custom geometry effect's programs [`custom`]'s; the geometry
//! pipelines built from them are cached by the geometry draws ([`crate::pass::geometry`]).

pub(crate) mod cache_file;
pub(crate) mod custom;
mod states;
pub(crate) mod stock;

pub(crate) use cache_file::CacheOwner;

use std::collections::HashMap;

use ash::vk;
use xnagraph_graph::{
    BackendError, ColorWrites, NativeHandle, PipelineKey, PipelineRequest, PipelineStats,
    SamplerState, ShaderKind, SpriteInstance, MAX_DRAW_TEXTURES,
};

use crate::device::Gpu;
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
    /// Geometry draws' pipelines (`crate::pass::geometry`).
    pub geometry: crate::pass::geometry::GeometryPipelines,
    /// Pipelines built on request and at lowering.
    pub stats: PipelineStats,
    /// The sample-plane transfers' shaders and pipelines (`crate::capture::samples`).
    pub samples: crate::capture::samples::SamplePipelines,
    /// The multisampled depth/stencil transfers' stages and pipelines
    /// (`crate::capture::depth_samples`).
    pub depth_samples: crate::capture::depth_samples::DepthSamplePipelines,
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

pub(crate) fn shader_module(gpu: &Gpu, words: &[u32]) -> Result<vk::ShaderModule, BackendError> {
    let info = vk::ShaderModuleCreateInfo::default().code(words);
    // SAFETY: the words are the committed SPIR-V of a stock shader, or an effect's that the
    // engine compiled and checked against this pipeline layout.
    unsafe { gpu.device.create_shader_module(&info, None) }
        .map_err(|e| vk_error("vkCreateShaderModule", e))
}

impl Pipelines {
    /// The fixed stages and layouts, and a pipeline cache holding `cache_data` (the bytes
    /// [`cache_file::load`] returned) or empty.
    pub fn new(gpu: &Gpu, cache_data: Option<&[u8]>) -> Result<Pipelines, BackendError> {
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
            stats: PipelineStats::default(),
            samples: Default::default(),
            depth_samples: Default::default(),
        };
        match p.build_fixed(gpu, cache_data) {
            Ok(()) => Ok(p),
            Err(e) => {
                // SAFETY: nothing from `p` has been used by the GPU.
                unsafe { p.destroy(gpu) };
                Err(e)
            }
        }
    }

    fn build_fixed(&mut self, gpu: &Gpu, cache_data: Option<&[u8]>) -> Result<(), BackendError> {
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
        let info = vk::PipelineCacheCreateInfo::default().initial_data(cache_data.unwrap_or(&[]));
        // SAFETY: a live device; initial data, when there is any, passed every check of
        // `cache_file::payload` (this device's header, whole by its checksum).
        self.cache = unsafe { gpu.device.create_pipeline_cache(&info, None) }
            .map_err(|e| vk_error("vkCreatePipelineCache", e))?;
        Ok(())
    }

    /// Merges cache data (the bytes [`cache_file::load`] returned) into the pipeline cache.
    pub fn merge_cache(&mut self, gpu: &Gpu, data: &[u8]) -> Result<(), BackendError> {
        let info = vk::PipelineCacheCreateInfo::default().initial_data(data);
        // SAFETY: a live device; the data passed every check of `cache_file::payload`.
        let loaded = unsafe { gpu.device.create_pipeline_cache(&info, None) }
            .map_err(|e| vk_error("vkCreatePipelineCache", e))?;
        // SAFETY: both caches are live; the destination is not a source.
        let merged = unsafe { gpu.device.merge_pipeline_caches(self.cache, &[loaded]) };
        // SAFETY: merged (or not) and used by nothing else.
        unsafe { gpu.device.destroy_pipeline_cache(loaded, None) };
        merged.map_err(|e| vk_error("vkMergePipelineCaches", e))
    }

    /// The pipeline cache's data (`vkGetPipelineCacheData`), for [`cache_file::save`].
    pub fn cache_data(&self, gpu: &Gpu) -> Result<Vec<u8>, BackendError> {
        // SAFETY: the cache is live; reading it needs no external synchronization with
        // pipeline creation on this thread.
        unsafe { gpu.device.get_pipeline_cache_data(self.cache) }
            .map_err(|e| vk_error("vkGetPipelineCacheData", e))
    }

    /// Creates a custom effect's fragment stage; the handle names it in
    /// [`xnagraph_graph::EffectKey::native`] until [`Pipelines::destroy_effect`].
    pub fn create_effect(
        &mut self,
        gpu: &Gpu,
        spirv: &[u32],
    ) -> Result<NativeHandle, BackendError> {
        if !xnagraph_graph::effect::is_spirv(spirv) {
            return Err(BackendError::Native("an effect's code is not SPIR-V".into()));
        }
        let module = shader_module(gpu, spirv)?;
        let handle = self.next_effect_handle();
        self.effects.insert(handle, module);
        Ok(handle)
    }

    /// Creates a custom geometry effect's program ([`custom`]); the handle names it in
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
        NativeHandle::new(xnagraph_graph::HandleKind::Effect, self.next_effect)
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
        self.sprite_pipeline(gpu, key, formats, writes, indexed, false)
    }

    /// The sprite pipeline from the cache, built the first time and counted as built
    /// `on_request` or at lowering.
    fn sprite_pipeline(
        &mut self,
        gpu: &Gpu,
        key: &PipelineKey,
        formats: &PassFormats,
        writes: ColorWrites,
        indexed: bool,
        on_request: bool,
    ) -> Result<vk::Pipeline, BackendError> {
        let cache_key = (key.static_part(), formats.clone(), writes, indexed);
        if let Some(p) = self.pipelines.get(&cache_key) {
            return Ok(*p);
        }
        let pipeline = self.build(gpu, &cache_key.0, formats, writes, indexed)?;
        self.pipelines.insert(cache_key, pipeline);
        self.count_built(on_request);
        Ok(pipeline)
    }

    /// Counts one pipeline built.
    pub fn count_built(&mut self, on_request: bool) {
        if on_request {
            self.stats.built_on_request += 1;
        } else {
            self.stats.built_at_lowering += 1;
        }
    }

    /// Builds the pipeline a [`PipelineRequest`] names in a pass of `formats`, into the cache
    /// lowering reads. A sprite draw of several textures uses the indexing stage where the
    /// device has one, as lowering decides; without it lowering draws run by run with the
    /// single-texture stage.
    pub fn prepare(
        &mut self,
        gpu: &Gpu,
        request: &PipelineRequest,
        formats: &PassFormats,
    ) -> Result<(), BackendError> {
        match &request.geometry {
            Some(g) => {
                let writes = request.writes;
                crate::pass::geometry::pipeline(gpu, self, &request.key, g, formats, writes, true)?;
            }
            None => {
                let indexed = request.textures > 1 && gpu.texture_indexing.is_some();
                self.sprite_pipeline(gpu, &request.key, formats, request.writes, indexed, true)?;
            }
        }
        Ok(())
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

    /// # Safety
    /// The device must be idle.
    pub unsafe fn destroy(&mut self, gpu: &Gpu) {
        // SAFETY: the device is idle (caller's contract); every handle is destroyed once and
        // null handles are skipped.
        unsafe {
            self.geometry.destroy(gpu);
            self.samples.destroy(gpu);
            self.depth_samples.destroy(gpu);
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
