//! Which physical device a backend opens: each one examined for what xnagraph needs (Vulkan
//! 1.3, dynamic rendering, synchronization2, presenting to the window when there is one), the
//! one [`crate::VulkanConfig::adapter`] names or the best-ranked (discrete, integrated,
//! virtual, CPU), and the list of usable adapters a game can choose from ([`adapters`]).

use std::ffi::CStr;

use ash::vk;
use xnagraph_graph::{AdapterIdentity, AdapterInfo, BackendError, Diagnostics};

use super::instance::{InstanceKey, SharedInstance};
use super::{capabilities_of, Features};
use crate::vk_error;

fn device_type_rank(ty: vk::PhysicalDeviceType) -> u32 {
    match ty {
        vk::PhysicalDeviceType::DISCRETE_GPU => 0,
        vk::PhysicalDeviceType::INTEGRATED_GPU => 1,
        vk::PhysicalDeviceType::VIRTUAL_GPU => 2,
        vk::PhysicalDeviceType::CPU => 3,
        _ => 4,
    }
}

fn device_type_name(ty: vk::PhysicalDeviceType) -> &'static str {
    match ty {
        vk::PhysicalDeviceType::DISCRETE_GPU => "discrete",
        vk::PhysicalDeviceType::INTEGRATED_GPU => "integrated",
        vk::PhysicalDeviceType::VIRTUAL_GPU => "virtual",
        vk::PhysicalDeviceType::CPU => "cpu",
        _ => "other",
    }
}

/// The best-ranked usable adapter (discrete before integrated before virtual before CPU); among
/// equals, the first the driver listed.
fn best_candidate(candidates: impl Iterator<Item = Candidate>) -> Option<Candidate> {
    candidates.min_by_key(|c| c.rank)
}

pub(super) struct Candidate {
    pub(super) physical: vk::PhysicalDevice,
    pub(super) queue_family: u32,
    pub(super) rank: u32,
    pub(super) name: String,
    /// The driver's name of the adapter, without the device type.
    pub(super) description: String,
    pub(super) vendor_id: u32,
    pub(super) device_id: u32,
    pub(super) uuid: [u8; 16],
    pub(super) features: Features,
    pub(super) timestamp_valid_bits: u32,
}

