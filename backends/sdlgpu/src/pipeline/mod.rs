//! Shaders, graphics pipelines and samplers.
//!
//! The stock stages are the Vulkan backend's SPIR-V (written in SDL_gpu's resource layout). A
//! pipeline is keyed by everything SDL bakes into it: the draw's [`PipelineKey`] (shader or
//! effect, blend, depth/stencil and rasterizer state), the attachment count with every slot's
//! format, the per-slot write mask the plan gives, the sample count and the depth format.
//! Blend constants, the stencil reference, viewport and scissor are set per draw.
//!
//! The geometry effects' stages: the stock effects' shaders are [`stock`]'s, a custom geometry
//! effect's programs [`custom`]'s; the geometry pipelines built from them are cached by the
//! geometry draws ([`crate::pass::geometry`]).

pub(crate) mod custom;
pub(crate) mod stock;

use std::collections::HashMap;

use sdl3_sys::gpu::*;
use xnagraph_graph::{
    BackendError, Blend, BlendFunction, ColorWrites, CompareFunction, CullMode, FillMode,
    NativeHandle, PipelineKey, PipelineRequest, PipelineStats, SamplerState, ShaderKind,
    SpriteInstance, StencilOperation, TextureAddressMode, TextureFilter,
};

use crate::device::sdl_error;
use crate::format::{depth_bias_scale, has_stencil};

/// The attachment formats of a pass, as its pipelines need them.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct PassFormats {
    pub colors: Vec<SDL_GPUTextureFormat>,
    /// `SDL_GPU_TEXTUREFORMAT_INVALID` without a depth attachment.
    pub depth: SDL_GPUTextureFormat,
    pub samples: SDL_GPUSampleCount,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    draw: PipelineKey,
    formats: PassFormats,
    writes: ColorWrites,
}

pub(crate) struct Pipelines {
    vertex: *mut SDL_GPUShader,
    fragment: *mut SDL_GPUShader,
    cube_fragment: *mut SDL_GPUShader,
    effects: HashMap<NativeHandle, *mut SDL_GPUShader>,
    pipelines: HashMap<Key, *mut SDL_GPUGraphicsPipeline>,
    samplers: HashMap<SamplerState, *mut SDL_GPUSampler>,
    /// Geometry draws' pipelines and stages.
    pub geometry: crate::pass::geometry::GeometryPipelines,
    /// The depth/stencil transfers' draws.
    pub depth: crate::capture::depth_draws::DepthPrograms,
    /// The sample restores' draws.
    pub samples: crate::capture::samples::SamplePrograms,
    /// Pipelines built on request and at lowering.
    pub stats: PipelineStats,
}

pub(crate) fn shader(
    device: *mut SDL_GPUDevice,
    words: &[u32],
    stage: SDL_GPUShaderStage,
    samplers: u32,
    uniform_buffers: u32,
) -> Result<*mut SDL_GPUShader, BackendError> {
    let code: &[u8] = bytemuck::cast_slice(words);
    let info = SDL_GPUShaderCreateInfo {
        code_size: code.len(),
        code: code.as_ptr(),
        entrypoint: c"main".as_ptr(),
        format: SDL_GPU_SHADERFORMAT_SPIRV,
        stage,
        num_samplers: samplers,
        num_uniform_buffers: uniform_buffers,
        ..Default::default()
    };
    // SAFETY: a live device; `code` outlives the call.
    let s = unsafe { SDL_CreateGPUShader(device, &info) };
    if s.is_null() {
        return Err(BackendError::Native(sdl_error("SDL_CreateGPUShader")));
    }
    Ok(s)
}

