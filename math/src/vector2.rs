//! `Vector2`: two `f32`s laid out as in vertex data, with XNA's operators, interpolations and
//! transforms by a [`Matrix`] (as a point, w = 1, or as a normal, w = 0) and by a
//! [`Quaternion`], one at a time or over slices.

use crate::error::{check_destination, MathError};
use crate::vector_ops::vector_common;
use crate::{Matrix, Quaternion, Vector3};

/// XNA's `Vector2` (two `f32`s, laid out as in vertex data).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Vector2 {
    /// The x component.
    pub x: f32,
    /// The y component.
    pub y: f32,
}

vector_common!(Vector2, "Vector2", x, y);

impl Vector2 {
    /// `Vector2.Zero`.
    pub const ZERO: Vector2 = Vector2::splat(0.0);
    /// `Vector2.One`.
    pub const ONE: Vector2 = Vector2::splat(1.0);
    /// `Vector2.UnitX`.
    pub const UNIT_X: Vector2 = Vector2::new(1.0, 0.0);
    /// `Vector2.UnitY`.
    pub const UNIT_Y: Vector2 = Vector2::new(0.0, 1.0);

    /// `Vector2.Reflect(vector, normal)`: `vector − 2 (vector · normal) normal`.
    pub fn reflect(self, normal: Vector2) -> Vector2 {
        let d = self.dot(normal);
        Vector2::new(self.x - 2.0 * normal.x * d, self.y - 2.0 * normal.y * d)
    }

    /// `Vector2.Transform(position, matrix)`: the point (x, y, 0, 1) times `matrix`, without
    /// the divide by w.
    #[inline]
    pub fn transform(self, matrix: &Matrix) -> Vector2 {
        let m = &matrix.m;
        Vector2::new(
            self.x * m[0][0] + self.y * m[1][0] + m[3][0],
            self.x * m[0][1] + self.y * m[1][1] + m[3][1],
        )
    }

    /// `Vector2.TransformNormal(normal, matrix)`: the direction (x, y, 0, 0) times `matrix`.
    #[inline]
    pub fn transform_normal(self, matrix: &Matrix) -> Vector2 {
        let m = &matrix.m;
        Vector2::new(self.x * m[0][0] + self.y * m[1][0], self.x * m[0][1] + self.y * m[1][1])
    }

    /// `Vector2.Transform(value, rotation)`: the vector (x, y, 0) rotated by `rotation`, its z
    /// dropped.
    pub fn transform_quaternion(self, rotation: Quaternion) -> Vector2 {
        let v = Vector3::new(self.x, self.y, 0.0).transform_quaternion(rotation);
        Vector2::new(v.x, v.y)
    }

    /// `Vector2.Transform(sourceArray, ref matrix, destinationArray)`. XNA's overload with
    /// indices and a length is this call on sub-slices. An `ArgumentException` (`MathError::
    /// Argument`, `destinationArray`) when the destination is shorter than the source.
    pub fn transform_slice(
        source: &[Vector2],
        matrix: &Matrix,
        destination: &mut [Vector2],
    ) -> Result<(), MathError> {
        check_destination(source.len(), destination.len())?;
        for (d, s) in destination.iter_mut().zip(source) {
            *d = s.transform(matrix);
        }
        Ok(())
    }

    /// `Vector2.TransformNormal(sourceArray, ref matrix, destinationArray)`, with
    /// [`transform_slice`](Self::transform_slice)'s rule for the lengths.
    pub fn transform_normal_slice(
        source: &[Vector2],
        matrix: &Matrix,
        destination: &mut [Vector2],
    ) -> Result<(), MathError> {
        check_destination(source.len(), destination.len())?;
        for (d, s) in destination.iter_mut().zip(source) {
            *d = s.transform_normal(matrix);
        }
        Ok(())
    }

