//! The four public buffer types over [`BufferCore`].

use std::sync::atomic::Ordering;
use std::sync::Arc;

use bytemuck::Pod;
use xnagraph_graph::{BufferDesc, BufferKind};

use super::{
    BufferCore, BufferUsage, IndexElementSize, SetDataOptions, VertexDeclaration, VertexType,
};
use crate::device::profile::GraphicsProfile;
use crate::device::registry::ResourceEventArgs;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::{lock, Event};

fn checked_count(param: &'static str, count: i32) -> Result<u64> {
    if count <= 0 {
        return Err(XnaError::out_of_range(
            param,
            format!("The {param} must be greater than zero."),
        ));
    }
    Ok(count as u64)
}

/// The resource accessors every buffer type has.
macro_rules! buffer_resource {
    ($ty:ident) => {
        impl $ty {
            crate::resources::resource::graphics_resource_accessors!(
                "Sets XNA's `GraphicsResource.Name`, also shown in plan text and node labels."
            );
            /// XNA's `BufferUsage` property: the usage the buffer was created with.
            pub fn buffer_usage(&self) -> BufferUsage {
                self.core.usage
            }
            /// XNA's `GraphicsResource.Dispose()`: raises `Disposing`, releases the native
            /// buffer once no queued command uses it, raises the device's `ResourceDestroyed`.
            /// Later calls are `ObjectDisposed`.
            pub fn dispose(&self) {
                self.core.dispose(true);
            }
        }

        impl Drop for $ty {
            /// Dropping is disposal without `Disposing`.
            fn drop(&mut self) {
                self.core.dispose(false);
            }
        }

        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($ty)).field("bytes", &self.core.desc.size).finish()
            }
        }
    };
}

/// XNA's `VertexBuffer`: `vertex_count` vertices of a declaration.
///
/// Every data call of a disposed buffer or device is `ObjectDisposed`. Where it differs from
/// XNA: dropping the buffer disposes it (without `Disposing`).
pub struct VertexBuffer {
    pub(crate) core: Arc<BufferCore>,
    declaration: VertexDeclaration,
    vertex_count: i32,
}

buffer_resource!(VertexBuffer);

impl VertexBuffer {
    /// XNA's `new VertexBuffer(graphicsDevice, vertexDeclaration, vertexCount, usage)`.
    ///
    /// The vertex stride is the declaration's, a multiple of 4 (see [`VertexDeclaration`]);
    /// `SetData`'s own `vertexStride` only places bytes and may be any value. Errors: a
    /// `vertexCount` that is not positive is `ArgumentOutOfRange` on `vertexCount`; a
    /// disposed device is `ObjectDisposed`; an earlier frame's failure, or a buffer the
    /// backend cannot allocate (`OutOfVideoMemory`), as reported.
    pub fn new(
        device: &GraphicsDevice,
        declaration: &VertexDeclaration,
        vertex_count: i32,
        usage: BufferUsage,
    ) -> Result<Self> {
        Self::create(device, "VertexBuffer", declaration, vertex_count, usage, false)
    }

    /// XNA's `new VertexBuffer(graphicsDevice, typeof(T), vertexCount, usage)`: `T`'s
    /// declaration, through [`VertexType`] (XNA's `IVertexType`); errors as [`Self::new`].
    pub fn with_type<T: VertexType>(
        device: &GraphicsDevice,
        vertex_count: i32,
        usage: BufferUsage,
    ) -> Result<Self> {
        Self::new(device, &T::vertex_declaration(), vertex_count, usage)
    }

    fn create(
        device: &GraphicsDevice,
        kind: &'static str,
        declaration: &VertexDeclaration,
        vertex_count: i32,
        usage: BufferUsage,
        dynamic: bool,
    ) -> Result<Self> {
        let count = checked_count("vertexCount", vertex_count)?;
        let size = count * declaration.vertex_stride() as u64;
        let desc = BufferDesc { size, kind: BufferKind::Vertex, dynamic };
        let core = BufferCore::create(device, kind, desc, usage)?;
        Ok(VertexBuffer { core, declaration: declaration.clone(), vertex_count })
    }

