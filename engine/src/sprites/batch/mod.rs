//! `SpriteBatch`: XNA's sprite renderer, recording sprites into the frame.
//!
//! Each `draw*` call turns its sprite into one [`SpriteInstance`](xnagraph_graph::SpriteInstance)
//! at once — the top-left corner and the two edge vectors with origin and scale applied as XNA
//! places the corners, texture coordinates with the flips applied, layer depth and tint — in the
//! batch's own arena (a vector, or, for a large Deferred batch that opens the frame, memory the GPU
//! draws from in place: see [`xnagraph_graph::SpriteArena`]), and extends the current run of
//! sprites sharing a texture; the instance carries the batch's index of its texture. A sprite drawn
//! with a rotation in a vector keeps its unrotated placement and notes its rotation; the flush
//! rotates all such sprites at once (sines and cosines in vectorised blocks), to the very bits a
//! rotation at the draw gives, which is where a sprite in mapped memory (never read back) is
//! rotated. The stock vertex stage expands each instance into its four corners; the stock fragment
//! stage, or the pixel-stage [`Effect`](crate::Effect) given to `begin`, colours them; a batch
//! begun with a stock geometry effect draws its sprites as quads through that effect instead
//! ([`SpriteBatchEffect`], `flush.rs`). `end` hands the arena to the frame
//! (moved, not copied, when the frame has no sprites yet) and records the draws ([`flush`]): a
//! batch of the stock stage over several 2D textures draws up to
//! [`xnagraph_graph::MAX_DRAW_TEXTURES`] of them per `Draw`, each sprite picking its texture by its
//! slot, so alternating textures never end a draw (a backend that cannot index textures splits it
//! into runs itself); any other batch is one `Draw` per run. The sorting modes also keep a (depth,
//! texture) key per sprite and write the instances into the frame in sorted order. `Immediate`
//! records each sprite as it is drawn. A cube drawn with [`SpriteBatch::draw_cube_direction`] joins
//! the same queue; its runs draw with the stock cube-sampling stage instead of the batch's.

use std::sync::{Arc, Weak};

use xnagraph_graph::{
    BlendState, DepthStencilState, EffectState, RasterizerState, SamplerState, SpriteArena,
    TextureState,
};

use crate::device::draw_state::CustomApplied;
use crate::device::shared::DeviceShared;
use crate::device::GraphicsDevice;
use crate::effects::stock::StockEffect;
use crate::error::{Result, XnaError};
use crate::finite::{all_below_2_pow_124, check_finite};
use crate::math::{Color, Matrix, Rectangle, Vector2};
use crate::resources::texture::{Texture2D, TextureCore};

mod begin;
mod cube;
mod flush;
mod geometry;
mod modes;
mod overloads;
mod text;

pub use modes::{
    SpriteBatchEffect, SpriteBatchOptions, SpriteEffects, SpriteOptions, SpriteSortMode,
};

use geometry::{instance, normalised_source, unrotated, Geometry, Sprite};

/// Consecutive sprites that sample the same texture (an index into `SpriteBatch::textures`).
#[derive(Clone, Copy, Debug)]
struct Run {
    texture: u32,
    sprites: u32,
}

/// A texture the batch samples, by wrapper core; `cube` when it is drawn through the stock
/// cube-sampling stage ([`SpriteBatch::draw_cube_direction`]), which every run of it uses.
#[derive(Clone)]
struct BatchTexture {
    core: Arc<TextureCore>,
    state: Arc<TextureState>,
    cube: bool,
}

/// Slots of `SpriteBatch::recent`.
const RECENT_SLOTS: usize = 64;

/// The slot of `SpriteBatch::recent` a texture core's address hashes to (Fibonacci hashing:
/// the high bits of the address times 2^64 / φ, so nearby addresses spread over the slots).
#[inline]
fn recent_slot(address: usize) -> usize {
    (address as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) as usize
        >> (usize::BITS - RECENT_SLOTS.trailing_zeros())
}

/// The state `begin` fixes for the batch.
#[derive(Clone, Copy, Debug)]
struct BatchState {
    sort: SpriteSortMode,
    blend: BlendState,
    sampler: SamplerState,
    depth_stencil: DepthStencilState,
    rasterizer: RasterizerState,
    transform: Matrix,
    /// `Immediate` only: the transform times the projection of the viewport at `begin`.
    projected: Option<[f32; 16]>,
}

