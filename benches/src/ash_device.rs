//! The device the hand-written ash programs share ([`crate::ash_clear`], [`crate::ash_fill`],
//! [`crate::ash_sprites`], [`crate::ash_cubes`]): a Vulkan 1.3 instance, the adapter the engine
//! would choose (discrete before integrated before virtual before CPU), one graphics queue with
//! dynamic rendering and synchronization2, and device-local colour and depth images. Optionally Khronos' validation layer (with synchronization
//! validation) reports its warnings and errors into a list the program reads back.

use std::ffi::{c_void, CStr};

use ash::vk;
use xnagraph_graph::Diagnostics;

const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

/// Formats a failed Vulkan call.
pub(crate) fn err(what: &str, r: vk::Result) -> String {
    format!("{what}: {r}")
}

/// Instance, adapter, device and graphics queue of a hand-written program.
pub struct AshDevice {
    _entry: ash::Entry,
    /// The instance, destroyed in Drop after the device.
    pub instance: ash::Instance,
    /// The chosen adapter.
    pub physical: vk::PhysicalDevice,
    /// The chosen adapter's properties (limits, timestamp period).
    pub properties: vk::PhysicalDeviceProperties,
    /// The logical device, destroyed in Drop.
    pub device: ash::Device,
    /// The graphics queue's family.
    pub family: u32,
    /// The valid bits of the graphics family's timestamps (0: it has none).
    pub timestamp_bits: u32,
    /// Queue 0 of [`AshDevice::family`].
    pub queue: vk::Queue,
    /// The adapter's name.
    pub adapter: String,
    /// Whether the device was created with `shaderSampledImageArrayNonUniformIndexing`
    /// (enabled whenever the adapter offers it, as the engine's backend does).
    pub nonuniform_indexing: bool,
    debug: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    /// The validation messages, boxed so the messenger's user data stays put; dropped after
    /// the instance.
    messages: Box<Diagnostics>,
}

/// One device-local colour image with a 2D view of all its levels (one layer).
pub struct AshImage {
    /// The image.
    pub image: vk::Image,
    /// A 2D view of it.
    pub view: vk::ImageView,
    /// Its mip levels.
    pub levels: u32,
    memory: vk::DeviceMemory,
}

/// A buffer in host-visible, coherent memory, mapped while it lives (made by
/// [`AshDevice::host_buffer`], destroyed by [`AshDevice::destroy_buffer`]).
pub struct AshBuffer {
    /// The buffer.
    pub buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    mapped: *mut u8,
    /// Its size in bytes.
    pub size: vk::DeviceSize,
}

impl AshBuffer {
    /// Copies `bytes` to the buffer's start; fails past its size. The GPU must not be using the
    /// buffer.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        if bytes.len() as u64 > self.size {
            return Err(format!("{} bytes into a buffer of {}", bytes.len(), self.size));
        }
        // SAFETY: the mapping covers `size` bytes, which `bytes` does not exceed, and nothing
        // else borrows it.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.mapped, bytes.len()) };
        Ok(())
    }

    /// The buffer's first `len` bytes (at most its size), as the GPU last wrote them.
    pub fn read(&self, len: usize) -> &[u8] {
        let len = len.min(self.size as usize);
        // SAFETY: the mapping covers `size` bytes and lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.mapped, len) }
    }
}

/// The debug-utils callback: records warnings and errors in the device's list.
unsafe extern "system" fn on_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: the layer passes valid callback data (or null) for the call, and `p_message`,
    // when set, is a NUL-terminated string.
    let text = unsafe {
        data.as_ref()
            .filter(|d| !d.p_message.is_null())
            .map(|d| CStr::from_ptr(d.p_message).to_string_lossy().into_owned())
    }
    .unwrap_or_default();
    // SAFETY: `user` is the boxed `Diagnostics` of the `AshDevice`, which outlives the
    // messenger and the instance.
    if let Some(messages) = unsafe { user.cast::<Diagnostics>().as_ref() } {
        messages.report(format!("{severity:?}: {text}"));
    }
    vk::FALSE
}

