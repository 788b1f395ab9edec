//! The baseline for the clear-and-present benchmark: a minimal hand-written ash program that
//! clears one offscreen colour image per frame and submits it, with as many frames in flight as
//! the engine keeps: each frame has its own command buffer and fence, and a frame waits only for
//! the fence of the frame that used its slot before. No engine, no render graph, no validation:
//! the least work a Vulkan program can do for the same frames.

use std::time::{Duration, Instant};

use ash::vk;

use crate::ash_device::{color_range, err, AshDevice, AshImage};

/// How the hand-written loop clears its image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClearMethod {
    /// `vkCmdClearColorImage` in TRANSFER_DST layout.
    Transfer,
    /// A dynamic-rendering pass with a CLEAR load op and a STORE store op, no draws.
    RenderPass,
}

/// A device, one image and one command buffer, ready to loop.
pub struct AshClearLoop {
    method: ClearMethod,
    width: u32,
    height: u32,
    pool: vk::CommandPool,
    /// One command buffer and fence per frame in flight, used round-robin.
    cmds: Vec<vk::CommandBuffer>,
    fences: Vec<vk::Fence>,
    next: usize,
    image: AshImage,
    /// The adapter's name.
    pub adapter: String,
    /// Dropped after this loop's own objects (fields drop after `Drop::drop`).
    dev: AshDevice,
}

