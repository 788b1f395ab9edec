//! `Matrix`: XNA's 4×4 `f32` matrix in its conventions: row vectors multiplied on the left
//! (`v * M`, so `A * B` applies `A` first), stored row-major as M11…M44 with the translation in
//! the fourth row. This file holds the type, its operators, the element-wise statics (Add,
//! Subtract, Multiply, Divide, Negate, Lerp), Transpose, Determinant, Invert and the basis
//! accessors (Up, Forward, Translation…); `create.rs` builds the transforms and projections and
//! `decompose.rs` splits one into scale, rotation and translation.
//!
//! xnagraph differs from XNA in one spelling: XNA's fields `M11`…`M44` are the elements of
//! [`Matrix::m`], `Mrc` being `m[r − 1][c − 1]`, so a row is one `[f32; 4]` and the layout is
//! the same sixteen floats.

mod create;
mod decompose;

use crate::Vector3;

/// XNA's `Matrix`: row-vector convention (`v * M`), stored row-major as XNA's M11…M44.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Matrix {
    /// `m[row][column]`: `m[0][0]` is XNA's M11, `m[3]` holds the translation (M41, M42, M43).
    pub m: [[f32; 4]; 4],
}

impl Default for Matrix {
    /// The identity, which XNA's `new Matrix()` is not (it is all zeros): a default transform
    /// that leaves everything in place is what the engine's effects want.
    fn default() -> Self {
        Matrix::IDENTITY
    }
}

/// `a * b`: each output row is the sum of `b`'s rows scaled by the elements of `a`'s row, in
/// XNA's order (k = 1 to 4, left to right), so every element matches XNA's bit for bit.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn multiply(a: &Matrix, b: &Matrix) -> Matrix {
    let row = |r: &[f32; 4]| -> [f32; 4] {
        std::array::from_fn(|j| {
            r[0] * b.m[0][j] + r[1] * b.m[1][j] + r[2] * b.m[2][j] + r[3] * b.m[3][j]
        })
    };
    Matrix { m: [row(&a.m[0]), row(&a.m[1]), row(&a.m[2]), row(&a.m[3])] }
}

/// `a * b` on x86-64 with SSE (part of every x86-64 target): the same sums in the same order
/// as the portable form, four elements at a time; the compiler does not find this form by
/// itself, and it halves the time of a product.
#[cfg(target_arch = "x86_64")]
#[inline]
fn multiply(a: &Matrix, b: &Matrix) -> Matrix {
    use std::arch::x86_64::{__m128, _mm_add_ps, _mm_mul_ps, _mm_set1_ps};
    let rows: [__m128; 4] = bytemuck::cast(b.m);
    let row = |r: &[f32; 4]| -> __m128 {
        // SAFETY: SSE is enabled on every x86-64 target; these intrinsics touch no memory.
        #[allow(unused_unsafe)]
        unsafe {
            let s0 = _mm_mul_ps(_mm_set1_ps(r[0]), rows[0]);
            let s1 = _mm_add_ps(s0, _mm_mul_ps(_mm_set1_ps(r[1]), rows[1]));
            let s2 = _mm_add_ps(s1, _mm_mul_ps(_mm_set1_ps(r[2]), rows[2]));
            _mm_add_ps(s2, _mm_mul_ps(_mm_set1_ps(r[3]), rows[3]))
        }
    };
    Matrix { m: bytemuck::cast([row(&a.m[0]), row(&a.m[1]), row(&a.m[2]), row(&a.m[3])]) }
}

