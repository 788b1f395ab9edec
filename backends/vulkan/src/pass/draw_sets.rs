//! The descriptor sets of one frame's draws, shared by every draw that names the same thing.
//!
//! In: a draw's transform, and its texture's sampled view with its sampler. Out: the uniform set
//! (set 1) and the texture set (set 2) the draw binds. A transform equal to the one written last
//! reuses its uniform slot and set; a (view, sampler) pair already used in the frame reuses its
//! set. So a frame allocates and writes one texture set per distinct texture and sampler, not one
//! per draw: a batch that alternates textures costs a bind and a draw per break, not an allocation,
//! a descriptor update and a uniform write. A draw of several textures on a device with texture
//! indexing binds one array set per (views, sampler), every slot past its textures repeating the
//! first, so the indexing stage never reads an unwritten descriptor. Everything lives in the
//! frame-ring slot and is forgotten when the slot's descriptor pool is reset for its next frame;
//! the map keeps its capacity, so a steady frame allocates nothing on the heap.
//!
//! The stock geometry effects follow the same rule: their uniform block is read at a dynamic
//! offset, so the frame has one pair of uniform sets (vertex and fragment stage) naming its
//! uniform buffer, written at the first stock draw, and each draw only binds them at its block's
//! offset; their two samplers (`Texture`, `Texture2`) get one set per distinct pair of (view,
//! sampler) in the frame. A frame of ten thousand BasicEffect draws of one texture allocates three
//! sets and writes four descriptors in all.

use std::collections::HashMap;

use ash::vk;
use xnagraph_graph::{Access, BackendError, MAX_DRAW_TEXTURES};

use crate::frame::HostBuffer;
use crate::sync::layout;
use crate::vk_error;

/// The sets written so far in the slot's current frame.
#[derive(Default)]
pub(crate) struct DrawSets {
    textures: HashMap<(vk::ImageView, vk::Sampler), vk::DescriptorSet>,
    indexed: HashMap<[(vk::ImageView, vk::Sampler); MAX_DRAW_TEXTURES], vk::DescriptorSet>,
    transform: Option<([f32; 16], vk::DescriptorSet)>,
    /// The stock effects' uniform sets (vertex, fragment) for the frame's uniform buffer.
    stock_uniforms: Option<(vk::Buffer, [vk::DescriptorSet; 2])>,
    /// SkinnedEffect's vertex uniform set (block and bones) for the frame's uniform buffer.
    skinned_uniforms: Option<(vk::Buffer, vk::DescriptorSet)>,
    stock_textures: HashMap<[(vk::ImageView, vk::Sampler); 2], vk::DescriptorSet>,
    /// A merged run's set 0: the frame's uniform buffer as the vertex stage's instances.
    stock_instances: Option<(vk::Buffer, vk::DescriptorSet)>,
}

/// The layouts of the stock effects' sets ([`crate::pipeline::stock::StockEffects`]).
pub(crate) struct StockLayouts {
    pub vertex_uniforms: vk::DescriptorSetLayout,
    pub samplers: vk::DescriptorSetLayout,
    pub fragment_uniforms: vk::DescriptorSetLayout,
    pub vertex_instances: vk::DescriptorSetLayout,
    pub skinned_vertex_uniforms: vk::DescriptorSetLayout,
}

/// Where a frame's sets come from.
pub(crate) struct SetSource<'a> {
    pub device: &'a ash::Device,
    pub pool: vk::DescriptorPool,
    pub uniform_layout: vk::DescriptorSetLayout,
    pub texture_layout: vk::DescriptorSetLayout,
    /// Set 2 of the indexing sprite stage (null without texture indexing).
    pub indexed_layout: vk::DescriptorSetLayout,
}

impl DrawSets {
    /// Forgets every set (their pool was just reset).
    pub fn reset(&mut self) {
        self.textures.clear();
        self.indexed.clear();
        self.transform = None;
        self.stock_uniforms = None;
        self.skinned_uniforms = None;
        self.stock_textures.clear();
        self.stock_instances = None;
    }

