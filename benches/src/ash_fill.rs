//! The fill probe: a minimal hand-written ash program that measures what covering a render
//! target with fragments costs the GPU, for the hardware floor of a frame.
//!
//! A frame's memory traffic divided by the memory bandwidth bounds its GPU time from below only
//! where memory is the bottleneck. On a compute GPU such as the NVIDIA H200, few units can
//! rasterise: a 4K full-screen opaque blit takes some seventy times its bytes over bandwidth,
//! so fill, not memory, bounds every pass. The probe times, with GPU timestamps around one
//! command buffer, dynamic-rendering passes of full-screen triangles ([`FULLSCREEN_VERT`] and
//! [`SOLID_FRAG`], no resources) with the same formats, sample counts, blends, load, store and
//! resolve as a frame's passes, and fits each pass configuration's fixed cost and the cost of
//! one full-screen layer, so a pass covering `c` screens of fragments costs
//! `intercept + c * slope` on this hardware.

use ash::vk;
use xnagraph_shaders::{FULLSCREEN_VERT, SOLID_FRAG};

use crate::ash_commands::AshCommands;
use crate::ash_device::{color_range, err, AshDevice, AshImage};
use crate::ash_pipeline::{graphics_pipeline, shader_module, GraphicsPipeline};

/// Untimed submissions of a command buffer before the timed ones.
const WARMUP: usize = 2;
/// Timed submissions of a command buffer; the median is kept.
const ROUNDS: usize = 7;
/// The two layer counts [`FillProbe::fit`] measures.
pub const FIT_LAYERS: (u32, u32) = (1, 8);

/// How a full-screen layer blends into the target, as XNA's stock blend states do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FillBlend {
    /// `BlendState.Opaque`: blending off.
    Opaque,
    /// `BlendState.AlphaBlend` (premultiplied): ONE, ONE_MINUS_SRC_ALPHA.
    Alpha,
    /// `BlendState.Additive`: SRC_ALPHA, ONE.
    Additive,
}

impl FillBlend {
    /// The colour attachment's blend state.
    pub fn attachment(self) -> vk::PipelineColorBlendAttachmentState {
        let state = vk::PipelineColorBlendAttachmentState::default()
            .color_write_mask(vk::ColorComponentFlags::RGBA);
        let (src, dst) = match self {
            FillBlend::Opaque => return state,
            FillBlend::Alpha => (vk::BlendFactor::ONE, vk::BlendFactor::ONE_MINUS_SRC_ALPHA),
            FillBlend::Additive => (vk::BlendFactor::SRC_ALPHA, vk::BlendFactor::ONE),
        };
        state
            .blend_enable(true)
            .src_color_blend_factor(src)
            .dst_color_blend_factor(dst)
            .color_blend_op(vk::BlendOp::ADD)
            .src_alpha_blend_factor(src)
            .dst_alpha_blend_factor(dst)
            .alpha_blend_op(vk::BlendOp::ADD)
    }
}

/// One pass configuration: a `width`×`height` colour target of `format` with `samples` samples
/// per pixel, cleared on load, drawn with layers of `blends`, then stored, or, when `resolve`,
/// resolved (average) into a single-sample image while the multisampled one is discarded (as
/// the engine's plan lowers a `DiscardContents` scene).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FillPass {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The colour format (R16G16B16A16_SFLOAT for `HdrBlendable`, R8G8B8A8_UNORM for `Color`).
    pub format: vk::Format,
    /// Samples per pixel (1, or a count the adapter offers for colour attachments).
    pub samples: u32,
    /// The blends the pass's layers use (a pipeline each).
    pub blends: Vec<FillBlend>,
    /// Resolve into a single-sample image instead of storing.
    pub resolve: bool,
}

/// A pass configuration's cost on this GPU: `intercept_ns` whatever is drawn (clear, store or
/// resolve, barriers) and `slope_ns` per full-screen layer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FillFit {
    /// The fixed cost, in nanoseconds.
    pub intercept_ns: f64,
    /// The cost of one layer of fragments covering the whole target, in nanoseconds.
    pub slope_ns: f64,
}

