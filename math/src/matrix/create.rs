//! The `Matrix.Create*` constructors: translations, scales, rotations (about an axis, from a
//! quaternion, from yaw/pitch/roll), cameras (LookAt, World, billboards), projections (all
//! right-handed, depth 0 at the near plane and 1 at the far plane) and the planar Shadow and
//! Reflection. Element formulas and argument order are XNA's; the projections refuse the
//! distances XNA refuses with the same exception kind and parameter name.

use crate::error::MathError;
use crate::{Matrix, Plane, Quaternion, Vector3};

fn out_of_range(param: &'static str, message: &'static str) -> MathError {
    MathError::ArgumentOutOfRange { param, message }
}

/// XNA's checks shared by the perspective projections.
fn check_planes(near: f32, far: f32) -> Result<(), MathError> {
    if near.is_nan() || near <= 0.0 {
        return Err(out_of_range("nearPlaneDistance", "must be greater than zero"));
    }
    if far.is_nan() || far <= 0.0 {
        return Err(out_of_range("farPlaneDistance", "must be greater than zero"));
    }
    if near >= far {
        return Err(out_of_range("nearPlaneDistance", "must be less than farPlaneDistance"));
    }
    Ok(())
}

impl Matrix {
    /// `Matrix.CreateTranslation(xPosition, yPosition, zPosition)`.
    pub fn create_translation(x: f32, y: f32, z: f32) -> Matrix {
        let mut m = Matrix::IDENTITY;
        m.m[3] = [x, y, z, 1.0];
        m
    }

    /// `Matrix.CreateTranslation(position)`.
    pub fn create_translation_vector(position: Vector3) -> Matrix {
        Matrix::create_translation(position.x, position.y, position.z)
    }

    /// `Matrix.CreateScale(xScale, yScale, zScale)`.
    pub fn create_scale(x: f32, y: f32, z: f32) -> Matrix {
        let mut m = Matrix::IDENTITY;
        m.m[0][0] = x;
        m.m[1][1] = y;
        m.m[2][2] = z;
        m
    }

    /// `Matrix.CreateScale(scale)` with one factor for all three axes.
    pub fn create_scale_uniform(scale: f32) -> Matrix {
        Matrix::create_scale(scale, scale, scale)
    }

    /// `Matrix.CreateScale(scales)` with a factor per axis.
    pub fn create_scale_vector(scales: Vector3) -> Matrix {
        Matrix::create_scale(scales.x, scales.y, scales.z)
    }

    /// `Matrix.CreateRotationX(radians)`: counter-clockwise looking down −x towards the
    /// origin (y turns towards z).
    pub fn create_rotation_x(radians: f32) -> Matrix {
        let (s, c) = radians.sin_cos();
        let mut m = Matrix::IDENTITY;
        m.m[1][1] = c;
        m.m[1][2] = s;
        m.m[2][1] = -s;
        m.m[2][2] = c;
        m
    }

    /// `Matrix.CreateRotationY(radians)` (z turns towards x).
    pub fn create_rotation_y(radians: f32) -> Matrix {
        let (s, c) = radians.sin_cos();
        let mut m = Matrix::IDENTITY;
        m.m[0][0] = c;
        m.m[0][2] = -s;
        m.m[2][0] = s;
        m.m[2][2] = c;
        m
    }

    /// `Matrix.CreateRotationZ(radians)` (x turns towards y).
    pub fn create_rotation_z(radians: f32) -> Matrix {
        let (s, c) = radians.sin_cos();
        let mut m = Matrix::IDENTITY;
        m.m[0][0] = c;
        m.m[0][1] = s;
        m.m[1][0] = -s;
        m.m[1][1] = c;
        m
    }

    /// `Matrix.CreateFromAxisAngle(axis, angle)`: a rotation of `angle` radians about the unit
    /// vector `axis` (not normalized here, as in XNA).
    pub fn create_from_axis_angle(axis: Vector3, angle: f32) -> Matrix {
        let Vector3 { x, y, z } = axis;
        let (s, c) = angle.sin_cos();
        let (xx, yy, zz, xy, xz, yz) = (x * x, y * y, z * z, x * y, x * z, y * z);
        Matrix::new(
            xx + c * (1.0 - xx),
            xy - c * xy + s * z,
            xz - c * xz - s * y,
            0.0,
            xy - c * xy - s * z,
            yy + c * (1.0 - yy),
            yz - c * yz + s * x,
            0.0,
            xz - c * xz + s * y,
            yz - c * yz - s * x,
            zz + c * (1.0 - zz),
            0.0,
            0.0,
            0.0,
            0.0,
            1.0,
        )
    }

