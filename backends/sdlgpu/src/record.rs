//! One plan → one SDL command buffer.
//!
//! The nodes are lowered in order; their barriers are ignored (SDL_gpu tracks every texture's
//! state itself). A pass becomes a render pass whose load, store and resolve actions are the
//! plan's: CLEAR / LOAD / DONT_CARE, and STORE / DONT_CARE, RESOLVE or RESOLVE_AND_STORE into
//! `resolve_texture` at `resolve_layer`. SDL_gpu has no clear inside a render pass, so a clear op
//! between draws ends the render pass (storing every attachment, which the next part loads) and
//! begins the next with that clear as its CLEAR load action; the plan's own load actions start
//! the first part and its store and resolve actions end the last. Uploads, readbacks and the
//! frame's vertex stream go through transfer buffers in copy passes, and mip cascades are blits
//! (texture transfers in `transfer`, depth/stencil transfers in `depth_transfer`, buffer nodes
//! in `buffer`, sprite draws in `sprites`, geometry draws in `geometry`);
//! transfer clears are render passes that only clear.
//!
//! With poisoning on (tests), a DONT_CARE load becomes a CLEAR to the poison value and an
//! attachment stored with DONT_CARE is cleared to it right after the pass, so a wrong decision
//! shows in pixels.

use sdl3_sys::gpu::*;
use xnagraph_graph::{
    BackendError, Clear, ClearValue, FrameCommands, FramePlan, Image, ImageClear, LoadOp,
    NativeHandle, Node, PassOp, PlanNodeKind, PlannedAttachment, PlannedPass, StoreOp,
};

use crate::buffer::BufferTable;
use crate::pipeline::{PassFormats, Pipelines};
use crate::texture::TextureTable;

fn malformed(message: &str) -> BackendError {
    BackendError::Native(format!("malformed plan: {message}"))
}

/// A readback recorded into a download buffer, read once its submission's fence signals.
pub(crate) struct PendingReadback {
    pub id: xnagraph_graph::ReadbackId,
    pub buffer: *mut SDL_GPUTransferBuffer,
    pub len: u32,
    /// A depth readback: how its bytes become the neutral encoding when they are taken.
    pub depth: Option<crate::depth_transfer::Decode>,
}

/// What recording borrows from the backend.
pub(crate) struct Recorder<'a> {
    pub device: *mut SDL_GPUDevice,
    pub cmd: *mut SDL_GPUCommandBuffer,
    pub textures: &'a TextureTable,
    /// Vertex and index buffers: a rename switches a buffer's storage while recording.
    pub buffers: &'a mut BufferTable,
    /// The submission being recorded, and the last one known complete (renames reuse storage
    /// only from completed submissions).
    pub submission: xnagraph_graph::SubmissionId,
    pub completed: xnagraph_graph::SubmissionId,
    pub pipelines: &'a mut Pipelines,
    pub frame: &'a FrameCommands,
    /// The frame's vertex stream: sprites, then the constant stream and the geometry arena.
    pub vertices: *mut SDL_GPUBuffer,
    /// Where the constant stream starts in `vertices` (the geometry arena follows it).
    pub geometry_offset: u32,
    /// The upload transfer buffer holding every upload's bytes, at `upload_offsets`.
    pub uploads: *mut SDL_GPUTransferBuffer,
    pub upload_offsets: Vec<(usize, u32)>,
    pub readbacks: Vec<PendingReadback>,
    /// Textures that live for this submission (depth/stencil transfers through draws),
    /// released once it is submitted or cancelled.
    pub temporaries: Vec<*mut SDL_GPUTexture>,
    pub poison_undefined: bool,
    pub diagnostics: &'a xnagraph_graph::Diagnostics,
    /// A plan drawn straight into the window: the back buffer whose colour texture the
    /// swapchain texture stands for, that texture and its format.
    pub swapchain: Option<(NativeHandle, *mut SDL_GPUTexture, SDL_GPUTextureFormat)>,
}

impl Recorder<'_> {
    /// The texture and layer of `image`, `layer` of `handle`'s texture `t`, with the swapchain
    /// texture standing for the colour image of a back buffer drawn straight in.
    fn image(
        &self,
        handle: NativeHandle,
        t: &crate::texture::NativeTexture,
        image: Image,
        layer: u32,
    ) -> Result<(*mut SDL_GPUTexture, u32, SDL_GPUTextureFormat), BackendError> {
        match self.swapchain {
            Some((h, texture, format)) if h == handle && image == Image::Color => {
                Ok((texture, 0, format))
            }
            _ => t.image(image, layer).map(|(texture, layer)| (texture, layer, t.format)),
        }
    }
}

impl Recorder<'_> {
    /// Where `node`'s bytes were staged in the upload transfer buffer.
    pub fn staged(&self, node: usize) -> Result<u32, BackendError> {
        self.upload_offsets
            .iter()
            .find(|(n, _)| *n == node)
            .map(|(_, o)| *o)
            .ok_or_else(|| malformed("an upload without staged bytes"))
    }
}

/// Readbacks reach the colour and depth/stencil images, never a multisample image
/// (`Capabilities::sample_readback` is false: SDL_gpu cannot sample a multisampled texture);
/// uploads restore it (`sample_transfer`).
fn samples_readback() -> BackendError {
    BackendError::NotSupported("a readback of a multisample image".into())
}

