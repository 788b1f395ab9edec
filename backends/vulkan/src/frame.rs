//! The frame ring and the host-visible buffers a frame writes through.
//!
//! In: how much a plan needs (vertex bytes, uniform slots, staging bytes, descriptor sets).
//! Out: a [`FrameSlot`] — command pool and buffer, fence, descriptor pool and grown-on-demand
//! [`HostBuffer`]s — ready to record into. There are `frames_in_flight` slots used round-robin;
//! a slot is reused only after its fence has signalled, so its buffers are rewritten only when
//! the GPU is done with them. Buffers outgrown by a plan are handed back to the caller to retire
//! like any other native object. Readback buffers live in the slot that copied into them until
//! the fence signals and their bytes are taken out.

use ash::vk;
use vk_mem::Alloc;
use xnagraph_graph::{BackendError, ReadbackId, SubmissionId};

use crate::device::Gpu;
use crate::{vk_error, VulkanBackend};

/// A persistently mapped buffer in host-visible memory.
pub(crate) struct HostBuffer {
    pub buffer: vk::Buffer,
    alloc: vk_mem::Allocation,
    pub size: u64,
}

/// Where [`HostBuffer::write_with`] puts the next part: an offset into the buffer's mapping.
pub(crate) struct MappedWriter<'a> {
    ptr: *mut u8,
    at: u64,
    size: u64,
    /// A part did not fit: nothing more is written, and the write fails.
    past_end: bool,
    buffer: std::marker::PhantomData<&'a HostBuffer>,
}

impl MappedWriter<'_> {
    /// Copies `bytes` after the parts put before.
    pub fn put(&mut self, bytes: &[u8]) {
        let end = self.at + bytes.len() as u64;
        if self.past_end || end > self.size {
            self.past_end = true;
            return;
        }
        // SAFETY: the range lies inside the mapping of `size` bytes (checked above); the GPU
        // does not use it now (the slot's fence has signalled), and `bytes` is host memory of
        // the caller's, not the mapping.
        unsafe { copy_to_mapped(bytes, self.ptr.add(self.at as usize)) };
        self.at = end;
    }
}

/// Copies of at least this many bytes are split across threads ([`copy_to_mapped`]).
const PARALLEL_COPY_BYTES: usize = 8 << 20;
/// Each thread of a split copy moves at least this many bytes.
const COPY_CHUNK_BYTES: usize = 4 << 20;
/// At most this many threads share one copy.
const MAX_COPY_THREADS: usize = 8;

/// Copies `bytes` to `dst`. A large copy (a million sprites are 52 MB a frame) is split into
/// contiguous chunks copied by scoped threads at once, since one core does not reach the
/// memory bandwidth of a large machine; a small one is a plain copy.
///
/// # Safety
/// `dst` must be valid for `bytes.len()` bytes of writes that nothing else reads or writes
/// during the call, and must not overlap `bytes`.
unsafe fn copy_to_mapped(bytes: &[u8], dst: *mut u8) {
    let parts =
        copy_parts(bytes.len(), || std::thread::available_parallelism().map_or(1, |n| n.get()));
    if parts < 2 {
        // SAFETY: the caller's contract.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, bytes.len()) };
        return;
    }
    let chunk = bytes.len().div_ceil(parts);
    // The destination's address, as an integer so each scoped thread can take its own chunk.
    let base = dst as usize;
    std::thread::scope(|scope| {
        for (i, part) in bytes.chunks(chunk).enumerate() {
            scope.spawn(move || {
                let to = (base + i * chunk) as *mut u8;
                // SAFETY: chunk `i` of the destination lies inside the caller's range, and
                // the chunks are disjoint, so no two threads write the same byte.
                unsafe { std::ptr::copy_nonoverlapping(part.as_ptr(), to, part.len()) };
            });
        }
    });
}

/// The threads a copy of `len` bytes is split across (1: a plain copy), given the
/// machine's `threads`. Asked only for a large copy: the standard library answers by reading
/// the process's cgroup files, which costs more than a frame's sprite copy (tens of
/// microseconds on every submission).
fn copy_parts(len: usize, threads: impl FnOnce() -> usize) -> usize {
    if len < PARALLEL_COPY_BYTES {
        return 1;
    }
    threads().min(MAX_COPY_THREADS).min(len / COPY_CHUNK_BYTES).max(1)
}

