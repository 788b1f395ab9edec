//! The device state geometry draws use: `BlendState`, `DepthStencilState`, `RasterizerState`,
//! `SamplerStates`, the bound vertex buffers and `Indices`.
//!
//! Setting a state checks it against what the device can do (`NotSupported` at the call:
//! wire frame without fillModeNonSolid, anisotropic filtering without samplerAnisotropy) and
//! keeps it; the draws record it. SpriteBatch keeps its own states and does not change these.

use xnagraph_graph::{BlendState, DepthStencilState, FillMode, RasterizerState, SamplerState};

use crate::device::draw_state::{BoundIndices, BoundStream, VERTEX_SAMPLER_SLOTS};
pub use crate::device::draw_state::{MAX_VERTEX_STREAMS, SAMPLER_SLOTS};
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::resources::buffer::{IndexBuffer, VertexBuffer};

/// XNA's `VertexBufferBinding`: a vertex buffer, the vertex it starts at, and how many
/// instances each of its elements serves (0: one element per vertex). A per-vertex and a
/// per-instance stream alike read at the buffer's declaration's stride, a multiple of 4
/// (as in XNA; see [`VertexDeclaration`](crate::VertexDeclaration)).
#[derive(Clone, Copy, Debug)]
pub struct VertexBufferBinding<'a> {
    /// XNA's `VertexBuffer`: the buffer.
    pub buffer: &'a VertexBuffer,
    /// XNA's `VertexOffset`: the vertex that draws call vertex 0.
    pub vertex_offset: i32,
    /// XNA's `InstanceFrequency`: 0 per vertex, 1 per instance, `n` one element for `n`
    /// instances (where the device has a vertex attribute divisor).
    pub instance_frequency: i32,
}

impl<'a> VertexBufferBinding<'a> {
    /// XNA's `new VertexBufferBinding(vertexBuffer)`: offset 0, per vertex.
    pub fn new(buffer: &'a VertexBuffer) -> Self {
        VertexBufferBinding { buffer, vertex_offset: 0, instance_frequency: 0 }
    }
}

impl GraphicsDevice {
    /// XNA's `GraphicsDevice.BlendState` (default [`BlendState::OPAQUE`]).
    pub fn blend_state(&self) -> BlendState {
        lock(&self.shared.rec).draw.blend
    }

    /// Sets XNA's `GraphicsDevice.BlendState` for the draws that follow; a disposed device is
    /// `ObjectDisposed`. Whether a bound target can blend is checked at the draw.
    pub fn set_blend_state(&self, state: BlendState) -> Result<()> {
        self.shared.check_alive()?;
        lock(&self.shared.rec).draw.blend = state;
        Ok(())
    }

    /// XNA's `GraphicsDevice.DepthStencilState` (default [`DepthStencilState::DEFAULT`]).
    pub fn depth_stencil_state(&self) -> DepthStencilState {
        lock(&self.shared.rec).draw.depth_stencil
    }

    /// Sets XNA's `GraphicsDevice.DepthStencilState` (depth test and write, stencil functions,
    /// operations, reference and masks) for the draws that follow; a disposed device is
    /// `ObjectDisposed`. Depth and stencil apply where the bound target has them.
    pub fn set_depth_stencil_state(&self, state: DepthStencilState) -> Result<()> {
        self.shared.check_alive()?;
        lock(&self.shared.rec).draw.depth_stencil = state;
        Ok(())
    }

    /// XNA's `GraphicsDevice.RasterizerState` (default
    /// [`RasterizerState::CULL_COUNTER_CLOCKWISE`]).
    pub fn rasterizer_state(&self) -> RasterizerState {
        lock(&self.shared.rec).draw.rasterizer
    }

    /// Sets XNA's `GraphicsDevice.RasterizerState` (cull mode, fill mode, scissor test, depth
    /// bias).
    ///
    /// Errors: a disposed device is `ObjectDisposed`; a NaN or infinite bias is `Argument` on
    /// `rasterizerState`; `WireFrame` on a device without it is `NotSupported`.
    pub fn set_rasterizer_state(&self, state: RasterizerState) -> Result<()> {
        self.shared.check_alive()?;
        crate::finite::check_rasterizer(&state)?;
        if state.fill_mode == FillMode::WireFrame && !self.shared.caps.wire_frame {
            return Err(XnaError::not_supported(
                "FillMode.WireFrame is not supported by this device.",
            ));
        }
        lock(&self.shared.rec).draw.rasterizer = state;
        Ok(())
    }