impl Pipelines {
    pub fn new(device: *mut SDL_GPUDevice) -> Result<Pipelines, BackendError> {
        let mut p = Pipelines {
            vertex: std::ptr::null_mut(),
            fragment: std::ptr::null_mut(),
            cube_fragment: std::ptr::null_mut(),
            effects: HashMap::new(),
            pipelines: HashMap::new(),
            samplers: HashMap::new(),
            geometry: Default::default(),
            depth: Default::default(),
            samples: Default::default(),
            stats: PipelineStats::default(),
        };
        let made = (|| {
            use xnagraph_shaders as s;
            p.vertex = shader(device, &s::SPRITE_VERT.words(), SDL_GPU_SHADERSTAGE_VERTEX, 0, 1)?;
            p.fragment =
                shader(device, &s::SPRITE_FRAG.words(), SDL_GPU_SHADERSTAGE_FRAGMENT, 1, 0)?;
            p.cube_fragment =
                shader(device, &s::CUBE_SAMPLE_FRAG.words(), SDL_GPU_SHADERSTAGE_FRAGMENT, 1, 0)?;
            Ok(())
        })();
        match made {
            Ok(()) => Ok(p),
            Err(e) => {
                // SAFETY: nothing uses the shaders made so far.
                unsafe { p.destroy(device) };
                Err(e)
            }
        }
    }

    /// A custom effect's fragment stage (one sampler at set 2, binding 0, like the stock one).
    pub fn create_effect(
        &mut self,
        device: *mut SDL_GPUDevice,
        handle: NativeHandle,
        spirv: &[u32],
    ) -> Result<(), BackendError> {
        let s = shader(device, spirv, SDL_GPU_SHADERSTAGE_FRAGMENT, 1, 0)?;
        self.effects.insert(handle, s);
        Ok(())
    }

    /// Releases an effect's stage (a sprite effect's fragment stage, or a custom geometry
    /// effect's program) and every pipeline built with it.
    pub fn release_effect(&mut self, device: *mut SDL_GPUDevice, handle: NativeHandle) -> bool {
        let Some(s) = self.effects.remove(&handle) else {
            return self.geometry.release_program(device, handle);
        };
        self.pipelines.retain(|key, pipeline| {
            let uses = matches!(key.draw.shader, ShaderKind::Custom(e) if e.native == handle);
            if uses {
                // SAFETY: SDL keeps a pipeline alive until the GPU is done with it.
                unsafe { SDL_ReleaseGPUGraphicsPipeline(device, *pipeline) };
            }
            !uses
        });
        // SAFETY: as above.
        unsafe { SDL_ReleaseGPUShader(device, s) };
        true
    }

    pub fn effect_count(&self) -> usize {
        self.effects.len() + self.geometry.custom.count()
    }

