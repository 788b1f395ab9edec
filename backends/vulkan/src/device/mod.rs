//! Instance, adapter and device: everything that exists once per backend.
//!
//! In: a [`crate::VulkanConfig`]. Out: a [`Gpu`] holding the process's shared instance (see
//! [`crate::device::instance`]; with the validation layer when asked for), this device's own
//! debug-utils messenger on it (with validation), the chosen physical
//! device, one graphics queue, the vk-mem allocator and the device limits and optional features
//! the rest of the backend consults. The adapter is the one [`crate::VulkanConfig::adapter`]
//! names, else the best-ranked device that supports Vulkan 1.3 with dynamic rendering and
//! synchronization2: discrete before integrated before virtual before CPU. [`adapters`] lists
//! the usable adapters in that order, with what a device on each could do.
//!
//! The loader and the instances devices share are [`instance`]'s; the validation layer's
//! messages, routed to the device they name, [`validation`]'s; the choice of the physical
//! device and the list of adapters, `adapter.rs`'s.

use std::ffi::CStr;
use std::mem::ManuallyDrop;
use std::sync::Arc;

use ash::vk;
use xnagraph_graph::{AdapterIdentity, BackendError, Capabilities, Diagnostics};

use crate::{vk_error, VulkanConfig};

mod adapter;
pub(crate) mod instance;
pub(crate) mod validation;

pub use self::adapter::adapters;
use self::adapter::Candidate;
use self::instance::{InstanceKey, SharedInstance};

/// Optional device features the lowering checks before using them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Features {
    pub fill_mode_non_solid: bool,
    pub sampler_anisotropy: bool,
    /// Different blend states per colour attachment (several render targets bound).
    pub independent_blend: bool,
    /// `shaderSampledImageArrayNonUniformIndexing`: the indexing sprite stage can index its
    /// array of textures per sprite (see [`crate::TextureIndexing`]).
    pub nonuniform_indexing: bool,
    /// Occlusion queries that count exactly (XNA's `OcclusionQuery.PixelCount`).
    pub occlusion_query_precise: bool,
    /// VK_EXT_vertex_attribute_divisor with `vertexAttributeInstanceRateDivisor`: a
    /// per-instance stream may step once per several instances (enabled when offered).
    pub instance_divisor: bool,
    /// `sampleRateShading`: a fragment stage may run once per sample (reading `gl_SampleID`),
    /// which restoring a multisampled image's sample planes needs (see
    /// [`crate::capture::samples`]).
    pub sample_rate_shading: bool,
}

pub(crate) struct Gpu {
    /// The process's instance for this device's key, released after the device (see
    /// [`crate::device::instance`]).
    shared: ManuallyDrop<Arc<SharedInstance>>,
    pub instance: ash::Instance,
    debug: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    pub physical: vk::PhysicalDevice,
    pub device: ash::Device,
    pub queue: vk::Queue,
    pub queue_family: u32,
    pub allocator: ManuallyDrop<vk_mem::Allocator>,
    pub adapter_name: String,
    /// Who the adapter is (see [`xnagraph_graph::AdapterIdentity`]).
    pub identity: AdapterIdentity,
    /// VK_EXT_debug_utils' object naming and command-buffer labels, when the instance has the
    /// extension (enabled whenever it is available, with or without validation).
    pub debug_utils: Option<ash::ext::debug_utils::Device>,
    pub limits: vk::PhysicalDeviceLimits,
    pub features: Features,
    /// The driver resolves into layer 0 of the resolve view's image whatever the view's base
    /// layer (lavapipe as shipped in Mesa 22.3): a resolve into a cube face other than the
    /// first is carried out with a transfer resolve after the pass instead.
    pub resolve_ignores_view_layer: bool,
    /// How a sprite draw of several textures is drawn, from
    /// [`crate::VulkanConfig::texture_indexing`] and the device: `Some(stage)`, one native draw
    /// through that fragment stage (non-uniform indexing or branches); `None`, one per run.
    pub texture_indexing: Option<crate::pipeline::IndexedStage>,
    /// This device's validation messages and live object count. Boxed so its address, its
    /// messenger's user data, stays put; dropped only after the messenger is destroyed.
    pub diagnostics: Box<Diagnostics>,
    /// Created with Khronos' validation layer (counted by the process's device gate).
    pub validated: bool,
    /// Whose pipeline cache data this device reads and writes (see `pipeline::cache_file`).
    pub cache_owner: crate::pipeline::CacheOwner,
    /// The window surface of a device created for a window, with VK_KHR_surface's entry
    /// points; destroyed just before the instance.
    pub surface: Option<(ash::khr::surface::Instance, vk::SurfaceKHR)>,
    /// Meaningful bits of a timestamp written on the queue (0: the queue cannot write any).
    pub timestamp_valid_bits: u32,
    /// VK_EXT_calibrated_timestamps' entry points, when the device can sample its own clock
    /// together with the CPU's monotonic clock (the extension is then enabled).
    pub calibrated_timestamps: Option<ash::ext::calibrated_timestamps::Device>,
}