    fn allocate(
        src: &SetSource<'_>,
        layout: vk::DescriptorSetLayout,
    ) -> Result<vk::DescriptorSet, BackendError> {
        let layouts = [layout];
        let alloc = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(src.pool)
            .set_layouts(&layouts);
        // SAFETY: the pool was sized for every draw of this plan and is used by this thread only.
        let sets = unsafe { src.device.allocate_descriptor_sets(&alloc) }
            .map_err(|e| vk_error("vkAllocateDescriptorSets", e))?;
        Ok(sets[0])
    }

    /// The uniform set holding `transform`: the last one when it holds the same transform,
    /// else a new one written at `*used` in `uniforms` (which then advances by `stride`).
    pub fn transform(
        &mut self,
        src: &SetSource<'_>,
        gpu: &crate::device::Gpu,
        transform: &[f32; 16],
        (uniforms, used, stride): (&HostBuffer, &mut u64, u64),
    ) -> Result<vk::DescriptorSet, BackendError> {
        if let Some((last, set)) = &self.transform {
            if last == transform {
                return Ok(*set);
            }
        }
        let offset = *used;
        uniforms.write(gpu, offset, bytemuck::cast_slice(transform))?;
        *used += stride;
        let set = Self::allocate(src, src.uniform_layout)?;
        let info = [vk::DescriptorBufferInfo { buffer: uniforms.buffer, offset, range: 64 }];
        let write = vk::WriteDescriptorSet::default()
            .dst_set(set)
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
            .buffer_info(&info);
        // SAFETY: the set was just allocated and the buffer lives for the submission.
        unsafe { src.device.update_descriptor_sets(&[write], &[]) };
        self.transform = Some((*transform, set));
        Ok(set)
    }

