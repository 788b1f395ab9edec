//! Conversions between XNA's math types and the Rust math ecosystem's, behind the `glam` and
//! `mint` features: `From`/`Into` both ways, lossless.
//!
//! Matrices convert as the same transform, not the same element order: XNA multiplies row
//! vectors (`v * M`) and glam column vectors (`M * v`), so glam's columns are XNA's rows, and
//! `Vector3::transform(v, &m)` equals `Mat4::from(m).transform_point3(v)`. mint's row- and
//! column-major types name the storage of one mathematical matrix, here XNA's: a
//! `mint::RowMatrix4` holds XNA's rows, a `mint::ColumnMatrix4` its columns.

#[cfg(feature = "glam")]
mod glam_impls {
    use crate::{Matrix, Point, Quaternion, Vector2, Vector3, Vector4};

    impl From<Vector2> for glam::Vec2 {
        fn from(v: Vector2) -> Self {
            glam::Vec2::new(v.x, v.y)
        }
    }
    impl From<glam::Vec2> for Vector2 {
        fn from(v: glam::Vec2) -> Self {
            Vector2::new(v.x, v.y)
        }
    }
    impl From<Vector3> for glam::Vec3 {
        fn from(v: Vector3) -> Self {
            glam::Vec3::new(v.x, v.y, v.z)
        }
    }
    impl From<glam::Vec3> for Vector3 {
        fn from(v: glam::Vec3) -> Self {
            Vector3::new(v.x, v.y, v.z)
        }
    }
    impl From<Vector3> for glam::Vec3A {
        fn from(v: Vector3) -> Self {
            glam::Vec3A::new(v.x, v.y, v.z)
        }
    }
    impl From<glam::Vec3A> for Vector3 {
        fn from(v: glam::Vec3A) -> Self {
            Vector3::new(v.x, v.y, v.z)
        }
    }
    impl From<Vector4> for glam::Vec4 {
        fn from(v: Vector4) -> Self {
            glam::Vec4::new(v.x, v.y, v.z, v.w)
        }
    }
    impl From<glam::Vec4> for Vector4 {
        fn from(v: glam::Vec4) -> Self {
            Vector4::new(v.x, v.y, v.z, v.w)
        }
    }
    impl From<Point> for glam::IVec2 {
        fn from(p: Point) -> Self {
            glam::IVec2::new(p.x, p.y)
        }
    }
    impl From<glam::IVec2> for Point {
        fn from(p: glam::IVec2) -> Self {
            Point::new(p.x, p.y)
        }
    }
    impl From<Quaternion> for glam::Quat {
        fn from(q: Quaternion) -> Self {
            glam::Quat::from_xyzw(q.x, q.y, q.z, q.w)
        }
    }
    impl From<glam::Quat> for Quaternion {
        fn from(q: glam::Quat) -> Self {
            Quaternion::new(q.x, q.y, q.z, q.w)
        }
    }
    impl From<Matrix> for glam::Mat4 {
        /// The same transform: glam's columns are XNA's rows.
        fn from(m: Matrix) -> Self {
            glam::Mat4::from_cols_array_2d(&m.m)
        }
    }
    impl From<glam::Mat4> for Matrix {
        /// The same transform: XNA's rows are glam's columns.
        fn from(m: glam::Mat4) -> Self {
            Matrix { m: m.to_cols_array_2d() }
        }
    }
}

#[cfg(feature = "mint")]
mod mint_impls {
    use crate::{Matrix, Point, Quaternion, Vector2, Vector3, Vector4};

    impl From<Vector2> for mint::Vector2<f32> {
        fn from(v: Vector2) -> Self {
            mint::Vector2 { x: v.x, y: v.y }
        }
    }
    impl From<mint::Vector2<f32>> for Vector2 {
        fn from(v: mint::Vector2<f32>) -> Self {
            Vector2::new(v.x, v.y)
        }
    }
    impl From<Vector3> for mint::Vector3<f32> {
        fn from(v: Vector3) -> Self {
            mint::Vector3 { x: v.x, y: v.y, z: v.z }
        }
    }
    impl From<mint::Vector3<f32>> for Vector3 {
        fn from(v: mint::Vector3<f32>) -> Self {
            Vector3::new(v.x, v.y, v.z)
        }
    }
    impl From<Vector4> for mint::Vector4<f32> {
        fn from(v: Vector4) -> Self {
            mint::Vector4 { x: v.x, y: v.y, z: v.z, w: v.w }
        }
    }
    impl From<mint::Vector4<f32>> for Vector4 {
        fn from(v: mint::Vector4<f32>) -> Self {
            Vector4::new(v.x, v.y, v.z, v.w)
        }
    }
    impl From<Point> for mint::Point2<i32> {
        fn from(p: Point) -> Self {
            mint::Point2 { x: p.x, y: p.y }
        }
    }
    impl From<mint::Point2<i32>> for Point {
        fn from(p: mint::Point2<i32>) -> Self {
            Point::new(p.x, p.y)
        }
    }
    impl From<Quaternion> for mint::Quaternion<f32> {
        fn from(q: Quaternion) -> Self {
            mint::Quaternion { v: mint::Vector3 { x: q.x, y: q.y, z: q.z }, s: q.w }
        }
    }
    impl From<mint::Quaternion<f32>> for Quaternion {
        fn from(q: mint::Quaternion<f32>) -> Self {
            Quaternion::new(q.v.x, q.v.y, q.v.z, q.s)
        }
    }
    impl From<Matrix> for mint::RowMatrix4<f32> {
        /// XNA's rows as mint's rows.
        fn from(m: Matrix) -> Self {
            mint::RowMatrix4::from(m.m)
        }
    }
    impl From<mint::RowMatrix4<f32>> for Matrix {
        fn from(m: mint::RowMatrix4<f32>) -> Self {
            Matrix { m: m.into() }
        }
    }
    impl From<Matrix> for mint::ColumnMatrix4<f32> {
        /// XNA's columns as mint's columns (the same matrix).
        fn from(m: Matrix) -> Self {
            mint::ColumnMatrix4::from(m.transpose().m)
        }
    }
    impl From<mint::ColumnMatrix4<f32>> for Matrix {
        fn from(m: mint::ColumnMatrix4<f32>) -> Self {
            Matrix { m: <[[f32; 4]; 4]>::from(m) }.transpose()
        }
    }
}

