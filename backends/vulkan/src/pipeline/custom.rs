//! Custom geometry effects' programs: each pass's vertex and fragment modules, its descriptor
//! set layouts and pipeline layout, and the binding of a draw's values.
//!
//! In: the two stages' SPIR-V and the [`CustomResources`] the engine reflected (SDL_gpu's
//! layout: vertex samplers at set 0, the vertex uniform block at set 1, fragment samplers at
//! set 2, the fragment uniform block at set 3). Out: a program by handle, freed with the
//! pipelines built from it through the retirement queue; per draw, the uniform bytes written
//! into the frame's uniform slots and one descriptor set per set the program uses.

use std::collections::HashMap;

use ash::vk;
use xnagraph_graph::{
    Access, BackendError, CustomDraw, CustomResources, CustomStage, NativeHandle,
};

use crate::device::Gpu;
use crate::pipeline::shader_module;
use crate::record::Recorder;
use crate::sync::layout;
use crate::vk_error;

/// The largest uniform block a stage may have (Vulkan's minimum maxUniformBufferRange).
pub(crate) const MAX_UNIFORM_BYTES: u32 = 16384;

/// One pass's native objects.
pub(crate) struct CustomProgram {
    pub vertex: vk::ShaderModule,
    pub fragment: vk::ShaderModule,
    set_layouts: [vk::DescriptorSetLayout; 4],
    pub layout: vk::PipelineLayout,
    resources: CustomResources,
}

/// Programs by handle.
#[derive(Default)]
pub(crate) struct CustomPrograms {
    programs: HashMap<NativeHandle, CustomProgram>,
}

impl CustomPrograms {
    pub fn get(&self, handle: NativeHandle) -> Result<&CustomProgram, BackendError> {
        self.programs
            .get(&handle)
            .ok_or_else(|| BackendError::Native("a draw names a freed custom effect".into()))
    }

    pub fn contains(&self, handle: NativeHandle) -> bool {
        self.programs.contains_key(&handle)
    }

    pub fn count(&self) -> usize {
        self.programs.len()
    }

    /// Creates the program of `handle`.
    pub fn create(
        &mut self,
        gpu: &Gpu,
        handle: NativeHandle,
        vertex: &[u32],
        fragment: &[u32],
        resources: &CustomResources,
    ) -> Result<(), BackendError> {
        for words in [vertex, fragment] {
            if !xnagraph_graph::effect::is_spirv(words) {
                return Err(BackendError::Native("an effect's code is not SPIR-V".into()));
            }
        }
        if resources.vertex_uniform_bytes.max(resources.fragment_uniform_bytes) > MAX_UNIFORM_BYTES
        {
            return Err(BackendError::NotSupported(format!(
                "a uniform block larger than {MAX_UNIFORM_BYTES} bytes"
            )));
        }
        let mut program = CustomProgram {
            vertex: vk::ShaderModule::null(),
            fragment: vk::ShaderModule::null(),
            set_layouts: [vk::DescriptorSetLayout::null(); 4],
            layout: vk::PipelineLayout::null(),
            resources: resources.clone(),
        };
        match program.build(gpu, vertex, fragment) {
            Ok(()) => {
                self.programs.insert(handle, program);
                Ok(())
            }
            Err(e) => {
                // SAFETY: nothing was submitted with the program.
                unsafe { program.destroy(gpu) };
                Err(e)
            }
        }
    }

    /// Frees the program of `handle`; whether there was one.
    ///
    /// # Safety
    /// No submission that used it may still be executing.
    pub unsafe fn destroy(&mut self, gpu: &Gpu, handle: NativeHandle) -> bool {
        match self.programs.remove(&handle) {
            // SAFETY: the caller's contract.
            Some(mut p) => unsafe {
                p.destroy(gpu);
                true
            },
            None => false,
        }
    }

    /// # Safety
    /// The device must be idle.
    pub unsafe fn destroy_all(&mut self, gpu: &Gpu) {
        for (_, mut p) in self.programs.drain() {
            // SAFETY: the caller's contract.
            unsafe { p.destroy(gpu) };
        }
    }
}

