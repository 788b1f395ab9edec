//! `Quaternion`: XNA's rotation quaternion (x, y, z vector part, w scalar part), its
//! constructors (axis and angle, yaw/pitch/roll, rotation matrix), the interpolations (Slerp
//! along the shorter arc, normalized Lerp), Concatenate, Inverse, Conjugate, Normalize and the
//! operators. `a * b` is the Hamilton product, which rotates by `b` first, then `a`;
//! `Concatenate(a, b)` is `b * a`, so it applies `a` first, the order of `Matrix` products.

use crate::{Matrix, Vector3};

/// XNA's `Quaternion`: four `f32`s, x, y, z, w.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Quaternion {
    /// The x component of the vector part.
    pub x: f32,
    /// The y component of the vector part.
    pub y: f32,
    /// The z component of the vector part.
    pub z: f32,
    /// The scalar part.
    pub w: f32,
}

impl Quaternion {
    /// `Quaternion.Identity`: (0, 0, 0, 1), no rotation.
    pub const IDENTITY: Quaternion = Quaternion::new(0.0, 0.0, 0.0, 1.0);

    /// `new Quaternion(x, y, z, w)`.
    pub const fn new(x: f32, y: f32, z: f32, w: f32) -> Self {
        Quaternion { x, y, z, w }
    }

    /// `new Quaternion(vectorPart, scalarPart)`.
    pub const fn from_vector(vector_part: Vector3, scalar_part: f32) -> Self {
        Quaternion::new(vector_part.x, vector_part.y, vector_part.z, scalar_part)
    }

    /// `Quaternion.CreateFromAxisAngle(axis, angle)`: `angle` radians about the unit vector
    /// `axis` (not normalized here, as in XNA).
    pub fn create_from_axis_angle(axis: Vector3, angle: f32) -> Quaternion {
        let (s, c) = (angle * 0.5).sin_cos();
        Quaternion::new(axis.x * s, axis.y * s, axis.z * s, c)
    }

    /// `Quaternion.CreateFromYawPitchRoll(yaw, pitch, roll)`: roll about z, then pitch about
    /// x, then yaw about y.
    pub fn create_from_yaw_pitch_roll(yaw: f32, pitch: f32, roll: f32) -> Quaternion {
        let (sr, cr) = (roll * 0.5).sin_cos();
        let (sp, cp) = (pitch * 0.5).sin_cos();
        let (sy, cy) = (yaw * 0.5).sin_cos();
        Quaternion::new(
            cy * sp * cr + sy * cp * sr,
            sy * cp * cr - cy * sp * sr,
            cy * cp * sr - sy * sp * cr,
            cy * cp * cr + sy * sp * sr,
        )
    }

    /// `Quaternion.CreateFromRotationMatrix(matrix)`: the rotation of the upper 3×3 of an
    /// orthonormal matrix, by Shoemake's method (the largest diagonal term picks the branch).
    pub fn create_from_rotation_matrix(matrix: &Matrix) -> Quaternion {
        let m = &matrix.m;
        let trace = m[0][0] + m[1][1] + m[2][2];
        if trace > 0.0 {
            let s = (trace + 1.0).sqrt();
            let h = 0.5 / s;
            Quaternion::new(
                (m[1][2] - m[2][1]) * h,
                (m[2][0] - m[0][2]) * h,
                (m[0][1] - m[1][0]) * h,
                s * 0.5,
            )
        } else if m[0][0] >= m[1][1] && m[0][0] >= m[2][2] {
            let s = (1.0 + m[0][0] - m[1][1] - m[2][2]).sqrt();
            let h = 0.5 / s;
            Quaternion::new(
                0.5 * s,
                (m[0][1] + m[1][0]) * h,
                (m[0][2] + m[2][0]) * h,
                (m[1][2] - m[2][1]) * h,
            )
        } else if m[1][1] > m[2][2] {
            let s = (1.0 + m[1][1] - m[0][0] - m[2][2]).sqrt();
            let h = 0.5 / s;
            Quaternion::new(
                (m[1][0] + m[0][1]) * h,
                0.5 * s,
                (m[2][1] + m[1][2]) * h,
                (m[2][0] - m[0][2]) * h,
            )
        } else {
            let s = (1.0 + m[2][2] - m[0][0] - m[1][1]).sqrt();
            let h = 0.5 / s;
            Quaternion::new(
                (m[2][0] + m[0][2]) * h,
                (m[2][1] + m[1][2]) * h,
                0.5 * s,
                (m[0][1] - m[1][0]) * h,
            )
        }
    }

