//! A test switch that keeps the GPU from starting submitted work until the host says so.
//!
//! [`crate::VulkanBackend::hold_gpu`] makes every later submission wait on a timeline
//! semaphore that only [`GpuHold::release`] (or dropping the hold) signals from the host. Tests
//! use it to prove that something never waits for a frame the GPU has not finished: while held,
//! such a wait could only time out.

use ash::vk;
use xnagraph_graph::BackendError;

use crate::vk_error;

/// Keeps the GPU of one backend from running submissions made after
/// [`crate::VulkanBackend::hold_gpu`] until [`GpuHold::release`] or drop.
pub struct GpuHold {
    device: ash::Device,
    semaphore: vk::Semaphore,
    released: bool,
}

impl GpuHold {
    /// Creates the semaphore submissions wait on (value 0, released at 1).
    pub(crate) fn new(device: &ash::Device) -> Result<(GpuHold, vk::Semaphore), BackendError> {
        let mut kind = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(0);
        let info = vk::SemaphoreCreateInfo::default().push_next(&mut kind);
        // SAFETY: a valid create info on a live device with timelineSemaphore enabled.
        let semaphore = unsafe { device.create_semaphore(&info, None) }
            .map_err(|e| vk_error("vkCreateSemaphore", e))?;
        Ok((GpuHold { device: device.clone(), semaphore, released: false }, semaphore))
    }

    /// Lets the held submissions run.
    pub fn release(mut self) -> Result<(), BackendError> {
        self.signal()
    }

    fn signal(&mut self) -> Result<(), BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        if std::mem::replace(&mut self.released, true) {
            return Ok(());
        }
        let info = vk::SemaphoreSignalInfo::default().semaphore(self.semaphore).value(1);
        // SAFETY: the semaphore lives until the backend is dropped, which waits for the GPU
        // first; a host signal to a greater value is always valid.
        unsafe { self.device.signal_semaphore(&info) }.map_err(|e| vk_error("vkSignalSemaphore", e))
    }
}

impl Drop for GpuHold {
    /// Releases the GPU, so a forgotten hold cannot leave the backend waiting forever.
    fn drop(&mut self) {
        let _ = self.signal();
    }
}
