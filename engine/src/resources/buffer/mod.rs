//! Vertex and index buffers: XNA's `VertexBuffer`, `DynamicVertexBuffer`, `IndexBuffer` and
//! `DynamicIndexBuffer`, over one tracked core.
//!
//! A buffer is a tracked resource like a texture (registry entry, `ResourceCreated`, `Disposing`
//! on explicit disposal, `ResourceDestroyed` either way, deferred release of the native buffer
//! after the last submission that names it). Its native buffer is created at the constructor, so
//! an out-of-memory surfaces there. `SetData` records a buffer upload node, ordered as recorded
//! against draws and other transfers; `GetData` records a readback, flushes and waits for it.
//! The dynamic kinds take XNA's [`SetDataOptions`], which the compiler lowers without stalling
//! (see `compile::buffers`: `Discard` renames a used buffer, `NoOverwrite` waits only for
//! overlapping uses), and report `ContentLost` after a reported device reset; the flag clears at
//! the next `SetData`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use bytemuck::Pod;
pub use xnagraph_graph::SetDataOptions;
use xnagraph_graph::{BufferDesc, BufferState, BufferUpload};

pub use crate::vertex::{
    IndexElementSize, VertexDeclaration, VertexElement, VertexElementFormat, VertexElementUsage,
    VertexPositionColor, VertexPositionColorTexture, VertexPositionNormalTexture,
    VertexPositionTexture, VertexType,
};

use crate::device::draw_state::BoundBuffer;
use crate::device::registry::{ResourceEventArgs, Tracked};
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::{lock, Event};
use crate::resources::resource::ResourceCore;

/// XNA's `BufferUsage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BufferUsage {
    /// XNA's `BufferUsage.None`: readable with `GetData`.
    #[default]
    None,
    /// XNA's `BufferUsage.WriteOnly`: written only; `GetData` is `NotSupported`.
    WriteOnly,
}

/// What every buffer kind shares.
pub(crate) struct BufferCore {
    pub res: ResourceCore,
    state: std::sync::Mutex<Option<Arc<BufferState>>>,
    /// The address of `state`'s buffer, which is the buffer's for its whole life (only
    /// disposal takes it): a draw asks whether it still binds the buffer a recorded draw
    /// holds by comparing addresses, without the lock. The recorded draw's reference keeps
    /// that address from being reused.
    identity: usize,
    desc: BufferDesc,
    usage: BufferUsage,
    content_lost: AtomicBool,
    content_lost_event: Event<ResourceEventArgs>,
}

impl BufferCore {
    fn create(
        device: &GraphicsDevice,
        kind: &'static str,
        desc: BufferDesc,
        usage: BufferUsage,
    ) -> Result<Arc<BufferCore>> {
        let shared = &device.shared;
        shared.check_failure()?;
        let state = shared.with_backend(|backend| {
            let handle = backend.create_buffer(&desc)?;
            Ok(BufferState::new(desc, handle, backend.retire_sink()))
        })?;
        shared.capture.buffer_created(&state, usage == BufferUsage::WriteOnly);
        let core = Arc::new(BufferCore {
            res: ResourceCore::new(kind, Arc::downgrade(shared)),
            identity: Arc::as_ptr(&state) as usize,
            state: std::sync::Mutex::new(Some(state)),
            desc,
            usage,
            content_lost: AtomicBool::new(false),
            content_lost_event: Event::default(),
        });
        let weak: std::sync::Weak<dyn Tracked> =
            Arc::downgrade(&(core.clone() as Arc<dyn Tracked>));
        shared.register(core.res.id, weak, &core.res.args());
        Ok(core)
    }

    pub(crate) fn state(&self) -> Result<Arc<BufferState>> {
        self.res.check_alive()?;
        lock(&self.state).clone().ok_or(XnaError::ObjectDisposed { object: self.res.kind })
    }

    fn dispose(&self, explicit: bool) {
        if !self.res.begin_dispose(explicit) {
            return;
        }
        lock(&self.state).take();
        self.res.end_dispose();
    }

    fn set_name(&self, name: String) {
        if let Some(state) = lock(&self.state).as_ref() {
            state.set_name(&name);
        }
        *lock(&self.res.name) = name;
    }