impl Matrix {
    /// `Matrix.Identity`.
    pub const IDENTITY: Matrix = Matrix {
        m: [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]],
    };

    /// `new Matrix(m11, m12, …, m44)`: the sixteen elements row by row.
    #[allow(clippy::too_many_arguments)]
    pub const fn new(
        m11: f32,
        m12: f32,
        m13: f32,
        m14: f32,
        m21: f32,
        m22: f32,
        m23: f32,
        m24: f32,
        m31: f32,
        m32: f32,
        m33: f32,
        m34: f32,
        m41: f32,
        m42: f32,
        m43: f32,
        m44: f32,
    ) -> Self {
        Matrix {
            m: [
                [m11, m12, m13, m14],
                [m21, m22, m23, m24],
                [m31, m32, m33, m34],
                [m41, m42, m43, m44],
            ],
        }
    }

    /// `Matrix.Multiply(ref matrix1, ref matrix2, out result)`: `self * rhs`, applying `self`
    /// first. The same as the `*` operator, by reference; each element sums its four products
    /// in XNA's order, so results match XNA's bit for bit.
    #[inline]
    pub fn mul(&self, rhs: &Matrix) -> Matrix {
        multiply(self, rhs)
    }

    /// The same transform as a column-major array for a column-vector shader (`M * v`).
    /// XNA's row-major row-vector matrix read column by column is exactly its transpose laid out
    /// column-major, so the flattening is the identity on storage order.
    pub fn to_column_major(&self) -> [f32; 16] {
        bytemuck::cast(self.m)
    }

    /// The sixteen elements in XNA's order, M11 to M44 (`Matrix.ToFloatArray`).
    pub fn to_float_array(&self) -> [f32; 16] {
        bytemuck::cast(self.m)
    }

    /// `Matrix.Transpose(matrix)`.
    #[inline]
    pub fn transpose(&self) -> Matrix {
        let m = &self.m;
        Matrix { m: std::array::from_fn(|i| [m[0][i], m[1][i], m[2][i], m[3][i]]) }
    }

    /// `Matrix.Determinant()`, expanded along the first row over 2×2 minors of the last two
    /// rows as XNA does.
    pub fn determinant(&self) -> f32 {
        let [[a, b, c, d], [e, f, g, h], [i, j, k, l], [m, n, o, p]] = self.m;
        let kp_lo = k * p - l * o;
        let jp_ln = j * p - l * n;
        let jo_kn = j * o - k * n;
        let ip_lm = i * p - l * m;
        let io_km = i * o - k * m;
        let in_jm = i * n - j * m;
        a * (f * kp_lo - g * jp_ln + h * jo_kn) - b * (e * kp_lo - g * ip_lm + h * io_km)
            + c * (e * jp_ln - f * ip_lm + h * in_jm)
            - d * (e * jo_kn - f * io_km + g * in_jm)
    }

    /// `Matrix.Invert(matrix)`: the inverse by cofactors (Laplace expansion), with XNA's
    /// double-precision intermediate sums; no allocation. A singular matrix gives infinities or
    /// NaNs, as XNA's does (XNA raises no error).
    #[inline]
    pub fn invert(&self) -> Matrix {
        let w = |r: usize, c: usize| f64::from(self.m[r][c]);
        let (m11, m12, m13, m14) = (w(0, 0), w(0, 1), w(0, 2), w(0, 3));
        let (m21, m22, m23, m24) = (w(1, 0), w(1, 1), w(1, 2), w(1, 3));
        let (m31, m32, m33, m34) = (w(2, 0), w(2, 1), w(2, 2), w(2, 3));
        let (m41, m42, m43, m44) = (w(3, 0), w(3, 1), w(3, 2), w(3, 3));
        // XNA rounds each 2×2 minor and each cofactor to f32 before using it.
        let f = |v: f64| f64::from(v as f32);
        let n17 = f(m33 * m44 - m34 * m43);
        let n18 = f(m32 * m44 - m34 * m42);
        let n19 = f(m32 * m43 - m33 * m42);
        let n20 = f(m31 * m44 - m34 * m41);
        let n21 = f(m31 * m43 - m33 * m41);
        let n22 = f(m31 * m42 - m32 * m41);
        let c11 = f(m22 * n17 - m23 * n18 + m24 * n19);
        let c21 = f(-(m21 * n17 - m23 * n20 + m24 * n21));
        let c31 = f(m21 * n18 - m22 * n20 + m24 * n22);
        let c41 = f(-(m21 * n19 - m22 * n21 + m23 * n22));
        let inv_det = f(1.0 / (m11 * c11 + m12 * c21 + m13 * c31 + m14 * c41));
        let n28 = f(m23 * m44 - m24 * m43);
        let n29 = f(m22 * m44 - m24 * m42);
        let n30 = f(m22 * m43 - m23 * m42);
        let n31 = f(m21 * m44 - m24 * m41);
        let n32 = f(m21 * m43 - m23 * m41);
        let n33 = f(m21 * m42 - m22 * m41);
        let n34 = f(m23 * m34 - m24 * m33);
        let n35 = f(m22 * m34 - m24 * m32);
        let n36 = f(m22 * m33 - m23 * m32);
        let n37 = f(m21 * m34 - m24 * m31);
        let n38 = f(m21 * m33 - m23 * m31);
        let n39 = f(m21 * m32 - m22 * m31);
        let out = |v: f64| (v * inv_det) as f32;
        Matrix {
            m: [
                [
                    out(c11),
                    out(-(m12 * n17 - m13 * n18 + m14 * n19)),
                    out(m12 * n28 - m13 * n29 + m14 * n30),
                    out(-(m12 * n34 - m13 * n35 + m14 * n36)),
                ],
                [
                    out(c21),
                    out(m11 * n17 - m13 * n20 + m14 * n21),
                    out(-(m11 * n28 - m13 * n31 + m14 * n32)),
                    out(m11 * n34 - m13 * n37 + m14 * n38),
                ],
                [
                    out(c31),
                    out(-(m11 * n18 - m12 * n20 + m14 * n22)),
                    out(m11 * n29 - m12 * n31 + m14 * n33),
                    out(-(m11 * n35 - m12 * n37 + m14 * n39)),
                ],
                [
                    out(c41),
                    out(m11 * n19 - m12 * n21 + m13 * n22),
                    out(-(m11 * n30 - m12 * n32 + m13 * n33)),
                    out(m11 * n36 - m12 * n38 + m13 * n39),
                ],
            ],
        }
    }

    /// `Matrix.Lerp(matrix1, matrix2, amount)`: element by element, `a + (b − a) × amount`.
    pub fn lerp(&self, matrix2: &Matrix, amount: f32) -> Matrix {
        self.zip(matrix2, |a, b| a + (b - a) * amount)
    }

    fn map(&self, f: impl Fn(f32) -> f32) -> Matrix {
        Matrix { m: self.m.map(|row| row.map(&f)) }
    }

    fn zip(&self, o: &Matrix, f: impl Fn(f32, f32) -> f32) -> Matrix {
        Matrix { m: std::array::from_fn(|r| std::array::from_fn(|c| f(self.m[r][c], o.m[r][c]))) }
    }

    fn row3(&self, r: usize) -> Vector3 {
        Vector3::new(self.m[r][0], self.m[r][1], self.m[r][2])
    }

    fn set_row3(&mut self, r: usize, v: Vector3) {
        self.m[r][0] = v.x;
        self.m[r][1] = v.y;
        self.m[r][2] = v.z;
    }

    /// `Matrix.Right`: (M11, M12, M13).
    pub fn right(&self) -> Vector3 {
        self.row3(0)
    }
    /// `Matrix.Left`: −(M11, M12, M13).
    pub fn left(&self) -> Vector3 {
        -self.row3(0)
    }
    /// `Matrix.Up`: (M21, M22, M23).
    pub fn up(&self) -> Vector3 {
        self.row3(1)
    }
    /// `Matrix.Down`: −(M21, M22, M23).
    pub fn down(&self) -> Vector3 {
        -self.row3(1)
    }
    /// `Matrix.Backward`: (M31, M32, M33).
    pub fn backward(&self) -> Vector3 {
        self.row3(2)
    }
    /// `Matrix.Forward`: −(M31, M32, M33), since XNA looks down −z.
    pub fn forward(&self) -> Vector3 {
        -self.row3(2)
    }
    /// `Matrix.Translation`: (M41, M42, M43).
    pub fn translation(&self) -> Vector3 {
        self.row3(3)
    }
    /// `Matrix.Right = value`: sets M11, M12, M13.
    pub fn set_right(&mut self, value: Vector3) {
        self.set_row3(0, value);
    }
    /// `Matrix.Left = value`: sets M11, M12, M13 to −value.
    pub fn set_left(&mut self, value: Vector3) {
        self.set_row3(0, -value);
    }
    /// `Matrix.Up = value`: sets M21, M22, M23.
    pub fn set_up(&mut self, value: Vector3) {
        self.set_row3(1, value);
    }
    /// `Matrix.Down = value`: sets M21, M22, M23 to −value.
    pub fn set_down(&mut self, value: Vector3) {
        self.set_row3(1, -value);
    }
    /// `Matrix.Backward = value`: sets M31, M32, M33.
    pub fn set_backward(&mut self, value: Vector3) {
        self.set_row3(2, value);
    }
    /// `Matrix.Forward = value`: sets M31, M32, M33 to −value.
    pub fn set_forward(&mut self, value: Vector3) {
        self.set_row3(2, -value);
    }
    /// `Matrix.Translation = value`: sets M41, M42, M43.
    pub fn set_translation(&mut self, value: Vector3) {
        self.set_row3(3, value);
    }
}

