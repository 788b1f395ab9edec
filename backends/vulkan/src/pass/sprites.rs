//! Sprite draws inside a render pass: pipeline, dynamic state, descriptor sets and the
//! instanced draw of each [`Draw`], binding only what changed since the pass's previous draw.

use std::sync::Arc;

use ash::vk;
use xnagraph_graph::{
    BackendError, ColorWrites, Draw, DrawTextures, ShaderKind, TextureState, MAX_DRAW_TEXTURES,
};

use super::{malformed, Attachments};
use crate::pass::draw_sets::SetSource;
use crate::pipeline::DynamicState;
use crate::record::Recorder;

/// What the pass last bound for its sprite draws, so that a draw binds only what changed.
pub(super) struct DrawState {
    pipeline: vk::Pipeline,
    buffers_bound: bool,
    /// The blend constants and stencil reference set last in this pass.
    dynamic: Option<DynamicState>,
    /// The uniform and texture sets bound last in this pass.
    sets: [vk::DescriptorSet; 2],
    /// Whether they were bound through the indexing stage's pipeline layout.
    indexed: bool,
}

impl DrawState {
    /// Nothing bound: the state at the start of a pass, and after a geometry draw, which binds
    /// its own pipeline, streams and dynamic state.
    pub(super) fn fresh() -> Self {
        DrawState {
            pipeline: vk::Pipeline::null(),
            buffers_bound: false,
            dynamic: None,
            sets: [vk::DescriptorSet::null(); 2],
            indexed: false,
        }
    }
}

/// A draw's native viewport, and its scissor ([`Draw::scissor_in`] the render area of
/// `extent`).
pub(crate) fn viewport_and_scissor(d: &Draw, extent: vk::Extent2D) -> (vk::Viewport, vk::Rect2D) {
    let vp = d.viewport;
    let viewport = vk::Viewport {
        x: vp.x as f32,
        y: vp.y as f32,
        width: vp.width as f32,
        height: vp.height as f32,
        min_depth: vp.min_depth,
        max_depth: vp.max_depth,
    };
    let s = d.scissor_in((extent.width, extent.height));
    let scissor = vk::Rect2D {
        offset: vk::Offset2D { x: s.x, y: s.y },
        extent: vk::Extent2D { width: s.width as u32, height: s.height as u32 },
    };
    (viewport, scissor)
}