/// A usable adapter, or `None`: Vulkan 1.3, dynamic rendering, synchronization2, a graphics queue
/// (which, for a device with a window, can also present to its surface, with VK_KHR_swapchain).
fn examine(
    instance: &ash::Instance,
    physical: vk::PhysicalDevice,
    surface: Option<&(ash::khr::surface::Instance, vk::SurfaceKHR)>,
) -> Option<Candidate> {
    // SAFETY: `physical` was enumerated from this live instance.
    let props = unsafe { instance.get_physical_device_properties(physical) };
    if props.api_version < vk::API_VERSION_1_3 {
        return None;
    }
    let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
    let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut features2 =
        vk::PhysicalDeviceFeatures2::default().push_next(&mut v13).push_next(&mut v12);
    // SAFETY: as above; the feature chain is valid and lives across the call.
    unsafe { instance.get_physical_device_features2(physical, &mut features2) };
    let core = features2.features;
    if v13.dynamic_rendering == vk::FALSE || v13.synchronization2 == vk::FALSE {
        return None;
    }
    // SAFETY: as above.
    let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
    let presents = |family: usize| match surface {
        None => true,
        // SAFETY: `physical` and `surface` belong to this live instance.
        Some((loader, surface)) => {
            unsafe { loader.get_physical_device_surface_support(physical, family as u32, *surface) }
                .unwrap_or(false)
        }
    };
    let queue_family = families.iter().enumerate().position(|(i, f)| {
        f.queue_flags.contains(vk::QueueFlags::GRAPHICS) && f.queue_count > 0 && presents(i)
    })?;
    // SAFETY: as above.
    let extensions =
        unsafe { instance.enumerate_device_extension_properties(physical) }.unwrap_or_default();
    let offers = |name: &CStr| {
        extensions.iter().any(|e| e.extension_name_as_c_str().is_ok_and(|n| n == name))
    };
    if surface.is_some() && !offers(ash::khr::swapchain::NAME) {
        return None;
    }
    let instance_divisor = offers(ash::ext::vertex_attribute_divisor::NAME) && {
        let mut divisor = vk::PhysicalDeviceVertexAttributeDivisorFeaturesEXT::default();
        let mut features2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut divisor);
        // SAFETY: as above; the extension is offered, so its feature structure may be chained.
        unsafe { instance.get_physical_device_features2(physical, &mut features2) };
        divisor.vertex_attribute_instance_rate_divisor == vk::TRUE
    };
    let name = props
        .device_name_as_c_str()
        .map_or_else(|_| "unnamed adapter".to_owned(), |n| n.to_string_lossy().into_owned());
    let mut id = vk::PhysicalDeviceIDProperties::default();
    let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut id);
    // SAFETY: as above; core in Vulkan 1.1, and the chain lives across the call.
    unsafe { instance.get_physical_device_properties2(physical, &mut props2) };
    Some(Candidate {
        physical,
        queue_family: queue_family as u32,
        rank: device_type_rank(props.device_type),
        description: name.clone(),
        vendor_id: props.vendor_id,
        device_id: props.device_id,
        uuid: id.device_uuid,
        timestamp_valid_bits: families[queue_family].timestamp_valid_bits,
        name: format!("{name} [{}]", device_type_name(props.device_type)),
        features: Features {
            fill_mode_non_solid: core.fill_mode_non_solid == vk::TRUE,
            sampler_anisotropy: core.sampler_anisotropy == vk::TRUE,
            independent_blend: core.independent_blend == vk::TRUE,
            nonuniform_indexing: v12.shader_sampled_image_array_non_uniform_indexing == vk::TRUE,
            occlusion_query_precise: core.occlusion_query_precise == vk::TRUE,
            instance_divisor,
            sample_rate_shading: core.sample_rate_shading == vk::TRUE,
        },
    })
}

pub(super) fn choose(
    instance: &ash::Instance,
    surface: Option<&(ash::khr::surface::Instance, vk::SurfaceKHR)>,
    adapter: Option<[u8; 16]>,
) -> Result<Candidate, BackendError> {
    // SAFETY: a plain query on a live instance.
    let physicals = unsafe { instance.enumerate_physical_devices() }
        .map_err(|e| vk_error("vkEnumeratePhysicalDevices", e))?;
    let offered = physicals.len();
    let usable = physicals.into_iter().filter_map(|p| examine(instance, p, surface));
    let chosen = match adapter {
        None => best_candidate(usable),
        Some(uuid) => {
            let named = usable.into_iter().find(|c| c.uuid == uuid);
            if named.is_none() {
                return Err(BackendError::NotSupported(format!(
                    "the adapter asked for is not a usable Vulkan 1.3 adapter of this \
                     instance{}",
                    if surface.is_some() { " that can present to the window" } else { "" }
                )));
            }
            named
        }
    };
    match &chosen {
        Some(c) => tracing::info!(
            adapter = %c.name,
            offered,
            presents = surface.is_some(),
            "Vulkan adapter chosen"
        ),
        None => tracing::warn!(offered, "no usable Vulkan adapter"),
    }
    chosen.ok_or_else(|| {
        BackendError::NotSupported(
            "no Vulkan 1.3 adapter with dynamicRendering and synchronization2".into(),
        )
    })
}