/// The raw handles of the window a device presents to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WindowHandles {
    pub display: raw_window_handle::RawDisplayHandle,
    pub window: raw_window_handle::RawWindowHandle,
}

impl Gpu {
    pub fn new(config: &VulkanConfig, window: Option<WindowHandles>) -> Result<Gpu, BackendError> {
        let loader = instance::loader()?;
        let entry = &loader.entry;
        let diagnostics = Box::new(Diagnostics::default());
        let validate = config.validation;
        if validate && !loader.has_validation_layer {
            return Err(BackendError::NotSupported(
                "validation requested but VK_LAYER_KHRONOS_validation is not installed".into(),
            ));
        }
        // The display's surface extensions, for a device with a window.
        let surface_extensions = match window {
            Some(w) => ash_window::enumerate_required_extensions(w.display)
                .map_err(|e| BackendError::NotSupported(format!("no Vulkan surface here: {e}")))?
                .iter()
                // SAFETY: ash_window returns pointers to static NUL-terminated names.
                .map(|&p| unsafe { CStr::from_ptr(p) })
                .collect(),
            None => Vec::new(),
        };
        let key = InstanceKey { validate, surface_extensions };
        let shared = SharedInstance::get(&key, &diagnostics)?;
        let instance = shared.instance.clone();
        // The validation layer provides debug utils itself.
        let debug_utils_enabled = validate || loader.has_debug_utils;
        // On failure from here on: what was made from the instance, then the instance itself.
        let release =
            |debug: &Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
             shared: Arc<SharedInstance>| {
                if let Some((loader, messenger)) = debug {
                    // SAFETY: device creation failed; nothing else uses the messenger.
                    unsafe { loader.destroy_debug_utils_messenger(*messenger, None) };
                }
                validation::release_all(&diagnostics);
                SharedInstance::release(shared, &diagnostics);
            };

        // This device's own messenger on the shared instance (see `validation` for routing).
        let debug = if validate {
            let loader = ash::ext::debug_utils::Instance::new(entry, &instance);
            let messenger_info = validation::messenger_info(&diagnostics);
            // SAFETY: the instance was created with VK_EXT_debug_utils enabled.
            match unsafe { loader.create_debug_utils_messenger(&messenger_info, None) } {
                Ok(m) => Some((loader, m)),
                Err(e) => {
                    release(&None, shared);
                    return Err(vk_error("vkCreateDebugUtilsMessengerEXT", e));
                }
            }
        } else {
            None
        };

        let surface = match window {
            // SAFETY: the handles come from a live window that the backend keeps alive for
            // longer than the surface; the instance has the display's surface extensions.
            Some(w) => match unsafe {
                ash_window::create_surface(entry, &instance, w.display, w.window, None)
            } {
                Ok(s) => Some((ash::khr::surface::Instance::new(entry, &instance), s)),
                Err(e) => {
                    release(&debug, shared);
                    return Err(vk_error("vkCreate*SurfaceKHR", e));
                }
            },
            None => None,
        };
        // Device creation and function loading take the process's turn (see
        // `device_lifecycle_turn`: the loader's device lists are not safe otherwise).
        let turn = xnagraph_graph::native_device::lifecycle_turn();
        let opened = match Self::open_device(entry, &instance, surface.as_ref(), config.adapter) {
            Ok(o) => o,
            Err(e) => {
                if let Some((loader, surface)) = &surface {
                    // SAFETY: no swapchain was created from it.
                    unsafe { loader.destroy_surface(*surface, None) };
                }
                release(&debug, shared);
                return Err(e);
            }
        };
        let (chosen, limits, device, queue, allocator, calibrated) = opened;
        validation::claim(device.handle(), &diagnostics);
        validation::claim(queue, &diagnostics);
        let debug_utils =
            debug_utils_enabled.then(|| ash::ext::debug_utils::Device::new(&instance, &device));
        let calibrated_timestamps =
            calibrated.then(|| ash::ext::calibrated_timestamps::Device::new(&instance, &device));
        if validate {
            turn.validated_device_made();
        }
        drop(turn);
        // SAFETY: a plain query of the chosen adapter of this instance.
        let props = unsafe { instance.get_physical_device_properties(chosen.physical) };
        Ok(Gpu {
            validated: validate,
            cache_owner: crate::pipeline::CacheOwner::of(&props),
            shared: ManuallyDrop::new(shared),
            instance,
            debug,
            physical: chosen.physical,
            device,
            queue,
            queue_family: chosen.queue_family,
            allocator: ManuallyDrop::new(allocator),
            resolve_ignores_view_layer: chosen.name.contains("llvmpipe"),
            texture_indexing: crate::pipeline::IndexedStage::choose(
                config.texture_indexing,
                chosen.features.nonuniform_indexing,
            ),
            identity: chosen.identity(),
            adapter_name: chosen.name,
            debug_utils,
            limits,
            features: chosen.features,
            diagnostics,
            surface,
            timestamp_valid_bits: chosen.timestamp_valid_bits,
            calibrated_timestamps,
        })
    }

