//! Geometry draws: `DrawPrimitives` and its family, lowered inside a pass.
//!
//! In: a [`Draw`] with its [`GeometryDraw`] (vertex streams from vertex buffers or the frame's
//! geometry arena, indices, counts, the stock effect and its uniform values), the pass's formats
//! and render area. Out: the pipeline for the draw's full key — stock shader and the options its
//! stages are specialised to ([`StockVariant`], as specialization constants), blend, depth/stencil,
//! rasterizer, vertex layout, topology, pass formats and sample count, planned colour writes —
//! built the first time that combination is recorded and cached ([`pipeline`]); the uniform
//! block (bound to both stages), descriptor sets, vertex and index bindings and the draw
//! command. The buffer barriers the draw needs were placed before the pass by the plan; nothing
//! here decides an ordering.
//!
//! The frame's vertex host buffer holds, after the sprites, the constant stream
//! ([`DEFAULT_ATTRIBUTES`]) that feeds every attribute a vertex layout lacks, then the geometry
//! arena (`FrameCommands::geometry_bytes`). A SkinnedEffect draw's bones take the uniform
//! slots after its block ([`bone_slots`]).

use ash::vk;
use xnagraph_graph::{
    BackendError, BasicInstance, ColorWrites, Draw, DrawCall, GeometryDraw, GeometryPipeline,
    PassOp, PipelineKey, PrimitiveType, StockShader, StockVariant, VertexLayout, VertexSource,
};
use xnagraph_shaders::BASIC_INSTANCE_BYTES;

use crate::pipeline::{DynamicState, PassFormats};
use crate::record::Recorder;

mod pipeline;
pub(crate) use pipeline::{pipeline, GeometryPipelines};

/// The most vertex streams a draw binds (XNA's `SetVertexBuffers` takes 16), before the
/// constant stream.
const MAX_STREAMS: usize = 16;

