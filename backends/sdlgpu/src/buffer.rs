//! Vertex and index buffers: SDL buffers by handle, the storage a rename switches to, and the
//! copies of the plan's buffer uploads and readbacks.
//!
//! In: [`BufferDesc`]s at creation, the plan's buffer nodes at recording. Out: `SDL_GPUBuffer`s
//! that geometry draws bind and copy passes write and read.
//!
//! Two ways a write avoids waiting for earlier uses, each decided by a rule, never by what SDL
//! happens to track:
//! - a write that replaces the whole buffer cycles it (SDL gives it fresh backing; earlier
//!   commands keep reading the old). A buffer filled by several writes never cycles, or a later
//!   write would orphan the earlier ones on the old backing (the rule textures follow);
//! - a partial write the plan marks `rename` (the compiler's decision for a `Discard` write to a
//!   buffer earlier uses may still read) switches the buffer to other storage first: a spare
//!   whose last submission has completed, or a new one. The storage left behind is a spare
//!   tagged with this submission, so uses recorded before the rename keep reading it.
//!
//! Every other write lands in place, after the earlier uses SDL orders it behind. Readbacks
//! copy into a download transfer buffer read once the submission's fence signals. A buffer's
//! storage is released with its handle, after the next successful submission (SDL itself keeps
//! the memory until the GPU is done with it).

use std::collections::HashMap;

use sdl3_sys::gpu::*;
use xnagraph_graph::{
    BackendError, BufferDesc, BufferReadback, BufferUpload, Diagnostics, NativeHandle, SubmissionId,
};

use crate::device::sdl_error;
use crate::record::{PendingReadback, Recorder};

/// The largest buffer this backend creates, in bytes: 1 GiB.
///
/// SDL_gpu reports no memory limit (no `maxMemoryAllocationSize`, `maxBufferSize` or heap size
/// reaches the caller), and `SDL_CreateGPUBuffer` accepts buffers it cannot back: on lavapipe a
/// buffer of 4 GiB less 4 bytes was created and the first flush then failed. So the backend
/// refuses at creation, as the engine documents out-of-memory surfaces, past the limit every
/// SDL_gpu driver is sure to allow: 1 GiB is the least `maxMemoryAllocationSize` Vulkan
/// guarantees (a buffer is one allocation on SDL's Vulkan driver), and within D3D12's and
/// Metal's buffer limits.
const SDL_GPU_MAX_BUFFER_SIZE: u64 = 1 << 30;

fn create_storage(
    device: *mut SDL_GPUDevice,
    diagnostics: &Diagnostics,
    size: u64,
) -> Result<*mut SDL_GPUBuffer, BackendError> {
    if size > SDL_GPU_MAX_BUFFER_SIZE {
        return Err(BackendError::OutOfMemory(format!(
            "a buffer of {size} bytes (SDL_gpu's limit here is {SDL_GPU_MAX_BUFFER_SIZE})"
        )));
    }
    // Within the limit above, so within SDL's 32-bit sizes.
    let size = size.max(4) as u32;
    let info = SDL_GPUBufferCreateInfo {
        usage: SDL_GPU_BUFFERUSAGE_VERTEX | SDL_GPU_BUFFERUSAGE_INDEX,
        size,
        ..Default::default()
    };
    // SAFETY: a live device and a complete create info.
    let b = unsafe { SDL_CreateGPUBuffer(device, &info) };
    if b.is_null() {
        return Err(BackendError::OutOfMemory(sdl_error("SDL_CreateGPUBuffer")));
    }
    diagnostics.object_created();
    Ok(b)
}

/// # Safety
/// No command recorded later names the storage (SDL defers the release past the GPU's use).
unsafe fn release_storage(
    device: *mut SDL_GPUDevice,
    diagnostics: &Diagnostics,
    b: *mut SDL_GPUBuffer,
) {
    // SAFETY: the caller's contract.
    unsafe { SDL_ReleaseGPUBuffer(device, b) };
    diagnostics.object_destroyed();
}

/// A buffer: its current storage and the spares renames left.
pub(crate) struct NativeBuffer {
    pub desc: BufferDesc,
    pub current: *mut SDL_GPUBuffer,
    /// Storage left by renames, each with the last submission that could use it.
    spares: Vec<(SubmissionId, *mut SDL_GPUBuffer)>,
}

/// Every live buffer of the device, by handle.
#[derive(Default)]
pub(crate) struct BufferTable {
    map: HashMap<NativeHandle, NativeBuffer>,
}

impl BufferTable {
    pub fn create(
        &mut self,
        device: *mut SDL_GPUDevice,
        diagnostics: &Diagnostics,
        handle: NativeHandle,
        desc: &BufferDesc,
    ) -> Result<(), BackendError> {
        let current = create_storage(device, diagnostics, desc.size)?;
        self.map.insert(handle, NativeBuffer { desc: *desc, current, spares: Vec::new() });
        Ok(())
    }

    pub fn get(&self, handle: NativeHandle) -> Result<&NativeBuffer, BackendError> {
        self.map
            .get(&handle)
            .ok_or_else(|| BackendError::Native(format!("buffer {} does not exist", handle.0)))
    }

    /// SDL buffers alive, spares included.
    pub fn storage_count(&self) -> usize {
        self.map.values().map(|b| 1 + b.spares.len()).sum()
    }

    /// Releases `handle`'s storage; false when it is not a buffer.
    ///
    /// # Safety
    /// No command recorded later names the buffer.
    pub unsafe fn release(
        &mut self,
        device: *mut SDL_GPUDevice,
        diagnostics: &Diagnostics,
        handle: NativeHandle,
    ) -> bool {
        let Some(b) = self.map.remove(&handle) else { return false };
        for s in std::iter::once(b.current).chain(b.spares.into_iter().map(|(_, s)| s)) {
            // SAFETY: the caller's contract covers the buffer and every spare of it.
            unsafe { release_storage(device, diagnostics, s) };
        }
        true
    }

