//! The stock geometry effects' shaders and their pipeline layout.
//!
//! In: a [`StockShader`] named by a geometry draw. Out: its vertex and fragment modules (one pair
//! per effect, whatever its options: a pipeline specialises them to its variant; made the
//! first time a draw uses that effect; the stages and the attribute locations their vertex stages
//! read are [`xnagraph_shaders::stock_stages`] and [`xnagraph_shaders::stock_attributes`]), and the
//! one pipeline layout every stock effect shares, in SDL_gpu's resource layout: set 0 empty, set 1
//! the uniform block for the vertex stage, set 2 two combined image samplers for the fragment stage
//! (`Texture`, `Texture2`), set 3 the same uniform block for the fragment stage. Both uniform sets
//! are dynamic: a frame writes each draw's block into its slot of the frame's uniform buffer and
//! binds the frame's two uniform sets at that slot's offset, so a draw allocates and writes no
//! descriptor ([`crate::pass::draw_sets`]). Nothing here decides anything about a frame.

use std::collections::HashMap;

use ash::vk;
use xnagraph_graph::{BackendError, StockShader};

use crate::device::Gpu;
use crate::pass::draw_sets::StockLayouts;
use crate::pipeline::shader_module;
use crate::vk_error;

/// The shared layout and the modules made so far.
#[derive(Default)]
pub(crate) struct StockEffects {
    /// Set 1: the uniform block at a dynamic offset, read by the vertex stage.
    pub vertex_uniforms: vk::DescriptorSetLayout,
    /// Set 2: `Texture` at binding 0, `Texture2` at binding 1.
    pub samplers: vk::DescriptorSetLayout,
    /// Set 3: the uniform block at a dynamic offset, read by the fragment stage.
    pub fragment_uniforms: vk::DescriptorSetLayout,
    pub layout: vk::PipelineLayout,
    /// A merged run's set 0: the frame's uniform buffer as a storage buffer of instances,
    /// read by the vertex stage.
    pub vertex_instances: vk::DescriptorSetLayout,
    /// The pipeline layout of BasicEffect's instanced stages: set 0 as above, sets 1 to 3 as
    /// [`Self::layout`]'s (the uniform sets hold the run's shared values, the first draw's
    /// block).
    pub instanced_layout: vk::PipelineLayout,
    /// SkinnedEffect's set 1: the block at binding 0 and the bones at binding 1, both at
    /// dynamic offsets, read by the vertex stage.
    pub skinned_vertex_uniforms: vk::DescriptorSetLayout,
    /// SkinnedEffect's pipeline layout: [`Self::layout`] with set 1 as above.
    pub skinned_layout: vk::PipelineLayout,
    modules: HashMap<(StockShader, bool), (vk::ShaderModule, vk::ShaderModule)>,
}

