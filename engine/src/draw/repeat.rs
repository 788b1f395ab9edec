//! A draw recorded as a repeat of the frame's last draw
//! ([`GeometryDraw::repeats`](xnagraph_graph::GeometryDraw::repeats) and
//! [`GeometryDraw::repeat_values`](xnagraph_graph::GeometryDraw::repeat_values)): the
//! instances stage's merge rule applied as the game calls `DrawIndexedPrimitives`.

use std::sync::Arc;

use xnagraph_graph::compile::instances::MAX_RUN;
use xnagraph_graph::{
    BasicInstance, Draw, DrawCall, PipelineKey, PrimitiveType, ShaderKind, StockShader,
    TextureState, VertexSource,
};

use super::states;
use crate::device::draw_state::{AppliedEffect, DrawStates};
use crate::device::shared::Recording;
use crate::error::Result;

/// Records a draw of `call` from the bound vertex buffers (and, for an indexed call, the bound
/// index buffer) through the applied stock effect as a repeat of the frame's last draw
/// ([`GeometryDraw::repeats`]) when that draw is one the compiler would merge it with: a
/// BasicEffect draw that differs from it in nothing but the effect's transform and a draw's own
/// values (World, the material colours: same states, sampler, texture, viewport, scissor,
/// lights, eye, fog colour, variant, vertex layout, streams, indices, topology and call, with
/// nothing recorded between the two). Then only those values are kept: as `Apply` took them
/// ([`GeometryDraw::repeat_values`], derived by the backend) when it took no more, else their
/// instance; nothing is checked again that the last draw's recording checked against the same
/// state.
/// Returns whether it did; `false` leaves the draw to be recorded whole.
///
/// The one merge rule, [`xnagraph_graph::compile::instances`], applied as the draw is
/// recorded: a game's run of ten thousand `DrawIndexedPrimitives` of one mesh reaches the
/// compiler as one draw. It reads the device's state in place (no reference is taken, no
/// layout derived: a layout not already remembered for these streams and this effect is left
/// to the whole recording), as it runs once per draw.
pub(super) fn repeat_last_draw(
    rec: &mut Recording,
    primitive: PrimitiveType,
    call: DrawCall,
) -> Result<bool> {
    // Whether the draw state is as the frame's last draw was recorded with (no borrow of it to
    // write since): then what follows need not compare it again, and only the call, the draw's
    // own values and the buffers (which a `SetData` may have renamed, or `Dispose` disposed,
    // without touching the draw state) are this draw's to check.
    let unchanged = rec.repeat_verified.is_some_and(|(version, at)| {
        version == rec.draw.version() && Some(at) == rec.builder.last_draw_at()
    });
    let states = &*rec.draw;
    let Some(effect) = states.effect.as_deref() else { return Ok(false) };
    if effect.material.shader != StockShader::Basic
        || !effect.bones.is_empty()
        || effect.texture2.is_some()
    {
        return Ok(false);
    }
    let Some(last) = rec.builder.last_draw_mut() else { return Ok(false) };
    let same_state = (unchanged && !effect.reads_slots[0]) || {
        let slot_texture;
        let texture = match effect.reads_slots[0] {
            true => {
                slot_texture = states::slot_texture(states, 0, effect)?;
                &slot_texture
            }
            false => &effect.texture,
        };
        recorded_with(states, effect, texture, last)
    };
    let Some(g) = last.geometry.as_deref_mut().filter(|_| same_state) else { return Ok(false) };
    if !g.can_repeat() || g.draws() >= MAX_RUN || g.primitive != primitive || g.call != call {
        return Ok(false);
    }
    // The values the run shares. A draw whose `Apply` only kept its own values joins the values
    // kept before it when both were kept under one basis (no `Apply` wrote the block's shared
    // parts since the first of them, which was checked here); one whose values are derived
    // joins only ahead of any kept values, so that the run stays in draw order.
    let kept = effect.basic.as_ref().filter(|b| b.stale);
    let shares = match (kept, &g.repeat_values.basis) {
        (Some(basic), Some(basis)) => Arc::ptr_eq(&basic.basis, basis),
        (Some(_), None) => g.material.shares_run_values(&effect.material),
        (None, _) => g.repeat_values.is_empty() && g.material.shares_run_values(&effect.material),
    };
    if !shares {
        return Ok(false);
    }
    let same_indices = match (&g.indices, &states.indices, call) {
        (Some(a), Some(b), DrawCall::Indexed { .. }) => {
            a.element_size == b.element_size.bytes() as u8
                && match &a.buffer {
                    Some(buffer) => b.core.holds(buffer)?,
                    None => false,
                }
        }
        (None, _, DrawCall::Vertices { .. }) => true,
        _ => false,
    };
    if !same_indices {
        return Ok(false);
    }
    for (source, s) in g.streams.iter().zip(&states.streams) {
        let offset = s.vertex_offset as u64 * s.declaration.vertex_stride() as u64;
        let VertexSource::Buffer { buffer, offset: at } = source else { return Ok(false) };
        if *at != offset || !s.core.holds(buffer)? {
            return Ok(false);
        }
    }
    match kept {
        Some(basic) => {
            let repeats = &mut g.repeat_values;
            repeats.basis.get_or_insert_with(|| basic.basis.clone());
            repeats.values.push(basic.values);
            prefetch_next(&repeats.values);
        }
        None => {
            g.repeats.push(BasicInstance::new(&effect.transform, &effect.material.block));
            prefetch_next(&g.repeats);
        }
    }
    if !unchanged {
        rec.repeat_verified = verified_now(rec);
    }
    Ok(true)
}