    /// Checks XNA's `SetData`/`GetData` arguments and returns the byte offset of each element
    /// in the buffer, in order: `element_count` elements of `T` from `start_index` of a slice of
    /// `len`, placed `stride` bytes apart from `offset` (stride 0: `size_of::<T>()`).
    fn layout<T: Pod>(
        &self,
        offset: i32,
        len: usize,
        start_index: usize,
        element_count: usize,
        stride: i32,
    ) -> Result<(u64, u64, u64)> {
        let size = std::mem::size_of::<T>() as u64;
        if offset < 0 {
            return Err(XnaError::out_of_range("offsetInBytes", "The offset cannot be negative."));
        }
        if stride < 0 {
            return Err(XnaError::out_of_range("vertexStride", "The stride cannot be negative."));
        }
        // A stride larger than the buffer is XNA's for one element (only its own bytes are
        // placed); with more, the span check below refuses the data running past the end.
        let stride = if stride == 0 { size } else { stride as u64 };
        if element_count == 0 || start_index.checked_add(element_count).is_none_or(|e| e > len) {
            return Err(XnaError::out_of_range(
                "data",
                "The array specified in the data parameter is not the correct size for the \
                 amount of data requested.",
            ));
        }
        if stride < size {
            return Err(XnaError::out_of_range(
                "vertexStride",
                format!(
                    "The vertex stride must be greater than or equal to the size of the \
                     specified data ({size})."
                ),
            ));
        }
        // A slice of a zero-sized `T` can be as long as `usize::MAX`: the span is checked.
        let span = stride.checked_mul(element_count as u64 - 1).and_then(|s| s.checked_add(size));
        let Some(span) = span.filter(|&span| offset as u64 + span <= self.desc.size) else {
            let span = u128::from(stride) * (element_count as u128 - 1) + u128::from(size);
            return Err(XnaError::invalid_operation(format!(
                "The data ({span} bytes from offset {offset}) runs past the end of the buffer \
                 ({} bytes).",
                self.desc.size
            )));
        };
        Ok((offset as u64, stride, span))
    }

    fn set_data<T: Pod>(
        &self,
        offset: i32,
        data: &[T],
        start_index: usize,
        element_count: usize,
        stride: i32,
        options: SetDataOptions,
    ) -> Result<()> {
        let device = self.res.live_device()?;
        let state = self.state()?;
        let (offset, stride, span) =
            self.layout::<T>(offset, data.len(), start_index, element_count, stride)?;
        let elements = &data[start_index..start_index + element_count];
        let size = std::mem::size_of::<T>();
        let bytes = if stride as usize == size {
            device.upload_copy(bytemuck::cast_slice(elements))
        } else {
            // Elements placed `stride` apart: the bytes between them are kept, so they are read
            // back first (the one stall a strided write costs, as in XNA's ports).
            let mut bytes = device.read_back_buffer(state.clone(), offset, span)?;
            for (i, e) in elements.iter().enumerate() {
                let at = i * stride as usize;
                bytes[at..at + size].copy_from_slice(bytemuck::bytes_of(e));
            }
            bytes
        };
        lock(&device.rec).builder.buffer_upload(BufferUpload {
            buffer: state,
            offset,
            data: bytes,
            options,
        });
        self.content_lost.store(false, Ordering::Release);
        Ok(())
    }

    fn get_data<T: Pod>(
        &self,
        offset: i32,
        data: &mut [T],
        start_index: usize,
        element_count: usize,
        stride: i32,
    ) -> Result<()> {
        let device = self.res.live_device()?;
        let state = self.state()?;
        if self.usage == BufferUsage::WriteOnly {
            return Err(XnaError::not_supported(
                "This buffer was created with BufferUsage.WriteOnly: GetData is not supported.",
            ));
        }
        let (offset, stride, span) =
            self.layout::<T>(offset, data.len(), start_index, element_count, stride)?;
        let bytes = device.read_back_buffer(state.clone(), offset, span)?;
        let size = std::mem::size_of::<T>();
        let out: &mut [u8] =
            bytemuck::cast_slice_mut(&mut data[start_index..start_index + element_count]);
        for i in 0..element_count {
            let at = i * stride as usize;
            out[i * size..(i + 1) * size].copy_from_slice(&bytes[at..at + size]);
        }
        Ok(())
    }
}

impl Tracked for BufferCore {
    fn dispose_by_device(&self) {
        self.dispose(true);
    }

    fn notify_content_lost(&self) {
        if self.desc.dynamic && !self.res.is_disposed() {
            self.content_lost.store(true, Ordering::Release);
            self.content_lost_event.raise(&self.res.args());
        }
    }
}

impl BoundBuffer for BufferCore {
    fn state(&self) -> Result<Arc<BufferState>> {
        BufferCore::state(self)
    }

    fn holds(&self, state: &Arc<BufferState>) -> Result<bool> {
        self.res.check_alive()?;
        Ok(self.identity == Arc::as_ptr(state) as usize)
    }
}

mod kinds;
pub use kinds::{DynamicIndexBuffer, DynamicVertexBuffer, IndexBuffer, VertexBuffer};
