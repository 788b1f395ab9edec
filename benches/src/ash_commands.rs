//! The command buffer of a hand-written ash program ([`AshCommands`]): one primary command
//! buffer, its fence and two timestamp queries, recorded, submitted and waited for at once;
//! the staged upload of an image's levels through it ([`upload_levels`]); and the read-back of a
//! colour target through it ([`read_color`]).

use ash::vk;

use crate::ash_device::{color_levels, err, AshDevice, AshImage};

/// One command buffer submitted and waited for at a time, with the two timestamps that time it.
/// Made by [`AshCommands::new`] on a device, destroyed by [`AshCommands::destroy`] on the same
/// device.
pub struct AshCommands {
    pool: vk::CommandPool,
    cmd: vk::CommandBuffer,
    fence: vk::Fence,
    queries: vk::QueryPool,
}

impl AshCommands {
    /// Creates the pool, command buffer, fence and timestamp query pool on `dev`'s queue family.
    pub fn new(dev: &AshDevice) -> Result<AshCommands, String> {
        let mut out = AshCommands {
            pool: vk::CommandPool::null(),
            cmd: vk::CommandBuffer::null(),
            fence: vk::Fence::null(),
            queries: vk::QueryPool::null(),
        };
        if let Err(e) = out.create(dev) {
            out.destroy(dev);
            return Err(e);
        }
        Ok(out)
    }

    fn create(&mut self, dev: &AshDevice) -> Result<(), String> {
        let d = &dev.device;
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(dev.family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: valid device and create infos; everything is destroyed in `destroy`.
        unsafe {
            self.pool =
                d.create_command_pool(&pool_info, None).map_err(|r| err("command pool", r))?;
            let cmd_info = vk::CommandBufferAllocateInfo::default()
                .command_pool(self.pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1);
            self.cmd =
                d.allocate_command_buffers(&cmd_info).map_err(|r| err("command buffer", r))?[0];
            self.fence = d
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .map_err(|r| err("fence", r))?;
            let query_info = vk::QueryPoolCreateInfo::default()
                .query_type(vk::QueryType::TIMESTAMP)
                .query_count(2);
            self.queries =
                d.create_query_pool(&query_info, None).map_err(|r| err("query pool", r))?;
        }
        Ok(())
    }

    /// Records what `record` records between a timestamp at the top and one at the bottom of
    /// the pipe, submits it, waits for it and returns the GPU time between the two timestamps
    /// in nanoseconds (0 on a queue without timestamps).
    pub fn run(
        &self,
        dev: &AshDevice,
        record: impl FnOnce(&ash::Device, vk::CommandBuffer),
    ) -> Result<f64, String> {
        let d = &dev.device;
        let cmd = self.cmd;
        let timed = dev.timestamp_bits != 0;
        let cmds = [cmd];
        let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
        let mut stamps = [0u64; 2];
        // SAFETY: the command buffer is idle (every submission is waited for), the handles
        // belong to this device, and the query results are read after the fence signalled.
        unsafe {
            d.reset_fences(&[self.fence]).map_err(|r| err("reset", r))?;
            let begin = vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            d.begin_command_buffer(cmd, &begin).map_err(|r| err("begin", r))?;
            if timed {
                d.cmd_reset_query_pool(cmd, self.queries, 0, 2);
                d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::TOP_OF_PIPE, self.queries, 0);
            }
            record(d, cmd);
            if timed {
                let bottom = vk::PipelineStageFlags::BOTTOM_OF_PIPE;
                d.cmd_write_timestamp(cmd, bottom, self.queries, 1);
            }
            d.end_command_buffer(cmd).map_err(|r| err("end", r))?;
            d.queue_submit(dev.queue, &submit, self.fence).map_err(|r| err("submit", r))?;
            d.wait_for_fences(&[self.fence], true, u64::MAX).map_err(|r| err("wait", r))?;
            if timed {
                let flags = vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT;
                d.get_query_pool_results(self.queries, 0, &mut stamps, flags)
                    .map_err(|r| err("timestamps", r))?;
            }
        }
        let bits = dev.timestamp_bits;
        let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
        let ticks = stamps[1].wrapping_sub(stamps[0]) & mask;
        Ok(ticks as f64 * f64::from(dev.properties.limits.timestamp_period))
    }

    /// Destroys what [`AshCommands::new`] made on `dev`, after waiting for the device.
    pub fn destroy(&self, dev: &AshDevice) {
        let d = &dev.device;
        // SAFETY: the device is idle; null handles are ignored; the command buffer goes with
        // its pool.
        unsafe {
            let _ = d.device_wait_idle();
            d.destroy_query_pool(self.queries, None);
            d.destroy_fence(self.fence, None);
            d.destroy_command_pool(self.pool, None);
        }
    }
}

