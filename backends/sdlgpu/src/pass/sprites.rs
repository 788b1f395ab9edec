//! Sprite draws inside a render pass: the stock sprite stage (or the cube-sampling stage, or a
//! custom effect's fragment stage) over the frame's sprite stream, one native draw per run of
//! sprites that sample one texture (SDL_gpu cannot index textures in a shader); and what sprite
//! and geometry draws share: the transform into SDL's clip space and the viewport and scissor.

use sdl3_sys::gpu::*;
use xnagraph_graph::{BackendError, FrameCommands, ShaderKind, SpriteInstance};

use super::fcolor;
use crate::pipeline::PassFormats;
use crate::record::Recorder;

fn malformed(message: &str) -> BackendError {
    BackendError::Native(format!("malformed plan: {message}"))
}

/// What a render pass has bound so far, so consecutive sprite draws rebind only what changes.
pub(crate) struct DrawState {
    pub bound_pipeline: *mut SDL_GPUGraphicsPipeline,
    pub vertices_bound: bool,
}

/// The engine's transform maps to Vulkan's clip space (y down); SDL_gpu's is y up and its
/// Vulkan driver flips the viewport, so the y row is negated.
pub(crate) fn sdl_transform(mut transform: [f32; 16]) -> [f32; 16] {
    for i in [1, 5, 9, 13] {
        transform[i] = -transform[i];
    }
    transform
}

/// The draw's viewport, and its scissor ([`xnagraph_graph::Draw::scissor_in`] the render
/// area); `None` when either is empty.
pub(crate) fn viewport_and_scissor(
    d: &xnagraph_graph::Draw,
    extent: (u32, u32),
) -> Option<(SDL_GPUViewport, sdl3_sys::rect::SDL_Rect)> {
    let vp = d.viewport;
    if vp.width <= 0 || vp.height <= 0 {
        return None;
    }
    let s = d.scissor_in(extent);
    let scissor = sdl3_sys::rect::SDL_Rect { x: s.x, y: s.y, w: s.width, h: s.height };
    if scissor.w == 0 || scissor.h == 0 {
        return None;
    }
    let viewport = SDL_GPUViewport {
        x: vp.x as f32,
        y: vp.y as f32,
        w: vp.width as f32,
        h: vp.height as f32,
        min_depth: vp.min_depth,
        max_depth: vp.max_depth,
    };
    Some((viewport, scissor))
}

/// Records one sprite draw inside `rp`: one native draw per run of sprites that sample one
/// texture.
pub(crate) fn draw(
    rec: &mut Recorder<'_>,
    rp: *mut SDL_GPURenderPass,
    d: &xnagraph_graph::Draw,
    writes: xnagraph_graph::ColorWrites,
    formats: &PassFormats,
    extent: (u32, u32),
    state: &mut DrawState,
) -> Result<(), BackendError> {
    if d.sprite_count == 0 {
        return Ok(());
    }
    let end = u64::from(d.first_sprite) + u64::from(d.sprite_count);
    if end > rec.frame.sprites.len() as u64 {
        return Err(malformed("a draw reads sprites past the frame's"));
    }
    // SDL_gpu cannot index textures in a shader: a draw of several is one draw per run of
    // sprites that sample one texture.
    let frame = rec.frame;
    let first = d.first_sprite as usize;
    let sprites = &frame.sprites[first..end as usize];
    for run in d.textures.runs(sprites) {
        let (offset, count, texture) =
            run.map_err(|_| malformed("a sprite names a texture slot its draw does not have"))?;
        let range = ((first + offset) as u32, count as u32);
        draw_run(rec, rp, d, texture, range, (writes, formats, extent), state)?;
    }
    Ok(())
}

/// One native draw of `count` sprites from `first`, sampling `texture`.
fn draw_run(
    rec: &mut Recorder<'_>,
    rp: *mut SDL_GPURenderPass,
    d: &xnagraph_graph::Draw,
    texture: &xnagraph_graph::TextureState,
    (first, count): (u32, u32),
    (writes, formats, extent): (xnagraph_graph::ColorWrites, &PassFormats, (u32, u32)),
    state: &mut DrawState,
) -> Result<(), BackendError> {
    let texture = rec.textures.get(texture.native())?;
    let cube_stage = d.pipeline.shader == ShaderKind::CubeSample;
    if cube_stage != texture.is_cube() {
        return Err(malformed(if cube_stage {
            "a cube-sampling draw of a texture that is not a cube"
        } else {
            "a sprite draw of a cube texture"
        }));
    }
    let pipeline = rec.pipelines.pipeline(rec.device, &d.pipeline, formats, writes)?;
    let sampler = rec.pipelines.sampler(rec.device, &d.sampler, texture.desc.mip_levels)?;
    let transform = sdl_transform(d.transform);
    let Some((viewport, scissor)) = viewport_and_scissor(d, extent) else { return Ok(()) };
    let f = d.pipeline.blend.blend_factor;
    let constants = fcolor(f.map(|c| f32::from(c) / 255.0));
    let binding = SDL_GPUTextureSamplerBinding { texture: texture.color, sampler };
    // SAFETY: inside a render pass of a recording command buffer; every object is live.
    unsafe {
        if state.bound_pipeline != pipeline {
            SDL_BindGPUGraphicsPipeline(rp, pipeline);
            state.bound_pipeline = pipeline;
        }
        if !state.vertices_bound {
            let vb = SDL_GPUBufferBinding { buffer: rec.vertices, offset: 0 };
            SDL_BindGPUVertexBuffers(rp, 0, &vb, 1);
            state.vertices_bound = true;
        }
        SDL_SetGPUBlendConstants(rp, constants);
        SDL_SetGPUStencilReference(rp, d.pipeline.depth_stencil.reference_stencil as u8);
        SDL_SetGPUViewport(rp, &viewport);
        SDL_SetGPUScissor(rp, &scissor);
        SDL_BindGPUFragmentSamplers(rp, 0, &binding, 1);
        SDL_PushGPUVertexUniformData(
            rec.cmd,
            0,
            transform.as_ptr().cast(),
            std::mem::size_of_val(&transform) as u32,
        );
        // Four strip vertices (TL, TR, BL, BR) per sprite instance.
        SDL_DrawGPUPrimitives(rp, 4, count, 0, first);
    }
    Ok(())
}

/// Bytes of the sprite stream.
pub(crate) fn sprite_bytes(frame: &FrameCommands) -> &[u8] {
    bytemuck::cast_slice::<SpriteInstance, u8>(&frame.sprites)
}
