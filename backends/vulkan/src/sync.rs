//! The access table and barrier lowering.
//!
//! In: the plan's [`Barrier`]s (graph [`Access`] kinds per subresource range), plus the few
//! transitions the backend adds itself (per-level steps of a mip cascade, readback buffers made
//! visible to the host). Out: synchronization2 barriers. [`sync_point`] is the only place in the
//! crate that names a pipeline stage, access mask or image layout for an access; everything else
//! asks it. A node's plan barriers are recorded as one vkCmdPipelineBarrier2.

use ash::vk;
use xnagraph_graph::{Access, BackendError, Barrier, BufferBarrier, Image, TextureDesc};

use crate::buffer::BufferTable;
use crate::texture::TextureTable;

/// An access the table maps: one the plan names, or the host's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SyncAccess {
    /// A use the plan names.
    Plan(Access),
    /// The host reads a buffer after the fence (readbacks).
    HostRead,
}

/// Stage, access mask and image layout of one use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SyncPoint {
    pub stage: vk::PipelineStageFlags2,
    pub access: vk::AccessFlags2,
    pub layout: vk::ImageLayout,
}

/// The stage a submission's completion signal (its timeline value) waits for: all of it.
pub(crate) const SUBMISSION_COMPLETE: vk::PipelineStageFlags2 =
    vk::PipelineStageFlags2::ALL_COMMANDS;

/// The stage at which a submission waits for its swapchain image to be acquired: every use of
/// the image, whatever comes first (a pass, a transfer clear, a blit).
pub(crate) const ACQUIRE_WAIT: vk::PipelineStageFlags2 = vk::PipelineStageFlags2::ALL_COMMANDS;

/// The stage at which a submission signals that a swapchain image may be presented.
pub(crate) const RENDER_FINISHED: vk::PipelineStageFlags2 = vk::PipelineStageFlags2::ALL_COMMANDS;

/// The stage a plan node's timestamps are written at, before its barriers and after its work:
/// once every earlier command has completed, so a node's begin is never before the previous
/// node's end and its end covers all its work.
pub(crate) const NODE_TIMESTAMP: vk::PipelineStageFlags2 = vk::PipelineStageFlags2::ALL_COMMANDS;

/// The stage held submissions wait at for their hold's release (see [`crate::GpuHold`]):
/// before anything.
pub(crate) const HELD: vk::PipelineStageFlags2 = vk::PipelineStageFlags2::ALL_COMMANDS;

/// A barrier on a swapchain image just acquired must come after the acquire semaphore's wait:
/// its source stage takes in the wait's stage, so the two chain (a transition from `Nothing`
/// has no source stage of its own, as in Khronos' swapchain acquire example).
pub(crate) fn after_acquire(barrier: &mut vk::ImageMemoryBarrier2<'_>) {
    barrier.src_stage_mask |= ACQUIRE_WAIT;
}

