//! The cubes reference: a minimal hand-written ash program that draws the `cubes` stress frame
//! (lit cubes, each its own World and diffuse colour, one shared mesh), for what the GPU and a
//! driver-level loop need for the same frame.
//!
//! In: the mesh (24 [`VertexPositionNormalTexture`]s, 36 16-bit indices), the scene
//! ([`CubeScene`]: View, Projection, the lights and material values of a `BasicEffect` after
//! `EnableDefaultLighting`) and a frame's [`CubeInstance`]s. Out: the frame's pixels, its GPU time
//! (two timestamps around the pass) and the CPU time of writing the cubes' data and recording
//! their draws. It decides nothing the engine decides: one pipeline (XNA's default states: depth
//! test `LESS_OR_EQUAL` with writes, counter-clockwise faces culled, opaque), one
//! dynamic-rendering pass that clears colour and depth, and either
//!
//! - [`DrawMode::Draws`]: each cube's block at its own dynamic uniform-buffer offset (the values
//!   `BasicEffect.Apply` computes: World × View × Projection, World, its inverse transpose, the
//!   diffuse and emissive colours), one `vkCmdBindDescriptorSets` and one `vkCmdDrawIndexed` per
//!   cube ([`CUBE_REFERENCE_VERT`]); or
//! - [`DrawMode::Instanced`]: the instances in a per-instance vertex buffer and one instanced
//!   `vkCmdDrawIndexed` ([`CUBE_REFERENCE_INSTANCED_VERT`], the source the scenario's
//!   `CustomEffect` compiles, y flipped by the viewport as the engine flips a custom stage's).
//!
//! Both light per vertex as `BasicEffect` does, so the pixels agree with the engine's up to the
//! rounding of edges and of the last bit.

use std::time::Instant;

use ash::vk;
use bytemuck::{Pod, Zeroable};
use xnagraph::{DirectionalLight, Matrix, Vector3, VertexPositionNormalTexture};
use xnagraph_shaders::{CUBE_REFERENCE_FRAG, CUBE_REFERENCE_INSTANCED_VERT, CUBE_REFERENCE_VERT};

use crate::ash_commands::AshCommands;
use crate::ash_device::{color_range, depth_range, err, AshBuffer, AshDevice, AshImage};
use crate::ash_fill::FillBlend;
use crate::ash_pipeline::{graphics_pipeline, shader_module, GraphicsPipeline};
use crate::ash_sprites::TARGET_FORMAT;

/// Untimed draws before [`AshCubes::measure`]'s timed ones.
const WARMUP: usize = 2;
/// What the engine allocates for `DepthFormat::Depth24`, in its order of preference.
const DEPTH_FORMATS: [vk::Format; 2] = [vk::Format::X8_D24_UNORM_PACK32, vk::Format::D32_SFLOAT];
/// Bytes of one cube's `CubeDraw` block (three mat4, two vec4).
const DRAW_BLOCK: usize = 224;
/// Floats of the scene's values: twelve vec4.
const SCENE_FLOATS: usize = 48;

/// How the cubes become draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawMode {
    /// XNA's way: per cube, set World and DiffuseColor, apply the pass, draw.
    Draws,
    /// One instanced draw, World and the colour per instance.
    Instanced,
}

impl DrawMode {
    /// The mode's name on the command line and in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            DrawMode::Draws => "draws",
            DrawMode::Instanced => "instanced",
        }
    }
}

/// One cube as a per-instance vertex element (80 bytes): World's four rows (XNA's M11..M44, as
/// `TextureCoordinate1` to `TextureCoordinate4`) and the diffuse colour with alpha 1 (`Color1`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct CubeInstance {
    /// World, row by row.
    pub world: [[f32; 4]; 4],
    /// DiffuseColor (RGB) and 1.
    pub color: [f32; 4],
}

impl CubeInstance {
    /// World as XNA's matrix.
    pub fn world(&self) -> Matrix {
        Matrix { m: self.world }
    }