    /// # Safety
    /// The GPU is idle.
    pub unsafe fn release_all(&mut self, device: *mut SDL_GPUDevice, diagnostics: &Diagnostics) {
        let handles: Vec<_> = self.map.keys().copied().collect();
        for h in handles {
            // SAFETY: the GPU is idle.
            unsafe { self.release(device, diagnostics, h) };
        }
    }

    /// Switches `handle` to a spare whose last submission has completed, or to new storage;
    /// the storage it leaves is a spare until `submission` completes.
    fn rename(
        &mut self,
        device: *mut SDL_GPUDevice,
        diagnostics: &Diagnostics,
        handle: NativeHandle,
        (submission, completed): (SubmissionId, SubmissionId),
    ) -> Result<(), BackendError> {
        let b = self
            .map
            .get_mut(&handle)
            .ok_or_else(|| BackendError::Native(format!("buffer {} does not exist", handle.0)))?;
        let fresh = match b.spares.iter().position(|(last, _)| *last <= completed) {
            Some(i) => b.spares.swap_remove(i).1,
            None => create_storage(device, diagnostics, b.desc.size)?,
        };
        let old = std::mem::replace(&mut b.current, fresh);
        b.spares.push((submission, old));
        Ok(())
    }
}

/// Whether a write replaces every byte of its buffer: only then may SDL give the buffer fresh
/// backing (cycle). A buffer filled by several writes never cycles.
pub(crate) fn replaces_whole_buffer(u: &BufferUpload) -> bool {
    u.offset == 0 && u.data.len() as u64 == u.buffer.desc().size
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

/// Records one buffer upload node: its bytes were staged at `upload_offsets` before recording.
pub(crate) fn record_upload(
    rec: &mut Recorder<'_>,
    node: usize,
    upload: &BufferUpload,
    rename: bool,
) -> Result<(), BackendError> {
    let handle = upload.buffer.native();
    check_range(rec.buffers.get(handle)?, upload.offset, upload.data.len() as u64)?;
    if upload.data.is_empty() {
        return Ok(());
    }
    let cycle = replaces_whole_buffer(upload);
    if rename && !cycle {
        let submissions = (rec.submission, rec.completed);
        rec.buffers.rename(rec.device, rec.diagnostics, handle, submissions)?;
    }
    let offset = rec.staged(node)?;
    let source = SDL_GPUTransferBufferLocation { transfer_buffer: rec.uploads, offset };
    let destination = SDL_GPUBufferRegion {
        buffer: rec.buffers.get(handle)?.current,
        offset: upload.offset as u32,
        size: upload.data.len() as u32,
    };
    // SAFETY: recording outside any pass; the transfer buffer holds the bytes at `offset` and
    // the region lies inside the buffer (checked above).
    unsafe {
        let copy = SDL_BeginGPUCopyPass(rec.cmd);
        SDL_UploadToGPUBuffer(copy, &source, &destination, cycle);
        SDL_EndGPUCopyPass(copy);
    }
    Ok(())
}

/// Records one buffer readback node into a fresh download transfer buffer.
pub(crate) fn record_readback(
    rec: &mut Recorder<'_>,
    readback: &BufferReadback,
) -> Result<(), BackendError> {
    let b = rec.buffers.get(readback.buffer.native())?;
    check_range(b, readback.offset, readback.len)?;
    let len = readback.len as u32;
    let info = SDL_GPUTransferBufferCreateInfo {
        usage: SDL_GPU_TRANSFERBUFFERUSAGE_DOWNLOAD,
        size: len.max(4),
        ..Default::default()
    };
    // SAFETY: a live device and a complete create info.
    let buffer = unsafe { SDL_CreateGPUTransferBuffer(rec.device, &info) };
    if buffer.is_null() {
        return Err(BackendError::OutOfMemory(sdl_error("SDL_CreateGPUTransferBuffer")));
    }
    rec.diagnostics.object_created();
    rec.readbacks.push(PendingReadback { id: readback.id, buffer, len, depth: None });
    if len == 0 {
        return Ok(());
    }
    let source =
        SDL_GPUBufferRegion { buffer: b.current, offset: readback.offset as u32, size: len };
    let destination = SDL_GPUTransferBufferLocation { transfer_buffer: buffer, offset: 0 };
    // SAFETY: recording outside any pass; the region lies inside the buffer (checked above) and
    // the transfer buffer holds `len` bytes.
    unsafe {
        let copy = SDL_BeginGPUCopyPass(rec.cmd);
        SDL_DownloadFromGPUBuffer(copy, &source, &destination);
        SDL_EndGPUCopyPass(copy);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use xnagraph_graph::{BufferKind, BufferState, RetireSink, SetDataOptions};

    fn upload(size: u64, offset: u64, len: usize) -> BufferUpload {
        let desc = BufferDesc { size, kind: BufferKind::Vertex, dynamic: true };
        let buffer = BufferState::new(desc, NativeHandle(1), RetireSink::default());
        BufferUpload { buffer, offset, data: vec![0; len], options: SetDataOptions::Discard }
    }

    #[test]
    fn only_a_write_of_the_whole_buffer_cycles() {
        assert!(replaces_whole_buffer(&upload(64, 0, 64)));
        // A buffer filled piece by piece: no piece replaces it.
        assert!(!replaces_whole_buffer(&upload(64, 0, 32)));
        assert!(!replaces_whole_buffer(&upload(64, 32, 32)));
        assert!(!replaces_whole_buffer(&upload(64, 16, 16)));
    }
}