impl FillFit {
    /// The cost of a pass whose fragments cover `screens` times the target's area (never
    /// below zero).
    pub fn cost_ns(&self, screens: f64) -> f64 {
        (self.intercept_ns + screens * self.slope_ns).max(0.0)
    }
}

/// A pass configuration's images and pipelines.
struct Target {
    pass: FillPass,
    color: AshImage,
    resolve: Option<AshImage>,
    pipelines: Vec<(FillBlend, vk::Pipeline)>,
}

/// The probe's device, command buffer, timestamp queries, shaders and the targets made so far.
pub struct FillProbe {
    commands: Option<AshCommands>,
    modules: [vk::ShaderModule; 2],
    layout: vk::PipelineLayout,
    targets: Vec<Target>,
    /// The adapter's name.
    pub adapter: String,
    /// Dropped after the probe's own objects (fields drop after `Drop::drop`).
    dev: AshDevice,
}

impl FillProbe {
    /// Creates the probe on its own device, on the adapter the engine prefers; `validation`
    /// turns on Khronos' validation layer (see [`FillProbe::take_messages`]). Fails on an
    /// adapter whose graphics queue has no timestamps.
    pub fn new(validation: bool) -> Result<FillProbe, String> {
        let dev = AshDevice::new(validation)?;
        if dev.timestamp_bits == 0 {
            return Err(format!("{}: the graphics queue has no timestamps", dev.adapter));
        }
        // Null handles until `create` makes them: Drop destroys whatever was made.
        let mut probe = FillProbe {
            commands: None,
            modules: [vk::ShaderModule::null(); 2],
            layout: vk::PipelineLayout::null(),
            targets: Vec::new(),
            adapter: dev.adapter.clone(),
            dev,
        };
        probe.create()?;
        Ok(probe)
    }

