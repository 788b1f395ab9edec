//! `BoundingFrustum`: the view volume of a view × projection matrix, as six planes whose
//! normals point out of the volume (near, far, left, right, top, bottom, XNA's order) and its
//! eight corners, tested against points, boxes, spheres, frustums, planes and rays.
//!
//! A box, sphere or frustum is `Disjoint` when it lies wholly in front of one plane,
//! `Contains` when it lies behind all six, else `Intersects`; touching a plane counts as
//! intersecting it, so a box with a face exactly on the near plane `Intersects`. A point counts
//! as inside up to 1e-5 in front of a plane, as in XNA. The plane test is conservative near the
//! frustum's edges (a box just off a corner may report `Intersects`), as XNA's is.

use crate::{
    BoundingBox, BoundingSphere, ContainmentType, Matrix, Plane, PlaneIntersectionType, Ray,
    Vector3,
};

/// XNA's `BoundingFrustum`. XNA's is a class whose `Matrix` setter rebuilds the planes and
/// corners; here it is a value, rebuilt by [`BoundingFrustum::set_matrix`]. Not `Pod`: its
/// planes and corners are derived from the matrix, and bytes from elsewhere could disagree.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BoundingFrustum {
    matrix: Matrix,
    planes: [Plane; 6],
    corners: [Vector3; 8],
}

const NEAR: usize = 0;
const FAR: usize = 1;
const LEFT: usize = 2;
const RIGHT: usize = 3;
const TOP: usize = 4;
const BOTTOM: usize = 5;

impl BoundingFrustum {
    /// `BoundingFrustum.CornerCount`.
    pub const CORNER_COUNT: usize = 8;

    /// `new BoundingFrustum(value)`: the volume that `value` (typically view × projection)
    /// maps into clip space x, y ∈ [−1, 1], z ∈ [0, 1].
    pub fn new(value: Matrix) -> Self {
        let planes = planes_of(&value);
        let corner =
            |a: usize, b: usize, c: usize| intersection(&planes[a], &planes[b], &planes[c]);
        let corners = [
            corner(NEAR, LEFT, TOP),
            corner(NEAR, RIGHT, TOP),
            corner(NEAR, RIGHT, BOTTOM),
            corner(NEAR, LEFT, BOTTOM),
            corner(FAR, LEFT, TOP),
            corner(FAR, RIGHT, TOP),
            corner(FAR, RIGHT, BOTTOM),
            corner(FAR, LEFT, BOTTOM),
        ];
        BoundingFrustum { matrix: value, planes, corners }
    }

    /// `BoundingFrustum.Matrix`.
    pub fn matrix(&self) -> Matrix {
        self.matrix
    }

    /// `BoundingFrustum.Matrix = value`: rebuilds the planes and corners.
    pub fn set_matrix(&mut self, value: Matrix) {
        *self = BoundingFrustum::new(value);
    }

    /// `BoundingFrustum.Near`.
    pub fn near(&self) -> Plane {
        self.planes[NEAR]
    }
    /// `BoundingFrustum.Far`.
    pub fn far(&self) -> Plane {
        self.planes[FAR]
    }
    /// `BoundingFrustum.Left`.
    pub fn left(&self) -> Plane {
        self.planes[LEFT]
    }
    /// `BoundingFrustum.Right`.
    pub fn right(&self) -> Plane {
        self.planes[RIGHT]
    }
    /// `BoundingFrustum.Top`.
    pub fn top(&self) -> Plane {
        self.planes[TOP]
    }
    /// `BoundingFrustum.Bottom`.
    pub fn bottom(&self) -> Plane {
        self.planes[BOTTOM]
    }

    /// `BoundingFrustum.GetCorners()`: the near plane's corners (top left, top right, bottom
    /// right, bottom left), then the far plane's in the same order.
    pub fn get_corners(&self) -> [Vector3; 8] {
        self.corners
    }

    /// `BoundingFrustum.Contains(point)`: `Contains` unless the point lies more than 1e-5 in
    /// front of a plane.
    pub fn contains_point(&self, point: Vector3) -> ContainmentType {
        if self.planes.iter().any(|p| p.dot_coordinate(point) > 1e-5) {
            ContainmentType::Disjoint
        } else {
            ContainmentType::Contains
        }
    }

