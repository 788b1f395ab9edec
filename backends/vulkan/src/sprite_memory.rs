//! Sprite arenas the GPU reads in place.
//!
//! In: a capacity, asked for by the recorder on the game thread. Out: a [`MappedSprites`] — a
//! vertex buffer in host-visible memory, mapped for its whole life — that SpriteBatch writes
//! its instances into and a frame's sprite draws read directly: no copy at submission. Device-
//! local host-visible memory is preferred (on a discrete GPU with a resizable BAR it is
//! write-combined: writes bypass the CPU's caches, several times faster than writing cached
//! memory and copying it over); any host-visible coherent memory serves otherwise.
//!
//! Lifetime: each arena holds the device ([`Gpu`]) by `Arc`, so the mapping stays valid for as
//! long as the recorder holds the arena, even past the backend; the device is destroyed by
//! whichever lets it go last. Submission `n` that reads an arena marks it; the arena is
//! [`SpriteMemory::idle`] once the timeline has reached `n`, and is destroyed only then (its
//! drop waits for it).

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ash::vk;
use vk_mem::Alloc;
use xnagraph_graph::{
    SpriteInstance, SpriteMemory, SpriteMemorySource, SubmissionId, SubmissionWaiter,
};

use crate::completion::Timeline;
use crate::device::Gpu;

/// A vertex buffer of sprite instances, mapped while it lives (see the module documentation).
pub(crate) struct MappedSprites {
    gpu: Arc<Gpu>,
    timeline: Arc<Timeline>,
    pub buffer: vk::Buffer,
    alloc: vk_mem::Allocation,
    /// The mapping, `capacity` instances long.
    mapped: *mut SpriteInstance,
    capacity: usize,
    /// The last submission that reads the buffer (0: none).
    last_use: AtomicU64,
}

// SAFETY: the mapping is plain memory owned by this value alone: it is written only through
// `&mut self` and read through `&self`, and the allocation and device it belongs to live as
// long as `self` (the `Arc<Gpu>`).
unsafe impl Send for MappedSprites {}
// SAFETY: as above; `&self` gives only reads of the mapping and of atomics.
unsafe impl Sync for MappedSprites {}

impl MappedSprites {
    /// Marks the buffer read by submission `id`.
    pub fn used_by(&self, id: SubmissionId) {
        self.last_use.fetch_max(id.0, Ordering::AcqRel);
    }

    /// Whether the buffer belongs to `gpu`'s device.
    pub fn belongs_to(&self, gpu: &Arc<Gpu>) -> bool {
        Arc::ptr_eq(&self.gpu, gpu)
    }

    /// Makes the first `len` instances visible to the device (a no-op for coherent memory).
    pub fn flush(&self, len: usize) -> Result<(), xnagraph_graph::BackendError> {
        let _call = xnagraph_graph::native_device::device_call();
        let bytes = (len * std::mem::size_of::<SpriteInstance>()) as u64;
        self.gpu
            .allocator
            .flush_allocation(&self.alloc, 0, bytes)
            .map_err(|e| crate::vk_error("vmaFlushAllocation", e))
    }
}

// SAFETY: every call gives the whole mapping, which stays mapped at one address until the
// buffer is destroyed in `drop`; nothing else writes it.
unsafe impl SpriteMemory for MappedSprites {
    fn instances(&self) -> &[SpriteInstance] {
        // SAFETY: the mapping holds `capacity` instances (any bits are a valid instance) and
        // lives as long as `self`; `&self` excludes writers.
        unsafe { std::slice::from_raw_parts(self.mapped, self.capacity) }
    }

    fn instances_mut(&mut self) -> &mut [SpriteInstance] {
        // SAFETY: as in `instances`; `&mut self` makes this the only view of the mapping.
        unsafe { std::slice::from_raw_parts_mut(self.mapped, self.capacity) }
    }

    fn idle(&self) -> bool {
        let last = self.last_use.load(Ordering::Acquire);
        last == 0 || self.timeline.reached(SubmissionId(last))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Drop for MappedSprites {
    /// Waits for the last submission that reads the buffer, then frees it.
    fn drop(&mut self) {
        let _call = xnagraph_graph::native_device::device_call();
        let last = self.last_use.load(Ordering::Acquire);
        if last != 0 && self.timeline.wait_for(SubmissionId(last)).is_err() {
            // A lost device: nothing executes any more. Wait for the queue, which returns at
            // once when the device is lost.
            // SAFETY: the device is live (held by `self.gpu`).
            let _ = unsafe { self.gpu.device.device_wait_idle() };
        }
        // SAFETY: no submission reads the buffer any more; the allocator is the one that made
        // it and outlives this call (the `Arc<Gpu>`).
        unsafe { self.gpu.allocator.destroy_buffer(self.buffer, &mut self.alloc) };
        crate::device::validation::forget(self.buffer);
        self.gpu.diagnostics.object_destroyed();
    }
}

/// Makes [`MappedSprites`] from any thread (vk-mem's allocator is internally synchronized).
pub(crate) struct SpriteSource {
    pub gpu: Arc<Gpu>,
    pub timeline: Arc<Timeline>,
}

impl SpriteMemorySource for SpriteSource {
    fn allocate(&self, capacity: usize) -> Option<Box<dyn SpriteMemory>> {
        let _call = xnagraph_graph::native_device::device_call();
        let size = capacity.checked_mul(std::mem::size_of::<SpriteInstance>())? as u64;
        let info = vk::BufferCreateInfo::default()
            .size(size.max(16))
            .usage(vk::BufferUsageFlags::VERTEX_BUFFER)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        let alloc_info = vk_mem::AllocationCreateInfo {
            flags: vk_mem::AllocationCreateFlags::MAPPED,
            usage: vk_mem::MemoryUsage::Unknown,
            required_flags: vk::MemoryPropertyFlags::HOST_VISIBLE,
            preferred_flags: vk::MemoryPropertyFlags::DEVICE_LOCAL
                | vk::MemoryPropertyFlags::HOST_COHERENT,
            ..Default::default()
        };
        // SAFETY: a valid create info; the allocator outlives the buffer (the `Arc<Gpu>`).
        let (buffer, mut alloc) =
            unsafe { self.gpu.allocator.create_buffer(&info, &alloc_info) }.ok()?;
        let mapped = self.gpu.allocator.get_allocation_info(&alloc).mapped_data;
        if mapped.is_null() || !mapped.cast::<SpriteInstance>().is_aligned() {
            // SAFETY: just made, never used.
            unsafe { self.gpu.allocator.destroy_buffer(buffer, &mut alloc) };
            return None;
        }
        self.gpu.diagnostics.object_created();
        crate::device::validation::claim(buffer, &self.gpu.diagnostics);
        tracing::debug!(capacity, "sprite arena in mapped memory");
        Some(Box::new(MappedSprites {
            gpu: self.gpu.clone(),
            timeline: self.timeline.clone(),
            buffer,
            alloc,
            mapped: mapped.cast(),
            capacity,
            last_use: AtomicU64::new(0),
        }))
    }
}