impl HostBuffer {
    /// `readback`: read by the host (random access) rather than written sequentially.
    pub fn new(
        gpu: &Gpu,
        size: u64,
        usage: vk::BufferUsageFlags,
        readback: bool,
    ) -> Result<HostBuffer, BackendError> {
        let size = size.max(16);
        let info = vk::BufferCreateInfo::default()
            .size(size)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        let host = if readback {
            vk_mem::AllocationCreateFlags::HOST_ACCESS_RANDOM
        } else {
            vk_mem::AllocationCreateFlags::HOST_ACCESS_SEQUENTIAL_WRITE
        };
        let alloc_info = vk_mem::AllocationCreateInfo {
            flags: host | vk_mem::AllocationCreateFlags::MAPPED,
            usage: vk_mem::MemoryUsage::Auto,
            ..Default::default()
        };
        // SAFETY: a valid create info; the allocator outlives the buffer.
        let (buffer, alloc) = unsafe { gpu.allocator.create_buffer(&info, &alloc_info) }
            .map_err(|e| vk_error("vmaCreateBuffer", e))?;
        gpu.diagnostics.object_created();
        crate::device::validation::claim(buffer, &gpu.diagnostics);
        Ok(HostBuffer { buffer, alloc, size })
    }

    fn mapped(&self, gpu: &Gpu) -> Result<*mut u8, BackendError> {
        let ptr = gpu.allocator.get_allocation_info(&self.alloc).mapped_data as *mut u8;
        if ptr.is_null() {
            return Err(BackendError::Native("host buffer is not mapped".into()));
        }
        Ok(ptr)
    }

    /// Copies `bytes` to `offset` and flushes them to the device.
    pub fn write(&self, gpu: &Gpu, offset: u64, bytes: &[u8]) -> Result<(), BackendError> {
        if offset + bytes.len() as u64 > self.size {
            return Err(BackendError::Native("write past the end of a host buffer".into()));
        }
        let ptr = self.mapped(gpu)?;
        // SAFETY: the mapping covers `size` bytes and the range was checked above; the GPU does
        // not use this range now (the slot's fence has signalled).
        unsafe { copy_to_mapped(bytes, ptr.add(offset as usize)) };
        gpu.allocator
            .flush_allocation(&self.alloc, offset, bytes.len() as u64)
            .map_err(|e| vk_error("vmaFlushAllocation", e))
    }

