//! The sprites reference: a minimal hand-written ash program that draws a frame's sprite
//! instances as the engine's Vulkan backend does, for what the GPU itself needs for the same
//! draw.
//!
//! The `sprites` stress frame (bevymark) costs more with twelve textures in round-robin than
//! with one. Whether that is the engine's cost or the hardware's, [`AshSprites`] answers: it
//! draws the very same [`SpriteInstance`]s with the engine's stock sprite shaders
//! ([`SPRITE_VERT`] with [`SPRITE_FRAG`] for one texture, [`SPRITE_INDEXED_FRAG`] for several),
//! the same vertex input, sampler (`SamplerState.LinearClamp`), blend (`BlendState.AlphaBlend`),
//! descriptor layout and target format, in one `vkCmdDraw` of four strip vertices per
//! instance inside one dynamic-rendering pass that clears the target, timed by GPU timestamps.
//! Drawn from the same instances, its pixels equal the engine's, byte for byte.

use ash::vk;
use xnagraph_graph::{SpriteInstance, MAX_DRAW_TEXTURES};
use xnagraph_shaders::{SPRITE_FRAG, SPRITE_INDEXED_FRAG, SPRITE_VERT};

use crate::ash_commands::AshCommands;
use crate::ash_device::{color_range, err, AshBuffer, AshDevice, AshImage};
use crate::ash_fill::FillBlend;
use crate::ash_pipeline::{graphics_pipeline, shader_module, GraphicsPipeline};

/// The target's format: the engine's `SurfaceFormat::Color` back buffer's.
pub const TARGET_FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
/// Untimed draws before [`AshSprites::measure`]'s timed ones.
const WARMUP: usize = 2;

/// A texture's texels: `width`×`height` RGBA8 texels (rows top to bottom) of level 0, then
/// optionally its smaller mip levels, each half the size of the one above (at least 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureData {
    /// Level 0's width in texels.
    pub width: u32,
    /// Level 0's height in texels.
    pub height: u32,
    /// Each level's texels, R G B A bytes, level 0 first (required).
    pub levels: Vec<Vec<[u8; 4]>>,
}

impl TextureData {
    /// Checks that level 0 exists and every level holds its size's texels.
    fn check(&self) -> Result<(), String> {
        let full = 32 - self.width.max(self.height).max(1).leading_zeros();
        if self.levels.is_empty() || self.levels.len() > full as usize {
            return Err(format!(
                "a {}x{} texture has 1 to {full} levels, not {}",
                self.width,
                self.height,
                self.levels.len()
            ));
        }
        for (level, texels) in self.levels.iter().enumerate() {
            let (w, h) = ((self.width >> level).max(1), (self.height >> level).max(1));
            if texels.len() != (w * h) as usize {
                return Err(format!("level {level}: {} texels for {w}x{h}", texels.len()));
            }
        }
        Ok(())
    }
}

/// The reference's device, target, textures, descriptor sets, pipeline and command buffer.
pub struct AshSprites {
    width: u32,
    height: u32,
    target: Option<AshImage>,
    textures: Vec<AshImage>,
    sampler: vk::Sampler,
    set_layouts: [vk::DescriptorSetLayout; 3],
    layout: vk::PipelineLayout,
    descriptor_pool: vk::DescriptorPool,
    modules: [vk::ShaderModule; 2],
    pipeline: vk::Pipeline,
    uniform: Option<AshBuffer>,
    vertices: Option<AshBuffer>,
    commands: Option<AshCommands>,
    /// The uniform set (set 1) and the texture set (set 2).
    sets: [vk::DescriptorSet; 2],
    /// Whether the target holds a drawn frame (in `COLOR_ATTACHMENT_OPTIMAL`).
    drawn: bool,
    /// The adapter's name.
    pub adapter: String,
    /// Dropped after the reference's own objects (fields drop after `Drop::drop`).
    dev: AshDevice,
}

