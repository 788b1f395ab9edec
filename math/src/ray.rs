//! `Ray`: a position and a direction, and the distance along it (in units of the direction's
//! length) to the first point of a box, sphere, plane or frustum, or `None` when it misses.
//! A ray that starts inside a volume hits it at distance 0.

use crate::{BoundingBox, BoundingFrustum, BoundingSphere, Plane, Vector3};

/// XNA's `Ray`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ray {
    /// `Position`: where the ray starts.
    pub position: Vector3,
    /// `Direction`: where it points (need not be unit length).
    pub direction: Vector3,
}

impl Ray {
    /// `new Ray(position, direction)`.
    pub const fn new(position: Vector3, direction: Vector3) -> Self {
        Ray { position, direction }
    }

    /// `Ray.Intersects(box)`: the slab test. Direction components under 1e-6 in magnitude count
    /// as parallel to that slab, as in XNA.
    pub fn intersects_box(&self, box_: &BoundingBox) -> Option<f32> {
        const EPSILON: f32 = 1e-6;
        let (p, d) = (self.position, self.direction);
        let mut t_min: Option<f32> = None;
        let mut t_max: Option<f32> = None;
        let axes = [
            (p.x, d.x, box_.min.x, box_.max.x),
            (p.y, d.y, box_.min.y, box_.max.y),
            (p.z, d.z, box_.min.z, box_.max.z),
        ];
        for (p, d, lo, hi) in axes {
            if d.abs() < EPSILON {
                if p < lo || p > hi {
                    return None;
                }
                continue;
            }
            let (mut near, mut far) = ((lo - p) / d, (hi - p) / d);
            if near > far {
                std::mem::swap(&mut near, &mut far);
            }
            if t_min.is_some_and(|t| t > far) || t_max.is_some_and(|t| near > t) {
                return None;
            }
            if t_min.is_none_or(|t| near > t) {
                t_min = Some(near);
            }
            if t_max.is_none_or(|t| far < t) {
                t_max = Some(far);
            }
        }
        match (t_min, t_max) {
            (Some(lo), Some(hi)) if lo < 0.0 && hi > 0.0 => Some(0.0),
            (Some(lo), _) if lo < 0.0 => None,
            // Parallel to every slab and inside all of them: the ray starts inside.
            (None, _) => Some(0.0),
            (lo, _) => lo,
        }
    }

    /// `Ray.Intersects(sphere)`: 0 when the ray starts inside (or on) the sphere.
    pub fn intersects_sphere(&self, sphere: &BoundingSphere) -> Option<f32> {
        let to_center = sphere.center - self.position;
        let d2 = to_center.length_squared();
        let r2 = sphere.radius * sphere.radius;
        if d2 <= r2 {
            return Some(0.0);
        }
        let along = to_center.dot(self.direction);
        if along < 0.0 {
            return None;
        }
        let miss2 = d2 - along * along;
        if miss2 > r2 {
            return None;
        }
        Some(along - (r2 - miss2).sqrt())
    }

    /// `Ray.Intersects(plane)`: `None` when the ray runs parallel (|direction · normal| <
    /// 1e-5) or points away; a start within 1e-5 behind the hit rounds to 0, as in XNA.
    pub fn intersects_plane(&self, plane: Plane) -> Option<f32> {
        let den = self.direction.dot(plane.normal);
        if den.abs() < 1e-5 {
            return None;
        }
        let t = (-plane.d - plane.normal.dot(self.position)) / den;
        if t < 0.0 {
            if t < -1e-5 {
                return None;
            }
            return Some(0.0);
        }
        Some(t)
    }

    /// `Ray.Intersects(frustum)`: see [`BoundingFrustum::intersects_ray`].
    pub fn intersects_frustum(&self, frustum: &BoundingFrustum) -> Option<f32> {
        frustum.intersects_ray(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_hits_report_the_entry_distance() {
        let b = BoundingBox::new(Vector3::splat(-1.0), Vector3::splat(1.0));
        let ray = Ray::new(Vector3::new(-5.0, 0.0, 0.0), Vector3::UNIT_X);
        assert_eq!(ray.intersects_box(&b), Some(4.0));
        assert_eq!(
            Ray::new(Vector3::new(-5.0, 0.0, 0.0), Vector3::new(2.0, 0.0, 0.0)).intersects_box(&b),
            Some(2.0)
        );
        assert_eq!(
            Ray::new(Vector3::new(-5.0, 0.0, 0.0), -Vector3::UNIT_X).intersects_box(&b),
            None
        );
        assert_eq!(
            Ray::new(Vector3::new(-5.0, 2.0, 0.0), Vector3::UNIT_X).intersects_box(&b),
            None
        );
        assert_eq!(Ray::new(Vector3::ZERO, Vector3::UNIT_Y).intersects_box(&b), Some(0.0));
        let diagonal = Ray::new(Vector3::splat(-3.0), Vector3::ONE);
        assert_eq!(diagonal.intersects_box(&b), Some(2.0));
        assert_eq!(b.intersects_ray(&diagonal), Some(2.0));
    }

    #[test]
    fn sphere_hits_report_the_entry_distance() {
        let s = BoundingSphere::new(Vector3::new(0.0, 0.0, -10.0), 2.0);
        assert_eq!(Ray::new(Vector3::ZERO, Vector3::FORWARD).intersects_sphere(&s), Some(8.0));
        assert_eq!(Ray::new(Vector3::ZERO, Vector3::BACKWARD).intersects_sphere(&s), None);
        assert_eq!(
            Ray::new(Vector3::new(2.5, 0.0, 0.0), Vector3::FORWARD).intersects_sphere(&s),
            None
        );
        assert_eq!(
            Ray::new(Vector3::new(0.0, 0.0, -9.0), Vector3::UP).intersects_sphere(&s),
            Some(0.0)
        );
        assert_eq!(s.intersects_ray(&Ray::new(Vector3::ZERO, Vector3::FORWARD)), Some(8.0));
    }

    #[test]
    fn plane_hits_refuse_parallel_and_backward_rays() {
        let p = Plane::new(0.0, 1.0, 0.0, -2.0);
        assert_eq!(Ray::new(Vector3::ZERO, Vector3::UP).intersects_plane(p), Some(2.0));
        assert_eq!(Ray::new(Vector3::ZERO, Vector3::DOWN).intersects_plane(p), None);
        assert_eq!(Ray::new(Vector3::ZERO, Vector3::UNIT_X).intersects_plane(p), None);
        assert_eq!(
            Ray::new(Vector3::new(0.0, 2.000_005, 0.0), Vector3::UP).intersects_plane(p),
            Some(0.0)
        );
    }
}
