//! What the capture tests share: scratch files, validating devices and backends (Vulkan, and
//! SDL_gpu poisoning what a plan leaves undefined), and the final frame of a replay.

#![allow(dead_code)] // Each test file uses part of it.

pub mod scene;

use std::path::PathBuf;

use xnagraph::{
    BackendKind, DeviceOptions, GraphicsDevice, GraphicsProfile, PresentationParameters,
};
use xnagraph_benches::replay::replay;
use xnagraph_graph::capture::Capture;
use xnagraph_graph::Backend;
use xnagraph_sdlgpu::{SdlGpuBackend, SdlGpuConfig};
use xnagraph_vulkan::{VulkanBackend, VulkanConfig};

/// A path in the test's scratch directory, with no file there yet.
pub fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// A Vulkan backend with validation on.
pub fn vulkan() -> VulkanBackend {
    VulkanBackend::new(VulkanConfig { validation: true, ..VulkanConfig::default() }).unwrap()
}

/// A validating device on `backend` with a `width` × `height` back buffer.
pub fn device_on(backend: BackendKind, width: i32, height: i32) -> GraphicsDevice {
    let params = PresentationParameters {
        back_buffer_width: width,
        back_buffer_height: height,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions { backend, validation: true, ..DeviceOptions::from_env() };
    GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap()
}

/// An SDL_gpu backend in debug mode (the Khronos layer underneath), poisoning what the plan
/// leaves undefined: an image a restore did not write shows magenta.
pub fn sdlgpu() -> SdlGpuBackend {
    let config = SdlGpuConfig { debug_mode: true, poison_undefined: true, ..Default::default() };
    SdlGpuBackend::new(config).unwrap()
}

/// Replays `capture` once on `backend` (any validation message fails); its final back buffer.
pub fn replay_final_on(backend: &mut dyn Backend, capture: &Capture) -> Vec<u8> {
    let run = replay(backend, capture, 1, None, || {}).unwrap();
    let messages = backend.diagnostics().take_messages();
    assert!(messages.is_empty(), "{messages:?}");
    run.final_back_buffer
}

/// Replays `capture` once on a validating Vulkan backend (any validation message fails) and
/// returns its final back buffer.
pub fn replay_final(capture: &Capture) -> Vec<u8> {
    replay_final_on(&mut vulkan(), capture)
}