impl AshSprites {
    /// Creates the reference on its own device, on the adapter the engine prefers, drawing
    /// into a `width`×`height` target with `textures` (1 to 16; sprite slot `i` samples
    /// `textures[i]`); `validation` turns on Khronos' validation layer (see
    /// [`AshSprites::take_messages`]). Fails on an adapter without timestamps, and for more
    /// than one texture on one without `shaderSampledImageArrayNonUniformIndexing` (the
    /// engine then draws texture run by texture run instead).
    pub fn new(
        validation: bool,
        width: u32,
        height: u32,
        textures: &[TextureData],
    ) -> Result<AshSprites, String> {
        if textures.is_empty() || textures.len() > MAX_DRAW_TEXTURES {
            return Err(format!("1 to {MAX_DRAW_TEXTURES} textures, not {}", textures.len()));
        }
        if width == 0 || height == 0 {
            return Err(format!("a {width}x{height} target"));
        }
        for (i, t) in textures.iter().enumerate() {
            t.check().map_err(|e| format!("texture {i}: {e}"))?;
        }
        let dev = AshDevice::new(validation)?;
        if dev.timestamp_bits == 0 {
            return Err(format!("{}: the graphics queue has no timestamps", dev.adapter));
        }
        if textures.len() > 1 && !dev.nonuniform_indexing {
            return Err(format!(
                "{}: no shaderSampledImageArrayNonUniformIndexing, which a draw of {} textures \
                 through the indexing sprite stage needs",
                dev.adapter,
                textures.len()
            ));
        }
        // Null handles until `create` makes them: Drop destroys whatever was made.
        let mut out = AshSprites {
            width,
            height,
            target: None,
            textures: Vec::new(),
            sampler: vk::Sampler::null(),
            set_layouts: [vk::DescriptorSetLayout::null(); 3],
            layout: vk::PipelineLayout::null(),
            descriptor_pool: vk::DescriptorPool::null(),
            modules: [vk::ShaderModule::null(); 2],
            pipeline: vk::Pipeline::null(),
            uniform: None,
            vertices: None,
            commands: None,
            sets: [vk::DescriptorSet::null(); 2],
            drawn: false,
            adapter: dev.adapter.clone(),
            dev,
        };
        out.create(textures)?;
        Ok(out)
    }

    fn create(&mut self, textures: &[TextureData]) -> Result<(), String> {
        let commands = self.commands.insert(AshCommands::new(&self.dev)?);
        let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC;
        let one = vk::SampleCountFlags::TYPE_1;
        let size = (self.width, self.height);
        self.target = Some(self.dev.image(size, TARGET_FORMAT, one, usage)?);
        let usage = vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST;
        for t in textures {
            let levels = t.levels.len() as u32;
            let size = (t.width, t.height);
            let image = self.dev.image_levels(size, TARGET_FORMAT, one, levels, usage)?;
            self.textures.push(image);
            let bytes: Vec<&[u8]> = t.levels.iter().map(|l| l.as_flattened()).collect();
            let image = &self.textures[self.textures.len() - 1];
            crate::ash_commands::upload_levels(&self.dev, commands, image, size, 4, &bytes)?;
        }
        self.sampler = linear_clamp(&self.dev)?;
        self.create_sets()?;
        self.create_pipeline()
    }