impl AshDevice {
    /// Creates the device on the adapter the engine prefers (discrete first); `validation`
    /// turns on Khronos' validation layer with synchronization validation (an error if the
    /// layer is not installed).
    pub fn new(validation: bool) -> Result<AshDevice, String> {
        // SAFETY: loading the system Vulkan loader; the library stays loaded while `_entry` lives.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("loading Vulkan: {e}"))?;
        if validation {
            // SAFETY: the entry is loaded.
            let layers = unsafe { entry.enumerate_instance_layer_properties() }
                .map_err(|r| err("layers", r))?;
            if !layers.iter().any(|l| l.layer_name_as_c_str() == Ok(VALIDATION_LAYER)) {
                return Err(
                    "validation asked for but VK_LAYER_KHRONOS_validation is missing".into()
                );
            }
        }
        let messages = Box::new(Diagnostics::default());
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
        let layer_names = [VALIDATION_LAYER.as_ptr()];
        let extension_names = [ash::ext::debug_utils::NAME.as_ptr()];
        let checks = [vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION];
        let mut features =
            vk::ValidationFeaturesEXT::default().enabled_validation_features(&checks);
        let messenger_info = vk::DebugUtilsMessengerCreateInfoEXT::default()
            .message_severity(
                vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                    | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
            )
            .message_type(
                vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                    | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                    | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
            )
            .pfn_user_callback(Some(on_message))
            .user_data(std::ptr::from_ref::<Diagnostics>(&messages).cast_mut().cast());
        let mut chained = messenger_info;
        let mut info = vk::InstanceCreateInfo::default().application_info(&app);
        if validation {
            info = info
                .enabled_layer_names(&layer_names)
                .enabled_extension_names(&extension_names)
                .push_next(&mut features)
                .push_next(&mut chained);
        }
        // SAFETY: valid create info; the instance is destroyed in Drop.
        let instance =
            unsafe { entry.create_instance(&info, None) }.map_err(|r| err("instance", r))?;
        let debug = if validation {
            let utils = ash::ext::debug_utils::Instance::new(&entry, &instance);
            // SAFETY: the extension is enabled; the messenger is destroyed in Drop.
            match unsafe { utils.create_debug_utils_messenger(&messenger_info, None) } {
                Ok(messenger) => Some((utils, messenger)),
                Err(r) => {
                    // SAFETY: nothing else was created from the instance.
                    unsafe { instance.destroy_instance(None) };
                    return Err(err("debug messenger", r));
                }
            }
        } else {
            None
        };
        let mut out = AshDevice::open(entry, instance, debug, messages)?;
        out.adapter = out
            .properties
            .device_name_as_c_str()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(out)
    }

    /// Picks the adapter and creates the device on `instance`; destroys the instance (and
    /// messenger) on failure.
    fn open(
        entry: ash::Entry,
        instance: ash::Instance,
        debug: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
        messages: Box<Diagnostics>,
    ) -> Result<AshDevice, String> {
        match pick_and_create(&instance) {
            Ok(Picked { physical, properties, device, family, timestamp_bits, nonuniform }) => {
                // SAFETY: the family and index were requested at device creation.
                let queue = unsafe { device.get_device_queue(family, 0) };
                Ok(AshDevice {
                    _entry: entry,
                    instance,
                    physical,
                    properties,
                    device,
                    family,
                    timestamp_bits,
                    queue,
                    adapter: String::new(),
                    nonuniform_indexing: nonuniform,
                    debug,
                    messages,
                })
            }
            Err(e) => {
                // SAFETY: the messenger and instance were created by the caller and nothing
                // else lives on them.
                unsafe {
                    if let Some((utils, messenger)) = &debug {
                        utils.destroy_debug_utils_messenger(*messenger, None);
                    }
                    instance.destroy_instance(None);
                }
                Err(e)
            }
        }
    }

    /// The validation messages reported so far, taken out of the list.
    pub fn take_messages(&self) -> Vec<String> {
        self.messages.take_messages()
    }

    /// Creates a device-local 2D colour image of one level and layer and its view.
    pub fn image(
        &self,
        size: (u32, u32),
        format: vk::Format,
        samples: vk::SampleCountFlags,
        usage: vk::ImageUsageFlags,
    ) -> Result<AshImage, String> {
        self.image_levels(size, format, samples, 1, usage)
    }

