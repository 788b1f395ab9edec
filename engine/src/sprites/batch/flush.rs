//! Turning a batch's queued sprites into the frame's draws: the sprites go into the frame's
//! arena (in the sort mode's order), then the draws that cover them are recorded.
//!
//! A batch of the stock stage over several 2D textures draws them together: each sprite
//! carries the slot of its texture in its draw, and a draw holds up to [`MAX_DRAW_TEXTURES`]
//! textures. Up to that many, the slot is the batch's index of the texture and the whole batch
//! is one draw. Past it, the sprites are cut, in drawing order, into draws of at most that many
//! distinct textures each: a draw ends where the next sprite's texture would be one too many,
//! and every sprite's slot is rewritten to its texture's slot in its own draw. The order in
//! which sprites are drawn never changes, only how many draws it takes. Any other batch
//! (Immediate mode, a pixel-stage effect, the cube stage) is one draw per run of one texture.
//!
//! A batch begun with an effect that has its own vertex stage (`BasicEffect`,
//! `AlphaTestEffect`, `DualTextureEffect`, `CustomEffect`) puts nothing in the frame's sprite
//! arena: its sprites, in drawing order, become `VertexPositionColorTexture` quads in the
//! frame's geometry arena (two triangles each, 16-bit indices), one geometry draw per run of
//! one texture (cut every [`QUADS_PER_DRAW`] sprites) and per pass of a custom effect, each
//! through the effect with the run's texture in place of its own (`Textures[0]`) and the
//! batch's states.

use std::sync::Arc;

use xnagraph_graph::{
    CustomStage, Draw, DrawTextures, PipelineKey, Rect, ShaderKind, SpriteArena, SpriteInstance,
    TextureState, Viewport, MAX_DRAW_TEXTURES,
};

use crate::device::shared::{DeviceShared, Recording};
use crate::draw::{record_sprite_quads, ActiveEffect, StockStates};
use crate::error::Result;
use crate::event::lock;
use crate::math::{Color, Vector2, Vector3};
use crate::vertex::VertexPositionColorTexture;

use super::geometry::{apply_rotations, project};
use super::{BatchState, GeometryEffect, Run, SpriteBatch, SpriteSortMode};

/// Where a batch's draws go: what every draw of one flush shares.
struct Placement {
    viewport: Viewport,
    scissor: Rect,
    transform: [f32; 16],
}

/// The most sprites one quad draw holds: their vertices all have 16-bit indices.
const QUADS_PER_DRAW: usize = 65_536 / 4;

/// A quad's two triangles over its corners (top left, top right, bottom left, bottom right),
/// as XNA's SpriteBatch indexes them.
const QUAD_INDICES: [u16; 6] = [0, 1, 2, 1, 3, 2];

/// A slot of `SpriteBatch::slots` whose texture is not in the current draw.
const NO_SLOT: u32 = u32::MAX;

impl SpriteBatch {
    /// Hands the queued sprites to the frame and records their draws (see the module doc).
    pub(super) fn flush_sprites(&mut self, state: &BatchState) -> Result<()> {
        self.close_run();
        if self.runs.is_empty() {
            return Ok(());
        }
        self.apply_rotations();
        // The sprites draw what their textures hold now, as XNA draws at End: a texture may have
        // been given fresh storage since its sprites were queued (a whole-level SetData on a
        // texture whose storage a copy shares). One disposed since keeps the storage it had.
        for texture in &mut self.textures {
            if let Ok(state) = texture.core.state() {
                texture.state = state;
            }
        }
        let device = self.device()?;
        let mut rec = lock(&device.rec);
        // Only what these sprites sample: an earlier (Immediate) draw of a target that has been
        // bound since is already recorded and blocks nothing.
        for run in &self.runs {
            if let Err(e) = rec.refuse_bound(&self.textures[run.texture as usize].state) {
                self.clear_queue();
                return Err(e);
            }
        }
        // The targets may have changed since `begin`: the states are checked again against
        // the targets these sprites are drawn into.
        if let Err(e) = crate::device::capability::check_states(
            &device,
            &rec,
            &state.blend,
            &state.sampler,
            &state.rasterizer,
        ) {
            self.clear_queue();
            return Err(e);
        }
        if let Some(effect) = self.geometry.take() {
            let result = self.draw_quads(&mut rec, state, &effect, &device);
            self.geometry = Some(effect);
            drop(rec);
            self.clear_queue();
            return result;
        }
        let viewport = rec.draw.viewport;
        let placement = Placement {
            viewport,
            scissor: rec.draw.scissor,
            transform: state.projected.unwrap_or_else(|| project(&state.transform, viewport)),
        };
        let sprites = rec.builder.sprites_mut();
        let first_sprite = sprites.len();
        if self.keys.is_empty() {
            if first_sprite == 0 {
                // Hand the whole buffer over; it comes back through the device once submitted.
                *sprites = std::mem::take(&mut self.instances);
            } else {
                sprites.extend_from_slice(&self.instances);
            }
        } else {
            // `runs` becomes the runs of the drawing order.
            self.write_sorted(state.sort, sprites);
        }
        // Slotted draws: not in Immediate mode, whose batch list also holds textures drawn
        // earlier (and perhaps bound as targets since); not for a custom effect or the cube
        // stage, which sample one texture.
        let slotted = state.sort != SpriteSortMode::Immediate
            && self.effect.is_none()
            && self.textures.len() >= 2
            && self.textures.iter().all(|t| !t.cube);
        if !slotted {
            self.draw_runs(&mut rec, state, &placement, first_sprite);
        } else if self.textures.len() <= MAX_DRAW_TEXTURES {
            let mut all = rec.builder.texture_list();
            all.extend(self.textures.iter().map(|t| t.state.clone()));
            let textures = DrawTextures::many(all).expect("2 to MAX_DRAW_TEXTURES textures");
            let count = rec.builder.sprites_mut().len() - first_sprite;
            rec.builder.draw(stock_draw(state, &placement, textures, first_sprite, count));
        } else {
            self.draw_slotted(&mut rec, state, &placement, first_sprite);
        }
        drop(rec);
        self.clear_queue();
        Ok(())
    }

