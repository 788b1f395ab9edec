//! One plan → one command buffer.
//!
//! [`measure`] walks a plan before anything is recorded and says how much vertex, uniform, staging
//! and descriptor space it needs (and rejects plans that name ops or sprites that do not exist).
//! [`record`] then lowers the nodes in order: each node's barriers as one batch, then the node
//! itself, handed to the module of its kind — a pass ([`crate::pass`]), an upload, readback, mip
//! cascade or image clears ([`crate::transfer`], which hands a capture plane to
//! [`crate::capture`]), a buffer upload or readback ([`crate::buffer`]), or a present (its
//! barrier, and for a copied frame the blit into the swapchain image, [`crate::present`]). Nothing
//! here lowers a node itself: around each it records only the node's barriers, its debug label
//! and, when GPU timing is on, its timestamps. The [`Recorder`] carries what every node kind needs
//! while recording.

use ash::vk;
use xnagraph_graph::{
    BackendError, FrameCommands, FramePlan, Image, Node, PassOp, PlanNodeKind, SpriteInstance,
    MAX_DRAW_TEXTURES,
};
use xnagraph_shaders::BASIC_INSTANCE_BYTES;

use crate::buffer::{self, BufferTable};
use crate::device::Gpu;
use crate::format::FormatTable;
use crate::frame::{HostBuffer, PendingReadback};
use crate::pipeline::Pipelines;
use crate::texture::TextureTable;
use crate::{debug_names, pass, present, sync, timestamps, transfer};

/// Staging offsets are aligned for any texel or block size.
pub(crate) const STAGING_ALIGN: u64 = 16;

/// What one plan needs from its frame slot.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Needs {
    pub vertex_bytes: u64,
    /// Draws (each at most one uniform set).
    pub draws: u32,
    /// Texture sets the draws may need: one per draw, or per texture of a draw of several that
    /// is split into runs.
    pub texture_sets: u32,
    /// Combined image sampler descriptors of those sets.
    pub samplers: u32,
    pub staging_bytes: u64,
    /// The plan draws geometry: the vertex buffer also holds the constant stream and the
    /// geometry arena ([`crate::pass::geometry::vertex_bytes`]).
    pub geometry: bool,
}

/// Whether a transfer of `image` moves the samples of a multisampled image (drawn, not copied).
fn moves_samples(texture: &xnagraph_graph::TextureState, image: Image) -> bool {
    let multisampled = texture.desc().render_target.is_some_and(|rt| rt.is_multisampled());
    image == Image::Samples || (image == Image::DepthStencil && multisampled)
}

fn plan_error(message: String) -> BackendError {
    BackendError::Native(format!("malformed plan: {message}"))
}