    /// Folds per-plane classifications into a containment: any `Front` is disjoint, any
    /// `Intersecting` intersects.
    fn classify(&self, side: impl Fn(Plane) -> PlaneIntersectionType) -> ContainmentType {
        let mut intersects = false;
        for &p in &self.planes {
            match side(p) {
                PlaneIntersectionType::Front => return ContainmentType::Disjoint,
                PlaneIntersectionType::Intersecting => intersects = true,
                PlaneIntersectionType::Back => {}
            }
        }
        if intersects {
            ContainmentType::Intersects
        } else {
            ContainmentType::Contains
        }
    }

    /// `BoundingFrustum.Contains(box)`.
    pub fn contains_box(&self, box_: &BoundingBox) -> ContainmentType {
        self.classify(|p| box_.intersects_plane(p))
    }

    /// `BoundingFrustum.Contains(sphere)`.
    pub fn contains_sphere(&self, sphere: &BoundingSphere) -> ContainmentType {
        self.classify(|p| sphere.intersects_plane(p))
    }

    /// `BoundingFrustum.Contains(frustum)`: the other frustum's corners classified against
    /// each plane; also `Disjoint` when this frustum's corners lie wholly in front of one of
    /// the other's planes, a separating plane XNA's one-sided test can miss.
    pub fn contains_frustum(&self, frustum: &BoundingFrustum) -> ContainmentType {
        if self == frustum {
            return ContainmentType::Contains;
        }
        let result = self.classify(|p| frustum.intersects_plane(p));
        let separated = frustum
            .planes
            .iter()
            .any(|&p| self.intersects_plane(p) == PlaneIntersectionType::Front);
        if separated {
            ContainmentType::Disjoint
        } else {
            result
        }
    }

    /// `BoundingFrustum.Intersects(box)`: not `Disjoint`, decided with one corner per plane
    /// (the one furthest behind it).
    #[inline]
    pub fn intersects_box(&self, box_: &BoundingBox) -> bool {
        self.planes.iter().all(|p| {
            let n = p.normal;
            let x = if n.x >= 0.0 { box_.min.x } else { box_.max.x };
            let y = if n.y >= 0.0 { box_.min.y } else { box_.max.y };
            let z = if n.z >= 0.0 { box_.min.z } else { box_.max.z };
            n.x * x + n.y * y + n.z * z + p.d <= 0.0
        })
    }

    /// `BoundingFrustum.Intersects(sphere)`: not `Disjoint`.
    pub fn intersects_sphere(&self, sphere: &BoundingSphere) -> bool {
        self.contains_sphere(sphere) != ContainmentType::Disjoint
    }

    /// `BoundingFrustum.Intersects(frustum)`: not `Disjoint`.
    pub fn intersects_frustum(&self, frustum: &BoundingFrustum) -> bool {
        self.contains_frustum(frustum) != ContainmentType::Disjoint
    }

    /// `BoundingFrustum.Intersects(plane)`: the side of the plane the eight corners lie on.
    pub fn intersects_plane(&self, plane: Plane) -> PlaneIntersectionType {
        let first = plane.intersects_point(self.corners[0]);
        if self.corners[1..].iter().all(|&c| plane.intersects_point(c) == first) {
            first
        } else {
            PlaneIntersectionType::Intersecting
        }
    }

    /// `BoundingFrustum.Intersects(ray)`: 0 when the ray starts inside, else the distance at
    /// which it enters (the ray clipped by each plane in turn), or `None` when it misses.
    pub fn intersects_ray(&self, ray: &Ray) -> Option<f32> {
        if self.contains_point(ray.position) == ContainmentType::Contains {
            return Some(0.0);
        }
        let (mut enter, mut leave) = (0.0f32, f32::INFINITY);
        for p in &self.planes {
            let start = p.dot_coordinate(ray.position);
            let rate = p.dot_normal(ray.direction);
            if rate == 0.0 {
                if start > 0.0 {
                    return None;
                }
                continue;
            }
            let t = -start / rate;
            if rate < 0.0 {
                enter = enter.max(t);
            } else {
                leave = leave.min(t);
            }
        }
        (enter <= leave).then_some(enter)
    }
}