/// Whether a sprite's placement (destination position and size, origin offset, all in pixels)
/// keeps every corner a finite number, and its rotation and layer depth are finite. Each
/// placement value below 2^124 in magnitude bounds every corner the vertex stage computes below
/// 5 × 2^124, well inside `f32`; NaN and the infinities fail the bound too.
///
/// The same answer as [`all_below_2_pow_124`] of the placement and
/// [`all_finite`](crate::finite::all_finite) of the other
/// two, as eight magnitude comparisons (false for NaN) combined without branches, which the
/// compiler turns into two vector comparisons: this runs once per sprite.
#[inline]
fn placement_ok(placement: &[f32; 6], rotation: f32, layer_depth: f32) -> bool {
    const BOUND: f32 = f32::from_bits((124 + 127) << 23);
    const INF: f32 = f32::INFINITY;
    let [a, b, c, d, e, f] = *placement;
    let values = [a, b, c, d, e, f, rotation, layer_depth];
    let bounds = [BOUND, BOUND, BOUND, BOUND, BOUND, BOUND, INF, INF];
    let mut ok = true;
    for (v, bound) in values.iter().zip(bounds) {
        ok &= v.abs() < bound;
    }
    ok
}

/// The `ArgumentException` of a sprite `placement_ok` refused: the first argument in `given`
/// that is not a finite number, else the first placement value in `placed` that is too large.
#[cold]
#[inline(never)]
fn refuse_sprite(given: &[(&'static str, &[f32])], placed: &[(&'static str, &[f32])]) -> XnaError {
    if let Err(e) = check_finite(given) {
        return e;
    }
    let param = placed.iter().find(|(_, v)| !all_below_2_pow_124(v)).map_or("position", |p| p.0);
    XnaError::argument(param, "The sprite reaches 2^124 pixels or more from the origin.")
}

/// The `InvalidOperationException` of a draw before `Begin`. Out of line: see
/// [`SpriteBatch::flush_immediate`].
#[cold]
#[inline(never)]
fn draw_before_begin() -> XnaError {
    XnaError::invalid_operation(
        "Draw was called, but Begin has not yet been called. Begin must be called successfully \
         before you can call Draw.",
    )
}

/// An effect with its own vertex stage, as `begin` was given it ([`SpriteBatchEffect`]).
enum GeometryEffect {
    /// A copy of a stock effect.
    Stock(Box<dyn StockEffect + Send + Sync>),
    /// What each pass of a custom effect's current technique applies, `Textures[0]` left to
    /// the batch.
    Custom(Vec<CustomApplied>),
}

