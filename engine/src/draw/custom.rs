//! Geometry draws with a custom effect applied (`CustomPass::apply`): the recorded draw carrying
//! the pass's program and values, with the textures the device's `Textures` and `VertexTextures`
//! hold at the draw (its vertex layout, from the pass's named inputs, is `layout.rs`'s).

use std::sync::Arc;

use xnagraph_graph::{
    CustomDraw, CustomSampler, CustomStage, Draw, GeometryDraw, PipelineKey, ShaderKind,
    TextureState,
};

use super::StockStates;
use crate::device::draw_state::{CustomApplied, DrawStates, TextureSlot};
use crate::device::shared::{DeviceShared, Recording};
use crate::error::{Result, XnaError};

/// Records `geometry` drawn with the custom pass `effect`: the device's states in the pipeline
/// key, the pass's uniform bytes, and for each sampler the texture in its slot of `Textures`
/// or `VertexTextures` with the device's sampler state for that slot, as they are at this draw.
/// With `batch` (a `SpriteBatch`'s quads), its blend, depth/stencil and rasterizer states and
/// its sampler for fragment slot 0 stand in for the device's, and the pass's own textures
/// (`CustomApplied::batch_textures`) for the device's slots.
///
/// A sampler whose slot holds no texture is `InvalidOperation` naming the slot and parameter;
/// a disposed texture in a slot is `ObjectDisposed`; a texture bound as a render target is
/// `InvalidOperation`, as for the stock effects.
pub(super) fn record(
    rec: &mut Recording,
    effect: &CustomApplied,
    mut geometry: Box<GeometryDraw>,
    shared: &DeviceShared,
    batch: Option<&StockStates>,
) -> Result<()> {
    let textures = match batch {
        Some(_) => effect.batch_textures.clone(),
        None => slot_textures(&rec.draw, effect)?,
    };
    // As for the stock effects and SpriteBatch: no sampler may read a bound render target.
    for texture in &textures {
        rec.refuse_bound(texture)?;
    }
    let states = &rec.draw;
    let (blend, depth_stencil, rasterizer, sampler0) = match batch {
        Some(b) => (b.blend, b.depth_stencil, b.rasterizer, b.samplers[0]),
        None => (states.blend, states.depth_stencil, states.rasterizer, states.samplers[0]),
    };
    crate::device::capability::check_states(shared, rec, &blend, &sampler0, &rasterizer)?;
    let samplers = effect
        .samplers
        .iter()
        .zip(textures)
        .map(|(s, texture)| {
            let slot = s.binding as usize;
            let sampler = match s.stage {
                CustomStage::Vertex => states.vertex_samplers.get(slot),
                CustomStage::Fragment if slot == 0 => Some(&sampler0),
                CustomStage::Fragment => states.samplers.get(slot),
            };
            let sampler = sampler.copied().ok_or_else(|| {
                XnaError::out_of_range("binding", format!("No sampler slot {slot}."))
            })?;
            Ok(CustomSampler { stage: s.stage, binding: s.binding, texture, sampler })
        })
        .collect::<Result<Vec<_>>>()?;
    geometry.custom = Some(Box::new(CustomDraw {
        effect: effect.state.clone(),
        vertex_uniforms: effect.vertex_uniforms.clone(),
        fragment_uniforms: effect.fragment_uniforms.clone(),
        samplers,
    }));
    let draw = Draw {
        pipeline: PipelineKey {
            shader: ShaderKind::CustomGeometry(effect.state.key()),
            blend,
            depth_stencil,
            rasterizer,
        },
        sampler: sampler0,
        textures: xnagraph_graph::DrawTextures::one(effect.white.clone()),
        effect: None,
        first_sprite: 0,
        sprite_count: 0,
        viewport: rec.draw.viewport,
        scissor: rec.draw.scissor,
        transform: crate::math::Matrix::IDENTITY.to_column_major(),
        geometry: Some(geometry),
    };
    rec.builder.draw(draw);
    Ok(())
}

/// The texture each sampler of `effect` reads: its slot of `Textures` (a fragment sampler) or
/// `VertexTextures` (a vertex sampler) at its binding. An empty slot is `InvalidOperation`
/// naming it; a disposed texture `ObjectDisposed`.
fn slot_textures(states: &DrawStates, effect: &CustomApplied) -> Result<Vec<Arc<TextureState>>> {
    effect
        .samplers
        .iter()
        .map(|s| {
            let (slots, collection): (&[TextureSlot], _) = match s.stage {
                CustomStage::Vertex => (&states.vertex_textures, "VertexTextures"),
                CustomStage::Fragment => (&states.textures, "Textures"),
            };
            match slots.get(s.binding as usize) {
                Some(Some(texture)) => texture.state(),
                _ => Err(XnaError::invalid_operation(format!(
                    "The effect samples {collection}[{}] (its parameter '{}'), which holds no \
                     texture: set the parameter before EffectPass.Apply, or the slot after it.",
                    s.binding, s.name
                ))),
            }
        })
        .collect()
}
