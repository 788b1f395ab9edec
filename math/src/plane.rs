//! `Plane`: the points p with `normal · p + d = 0`, its front the side `normal` points to.
//! Construction from coefficients or three points, the dot products XNA names (Dot,
//! DotCoordinate, DotNormal), Normalize, Transform by a matrix or a quaternion, and the plane's
//! side of a point or of each bounding volume.

use crate::{
    BoundingBox, BoundingFrustum, BoundingSphere, Matrix, PlaneIntersectionType, Quaternion,
    Vector3, Vector4,
};

/// XNA's `Plane`: a normal and the distance term `d` (`normal · p + d = 0` on the plane).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Plane {
    /// `Normal`.
    pub normal: Vector3,
    /// `D`: minus the distance from the origin along `normal`, when the normal is unit length.
    pub d: f32,
}

impl Plane {
    /// `new Plane(a, b, c, d)`.
    pub const fn new(a: f32, b: f32, c: f32, d: f32) -> Self {
        Plane { normal: Vector3::new(a, b, c), d }
    }

    /// `new Plane(normal, d)`.
    pub const fn from_normal(normal: Vector3, d: f32) -> Self {
        Plane { normal, d }
    }

    /// `new Plane(value)`: (x, y, z) is the normal, w the distance term.
    pub const fn from_vector4(value: Vector4) -> Self {
        Plane::new(value.x, value.y, value.z, value.w)
    }

    /// `new Plane(point1, point2, point3)`: the plane through three points, its normal
    /// `normalize((point2 − point1) × (point3 − point1))` (counter-clockwise points face the
    /// viewer). Collinear points give NaNs, as in XNA.
    pub fn from_points(point1: Vector3, point2: Vector3, point3: Vector3) -> Self {
        let normal = (point2 - point1).cross(point3 - point1).normalize();
        Plane { normal, d: -normal.dot(point1) }
    }

    /// `Plane.Dot(value)`: `normal · (x, y, z) + d · w`.
    pub fn dot(self, value: Vector4) -> f32 {
        self.normal.x * value.x
            + self.normal.y * value.y
            + self.normal.z * value.z
            + self.d * value.w
    }

    /// `Plane.DotCoordinate(value)`: `normal · value + d`, the signed distance of a point
    /// (times the normal's length).
    pub fn dot_coordinate(self, value: Vector3) -> f32 {
        self.normal.dot(value) + self.d
    }

    /// `Plane.DotNormal(value)`: `normal · value`.
    pub fn dot_normal(self, value: Vector3) -> f32 {
        self.normal.dot(value)
    }

    /// `Plane.Normalize(value)`: normal and `d` divided by the normal's length; left exactly as
    /// it is when the length is already within one float epsilon of 1, as in XNA.
    pub fn normalize(self) -> Plane {
        let len2 = self.normal.length_squared();
        if (len2 - 1.0).abs() < 1.192_092_9e-7 {
            return self;
        }
        let r = 1.0 / len2.sqrt();
        Plane { normal: self.normal * r, d: self.d * r }
    }

    /// `Plane.Transform(plane, matrix)`: the plane moved by `matrix` (its coefficients times
    /// the inverse transpose). The plane need not be normalized; the result is not.
    pub fn transform(self, matrix: &Matrix) -> Plane {
        let m = matrix.invert().m;
        let (x, y, z, w) = (self.normal.x, self.normal.y, self.normal.z, self.d);
        let row = |r: [f32; 4]| x * r[0] + y * r[1] + z * r[2] + w * r[3];
        Plane::new(row(m[0]), row(m[1]), row(m[2]), row(m[3]))
    }

    /// `Plane.Transform(plane, rotation)`: the normal rotated, `d` unchanged.
    pub fn transform_quaternion(self, rotation: Quaternion) -> Plane {
        Plane { normal: self.normal.transform_quaternion(rotation), d: self.d }
    }

