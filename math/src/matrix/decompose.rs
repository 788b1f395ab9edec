//! `Matrix.Decompose`: splits a scale × rotation × translation matrix into its three parts.
//!
//! XNA's answer follows Direct3D's decomposition rather than FNA's or MonoGame's: the rows'
//! lengths are the scales, the rows normalized are the rotation's basis (a row of near-zero
//! length is rebuilt from the others), and when that basis is left-handed (the matrix mirrors)
//! the largest scale is negated along with its row, so the rotation stays proper. A matrix
//! whose basis is not orthonormal after that (shear, projection) does not decompose.

use crate::{Matrix, Quaternion, Vector3};

/// Scales below this count as zero.
const EPSILON: f32 = 1e-4;

/// The indices of three values from largest to smallest (ties keep the earlier index first).
fn rank(v: [f32; 3]) -> [usize; 3] {
    let [x, y, z] = v;
    if x < y {
        if y < z {
            [2, 1, 0]
        } else if x < z {
            [1, 2, 0]
        } else {
            [1, 0, 2]
        }
    } else if x < z {
        [2, 0, 1]
    } else if y < z {
        [0, 2, 1]
    } else {
        [0, 1, 2]
    }
}

impl Matrix {
    /// `Matrix.Decompose(out scale, out rotation, out translation)`: `Some((scale, rotation,
    /// translation))` with `self ≈ CreateScale(scale) × CreateFromQuaternion(rotation) ×
    /// CreateTranslation(translation)`, or `None` where XNA returns false (a shear, which no scale,
    /// rotation and translation reproduce; the fourth column is ignored, as in XNA). A mirroring
    /// matrix decomposes with its largest scale negated: `CreateScale(−2, 3, 4)` gives scale (2, 3,
    /// −4) and a half turn about y.
    pub fn decompose(&self) -> Option<(Vector3, Quaternion, Vector3)> {
        let translation = self.translation();
        let mut basis = [self.right(), self.up(), self.backward()];
        let mut scale = basis.map(|b| b.length());
        let [a, b, c] = rank(scale);
        let canonical = [Vector3::UNIT_X, Vector3::UNIT_Y, Vector3::UNIT_Z];

        if scale[a] < EPSILON {
            basis[a] = canonical[a];
        }
        basis[a] = basis[a].normalize();
        if scale[b] < EPSILON {
            let abs = [basis[a].x.abs(), basis[a].y.abs(), basis[a].z.abs()];
            let [_, _, smallest] = rank(abs);
            basis[b] = basis[a].cross(canonical[smallest]);
        }
        basis[b] = basis[b].normalize();
        if scale[c] < EPSILON {
            basis[c] = basis[a].cross(basis[b]);
        }
        basis[c] = basis[c].normalize();

        let mut rotation = Matrix::IDENTITY;
        rotation.set_right(basis[0]);
        rotation.set_up(basis[1]);
        rotation.set_backward(basis[2]);
        let mut det = rotation.determinant();
        if det < 0.0 {
            scale[a] = -scale[a];
            basis[a] = -basis[a];
            rotation.set_row3(a, basis[a]);
            det = -det;
        }
        let off = det - 1.0;
        if off * off > EPSILON {
            return None;
        }
        let q = Quaternion::create_from_rotation_matrix(&rotation);
        Some((Vector3::new(scale[0], scale[1], scale[2]), q, translation))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::tests::near;

    fn recompose(s: Vector3, q: Quaternion, t: Vector3) -> Matrix {
        Matrix::create_scale_vector(s)
            * Matrix::create_from_quaternion(q)
            * Matrix::create_translation_vector(t)
    }

    #[test]
    fn scale_rotation_translation_come_back_apart() {
        let q = Quaternion::create_from_yaw_pitch_roll(0.5, -0.25, 1.0);
        let m = recompose(Vector3::new(2.0, 3.0, 4.0), q, Vector3::new(7.0, 8.0, 9.0));
        let (s, r, t) = m.decompose().unwrap();
        assert!((s - Vector3::new(2.0, 3.0, 4.0)).length() < 1e-5, "{s:?}");
        assert!((r - q).length() < 1e-6 || (r + q).length() < 1e-6, "{r:?}");
        assert_eq!(t, Vector3::new(7.0, 8.0, 9.0));
    }

    #[test]
    fn negative_scale_negates_the_largest_axis_and_keeps_a_proper_rotation() {
        let m = Matrix::create_scale(-2.0, 3.0, 4.0);
        let (s, r, t) = m.decompose().unwrap();
        assert_eq!(s, Vector3::new(2.0, 3.0, -4.0));
        // diag(−1, 1, −1) is a half turn about y.
        assert!((r - Quaternion::new(0.0, 1.0, 0.0, 0.0)).length() < 1e-6, "{r:?}");
        assert_eq!(t, Vector3::ZERO);
        assert!(near(&recompose(s, r, t), &m, 1e-6));
        // A mirrored rotation with translation recomposes to the same matrix.
        let q = Quaternion::create_from_axis_angle(Vector3::UNIT_Y, 0.6);
        let mirrored = recompose(Vector3::new(1.0, -1.5, 2.5), q, Vector3::ONE);
        let (s, r, t) = mirrored.decompose().unwrap();
        assert!(s.z < 0.0 && s.x > 0.0 && s.y > 0.0, "{s:?}");
        assert!(near(&recompose(s, r, t), &mirrored, 1e-5));
    }

    #[test]
    fn a_zero_scale_axis_is_rebuilt_from_the_others() {
        let m = Matrix::create_scale(2.0, 0.0, 1.0) * Matrix::create_translation(1.0, 2.0, 3.0);
        let (s, r, t) = m.decompose().unwrap();
        // The missing y row is x × z = −y, a mirror, so x's scale turns negative and the
        // rotation is a half turn about z.
        assert_eq!(s, Vector3::new(-2.0, 0.0, 1.0));
        assert!((r - Quaternion::new(0.0, 0.0, 1.0, 0.0)).length() < 1e-6, "{r:?}");
        assert_eq!(t, Vector3::new(1.0, 2.0, 3.0));
        assert!(near(&recompose(s, r, t), &m, 1e-6));
    }

    #[test]
    fn shears_do_not_decompose() {
        let mut shear = Matrix::IDENTITY;
        shear.m[1][0] = 1.0;
        assert_eq!(shear.decompose(), None);
        let mut skew = Matrix::create_rotation_x(0.3);
        skew.m[2][0] = 0.5;
        assert_eq!(skew.decompose(), None);
    }
}