    /// Draws the sprites as quads through the batch's effect with its own vertex stage (see the
    /// module doc).
    fn draw_quads(
        &mut self,
        rec: &mut Recording,
        state: &BatchState,
        effect: &GeometryEffect,
        device: &DeviceShared,
    ) -> Result<()> {
        let sorted = (!self.keys.is_empty()).then(|| {
            let mut out = SpriteArena::default();
            // `runs` becomes the runs of the drawing order.
            self.write_sorted(state.sort, &mut out);
            out
        });
        let sprites: &[SpriteInstance] = sorted.as_deref().unwrap_or(&self.instances);
        let states = StockStates {
            blend: state.blend,
            depth_stencil: state.depth_stencil,
            rasterizer: state.rasterizer,
            samplers: [state.sampler, rec.draw.samplers[1]],
        };
        let mut vertices = Vec::new();
        let mut indices = Vec::new();
        let mut done = 0;
        for run in &self.runs {
            let texture = &self.textures[run.texture as usize];
            let run_sprites = &sprites[done..done + run.sprites as usize];
            done += run.sprites as usize;
            // The effect with the run's texture in place of its own, once per run (a run is
            // never empty): one effect for a stock effect, one per pass for a custom effect.
            let effects = match effect {
                GeometryEffect::Stock(stock) => {
                    let applied = stock.applied_with(Some(texture.state.clone()))?;
                    vec![ActiveEffect::Basic(Box::new(applied))]
                }
                GeometryEffect::Custom(passes) => passes
                    .iter()
                    .map(|pass| {
                        let mut applied = pass.clone();
                        for (sampler, t) in applied.samplers.iter().zip(&mut applied.batch_textures)
                        {
                            if sampler.stage == CustomStage::Fragment && sampler.binding == 0 {
                                *t = texture.state.clone();
                            }
                        }
                        ActiveEffect::Custom(Arc::new(applied))
                    })
                    .collect(),
            };
            for chunk in run_sprites.chunks(QUADS_PER_DRAW) {
                vertices.clear();
                indices.clear();
                for (i, sprite) in chunk.iter().enumerate() {
                    let [r, g, b, a] = sprite.color;
                    let color = Color::new(r, g, b, a);
                    for corner in 0..4 {
                        let ([x, y], [u, v]) = sprite.corner(corner);
                        vertices.push(VertexPositionColorTexture {
                            position: Vector3::new(x, y, sprite.depth),
                            color,
                            texture_coordinate: Vector2::new(u, v),
                        });
                    }
                    let first = (i * 4) as u16;
                    indices.extend(QUAD_INDICES.map(|k| first + k));
                }
                for effect in &effects {
                    record_sprite_quads(device, rec, effect, &states, &vertices, &indices)?;
                }
            }
        }
        Ok(())
    }

    /// Applies the rotations of the queued sprites (see `SpriteBatch::rotations`).
    pub(super) fn apply_rotations(&mut self) {
        apply_rotations(&mut self.instances, &self.rotations);
        self.rotations.clear();
    }

    /// One draw per run of one texture, each with the batch's shader, or the cube stage.
    fn draw_runs(
        &self,
        rec: &mut Recording,
        state: &BatchState,
        placement: &Placement,
        first_sprite: usize,
    ) {
        let batch_shader = match &self.effect {
            Some(effect) => ShaderKind::Custom(effect.key()),
            None => ShaderKind::Sprite,
        };
        let mut done = first_sprite;
        for run in &self.runs {
            let texture = &self.textures[run.texture as usize];
            let (shader, effect) = match texture.cube {
                true => (ShaderKind::CubeSample, None),
                false => (batch_shader, self.effect.clone()),
            };
            let textures = DrawTextures::one(texture.state.clone());
            let mut draw = stock_draw(state, placement, textures, done, run.sprites as usize);
            draw.pipeline.shader = shader;
            draw.effect = effect;
            rec.builder.draw(draw);
            done += run.sprites as usize;
        }
    }