/// The table: each use maps to exactly one (stage, access, layout).
pub(crate) fn sync_point(kind: SyncAccess) -> SyncPoint {
    use vk::AccessFlags2 as A;
    use vk::ImageLayout as L;
    use vk::PipelineStageFlags2 as S;
    let (stage, access, layout) = match kind {
        SyncAccess::Plan(Access::Nothing) => (S::NONE, A::NONE, L::UNDEFINED),
        // Memory another transient image may have used (`crate::transient`): whatever that
        // image did, as an attachment, sampled by a capture or by a transfer, is waited for and
        // its writes made available; the content is not kept.
        SyncAccess::Plan(Access::Aliased) => (
            S::COLOR_ATTACHMENT_OUTPUT
                | S::EARLY_FRAGMENT_TESTS
                | S::LATE_FRAGMENT_TESTS
                | S::FRAGMENT_SHADER
                | S::TRANSFER,
            A::COLOR_ATTACHMENT_WRITE | A::DEPTH_STENCIL_ATTACHMENT_WRITE | A::TRANSFER_WRITE,
            L::UNDEFINED,
        ),
        SyncAccess::Plan(Access::ColorAttachmentWrite) => {
            (S::COLOR_ATTACHMENT_OUTPUT, A::COLOR_ATTACHMENT_WRITE, L::COLOR_ATTACHMENT_OPTIMAL)
        }
        SyncAccess::Plan(Access::ColorAttachmentReadWrite) => (
            S::COLOR_ATTACHMENT_OUTPUT,
            A::COLOR_ATTACHMENT_READ | A::COLOR_ATTACHMENT_WRITE,
            L::COLOR_ATTACHMENT_OPTIMAL,
        ),
        SyncAccess::Plan(Access::DepthStencilAttachmentReadWrite) => (
            S::EARLY_FRAGMENT_TESTS | S::LATE_FRAGMENT_TESTS,
            A::DEPTH_STENCIL_ATTACHMENT_READ | A::DEPTH_STENCIL_ATTACHMENT_WRITE,
            L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
        ),
        SyncAccess::Plan(Access::FragmentSampled) => {
            (S::FRAGMENT_SHADER, A::SHADER_SAMPLED_READ, L::SHADER_READ_ONLY_OPTIMAL)
        }
        SyncAccess::Plan(Access::VertexSampled) => (
            S::VERTEX_SHADER | S::FRAGMENT_SHADER,
            A::SHADER_SAMPLED_READ,
            L::SHADER_READ_ONLY_OPTIMAL,
        ),
        // Buffers have no layout: these two never name an image.
        SyncAccess::Plan(Access::VertexInput) => {
            (S::VERTEX_ATTRIBUTE_INPUT, A::VERTEX_ATTRIBUTE_READ, L::UNDEFINED)
        }
        SyncAccess::Plan(Access::IndexRead) => (S::INDEX_INPUT, A::INDEX_READ, L::UNDEFINED),
        SyncAccess::Plan(Access::TransferRead) => {
            (S::TRANSFER, A::TRANSFER_READ, L::TRANSFER_SRC_OPTIMAL)
        }
        SyncAccess::Plan(Access::TransferWrite) => {
            (S::TRANSFER, A::TRANSFER_WRITE, L::TRANSFER_DST_OPTIMAL)
        }
        // Headless: there is no swapchain, so "presented" is a layout any later use can leave
        // without a queue-ownership dance. TRANSFER_SRC_OPTIMAL is what a copy to a window
        // surface (or a screenshot) would read; ALL_COMMANDS keeps the next frame's transition
        // chained after this one, and no access is made visible because nothing reads it here.
        SyncAccess::Plan(Access::Present) => (S::ALL_COMMANDS, A::NONE, L::TRANSFER_SRC_OPTIMAL),
        // A swapchain image handed to the presentation engine: the present waits on a semaphore
        // the submission signals once all its commands (this transition included) are done.
        SyncAccess::Plan(Access::PresentSwapchain) => {
            (S::ALL_COMMANDS, A::NONE, L::PRESENT_SRC_KHR)
        }
        SyncAccess::HostRead => (S::HOST, A::HOST_READ, L::UNDEFINED),
    };
    SyncPoint { stage, access, layout }
}

/// The write accesses among `access`: the only ones a barrier's source scope needs to make
/// available. A read has nothing to flush, so a write-after-read barrier is an execution
/// dependency alone (an empty source access mask, as in Khronos' synchronization examples).
fn writes(access: vk::AccessFlags2) -> vk::AccessFlags2 {
    use vk::AccessFlags2 as A;
    // Every write the table above can name; a new written access there belongs here too.
    access & (A::COLOR_ATTACHMENT_WRITE | A::DEPTH_STENCIL_ATTACHMENT_WRITE | A::TRANSFER_WRITE)
}

/// The layout an image is in while used as `access`.
pub(crate) fn layout(access: Access) -> vk::ImageLayout {
    sync_point(SyncAccess::Plan(access)).layout
}

/// One image transition from `src` to `dst` over a subresource range.
pub(crate) fn image_barrier(
    image: vk::Image,
    range: vk::ImageSubresourceRange,
    src: Access,
    dst: Access,
    discard: bool,
) -> vk::ImageMemoryBarrier2<'static> {
    let from = sync_point(SyncAccess::Plan(src));
    let to = sync_point(SyncAccess::Plan(dst));
    let old_layout = if discard { vk::ImageLayout::UNDEFINED } else { from.layout };
    vk::ImageMemoryBarrier2::default()
        .src_stage_mask(from.stage)
        .src_access_mask(writes(from.access))
        .dst_stage_mask(to.stage)
        .dst_access_mask(to.access)
        .old_layout(old_layout)
        .new_layout(to.layout)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .image(image)
        .subresource_range(range)
}