    /// The stock effects' uniform sets (set 1 for the vertex stage, set 3 for the fragment
    /// stage), each one dynamic uniform buffer descriptor of `range` bytes in `buffer`, the
    /// frame's uniform buffer: written at the frame's first stock draw.
    pub fn stock_uniforms(
        &mut self,
        src: &SetSource<'_>,
        layouts: &StockLayouts,
        buffer: vk::Buffer,
        range: u64,
    ) -> Result<[vk::DescriptorSet; 2], BackendError> {
        if let Some((b, sets)) = self.stock_uniforms {
            if b == buffer {
                return Ok(sets);
            }
        }
        let sets = [
            Self::allocate(src, layouts.vertex_uniforms)?,
            Self::allocate(src, layouts.fragment_uniforms)?,
        ];
        let info = [vk::DescriptorBufferInfo { buffer, offset: 0, range }];
        let writes = sets.map(|set| {
            vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(0)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC)
                .buffer_info(&info)
        });
        // SAFETY: the sets were just allocated and the buffer lives for the submission.
        unsafe { src.device.update_descriptor_sets(&writes, &[]) };
        self.stock_uniforms = Some((buffer, sets));
        Ok(sets)
    }

    /// SkinnedEffect's vertex uniform set (set 1): the frame's uniform buffer `buffer` as the
    /// block (binding 0, `range` bytes) and as the bones (binding 1, `bones` bytes), both
    /// dynamic; written at the frame's first skinned draw.
    pub fn skinned_uniforms(
        &mut self,
        src: &SetSource<'_>,
        layouts: &StockLayouts,
        buffer: vk::Buffer,
        (range, bones): (u64, u64),
    ) -> Result<vk::DescriptorSet, BackendError> {
        if let Some((b, set)) = self.skinned_uniforms {
            if b == buffer {
                return Ok(set);
            }
        }
        let set = Self::allocate(src, layouts.skinned_vertex_uniforms)?;
        let info = [
            [vk::DescriptorBufferInfo { buffer, offset: 0, range }],
            [vk::DescriptorBufferInfo { buffer, offset: 0, range: bones }],
        ];
        let writes = [0, 1].map(|binding| {
            vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(binding)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC)
                .buffer_info(&info[binding as usize])
        });
        // SAFETY: the set was just allocated and the buffer lives for the submission.
        unsafe { src.device.update_descriptor_sets(&writes, &[]) };
        self.skinned_uniforms = Some((buffer, set));
        Ok(set)
    }

    /// A merged run's set 0: `buffer` (the frame's uniform buffer, holding the runs'
    /// instances) as the vertex stage's storage buffer of instances; written at the frame's
    /// first run.
    pub fn stock_instances(
        &mut self,
        src: &SetSource<'_>,
        layouts: &StockLayouts,
        buffer: vk::Buffer,
    ) -> Result<vk::DescriptorSet, BackendError> {
        if let Some((b, set)) = self.stock_instances {
            if b == buffer {
                return Ok(set);
            }
        }
        let set = Self::allocate(src, layouts.vertex_instances)?;
        let info = [vk::DescriptorBufferInfo { buffer, offset: 0, range: vk::WHOLE_SIZE }];
        let write = vk::WriteDescriptorSet::default()
            .dst_set(set)
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(&info);
        // SAFETY: the set was just allocated and the buffer lives for the submission.
        unsafe { src.device.update_descriptor_sets(&[write], &[]) };
        self.stock_instances = Some((buffer, set));
        Ok(set)
    }

    /// The stock effects' sampler set (set 2: `Texture` at binding 0, `Texture2` at binding 1),
    /// written at the first use of the pair this frame.
    pub fn stock_textures(
        &mut self,
        src: &SetSource<'_>,
        layouts: &StockLayouts,
        key: [(vk::ImageView, vk::Sampler); 2],
    ) -> Result<vk::DescriptorSet, BackendError> {
        if let Some(set) = self.stock_textures.get(&key) {
            return Ok(*set);
        }
        let set = Self::allocate(src, layouts.samplers)?;
        let info = key.map(|(image_view, sampler)| {
            [vk::DescriptorImageInfo {
                sampler,
                image_view,
                image_layout: layout(Access::FragmentSampled),
            }]
        });
        let writes = [0, 1].map(|binding| {
            vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(binding)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .image_info(&info[binding as usize])
        });
        // SAFETY: the set was just allocated; the views and samplers live for the submission.
        unsafe { src.device.update_descriptor_sets(&writes, &[]) };
        self.stock_textures.insert(key, set);
        Ok(set)
    }

    /// The texture set sampling `view` through `sampler`, written at its first use this frame.
    pub fn texture(
        &mut self,
        src: &SetSource<'_>,
        view: vk::ImageView,
        sampler: vk::Sampler,
    ) -> Result<vk::DescriptorSet, BackendError> {
        if let Some(set) = self.textures.get(&(view, sampler)) {
            return Ok(*set);
        }
        let set = Self::allocate(src, src.texture_layout)?;
        let info = [vk::DescriptorImageInfo {
            sampler,
            image_view: view,
            image_layout: layout(Access::FragmentSampled),
        }];
        let write = vk::WriteDescriptorSet::default()
            .dst_set(set)
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
            .image_info(&info);
        // SAFETY: the set was just allocated; the view and sampler live for the submission.
        unsafe { src.device.update_descriptor_sets(&[write], &[]) };
        self.textures.insert((view, sampler), set);
        Ok(set)
    }

    /// The array set sampling each view through its sampler, in slot order (the slots past
    /// them repeat slot 0), written at its first use this frame.
    pub fn indexed(
        &mut self,
        src: &SetSource<'_>,
        key: [(vk::ImageView, vk::Sampler); MAX_DRAW_TEXTURES],
    ) -> Result<vk::DescriptorSet, BackendError> {
        if let Some(set) = self.indexed.get(&key) {
            return Ok(*set);
        }
        let set = Self::allocate(src, src.indexed_layout)?;
        let info = key.map(|(image_view, sampler)| vk::DescriptorImageInfo {
            sampler,
            image_view,
            image_layout: layout(Access::FragmentSampled),
        });
        let write = vk::WriteDescriptorSet::default()
            .dst_set(set)
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
            .image_info(&info);
        // SAFETY: the set was just allocated; the views and sampler live for the submission.
        unsafe { src.device.update_descriptor_sets(&[write], &[]) };
        self.indexed.insert(key, set);
        Ok(set)
    }
}