    /// Whether `physical` has VK_EXT_calibrated_timestamps with both the device's clock and the
    /// CPU clock the timing reports use (CLOCK_MONOTONIC; only on Unix).
    fn can_calibrate(
        entry: &ash::Entry,
        instance: &ash::Instance,
        physical: vk::PhysicalDevice,
    ) -> bool {
        if !cfg!(unix) {
            return false;
        }
        // SAFETY: `physical` belongs to this live instance.
        let extensions =
            unsafe { instance.enumerate_device_extension_properties(physical) }.unwrap_or_default();
        let named = |e: &vk::ExtensionProperties| {
            e.extension_name_as_c_str().is_ok_and(|n| n == ash::ext::calibrated_timestamps::NAME)
        };
        if !extensions.iter().any(named) {
            return false;
        }
        let loader = ash::ext::calibrated_timestamps::Instance::new(entry, instance);
        // SAFETY: as above; the extension is offered by the adapter.
        let domains = unsafe { loader.get_physical_device_calibrateable_time_domains(physical) }
            .unwrap_or_default();
        domains.contains(&vk::TimeDomainEXT::DEVICE)
            && domains.contains(&vk::TimeDomainEXT::CLOCK_MONOTONIC)
    }

    #[allow(clippy::type_complexity)]
    fn open_device(
        entry: &ash::Entry,
        instance: &ash::Instance,
        surface: Option<&(ash::khr::surface::Instance, vk::SurfaceKHR)>,
        adapter: Option<[u8; 16]>,
    ) -> Result<
        (Candidate, vk::PhysicalDeviceLimits, ash::Device, vk::Queue, vk_mem::Allocator, bool),
        BackendError,
    > {
        let chosen = adapter::choose(instance, surface, adapter)?;
        let calibrated = Self::can_calibrate(entry, instance, chosen.physical);
        // SAFETY: `chosen.physical` belongs to this instance.
        let props = unsafe { instance.get_physical_device_properties(chosen.physical) };

        let priorities = [1.0f32];
        let queue_infos = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(chosen.queue_family)
            .queue_priorities(&priorities)];
        let core = vk::PhysicalDeviceFeatures::default()
            .fill_mode_non_solid(chosen.features.fill_mode_non_solid)
            .sampler_anisotropy(chosen.features.sampler_anisotropy)
            .independent_blend(chosen.features.independent_blend)
            .occlusion_query_precise(chosen.features.occlusion_query_precise)
            .sample_rate_shading(chosen.features.sample_rate_shading);
        let mut v13 = vk::PhysicalDeviceVulkan13Features::default()
            .dynamic_rendering(true)
            .synchronization2(true)
            // Required of every Vulkan 1.3 device. Its relaxed interface matching lets a stock
            // fragment stage leave a sprite vertex output unread (the cube stage ignores the
            // texture coordinates) without a validation warning.
            .maintenance4(true);
        // Timeline semaphores are required of every Vulkan 1.3 device.
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default()
            .timeline_semaphore(true)
            .shader_sampled_image_array_non_uniform_indexing(chosen.features.nonuniform_indexing);
        let mut device_extensions = Vec::new();
        if surface.is_some() {
            device_extensions.push(ash::khr::swapchain::NAME.as_ptr());
        }
        if calibrated {
            device_extensions.push(ash::ext::calibrated_timestamps::NAME.as_ptr());
        }
        if chosen.features.instance_divisor {
            device_extensions.push(ash::ext::vertex_attribute_divisor::NAME.as_ptr());
        }
        let mut divisor = vk::PhysicalDeviceVertexAttributeDivisorFeaturesEXT::default()
            .vertex_attribute_instance_rate_divisor(true);
        let mut device_info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queue_infos)
            .enabled_extension_names(&device_extensions)
            .enabled_features(&core)
            .push_next(&mut v13)
            .push_next(&mut v12);
        if chosen.features.instance_divisor {
            device_info = device_info.push_next(&mut divisor);
        }
        // SAFETY: the adapter supports every feature enabled here (checked in `examine`).
        let device = unsafe { instance.create_device(chosen.physical, &device_info, None) }
            .map_err(|e| vk_error("vkCreateDevice", e))?;
        // SAFETY: queue 0 of the family the device was created with.
        let queue = unsafe { device.get_device_queue(chosen.queue_family, 0) };

        let mut alloc_info = vk_mem::AllocatorCreateInfo::new(instance, &device, chosen.physical);
        alloc_info.vulkan_api_version = vk::API_VERSION_1_3;
        // SAFETY: instance, device and adapter outlive the allocator (it is dropped first).
        match unsafe { vk_mem::Allocator::new(alloc_info) } {
            Ok(allocator) => Ok((chosen, props.limits, device, queue, allocator, calibrated)),
            Err(e) => {
                // SAFETY: the device has no children yet.
                unsafe { device.destroy_device(None) };
                Err(vk_error("vmaCreateAllocator", e))
            }
        }
    }

    pub fn capabilities(&self) -> Capabilities {
        capabilities_of(&self.limits, self.features)
    }
}