    /// The diffuse colour.
    pub fn diffuse(&self) -> Vector3 {
        Vector3::new(self.color[0], self.color[1], self.color[2])
    }
}

/// What every cube shares: the camera and a lit `BasicEffect`'s light and material values.
#[derive(Clone, Copy, Debug)]
pub struct CubeScene {
    /// View.
    pub view: Matrix,
    /// Projection.
    pub projection: Matrix,
    /// AmbientLightColor.
    pub ambient_light_color: Vector3,
    /// SpecularColor.
    pub specular_color: Vector3,
    /// SpecularPower.
    pub specular_power: f32,
    /// DirectionalLight0 to 2.
    pub lights: [DirectionalLight; 3],
}

impl CubeScene {
    /// The scene's values as the vertex stage's `CubeScene` names them, in its block's order:
    /// AmbientLightColor, SpecularColorPower, EyePosition (the inverse view's translation), then
    /// each light's direction, diffuse and specular colour (black for a disabled light), as
    /// `BasicEffect.Apply` writes them.
    pub fn values(&self) -> [(&'static str, [f32; 4]); 12] {
        let v = |v: Vector3, w: f32| [v.x, v.y, v.z, w];
        let [l0, l1, l2] = &self.lights;
        let lit = |l: &DirectionalLight, c: Vector3| if l.enabled { c } else { Vector3::ZERO };
        [
            ("AmbientLightColor", v(self.ambient_light_color, 0.0)),
            ("SpecularColorPower", v(self.specular_color, self.specular_power)),
            ("EyePosition", v(self.view.invert().translation(), 1.0)),
            ("DirLight0Direction", v(l0.direction, 0.0)),
            ("DirLight1Direction", v(l1.direction, 0.0)),
            ("DirLight2Direction", v(l2.direction, 0.0)),
            ("DirLight0DiffuseColor", v(lit(l0, l0.diffuse_color), 0.0)),
            ("DirLight1DiffuseColor", v(lit(l1, l1.diffuse_color), 0.0)),
            ("DirLight2DiffuseColor", v(lit(l2, l2.diffuse_color), 0.0)),
            ("DirLight0SpecularColor", v(lit(l0, l0.specular_color), 0.0)),
            ("DirLight1SpecularColor", v(lit(l1, l1.specular_color), 0.0)),
            ("DirLight2SpecularColor", v(lit(l2, l2.specular_color), 0.0)),
        ]
    }

    /// View × Projection in XNA's clip space, what the instanced stage's `ViewProjection` holds.
    pub fn view_projection(&self) -> Matrix {
        self.view.mul(&self.projection)
    }

    /// `cube`'s `CubeDraw` block: the values `BasicEffect.Apply` hands its vertex stage for
    /// World = the cube's, DiffuseColor = its colour, Alpha 1, EmissiveColor black, lighting on
    /// (the same operations in the same order).
    fn draw_block(&self, cube: &CubeInstance) -> [f32; DRAW_BLOCK / 4] {
        let world = cube.world();
        let flip = Matrix::create_scale(1.0, -1.0, 1.0);
        let clip = world.mul(&self.view).mul(&self.projection).mul(&flip);
        let (d, a) = (cube.diffuse(), 1.0f32);
        let diffuse = d * a;
        let emissive = (Vector3::ZERO + self.ambient_light_color * d) * a;
        let mut block = [0.0; DRAW_BLOCK / 4];
        block[..16].copy_from_slice(&clip.to_column_major());
        block[16..32].copy_from_slice(&world.to_column_major());
        block[32..48].copy_from_slice(&world.invert().transpose().to_column_major());
        block[48..52].copy_from_slice(&[diffuse.x, diffuse.y, diffuse.z, a]);
        block[52..56].copy_from_slice(&[emissive.x, emissive.y, emissive.z, 0.0]);
        block
    }
}

/// What one [`AshCubes::draw`] cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeTimes {
    /// GPU time from the timestamp before the pass's barriers to the one after its store.
    pub gpu_ns: f64,
    /// CPU time of writing the cubes' uniform blocks or instances and recording the pass.
    pub cpu_ns: f64,
}

