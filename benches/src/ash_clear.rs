//! The baseline for the clear-and-present benchmark: a minimal hand-written ash program that
//! clears one offscreen colour image per frame and submits it, with as many frames in flight as
//! the engine keeps: each frame has its own command buffer and fence, and a frame waits only for
//! the fence of the frame that used its slot before. No engine, no render graph, no validation:
//! the least work a Vulkan program can do for the same frames.

use std::time::{Duration, Instant};

use ash::vk;

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
    view: vk::ImageView,
    width: u32,
    height: u32,
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    queue: vk::Queue,
    pool: vk::CommandPool,
    /// One command buffer and fence per frame in flight, used round-robin.
    cmds: Vec<vk::CommandBuffer>,
    fences: Vec<vk::Fence>,
    next: usize,
    image: vk::Image,
    memory: vk::DeviceMemory,
    pub adapter: String,
}

fn err(what: &str, r: vk::Result) -> String {
    format!("{what}: {r}")
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
        // SAFETY: loading the system Vulkan loader; the library stays loaded while `_entry` lives.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("loading Vulkan: {e}"))?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: valid create info; the instance is destroyed in Drop.
        let instance =
            unsafe { entry.create_instance(&info, None) }.map_err(|r| err("instance", r))?;
        // SAFETY: the instance is valid.
        let physicals =
            unsafe { instance.enumerate_physical_devices() }.map_err(|r| err("adapters", r))?;
        let rank = |t: vk::PhysicalDeviceType| match t {
            vk::PhysicalDeviceType::DISCRETE_GPU => 0,
            vk::PhysicalDeviceType::INTEGRATED_GPU => 1,
            vk::PhysicalDeviceType::VIRTUAL_GPU => 2,
            vk::PhysicalDeviceType::CPU => 3,
            _ => 4,
        };
        let (physical, props) = physicals
            .iter()
            // SAFETY: each handle came from this instance.
            .map(|&p| (p, unsafe { instance.get_physical_device_properties(p) }))
            .min_by_key(|(_, props)| rank(props.device_type))
            .ok_or("no Vulkan adapter")?;
        let adapter = props
            .device_name_as_c_str()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        // SAFETY: valid physical device.
        let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        let family = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::GRAPHICS))
            .ok_or("no graphics queue")? as u32;
        let priorities = [1.0f32];
        let queue_info = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let mut features13 = vk::PhysicalDeviceVulkan13Features::default()
            .dynamic_rendering(true)
            .synchronization2(true);
        let device_info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queue_info)
            .push_next(&mut features13);
        // SAFETY: valid physical device and create info; destroyed in Drop.
        let device = unsafe { instance.create_device(physical, &device_info, None) }
            .map_err(|r| err("device", r))?;
        // SAFETY: the family and index were requested at device creation.
        let queue = unsafe { device.get_device_queue(family, 0) };

        let image_info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(vk::Format::R8G8B8A8_UNORM)
            .extent(vk::Extent3D { width, height, depth: 1 })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(
                vk::ImageUsageFlags::TRANSFER_DST
                    | vk::ImageUsageFlags::TRANSFER_SRC
                    | vk::ImageUsageFlags::COLOR_ATTACHMENT,
            );
        // SAFETY: valid device and create info.
        let image =
            unsafe { device.create_image(&image_info, None) }.map_err(|r| err("image", r))?;
        // SAFETY: the image belongs to this device.
        let req = unsafe { device.get_image_memory_requirements(image) };
        // SAFETY: valid physical device.
        let mem_props = unsafe { instance.get_physical_device_memory_properties(physical) };
        let type_index = (0..mem_props.memory_type_count)
            .find(|&i| {
                req.memory_type_bits & (1 << i) != 0
                    && mem_props.memory_types[i as usize]
                        .property_flags
                        .contains(vk::MemoryPropertyFlags::DEVICE_LOCAL)
            })
            .ok_or("no device-local memory type")?;
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(type_index);
        // SAFETY: the type index satisfies the image's requirements.
        let memory =
            unsafe { device.allocate_memory(&alloc, None) }.map_err(|r| err("memory", r))?;
        // SAFETY: fresh image and memory of the right type and size.
        unsafe { device.bind_image_memory(image, memory, 0) }.map_err(|r| err("bind", r))?;

        let view_info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(vk::Format::R8G8B8A8_UNORM)
            .subresource_range(
                vk::ImageSubresourceRange::default()
                    .aspect_mask(vk::ImageAspectFlags::COLOR)
                    .level_count(1)
                    .layer_count(1),
            );
        // SAFETY: the image is bound to memory and the range lies inside it.
        let view =
            unsafe { device.create_image_view(&view_info, None) }.map_err(|r| err("view", r))?;
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(family)
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
        Ok(AshClearLoop {
            method,
            view,
            width,
            height,
            _entry: entry,
            instance,
            device,
            queue,
            pool,
            cmds,
            fences,
            next: 0,
            image,
            memory,
            adapter,
        })
    }

    /// One frame: wait for the fence of the frame that last used this slot, clear the image,
    /// submit with the slot's fence.
    pub fn frame(&mut self, color: [f32; 4]) -> Result<(), String> {
        let d = &self.device;
        let (cmd, fence) = (self.cmds[self.next], self.fences[self.next]);
        self.next = (self.next + 1) % self.cmds.len();
        let range = vk::ImageSubresourceRange::default()
            .aspect_mask(vk::ImageAspectFlags::COLOR)
            .level_count(1)
            .layer_count(1);
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
            .image(self.image)
            .subresource_range(range)];
        let to_src = [vk::ImageMemoryBarrier2::default()
            .src_stage_mask(stage)
            .src_access_mask(access)
            .dst_stage_mask(vk::PipelineStageFlags2::TRANSFER)
            .dst_access_mask(vk::AccessFlags2::TRANSFER_READ)
            .old_layout(layout)
            .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
            .image(self.image)
            .subresource_range(range)];
        let clear = vk::ClearColorValue { float32: color };
        let attachment = [vk::RenderingAttachmentInfo::default()
            .image_view(self.view)
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
                    self.image,
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
            d.queue_submit(self.queue, &submit, fence).map_err(|r| err("submit", r))?;
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
        unsafe { self.device.wait_for_fences(&self.fences, true, u64::MAX) }
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
        // SAFETY: waiting for idle first; every object was created by this device/instance and
        // is destroyed exactly once, children before parents.
        unsafe {
            let _ = self.device.device_wait_idle();
            for fence in &self.fences {
                self.device.destroy_fence(*fence, None);
            }
            self.device.destroy_command_pool(self.pool, None);
            self.device.destroy_image_view(self.view, None);
            self.device.destroy_image(self.image, None);
            self.device.free_memory(self.memory, None);
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}
