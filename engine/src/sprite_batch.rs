//! `SpriteBatch`: XNA's sprite renderer, recording quads into the frame.
//!
//! `draw*` calls append a compact [`Sprite`] (no vertices yet). `end` sorts them by the sort
//! mode, turns each into four vertices in the frame's vertex arena (rotation, origin, scale,
//! flips and layer depth applied as XNA does) and records one `Draw` per run of sprites sharing
//! a texture. `Immediate` records each sprite as it is drawn.

use std::sync::{Arc, Weak};

use xnagraph_graph::{
    BlendState, DepthStencilState, Draw, PassOp, PipelineKey, RasterizerState, SamplerState,
    ShaderKind, SpriteVertex, TextureState,
};

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

/// One queued sprite; source and origin are normalised to the texture / source size.
#[derive(Clone, Copy, Debug)]
struct Sprite {
    texture: u32,
    source: [f32; 4],
    destination: [f32; 4],
    origin: [f32; 2],
    sin: f32,
    cos: f32,
    depth: f32,
    color: [u8; 4],
    effects: u8,
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
    sprites: Vec<Sprite>,
    /// Distinct textures of the batch, by wrapper core; `Sprite::texture` indexes this.
    /// Keyed by the core's address, used only as an identity while the `Arc` keeps it alive.
    textures: Vec<(usize, Arc<TextureState>, Arc<TextureCore>)>,
    order: Vec<u32>,
}

const CORNER_X: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const CORNER_Y: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

impl SpriteBatch {
    pub fn new(device: &GraphicsDevice) -> Result<Self> {
        device.shared.check_alive()?;
        Ok(SpriteBatch {
            device: Arc::downgrade(&device.shared),
            state: None,
            sprites: Vec::new(),
            textures: Vec::new(),
            order: Vec::new(),
        })
    }

    fn device(&self) -> Result<Arc<DeviceShared>> {
        self.device
            .upgrade()
            .filter(|d| !d.is_disposed())
            .ok_or(XnaError::ObjectDisposed {
                object: "GraphicsDevice",
            })
    }

    /// `Begin()`: deferred, alpha blend, linear clamp, no depth, cull counter-clockwise.
    pub fn begin(&mut self) -> Result<()> {
        self.begin_with(SpriteSortMode::Deferred, None, None, None, None, None)
    }