    /// `Matrix.CreateFromQuaternion(quaternion)`: the rotation of a unit quaternion.
    pub fn create_from_quaternion(q: Quaternion) -> Matrix {
        let (xx, yy, zz) = (q.x * q.x, q.y * q.y, q.z * q.z);
        let (xy, zw, zx, yw, yz, xw) =
            (q.x * q.y, q.z * q.w, q.z * q.x, q.y * q.w, q.y * q.z, q.x * q.w);
        Matrix::new(
            1.0 - 2.0 * (yy + zz),
            2.0 * (xy + zw),
            2.0 * (zx - yw),
            0.0,
            2.0 * (xy - zw),
            1.0 - 2.0 * (zz + xx),
            2.0 * (yz + xw),
            0.0,
            2.0 * (zx + yw),
            2.0 * (yz - xw),
            1.0 - 2.0 * (yy + xx),
            0.0,
            0.0,
            0.0,
            0.0,
            1.0,
        )
    }

    /// `Matrix.CreateFromYawPitchRoll(yaw, pitch, roll)`: roll about z, then pitch about x,
    /// then yaw about y (through [`Quaternion::create_from_yaw_pitch_roll`], as XNA does).
    pub fn create_from_yaw_pitch_roll(yaw: f32, pitch: f32, roll: f32) -> Matrix {
        Matrix::create_from_quaternion(Quaternion::create_from_yaw_pitch_roll(yaw, pitch, roll))
    }

    /// `Matrix.CreateLookAt(cameraPosition, cameraTarget, cameraUpVector)`: a right-handed view
    /// looking from the camera towards the target. As in XNA, an up vector parallel to the view
    /// direction (or a target at the camera) leaves no basis: the result holds NaNs, no error.
    pub fn create_look_at(
        camera_position: Vector3,
        camera_target: Vector3,
        camera_up_vector: Vector3,
    ) -> Matrix {
        let z = (camera_position - camera_target).normalize();
        let x = camera_up_vector.cross(z).normalize();
        let y = z.cross(x);
        Matrix::new(
            x.x,
            y.x,
            z.x,
            0.0,
            x.y,
            y.y,
            z.y,
            0.0,
            x.z,
            y.z,
            z.z,
            0.0,
            -x.dot(camera_position),
            -y.dot(camera_position),
            -z.dot(camera_position),
            1.0,
        )
    }

    /// `Matrix.CreateWorld(position, forward, up)`: an object at `position` facing `forward`
    /// (its −z) with `up` as near its +y as the forward direction allows.
    pub fn create_world(position: Vector3, forward: Vector3, up: Vector3) -> Matrix {
        let z = forward.normalize();
        let x = forward.cross(up);
        let y = x.cross(forward);
        let mut m = Matrix { m: [[0.0; 4]; 4] };
        m.set_right(x.normalize());
        m.set_up(y.normalize());
        m.set_forward(z);
        m.set_translation(position);
        m.m[3][3] = 1.0;
        m
    }

    /// `Matrix.CreatePerspectiveFieldOfView(fieldOfView, aspectRatio, nearPlaneDistance,
    /// farPlaneDistance)`: a vertical field of view in radians; depth 0 at the near plane, 1
    /// at the far plane. XNA's `ArgumentOutOfRangeException`s: a field of view outside (0, π)
    /// (`fieldOfView`), a non-positive distance (`nearPlaneDistance`, `farPlaneDistance`), near
    /// not before far (`nearPlaneDistance`).
    #[rustfmt::skip]
    pub fn create_perspective_field_of_view(
        field_of_view: f32,
        aspect_ratio: f32,
        near_plane_distance: f32,
        far_plane_distance: f32,
    ) -> Result<Matrix, MathError> {
        if field_of_view.is_nan() || field_of_view <= 0.0 || field_of_view >= std::f32::consts::PI {
            return Err(out_of_range("fieldOfView", "must be greater than zero and less than pi"));
        }
        check_planes(near_plane_distance, far_plane_distance)?;
        let y = 1.0 / (field_of_view * 0.5).tan();
        let x = y / aspect_ratio;
        let (n, f) = (near_plane_distance, far_plane_distance);
        Ok(Matrix::new(
            x, 0.0, 0.0, 0.0,
            0.0, y, 0.0, 0.0,
            0.0, 0.0, f / (n - f), -1.0,
            0.0, 0.0, n * f / (n - f), 0.0,
        ))
    }