/// XNA's `SpriteBatch`: `begin`, any number of `draw*` calls, `end`.
///
/// States, sort modes, sprite placement (rotation about the origin, scale, flips, layer depth)
/// and the errors for misuse (a second `begin`, a draw or `end` without `begin`) follow XNA.
/// The projection is taken from the viewport at `begin`. Sprites become instances of the stock
/// sprite shader recorded into the frame (or quads of a stock geometry effect: see
/// [`SpriteBatchEffect`]); they are drawn when the frame is flushed. Where it differs from XNA:
/// [`SpriteBatch::begin_with_effect`] also takes a pixel stage alone
/// ([`Effect`](crate::Effect)), placed by the stock vertex stage, and XNA's `Draw` and
/// `DrawString` overloads are methods of their own (`draw`, `draw_rect`, `draw_ex`, ...), as
/// Rust has no overloading.
///
/// Where XNA passes a sprite's floats to the GPU unchecked, here a NaN or infinite `position`,
/// `rotation`, `origin`, `scale` or `layerDepth`, or finite ones that place the sprite 2^124
/// pixels or more away (where its corners could overflow 32-bit floats), make the draw an
/// `ArgumentException` naming the parameter, and nothing is recorded;
/// `begin_with` refuses a non-finite transform matrix or rasterizer depth bias the same way. A
/// finite layer depth outside [0, 1] is clipped by the depth range, as on Direct3D.
///
/// Every `draw*` shares these errors: before `begin`, `InvalidOperation`; a disposed texture
/// or device, `ObjectDisposed`; a texture of another device, `InvalidOperation`; a refused
/// placement, `Argument` naming the parameter, as above. In `Immediate` mode a draw also fails
/// as [`SpriteBatch::end`] does.
pub struct SpriteBatch {
    device: Weak<DeviceShared>,
    state: Option<BatchState>,
    /// One instance per sprite, in call order; a rotated sprite's [`unrotated`] until the
    /// flush applies its rotation, except in an arena the GPU reads in place (not read back:
    /// there a sprite's rotation is applied as it is drawn).
    instances: SpriteArena,
    /// `(index in instances, rotation)` of each sprite drawn with a rotation, in call order:
    /// the flush applies them all at once (sines and cosines in vectorised blocks) before
    /// anything reads the instances, so a draw computes no sine or cosine.
    rotations: Vec<(u32, f32)>,
    /// Call-order runs of one texture (all modes), closed: the sprites from `open` on, of
    /// `current_texture`, are the run still growing ([`SpriteBatch::close_run`]).
    runs: Vec<Run>,
    /// The index in `instances` where the growing run begins.
    open: usize,
    /// The address of the core of the texture last drawn (0: none since the texture list was
    /// cleared); `textures` holds it, so no other texture can have that address meanwhile. A
    /// sprite of the same texture needs neither the texture list nor the runs.
    current_core: usize,
    /// The batch's index of that texture: the growing run's.
    current_texture: u32,
    /// Per-sprite (layer depth, texture) for the sorting modes only.
    keys: Vec<(f32, u32)>,
    /// Scratch for the sorting modes: each sprite's sort key (high half) and index (low half),
    /// sorted into drawing order.
    order: Vec<u64>,
    /// Distinct textures of the batch, by wrapper core; runs and keys index this.
    textures: Vec<BatchTexture>,
    /// `(core address, index in textures)` of textures switched to, each in the slot its
    /// address hashes to ([`recent_slot`]; address 0: empty): a texture switch finds a
    /// texture of the batch here without searching `textures`, whatever the order in which
    /// the textures alternate, as long as no other texture took its slot since.
    recent: Box<[(usize, u32); RECENT_SLOTS]>,
    /// The pixel-stage effect `begin` was given, held by every draw of the batch.
    effect: Option<Arc<EffectState>>,
    /// The effect with its own vertex stage `begin` was given, as it was then: the sprites are
    /// drawn as quads through it ([`SpriteBatchEffect`]).
    geometry: Option<GeometryEffect>,
    /// Scratch for batches of more textures than a draw holds: each texture's slot in the
    /// draw being cut.
    slots: Vec<u32>,
}

impl SpriteBatch {
    /// XNA's `new SpriteBatch(graphicsDevice)`; `ObjectDisposed` when the device is disposed.
    /// It holds the device weakly, so a batch never keeps a disposed device alive.
    pub fn new(device: &GraphicsDevice) -> Result<Self> {
        device.shared.check_alive()?;
        Ok(SpriteBatch {
            device: Arc::downgrade(&device.shared),
            state: None,
            instances: SpriteArena::default(),
            rotations: Vec::new(),
            runs: Vec::new(),
            open: 0,
            current_core: 0,
            current_texture: 0,
            keys: Vec::new(),
            order: Vec::new(),
            textures: Vec::new(),
            recent: Box::new([(0, 0); RECENT_SLOTS]),
            effect: None,
            geometry: None,
            slots: Vec::new(),
        })
    }

    fn device(&self) -> Result<Arc<DeviceShared>> {
        self.device
            .upgrade()
            .filter(|d| !d.is_disposed())
            .ok_or(XnaError::ObjectDisposed { object: "GraphicsDevice" })
    }

