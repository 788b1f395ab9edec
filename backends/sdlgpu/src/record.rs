//! One plan → one SDL command buffer.
//!
//! [`record`] lowers the nodes in order, each handed to the module of its kind: a pass
//! ([`crate::pass`]), an upload, readback, mip cascade or image clears ([`crate::transfer`],
//! which hands a capture plane to [`crate::capture`]), a buffer upload or readback
//! ([`crate::buffer`]); a present records nothing here (SDL presents at submission, after the
//! copy [`crate::present`] adds). The nodes' barriers are ignored: SDL_gpu tracks every
//! texture's state itself. Nothing here lowers a node itself. The [`Recorder`] carries what
//! every node kind needs while recording.

use sdl3_sys::gpu::*;
use xnagraph_graph::{
    BackendError, FrameCommands, FramePlan, Image, NativeHandle, Node, PlanNodeKind,
};

use crate::buffer::{self, BufferTable};
use crate::pipeline::Pipelines;
use crate::texture::TextureTable;
use crate::{pass, transfer};

fn malformed(message: &str) -> BackendError {
    BackendError::Native(format!("malformed plan: {message}"))
}

/// A readback recorded into a download buffer, read once its submission's fence signals.
pub(crate) struct PendingReadback {
    pub id: xnagraph_graph::ReadbackId,
    pub buffer: *mut SDL_GPUTransferBuffer,
    pub len: u32,
    /// A depth readback: how its bytes become the neutral encoding when they are taken.
    pub depth: Option<crate::capture::depth::Decode>,
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
    pub fn image(
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

pub(crate) fn record(rec: &mut Recorder<'_>, plan: &FramePlan) -> Result<(), BackendError> {
    for node in &plan.nodes {
        match &node.kind {
            PlanNodeKind::Pass(p) => pass::record_pass(rec, p)?,
            PlanNodeKind::Upload { node } => {
                if let Some(Node::Upload(u)) = rec.frame.nodes.get(*node) {
                    transfer::record_upload(rec, *node, u)?;
                }
            }
            PlanNodeKind::Readback { node } => {
                if let Some(Node::Readback(r)) = rec.frame.nodes.get(*node) {
                    transfer::record_readback(rec, r)?;
                }
            }
            PlanNodeKind::GenerateMips { texture, layer } => {
                transfer::record_mips(rec, texture.native(), *layer)?
            }
            PlanNodeKind::ClearImages { clears } => transfer::record_clears(rec, clears)?,
            PlanNodeKind::BufferUpload { node, rename } => {
                if let Some(Node::BufferUpload(u)) = rec.frame.nodes.get(*node) {
                    buffer::record_upload(rec, *node, u, *rename)?;
                }
            }
            PlanNodeKind::BufferReadback { node } => {
                if let Some(Node::BufferReadback(r)) = rec.frame.nodes.get(*node) {
                    buffer::record_readback(rec, r)?;
                }
            }
            // Headless, the back buffer stays where readbacks find it; with a window, the
            // present is SDL's at submission, after the copy the backend adds (`present`).
            PlanNodeKind::Present { .. } => {}
        }
    }
    Ok(())
}