    /// XNA's `GraphicsDevice.SamplerStates[index]`; `index` past the slots is
    /// `ArgumentOutOfRange` on `index`.
    pub fn sampler_state(&self, index: usize) -> Result<SamplerState> {
        let rec = lock(&self.shared.rec);
        rec.draw.samplers.get(index).copied().ok_or_else(|| sampler_index_error(index))
    }

    /// Sets XNA's `GraphicsDevice.SamplerStates[index]`.
    ///
    /// Errors: a disposed device is `ObjectDisposed`; `index` past the slots is
    /// `ArgumentOutOfRange` on `index`; anisotropic filtering on a device without it is
    /// `NotSupported` (never silently another filter).
    pub fn set_sampler_state(&self, index: usize, state: SamplerState) -> Result<()> {
        self.shared.check_alive()?;
        if index >= SAMPLER_SLOTS {
            return Err(sampler_index_error(index));
        }
        if state.filter == xnagraph_graph::TextureFilter::Anisotropic
            && !self.shared.caps.anisotropic_filtering
        {
            return Err(XnaError::not_supported(
                "TextureFilter.Anisotropic is not supported by this device.",
            ));
        }
        lock(&self.shared.rec).draw.samplers[index] = state;
        Ok(())
    }

    /// XNA's `GraphicsDevice.VertexSamplerStates[index]`; `index` past the four slots is
    /// `ArgumentOutOfRange` on `index`.
    pub fn vertex_sampler_state(&self, index: usize) -> Result<SamplerState> {
        let rec = lock(&self.shared.rec);
        rec.draw
            .vertex_samplers
            .get(index)
            .copied()
            .ok_or_else(|| vertex_sampler_index_error(index))
    }

    /// Sets XNA's `GraphicsDevice.VertexSamplerStates[index]`: how a custom effect's vertex stage
    /// samples the texture at its binding `index` (vertex texture fetch, which HiDef has and Reach
    /// does not: a vertex-stage sampler is refused when the effect is created). `index` past the
    /// four slots is `ArgumentOutOfRange` on `index`; anisotropic filtering on a device without it
    /// is `NotSupported`; a disposed device is `ObjectDisposed`.
    pub fn set_vertex_sampler_state(&self, index: usize, state: SamplerState) -> Result<()> {
        self.shared.check_alive()?;
        if index >= VERTEX_SAMPLER_SLOTS {
            return Err(vertex_sampler_index_error(index));
        }
        if state.filter == xnagraph_graph::TextureFilter::Anisotropic
            && !self.shared.caps.anisotropic_filtering
        {
            return Err(XnaError::not_supported(
                "TextureFilter.Anisotropic is not supported by this device.",
            ));
        }
        lock(&self.shared.rec).draw.vertex_samplers[index] = state;
        Ok(())
    }

    /// XNA's `GraphicsDevice.SetVertexBuffer(vertexBuffer)`: one stream from vertex 0, or none;
    /// errors as [`Self::set_vertex_buffers`].
    pub fn set_vertex_buffer(&self, buffer: Option<&VertexBuffer>) -> Result<()> {
        match buffer {
            Some(b) => self.set_vertex_buffers(&[VertexBufferBinding::new(b)]),
            None => self.set_vertex_buffers(&[]),
        }
    }

    /// XNA's `GraphicsDevice.SetVertexBuffer(vertexBuffer, vertexOffset)`; errors as
    /// [`Self::set_vertex_buffers`].
    pub fn set_vertex_buffer_with_offset(
        &self,
        buffer: &VertexBuffer,
        vertex_offset: i32,
    ) -> Result<()> {
        let binding = VertexBufferBinding { buffer, vertex_offset, instance_frequency: 0 };
        self.set_vertex_buffers(&[binding])
    }

