//! XNA's shorter `SpriteBatch.Draw` overloads: each fills in XNA's defaults for the arguments
//! it lacks and draws what the full [`SpriteBatch::draw_ex`] or [`SpriteBatch::draw_rect_ex`]
//! draws with them. `draw` (position and colour only) checks just its position and places the
//! sprite itself, since it is the overload games call most.

use crate::error::Result;
use crate::math::{Color, Rectangle, Vector2};
use crate::resources::texture::Texture2D;

use super::{placement_ok, refuse_sprite, Geometry, SpriteBatch, SpriteEffects, SpriteOptions};

impl SpriteBatch {
    /// XNA's `SpriteBatch.Draw(texture, position, color)`: [`SpriteBatch::draw_ex`] with the
    /// whole texture, no rotation, origin or flip, scale 1 and depth 0, of which only the
    /// position needs checking (the size is the texture's). Errors: those of every draw.
    #[inline]
    pub fn draw(&mut self, texture: &Texture2D, position: Vector2, color: Color) -> Result<()> {
        let (x, y) = (position.x, position.y);
        if !placement_ok(&[x, y, 0.0, 0.0, 0.0, 0.0], 0.0, 0.0) {
            return Err(refuse_sprite(&[("position", &[x, y])], &[("position", &[x, y])]));
        }
        let size = [texture.width() as f32, texture.height() as f32];
        let geometry =
            Geometry { destination: [x, y, size[0], size[1]], offset: [0.0; 2], rotation: 0.0 };
        let whole = [0.0, 0.0, 1.0, 1.0];
        self.push(&texture.core, false, whole, geometry, color, SpriteEffects::NONE, 0.0)
    }

    /// XNA's `SpriteBatch.Draw(texture, position, sourceRectangle, color)`: the `source`
    /// rectangle of the texture (`None`: all of it) at its size, its top-left corner at
    /// `position`; the rules and errors of [`SpriteBatch::draw_ex`] apply.
    #[inline]
    pub fn draw_source(
        &mut self,
        texture: &Texture2D,
        position: Vector2,
        source: Option<Rectangle>,
        color: Color,
    ) -> Result<()> {
        self.draw_ex(
            texture,
            position,
            source,
            color,
            0.0,
            Vector2::ZERO,
            Vector2::ONE,
            SpriteEffects::NONE,
            0.0,
        )
    }

    /// XNA's `SpriteBatch.Draw(texture, position, sourceRectangle, color, rotation, origin,
    /// float scale, effects, layerDepth)`: [`SpriteBatch::draw_ex`] with the same scale on
    /// both axes, and its errors.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn draw_ex_uniform(
        &mut self,
        texture: &Texture2D,
        position: Vector2,
        source: Option<Rectangle>,
        color: Color,
        rotation: f32,
        origin: Vector2,
        scale: f32,
        effects: SpriteEffects,
        layer_depth: f32,
    ) -> Result<()> {
        let scale = Vector2::new(scale, scale);
        self.draw_ex(
            texture,
            position,
            source,
            color,
            rotation,
            origin,
            scale,
            effects,
            layer_depth,
        )
    }

    /// XNA's `SpriteBatch.Draw(texture, destinationRectangle, color)`: the whole texture
    /// stretched over `destination`. Errors: those of every draw.
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

    /// XNA's `SpriteBatch.Draw(texture, destinationRectangle, sourceRectangle, color)`.
    /// Errors: those of every draw.
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

    /// XNA's `SpriteBatch.Draw(texture, position, ...)` with the other arguments by name, a
    /// Rust form of the overload (the arguments in [`SpriteOptions`]; its `Default` is
    /// `Draw(texture, position, Color.White)`): the same sprite, rules and errors as
    /// [`SpriteBatch::draw_ex`] given the same values.
    #[inline(always)]
    pub fn draw_with(
        &mut self,
        texture: &Texture2D,
        position: Vector2,
        options: &SpriteOptions,
    ) -> Result<()> {
        let o = *options;
        self.draw_ex(
            texture,
            position,
            o.source,
            o.color,
            o.rotation,
            o.origin,
            o.scale,
            o.effects,
            o.layer_depth,
        )
    }
}