/// The constant stream: white (RGBA floats) at byte 0, texture coordinate (0, 0) at byte 16
/// (for both texture coordinates), normal (0, 0, 1) at byte 32.
pub(crate) const DEFAULT_ATTRIBUTES: [f32; 12] =
    [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
const DEFAULTS_BYTES: u64 = 48;

/// Where the constant stream starts in the frame's vertex buffer, after `sprite_bytes`; the
/// geometry arena follows it.
pub(crate) fn defaults_offset(sprite_bytes: u64) -> u64 {
    sprite_bytes.next_multiple_of(16)
}

/// Bytes of the vertex buffer a frame with `sprite_bytes` of sprites and `arena` arena bytes
/// needs when it draws geometry.
pub(crate) fn vertex_bytes(sprite_bytes: u64, arena: u64) -> u64 {
    defaults_offset(sprite_bytes) + DEFAULTS_BYTES + arena
}

/// Size of a stock effect's uniform block: the transform, then
/// [`xnagraph_graph::MATERIAL_FLOATS`] floats (BasicEffect's is the largest, 448 bytes).
pub(crate) const UNIFORM_BYTES: u64 = 64 + 4 * xnagraph_graph::MATERIAL_FLOATS as u64;

/// Uniform slots of `stride` bytes a SkinnedEffect draw's bones take after its block.
pub(crate) fn bone_slots(stride: u64) -> u32 {
    xnagraph_shaders::BONE_BYTES.div_ceil(stride) as u32
}

/// What the pass's geometry draws have bound so far, so that a draw binds only what differs
/// from the draw before it: pipeline, blend constants and stencil reference, vertex streams,
/// index buffer, viewport and scissor. Fresh at the start of a pass and after any sprite draw
/// (which binds its own pipeline, sets and buffers). The stock uniform block's offset changes
/// with every draw, so the stock sets are bound every draw, in one call.
#[derive(Default)]
pub(crate) struct GeometryState {
    pipeline: vk::Pipeline,
    dynamic: Option<DynamicState>,
    streams: Vec<(vk::Buffer, u64)>,
    index: Option<(vk::Buffer, u64, vk::IndexType)>,
    /// The viewport's and scissor's numbers, bit for bit.
    viewport: Option<[u32; 6]>,
    scissor: Option<[i64; 4]>,
    /// The last draw's pipeline and what it was looked up by (the pass's formats are the
    /// same for every draw of the state): a draw repeating it skips the cache's key.
    last_pipeline: Option<LastPipeline>,
}

/// A geometry draw's pipeline and the parts of its cache key that change within a pass.
struct LastPipeline {
    key: PipelineKey,
    variant: StockVariant,
    layout: VertexLayout,
    primitive: PrimitiveType,
    writes: ColorWrites,
    pipeline: vk::Pipeline,
}

impl GeometryState {
    /// Nothing bound.
    pub fn fresh() -> Self {
        GeometryState::default()
    }
}

fn malformed(message: &str) -> BackendError {
    BackendError::Native(format!("malformed plan: {message}"))
}

/// Records one geometry draw inside the current rendering: `run` is the planned op's draws, one
/// or, for a run the compiler merged, several drawn as one instance each
/// ([`xnagraph_graph::compile::instances`]: they share everything but their blocks).
pub(crate) fn draw(
    rec: &mut Recorder<'_>,
    run: &[PassOp],
    writes: ColorWrites,
    formats: &PassFormats,
    extent: vk::Extent2D,
    state: &mut GeometryState,
) -> Result<(), BackendError> {
    let Some(PassOp::Draw(d)) = run.first() else {
        return Err(malformed("a planned draw that is no draw"));
    };
    let g = d.geometry.as_deref().ok_or_else(|| malformed("a sprite draw as geometry"))?;
    let vp = d.viewport;
    if vp.width <= 0 || vp.height <= 0 || g.instances == 0 {
        return Ok(());
    }
    if g.streams.len() != g.layout.bindings.len() {
        return Err(malformed("vertex streams and layout bindings differ"));
    }
    let merged = run.len() > 1 || g.draws() > 1;
    if merged && !g.can_repeat() {
        return Err(malformed("a merged run of draws that cannot merge"));
    }
    let mut variant = g.material.variant();
    variant.instanced = merged;
    let repeated = state.last_pipeline.as_ref().filter(|last| {
        last.key == d.pipeline
            && last.variant == variant
            && last.primitive == g.primitive
            && last.writes == writes
            && last.layout == g.layout
    });
    let pipeline = match repeated {
        Some(last) => last.pipeline,
        None => {
            let vertex_side =
                GeometryPipeline { variant, layout: g.layout.clone(), primitive: g.primitive };
            let pipeline = pipeline(
                rec.gpu,
                rec.pipelines,
                &d.pipeline,
                &vertex_side,
                formats,
                writes,
                false,
            )?;
            state.last_pipeline = Some(LastPipeline {
                key: d.pipeline,
                variant,
                layout: vertex_side.layout,
                primitive: g.primitive,
                writes,
                pipeline,
            });
            pipeline
        }
    };
    let gpu = rec.gpu;
    let device = &gpu.device;
    let cmd = rec.cmd;
    let dynamic = DynamicState::of(&d.pipeline);
    let arena = rec.geometry_offset + DEFAULTS_BYTES;
    // Into a fixed array: at most XNA's 16 streams and the constant one, no allocation.
    let mut streams = [(vk::Buffer::null(), 0u64); MAX_STREAMS + 1];
    if g.streams.len() > MAX_STREAMS {
        return Err(malformed("more vertex streams than XNA binds"));
    }
    for (slot, s) in streams.iter_mut().zip(&g.streams) {
        *slot = match s {
            VertexSource::Buffer { buffer, offset } => {
                (rec.buffers.get(buffer.native())?.current.buffer, *offset)
            }
            VertexSource::User(range) => {
                if range.end > rec.frame.geometry_bytes.len() as u64 {
                    return Err(malformed("user vertices past the geometry arena"));
                }
                (rec.vertex_buffer, arena + range.start)
            }
        };
    }
    streams[g.streams.len()] = (rec.vertex_buffer, rec.geometry_offset);
    let streams = &streams[..=g.streams.len()];
    let index = match (&g.indices, g.call) {
        (Some(ix), DrawCall::Indexed { .. }) => {
            let kind = match ix.element_size {
                2 => vk::IndexType::UINT16,
                4 => vk::IndexType::UINT32,
                _ => return Err(malformed("an index size other than 2 or 4")),
            };
            Some(match &ix.buffer {
                Some(b) => (rec.buffers.get(b.native())?.current.buffer, 0, kind),
                None => (rec.vertex_buffer, arena + ix.user.start, kind),
            })
        }
        (None, DrawCall::Indexed { .. }) => {
            return Err(malformed("an indexed draw without indices"))
        }
        _ => None,
    };
    let (mut viewport, scissor) = crate::pass::viewport_and_scissor(d, extent);
    if g.custom.is_some() {
        // A custom vertex stage writes XNA's clip space (y up), as a ported HLSL effect does;
        // the stock shader flips y in its transform instead.
        viewport.y += viewport.height;
        viewport.height = -viewport.height;
    }
    let viewport_bits = [
        viewport.x,
        viewport.y,
        viewport.width,
        viewport.height,
        viewport.min_depth,
        viewport.max_depth,
    ]
    .map(f32::to_bits);
    let scissor_numbers = [
        i64::from(scissor.offset.x),
        i64::from(scissor.offset.y),
        i64::from(scissor.extent.width),
        i64::from(scissor.extent.height),
    ];

    // SAFETY: inside rendering on a recording command buffer; every buffer, view and sampler
    // bound is live for the submission.
    unsafe {
        if state.pipeline != pipeline {
            device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
            state.pipeline = pipeline;
        }
        if state.dynamic != Some(dynamic) {
            device.cmd_set_blend_constants(cmd, &dynamic.blend_constants);
            device.cmd_set_stencil_reference(
                cmd,
                vk::StencilFaceFlags::FRONT_AND_BACK,
                dynamic.stencil_reference,
            );
            state.dynamic = Some(dynamic);
        }
        if state.streams != streams {
            let (buffers, offsets): (Vec<_>, Vec<_>) = streams.iter().copied().unzip();
            device.cmd_bind_vertex_buffers(cmd, 0, &buffers, &offsets);
            state.streams.clear();
            state.streams.extend_from_slice(streams);
        }
        if state.viewport != Some(viewport_bits) {
            device.cmd_set_viewport(cmd, 0, &[viewport]);
            state.viewport = Some(viewport_bits);
        }
        if state.scissor != Some(scissor_numbers) {
            device.cmd_set_scissor(cmd, 0, &[scissor]);
            state.scissor = Some(scissor_numbers);
        }
        if let Some(index) = index.filter(|&i| state.index != Some(i)) {
            device.cmd_bind_index_buffer(cmd, index.0, index.1, index.2);
            state.index = Some(index);
        }
    }
    let mut instances = (g.instances, 0);
    match &g.custom {
        Some(c) => {
            let (pipeline_layout, sets) = crate::pipeline::custom::bind_values(rec, c)?;
            for &(first, set) in &sets {
                // SAFETY: as above; the sets were just written for this draw.
                unsafe {
                    device.cmd_bind_descriptor_sets(
                        cmd,
                        vk::PipelineBindPoint::GRAPHICS,
                        pipeline_layout,
                        first,
                        &[set],
                        &[],
                    )
                };
            }
        }
        None if merged => {
            let (pipeline_layout, set, first, draws) = instanced_values(rec, run)?;
            let (_, sets, (offsets, count)) = stock_values(rec, d, g)?;
            instances = (draws, first);
            // SAFETY: as above; set 0 names the frame's uniform buffer, which holds the run's
            // instances from instance `first` on, and sets 1 and 3 the run's shared block.
            unsafe {
                device.cmd_bind_descriptor_sets(
                    cmd,
                    vk::PipelineBindPoint::GRAPHICS,
                    pipeline_layout,
                    0,
                    &[set],
                    &[],
                );
                device.cmd_bind_descriptor_sets(
                    cmd,
                    vk::PipelineBindPoint::GRAPHICS,
                    pipeline_layout,
                    1,
                    &sets,
                    &offsets[..count],
                );
            }
        }
        None => {
            let (pipeline_layout, sets, (offsets, count)) = stock_values(rec, d, g)?;
            let offsets = &offsets[..count];
            // SAFETY: as above; sets 1 and 3 name the frame's uniform buffer, read at this
            // draw's block (and a skinned draw's set 1 at its bones too).
            unsafe {
                device.cmd_bind_descriptor_sets(
                    cmd,
                    vk::PipelineBindPoint::GRAPHICS,
                    pipeline_layout,
                    1,
                    &sets,
                    offsets,
                )
            };
        }
    }
    // SAFETY: inside rendering; everything the draw reads was bound above.
    unsafe {
        match g.call {
            DrawCall::Vertices { first_vertex, vertex_count } => {
                device.cmd_draw(cmd, vertex_count, instances.0, first_vertex, instances.1);
            }
            DrawCall::Indexed { base_vertex, first_index, index_count, .. } => {
                let (count, first) = instances;
                device.cmd_draw_indexed(cmd, index_count, count, first_index, base_vertex, first);
            }
        }
    }
    Ok(())
}

/// The dynamic offsets a stock draw binds its sets 1 to 3 with, and how many there are.
type DynamicOffsets = ([u32; 3], usize);

/// Writes a stock effect's uniform block (transform, then the material) into the draw's slot of
/// the frame's uniform buffer, and returns the stock effects' pipeline layout, the sets to bind
/// at sets 1-3 (the frame's uniform sets around the sampler set of the draw's textures; binding
/// 1 is `DualTextureEffect`'s second texture, the first texture again for the others, so no
/// bound descriptor is ever unwritten) and their dynamic offsets: the block's for sets 1 and 3,
/// or for a SkinnedEffect draw (whose set 1 also names its bones, written in the slots after
/// its block) the block's and the bones' for set 1, then the block's for set 3.
fn stock_values(
    rec: &mut Recorder<'_>,
    d: &Draw,
    g: &GeometryDraw,
) -> Result<(vk::PipelineLayout, [vk::DescriptorSet; 3], DynamicOffsets), BackendError> {
    let gpu = rec.gpu;
    let pair = sampled_pair(rec, d, g)?;
    let uniforms = rec.uniforms.ok_or_else(|| malformed("draw without uniform space"))?;
    let offset = rec.uniforms_used;
    let mut block = [0.0f32; 16 + xnagraph_graph::MATERIAL_FLOATS];
    block[..16].copy_from_slice(&d.transform);
    block[16..].copy_from_slice(&g.material.block);
    uniforms.write(gpu, offset, bytemuck::cast_slice(&block))?;
    rec.uniforms_used += rec.uniform_stride;
    let as_offset = |o: u64| u32::try_from(o).map_err(|_| malformed("a uniform offset past 4 GiB"));
    let offset = as_offset(offset)?;
    let skinned = g.material.shader == StockShader::Skinned;
    let bones_at = rec.uniforms_used;
    if skinned {
        let mut bones = [[0.0f32; 4]; (xnagraph_shaders::BONE_BYTES / 16) as usize];
        if g.bones.len() > bones.len() {
            return Err(malformed("more bones than SkinnedEffect has"));
        }
        bones[..g.bones.len()].copy_from_slice(&g.bones);
        uniforms.write(gpu, bones_at, bytemuck::cast_slice(&bones))?;
        rec.uniforms_used += u64::from(bone_slots(rec.uniform_stride)) * rec.uniform_stride;
    }

    let stock = &rec.pipelines.geometry.stock;
    let layouts = stock.set_layouts();
    let pipeline_layout = if skinned { stock.skinned_layout } else { stock.layout };
    let src = crate::pass::set_source(rec);
    let [mut vertex, fragment] =
        rec.draw_sets.stock_uniforms(&src, &layouts, uniforms.buffer, UNIFORM_BYTES)?;
    let mut offsets = ([offset, offset, 0], 2);
    if skinned {
        let ranges = (UNIFORM_BYTES, xnagraph_shaders::BONE_BYTES);
        vertex = rec.draw_sets.skinned_uniforms(&src, &layouts, uniforms.buffer, ranges)?;
        offsets = ([offset, as_offset(bones_at)?, offset], 3);
    }
    let textures = rec.draw_sets.stock_textures(&src, &layouts, pair)?;
    Ok((pipeline_layout, [vertex, textures, fragment], offsets))
}

/// The (view, sampler) pairs of a stock draw's `Texture` and `Texture2` (the first again for the
/// effects without a second texture): 2D views, but for EnvironmentMapEffect's second, which is
/// its cube map's cube view (binding 1's descriptor type is the same for both).
fn sampled_pair(
    rec: &mut Recorder<'_>,
    d: &Draw,
    g: &GeometryDraw,
) -> Result<[(vk::ImageView, vk::Sampler); 2], BackendError> {
    let gpu = rec.gpu;
    if d.textures.len() != 1 {
        return Err(malformed("a geometry draw of several textures"));
    }
    let sampled = |rec: &mut Recorder<'_>, t: &xnagraph_graph::TextureState, s, view| {
        let texture = rec.textures.get(t.native())?;
        if texture.sampled_view_type != view {
            return Err(malformed("a geometry draw of a texture of another kind than its sampler"));
        }
        let sampler = rec.pipelines.sampler(gpu, s, texture.desc.mip_levels)?;
        Ok((texture.sampled_view, sampler))
    };
    let first = sampled(rec, d.textures.first(), &d.sampler, vk::ImageViewType::TYPE_2D)?;
    let second_view = match g.material.shader {
        StockShader::EnvironmentMap => vk::ImageViewType::CUBE,
        _ => vk::ImageViewType::TYPE_2D,
    };
    let second = match &g.texture2 {
        Some((t, s)) => sampled(rec, t, s, second_view)?,
        None => first,
    };
    Ok([first, second])
}

