//! Render passes: a planned pass as SDL render passes, then the segment's draws.
//!
//! In: a [`PlannedPass`] — attachments with their load/store ops and resolve flags, and the
//! indices of the segment's ops to run. Out: render passes whose load, store and resolve actions
//! are the plan's: CLEAR / LOAD / DONT_CARE, and STORE / DONT_CARE, RESOLVE or RESOLVE_AND_STORE
//! into `resolve_texture` at `resolve_layer` (where the driver ignores the resolve layer, a
//! resolve into another layer goes through the target's stage texture, copied into the layer
//! after the pass). SDL_gpu has no clear inside a render pass, so a clear op between draws ends
//! the render pass (storing every attachment, which the next part loads) and begins the next with
//! that clear as its CLEAR load action; the plan's own load actions start the first part and its
//! store and resolve actions end the last. Nothing here decides a load or store op, or which
//! attachments an op writes: they come from the plan as they are.
//!
//! The draws inside a pass go to their own modules: sprite draws to [`sprites`], geometry draws
//! to [`geometry`]. SDL_gpu has no occlusion queries: a query op is refused.
//!
//! With poisoning on (tests), a DONT_CARE load becomes a CLEAR to the poison value and an
//! attachment stored with DONT_CARE is cleared to it right after the pass (a render pass that
//! only clears, [`crate::transfer::clear_texture`]), so a wrong decision shows in pixels.

use sdl3_sys::gpu::*;
use xnagraph_graph::{
    BackendError, Clear, ClearValue, ColorWrites, Image, LoadOp, Node, PassOp, PlannedAttachment,
    PlannedPass, StoreOp,
};

use crate::pipeline::PassFormats;
use crate::record::Recorder;
use crate::texture::TextureTable;

pub(crate) mod geometry;
pub(crate) mod sprites;

fn malformed(message: &str) -> BackendError {
    BackendError::Native(format!("malformed plan: {message}"))
}

/// An RGBA colour as SDL takes it.
pub(crate) fn fcolor(c: [f32; 4]) -> sdl3_sys::pixels::SDL_FColor {
    sdl3_sys::pixels::SDL_FColor { r: c[0], g: c[1], b: c[2], a: c[3] }
}

/// One colour attachment as the next render pass part begins it.
struct ColorPart {
    texture: *mut SDL_GPUTexture,
    layer: u32,
    load: LoadOp,
    resolve: Option<(*mut SDL_GPUTexture, u32)>,
    /// A resolve staged through the target's single-layer texture (the driver ignores the
    /// resolve layer): the texture, layer and size it is copied into after the pass.
    staged: Option<Staged>,
    store: StoreOp,
    format: SDL_GPUTextureFormat,
}

/// The copy that finishes a staged resolve.
#[derive(Clone, Copy)]
struct Staged {
    stage: *mut SDL_GPUTexture,
    texture: *mut SDL_GPUTexture,
    layer: u32,
    width: u32,
    height: u32,
}

/// Copies every staged resolve into its layer, after the pass that resolved.
fn finish_staged(rec: &Recorder<'_>, colors: &[ColorPart]) {
    for s in colors.iter().filter_map(|c| c.staged) {
        let location =
            |texture, layer| SDL_GPUTextureLocation { texture, layer, ..Default::default() };
        // SAFETY: recording outside any pass; both textures are live and the region lies in
        // both (the stage has the target's size).
        unsafe {
            let copy = SDL_BeginGPUCopyPass(rec.cmd);
            SDL_CopyGPUTextureToTexture(
                copy,
                &location(s.stage, 0),
                &location(s.texture, s.layer),
                s.width,
                s.height,
                1,
                false,
            );
            SDL_EndGPUCopyPass(copy);
        }
    }
}

struct DepthPart {
    texture: *mut SDL_GPUTexture,
    load: LoadOp,
    stencil_load: LoadOp,
    store: StoreOp,
    format: SDL_GPUTextureFormat,
}