    /// XNA's `VertexBuffer.VertexCount`.
    pub fn vertex_count(&self) -> i32 {
        self.vertex_count
    }

    /// XNA's `VertexBuffer.VertexDeclaration`.
    pub fn vertex_declaration(&self) -> &VertexDeclaration {
        &self.declaration
    }

    /// XNA's `VertexBuffer.SetData<T>(T[])`: every element from byte 0; errors as
    /// [`Self::set_data_full`].
    pub fn set_data<T: Pod>(&self, data: &[T]) -> Result<()> {
        self.set_data_full(0, data, 0, data.len(), 0)
    }

    /// XNA's `VertexBuffer.SetData<T>(T[], startIndex, elementCount)`: from byte 0, elements
    /// packed; errors as [`Self::set_data_full`].
    pub fn set_data_range<T: Pod>(
        &self,
        data: &[T],
        start_index: usize,
        count: usize,
    ) -> Result<()> {
        self.set_data_full(0, data, start_index, count, 0)
    }

    /// XNA's `VertexBuffer.SetData<T>(offsetInBytes, T[], startIndex, elementCount,
    /// vertexStride)`: element `i` is written at `offsetInBytes + i * vertexStride`.
    ///
    /// Stride 0 is the element's size; the bytes between elements keep their content (a stride
    /// other than the element's size reads the span back first, a flush and a wait). Errors: a
    /// disposed buffer or device is `ObjectDisposed`; a negative offset or stride, or a stride
    /// smaller than `T` (`ArgumentOutOfRange`, `offsetInBytes` or `vertexStride`), no elements or a
    /// range past the slice's end (`ArgumentOutOfRange`, `data`), data running past the buffer's
    /// end (`InvalidOperation`). As in XNA, a stride larger than the whole buffer is accepted for
    /// one element (only that element's bytes are placed), and with two or more elements is the
    /// `InvalidOperation` of data past the end (MonoGame refuses it with `ArgumentOutOfRange`
    /// either way; its tests record XNA's behaviour).
    pub fn set_data_full<T: Pod>(
        &self,
        offset_in_bytes: i32,
        data: &[T],
        start_index: usize,
        element_count: usize,
        vertex_stride: i32,
    ) -> Result<()> {
        self.core.set_data(
            offset_in_bytes,
            data,
            start_index,
            element_count,
            vertex_stride,
            SetDataOptions::None,
        )
    }

    /// XNA's `VertexBuffer.GetData<T>(T[])`: as many elements as the slice holds, from byte
    /// 0; errors as [`Self::get_data_full`].
    pub fn get_data<T: Pod>(&self, data: &mut [T]) -> Result<()> {
        let n = data.len();
        self.get_data_full(0, data, 0, n, 0)
    }

    /// XNA's `VertexBuffer.GetData<T>(offsetInBytes, T[], startIndex, elementCount,
    /// vertexStride)`: the reverse of
    /// [`Self::set_data_full`], with the same errors, plus `NotSupported` on a `WriteOnly`
    /// buffer. Flushes and waits for the bytes.
    pub fn get_data_full<T: Pod>(
        &self,
        offset_in_bytes: i32,
        data: &mut [T],
        start_index: usize,
        element_count: usize,
        vertex_stride: i32,
    ) -> Result<()> {
        self.core.get_data(offset_in_bytes, data, start_index, element_count, vertex_stride)
    }
}

/// XNA's `DynamicVertexBuffer`: a vertex buffer rewritten often, with [`SetDataOptions`].
pub struct DynamicVertexBuffer {
    inner: VertexBuffer,
}

impl DynamicVertexBuffer {
    /// XNA's `new DynamicVertexBuffer(graphicsDevice, vertexDeclaration, vertexCount, usage)`;
    /// errors as [`VertexBuffer::new`].
    pub fn new(
        device: &GraphicsDevice,
        declaration: &VertexDeclaration,
        vertex_count: i32,
        usage: BufferUsage,
    ) -> Result<Self> {
        let inner = VertexBuffer::create(
            device,
            "DynamicVertexBuffer",
            declaration,
            vertex_count,
            usage,
            true,
        )?;
        Ok(DynamicVertexBuffer { inner })
    }