/// What `plan` needs; `indexing`: a draw of several textures is one draw of an array set
/// ([`crate::device::Gpu::texture_indexing`]), else one draw per run; `uniform_stride`: the
/// bytes of one uniform slot.
/// `sprites_in_place`: the frame's sprites are drawn from their own mapped arena
/// ([`crate::sprite_memory`]), so the slot's vertex buffer holds none of them.
pub(crate) fn measure(
    plan: &FramePlan,
    indexing: bool,
    uniform_stride: u64,
    sprites_in_place: bool,
) -> Result<Needs, BackendError> {
    let frame = &plan.frame;
    let copied = if sprites_in_place { 0 } else { frame.sprites.len() };
    let mut needs = Needs {
        vertex_bytes: (copied * std::mem::size_of::<SpriteInstance>()) as u64,
        ..Needs::default()
    };
    for node in &plan.nodes {
        match &node.kind {
            PlanNodeKind::Pass(p) => {
                let Some(Node::Pass(segment)) = frame.nodes.get(p.segment) else {
                    return Err(plan_error(format!("node {} is not a pass segment", p.segment)));
                };
                for op in &p.ops {
                    let i = op.index;
                    match segment.ops.get(i) {
                        Some(PassOp::Draw(_)) if op.draws() > 1 => {
                            // A merged run, or a draw with repeats: its instances from an
                            // instance boundary (less than one slot of padding before them, the
                            // last slot partly filled), the run's block in a slot of its own,
                            // and at most one texture set.
                            needs.geometry = true;
                            let instances = BASIC_INSTANCE_BYTES * u64::from(op.draws());
                            let slots = instances.div_ceil(uniform_stride) + 2;
                            needs.draws = u32::try_from(slots)
                                .ok()
                                .and_then(|s| needs.draws.checked_add(s))
                                .ok_or_else(|| plan_error("more uniform slots than 2^32".into()))?;
                            needs.texture_sets += 1;
                            needs.samplers += 2;
                        }
                        Some(PassOp::Draw(d)) if d.geometry.is_some() => {
                            needs.geometry = true;
                            match d.geometry.as_ref().and_then(|g| g.custom.as_deref()) {
                                Some(c) => {
                                    needs.draws +=
                                        crate::pipeline::custom::draw_units(c, uniform_stride)
                                }
                                None => {
                                    // A stock effect's block takes one uniform slot, read
                                    // through the frame's two dynamic uniform sets (a skinned
                                    // draw's bones the slots after it); at most one set of two
                                    // sampler bindings.
                                    needs.draws += 1;
                                    if d.geometry.as_ref().is_some_and(|g| !g.bones.is_empty()) {
                                        needs.draws +=
                                            crate::pass::geometry::bone_slots(uniform_stride);
                                    }
                                    needs.texture_sets += 1;
                                    needs.samplers += 2;
                                }
                            }
                        }
                        Some(PassOp::Draw(d)) => {
                            let end = u64::from(d.first_sprite) + u64::from(d.sprite_count);
                            if end > frame.sprites.len() as u64 {
                                return Err(plan_error(format!("draw reads sprites up to {end}")));
                            }
                            needs.draws += 1;
                            let textures = d.textures.len() as u32;
                            if textures > 1 && indexing {
                                needs.texture_sets += 1;
                                needs.samplers += MAX_DRAW_TEXTURES as u32;
                            } else {
                                needs.texture_sets += textures;
                                needs.samplers += textures;
                            }
                        }
                        Some(PassOp::Clear(_)) | Some(PassOp::Query(_)) => {}
                        None => return Err(plan_error(format!("pass op {i} does not exist"))),
                    }
                }
            }
            PlanNodeKind::Upload { node } => {
                let Some(Node::Upload(u)) = frame.nodes.get(*node) else {
                    return Err(plan_error(format!("node {node} is not an upload")));
                };
                needs.staging_bytes += (u.data.len() as u64).next_multiple_of(STAGING_ALIGN);
                // Sample planes are drawn into the samples from sampled private images (one per
                // aspect of a depth/stencil image).
                if moves_samples(&u.texture, u.image) {
                    needs.texture_sets += 2;
                    needs.samplers += 2;
                }
            }
            PlanNodeKind::Readback { node } => {
                let Some(Node::Readback(r)) = frame.nodes.get(*node) else {
                    return Err(plan_error(format!("node {node} is not a readback")));
                };
                // The samples are sampled (aspect by aspect) to draw their planes.
                if moves_samples(&r.texture, r.image) {
                    needs.texture_sets += 2;
                    needs.samplers += 2;
                }
            }
            PlanNodeKind::Present { node } => {
                if !matches!(frame.nodes.get(*node), Some(Node::Present(_))) {
                    return Err(plan_error(format!("node {node} is not a present")));
                }
            }
            PlanNodeKind::BufferUpload { node, .. } => {
                let Some(Node::BufferUpload(u)) = frame.nodes.get(*node) else {
                    return Err(plan_error(format!("node {node} is not a buffer upload")));
                };
                needs.staging_bytes += (u.data.len() as u64).next_multiple_of(STAGING_ALIGN);
            }
            PlanNodeKind::BufferReadback { node } => {
                if !matches!(frame.nodes.get(*node), Some(Node::BufferReadback(_))) {
                    return Err(plan_error(format!("node {node} is not a buffer readback")));
                }
            }
            PlanNodeKind::GenerateMips { .. } | PlanNodeKind::ClearImages { .. } => {}
        }
    }
    if needs.geometry {
        needs.vertex_bytes = crate::pass::geometry::vertex_bytes(
            needs.vertex_bytes,
            frame.geometry_bytes.len() as u64,
        );
    }
    Ok(needs)
}

/// Everything recording needs, borrowed from the backend for one submission.
pub(crate) struct Recorder<'a> {
    pub gpu: &'a Gpu,
    pub formats: &'a FormatTable,
    pub textures: &'a TextureTable,
    /// Vertex and index buffers: a rename switches a buffer's storage while recording.
    pub buffers: &'a mut BufferTable,
    /// The submission being recorded, and the last one known complete (renames reuse storage
    /// only from completed submissions).
    pub submission: xnagraph_graph::SubmissionId,
    pub completed: xnagraph_graph::SubmissionId,
    pub pipelines: &'a mut Pipelines,
    /// Occlusion queries' pools.
    pub queries: &'a crate::pass::queries::Queries,
    pub cmd: vk::CommandBuffer,
    pub frame: &'a FrameCommands,
    pub vertex_buffer: vk::Buffer,
    /// The buffer sprite draws read their instances from: the frame's mapped arena, or
    /// `vertex_buffer`, which then starts with a copy of them.
    pub sprite_buffer: vk::Buffer,
    /// Where the geometry draws' constant stream starts in `vertex_buffer` (the geometry arena
    /// follows it).
    pub geometry_offset: u64,
    pub uniforms: Option<&'a HostBuffer>,
    /// Bytes between two draws' transforms (a multiple of minUniformBufferOffsetAlignment).
    pub uniform_stride: u64,
    pub uniforms_used: u64,
    pub staging: Option<&'a HostBuffer>,
    pub staging_used: u64,
    pub descriptors: vk::DescriptorPool,
    /// The sets this frame's draws share (see [`crate::pass::draw_sets`]).
    pub draw_sets: &'a mut crate::pass::draw_sets::DrawSets,
    /// Readbacks recorded so far; the caller owns them after recording, success or not.
    pub readbacks: Vec<PendingReadback>,
    /// Private images of sample-plane transfers recorded so far; the caller retires them with
    /// the submission (or frees them when it is never made).
    pub scratch: Vec<crate::capture::samples::ScratchImage>,
    /// [`crate::VulkanConfig::poison_undefined`].
    pub poison_undefined: bool,
    /// The swapchain image this submission acquired: its barriers chain after the acquire wait.
    pub acquired_image: Option<vk::Image>,
    /// A copied frame's present: the swapchain image the back buffer is blitted into, and its
    /// size.
    pub present_copy: Option<(vk::Image, vk::Extent2D)>,
    /// The query pool the plan's nodes are timed with and the buffer their results are copied
    /// into, when GPU timing is on (see [`crate::timestamps`]).
    pub timestamps: Option<(vk::QueryPool, vk::Buffer)>,
}

