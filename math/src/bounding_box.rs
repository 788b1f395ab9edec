//! `BoundingBox`: an axis-aligned box from `min` to `max`, built from points, a sphere or two
//! boxes, and tested against points, boxes, spheres, frustums, planes and rays. Faces count as
//! inside: a point on a face is contained, boxes that share a face intersect.

use crate::error::MathError;
use crate::{
    BoundingFrustum, BoundingSphere, ContainmentType, Plane, PlaneIntersectionType, Ray, Vector3,
};

/// XNA's `BoundingBox`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BoundingBox {
    /// `Min`: the corner with the smallest coordinates.
    pub min: Vector3,
    /// `Max`: the corner with the largest coordinates.
    pub max: Vector3,
}

impl BoundingBox {
    /// `BoundingBox.CornerCount`.
    pub const CORNER_COUNT: usize = 8;

    /// `new BoundingBox(min, max)`.
    pub const fn new(min: Vector3, max: Vector3) -> Self {
        BoundingBox { min, max }
    }

    /// `BoundingBox.CreateFromPoints(points)`: the smallest box holding every point. An
    /// `ArgumentException` (`points`) when there are none, as in XNA.
    pub fn create_from_points(
        points: impl IntoIterator<Item = Vector3>,
    ) -> Result<BoundingBox, MathError> {
        let mut points = points.into_iter();
        let first = points.next().ok_or(MathError::Argument {
            param: "points",
            message: "at least one point is needed",
        })?;
        Ok(points.fold(BoundingBox::new(first, first), |b, p| {
            BoundingBox::new(b.min.min(p), b.max.max(p))
        }))
    }

    /// `BoundingBox.CreateFromSphere(sphere)`: the cube around the sphere.
    pub fn create_from_sphere(sphere: &BoundingSphere) -> BoundingBox {
        let r = Vector3::splat(sphere.radius);
        BoundingBox::new(sphere.center - r, sphere.center + r)
    }

    /// `BoundingBox.CreateMerged(original, additional)`: the smallest box holding both.
    pub fn create_merged(original: &BoundingBox, additional: &BoundingBox) -> BoundingBox {
        BoundingBox::new(original.min.min(additional.min), original.max.max(additional.max))
    }

    /// `BoundingBox.GetCorners()`: the near face (z = max) clockwise from its top left
    /// (min x, max y), then the far face (z = min) in the same order, as XNA lists them.
    pub fn get_corners(&self) -> [Vector3; 8] {
        let (a, b) = (self.min, self.max);
        [
            Vector3::new(a.x, b.y, b.z),
            Vector3::new(b.x, b.y, b.z),
            Vector3::new(b.x, a.y, b.z),
            Vector3::new(a.x, a.y, b.z),
            Vector3::new(a.x, b.y, a.z),
            Vector3::new(b.x, b.y, a.z),
            Vector3::new(b.x, a.y, a.z),
            Vector3::new(a.x, a.y, a.z),
        ]
    }

    /// `BoundingBox.Contains(point)`: `Contains` inside or on a face, else `Disjoint`.
    pub fn contains_point(&self, point: Vector3) -> ContainmentType {
        let (a, b) = (self.min, self.max);
        if point.x < a.x
            || point.x > b.x
            || point.y < a.y
            || point.y > b.y
            || point.z < a.z
            || point.z > b.z
        {
            ContainmentType::Disjoint
        } else {
            ContainmentType::Contains
        }
    }

    /// `BoundingBox.Contains(box)`.
    pub fn contains_box(&self, other: &BoundingBox) -> ContainmentType {
        if !self.intersects_box(other) {
            ContainmentType::Disjoint
        } else if other.min.x >= self.min.x
            && other.max.x <= self.max.x
            && other.min.y >= self.min.y
            && other.max.y <= self.max.y
            && other.min.z >= self.min.z
            && other.max.z <= self.max.z
        {
            ContainmentType::Contains
        } else {
            ContainmentType::Intersects
        }
    }