    pub fn pipeline_count(&self) -> usize {
        self.pipelines.len() + self.geometry.count() + self.depth.count() + self.samples.count()
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
    /// lowering reads (a sprite draw of several textures draws run by run here, with the
    /// single-texture stage).
    pub fn prepare(
        &mut self,
        device: *mut SDL_GPUDevice,
        request: &PipelineRequest,
        formats: &PassFormats,
    ) -> Result<(), BackendError> {
        match &request.geometry {
            Some(g) => {
                let (key, writes) = (&request.key, request.writes);
                crate::pass::geometry::pipeline(device, self, key, g, formats, writes, true)?;
            }
            None => {
                self.sprite_pipeline(device, &request.key, formats, request.writes, true)?;
            }
        }
        Ok(())
    }

    pub fn pipeline(
        &mut self,
        device: *mut SDL_GPUDevice,
        draw: &PipelineKey,
        formats: &PassFormats,
        writes: ColorWrites,
    ) -> Result<*mut SDL_GPUGraphicsPipeline, BackendError> {
        self.sprite_pipeline(device, draw, formats, writes, false)
    }

    /// The sprite pipeline from the cache (keyed without the per-draw blend constants and
    /// stencil reference), built the first time and counted as built `on_request` or at
    /// lowering.
    fn sprite_pipeline(
        &mut self,
        device: *mut SDL_GPUDevice,
        draw: &PipelineKey,
        formats: &PassFormats,
        writes: ColorWrites,
        on_request: bool,
    ) -> Result<*mut SDL_GPUGraphicsPipeline, BackendError> {
        let draw = &draw.static_part();
        let key = Key { draw: *draw, formats: formats.clone(), writes };
        if let Some(p) = self.pipelines.get(&key) {
            return Ok(*p);
        }
        let fragment = match draw.shader {
            ShaderKind::Sprite => self.fragment,
            ShaderKind::CubeSample => self.cube_fragment,
            ShaderKind::Custom(effect) => *self
                .effects
                .get(&effect.native)
                .ok_or_else(|| BackendError::Native("a draw names a freed effect".into()))?,
            // Geometry draws build their pipelines in `pass::geometry`.
            ShaderKind::Basic | ShaderKind::CustomGeometry(_) => {
                return Err(BackendError::Native("a geometry draw as a sprite".into()))
            }
        };
        let vertex_buffers = [SDL_GPUVertexBufferDescription {
            slot: 0,
            pitch: std::mem::size_of::<SpriteInstance>() as u32,
            input_rate: SDL_GPU_VERTEXINPUTRATE_INSTANCE,
            instance_step_rate: 0,
        }];
        let attribute = |location, format, offset| SDL_GPUVertexAttribute {
            location,
            buffer_slot: 0,
            format,
            offset,
        };
        let attributes = [
            attribute(0, SDL_GPU_VERTEXELEMENTFORMAT_FLOAT2, 0),
            attribute(1, SDL_GPU_VERTEXELEMENTFORMAT_FLOAT2, 8),
            attribute(2, SDL_GPU_VERTEXELEMENTFORMAT_FLOAT2, 16),
            attribute(3, SDL_GPU_VERTEXELEMENTFORMAT_FLOAT4, 24),
            attribute(4, SDL_GPU_VERTEXELEMENTFORMAT_FLOAT, 40),
            attribute(5, SDL_GPU_VERTEXELEMENTFORMAT_UBYTE4_NORM, 44),
            attribute(6, SDL_GPU_VERTEXELEMENTFORMAT_UINT, 48),
        ];
        let side = VertexSide {
            vertex: self.vertex,
            fragment,
            buffers: &vertex_buffers,
            attributes: &attributes,
            primitive: SDL_GPU_PRIMITIVETYPE_TRIANGLESTRIP,
        };
        let p = build(device, draw, formats, writes, &side)?;
        self.pipelines.insert(key, p);
        self.count_built(on_request);
        Ok(p)
    }

    /// The sampler for an XNA sampler state sampling a texture of `levels` mip levels.
    pub fn sampler(
        &mut self,
        device: *mut SDL_GPUDevice,
        state: &SamplerState,
        levels: u32,
    ) -> Result<*mut SDL_GPUSampler, BackendError> {
        let state =
            &SamplerState { max_mip_level: state.max_mip_level.min(levels.max(1) - 1), ..*state };
        if let Some(s) = self.samplers.get(state) {
            return Ok(*s);
        }
        let (min, mag, mip) = match state.filter {
            TextureFilter::Linear | TextureFilter::Anisotropic => (LINEAR, LINEAR, MIP_LINEAR),
            TextureFilter::Point => (NEAREST, NEAREST, MIP_NEAREST),
            TextureFilter::LinearMipPoint => (LINEAR, LINEAR, MIP_NEAREST),
            TextureFilter::PointMipLinear => (NEAREST, NEAREST, MIP_LINEAR),
            TextureFilter::MinLinearMagPointMipLinear => (LINEAR, NEAREST, MIP_LINEAR),
            TextureFilter::MinLinearMagPointMipPoint => (LINEAR, NEAREST, MIP_NEAREST),
            TextureFilter::MinPointMagLinearMipLinear => (NEAREST, LINEAR, MIP_LINEAR),
            TextureFilter::MinPointMagLinearMipPoint => (NEAREST, LINEAR, MIP_NEAREST),
        };
        let anisotropic = state.filter == TextureFilter::Anisotropic;
        let info = SDL_GPUSamplerCreateInfo {
            min_filter: min,
            mag_filter: mag,
            mipmap_mode: mip,
            address_mode_u: address(state.address_u),
            address_mode_v: address(state.address_v),
            address_mode_w: address(state.address_w),
            max_anisotropy: state.driver_max_anisotropy(SDL_GPU_MAX_ANISOTROPY),
            min_lod: state.max_mip_level as f32,
            max_lod: 1000.0,
            enable_anisotropy: anisotropic,
            ..Default::default()
        };
        // SAFETY: a live device and a complete create info.
        let s = unsafe { SDL_CreateGPUSampler(device, &info) };
        if s.is_null() {
            return Err(BackendError::Native(sdl_error("SDL_CreateGPUSampler")));
        }
        self.samplers.insert(*state, s);
        Ok(s)
    }

    /// Releases everything.
    ///
    /// # Safety
    /// The GPU is idle or SDL defers the release (it does for every object here).
    pub unsafe fn destroy(&mut self, device: *mut SDL_GPUDevice) {
        // SAFETY: caller's contract.
        unsafe {
            for (_, p) in self.pipelines.drain() {
                SDL_ReleaseGPUGraphicsPipeline(device, p);
            }
            for (_, s) in self.samplers.drain() {
                SDL_ReleaseGPUSampler(device, s);
            }
            self.geometry.destroy(device);
            self.depth.destroy(device);
            self.samples.destroy(device);
            let stock = [self.vertex, self.fragment, self.cube_fragment];
            for s in stock.into_iter().chain(self.effects.drain().map(|(_, s)| s)) {
                if !s.is_null() {
                    SDL_ReleaseGPUShader(device, s);
                }
            }
        }
        self.vertex = std::ptr::null_mut();
        self.fragment = std::ptr::null_mut();
        self.cube_fragment = std::ptr::null_mut();
    }
}

/// The vertex side of a pipeline: its two stages, vertex input and topology.
pub(crate) struct VertexSide<'a> {
    pub vertex: *mut SDL_GPUShader,
    pub fragment: *mut SDL_GPUShader,
    pub buffers: &'a [SDL_GPUVertexBufferDescription],
    pub attributes: &'a [SDL_GPUVertexAttribute],
    pub primitive: SDL_GPUPrimitiveType,
}

