//! The device state geometry draws use: `BlendState`, `DepthStencilState`, `RasterizerState`,
//! the collections `Textures`, `SamplerStates`, `VertexTextures` and `VertexSamplerStates`, the
//! bound vertex buffers and `Indices`.
//!
//! Setting a state checks it against what the device can do (`NotSupported` at the call:
//! wire frame without fillModeNonSolid, anisotropic filtering without samplerAnisotropy, a
//! vertex texture or vertex sampler under Reach) and keeps it; the draws record it. A custom
//! effect's `apply` writes its texture parameters into `Textures` and `VertexTextures` at their
//! samplers' bindings, as XNA's does, and a draw samples what the slots hold then; a stock
//! effect's `apply` writes the textures it samples into `Textures` and its draws read them there
//! too. SpriteBatch keeps its own states and, unlike XNA's, leaves `Textures[0]` as it was (writing
//! it would allocate a slot handle per batch, and a warm frame of sprites allocates nothing).

use std::sync::Arc;

use xnagraph_graph::{
    BlendState, DepthStencilState, FillMode, RasterizerState, SamplerState, StockShader,
    TextureState,
};

use crate::device::draw_state::{
    AppliedEffect, BoundIndices, BoundStream, DrawStates, TextureSlot, VERTEX_SAMPLER_SLOTS,
};
pub use crate::device::draw_state::{MAX_VERTEX_STREAMS, SAMPLER_SLOTS};
use crate::device::profile::GraphicsProfile;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::resources::buffer::{IndexBuffer, VertexBuffer};
use crate::resources::cube::{CubeRef, TextureCube};
use crate::resources::texture::{Texture2D, TextureRef};

/// The shader stage a texture or sampler collection serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// `Textures` and `SamplerStates`: the pixel (fragment) stage, 16 slots.
    Pixel,
    /// `VertexTextures` and `VertexSamplerStates`: vertex texture fetch, HiDef's 4 slots.
    Vertex,
}

impl Stage {
    fn slots(self) -> usize {
        match self {
            Stage::Pixel => SAMPLER_SLOTS,
            Stage::Vertex => VERTEX_SAMPLER_SLOTS,
        }
    }

    /// `ArgumentOutOfRange` on `index` past the slots.
    fn check_index(self, index: usize) -> Result<()> {
        if index < self.slots() {
            return Ok(());
        }
        let what = match self {
            Stage::Pixel => "texture or sampler",
            Stage::Vertex => "vertex texture or vertex sampler",
        };
        Err(XnaError::out_of_range(
            "index",
            format!("The {what} index {index} is outside 0..{}.", self.slots()),
        ))
    }

    /// Vertex texture fetch is HiDef's: under Reach, setting a vertex slot is `NotSupported`.
    fn check_profile(self, device: &GraphicsDevice) -> Result<()> {
        if self == Stage::Vertex && device.graphics_profile() == GraphicsProfile::Reach {
            return Err(XnaError::not_supported(
                "Vertex textures and vertex samplers (vertex texture fetch) require the HiDef \
                 profile.",
            ));
        }
        Ok(())
    }
}

/// XNA's `TextureCollection`: `GraphicsDevice.Textures` (16 slots, the fragment samplers of a
/// custom effect at bindings 0 to 15) or `GraphicsDevice.VertexTextures` (4 slots under HiDef,
/// the vertex samplers at bindings 0 to 3), from [`GraphicsDevice::textures`] and
/// [`GraphicsDevice::vertex_textures`].
///
/// A custom effect's `EffectPass::apply` writes each texture parameter into the slot of its
/// sampler's binding (XNA's null where the parameter holds none), and each draw samples what
/// the slots hold at the draw: a texture set here after `apply` replaces the parameter's for
/// the draws that follow, as in XNA. The stock effects' `apply` writes the textures their
/// shader samples (`Texture` at 0, `Texture2` or `EnvironmentMap` at 1) and their draws sample
/// these slots too. Unlike XNA's, a `SpriteBatch` does not leave the last texture it drew in
/// slot 0 (a warm frame of sprites allocates nothing, and the slot holds a counted handle).
/// Where xnagraph differs: the game sets `Texture2D`s (render targets through their
/// `Texture2D`), as custom effects sample only `sampler2D`s, and only EnvironmentMapEffect's
/// `apply` puts a cube in a slot ([`Self::get_cube`]); a draw whose effect samples an empty
/// slot is `InvalidOperation` instead of sampling zeros.
#[derive(Clone, Copy)]
pub struct TextureCollection<'a> {
    device: &'a GraphicsDevice,
    stage: Stage,
}