/// Makes a transfer's writes to `buffer` visible to the host after the fence.
pub(crate) fn host_read_barrier(buffer: vk::Buffer) -> vk::BufferMemoryBarrier2<'static> {
    let from = sync_point(SyncAccess::Plan(Access::TransferWrite));
    let to = sync_point(SyncAccess::HostRead);
    vk::BufferMemoryBarrier2::default()
        .src_stage_mask(from.stage)
        .src_access_mask(writes(from.access))
        .dst_stage_mask(to.stage)
        .dst_access_mask(to.access)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .buffer(buffer)
        .offset(0)
        .size(vk::WHOLE_SIZE)
}

/// Records image barriers as one vkCmdPipelineBarrier2 (nothing when the list is empty).
pub(crate) fn record_image_barriers(
    device: &ash::Device,
    cmd: vk::CommandBuffer,
    barriers: &[vk::ImageMemoryBarrier2<'_>],
) {
    if barriers.is_empty() {
        return;
    }
    let dependency = vk::DependencyInfo::default().image_memory_barriers(barriers);
    // SAFETY: `cmd` is recording, and every barrier names a live image of this device.
    unsafe { device.cmd_pipeline_barrier2(cmd, &dependency) };
}

/// One plan buffer barrier over `buffer`'s storage: the earlier use's stage and writes, then the
/// node's use. Buffers have no layouts.
pub(crate) fn buffer_barrier(
    buffer: vk::Buffer,
    b: &BufferBarrier,
) -> vk::BufferMemoryBarrier2<'static> {
    let from = sync_point(SyncAccess::Plan(b.src));
    let to = sync_point(SyncAccess::Plan(b.dst));
    vk::BufferMemoryBarrier2::default()
        .src_stage_mask(from.stage)
        .src_access_mask(writes(from.access))
        .dst_stage_mask(to.stage)
        .dst_access_mask(to.access)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .buffer(buffer)
        .offset(b.range.start)
        .size(b.range.end - b.range.start)
}

/// Lowers a node's plan barriers, image and buffer, to one batch.
pub(crate) fn record_plan_barriers(
    device: &ash::Device,
    cmd: vk::CommandBuffer,
    (textures, buffers): (&TextureTable, &BufferTable),
    (barriers, buffer_barriers): (&[Barrier], &[BufferBarrier]),
    acquired: Option<vk::Image>,
) -> Result<(), BackendError> {
    let mut lowered_buffers = Vec::with_capacity(buffer_barriers.len());
    for b in buffer_barriers {
        let storage = buffers.get(b.buffer.native())?.current.buffer;
        lowered_buffers.push(buffer_barrier(storage, b));
    }
    let mut lowered = Vec::with_capacity(barriers.len());
    for b in barriers {
        let texture = textures.get(b.texture.native())?;
        let missing =
            || BackendError::Native(format!("barrier names a missing {:?} image", b.image));
        let planned = plan_barrier(b, vk::Image::null(), texture.aspect(b.image), &texture.desc)?;
        if b.image == Image::Color {
            let (image, _) = texture.image(b.image, 0).ok_or_else(missing)?;
            lowered.push(vk::ImageMemoryBarrier2 { image, ..planned });
            continue;
        }
        // Each layer of the samples is an image of its own, and the depth image's one layer
        // serves every face: one barrier per layer, each on its image's layer.
        for layer in b.layers.clone() {
            let (image, base) = texture.image(b.image, layer).ok_or_else(missing)?;
            let mut range = planned.subresource_range;
            range.base_array_layer = base;
            range.layer_count = 1;
            lowered.push(vk::ImageMemoryBarrier2 { image, subresource_range: range, ..planned });
        }
    }
    for b in lowered.iter_mut().filter(|b| Some(b.image) == acquired) {
        after_acquire(b);
    }
    if lowered.is_empty() && lowered_buffers.is_empty() {
        return Ok(());
    }
    let dependency = vk::DependencyInfo::default()
        .image_memory_barriers(&lowered)
        .buffer_memory_barriers(&lowered_buffers);
    // SAFETY: `cmd` is recording, and every barrier names a live image or buffer of this device.
    unsafe { device.cmd_pipeline_barrier2(cmd, &dependency) };
    Ok(())
}