    /// Creates a device-local 2D colour image of `levels` mip levels and one layer, and a view
    /// of every level.
    pub fn image_levels(
        &self,
        (width, height): (u32, u32),
        format: vk::Format,
        samples: vk::SampleCountFlags,
        levels: u32,
        usage: vk::ImageUsageFlags,
    ) -> Result<AshImage, String> {
        let d = &self.device;
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D { width, height, depth: 1 })
            .mip_levels(levels)
            .array_layers(1)
            .samples(samples)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage);
        // SAFETY: valid device and create info.
        let image = unsafe { d.create_image(&info, None) }.map_err(|r| err("image", r))?;
        let mut out = AshImage {
            image,
            view: vk::ImageView::null(),
            levels,
            memory: vk::DeviceMemory::null(),
        };
        // SAFETY: the image belongs to this device; on failure it is destroyed with what was
        // created so far.
        let made = unsafe { self.bind_and_view(&mut out, format, color_levels(0, levels)) };
        if let Err(e) = made {
            self.destroy_image(&out);
            return Err(e);
        }
        Ok(out)
    }

    /// Creates a device-local 2D depth image of one level and layer, a depth attachment only,
    /// and its view of the depth aspect.
    pub fn depth_image(
        &self,
        (width, height): (u32, u32),
        format: vk::Format,
    ) -> Result<AshImage, String> {
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D { width, height, depth: 1 })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT);
        // SAFETY: valid device and create info.
        let image =
            unsafe { self.device.create_image(&info, None) }.map_err(|r| err("image", r))?;
        let mut out = AshImage {
            image,
            view: vk::ImageView::null(),
            levels: 1,
            memory: vk::DeviceMemory::null(),
        };
        // SAFETY: the image belongs to this device; on failure it is destroyed with what was
        // created so far.
        let made = unsafe { self.bind_and_view(&mut out, format, depth_range()) };
        if let Err(e) = made {
            self.destroy_image(&out);
            return Err(e);
        }
        Ok(out)
    }

    /// The first of `formats` this adapter can attach as depth with optimal tiling.
    pub fn depth_format(&self, formats: &[vk::Format]) -> Option<vk::Format> {
        formats.iter().copied().find(|&f| {
            // SAFETY: valid physical device.
            let props =
                unsafe { self.instance.get_physical_device_format_properties(self.physical, f) };
            props.optimal_tiling_features.contains(vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT)
        })
    }

    /// Allocates and binds `image`'s memory and creates its view of `range`.
    ///
    /// # Safety
    /// `image.image` belongs to this device and has no memory bound yet.
    unsafe fn bind_and_view(
        &self,
        image: &mut AshImage,
        format: vk::Format,
        range: vk::ImageSubresourceRange,
    ) -> Result<(), String> {
        let d = &self.device;
        // SAFETY: per the contract, the image belongs to this device.
        let req = unsafe { d.get_image_memory_requirements(image.image) };
        image.memory = self.allocate(req, vk::MemoryPropertyFlags::DEVICE_LOCAL)?;
        // SAFETY: fresh image and memory of the right type and size.
        unsafe { d.bind_image_memory(image.image, image.memory, 0) }.map_err(|r| err("bind", r))?;
        let view_info = vk::ImageViewCreateInfo::default()
            .image(image.image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(format)
            .subresource_range(range);
        // SAFETY: the image is bound to memory and the range lies inside it.
        image.view =
            unsafe { d.create_image_view(&view_info, None) }.map_err(|r| err("view", r))?;
        Ok(())
    }

    /// Allocates memory of a type with `flags` that satisfies `req`.
    fn allocate(
        &self,
        req: vk::MemoryRequirements,
        flags: vk::MemoryPropertyFlags,
    ) -> Result<vk::DeviceMemory, String> {
        // SAFETY: valid physical device.
        let props = unsafe { self.instance.get_physical_device_memory_properties(self.physical) };
        let type_index = (0..props.memory_type_count)
            .find(|&i| {
                req.memory_type_bits & (1 << i) != 0
                    && props.memory_types[i as usize].property_flags.contains(flags)
            })
            .ok_or_else(|| format!("no memory type {flags:?}"))?;
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(type_index);
        // SAFETY: the type index satisfies the requirements.
        unsafe { self.device.allocate_memory(&alloc, None) }.map_err(|r| err("memory", r))
    }

    /// Creates a buffer of `size` bytes for `usage` in host-visible, coherent memory, mapped
    /// for its whole life (what a program writes through [`AshBuffer::write`] needs no flush).
    pub fn host_buffer(
        &self,
        size: vk::DeviceSize,
        usage: vk::BufferUsageFlags,
    ) -> Result<AshBuffer, String> {
        let d = &self.device;
        let info = vk::BufferCreateInfo::default().size(size.max(1)).usage(usage);
        // SAFETY: valid device and create info.
        let buffer = unsafe { d.create_buffer(&info, None) }.map_err(|r| err("buffer", r))?;
        let mut out = AshBuffer {
            buffer,
            memory: vk::DeviceMemory::null(),
            mapped: std::ptr::null_mut(),
            size,
        };
        let flags = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        // SAFETY: the buffer belongs to this device; on failure it is destroyed with what was
        // made so far.
        let made = unsafe {
            let req = d.get_buffer_memory_requirements(buffer);
            self.allocate(req, flags).and_then(|memory| {
                out.memory = memory;
                d.bind_buffer_memory(buffer, memory, 0).map_err(|r| err("bind", r))?;
                let mapped = d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty());
                out.mapped = mapped.map_err(|r| err("map", r))?.cast();
                Ok(())
            })
        };
        if let Err(e) = made {
            self.destroy_buffer(&out);
            return Err(e);
        }
        Ok(out)
    }

    /// Destroys a buffer made by [`AshDevice::host_buffer`] once the GPU no longer uses it.
    pub fn destroy_buffer(&self, buffer: &AshBuffer) {
        // SAFETY: the caller no longer uses the buffer; freeing unmaps; null handles are
        // ignored.
        unsafe {
            self.device.destroy_buffer(buffer.buffer, None);
            self.device.free_memory(buffer.memory, None);
        }
    }

    /// Destroys an image made by [`AshDevice::image`] once the GPU no longer uses it.
    pub fn destroy_image(&self, image: &AshImage) {
        // SAFETY: the caller no longer uses the image; null handles are ignored.
        unsafe {
            self.device.destroy_image_view(image.view, None);
            self.device.destroy_image(image.image, None);
            self.device.free_memory(image.memory, None);
        }
    }
}