/// The reference's device, target, buffers, descriptor set, pipeline and command buffer.
pub struct AshCubes {
    mode: DrawMode,
    width: u32,
    height: u32,
    target: Option<AshImage>,
    depth: Option<AshImage>,
    set_layouts: [vk::DescriptorSetLayout; 2],
    layout: vk::PipelineLayout,
    descriptor_pool: vk::DescriptorPool,
    set: vk::DescriptorSet,
    modules: [vk::ShaderModule; 2],
    pipeline: vk::Pipeline,
    mesh: Option<AshBuffer>,
    scene_buffer: Option<AshBuffer>,
    /// Per-cube blocks (draws) or instances (instanced), grown as needed.
    cubes: Option<AshBuffer>,
    /// Bytes from one cube's block to the next (draws).
    stride: u64,
    scene: CubeScene,
    commands: Option<AshCommands>,
    /// Whether the target holds a drawn frame (in `COLOR_ATTACHMENT_OPTIMAL`).
    drawn: bool,
    /// The adapter's name.
    pub adapter: String,
    /// Dropped after the reference's own objects (fields drop after `Drop::drop`).
    dev: AshDevice,
}

/// Byte offset of the index data in the mesh buffer (after the 24 vertices).
const INDEX_OFFSET: u64 = 24 * std::mem::size_of::<VertexPositionNormalTexture>() as u64;

impl AshCubes {
    /// Creates the reference on its own device, on the adapter the engine prefers, drawing in
    /// `mode` into a `width`×`height` colour target with a depth buffer, from `vertices` (24)
    /// and `indices` (36) lit by `scene`; `validation` turns on Khronos' validation layer (see
    /// [`AshCubes::take_messages`]). Fails on an adapter without timestamps.
    pub fn new(
        validation: bool,
        mode: DrawMode,
        (width, height): (u32, u32),
        (vertices, indices): (&[VertexPositionNormalTexture], &[u16]),
        scene: CubeScene,
    ) -> Result<AshCubes, String> {
        if vertices.len() != 24 || indices.len() != 36 {
            return Err(format!("{} vertices and {} indices", vertices.len(), indices.len()));
        }
        if width == 0 || height == 0 {
            return Err(format!("a {width}x{height} target"));
        }
        let dev = AshDevice::new(validation)?;
        if dev.timestamp_bits == 0 {
            return Err(format!("{}: the graphics queue has no timestamps", dev.adapter));
        }
        let align = dev.properties.limits.min_uniform_buffer_offset_alignment.max(1);
        // Null handles until `create` makes them: Drop destroys whatever was made.
        let mut out = AshCubes {
            mode,
            width,
            height,
            target: None,
            depth: None,
            set_layouts: [vk::DescriptorSetLayout::null(); 2],
            layout: vk::PipelineLayout::null(),
            descriptor_pool: vk::DescriptorPool::null(),
            set: vk::DescriptorSet::null(),
            modules: [vk::ShaderModule::null(); 2],
            pipeline: vk::Pipeline::null(),
            mesh: None,
            scene_buffer: None,
            cubes: None,
            stride: (DRAW_BLOCK as u64).next_multiple_of(align),
            scene,
            commands: None,
            drawn: false,
            adapter: dev.adapter.clone(),
            dev,
        };
        out.create(vertices, indices)?;
        Ok(out)
    }

