//! One plan → the frame's transfer and vertex buffers filled, one SDL command buffer recorded
//! through [`crate::record`] and submitted with a fence.
//!
//! Every upload's bytes and then the frame's vertex stream (sprites, the constant stream, the
//! geometry arena) are staged in one mapped transfer buffer and copied in one copy pass; the
//! plan's nodes follow in order. The submission's fence joins the fence table, and the handles
//! the engine dropped while the frame was recorded are released after it.

use std::borrow::Cow;

use sdl3_sys::gpu::*;
use xnagraph_graph::{BackendError, FramePlan, Node, PlanNodeKind, SubmissionId};

use crate::capture::depth as depth_transfer;
use crate::completion::FencePtr;
use crate::device::sdl_error;
use crate::pass::{geometry, sprites};
use crate::present::FramePresentation;
use crate::record::{PendingReadback, Recorder};
use crate::{present, record, SdlGpuBackend};

impl SdlGpuBackend {
    /// Makes `slot` at least `size` bytes (a new one replaces a smaller one; SDL releases the
    /// old one once the GPU is done with it).
    pub(crate) fn ensure_vertices(
        &mut self,
        size: u32,
    ) -> Result<*mut SDL_GPUBuffer, BackendError> {
        if let Some((b, s)) = self.vertices {
            if s >= size {
                return Ok(b);
            }
            // SAFETY: SDL defers the release past every submission using it.
            unsafe { SDL_ReleaseGPUBuffer(self.gpu.device, b) };
            self.gpu.diagnostics.object_destroyed();
            self.vertices = None;
        }
        let size = size.next_power_of_two().max(4096);
        let info = SDL_GPUBufferCreateInfo {
            // User indices of the geometry arena are read from it too.
            usage: SDL_GPU_BUFFERUSAGE_VERTEX | SDL_GPU_BUFFERUSAGE_INDEX,
            size,
            ..Default::default()
        };
        // SAFETY: a live device and a complete create info.
        let b = unsafe { SDL_CreateGPUBuffer(self.gpu.device, &info) };
        if b.is_null() {
            return Err(BackendError::OutOfMemory(sdl_error("SDL_CreateGPUBuffer")));
        }
        self.gpu.diagnostics.object_created();
        self.vertices = Some((b, size));
        Ok(b)
    }

    pub(crate) fn ensure_uploads(
        &mut self,
        size: u32,
    ) -> Result<*mut SDL_GPUTransferBuffer, BackendError> {
        if let Some((b, s)) = self.uploads {
            if s >= size {
                return Ok(b);
            }
            // SAFETY: as for the vertex buffer.
            unsafe { SDL_ReleaseGPUTransferBuffer(self.gpu.device, b) };
            self.gpu.diagnostics.object_destroyed();
            self.uploads = None;
        }
        let size = size.next_power_of_two().max(65536);
        let info = SDL_GPUTransferBufferCreateInfo {
            usage: SDL_GPU_TRANSFERBUFFERUSAGE_UPLOAD,
            size,
            ..Default::default()
        };
        // SAFETY: a live device and a complete create info.
        let b = unsafe { SDL_CreateGPUTransferBuffer(self.gpu.device, &info) };
        if b.is_null() {
            return Err(BackendError::OutOfMemory(sdl_error("SDL_CreateGPUTransferBuffer")));
        }
        self.gpu.diagnostics.object_created();
        self.uploads = Some((b, size));
        Ok(b)
    }

    /// Releases a submission's temporary textures once it is submitted or cancelled (SDL
    /// keeps their memory until the GPU is done with them).
    fn release_temporaries(&self, textures: Vec<*mut SDL_GPUTexture>) {
        for t in textures {
            // SAFETY: nothing recorded later names them.
            unsafe { SDL_ReleaseGPUTexture(self.gpu.device, t) };
            self.gpu.diagnostics.object_destroyed();
        }
    }