    /// Writes what `write` puts ([`MappedWriter::put`]), one part after the other from
    /// `offset`, and flushes it to the device: [`Self::write`] of the parts' concatenation,
    /// without making it (a part may be made as it is put, in a buffer of the caller's stack).
    /// Returns the bytes written; a part that would end past the buffer fails the write.
    pub fn write_with(
        &self,
        gpu: &Gpu,
        offset: u64,
        write: impl FnOnce(&mut MappedWriter<'_>),
    ) -> Result<u64, BackendError> {
        let ptr = self.mapped(gpu)?;
        let mut writer = MappedWriter {
            ptr,
            at: offset,
            size: self.size,
            past_end: false,
            buffer: std::marker::PhantomData,
        };
        write(&mut writer);
        if writer.past_end || offset > self.size {
            return Err(BackendError::Native("write past the end of a host buffer".into()));
        }
        gpu.allocator
            .flush_allocation(&self.alloc, offset, writer.at - offset)
            .map_err(|e| vk_error("vmaFlushAllocation", e))?;
        Ok(writer.at - offset)
    }

    /// The first `len` bytes, after invalidating host caches.
    pub fn read(&self, gpu: &Gpu, len: usize) -> Result<Vec<u8>, BackendError> {
        if len as u64 > self.size {
            return Err(BackendError::Native("read past the end of a host buffer".into()));
        }
        gpu.allocator
            .invalidate_allocation(&self.alloc, 0, len as u64)
            .map_err(|e| vk_error("vmaInvalidateAllocation", e))?;
        let ptr = self.mapped(gpu)?;
        let mut out = vec![0u8; len];
        // SAFETY: the range lies inside the mapping and the transfer that wrote it has completed.
        unsafe { std::ptr::copy_nonoverlapping(ptr, out.as_mut_ptr(), len) };
        Ok(out)
    }

    /// # Safety
    /// No pending or executing submission may use the buffer.
    pub unsafe fn destroy(mut self, gpu: &Gpu) {
        // SAFETY: the caller guarantees the GPU is done with it.
        unsafe { gpu.allocator.destroy_buffer(self.buffer, &mut self.alloc) };
        crate::device::validation::forget(self.buffer);
        gpu.diagnostics.object_destroyed();
    }
}

/// A readback in flight: its buffer and how many bytes of it are the answer.
pub(crate) struct PendingReadback {
    pub id: ReadbackId,
    pub buffer: HostBuffer,
    pub len: usize,
    /// The image read was a BGRA swapchain image standing for an RGBA back buffer.
    pub swap_red_blue: bool,
    /// A depth/stencil image's copy, converted to the neutral encoding when taken.
    pub depth: Option<crate::capture::depth::DepthLayout>,
}

/// One slot of the frame ring.
pub(crate) struct FrameSlot {
    pub pool: vk::CommandPool,
    pub cmd: vk::CommandBuffer,
    pub fence: vk::Fence,
    /// The submission recorded here whose fence has not been observed yet.
    pub in_flight: Option<SubmissionId>,
    /// The last submission recorded here (completed once `in_flight` is None).
    pub last: SubmissionId,
    pub vertices: Option<HostBuffer>,
    pub uniforms: Option<HostBuffer>,
    pub staging: Option<HostBuffer>,
    pub descriptors: vk::DescriptorPool,
    pub descriptor_capacity: u32,
    /// The sets of the frame recorded into this slot, forgotten when its pool is reset.
    pub draw_sets: crate::pass::draw_sets::DrawSets,
    pub readbacks: Vec<PendingReadback>,
}

impl FrameSlot {
    pub fn new(gpu: &Gpu) -> Result<FrameSlot, BackendError> {
        let pool_info = vk::CommandPoolCreateInfo::default().queue_family_index(gpu.queue_family);
        // SAFETY: a valid create info for this device.
        let pool = unsafe { gpu.device.create_command_pool(&pool_info, None) }
            .map_err(|e| vk_error("vkCreateCommandPool", e))?;
        let mut slot = FrameSlot {
            pool,
            cmd: vk::CommandBuffer::null(),
            fence: vk::Fence::null(),
            in_flight: None,
            last: SubmissionId(0),
            vertices: None,
            uniforms: None,
            staging: None,
            descriptors: vk::DescriptorPool::null(),
            descriptor_capacity: 0,
            draw_sets: Default::default(),
            readbacks: Vec::new(),
        };
        let cmd_info = vk::CommandBufferAllocateInfo::default()
            .command_pool(pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: `pool` is live.
        let made = unsafe { gpu.device.allocate_command_buffers(&cmd_info) }
            .map_err(|e| vk_error("vkAllocateCommandBuffers", e))
            .and_then(|cmds| {
                slot.cmd = cmds[0];
                crate::device::validation::claim(slot.cmd, &gpu.diagnostics);
                // SAFETY: a plain fence on a live device.
                unsafe { gpu.device.create_fence(&vk::FenceCreateInfo::default(), None) }
                    .map_err(|e| vk_error("vkCreateFence", e))
            });
        match made {
            Ok(fence) => {
                slot.fence = fence;
                Ok(slot)
            }
            Err(e) => {
                // SAFETY: nothing from this slot was ever submitted.
                unsafe { slot.destroy(gpu) };
                Err(e)
            }
        }
    }

    /// Makes sure the slot's descriptor pool can hand out a uniform set per draw and the
    /// texture sets and sampler descriptors `needs` counts, then resets it. The slot must be
    /// idle.
    pub fn prepare_descriptors(
        &mut self,
        gpu: &Gpu,
        needs: &crate::record::Needs,
    ) -> Result<(), BackendError> {
        self.draw_sets.reset();
        // One figure bounds all three: uniform sets, texture sets and sampler descriptors.
        let wanted = needs.draws.max(needs.texture_sets).max(needs.samplers);
        if wanted > self.descriptor_capacity || self.descriptors == vk::DescriptorPool::null() {
            let capacity = wanted.max(self.descriptor_capacity * 2).max(64);
            if self.descriptors != vk::DescriptorPool::null() {
                // SAFETY: the slot is idle, so no set from this pool is in use.
                unsafe { gpu.device.destroy_descriptor_pool(self.descriptors, None) };
                self.descriptors = vk::DescriptorPool::null();
                self.descriptor_capacity = 0;
            }
            let sizes = [
                vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::UNIFORM_BUFFER,
                    descriptor_count: capacity,
                },
                vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                    descriptor_count: capacity,
                },
                // The stock effects' two uniform sets of the frame, and SkinnedEffect's set of
                // two (block and bones).
                vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
                    descriptor_count: 4,
                },
                // Merged runs' instances: the frame's one set 0.
                vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::STORAGE_BUFFER,
                    descriptor_count: 1,
                },
            ];
            let info = vk::DescriptorPoolCreateInfo::default()
                .max_sets(capacity * 2 + 4)
                .pool_sizes(&sizes);
            // SAFETY: a valid create info for this device.
            self.descriptors = unsafe { gpu.device.create_descriptor_pool(&info, None) }
                .map_err(|e| vk_error("vkCreateDescriptorPool", e))?;
            self.descriptor_capacity = capacity;
        } else {
            // SAFETY: the slot is idle, so no set from this pool is in use.
            unsafe {
                gpu.device
                    .reset_descriptor_pool(self.descriptors, vk::DescriptorPoolResetFlags::empty())
            }
            .map_err(|e| vk_error("vkResetDescriptorPool", e))?;
        }
        Ok(())
    }

    pub fn buffer_count(&self) -> usize {
        [&self.vertices, &self.uniforms, &self.staging].iter().filter(|b| b.is_some()).count()
            + self.readbacks.len()
    }

    /// # Safety
    /// The slot must be idle (its fence signalled or never submitted).
    pub unsafe fn destroy(mut self, gpu: &Gpu) {
        for buffer in
            [self.vertices.take(), self.uniforms.take(), self.staging.take()].into_iter().flatten()
        {
            // SAFETY: the slot is idle (caller's contract).
            unsafe { buffer.destroy(gpu) };
        }
        for pending in self.readbacks.drain(..) {
            // SAFETY: as above.
            unsafe { pending.buffer.destroy(gpu) };
        }
        // SAFETY: as above; each handle is destroyed once, null handles are skipped.
        unsafe {
            if self.descriptors != vk::DescriptorPool::null() {
                gpu.device.destroy_descriptor_pool(self.descriptors, None);
            }
            if self.fence != vk::Fence::null() {
                gpu.device.destroy_fence(self.fence, None);
            }
            gpu.device.destroy_command_pool(self.pool, None);
        }
    }
}

