//! `Viewport`: the pixel rectangle and depth range a draw lands in, and the two mappings
//! between object space and it: Project (through world, view and projection, the divide by w
//! and the viewport transform) and Unproject (its inverse), plus AspectRatio and
//! TitleSafeArea. It lives in the math crate, not with the graphics device, because its
//! methods are math over math types and inherent methods must live with the type; the render
//! graph records it as it is.

use crate::{Matrix, Rectangle, Vector3, Vector4};

/// XNA's `Viewport` (pixels, depth range).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Viewport {
    /// Left edge of the viewport, in pixels of the bound target.
    pub x: i32,
    /// Top edge of the viewport, in pixels.
    pub y: i32,
    /// Width, in pixels.
    pub width: i32,
    /// Height, in pixels.
    pub height: i32,
    /// Depth the near plane maps to (XNA's `MinDepth`, in [0, 1]).
    pub min_depth: f32,
    /// Depth the far plane maps to (XNA's `MaxDepth`, in [0, 1]).
    pub max_depth: f32,
}

impl Viewport {
    /// `new Viewport(x, y, width, height)`: depth range 0 to 1.
    pub fn new(x: i32, y: i32, width: i32, height: i32) -> Self {
        Viewport { x, y, width, height, min_depth: 0.0, max_depth: 1.0 }
    }

    /// `new Viewport(bounds)`.
    pub fn from_bounds(bounds: Rectangle) -> Self {
        Viewport::new(bounds.x, bounds.y, bounds.width, bounds.height)
    }

    /// `Viewport.Bounds`.
    pub fn bounds(&self) -> Rectangle {
        Rectangle::new(self.x, self.y, self.width, self.height)
    }

    /// `Viewport.AspectRatio`: width / height, or 0 when either is zero, as in XNA.
    pub fn aspect_ratio(&self) -> f32 {
        if self.width == 0 || self.height == 0 {
            0.0
        } else {
            self.width as f32 / self.height as f32
        }
    }

    /// `Viewport.TitleSafeArea`: the part of the viewport a television shows whole. XNA
    /// reports the whole viewport on Windows, and xnagraph runs where XNA's Windows build did,
    /// so this is [`bounds`](Self::bounds).
    pub fn title_safe_area(&self) -> Rectangle {
        self.bounds()
    }

    /// `Viewport.Project(source, projection, view, world)`: the object-space point `source`
    /// through `world × view × projection`, divided by w, then mapped to pixels (y down) and
    /// to [`min_depth`, `max_depth`]. XNA divides only when w is not within epsilon of 1; so
    /// does this, so an orthographic projection's results are bit-identical to XNA's.
    pub fn project(
        &self,
        source: Vector3,
        projection: &Matrix,
        view: &Matrix,
        world: &Matrix,
    ) -> Vector3 {
        let m = world * &(view * projection);
        let mut v = Vector4::transform_vector3(source, &m);
        if !within_epsilon(v.w, 1.0) {
            v = Vector4::new(v.x / v.w, v.y / v.w, v.z / v.w, 1.0);
        }
        Vector3::new(
            (v.x + 1.0) * 0.5 * self.width as f32 + self.x as f32,
            (-v.y + 1.0) * 0.5 * self.height as f32 + self.y as f32,
            v.z * (self.max_depth - self.min_depth) + self.min_depth,
        )
    }

    /// `Viewport.Unproject(source, projection, view, world)`: the inverse of
    /// [`project`](Self::project): a pixel position and depth back to object space.
    pub fn unproject(
        &self,
        source: Vector3,
        projection: &Matrix,
        view: &Matrix,
        world: &Matrix,
    ) -> Vector3 {
        let m = (world * &(view * projection)).invert();
        let clip = Vector3::new(
            (source.x - self.x as f32) / self.width as f32 * 2.0 - 1.0,
            -((source.y - self.y as f32) / self.height as f32 * 2.0 - 1.0),
            (source.z - self.min_depth) / (self.max_depth - self.min_depth),
        );
        let v = Vector4::transform_vector3(clip, &m);
        let p = Vector3::new(v.x, v.y, v.z);
        if within_epsilon(v.w, 1.0) {
            p
        } else {
            p / v.w
        }
    }
}

/// XNA's `WithinEpsilon`: |a − b| ≤ the machine epsilon of `f32`.
fn within_epsilon(a: f32, b: f32) -> bool {
    (a - b).abs() <= f32::EPSILON
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MathHelper;

    fn close(a: Vector3, b: Vector3, tolerance: f32) -> bool {
        (a - b).length() <= tolerance
    }

    #[test]
    fn aspect_ratio_and_title_safe_area() {
        let v = Viewport::new(10, 20, 800, 600);
        assert_eq!(v.aspect_ratio(), 800.0 / 600.0);
        assert_eq!(Viewport::new(0, 0, 800, 0).aspect_ratio(), 0.0);
        assert_eq!(v.title_safe_area(), Rectangle::new(10, 20, 800, 600));
        assert_eq!(Viewport::from_bounds(v.bounds()), v);
    }

    #[test]
    fn project_maps_clip_corners_to_pixel_corners() {
        let v = Viewport::new(100, 50, 800, 600);
        let ortho = Matrix::create_orthographic_off_center(-1.0, 1.0, -1.0, 1.0, 0.0, 1.0);
        let id = Matrix::IDENTITY;
        assert_eq!(
            v.project(Vector3::new(-1.0, 1.0, 0.0), &ortho, &id, &id),
            Vector3::new(100.0, 50.0, 0.0)
        );
        assert_eq!(
            v.project(Vector3::new(1.0, -1.0, -1.0), &ortho, &id, &id),
            Vector3::new(900.0, 650.0, 1.0)
        );
        // Depth goes to [min_depth, max_depth].
        let mut d = v;
        d.min_depth = 0.25;
        d.max_depth = 0.75;
        assert_eq!(d.project(Vector3::new(0.0, 0.0, -1.0), &ortho, &id, &id).z, 0.75);
    }

    #[test]
    fn unproject_inverts_project_through_a_perspective_camera() {
        let v = Viewport::new(0, 0, 640, 480);
        let p = Matrix::create_perspective_field_of_view(
            MathHelper::PI_OVER_4,
            v.aspect_ratio(),
            0.5,
            100.0,
        )
        .unwrap();
        let view = Matrix::create_look_at(Vector3::new(3.0, 4.0, 10.0), Vector3::ZERO, Vector3::UP);
        let world = Matrix::create_rotation_y(0.4) * Matrix::create_translation(0.5, 0.0, 0.0);
        let point = Vector3::new(1.0, -0.5, 2.0);
        let screen = v.project(point, &p, &view, &world);
        assert!(screen.z > 0.0 && screen.z < 1.0);
        let back = v.unproject(screen, &p, &view, &world);
        assert!(close(back, point, 1e-3), "{back:?}");
        // The camera's target lands in the middle of the screen.
        let centre = v.project(Vector3::ZERO, &p, &view, &Matrix::IDENTITY);
        assert!(close(
            Vector3::new(centre.x, centre.y, 0.0),
            Vector3::new(320.0, 240.0, 0.0),
            1e-3
        ));
    }
}