    fn create(
        &mut self,
        vertices: &[VertexPositionNormalTexture],
        indices: &[u16],
    ) -> Result<(), String> {
        self.commands = Some(AshCommands::new(&self.dev)?);
        let size = (self.width, self.height);
        let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC;
        self.target =
            Some(self.dev.image(size, TARGET_FORMAT, vk::SampleCountFlags::TYPE_1, usage)?);
        let depth = self
            .dev
            .depth_format(&DEPTH_FORMATS)
            .ok_or_else(|| format!("{}: no 24-bit or float depth attachment", self.adapter))?;
        self.depth = Some(self.dev.depth_image(size, depth)?);
        let usage = vk::BufferUsageFlags::VERTEX_BUFFER | vk::BufferUsageFlags::INDEX_BUFFER;
        let mut bytes = bytemuck::cast_slice::<_, u8>(vertices).to_vec();
        bytes.extend_from_slice(bytemuck::cast_slice(indices));
        let mesh = self.mesh.insert(self.dev.host_buffer(bytes.len() as u64, usage)?);
        mesh.write(&bytes)?;
        let mut scene: Vec<f32> = Vec::with_capacity(16 + SCENE_FLOATS);
        if self.mode == DrawMode::Instanced {
            scene.extend(self.scene.view_projection().to_column_major());
        }
        scene.extend(self.scene.values().iter().flat_map(|(_, v)| *v));
        let bytes: &[u8] = bytemuck::cast_slice(&scene);
        let usage = vk::BufferUsageFlags::UNIFORM_BUFFER;
        let buffer = self.scene_buffer.insert(self.dev.host_buffer(bytes.len() as u64, usage)?);
        buffer.write(bytes)?;
        self.reserve(1)?;
        self.create_set()?;
        self.create_pipeline(depth)
    }

    /// Makes the per-cube buffer hold at least `cubes` cubes; a new buffer is bound to the
    /// descriptor set (draws), which must then not be in use.
    fn reserve(&mut self, cubes: usize) -> Result<(), String> {
        let per_cube = match self.mode {
            DrawMode::Draws => self.stride,
            DrawMode::Instanced => std::mem::size_of::<CubeInstance>() as u64,
        };
        let want = per_cube * cubes.max(1) as u64;
        if self.cubes.as_ref().is_some_and(|b| b.size >= want) {
            return Ok(());
        }
        if let Some(old) = self.cubes.take() {
            self.dev.destroy_buffer(&old);
        }
        let usage = match self.mode {
            DrawMode::Draws => vk::BufferUsageFlags::UNIFORM_BUFFER,
            DrawMode::Instanced => vk::BufferUsageFlags::VERTEX_BUFFER,
        };
        self.cubes = Some(self.dev.host_buffer(want.next_power_of_two(), usage)?);
        if self.set != vk::DescriptorSet::null() {
            self.write_set();
        }
        Ok(())
    }

