//! The shader modules and graphics pipelines of the hand-written ash programs
//! ([`crate::ash_fill`], [`crate::ash_sprites`], [`crate::ash_cubes`]): all draw with dynamic
//! rendering into one colour attachment, with the viewport and scissor dynamic and filled
//! polygons whose clockwise side is the front (XNA's convention); what differs between them is
//! what [`GraphicsPipeline`] names: stages, vertex input, culling, depth.

use ash::vk;
use xnagraph_shaders::Stage;

use crate::ash_device::{err, AshDevice};

/// Makes `stage`'s shader module on `dev`; the caller destroys it.
pub fn shader_module(dev: &AshDevice, stage: Stage) -> Result<vk::ShaderModule, String> {
    let words = stage.words();
    let info = vk::ShaderModuleCreateInfo::default().code(&words);
    // SAFETY: valid device and create info; the words are validated SPIR-V.
    unsafe { dev.device.create_shader_module(&info, None) }.map_err(|r| err(stage.name, r))
}

/// What one program's pipeline sets: its stages, vertex input, primitives, sample count, the
/// colour attachment's blend and format, and its layout.
pub struct GraphicsPipeline<'a> {
    /// The vertex and the fragment stage, each entered at `main`.
    pub modules: [vk::ShaderModule; 2],
    /// The vertex bindings and attributes (none for a full-screen triangle).
    pub vertex_input: vk::PipelineVertexInputStateCreateInfo<'a>,
    /// How vertices make primitives.
    pub topology: vk::PrimitiveTopology,
    /// Samples per pixel of the attachment.
    pub samples: vk::SampleCountFlags,
    /// How the fragments blend into the attachment.
    pub blend: vk::PipelineColorBlendAttachmentState,
    /// The attachment's format.
    pub format: vk::Format,
    /// The pipeline layout.
    pub layout: vk::PipelineLayout,
    /// The faces culled (`NONE` for 2D programs; `BACK` is XNA's `CullCounterClockwiseFace`).
    pub cull: vk::CullModeFlags,
    /// A depth attachment of this format, tested `LESS_OR_EQUAL` and written (XNA's
    /// `DepthStencilState.Default`), or none.
    pub depth: Option<vk::Format>,
}

/// Makes `p`'s pipeline on `dev` (see the module doc for what every program shares); the
/// caller destroys it.
pub fn graphics_pipeline(dev: &AshDevice, p: &GraphicsPipeline) -> Result<vk::Pipeline, String> {
    let stage = |stage, module| {
        vk::PipelineShaderStageCreateInfo::default().stage(stage).module(module).name(c"main")
    };
    let stages = [
        stage(vk::ShaderStageFlags::VERTEX, p.modules[0]),
        stage(vk::ShaderStageFlags::FRAGMENT, p.modules[1]),
    ];
    let assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(p.topology);
    let viewport =
        vk::PipelineViewportStateCreateInfo::default().viewport_count(1).scissor_count(1);
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(p.cull)
        .front_face(vk::FrontFace::CLOCKWISE)
        .line_width(1.0);
    let multisample =
        vk::PipelineMultisampleStateCreateInfo::default().rasterization_samples(p.samples);
    let attachments = [p.blend];
    let blending = vk::PipelineColorBlendStateCreateInfo::default().attachments(&attachments);
    let dynamic_states = [vk::DynamicState::VIEWPORT, vk::DynamicState::SCISSOR];
    let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic_states);
    let formats = [p.format];
    let mut rendering =
        vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&formats);
    let depth = vk::PipelineDepthStencilStateCreateInfo::default()
        .depth_test_enable(p.depth.is_some())
        .depth_write_enable(p.depth.is_some())
        .depth_compare_op(vk::CompareOp::LESS_OR_EQUAL);
    if let Some(format) = p.depth {
        rendering = rendering.depth_attachment_format(format);
    }
    let info = [vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&p.vertex_input)
        .input_assembly_state(&assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .color_blend_state(&blending)
        .depth_stencil_state(&depth)
        .dynamic_state(&dynamic)
        .layout(p.layout)
        .push_next(&mut rendering)];
    // SAFETY: valid device, modules and layout.
    let made =
        unsafe { dev.device.create_graphics_pipelines(vk::PipelineCache::null(), &info, None) };
    made.map(|pipelines| pipelines[0]).map_err(|(_, r)| err("pipeline", r))
}