impl std::ops::Mul for Matrix {
    type Output = Matrix;
    /// `matrix1 * matrix2` (`Matrix.Multiply`): apply `matrix1`, then `matrix2`.
    #[inline]
    fn mul(self, rhs: Matrix) -> Matrix {
        Matrix::mul(&self, &rhs)
    }
}

impl std::ops::Mul<&Matrix> for &Matrix {
    type Output = Matrix;
    /// `matrix1 * matrix2` by reference.
    #[inline]
    fn mul(self, rhs: &Matrix) -> Matrix {
        Matrix::mul(self, rhs)
    }
}

impl std::ops::Mul<f32> for Matrix {
    type Output = Matrix;
    /// `matrix * scaleFactor`: every element scaled.
    fn mul(self, s: f32) -> Matrix {
        self.map(|v| v * s)
    }
}

impl std::ops::Div for Matrix {
    type Output = Matrix;
    /// `matrix1 / matrix2` (`Matrix.Divide`): element by element.
    fn div(self, rhs: Matrix) -> Matrix {
        self.zip(&rhs, |a, b| a / b)
    }
}

impl std::ops::Div<f32> for Matrix {
    type Output = Matrix;
    /// `matrix / divider`: every element times `1 / divider`, as XNA computes it.
    // XNA divides by multiplying with the reciprocal; the results differ in the last bit.
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn div(self, d: f32) -> Matrix {
        let r = 1.0 / d;
        self.map(|v| v * r)
    }
}