    /// XNA's `SpriteBatch.Draw(texture, position, sourceRectangle, color, rotation, origin,
    /// scale, effects, layerDepth)` ([`SpriteBatch::draw_with`] takes the same by name).
    ///
    /// Errors: those every draw shares (see [`SpriteBatch`]). Always inlined into the game's
    /// loop: as a call, its nine arguments and saved registers cost a sprite more than its own
    /// work (measured).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn draw_ex(
        &mut self,
        texture: &Texture2D,
        position: Vector2,
        source: Option<Rectangle>,
        color: Color,
        rotation: f32,
        origin: Vector2,
        scale: Vector2,
        effects: SpriteEffects,
        layer_depth: f32,
    ) -> Result<()> {
        let (tw, th) = (texture.width() as f32, texture.height() as f32);
        let (src, sw, sh) = normalised_source(source, tw, th);
        let destination = [position.x, position.y, scale.x * sw, scale.y * sh];
        // The origin is in source texels; scaling carries it to destination pixels.
        let offset = [origin.x * scale.x, origin.y * scale.y];
        let [x, y, w, h] = destination;
        if !placement_ok(&[x, y, w, h, offset[0], offset[1]], rotation, layer_depth) {
            return Err(refuse_sprite(
                &[
                    ("position", &[position.x, position.y]),
                    ("rotation", &[rotation]),
                    ("origin", &[origin.x, origin.y]),
                    ("scale", &[scale.x, scale.y]),
                    ("layerDepth", &[layer_depth]),
                ],
                &[("position", &[x, y]), ("scale", &[w, h]), ("origin", &offset)],
            ));
        }
        let geometry = Geometry { destination, offset, rotation };
        self.push(&texture.core, false, src, geometry, color, effects, layer_depth)
    }

    /// XNA's `SpriteBatch.Draw(texture, destinationRectangle, sourceRectangle, color, rotation,
    /// origin, effects, layerDepth)`.
    ///
    /// Errors: those every draw shares (see [`SpriteBatch`]).
    #[allow(clippy::too_many_arguments)]
    pub fn draw_rect_ex(
        &mut self,
        texture: &Texture2D,
        destination: Rectangle,
        source: Option<Rectangle>,
        color: Color,
        rotation: f32,
        origin: Vector2,
        effects: SpriteEffects,
        layer_depth: f32,
    ) -> Result<()> {
        let (tw, th) = (texture.width() as f32, texture.height() as f32);
        let (src, sw, sh) = normalised_source(source, tw, th);
        let destination = [
            destination.x as f32,
            destination.y as f32,
            destination.width as f32,
            destination.height as f32,
        ];
        // The origin is in source texels; the rectangle's stretch carries it to its pixels. A
        // zero-sized source stretches nothing: its origin is scaled by the texture's size
        // instead (as MonoGame and FNA do), not divided by zero.
        let stretch = |o: f32, s: f32, texture: f32, d: f32| {
            if s == 0.0 {
                o * d / texture
            } else {
                o / s * d
            }
        };
        let offset =
            [stretch(origin.x, sw, tw, destination[2]), stretch(origin.y, sh, th, destination[3])];
        let [x, y, w, h] = destination;
        if !placement_ok(&[x, y, w, h, offset[0], offset[1]], rotation, layer_depth) {
            return Err(refuse_sprite(
                &[
                    ("rotation", &[rotation]),
                    ("origin", &[origin.x, origin.y]),
                    ("layerDepth", &[layer_depth]),
                ],
                &[("origin", &offset)],
            ));
        }
        let geometry = Geometry { destination, offset, rotation };
        self.push(&texture.core, false, src, geometry, color, effects, layer_depth)
    }

    /// Queues one sprite of `core` (a cube sampled by the stock cube stage when `cube`). Always
    /// inlined: each `draw*` overload then folds its constant arguments into its own copy.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn push(
        &mut self,
        core: &Arc<TextureCore>,
        cube: bool,
        source: [f32; 4],
        geometry: Geometry,
        color: Color,
        effects: SpriteEffects,
        depth: f32,
    ) -> Result<()> {
        let Some(sort) = self.state.as_ref().map(|s| s.sort) else {
            return Err(draw_before_begin());
        };
        let Geometry { destination, offset, rotation } = geometry;
        core.res.check_alive()?;
        if Arc::as_ptr(core) as usize != self.current_core {
            self.switch_texture(core, cube)?;
        }
        let texture = self.current_texture;
        let sprite = Sprite {
            source,
            destination,
            offset,
            sin: 0.0,
            cos: 1.0,
            depth,
            color: [color.r, color.g, color.b, color.a],
            effects: effects.bits() & 3,
            texture,
        };
        if rotation == 0.0 {
            self.instances.push(instance(&sprite));
        } else if self.instances.is_mapped() {
            let (sin, cos) = crate::math::sin_cos(rotation);
            self.instances.push(instance(&Sprite { sin, cos, ..sprite }));
        } else {
            // The rotation waits for the flush (`rotations`).
            self.rotations.push((self.instances.len() as u32, rotation));
            self.instances.push(unrotated(&sprite));
        }
        if sort != SpriteSortMode::Deferred {
            if sort == SpriteSortMode::Immediate {
                self.flush_immediate()?;
            } else {
                self.keys.push((depth, texture));
            }
        }
        Ok(())
    }

    /// `Immediate`: draws the sprite just queued. Cold and out of line: a call the compiler
    /// takes for common in [`SpriteBatch::push`] makes it keep every mode's sprite on the stack,
    /// and an Immediate batch records a whole draw per sprite anyway.
    #[cold]
    #[inline(never)]
    fn flush_immediate(&mut self) -> Result<()> {
        match self.state {
            Some(state) => self.flush_sprites(&state),
            None => Ok(()),
        }
    }

    /// Makes `core` the current texture (a sprite of it follows): finds or adds it in the
    /// batch's texture list, and closes the growing run when the texture differs from its.
    /// Cold: a batch of one texture calls it for its first sprite only, and saying so lets the
    /// compiler keep the call and most of its register spills off the common path (measured
    /// faster, and no slower for a texture switch on every sprite).
    #[cold]
    #[inline(never)]
    fn switch_texture(&mut self, core: &Arc<TextureCore>, cube: bool) -> Result<()> {
        let address = Arc::as_ptr(core) as usize;
        let (cached, cached_index) = self.recent[recent_slot(address)];
        let known = if cached == address {
            Some(cached_index as usize)
        } else {
            self.textures.iter().rposition(|known| Arc::ptr_eq(&known.core, core))
        };
        let index = match known {
            Some(i) => i,
            None => {
                if !Weak::ptr_eq(&core.res.device, &self.device) {
                    return Err(XnaError::invalid_operation(
                        "The texture was created by a different GraphicsDevice.",
                    ));
                }
                let state = core.state()?;
                self.textures.push(BatchTexture { core: core.clone(), state, cube });
                self.textures.len() - 1
            }
        } as u32;
        self.recent[recent_slot(address)] = (address, index);
        if index != self.current_texture {
            self.close_run();
        }
        self.current_core = Arc::as_ptr(core) as usize;
        self.current_texture = index;
        Ok(())
    }

    /// Closes the growing run: its sprites (if any) join `runs`, and the next sprite starts
    /// a new one.
    fn close_run(&mut self) {
        let sprites = self.instances.len() - self.open;
        if sprites > 0 {
            self.runs.push(Run { texture: self.current_texture, sprites: sprites as u32 });
        }
        self.open = self.instances.len();
    }

    /// XNA's `SpriteBatch.End()`: sorts (in the sorting modes), hands the sprites to the frame
    /// and records the draws.
    ///
    /// Errors: without `begin`, `InvalidOperation`, as XNA; a disposed device is
    /// `ObjectDisposed`; a texture drawn that is now a bound render target is
    /// `InvalidOperation`; states the targets bound now cannot honour are `NotSupported` (as at
    /// `begin`). The batch ends either way.
    pub fn end(&mut self) -> Result<()> {
        let Some(state) = self.state.take() else {
            return Err(XnaError::invalid_operation("Begin must be called before calling End."));
        };
        let result = self.flush_sprites(&state);
        self.clear_textures();
        self.effect = None;
        self.geometry = None;
        result
    }

    fn clear_queue(&mut self) {
        self.instances.clear();
        self.rotations.clear();
        self.runs.clear();
        self.open = 0;
        self.keys.clear();
    }

    /// Forgets the batch's textures, and so the current one.
    fn clear_textures(&mut self) {
        self.textures.clear();
        self.recent.fill((0, 0));
        self.current_core = 0;
    }
}

#[cfg(test)]
mod tests;
