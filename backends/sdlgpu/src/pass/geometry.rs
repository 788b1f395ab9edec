//! Geometry draws: `DrawPrimitives` and its family, lowered inside a render pass.
//!
//! In: a [`Draw`] with its [`GeometryDraw`] (vertex streams from vertex buffers or the frame's
//! geometry arena, indices, counts, the stock effect and its uniform values), the pass's
//! formats and render area. Out: the pipeline for the draw's full key — stock shader, blend,
//! depth/stencil, rasterizer, vertex layout, topology, pass formats and sample count, planned
//! colour writes; blend constants and the stencil reference are set per draw, so they are not
//! part of it — built the first time that combination is recorded and cached; the uniform block
//! (pushed to both stages), both fragment samplers, vertex and index bindings and the draw
//! command. The stages are the stock effects' SPIR-V the Vulkan backend runs (one pair per
//! [`xnagraph_graph::StockVariant`], frozen to its options and made on first use by
//! [`crate::pipeline::stock`]): the vertex stage reads one
//! uniform block, the fragment stage the same block and two samplers (`Texture`, and `Texture2`
//! that only DualTextureEffect reads; the others get the first texture there).
//!
//! The frame's vertex buffer holds, after the sprites, the constant stream
//! ([`DEFAULT_ATTRIBUTES`]) that feeds every attribute a vertex layout lacks, then the geometry
//! arena (`FrameCommands::geometry_bytes`, `DrawUserPrimitives`' vertices and indices).
//!
//! A custom effect's draw (`GeometryDraw::custom`) runs its pass's program
//! ([`crate::pipeline::custom`]) instead: the attributes are the program's inputs, at the
//! locations the engine reflected, and its samplers and blocks are bound from the draw's values.
//!
//! Refused, never imitated: vertex formats SDL_gpu only reads as integers (XNA's `Byte4`,
//! `Short2`, `Short4`, which Direct3D 9 reads as unnormalised floats) and instance frequencies
//! above 1 (SDL 3.4 reserves `instance_step_rate`).

use std::collections::HashMap;

use sdl3_sys::gpu::*;
use xnagraph_graph::{
    Attribute, BackendError, ColorWrites, Draw, DrawCall, FrameCommands, GeometryDraw,
    GeometryPipeline, NativeHandle, Node, PassOp, PipelineKey, PrimitiveType, ShaderKind,
    StockShader, StockVariant, VertexFormat, VertexLayout, VertexSource,
};

use crate::pass::sprites::viewport_and_scissor;
use crate::pipeline::stock::StockEffects;
use crate::pipeline::{build, PassFormats, VertexSide};
use crate::record::Recorder;