    /// `Matrix.CreatePerspective(width, height, nearPlaneDistance, farPlaneDistance)`: the view
    /// volume's width and height at the near plane; XNA's distance checks as in
    /// [`create_perspective_field_of_view`](Self::create_perspective_field_of_view).
    #[rustfmt::skip]
    pub fn create_perspective(
        width: f32,
        height: f32,
        near_plane_distance: f32,
        far_plane_distance: f32,
    ) -> Result<Matrix, MathError> {
        check_planes(near_plane_distance, far_plane_distance)?;
        let (n, f) = (near_plane_distance, far_plane_distance);
        Ok(Matrix::new(
            2.0 * n / width, 0.0, 0.0, 0.0,
            0.0, 2.0 * n / height, 0.0, 0.0,
            0.0, 0.0, f / (n - f), -1.0,
            0.0, 0.0, n * f / (n - f), 0.0,
        ))
    }

    /// `Matrix.CreatePerspectiveOffCenter(left, right, bottom, top, nearPlaneDistance,
    /// farPlaneDistance)`: the view volume's sides at the near plane; XNA's distance checks as
    /// in [`create_perspective_field_of_view`](Self::create_perspective_field_of_view).
    #[rustfmt::skip]
    pub fn create_perspective_off_center(
        left: f32,
        right: f32,
        bottom: f32,
        top: f32,
        near_plane_distance: f32,
        far_plane_distance: f32,
    ) -> Result<Matrix, MathError> {
        check_planes(near_plane_distance, far_plane_distance)?;
        let (n, f) = (near_plane_distance, far_plane_distance);
        Ok(Matrix::new(
            2.0 * n / (right - left), 0.0, 0.0, 0.0,
            0.0, 2.0 * n / (top - bottom), 0.0, 0.0,
            (left + right) / (right - left), (top + bottom) / (top - bottom), f / (n - f), -1.0,
            0.0, 0.0, n * f / (n - f), 0.0,
        ))
    }

    /// `Matrix.CreateOrthographic(width, height, zNearPlane, zFarPlane)`: a view volume centred
    /// on the view axis. XNA raises nothing here, and neither does this.
    pub fn create_orthographic(
        width: f32,
        height: f32,
        z_near_plane: f32,
        z_far_plane: f32,
    ) -> Matrix {
        let mut m = Matrix::IDENTITY;
        m.m[0][0] = 2.0 / width;
        m.m[1][1] = 2.0 / height;
        m.m[2][2] = 1.0 / (z_near_plane - z_far_plane);
        m.m[3][2] = z_near_plane / (z_near_plane - z_far_plane);
        m
    }

    /// `Matrix.CreateOrthographicOffCenter(left, right, bottom, top, zNearPlane, zFarPlane)`:
    /// the 2D camera of a SpriteBatch-style game is `(0, width, height, 0, 0, 1)`, which maps
    /// pixel (0, 0) to clip (−1, 1). Computed in double precision and rounded once per
    /// element, as XNA's results are.
    pub fn create_orthographic_off_center(
        left: f32,
        right: f32,
        bottom: f32,
        top: f32,
        z_near_plane: f32,
        z_far_plane: f32,
    ) -> Matrix {
        let (l, r, b, t) = (f64::from(left), f64::from(right), f64::from(bottom), f64::from(top));
        let (n, f) = (f64::from(z_near_plane), f64::from(z_far_plane));
        let mut m = Matrix::IDENTITY;
        m.m[0][0] = (2.0 / (r - l)) as f32;
        m.m[1][1] = (2.0 / (t - b)) as f32;
        m.m[2][2] = (1.0 / (n - f)) as f32;
        m.m[3] =
            [((l + r) / (l - r)) as f32, ((t + b) / (b - t)) as f32, (n / (n - f)) as f32, 1.0];
        m
    }

    /// `Matrix.CreateBillboard(objectPosition, cameraPosition, cameraUpVector,
    /// cameraForwardVector)`: a world matrix that turns an object at `object_position` to face
    /// the camera. When the two positions (nearly) coincide, the facing comes from
    /// `camera_forward_vector` (reversed), or [`Vector3::FORWARD`] when that is `None`.
    pub fn create_billboard(
        object_position: Vector3,
        camera_position: Vector3,
        camera_up_vector: Vector3,
        camera_forward_vector: Option<Vector3>,
    ) -> Matrix {
        let dir = billboard_direction(object_position, camera_position, camera_forward_vector);
        let right = camera_up_vector.cross(dir).normalize();
        let up = dir.cross(right);
        let mut m = Matrix::IDENTITY;
        m.set_right(right);
        m.set_up(up);
        m.set_backward(dir);
        m.set_translation(object_position);
        m
    }