impl Recorder<'_> {
    /// Writes `bytes` into the frame's staging buffer after what earlier uploads staged;
    /// returns the buffer and the offset they start at, for the copy out of it.
    pub fn stage(&mut self, bytes: &[u8]) -> Result<(vk::Buffer, u64), BackendError> {
        let staging = self
            .staging
            .ok_or_else(|| BackendError::Native("upload without staging space".into()))?;
        let at = self.staging_used;
        staging.write(self.gpu, at, bytes)?;
        self.staging_used += (bytes.len() as u64).next_multiple_of(STAGING_ALIGN);
        Ok((staging.buffer, at))
    }
}

pub(crate) fn record(rec: &mut Recorder<'_>, plan: &FramePlan) -> Result<(), BackendError> {
    if rec.gpu.debug_utils.is_some() {
        for texture in plan.textures() {
            if let Some(name) = texture.take_rename() {
                debug_names::name_texture(rec.gpu, rec.textures.get(texture.native())?, &name);
            }
        }
    }
    if let Some((pool, _)) = rec.timestamps {
        timestamps::record_reset(rec.gpu, rec.cmd, pool, plan.nodes.len());
    }
    for (index, node) in plan.nodes.iter().enumerate() {
        debug_names::begin_label(rec.gpu, rec.cmd, &plan.node_label(&node.kind));
        if let Some((pool, _)) = rec.timestamps {
            timestamps::record_stamp(rec.gpu, rec.cmd, pool, index, false);
        }
        sync::record_plan_barriers(
            &rec.gpu.device,
            rec.cmd,
            (rec.textures, rec.buffers),
            (&node.barriers, &node.buffer_barriers),
            rec.acquired_image,
        )?;
        match &node.kind {
            PlanNodeKind::Pass(p) => pass::record_pass(rec, p)?,
            PlanNodeKind::Upload { node } => {
                if let Some(Node::Upload(u)) = rec.frame.nodes.get(*node) {
                    transfer::record_upload(rec, u)?;
                }
            }
            PlanNodeKind::Readback { node } => {
                if let Some(Node::Readback(r)) = rec.frame.nodes.get(*node) {
                    transfer::record_readback(rec, r)?;
                }
            }
            PlanNodeKind::GenerateMips { texture, layer } => {
                transfer::record_mips(rec, texture.native(), *layer)?;
            }
            PlanNodeKind::ClearImages { clears } => transfer::record_clears(rec, clears)?,
            PlanNodeKind::BufferUpload { node, rename } => {
                if let Some(Node::BufferUpload(u)) = rec.frame.nodes.get(*node) {
                    buffer::record_upload(rec, u, *rename)?;
                }
            }
            PlanNodeKind::BufferReadback { node } => {
                if let Some(Node::BufferReadback(r)) = rec.frame.nodes.get(*node) {
                    buffer::record_readback(rec, r)?;
                }
            }
            // Headless, skipped, or drawn straight into the swapchain image: presenting is the
            // barrier the plan put before this node (the queue present follows the submission).
            PlanNodeKind::Present { node } => {
                if let (Some(Node::Present(t)), Some(into)) =
                    (rec.frame.nodes.get(*node), rec.present_copy)
                {
                    present::record_present_copy(rec, t.native(), into)?;
                }
            }
        }
        if let Some((pool, _)) = rec.timestamps {
            timestamps::record_stamp(rec.gpu, rec.cmd, pool, index, true);
        }
        debug_names::end_label(rec.gpu, rec.cmd);
    }
    if let Some(queries) = rec.timestamps {
        timestamps::record_copy(rec.gpu, rec.cmd, queries, plan.nodes.len());
    }
    Ok(())
}
