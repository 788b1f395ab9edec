//! The geometry readers: `VertexDeclarationReader`, `VertexBufferReader` and
//! `IndexBufferReader`.
//!
//! In: a [`ContentReader`] at the object's data (after its reader index). Out: the declaration
//! or the buffer, its bytes uploaded, or a `ContentLoad` error naming what is wrong and the byte
//! where it lies.
//!
//! The layouts, as XNA 4.0's content pipeline writes them: a declaration is its vertex stride
//! and element count (`uint`s), then per element its offset (`uint`), XNA 4.0's
//! `VertexElementFormat` and `VertexElementUsage` numbers (`int`s) and its usage index
//! (`uint`). A vertex buffer is its declaration written inline (`WriteRawObject`: no reader
//! index, and not a shared resource), its vertex count (`uint`), then `count × stride` bytes.
//! An index buffer is a `bool` (true: 16-bit indices), its byte count (`int`) and the bytes.
//!
//! What is decided here: an enum number outside XNA 4.0's is refused at its byte; the
//! declaration passes [`VertexDeclaration::with_stride`]'s checks (XNA's, plus xnagraph's
//! 4-byte alignment); an index buffer's byte count is a whole number of indices. The buffers are
//! created with `BufferUsage::None`, as XNA's readers create them, by the engine's own
//! constructors, whose refusals (no vertices or indices, 32-bit indices on a Reach device)
//! become `ContentLoad` errors carrying their message. A file lists `VertexDeclarationReader`
//! beside `VertexBufferReader`, as XNA's writer does, but a vertex buffer is read without
//! looking it up: the layout fixes the reader.

use super::ContentReader;
use crate::error::Result;
use crate::resources::buffer::{BufferUsage, IndexBuffer, IndexElementSize, VertexBuffer};
use crate::vertex::{VertexDeclaration, VertexElement, VertexElementFormat, VertexElementUsage};

/// XNA 4.0's enum value `n` as the variant `all[n]`.
fn numbered<T: Copy>(all: &[T], n: i32) -> Option<T> {
    usize::try_from(n).ok().and_then(|i| all.get(i).copied())
}

impl ContentReader<'_> {
    /// `VertexDeclarationReader`: stride, element count, then each element's offset, format,
    /// usage and usage index.
    pub(super) fn vertex_declaration(&mut self) -> Result<VertexDeclaration> {
        let start = self.xnb.position();
        let stride_at = self.xnb.position();
        let stride = self.xnb.u32("a vertex declaration's stride")?;
        let count = self.xnb.u32("a vertex declaration's element count")?;
        let mut elements = Vec::with_capacity((count as usize).min(16));
        for i in 0..count {
            let offset = self.xnb.u32("a vertex element's offset")?;
            let format_at = self.xnb.position();
            let n = self.xnb.i32("a vertex element's format")?;
            let format = numbered(&VertexElementFormat::ALL, n).ok_or_else(|| {
                self.xnb.error_at(
                    format_at,
                    format!(
                        "vertex element {i} has format {n}, not an XNA 4.0 VertexElementFormat \
                         (0 to {})",
                        VertexElementFormat::ALL.len() - 1
                    ),
                )
            })?;
            let usage_at = self.xnb.position();
            let n = self.xnb.i32("a vertex element's usage")?;
            let usage = numbered(&VertexElementUsage::ALL, n).ok_or_else(|| {
                self.xnb.error_at(
                    usage_at,
                    format!(
                        "vertex element {i} has usage {n}, not an XNA 4.0 VertexElementUsage \
                         (0 to {})",
                        VertexElementUsage::ALL.len() - 1
                    ),
                )
            })?;
            let usage_index = self.xnb.u32("a vertex element's usage index")?;
            elements.push(VertexElement::new(offset, format, usage, usage_index));
        }
        let stride = i32::try_from(stride).map_err(|_| {
            self.xnb.error_at(stride_at, format!("the vertex stride {stride} is past i32::MAX"))
        })?;
        VertexDeclaration::with_stride(stride, &elements).map_err(|e| {
            self.xnb.error_at(
                start,
                format!("the vertex declaration of stride {stride} is refused ({e})"),
            )
        })
    }

    /// `VertexBufferReader`: the declaration inline, the vertex count, then the vertices.
    pub(super) fn vertex_buffer(&mut self) -> Result<VertexBuffer> {
        let declaration = self.vertex_declaration()?;
        let count_at = self.xnb.position();
        let count = self.xnb.u32("a vertex buffer's vertex count")?;
        let stride = declaration.vertex_stride() as usize;
        let vertices = i32::try_from(count).map_err(|_| {
            self.xnb.error_at(count_at, format!("the vertex count {count} is past i32::MAX"))
        })?;
        // A count this large cannot be in the file: the check reports where it ends.
        let size = (count as usize).saturating_mul(stride);
        self.xnb.require(size, "a vertex buffer's vertices")?;
        let buffer = VertexBuffer::new(self.device, &declaration, vertices, BufferUsage::None)
            .map_err(|e| {
                self.xnb.error_at(
                    count_at,
                    format!(
                        "the vertex buffer of {count} vertices of stride {stride} cannot be \
                         created ({e})"
                    ),
                )
            })?;
        let data_at = self.xnb.position();
        let bytes = self.xnb.bytes(size, "a vertex buffer's vertices")?;
        buffer
            .set_data(bytes)
            .map_err(|e| self.xnb.error_at(data_at, format!("the vertices do not upload ({e})")))?;
        Ok(buffer)
    }

    /// `IndexBufferReader`: 16-bit or not, the byte count, then the indices.
    pub(super) fn index_buffer(&mut self) -> Result<IndexBuffer> {
        let start = self.xnb.position();
        let element_size = match self.xnb.bool("an index buffer's index size")? {
            true => IndexElementSize::SixteenBits,
            false => IndexElementSize::ThirtyTwoBits,
        };
        let size_at = self.xnb.position();
        let size = self.xnb.count("an index buffer's byte count")?;
        let bytes_per_index = element_size.bytes() as usize;
        if !size.is_multiple_of(bytes_per_index) {
            return Err(self.xnb.error_at(
                size_at,
                format!("{size} bytes are not a whole number of {element_size:?} indices"),
            ));
        }
        self.xnb.require(size, "an index buffer's indices")?;
        let count = (size / bytes_per_index) as i32;
        let buffer = IndexBuffer::new(self.device, element_size, count, BufferUsage::None)
            .map_err(|e| {
                self.xnb.error_at(
                    start,
                    format!(
                        "the index buffer of {count} {element_size:?} indices cannot be created \
                         ({e})"
                    ),
                )
            })?;
        let data_at = self.xnb.position();
        let bytes = self.xnb.bytes(size, "an index buffer's indices")?;
        // Indices as arrays of their bytes (the file's little-endian order is the GPU's), so
        // the upload needs neither a copy nor an aligned slice; the size is a whole number of
        // indices (checked above), all the casts ask.
        let uploaded = match element_size {
            IndexElementSize::SixteenBits => {
                buffer.set_data(bytemuck::cast_slice::<u8, [u8; 2]>(bytes))
            }
            IndexElementSize::ThirtyTwoBits => {
                buffer.set_data(bytemuck::cast_slice::<u8, [u8; 4]>(bytes))
            }
        };
        uploaded
            .map_err(|e| self.xnb.error_at(data_at, format!("the indices do not upload ({e})")))?;
        Ok(buffer)
    }
}