impl std::ops::Add for Matrix {
    type Output = Matrix;
    /// `matrix1 + matrix2` (`Matrix.Add`): element by element.
    fn add(self, rhs: Matrix) -> Matrix {
        self.zip(&rhs, |a, b| a + b)
    }
}

impl std::ops::Sub for Matrix {
    type Output = Matrix;
    /// `matrix1 - matrix2` (`Matrix.Subtract`): element by element.
    fn sub(self, rhs: Matrix) -> Matrix {
        self.zip(&rhs, |a, b| a - b)
    }
}

impl std::ops::Neg for Matrix {
    type Output = Matrix;
    /// `-matrix` (`Matrix.Negate`).
    fn neg(self) -> Matrix {
        self.map(|v| -v)
    }
}

impl std::ops::MulAssign for Matrix {
    fn mul_assign(&mut self, rhs: Matrix) {
        *self = Matrix::mul(self, &rhs);
    }
}

impl std::ops::MulAssign<f32> for Matrix {
    fn mul_assign(&mut self, s: f32) {
        *self = *self * s;
    }
}

impl std::ops::DivAssign for Matrix {
    fn div_assign(&mut self, rhs: Matrix) {
        *self = *self / rhs;
    }
}

impl std::ops::DivAssign<f32> for Matrix {
    fn div_assign(&mut self, d: f32) {
        *self = *self / d;
    }
}