/// Builds the pipeline of `draw`'s blend, depth/stencil and rasterizer state for a pass of
/// `formats` writing the channels `writes` gives, with `side`'s stages, input and topology.
pub(crate) fn build(
    device: *mut SDL_GPUDevice,
    draw: &PipelineKey,
    formats: &PassFormats,
    writes: ColorWrites,
    side: &VertexSide<'_>,
) -> Result<*mut SDL_GPUGraphicsPipeline, BackendError> {
    let r = draw.rasterizer;
    let has_depth = formats.depth != SDL_GPU_TEXTUREFORMAT_INVALID;
    let bias = f32::from_bits(r.depth_bias_bits);
    let slope = f32::from_bits(r.slope_scale_depth_bias_bits);
    let bias_on = has_depth && (bias != 0.0 || slope != 0.0);
    let rasterizer = SDL_GPURasterizerState {
        fill_mode: match r.fill_mode {
            FillMode::Solid => SDL_GPU_FILLMODE_FILL,
            FillMode::WireFrame => SDL_GPU_FILLMODE_LINE,
        },
        // The transform is flipped for SDL's y-up clip space and SDL's viewport flips it
        // back, so windings on screen are those of the Vulkan backend.
        cull_mode: match r.cull_mode {
            CullMode::None => SDL_GPU_CULLMODE_NONE,
            CullMode::CullCounterClockwiseFace => SDL_GPU_CULLMODE_BACK,
            CullMode::CullClockwiseFace => SDL_GPU_CULLMODE_FRONT,
        },
        front_face: SDL_GPU_FRONTFACE_CLOCKWISE,
        depth_bias_constant_factor: if bias_on {
            bias * depth_bias_scale(formats.depth)
        } else {
            0.0
        },
        depth_bias_slope_factor: if bias_on { slope } else { 0.0 },
        enable_depth_bias: bias_on,
        // Clipped at the depth range, as Direct3D and the Vulkan backend clip (SDL's default
        // clamps).
        enable_depth_clip: true,
        ..Default::default()
    };
    let d = draw.depth_stencil;
    let stencil_on = has_depth && has_stencil(formats.depth) && d.stencil_enable;
    let stencil = SDL_GPUStencilOpState {
        fail_op: stencil_op(d.stencil_fail),
        pass_op: stencil_op(d.stencil_pass),
        depth_fail_op: stencil_op(d.stencil_depth_buffer_fail),
        compare_op: compare(d.stencil_function),
    };
    let depth_stencil = SDL_GPUDepthStencilState {
        compare_op: compare(d.depth_buffer_function),
        back_stencil_state: stencil,
        front_stencil_state: stencil,
        compare_mask: d.stencil_mask as u8,
        write_mask: d.stencil_write_mask as u8,
        enable_depth_test: has_depth && d.depth_buffer_enable,
        enable_depth_write: has_depth && d.depth_buffer_enable && d.depth_buffer_write_enable,
        enable_stencil_test: stencil_on,
        ..Default::default()
    };
    let b = draw.blend;
    let blend_on = b.blends();
    let targets: Vec<_> = formats
        .colors
        .iter()
        .enumerate()
        .map(|(i, format)| SDL_GPUColorTargetDescription {
            format: *format,
            blend_state: SDL_GPUColorTargetBlendState {
                src_color_blendfactor: blend_factor(b.color_source_blend),
                dst_color_blendfactor: blend_factor(b.color_destination_blend),
                color_blend_op: blend_op(b.color_blend_function),
                src_alpha_blendfactor: blend_factor(b.alpha_source_blend),
                dst_alpha_blendfactor: blend_factor(b.alpha_destination_blend),
                alpha_blend_op: blend_op(b.alpha_blend_function),
                // The plan says which channels of which attachment the draw writes.
                color_write_mask: SDL_GPUColorComponentFlags(writes.get(i) & 0xF),
                enable_blend: blend_on && writes.get(i) != 0,
                enable_color_write_mask: true,
                ..Default::default()
            },
        })
        .collect();
    let info = SDL_GPUGraphicsPipelineCreateInfo {
        vertex_shader: side.vertex,
        fragment_shader: side.fragment,
        vertex_input_state: SDL_GPUVertexInputState {
            vertex_buffer_descriptions: side.buffers.as_ptr(),
            num_vertex_buffers: side.buffers.len() as u32,
            vertex_attributes: side.attributes.as_ptr(),
            num_vertex_attributes: side.attributes.len() as u32,
        },
        primitive_type: side.primitive,
        rasterizer_state: rasterizer,
        multisample_state: SDL_GPUMultisampleState {
            sample_count: formats.samples,
            ..Default::default()
        },
        depth_stencil_state: depth_stencil,
        target_info: SDL_GPUGraphicsPipelineTargetInfo {
            color_target_descriptions: targets.as_ptr(),
            num_color_targets: targets.len() as u32,
            depth_stencil_format: formats.depth,
            has_depth_stencil_target: has_depth,
            ..Default::default()
        },
        ..Default::default()
    };
    // SAFETY: every array named by `info` lives across the call; the shaders are live.
    let p = unsafe { SDL_CreateGPUGraphicsPipeline(device, &info) };
    if p.is_null() {
        return Err(BackendError::Native(sdl_error("SDL_CreateGPUGraphicsPipeline")));
    }
    Ok(p)
}

