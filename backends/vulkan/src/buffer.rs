//! Vertex and index buffers: native storage by handle, the storage a rename switches to, and
//! the copies of buffer uploads and readbacks.
//!
//! In: [`BufferDesc`]s at creation, the plan's buffer nodes at recording. Out: device-local
//! `VkBuffer`s that draws bind and transfers copy into and out of. A buffer upload the plan
//! marks `rename` (the compiler's decision) switches the buffer to other storage before the copy:
//! a spare whose last submission has completed, or a new one. The storage left behind becomes a
//! spare tagged with this submission, so the uses recorded before the rename keep reading it and
//! nothing waits for them. Spares go with the buffer when it is retired.

use std::collections::HashMap;

use ash::vk;
use vk_mem::Alloc;
use xnagraph_graph::{
    BackendError, BufferDesc, BufferReadback, BufferUpload, HandleKind, NativeHandle, SubmissionId,
};

use crate::device::Gpu;
use crate::frame::{HostBuffer, PendingReadback};
use crate::record::Recorder;
use crate::sync::host_read_barrier;
use crate::vk_error;

/// One device-local storage of a buffer.
pub(crate) struct Storage {
    pub buffer: vk::Buffer,
    alloc: vk_mem::Allocation,
}

impl Storage {
    fn new(gpu: &Gpu, size: u64) -> Result<Storage, BackendError> {
        let usage = vk::BufferUsageFlags::VERTEX_BUFFER
            | vk::BufferUsageFlags::INDEX_BUFFER
            | vk::BufferUsageFlags::TRANSFER_SRC
            | vk::BufferUsageFlags::TRANSFER_DST;
        let info = vk::BufferCreateInfo::default()
            .size(size.max(4))
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        let alloc_info = vk_mem::AllocationCreateInfo {
            usage: vk_mem::MemoryUsage::AutoPreferDevice,
            ..Default::default()
        };
        // SAFETY: a valid create info; the allocator outlives the buffer.
        let (buffer, alloc) = unsafe { gpu.allocator.create_buffer(&info, &alloc_info) }
            .map_err(|e| vk_error("vmaCreateBuffer", e))?;
        gpu.diagnostics.object_created();
        crate::device::validation::claim(buffer, &gpu.diagnostics);
        Ok(Storage { buffer, alloc })
    }

    /// # Safety
    /// No pending or executing submission may use the storage.
    unsafe fn destroy(mut self, gpu: &Gpu) {
        // SAFETY: the caller guarantees the GPU is done with it.
        unsafe { gpu.allocator.destroy_buffer(self.buffer, &mut self.alloc) };
        crate::device::validation::forget(self.buffer);
        gpu.diagnostics.object_destroyed();
    }
}

/// A buffer: its current storage, its spares and its last use.
pub(crate) struct NativeBuffer {
    pub desc: BufferDesc,
    pub current: Storage,
    /// Storage left by renames, each with the last submission that could use it.
    spares: Vec<(SubmissionId, Storage)>,
    pub last_use: SubmissionId,
}

/// Every live buffer of the device, by handle.
#[derive(Default)]
pub(crate) struct BufferTable {
    buffers: HashMap<NativeHandle, NativeBuffer>,
    next: u64,
}

impl BufferTable {
    pub fn create(&mut self, gpu: &Gpu, desc: &BufferDesc) -> Result<NativeHandle, BackendError> {
        let current = Storage::new(gpu, desc.size)?;
        self.next += 1;
        let handle = NativeHandle::new(HandleKind::Buffer, self.next);
        let buffer =
            NativeBuffer { desc: *desc, current, spares: Vec::new(), last_use: SubmissionId(0) };
        self.buffers.insert(handle, buffer);
        Ok(handle)
    }

    pub fn get(&self, handle: NativeHandle) -> Result<&NativeBuffer, BackendError> {
        self.buffers
            .get(&handle)
            .ok_or_else(|| BackendError::Native(format!("buffer {} does not exist", handle.0)))
    }

    pub fn get_mut(&mut self, handle: NativeHandle) -> Option<&mut NativeBuffer> {
        self.buffers.get_mut(&handle)
    }

    /// Native buffers alive, spares included.
    pub fn storage_count(&self) -> usize {
        self.buffers.values().map(|b| 1 + b.spares.len()).sum()
    }