/// One plan barrier of `image` (of a texture described by `desc`, with `aspect`) as a
/// synchronization2 barrier. Its range must be non-empty and lie inside the image: every level
/// and layer for `Color`, level 0 of every layer for the attachment-only images. A transition
/// from `Nothing` discards, like one the plan marks `discard`.
fn plan_barrier(
    b: &Barrier,
    image: vk::Image,
    aspect: vk::ImageAspectFlags,
    desc: &TextureDesc,
) -> Result<vk::ImageMemoryBarrier2<'static>, BackendError> {
    let levels_max = if b.image == Image::Color { desc.mip_levels } else { 1 };
    if b.levels.start >= b.levels.end
        || b.levels.end > levels_max
        || b.layers.start >= b.layers.end
        || b.layers.end > desc.layers
    {
        return Err(BackendError::Native(format!(
            "barrier range levels {:?} layers {:?} outside the image",
            b.levels, b.layers
        )));
    }
    let range = vk::ImageSubresourceRange {
        aspect_mask: aspect,
        base_mip_level: b.levels.start,
        level_count: b.levels.end - b.levels.start,
        base_array_layer: b.layers.start,
        layer_count: b.layers.end - b.layers.start,
    };
    // Whether the old content may be discarded is the plan's decision.
    Ok(image_barrier(image, range, b.src, b.dst, b.discard))
}

#[cfg(test)]
mod khronos;

#[cfg(test)]
mod tests {
    use super::*;
    use xnagraph_graph::{NativeHandle, RetireSink, SurfaceFormat, TextureState};

    /// A plan barrier of a 4-level, 6-layer texture.
    fn cube_barrier(
        image: Image,
        levels: std::ops::Range<u32>,
        layers: std::ops::Range<u32>,
        src: Access,
        discard: bool,
    ) -> (Barrier, TextureDesc) {
        let mut desc = TextureDesc::texture_2d(8, 8, 4, SurfaceFormat::Color);
        desc.layers = 6;
        let texture = TextureState::new(desc, NativeHandle(1), RetireSink::default());
        let dst = Access::TransferWrite;
        (Barrier { texture, image, levels, layers, src, dst, discard }, desc)
    }

