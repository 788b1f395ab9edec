//! One test per case of Khronos' synchronization examples that the plan can ask for, as
//! vk-sync-rs does: each lowers one transition through the access table and checks every field
//! of the resulting barrier (stages, access masks, layouts). Source access masks hold only
//! writes: a read has nothing to make available, so a write-after-read is an execution
//! dependency alone.

use ash::vk;
use xnagraph_graph::Access;

use super::{host_read_barrier, image_barrier};

use vk::AccessFlags2 as A;
use vk::ImageLayout as L;
use vk::PipelineStageFlags2 as S;

/// What one example expects of the barrier.
struct Expected {
    src_stage: S,
    src_access: A,
    dst_stage: S,
    dst_access: A,
    old_layout: L,
    new_layout: L,
}

#[track_caller]
fn check(src: Access, dst: Access, discard: bool, want: Expected) {
    let range = vk::ImageSubresourceRange::default().aspect_mask(vk::ImageAspectFlags::COLOR);
    let b = image_barrier(vk::Image::null(), range, src, dst, discard);
    assert_eq!(b.src_stage_mask, want.src_stage, "source stage");
    assert_eq!(b.src_access_mask, want.src_access, "source access");
    assert_eq!(b.dst_stage_mask, want.dst_stage, "destination stage");
    assert_eq!(b.dst_access_mask, want.dst_access, "destination access");
    assert_eq!(b.old_layout, want.old_layout, "old layout");
    assert_eq!(b.new_layout, want.new_layout, "new layout");
    assert_eq!(b.src_queue_family_index, vk::QUEUE_FAMILY_IGNORED);
    assert_eq!(b.dst_queue_family_index, vk::QUEUE_FAMILY_IGNORED);
}

const COLOR_OUT: S = S::COLOR_ATTACHMENT_OUTPUT;
const DEPTH_TESTS: S =
    S::from_raw(S::EARLY_FRAGMENT_TESTS.as_raw() | S::LATE_FRAGMENT_TESTS.as_raw());
const DEPTH_RW: A = A::from_raw(
    A::DEPTH_STENCIL_ATTACHMENT_READ.as_raw() | A::DEPTH_STENCIL_ATTACHMENT_WRITE.as_raw(),
);
const COLOR_RW: A =
    A::from_raw(A::COLOR_ATTACHMENT_READ.as_raw() | A::COLOR_ATTACHMENT_WRITE.as_raw());

/// "Render to an image, then sample it in a fragment shader."
#[test]
fn color_attachment_write_then_fragment_sampled_read() {
    check(
        Access::ColorAttachmentWrite,
        Access::FragmentSampled,
        false,
        Expected {
            src_stage: COLOR_OUT,
            src_access: A::COLOR_ATTACHMENT_WRITE,
            dst_stage: S::FRAGMENT_SHADER,
            dst_access: A::SHADER_SAMPLED_READ,
            old_layout: L::COLOR_ATTACHMENT_OPTIMAL,
            new_layout: L::SHADER_READ_ONLY_OPTIMAL,
        },
    );
}

/// "Upload data to an image (vkCmdCopyBufferToImage), then sample it in a fragment shader."
#[test]
fn transfer_write_then_fragment_sampled_read() {
    check(
        Access::TransferWrite,
        Access::FragmentSampled,
        false,
        Expected {
            src_stage: S::TRANSFER,
            src_access: A::TRANSFER_WRITE,
            dst_stage: S::FRAGMENT_SHADER,
            dst_access: A::SHADER_SAMPLED_READ,
            old_layout: L::TRANSFER_DST_OPTIMAL,
            new_layout: L::SHADER_READ_ONLY_OPTIMAL,
        },
    );
}

/// "Sample an image in a fragment shader, then render to it" (write-after-read): an execution
/// dependency only, with an empty source access mask.
#[test]
fn fragment_sampled_read_then_color_attachment_write() {
    check(
        Access::FragmentSampled,
        Access::ColorAttachmentWrite,
        false,
        Expected {
            src_stage: S::FRAGMENT_SHADER,
            src_access: A::NONE,
            dst_stage: COLOR_OUT,
            dst_access: A::COLOR_ATTACHMENT_WRITE,
            old_layout: L::SHADER_READ_ONLY_OPTIMAL,
            new_layout: L::COLOR_ATTACHMENT_OPTIMAL,
        },
    );
}

/// "Render to an image, then copy from it" (a readback after a pass).
#[test]
fn color_attachment_write_then_transfer_read() {
    check(
        Access::ColorAttachmentWrite,
        Access::TransferRead,
        false,
        Expected {
            src_stage: COLOR_OUT,
            src_access: A::COLOR_ATTACHMENT_WRITE,
            dst_stage: S::TRANSFER,
            dst_access: A::TRANSFER_READ,
            old_layout: L::COLOR_ATTACHMENT_OPTIMAL,
            new_layout: L::TRANSFER_SRC_OPTIMAL,
        },
    );
}

/// "Clear an image with vkCmdClearColorImage, then copy from it" (a readback after a clear-only
/// pass lowered to a transfer clear): ALL_TRANSFER (`TRANSFER`) covers the clear's write; COPY
/// alone would not (SYNC-HAZARD-WRITE-AFTER-WRITE on the clear).
#[test]
fn transfer_clear_then_transfer_read() {
    check(
        Access::TransferWrite,
        Access::TransferRead,
        false,
        Expected {
            src_stage: S::TRANSFER,
            src_access: A::TRANSFER_WRITE,
            dst_stage: S::TRANSFER,
            dst_access: A::TRANSFER_READ,
            old_layout: L::TRANSFER_DST_OPTIMAL,
            new_layout: L::TRANSFER_SRC_OPTIMAL,
        },
    );
}