fn op_geometry(op: &PassOp) -> Option<&GeometryDraw> {
    match op {
        PassOp::Draw(d) => d.geometry.as_deref(),
        _ => None,
    }
}

/// Writes the instances of a merged run, one per draw and repeat in draw order, from an
/// instance boundary of the frame's uniform buffer: each its transform, then the parts of its
/// block that are its own ([`xnagraph_graph::BASIC_INSTANCE_PARTS`]; the rest is the run's,
/// the first draw's block that [`stock_values`] writes). Returns the instanced pipeline
/// layout, its set 0, the first instance's index (the draw's first instance: the vertex stage
/// reads instance `gl_InstanceIndex`) and the number of instances.
fn instanced_values(
    rec: &mut Recorder<'_>,
    run: &[PassOp],
) -> Result<(vk::PipelineLayout, vk::DescriptorSet, u32, u32), BackendError> {
    let gpu = rec.gpu;
    let uniforms = rec.uniforms.ok_or_else(|| malformed("draw without uniform space"))?;
    let start = rec.uniforms_used.next_multiple_of(BASIC_INSTANCE_BYTES);
    let mut draws = 0u32;
    let mut runs = Vec::with_capacity(run.len());
    for op in run {
        let (PassOp::Draw(draw), Some(geometry)) = (op, op_geometry(op)) else {
            return Err(malformed("a merged run of draws that cannot merge"));
        };
        draws += geometry.draws();
        runs.push((draw, geometry));
    }
    // Each draw's instance from its transform and block, then its repeats: those kept as
    // instances in one copy, those kept as values each derived into the mapping as it is put.
    let written = uniforms.write_with(gpu, start, |out| {
        for (draw, geometry) in &runs {
            for part in BasicInstance::parts(&draw.transform, &geometry.material.block) {
                out.put(bytemuck::cast_slice(part));
            }
            out.put(bytemuck::cast_slice(&geometry.repeats));
            for instance in geometry.repeat_values.instances() {
                out.put(bytemuck::bytes_of(&instance));
            }
        }
    })?;
    rec.uniforms_used = (start + written).next_multiple_of(rec.uniform_stride);
    let first = u32::try_from(start / BASIC_INSTANCE_BYTES)
        .map_err(|_| malformed("an instance index past 2^32"))?;

    let stock = &rec.pipelines.geometry.stock;
    let layouts = stock.set_layouts();
    let pipeline_layout = stock.instanced_layout;
    let src = crate::pass::set_source(rec);
    let set = rec.draw_sets.stock_instances(&src, &layouts, uniforms.buffer)?;
    Ok((pipeline_layout, set, first, draws))
}
