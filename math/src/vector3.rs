//! `Vector3`: three `f32`s laid out as in vertex data, with XNA's operators, interpolations,
//! Cross and Reflect, and the transforms by a [`Matrix`] (as a point, w = 1, or as a normal,
//! w = 0) and by a [`Quaternion`], one at a time or over slices. XNA's space is right-handed
//! with −z forward, which the named directions spell out.

use crate::error::{check_destination, MathError};
use crate::vector_ops::vector_common;
use crate::{Matrix, Quaternion};

/// XNA's `Vector3` (three `f32`s, laid out as in vertex data).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Vector3 {
    /// The x component.
    pub x: f32,
    /// The y component.
    pub y: f32,
    /// The z component.
    pub z: f32,
}

vector_common!(Vector3, "Vector3", x, y, z);

impl Vector3 {
    /// `Vector3.Zero`.
    pub const ZERO: Vector3 = Vector3::splat(0.0);
    /// `Vector3.One`.
    pub const ONE: Vector3 = Vector3::splat(1.0);
    /// `Vector3.UnitX`.
    pub const UNIT_X: Vector3 = Vector3::new(1.0, 0.0, 0.0);
    /// `Vector3.UnitY`.
    pub const UNIT_Y: Vector3 = Vector3::new(0.0, 1.0, 0.0);
    /// `Vector3.UnitZ`.
    pub const UNIT_Z: Vector3 = Vector3::new(0.0, 0.0, 1.0);
    /// `Vector3.Up`: (0, 1, 0).
    pub const UP: Vector3 = Vector3::new(0.0, 1.0, 0.0);
    /// `Vector3.Down`: (0, −1, 0).
    pub const DOWN: Vector3 = Vector3::new(0.0, -1.0, 0.0);
    /// `Vector3.Right`: (1, 0, 0).
    pub const RIGHT: Vector3 = Vector3::new(1.0, 0.0, 0.0);
    /// `Vector3.Left`: (−1, 0, 0).
    pub const LEFT: Vector3 = Vector3::new(-1.0, 0.0, 0.0);
    /// `Vector3.Forward`: (0, 0, −1), right-handed.
    pub const FORWARD: Vector3 = Vector3::new(0.0, 0.0, -1.0);
    /// `Vector3.Backward`: (0, 0, 1).
    pub const BACKWARD: Vector3 = Vector3::new(0.0, 0.0, 1.0);

    /// `Vector3.Cross(vector1, vector2)`.
    #[inline]
    pub fn cross(self, o: Vector3) -> Vector3 {
        Vector3::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }

    /// `Vector3.Reflect(vector, normal)`: `vector − 2 (vector · normal) normal`.
    pub fn reflect(self, normal: Vector3) -> Vector3 {
        let d = self.dot(normal);
        self - normal * (2.0 * d)
    }

    /// `Vector3.Transform(position, matrix)`: the point (x, y, z, 1) times `matrix`, without
    /// the divide by w.
    #[inline]
    pub fn transform(self, matrix: &Matrix) -> Vector3 {
        let m = &matrix.m;
        Vector3::new(
            self.x * m[0][0] + self.y * m[1][0] + self.z * m[2][0] + m[3][0],
            self.x * m[0][1] + self.y * m[1][1] + self.z * m[2][1] + m[3][1],
            self.x * m[0][2] + self.y * m[1][2] + self.z * m[2][2] + m[3][2],
        )
    }

    /// `Vector3.TransformNormal(normal, matrix)`: the direction (x, y, z, 0) times `matrix`.
    #[inline]
    pub fn transform_normal(self, matrix: &Matrix) -> Vector3 {
        let m = &matrix.m;
        Vector3::new(
            self.x * m[0][0] + self.y * m[1][0] + self.z * m[2][0],
            self.x * m[0][1] + self.y * m[1][1] + self.z * m[2][1],
            self.x * m[0][2] + self.y * m[1][2] + self.z * m[2][2],
        )
    }

    /// `Vector3.Transform(value, rotation)`: `value` rotated by the unit quaternion
    /// `rotation` (`q v q*`, in XNA's expanded form).
    #[inline]
    pub fn transform_quaternion(self, rotation: Quaternion) -> Vector3 {
        let q = rotation;
        let x = 2.0 * (q.y * self.z - q.z * self.y);
        let y = 2.0 * (q.z * self.x - q.x * self.z);
        let z = 2.0 * (q.x * self.y - q.y * self.x);
        Vector3::new(
            self.x + x * q.w + (q.y * z - q.z * y),
            self.y + y * q.w + (q.z * x - q.x * z),
            self.z + z * q.w + (q.x * y - q.y * x),
        )
    }