impl std::fmt::Debug for TextureCollection<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextureCollection").field("stage", &self.stage).finish()
    }
}

impl TextureCollection<'_> {
    /// How many slots the collection has: 16 for `Textures`, 4 for `VertexTextures` (XNA's
    /// HiDef limits; `VertexTextures` cannot be set under Reach).
    pub fn count(&self) -> usize {
        self.stage.slots()
    }

    /// XNA's `Textures[index]` getter: the texture in the slot, `None` for XNA's null (a new
    /// wrapper over the same resource). `index` past the slots is `ArgumentOutOfRange` on
    /// `index`.
    pub fn get(&self, index: usize) -> Result<Option<Texture2D>> {
        self.stage.check_index(index)?;
        let rec = lock(&self.device.shared.rec);
        let slot = match self.stage {
            Stage::Pixel => &rec.draw.textures[index],
            Stage::Vertex => &rec.draw.vertex_textures[index],
        };
        Ok(slot
            .as_ref()
            .and_then(|t| t.as_any().downcast_ref::<TextureRef>())
            .map(TextureRef::to_texture))
    }

    /// XNA's `Textures[index]` getter for a slot holding a cube: the cube EnvironmentMapEffect's
    /// `Apply` wrote there (`EnvironmentMap`, slot 1), `None` when the slot holds no cube.
    /// Where xnagraph differs: XNA's getter returns the base `Texture`; here a 2D texture reads
    /// back through [`Self::get`] and a cube through this. `index` past the slots is
    /// `ArgumentOutOfRange` on `index`.
    pub fn get_cube(&self, index: usize) -> Result<Option<Arc<TextureCube>>> {
        self.stage.check_index(index)?;
        let rec = lock(&self.device.shared.rec);
        let slot = match self.stage {
            Stage::Pixel => &rec.draw.textures[index],
            Stage::Vertex => &rec.draw.vertex_textures[index],
        };
        Ok(slot.as_ref().and_then(|t| t.as_any().downcast_ref::<CubeRef>()).map(|c| c.0.clone()))
    }

    /// XNA's `Textures[index] = texture`: the texture the sampler at binding `index` of a
    /// custom pass reads in the draws that follow (`None` empties the slot). The device holds a
    /// reference to the game's texture, never a copy.
    ///
    /// Errors: a disposed device or texture is `ObjectDisposed`; `index` past the slots is
    /// `ArgumentOutOfRange` on `index`; a texture of another device is `Argument` on `value`;
    /// any `VertexTextures` slot under the Reach profile is `NotSupported` (XNA's Reach has no
    /// vertex texture fetch). A texture bound as a render target is refused at the draw that
    /// samples it (`InvalidOperation`), as in XNA.
    pub fn set(&self, index: usize, texture: Option<&Texture2D>) -> Result<()> {
        let shared = &self.device.shared;
        shared.check_alive()?;
        self.stage.check_profile(self.device)?;
        self.stage.check_index(index)?;
        let slot: TextureSlot = match texture {
            Some(t) => {
                t.core.state()?;
                if !std::ptr::eq(t.core.res.device.as_ptr(), Arc::as_ptr(shared)) {
                    return Err(XnaError::argument(
                        "value",
                        "The texture was created on a different GraphicsDevice.",
                    ));
                }
                Some(Arc::new(TextureRef::new(t)))
            }
            None => None,
        };
        let mut rec = lock(&shared.rec);
        let held = match self.stage {
            Stage::Pixel => &mut rec.draw.textures[index],
            Stage::Vertex => &mut rec.draw.vertex_textures[index],
        };
        let replaced = std::mem::replace(held, slot);
        // The texture replaced may be the game's last reference: dropping it disposes it, which
        // takes the recording lock.
        drop(rec);
        drop(replaced);
        Ok(())
    }
}

