//! XNA's geometry draws: `DrawPrimitives`, `DrawIndexedPrimitives`, (`user.rs`)
//! `DrawUserPrimitives` and `DrawUserIndexedPrimitives`, and (`instanced.rs`)
//! `DrawInstancedPrimitives`.
//!
//! A draw checks XNA's arguments against the bound vertex and index buffers and the applied
//! effect, then records a [`Draw`] with its [`GeometryDraw`] in the current pass segment: the
//! device's blend, depth/stencil and rasterizer states in its pipeline key, `SamplerStates[0]`,
//! the effect's transform, material and texture, the viewport and scissor rectangle. Buffers are
//! held by the recorded draw, and the compiler orders the draw after earlier `SetData` of the
//! bytes it reads and before later ones. User vertices and indices are copied into the frame's
//! geometry arena at the call.
//!
//! As in XNA, a draw whose applied effect samples a bound render target (any texture of a stock
//! effect, DualTextureEffect's second, any sampler of a custom effect) is `InvalidOperation`,
//! by the rule SpriteBatch applies (`Recording::refuse_bound`): the GPU would read the target
//! while writing it.

mod custom;
mod instanced;
mod layout;
mod repeat;
pub mod states;
mod user;

use layout::{bound_stock_layout, custom_layout, layout};
use repeat::{repeat_last_draw, verified_now};
pub use user::IndexElement;

use xnagraph_graph::{
    BlendState, DepthStencilState, Draw, DrawCall, DrawTextures, GeometryDraw, IndexSource,
    PipelineKey, PrimitiveType, RasterizerState, SamplerState, ShaderKind, TextureState,
    VertexSource,
};

use std::sync::Arc;

use crate::device::draw_state::{AppliedEffect, CustomApplied};
use crate::device::profile::GraphicsProfile;
use crate::device::shared::{DeviceShared, Recording};
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::resources::buffer::VertexType;
use crate::vertex::VertexPositionColorTexture;

/// The arguments `DrawIndexedPrimitives` and `DrawInstancedPrimitives` share.
struct IndexedArgs {
    primitive_type: PrimitiveType,
    base_vertex: i32,
    min_vertex_index: i32,
    num_vertices: i32,
    start_index: i32,
    primitive_count: i32,
}

fn count_error(param: &'static str, message: &str) -> XnaError {
    XnaError::out_of_range(param, message.to_owned())
}

/// XNA's per-draw primitive limit: 65,535 on Reach, 1,048,575 on HiDef.
fn check_primitive_count(profile: GraphicsProfile, primitive_count: i32) -> Result<u32> {
    if primitive_count <= 0 {
        return Err(count_error("primitiveCount", "The primitive count must be positive."));
    }
    let max = match profile {
        GraphicsProfile::Reach => 65_535,
        GraphicsProfile::HiDef => 1_048_575,
    };
    if primitive_count > max {
        return Err(XnaError::not_supported(format!(
            "The {profile:?} profile draws at most {max} primitives per call; \
             {primitive_count} were asked for."
        )));
    }
    Ok(primitive_count as u32)
}

const NO_BUFFERS: &str = "A valid vertex buffer (and a valid index buffer if you are using \
                          indexed primitives) must be set on the device before any draw \
                          operations may be performed.";

/// The effect the last `EffectPass::apply` left on the device.
#[derive(Clone)]
pub(crate) enum ActiveEffect {
    Basic(Box<AppliedEffect>),
    Custom(Arc<CustomApplied>),
}

/// XNA's error for a draw with no effect applied.
fn check_applied(rec: &Recording) -> Result<()> {
    if rec.draw.effect.is_none() && rec.draw.custom.is_none() {
        return Err(XnaError::invalid_operation(
            "Both a valid vertex shader and pixel shader (or valid effect) must be set on the \
             device before any draw operations may be performed: call EffectPass.Apply first.",
        ));
    }
    Ok(())
}

