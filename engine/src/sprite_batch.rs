//! `SpriteBatch`: XNA's sprite renderer, recording sprites into the frame.
//!
//! Each `draw*` call turns its sprite into one [`SpriteInstance`] at once — the top-left corner
//! and the two edge vectors with rotation, origin and scale applied as XNA places the corners,
//! texture coordinates with the flips applied, layer depth and tint — in the batch's own buffer,
//! and extends the current run of sprites sharing a texture. The stock vertex stage expands each
//! instance into its four corners. `end` hands the buffer to the frame (moved, not copied, when
//! the frame has no sprites yet) and records one `Draw` per run. The sorting modes also keep a
//! (depth, texture) key per sprite and write the instances into the frame in sorted order.
//! `Immediate` records each sprite as it is drawn.

use std::sync::{Arc, Weak};

use xnagraph_graph::{
    BlendState, DepthStencilState, Draw, PassOp, PipelineKey, RasterizerState, SamplerState,
    ShaderKind, SpriteInstance, TextureState,
};

use crate::capability::check_draw_states;
use crate::device::{DeviceShared, GraphicsDevice};
use crate::error::{Result, XnaError};
use crate::math::{Color, Matrix, Rectangle, Vector2};
use crate::resource::lock;
use crate::texture::{Texture2D, TextureCore};

/// XNA's `SpriteSortMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SpriteSortMode {
    /// Drawn in call order, at `end`.
    #[default]
    Deferred,
    /// Drawn at once, one draw per call.
    Immediate,
    /// Grouped by texture at `end` (call order within a texture).
    Texture,
    /// Highest layer depth first.
    BackToFront,
    /// Lowest layer depth first.
    FrontToBack,
}

/// XNA's `SpriteEffects` flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SpriteEffects(u8);

impl SpriteEffects {
    pub const NONE: SpriteEffects = SpriteEffects(0);
    pub const FLIP_HORIZONTALLY: SpriteEffects = SpriteEffects(1);
    pub const FLIP_VERTICALLY: SpriteEffects = SpriteEffects(2);
}

impl std::ops::BitOr for SpriteEffects {
    type Output = SpriteEffects;
    fn bitor(self, rhs: SpriteEffects) -> SpriteEffects {
        SpriteEffects(self.0 | rhs.0)
    }
}

/// One sprite's geometry: source normalised to the texture, destination and the origin's offset
/// (before rotation) in pixels.
#[derive(Clone, Copy, Debug)]
struct Sprite {
    source: [f32; 4],
    destination: [f32; 4],
    offset: [f32; 2],
    sin: f32,
    cos: f32,
    depth: f32,
    color: [u8; 4],
    effects: u8,
}

/// Consecutive sprites that sample the same texture (an index into `SpriteBatch::textures`).
#[derive(Clone, Copy, Debug)]
struct Run {
    texture: u32,
    sprites: u32,
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
}

/// XNA's `SpriteBatch`.
pub struct SpriteBatch {
    device: Weak<DeviceShared>,
    state: Option<BatchState>,
    /// One instance per sprite, in call order.
    instances: Vec<SpriteInstance>,
    /// Call-order runs of one texture (all modes).
    runs: Vec<Run>,
    /// Per-sprite (layer depth, texture) for the sorting modes only.
    keys: Vec<(f32, u32)>,
    /// Scratch for the sorting modes: sprite indices in drawing order.
    order: Vec<u32>,
    /// Distinct textures of the batch, by wrapper core; runs and keys index this.
    textures: Vec<(Arc<TextureCore>, Arc<TextureState>)>,
}

impl SpriteBatch {
    pub fn new(device: &GraphicsDevice) -> Result<Self> {
        device.shared.check_alive()?;
        Ok(SpriteBatch {
            device: Arc::downgrade(&device.shared),
            state: None,
            instances: Vec::new(),
            runs: Vec::new(),
            keys: Vec::new(),
            order: Vec::new(),
            textures: Vec::new(),
        })
    }

    fn device(&self) -> Result<Arc<DeviceShared>> {
        self.device
            .upgrade()
            .filter(|d| !d.is_disposed())
            .ok_or(XnaError::ObjectDisposed { object: "GraphicsDevice" })
    }

    /// `Begin()`: deferred, alpha blend, linear clamp, no depth, cull counter-clockwise.
    pub fn begin(&mut self) -> Result<()> {
        self.begin_with(SpriteSortMode::Deferred, None, None, None, None, None)
    }