fn sdl_load(load: LoadOp) -> SDL_GPULoadOp {
    match load {
        LoadOp::Clear(_) => SDL_GPU_LOADOP_CLEAR,
        LoadOp::Load => SDL_GPU_LOADOP_LOAD,
        LoadOp::DontCare => SDL_GPU_LOADOP_DONT_CARE,
    }
}

/// The store action: the plan's store, with its resolve when the attachment resolves.
fn sdl_store(store: StoreOp, resolve: bool) -> SDL_GPUStoreOp {
    match (store, resolve) {
        (StoreOp::Store, false) => SDL_GPU_STOREOP_STORE,
        (StoreOp::DontCare, false) => SDL_GPU_STOREOP_DONT_CARE,
        (StoreOp::Store, true) => SDL_GPU_STOREOP_RESOLVE_AND_STORE,
        (StoreOp::DontCare, true) => SDL_GPU_STOREOP_RESOLVE,
    }
}

fn begin(
    rec: &Recorder<'_>,
    colors: &[ColorPart],
    depth: Option<&DepthPart>,
    last: bool,
) -> Result<*mut SDL_GPURenderPass, BackendError> {
    let infos: Vec<SDL_GPUColorTargetInfo> = colors
        .iter()
        .map(|c| {
            let clear = match c.load {
                LoadOp::Clear(ClearValue::Color(v)) => v,
                _ => [0.0; 4],
            };
            let (resolve, resolve_layer) = match (last, c.resolve) {
                (true, Some(r)) => r,
                _ => (std::ptr::null_mut(), 0),
            };
            let store =
                if last { sdl_store(c.store, c.resolve.is_some()) } else { SDL_GPU_STOREOP_STORE };
            SDL_GPUColorTargetInfo {
                texture: c.texture,
                layer_or_depth_plane: c.layer,
                clear_color: fcolor(clear),
                load_op: sdl_load(c.load),
                store_op: store,
                resolve_texture: resolve,
                resolve_layer,
                ..Default::default()
            }
        })
        .collect();
    let depth_info = depth.map(|d| {
        let (clear_depth, clear_stencil) = match (d.load, d.stencil_load) {
            (LoadOp::Clear(ClearValue::DepthStencil { depth, .. }), s) => (depth, stencil_of(s)),
            (_, s) => (1.0, stencil_of(s)),
        };
        let store = if last {
            match d.store {
                StoreOp::Store => SDL_GPU_STOREOP_STORE,
                StoreOp::DontCare => SDL_GPU_STOREOP_DONT_CARE,
            }
        } else {
            SDL_GPU_STOREOP_STORE
        };
        let has_stencil = crate::format::has_stencil(d.format);
        SDL_GPUDepthStencilTargetInfo {
            texture: d.texture,
            clear_depth,
            load_op: sdl_load(d.load),
            store_op: store,
            stencil_load_op: if has_stencil {
                sdl_load(d.stencil_load)
            } else {
                SDL_GPU_LOADOP_DONT_CARE
            },
            stencil_store_op: if has_stencil { store } else { SDL_GPU_STOREOP_DONT_CARE },
            clear_stencil: clear_stencil as u8,
            ..Default::default()
        }
    });
    // SAFETY: the command buffer is recording outside any pass; the textures are live.
    let pass = unsafe {
        SDL_BeginGPURenderPass(
            rec.cmd,
            infos.as_ptr(),
            infos.len() as u32,
            depth_info.as_ref().map_or(std::ptr::null(), |d| d as *const _),
        )
    };
    if pass.is_null() {
        return Err(BackendError::Native(crate::device::sdl_error("SDL_BeginGPURenderPass")));
    }
    Ok(pass)
}

fn stencil_of(load: LoadOp) -> u32 {
    match load {
        LoadOp::Clear(ClearValue::DepthStencil { stencil, .. }) => stencil,
        _ => 0,
    }
}