impl CustomProgram {
    fn build(&mut self, gpu: &Gpu, vertex: &[u32], fragment: &[u32]) -> Result<(), BackendError> {
        self.vertex = shader_module(gpu, vertex)?;
        self.fragment = shader_module(gpu, fragment)?;
        let r = &self.resources;
        let samplers = |bindings: &[u32], stage| -> Vec<vk::DescriptorSetLayoutBinding<'static>> {
            bindings
                .iter()
                .map(|&b| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b)
                        .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                        .descriptor_count(1)
                        .stage_flags(stage)
                })
                .collect()
        };
        let block = |bytes: u32, stage| -> Vec<vk::DescriptorSetLayoutBinding<'static>> {
            if bytes == 0 {
                return Vec::new();
            }
            vec![vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                .descriptor_count(1)
                .stage_flags(stage)]
        };
        let sets = [
            samplers(&r.vertex_samplers, vk::ShaderStageFlags::VERTEX),
            block(r.vertex_uniform_bytes, vk::ShaderStageFlags::VERTEX),
            samplers(&r.fragment_samplers, vk::ShaderStageFlags::FRAGMENT),
            block(r.fragment_uniform_bytes, vk::ShaderStageFlags::FRAGMENT),
        ];
        for (i, bindings) in sets.iter().enumerate() {
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(bindings);
            // SAFETY: a valid create info for this device.
            self.set_layouts[i] = unsafe { gpu.device.create_descriptor_set_layout(&info, None) }
                .map_err(|e| vk_error("vkCreateDescriptorSetLayout", e))?;
        }
        let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&self.set_layouts);
        // SAFETY: the set layouts are live.
        self.layout = unsafe { gpu.device.create_pipeline_layout(&info, None) }
            .map_err(|e| vk_error("vkCreatePipelineLayout", e))?;
        Ok(())
    }

    /// # Safety
    /// No submission that used the program may still be executing.
    unsafe fn destroy(&mut self, gpu: &Gpu) {
        // SAFETY: the caller's contract; null handles are skipped.
        unsafe {
            if self.layout != vk::PipelineLayout::null() {
                gpu.device.destroy_pipeline_layout(self.layout, None);
            }
            for l in self.set_layouts {
                if l != vk::DescriptorSetLayout::null() {
                    gpu.device.destroy_descriptor_set_layout(l, None);
                }
            }
            for m in [self.vertex, self.fragment] {
                if m != vk::ShaderModule::null() {
                    gpu.device.destroy_shader_module(m, None);
                }
            }
        }
    }
}

/// How many per-draw units (uniform slots and descriptor budget, as `Needs::draws` counts
/// them) a custom draw takes with uniform slots of `stride` bytes.
pub(crate) fn draw_units(c: &CustomDraw, stride: u64) -> u32 {
    let slots = |bytes: usize| (bytes as u64).div_ceil(stride.max(1)) as u32;
    // Four sets at most (the pool grants two per unit), one descriptor per sampler.
    let sets_and_samplers = (c.samplers.len() as u32).max(2);
    sets_and_samplers + slots(c.vertex_uniforms.len()) + slots(c.fragment_uniforms.len())
}