    /// `Begin(sortMode, blendState, samplerState, depthStencilState, rasterizerState, effect:
    /// none, transformMatrix)`; `None` picks XNA's default for that state. States the device
    /// cannot honour are `NotSupported` here: `FillMode::WireFrame` without wire-frame support,
    /// `TextureFilter::Anisotropic` without anisotropic filtering (never silently trilinear),
    /// several targets bound without independent blending, or a blending state while a bound
    /// target's format cannot blend.
    pub fn begin_with(
        &mut self,
        sort: SpriteSortMode,
        blend: Option<BlendState>,
        sampler: Option<SamplerState>,
        depth_stencil: Option<DepthStencilState>,
        rasterizer: Option<RasterizerState>,
        transform: Option<Matrix>,
    ) -> Result<()> {
        let device = self.device()?;
        if self.state.is_some() {
            return Err(XnaError::invalid_operation(
                "Begin cannot be called again until End has been successfully called.",
            ));
        }
        let state = BatchState {
            sort,
            blend: blend.unwrap_or(BlendState::ALPHA_BLEND),
            sampler: sampler.unwrap_or(SamplerState::LINEAR_CLAMP),
            depth_stencil: depth_stencil.unwrap_or(DepthStencilState::NONE),
            rasterizer: rasterizer.unwrap_or(RasterizerState::CULL_COUNTER_CLOCKWISE),
            transform: transform.unwrap_or(Matrix::IDENTITY),
        };
        // What the states need from the device is refused here, not discovered at the flush.
        let targets: Vec<_> = {
            let rec = lock(&device.rec);
            let formats: Vec<_> = if rec.bindings.is_empty() {
                vec![rec.back_buffer.desc().format]
            } else {
                rec.bindings.iter().map(|b| b.state.desc().format).collect()
            };
            formats.into_iter().map(|f| (f, device.format_support(f))).collect()
        };
        check_draw_states(&device.caps, &targets, &state.blend, &state.sampler, &state.rasterizer)?;
        if self.instances.capacity() == 0 {
            self.instances = std::mem::take(&mut lock(&device.rec).spare_sprites);
        }
        self.state = Some(state);
        self.clear_queue();
        self.textures.clear();
        Ok(())
    }

    /// `Draw(texture, position, color)`.
    pub fn draw(&mut self, texture: &Texture2D, position: Vector2, color: Color) -> Result<()> {
        self.draw_ex(
            texture,
            position,
            None,
            color,
            0.0,
            Vector2::ZERO,
            Vector2::ONE,
            SpriteEffects::NONE,
            0.0,
        )
    }

    /// `Draw(texture, destinationRectangle, color)`.
    pub fn draw_rect(
        &mut self,
        texture: &Texture2D,
        destination: Rectangle,
        color: Color,
    ) -> Result<()> {
        self.draw_rect_ex(
            texture,
            destination,
            None,
            color,
            0.0,
            Vector2::ZERO,
            SpriteEffects::NONE,
            0.0,
        )
    }

    /// `Draw(texture, destinationRectangle, sourceRectangle, color)`.
    pub fn draw_rect_source(
        &mut self,
        texture: &Texture2D,
        destination: Rectangle,
        source: Option<Rectangle>,
        color: Color,
    ) -> Result<()> {
        self.draw_rect_ex(
            texture,
            destination,
            source,
            color,
            0.0,
            Vector2::ZERO,
            SpriteEffects::NONE,
            0.0,
        )
    }