    /// `Matrix.CreateConstrainedBillboard(objectPosition, cameraPosition, rotateAxis,
    /// cameraForwardVector, objectForwardVector)`: a billboard that may only turn about
    /// `rotate_axis`. When the view direction is within about 3.4° of the axis, the facing
    /// comes from `object_forward_vector`, else [`Vector3::FORWARD`], else
    /// [`Vector3::RIGHT`], whichever is first not nearly parallel to the axis, as in XNA.
    pub fn create_constrained_billboard(
        object_position: Vector3,
        camera_position: Vector3,
        rotate_axis: Vector3,
        camera_forward_vector: Option<Vector3>,
        object_forward_vector: Option<Vector3>,
    ) -> Matrix {
        // cos(3.39°): closer to the axis than this, the cross product is too short to trust.
        const PARALLEL: f32 = 0.998_254_7;
        let dir = billboard_direction(object_position, camera_position, camera_forward_vector);
        let fallback = || {
            if rotate_axis.dot(Vector3::FORWARD).abs() > PARALLEL {
                Vector3::RIGHT
            } else {
                Vector3::FORWARD
            }
        };
        let (right, backward) = if rotate_axis.dot(dir).abs() > PARALLEL {
            let facing = match object_forward_vector {
                Some(f) if rotate_axis.dot(f).abs() <= PARALLEL => f,
                _ => fallback(),
            };
            let right = rotate_axis.cross(facing).normalize();
            (right, right.cross(rotate_axis).normalize())
        } else {
            let right = rotate_axis.cross(dir).normalize();
            (right, right.cross(rotate_axis).normalize())
        };
        let mut m = Matrix::IDENTITY;
        m.set_right(right);
        m.set_up(rotate_axis);
        m.set_backward(backward);
        m.set_translation(object_position);
        m
    }

    /// `Matrix.CreateShadow(lightDirection, plane)`: flattens geometry onto `plane` along the
    /// light's rays. `light_direction` points towards the light.
    #[rustfmt::skip]
    pub fn create_shadow(light_direction: Vector3, plane: Plane) -> Matrix {
        let l = light_direction;
        let n = plane.normal;
        let dot = n.dot(l);
        let (x, y, z, d) = (-n.x, -n.y, -n.z, -plane.d);
        Matrix::new(
            x * l.x + dot, x * l.y, x * l.z, 0.0,
            y * l.x, y * l.y + dot, y * l.z, 0.0,
            z * l.x, z * l.y, z * l.z + dot, 0.0,
            d * l.x, d * l.y, d * l.z, dot,
        )
    }

    /// `Matrix.CreateReflection(value)`: mirrors about `value` (normalized first).
    #[rustfmt::skip]
    pub fn create_reflection(value: Plane) -> Matrix {
        let p = value.normalize();
        let Vector3 { x, y, z } = p.normal;
        let (a, b, c) = (-2.0 * x, -2.0 * y, -2.0 * z);
        Matrix::new(
            a * x + 1.0, b * x, c * x, 0.0,
            a * y, b * y + 1.0, c * y, 0.0,
            a * z, b * z, c * z + 1.0, 0.0,
            a * p.d, b * p.d, c * p.d, 1.0,
        )
    }
}