/// Records a draw through the applied effect with `record`: a stock effect's values are moved
/// aside while it records (the draw copies what it keeps of them) and put back after, so no
/// draw copies the whole applied effect. A BasicEffect's values that its `Apply` only kept are
/// derived first ([`AppliedEffect::derive_values`](crate::device::draw_state::AppliedEffect)).
fn with_applied_effect(
    rec: &mut Recording,
    record: impl FnOnce(&mut Recording, &ActiveEffect) -> Result<()>,
) -> Result<()> {
    check_applied(rec)?;
    let effect = match rec.draw.effect.take() {
        Some(mut basic) => {
            basic.derive_values();
            ActiveEffect::Basic(basic)
        }
        None => match &rec.draw.custom {
            Some(custom) => ActiveEffect::Custom(custom.clone()),
            None => return check_applied(rec),
        },
    };
    let recorded = record(rec, &effect);
    if let ActiveEffect::Basic(basic) = effect {
        rec.draw.effect = Some(basic);
    }
    recorded
}

impl GraphicsDevice {
    /// XNA's `GraphicsDevice.DrawPrimitives(primitiveType, startVertex, primitiveCount)`:
    /// non-indexed primitives from the bound vertex buffers.
    ///
    /// Errors: a disposed device is `ObjectDisposed`; no vertex buffer bound, or no effect
    /// applied, is `InvalidOperation`; a non-positive count is `ArgumentOutOfRange` on
    /// `primitiveCount`, a negative start on `startVertex`, vertices past the end of a bound
    /// buffer on `primitiveCount`; more primitives than the profile allows is `NotSupported`.
    ///
    /// Every geometry draw also shares these: a vertex declaration without an element the
    /// applied effect reads is `InvalidOperation` with XNA's message; a texture the effect
    /// samples that is a bound render target is `InvalidOperation`; a vertex format the
    /// renderer cannot read, or states the bound targets cannot honour (blending into a format
    /// that cannot blend, several targets without independent blending), is `NotSupported`; a
    /// disposed buffer or texture is `ObjectDisposed`.
    pub fn draw_primitives(
        &self,
        primitive_type: PrimitiveType,
        start_vertex: i32,
        primitive_count: i32,
    ) -> Result<()> {
        self.shared.check_alive()?;
        let count = check_primitive_count(self.graphics_profile(), primitive_count)?;
        if start_vertex < 0 {
            return Err(count_error("startVertex", "The start vertex cannot be negative."));
        }
        let vertices = primitive_type.vertex_count(count);
        let mut rec = lock(&self.shared.rec);
        if rec.draw.streams.is_empty() {
            return Err(XnaError::invalid_operation(NO_BUFFERS));
        }
        check_applied(&rec)?;
        for s in rec.draw.streams.iter().filter(|s| s.instance_frequency == 0) {
            let end = i64::from(s.vertex_offset) + i64::from(start_vertex) + vertices as i64;
            if end > i64::from(s.vertex_count) {
                return Err(count_error(
                    "primitiveCount",
                    "The vertices drawn run past the end of the vertex buffer.",
                ));
            }
        }
        let call =
            DrawCall::Vertices { first_vertex: start_vertex as u32, vertex_count: vertices as u32 };
        if self.shared.auto_instancing && repeat_last_draw(&mut rec, primitive_type, call)? {
            return Ok(());
        }
        with_applied_effect(&mut rec, |rec, effect| {
            self.record_buffer_draw(rec, effect, primitive_type, call, None, 1)
        })?;
        rec.repeat_verified = verified_now(&rec);
        Ok(())
    }

