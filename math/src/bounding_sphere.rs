//! `BoundingSphere`: a centre and a radius, built from points, a box, a frustum or two spheres,
//! moved by a matrix, and tested against points, boxes, spheres, frustums, planes and rays.
//! The surface counts as inside.

use crate::error::MathError;
use crate::{
    BoundingBox, BoundingFrustum, ContainmentType, Matrix, Plane, PlaneIntersectionType, Ray,
    Vector3,
};

/// XNA's `BoundingSphere`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BoundingSphere {
    /// `Center`.
    pub center: Vector3,
    /// `Radius`.
    pub radius: f32,
}

impl BoundingSphere {
    /// `new BoundingSphere(center, radius)`.
    pub const fn new(center: Vector3, radius: f32) -> Self {
        BoundingSphere { center, radius }
    }

    /// `BoundingSphere.CreateFromPoints(points)`: a sphere holding every point (not always the
    /// smallest): the two furthest-apart extreme points along an axis seed it, then each point
    /// outside grows it just enough. An `ArgumentException` (`points`) when there are none.
    pub fn create_from_points(points: &[Vector3]) -> Result<BoundingSphere, MathError> {
        let Some(&first) = points.first() else {
            return Err(MathError::Argument {
                param: "points",
                message: "at least one point is needed",
            });
        };
        let (mut lo, mut hi) = ([first; 3], [first; 3]);
        for &p in points {
            for axis in 0..3 {
                let c = |v: Vector3| [v.x, v.y, v.z][axis];
                if c(p) < c(lo[axis]) {
                    lo[axis] = p;
                }
                if c(p) > c(hi[axis]) {
                    hi[axis] = p;
                }
            }
        }
        let spans: [f32; 3] = std::array::from_fn(|a| hi[a].distance_squared(lo[a]));
        let mut axis = 0;
        if spans[1] > spans[0] && spans[1] > spans[2] {
            axis = 1;
        }
        if spans[2] > spans[0] && spans[2] > spans[1] {
            axis = 2;
        }
        let mut center = (lo[axis] + hi[axis]) * 0.5;
        let mut radius = hi[axis].distance(center);
        for &p in points {
            let diff = p - center;
            let d2 = diff.length_squared();
            if d2 > radius * radius {
                let d = d2.sqrt();
                let back = center - diff * (radius / d);
                center = (back + p) * 0.5;
                radius = p.distance(center);
            }
        }
        Ok(BoundingSphere::new(center, radius))
    }

    /// `BoundingSphere.CreateFromBoundingBox(box)`: centred on the box, through its corners.
    pub fn create_from_bounding_box(box_: &BoundingBox) -> BoundingSphere {
        let center = (box_.min + box_.max) * 0.5;
        BoundingSphere::new(center, center.distance(box_.max))
    }

    /// `BoundingSphere.CreateFromFrustum(frustum)`:
    /// [`create_from_points`](Self::create_from_points) of its eight corners.
    pub fn create_from_frustum(frustum: &BoundingFrustum) -> BoundingSphere {
        let corners = frustum.get_corners();
        let first = corners[0];
        Self::create_from_points(&corners).unwrap_or(BoundingSphere::new(first, 0.0))
    }

    /// `BoundingSphere.CreateMerged(original, additional)`: the smallest sphere holding both.
    pub fn create_merged(original: &BoundingSphere, additional: &BoundingSphere) -> BoundingSphere {
        let to_additional = additional.center - original.center;
        let distance = to_additional.length();
        if distance <= original.radius + additional.radius {
            if distance <= original.radius - additional.radius {
                return *original;
            }
            if distance <= additional.radius - original.radius {
                return *additional;
            }
        }
        let near = (original.radius - distance).max(additional.radius);
        let far = (original.radius + distance).max(additional.radius);
        let shift = to_additional + to_additional * ((near - far) / (2.0 * distance));
        BoundingSphere::new(original.center + shift, (near + far) * 0.5)
    }

    /// `BoundingSphere.Transform(matrix)`: the centre moved and the radius scaled by the
    /// largest axis scale of `matrix`, so the result still holds the transformed sphere.
    pub fn transform(&self, matrix: &Matrix) -> BoundingSphere {
        let m = &matrix.m;
        let row = |r: usize| m[r][0] * m[r][0] + m[r][1] * m[r][1] + m[r][2] * m[r][2];
        let scale = row(0).max(row(1).max(row(2))).sqrt();
        BoundingSphere::new(self.center.transform(matrix), self.radius * scale)
    }