/// The unit direction from the camera to a billboard, or the fallback when they coincide.
fn billboard_direction(
    object: Vector3,
    camera: Vector3,
    camera_forward: Option<Vector3>,
) -> Vector3 {
    let dir = object - camera;
    let len2 = dir.length_squared();
    if len2 < 0.0001 {
        camera_forward.map_or(Vector3::FORWARD, |f| -f)
    } else {
        dir * (1.0 / len2.sqrt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::tests::near;
    use crate::MathHelper;

    #[test]
    fn rotations_turn_each_axis_towards_the_next() {
        let q = MathHelper::PI_OVER_2;
        let t = |m: Matrix, v: Vector3| v.transform(&m);
        assert!(
            (t(Matrix::create_rotation_x(q), Vector3::UNIT_Y) - Vector3::UNIT_Z).length() < 1e-6
        );
        assert!(
            (t(Matrix::create_rotation_y(q), Vector3::UNIT_Z) - Vector3::UNIT_X).length() < 1e-6
        );
        assert!(
            (t(Matrix::create_rotation_z(q), Vector3::UNIT_X) - Vector3::UNIT_Y).length() < 1e-6
        );
        let axis = Vector3::new(1.0, 2.0, 3.0).normalize();
        let by_axis = Matrix::create_from_axis_angle(axis, 0.8);
        let by_quaternion =
            Matrix::create_from_quaternion(Quaternion::create_from_axis_angle(axis, 0.8));
        assert!(near(&by_axis, &by_quaternion, 1e-6));
        assert!(near(
            &Matrix::create_from_axis_angle(Vector3::UNIT_X, 0.3),
            &Matrix::create_rotation_x(0.3),
            1e-7
        ));
    }

    #[test]
    fn translation_and_scale_overloads_agree() {
        let v = Vector3::new(1.0, 2.0, 3.0);
        assert_eq!(Matrix::create_translation_vector(v), Matrix::create_translation(1.0, 2.0, 3.0));
        assert_eq!(Matrix::create_scale_vector(v), Matrix::create_scale(1.0, 2.0, 3.0));
        assert_eq!(Matrix::create_scale_uniform(2.0), Matrix::create_scale(2.0, 2.0, 2.0));
    }

    #[test]
    fn look_at_puts_the_target_on_the_negative_z_axis() {
        let eye = Vector3::new(1.0, 2.0, 5.0);
        let view = Matrix::create_look_at(eye, Vector3::ZERO, Vector3::UP);
        let t = Vector3::ZERO.transform(&view);
        assert!(t.x.abs() < 1e-6 && t.y.abs() < 1e-6);
        assert!((t.z + eye.length()).abs() < 1e-5);
        assert!((view.invert().translation() - eye).length() < 1e-5);
        // The published value for a camera on +z: the identity moved back by 5.
        let simple =
            Matrix::create_look_at(Vector3::new(0.0, 0.0, 5.0), Vector3::ZERO, Vector3::UP);
        assert_eq!(simple, Matrix::create_translation(0.0, 0.0, -5.0));
    }

    #[test]
    fn look_at_with_an_up_vector_parallel_to_the_view_gives_nan_as_in_xna() {
        let view = Matrix::create_look_at(Vector3::new(0.0, 5.0, 0.0), Vector3::ZERO, Vector3::UP);
        assert!(view.m[0][0].is_nan() && view.m[3][0].is_nan());
    }

    #[test]
    fn perspective_maps_near_to_depth_zero_and_far_to_one() {
        let p = Matrix::create_perspective_field_of_view(1.0, 1.5, 2.0, 10.0).unwrap();
        let depth = |z: f32| {
            let c = crate::Vector4::transform_vector3(Vector3::new(0.0, 0.0, z), &p);
            c.z / c.w
        };
        assert!(depth(-2.0).abs() < 1e-6);
        assert!((depth(-10.0) - 1.0).abs() < 1e-6);
        // 1 / tan(0.5) = 1.830_487_7; x divided by the aspect ratio.
        assert!((p.m[1][1] - 1.830_487_7).abs() < 1e-6);
        assert!((p.m[0][0] - 1.830_487_7 / 1.5).abs() < 1e-6);
        let w = Matrix::create_perspective(2.0, 2.0, 1.0, 10.0).unwrap();
        let f = Matrix::create_perspective_field_of_view(MathHelper::PI_OVER_2, 1.0, 1.0, 10.0)
            .unwrap();
        assert!(near(&w, &f, 1e-6));
        let c = Matrix::create_perspective_off_center(-1.0, 1.0, -1.0, 1.0, 1.0, 10.0).unwrap();
        assert!(near(&c, &f, 1e-6));
        let off = Matrix::create_perspective_off_center(0.0, 2.0, 0.0, 1.0, 1.0, 10.0).unwrap();
        assert_eq!((off.m[2][0], off.m[2][1]), (1.0, 1.0));
    }

    #[test]
    fn perspective_refuses_what_xna_refuses() {
        let bad = |r: Result<Matrix, MathError>, name: &str| matches!(r, Err(MathError::ArgumentOutOfRange { param, .. }) if param == name);
        assert!(bad(Matrix::create_perspective_field_of_view(0.0, 1.0, 1.0, 2.0), "fieldOfView"));
        assert!(bad(
            Matrix::create_perspective_field_of_view(MathHelper::PI, 1.0, 1.0, 2.0),
            "fieldOfView"
        ));
        assert!(bad(
            Matrix::create_perspective_field_of_view(1.0, 1.0, 0.0, 2.0),
            "nearPlaneDistance"
        ));
        assert!(bad(
            Matrix::create_perspective_field_of_view(1.0, 1.0, 1.0, -2.0),
            "farPlaneDistance"
        ));
        assert!(bad(
            Matrix::create_perspective_field_of_view(1.0, 1.0, 2.0, 2.0),
            "nearPlaneDistance"
        ));
        assert!(bad(Matrix::create_perspective(1.0, 1.0, -1.0, 2.0), "nearPlaneDistance"));
        assert!(bad(
            Matrix::create_perspective_off_center(0.0, 1.0, 0.0, 1.0, 3.0, 2.0),
            "nearPlaneDistance"
        ));
    }

    #[test]
    fn orthographic_off_center_maps_pixels_to_clip_space() {
        let m = Matrix::create_orthographic_off_center(0.0, 800.0, 600.0, 0.0, 0.0, 1.0);
        assert_eq!(Vector3::ZERO.transform(&m), Vector3::new(-1.0, 1.0, 0.0));
        assert_eq!(Vector3::new(800.0, 600.0, 0.0).transform(&m), Vector3::new(1.0, -1.0, 0.0));
        assert_eq!(Vector3::new(400.0, 300.0, -1.0).transform(&m), Vector3::new(0.0, 0.0, 1.0));
        let o = Matrix::create_orthographic(800.0, 600.0, 0.0, 1.0);
        assert_eq!(
            o,
            Matrix::create_orthographic_off_center(-400.0, 400.0, -300.0, 300.0, 0.0, 1.0)
        );
    }

    #[test]
    fn world_places_an_object_facing_forward() {
        let w = Matrix::create_world(Vector3::new(1.0, 2.0, 3.0), Vector3::FORWARD, Vector3::UP);
        assert_eq!(w, Matrix::create_translation(1.0, 2.0, 3.0));
        let turned = Matrix::create_world(Vector3::ZERO, Vector3::RIGHT, Vector3::UP);
        assert_eq!(turned.forward(), Vector3::RIGHT);
        assert_eq!(turned.up(), Vector3::UP);
    }

    #[test]
    fn billboards_face_the_camera() {
        let b =
            Matrix::create_billboard(Vector3::ZERO, Vector3::new(0.0, 0.0, 5.0), Vector3::UP, None);
        // Camera on +z: the billboard's backward axis points away from the camera (−z).
        assert_eq!(b.backward(), Vector3::FORWARD);
        assert_eq!(b.up(), Vector3::UP);
        let same =
            Matrix::create_billboard(Vector3::ONE, Vector3::ONE, Vector3::UP, Some(Vector3::RIGHT));
        assert_eq!(same.backward(), Vector3::LEFT);
        assert_eq!(same.translation(), Vector3::ONE);
        let c = Matrix::create_constrained_billboard(
            Vector3::ZERO,
            Vector3::new(5.0, 3.0, 0.0),
            Vector3::UP,
            None,
            None,
        );
        assert_eq!(c.up(), Vector3::UP);
        assert!((c.backward() - Vector3::LEFT).length() < 1e-6, "{:?}", c.backward());
        // Looking straight down the axis falls back to the object's forward vector.
        let down = Matrix::create_constrained_billboard(
            Vector3::ZERO,
            Vector3::new(0.0, 5.0, 0.0),
            Vector3::UP,
            None,
            Some(Vector3::RIGHT),
        );
        assert!((down.backward() - Vector3::RIGHT).length() < 1e-6, "{:?}", down.backward());
    }

    #[test]
    fn shadow_flattens_onto_the_plane_and_reflection_mirrors() {
        let ground = Plane::new(0.0, 1.0, 0.0, 0.0);
        let s = Matrix::create_shadow(Vector3::new(0.0, 1.0, 0.0), ground);
        let p = crate::Vector4::transform_vector3(Vector3::new(2.0, 5.0, 3.0), &s);
        assert_eq!((p.x / p.w, p.y / p.w, p.z / p.w), (2.0, 0.0, 3.0));
        let r = Matrix::create_reflection(Plane::new(0.0, 2.0, 0.0, -2.0)); // y = 1
        assert_eq!(Vector3::new(1.0, 3.0, 1.0).transform(&r), Vector3::new(1.0, -1.0, 1.0));
    }
}