fn lower_color(rec: &Recorder<'_>, a: &PlannedAttachment) -> Result<ColorPart, BackendError> {
    let t = rec.textures.get(a.texture.native())?;
    if a.image == Image::DepthStencil {
        return Err(malformed("a depth image as a colour attachment"));
    }
    if a.layer >= t.desc.layers {
        return Err(malformed("attachment layer out of range"));
    }
    if a.resolve && a.image != Image::Samples {
        return Err(malformed("resolve from a single-sample attachment"));
    }
    let handle = a.texture.native();
    let (texture, layer, format) = rec.image(handle, t, a.image, a.layer)?;
    let mut resolve = match a.resolve {
        true => rec.image(handle, t, Image::Color, a.layer).map(|(r, l, _)| Some((r, l)))?,
        false => None,
    };
    // Layer 0 is where such a driver resolves anyway; another layer goes through the stage.
    let staged = match (resolve, t.resolve_stage) {
        (Some((texture, layer)), Some(stage)) if layer != 0 => {
            resolve = Some((stage, 0));
            Some(Staged { stage, texture, layer, width: t.desc.width, height: t.desc.height })
        }
        _ => None,
    };
    Ok(ColorPart {
        texture,
        layer,
        load: a.load.poisoned_when(rec.poison_undefined, false),
        resolve,
        staged,
        store: a.store,
        format,
    })
}

/// The formats and sample count of a pass over `targets` (the first holding the depth buffer,
/// if it has one), as [`record_pass`] finds them for the planned pass: each target's format,
/// the first's depth format, and the samples drawn into (a multisampled target is drawn
/// through its samples texture). A back buffer drawn straight into the swapchain texture has
/// the swapchain's format there, known only per frame: its lowering builds that pipeline.
pub(crate) fn target_formats(
    textures: &TextureTable,
    targets: &[std::sync::Arc<xnagraph_graph::TextureState>],
) -> Result<PassFormats, BackendError> {
    let mut colors = Vec::with_capacity(targets.len());
    for target in targets {
        colors.push(textures.get(target.native())?.format);
    }
    let first = targets.first().ok_or_else(|| malformed("a pipeline request without targets"))?;
    let depth = if first.desc().depth_format().has_depth() {
        textures.get(first.native())?.depth_format
    } else {
        SDL_GPU_TEXTUREFORMAT_INVALID
    };
    let samples = first.desc().sample_count();
    let samples = crate::format::sample_count(if samples > 1 { samples } else { 0 });
    Ok(PassFormats { colors, depth, samples })
}

