//! `SpriteBatch.DrawString`: a [`SpriteFont`]'s layout of a string drawn as one sprite per
//! visible glyph, all sharing the string's origin, scale, rotation, flips and layer depth.
//!
//! Each glyph's top-left corner is found in the string's own space (the layout), mirrored
//! inside the string's measured box by the flips (the whole layout is mirrored, and each glyph
//! drawn mirrored, as XNA does), moved by `-origin`, scaled, rotated by `rotation` and moved to
//! `position`; the glyph is then drawn there with the same rotation, scale and effects and a
//! zero origin.

use crate::error::{Result, XnaError};
use crate::math::{Color, Vector2};
use crate::sprites::font::SpriteFont;

use super::{placement_ok, refuse_sprite, SpriteBatch, SpriteEffects};

impl SpriteBatch {
    /// XNA's `SpriteBatch.DrawString(spriteFont, text, position, color)`: `text` with its
    /// top-left corner at `position`, tinted by `color`; the rules and errors of
    /// [`SpriteBatch::draw_string_ex`].
    pub fn draw_string(
        &mut self,
        font: &SpriteFont,
        text: &str,
        position: Vector2,
        color: Color,
    ) -> Result<()> {
        self.draw_string_ex(
            font,
            text,
            position,
            color,
            0.0,
            Vector2::ZERO,
            Vector2::ONE,
            SpriteEffects::NONE,
            0.0,
        )
    }

    /// XNA's `SpriteBatch.DrawString(spriteFont, text, position, color, rotation, origin,
    /// float scale, effects, layerDepth)`: [`SpriteBatch::draw_string_ex`] with the same scale
    /// on both axes, and its errors.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_string_ex_uniform(
        &mut self,
        font: &SpriteFont,
        text: &str,
        position: Vector2,
        color: Color,
        rotation: f32,
        origin: Vector2,
        scale: f32,
        effects: SpriteEffects,
        layer_depth: f32,
    ) -> Result<()> {
        let scale = Vector2::new(scale, scale);
        self.draw_string_ex(
            font,
            text,
            position,
            color,
            rotation,
            origin,
            scale,
            effects,
            layer_depth,
        )
    }

    /// XNA's `SpriteBatch.DrawString(spriteFont, text, position, color, rotation, origin,
    /// Vector2 scale, effects, layerDepth)`: the string laid out by the font (as
    /// [`SpriteFont::measure_string`] measures it), its point `origin` (in unscaled string
    /// pixels) placed at `position`, scaled, rotated clockwise by `rotation` radians about
    /// `origin`. `FlipHorizontally` / `FlipVertically` mirror the whole layout inside its
    /// measured box, the origin measured in the mirrored box, as XNA does. `'\n'` starts a new
    /// line, `'\r'` is skipped.
    ///
    /// Errors: outside `begin`/`end` is `InvalidOperation`; a character the font cannot resolve
    /// (no `DefaultCharacter`) is `Argument` for `text` with XNA's message, and nothing of the
    /// string is drawn; a position, rotation, origin, scale or layer depth that is not finite
    /// is `Argument` naming it; the texture rules of [`SpriteBatch::draw_ex`] apply to the
    /// font's atlas.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_string_ex(
        &mut self,
        font: &SpriteFont,
        text: &str,
        position: Vector2,
        color: Color,
        rotation: f32,
        origin: Vector2,
        scale: Vector2,
        effects: SpriteEffects,
        layer_depth: f32,
    ) -> Result<()> {
        if self.state.is_none() {
            return Err(XnaError::invalid_operation(
                "DrawString was called, but Begin has not yet been called. Begin must be called \
                 successfully before you can call DrawString.",
            ));
        }
        let given = [position.x, position.y, origin.x, origin.y, scale.x, scale.y];
        if !placement_ok(&given, rotation, layer_depth) {
            return Err(refuse_sprite(
                &[
                    ("position", &[position.x, position.y]),
                    ("rotation", &[rotation]),
                    ("origin", &[origin.x, origin.y]),
                    ("scale", &[scale.x, scale.y]),
                    ("layerDepth", &[layer_depth]),
                ],
                &[("position", &[position.x, position.y]), ("origin", &[origin.x, origin.y])],
            ));
        }
        let (glyphs, size) = font.layout(text)?;
        let flip_h = effects.contains(SpriteEffects::FLIP_HORIZONTALLY);
        let flip_v = effects.contains(SpriteEffects::FLIP_VERTICALLY);
        let (sin, cos) = if rotation == 0.0 { (0.0, 1.0) } else { crate::math::sin_cos(rotation) };
        let texture = font.texture();
        for g in glyphs {
            let (w, h) = (g.bounds.width as f32, g.bounds.height as f32);
            let x = if flip_h { size.x - (g.x + w) } else { g.x };
            let y = if flip_v { size.y - (g.y + h) } else { g.y };
            let (u, v) = ((x - origin.x) * scale.x, (y - origin.y) * scale.y);
            let at = Vector2::new(position.x + cos * u - sin * v, position.y + sin * u + cos * v);
            self.draw_ex(
                texture,
                at,
                Some(g.bounds),
                color,
                rotation,
                Vector2::ZERO,
                scale,
                effects,
                layer_depth,
            )?;
        }
        Ok(())
    }
}