    /// # Safety
    /// No pending or executing submission may use the buffer.
    pub unsafe fn destroy(&mut self, gpu: &Gpu, handle: NativeHandle) {
        if let Some(b) = self.buffers.remove(&handle) {
            // SAFETY: the caller's contract covers the buffer and every spare of it.
            unsafe { destroy_buffer(gpu, b) };
        }
    }

    /// # Safety
    /// The device must be idle.
    pub unsafe fn destroy_all(&mut self, gpu: &Gpu) {
        for (_, b) in self.buffers.drain() {
            // SAFETY: the device is idle.
            unsafe { destroy_buffer(gpu, b) };
        }
    }
}

/// # Safety
/// No pending or executing submission may use the buffer or its spares.
unsafe fn destroy_buffer(gpu: &Gpu, b: NativeBuffer) {
    // SAFETY: the caller's contract.
    unsafe {
        b.current.destroy(gpu);
        for (_, spare) in b.spares {
            spare.destroy(gpu);
        }
    }
}

/// Switches `handle` to a spare whose last submission has completed, or to new storage; the
/// storage it leaves is a spare until `submission` completes.
pub(crate) fn rename(rec: &mut Recorder<'_>, handle: NativeHandle) -> Result<(), BackendError> {
    let completed = rec.completed;
    let submission = rec.submission;
    let gpu = rec.gpu;
    let b = rec
        .buffers
        .get_mut(handle)
        .ok_or_else(|| BackendError::Native(format!("buffer {} does not exist", handle.0)))?;
    let fresh = match b.spares.iter().position(|(last, _)| *last <= completed) {
        Some(i) => b.spares.swap_remove(i).1,
        None => Storage::new(gpu, b.desc.size)?,
    };
    let old = std::mem::replace(&mut b.current, fresh);
    b.spares.push((submission, old));
    Ok(())
}

fn check_range(b: &NativeBuffer, offset: u64, len: u64) -> Result<(), BackendError> {
    if !b.desc.holds(offset, len) {
        return Err(BackendError::Native(format!(
            "buffer transfer of {len} bytes at {offset} past the end of {} bytes",
            b.desc.size
        )));
    }
    Ok(())
}

pub(crate) fn record_upload(
    rec: &mut Recorder<'_>,
    upload: &BufferUpload,
    renamed: bool,
) -> Result<(), BackendError> {
    if renamed {
        rename(rec, upload.buffer.native())?;
    }
    let b = rec.buffers.get(upload.buffer.native())?;
    check_range(b, upload.offset, upload.data.len() as u64)?;
    if upload.data.is_empty() {
        return Ok(());
    }
    let destination = b.current.buffer;
    let (staging, at) = rec.stage(&upload.data)?;
    let copy = vk::BufferCopy {
        src_offset: at,
        dst_offset: upload.offset,
        size: upload.data.len() as u64,
    };
    // SAFETY: recording outside rendering; the staging range was written above and the plan
    // ordered this write after every conflicting use of its bytes.
    unsafe { rec.gpu.device.cmd_copy_buffer(rec.cmd, staging, destination, &[copy]) };
    Ok(())
}

pub(crate) fn record_readback(
    rec: &mut Recorder<'_>,
    readback: &BufferReadback,
) -> Result<(), BackendError> {
    let b = rec.buffers.get(readback.buffer.native())?;
    check_range(b, readback.offset, readback.len)?;
    let buffer = HostBuffer::new(rec.gpu, readback.len, vk::BufferUsageFlags::TRANSFER_DST, true)?;
    if readback.len > 0 {
        let copy =
            vk::BufferCopy { src_offset: readback.offset, dst_offset: 0, size: readback.len };
        let host = [host_read_barrier(buffer.buffer)];
        let dependency = vk::DependencyInfo::default().buffer_memory_barriers(&host);
        // SAFETY: recording outside rendering; the plan ordered this read after every write of
        // its bytes, and the host buffer is fresh.
        unsafe {
            rec.gpu.device.cmd_copy_buffer(rec.cmd, b.current.buffer, buffer.buffer, &[copy]);
            rec.gpu.device.cmd_pipeline_barrier2(rec.cmd, &dependency);
        }
    }
    let len = readback.len as usize;
    rec.readbacks.push(PendingReadback {
        id: readback.id,
        buffer,
        len,
        swap_red_blue: false,
        depth: None,
    });
    Ok(())
}