pub(crate) fn record_pass(rec: &mut Recorder<'_>, pass: &PlannedPass) -> Result<(), BackendError> {
    let Some(Node::Pass(segment)) = rec.frame.nodes.get(pass.segment) else {
        return Err(malformed("pass names a node that is not a segment"));
    };
    if pass.colors.is_empty() {
        return Err(malformed("a pass without colour attachments"));
    }
    let mut colors =
        pass.colors.iter().map(|a| lower_color(rec, a)).collect::<Result<Vec<_>, _>>()?;
    let mut extent = (u32::MAX, u32::MAX);
    let mut samples = None;
    for a in pass.colors.iter().chain(&pass.depth) {
        let t = rec.textures.get(a.texture.native())?;
        extent = (extent.0.min(t.desc.width), extent.1.min(t.desc.height));
        let s = if a.image == Image::Color { 0 } else { t.desc.sample_count() };
        if *samples.get_or_insert(s) != s {
            return Err(malformed("attachments with different sample counts"));
        }
    }
    let mut depth = match &pass.depth {
        Some(a) => {
            let t = rec.textures.get(a.texture.native())?;
            let (texture, _) = t.image(Image::DepthStencil, a.layer)?;
            let load = a.load.poisoned_when(rec.poison_undefined, true);
            Some(DepthPart {
                texture,
                load,
                stencil_load: load,
                store: a.store,
                format: t.depth_format,
            })
        }
        None => None,
    };
    let formats = PassFormats {
        colors: colors.iter().map(|c| c.format).collect(),
        depth: depth.as_ref().map_or(SDL_GPU_TEXTUREFORMAT_INVALID, |d| d.format),
        samples: crate::format::sample_count(samples.unwrap_or(0)),
    };
    let mut state =
        sprites::DrawState { bound_pipeline: std::ptr::null_mut(), vertices_bound: false };
    // Ops run in parts: a clear after the part has drawn something starts the next part.
    let mut part_ops: Vec<Vec<(usize, ColorWrites)>> = vec![Vec::new()];
    let mut part_clears: Vec<Option<Clear>> = vec![None];
    for op in &pass.ops {
        match segment.ops.get(op.index) {
            Some(PassOp::Clear(c)) => {
                part_ops.push(Vec::new());
                part_clears.push(Some(Clear {
                    color: c.color.filter(|_| (0..colors.len()).any(|i| op.writes.get(i) != 0)),
                    ..*c
                }));
            }
            // A merged run is drawn draw by draw: this backend has no instanced stages (SDL_gpu
            // binds storage buffers whole, without an offset), and the pixels are the same.
            Some(PassOp::Draw(_)) => {
                let run = op.index..op.index + op.instances.max(1) as usize;
                if run.end > segment.ops.len() {
                    return Err(malformed("a merged run past the segment's ops"));
                }
                part_ops.last_mut().expect("one part").extend(run.map(|i| (i, op.writes)))
            }
            // Refused at `OcclusionQuery`'s constructor: this backend creates no queries.
            Some(PassOp::Query(_)) => return Err(malformed("an occlusion query op")),
            None => return Err(malformed("pass op index out of range")),
        }
    }
    let parts = part_ops.len();
    for (i, (ops, clear)) in part_ops.into_iter().zip(part_clears).enumerate() {
        if i > 0 {
            let clear = clear.unwrap_or_default();
            for c in &mut colors {
                c.load = match clear.color {
                    Some(v) => LoadOp::Clear(ClearValue::Color(v)),
                    None => LoadOp::Load,
                };
            }
            if let Some(d) = depth.as_mut() {
                d.load = match clear.depth {
                    Some(v) => LoadOp::Clear(ClearValue::DepthStencil {
                        depth: v,
                        stencil: clear.stencil.unwrap_or(0),
                    }),
                    None => LoadOp::Load,
                };
                d.stencil_load = match clear.stencil {
                    Some(s) => LoadOp::Clear(ClearValue::DepthStencil {
                        depth: clear.depth.unwrap_or(1.0),
                        stencil: s,
                    }),
                    None => LoadOp::Load,
                };
            }
        }
        let last = i + 1 == parts;
        let rp = begin(rec, &colors, depth.as_ref(), last)?;
        state.bound_pipeline = std::ptr::null_mut();
        state.vertices_bound = false;
        let mut result = Ok(());
        for (index, writes) in ops {
            if let Some(PassOp::Draw(d)) = segment.ops.get(index) {
                result = if d.geometry.is_some() {
                    geometry::draw(rec, rp, d, writes, &formats, extent).map(|bound| {
                        // The geometry draw bound its own pipeline and vertex streams.
                        if let Some(p) = bound {
                            state.bound_pipeline = p;
                            state.vertices_bound = false;
                        }
                    })
                } else {
                    sprites::draw(rec, rp, d, writes, &formats, extent, &mut state)
                };
                if result.is_err() {
                    break;
                }
            }
        }
        // SAFETY: the pass was begun above.
        unsafe { SDL_EndGPURenderPass(rp) };
        result?;
    }
    finish_staged(rec, &colors);
    if rec.poison_undefined {
        poison_dropped(rec, pass)?;
    }
    Ok(())
}

/// Clears every attachment the pass stored with DONT_CARE to the poison value.
fn poison_dropped(rec: &Recorder<'_>, pass: &PlannedPass) -> Result<(), BackendError> {
    for a in pass.colors.iter().chain(&pass.depth).filter(|a| a.store == StoreOp::DontCare) {
        let t = rec.textures.get(a.texture.native())?;
        let (texture, layer, _) = rec.image(a.texture.native(), t, a.image, a.layer)?;
        let value = ClearValue::poison(a.image == Image::DepthStencil);
        crate::transfer::clear_texture(rec, texture, layer, 0, value, t.depth_format)?;
    }
    Ok(())
}