    /// `Quaternion.Dot(quaternion1, quaternion2)`.
    pub fn dot(self, o: Quaternion) -> f32 {
        self.x * o.x + self.y * o.y + self.z * o.z + self.w * o.w
    }

    /// `Quaternion.LengthSquared()`.
    pub fn length_squared(self) -> f32 {
        self.dot(self)
    }

    /// `Quaternion.Length()`.
    pub fn length(self) -> f32 {
        self.length_squared().sqrt()
    }

    /// `Quaternion.Normalize(quaternion)`: divided by its length; a zero quaternion gives NaNs,
    /// as in XNA.
    pub fn normalize(self) -> Quaternion {
        self * (1.0 / self.length())
    }

    /// `Quaternion.Conjugate(value)`: the vector part negated.
    pub fn conjugate(self) -> Quaternion {
        Quaternion::new(-self.x, -self.y, -self.z, self.w)
    }

    /// `Quaternion.Inverse(quaternion)`: the conjugate divided by the squared length.
    pub fn inverse(self) -> Quaternion {
        let r = 1.0 / self.length_squared();
        Quaternion::new(-self.x * r, -self.y * r, -self.z * r, self.w * r)
    }

    /// `Quaternion.Concatenate(value1, value2)`: rotate by `value1`, then by `value2`
    /// (`value2 * value1`).
    pub fn concatenate(value1: Quaternion, value2: Quaternion) -> Quaternion {
        value2 * value1
    }

    /// `Quaternion.Lerp(quaternion1, quaternion2, amount)`: the normalized linear blend, with
    /// `quaternion2` negated when the two lie in opposite hemispheres so the blend takes the
    /// shorter arc.
    pub fn lerp(self, quaternion2: Quaternion, amount: f32) -> Quaternion {
        let a = 1.0 - amount;
        let b = if self.dot(quaternion2) >= 0.0 { amount } else { -amount };
        (self * a + quaternion2 * b).normalize()
    }

    /// `Quaternion.Slerp(quaternion1, quaternion2, amount)`: spherical interpolation along the
    /// shorter arc (`quaternion2` is negated when the dot product is negative). Within 1e-6 of
    /// parallel it blends linearly, unnormalized, as XNA does. Between exactly opposite
    /// quaternions (the same rotation) the result is `quaternion1`'s rotation throughout.
    pub fn slerp(self, quaternion2: Quaternion, amount: f32) -> Quaternion {
        let mut cos = self.dot(quaternion2);
        let sign = if cos < 0.0 {
            cos = -cos;
            -1.0
        } else {
            1.0
        };
        let (a, b) = if cos > 0.999_999 {
            (1.0 - amount, amount * sign)
        } else {
            let angle = cos.acos();
            let inv_sin = 1.0 / angle.sin();
            (((1.0 - amount) * angle).sin() * inv_sin, sign * (amount * angle).sin() * inv_sin)
        };
        self * a + quaternion2 * b
    }
}

impl std::ops::Add for Quaternion {
    type Output = Quaternion;
    /// `quaternion1 + quaternion2` (`Quaternion.Add`), component by component.
    fn add(self, o: Quaternion) -> Quaternion {
        Quaternion::new(self.x + o.x, self.y + o.y, self.z + o.z, self.w + o.w)
    }
}

impl std::ops::Sub for Quaternion {
    type Output = Quaternion;
    /// `quaternion1 - quaternion2` (`Quaternion.Subtract`), component by component.
    fn sub(self, o: Quaternion) -> Quaternion {
        Quaternion::new(self.x - o.x, self.y - o.y, self.z - o.z, self.w - o.w)
    }
}