    /// Set 0 empty, set 1 the vertex stage's transform, set 2 the texture (or the array of 16
    /// for the indexing stage, the slots past the textures repeating texture 0), as the
    /// engine's pipeline layouts.
    fn create_sets(&mut self) -> Result<(), String> {
        let d = &self.dev.device;
        let indexed = self.textures.len() > 1;
        let count = if indexed { MAX_DRAW_TEXTURES as u32 } else { 1 };
        let uniform = [vk::DescriptorSetLayoutBinding::default()
            .binding(0)
            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
            .descriptor_count(1)
            .stage_flags(vk::ShaderStageFlags::VERTEX)];
        let sampled = [vk::DescriptorSetLayoutBinding::default()
            .binding(0)
            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
            .descriptor_count(count)
            .stage_flags(vk::ShaderStageFlags::FRAGMENT)];
        let bindings: [&[vk::DescriptorSetLayoutBinding]; 3] = [&[], &uniform, &sampled];
        for (slot, b) in self.set_layouts.iter_mut().zip(bindings) {
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(b);
            // SAFETY: valid device and create info; destroyed in Drop.
            *slot = unsafe { d.create_descriptor_set_layout(&info, None) }
                .map_err(|r| err("set layout", r))?;
        }
        let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&self.set_layouts);
        // SAFETY: the set layouts are live; destroyed in Drop.
        self.layout = unsafe { d.create_pipeline_layout(&info, None) }
            .map_err(|r| err("pipeline layout", r))?;
        let sizes = [
            vk::DescriptorPoolSize { ty: vk::DescriptorType::UNIFORM_BUFFER, descriptor_count: 1 },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                descriptor_count: count,
            },
        ];
        let info = vk::DescriptorPoolCreateInfo::default().max_sets(2).pool_sizes(&sizes);
        // SAFETY: as above.
        self.descriptor_pool = unsafe { d.create_descriptor_pool(&info, None) }
            .map_err(|r| err("descriptor pool", r))?;
        let layouts = [self.set_layouts[1], self.set_layouts[2]];
        let info = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(self.descriptor_pool)
            .set_layouts(&layouts);
        // SAFETY: the pool has room for both sets; they go with the pool.
        let sets = unsafe { d.allocate_descriptor_sets(&info) }.map_err(|r| err("sets", r))?;
        self.sets = [sets[0], sets[1]];
        let transform = projection(self.width, self.height);
        let uniform_usage = vk::BufferUsageFlags::UNIFORM_BUFFER;
        let buffer = self.uniform.insert(self.dev.host_buffer(64, uniform_usage)?);
        buffer.write(bytemuck::cast_slice(&transform))?;
        let buffer_info = [vk::DescriptorBufferInfo::default().buffer(buffer.buffer).range(64)];
        let image_infos: Vec<_> = (0..count as usize)
            .map(|slot| {
                let texture = self.textures.get(slot).unwrap_or(&self.textures[0]);
                vk::DescriptorImageInfo::default()
                    .sampler(self.sampler)
                    .image_view(texture.view)
                    .image_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)
            })
            .collect();
        let writes = [
            vk::WriteDescriptorSet::default()
                .dst_set(self.sets[0])
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                .buffer_info(&buffer_info),
            vk::WriteDescriptorSet::default()
                .dst_set(self.sets[1])
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .image_info(&image_infos),
        ];
        // SAFETY: the sets, buffer, views and sampler are live and match the layouts.
        unsafe { d.update_descriptor_sets(&writes, &[]) };
        Ok(())
    }

    /// The engine's sprite pipeline: its stock stages, one instance-rate binding of
    /// [`SpriteInstance`]s, four-vertex strips, no culling, no depth, `BlendState.AlphaBlend`.
    fn create_pipeline(&mut self) -> Result<(), String> {
        let fragment = if self.textures.len() > 1 { SPRITE_INDEXED_FRAG } else { SPRITE_FRAG };
        for (slot, stage) in self.modules.iter_mut().zip([SPRITE_VERT, fragment]) {
            *slot = shader_module(&self.dev, stage)?;
        }
        let bindings = [vk::VertexInputBindingDescription {
            binding: 0,
            stride: std::mem::size_of::<SpriteInstance>() as u32,
            input_rate: vk::VertexInputRate::INSTANCE,
        }];
        let attribute = |location, format, offset: usize| vk::VertexInputAttributeDescription {
            location,
            binding: 0,
            format,
            offset: offset as u32,
        };
        let attributes = [
            attribute(0, vk::Format::R32G32_SFLOAT, std::mem::offset_of!(SpriteInstance, origin)),
            attribute(1, vk::Format::R32G32_SFLOAT, std::mem::offset_of!(SpriteInstance, right)),
            attribute(2, vk::Format::R32G32_SFLOAT, std::mem::offset_of!(SpriteInstance, down)),
            attribute(
                3,
                vk::Format::R32G32B32A32_SFLOAT,
                std::mem::offset_of!(SpriteInstance, texcoords),
            ),
            attribute(4, vk::Format::R32_SFLOAT, std::mem::offset_of!(SpriteInstance, depth)),
            attribute(5, vk::Format::R8G8B8A8_UNORM, std::mem::offset_of!(SpriteInstance, color)),
            attribute(6, vk::Format::R32_UINT, std::mem::offset_of!(SpriteInstance, texture)),
        ];
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&bindings)
            .vertex_attribute_descriptions(&attributes);
        let pipeline = GraphicsPipeline {
            modules: self.modules,
            vertex_input,
            topology: vk::PrimitiveTopology::TRIANGLE_STRIP,
            samples: vk::SampleCountFlags::TYPE_1,
            // XNA's BlendState.AlphaBlend (premultiplied): ONE, ONE_MINUS_SRC_ALPHA.
            blend: FillBlend::Alpha.attachment(),
            format: TARGET_FORMAT,
            layout: self.layout,
            cull: vk::CullModeFlags::NONE,
            depth: None,
        };
        self.pipeline = graphics_pipeline(&self.dev, &pipeline)?;
        Ok(())
    }

    /// The validation messages reported so far (none unless created with validation).
    pub fn take_messages(&self) -> Vec<String> {
        self.dev.take_messages()
    }

    /// Draws `instances` into the target cleared to `clear` (RGBA, 0 to 1) and returns the
    /// GPU time from the timestamp before the pass's barrier to the one after its store, in
    /// nanoseconds. The instances go into a host-visible vertex buffer, grown as needed.
    pub fn draw(&mut self, instances: &[SpriteInstance], clear: [f32; 4]) -> Result<f64, String> {
        let bytes: &[u8] = bytemuck::cast_slice(instances);
        if self.vertices.as_ref().is_none_or(|b| b.size < bytes.len() as u64) {
            if let Some(old) = self.vertices.take() {
                self.dev.destroy_buffer(&old);
            }
            let size = (bytes.len() as u64).next_power_of_two();
            let usage = vk::BufferUsageFlags::VERTEX_BUFFER;
            self.vertices = Some(self.dev.host_buffer(size, usage)?);
        }
        let vertices = self.vertices.as_mut().ok_or("no vertex buffer")?;
        vertices.write(bytes)?;
        let (vertices, target) = (vertices.buffer, self.target.as_ref().ok_or("no target")?);
        let attachment_layout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
        // The previous frame's store (or read-back copy) comes before the layout transition.
        let barrier = [vk::ImageMemoryBarrier2::default()
            .src_stage_mask(
                vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT | vk::PipelineStageFlags2::COPY,
            )
            .src_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
            .dst_access_mask(
                vk::AccessFlags2::COLOR_ATTACHMENT_WRITE | vk::AccessFlags2::COLOR_ATTACHMENT_READ,
            )
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(attachment_layout)
            .image(target.image)
            .subresource_range(color_range())];
        let attachments = [vk::RenderingAttachmentInfo::default()
            .image_view(target.view)
            .image_layout(attachment_layout)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .clear_value(vk::ClearValue { color: vk::ClearColorValue { float32: clear } })];
        let (width, height) = (self.width, self.height);
        let area =
            vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width, height } };
        let rendering = vk::RenderingInfo::default()
            .render_area(area)
            .layer_count(1)
            .color_attachments(&attachments);
        let viewport =
            vk::Viewport::default().width(width as f32).height(height as f32).max_depth(1.0);
        let count = instances.len() as u32;
        let commands = self.commands.as_ref().ok_or("no command buffer")?;
        let ns = commands.run(&self.dev, |d, cmd| {
            // SAFETY: recording into the idle command buffer; every handle belongs to this
            // device and the pipeline matches the target's format.
            unsafe {
                d.cmd_pipeline_barrier2(
                    cmd,
                    &vk::DependencyInfo::default().image_memory_barriers(&barrier),
                );
                d.cmd_begin_rendering(cmd, &rendering);
                d.cmd_set_viewport(cmd, 0, &[viewport]);
                d.cmd_set_scissor(cmd, 0, &[area]);
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, self.pipeline);
                let bind = vk::PipelineBindPoint::GRAPHICS;
                d.cmd_bind_descriptor_sets(cmd, bind, self.layout, 1, &self.sets, &[]);
                d.cmd_bind_vertex_buffers(cmd, 0, &[vertices], &[0]);
                if count > 0 {
                    d.cmd_draw(cmd, 4, count, 0, 0);
                }
                d.cmd_end_rendering(cmd);
            }
        })?;
        self.drawn = true;
        Ok(ns)
    }

    /// The median GPU time of `rounds` (at least 1) [`AshSprites::draw`]s of `instances` after
    /// untimed warm-up draws, in nanoseconds.
    pub fn measure(
        &mut self,
        instances: &[SpriteInstance],
        clear: [f32; 4],
        rounds: usize,
    ) -> Result<f64, String> {
        for _ in 0..WARMUP {
            self.draw(instances, clear)?;
        }
        let mut times = (0..rounds.max(1))
            .map(|_| self.draw(instances, clear))
            .collect::<Result<Vec<f64>, String>>()?;
        times.sort_by(f64::total_cmp);
        Ok(times[times.len() / 2])
    }

    /// The target's pixels after the last [`AshSprites::draw`], rows top to bottom, R G B A.
    pub fn read_pixels(&mut self) -> Result<Vec<[u8; 4]>, String> {
        if !self.drawn {
            return Err("nothing drawn yet".to_owned());
        }
        let target = self.target.as_ref().ok_or("no target")?;
        let commands = self.commands.as_ref().ok_or("no command buffer")?;
        let size = (self.width, self.height);
        let pixels = crate::ash_commands::read_color(&self.dev, commands, target, size);
        // The target is now in TRANSFER_SRC_OPTIMAL: only a new draw makes it readable again.
        self.drawn = false;
        pixels
    }
}

