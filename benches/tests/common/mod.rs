//! What the capture tests share: scratch files, a validating Vulkan backend, and the final
//! frame of a replay.

#![allow(dead_code)] // Each test file uses part of it.

pub mod scene;

use std::path::PathBuf;

use xnagraph_benches::replay::replay;
use xnagraph_graph::capture::Capture;
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

/// Replays `capture` once on a validating Vulkan backend (any validation message fails) and
/// returns its final back buffer.
pub fn replay_final(capture: &Capture) -> Vec<u8> {
    let mut backend = vulkan();
    let run = replay(&mut backend, capture, 1, None, || {}).unwrap();
    let messages = xnagraph_graph::Backend::diagnostics(&backend).take_messages();
    assert!(messages.is_empty(), "{messages:?}");
    run.final_back_buffer
}