impl std::ops::Mul for Quaternion {
    type Output = Quaternion;
    /// `quaternion1 * quaternion2` (`Quaternion.Multiply`): the Hamilton product, rotating by
    /// `quaternion2` first.
    fn mul(self, o: Quaternion) -> Quaternion {
        let (x, y, z, w) = (self.x, self.y, self.z, self.w);
        let cx = y * o.z - z * o.y;
        let cy = z * o.x - x * o.z;
        let cz = x * o.y - y * o.x;
        let d = x * o.x + y * o.y + z * o.z;
        Quaternion::new(
            x * o.w + o.x * w + cx,
            y * o.w + o.y * w + cy,
            z * o.w + o.z * w + cz,
            w * o.w - d,
        )
    }
}

impl std::ops::Mul<f32> for Quaternion {
    type Output = Quaternion;
    /// `quaternion * scaleFactor`, every component scaled.
    fn mul(self, s: f32) -> Quaternion {
        Quaternion::new(self.x * s, self.y * s, self.z * s, self.w * s)
    }
}

impl std::ops::Div for Quaternion {
    type Output = Quaternion;
    /// `quaternion1 / quaternion2` (`Quaternion.Divide`): `quaternion1 * quaternion2⁻¹`.
    // Division by a quaternion is the product with its inverse.
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn div(self, o: Quaternion) -> Quaternion {
        self * o.inverse()
    }
}

impl std::ops::Neg for Quaternion {
    type Output = Quaternion;
    /// `-quaternion` (`Quaternion.Negate`): every component negated (the same rotation).
    fn neg(self) -> Quaternion {
        Quaternion::new(-self.x, -self.y, -self.z, -self.w)
    }
}

impl std::ops::AddAssign for Quaternion {
    fn add_assign(&mut self, o: Quaternion) {
        *self = *self + o;
    }
}

impl std::ops::SubAssign for Quaternion {
    fn sub_assign(&mut self, o: Quaternion) {
        *self = *self - o;
    }
}

impl std::ops::MulAssign for Quaternion {
    fn mul_assign(&mut self, o: Quaternion) {
        *self = *self * o;
    }
}

impl std::ops::MulAssign<f32> for Quaternion {
    fn mul_assign(&mut self, s: f32) {
        *self = *self * s;
    }
}

