//! Deferred release: what the engine dropped waits in the retirement queue, tagged with the last
//! submission that used it, and is freed once that submission has completed.
//!
//! In: handles from the retire sink (textures, vertex and index buffers, effects, queries, told
//! apart by their [`HandleKind`]) and outgrown buffers. Out: native objects destroyed after their
//! last use. `mark_uses` records, at each submission, which textures it names, so a texture is
//! never freed while a submission in flight can use it.

use xnagraph_graph::{
    FramePlan, HandleKind, NativeHandle, Node, PassOp, PlanNodeKind, SubmissionId,
};

use crate::frame::HostBuffer;
use crate::VulkanBackend;

/// Something waiting for its last submission to complete before it is freed.
pub(crate) enum Retired {
    Texture(NativeHandle),
    Effect(NativeHandle),
    /// An occlusion query's pool.
    Query(NativeHandle),
    Buffer(HostBuffer),
    /// A vertex or index buffer the engine dropped, with its spares.
    Geometry(NativeHandle),
    /// A sample-plane transfer's private image (`crate::capture::samples`).
    Scratch(crate::capture::samples::ScratchImage),
    /// A multisample or depth/stencil image replaced when its memory moved, with its views
    /// (`crate::transient`).
    Image(crate::texture::ImageMemory, Vec<ash::vk::ImageView>),
    /// A transient heap replaced by a larger one (`crate::transient`).
    Heap(vk_mem::Allocation),
}

impl VulkanBackend {
    /// Queues every handle the engine dropped, tagged with its last use. The handle's kind says
    /// which table it belongs to, so a handle is never looked up among another kind's objects.
    pub(crate) fn retire_dropped(&mut self) {
        for handle in self.sink.drain() {
            match handle.kind() {
                Some(HandleKind::Texture) => {
                    if let Some(t) = self.textures.get_mut(handle) {
                        self.retired.retire(t.last_use, Retired::Texture(handle));
                        self.retired_textures += 1;
                    }
                }
                Some(HandleKind::Buffer) => {
                    if let Some(b) = self.buffers.get_mut(handle) {
                        self.retired.retire(b.last_use, Retired::Geometry(handle));
                        self.retired_geometry += 1;
                    }
                }
                Some(HandleKind::Query) if self.queries.contains(handle) => {
                    // As for an effect: the ops that held it are in submissions already made.
                    self.retired.retire(self.last_submitted, Retired::Query(handle));
                    self.retired_effects_and_queries += 1;
                }
                Some(HandleKind::Effect) if self.pipelines.is_effect(handle) => {
                    // Every submission that could draw with it has been made: the draws that
                    // held it are gone.
                    self.retired.retire(self.last_submitted, Retired::Effect(handle));
                    self.retired_effects_and_queries += 1;
                }
                _ => {}
            }
        }
    }

    /// Frees everything whose last use has completed.
    pub(crate) fn free_completed(&mut self) {
        let _span = tracing::debug_span!("retire", completed = self.completed.0).entered();
        xnagraph_graph::profile_scope!("retire");
        for object in self.retired.collect(self.completed) {
            self.free(object);
        }
        self.trim_pool();
    }

    pub(crate) fn free(&mut self, object: Retired) {
        match object {
            Retired::Texture(handle) => {
                self.retired_textures -= 1;
                if let Some(t) = self.textures.remove(handle) {
                    // Its last submission has completed.
                    self.pool_or_destroy(t);
                }
            }
            Retired::Query(handle) => {
                self.retired_effects_and_queries -= 1;
                // SAFETY: the last submission that could use it has completed.
                unsafe { self.queries.destroy(&self.gpu, handle) };
            }
            Retired::Effect(handle) => {
                self.retired_effects_and_queries -= 1;
                // SAFETY: the last submission that could use it has completed.
                unsafe { self.pipelines.destroy_effect(&self.gpu, handle) };
            }
            Retired::Geometry(handle) => {
                self.retired_geometry -= 1;
                // SAFETY: its last submission (and its spares', which are earlier) has completed.
                unsafe { self.buffers.destroy(&self.gpu, handle) };
            }
            Retired::Scratch(image) => {
                // SAFETY: the submission that used it has completed.
                unsafe { image.destroy(&self.gpu) };
            }
            Retired::Image(image, views) => {
                // SAFETY: the last submission that used them has completed.
                unsafe {
                    crate::texture::destroy_views(&self.gpu, &views);
                    crate::texture::destroy_image(&self.gpu, image);
                }
            }
            Retired::Heap(mut alloc) => {
                // SAFETY: every submission that used an image bound to it has completed; an
                // image still bound to it is moved before its next use.
                unsafe { self.gpu.allocator.free_memory(&mut alloc) };
            }
            Retired::Buffer(buffer) => {
                self.retired_buffers -= 1;
                // SAFETY: its last submission has completed.
                unsafe { buffer.destroy(&self.gpu) };
            }
        }
    }

    pub(crate) fn retire_buffer(&mut self, last_use: SubmissionId, buffer: HostBuffer) {
        self.retired.retire(last_use, Retired::Buffer(buffer));
        self.retired_buffers += 1;
    }

    /// Records the plan's texture uses against `id`.
    pub(crate) fn mark_uses(&mut self, plan: &FramePlan, id: SubmissionId) {
        let mut handles = Vec::new();
        for node in &plan.nodes {
            handles.extend(node.barriers.iter().map(|b| b.texture.native()));
            match &node.kind {
                PlanNodeKind::Pass(p) => {
                    handles.extend(p.colors.iter().chain(&p.depth).map(|a| a.texture.native()));
                }
                PlanNodeKind::GenerateMips { texture, .. } => handles.push(texture.native()),
                PlanNodeKind::ClearImages { clears } => {
                    handles.extend(clears.iter().map(|c| c.texture.native()));
                }
                _ => {}
            }
        }
        for node in &plan.frame.nodes {
            match node {
                Node::Pass(s) => {
                    handles.extend(s.colors.iter().map(|c| c.target.native()));
                    for op in &s.ops {
                        let PassOp::Draw(d) = op else { continue };
                        handles.extend(d.textures.iter().map(|t| t.native()));
                        if let Some(g) = &d.geometry {
                            handles.extend(g.vertex_reads().map(|(b, _)| b.native()));
                            handles.extend(g.index_read().map(|(b, _)| b.native()));
                        }
                    }
                }
                Node::Upload(u) => handles.push(u.texture.native()),
                Node::Readback(r) => handles.push(r.texture.native()),
                Node::Present(t) => handles.push(t.native()),
                Node::BufferUpload(u) => handles.push(u.buffer.native()),
                Node::BufferReadback(r) => handles.push(r.buffer.native()),
            }
        }
        for handle in handles {
            match handle.kind() {
                Some(HandleKind::Texture) => {
                    if let Some(t) = self.textures.get_mut(handle) {
                        t.last_use = id;
                    }
                }
                Some(HandleKind::Buffer) => {
                    if let Some(b) = self.buffers.get_mut(handle) {
                        b.last_use = id;
                    }
                }
                _ => {}
            }
        }
    }
}