const LINEAR: SDL_GPUFilter = SDL_GPU_FILTER_LINEAR;
const NEAREST: SDL_GPUFilter = SDL_GPU_FILTER_NEAREST;
const MIP_LINEAR: SDL_GPUSamplerMipmapMode = SDL_GPU_SAMPLERMIPMAPMODE_LINEAR;
const MIP_NEAREST: SDL_GPUSamplerMipmapMode = SDL_GPU_SAMPLERMIPMAPMODE_NEAREST;

fn address(mode: TextureAddressMode) -> SDL_GPUSamplerAddressMode {
    match mode {
        TextureAddressMode::Wrap => SDL_GPU_SAMPLERADDRESSMODE_REPEAT,
        TextureAddressMode::Clamp => SDL_GPU_SAMPLERADDRESSMODE_CLAMP_TO_EDGE,
        TextureAddressMode::Mirror => SDL_GPU_SAMPLERADDRESSMODE_MIRRORED_REPEAT,
    }
}

fn blend_factor(b: Blend) -> SDL_GPUBlendFactor {
    match b {
        Blend::One => SDL_GPU_BLENDFACTOR_ONE,
        Blend::Zero => SDL_GPU_BLENDFACTOR_ZERO,
        Blend::SourceColor => SDL_GPU_BLENDFACTOR_SRC_COLOR,
        Blend::InverseSourceColor => SDL_GPU_BLENDFACTOR_ONE_MINUS_SRC_COLOR,
        Blend::SourceAlpha => SDL_GPU_BLENDFACTOR_SRC_ALPHA,
        Blend::InverseSourceAlpha => SDL_GPU_BLENDFACTOR_ONE_MINUS_SRC_ALPHA,
        Blend::DestinationColor => SDL_GPU_BLENDFACTOR_DST_COLOR,
        Blend::InverseDestinationColor => SDL_GPU_BLENDFACTOR_ONE_MINUS_DST_COLOR,
        Blend::DestinationAlpha => SDL_GPU_BLENDFACTOR_DST_ALPHA,
        Blend::InverseDestinationAlpha => SDL_GPU_BLENDFACTOR_ONE_MINUS_DST_ALPHA,
        Blend::BlendFactor => SDL_GPU_BLENDFACTOR_CONSTANT_COLOR,
        Blend::InverseBlendFactor => SDL_GPU_BLENDFACTOR_ONE_MINUS_CONSTANT_COLOR,
        Blend::SourceAlphaSaturation => SDL_GPU_BLENDFACTOR_SRC_ALPHA_SATURATE,
    }
}