    /// Draws of at most [`MAX_DRAW_TEXTURES`] textures each, cut in drawing order, each
    /// sprite's slot rewritten to its texture's slot in its draw (see the module doc).
    fn draw_slotted(
        &mut self,
        rec: &mut Recording,
        state: &BatchState,
        placement: &Placement,
        first_sprite: usize,
    ) {
        self.slots.clear();
        self.slots.resize(self.textures.len(), NO_SLOT);
        let mut textures: Vec<Arc<TextureState>> = rec.builder.texture_list();
        let (mut start, mut at) = (first_sprite, first_sprite);
        for run in &self.runs {
            let index = run.texture as usize;
            if self.slots[index] == NO_SLOT {
                if textures.len() == MAX_DRAW_TEXTURES {
                    let next = rec.builder.texture_list();
                    let full = DrawTextures::many(std::mem::replace(&mut textures, next))
                        .expect("MAX_DRAW_TEXTURES textures");
                    rec.builder.draw(stock_draw(state, placement, full, start, at - start));
                    self.slots.fill(NO_SLOT);
                    start = at;
                }
                self.slots[index] = textures.len() as u32;
                textures.push(self.textures[index].state.clone());
            }
            let slot = self.slots[index];
            let end = at + run.sprites as usize;
            for sprite in &mut rec.builder.sprites_mut()[at..end] {
                sprite.texture = slot;
            }
            at = end;
        }
        // Two textures at least: the batch has more than MAX_DRAW_TEXTURES, or this is its
        // only draw; one alone would still be a valid draw.
        let last = DrawTextures::many(textures).expect("1 to MAX_DRAW_TEXTURES textures");
        rec.builder.draw(stock_draw(state, placement, last, start, at - start));
    }

    /// Appends the queued sprites to `out` in the sort mode's order (stable: equal keys keep call
    /// order) and makes `runs` the texture runs of that order.
    ///
    /// Each sprite's key and call index are packed into one `u64` (key high, index low), so an
    /// unstable sort of plain integers gives the stable order: no two entries are equal, and
    /// equal keys compare by call index.
    fn write_sorted(&mut self, sort: SpriteSortMode, out: &mut SpriteArena) {
        let keys = &self.keys;
        self.order.clear();
        let packed = keys.iter().enumerate().map(|(i, &(depth, texture))| {
            let key = match sort {
                SpriteSortMode::Texture => texture,
                SpriteSortMode::BackToFront => !depth_order(depth),
                _ => depth_order(depth),
            };
            u64::from(key) << 32 | i as u64
        });
        self.order.extend(packed);
        self.order.sort_unstable();
        let instances = &self.instances;
        out.extend(self.order.iter().map(|&k| instances[k as u32 as usize]));
        self.runs.clear();
        for &k in &self.order {
            let texture = keys[k as u32 as usize].1;
            match self.runs.last_mut() {
                Some(run) if run.texture == texture => run.sprites += 1,
                _ => self.runs.push(Run { texture, sprites: 1 }),
            }
        }
    }
}

/// A layer depth as an unsigned integer of the same order as [`f32::total_cmp`]: a positive
/// number's sign bit set, a negative number's bits all inverted.
fn depth_order(depth: f32) -> u32 {
    let bits = depth.to_bits();
    bits ^ (((bits as i32 >> 31) as u32) | 0x8000_0000)
}

/// A draw of the stock sprite stage over `count` sprites from `first` of the frame's arena.
fn stock_draw(
    state: &BatchState,
    placement: &Placement,
    textures: DrawTextures,
    first: usize,
    count: usize,
) -> Draw {
    Draw {
        pipeline: PipelineKey {
            shader: ShaderKind::Sprite,
            blend: state.blend,
            depth_stencil: state.depth_stencil,
            rasterizer: state.rasterizer,
        },
        sampler: state.sampler,
        textures,
        effect: None,
        first_sprite: first as u32,
        sprite_count: count as u32,
        viewport: placement.viewport,
        scissor: placement.scissor,
        transform: placement.transform,
        geometry: None,
    }
}

#[cfg(test)]
mod tests {
    use super::depth_order;

    /// The integer order of depths is `total_cmp`'s for every pair of value classes, signed
    /// zeros and the extremes included.
    #[test]
    fn depth_order_is_total_cmp() {
        let values = [
            f32::NEG_INFINITY,
            f32::MIN,
            -1.5,
            -f32::MIN_POSITIVE,
            -1e-45,
            -0.0,
            0.0,
            1e-45,
            f32::MIN_POSITIVE,
            0.25,
            1.0,
            f32::MAX,
            f32::INFINITY,
        ];
        for a in values {
            for b in values {
                assert_eq!(depth_order(a).cmp(&depth_order(b)), a.total_cmp(&b), "{a} {b}");
            }
        }
    }
}