    /// `Draw(texture, position, sourceRectangle, color, rotation, origin, scale, effects,
    /// layerDepth)`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
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
        self.push(texture, src, destination, offset, rotation, color, effects, layer_depth)
    }

    /// `Draw(texture, destinationRectangle, sourceRectangle, color, rotation, origin, effects,
    /// layerDepth)`.
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
        // The origin is in source texels; the rectangle's stretch carries it to its pixels.
        let offset = [origin.x / sw * destination[2], origin.y / sh * destination[3]];
        self.push(texture, src, destination, offset, rotation, color, effects, layer_depth)
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn push(
        &mut self,
        texture: &Texture2D,
        source: [f32; 4],
        destination: [f32; 4],
        offset: [f32; 2],
        rotation: f32,
        color: Color,
        effects: SpriteEffects,
        depth: f32,
    ) -> Result<()> {
        let Some(sort) = self.state.as_ref().map(|s| s.sort) else {
            return Err(XnaError::invalid_operation(
                "Draw was called, but Begin has not yet been called. Begin must be called \
                 successfully before you can call Draw.",
            ));
        };
        let core = &texture.core;
        core.res.check_alive()?;
        let index = match self.textures.last() {
            Some((last, _)) if Arc::ptr_eq(last, core) => self.textures.len() - 1,
            _ => match self.textures.iter().rposition(|(known, _)| Arc::ptr_eq(known, core)) {
                Some(i) => i,
                None => {
                    if !Weak::ptr_eq(&core.res.device, &self.device) {
                        return Err(XnaError::invalid_operation(
                            "The texture was created by a different GraphicsDevice.",
                        ));
                    }
                    self.textures.push((core.clone(), core.state()?));
                    self.textures.len() - 1
                }
            },
        };
        let (sin, cos) = if rotation == 0.0 { (0.0, 1.0) } else { crate::math::sin_cos(rotation) };
        let sprite = Sprite {
            source,
            destination,
            offset,
            sin,
            cos,
            depth,
            color: [color.r, color.g, color.b, color.a],
            effects: effects.0 & 3,
        };
        self.instances.push(instance(&sprite));
        let texture = index as u32;
        match self.runs.last_mut() {
            Some(run) if run.texture == texture => run.sprites += 1,
            _ => self.runs.push(Run { texture, sprites: 1 }),
        }
        if matches!(
            sort,
            SpriteSortMode::Texture | SpriteSortMode::BackToFront | SpriteSortMode::FrontToBack
        ) {
            self.keys.push((depth, texture));
        }
        if sort == SpriteSortMode::Immediate {
            if let Some(state) = self.state {
                self.flush_sprites(&state)?;
            }
        }
        Ok(())
    }

    /// `End()`: sorts (in the sorting modes), hands the sprites to the frame and records the
    /// draws.
    pub fn end(&mut self) -> Result<()> {
        let Some(state) = self.state.take() else {
            return Err(XnaError::invalid_operation("Begin must be called before calling End."));
        };
        let result = self.flush_sprites(&state);
        self.textures.clear();
        result
    }

    fn clear_queue(&mut self) {
        self.instances.clear();
        self.runs.clear();
        self.keys.clear();
    }

    fn flush_sprites(&mut self, state: &BatchState) -> Result<()> {
        if self.runs.is_empty() {
            return Ok(());
        }
        let device = self.device()?;
        let mut rec = lock(&device.rec);
        let bound = self
            .textures
            .iter()
            .any(|(core, _)| rec.bindings.iter().any(|b| b.resource == core.res.id));
        if bound {
            self.clear_queue();
            return Err(XnaError::invalid_operation(
                "A render target that is still bound cannot be drawn as a texture.",
            ));
        }
        let viewport = rec.viewport;
        let scissor = rec.scissor;
        let transform =
            state.transform.mul(&projection(viewport.width, viewport.height)).to_column_major();
        let pipeline = PipelineKey {
            shader: ShaderKind::Sprite,
            blend: state.blend,
            depth_stencil: state.depth_stencil,
            rasterizer: state.rasterizer,
        };
        let first_sprite = rec.frame.sprites.len();
        let runs = if self.keys.is_empty() {
            if first_sprite == 0 {
                // Hand the whole buffer over; it comes back through the device once submitted.
                rec.frame.sprites = std::mem::take(&mut self.instances);
            } else {
                rec.frame.sprites.extend_from_slice(&self.instances);
            }
            std::mem::take(&mut self.runs)
        } else {
            self.write_sorted(state.sort, &mut rec.frame.sprites)
        };
        let mut done = 0usize;
        for run in &runs {
            let draw = Draw {
                pipeline,
                sampler: state.sampler,
                texture: self.textures[run.texture as usize].1.clone(),
                first_sprite: (first_sprite + done) as u32,
                sprite_count: run.sprites,
                viewport,
                scissor,
                transform,
            };
            rec.pass().ops.push(PassOp::Draw(draw));
            done += run.sprites as usize;
        }
        drop(rec);
        self.runs = runs;
        self.clear_queue();
        Ok(())
    }

    /// Appends the queued sprites to `out` in the sort mode's order (stable: equal keys keep call
    /// order) and returns the texture runs of that order.
    fn write_sorted(&mut self, sort: SpriteSortMode, out: &mut Vec<SpriteInstance>) -> Vec<Run> {
        let keys = &self.keys;
        self.order.clear();
        self.order.extend(0..keys.len() as u32);
        match sort {
            SpriteSortMode::Texture => self.order.sort_by_key(|&i| keys[i as usize].1),
            SpriteSortMode::BackToFront => {
                self.order.sort_by(|&a, &b| keys[b as usize].0.total_cmp(&keys[a as usize].0))
            }
            _ => self.order.sort_by(|&a, &b| keys[a as usize].0.total_cmp(&keys[b as usize].0)),
        }
        out.reserve(self.instances.len());
        let mut runs: Vec<Run> = Vec::new();
        for &i in &self.order {
            let i = i as usize;
            out.push(self.instances[i]);
            let texture = keys[i].1;
            match runs.last_mut() {
                Some(run) if run.texture == texture => run.sprites += 1,
                _ => runs.push(Run { texture, sprites: 1 }),
            }
        }
        runs
    }
}