    /// `Vector2.Transform(sourceArray, ref rotation, destinationArray)`, with
    /// [`transform_slice`](Self::transform_slice)'s rule for the lengths.
    pub fn transform_quaternion_slice(
        source: &[Vector2],
        rotation: Quaternion,
        destination: &mut [Vector2],
    ) -> Result<(), MathError> {
        check_destination(source.len(), destination.len())?;
        for (d, s) in destination.iter_mut().zip(source) {
            *d = s.transform_quaternion(rotation);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_work_per_component() {
        let (a, b) = (Vector2::new(1.0, 2.0), Vector2::new(3.0, -4.0));
        assert_eq!(a + b, Vector2::new(4.0, -2.0));
        assert_eq!(a - b, Vector2::new(-2.0, 6.0));
        assert_eq!(a * b, Vector2::new(3.0, -8.0));
        assert_eq!(a * 2.0, Vector2::new(2.0, 4.0));
        assert_eq!(2.0 * a, Vector2::new(2.0, 4.0));
        assert_eq!(b / a, Vector2::new(3.0, -2.0));
        assert_eq!(b / 2.0, Vector2::new(1.5, -2.0));
        assert_eq!(-a, Vector2::new(-1.0, -2.0));
        let mut c = a;
        c += b;
        c -= a;
        c *= 2.0;
        c /= Vector2::new(2.0, 4.0);
        assert_eq!(c, Vector2::new(3.0, -2.0));
        c *= Vector2::new(2.0, 0.5);
        c /= 2.0;
        assert_eq!(c, Vector2::new(3.0, -0.5));
    }

    #[test]
    fn length_distance_and_dot_follow_the_formulas() {
        let v = Vector2::new(3.0, 4.0);
        assert_eq!(v.length(), 5.0);
        assert_eq!(v.length_squared(), 25.0);
        assert_eq!(Vector2::distance(v, Vector2::ZERO), 5.0);
        assert_eq!(Vector2::distance_squared(v, Vector2::ONE), 13.0);
        assert_eq!(Vector2::dot(v, Vector2::new(-1.0, 2.0)), 5.0);
        assert_eq!(v.normalize(), Vector2::new(0.6, 0.8));
    }

    #[test]
    fn normalizing_a_zero_vector_gives_nan_as_in_xna() {
        let n = Vector2::ZERO.normalize();
        assert!(n.x.is_nan() && n.y.is_nan());
    }

    #[test]
    fn reflect_mirrors_about_the_normal() {
        assert_eq!(Vector2::new(1.0, -1.0).reflect(Vector2::UNIT_Y), Vector2::new(1.0, 1.0));
    }

    #[test]
    fn transforms_apply_the_row_vector_convention() {
        let m = Matrix::create_scale(2.0, 3.0, 1.0) * Matrix::create_translation(5.0, 7.0, 9.0);
        assert_eq!(Vector2::new(1.0, 1.0).transform(&m), Vector2::new(7.0, 10.0));
        assert_eq!(Vector2::new(1.0, 1.0).transform_normal(&m), Vector2::new(2.0, 3.0));
        let q = Quaternion::create_from_axis_angle(
            crate::Vector3::UNIT_Z,
            crate::MathHelper::PI_OVER_2,
        );
        let r = Vector2::UNIT_X.transform_quaternion(q);
        assert!((r - Vector2::UNIT_Y).length() < 1e-6, "{r:?}");
    }

    #[test]
    fn slice_transforms_refuse_a_short_destination() {
        let m = Matrix::create_translation(1.0, 2.0, 0.0);
        let src = [Vector2::ZERO, Vector2::ONE];
        let mut short = [Vector2::ZERO; 1];
        let err = Vector2::transform_slice(&src, &m, &mut short).unwrap_err();
        assert!(matches!(err, MathError::Argument { param: "destinationArray", .. }));
        let mut dst = [Vector2::ZERO; 3];
        Vector2::transform_slice(&src, &m, &mut dst).unwrap();
        assert_eq!(dst, [Vector2::new(1.0, 2.0), Vector2::new(2.0, 3.0), Vector2::ZERO]);
        Vector2::transform_normal_slice(&src, &m, &mut dst).unwrap();
        assert_eq!(dst[1], Vector2::ONE);
        let q = Quaternion::IDENTITY;
        Vector2::transform_quaternion_slice(&src, q, &mut dst).unwrap();
        assert_eq!(dst[1], Vector2::ONE);
    }

    #[test]
    fn interpolations_match_the_scalar_helpers() {
        let (a, b) = (Vector2::new(0.0, 10.0), Vector2::new(4.0, 20.0));
        assert_eq!(a.lerp(b, 0.25), Vector2::new(1.0, 12.5));
        assert_eq!(a.smooth_step(b, 0.5), Vector2::new(2.0, 15.0));
        assert_eq!(a.barycentric(b, Vector2::ZERO, 0.5, 0.0), Vector2::new(2.0, 15.0));
        assert_eq!(a.hermite(Vector2::ZERO, b, Vector2::ZERO, 1.0), b);
        assert_eq!(Vector2::ZERO.catmull_rom(a, b, Vector2::ONE, 0.0), a);
        assert_eq!(
            Vector2::new(5.0, -5.0).clamp(Vector2::ZERO, Vector2::ONE),
            Vector2::new(1.0, 0.0)
        );
        assert_eq!(a.min(b), Vector2::new(0.0, 10.0));
        assert_eq!(a.max(b), b);
    }
}
