//! The Vulkan loader and instances, shared by every device of the process.
//!
//! In: an [`InstanceKey`] (validation on or off, and the window system's surface extensions:
//! all that changes how an instance is created). Out: an `Arc<SharedInstance>`, the live
//! instance of that key, created by the first device of that key. Each device holds the Arc and
//! registers its own debug-utils messenger on the instance (see `device`), destroyed with it.
//!
//! Decided here:
//! - The loader (`ash::Entry`, the system's libvulkan) is loaded once and kept for the life of
//!   the process, with the answers of its pre-instance queries (layers, instance extensions).
//!   An instance may be released by whichever thread drops the last device, at any time up to
//!   process exit; an entry that lives as long as the process outlives every instance by
//!   construction. Loading it per device, as before, loaded the loader, its layers and the
//!   driver libraries again for every device, and on NVIDIA's driver about twenty such cycles
//!   on different threads exhausted the static TLS block ("cannot allocate memory in static
//!   TLS block").
//! - One instance per key, kept for the life of the process: the registry holds an `Arc` per
//!   key, so every device of that key, made on any thread at any time, shares it. Destroying
//!   the instance with its last device and creating it again with the next (a registry of
//!   `Weak`s) unloads and reloads the driver with it: on NVIDIA's driver, a hundred devices
//!   made one after another on a hundred threads that way ended with `vkCreateInstance`
//!   failing ("Unable to find a Vulkan driver") once the driver's reload no longer found room
//!   in the static TLS block. An instance and its messengers' absence cost nothing while no
//!   device exists; the process's exit releases them. [`instances_created`] and
//!   [`loader_loads`] count, for tests.
//! - Messages during `vkCreateInstance` and `vkDestroyInstance`, when no device messenger
//!   exists, are caught by a messenger chained into the create info: they are reported to the
//!   device whose creation made the instance, and to the device whose drop destroys it.

use std::ffi::CStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use ash::vk;
use xnagraph_graph::{BackendError, Diagnostics};

use crate::vk_error;

pub(crate) const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

static LOADER: OnceLock<Result<Loader, String>> = OnceLock::new();
static LOADER_LOADS: AtomicUsize = AtomicUsize::new(0);
static INSTANCES_CREATED: AtomicUsize = AtomicUsize::new(0);
/// The instance of each key made so far, kept for the process.
static INSTANCES: Mutex<Vec<(InstanceKey, Arc<SharedInstance>)>> = Mutex::new(Vec::new());

/// How many times this process has loaded the Vulkan loader: 1 once any Vulkan backend was
/// made (or tried), never more.
pub fn loader_loads() -> usize {
    LOADER_LOADS.load(Ordering::Relaxed)
}

/// How many Vulkan instances this process has created: one per validation setting and window
/// system, shared by every device with those and kept for the life of the process.
pub fn instances_created() -> usize {
    INSTANCES_CREATED.load(Ordering::Relaxed)
}

/// The loaded loader and what it answered before any instance existed.
pub(crate) struct Loader {
    pub entry: ash::Entry,
    pub has_validation_layer: bool,
    pub has_debug_utils: bool,
}

/// The process's loader, loaded on first use.
pub(crate) fn loader() -> Result<&'static Loader, BackendError> {
    LOADER
        .get_or_init(|| {
            LOADER_LOADS.fetch_add(1, Ordering::Relaxed);
            // SAFETY: loading the system Vulkan loader; it stays loaded for the process.
            let entry =
                unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
            // SAFETY: plain queries on the loaded entry.
            let layers = unsafe { entry.enumerate_instance_layer_properties() }
                .map_err(|e| format!("vkEnumerateInstanceLayerProperties: {e}"))?;
            // SAFETY: as above.
            let extensions = unsafe { entry.enumerate_instance_extension_properties(None) }
                .map_err(|e| format!("vkEnumerateInstanceExtensionProperties: {e}"))?;
            Ok(Loader {
                has_validation_layer: layers
                    .iter()
                    .any(|l| l.layer_name_as_c_str().is_ok_and(|n| n == VALIDATION_LAYER)),
                has_debug_utils: extensions.iter().any(|e| {
                    e.extension_name_as_c_str().is_ok_and(|n| n == ash::ext::debug_utils::NAME)
                }),
                entry,
            })
        })
        .as_ref()
        .map_err(|e| BackendError::NotSupported(e.clone()))
}