impl std::ops::DivAssign for Quaternion {
    fn div_assign(&mut self, o: Quaternion) {
        *self = *self / o;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MathHelper;

    fn near(a: Quaternion, b: Quaternion, tolerance: f32) -> bool {
        (a - b).length() <= tolerance
    }

    #[test]
    fn axis_angle_gives_half_angle_components() {
        let q = Quaternion::create_from_axis_angle(Vector3::UNIT_Z, MathHelper::PI_OVER_2);
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert!(near(q, Quaternion::new(0.0, 0.0, h, h), 1e-7));
        assert_eq!(Quaternion::create_from_axis_angle(Vector3::UNIT_X, 0.0), Quaternion::IDENTITY);
    }

    #[test]
    fn yaw_pitch_roll_is_roll_then_pitch_then_yaw() {
        let (yaw, pitch, roll) = (0.3, -0.7, 1.1);
        let q = Quaternion::create_from_yaw_pitch_roll(yaw, pitch, roll);
        let composed = Quaternion::create_from_axis_angle(Vector3::UNIT_Y, yaw)
            * Quaternion::create_from_axis_angle(Vector3::UNIT_X, pitch)
            * Quaternion::create_from_axis_angle(Vector3::UNIT_Z, roll);
        assert!(near(q, composed, 1e-6), "{q:?} vs {composed:?}");
        let m = Matrix::create_rotation_z(roll)
            * Matrix::create_rotation_x(pitch)
            * Matrix::create_rotation_y(yaw);
        let from_q = Matrix::create_from_yaw_pitch_roll(yaw, pitch, roll);
        assert!(crate::matrix::tests::near(&m, &from_q, 1e-6));
    }

    #[test]
    fn rotation_matrix_round_trips_on_every_branch() {
        // Trace > 0, and each of the three diagonal branches (half turns about x, y, z).
        let cases = [
            Quaternion::create_from_yaw_pitch_roll(0.4, 0.2, -0.3),
            Quaternion::create_from_axis_angle(Vector3::UNIT_X, 3.0),
            Quaternion::create_from_axis_angle(Vector3::UNIT_Y, 3.0),
            Quaternion::create_from_axis_angle(Vector3::UNIT_Z, 3.0),
        ];
        for q in cases {
            let back = Quaternion::create_from_rotation_matrix(&Matrix::create_from_quaternion(q));
            assert!(near(back, q, 1e-6) || near(back, -q, 1e-6), "{q:?} gave {back:?}");
        }
    }

    #[test]
    fn product_rotates_by_the_right_operand_first_and_concatenate_by_the_left() {
        let a = Quaternion::create_from_axis_angle(Vector3::UNIT_Z, 0.5);
        let b = Quaternion::create_from_axis_angle(Vector3::UNIT_X, 1.2);
        let ma = Matrix::create_from_quaternion(a);
        let mb = Matrix::create_from_quaternion(b);
        assert!(crate::matrix::tests::near(
            &Matrix::create_from_quaternion(a * b),
            &(mb * ma),
            1e-6
        ));
        let c = Quaternion::concatenate(a, b);
        assert!(crate::matrix::tests::near(&Matrix::create_from_quaternion(c), &(ma * mb), 1e-6));
        // Hamilton's i·j = k.
        let (i, j) = (Quaternion::new(1.0, 0.0, 0.0, 0.0), Quaternion::new(0.0, 1.0, 0.0, 0.0));
        assert_eq!(i * j, Quaternion::new(0.0, 0.0, 1.0, 0.0));
        assert_eq!(j * i, Quaternion::new(0.0, 0.0, -1.0, 0.0));
    }

    #[test]
    fn inverse_conjugate_and_division() {
        let q = Quaternion::new(1.0, 2.0, 3.0, 4.0);
        assert_eq!(q.conjugate(), Quaternion::new(-1.0, -2.0, -3.0, 4.0));
        assert_eq!(q.length_squared(), 30.0);
        assert!(near(q * q.inverse(), Quaternion::IDENTITY, 1e-6));
        assert!(near(q / q, Quaternion::IDENTITY, 1e-6));
        assert!(near(q.normalize(), q * (1.0 / 30f32.sqrt()), 1e-7));
        let z = Quaternion::default().normalize();
        assert!(z.x.is_nan() && z.w.is_nan());
        let mut m = q;
        m += q;
        m -= q;
        m *= 2.0;
        m *= Quaternion::IDENTITY;
        m /= Quaternion::IDENTITY;
        assert_eq!(m, q * 2.0);
        assert_eq!(-q, Quaternion::new(-1.0, -2.0, -3.0, -4.0));
    }

    #[test]
    fn slerp_at_zero_and_one_returns_the_end_points() {
        let a = Quaternion::create_from_axis_angle(Vector3::UNIT_Y, 0.2);
        let b = Quaternion::create_from_axis_angle(Vector3::UNIT_Y, 1.4);
        assert!(near(a.slerp(b, 0.0), a, 1e-7));
        assert!(near(a.slerp(b, 1.0), b, 1e-6));
        let mid = a.slerp(b, 0.5);
        assert!(near(mid, Quaternion::create_from_axis_angle(Vector3::UNIT_Y, 0.8), 1e-6));
        assert!((mid.length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn slerp_takes_the_shorter_arc() {
        let a = Quaternion::create_from_axis_angle(Vector3::UNIT_Y, 0.2);
        let b = -Quaternion::create_from_axis_angle(Vector3::UNIT_Y, 1.4);
        // −b is the same rotation as b: halfway is still 0.8 rad, not the long way round.
        let mid = a.slerp(b, 0.5);
        assert!(
            near(mid, Quaternion::create_from_axis_angle(Vector3::UNIT_Y, 0.8), 1e-6),
            "{mid:?}"
        );
        let l = a.lerp(b, 0.5);
        assert!(near(l, Quaternion::create_from_axis_angle(Vector3::UNIT_Y, 0.8), 1e-6), "{l:?}");
    }

    #[test]
    fn slerp_between_opposite_quaternions_stays_on_the_rotation() {
        let a = Quaternion::create_from_axis_angle(Vector3::UNIT_X, 0.9);
        // −a is the same rotation: the dot is −1, negated to 1, so the blend is linear and
        // a·(1 − t) + (−a)·(−t) = a for every t.
        for t in [0.0, 0.25, 0.5, 1.0] {
            assert!(near(a.slerp(-a, t), a, 1e-6), "t = {t}");
        }
    }
}