    /// Which side of the plane `point` lies on (`Intersecting` exactly on it).
    pub fn intersects_point(self, point: Vector3) -> PlaneIntersectionType {
        let distance = self.dot_coordinate(point);
        if distance > 0.0 {
            PlaneIntersectionType::Front
        } else if distance < 0.0 {
            PlaneIntersectionType::Back
        } else {
            PlaneIntersectionType::Intersecting
        }
    }

    /// `Plane.Intersects(box)`: see [`BoundingBox::intersects_plane`].
    pub fn intersects_box(self, box_: &BoundingBox) -> PlaneIntersectionType {
        box_.intersects_plane(self)
    }

    /// `Plane.Intersects(sphere)`: see [`BoundingSphere::intersects_plane`].
    pub fn intersects_sphere(self, sphere: &BoundingSphere) -> PlaneIntersectionType {
        sphere.intersects_plane(self)
    }

    /// `Plane.Intersects(frustum)`: see [`BoundingFrustum::intersects_plane`].
    pub fn intersects_frustum(self, frustum: &BoundingFrustum) -> PlaneIntersectionType {
        frustum.intersects_plane(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_points_give_a_unit_normal_facing_counter_clockwise() {
        let p = Plane::from_points(Vector3::ZERO, Vector3::UNIT_X, Vector3::UNIT_Y);
        assert_eq!(p, Plane::new(0.0, 0.0, 1.0, 0.0));
        let q = Plane::from_points(
            Vector3::new(0.0, 2.0, 0.0),
            Vector3::new(0.0, 2.0, 1.0),
            Vector3::new(1.0, 2.0, 0.0),
        );
        assert_eq!(q, Plane::new(0.0, 1.0, 0.0, -2.0));
        assert_eq!(q.dot_coordinate(Vector3::new(5.0, 7.0, 5.0)), 5.0);
        assert_eq!(q.dot_normal(Vector3::new(5.0, 7.0, 5.0)), 7.0);
        assert_eq!(q.dot(Vector4::new(1.0, 7.0, 1.0, 0.0)), 7.0);
    }

    #[test]
    fn normalize_scales_normal_and_distance_together() {
        assert_eq!(Plane::new(0.0, 3.0, 4.0, 10.0).normalize(), Plane::new(0.0, 0.6, 0.8, 2.0));
        let unit = Plane::new(0.6, 0.8, 0.0, 1.0);
        assert_eq!(unit.normalize(), unit);
    }

    #[test]
    fn transform_moves_the_plane_with_the_geometry() {
        let p = Plane::new(0.0, 1.0, 0.0, -2.0); // y = 2
        let moved = p.transform(&Matrix::create_translation(0.0, 3.0, 0.0)); // y = 5
        assert!((moved.dot_coordinate(Vector3::new(1.0, 5.0, 1.0))).abs() < 1e-6);
        let turned = p.transform(&Matrix::create_rotation_z(crate::MathHelper::PI_OVER_2));
        // y = 2 turned a quarter about z is x = −2.
        assert!(turned.dot_coordinate(Vector3::new(-2.0, 9.0, 0.0)).abs() < 1e-6, "{turned:?}");
        let q = Quaternion::create_from_axis_angle(Vector3::UNIT_Z, crate::MathHelper::PI_OVER_2);
        let tq = p.transform_quaternion(q);
        assert!((tq.normal - Vector3::LEFT).length() < 1e-6 && tq.d == -2.0);
    }

    #[test]
    fn points_are_classified_by_the_signed_distance() {
        let p = Plane::new(0.0, 1.0, 0.0, -2.0);
        assert_eq!(p.intersects_point(Vector3::new(0.0, 3.0, 0.0)), PlaneIntersectionType::Front);
        assert_eq!(p.intersects_point(Vector3::new(0.0, 1.0, 0.0)), PlaneIntersectionType::Back);
        assert_eq!(
            p.intersects_point(Vector3::new(4.0, 2.0, 0.0)),
            PlaneIntersectionType::Intersecting
        );
    }
}