/// Uploads `levels` (each level's texels, tightly packed, of a format of `texel_bytes` bytes,
/// level 0 first, each half the size of the one above, at least 1) into every level of `image`
/// of `size` through a staging buffer, and leaves the image in `SHADER_READ_ONLY_OPTIMAL` for
/// fragment stages. Waits for the copy.
pub fn upload_levels(
    dev: &AshDevice,
    commands: &AshCommands,
    image: &AshImage,
    (width, height): (u32, u32),
    texel_bytes: usize,
    levels: &[&[u8]],
) -> Result<(), String> {
    if levels.len() != image.levels as usize {
        return Err(format!("{} levels for an image of {}", levels.len(), image.levels));
    }
    let mut regions = Vec::with_capacity(levels.len());
    let mut offset = 0usize;
    for (level, texels) in levels.iter().enumerate() {
        let (w, h) = ((width >> level).max(1), (height >> level).max(1));
        let want = w as usize * h as usize * texel_bytes;
        if texels.len() != want {
            return Err(format!("level {level}: {} bytes for {w}x{h} texels", texels.len()));
        }
        regions.push(
            vk::BufferImageCopy::default()
                .buffer_offset(offset as u64)
                .image_subresource(
                    vk::ImageSubresourceLayers::default()
                        .aspect_mask(vk::ImageAspectFlags::COLOR)
                        .mip_level(level as u32)
                        .layer_count(1),
                )
                .image_extent(vk::Extent3D { width: w, height: h, depth: 1 }),
        );
        offset += want;
    }
    let mut staging = dev.host_buffer(offset as u64, vk::BufferUsageFlags::TRANSFER_SRC)?;
    let written = staging.write(&levels.concat());
    let all = color_levels(0, image.levels);
    let to_dst = [vk::ImageMemoryBarrier2::default()
        .dst_stage_mask(vk::PipelineStageFlags2::COPY)
        .dst_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
        .old_layout(vk::ImageLayout::UNDEFINED)
        .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
        .image(image.image)
        .subresource_range(all)];
    let to_read = [vk::ImageMemoryBarrier2::default()
        .src_stage_mask(vk::PipelineStageFlags2::COPY)
        .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
        .dst_stage_mask(vk::PipelineStageFlags2::FRAGMENT_SHADER)
        .dst_access_mask(vk::AccessFlags2::SHADER_SAMPLED_READ)
        .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
        .new_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)
        .image(image.image)
        .subresource_range(all)];
    let copied = written.and_then(|()| {
        commands.run(dev, |d, cmd| {
            // SAFETY: recording into the idle command buffer; the staging buffer holds every
            // region and the image every level.
            unsafe {
                d.cmd_pipeline_barrier2(
                    cmd,
                    &vk::DependencyInfo::default().image_memory_barriers(&to_dst),
                );
                d.cmd_copy_buffer_to_image(
                    cmd,
                    staging.buffer,
                    image.image,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    &regions,
                );
                d.cmd_pipeline_barrier2(
                    cmd,
                    &vk::DependencyInfo::default().image_memory_barriers(&to_read),
                );
            }
        })
    });
    dev.destroy_buffer(&staging);
    copied.map(|_| ())
}

/// Reads back `target`, a single-level RGBA8 colour image of `size` in
/// `COLOR_ATTACHMENT_OPTIMAL` after a pass wrote it, through a host buffer; returns its pixels,
/// rows top to bottom, and leaves it in `TRANSFER_SRC_OPTIMAL`. Waits for the copy.
pub fn read_color(
    dev: &AshDevice,
    commands: &AshCommands,
    target: &AshImage,
    (width, height): (u32, u32),
) -> Result<Vec<[u8; 4]>, String> {
    let len = width as usize * height as usize * 4;
    let usage = vk::BufferUsageFlags::TRANSFER_DST;
    let readback = dev.host_buffer(len as u64, usage)?;
    let to_src = [vk::ImageMemoryBarrier2::default()
        .src_stage_mask(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT)
        .src_access_mask(vk::AccessFlags2::COLOR_ATTACHMENT_WRITE)
        .dst_stage_mask(vk::PipelineStageFlags2::COPY)
        .dst_access_mask(vk::AccessFlags2::TRANSFER_READ)
        .old_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
        .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
        .image(target.image)
        .subresource_range(color_levels(0, 1))];
    let to_host = [vk::BufferMemoryBarrier2::default()
        .src_stage_mask(vk::PipelineStageFlags2::COPY)
        .src_access_mask(vk::AccessFlags2::TRANSFER_WRITE)
        .dst_stage_mask(vk::PipelineStageFlags2::HOST)
        .dst_access_mask(vk::AccessFlags2::HOST_READ)
        .buffer(readback.buffer)
        .size(vk::WHOLE_SIZE)];
    let region = [vk::BufferImageCopy::default()
        .image_subresource(
            vk::ImageSubresourceLayers::default()
                .aspect_mask(vk::ImageAspectFlags::COLOR)
                .layer_count(1),
        )
        .image_extent(vk::Extent3D { width, height, depth: 1 })];
    let copied = commands.run(dev, |d, cmd| {
        // SAFETY: recording into the idle command buffer; the buffer holds the whole image.
        unsafe {
            let dependency = vk::DependencyInfo::default().image_memory_barriers(&to_src);
            d.cmd_pipeline_barrier2(cmd, &dependency);
            let src = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
            d.cmd_copy_image_to_buffer(cmd, target.image, src, readback.buffer, &region);
            let dependency = vk::DependencyInfo::default().buffer_memory_barriers(&to_host);
            d.cmd_pipeline_barrier2(cmd, &dependency);
        }
    });
    let pixels = copied
        .map(|_| readback.read(len).chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]]).collect());
    dev.destroy_buffer(&readback);
    pixels
}