/// The usable adapters of the process's headless instance (no validation), best-ranked first
/// (discrete, integrated, virtual, CPU, the order a device without
/// [`crate::VulkanConfig::adapter`] picks by; among equals, the driver's order), each with the
/// capabilities, format table and depth substitutions a device on it has. No device is
/// created: everything comes from the physical device's properties, features and format
/// properties, measured as a device's are.
pub fn adapters() -> Result<Vec<AdapterInfo>, BackendError> {
    let diagnostics = Diagnostics::default();
    let key = InstanceKey { validate: false, surface_extensions: Vec::new() };
    let shared = SharedInstance::get(&key, &diagnostics)?;
    let instance = &shared.instance;
    // SAFETY: a plain query on a live instance.
    let physicals = unsafe { instance.enumerate_physical_devices() }
        .map_err(|e| vk_error("vkEnumeratePhysicalDevices", e));
    let mut candidates: Vec<Candidate> = match physicals {
        Ok(p) => p.into_iter().filter_map(|p| examine(instance, p, None)).collect(),
        Err(e) => {
            SharedInstance::release(shared, &diagnostics);
            return Err(e);
        }
    };
    candidates.sort_by_key(|c| c.rank);
    let listed = candidates
        .iter()
        .map(|c| {
            // SAFETY: as above; `c.physical` was enumerated from this instance.
            let limits = unsafe { instance.get_physical_device_properties(c.physical) }.limits;
            let formats = crate::format::FormatTable::measure(instance, c.physical);
            AdapterInfo {
                identity: c.identity(),
                capabilities: capabilities_of(&limits, c.features),
                formats: xnagraph_graph::SurfaceFormat::ALL
                    .iter()
                    .map(|&f| (f, formats.support(f)))
                    .collect(),
                applied_depth: [
                    xnagraph_graph::DepthFormat::None,
                    formats.applied_depth(xnagraph_graph::DepthFormat::Depth16),
                    formats.applied_depth(xnagraph_graph::DepthFormat::Depth24),
                    formats.applied_depth(xnagraph_graph::DepthFormat::Depth24Stencil8),
                ],
            }
        })
        .collect();
    SharedInstance::release(shared, &diagnostics);
    Ok(listed)
}

impl Candidate {
    pub(super) fn identity(&self) -> AdapterIdentity {
        AdapterIdentity {
            description: self.description.clone(),
            vendor_id: self.vendor_id,
            device_id: self.device_id,
            uuid: self.uuid,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(ty: vk::PhysicalDeviceType, name: &str) -> Candidate {
        Candidate {
            physical: vk::PhysicalDevice::null(),
            queue_family: 0,
            rank: device_type_rank(ty),
            name: name.to_owned(),
            description: name.to_owned(),
            vendor_id: 0,
            device_id: 0,
            uuid: [0; 16],
            features: Features {
                fill_mode_non_solid: true,
                sampler_anisotropy: true,
                independent_blend: true,
                nonuniform_indexing: true,
                occlusion_query_precise: true,
                instance_divisor: true,
                sample_rate_shading: true,
            },
            timestamp_valid_bits: 64,
        }
    }

    #[test]
    fn a_discrete_gpu_is_chosen_over_a_cpu_device() {
        use vk::PhysicalDeviceType as T;
        let listed = [
            candidate(T::CPU, "llvmpipe"),
            candidate(T::INTEGRATED_GPU, "igpu"),
            candidate(T::DISCRETE_GPU, "dgpu"),
            candidate(T::VIRTUAL_GPU, "vgpu"),
        ];
        let best = best_candidate(listed.into_iter()).map(|c| c.name);
        assert_eq!(best.as_deref(), Some("dgpu"));
        let no_discrete = [candidate(T::CPU, "llvmpipe"), candidate(T::INTEGRATED_GPU, "igpu")];
        let best = best_candidate(no_discrete.into_iter()).map(|c| c.name);
        assert_eq!(best.as_deref(), Some("igpu"));
        let only_cpu = [candidate(T::CPU, "llvmpipe")];
        let best = best_candidate(only_cpu.into_iter()).map(|c| c.name);
        assert_eq!(
            best.as_deref(),
            Some("llvmpipe"),
            "a CPU device is used when it is all there is"
        );
    }
}
