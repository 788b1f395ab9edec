//! XNA's draws of the game's own vertices and indices: `DrawUserPrimitives` and
//! `DrawUserIndexedPrimitives`, whose data is copied into the frame's geometry arena at the call.

use bytemuck::Pod;
use xnagraph_graph::{DrawCall, IndexSource, PrimitiveType, VertexSource};

use super::layout::layout;
use super::{check_primitive_count, count_error, push_arena, with_applied_effect};
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::resources::buffer::VertexType;

/// An index type of `DrawUserIndexedPrimitives`: `u16` or `u32` (XNA's `short[]` / `int[]`).
pub trait IndexElement: Pod + Copy + private::Sealed {
    /// The index as a vertex number.
    fn to_u32(self) -> u32;
}

mod private {
    pub trait Sealed {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
}

impl IndexElement for u16 {
    fn to_u32(self) -> u32 {
        u32::from(self)
    }
}

impl IndexElement for u32 {
    fn to_u32(self) -> u32 {
        self
    }
}

impl GraphicsDevice {
    /// XNA's `GraphicsDevice.DrawUserPrimitives<T>(primitiveType, vertexData, vertexOffset,
    /// primitiveCount)`: primitives from the caller's vertices, copied at the call, read at the
    /// stride of `T`'s declaration (a multiple of 4, as in XNA: see
    /// [`VertexDeclaration`](crate::VertexDeclaration)).
    ///
    /// Errors: empty `vertexData` is `ArgumentNull` on `vertexData` (XNA's null array); a
    /// negative offset, a non-positive count or vertices past the end of the slice is
    /// `ArgumentOutOfRange`; no effect applied is `InvalidOperation`; and the errors every draw
    /// shares (see [`Self::draw_primitives`]).
    pub fn draw_user_primitives<T: VertexType>(
        &self,
        primitive_type: PrimitiveType,
        vertex_data: &[T],
        vertex_offset: i32,
        primitive_count: i32,
    ) -> Result<()> {
        self.shared.check_alive()?;
        if vertex_data.is_empty() {
            return Err(XnaError::ArgumentNull { param: "vertexData" });
        }
        let count = check_primitive_count(self.graphics_profile(), primitive_count)?;
        let vertices = primitive_type.vertex_count(count);
        if vertex_offset < 0 || vertex_offset as usize >= vertex_data.len() {
            return Err(count_error("vertexOffset", "The offset must be within vertexData."));
        }
        if vertex_offset as u64 + vertices > vertex_data.len() as u64 {
            return Err(count_error(
                "primitiveCount",
                "The vertices drawn run past the end of vertexData.",
            ));
        }
        let used = &vertex_data[vertex_offset as usize..vertex_offset as usize + vertices as usize];
        let mut rec = lock(&self.shared.rec);
        with_applied_effect(&mut rec, |rec, effect| {
            let declaration = T::vertex_declaration();
            let layout = layout(&[(&declaration, 0)], effect, &self.shared.caps)?;
            let range = push_arena(rec, bytemuck::cast_slice(used));
            let mut geometry = rec.builder.spare_geometry();
            geometry.layout = layout;
            geometry.primitive = primitive_type;
            geometry.streams.push(VertexSource::User(range));
            geometry.call = DrawCall::Vertices { first_vertex: 0, vertex_count: vertices as u32 };
            self.record_geometry(rec, effect, geometry)
        })
    }

    /// XNA's `GraphicsDevice.DrawUserIndexedPrimitives<T>(primitiveType, vertexData, vertexOffset,
    /// numVertices, indexData, indexOffset, primitiveCount)`: indexed primitives from the caller's
    /// vertices and `u16` or `u32` indices, both copied at the call; each index names a vertex from
    /// `vertexOffset`. Vertices are read at the stride of `T`'s declaration, as in
    /// [`Self::draw_user_primitives`]. Empty data is `ArgumentNull`; a negative offset, a
    /// non-positive count, a range past the end of either slice, or an index at or past
    /// `numVertices` is `ArgumentOutOfRange`; no effect applied is `InvalidOperation`; and the
    /// errors every draw shares (see [`Self::draw_primitives`]). Where it differs from XNA: the
    /// index type is a type parameter (`u16` or `u32`) instead of two overloads.
    #[allow(clippy::too_many_arguments)] // XNA's signature.
    pub fn draw_user_indexed_primitives<T: VertexType, I: IndexElement>(
        &self,
        primitive_type: PrimitiveType,
        vertex_data: &[T],
        vertex_offset: i32,
        num_vertices: i32,
        index_data: &[I],
        index_offset: i32,
        primitive_count: i32,
    ) -> Result<()> {
        self.shared.check_alive()?;
        if vertex_data.is_empty() {
            return Err(XnaError::ArgumentNull { param: "vertexData" });
        }
        if index_data.is_empty() {
            return Err(XnaError::ArgumentNull { param: "indexData" });
        }
        let count = check_primitive_count(self.graphics_profile(), primitive_count)?;
        if num_vertices <= 0 {
            return Err(count_error("numVertices", "The vertex count must be positive."));
        }
        if vertex_offset < 0
            || vertex_offset as u64 + num_vertices as u64 > vertex_data.len() as u64
        {
            return Err(count_error("vertexOffset", "The vertices named run outside vertexData."));
        }
        let indices = primitive_type.vertex_count(count);
        if index_offset < 0 || index_offset as u64 + indices > index_data.len() as u64 {
            return Err(count_error("primitiveCount", "The indices drawn run outside indexData."));
        }
        let used_indices =
            &index_data[index_offset as usize..index_offset as usize + indices as usize];
        // A GPU read past the copied vertices would be undefined: each index is checked here.
        if used_indices.iter().any(|i| i.to_u32() >= num_vertices as u32) {
            return Err(count_error(
                "indexData",
                "An index names a vertex at or past numVertices.",
            ));
        }
        let vertices =
            &vertex_data[vertex_offset as usize..vertex_offset as usize + num_vertices as usize];
        let mut rec = lock(&self.shared.rec);
        with_applied_effect(&mut rec, |rec, effect| {
            let declaration = T::vertex_declaration();
            let layout = layout(&[(&declaration, 0)], effect, &self.shared.caps)?;
            let vertex_range = push_arena(rec, bytemuck::cast_slice(vertices));
            let index_range = push_arena(rec, bytemuck::cast_slice(used_indices));
            let mut geometry = rec.builder.spare_geometry();
            geometry.layout = layout;
            geometry.primitive = primitive_type;
            geometry.streams.push(VertexSource::User(vertex_range));
            geometry.indices = Some(IndexSource {
                buffer: None,
                user: index_range,
                element_size: std::mem::size_of::<I>() as u8,
            });
            geometry.call = DrawCall::Indexed {
                base_vertex: 0,
                first_index: 0,
                index_count: indices as u32,
                min_vertex: 0,
                vertex_span: num_vertices as u32,
            };
            self.record_geometry(rec, effect, geometry)
        })
    }
}