/// The six planes of a view-projection matrix (Gribb and Hartmann), normals pointing out.
fn planes_of(m: &Matrix) -> [Plane; 6] {
    let col = |c: usize| [m.m[0][c], m.m[1][c], m.m[2][c], m.m[3][c]];
    let (x, y, z, w) = (col(0), col(1), col(2), col(3));
    let plane = |v: [f32; 4]| {
        let p = Plane::new(v[0], v[1], v[2], v[3]);
        let r = 1.0 / p.normal.length();
        Plane { normal: p.normal * r, d: p.d * r }
    };
    let comb =
        |a: [f32; 4], sa: f32, b: [f32; 4], sb: f32| std::array::from_fn(|i| a[i] * sa + b[i] * sb);
    [
        plane(z.map(|v| -v)),
        plane(comb(z, 1.0, w, -1.0)),
        plane(comb(w, -1.0, x, -1.0)),
        plane(comb(x, 1.0, w, -1.0)),
        plane(comb(y, 1.0, w, -1.0)),
        plane(comb(w, -1.0, y, -1.0)),
    ]
}

/// The point shared by three planes.
fn intersection(a: &Plane, b: &Plane, c: &Plane) -> Vector3 {
    let f = -a.normal.dot(b.normal.cross(c.normal));
    let v = b.normal.cross(c.normal) * a.d
        + c.normal.cross(a.normal) * b.d
        + a.normal.cross(b.normal) * c.d;
    Vector3::new(v.x / f, v.y / f, v.z / f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MathHelper;

    /// A camera at the origin looking down −z: 90° vertical field of view, square, near 1, far
    /// 10, so at distance z the half-width is z.
    fn camera() -> BoundingFrustum {
        let p = Matrix::create_perspective_field_of_view(MathHelper::PI_OVER_2, 1.0, 1.0, 10.0)
            .unwrap();
        BoundingFrustum::new(Matrix::IDENTITY * p)
    }

    fn close(a: Vector3, b: Vector3) -> bool {
        (a - b).length() < 1e-4
    }

    #[test]
    fn planes_face_out_and_corners_follow_xna_order() {
        let f = camera();
        assert!(close(f.near().normal, Vector3::BACKWARD) && (f.near().d - 1.0).abs() < 1e-5);
        assert!(close(f.far().normal, Vector3::FORWARD) && (f.far().d + 10.0).abs() < 1e-4);
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert!(close(f.left().normal, Vector3::new(-h, 0.0, h)));
        assert!(close(f.right().normal, Vector3::new(h, 0.0, h)));
        assert!(close(f.top().normal, Vector3::new(0.0, h, h)));
        assert!(close(f.bottom().normal, Vector3::new(0.0, -h, h)));
        let c = f.get_corners();
        assert!(close(c[0], Vector3::new(-1.0, 1.0, -1.0)), "{:?}", c[0]);
        assert!(close(c[2], Vector3::new(1.0, -1.0, -1.0)));
        assert!(close(c[5], Vector3::new(10.0, 10.0, -10.0)));
        assert!(close(c[7], Vector3::new(-10.0, -10.0, -10.0)));
        assert_eq!(BoundingFrustum::CORNER_COUNT, c.len());
        let mut g = f.clone();
        g.set_matrix(Matrix::create_translation(0.0, 0.0, -5.0) * f.matrix());
        assert!(close(g.get_corners()[0], Vector3::new(-1.0, 1.0, 4.0)));
    }

    #[test]
    fn containment_at_the_exact_boundary() {
        let f = camera();
        // A point exactly on the near plane is inside, 1e-5 of slack as in XNA.
        assert_eq!(f.contains_point(Vector3::new(0.0, 0.0, -1.0)), ContainmentType::Contains);
        // 5e-6 in front of the near plane is still inside; 1e-2 is not.
        assert_eq!(f.contains_point(Vector3::new(0.0, 0.0, -0.999_995)), ContainmentType::Contains);
        assert_eq!(f.contains_point(Vector3::new(0.0, 0.0, -0.99)), ContainmentType::Disjoint);
        // A box whose far face lies on the near plane touches it: Intersects, not Disjoint.
        let touching =
            BoundingBox::new(Vector3::new(-0.5, -0.5, -1.0), Vector3::new(0.5, 0.5, 0.0));
        assert_eq!(f.contains_box(&touching), ContainmentType::Intersects);
        assert!(f.intersects_box(&touching));
        // Moved just past the plane it is disjoint.
        let outside =
            BoundingBox::new(Vector3::new(-0.5, -0.5, -0.999), Vector3::new(0.5, 0.5, 0.0));
        assert_eq!(f.contains_box(&outside), ContainmentType::Disjoint);
        assert!(!f.intersects_box(&outside));
        // Wholly inside.
        let inside = BoundingBox::new(Vector3::new(-0.5, -0.5, -5.0), Vector3::new(0.5, 0.5, -2.0));
        assert_eq!(f.contains_box(&inside), ContainmentType::Contains);
        // A box whose near face lies on the near plane, reaching inside: it touches the plane
        // from behind, so it intersects rather than being contained.
        let on_plane =
            BoundingBox::new(Vector3::new(-0.5, -0.5, -3.0), Vector3::new(0.5, 0.5, -1.0));
        assert_eq!(f.contains_box(&on_plane), ContainmentType::Intersects);
        assert_eq!(inside.contains_frustum(&f), ContainmentType::Intersects);
        assert!(touching.intersects_frustum(&f));
    }

    #[test]
    fn spheres_are_classified_plane_by_plane() {
        let f = camera();
        assert_eq!(
            f.contains_sphere(&BoundingSphere::new(Vector3::new(0.0, 0.0, -5.0), 1.0)),
            ContainmentType::Contains
        );
        assert_eq!(
            f.contains_sphere(&BoundingSphere::new(Vector3::new(0.0, 0.0, -10.0), 1.0)),
            ContainmentType::Intersects
        );
        assert_eq!(
            f.contains_sphere(&BoundingSphere::new(Vector3::new(0.0, 0.0, 5.0), 1.0)),
            ContainmentType::Disjoint
        );
        assert!(f.intersects_sphere(&BoundingSphere::new(Vector3::new(0.0, 0.0, -0.5), 0.5)));
        assert!(BoundingSphere::new(Vector3::new(0.0, 0.0, -5.0), 1.0).intersects_frustum(&f));
        let big = BoundingSphere::new(Vector3::ZERO, 100.0);
        assert_eq!(big.contains_frustum(&f), ContainmentType::Contains);
    }

    #[test]
    fn frustums_against_frustums_and_planes() {
        let f = camera();
        assert_eq!(f.contains_frustum(&f.clone()), ContainmentType::Contains);
        let behind = BoundingFrustum::new(Matrix::create_rotation_y(MathHelper::PI) * f.matrix());
        // The same camera turned round: they share only the apex region behind the near plane.
        assert!(!f.intersects_frustum(&behind));
        let shifted = BoundingFrustum::new(Matrix::create_translation(-1.0, 0.0, 0.0) * f.matrix());
        assert!(f.intersects_frustum(&shifted));
        assert_eq!(
            f.intersects_plane(Plane::new(0.0, 0.0, 1.0, -1.0)),
            PlaneIntersectionType::Back
        );
        assert_eq!(
            f.intersects_plane(Plane::new(0.0, 0.0, 1.0, 5.0)),
            PlaneIntersectionType::Intersecting
        );
        assert_eq!(
            Plane::new(0.0, 0.0, 1.0, 11.0).intersects_frustum(&f),
            PlaneIntersectionType::Front
        );
    }

    #[test]
    fn rays_enter_through_the_nearest_face() {
        let f = camera();
        assert_eq!(
            f.intersects_ray(&Ray::new(Vector3::new(0.0, 0.0, -5.0), Vector3::UP)),
            Some(0.0)
        );
        let from_behind = Ray::new(Vector3::new(0.0, 0.0, 3.0), Vector3::FORWARD);
        assert!((f.intersects_ray(&from_behind).unwrap() - 4.0).abs() < 1e-5);
        assert_eq!(
            f.intersects_ray(&Ray::new(Vector3::new(0.0, 0.0, 3.0), Vector3::BACKWARD)),
            None
        );
        let beside = Ray::new(Vector3::new(20.0, 0.0, -5.0), Vector3::FORWARD);
        assert_eq!(beside.intersects_frustum(&f), None);
    }
}