    /// XNA's `GraphicsDevice.SetVertexBuffers(params VertexBufferBinding[])`: the streams draws
    /// read, replacing every earlier one (an empty slice unbinds all).
    ///
    /// Errors: a disposed device or buffer is `ObjectDisposed`; more than
    /// [`MAX_VERTEX_STREAMS`] is `Argument` on `vertexBuffers`; a negative
    /// offset or one at or past the buffer's vertex count is `ArgumentOutOfRange`
    /// (`vertexOffset`); a negative instance frequency is `ArgumentOutOfRange`
    /// (`instanceFrequency`); a disposed buffer is `ObjectDisposed`.
    ///
    /// A binding with `InstanceFrequency` 1 is a per-instance stream: `DrawInstancedPrimitives`
    /// reads its element `vertexOffset + i` for instance `i`, and the other draws (one instance)
    /// read element `vertexOffset`. XNA also allows a frequency above 1 (one element for that
    /// many instances), which needs Vulkan's vertex attribute divisor
    /// (`Capabilities::instance_divisor`): where the renderer lacks it (SDL_gpu, whose
    /// `instance_step_rate` SDL 3.4 reserves; a Vulkan device without
    /// VK_EXT_vertex_attribute_divisor) such a binding is `NotSupported` here.
    pub fn set_vertex_buffers(&self, bindings: &[VertexBufferBinding<'_>]) -> Result<()> {
        self.shared.check_alive()?;
        if bindings.len() > MAX_VERTEX_STREAMS {
            return Err(XnaError::argument(
                "vertexBuffers",
                format!("At most {MAX_VERTEX_STREAMS} vertex buffers can be bound at once."),
            ));
        }
        let mut streams = Vec::with_capacity(bindings.len());
        for b in bindings {
            b.buffer.core.state()?;
            if b.vertex_offset < 0 || b.vertex_offset >= b.buffer.vertex_count() {
                return Err(XnaError::out_of_range(
                    "vertexOffset",
                    "The vertex offset must be within the vertex buffer.",
                ));
            }
            if b.instance_frequency < 0 {
                return Err(XnaError::out_of_range(
                    "instanceFrequency",
                    "The instance frequency cannot be negative.",
                ));
            }
            if b.instance_frequency > 1 && !self.shared.caps.instance_divisor {
                return Err(XnaError::not_supported(format!(
                    "An InstanceFrequency of {} (one element for several instances) is not \
                     supported by this renderer (it has no vertex attribute divisor); 0 (per \
                     vertex) and 1 (per instance) are.",
                    b.instance_frequency
                )));
            }
            streams.push(BoundStream {
                core: b.buffer.core.clone(),
                declaration: b.buffer.vertex_declaration().clone(),
                vertex_count: b.buffer.vertex_count(),
                vertex_offset: b.vertex_offset,
                instance_frequency: b.instance_frequency,
            });
        }
        lock(&self.shared.rec).draw.streams = streams;
        Ok(())
    }

    /// How many vertex streams are bound (the length of XNA's
    /// `GraphicsDevice.GetVertexBuffers()`; the bindings themselves are not returned).
    pub fn vertex_buffer_count(&self) -> usize {
        lock(&self.shared.rec).draw.streams.len()
    }

    /// Sets XNA's `GraphicsDevice.Indices`: the index buffer indexed draws read, or none. A
    /// disposed buffer or device is `ObjectDisposed`.
    pub fn set_indices(&self, buffer: Option<&IndexBuffer>) -> Result<()> {
        self.shared.check_alive()?;
        let bound = match buffer {
            Some(b) => {
                b.core.state()?;
                Some(BoundIndices {
                    core: b.core.clone(),
                    element_size: b.index_element_size(),
                    index_count: b.index_count(),
                })
            }
            None => None,
        };
        lock(&self.shared.rec).draw.indices = bound;
        Ok(())
    }
}

fn sampler_index_error(index: usize) -> XnaError {
    XnaError::out_of_range(
        "index",
        format!("The sampler index {index} is outside 0..{SAMPLER_SLOTS}."),
    )
}

fn vertex_sampler_index_error(index: usize) -> XnaError {
    XnaError::out_of_range(
        "index",
        format!("The vertex sampler index {index} is outside 0..{VERTEX_SAMPLER_SLOTS}."),
    )
}