    fn lower(b: (Barrier, TextureDesc)) -> Result<vk::ImageMemoryBarrier2<'static>, BackendError> {
        plan_barrier(&b.0, vk::Image::null(), vk::ImageAspectFlags::COLOR, &b.1)
    }

    #[test]
    fn a_barrier_on_an_acquired_swapchain_image_chains_after_the_acquire_wait() {
        let range = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            level_count: 1,
            layer_count: 1,
            ..Default::default()
        };
        let image = vk::Image::null();
        let mut first =
            image_barrier(image, range, Access::Nothing, Access::ColorAttachmentWrite, true);
        assert_eq!(first.src_stage_mask, vk::PipelineStageFlags2::NONE, "no stage of its own");
        after_acquire(&mut first);
        assert!(first.src_stage_mask.contains(ACQUIRE_WAIT), "it must chain after the wait");
        assert_eq!(first.old_layout, vk::ImageLayout::UNDEFINED);
        let present = sync_point(SyncAccess::Plan(Access::PresentSwapchain));
        assert_eq!(present.layout, vk::ImageLayout::PRESENT_SRC_KHR);
        assert!(RENDER_FINISHED.contains(present.stage), "the present waits for the transition");
    }

    #[test]
    fn an_aliased_first_use_waits_for_every_access_a_transient_image_can_make() {
        // What a multisample or depth/stencil image can be used as (`crate::transient`): an
        // attachment, sampled by a capture's snapshot, a transfer's source or destination.
        let uses = [
            Access::ColorAttachmentWrite,
            Access::ColorAttachmentReadWrite,
            Access::DepthStencilAttachmentReadWrite,
            Access::FragmentSampled,
            Access::TransferRead,
            Access::TransferWrite,
        ];
        let range = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            level_count: 1,
            layer_count: 1,
            ..Default::default()
        };
        let b =
            image_barrier(vk::Image::null(), range, Access::Aliased, Access::TransferWrite, true);
        assert_eq!(b.old_layout, vk::ImageLayout::UNDEFINED, "the content is not kept");
        for used in uses {
            let point = sync_point(SyncAccess::Plan(used));
            assert!(b.src_stage_mask.contains(point.stage), "{used:?}'s stages are waited for");
            assert!(b.src_access_mask.contains(writes(point.access)), "{used:?}'s writes");
        }
    }

    #[test]
    fn plan_barrier_ranges_become_subresource_ranges() {
        let b = lower(cube_barrier(Image::Color, 1..4, 2..5, Access::TransferRead, false)).unwrap();
        let r = b.subresource_range;
        assert_eq!((r.base_mip_level, r.level_count), (1, 3));
        assert_eq!((r.base_array_layer, r.layer_count), (2, 3));
        assert_eq!(r.aspect_mask, vk::ImageAspectFlags::COLOR);
        let whole = lower(cube_barrier(Image::Color, 0..4, 0..6, Access::TransferRead, false));
        assert!(whole.is_ok(), "the whole image is inside it");
    }

    #[test]
    #[allow(clippy::reversed_empty_ranges)] // reversed ranges are among the malformed inputs
    fn plan_barriers_outside_the_image_are_errors() {
        use Image::*;
        let outside = [
            (Color, 2..2, 0..1),
            (Color, 3..2, 0..1),
            (Color, 0..5, 0..1),
            (Color, 0..1, 1..1),
            (Color, 0..1, 4..3),
            (Color, 0..1, 0..7),
            (DepthStencil, 0..2, 0..1),
            (Samples, 1..2, 0..1),
        ];
        for (image, levels, layers) in outside {
            let b =
                cube_barrier(image, levels.clone(), layers.clone(), Access::TransferRead, false);
            assert!(lower(b).is_err(), "{image:?} levels {levels:?} layers {layers:?}");
        }
        let attachment = cube_barrier(DepthStencil, 0..1, 5..6, Access::TransferRead, false);
        assert!(lower(attachment).is_ok(), "level 0 of the last layer");
    }

    #[test]
    fn plan_barriers_discard_when_marked_or_from_nothing() {
        let old = |src, discard| {
            lower(cube_barrier(Image::Color, 0..1, 0..1, src, discard)).unwrap().old_layout
        };
        assert_eq!(old(Access::TransferRead, false), vk::ImageLayout::TRANSFER_SRC_OPTIMAL);
        assert_eq!(old(Access::TransferRead, true), vk::ImageLayout::UNDEFINED);
        assert_eq!(old(Access::Nothing, false), vk::ImageLayout::UNDEFINED);
    }

    #[test]
    fn discarding_barrier_transitions_from_undefined() {
        let range = vk::ImageSubresourceRange::default().aspect_mask(vk::ImageAspectFlags::COLOR);
        let b = image_barrier(
            vk::Image::null(),
            range,
            Access::FragmentSampled,
            Access::ColorAttachmentWrite,
            true,
        );
        assert_eq!(b.old_layout, vk::ImageLayout::UNDEFINED);
        assert_eq!(b.new_layout, vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL);
        assert_eq!(b.src_stage_mask, vk::PipelineStageFlags2::FRAGMENT_SHADER);
    }

    #[test]
    fn sampled_after_attachment_write_waits_for_colour_output() {
        let range = vk::ImageSubresourceRange::default().aspect_mask(vk::ImageAspectFlags::COLOR);
        let b = image_barrier(
            vk::Image::null(),
            range,
            Access::ColorAttachmentWrite,
            Access::FragmentSampled,
            false,
        );
        assert_eq!(b.src_access_mask, vk::AccessFlags2::COLOR_ATTACHMENT_WRITE);
        assert_eq!(b.dst_access_mask, vk::AccessFlags2::SHADER_SAMPLED_READ);
        assert_eq!(b.old_layout, vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL);
        assert_eq!(b.new_layout, vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL);
    }

    #[test]
    fn transfer_write_covers_copies_blits_and_clears() {
        let stage = sync_point(SyncAccess::Plan(Access::TransferWrite)).stage;
        let transfers = vk::PipelineStageFlags2::COPY
            | vk::PipelineStageFlags2::BLIT
            | vk::PipelineStageFlags2::CLEAR;
        assert!(
            stage.contains(transfers) || stage == vk::PipelineStageFlags2::ALL_TRANSFER,
            "{stage:?}"
        );
    }

    #[test]
    fn every_plan_access_has_a_distinct_meaning() {
        let all = [
            Access::Nothing,
            Access::ColorAttachmentWrite,
            Access::ColorAttachmentReadWrite,
            Access::DepthStencilAttachmentReadWrite,
            Access::FragmentSampled,
            Access::TransferRead,
            Access::TransferWrite,
            Access::Present,
            Access::VertexInput,
            Access::IndexRead,
        ];
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(
                    sync_point(SyncAccess::Plan(*a)),
                    sync_point(SyncAccess::Plan(*b)),
                    "{a:?} {b:?}"
                );
            }
        }
    }
}
