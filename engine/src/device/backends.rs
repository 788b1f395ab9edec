//! The backends this build has, and the one place a backend crate is named.
//!
//! In: the device options (and, for a windowed device, the window; for a device on a chosen
//! adapter, that adapter's identity). Out: the boxed [`Backend`] a device records for, made
//! from the options' configuration, or `NotSupported` naming the Cargo feature for a backend
//! this build was made without (`vulkan`, `sdlgpu`); and the adapters each backend lists. The
//! null backend is always built: tests of the engine's contract use it.

use std::sync::Arc;

use xnagraph_graph::null::{NullBackend, NullConfig, NullProbe};
use xnagraph_graph::{AdapterIdentity, AdapterInfo, Backend};

use crate::device::options::{BackendKind, DeviceOptions};
use crate::error::{Result, XnaError};

/// The frames-in-flight bound the options ask for (at least one).
pub(crate) fn frames_in_flight(options: &DeviceOptions) -> u32 {
    options.frames_in_flight.max(1)
}

/// The adapters `kind` lists, its default first (see `GraphicsAdapter::adapters_for`).
pub(crate) fn adapters(kind: BackendKind) -> Result<Vec<AdapterInfo>> {
    match kind {
        #[cfg(feature = "vulkan")]
        BackendKind::Vulkan => Ok(xnagraph_vulkan::adapters()?),
        #[cfg(feature = "sdlgpu")]
        BackendKind::SdlGpu => {
            let options = DeviceOptions { backend: kind, ..DeviceOptions::default() };
            let backend = xnagraph_sdlgpu::SdlGpuBackend::new(sdlgpu_config(&options))?;
            Ok(vec![AdapterInfo::of(&backend)])
        }
        BackendKind::Null => Ok(vec![AdapterInfo::of(&NullBackend::new(NullConfig::default()))]),
        #[allow(unreachable_patterns)]
        kind => Err(not_built(kind)),
    }
}

/// A headless backend of the kind the options name on the adapter `adapter` identifies, and
/// the null backend's probe. Vulkan creates its device on that physical device (by uuid); SDL
/// 3.4 chooses its own device, so on SDL_gpu an adapter other than the one SDL chose (by the
/// name SDL reports) is `NotSupported`; the null backend has one adapter.
pub(crate) fn headless_on(
    options: &DeviceOptions,
    adapter: &AdapterIdentity,
) -> Result<(Box<dyn Backend>, Option<NullProbe>)> {
    #[cfg(feature = "vulkan")]
    let (backend, probe) = if options.backend == BackendKind::Vulkan {
        let config =
            xnagraph_vulkan::VulkanConfig { adapter: Some(adapter.uuid), ..vulkan_config(options) };
        (Box::new(xnagraph_vulkan::VulkanBackend::new(config)?) as Box<dyn Backend>, None)
    } else {
        headless(options)?
    };
    #[cfg(not(feature = "vulkan"))]
    let (backend, probe) = headless(options)?;
    let chosen = backend.adapter_identity();
    let same = match options.backend {
        BackendKind::Vulkan => chosen.uuid == adapter.uuid,
        _ => chosen.description == adapter.description,
    };
    if !same {
        return Err(XnaError::not_supported(format!(
            "The {:?} backend chooses its own adapter ({}); it cannot create a device on {}.",
            options.backend, chosen.description, adapter.description
        )));
    }
    Ok((backend, probe))
}

/// The Vulkan backend's configuration from the device options.
#[cfg(feature = "vulkan")]
fn vulkan_config(options: &DeviceOptions) -> xnagraph_vulkan::VulkanConfig {
    use crate::device::options::TextureIndexing;
    xnagraph_vulkan::VulkanConfig {
        validation: options.validation,
        frames_in_flight: frames_in_flight(options),
        timeout: options.timeout,
        poison_undefined: options.poison_undefined,
        pool_keep_submissions: options.target_pool_frames,
        texture_indexing: match options.texture_indexing {
            TextureIndexing::Auto => xnagraph_vulkan::TextureIndexing::Auto,
            TextureIndexing::Runs => xnagraph_vulkan::TextureIndexing::Runs,
            TextureIndexing::Branches => xnagraph_vulkan::TextureIndexing::Branches,
        },
        gpu_timing: options.gpu_timing,
        mapped_sprites: options.mapped_sprites,
        transient_aliasing: options.transient_aliasing,
        pipeline_cache: None,
        adapter: None,
    }
}

/// The SDL_gpu backend's configuration from the device options: SDL's debug mode in debug
/// builds, or whenever validation is asked for.
#[cfg(feature = "sdlgpu")]
fn sdlgpu_config(options: &DeviceOptions) -> xnagraph_sdlgpu::SdlGpuConfig {
    xnagraph_sdlgpu::SdlGpuConfig {
        debug_mode: cfg!(debug_assertions) || options.validation,
        frames_in_flight: frames_in_flight(options),
        timeout: options.timeout,
        poison_undefined: options.poison_undefined,
    }
}

/// `NotSupported` for a backend this build lacks.
#[cfg_attr(all(feature = "vulkan", feature = "sdlgpu"), allow(dead_code))]
fn not_built(kind: BackendKind) -> XnaError {
    let (name, feature) = match kind {
        BackendKind::Vulkan => ("Vulkan", "vulkan"),
        BackendKind::SdlGpu => ("SDL_gpu", "sdlgpu"),
        BackendKind::Null => ("null", ""),
    };
    XnaError::not_supported(format!(
        "The {name} backend is not built in: build xnagraph with the `{feature}` feature."
    ))
}

/// A headless backend of the kind the options name, and the null backend's probe.
pub(crate) fn headless(options: &DeviceOptions) -> Result<(Box<dyn Backend>, Option<NullProbe>)> {
    match options.backend {
        #[cfg(feature = "vulkan")]
        BackendKind::Vulkan => {
            Ok((Box::new(xnagraph_vulkan::VulkanBackend::new(vulkan_config(options))?), None))
        }
        #[cfg(feature = "sdlgpu")]
        BackendKind::SdlGpu => {
            Ok((Box::new(xnagraph_sdlgpu::SdlGpuBackend::new(sdlgpu_config(options))?), None))
        }
        BackendKind::Null => {
            let backend = NullBackend::new(NullConfig {
                frames_in_flight: frames_in_flight(options),
                timeout: options.timeout,
            });
            let probe = backend.probe();
            Ok((Box::new(backend), Some(probe)))
        }
        #[allow(unreachable_patterns)]
        kind => Err(not_built(kind)),
    }
}

/// A backend of the kind the options name presenting to `window`.
pub(crate) fn for_window<W>(options: &DeviceOptions, window: Arc<W>) -> Result<Box<dyn Backend>>
where
    W: raw_window_handle::HasWindowHandle
        + raw_window_handle::HasDisplayHandle
        + Send
        + Sync
        + 'static,
{
    match options.backend {
        #[cfg(feature = "vulkan")]
        BackendKind::Vulkan => Ok(Box::new(xnagraph_vulkan::VulkanBackend::for_window(
            vulkan_config(options),
            window,
        )?)),
        #[cfg(feature = "sdlgpu")]
        BackendKind::SdlGpu => Ok(Box::new(xnagraph_sdlgpu::SdlGpuBackend::for_window(
            sdlgpu_config(options),
            window,
        )?)),
        BackendKind::Null => {
            Err(XnaError::not_supported("The null backend cannot present to a window."))
        }
        #[allow(unreachable_patterns)]
        kind => {
            drop(window);
            Err(not_built(kind))
        }
    }
}