fn blend_op(f: BlendFunction) -> SDL_GPUBlendOp {
    match f {
        BlendFunction::Add => SDL_GPU_BLENDOP_ADD,
        BlendFunction::Subtract => SDL_GPU_BLENDOP_SUBTRACT,
        BlendFunction::ReverseSubtract => SDL_GPU_BLENDOP_REVERSE_SUBTRACT,
        BlendFunction::Min => SDL_GPU_BLENDOP_MIN,
        BlendFunction::Max => SDL_GPU_BLENDOP_MAX,
    }
}

fn compare(c: CompareFunction) -> SDL_GPUCompareOp {
    match c {
        CompareFunction::Always => SDL_GPU_COMPAREOP_ALWAYS,
        CompareFunction::Never => SDL_GPU_COMPAREOP_NEVER,
        CompareFunction::Less => SDL_GPU_COMPAREOP_LESS,
        CompareFunction::LessEqual => SDL_GPU_COMPAREOP_LESS_OR_EQUAL,
        CompareFunction::Equal => SDL_GPU_COMPAREOP_EQUAL,
        CompareFunction::GreaterEqual => SDL_GPU_COMPAREOP_GREATER_OR_EQUAL,
        CompareFunction::Greater => SDL_GPU_COMPAREOP_GREATER,
        CompareFunction::NotEqual => SDL_GPU_COMPAREOP_NOT_EQUAL,
    }
}

fn stencil_op(s: StencilOperation) -> SDL_GPUStencilOp {
    match s {
        StencilOperation::Keep => SDL_GPU_STENCILOP_KEEP,
        StencilOperation::Zero => SDL_GPU_STENCILOP_ZERO,
        StencilOperation::Replace => SDL_GPU_STENCILOP_REPLACE,
        StencilOperation::Increment => SDL_GPU_STENCILOP_INCREMENT_AND_WRAP,
        StencilOperation::Decrement => SDL_GPU_STENCILOP_DECREMENT_AND_WRAP,
        StencilOperation::IncrementSaturation => SDL_GPU_STENCILOP_INCREMENT_AND_CLAMP,
        StencilOperation::DecrementSaturation => SDL_GPU_STENCILOP_DECREMENT_AND_CLAMP,
        StencilOperation::Invert => SDL_GPU_STENCILOP_INVERT,
    }
}

/// The largest anisotropy an SDL_gpu sampler is given. SDL does not report the device's
/// `maxSamplerAnisotropy` (nor D3D12's or Metal's limit) and passes the value to the driver as
/// it is, so the backend clamps to 16: the least that Vulkan guarantees wherever
/// `samplerAnisotropy` is supported, and the most D3D12 and Metal accept.
const SDL_GPU_MAX_ANISOTROPY: f32 = 16.0;