impl std::ops::AddAssign for Matrix {
    fn add_assign(&mut self, rhs: Matrix) {
        *self = *self + rhs;
    }
}

impl std::ops::SubAssign for Matrix {
    fn sub_assign(&mut self, rhs: Matrix) {
        *self = *self - rhs;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Every element within `tolerance` of the other's.
    pub(crate) fn near(a: &Matrix, b: &Matrix, tolerance: f32) -> bool {
        a.m.iter().flatten().zip(b.m.iter().flatten()).all(|(x, y)| (x - y).abs() <= tolerance)
    }

    fn counting() -> Matrix {
        Matrix { m: std::array::from_fn(|r| std::array::from_fn(|c| (r * 4 + c + 1) as f32)) }
    }

    #[test]
    fn product_is_row_times_column_and_applies_left_first() {
        let a = counting();
        let b = Matrix::create_translation(1.0, 2.0, 3.0);
        let p = a * b;
        // Row 1 of a times translation: (1, 2, 3, 4) → (1 + 4, 2 + 8, 3 + 12, 4).
        assert_eq!(p.m[0], [5.0, 10.0, 15.0, 4.0]);
        assert_eq!(a.mul(&a).m[0], [90.0, 100.0, 110.0, 120.0]);
        let m = Matrix::create_translation(1.0, 2.0, 0.0) * Matrix::create_scale(2.0, 3.0, 1.0);
        // v = (0,0,0,1): translate to (1,2), then scale to (2,6).
        assert_eq!(m.m[3], [2.0, 6.0, 0.0, 1.0]);
        let mut c = a;
        c *= Matrix::IDENTITY;
        assert_eq!(c, a);
    }

    #[test]
    fn product_matches_xnas_scalar_sums_bit_for_bit() {
        let mut seed = 0x9e37_79b9u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            (seed >> 8) as f32 / 65536.0 - 128.0
        };
        for _ in 0..200 {
            let a = Matrix { m: std::array::from_fn(|_| std::array::from_fn(|_| next())) };
            let b = Matrix { m: std::array::from_fn(|_| std::array::from_fn(|_| next())) };
            let p = a * b;
            for i in 0..4 {
                for j in 0..4 {
                    let xna = a.m[i][0] * b.m[0][j]
                        + a.m[i][1] * b.m[1][j]
                        + a.m[i][2] * b.m[2][j]
                        + a.m[i][3] * b.m[3][j];
                    assert_eq!(p.m[i][j].to_bits(), xna.to_bits(), "M{}{}", i + 1, j + 1);
                }
            }
        }
    }

    #[test]
    fn element_wise_operators() {
        let a = counting();
        assert_eq!((a + a).m[3], [26.0, 28.0, 30.0, 32.0]);
        assert_eq!((a - a * 2.0).m[0], [-1.0, -2.0, -3.0, -4.0]);
        assert_eq!((-a).m[1], [-5.0, -6.0, -7.0, -8.0]);
        assert_eq!((a / a).m[2], [1.0; 4]);
        assert_eq!((a / 2.0).m[0], [0.5, 1.0, 1.5, 2.0]);
        let mut b = a;
        b += a;
        b -= a;
        b *= 3.0;
        b /= 3.0;
        b /= a;
        assert_eq!(b, Matrix { m: [[1.0; 4]; 4] });
        assert_eq!(a.lerp(&(a * 3.0), 0.5), a * 2.0);
    }