impl StockEffects {
    /// Makes the layouts once; `empty` is the sprite pipeline layout's set 0, shared.
    pub fn ensure_layout(
        &mut self,
        gpu: &Gpu,
        empty: vk::DescriptorSetLayout,
    ) -> Result<vk::PipelineLayout, BackendError> {
        if self.layout != vk::PipelineLayout::null() {
            return Ok(self.layout);
        }
        let sampler = |binding| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(binding)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::FRAGMENT)
        };
        let samplers = [sampler(0), sampler(1)];
        let uniform = |binding, stage| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(binding)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC)
                .descriptor_count(1)
                .stage_flags(stage)
        };
        let (vertex_uniforms, fragment_uniforms) = (
            [uniform(0, vk::ShaderStageFlags::VERTEX)],
            [uniform(0, vk::ShaderStageFlags::FRAGMENT)],
        );
        let skinned_uniforms =
            [uniform(0, vk::ShaderStageFlags::VERTEX), uniform(1, vk::ShaderStageFlags::VERTEX)];
        // SAFETY: valid create infos on a live device; each handle is kept to be destroyed once.
        unsafe {
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&samplers);
            self.samplers = gpu
                .device
                .create_descriptor_set_layout(&info, None)
                .map_err(|e| vk_error("vkCreateDescriptorSetLayout", e))?;
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&vertex_uniforms);
            self.vertex_uniforms = gpu
                .device
                .create_descriptor_set_layout(&info, None)
                .map_err(|e| vk_error("vkCreateDescriptorSetLayout", e))?;
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&fragment_uniforms);
            self.fragment_uniforms = gpu
                .device
                .create_descriptor_set_layout(&info, None)
                .map_err(|e| vk_error("vkCreateDescriptorSetLayout", e))?;
            let sets = [empty, self.vertex_uniforms, self.samplers, self.fragment_uniforms];
            let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&sets);
            self.layout = gpu
                .device
                .create_pipeline_layout(&info, None)
                .map_err(|e| vk_error("vkCreatePipelineLayout", e))?;
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&skinned_uniforms);
            self.skinned_vertex_uniforms = gpu
                .device
                .create_descriptor_set_layout(&info, None)
                .map_err(|e| vk_error("vkCreateDescriptorSetLayout", e))?;
            let sets = [empty, self.skinned_vertex_uniforms, self.samplers, self.fragment_uniforms];
            let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&sets);
            self.skinned_layout = gpu
                .device
                .create_pipeline_layout(&info, None)
                .map_err(|e| vk_error("vkCreatePipelineLayout", e))?;
            let storage = |binding, stage| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(binding)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(stage)
            };
            let vertex_instances = [storage(0, vk::ShaderStageFlags::VERTEX)];
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&vertex_instances);
            self.vertex_instances = gpu
                .device
                .create_descriptor_set_layout(&info, None)
                .map_err(|e| vk_error("vkCreateDescriptorSetLayout", e))?;
            let sets = [
                self.vertex_instances,
                self.vertex_uniforms,
                self.samplers,
                self.fragment_uniforms,
            ];
            let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&sets);
            self.instanced_layout = gpu
                .device
                .create_pipeline_layout(&info, None)
                .map_err(|e| vk_error("vkCreatePipelineLayout", e))?;
        }
        Ok(self.layout)
    }

    /// The set layouts a frame's stock sets are allocated with.
    pub fn set_layouts(&self) -> StockLayouts {
        StockLayouts {
            vertex_uniforms: self.vertex_uniforms,
            samplers: self.samplers,
            fragment_uniforms: self.fragment_uniforms,
            vertex_instances: self.vertex_instances,
            skinned_vertex_uniforms: self.skinned_vertex_uniforms,
        }
    }

    /// `shader`'s vertex and fragment modules (`instanced`: those of a merged run), made on
    /// first use.
    pub fn modules(
        &mut self,
        gpu: &Gpu,
        shader: StockShader,
        instanced: bool,
    ) -> Result<(vk::ShaderModule, vk::ShaderModule), BackendError> {
        if let Some(m) = self.modules.get(&(shader, instanced)) {
            return Ok(*m);
        }
        let (vertex, fragment) = xnagraph_shaders::stock_stages(shader, instanced);
        let v = shader_module(gpu, &vertex.words())?;
        let f = match shader_module(gpu, &fragment.words()) {
            Ok(f) => f,
            Err(e) => {
                // SAFETY: the module was just made and nothing uses it.
                unsafe { gpu.device.destroy_shader_module(v, None) };
                return Err(e);
            }
        };
        self.modules.insert((shader, instanced), (v, f));
        Ok((v, f))
    }

    /// # Safety
    /// The device must be idle.
    pub unsafe fn destroy(&mut self, gpu: &Gpu) {
        // SAFETY: the caller's contract; every handle is destroyed once and then forgotten.
        unsafe {
            for (_, (v, f)) in self.modules.drain() {
                gpu.device.destroy_shader_module(v, None);
                gpu.device.destroy_shader_module(f, None);
            }
            for layout in [self.layout, self.instanced_layout, self.skinned_layout] {
                if layout != vk::PipelineLayout::null() {
                    gpu.device.destroy_pipeline_layout(layout, None);
                }
            }
            for l in [
                self.vertex_uniforms,
                self.samplers,
                self.fragment_uniforms,
                self.vertex_instances,
                self.skinned_vertex_uniforms,
            ] {
                if l != vk::DescriptorSetLayout::null() {
                    gpu.device.destroy_descriptor_set_layout(l, None);
                }
            }
        }
        *self = StockEffects::default();
    }
}