    /// `Begin(sortMode, blendState, samplerState, depthStencilState, rasterizerState, effect:
    /// none, transformMatrix)`; `None` picks XNA's default for that state.
    pub fn begin_with(
        &mut self,
        sort: SpriteSortMode,
        blend: Option<BlendState>,
        sampler: Option<SamplerState>,
        depth_stencil: Option<DepthStencilState>,
        rasterizer: Option<RasterizerState>,
        transform: Option<Matrix>,
    ) -> Result<()> {
        self.device()?;
        if self.state.is_some() {
            return Err(XnaError::invalid_operation(
                "Begin cannot be called again until End has been successfully called.",
            ));
        }
        self.state = Some(BatchState {
            sort,
            blend: blend.unwrap_or(BlendState::ALPHA_BLEND),
            sampler: sampler.unwrap_or(SamplerState::LINEAR_CLAMP),
            depth_stencil: depth_stencil.unwrap_or(DepthStencilState::NONE),
            rasterizer: rasterizer.unwrap_or(RasterizerState::CULL_COUNTER_CLOCKWISE),
            transform: transform.unwrap_or(Matrix::IDENTITY),
        });
        self.sprites.clear();
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
        let origin = [origin.x / sw, origin.y / sh];
        self.push(
            texture,
            src,
            destination,
            origin,
            rotation,
            color,
            effects,
            layer_depth,
        )
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
        let origin = [origin.x / sw, origin.y / sh];
        self.push(
            texture,
            src,
            destination,
            origin,
            rotation,
            color,
            effects,
            layer_depth,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        texture: &Texture2D,
        source: [f32; 4],
        destination: [f32; 4],
        origin: [f32; 2],
        rotation: f32,
        color: Color,
        effects: SpriteEffects,
        depth: f32,
    ) -> Result<()> {
        let Some(state) = self.state else {
            return Err(XnaError::invalid_operation(
                "Draw was called, but Begin has not yet been called. Begin must be called \
                 successfully before you can call Draw.",
            ));
        };
        let core = &texture.core;
        core.res.check_alive()?;
        let key = Arc::as_ptr(core) as usize;
        let index = match self.textures.last() {
            Some((last, _, _)) if *last == key => self.textures.len() - 1,
            _ => match self.textures.iter().rposition(|(k, _, _)| *k == key) {
                Some(i) => i,
                None => {
                    self.textures.push((key, core.state()?, core.clone()));
                    self.textures.len() - 1
                }
            },
        };
        let (sin, cos) = if rotation == 0.0 {
            (0.0, 1.0)
        } else {
            rotation.sin_cos()
        };
        self.sprites.push(Sprite {
            texture: index as u32,
            source,
            destination,
            origin,
            sin,
            cos,
            depth,
            color: [color.r, color.g, color.b, color.a],
            effects: effects.0 & 3,
        });
        if state.sort == SpriteSortMode::Immediate {
            self.flush_sprites(&state)?;
        }
        Ok(())
    }

    /// `End()`: sorts, generates vertices and records the draws.
    pub fn end(&mut self) -> Result<()> {
        let Some(state) = self.state.take() else {
            return Err(XnaError::invalid_operation(
                "Begin must be called before calling End.",
            ));
        };
        let result = self.flush_sprites(&state);
        self.textures.clear();
        result
    }

    fn flush_sprites(&mut self, state: &BatchState) -> Result<()> {
        if self.sprites.is_empty() {
            return Ok(());
        }
        let device = self.device()?;
        let mut rec = lock(&device.rec);
        for (_, _, core) in &self.textures {
            if rec.bindings.iter().any(|b| b.resource == core.res.id) {
                self.sprites.clear();
                return Err(XnaError::invalid_operation(
                    "A render target that is still bound cannot be drawn as a texture.",
                ));
            }
        }
        self.order.clear();
        self.order.extend(0..self.sprites.len() as u32);
        let sprites = &self.sprites;
        match state.sort {
            SpriteSortMode::Deferred | SpriteSortMode::Immediate => {}
            SpriteSortMode::Texture => self.order.sort_by_key(|&i| sprites[i as usize].texture),
            SpriteSortMode::BackToFront => self.order.sort_by(|&a, &b| {
                sprites[b as usize]
                    .depth
                    .total_cmp(&sprites[a as usize].depth)
            }),
            SpriteSortMode::FrontToBack => self.order.sort_by(|&a, &b| {
                sprites[a as usize]
                    .depth
                    .total_cmp(&sprites[b as usize].depth)
            }),
        }

        let viewport = rec.viewport;
        let scissor = rec.scissor;
        let transform = state
            .transform
            .mul(&projection(viewport.width, viewport.height))
            .to_column_major();
        let pipeline = PipelineKey {
            shader: ShaderKind::Sprite,
            blend: state.blend,
            depth_stencil: state.depth_stencil,
            rasterizer: state.rasterizer,
        };
        let first_vertex = rec.frame.vertices.len();
        rec.frame.vertices.reserve(sprites.len() * 4);
        for &i in &self.order {
            push_vertices(&mut rec.frame.vertices, &sprites[i as usize]);
        }
        let mut run_start = 0usize;
        let order = &self.order;
        for k in 1..=order.len() {
            let run_texture = sprites[order[run_start] as usize].texture;
            if k == order.len() || sprites[order[k] as usize].texture != run_texture {
                let draw = Draw {
                    pipeline,
                    sampler: state.sampler,
                    texture: self.textures[run_texture as usize].1.clone(),
                    first_vertex: (first_vertex + run_start * 4) as u32,
                    quad_count: (k - run_start) as u32,
                    viewport,
                    scissor,
                    transform,
                };
                rec.pass().ops.push(PassOp::Draw(draw));
                run_start = k;
            }
        }
        drop(rec);
        self.sprites.clear();
        Ok(())
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

/// The four corners of a sprite (TL, TR, BL, BR), as XNA places them.
#[inline]
fn push_vertices(out: &mut Vec<SpriteVertex>, s: &Sprite) {
    let [dx, dy, dw, dh] = s.destination;
    let [sx, sy, sw, sh] = s.source;
    for corner in 0..4 {
        let cx = (CORNER_X[corner] - s.origin[0]) * dw;
        let cy = (CORNER_Y[corner] - s.origin[1]) * dh;
        let flipped = corner ^ s.effects as usize;
        out.push(SpriteVertex {
            position: [
                dx + s.cos * cx - s.sin * cy,
                dy + s.sin * cx + s.cos * cy,
                s.depth,
            ],
            color: s.color,
            texcoord: [sx + CORNER_X[flipped] * sw, sy + CORNER_Y[flipped] * sh],
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprite(effects: u8, rotation: f32, origin: [f32; 2]) -> Sprite {
        let (sin, cos) = rotation.sin_cos();
        Sprite {
            texture: 0,
            source: [0.0, 0.0, 1.0, 1.0],
            destination: [10.0, 20.0, 4.0, 2.0],
            origin,
            sin,
            cos,
            depth: 0.5,
            color: [255; 4],
            effects,
        }
    }

    #[test]
    fn corners_follow_destination_and_flips_swap_texcoords() {
        let mut v = Vec::new();
        push_vertices(
            &mut v,
            &sprite(SpriteEffects::FLIP_HORIZONTALLY.0, 0.0, [0.0, 0.0]),
        );
        assert_eq!(v[0].position, [10.0, 20.0, 0.5]);
        assert_eq!(v[3].position, [14.0, 22.0, 0.5]);
        assert_eq!(v[0].texcoord, [1.0, 0.0]);
        assert_eq!(v[3].texcoord, [0.0, 1.0]);
    }

    #[test]
    fn rotation_turns_about_the_origin() {
        let mut v = Vec::new();
        push_vertices(&mut v, &sprite(0, std::f32::consts::FRAC_PI_2, [0.5, 0.5]));
        // Centre (10,20); the top-left corner (-2,-1) rotated 90° lands at (1,-2) from it.
        assert!((v[0].position[0] - 11.0).abs() < 1e-5 && (v[0].position[1] - 18.0).abs() < 1e-5);
    }
}
