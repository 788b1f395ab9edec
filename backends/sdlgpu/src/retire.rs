//! Giving back what the GPU is done with: the native objects of retired handles, the bytes of
//! readbacks whose submissions completed, and, when the backend is dropped, everything it
//! still holds before the device itself.

use sdl3_sys::gpu::*;
use xnagraph_graph::{HandleKind, NativeHandle};

use crate::completion::SharedDevice;
use crate::texture;
use crate::SdlGpuBackend;

impl SdlGpuBackend {
    /// Releases the native objects of `handles` (textures, buffers or effects), in the `retire`
    /// span the Vulkan backend opens (`completed`: the last submission seen complete).
    pub(crate) fn release(&mut self, handles: Vec<NativeHandle>) {
        let completed = self.fences.completed().0;
        let _span = tracing::debug_span!("retire", completed).entered();
        xnagraph_graph::profile_scope!("retire");
        let device = self.gpu.device;
        for h in handles {
            match h.kind() {
                Some(HandleKind::Texture) => {
                    if let Some(t) = self.textures.remove(h) {
                        // SAFETY: no unsubmitted command names it (see the crate documentation);
                        // SDL defers the release until the GPU is done.
                        unsafe { texture::release(device, &self.gpu.diagnostics, t) };
                    }
                }
                Some(HandleKind::Buffer) => {
                    // SAFETY: as for textures.
                    unsafe { self.buffers.release(device, &self.gpu.diagnostics, h) };
                }
                Some(HandleKind::Effect) => {
                    self.pipelines.release_effect(device, h);
                }
                Some(HandleKind::Query) | None => {}
            }
        }
    }

    /// Takes the bytes of every readback whose submission has completed.
    pub(crate) fn collect(&mut self) {
        let completed = self.fences.completed();
        let device = self.gpu.device;
        let (done, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending_readbacks)
            .into_iter()
            .partition(|(s, _)| *s <= completed);
        self.pending_readbacks = waiting;
        for (_, r) in done {
            // SAFETY: the submission that downloads into the buffer has completed.
            unsafe {
                let p = SDL_MapGPUTransferBuffer(device, r.buffer, false);
                if !p.is_null() {
                    let bytes = std::slice::from_raw_parts(p.cast::<u8>(), r.len as usize);
                    let bytes = match r.depth {
                        Some(decode) => decode.apply(bytes),
                        None => bytes.to_vec(),
                    };
                    self.readbacks.insert(r.id, bytes);
                    SDL_UnmapGPUTransferBuffer(device, r.buffer);
                }
                SDL_ReleaseGPUTransferBuffer(device, r.buffer);
            }
            self.gpu.diagnostics.object_destroyed();
        }
        self.gpu.collect_layer_messages();
    }

    pub(crate) fn sink_back(&self, handles: Vec<NativeHandle>) {
        for h in handles {
            self.sink.push(h);
        }
    }
}

impl Drop for SdlGpuBackend {
    /// Waits for the GPU, then releases every SDL object — including those of texture states
    /// still alive elsewhere, whose later drop only pushes a handle into the sink — and
    /// destroys the device.
    fn drop(&mut self) {
        let device = self.gpu.device;
        // Releasing the device's objects is a device call; destroying the device, after it,
        // takes the lifecycle turn.
        let call = xnagraph_graph::native_device::device_call();
        // SAFETY: a live device. A failure (device lost) leaves nothing to wait for.
        unsafe { SDL_WaitForGPUIdle(device) };
        self.collect();
        {
            let mut table = self.fences.table.lock().unwrap_or_else(|p| p.into_inner());
            for (_, f) in table.pending.drain(..) {
                // SAFETY: the GPU is idle.
                unsafe { SDL_ReleaseGPUFence(device, f.0) };
            }
            table.device = SharedDevice(std::ptr::null_mut());
        }
        for (_, r) in std::mem::take(&mut self.pending_readbacks) {
            // SAFETY: the GPU is idle.
            unsafe { SDL_ReleaseGPUTransferBuffer(device, r.buffer) };
            self.gpu.diagnostics.object_destroyed();
        }
        for t in self.textures.drain() {
            // SAFETY: the GPU is idle.
            unsafe { texture::release(device, &self.gpu.diagnostics, t) };
        }
        // SAFETY: the GPU is idle.
        unsafe { self.buffers.release_all(device, &self.gpu.diagnostics) };
        if let Some(mut p) = self.presenter.take() {
            // SAFETY: the GPU is idle.
            unsafe { p.destroy(device, &self.gpu.diagnostics) };
        }
        // SAFETY: the GPU is idle; each buffer is released once.
        unsafe {
            if let Some((b, _)) = self.vertices.take() {
                SDL_ReleaseGPUBuffer(device, b);
                self.gpu.diagnostics.object_destroyed();
            }
            if let Some((b, _)) = self.uploads.take() {
                SDL_ReleaseGPUTransferBuffer(device, b);
                self.gpu.diagnostics.object_destroyed();
            }
            self.pipelines.destroy(device);
        }
        drop(call);
        // SAFETY: every object of the device was released above and the GPU is idle.
        unsafe { self.gpu.destroy() };
    }
}