    /// `BoundingSphere.Contains(point)`: `Contains` within or on the surface, else `Disjoint`.
    pub fn contains_point(&self, point: Vector3) -> ContainmentType {
        if point.distance_squared(self.center) <= self.radius * self.radius {
            ContainmentType::Contains
        } else {
            ContainmentType::Disjoint
        }
    }

    /// `BoundingSphere.Contains(box)`: `Contains` when all eight corners are inside.
    pub fn contains_box(&self, box_: &BoundingBox) -> ContainmentType {
        if !box_.intersects_sphere(self) {
            ContainmentType::Disjoint
        } else if box_
            .get_corners()
            .iter()
            .all(|&c| self.contains_point(c) == ContainmentType::Contains)
        {
            ContainmentType::Contains
        } else {
            ContainmentType::Intersects
        }
    }

    /// `BoundingSphere.Contains(sphere)`.
    pub fn contains_sphere(&self, sphere: &BoundingSphere) -> ContainmentType {
        let distance = self.center.distance(sphere.center);
        if self.radius + sphere.radius < distance {
            ContainmentType::Disjoint
        } else if self.radius - sphere.radius < distance {
            ContainmentType::Intersects
        } else {
            ContainmentType::Contains
        }
    }

    /// `BoundingSphere.Contains(frustum)`: `Contains` when all eight corners are inside.
    pub fn contains_frustum(&self, frustum: &BoundingFrustum) -> ContainmentType {
        if !frustum.intersects_sphere(self) {
            ContainmentType::Disjoint
        } else if frustum
            .get_corners()
            .iter()
            .all(|&c| self.contains_point(c) == ContainmentType::Contains)
        {
            ContainmentType::Contains
        } else {
            ContainmentType::Intersects
        }
    }

    /// `BoundingSphere.Intersects(sphere)`: overlapping or touching.
    pub fn intersects_sphere(&self, sphere: &BoundingSphere) -> bool {
        let r = self.radius + sphere.radius;
        self.center.distance_squared(sphere.center) <= r * r
    }

    /// `BoundingSphere.Intersects(box)`: see [`BoundingBox::intersects_sphere`].
    pub fn intersects_box(&self, box_: &BoundingBox) -> bool {
        box_.intersects_sphere(self)
    }

    /// `BoundingSphere.Intersects(frustum)`: see [`BoundingFrustum::intersects_sphere`].
    pub fn intersects_frustum(&self, frustum: &BoundingFrustum) -> bool {
        frustum.intersects_sphere(self)
    }

    /// `BoundingSphere.Intersects(plane)`: `Front` or `Back` when the centre is further than the
    /// radius from the plane, else `Intersecting` (touching counts).
    pub fn intersects_plane(&self, plane: Plane) -> PlaneIntersectionType {
        let distance = plane.dot_coordinate(self.center);
        if distance > self.radius {
            PlaneIntersectionType::Front
        } else if distance < -self.radius {
            PlaneIntersectionType::Back
        } else {
            PlaneIntersectionType::Intersecting
        }
    }