/// The constant stream: white (RGBA floats) at byte 0, texture coordinate (0, 0) at byte 16
/// (for both texture coordinates), normal (0, 0, 1) at byte 32.
pub(crate) const DEFAULT_ATTRIBUTES: [f32; 12] =
    [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
const DEFAULTS_BYTES: u32 = 48;

/// Where the constant stream starts in the frame's vertex buffer, after `sprite_bytes`; the
/// geometry arena follows it.
pub(crate) fn defaults_offset(sprite_bytes: u32) -> u32 {
    sprite_bytes.next_multiple_of(16)
}

/// Bytes of the frame's vertex stream: the sprites, and for a frame that draws geometry the
/// constant stream and the geometry arena after them.
pub(crate) fn vertex_stream_bytes(frame: &FrameCommands, sprite_bytes: u32) -> u32 {
    if draws_geometry(frame) {
        defaults_offset(sprite_bytes) + DEFAULTS_BYTES + frame.geometry_bytes.len() as u32
    } else {
        sprite_bytes
    }
}

/// Whether any pass of `frame` has a geometry draw.
pub(crate) fn draws_geometry(frame: &FrameCommands) -> bool {
    frame.nodes.iter().any(|n| match n {
        Node::Pass(segment) => {
            segment.ops.iter().any(|op| matches!(op, PassOp::Draw(d) if d.geometry.is_some()))
        }
        _ => false,
    })
}

type Key = (StockVariant, PipelineKey, VertexLayout, PrimitiveType, PassFormats, ColorWrites);

/// Geometry pipelines by their full key, the stock effects' stages ([`StockEffects`], each pair
/// made with the first pipeline of its effect) and the custom effects' programs.
#[derive(Default)]
pub(crate) struct GeometryPipelines {
    stock: StockEffects,
    pipelines: HashMap<Key, *mut SDL_GPUGraphicsPipeline>,
    pub custom: crate::pipeline::custom::CustomPrograms,
}

impl GeometryPipelines {
    pub fn count(&self) -> usize {
        self.pipelines.len()
    }

    /// Releases the custom program of `handle` and every pipeline built from it; false when
    /// `handle` is no program.
    pub fn release_program(&mut self, device: *mut SDL_GPUDevice, handle: NativeHandle) -> bool {
        if !self.custom.release(device, handle) {
            return false;
        }
        self.pipelines.retain(|key, pipeline| {
            let uses = matches!(key.1.shader, ShaderKind::CustomGeometry(e) if e.native == handle);
            if uses {
                // SAFETY: SDL keeps a pipeline alive until the GPU is done with it.
                unsafe { SDL_ReleaseGPUGraphicsPipeline(device, *pipeline) };
            }
            !uses
        });
        true
    }

    /// Releases every pipeline and stage.
    ///
    /// # Safety
    /// The GPU is idle or SDL defers the release (it does for both kinds).
    pub unsafe fn destroy(&mut self, device: *mut SDL_GPUDevice) {
        // SAFETY: the caller's contract; every handle is released once.
        unsafe {
            for (_, p) in self.pipelines.drain() {
                SDL_ReleaseGPUGraphicsPipeline(device, p);
            }
            self.stock.destroy(device);
            self.custom.destroy(device);
        }
    }
}

fn vertex_format(f: VertexFormat) -> Result<SDL_GPUVertexElementFormat, BackendError> {
    Ok(match f {
        VertexFormat::Float1 => SDL_GPU_VERTEXELEMENTFORMAT_FLOAT,
        VertexFormat::Float2 => SDL_GPU_VERTEXELEMENTFORMAT_FLOAT2,
        VertexFormat::Float3 => SDL_GPU_VERTEXELEMENTFORMAT_FLOAT3,
        VertexFormat::Float4 => SDL_GPU_VERTEXELEMENTFORMAT_FLOAT4,
        VertexFormat::UByte4Norm => SDL_GPU_VERTEXELEMENTFORMAT_UBYTE4_NORM,
        VertexFormat::Short2Norm => SDL_GPU_VERTEXELEMENTFORMAT_SHORT2_NORM,
        VertexFormat::Short4Norm => SDL_GPU_VERTEXELEMENTFORMAT_SHORT4_NORM,
        VertexFormat::Half2 => SDL_GPU_VERTEXELEMENTFORMAT_HALF2,
        VertexFormat::Half4 => SDL_GPU_VERTEXELEMENTFORMAT_HALF4,
        // SDL_gpu reads these only as integers; XNA reads them as unnormalised floats.
        VertexFormat::UByte4 | VertexFormat::Short2 | VertexFormat::Short4 => {
            return Err(BackendError::NotSupported(format!(
                "the {f:?} vertex format on SDL_gpu (it has no scaled integer formats)"
            )))
        }
    })
}

fn primitive(p: PrimitiveType) -> SDL_GPUPrimitiveType {
    match p {
        PrimitiveType::TriangleList => SDL_GPU_PRIMITIVETYPE_TRIANGLELIST,
        PrimitiveType::TriangleStrip => SDL_GPU_PRIMITIVETYPE_TRIANGLESTRIP,
        PrimitiveType::LineList => SDL_GPU_PRIMITIVETYPE_LINELIST,
        PrimitiveType::LineStrip => SDL_GPU_PRIMITIVETYPE_LINESTRIP,
    }
}

fn malformed(message: &str) -> BackendError {
    BackendError::Native(format!("malformed plan: {message}"))
}

/// A geometry draw's pipeline from the cache, built (and counted as built `on_request` or at
/// lowering) the first time its combination is asked for.
pub(crate) fn pipeline(
    device: *mut SDL_GPUDevice,
    pipelines: &mut crate::pipeline::Pipelines,
    key: &PipelineKey,
    g: &GeometryPipeline,
    formats: &PassFormats,
    writes: ColorWrites,
    on_request: bool,
) -> Result<*mut SDL_GPUGraphicsPipeline, BackendError> {
    let variant = g.variant_for(key);
    let shader = variant.shader;
    let key = (variant, key.static_part(), g.layout.clone(), g.primitive, formats.clone(), writes);
    let custom = match key.1.shader {
        ShaderKind::CustomGeometry(effect) => Some(effect.native),
        _ => None,
    };
    let geometry = &mut pipelines.geometry;
    if let Some(p) = geometry.pipelines.get(&key) {
        return Ok(*p);
    }
    let defaults = g.layout.bindings.len() as u32;
    let mut buffers = Vec::with_capacity(g.layout.bindings.len() + 1);
    for (i, b) in g.layout.bindings.iter().enumerate() {
        let input_rate = match b.instance_frequency {
            0 => SDL_GPU_VERTEXINPUTRATE_VERTEX,
            1 => SDL_GPU_VERTEXINPUTRATE_INSTANCE,
            _ => {
                return Err(BackendError::NotSupported(
                    "an instance frequency above 1 on SDL_gpu (it has no step rate)".into(),
                ))
            }
        };
        buffers.push(SDL_GPUVertexBufferDescription {
            slot: i as u32,
            pitch: b.stride,
            input_rate,
            instance_step_rate: 0,
        });
    }
    // Pitch 0: every vertex reads the same constants.
    buffers.push(SDL_GPUVertexBufferDescription {
        slot: defaults,
        pitch: 0,
        input_rate: SDL_GPU_VERTEXINPUTRATE_VERTEX,
        instance_step_rate: 0,
    });
    let mut attributes = Vec::new();
    for &(location, a) in g.layout.custom.iter().filter(|_| custom.is_some()) {
        if u32::from(a.binding) >= defaults {
            return Err(malformed("an attribute names a missing vertex stream"));
        }
        let (buffer_slot, format) = (u32::from(a.binding), vertex_format(a.format)?);
        attributes.push(SDL_GPUVertexAttribute { location, buffer_slot, format, offset: a.offset });
    }
    let stock = if custom.is_some() { &[][..] } else { xnagraph_shaders::stock_attributes(shader) };
    for &attribute in stock {
        let default = match attribute {
            Attribute::Position => None,
            Attribute::Color => Some((SDL_GPU_VERTEXELEMENTFORMAT_FLOAT4, 0)),
            Attribute::TextureCoordinate | Attribute::TextureCoordinate1 => {
                Some((SDL_GPU_VERTEXELEMENTFORMAT_FLOAT2, 16))
            }
            Attribute::Normal => Some((SDL_GPU_VERTEXELEMENTFORMAT_FLOAT3, 32)),
            Attribute::BlendIndices | Attribute::BlendWeight => None,
        };
        let location = attribute as u32;
        let (buffer_slot, format, offset) = match (g.layout.attributes[location as usize], default)
        {
            // The bone indices are read as integers (`uvec4`).
            (Some(a), _) if attribute == Attribute::BlendIndices => match a.format {
                VertexFormat::UByte4 => {
                    (u32::from(a.binding), SDL_GPU_VERTEXELEMENTFORMAT_UBYTE4, a.offset)
                }
                _ => return Err(malformed("bone indices that are not four bytes")),
            },
            (Some(a), _) => (u32::from(a.binding), vertex_format(a.format)?, a.offset),
            (None, Some((f, o))) => (defaults, f, o),
            (None, None) => return Err(malformed("a geometry draw without an element it reads")),
        };
        if buffer_slot > defaults {
            return Err(malformed("an attribute names a missing vertex stream"));
        }
        attributes.push(SDL_GPUVertexAttribute { location, buffer_slot, format, offset });
    }
    let (vertex, fragment) = match custom {
        Some(native) => geometry.custom.stages(native)?,
        None => geometry.stock.stages(device, variant)?,
    };
    let side = VertexSide {
        vertex,
        fragment,
        buffers: &buffers,
        attributes: &attributes,
        primitive: primitive(g.primitive),
    };
    let made = build(device, &key.1, formats, writes, &side)?;
    geometry.pipelines.insert(key, made);
    pipelines.count_built(on_request);
    Ok(made)
}

/// The stock effect's uniform block, read by both stages: the transform (y flipped for SDL's
/// clip space), then the effect's [`xnagraph_graph::StockMaterial::block`].
fn uniform_block(d: &Draw, g: &GeometryDraw) -> [f32; 16 + xnagraph_graph::MATERIAL_FLOATS] {
    block_of(d.transform, &g.material.block)
}

/// A stock uniform block of `transform` (Vulkan's clip space) and a material `block`.
fn block_of(
    transform: [f32; 16],
    block: &[f32; xnagraph_graph::MATERIAL_FLOATS],
) -> [f32; 16 + xnagraph_graph::MATERIAL_FLOATS] {
    let mut out = [0.0; 16 + xnagraph_graph::MATERIAL_FLOATS];
    out[..16].copy_from_slice(&crate::pass::sprites::sdl_transform(transform));
    out[16..].copy_from_slice(block);
    out
}

/// The stock effect's two fragment samplers: `Texture`, and `Texture2` that only
/// DualTextureEffect (a 2D texture) and EnvironmentMapEffect (its cube map) read (the others get
/// the first texture there, so that no declared sampler is ever left unbound).
fn stock_samplers(
    rec: &mut Recorder<'_>,
    d: &Draw,
    g: &GeometryDraw,
) -> Result<[SDL_GPUTextureSamplerBinding; 2], BackendError> {
    if d.textures.len() != 1 {
        return Err(malformed("a geometry draw of several textures"));
    }
    let texture = rec.textures.get(d.textures.first().native())?;
    if texture.is_cube() || texture.desc.is_volume() {
        return Err(malformed("a geometry draw of a texture that is not 2D"));
    }
    let sampler = rec.pipelines.sampler(rec.device, &d.sampler, texture.desc.mip_levels)?;
    let first = SDL_GPUTextureSamplerBinding { texture: texture.color, sampler };
    // Slot 1 is read only by DualTextureEffect's and EnvironmentMapEffect's fragment stages;
    // the others get the first texture there, so that no declared sampler is ever left unbound.
    let cube = g.material.shader == StockShader::EnvironmentMap;
    let second = match &g.texture2 {
        Some((t, s)) => {
            let t = rec.textures.get(t.native())?;
            if t.is_cube() != cube || t.desc.is_volume() {
                return Err(malformed(
                    "a geometry draw of a texture of another kind than its sampler",
                ));
            }
            let sampler = rec.pipelines.sampler(rec.device, s, t.desc.mip_levels)?;
            SDL_GPUTextureSamplerBinding { texture: t.color, sampler }
        }
        None => first,
    };
    Ok([first, second])
}

/// Records one geometry draw inside `rp`; returns the pipeline it bound (`None` when it drew
/// nothing).
pub(crate) fn draw(
    rec: &mut Recorder<'_>,
    rp: *mut SDL_GPURenderPass,
    d: &Draw,
    writes: ColorWrites,
    formats: &PassFormats,
    extent: (u32, u32),
) -> Result<Option<*mut SDL_GPUGraphicsPipeline>, BackendError> {
    let g = d.geometry.as_deref().ok_or_else(|| malformed("a sprite draw as geometry"))?;
    if g.instances == 0 {
        return Ok(None);
    }
    let Some((viewport, scissor)) = viewport_and_scissor(d, extent) else { return Ok(None) };
    if g.streams.len() != g.layout.bindings.len() {
        return Err(malformed("vertex streams and layout bindings differ"));
    }
    let vertex_side = GeometryPipeline {
        variant: g.material.variant(),
        layout: g.layout.clone(),
        primitive: g.primitive,
    };
    let pipeline =
        pipeline(rec.device, rec.pipelines, &d.pipeline, &vertex_side, formats, writes, false)?;
    let stock = match &g.custom {
        Some(_) => None,
        None => Some((stock_samplers(rec, d, g)?, uniform_block(d, g))),
    };
    let bones = match g.material.shader {
        StockShader::Skinned if g.custom.is_none() => {
            let mut bones = [[0.0f32; 4]; (xnagraph_shaders::BONE_BYTES / 16) as usize];
            if g.bones.len() > bones.len() {
                return Err(malformed("more bones than SkinnedEffect has"));
            }
            bones[..g.bones.len()].copy_from_slice(&g.bones);
            Some(bones)
        }
        _ => None,
    };

    let arena = rec.geometry_offset + DEFAULTS_BYTES;
    let arena_len = rec.frame.geometry_bytes.len() as u64;
    let mut streams = Vec::with_capacity(g.streams.len() + 1);
    for s in &g.streams {
        streams.push(match s {
            VertexSource::Buffer { buffer, offset } => SDL_GPUBufferBinding {
                buffer: rec.buffers.get(buffer.native())?.current,
                offset: *offset as u32,
            },
            VertexSource::User(range) => {
                if range.end > arena_len {
                    return Err(malformed("user vertices past the geometry arena"));
                }
                SDL_GPUBufferBinding { buffer: rec.vertices, offset: arena + range.start as u32 }
            }
        });
    }
    streams.push(SDL_GPUBufferBinding { buffer: rec.vertices, offset: rec.geometry_offset });
    let index = match (&g.indices, g.call) {
        (Some(ix), DrawCall::Indexed { .. }) => {
            let size = match ix.element_size {
                2 => SDL_GPU_INDEXELEMENTSIZE_16BIT,
                4 => SDL_GPU_INDEXELEMENTSIZE_32BIT,
                _ => return Err(malformed("an index size other than 2 or 4")),
            };
            let binding = match &ix.buffer {
                Some(b) => {
                    SDL_GPUBufferBinding { buffer: rec.buffers.get(b.native())?.current, offset: 0 }
                }
                None if ix.user.end <= arena_len => SDL_GPUBufferBinding {
                    buffer: rec.vertices,
                    offset: arena + ix.user.start as u32,
                },
                None => return Err(malformed("user indices past the geometry arena")),
            };
            Some((binding, size))
        }
        (None, DrawCall::Indexed { .. }) => {
            return Err(malformed("an indexed draw without indices"))
        }
        _ => None,
    };
    let f = d.pipeline.blend.blend_factor;
    let constants = sdl3_sys::pixels::SDL_FColor {
        r: f32::from(f[0]) / 255.0,
        g: f32::from(f[1]) / 255.0,
        b: f32::from(f[2]) / 255.0,
        a: f32::from(f[3]) / 255.0,
    };
    // SAFETY: inside a render pass of a recording command buffer; every buffer, texture and
    // sampler bound is live until the submission completes (released handles are deferred).
    unsafe {
        SDL_BindGPUGraphicsPipeline(rp, pipeline);
        SDL_SetGPUBlendConstants(rp, constants);
        SDL_SetGPUStencilReference(rp, d.pipeline.depth_stencil.reference_stencil as u8);
        SDL_SetGPUViewport(rp, &viewport);
        SDL_SetGPUScissor(rp, &scissor);
        SDL_BindGPUVertexBuffers(rp, 0, streams.as_ptr(), streams.len() as u32);
        if let Some((samplers, block)) = &stock {
            SDL_BindGPUFragmentSamplers(rp, 0, samplers.as_ptr(), samplers.len() as u32);
            let bytes = std::mem::size_of_val(block) as u32;
            SDL_PushGPUVertexUniformData(rec.cmd, 0, block.as_ptr().cast(), bytes);
            SDL_PushGPUFragmentUniformData(rec.cmd, 0, block.as_ptr().cast(), bytes);
        }
        if let Some(bones) = &bones {
            // SkinnedEffect's bones: the vertex stage's second uniform block.
            let bytes = std::mem::size_of_val(bones) as u32;
            SDL_PushGPUVertexUniformData(rec.cmd, 1, bones.as_ptr().cast(), bytes);
        }
    }
    if let Some(c) = &g.custom {
        crate::pipeline::custom::bind_values(rec, rp, d, c)?;
    }
    if let Some((b, size)) = &index {
        // SAFETY: as above.
        unsafe { SDL_BindGPUIndexBuffer(rp, b, *size) };
    }
    let issue = || {
        // SAFETY: as above; the pipeline and every binding of the draw are set.
        unsafe {
            match (g.call, index) {
                (DrawCall::Vertices { first_vertex, vertex_count }, _) => {
                    SDL_DrawGPUPrimitives(rp, vertex_count, g.instances, first_vertex, 0);
                }
                (DrawCall::Indexed { base_vertex, first_index, index_count, .. }, Some(_)) => {
                    SDL_DrawGPUIndexedPrimitives(
                        rp,
                        index_count,
                        g.instances,
                        first_index,
                        base_vertex,
                        0,
                    );
                }
                (DrawCall::Indexed { .. }, None) => {}
            }
        }
    };
    issue();
    // A draw's repeats, drawn one by one as the run they were recorded from (this backend has
    // no instanced stages), each with its own block pushed.
    if g.draws() > 1 && (stock.is_none() || bones.is_some()) {
        return Err(malformed("repeats of a draw that cannot repeat"));
    }
    for repeat in g.repeat_instances() {
        let repeat = repeat.values(&g.material.block);
        let block = block_of(repeat.transform, &repeat.block);
        let bytes = std::mem::size_of_val(&block) as u32;
        // SAFETY: as above.
        unsafe {
            SDL_PushGPUVertexUniformData(rec.cmd, 0, block.as_ptr().cast(), bytes);
            SDL_PushGPUFragmentUniformData(rec.cmd, 0, block.as_ptr().cast(), bytes);
        }
        issue();
    }
    Ok(Some(pipeline))
}