/// What makes two instances differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct InstanceKey {
    /// Khronos' validation layer with synchronization validation.
    pub validate: bool,
    /// The instance extensions a window of the display needs (none headless).
    pub surface_extensions: Vec<&'static CStr>,
}

/// One VkInstance and the messenger that reports its creation and destruction.
pub(crate) struct SharedInstance {
    pub instance: ash::Instance,
    /// Reports what the chained messenger heard (its user data); forwarded to a device.
    lifecycle: Box<Diagnostics>,
}

impl SharedInstance {
    /// The live instance of `key`, or a new one; what creating it reported goes to `creator`.
    pub fn get(
        key: &InstanceKey,
        creator: &Diagnostics,
    ) -> Result<Arc<SharedInstance>, BackendError> {
        let mut registry = INSTANCES.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, live)) = registry.iter().find(|(k, _)| k == key) {
            return Ok(live.clone());
        }
        let shared = Arc::new(Self::create(key)?);
        for message in shared.lifecycle.take_messages() {
            creator.report(message);
        }
        registry.push((key.clone(), shared.clone()));
        Ok(shared)
    }

    fn create(key: &InstanceKey) -> Result<SharedInstance, BackendError> {
        let loader = loader()?;
        let lifecycle = Box::new(Diagnostics::default());
        let app_info = vk::ApplicationInfo::default()
            .application_name(c"xnagraph")
            .engine_name(c"xnagraph")
            .api_version(vk::API_VERSION_1_3);
        let layer_names = [VALIDATION_LAYER.as_ptr()];
        let mut extension_names: Vec<_> =
            key.surface_extensions.iter().map(|e| e.as_ptr()).collect();
        if key.validate {
            extension_names.push(ash::ext::debug_utils::NAME.as_ptr());
            extension_names.push(ash::ext::validation_features::NAME.as_ptr());
        } else if loader.has_debug_utils {
            // Without validation, debug utils alone (object names and labels for capture tools).
            extension_names.push(ash::ext::debug_utils::NAME.as_ptr());
        }
        let enabled_checks = [vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION];
        let mut features =
            vk::ValidationFeaturesEXT::default().enabled_validation_features(&enabled_checks);
        let mut chained_messenger = crate::device::validation::messenger_info(&lifecycle);
        let mut info = vk::InstanceCreateInfo::default()
            .application_info(&app_info)
            .enabled_extension_names(&extension_names);
        if key.validate {
            info = info
                .enabled_layer_names(&layer_names)
                .push_next(&mut features)
                .push_next(&mut chained_messenger);
        }
        // SAFETY: every pointer in the create info refers to locals alive across the call; the
        // chained messenger's user data is boxed and outlives the instance.
        let instance = unsafe { loader.entry.create_instance(&info, None) }
            .map_err(|e| vk_error("vkCreateInstance", e))?;
        INSTANCES_CREATED.fetch_add(1, Ordering::Relaxed);
        Ok(SharedInstance { instance, lifecycle })
    }

    /// Lets go of a device's `shared`. The registry keeps the instance for the process, so
    /// this destroys it only if the registry no longer holds it; what destroying it reported
    /// then goes to `releaser`. Every device and messenger of the caller's must be gone.
    pub fn release(shared: Arc<SharedInstance>, releaser: &Diagnostics) {
        if let Some(last) = Arc::into_inner(shared) {
            let lifecycle = (*last.lifecycle).clone();
            drop(last);
            for message in lifecycle.take_messages() {
                releaser.report(message);
            }
        }
    }
}

impl Drop for SharedInstance {
    fn drop(&mut self) {
        // SAFETY: the last device holding the instance destroyed its children first.
        unsafe { self.instance.destroy_instance(None) };
    }
}