    /// The timed command buffer, shader modules and pipeline layout.
    fn create(&mut self) -> Result<(), String> {
        self.commands = Some(AshCommands::new(&self.dev)?);
        for (slot, stage) in self.modules.iter_mut().zip([FULLSCREEN_VERT, SOLID_FRAG]) {
            *slot = shader_module(&self.dev, stage)?;
        }
        let push =
            [vk::PushConstantRange::default().stage_flags(vk::ShaderStageFlags::FRAGMENT).size(16)];
        let layout_info = vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&push);
        // SAFETY: valid device and create info; the layout is destroyed in Drop.
        self.layout = unsafe { self.dev.device.create_pipeline_layout(&layout_info, None) }
            .map_err(|r| err("pipeline layout", r))?;
        Ok(())
    }

    /// The validation messages reported so far (none unless created with validation).
    pub fn take_messages(&self) -> Vec<String> {
        self.dev.take_messages()
    }

    /// The GPU time of one pass of `pass`'s configuration drawing, in order, the given numbers
    /// of full-screen layers of each blend (each blend must be one of `pass.blends`), from the
    /// timestamp before its barrier to the one after its store or resolve: the median of
    /// several submissions after a warm-up, in nanoseconds.
    pub fn measure(&mut self, pass: &FillPass, layers: &[(FillBlend, u32)]) -> Result<f64, String> {
        let index = self.target(pass)?;
        let mut times = Vec::with_capacity(ROUNDS);
        for round in 0..WARMUP + ROUNDS {
            let ns = self.submit(index, layers)?;
            if round >= WARMUP {
                times.push(ns);
            }
        }
        times.sort_by(f64::total_cmp);
        Ok(times[times.len() / 2])
    }

    /// Fits `pass`'s fixed cost and the cost of one full-screen layer of `blend` from passes of
    /// [`FIT_LAYERS`] layers.
    pub fn fit(&mut self, pass: &FillPass, blend: FillBlend) -> Result<FillFit, String> {
        let (low, high) = FIT_LAYERS;
        let t_low = self.measure(pass, &[(blend, low)])?;
        let t_high = self.measure(pass, &[(blend, high)])?;
        let slope_ns = (t_high - t_low) / f64::from(high - low);
        Ok(FillFit { intercept_ns: t_low - slope_ns * f64::from(low), slope_ns })
    }

    /// The index of `pass`'s target, made on first use.
    fn target(&mut self, pass: &FillPass) -> Result<usize, String> {
        if let Some(i) = self.targets.iter().position(|t| t.pass == *pass) {
            return Ok(i);
        }
        let samples = self.sample_flags(pass)?;
        let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT;
        let size = (pass.width, pass.height);
        let color = self.dev.image(size, pass.format, samples, usage)?;
        let mut target = Target { pass: pass.clone(), color, resolve: None, pipelines: Vec::new() };
        let made = self.fill_target(&mut target, samples);
        // Pushed even on failure, so Drop destroys what was made.
        self.targets.push(target);
        made.map(|()| self.targets.len() - 1)
    }

    /// The resolve image and the pipelines of `target`.
    fn fill_target(
        &self,
        target: &mut Target,
        samples: vk::SampleCountFlags,
    ) -> Result<(), String> {
        let pass = &target.pass;
        if pass.resolve {
            let size = (pass.width, pass.height);
            let one = vk::SampleCountFlags::TYPE_1;
            let usage = vk::ImageUsageFlags::COLOR_ATTACHMENT;
            target.resolve = Some(self.dev.image(size, pass.format, one, usage)?);
        }
        for &blend in &pass.blends {
            let pipeline = self.pipeline(pass.format, samples, blend)?;
            target.pipelines.push((blend, pipeline));
        }
        Ok(())
    }

    /// `pass.samples` as a flag, refused unless the adapter offers it for colour attachments
    /// of `pass.format`.
    fn sample_flags(&self, pass: &FillPass) -> Result<vk::SampleCountFlags, String> {
        let flag = vk::SampleCountFlags::from_raw(pass.samples);
        let offered = self.dev.properties.limits.framebuffer_color_sample_counts;
        // SAFETY: valid physical device; the query has no other requirement.
        let format = unsafe {
            self.dev.instance.get_physical_device_image_format_properties(
                self.dev.physical,
                pass.format,
                vk::ImageType::TYPE_2D,
                vk::ImageTiling::OPTIMAL,
                vk::ImageUsageFlags::COLOR_ATTACHMENT,
                vk::ImageCreateFlags::empty(),
            )
        }
        .map_err(|r| err(&format!("{:?}", pass.format), r))?;
        let valid = pass.samples.is_power_of_two() && pass.samples <= 64;
        if !valid || !offered.contains(flag) || !format.sample_counts.contains(flag) {
            return Err(format!(
                "{}: {} samples of {:?} are not offered for colour attachments ({:?})",
                self.dev.adapter, pass.samples, pass.format, offered
            ));
        }
        Ok(flag)
    }

    /// A pipeline of full-screen triangles of the solid colour into one attachment.
    fn pipeline(
        &self,
        format: vk::Format,
        samples: vk::SampleCountFlags,
        blend: FillBlend,
    ) -> Result<vk::Pipeline, String> {
        let pipeline = GraphicsPipeline {
            modules: self.modules,
            vertex_input: vk::PipelineVertexInputStateCreateInfo::default(),
            topology: vk::PrimitiveTopology::TRIANGLE_LIST,
            samples,
            blend: blend.attachment(),
            format,
            layout: self.layout,
            cull: vk::CullModeFlags::NONE,
            depth: None,
        };
        graphics_pipeline(&self.dev, &pipeline)
    }

    /// Records, submits and waits for one pass of target `index` drawing `layers`; returns its
    /// GPU time in nanoseconds.
    fn submit(&self, index: usize, layers: &[(FillBlend, u32)]) -> Result<f64, String> {
        let target = &self.targets[index];
        let mut draws = Vec::with_capacity(layers.len());
        for &(blend, count) in layers {
            let pipeline = target.pipelines.iter().find(|(b, _)| *b == blend);
            let (_, pipeline) =
                pipeline.ok_or_else(|| format!("{blend:?} is not one of the pass's blends"))?;
            draws.push((*pipeline, count));
        }
        let attachment_layout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
        // The previous submission's attachment writes (store or resolve) come before this
        // pass's layout transition and clear.
        let barriers: Vec<_> = std::iter::once(&target.color)
            .chain(&target.resolve)
            .map(|image| {
                vk::ImageMemoryBarrier2::default()
                    .src_stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
                    .src_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)
                    .dst_stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
                    .dst_access_mask(
                        vk::AccessFlags2::COLOR_ATTACHMENT_WRITE
                            | vk::AccessFlags2::COLOR_ATTACHMENT_READ,
                    )
                    .old_layout(vk::ImageLayout::UNDEFINED)
                    .new_layout(attachment_layout)
                    .image(image.image)
                    .subresource_range(color_range())
            })
            .collect();
        let clear = vk::ClearValue { color: vk::ClearColorValue { float32: [0.0; 4] } };
        let mut attachment = vk::RenderingAttachmentInfo::default()
            .image_view(target.color.view)
            .image_layout(attachment_layout)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .clear_value(clear);
        if let Some(resolve) = &target.resolve {
            attachment = attachment
                .store_op(vk::AttachmentStoreOp::DONT_CARE)
                .resolve_mode(vk::ResolveModeFlags::AVERAGE)
                .resolve_image_view(resolve.view)
                .resolve_image_layout(attachment_layout);
        }
        let attachments = [attachment];
        let (width, height) = (target.pass.width, target.pass.height);
        let area =
            vk::Rect2D { offset: vk::Offset2D::default(), extent: vk::Extent2D { width, height } };
        let rendering = vk::RenderingInfo::default()
            .render_area(area)
            .layer_count(1)
            .color_attachments(&attachments);
        let viewport =
            vk::Viewport::default().width(width as f32).height(height as f32).max_depth(1.0);
        let color: Vec<u8> =
            [0.25f32, 0.5, 0.75, 0.5].iter().flat_map(|c| c.to_le_bytes()).collect();
        let commands = self.commands.as_ref().ok_or("no command buffer")?;
        commands.run(&self.dev, |d, cmd| {
            // SAFETY: recording into the idle command buffer; every handle belongs to this
            // device and the pipelines match the attachment's format and samples.
            unsafe {
                d.cmd_pipeline_barrier2(
                    cmd,
                    &vk::DependencyInfo::default().image_memory_barriers(&barriers),
                );
                d.cmd_begin_rendering(cmd, &rendering);
                d.cmd_set_viewport(cmd, 0, &[viewport]);
                d.cmd_set_scissor(cmd, 0, &[area]);
                for (pipeline, count) in draws {
                    d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
                    let stage = vk::ShaderStageFlags::FRAGMENT;
                    d.cmd_push_constants(cmd, self.layout, stage, 0, &color);
                    for _ in 0..count {
                        d.cmd_draw(cmd, 3, 1, 0, 0);
                    }
                }
                d.cmd_end_rendering(cmd);
            }
        })
    }
}

impl Drop for FillProbe {
    fn drop(&mut self) {
        if let Some(commands) = &self.commands {
            commands.destroy(&self.dev);
        }
        let d = &self.dev.device;
        // SAFETY: waiting for idle first; every object was made by this device (or is null) and
        // is destroyed once, before the device itself (dropped with `dev`).
        unsafe {
            let _ = d.device_wait_idle();
            for target in &self.targets {
                for (_, pipeline) in &target.pipelines {
                    d.destroy_pipeline(*pipeline, None);
                }
            }
            d.destroy_pipeline_layout(self.layout, None);
            for module in self.modules {
                d.destroy_shader_module(module, None);
            }
        }
        for target in &self.targets {
            self.dev.destroy_image(&target.color);
            if let Some(resolve) = &target.resolve {
                self.dev.destroy_image(resolve);
            }
        }
    }
}

/// The colour format the engine's Vulkan backend gives `SurfaceFormat::Color` (the headless
/// back buffer's).
pub const BACK_BUFFER_FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
/// The colour format the engine's Vulkan backend gives `SurfaceFormat::HdrBlendable`.
pub const HDR_FORMAT: vk::Format = vk::Format::R16G16B16A16_SFLOAT;