    /// XNA's `GraphicsDevice.DrawIndexedPrimitives(primitiveType, baseVertex, minVertexIndex,
    /// numVertices, startIndex, primitiveCount)`: indexed primitives from the bound index and
    /// vertex buffers; each index is added to `baseVertex` (and the stream's vertex offset).
    ///
    /// As in XNA, `minVertexIndex` and `numVertices` are a hint of the vertices the indices
    /// name, not a bound: a 4-vertex quad drawn with `numVertices` 6 draws (Direct3D 9 used them
    /// only to size software vertex processing; MonoGame and FNA ignore them). The indices live
    /// on the GPU and are not inspected, so what the GPU reads is the vertices the indices name;
    /// no check of `numVertices` could bound that, and none is made.
    ///
    /// What stays checked: no vertex or index buffer bound, or no effect applied, is
    /// `InvalidOperation`; a non-positive count or `numVertices`, or a negative
    /// `minVertexIndex` or `startIndex`, is `ArgumentOutOfRange`; indices past the end of the
    /// index buffer (which the GPU reads) are `ArgumentOutOfRange` for `primitiveCount`; a first
    /// vertex (the stream's offset + `baseVertex` + `minVertexIndex`) outside the vertex buffer,
    /// where every index would name a vertex the buffer does not hold, is `ArgumentOutOfRange`
    /// for `baseVertex`; and the errors every draw shares (see [`Self::draw_primitives`]).
    pub fn draw_indexed_primitives(
        &self,
        primitive_type: PrimitiveType,
        base_vertex: i32,
        min_vertex_index: i32,
        num_vertices: i32,
        start_index: i32,
        primitive_count: i32,
    ) -> Result<()> {
        let args = IndexedArgs {
            primitive_type,
            base_vertex,
            min_vertex_index,
            num_vertices,
            start_index,
            primitive_count,
        };
        self.draw_indexed(args, None)
    }

    /// The body of `DrawIndexedPrimitives` and `DrawInstancedPrimitives`: XNA's checks of the
    /// indexed arguments, then, with `instances`, the instanced ones ([`instanced`]), then the
    /// recorded draw.
    fn draw_indexed(&self, args: IndexedArgs, instances: Option<i32>) -> Result<()> {
        let IndexedArgs {
            primitive_type,
            base_vertex,
            min_vertex_index,
            num_vertices,
            start_index,
            primitive_count,
        } = args;
        self.shared.check_alive()?;
        if instances.is_some() {
            instanced::check_profile(self.graphics_profile())?;
        }
        let count = check_primitive_count(self.graphics_profile(), primitive_count)?;
        if num_vertices <= 0 {
            return Err(count_error("numVertices", "The vertex count must be positive."));
        }
        if min_vertex_index < 0 {
            return Err(count_error("minVertexIndex", "The minimum index cannot be negative."));
        }
        if start_index < 0 {
            return Err(count_error("startIndex", "The start index cannot be negative."));
        }
        let indices = primitive_type.vertex_count(count);
        let mut rec = lock(&self.shared.rec);
        let Some(bound) = &rec.draw.indices else {
            return Err(XnaError::invalid_operation(NO_BUFFERS));
        };
        let index_count = bound.index_count;
        if rec.draw.streams.is_empty() {
            return Err(XnaError::invalid_operation(NO_BUFFERS));
        }
        check_applied(&rec)?;
        if i64::from(start_index) + indices as i64 > i64::from(index_count) {
            return Err(count_error(
                "primitiveCount",
                "The indices drawn run past the end of the index buffer.",
            ));
        }
        // numVertices is a hint (see the rustdoc): only the first vertex is checked.
        for s in rec.draw.streams.iter().filter(|s| s.instance_frequency == 0) {
            let first =
                i64::from(s.vertex_offset) + i64::from(base_vertex) + i64::from(min_vertex_index);
            if first < 0 || first >= i64::from(s.vertex_count) {
                return Err(count_error(
                    "baseVertex",
                    "The first vertex the indices may name lies outside the vertex buffer.",
                ));
            }
        }
        let call = DrawCall::Indexed {
            base_vertex,
            first_index: start_index as u32,
            index_count: indices as u32,
            min_vertex: min_vertex_index as u32,
            vertex_span: num_vertices as u32,
        };
        let instances = match instances {
            Some(n) => instanced::check_streams(&rec.draw.streams, n)?,
            None => 1,
        };
        if instances == 1
            && self.shared.auto_instancing
            && repeat_last_draw(&mut rec, primitive_type, call)?
        {
            return Ok(());
        }
        let Some(bound) = &rec.draw.indices else {
            return Err(XnaError::invalid_operation(NO_BUFFERS));
        };
        let index = IndexSource {
            buffer: Some(bound.core.state()?),
            user: 0..0,
            element_size: bound.element_size.bytes() as u8,
        };
        with_applied_effect(&mut rec, |rec, effect| {
            self.record_buffer_draw(rec, effect, primitive_type, call, Some(index), instances)
        })?;
        rec.repeat_verified = match instances {
            1 => verified_now(&rec),
            _ => None,
        };
        Ok(())
    }