    /// `Vector3.Transform(sourceArray, ref matrix, destinationArray)`. XNA's overload with
    /// indices and a length is this call on sub-slices. An `ArgumentException` (`MathError::
    /// Argument`, `destinationArray`) when the destination is shorter than the source.
    pub fn transform_slice(
        source: &[Vector3],
        matrix: &Matrix,
        destination: &mut [Vector3],
    ) -> Result<(), MathError> {
        check_destination(source.len(), destination.len())?;
        for (d, s) in destination.iter_mut().zip(source) {
            *d = s.transform(matrix);
        }
        Ok(())
    }

    /// `Vector3.TransformNormal(sourceArray, ref matrix, destinationArray)`, with
    /// [`transform_slice`](Self::transform_slice)'s rule for the lengths.
    pub fn transform_normal_slice(
        source: &[Vector3],
        matrix: &Matrix,
        destination: &mut [Vector3],
    ) -> Result<(), MathError> {
        check_destination(source.len(), destination.len())?;
        for (d, s) in destination.iter_mut().zip(source) {
            *d = s.transform_normal(matrix);
        }
        Ok(())
    }

    /// `Vector3.Transform(sourceArray, ref rotation, destinationArray)`, with
    /// [`transform_slice`](Self::transform_slice)'s rule for the lengths.
    pub fn transform_quaternion_slice(
        source: &[Vector3],
        rotation: Quaternion,
        destination: &mut [Vector3],
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

    fn close(a: Vector3, b: Vector3, tolerance: f32) -> bool {
        (a - b).length() <= tolerance
    }

    #[test]
    fn operators_work_per_component() {
        let (a, b) = (Vector3::new(1.0, 2.0, 3.0), Vector3::new(4.0, -2.0, 0.5));
        assert_eq!(a + b, Vector3::new(5.0, 0.0, 3.5));
        assert_eq!(a - b, Vector3::new(-3.0, 4.0, 2.5));
        assert_eq!(a * b, Vector3::new(4.0, -4.0, 1.5));
        assert_eq!(a * 2.0, Vector3::new(2.0, 4.0, 6.0));
        assert_eq!(0.5 * a, Vector3::new(0.5, 1.0, 1.5));
        assert_eq!(b / a, Vector3::new(4.0, -1.0, 0.5 / 3.0));
        assert_eq!(a / 2.0, Vector3::new(0.5, 1.0, 1.5));
        assert_eq!(-a, Vector3::new(-1.0, -2.0, -3.0));
        let mut c = a;
        c += b;
        c -= Vector3::ONE;
        c *= 2.0;
        assert_eq!(c, Vector3::new(8.0, -2.0, 5.0));
        c /= 2.0;
        c *= Vector3::new(1.0, 2.0, 2.0);
        c /= Vector3::new(4.0, 1.0, 5.0);
        assert_eq!(c, Vector3::new(1.0, -2.0, 1.0));
    }

    #[test]
    fn named_directions_are_right_handed() {
        assert_eq!(Vector3::RIGHT.cross(Vector3::UP), Vector3::BACKWARD);
        assert_eq!(Vector3::UP.cross(Vector3::BACKWARD), Vector3::RIGHT);
        assert_eq!(-Vector3::FORWARD, Vector3::BACKWARD);
        assert_eq!(-Vector3::LEFT, Vector3::RIGHT);
        assert_eq!(-Vector3::DOWN, Vector3::UP);
        assert_eq!(Vector3::UNIT_X.cross(Vector3::UNIT_Y), Vector3::UNIT_Z);
    }

    #[test]
    fn dot_cross_length_and_distance_follow_the_formulas() {
        let (a, b) = (Vector3::new(1.0, 2.0, 3.0), Vector3::new(4.0, 5.0, 6.0));
        assert_eq!(a.dot(b), 32.0);
        assert_eq!(a.cross(b), Vector3::new(-3.0, 6.0, -3.0));
        assert_eq!(Vector3::new(2.0, 3.0, 6.0).length(), 7.0);
        assert_eq!(a.distance_squared(b), 27.0);
        assert_eq!(Vector3::new(1.0, 4.0, 8.0).distance(Vector3::ZERO), 9.0);
        assert_eq!(Vector3::new(0.0, 0.0, -5.0).normalize(), Vector3::FORWARD);
    }

    #[test]
    fn normalizing_a_zero_vector_gives_nan_as_in_xna() {
        let n = Vector3::ZERO.normalize();
        assert!(n.x.is_nan() && n.y.is_nan() && n.z.is_nan());
    }

    #[test]
    fn reflect_mirrors_about_the_normal() {
        let r = Vector3::new(1.0, -2.0, 3.0).reflect(Vector3::UP);
        assert_eq!(r, Vector3::new(1.0, 2.0, 3.0));
    }

    #[test]
    fn transforms_apply_the_row_vector_convention() {
        let m = Matrix::create_rotation_z(MathHelper::PI_OVER_2)
            * Matrix::create_translation(10.0, 0.0, 0.0);
        // Rotate first ((1,0,0) → (0,1,0)), then translate.
        assert!(close(Vector3::UNIT_X.transform(&m), Vector3::new(10.0, 1.0, 0.0), 1e-6));
        assert!(close(Vector3::UNIT_X.transform_normal(&m), Vector3::UNIT_Y, 1e-6));
        let q = Quaternion::create_from_axis_angle(Vector3::UNIT_Y, MathHelper::PI_OVER_2);
        // A quarter turn about +y takes +x to −z (right-handed).
        assert!(close(Vector3::UNIT_X.transform_quaternion(q), Vector3::FORWARD, 1e-6));
        let by_matrix = Vector3::new(1.0, 2.0, 3.0).transform(&Matrix::create_from_quaternion(q));
        assert!(close(Vector3::new(1.0, 2.0, 3.0).transform_quaternion(q), by_matrix, 1e-5));
    }

    #[test]
    fn slice_transforms_match_the_single_forms_and_refuse_a_short_destination() {
        let m = Matrix::create_scale(2.0, 3.0, 4.0) * Matrix::create_translation(1.0, 1.0, 1.0);
        let src: Vec<Vector3> = (0..5).map(|i| Vector3::new(i as f32, 1.0, -1.0)).collect();
        let mut dst = vec![Vector3::ZERO; 5];
        Vector3::transform_slice(&src, &m, &mut dst).unwrap();
        assert!(src.iter().zip(&dst).all(|(s, d)| s.transform(&m) == *d));
        Vector3::transform_normal_slice(&src, &m, &mut dst).unwrap();
        assert!(src.iter().zip(&dst).all(|(s, d)| s.transform_normal(&m) == *d));
        let q = Quaternion::create_from_yaw_pitch_roll(0.3, 0.2, 0.1);
        Vector3::transform_quaternion_slice(&src, q, &mut dst).unwrap();
        assert!(src.iter().zip(&dst).all(|(s, d)| s.transform_quaternion(q) == *d));
        let err = Vector3::transform_slice(&src, &m, &mut dst[..4]).unwrap_err();
        assert!(matches!(err, MathError::Argument { param: "destinationArray", .. }));
        assert!(Vector3::transform_normal_slice(&src, &m, &mut []).is_err());
        assert!(Vector3::transform_quaternion_slice(&src, q, &mut []).is_err());
    }

    #[test]
    fn interpolations_match_the_scalar_helpers() {
        let (a, b) = (Vector3::new(0.0, 10.0, -4.0), Vector3::new(4.0, 20.0, 4.0));
        assert_eq!(a.lerp(b, 0.5), Vector3::new(2.0, 15.0, 0.0));
        assert_eq!(a.smooth_step(b, 0.5), Vector3::new(2.0, 15.0, 0.0));
        assert_eq!(a.smooth_step(b, 2.0), b);
        assert_eq!(a.hermite(Vector3::ZERO, b, Vector3::ZERO, 0.0), a);
        assert_eq!(Vector3::ZERO.catmull_rom(a, b, Vector3::ONE, 1.0), b);
        assert_eq!(Vector3::ZERO.barycentric(a, b, 0.5, 0.5), Vector3::new(2.0, 15.0, 0.0));
        let c = Vector3::new(-1.0, 0.5, 9.0).clamp(Vector3::ZERO, Vector3::ONE);
        assert_eq!(c, Vector3::new(0.0, 0.5, 1.0));
        assert_eq!(a.min(b), a);
        assert_eq!(a.max(b), b);
    }
}