/// What [`Recording::repeat_verified`] holds once the frame's last draw was recorded from the
/// draw state as it is now.
pub(super) fn verified_now(rec: &Recording) -> Option<(u64, (u64, usize))> {
    Some((rec.draw.version(), rec.builder.last_draw_at()?))
}

/// Whether `last` was recorded from the draw state `states` holds now, through `effect` (a
/// BasicEffect's, sampling `texture`): the same pipeline states, sampler, texture, viewport,
/// scissor, vertex layout and number of streams. The streams' buffers and the call are the
/// caller's to compare.
fn recorded_with(
    states: &DrawStates,
    effect: &AppliedEffect,
    texture: &Arc<TextureState>,
    last: &Draw,
) -> bool {
    let Some(layout) =
        states.last_layout.as_ref().filter(|l| l.is_of(&states.streams, effect.needs()))
    else {
        return false;
    };
    let Some(g) = last.geometry.as_deref() else { return false };
    last.pipeline
        == (PipelineKey {
            shader: ShaderKind::Basic,
            blend: states.blend,
            depth_stencil: states.depth_stencil,
            rasterizer: states.rasterizer,
        })
        && last.sampler == states.samplers[0]
        && last.textures.len() == 1
        && Arc::ptr_eq(last.textures.first(), texture)
        && last.viewport == states.viewport
        && last.scissor == states.scissor
        && g.texture2.is_none()
        && g.layout == layout.layout
        && g.streams.len() == states.streams.len()
}

/// Asks the CPU to bring the memory the next repeat will be written to into its cache, while
/// the game computes the next draw. A run's repeats are more memory than a core's caches hold
/// (ten thousand are over a megabyte), so without it each repeat's write waits for its cache
/// lines, and the release of the recording lock after it (a locked instruction, which waits for
/// every earlier write) waits with it: that wait was the largest single cost of a repeated draw.
fn prefetch_next<T>(repeats: &Vec<T>) {
    #[cfg(target_arch = "x86_64")]
    if repeats.len() < repeats.capacity() {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let size = std::mem::size_of::<T>();
        let next = repeats.as_ptr().wrapping_add(repeats.len()).cast::<i8>();
        for offset in (0..size).step_by(64).chain([size - 1]) {
            // SAFETY: a prefetch reads nothing and never faults; the address lies inside the
            // vector's allocation (its spare capacity).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(next.wrapping_add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = repeats;
}