/// `SpriteBatch`'s projection with the identity transform, column-major: pixels to clip space
/// (`x * 2 / width - 1`, `y * 2 / height - 1`; near 0 and far −1 leave depth unchanged).
pub fn projection(width: u32, height: u32) -> [f32; 16] {
    let (w, h) = (width.max(1) as f32, height.max(1) as f32);
    xnagraph::Matrix::create_orthographic_off_center(0.0, w, 0.0, h, 0.0, -1.0).to_column_major()
}

/// The engine's sampler for `SamplerState.LinearClamp`: linear filters and mip filter, clamp to
/// edge, no anisotropy, level 0 the most detailed and no upper clamp (a texture's mips are used
/// when it has them).
fn linear_clamp(dev: &AshDevice) -> Result<vk::Sampler, String> {
    let clamp = vk::SamplerAddressMode::CLAMP_TO_EDGE;
    let info = vk::SamplerCreateInfo::default()
        .min_filter(vk::Filter::LINEAR)
        .mag_filter(vk::Filter::LINEAR)
        .mipmap_mode(vk::SamplerMipmapMode::LINEAR)
        .address_mode_u(clamp)
        .address_mode_v(clamp)
        .address_mode_w(clamp)
        .anisotropy_enable(false)
        .max_anisotropy(1.0)
        .min_lod(0.0)
        .max_lod(vk::LOD_CLAMP_NONE);
    // SAFETY: valid device and create info; destroyed in Drop.
    unsafe { dev.device.create_sampler(&info, None) }.map_err(|r| err("sampler", r))
}

impl Drop for AshSprites {
    fn drop(&mut self) {
        if let Some(commands) = &self.commands {
            commands.destroy(&self.dev);
        }
        let d = &self.dev.device;
        // SAFETY: the device is idle (waited for above, or nothing was submitted); every
        // object was made by this device (or is null) and is destroyed once, before the device
        // itself (dropped with `dev`).
        unsafe {
            let _ = d.device_wait_idle();
            d.destroy_pipeline(self.pipeline, None);
            for module in self.modules {
                d.destroy_shader_module(module, None);
            }
            d.destroy_descriptor_pool(self.descriptor_pool, None);
            d.destroy_pipeline_layout(self.layout, None);
            for layout in self.set_layouts {
                d.destroy_descriptor_set_layout(layout, None);
            }
            d.destroy_sampler(self.sampler, None);
        }
        for buffer in self.uniform.iter().chain(&self.vertices) {
            self.dev.destroy_buffer(buffer);
        }
        for image in self.target.iter().chain(&self.textures) {
            self.dev.destroy_image(image);
        }
    }
}
