//! `Vector4`: four `f32`s laid out as in vertex data and as GLSL's `vec4`, with XNA's operators
//! and interpolations, and the full 4×4 transform by a [`Matrix`] (of a `Vector2` or `Vector3`
//! as a point with w = 1, or of a `Vector4` as it is) and by a [`Quaternion`].

use crate::error::{check_destination, MathError};
use crate::vector_ops::vector_common;
use crate::{Matrix, Quaternion, Vector2, Vector3};

/// XNA's `Vector4` (four `f32`s, laid out as in vertex data and as GLSL's `vec4`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Vector4 {
    /// The x component.
    pub x: f32,
    /// The y component.
    pub y: f32,
    /// The z component.
    pub z: f32,
    /// The w component.
    pub w: f32,
}

vector_common!(Vector4, "Vector4", x, y, z, w);

impl Vector4 {
    /// `Vector4.Zero`.
    pub const ZERO: Vector4 = Vector4::splat(0.0);
    /// `Vector4.One`.
    pub const ONE: Vector4 = Vector4::splat(1.0);
    /// `Vector4.UnitX`.
    pub const UNIT_X: Vector4 = Vector4::new(1.0, 0.0, 0.0, 0.0);
    /// `Vector4.UnitY`.
    pub const UNIT_Y: Vector4 = Vector4::new(0.0, 1.0, 0.0, 0.0);
    /// `Vector4.UnitZ`.
    pub const UNIT_Z: Vector4 = Vector4::new(0.0, 0.0, 1.0, 0.0);
    /// `Vector4.UnitW`.
    pub const UNIT_W: Vector4 = Vector4::new(0.0, 0.0, 0.0, 1.0);

    /// `new Vector4(value, z, w)`: a `Vector2` extended by `z` and `w`.
    pub const fn from_vector2(value: Vector2, z: f32, w: f32) -> Vector4 {
        Vector4::new(value.x, value.y, z, w)
    }

    /// `new Vector4(value, w)`: a `Vector3` extended by `w`.
    pub const fn from_vector3(value: Vector3, w: f32) -> Vector4 {
        Vector4::new(value.x, value.y, value.z, w)
    }

    /// `Vector4.Transform(vector, matrix)`: the row vector times `matrix`, all four components.
    #[inline]
    pub fn transform(self, matrix: &Matrix) -> Vector4 {
        let m = &matrix.m;
        let row =
            |i: usize| self.x * m[0][i] + self.y * m[1][i] + self.z * m[2][i] + self.w * m[3][i];
        Vector4::new(row(0), row(1), row(2), row(3))
    }

    /// `Vector4.Transform(position, matrix)` for a `Vector2`: the point (x, y, 0, 1) times
    /// `matrix`, w kept.
    pub fn transform_vector2(position: Vector2, matrix: &Matrix) -> Vector4 {
        Vector4::from_vector2(position, 0.0, 1.0).transform(matrix)
    }

    /// `Vector4.Transform(position, matrix)` for a `Vector3`: the point (x, y, z, 1) times
    /// `matrix`, w kept.
    pub fn transform_vector3(position: Vector3, matrix: &Matrix) -> Vector4 {
        Vector4::from_vector3(position, 1.0).transform(matrix)
    }

    /// `Vector4.Transform(value, rotation)`: x, y and z rotated by `rotation`, w unchanged.
    pub fn transform_quaternion(self, rotation: Quaternion) -> Vector4 {
        let v = Vector3::new(self.x, self.y, self.z).transform_quaternion(rotation);
        Vector4::from_vector3(v, self.w)
    }

    /// `Vector4.Transform(sourceArray, ref matrix, destinationArray)`. XNA's overload with
    /// indices and a length is this call on sub-slices. An `ArgumentException` (`MathError::
    /// Argument`, `destinationArray`) when the destination is shorter than the source.
    pub fn transform_slice(
        source: &[Vector4],
        matrix: &Matrix,
        destination: &mut [Vector4],
    ) -> Result<(), MathError> {
        check_destination(source.len(), destination.len())?;
        for (d, s) in destination.iter_mut().zip(source) {
            *d = s.transform(matrix);
        }
        Ok(())
    }