    /// `BoundingBox.Contains(sphere)`: `Contains` when the sphere fits between the faces,
    /// `Intersects` when its centre is within its radius of the box.
    pub fn contains_sphere(&self, sphere: &BoundingSphere) -> ContainmentType {
        let (c, r) = (sphere.center, sphere.radius);
        let inside = (c - self.min).min(self.max - c);
        if inside.x >= r && inside.y >= r && inside.z >= r {
            ContainmentType::Contains
        } else if self.intersects_sphere(sphere) {
            ContainmentType::Intersects
        } else {
            ContainmentType::Disjoint
        }
    }

    /// `BoundingBox.Contains(frustum)`: `Contains` when all eight corners are inside.
    pub fn contains_frustum(&self, frustum: &BoundingFrustum) -> ContainmentType {
        if !frustum.intersects_box(self) {
            return ContainmentType::Disjoint;
        }
        if frustum
            .get_corners()
            .iter()
            .all(|&p| self.contains_point(p) == ContainmentType::Contains)
        {
            ContainmentType::Contains
        } else {
            ContainmentType::Intersects
        }
    }

    /// `BoundingBox.Intersects(box)`: overlapping or touching.
    pub fn intersects_box(&self, other: &BoundingBox) -> bool {
        self.max.x >= other.min.x
            && self.min.x <= other.max.x
            && self.max.y >= other.min.y
            && self.min.y <= other.max.y
            && self.max.z >= other.min.z
            && self.min.z <= other.max.z
    }

    /// `BoundingBox.Intersects(sphere)`: the box's closest point to the centre lies within the
    /// radius (touching counts).
    pub fn intersects_sphere(&self, sphere: &BoundingSphere) -> bool {
        let closest = sphere.center.clamp(self.min, self.max);
        closest.distance_squared(sphere.center) <= sphere.radius * sphere.radius
    }

    /// `BoundingBox.Intersects(frustum)`: see [`BoundingFrustum::intersects_box`].
    pub fn intersects_frustum(&self, frustum: &BoundingFrustum) -> bool {
        frustum.intersects_box(self)
    }

    /// `BoundingBox.Intersects(plane)`: `Front` when even the corner furthest behind is in
    /// front, `Back` when even the corner furthest in front is behind, else `Intersecting`
    /// (a box touching the plane intersects it).
    #[inline]
    pub fn intersects_plane(&self, plane: Plane) -> PlaneIntersectionType {
        let n = plane.normal;
        let pick = |pos: bool, a: f32, b: f32| if pos { a } else { b };
        let back = Vector3::new(
            pick(n.x >= 0.0, self.min.x, self.max.x),
            pick(n.y >= 0.0, self.min.y, self.max.y),
            pick(n.z >= 0.0, self.min.z, self.max.z),
        );
        if n.dot(back) + plane.d > 0.0 {
            return PlaneIntersectionType::Front;
        }
        let front = Vector3::new(
            pick(n.x >= 0.0, self.max.x, self.min.x),
            pick(n.y >= 0.0, self.max.y, self.min.y),
            pick(n.z >= 0.0, self.max.z, self.min.z),
        );
        if n.dot(front) + plane.d < 0.0 {
            PlaneIntersectionType::Back
        } else {
            PlaneIntersectionType::Intersecting
        }
    }