/// Makes `slot` hold a buffer of at least `size` bytes; an outgrown buffer is returned so the
/// caller can retire it.
pub(crate) fn ensure_buffer(
    gpu: &Gpu,
    slot: &mut Option<HostBuffer>,
    size: u64,
    usage: vk::BufferUsageFlags,
) -> Result<Option<HostBuffer>, BackendError> {
    if size == 0 || slot.as_ref().is_some_and(|b| b.size >= size) {
        return Ok(None);
    }
    let grown = size.max(slot.as_ref().map_or(0, |b| b.size * 2)).max(4096);
    let fresh = HostBuffer::new(gpu, grown, usage, false)?;
    Ok(slot.replace(fresh))
}

/// Finishing the ring's submissions: a slot is finished once its fence has signalled, which
/// takes its readbacks' bytes out and collects its GPU timings.
impl VulkanBackend {
    /// Finishes, without waiting, every slot whose fence has signalled.
    pub(crate) fn finish_signalled_slots(&mut self) {
        for i in 0..self.slots.len() {
            let fence = self.slots[i].fence;
            // SAFETY: a status query on a live fence.
            let done = unsafe { self.gpu.device.get_fence_status(fence) }.unwrap_or(false);
            if done && self.slots[i].in_flight.is_some() {
                // A failure here resurfaces at the next wait on the slot.
                let _ = self.finish_slot(i);
            }
        }
    }