    /// `BoundingSphere.Intersects(ray)`: see [`Ray::intersects_sphere`].
    pub fn intersects_ray(&self, ray: &Ray) -> Option<f32> {
        ray.intersects_sphere(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_from_points_holds_every_point() {
        let pts = [
            Vector3::new(-1.0, 0.0, 0.0),
            Vector3::new(1.0, 0.0, 0.0),
            Vector3::new(0.0, 0.9, 0.0),
            Vector3::new(0.3, 0.3, 1.5),
        ];
        let s = BoundingSphere::create_from_points(&pts).unwrap();
        for p in pts {
            assert!(p.distance(s.center) <= s.radius * (1.0 + 1e-6), "{p:?} outside {s:?}");
        }
        let one = BoundingSphere::create_from_points(&[Vector3::ONE]).unwrap();
        assert_eq!(one, BoundingSphere::new(Vector3::ONE, 0.0));
        assert!(matches!(
            BoundingSphere::create_from_points(&[]),
            Err(MathError::Argument { param: "points", .. })
        ));
    }

    #[test]
    fn from_box_passes_through_the_corners() {
        let b = BoundingBox::new(Vector3::splat(-1.0), Vector3::splat(1.0));
        let s = BoundingSphere::create_from_bounding_box(&b);
        assert_eq!(s, BoundingSphere::new(Vector3::ZERO, 3f32.sqrt()));
    }

    #[test]
    fn merged_holds_both_or_returns_the_container() {
        let a = BoundingSphere::new(Vector3::ZERO, 1.0);
        let b = BoundingSphere::new(Vector3::new(4.0, 0.0, 0.0), 1.0);
        assert_eq!(
            BoundingSphere::create_merged(&a, &b),
            BoundingSphere::new(Vector3::new(2.0, 0.0, 0.0), 3.0)
        );
        let big = BoundingSphere::new(Vector3::ZERO, 5.0);
        assert_eq!(BoundingSphere::create_merged(&big, &b), big);
        assert_eq!(BoundingSphere::create_merged(&a, &big), big);
    }

    #[test]
    fn transform_scales_by_the_largest_axis() {
        let s = BoundingSphere::new(Vector3::UNIT_X, 2.0);
        let m = Matrix::create_scale(1.0, 3.0, 2.0) * Matrix::create_translation(0.0, 1.0, 0.0);
        assert_eq!(s.transform(&m), BoundingSphere::new(Vector3::new(1.0, 1.0, 0.0), 6.0));
    }

    #[test]
    fn containment_of_points_spheres_and_boxes() {
        let s = BoundingSphere::new(Vector3::ZERO, 2.0);
        assert_eq!(s.contains_point(Vector3::new(0.0, 2.0, 0.0)), ContainmentType::Contains);
        assert_eq!(s.contains_point(Vector3::new(0.0, 2.01, 0.0)), ContainmentType::Disjoint);
        assert_eq!(
            s.contains_sphere(&BoundingSphere::new(Vector3::UNIT_X, 1.0)),
            ContainmentType::Contains
        );
        assert_eq!(
            s.contains_sphere(&BoundingSphere::new(Vector3::UNIT_X, 1.5)),
            ContainmentType::Intersects
        );
        assert_eq!(
            s.contains_sphere(&BoundingSphere::new(Vector3::new(4.0, 0.0, 0.0), 2.0)),
            ContainmentType::Intersects
        );
        assert_eq!(
            s.contains_sphere(&BoundingSphere::new(Vector3::new(4.1, 0.0, 0.0), 2.0)),
            ContainmentType::Disjoint
        );
        // A bigger sphere around the same centre is not contained.
        assert_eq!(
            s.contains_sphere(&BoundingSphere::new(Vector3::ZERO, 3.0)),
            ContainmentType::Intersects
        );
        let small = BoundingBox::new(Vector3::splat(-1.0), Vector3::splat(1.0));
        assert_eq!(s.contains_box(&small), ContainmentType::Contains);
        let big = BoundingBox::new(Vector3::splat(-1.5), Vector3::splat(1.5));
        assert_eq!(s.contains_box(&big), ContainmentType::Intersects);
        let far = BoundingBox::new(Vector3::splat(1.5), Vector3::splat(2.5));
        assert_eq!(s.contains_box(&far), ContainmentType::Disjoint);
        assert!(s.intersects_sphere(&BoundingSphere::new(Vector3::new(0.0, 0.0, 3.0), 1.0)));
        assert!(!s.intersects_box(&far));
    }

    #[test]
    fn plane_sides_count_touching_as_intersecting() {
        let s = BoundingSphere::new(Vector3::ZERO, 1.0);
        assert_eq!(
            s.intersects_plane(Plane::new(0.0, 1.0, 0.0, -1.0)),
            PlaneIntersectionType::Intersecting
        );
        assert_eq!(
            s.intersects_plane(Plane::new(0.0, 1.0, 0.0, -1.01)),
            PlaneIntersectionType::Back
        );
        assert_eq!(
            s.intersects_plane(Plane::new(0.0, 1.0, 0.0, 1.01)),
            PlaneIntersectionType::Front
        );
    }
}