/// The colour aspect of a single-level, single-layer image.
pub fn color_range() -> vk::ImageSubresourceRange {
    color_levels(0, 1)
}

/// The depth aspect of a single-level, single-layer depth image (no stencil).
pub fn depth_range() -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange::default()
        .aspect_mask(vk::ImageAspectFlags::DEPTH)
        .level_count(1)
        .layer_count(1)
}

/// The colour aspect of `count` levels from `first` of a single-layer image.
pub fn color_levels(first: u32, count: u32) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange::default()
        .aspect_mask(vk::ImageAspectFlags::COLOR)
        .base_mip_level(first)
        .level_count(count)
        .layer_count(1)
}

/// What [`pick_and_create`] chose and created.
struct Picked {
    physical: vk::PhysicalDevice,
    properties: vk::PhysicalDeviceProperties,
    device: ash::Device,
    family: u32,
    timestamp_bits: u32,
    nonuniform: bool,
}

/// The adapter the engine prefers and a device on it with one graphics queue.
fn pick_and_create(instance: &ash::Instance) -> Result<Picked, String> {
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
    let (physical, properties) = physicals
        .iter()
        // SAFETY: each handle came from this instance.
        .map(|&p| (p, unsafe { instance.get_physical_device_properties(p) }))
        .min_by_key(|(_, props)| rank(props.device_type))
        .ok_or("no Vulkan adapter")?;
    // SAFETY: valid physical device.
    let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
    let family = families
        .iter()
        .position(|f| f.queue_flags.contains(vk::QueueFlags::GRAPHICS))
        .ok_or("no graphics queue")?;
    let timestamp_bits = families[family].timestamp_valid_bits;
    let family = family as u32;
    let priorities = [1.0f32];
    let queue_info = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(family)
        .queue_priorities(&priorities)];
    let mut offered12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut offered = vk::PhysicalDeviceFeatures2::default().push_next(&mut offered12);
    // SAFETY: valid physical device; the chained structure outlives the call.
    unsafe { instance.get_physical_device_features2(physical, &mut offered) };
    let nonuniform = offered12.shader_sampled_image_array_non_uniform_indexing == vk::TRUE;
    // As the engine's backend: non-uniform indexing where offered, and maintenance4 (required
    // of Vulkan 1.3), whose relaxed interface matching lets a fragment stage leave a vertex
    // output unread.
    let mut features12 = vk::PhysicalDeviceVulkan12Features::default()
        .shader_sampled_image_array_non_uniform_indexing(nonuniform);
    let mut features13 = vk::PhysicalDeviceVulkan13Features::default()
        .dynamic_rendering(true)
        .synchronization2(true)
        .maintenance4(true);
    let device_info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queue_info)
        .push_next(&mut features12)
        .push_next(&mut features13);
    // SAFETY: valid physical device and create info; destroyed in Drop.
    let device = unsafe { instance.create_device(physical, &device_info, None) }
        .map_err(|r| err("device", r))?;
    Ok(Picked { physical, properties, device, family, timestamp_bits, nonuniform })
}

impl Drop for AshDevice {
    fn drop(&mut self) {
        // SAFETY: the programs destroy their own objects first (their Drop runs before this
        // one's); the device, messenger and instance are destroyed once, children first, and
        // the messages box outlives them all.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_device(None);
            if let Some((utils, messenger)) = &self.debug {
                utils.destroy_debug_utils_messenger(*messenger, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}
