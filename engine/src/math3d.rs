//! XNA's 3D math that the stock effects and 3D programs use: `Vector3` arithmetic and the
//! `Matrix` constructors for cameras, projections and rotations, plus `Invert` and `Transpose`.
//! Everything follows XNA's conventions: row vectors (`v * M`), a right-handed view space looking
//! down −z, and projections that map depth to [0, 1].

use crate::math::{Matrix, Vector3};

impl Vector3 {
    /// `Vector3.One`.
    pub const ONE: Vector3 = Vector3 { x: 1.0, y: 1.0, z: 1.0 };

    /// `Vector3.Dot`.
    pub fn dot(self, o: Vector3) -> f32 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// `Vector3.Cross`.
    pub fn cross(self, o: Vector3) -> Vector3 {
        Vector3::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }

    /// `Length()`.
    pub fn length(self) -> f32 {
        self.dot(self).sqrt()
    }

    /// `Vector3.Normalize`: the same direction with length 1 (a zero vector gives NaNs, as in
    /// XNA).
    pub fn normalize(self) -> Vector3 {
        self * (1.0 / self.length())
    }

    /// `Vector3.Transform(v, m)`: the point `v` (w = 1) times `m`, without the divide.
    pub fn transform(self, m: &Matrix) -> Vector3 {
        let r = &m.m;
        Vector3::new(
            self.x * r[0][0] + self.y * r[1][0] + self.z * r[2][0] + r[3][0],
            self.x * r[0][1] + self.y * r[1][1] + self.z * r[2][1] + r[3][1],
            self.x * r[0][2] + self.y * r[1][2] + self.z * r[2][2] + r[3][2],
        )
    }

    /// `Vector3.TransformNormal(v, m)`: the direction `v` (w = 0) times `m`.
    pub fn transform_normal(self, m: &Matrix) -> Vector3 {
        let r = &m.m;
        Vector3::new(
            self.x * r[0][0] + self.y * r[1][0] + self.z * r[2][0],
            self.x * r[0][1] + self.y * r[1][1] + self.z * r[2][1],
            self.x * r[0][2] + self.y * r[1][2] + self.z * r[2][2],
        )
    }
}