    /// Waits for slot `i`'s submission (if any) and takes out its readbacks.
    pub(crate) fn finish_slot(&mut self, i: usize) -> Result<(), BackendError> {
        let slot = &mut self.slots[i];
        let Some(id) = slot.in_flight else {
            return Ok(());
        };
        // SAFETY: the fence belongs to this device and was submitted with `id`.
        match unsafe {
            self.gpu.device.wait_for_fences(&[slot.fence], true, self.timeline.timeout_ns())
        } {
            Ok(()) => {}
            Err(vk::Result::TIMEOUT) => {
                return Err(self.timeline.timed_out(&format!("submission {}", id.0)))
            }
            Err(e) => return Err(vk_error("vkWaitForFences", e)),
        }
        slot.in_flight = None;
        self.completed = self.completed.max(id);
        self.timer.collect(&self.gpu, i);
        let mut result = Ok(());
        for pending in slot.readbacks.drain(..) {
            match pending.buffer.read(&self.gpu, pending.len) {
                Ok(mut bytes) => {
                    if pending.swap_red_blue {
                        bytes.chunks_exact_mut(4).for_each(|texel| texel.swap(0, 2));
                    }
                    if let Some(depth) = pending.depth {
                        bytes = depth.decode(&bytes);
                    }
                    self.readbacks.insert(pending.id, bytes);
                }
                Err(e) => result = Err(e),
            }
            // SAFETY: the fence has signalled; the copy into this buffer is complete.
            unsafe { pending.buffer.destroy(&self.gpu) };
        }
        result
    }

    /// Frees the ring's buffers (the device must be idle).
    pub(crate) fn release_idle_buffers(&mut self) {
        let mut idle = Vec::new();
        for slot in &mut self.slots {
            idle.extend(
                [slot.vertices.take(), slot.uniforms.take(), slot.staging.take()]
                    .into_iter()
                    .flatten(),
            );
        }
        for buffer in idle {
            // SAFETY: the device is idle (caller's contract).
            unsafe { buffer.destroy(&self.gpu) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy split across threads lands every byte where a plain copy would, for sizes that
    /// do and do not divide evenly.
    #[test]
    fn a_split_copy_writes_every_byte_in_place() {
        for len in [100, PARALLEL_COPY_BYTES + 12_345, 3 * PARALLEL_COPY_BYTES + 1] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            let mut out = vec![0u8; len + 8];
            // SAFETY: `out` has room for `len` bytes from offset 4 and is not shared.
            unsafe { copy_to_mapped(&bytes, out.as_mut_ptr().add(4)) };
            assert_eq!(&out[4..len + 4], &bytes[..], "{len}");
            assert_eq!((&out[..4], &out[len + 4..]), (&[0u8; 4][..], &[0u8; 4][..]), "{len}");
        }
    }

    /// Parts land one after the other from the writer's offset; a part that would end past the
    /// buffer writes nothing, nor does any part after it, and the write is marked failed.
    #[test]
    fn a_mapped_writer_puts_parts_in_order_and_none_past_the_end() {
        // A "mapping" of 16 bytes, followed by guard bytes the writer must never touch.
        let mut memory = [0u8; 24];
        let mut writer = MappedWriter {
            ptr: memory.as_mut_ptr(),
            at: 2,
            size: 16,
            past_end: false,
            buffer: std::marker::PhantomData,
        };
        writer.put(&[1, 2, 3]);
        writer.put(&[]);
        writer.put(&[4, 5, 6, 7, 8, 9, 10, 11]);
        assert_eq!((writer.at, writer.past_end), (13, false));
        writer.put(&[12, 13, 14, 15]);
        writer.put(&[16]);
        assert!(writer.past_end, "a part ending at 17 of 16 bytes");
        assert_eq!(writer.at, 13);
        let expected = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(memory, expected);
    }

    /// A small copy (a frame's sprites) never asks how many threads the machine has: the
    /// question reads files.
    #[test]
    fn a_small_copy_does_not_ask_for_the_thread_count() {
        let asked = || -> usize { panic!("the thread count was asked for") };
        assert_eq!(copy_parts(0, asked), 1);
        assert_eq!(copy_parts(PARALLEL_COPY_BYTES - 1, asked), 1);
        assert_eq!(copy_parts(PARALLEL_COPY_BYTES, || 16), PARALLEL_COPY_BYTES / COPY_CHUNK_BYTES);
        assert_eq!(copy_parts(64 * COPY_CHUNK_BYTES, || 16), MAX_COPY_THREADS);
        assert_eq!(copy_parts(64 * COPY_CHUNK_BYTES, || 1), 1);
    }
}