    /// The buffer as a plain `VertexBuffer` (XNA's base class; Rust has no inheritance).
    pub fn as_vertex_buffer(&self) -> &VertexBuffer {
        &self.inner
    }

    /// XNA's `DynamicVertexBuffer.SetData<T>(offsetInBytes, T[], startIndex, elementCount,
    /// vertexStride, options)`: as [`VertexBuffer::set_data_full`], with its errors, with
    /// `options`; clears `IsContentLost`.
    pub fn set_data_with_options<T: Pod>(
        &self,
        offset_in_bytes: i32,
        data: &[T],
        start_index: usize,
        element_count: usize,
        vertex_stride: i32,
        options: SetDataOptions,
    ) -> Result<()> {
        let core = &self.inner.core;
        core.set_data(offset_in_bytes, data, start_index, element_count, vertex_stride, options)
    }

    /// XNA's `IsContentLost`: set by a reported device reset, cleared by the next `SetData`.
    pub fn is_content_lost(&self) -> bool {
        self.inner.core.content_lost.load(Ordering::Acquire)
    }

    /// XNA's `ContentLost` event: raised when a reported device reset loses the content.
    pub fn content_lost(&self) -> &Event<ResourceEventArgs> {
        &self.inner.core.content_lost_event
    }
}

impl std::ops::Deref for DynamicVertexBuffer {
    type Target = VertexBuffer;
    fn deref(&self) -> &VertexBuffer {
        &self.inner
    }
}

impl std::fmt::Debug for DynamicVertexBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.inner.fmt(f)
    }
}

/// XNA's `IndexBuffer`: `index_count` 16- or 32-bit indices.
///
/// Every data call of a disposed buffer or device is `ObjectDisposed`. Where it differs from
/// XNA: dropping the buffer disposes it (without `Disposing`).
pub struct IndexBuffer {
    pub(crate) core: Arc<BufferCore>,
    element_size: IndexElementSize,
    index_count: i32,
}

buffer_resource!(IndexBuffer);

impl IndexBuffer {
    /// XNA's `new IndexBuffer(graphicsDevice, indexElementSize, indexCount, usage)`.
    ///
    /// Errors: an `indexCount` that is not positive is `ArgumentOutOfRange` on `indexCount`;
    /// 32-bit indices need the HiDef profile (`NotSupported`); a disposed device is
    /// `ObjectDisposed`.
    pub fn new(
        device: &GraphicsDevice,
        element_size: IndexElementSize,
        index_count: i32,
        usage: BufferUsage,
    ) -> Result<Self> {
        Self::create(device, "IndexBuffer", element_size, index_count, usage, false)
    }

    fn create(
        device: &GraphicsDevice,
        kind: &'static str,
        element_size: IndexElementSize,
        index_count: i32,
        usage: BufferUsage,
        dynamic: bool,
    ) -> Result<Self> {
        let count = checked_count("indexCount", index_count)?;
        if element_size == IndexElementSize::ThirtyTwoBits
            && device.graphics_profile() == GraphicsProfile::Reach
        {
            return Err(XnaError::not_supported(
                "32-bit indices need the HiDef profile; this device uses Reach.",
            ));
        }
        let size = count * u64::from(element_size.bytes());
        let desc = BufferDesc { size, kind: BufferKind::Index, dynamic };
        let core = BufferCore::create(device, kind, desc, usage)?;
        Ok(IndexBuffer { core, element_size, index_count })
    }

    /// XNA's `IndexBuffer.IndexCount`.
    pub fn index_count(&self) -> i32 {
        self.index_count
    }

    /// XNA's `IndexBuffer.IndexElementSize`.
    pub fn index_element_size(&self) -> IndexElementSize {
        self.element_size
    }

    fn check_type<T: Pod>(&self) -> Result<()> {
        if std::mem::size_of::<T>() as u32 != self.element_size.bytes() {
            return Err(XnaError::argument(
                "data",
                format!(
                    "The element type is {} bytes; this buffer holds {:?} indices.",
                    std::mem::size_of::<T>(),
                    self.element_size
                ),
            ));
        }
        Ok(())
    }