/// "Copy from an image, then write it" (write-after-read with a layout change): execution
/// dependency only.
#[test]
fn transfer_read_then_transfer_write() {
    check(
        Access::TransferRead,
        Access::TransferWrite,
        false,
        Expected {
            src_stage: S::TRANSFER,
            src_access: A::NONE,
            dst_stage: S::TRANSFER,
            dst_access: A::TRANSFER_WRITE,
            old_layout: L::TRANSFER_SRC_OPTIMAL,
            new_layout: L::TRANSFER_DST_OPTIMAL,
        },
    );
}

/// "Render to an image in one pass, then load and render to it again" (write-after-write).
#[test]
fn color_attachment_write_then_loaded_attachment() {
    check(
        Access::ColorAttachmentWrite,
        Access::ColorAttachmentReadWrite,
        false,
        Expected {
            src_stage: COLOR_OUT,
            src_access: A::COLOR_ATTACHMENT_WRITE,
            dst_stage: COLOR_OUT,
            dst_access: COLOR_RW,
            old_layout: L::COLOR_ATTACHMENT_OPTIMAL,
            new_layout: L::COLOR_ATTACHMENT_OPTIMAL,
        },
    );
}

/// "Depth attachment written in one pass, then tested and written by the next."
#[test]
fn depth_attachment_then_depth_attachment() {
    check(
        Access::DepthStencilAttachmentReadWrite,
        Access::DepthStencilAttachmentReadWrite,
        false,
        Expected {
            src_stage: DEPTH_TESTS,
            src_access: A::DEPTH_STENCIL_ATTACHMENT_WRITE,
            dst_stage: DEPTH_TESTS,
            dst_access: DEPTH_RW,
            old_layout: L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
            new_layout: L::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
        },
    );
}

/// "First use of an image": nothing to wait for, content undefined.
#[test]
fn first_use_transitions_from_undefined() {
    check(
        Access::Nothing,
        Access::ColorAttachmentWrite,
        true,
        Expected {
            src_stage: S::NONE,
            src_access: A::NONE,
            dst_stage: COLOR_OUT,
            dst_access: A::COLOR_ATTACHMENT_WRITE,
            old_layout: L::UNDEFINED,
            new_layout: L::COLOR_ATTACHMENT_OPTIMAL,
        },
    );
}

/// "Discard the content of an image still being written": the transition from UNDEFINED is
/// itself a write and must wait for the earlier one (write-after-write).
#[test]
fn discarding_an_attachment_still_waits_for_its_write() {
    check(
        Access::ColorAttachmentWrite,
        Access::TransferWrite,
        true,
        Expected {
            src_stage: COLOR_OUT,
            src_access: A::COLOR_ATTACHMENT_WRITE,
            dst_stage: S::TRANSFER,
            dst_access: A::TRANSFER_WRITE,
            old_layout: L::UNDEFINED,
            new_layout: L::TRANSFER_DST_OPTIMAL,
        },
    );
}

/// "Mip cascade step": a blit wrote level i, the next blit reads it.
#[test]
fn blit_write_then_blit_read() {
    check(
        Access::TransferWrite,
        Access::TransferRead,
        false,
        Expected {
            src_stage: S::TRANSFER,
            src_access: A::TRANSFER_WRITE,
            dst_stage: S::TRANSFER,
            dst_access: A::TRANSFER_READ,
            old_layout: L::TRANSFER_DST_OPTIMAL,
            new_layout: L::TRANSFER_SRC_OPTIMAL,
        },
    );
}

/// "Present an image rendered to" (headless: handed over in the layout a copy to a surface
/// reads, with nothing made visible).
#[test]
fn color_attachment_write_then_present() {
    check(
        Access::ColorAttachmentWrite,
        Access::Present,
        false,
        Expected {
            src_stage: COLOR_OUT,
            src_access: A::COLOR_ATTACHMENT_WRITE,
            dst_stage: S::ALL_COMMANDS,
            dst_access: A::NONE,
            old_layout: L::COLOR_ATTACHMENT_OPTIMAL,
            new_layout: L::TRANSFER_SRC_OPTIMAL,
        },
    );
}

/// "Render to a presented image in the next frame": the presentation read needs no flush.
#[test]
fn present_then_color_attachment_write() {
    check(
        Access::Present,
        Access::ColorAttachmentWrite,
        false,
        Expected {
            src_stage: S::ALL_COMMANDS,
            src_access: A::NONE,
            dst_stage: COLOR_OUT,
            dst_access: A::COLOR_ATTACHMENT_WRITE,
            old_layout: L::TRANSFER_SRC_OPTIMAL,
            new_layout: L::COLOR_ATTACHMENT_OPTIMAL,
        },
    );
}

/// "Copy an image to a buffer, then read the buffer on the host" (after the fence).
#[test]
fn transfer_write_then_host_read() {
    let b = host_read_barrier(vk::Buffer::null());
    assert_eq!((b.src_stage_mask, b.src_access_mask), (S::TRANSFER, A::TRANSFER_WRITE));
    assert_eq!((b.dst_stage_mask, b.dst_access_mask), (S::HOST, A::HOST_READ));
    assert_eq!((b.offset, b.size), (0, vk::WHOLE_SIZE));
    assert_eq!(b.src_queue_family_index, vk::QUEUE_FAMILY_IGNORED);
    assert_eq!(b.dst_queue_family_index, vk::QUEUE_FAMILY_IGNORED);
}
