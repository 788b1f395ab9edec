//! XNA's `DrawInstancedPrimitives`: an indexed draw repeated `instanceCount` times, where the
//! vertex streams bound with `InstanceFrequency` n ≥ 1 advance once per n instances instead of
//! once per vertex (Vulkan's per-instance input rate, with the vertex attribute divisor for
//! n > 1).
//!
//! XNA's rules: instancing is HiDef only (`NotSupported` on Reach), it is indexed only, the
//! instance count is positive, stream 0 holds the per-vertex geometry, and a per-instance
//! stream must hold an element for every instance drawn.

use super::{count_error, IndexedArgs};
use crate::device::draw_state::BoundStream;
use crate::device::profile::GraphicsProfile;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use xnagraph_graph::PrimitiveType;

/// Instancing is a HiDef feature: on Reach it is XNA's `NotSupportedException`.
pub(super) fn check_profile(profile: GraphicsProfile) -> Result<()> {
    match profile {
        GraphicsProfile::HiDef => Ok(()),
        GraphicsProfile::Reach => Err(XnaError::not_supported(
            "DrawInstancedPrimitives requires the HiDef profile; the Reach profile does not \
             support hardware instancing.",
        )),
    }
}

/// Checks `instance_count` against the bound streams and returns it: positive, stream 0 per
/// vertex, and every per-instance stream long enough for the instances drawn from its offset
/// (a stream of frequency n needs ⌈instanceCount / n⌉ elements).
pub(super) fn check_streams(streams: &[BoundStream], instance_count: i32) -> Result<u32> {
    if instance_count <= 0 {
        return Err(count_error("instanceCount", "The instance count must be positive."));
    }
    if streams.first().is_some_and(|s| s.instance_frequency != 0) {
        return Err(XnaError::invalid_operation(
            "Vertex stream 0 must hold per-vertex data (InstanceFrequency 0) for instanced \
             drawing; bind the per-instance data at a later stream.",
        ));
    }
    for s in streams.iter().filter(|s| s.instance_frequency > 0) {
        let elements = (instance_count as u32).div_ceil(s.instance_frequency as u32);
        let end = i64::from(s.vertex_offset) + i64::from(elements);
        if end > i64::from(s.vertex_count) {
            return Err(count_error(
                "instanceCount",
                "The instances drawn run past the end of a per-instance vertex buffer.",
            ));
        }
    }
    Ok(instance_count as u32)
}

impl GraphicsDevice {
    /// `DrawInstancedPrimitives(primitiveType, baseVertex, minVertexIndex, numVertices,
    /// startIndex, primitiveCount, instanceCount)`: `DrawIndexedPrimitives` drawn
    /// `instanceCount` times; streams bound with `InstanceFrequency` n ≥ 1 give instance `i`
    /// their element `vertexOffset + i / n`. The Reach profile is `NotSupported`; a non-positive
    /// `instanceCount`, or instances past the end of a per-instance buffer, is
    /// `ArgumentOutOfRange`; a per-instance stream 0 is `InvalidOperation`; every argument
    /// and state check of [`GraphicsDevice::draw_indexed_primitives`] applies as well, and as
    /// there `minVertexIndex` and `numVertices` are a hint, not a bound.
    #[allow(clippy::too_many_arguments)] // XNA's signature.
    pub fn draw_instanced_primitives(
        &self,
        primitive_type: PrimitiveType,
        base_vertex: i32,
        min_vertex_index: i32,
        num_vertices: i32,
        start_index: i32,
        primitive_count: i32,
        instance_count: i32,
    ) -> Result<()> {
        let args = IndexedArgs {
            primitive_type,
            base_vertex,
            min_vertex_index,
            num_vertices,
            start_index,
            primitive_count,
        };
        self.draw_indexed(args, Some(instance_count))
    }
}