/// Writes a custom draw's uniform blocks into the frame's uniform slots, allocates and writes
/// its descriptor sets, and returns the program's pipeline layout with the sets to bind.
pub(crate) fn bind_values(
    rec: &mut Recorder<'_>,
    c: &CustomDraw,
) -> Result<(vk::PipelineLayout, Vec<(u32, vk::DescriptorSet)>), BackendError> {
    let gpu = rec.gpu;
    let program = rec.pipelines.geometry.custom.get(c.effect.key().native)?;
    let (layout_handle, set_layouts) = (program.layout, program.set_layouts);
    let resources = program.resources.clone();
    let malformed = |m: &str| BackendError::Native(format!("malformed plan: {m}"));
    // Which sets the program uses, and what goes in each.
    let mut wanted: Vec<u32> = Vec::new();
    if !resources.vertex_samplers.is_empty() {
        wanted.push(0);
    }
    if resources.vertex_uniform_bytes > 0 {
        wanted.push(1);
    }
    if !resources.fragment_samplers.is_empty() {
        wanted.push(2);
    }
    if resources.fragment_uniform_bytes > 0 {
        wanted.push(3);
    }
    let blocks = [
        (1u32, &c.vertex_uniforms, resources.vertex_uniform_bytes),
        (3u32, &c.fragment_uniforms, resources.fragment_uniform_bytes),
    ];
    let uniforms = rec.uniforms.ok_or_else(|| malformed("draw without uniform space"))?;
    let mut block_offsets = [0u64; 4];
    for (set, bytes, size) in blocks {
        if size == 0 {
            continue;
        }
        if bytes.len() != size as usize {
            return Err(malformed("a uniform block's bytes differ from its size"));
        }
        let offset = rec.uniforms_used;
        uniforms.write(gpu, offset, bytes)?;
        rec.uniforms_used += (bytes.len() as u64).div_ceil(rec.uniform_stride) * rec.uniform_stride;
        block_offsets[set as usize] = offset;
    }
    let layouts: Vec<_> = wanted.iter().map(|&s| set_layouts[s as usize]).collect();
    let alloc = vk::DescriptorSetAllocateInfo::default()
        .descriptor_pool(rec.descriptors)
        .set_layouts(&layouts);
    let sets = if layouts.is_empty() {
        Vec::new()
    } else {
        // SAFETY: the pool was sized for every draw of this plan and is not used concurrently.
        unsafe { gpu.device.allocate_descriptor_sets(&alloc) }
            .map_err(|e| vk_error("vkAllocateDescriptorSets", e))?
    };
    let set_of = |s: u32| wanted.iter().position(|&w| w == s).map(|i| sets[i]);

    let mut buffer_infos = Vec::new();
    for (set, _, size) in blocks {
        if size > 0 {
            buffer_infos.push((
                set,
                [vk::DescriptorBufferInfo {
                    buffer: uniforms.buffer,
                    offset: block_offsets[set as usize],
                    range: u64::from(size),
                }],
            ));
        }
    }
    let mut image_infos = Vec::with_capacity(c.samplers.len());
    for s in &c.samplers {
        let (set, bindings) = match s.stage {
            CustomStage::Vertex => (0, &resources.vertex_samplers),
            CustomStage::Fragment => (2, &resources.fragment_samplers),
        };
        if !bindings.contains(&s.binding) {
            return Err(malformed("a sampler the program does not bind"));
        }
        let texture = rec.textures.get(s.texture.native())?;
        if texture.sampled_view_type != vk::ImageViewType::TYPE_2D {
            return Err(malformed("a custom effect sampling a texture that is not 2D"));
        }
        let (view, levels) = (texture.sampled_view, texture.desc.mip_levels);
        let sampler = rec.pipelines.sampler(gpu, &s.sampler, levels)?;
        let access = match s.stage {
            CustomStage::Vertex => Access::VertexSampled,
            CustomStage::Fragment => Access::FragmentSampled,
        };
        image_infos.push((
            set,
            s.binding,
            [vk::DescriptorImageInfo { sampler, image_view: view, image_layout: layout(access) }],
        ));
    }
    let bound = c.samplers.len();
    if bound != resources.vertex_samplers.len() + resources.fragment_samplers.len() {
        return Err(malformed("a custom draw without a texture for every sampler"));
    }
    let mut writes = Vec::new();
    for (set, info) in &buffer_infos {
        let dst = set_of(*set).ok_or_else(|| malformed("a uniform block without its set"))?;
        writes.push(
            vk::WriteDescriptorSet::default()
                .dst_set(dst)
                .dst_binding(0)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                .buffer_info(info),
        );
    }
    for (set, binding, info) in &image_infos {
        let dst = set_of(*set).ok_or_else(|| malformed("a sampler without its set"))?;
        writes.push(
            vk::WriteDescriptorSet::default()
                .dst_set(dst)
                .dst_binding(*binding)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .image_info(info),
        );
    }
    // SAFETY: the sets were just allocated; every buffer, view and sampler is live for the
    // submission.
    unsafe { gpu.device.update_descriptor_sets(&writes, &[]) };
    Ok((layout_handle, wanted.into_iter().zip(sets).collect()))
}