/// The capabilities of a device with these limits and features: the one translation of
/// Vulkan's limits into [`Capabilities`], for a device ([`Gpu::capabilities`]) and for an
/// adapter listed before any device exists ([`adapters`]).
fn capabilities_of(l: &vk::PhysicalDeviceLimits, features: Features) -> Capabilities {
    let counts = l.framebuffer_color_sample_counts
        & l.framebuffer_depth_sample_counts
        & l.framebuffer_stencil_sample_counts;
    Capabilities {
        max_texture_dimension: l.max_image_dimension2_d,
        max_cube_dimension: l.max_image_dimension_cube,
        max_volume_dimension: l.max_image_dimension3_d,
        max_color_attachments: l.max_color_attachments,
        sample_counts: counts.as_raw(),
        wire_frame: features.fill_mode_non_solid,
        anisotropic_filtering: features.sampler_anisotropy,
        independent_blend: features.independent_blend,
        geometry: true,
        // USCALED and SSCALED vertex formats of 2 and 4 components are mandatory in Vulkan.
        scaled_vertex_formats: true,
        instance_divisor: features.instance_divisor,
        depth_readback: true,
        // Reading the samples back needs only sampling; restoring them needs per-sample
        // shading.
        sample_readback: features.sample_rate_shading,
        sample_restore: features.sample_rate_shading,
    }
}

impl Drop for Gpu {
    /// Destroys allocator, device, surface and messenger, in that order, then lets go of the
    /// shared instance (destroyed here when this was its last device). Whoever holds the
    /// device last drops it (the backend, or a sprite arena that outlived it): by then the
    /// device is idle and every object created from it destroyed.
    fn drop(&mut self) {
        let turn = xnagraph_graph::native_device::lifecycle_turn();
        // SAFETY: nothing allocated from the allocator is still alive: the backend destroyed its
        // objects before letting the device go, and each sprite arena frees its buffer first.
        unsafe { ManuallyDrop::drop(&mut self.allocator) };
        // SAFETY: the device is idle and childless (as above).
        unsafe { self.device.destroy_device(None) };
        if self.validated {
            turn.validated_device_destroyed();
        }
        drop(turn);
        if let Some((loader, surface)) = self.surface.take() {
            // SAFETY: the backend destroyed every swapchain of the surface before.
            unsafe { loader.destroy_surface(surface, None) };
        }
        if let Some((loader, messenger)) = self.debug.take() {
            // SAFETY: the messenger belongs to this instance and is destroyed once.
            unsafe { loader.destroy_debug_utils_messenger(messenger, None) };
        }
        validation::release_all(&self.diagnostics);
        // SAFETY: taken once, here; the field is not used again.
        let shared = unsafe { ManuallyDrop::take(&mut self.shared) };
        SharedInstance::release(shared, &self.diagnostics);
    }
}