/// Source rectangle normalised to the texture, and its size in texels.
fn normalised_source(source: Option<Rectangle>, tw: f32, th: f32) -> ([f32; 4], f32, f32) {
    match source {
        Some(r) => {
            let (w, h) = (r.width as f32, r.height as f32);
            ([r.x as f32 / tw, r.y as f32 / th, w / tw, h / th], w, h)
        }
        None => ([0.0, 0.0, 1.0, 1.0], tw, th),
    }
}

/// Pixels → clip space with y down and depth unchanged (the backends' convention).
fn projection(width: i32, height: i32) -> Matrix {
    let mut m = Matrix::IDENTITY;
    m.m[0][0] = 2.0 / width.max(1) as f32;
    m.m[1][1] = 2.0 / height.max(1) as f32;
    m.m[3][0] = -1.0;
    m.m[3][1] = -1.0;
    m
}

/// A sprite's instance: the top-left corner is the origin's offset rotated about the position,
/// and the other corners follow along the rotated width and height edges, as XNA places them.
/// Flips swap texture coordinates, never positions.
#[inline]
fn instance(s: &Sprite) -> SpriteInstance {
    let [dx, dy, dw, dh] = s.destination;
    let [sx, sy, sw, sh] = s.source;
    let (ox, oy) = (-s.offset[0], -s.offset[1]);
    let (mut u0, mut u1, mut v0, mut v1) = (sx, sx + sw, sy, sy + sh);
    if s.effects & 1 != 0 {
        std::mem::swap(&mut u0, &mut u1);
    }
    if s.effects & 2 != 0 {
        std::mem::swap(&mut v0, &mut v1);
    }
    SpriteInstance {
        origin: [dx + s.cos * ox - s.sin * oy, dy + s.sin * ox + s.cos * oy],
        right: [s.cos * dw, s.sin * dw],
        down: [-s.sin * dh, s.cos * dh],
        texcoords: [u0, v0, u1, v1],
        depth: s.depth,
        color: s.color,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprite(effects: u8, rotation: f32, offset: [f32; 2]) -> Sprite {
        let (sin, cos) = rotation.sin_cos();
        Sprite {
            source: [0.0, 0.0, 1.0, 1.0],
            destination: [10.0, 20.0, 4.0, 2.0],
            offset,
            sin,
            cos,
            depth: 0.5,
            color: [255; 4],
            effects,
        }
    }

    #[test]
    fn corners_follow_destination_and_flips_swap_texcoords() {
        let i = instance(&sprite(SpriteEffects::FLIP_HORIZONTALLY.0, 0.0, [0.0, 0.0]));
        assert_eq!(i.depth, 0.5);
        assert_eq!(i.corner(0), ([10.0, 20.0], [1.0, 0.0]));
        assert_eq!(i.corner(1), ([14.0, 20.0], [0.0, 0.0]));
        assert_eq!(i.corner(2), ([10.0, 22.0], [1.0, 1.0]));
        assert_eq!(i.corner(3), ([14.0, 22.0], [0.0, 1.0]));
    }

    #[test]
    fn rotation_turns_about_the_origin() {
        let i = instance(&sprite(0, std::f32::consts::FRAC_PI_2, [2.0, 1.0]));
        // Centre (10,20); the top-left corner (-2,-1) rotated 90° lands at (1,-2) from it, and
        // the bottom-right corner (2,1) at (-1,2).
        let near =
            |p: [f32; 2], q: [f32; 2]| (p[0] - q[0]).abs() < 1e-5 && (p[1] - q[1]).abs() < 1e-5;
        assert!(near(i.corner(0).0, [11.0, 18.0]), "{:?}", i.corner(0));
        assert!(near(i.corner(3).0, [9.0, 22.0]), "{:?}", i.corner(3));
    }
}