    /// `BoundingBox.Intersects(ray)`: see [`Ray::intersects_box`].
    pub fn intersects_ray(&self, ray: &Ray) -> Option<f32> {
        ray.intersects_box(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit() -> BoundingBox {
        BoundingBox::new(Vector3::ZERO, Vector3::ONE)
    }

    #[test]
    fn built_from_points_spheres_and_merges() {
        let b = BoundingBox::create_from_points([
            Vector3::new(1.0, -2.0, 3.0),
            Vector3::new(-1.0, 4.0, 0.0),
        ])
        .unwrap();
        assert_eq!(b, BoundingBox::new(Vector3::new(-1.0, -2.0, 0.0), Vector3::new(1.0, 4.0, 3.0)));
        let err = BoundingBox::create_from_points([]).unwrap_err();
        assert!(matches!(err, MathError::Argument { param: "points", .. }));
        let s = BoundingSphere::new(Vector3::ONE, 2.0);
        assert_eq!(
            BoundingBox::create_from_sphere(&s),
            BoundingBox::new(Vector3::splat(-1.0), Vector3::splat(3.0))
        );
        let m = BoundingBox::create_merged(
            &unit(),
            &BoundingBox::new(Vector3::splat(-1.0), Vector3::splat(0.5)),
        );
        assert_eq!(m, BoundingBox::new(Vector3::splat(-1.0), Vector3::ONE));
        let c = unit().get_corners();
        assert_eq!(c[0], Vector3::new(0.0, 1.0, 1.0));
        assert_eq!(c[6], Vector3::new(1.0, 0.0, 0.0));
    }

    #[test]
    fn points_on_a_face_are_contained() {
        assert_eq!(unit().contains_point(Vector3::new(1.0, 0.5, 0.0)), ContainmentType::Contains);
        assert_eq!(
            unit().contains_point(Vector3::new(1.0001, 0.5, 0.5)),
            ContainmentType::Disjoint
        );
    }

    #[test]
    fn box_containment_distinguishes_inside_touching_and_apart() {
        let inner = BoundingBox::new(Vector3::splat(0.25), Vector3::splat(0.75));
        assert_eq!(unit().contains_box(&inner), ContainmentType::Contains);
        assert_eq!(unit().contains_box(&unit()), ContainmentType::Contains);
        let touching = BoundingBox::new(Vector3::new(1.0, 0.0, 0.0), Vector3::new(2.0, 1.0, 1.0));
        assert_eq!(unit().contains_box(&touching), ContainmentType::Intersects);
        assert!(unit().intersects_box(&touching));
        let apart = BoundingBox::new(Vector3::splat(1.5), Vector3::splat(2.0));
        assert_eq!(unit().contains_box(&apart), ContainmentType::Disjoint);
    }

    #[test]
    fn sphere_containment_and_intersection() {
        let b = unit();
        assert_eq!(
            b.contains_sphere(&BoundingSphere::new(Vector3::splat(0.5), 0.5)),
            ContainmentType::Contains
        );
        assert_eq!(
            b.contains_sphere(&BoundingSphere::new(Vector3::splat(0.5), 0.6)),
            ContainmentType::Intersects
        );
        // Off a corner: within 1 on each axis but sqrt(3)·0.5 > 0.8 from the corner.
        let off_corner = BoundingSphere::new(Vector3::splat(1.5), 0.8);
        assert_eq!(b.contains_sphere(&off_corner), ContainmentType::Disjoint);
        assert!(!b.intersects_sphere(&off_corner));
        assert!(b.intersects_sphere(&BoundingSphere::new(Vector3::new(2.0, 0.5, 0.5), 1.0)));
    }

    #[test]
    fn plane_sides_count_touching_as_intersecting() {
        let b = unit();
        assert_eq!(
            b.intersects_plane(Plane::new(0.0, 1.0, 0.0, 1.0)),
            PlaneIntersectionType::Front
        );
        assert_eq!(
            b.intersects_plane(Plane::new(0.0, 1.0, 0.0, -2.0)),
            PlaneIntersectionType::Back
        );
        assert_eq!(
            b.intersects_plane(Plane::new(0.0, 1.0, 0.0, -0.5)),
            PlaneIntersectionType::Intersecting
        );
        // The plane y = 1 touches the top face.
        assert_eq!(
            b.intersects_plane(Plane::new(0.0, 1.0, 0.0, -1.0)),
            PlaneIntersectionType::Intersecting
        );
        assert_eq!(
            b.intersects_plane(Plane::new(0.0, -1.0, 0.0, 1.0)),
            PlaneIntersectionType::Intersecting
        );
        assert_eq!(
            b.intersects_plane(Plane::new(0.0, -1.0, 0.0, -1.0)),
            PlaneIntersectionType::Back
        );
        assert_eq!(
            Plane::new(-1.0, 0.0, 0.0, -1.1).intersects_box(&b),
            PlaneIntersectionType::Back
        );
    }
}
