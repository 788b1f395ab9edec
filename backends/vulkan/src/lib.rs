//! Vulkan backend.