/// What a stock effect's draw samples at `slot` of `GraphicsDevice.Textures`, as XNA's draws
/// read the device's textures: the texture the slot holds now, which must be of the kind the
/// effect's shader samples there (a cube for EnvironmentMapEffect's slot 1, else 2D).
pub(crate) fn slot_texture(
    states: &DrawStates,
    slot: usize,
    effect: &AppliedEffect,
) -> Result<Arc<TextureState>> {
    let shader = effect.material.shader;
    let name = match shader {
        StockShader::Basic => "BasicEffect",
        StockShader::AlphaTest => "AlphaTestEffect",
        StockShader::DualTexture => "DualTextureEffect",
        StockShader::Skinned => "SkinnedEffect",
        StockShader::EnvironmentMap => "EnvironmentMapEffect",
    };
    let Some(texture) = &states.textures[slot] else {
        return Err(XnaError::invalid_operation(format!(
            "GraphicsDevice.Textures[{slot}] is null: the applied {name} samples it."
        )));
    };
    let state = texture.state()?;
    let desc = state.desc();
    let cube = desc.layers == 6 && !desc.is_volume();
    let wants_cube = slot == 1 && shader == StockShader::EnvironmentMap;
    if cube != wants_cube {
        let kind = |cube: bool| if cube { "TextureCube" } else { "Texture2D" };
        return Err(XnaError::invalid_operation(format!(
            "GraphicsDevice.Textures[{slot}] holds a {}, but the applied {name} samples a {} \
             there.",
            kind(cube),
            kind(wants_cube)
        )));
    }
    Ok(state)
}

/// XNA's `SamplerStateCollection`: `GraphicsDevice.SamplerStates` (16 slots) or
/// `GraphicsDevice.VertexSamplerStates` (4 slots under HiDef), from
/// [`GraphicsDevice::sampler_states`] and [`GraphicsDevice::vertex_sampler_states`]. Slot `i`
/// is how the sampler at binding `i` of a custom pass's stage filters and addresses at each
/// draw; `SamplerStates[0]` and `[1]` serve the stock effects' textures. Every slot starts as
/// [`SamplerState::LINEAR_WRAP`], XNA's default. Where xnagraph differs: a custom effect
/// declares no sampler states of its own, so `apply` leaves these slots as they are.
#[derive(Clone, Copy)]
pub struct SamplerStateCollection<'a> {
    device: &'a GraphicsDevice,
    stage: Stage,
}

impl std::fmt::Debug for SamplerStateCollection<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SamplerStateCollection").field("stage", &self.stage).finish()
    }
}