    /// Set 0 empty; set 1: draws, each cube's block (dynamic, binding 0) and the scene
    /// (binding 1); instanced, the scene (binding 0). The stages' resource layout.
    fn create_set(&mut self) -> Result<(), String> {
        let d = &self.dev.device;
        let uniform = |binding, ty| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(binding)
                .descriptor_type(ty)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::VERTEX)
        };
        let bindings = match self.mode {
            DrawMode::Draws => vec![
                uniform(0, vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC),
                uniform(1, vk::DescriptorType::UNIFORM_BUFFER),
            ],
            DrawMode::Instanced => vec![uniform(0, vk::DescriptorType::UNIFORM_BUFFER)],
        };
        let layouts: [&[vk::DescriptorSetLayoutBinding]; 2] = [&[], &bindings];
        for (slot, b) in self.set_layouts.iter_mut().zip(layouts) {
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
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
                descriptor_count: 1,
            },
            vk::DescriptorPoolSize { ty: vk::DescriptorType::UNIFORM_BUFFER, descriptor_count: 1 },
        ];
        let info = vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes);
        // SAFETY: as above.
        self.descriptor_pool = unsafe { d.create_descriptor_pool(&info, None) }
            .map_err(|r| err("descriptor pool", r))?;
        let layouts = [self.set_layouts[1]];
        let info = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(self.descriptor_pool)
            .set_layouts(&layouts);
        // SAFETY: the pool has room for the set; it goes with the pool.
        self.set = unsafe { d.allocate_descriptor_sets(&info) }.map_err(|r| err("set", r))?[0];
        self.write_set();
        Ok(())
    }

    /// Points the set at the scene's buffer and (draws) the per-cube blocks.
    fn write_set(&self) {
        let (Some(scene), Some(cubes)) = (&self.scene_buffer, &self.cubes) else { return };
        let scene_info =
            [vk::DescriptorBufferInfo::default().buffer(scene.buffer).range(vk::WHOLE_SIZE)];
        let block_info =
            [vk::DescriptorBufferInfo::default().buffer(cubes.buffer).range(DRAW_BLOCK as u64)];
        let write = |binding, ty, info| {
            vk::WriteDescriptorSet::default()
                .dst_set(self.set)
                .dst_binding(binding)
                .descriptor_type(ty)
                .buffer_info(info)
        };
        let writes = match self.mode {
            DrawMode::Draws => vec![
                write(0, vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC, &block_info[..]),
                write(1, vk::DescriptorType::UNIFORM_BUFFER, &scene_info[..]),
            ],
            DrawMode::Instanced => vec![write(0, vk::DescriptorType::UNIFORM_BUFFER, &scene_info)],
        };
        // SAFETY: the set and buffers are live, the set not in use, and the writes match its
        // layout.
        unsafe { self.dev.device.update_descriptor_sets(&writes, &[]) };
    }

    /// The pipeline: the mode's vertex stage and the shared fragment stage, the mesh's
    /// position (location 0) and normal (1) per vertex and, instanced, [`CubeInstance`]'s rows
    /// (2 to 5) and colour (6) per instance; triangle lists, XNA's default states.
    fn create_pipeline(&mut self, depth: vk::Format) -> Result<(), String> {
        let vertex = match self.mode {
            DrawMode::Draws => CUBE_REFERENCE_VERT,
            DrawMode::Instanced => CUBE_REFERENCE_INSTANCED_VERT,
        };
        for (slot, stage) in self.modules.iter_mut().zip([vertex, CUBE_REFERENCE_FRAG]) {
            *slot = shader_module(&self.dev, stage)?;
        }
        let mut bindings = vec![vk::VertexInputBindingDescription {
            binding: 0,
            stride: std::mem::size_of::<VertexPositionNormalTexture>() as u32,
            input_rate: vk::VertexInputRate::VERTEX,
        }];
        let attribute = |location, binding, format, offset: usize| {
            vk::VertexInputAttributeDescription { location, binding, format, offset: offset as u32 }
        };
        let vec3 = vk::Format::R32G32B32_SFLOAT;
        let vec4 = vk::Format::R32G32B32A32_SFLOAT;
        let mut attributes = vec![
            attribute(0, 0, vec3, std::mem::offset_of!(VertexPositionNormalTexture, position)),
            attribute(1, 0, vec3, std::mem::offset_of!(VertexPositionNormalTexture, normal)),
        ];
        if self.mode == DrawMode::Instanced {
            bindings.push(vk::VertexInputBindingDescription {
                binding: 1,
                stride: std::mem::size_of::<CubeInstance>() as u32,
                input_rate: vk::VertexInputRate::INSTANCE,
            });
            for row in 0..4 {
                attributes.push(attribute(2 + row as u32, 1, vec4, row * 16));
            }
            attributes.push(attribute(6, 1, vec4, std::mem::offset_of!(CubeInstance, color)));
        }
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&bindings)
            .vertex_attribute_descriptions(&attributes);
        let pipeline = GraphicsPipeline {
            modules: self.modules,
            vertex_input,
            topology: vk::PrimitiveTopology::TRIANGLE_LIST,
            samples: vk::SampleCountFlags::TYPE_1,
            blend: FillBlend::Opaque.attachment(),
            format: TARGET_FORMAT,
            layout: self.layout,
            // XNA's CullCounterClockwiseFace, clockwise being the front.
            cull: vk::CullModeFlags::BACK,
            depth: Some(depth),
        };
        self.pipeline = graphics_pipeline(&self.dev, &pipeline)?;
        Ok(())
    }

    /// The validation messages reported so far (none unless created with validation).
    pub fn take_messages(&self) -> Vec<String> {
        self.dev.take_messages()
    }

    /// Draws `cubes` into the target cleared to `clear` (RGBA, 0 to 1) and depth 1, and returns
    /// what it cost ([`CubeTimes`]).
    pub fn draw(&mut self, cubes: &[CubeInstance], clear: [f32; 4]) -> Result<CubeTimes, String> {
        let start = Instant::now();
        self.reserve(cubes.len())?;
        let buffer = self.cubes.as_mut().ok_or("no cube buffer")?;
        match self.mode {
            DrawMode::Draws => {
                let stride = self.stride as usize;
                let mut bytes = vec![0u8; stride * cubes.len()];
                for (cube, slot) in cubes.iter().zip(bytes.chunks_exact_mut(stride)) {
                    let block = self.scene.draw_block(cube);
                    slot[..DRAW_BLOCK].copy_from_slice(bytemuck::cast_slice(&block));
                }
                buffer.write(&bytes)?;
            }
            DrawMode::Instanced => buffer.write(bytemuck::cast_slice(cubes))?,
        }
        let (cube_buffer, mesh) =
            (buffer.buffer, self.mesh.as_ref().ok_or("no mesh buffer")?.buffer);
        let target = self.target.as_ref().ok_or("no target")?;
        let depth = self.depth.as_ref().ok_or("no depth buffer")?;
        let color_layout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
        let depth_layout = vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL;
        let fragment_tests = vk::PipelineStageFlags2::EARLY_FRAGMENT_TESTS
            | vk::PipelineStageFlags2::LATE_FRAGMENT_TESTS;
        let depth_access = vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_READ
            | vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE;
        // The previous frame's store (or read-back copy) and depth tests come before the
        // layout transitions.
        let barriers = [
            vk::ImageMemoryBarrier2::default()
                .src_stage_mask(
                    vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT
                        | vk::PipelineStageFlags2::COPY,
                )
                .src_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)
                .dst_stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
                .dst_access_mask(
                    vk::AccessFlags2::COLOR_ATTACHMENT_WRITE
                        | vk::AccessFlags2::COLOR_ATTACHMENT_READ,
                )
                .old_layout(vk::ImageLayout::UNDEFINED)
                .new_layout(color_layout)
                .image(target.image)
                .subresource_range(color_range()),
            vk::ImageMemoryBarrier2::default()
                .src_stage_mask(fragment_tests)
                .src_access_mask(vk::AccessFlags2::DEPTH_STENCIL_ATTACHMENT_WRITE)
                .dst_stage_mask(fragment_tests)
                .dst_access_mask(depth_access)
                .old_layout(vk::ImageLayout::UNDEFINED)
                .new_layout(depth_layout)
                .image(depth.image)
                .subresource_range(depth_range()),
        ];
        let colors = [vk::RenderingAttachmentInfo::default()
            .image_view(target.view)
            .image_layout(color_layout)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .clear_value(vk::ClearValue { color: vk::ClearColorValue { float32: clear } })];
        let depth_attachment = vk::RenderingAttachmentInfo::default()
            .image_view(depth.view)
            .image_layout(depth_layout)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::DONT_CARE)
            .clear_value(vk::ClearValue {
                depth_stencil: vk::ClearDepthStencilValue { depth: 1.0, stencil: 0 },
            });
        let (width, height) = (self.width, self.height);
        let area =
            vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width, height } };
        let rendering = vk::RenderingInfo::default()
            .render_area(area)
            .layer_count(1)
            .color_attachments(&colors)
            .depth_attachment(&depth_attachment);
        let (w, h) = (width as f32, height as f32);
        let viewport = match self.mode {
            DrawMode::Draws => vk::Viewport::default().width(w).height(h).max_depth(1.0),
            // The instanced stage writes XNA's clip space (y up): flipped here, as the engine's
            // backend flips a custom stage's.
            DrawMode::Instanced => vk::Viewport::default().y(h).width(w).height(-h).max_depth(1.0),
        };
        let (mode, stride, count) = (self.mode, self.stride, cubes.len() as u32);
        let (pipeline, layout, set) = (self.pipeline, self.layout, self.set);
        let commands = self.commands.as_ref().ok_or("no command buffer")?;
        let mut recorded = None;
        let gpu_ns = commands.run(&self.dev, |d, cmd| {
            let bind = vk::PipelineBindPoint::GRAPHICS;
            // SAFETY: recording into the idle command buffer; every handle belongs to this
            // device, the pipeline matches the attachments' formats, every dynamic offset
            // lies inside the per-cube buffer and the mesh buffer holds the indices drawn.
            unsafe {
                d.cmd_pipeline_barrier2(
                    cmd,
                    &vk::DependencyInfo::default().image_memory_barriers(&barriers),
                );
                d.cmd_begin_rendering(cmd, &rendering);
                d.cmd_set_viewport(cmd, 0, &[viewport]);
                d.cmd_set_scissor(cmd, 0, &[area]);
                d.cmd_bind_pipeline(cmd, bind, pipeline);
                d.cmd_bind_index_buffer(cmd, mesh, INDEX_OFFSET, vk::IndexType::UINT16);
                match mode {
                    DrawMode::Draws => {
                        d.cmd_bind_vertex_buffers(cmd, 0, &[mesh], &[0]);
                        for i in 0..count {
                            let offset = [(u64::from(i) * stride) as u32];
                            d.cmd_bind_descriptor_sets(cmd, bind, layout, 1, &[set], &offset);
                            d.cmd_draw_indexed(cmd, 36, 1, 0, 0, 0);
                        }
                    }
                    DrawMode::Instanced => {
                        d.cmd_bind_vertex_buffers(cmd, 0, &[mesh, cube_buffer], &[0, 0]);
                        d.cmd_bind_descriptor_sets(cmd, bind, layout, 1, &[set], &[]);
                        if count > 0 {
                            d.cmd_draw_indexed(cmd, 36, count, 0, 0, 0);
                        }
                    }
                }
                d.cmd_end_rendering(cmd);
            }
            recorded = Some(start.elapsed());
        })?;
        self.drawn = true;
        let cpu_ns = recorded.map_or(f64::NAN, |t| t.as_secs_f64() * 1e9);
        Ok(CubeTimes { gpu_ns, cpu_ns })
    }

    /// The median GPU and the median CPU time of `rounds` (at least 1) [`AshCubes::draw`]s of
    /// `cubes` after untimed warm-up draws.
    pub fn measure(
        &mut self,
        cubes: &[CubeInstance],
        clear: [f32; 4],
        rounds: usize,
    ) -> Result<CubeTimes, String> {
        for _ in 0..WARMUP {
            self.draw(cubes, clear)?;
        }
        let times = (0..rounds.max(1))
            .map(|_| self.draw(cubes, clear))
            .collect::<Result<Vec<CubeTimes>, String>>()?;
        let median = |get: fn(&CubeTimes) -> f64| {
            let mut v: Vec<f64> = times.iter().map(get).collect();
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        Ok(CubeTimes { gpu_ns: median(|t| t.gpu_ns), cpu_ns: median(|t| t.cpu_ns) })
    }

    /// The target's pixels after the last [`AshCubes::draw`], rows top to bottom, R G B A.
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

impl Drop for AshCubes {
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
        }
        for buffer in self.mesh.iter().chain(&self.scene_buffer).chain(&self.cubes) {
            self.dev.destroy_buffer(buffer);
        }
        for image in self.target.iter().chain(&self.depth) {
            self.dev.destroy_image(image);
        }
    }
}

/// The largest difference of any channel between `a` and `b`, and the count of pixels that
/// differ in any channel (images of one size, R G B A).
pub fn compare_pixels(a: &[[u8; 4]], b: &[[u8; 4]]) -> (u8, usize) {
    let mut max = 0;
    let mut differing = 0;
    for (p, q) in a.iter().zip(b) {
        let d = p.iter().zip(q).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0);
        max = max.max(d);
        differing += usize::from(d > 0);
    }
    (max, differing + a.len().abs_diff(b.len()))
}