    /// Records a draw of `instances` instances from the bound vertex buffers (their offsets
    /// folded into each stream's byte offset), written into a spare geometry box.
    fn record_buffer_draw(
        &self,
        rec: &mut Recording,
        effect: &ActiveEffect,
        primitive: PrimitiveType,
        call: DrawCall,
        indices: Option<IndexSource>,
        instances: u32,
    ) -> Result<()> {
        let mut geometry = rec.builder.spare_geometry();
        match effect {
            ActiveEffect::Basic(e) => {
                let layout = bound_stock_layout(&mut rec.draw, e, &self.shared.caps)?;
                geometry.layout.clone_from(layout);
            }
            ActiveEffect::Custom(c) => {
                let declarations: Vec<_> = rec
                    .draw
                    .streams
                    .iter()
                    .map(|s| (&s.declaration, s.instance_frequency as u32))
                    .collect();
                geometry.layout = custom_layout(&declarations, c)?;
            }
        }
        for s in &rec.draw.streams {
            let offset = s.vertex_offset as u64 * s.declaration.vertex_stride() as u64;
            geometry.streams.push(VertexSource::Buffer { buffer: s.core.state()?, offset });
        }
        geometry.primitive = primitive;
        geometry.indices = indices;
        geometry.call = call;
        geometry.instances = instances;
        self.record_geometry(rec, effect, geometry)
    }

    fn record_geometry(
        &self,
        rec: &mut Recording,
        effect: &ActiveEffect,
        geometry: Box<GeometryDraw>,
    ) -> Result<()> {
        let effect = match effect {
            ActiveEffect::Basic(e) => e,
            ActiveEffect::Custom(c) => return custom::record(rec, c, geometry, &self.shared, None),
        };
        let texture = match effect.reads_slots[0] {
            true => states::slot_texture(&rec.draw, 0, effect)?,
            false => effect.texture.clone(),
        };
        let texture2 = match effect.reads_slots[1] {
            true => Some(states::slot_texture(&rec.draw, 1, effect)?),
            false => effect.texture2.clone(),
        };
        let states = &rec.draw;
        let states = StockStates {
            blend: states.blend,
            depth_stencil: states.depth_stencil,
            rasterizer: states.rasterizer,
            samplers: [states.samplers[0], states.samplers[1]],
        };
        record_stock(&self.shared, rec, effect, (texture, texture2), geometry, &states)
    }
}

/// The states a stock effect's geometry draw is recorded with: the device's for a geometry
/// draw, the batch's for a `SpriteBatch` drawing through a stock effect.
pub(crate) struct StockStates {
    pub blend: BlendState,
    pub depth_stencil: DepthStencilState,
    pub rasterizer: RasterizerState,
    /// `SamplerStates[0]` and `SamplerStates[1]` (DualTextureEffect's `Texture2`).
    pub samplers: [SamplerState; 2],
}