impl AshClearLoop {
    /// Sets up on the first adapter with a graphics queue, preferring a discrete GPU, with
    /// `frames_in_flight` (at least 1) frames in flight.
    pub fn new(
        width: u32,
        height: u32,
        method: ClearMethod,
        frames_in_flight: usize,
    ) -> Result<Self, String> {
        let frames_in_flight = frames_in_flight.max(1);
        let dev = AshDevice::new(false)?;
        let image = dev.image(
            (width, height),
            vk::Format::R8G8B8A8_UNORM,
            vk::SampleCountFlags::TYPE_1,
            vk::ImageUsageFlags::TRANSFER_DST
                | vk::ImageUsageFlags::TRANSFER_SRC
                | vk::ImageUsageFlags::COLOR_ATTACHMENT,
        )?;
        let device = &dev.device;
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(dev.family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: valid device.
        let pool =
            unsafe { device.create_command_pool(&pool_info, None) }.map_err(|r| err("pool", r))?;
        let cmd_info = vk::CommandBufferAllocateInfo::default()
            .command_pool(pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(frames_in_flight as u32);
        // SAFETY: the pool belongs to this device.
        let cmds = unsafe { device.allocate_command_buffers(&cmd_info) }
            .map_err(|r| err("command buffer", r))?;
        // Signalled: the first wait on each slot returns at once.
        let fence_info = vk::FenceCreateInfo::default().flags(vk::FenceCreateFlags::SIGNALED);
        let fences = (0..frames_in_flight)
            // SAFETY: valid device.
            .map(|_| unsafe { device.create_fence(&fence_info, None) })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|r| err("fence", r))?;
        let adapter = dev.adapter.clone();
        Ok(AshClearLoop { method, width, height, pool, cmds, fences, next: 0, image, adapter, dev })
    }

    /// One frame: wait for the fence of the frame that last used this slot, clear the image,
    /// submit with the slot's fence.
    pub fn frame(&mut self, color: [f32; 4]) -> Result<(), String> {
        let d = &self.dev.device;
        let (cmd, fence) = (self.cmds[self.next], self.fences[self.next]);
        self.next = (self.next + 1) % self.cmds.len();
        let range = color_range();
        let (stage, access, layout) = match self.method {
            ClearMethod::Transfer => (
                vk::PipelineStageFlags2::CLEAR,
                vk::AccessFlags2::TRANSFER_WRITE,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            ),
            ClearMethod::RenderPass => (
                vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT,
                vk::AccessFlags2::COLOR_ATTACHMENT_WRITE,
                vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            ),
        };
        let to_dst = [vk::ImageMemoryBarrier2::default()
            .src_stage_mask(vk::PipelineStageFlags2::TRANSFER)
            .src_access_mask(vk::AccessFlags2::TRANSFER_READ)
            .dst_stage_mask(stage)
            .dst_access_mask(access)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(layout)
            .image(self.image.image)
            .subresource_range(range)];
        let to_src = [vk::ImageMemoryBarrier2::default()
            .src_stage_mask(stage)
            .src_access_mask(access)
            .dst_stage_mask(vk::PipelineStageFlags2::TRANSFER)
            .dst_access_mask(vk::AccessFlags2::TRANSFER_READ)
            .old_layout(layout)
            .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
            .image(self.image.image)
            .subresource_range(range)];
        let clear = vk::ClearColorValue { float32: color };
        let attachment = [vk::RenderingAttachmentInfo::default()
            .image_view(self.image.view)
            .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .clear_value(vk::ClearValue { color: clear })];
        let rendering = vk::RenderingInfo::default()
            .render_area(vk::Rect2D {
                offset: vk::Offset2D::default(),
                extent: vk::Extent2D { width: self.width, height: self.height },
            })
            .layer_count(1)
            .color_attachments(&attachment);
        let cmds = [cmd];
        let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
        // SAFETY: the slot's command buffer is not in use once its fence has signalled, every
        // handle belongs to this device, and the fence is reset before it is submitted again.
        // Frames in flight at once all write the one image: each frame's first barrier waits
        // for the transfer stage the previous frame's last barrier made its writes available
        // to, so the clears are ordered on the queue.
        unsafe {
            d.wait_for_fences(&[fence], true, u64::MAX).map_err(|r| err("wait", r))?;
            d.reset_fences(&[fence]).map_err(|r| err("reset", r))?;
            d.begin_command_buffer(
                cmd,
                &vk::CommandBufferBeginInfo::default()
                    .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
            )
            .map_err(|r| err("begin", r))?;
            d.cmd_pipeline_barrier2(
                cmd,
                &vk::DependencyInfo::default().image_memory_barriers(&to_dst),
            );
            match self.method {
                ClearMethod::Transfer => d.cmd_clear_color_image(
                    cmd,
                    self.image.image,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    &clear,
                    &[range],
                ),
                ClearMethod::RenderPass => {
                    d.cmd_begin_rendering(cmd, &rendering);
                    d.cmd_end_rendering(cmd);
                }
            }
            d.cmd_pipeline_barrier2(
                cmd,
                &vk::DependencyInfo::default().image_memory_barriers(&to_src),
            );
            d.end_command_buffer(cmd).map_err(|r| err("end", r))?;
            d.queue_submit(self.dev.queue, &submit, fence).map_err(|r| err("submit", r))?;
        }
        Ok(())
    }

    /// Runs `frames` frames and returns each one's duration, the wait for the last frames in
    /// flight spread over them.
    pub fn run(&mut self, frames: usize) -> Result<Vec<Duration>, String> {
        let mut out = Vec::with_capacity(frames);
        for i in 0..frames {
            let start = Instant::now();
            self.frame([0.1, (i % 255) as f32 / 255.0, 0.3, 1.0])?;
            out.push(start.elapsed());
        }
        // The frames still in flight are part of the run: their wait is spread over every frame,
        // as the engine's loop spreads its final `wait_idle`.
        let start = Instant::now();
        // SAFETY: the fences belong to this device.
        unsafe { self.dev.device.wait_for_fences(&self.fences, true, u64::MAX) }
            .map_err(|r| err("wait", r))?;
        let tail = start.elapsed() / frames.max(1) as u32;
        for d in &mut out {
            *d += tail;
        }
        Ok(out)
    }
}

impl Drop for AshClearLoop {
    fn drop(&mut self) {
        let d = &self.dev.device;
        // SAFETY: waiting for idle first; every object was created by this device and is
        // destroyed exactly once, before the device itself (dropped with `dev`).
        unsafe {
            let _ = d.device_wait_idle();
            for fence in &self.fences {
                d.destroy_fence(*fence, None);
            }
            d.destroy_command_pool(self.pool, None);
        }
        self.dev.destroy_image(&self.image);
    }
}