    /// Lowers and submits `plan` as submission `last_submitted + 1`, inside the `lower` and
    /// `queue_submit` spans the Vulkan backend opens (with the same `submission` field).
    pub(crate) fn record_and_submit(
        &mut self,
        plan: &FramePlan,
    ) -> Result<SubmissionId, BackendError> {
        let next = self.last_submitted.0 + 1;
        let lower = tracing::debug_span!("lower", submission = next).entered();
        let lower_scope = xnagraph_graph::profile_scope_guard!("lower");
        let sprites = sprites::sprite_bytes(&plan.frame);
        // Stage every upload's bytes, then the vertex stream, in one mapped transfer buffer.
        // (A depth/stencil upload stages its native bytes: `capture::depth::staged_bytes`.)
        let mut offsets = Vec::new();
        let mut staged = Vec::new();
        let mut total = 0u32;
        for node in &plan.nodes {
            let data = match (&node.kind, &plan.frame.nodes) {
                (PlanNodeKind::Upload { node }, nodes) => match nodes.get(*node) {
                    Some(Node::Upload(u)) => {
                        Some((*node, depth_transfer::staged_bytes(&self.textures, u)?))
                    }
                    _ => None,
                },
                (PlanNodeKind::BufferUpload { node, .. }, nodes) => match nodes.get(*node) {
                    Some(Node::BufferUpload(u)) => Some((*node, Cow::Borrowed(&u.data[..]))),
                    _ => None,
                },
                _ => None,
            };
            if let Some((node, data)) = data {
                offsets.push((node, total));
                total += (data.len() as u32).next_multiple_of(16);
                staged.push(data);
            }
        }
        let sprite_offset = total;
        let stream_len = geometry::vertex_stream_bytes(&plan.frame, sprites.len() as u32);
        let geometry_offset = geometry::defaults_offset(sprites.len() as u32);
        total += stream_len;
        let vertices = self.ensure_vertices(stream_len.max(1))?;
        let uploads = self.ensure_uploads(total.max(1))?;
        let device = self.gpu.device;
        // SAFETY: the transfer buffer is live; cycling gives it fresh memory if an earlier
        // submission still reads it. Every write stays within `total` bytes.
        unsafe {
            let p = SDL_MapGPUTransferBuffer(device, uploads, true).cast::<u8>();
            if p.is_null() {
                return Err(BackendError::Native(sdl_error("SDL_MapGPUTransferBuffer")));
            }
            for ((_, offset), data) in offsets.iter().zip(&staged) {
                std::ptr::copy_nonoverlapping(data.as_ptr(), p.add(*offset as usize), data.len());
            }
            std::ptr::copy_nonoverlapping(
                sprites.as_ptr(),
                p.add(sprite_offset as usize),
                sprites.len(),
            );
            if stream_len as usize > sprites.len() {
                let defaults: &[u8] = bytemuck::cast_slice(&geometry::DEFAULT_ATTRIBUTES);
                let at = p.add((sprite_offset + geometry_offset) as usize);
                std::ptr::copy_nonoverlapping(defaults.as_ptr(), at, defaults.len());
                let arena = &plan.frame.geometry_bytes;
                std::ptr::copy_nonoverlapping(arena.as_ptr(), at.add(defaults.len()), arena.len());
            }
            SDL_UnmapGPUTransferBuffer(device, uploads);
        }
        // SAFETY: a live device.
        let cmd = unsafe { SDL_AcquireGPUCommandBuffer(device) };
        if cmd.is_null() {
            return Err(BackendError::Native(sdl_error("SDL_AcquireGPUCommandBuffer")));
        }
        // The swapchain texture first: a failed acquisition leaves nothing recorded.
        let presentation = match self.presenter.as_mut().map(|p| p.begin(cmd, plan)) {
            Some(Err(e)) => {
                // SAFETY: recording outside any pass, and no swapchain texture acquired.
                unsafe { SDL_CancelGPUCommandBuffer(cmd) };
                return Err(e);
            }
            Some(Ok(p)) => p,
            None => FramePresentation::default(),
        };
        if stream_len > 0 {
            let source =
                SDL_GPUTransferBufferLocation { transfer_buffer: uploads, offset: sprite_offset };
            let destination = SDL_GPUBufferRegion { buffer: vertices, offset: 0, size: stream_len };
            // SAFETY: recording; the whole vertex stream is replaced, so it may cycle.
            unsafe {
                let copy = SDL_BeginGPUCopyPass(cmd);
                SDL_UploadToGPUBuffer(copy, &source, &destination, true);
                SDL_EndGPUCopyPass(copy);
            }
        }
        let submission = SubmissionId(self.last_submitted.0 + 1);
        let mut rec = Recorder {
            device,
            cmd,
            textures: &self.textures,
            buffers: &mut self.buffers,
            submission,
            completed: self.fences.completed(),
            pipelines: &mut self.pipelines,
            frame: &plan.frame,
            vertices,
            geometry_offset,
            uploads,
            upload_offsets: offsets,
            readbacks: Vec::new(),
            temporaries: Vec::new(),
            poison_undefined: self.poison_undefined,
            diagnostics: &self.gpu.diagnostics,
            swapchain: presentation
                .direct
                .zip(presentation.texture)
                .map(|((back_buffer, format), (texture, _, _))| (back_buffer, texture, format)),
        };
        let recorded = record::record(&mut rec, plan).and_then(|()| {
            let (Some(from), Some(to)) = (presentation.copy_from, presentation.texture) else {
                return Ok(());
            };
            let t = self.textures.get(from)?;
            present::blit(cmd, (t.color, t.desc.width, t.desc.height), to);
            Ok(())
        });
        let readbacks = std::mem::take(&mut rec.readbacks);
        let temporaries = std::mem::take(&mut rec.temporaries);
        let release_readbacks = |this: &Self, readbacks: Vec<PendingReadback>| {
            for r in readbacks {
                // SAFETY: never submitted.
                unsafe { SDL_ReleaseGPUTransferBuffer(this.gpu.device, r.buffer) };
                this.gpu.diagnostics.object_destroyed();
            }
        };
        if let Err(e) = recorded {
            if presentation.texture.is_some() {
                // SDL cannot cancel a command buffer holding a swapchain texture: what was
                // recorded runs, the texture is presented, and the error still stands.
                // SAFETY: a recording command buffer outside any pass.
                unsafe { SDL_SubmitGPUCommandBuffer(cmd) };
            } else {
                // SAFETY: the command buffer is recording and outside any pass.
                unsafe { SDL_CancelGPUCommandBuffer(cmd) };
            }
            release_readbacks(self, readbacks);
            self.release_temporaries(temporaries);
            return Err(e);
        }
        drop((lower_scope, lower));
        let submit = tracing::debug_span!("queue_submit", submission = next).entered();
        xnagraph_graph::profile_scope!("queue_submit");
        // Handles dropped before this submission: nothing recorded from now on names them.
        let dropped = self.sink.drain();
        // SAFETY: a recording command buffer outside any pass.
        let fence = unsafe { SDL_SubmitGPUCommandBufferAndAcquireFence(cmd) };
        drop(submit);
        self.release_temporaries(temporaries);
        if fence.is_null() {
            let e = BackendError::Native(sdl_error("SDL_SubmitGPUCommandBufferAndAcquireFence"));
            release_readbacks(self, readbacks);
            self.sink_back(dropped);
            return Err(e);
        }
        let id = SubmissionId(self.last_submitted.0 + 1);
        self.last_submitted = id;
        self.fences
            .table
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pending
            .push_back((id, FencePtr(fence)));
        self.pending_readbacks.extend(readbacks.into_iter().map(|r| (id, r)));
        self.release(dropped);
        if let Some(p) = &self.presenter {
            p.finish(&presentation);
        }
        Ok(id)
    }
}