pub(crate) fn record(rec: &mut Recorder<'_>, plan: &FramePlan) -> Result<(), BackendError> {
    for node in &plan.nodes {
        match &node.kind {
            PlanNodeKind::Pass(p) => record_pass(rec, p)?,
            PlanNodeKind::Upload { node } => {
                if let Some(Node::Upload(u)) = rec.frame.nodes.get(*node) {
                    match u.image {
                        Image::DepthStencil => {
                            crate::depth_transfer::record_depth_upload(rec, *node, u)?
                        }
                        Image::Color => crate::transfer::record_upload(rec, *node, u)?,
                        Image::Samples => {
                            crate::sample_transfer::record_samples_upload(rec, *node, u)?
                        }
                    }
                }
            }
            PlanNodeKind::Readback { node } => {
                if let Some(Node::Readback(r)) = rec.frame.nodes.get(*node) {
                    match r.image {
                        Image::DepthStencil => {
                            crate::depth_transfer::record_depth_readback(rec, r)?
                        }
                        Image::Color => crate::transfer::record_readback(rec, r)?,
                        Image::Samples => return Err(samples_readback()),
                    }
                }
            }
            PlanNodeKind::GenerateMips { texture, layer } => {
                crate::transfer::record_mips(rec, texture.native(), *layer)?
            }
            PlanNodeKind::ClearImages { clears } => {
                for c in clears {
                    record_image_clear(rec, c)?;
                }
            }
            // Headless, the back buffer stays where readbacks find it; with a window, the
            // present is SDL's at submission, after the copy the backend adds (`window`).
            PlanNodeKind::Present { .. } => {}
            PlanNodeKind::BufferUpload { node, rename } => {
                if let Some(Node::BufferUpload(u)) = rec.frame.nodes.get(*node) {
                    crate::buffer::record_upload(rec, *node, u, *rename)?;
                }
            }
            PlanNodeKind::BufferReadback { node } => {
                if let Some(Node::BufferReadback(r)) = rec.frame.nodes.get(*node) {
                    crate::buffer::record_readback(rec, r)?;
                }
            }
        }
    }
    Ok(())
}

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
        crate::sprites::DrawState { bound_pipeline: std::ptr::null_mut(), vertices_bound: false };
    // Ops run in parts: a clear after the part has drawn something starts the next part.
    let mut part_ops: Vec<Vec<usize>> = vec![Vec::new()];
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
            Some(PassOp::Draw(_)) => part_ops.last_mut().expect("one part").push(op.index),
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
        for index in ops {
            if let Some(PassOp::Draw(d)) = segment.ops.get(index) {
                let writes = pass
                    .ops
                    .iter()
                    .find(|o| o.index == index)
                    .map(|o| o.writes)
                    .unwrap_or_default();
                result = if d.geometry.is_some() {
                    crate::geometry::draw(rec, rp, d, writes, &formats, extent).map(|bound| {
                        // The geometry draw bound its own pipeline and vertex streams.
                        if let Some(p) = bound {
                            state.bound_pipeline = p;
                            state.vertices_bound = false;
                        }
                    })
                } else {
                    crate::sprites::draw(rec, rp, d, writes, &formats, extent, &mut state)
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
        clear_texture(rec, texture, layer, 0, value, t.depth_format)?;
    }
    Ok(())
}

/// A render pass that only clears one subresource.
fn clear_texture(
    rec: &Recorder<'_>,
    texture: *mut SDL_GPUTexture,
    layer: u32,
    level: u32,
    value: ClearValue,
    depth_format: SDL_GPUTextureFormat,
) -> Result<(), BackendError> {
    let pass = match value {
        ClearValue::Color(c) => {
            let info = SDL_GPUColorTargetInfo {
                texture,
                mip_level: level,
                layer_or_depth_plane: layer,
                clear_color: fcolor(c),
                load_op: SDL_GPU_LOADOP_CLEAR,
                store_op: SDL_GPU_STOREOP_STORE,
                ..Default::default()
            };
            // SAFETY: recording outside any pass; the texture is live.
            unsafe { SDL_BeginGPURenderPass(rec.cmd, &info, 1, std::ptr::null()) }
        }
        ClearValue::DepthStencil { depth, stencil } => {
            let stencil_on = crate::format::has_stencil(depth_format);
            let info = SDL_GPUDepthStencilTargetInfo {
                texture,
                clear_depth: depth,
                load_op: SDL_GPU_LOADOP_CLEAR,
                store_op: SDL_GPU_STOREOP_STORE,
                stencil_load_op: if stencil_on {
                    SDL_GPU_LOADOP_CLEAR
                } else {
                    SDL_GPU_LOADOP_DONT_CARE
                },
                stencil_store_op: if stencil_on {
                    SDL_GPU_STOREOP_STORE
                } else {
                    SDL_GPU_STOREOP_DONT_CARE
                },
                clear_stencil: stencil as u8,
                ..Default::default()
            };
            // SAFETY: as above.
            unsafe { SDL_BeginGPURenderPass(rec.cmd, std::ptr::null(), 0, &info) }
        }
    };
    if pass.is_null() {
        return Err(BackendError::Native(crate::device::sdl_error("SDL_BeginGPURenderPass")));
    }
    // SAFETY: begun above.
    unsafe { SDL_EndGPURenderPass(pass) };
    Ok(())
}

fn record_image_clear(rec: &Recorder<'_>, c: &ImageClear) -> Result<(), BackendError> {
    let t = rec.textures.get(c.texture.native())?;
    let (texture, layer, _) = rec.image(c.texture.native(), t, c.image, c.layer)?;
    let level = if c.image == Image::Color { c.level } else { 0 };
    clear_texture(rec, texture, layer, level, c.value, t.depth_format)
}