impl std::ops::Add for Vector3 {
    type Output = Vector3;
    /// `a + b`.
    fn add(self, o: Vector3) -> Vector3 {
        Vector3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl std::ops::Sub for Vector3 {
    type Output = Vector3;
    /// `a - b`.
    fn sub(self, o: Vector3) -> Vector3 {
        Vector3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

impl std::ops::Mul<f32> for Vector3 {
    type Output = Vector3;
    /// `v * s`.
    fn mul(self, s: f32) -> Vector3 {
        Vector3::new(self.x * s, self.y * s, self.z * s)
    }
}

impl std::ops::Mul for Vector3 {
    type Output = Vector3;
    /// `a * b`, component by component (`Vector3.Multiply`).
    fn mul(self, o: Vector3) -> Vector3 {
        Vector3::new(self.x * o.x, self.y * o.y, self.z * o.z)
    }
}

impl Matrix {
    /// `Translation`: M41, M42, M43.
    pub fn translation(&self) -> Vector3 {
        Vector3::new(self.m[3][0], self.m[3][1], self.m[3][2])
    }

    /// `Matrix.Transpose`.
    pub fn transpose(&self) -> Matrix {
        let mut out = [[0.0; 4]; 4];
        for (i, row) in out.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().enumerate() {
                *cell = self.m[j][i];
            }
        }
        Matrix { m: out }
    }

    /// `Matrix.Invert`: the inverse by cofactors. A singular matrix gives infinities or NaNs,
    /// as XNA's does.
    pub fn invert(&self) -> Matrix {
        let a: Vec<f32> = self.m.iter().flatten().copied().collect();
        let mut inv = [0.0f32; 16];
        inv[0] = a[5] * a[10] * a[15] - a[5] * a[11] * a[14] - a[9] * a[6] * a[15]
            + a[9] * a[7] * a[14]
            + a[13] * a[6] * a[11]
            - a[13] * a[7] * a[10];
        inv[4] = -a[4] * a[10] * a[15] + a[4] * a[11] * a[14] + a[8] * a[6] * a[15]
            - a[8] * a[7] * a[14]
            - a[12] * a[6] * a[11]
            + a[12] * a[7] * a[10];
        inv[8] = a[4] * a[9] * a[15] - a[4] * a[11] * a[13] - a[8] * a[5] * a[15]
            + a[8] * a[7] * a[13]
            + a[12] * a[5] * a[11]
            - a[12] * a[7] * a[9];
        inv[12] = -a[4] * a[9] * a[14] + a[4] * a[10] * a[13] + a[8] * a[5] * a[14]
            - a[8] * a[6] * a[13]
            - a[12] * a[5] * a[10]
            + a[12] * a[6] * a[9];
        inv[1] = -a[1] * a[10] * a[15] + a[1] * a[11] * a[14] + a[9] * a[2] * a[15]
            - a[9] * a[3] * a[14]
            - a[13] * a[2] * a[11]
            + a[13] * a[3] * a[10];
        inv[5] = a[0] * a[10] * a[15] - a[0] * a[11] * a[14] - a[8] * a[2] * a[15]
            + a[8] * a[3] * a[14]
            + a[12] * a[2] * a[11]
            - a[12] * a[3] * a[10];
        inv[9] = -a[0] * a[9] * a[15] + a[0] * a[11] * a[13] + a[8] * a[1] * a[15]
            - a[8] * a[3] * a[13]
            - a[12] * a[1] * a[11]
            + a[12] * a[3] * a[9];
        inv[13] = a[0] * a[9] * a[14] - a[0] * a[10] * a[13] - a[8] * a[1] * a[14]
            + a[8] * a[2] * a[13]
            + a[12] * a[1] * a[10]
            - a[12] * a[2] * a[9];
        inv[2] = a[1] * a[6] * a[15] - a[1] * a[7] * a[14] - a[5] * a[2] * a[15]
            + a[5] * a[3] * a[14]
            + a[13] * a[2] * a[7]
            - a[13] * a[3] * a[6];
        inv[6] = -a[0] * a[6] * a[15] + a[0] * a[7] * a[14] + a[4] * a[2] * a[15]
            - a[4] * a[3] * a[14]
            - a[12] * a[2] * a[7]
            + a[12] * a[3] * a[6];
        inv[10] = a[0] * a[5] * a[15] - a[0] * a[7] * a[13] - a[4] * a[1] * a[15]
            + a[4] * a[3] * a[13]
            + a[12] * a[1] * a[7]
            - a[12] * a[3] * a[5];
        inv[14] = -a[0] * a[5] * a[14] + a[0] * a[6] * a[13] + a[4] * a[1] * a[14]
            - a[4] * a[2] * a[13]
            - a[12] * a[1] * a[6]
            + a[12] * a[2] * a[5];
        inv[3] = -a[1] * a[6] * a[11] + a[1] * a[7] * a[10] + a[5] * a[2] * a[11]
            - a[5] * a[3] * a[10]
            - a[9] * a[2] * a[7]
            + a[9] * a[3] * a[6];
        inv[7] = a[0] * a[6] * a[11] - a[0] * a[7] * a[10] - a[4] * a[2] * a[11]
            + a[4] * a[3] * a[10]
            + a[8] * a[2] * a[7]
            - a[8] * a[3] * a[6];
        inv[11] = -a[0] * a[5] * a[11] + a[0] * a[7] * a[9] + a[4] * a[1] * a[11]
            - a[4] * a[3] * a[9]
            - a[8] * a[1] * a[7]
            + a[8] * a[3] * a[5];
        inv[15] = a[0] * a[5] * a[10] - a[0] * a[6] * a[9] - a[4] * a[1] * a[10]
            + a[4] * a[2] * a[9]
            + a[8] * a[1] * a[6]
            - a[8] * a[2] * a[5];
        let det = a[0] * inv[0] + a[1] * inv[4] + a[2] * inv[8] + a[3] * inv[12];
        let mut out = Matrix::IDENTITY;
        for (i, v) in inv.iter().enumerate() {
            out.m[i / 4][i % 4] = v / det;
        }
        out
    }

    /// `Matrix.CreateRotationX(radians)`.
    pub fn create_rotation_x(radians: f32) -> Matrix {
        let (s, c) = radians.sin_cos();
        let mut m = Matrix::IDENTITY;
        m.m[1][1] = c;
        m.m[1][2] = s;
        m.m[2][1] = -s;
        m.m[2][2] = c;
        m
    }

    /// `Matrix.CreateRotationY(radians)`.
    pub fn create_rotation_y(radians: f32) -> Matrix {
        let (s, c) = radians.sin_cos();
        let mut m = Matrix::IDENTITY;
        m.m[0][0] = c;
        m.m[0][2] = -s;
        m.m[2][0] = s;
        m.m[2][2] = c;
        m
    }

    /// `Matrix.CreateLookAt(cameraPosition, cameraTarget, cameraUpVector)`: a right-handed view
    /// looking from the camera towards the target.
    pub fn create_look_at(camera: Vector3, target: Vector3, up: Vector3) -> Matrix {
        let z = (camera - target).normalize();
        let x = up.cross(z).normalize();
        let y = z.cross(x);
        Matrix {
            m: [
                [x.x, y.x, z.x, 0.0],
                [x.y, y.y, z.y, 0.0],
                [x.z, y.z, z.z, 0.0],
                [-x.dot(camera), -y.dot(camera), -z.dot(camera), 1.0],
            ],
        }
    }

    /// `Matrix.CreatePerspectiveFieldOfView(fieldOfView, aspectRatio, nearPlaneDistance,
    /// farPlaneDistance)`: depth 0 at the near plane, 1 at the far plane. XNA's
    /// `ArgumentOutOfRangeException` cases (a field of view outside (0, π), a non-positive
    /// distance, near not before far) are the caller's to avoid here: the result is then
    /// meaningless rather than an error.
    pub fn create_perspective_field_of_view(fov: f32, aspect: f32, near: f32, far: f32) -> Matrix {
        let y = 1.0 / (fov * 0.5).tan();
        let x = y / aspect;
        let mut m = Matrix { m: [[0.0; 4]; 4] };
        m.m[0][0] = x;
        m.m[1][1] = y;
        m.m[2][2] = far / (near - far);
        m.m[2][3] = -1.0;
        m.m[3][2] = near * far / (near - far);
        m
    }

    /// `Matrix.CreateOrthographic(width, height, zNearPlane, zFarPlane)`.
    pub fn create_orthographic(width: f32, height: f32, near: f32, far: f32) -> Matrix {
        let mut m = Matrix::IDENTITY;
        m.m[0][0] = 2.0 / width;
        m.m[1][1] = 2.0 / height;
        m.m[2][2] = 1.0 / (near - far);
        m.m[3][2] = near / (near - far);
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(a: &Matrix, b: &Matrix) -> bool {
        a.m.iter().flatten().zip(b.m.iter().flatten()).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn invert_undoes_a_rotation_and_translation() {
        let m = Matrix::create_rotation_y(0.7)
            .mul(&Matrix::create_translation(1.0, -2.0, 3.0))
            .mul(&Matrix::create_scale(2.0, 1.0, 0.5));
        assert!(near(&m.mul(&m.invert()), &Matrix::IDENTITY));
    }

    #[test]
    fn look_at_puts_the_target_on_the_negative_z_axis() {
        let view =
            Matrix::create_look_at(Vector3::new(1.0, 2.0, 5.0), Vector3::ZERO, Vector3::UNIT_Y);
        let t = Vector3::ZERO.transform(&view);
        assert!(t.x.abs() < 1e-5 && t.y.abs() < 1e-5);
        assert!((t.z + Vector3::new(1.0, 2.0, 5.0).length()).abs() < 1e-5);
        // The camera sits at the inverse view's translation.
        let eye = view.invert().translation();
        assert!((eye - Vector3::new(1.0, 2.0, 5.0)).length() < 1e-5);
    }

    #[test]
    fn perspective_maps_near_to_depth_zero_and_far_to_one() {
        let p = Matrix::create_perspective_field_of_view(1.0, 1.5, 2.0, 10.0);
        let depth = |z: f32| {
            let c = p.m;
            let (zc, wc) = (z * c[2][2] + c[3][2], z * c[2][3]);
            zc / wc
        };
        assert!(depth(-2.0).abs() < 1e-6);
        assert!((depth(-10.0) - 1.0).abs() < 1e-6);
    }
}