    #[test]
    fn transpose_and_determinant() {
        let a = counting();
        assert_eq!(a.transpose().m[0], [1.0, 5.0, 9.0, 13.0]);
        assert_eq!(a.transpose().transpose(), a);
        assert_eq!(a.determinant(), 0.0);
        assert_eq!(Matrix::create_scale(2.0, 3.0, 4.0).determinant(), 24.0);
        let m = Matrix::new(
            2.0, 0.0, 1.0, 0.0, 1.0, 3.0, 0.0, 0.0, 0.0, 1.0, 4.0, 0.0, 5.0, 6.0, 7.0, 1.0,
        );
        // 2(12 − 0) − 0 + 1(1 − 0) = 25.
        assert_eq!(m.determinant(), 25.0);
    }

    #[test]
    fn invert_undoes_a_rotation_translation_and_scale() {
        let m = Matrix::create_rotation_y(0.7)
            * Matrix::create_translation(1.0, -2.0, 3.0)
            * Matrix::create_scale(2.0, 1.0, 0.5);
        assert!(near(&(m * m.invert()), &Matrix::IDENTITY, 1e-6));
        let s = Matrix::create_scale(2.0, 4.0, 8.0).invert();
        assert_eq!(s, Matrix::create_scale(0.5, 0.25, 0.125));
        let t = Matrix::create_translation(3.0, 4.0, 5.0).invert();
        assert_eq!(t, Matrix::create_translation(-3.0, -4.0, -5.0));
    }

    #[test]
    fn inverting_a_singular_matrix_gives_non_finite_elements() {
        let inv = counting().invert();
        assert!(inv.m.iter().flatten().any(|v| !v.is_finite()));
    }

    #[test]
    fn basis_accessors_read_and_write_rows() {
        let mut m = counting();
        assert_eq!(m.right(), Vector3::new(1.0, 2.0, 3.0));
        assert_eq!(m.left(), Vector3::new(-1.0, -2.0, -3.0));
        assert_eq!(m.up(), Vector3::new(5.0, 6.0, 7.0));
        assert_eq!(m.down(), Vector3::new(-5.0, -6.0, -7.0));
        assert_eq!(m.backward(), Vector3::new(9.0, 10.0, 11.0));
        assert_eq!(m.forward(), Vector3::new(-9.0, -10.0, -11.0));
        assert_eq!(m.translation(), Vector3::new(13.0, 14.0, 15.0));
        m.set_forward(Vector3::UNIT_Z);
        assert_eq!(m.m[2], [0.0, 0.0, -1.0, 12.0]);
        m.set_left(Vector3::UNIT_X);
        assert_eq!(m.m[0], [-1.0, 0.0, 0.0, 4.0]);
        m.set_down(Vector3::UNIT_Y);
        assert_eq!(m.m[1], [0.0, -1.0, 0.0, 8.0]);
        m.set_right(Vector3::ONE);
        m.set_up(Vector3::ONE);
        m.set_backward(Vector3::ONE);
        m.set_translation(Vector3::ZERO);
        assert_eq!(m.m[3], [0.0, 0.0, 0.0, 16.0]);
        assert_eq!(m.m[1], [1.0, 1.0, 1.0, 8.0]);
    }

    #[test]
    fn storage_is_sixteen_floats_row_by_row() {
        let a = counting();
        assert_eq!(a.to_float_array()[4], 5.0);
        assert_eq!(a.to_column_major(), std::array::from_fn(|i| (i + 1) as f32));
        assert_eq!(std::mem::size_of::<Matrix>(), 64);
        assert_eq!(Matrix::default(), Matrix::IDENTITY);
    }
}