#[cfg(all(test, feature = "glam", feature = "mint"))]
mod tests {
    use crate::{Matrix, Point, Quaternion, Vector2, Vector3, Vector4};

    #[test]
    fn glam_matrices_are_the_same_transform() {
        let m = Matrix::create_from_yaw_pitch_roll(0.3, 0.2, 0.1)
            * Matrix::create_translation(1.0, 2.0, 3.0);
        let g = glam::Mat4::from(m);
        let v = Vector3::new(0.5, -1.0, 2.0);
        let ours = v.transform(&m);
        let theirs = Vector3::from(g.transform_point3(glam::Vec3::from(v)));
        assert!((ours - theirs).length() < 1e-6);
        assert_eq!(Matrix::from(g), m);
        let q = Quaternion::create_from_axis_angle(Vector3::UNIT_Y, 0.7);
        let gq = glam::Quat::from(q);
        assert!(
            (Vector3::from(gq * glam::Vec3::X) - Vector3::UNIT_X.transform_quaternion(q)).length()
                < 1e-6
        );
        assert_eq!(Quaternion::from(gq), q);
        assert_eq!(Vector2::from(glam::Vec2::from(Vector2::new(1.0, 2.0))), Vector2::new(1.0, 2.0));
        assert_eq!(Vector3::from(glam::Vec3A::from(v)), v);
        assert_eq!(Vector4::from(glam::Vec4::from(Vector4::ONE)), Vector4::ONE);
        assert_eq!(Point::from(glam::IVec2::from(Point::new(3, 4))), Point::new(3, 4));
    }

    #[test]
    fn mint_round_trips_and_matrix_orders() {
        let m = Matrix::create_translation(1.0, 2.0, 3.0);
        let rows = mint::RowMatrix4::from(m);
        assert_eq!(rows.w, mint::Vector4 { x: 1.0, y: 2.0, z: 3.0, w: 1.0 });
        let cols = mint::ColumnMatrix4::from(m);
        assert_eq!(cols.w, mint::Vector4 { x: 0.0, y: 0.0, z: 0.0, w: 1.0 });
        assert_eq!(cols.x, mint::Vector4 { x: 1.0, y: 0.0, z: 0.0, w: 1.0 });
        assert_eq!(Matrix::from(rows), m);
        assert_eq!(Matrix::from(cols), m);
        let q = Quaternion::new(1.0, 2.0, 3.0, 4.0);
        assert_eq!(Quaternion::from(mint::Quaternion::from(q)), q);
        assert_eq!(Vector2::from(mint::Vector2::from(Vector2::ONE)), Vector2::ONE);
        assert_eq!(Vector3::from(mint::Vector3::from(Vector3::UP)), Vector3::UP);
        assert_eq!(Vector4::from(mint::Vector4::from(Vector4::UNIT_W)), Vector4::UNIT_W);
        assert_eq!(Point::from(mint::Point2::from(Point::new(-1, 5))), Point::new(-1, 5));
    }
}

#[cfg(all(test, feature = "serde"))]
mod serde_tests {
    use crate::{BoundingFrustum, Color, Curve, CurveKey, MathHelper, Matrix};

    fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned>(value: &T) -> T {
        let bytes = postcard::to_stdvec(value).expect("serializes");
        postcard::from_bytes(&bytes).expect("deserializes")
    }

    #[test]
    fn values_round_trip_through_serde() {
        let m = Matrix::create_rotation_z(0.3) * Matrix::create_translation(1.0, 2.0, 3.0);
        assert_eq!(round_trip(&m), m);
        assert_eq!(round_trip(&Color::CORNFLOWER_BLUE), Color::CORNFLOWER_BLUE);
        let f = BoundingFrustum::new(
            Matrix::create_perspective_field_of_view(MathHelper::PI_OVER_4, 1.5, 1.0, 9.0).unwrap(),
        );
        assert_eq!(round_trip(&f), f);
        let mut c = Curve::new();
        c.keys.add(CurveKey::new(1.0, 2.0));
        assert_eq!(round_trip(&c), c);
        assert_eq!(
            round_trip(&crate::packed::HalfVector4(0x1234)),
            crate::packed::HalfVector4(0x1234)
        );
    }
}