/// What one native draw samples: one texture, or the array of a draw of several.
#[derive(Clone, Copy)]
enum Sampled<'a> {
    One(&'a Arc<TextureState>),
    Indexed(&'a DrawTextures),
}

/// A sprite draw: one native draw, or with several textures and no texture indexing, one per
/// run of sprites sampling one texture ([`DrawTextures::runs`]).
pub(super) fn draw(
    rec: &mut Recorder<'_>,
    d: &Draw,
    writes: ColorWrites,
    att: &Attachments,
    state: &mut DrawState,
) -> Result<(), BackendError> {
    let vp = d.viewport;
    if d.sprite_count == 0 || vp.width <= 0 || vp.height <= 0 {
        // Nothing can reach a pixel.
        return Ok(());
    }
    if d.textures.len() == 1 {
        let one = Sampled::One(d.textures.first());
        return draw_sprites(rec, d, writes, att, state, one, (d.first_sprite, d.sprite_count));
    }
    if rec.gpu.texture_indexing.is_some() {
        let all = Sampled::Indexed(&d.textures);
        return draw_sprites(rec, d, writes, att, state, all, (d.first_sprite, d.sprite_count));
    }
    let frame = rec.frame;
    let first = d.first_sprite as usize;
    let sprites = frame
        .sprites
        .get(first..first + d.sprite_count as usize)
        .ok_or_else(|| malformed("a draw reads sprites past the frame's"))?;
    for run in d.textures.runs(sprites) {
        let (offset, count, texture) =
            run.map_err(|_| malformed("a sprite names a texture slot its draw does not have"))?;
        let range = ((first + offset) as u32, count as u32);
        draw_sprites(rec, d, writes, att, state, Sampled::One(texture), range)?;
    }
    Ok(())
}

/// The texture's sampled view and sampler, refused when its dimension is not the stage's: the
/// stock cube stage declares a `samplerCube`, every other stage a `sampler2D`, and a view of
/// another dimension would be undefined behaviour.
fn view_and_sampler(
    rec: &mut Recorder<'_>,
    d: &Draw,
    texture: &TextureState,
) -> Result<(vk::ImageView, vk::Sampler), BackendError> {
    let t = rec.textures.get(texture.native())?;
    let cube_stage = d.pipeline.shader == ShaderKind::CubeSample;
    if cube_stage != (t.sampled_view_type == vk::ImageViewType::CUBE) {
        return Err(malformed(if cube_stage {
            "a cube-sampling draw of a texture that is not a cube"
        } else {
            "a sprite draw of a cube texture"
        }));
    }
    let sampler = rec.pipelines.sampler(rec.gpu, &d.sampler, t.desc.mip_levels)?;
    Ok((t.sampled_view, sampler))
}

/// One native draw of `count` sprites from `first`.
fn draw_sprites(
    rec: &mut Recorder<'_>,
    d: &Draw,
    writes: ColorWrites,
    att: &Attachments,
    state: &mut DrawState,
    sampled: Sampled<'_>,
    (first, count): (u32, u32),
) -> Result<(), BackendError> {
    let gpu = rec.gpu;
    let device = &gpu.device;
    let indexed = matches!(sampled, Sampled::Indexed(_));
    let texture_set = match sampled {
        Sampled::One(texture) => {
            let (view, sampler) = view_and_sampler(rec, d, texture)?;
            let src = set_source(rec);
            rec.draw_sets.texture(&src, view, sampler)?
        }
        Sampled::Indexed(textures) => {
            let mut key = [(vk::ImageView::null(), vk::Sampler::null()); MAX_DRAW_TEXTURES];
            for (slot, texture) in key.iter_mut().zip(textures.iter()) {
                *slot = view_and_sampler(rec, d, texture)?;
            }
            // Slots past the draw's textures repeat slot 0: every descriptor is written.
            for slot in textures.len()..MAX_DRAW_TEXTURES {
                key[slot] = key[0];
            }
            let src = set_source(rec);
            rec.draw_sets.indexed(&src, key)?
        }
    };
    let pipeline = rec.pipelines.pipeline(gpu, &d.pipeline, &att.formats, writes, indexed)?;
    let dynamic = DynamicState::of(&d.pipeline);
    let uniforms = rec.uniforms.ok_or_else(|| malformed("draw without uniform space"))?;
    let src = set_source(rec);
    let space = (uniforms, &mut rec.uniforms_used, rec.uniform_stride);
    let sets = [rec.draw_sets.transform(&src, gpu, &d.transform, space)?, texture_set];
    let (viewport, scissor) = viewport_and_scissor(d, att.extent);
    // SAFETY: inside rendering on a recording command buffer; the sets were written this frame
    // and every handle bound is live for the submission.
    unsafe {
        if state.pipeline != pipeline {
            device.cmd_bind_pipeline(rec.cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
            state.pipeline = pipeline;
        }
        if state.dynamic != Some(dynamic) {
            device.cmd_set_blend_constants(rec.cmd, &dynamic.blend_constants);
            device.cmd_set_stencil_reference(
                rec.cmd,
                vk::StencilFaceFlags::FRONT_AND_BACK,
                dynamic.stencil_reference,
            );
            state.dynamic = Some(dynamic);
        }
        if !state.buffers_bound {
            device.cmd_bind_vertex_buffers(rec.cmd, 0, &[rec.sprite_buffer], &[0]);
            state.buffers_bound = true;
        }
        if state.sets != sets || state.indexed != indexed {
            // Pipelines of one layout share the sets, so they stay bound across pipelines; a
            // change of layout (to or from the indexing stage's) binds them again.
            let layout = if indexed { rec.pipelines.indexed_layout } else { rec.pipelines.layout };
            device.cmd_bind_descriptor_sets(
                rec.cmd,
                vk::PipelineBindPoint::GRAPHICS,
                layout,
                1,
                &sets,
                &[],
            );
            state.sets = sets;
            state.indexed = indexed;
        }
        device.cmd_set_viewport(rec.cmd, 0, &[viewport]);
        device.cmd_set_scissor(rec.cmd, 0, &[scissor]);
        // Four strip vertices (TL, TR, BL, BR) per sprite instance.
        device.cmd_draw(rec.cmd, 4, count, 0, first);
    }
    Ok(())
}

/// Where the frame's sets come from.
pub(crate) fn set_source<'a>(rec: &Recorder<'a>) -> SetSource<'a> {
    SetSource {
        device: &rec.gpu.device,
        pool: rec.descriptors,
        uniform_layout: rec.pipelines.set_layouts[1],
        texture_layout: rec.pipelines.set_layouts[2],
        indexed_layout: rec.pipelines.indexed_set_layout,
    }
}