    /// `Vector4.Transform(sourceArray, ref rotation, destinationArray)`, with
    /// [`transform_slice`](Self::transform_slice)'s rule for the lengths.
    pub fn transform_quaternion_slice(
        source: &[Vector4],
        rotation: Quaternion,
        destination: &mut [Vector4],
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
    use crate::MathHelper;

    #[test]
    fn operators_work_per_component() {
        let (a, b) = (Vector4::new(1.0, 2.0, 3.0, 4.0), Vector4::new(2.0, 2.0, -1.0, 0.5));
        assert_eq!(a + b, Vector4::new(3.0, 4.0, 2.0, 4.5));
        assert_eq!(a - b, Vector4::new(-1.0, 0.0, 4.0, 3.5));
        assert_eq!(a * b, Vector4::new(2.0, 4.0, -3.0, 2.0));
        assert_eq!(a * 0.5, Vector4::new(0.5, 1.0, 1.5, 2.0));
        assert_eq!(a / b, Vector4::new(0.5, 1.0, -3.0, 8.0));
        assert_eq!(a / 4.0, Vector4::new(0.25, 0.5, 0.75, 1.0));
        assert_eq!(-a, Vector4::new(-1.0, -2.0, -3.0, -4.0));
        assert_eq!(a.dot(b), 5.0);
        assert_eq!(Vector4::new(1.0, 1.0, 1.0, 1.0).length(), 2.0);
        assert_eq!(Vector4::UNIT_W * 3.0 + Vector4::UNIT_X, Vector4::new(1.0, 0.0, 0.0, 3.0));
    }

    #[test]
    fn normalizing_a_zero_vector_gives_nan_as_in_xna() {
        let n = Vector4::ZERO.normalize();
        assert!(n.x.is_nan() && n.y.is_nan() && n.z.is_nan() && n.w.is_nan());
    }

    #[test]
    fn transforms_keep_w_and_apply_the_fourth_row() {
        let m = Matrix::create_translation(1.0, 2.0, 3.0);
        assert_eq!(
            Vector4::new(1.0, 1.0, 1.0, 0.0).transform(&m),
            Vector4::new(1.0, 1.0, 1.0, 0.0)
        );
        assert_eq!(
            Vector4::new(1.0, 1.0, 1.0, 2.0).transform(&m),
            Vector4::new(3.0, 5.0, 7.0, 2.0)
        );
        assert_eq!(Vector4::transform_vector2(Vector2::ONE, &m), Vector4::new(2.0, 3.0, 3.0, 1.0));
        assert_eq!(Vector4::transform_vector3(Vector3::ONE, &m), Vector4::new(2.0, 3.0, 4.0, 1.0));
        let p = Matrix::create_perspective_field_of_view(MathHelper::PI_OVER_2, 1.0, 1.0, 10.0)
            .unwrap();
        // A point on the near plane lands at clip w = 1, z = 0.
        let c = Vector4::transform_vector3(Vector3::new(0.0, 0.0, -1.0), &p);
        assert_eq!((c.z, c.w), (0.0, 1.0));
        let q = Quaternion::create_from_axis_angle(Vector3::UNIT_Z, MathHelper::PI);
        let r = Vector4::new(1.0, 0.0, 0.0, 7.0).transform_quaternion(q);
        assert!((r - Vector4::new(-1.0, 0.0, 0.0, 7.0)).length() < 1e-6);
        let mut dst = [Vector4::ZERO; 2];
        Vector4::transform_slice(&[Vector4::UNIT_W; 2], &m, &mut dst).unwrap();
        assert_eq!(dst[1], Vector4::new(1.0, 2.0, 3.0, 1.0));
        Vector4::transform_quaternion_slice(&[Vector4::UNIT_W; 2], q, &mut dst).unwrap();
        assert_eq!(dst[0], Vector4::UNIT_W);
        assert!(Vector4::transform_slice(&[Vector4::ONE; 3], &m, &mut dst).is_err());
        assert!(Vector4::transform_quaternion_slice(&[Vector4::ONE; 3], q, &mut dst).is_err());
    }
}