/// Records a stock effect's draw of `geometry` with `states`, sampling `textures` (what the
/// effect samples at set 2, bindings 0 and 1).
fn record_stock(
    shared: &DeviceShared,
    rec: &mut Recording,
    effect: &AppliedEffect,
    (texture, texture2): (Arc<TextureState>, Option<Arc<TextureState>>),
    mut geometry: Box<GeometryDraw>,
    states: &StockStates,
) -> Result<()> {
    // XNA refuses any draw that samples a bound render target (a feedback loop on the
    // GPU), with SpriteBatch's rule and error.
    rec.refuse_bound(&texture)?;
    if let Some(texture2) = &texture2 {
        rec.refuse_bound(texture2)?;
    }
    let [sampler, sampler1] = states.samplers;
    crate::device::capability::check_states(
        shared,
        rec,
        &states.blend,
        &sampler,
        &states.rasterizer,
    )?;
    if let Some(texture2) = texture2 {
        crate::device::capability::check_states(
            shared,
            rec,
            &states.blend,
            &sampler1,
            &states.rasterizer,
        )?;
        geometry.texture2 = Some((texture2, sampler1));
    }
    geometry.material = effect.material;
    geometry.bones.clone_from(&effect.bones);
    let draw = Draw {
        pipeline: PipelineKey {
            shader: ShaderKind::Basic,
            blend: states.blend,
            depth_stencil: states.depth_stencil,
            rasterizer: states.rasterizer,
        },
        sampler,
        textures: DrawTextures::one(texture),
        effect: None,
        first_sprite: 0,
        sprite_count: 0,
        viewport: rec.draw.viewport,
        scissor: rec.draw.scissor,
        transform: effect.transform,
        geometry: Some(geometry),
    };
    rec.builder.draw(draw);
    Ok(())
}

/// Records a triangle list of `vertices` and 16-bit `indices` through a stock effect or a
/// custom pass with `states`: a `SpriteBatch`'s quads drawn through a `BasicEffect`,
/// `AlphaTestEffect`, `DualTextureEffect` or `CustomEffect`. The vertex declaration must hold
/// what the effect reads, as in `DrawUserIndexedPrimitives` (a lit `BasicEffect` needs normals,
/// a custom pass may read an element the quads lack: `InvalidOperation`).
pub(crate) fn record_sprite_quads(
    shared: &DeviceShared,
    rec: &mut Recording,
    effect: &ActiveEffect,
    states: &StockStates,
    vertices: &[VertexPositionColorTexture],
    indices: &[u16],
) -> Result<()> {
    let declaration = VertexPositionColorTexture::vertex_declaration();
    let layout = layout(&[(&declaration, 0)], effect, &shared.caps)?;
    let vertex_range = push_arena(rec, bytemuck::cast_slice(vertices));
    let index_range = push_arena(rec, bytemuck::cast_slice(indices));
    let mut geometry = rec.builder.spare_geometry();
    geometry.layout = layout;
    geometry.streams.push(VertexSource::User(vertex_range));
    geometry.indices = Some(IndexSource { buffer: None, user: index_range, element_size: 2 });
    geometry.call = DrawCall::Indexed {
        base_vertex: 0,
        first_index: 0,
        index_count: indices.len() as u32,
        min_vertex: 0,
        vertex_span: vertices.len() as u32,
    };
    match effect {
        ActiveEffect::Basic(e) => {
            let textures = (e.texture.clone(), e.texture2.clone());
            record_stock(shared, rec, e, textures, geometry, states)
        }
        ActiveEffect::Custom(c) => custom::record(rec, c, geometry, shared, Some(states)),
    }
}

/// Copies `bytes` into the frame's geometry arena, 16-byte aligned, and returns their range.
fn push_arena(rec: &mut Recording, bytes: &[u8]) -> std::ops::Range<u64> {
    let arena = rec.builder.geometry_bytes_mut();
    arena.resize(arena.len().next_multiple_of(16), 0);
    let start = arena.len() as u64;
    arena.extend_from_slice(bytes);
    start..arena.len() as u64
}