    /// XNA's `IndexBuffer.SetData<T>(T[])`: every index from byte 0. `T` must be as large as
    /// an index (`u16` or `u32`; else `Argument` on `data`); the other errors as
    /// [`Self::set_data_full`].
    pub fn set_data<T: Pod>(&self, data: &[T]) -> Result<()> {
        self.set_data_full(0, data, 0, data.len())
    }

    /// XNA's `IndexBuffer.SetData<T>(offsetInBytes, T[], startIndex, elementCount)`, with the
    /// checks of [`VertexBuffer::set_data_full`] (indices are packed) and `Argument` on `data`
    /// when `T` is not the size of an index.
    pub fn set_data_full<T: Pod>(
        &self,
        offset_in_bytes: i32,
        data: &[T],
        start_index: usize,
        element_count: usize,
    ) -> Result<()> {
        self.check_type::<T>()?;
        self.core.set_data(
            offset_in_bytes,
            data,
            start_index,
            element_count,
            0,
            SetDataOptions::None,
        )
    }

    /// XNA's `IndexBuffer.GetData<T>(T[])`: as many indices as the slice holds, from byte 0;
    /// errors as [`Self::get_data_full`].
    pub fn get_data<T: Pod>(&self, data: &mut [T]) -> Result<()> {
        let n = data.len();
        self.get_data_full(0, data, 0, n)
    }

    /// XNA's `IndexBuffer.GetData<T>(offsetInBytes, T[], startIndex, elementCount)`: flushes
    /// and waits. Errors: those of [`Self::set_data_full`], and `NotSupported` on a
    /// `WriteOnly` buffer.
    pub fn get_data_full<T: Pod>(
        &self,
        offset_in_bytes: i32,
        data: &mut [T],
        start_index: usize,
        element_count: usize,
    ) -> Result<()> {
        self.check_type::<T>()?;
        self.core.get_data(offset_in_bytes, data, start_index, element_count, 0)
    }
}

/// XNA's `DynamicIndexBuffer`: an index buffer rewritten often, with [`SetDataOptions`].
pub struct DynamicIndexBuffer {
    inner: IndexBuffer,
}

impl DynamicIndexBuffer {
    /// XNA's `new DynamicIndexBuffer(graphicsDevice, indexElementSize, indexCount, usage)`;
    /// errors as [`IndexBuffer::new`].
    pub fn new(
        device: &GraphicsDevice,
        element_size: IndexElementSize,
        index_count: i32,
        usage: BufferUsage,
    ) -> Result<Self> {
        let inner = IndexBuffer::create(
            device,
            "DynamicIndexBuffer",
            element_size,
            index_count,
            usage,
            true,
        )?;
        Ok(DynamicIndexBuffer { inner })
    }

    /// The buffer as a plain `IndexBuffer` (XNA's base class; Rust has no inheritance).
    pub fn as_index_buffer(&self) -> &IndexBuffer {
        &self.inner
    }

    /// XNA's `DynamicIndexBuffer.SetData<T>(offsetInBytes, T[], startIndex, elementCount,
    /// options)`, with the errors of [`IndexBuffer::set_data_full`]; clears `IsContentLost`.
    pub fn set_data_with_options<T: Pod>(
        &self,
        offset_in_bytes: i32,
        data: &[T],
        start_index: usize,
        element_count: usize,
        options: SetDataOptions,
    ) -> Result<()> {
        self.inner.check_type::<T>()?;
        self.inner.core.set_data(offset_in_bytes, data, start_index, element_count, 0, options)
    }

    /// XNA's `IsContentLost`: set by a reported device reset, cleared by the next `SetData`.
    pub fn is_content_lost(&self) -> bool {
        self.inner.core.content_lost.load(Ordering::Acquire)
    }

    /// XNA's `ContentLost` event: raised when a reported device reset loses the content.
    pub fn content_lost(&self) -> &Event<ResourceEventArgs> {
        &self.inner.core.content_lost_event
    }
}

impl std::ops::Deref for DynamicIndexBuffer {
    type Target = IndexBuffer;
    fn deref(&self) -> &IndexBuffer {
        &self.inner
    }
}

impl std::fmt::Debug for DynamicIndexBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.inner.fmt(f)
    }
}
