//! Drawing a cube through the stock cube-sampling stage.
//!
//! XNA samples a `TextureCube` only through a custom effect; here the stock stage
//! `cube_sample.frag` does it for SpriteBatch. The sprite's tint carries the lookup direction
//! (each component of the unit direction mapped from [-1, 1] to a byte of [0, 1]), so the
//! sprite goes through the batch's ordinary queue, sorting and states; only its run's shader
//! differs.

use crate::error::{Result, XnaError};
use crate::finite::check_finite;
use crate::math::{Color, Rectangle, Vector3};
use crate::resources::cube::TextureCube;

use super::geometry::{normalised_source, Geometry};
use super::{SpriteBatch, SpriteEffects};

/// `direction`, normalised, as the tint bytes `cube_sample.frag` decodes (`byte / 255 * 2 - 1`
/// per component). `Argument` on `direction` when it is not finite or is the zero vector.
fn encode_direction(direction: Vector3) -> Result<Color> {
    let Vector3 { x, y, z } = direction;
    check_finite(&[("direction", &[x, y, z])])?;
    // Scaled by the largest component first, so a huge finite vector's length cannot overflow.
    let largest = x.abs().max(y.abs()).max(z.abs());
    if largest == 0.0 {
        return Err(XnaError::argument("direction", "The direction must not be the zero vector."));
    }
    let [x, y, z] = [x / largest, y / largest, z / largest];
    let length = (x * x + y * y + z * z).sqrt();
    let byte = |c: f32| ((c / length * 0.5 + 0.5) * 255.0).round().clamp(0.0, 255.0) as u8;
    Ok(Color::new(byte(x), byte(y), byte(z), 255))
}

impl SpriteBatch {
    /// Draws `destination` filled with the texel of `cube` that the direction `direction` (from
    /// the cube's centre) meets, through the stock cube-sampling stage: the texture-cube lookup
    /// an XNA game writes in a custom effect, here available without one. Valid between `begin`
    /// and `end` like `Draw`, with the batch's sort mode, blend, sampler, depth/stencil and
    /// rasterizer states; the texel is not tinted. The direction is normalised and carried in
    /// 8 bits per component, so it is exact to about 1/128 of a face's half-width.
    ///
    /// Not part of XNA. Errors as `Draw`'s (`InvalidOperation` outside `begin`/`end`, for a
    /// cube of another device, and at `end` for a cube bound as a render target, whose content
    /// must be resolved before it can be sampled; `ObjectDisposed` for a disposed cube), and:
    /// `Argument` on `direction` when it is the zero vector or not finite; `InvalidOperation`
    /// in a batch begun with an effect ([`SpriteBatchEffect`](crate::SpriteBatchEffect)), which
    /// cannot sample a cube.
    pub fn draw_cube_direction(
        &mut self,
        cube: &TextureCube,
        destination: Rectangle,
        direction: Vector3,
    ) -> Result<()> {
        if self.state.is_some() && (self.effect.is_some() || self.geometry.is_some()) {
            return Err(XnaError::invalid_operation(
                "A cube cannot be drawn in a SpriteBatch begun with an effect (a custom effect or a \
                 stock geometry effect).",
            ));
        }
        let color = encode_direction(direction)?;
        let size = cube.size() as f32;
        let (source, _, _) = normalised_source(None, size, size);
        let destination = [
            destination.x as f32,
            destination.y as f32,
            destination.width as f32,
            destination.height as f32,
        ];
        let geometry = Geometry { destination, offset: [0.0, 0.0], rotation: 0.0 };
        self.push(&cube.core, true, source, geometry, color, SpriteEffects::NONE, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_direction_maps_unit_axes_to_byte_ends_and_middle() {
        let c = encode_direction(Vector3::new(-3.0, 0.0, 0.0)).unwrap();
        assert_eq!([c.r, c.g, c.b, c.a], [0, 128, 128, 255]);
        let c = encode_direction(Vector3::new(0.0, 0.0, 1e38)).unwrap();
        assert_eq!([c.r, c.g, c.b], [128, 128, 255]);
    }

    #[test]
    fn encode_direction_refuses_zero_and_non_finite_naming_direction() {
        for bad in
            [Vector3::ZERO, Vector3::new(f32::NAN, 1.0, 0.0), Vector3::new(0.0, f32::INFINITY, 0.0)]
        {
            match encode_direction(bad) {
                Err(XnaError::Argument { param, .. }) => assert_eq!(param, "direction"),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
    }
}