impl SamplerStateCollection<'_> {
    /// How many slots the collection has: 16 for `SamplerStates`, 4 for `VertexSamplerStates`.
    pub fn count(&self) -> usize {
        self.stage.slots()
    }

    /// XNA's `SamplerStates[index]` getter; `index` past the slots is `ArgumentOutOfRange` on
    /// `index`.
    pub fn get(&self, index: usize) -> Result<SamplerState> {
        self.stage.check_index(index)?;
        let rec = lock(&self.device.shared.rec);
        Ok(match self.stage {
            Stage::Pixel => rec.draw.samplers[index],
            Stage::Vertex => rec.draw.vertex_samplers[index],
        })
    }

    /// XNA's `SamplerStates[index] = state`, for the draws that follow.
    ///
    /// Errors: a disposed device is `ObjectDisposed`; `index` past the slots is
    /// `ArgumentOutOfRange` on `index`; anisotropic filtering on a device without it is
    /// `NotSupported` (never silently another filter); any `VertexSamplerStates` slot under the
    /// Reach profile is `NotSupported`.
    pub fn set(&self, index: usize, state: SamplerState) -> Result<()> {
        let shared = &self.device.shared;
        shared.check_alive()?;
        self.stage.check_profile(self.device)?;
        self.stage.check_index(index)?;
        if state.filter == xnagraph_graph::TextureFilter::Anisotropic
            && !shared.caps.anisotropic_filtering
        {
            return Err(XnaError::not_supported(
                "TextureFilter.Anisotropic is not supported by this device.",
            ));
        }
        let mut rec = lock(&shared.rec);
        match self.stage {
            Stage::Pixel => rec.draw.samplers[index] = state,
            Stage::Vertex => rec.draw.vertex_samplers[index] = state,
        }
        Ok(())
    }
}

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

    /// XNA's `GraphicsDevice.Textures`: the textures a custom pass's fragment samplers read
    /// (see [`TextureCollection`]).
    pub fn textures(&self) -> TextureCollection<'_> {
        TextureCollection { device: self, stage: Stage::Pixel }
    }

    /// XNA's `GraphicsDevice.VertexTextures`: the textures a custom pass's vertex samplers read
    /// (vertex texture fetch, HiDef only; see [`TextureCollection`]).
    pub fn vertex_textures(&self) -> TextureCollection<'_> {
        TextureCollection { device: self, stage: Stage::Vertex }
    }

    /// XNA's `GraphicsDevice.SamplerStates` (see [`SamplerStateCollection`]).
    pub fn sampler_states(&self) -> SamplerStateCollection<'_> {
        SamplerStateCollection { device: self, stage: Stage::Pixel }
    }

    /// XNA's `GraphicsDevice.VertexSamplerStates` (HiDef only; see [`SamplerStateCollection`]).
    pub fn vertex_sampler_states(&self) -> SamplerStateCollection<'_> {
        SamplerStateCollection { device: self, stage: Stage::Vertex }
    }

    /// XNA's `GraphicsDevice.SamplerStates[index]`: `self.sampler_states().get(index)`.
    pub fn sampler_state(&self, index: usize) -> Result<SamplerState> {
        self.sampler_states().get(index)
    }

    /// Sets XNA's `GraphicsDevice.SamplerStates[index]`: `self.sampler_states().set(index,
    /// state)`, with its errors.
    pub fn set_sampler_state(&self, index: usize, state: SamplerState) -> Result<()> {
        self.sampler_states().set(index, state)
    }

    /// XNA's `GraphicsDevice.VertexSamplerStates[index]`:
    /// `self.vertex_sampler_states().get(index)`.
    pub fn vertex_sampler_state(&self, index: usize) -> Result<SamplerState> {
        self.vertex_sampler_states().get(index)
    }

    /// Sets XNA's `GraphicsDevice.VertexSamplerStates[index]`:
    /// `self.vertex_sampler_states().set(index, state)`, with its errors.
    pub fn set_vertex_sampler_state(&self, index: usize, state: SamplerState) -> Result<()> {
        self.vertex_sampler_states().set(index, state)
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
        }
        // Written over the bound list in place: a game that binds its buffers every frame
        // allocates nothing (a declaration is copied only where it differs).
        let mut rec = lock(&self.shared.rec);
        let streams = &mut rec.draw.streams;
        streams.truncate(bindings.len());
        for (i, b) in bindings.iter().enumerate() {
            let declaration = b.buffer.vertex_declaration();
            let core = b.buffer.core.clone();
            let (vertex_count, vertex_offset) = (b.buffer.vertex_count(), b.vertex_offset);
            let instance_frequency = b.instance_frequency;
            match streams.get_mut(i) {
                Some(s) => {
                    if s.declaration != *declaration {
                        s.declaration = declaration.clone();
                    }
                    s.core = core;
                    (s.vertex_count, s.vertex_offset) = (vertex_count, vertex_offset);
                    s.instance_frequency = instance_frequency;
                }
                None => streams.push(BoundStream {
                    core,
                    declaration: declaration.clone(),
                    vertex_count,
                    vertex_offset,
                    instance_frequency,
                }),
            }
        }
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
