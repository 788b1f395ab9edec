//! A model's animations as data (not XNA: XNA 4.0's `Model` has none; its samples carry
//! skinning data in `Model.Tag`), and their sampling into bone poses.
//!
//! In: the animations a glTF file holds ([`ModelAnimation`]: channels, each one bone's
//! translation, rotation, scale or morph weights over key times) and a time. Out: the animated
//! bones' [`BonePose`]s at that time, or the bones' `Transform`s through
//! [`crate::Model::animate_bones`].
//!
//! What is decided here, as glTF 2.0 specifies it: a time before a channel's first key takes
//! the first key's value and one after the last takes the last's (clamped; looping is the
//! game's `time % duration`); `Step` holds a key's value until the next key; `Linear` blends
//! vectors linearly and rotations by `Quaternion::slerp`; `CubicSpline` is the Hermite spline
//! of the glTF specification (Appendix C) over each key's in-tangent, value and out-tangent,
//! tangents scaled by the keys' time difference, a rotation normalized afterwards. A channel
//! only sets the component it animates: the others stay as the pose held them.

use crate::error::{Result, XnaError};
use crate::math::{Matrix, Quaternion, Vector3};

/// A bone's transform as scale, rotation and translation (glTF's TRS): the matrix is
/// `CreateScale(scale) × CreateFromQuaternion(rotation) × CreateTranslation(translation)`, in
/// XNA's row-vector order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BonePose {
    /// The translation.
    pub translation: Vector3,
    /// The rotation (a unit quaternion).
    pub rotation: Quaternion,
    /// The scale per axis.
    pub scale: Vector3,
}

impl BonePose {
    /// No scale, rotation or translation.
    pub const IDENTITY: BonePose = BonePose {
        translation: Vector3::ZERO,
        rotation: Quaternion::IDENTITY,
        scale: Vector3::ONE,
    };

    /// The pose's matrix: scale, then rotation, then translation.
    pub fn to_matrix(&self) -> Matrix {
        Matrix::create_scale_vector(self.scale)
            * Matrix::create_from_quaternion(self.rotation)
            * Matrix::create_translation_vector(self.translation)
    }

    /// The pose of `matrix` by `Matrix::decompose`, or `None` for a matrix with shear.
    pub fn from_matrix(matrix: &Matrix) -> Option<BonePose> {
        let (scale, rotation, translation) = matrix.decompose()?;
        Some(BonePose { translation, rotation, scale })
    }
}

/// How a channel's values change between keys (glTF's `interpolation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    /// `STEP`: a key's value holds until the next key.
    Step,
    /// `LINEAR`: linear between keys (spherical for rotations).
    Linear,
    /// `CUBICSPLINE`: a Hermite spline; each key holds an in-tangent, a value and an
    /// out-tangent, in that order.
    CubicSpline,
}

/// A channel's key values, per key (three per key for [`Interpolation::CubicSpline`]:
/// in-tangent, value, out-tangent).
#[derive(Clone, Debug, PartialEq)]
pub enum AnimationValues {
    /// The bone's translation.
    Translation(Vec<Vector3>),
    /// The bone's rotation.
    Rotation(Vec<Quaternion>),
    /// The bone's scale.
    Scale(Vec<Vector3>),
    /// The morph target weights of the bone's mesh, `targets` per key, kept as data:
    /// xnagraph has no morph targets, so [`ModelAnimation::sample`] leaves them out.
    Weights {
        /// How many morph targets each key weighs.
        targets: usize,
        /// The weights, key by key.
        values: Vec<f32>,
    },
}

/// One animated property of one bone: key times (seconds, increasing) and values.
#[derive(Clone, Debug, PartialEq)]
pub struct AnimationChannel {
    pub(crate) bone: usize,
    pub(crate) interpolation: Interpolation,
    pub(crate) times: Vec<f32>,
    pub(crate) values: AnimationValues,
}

impl AnimationChannel {
    /// The bone it animates, as its index in the model's `Bones`.
    pub fn bone(&self) -> usize {
        self.bone
    }

    /// How values change between keys.
    pub fn interpolation(&self) -> Interpolation {
        self.interpolation
    }

    /// The key times in seconds, increasing.
    pub fn times(&self) -> &[f32] {
        &self.times
    }

    /// The key values.
    pub fn values(&self) -> &AnimationValues {
        &self.values
    }

    /// The key before `time` and how far `time` lies towards the next one (0 to 1), with the
    /// keys' time difference; times outside the keys clamp to the first or last.
    fn locate(&self, time: f32) -> (usize, f32, f32) {
        let last = self.times.len() - 1;
        if time <= self.times[0] || last == 0 {
            return (0, 0.0, 0.0);
        }
        if time >= self.times[last] {
            return (last, 0.0, 0.0);
        }
        // The first key after `time`; the keys increase, so it is past key 0 and at most last.
        let next = self.times.partition_point(|&t| t <= time);
        let (t0, t1) = (self.times[next - 1], self.times[next]);
        (next - 1, (time - t0) / (t1 - t0), t1 - t0)
    }

    /// The channel's vector at `time` (translation or scale).
    fn vector_at(&self, values: &[Vector3], time: f32) -> Vector3 {
        let (k, s, dt) = self.locate(time);
        match self.interpolation {
            Interpolation::Step => values[k],
            Interpolation::Linear if s == 0.0 => values[k],
            Interpolation::Linear => values[k] * (1.0 - s) + values[k + 1] * s,
            Interpolation::CubicSpline if s == 0.0 => values[3 * k + 1],
            Interpolation::CubicSpline => {
                let [h00, h10, h01, h11] = hermite(s, dt);
                values[3 * k + 1] * h00
                    + values[3 * k + 2] * h10
                    + values[3 * k + 4] * h01
                    + values[3 * k + 3] * h11
            }
        }
    }

    /// The channel's rotation at `time`.
    fn rotation_at(&self, values: &[Quaternion], time: f32) -> Quaternion {
        let (k, s, dt) = self.locate(time);
        match self.interpolation {
            Interpolation::Step => values[k],
            Interpolation::Linear if s == 0.0 => values[k],
            Interpolation::Linear => values[k].slerp(values[k + 1], s),
            Interpolation::CubicSpline if s == 0.0 => values[3 * k + 1].normalize(),
            Interpolation::CubicSpline => {
                let [h00, h10, h01, h11] = hermite(s, dt);
                (values[3 * k + 1] * h00
                    + values[3 * k + 2] * h10
                    + values[3 * k + 4] * h01
                    + values[3 * k + 3] * h11)
                    .normalize()
            }
        }
    }
}

/// glTF's cubic spline weights at `s` for the value of key k, its out-tangent, the value of
/// key k+1 and its in-tangent (tangents scaled by the keys' time difference `dt`).
fn hermite(s: f32, dt: f32) -> [f32; 4] {
    let (s2, s3) = (s * s, s * s * s);
    [2.0 * s3 - 3.0 * s2 + 1.0, dt * (s3 - 2.0 * s2 + s), -2.0 * s3 + 3.0 * s2, dt * (s3 - s2)]
}

/// An animation of a model (a glTF animation): channels over the model's bones.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelAnimation {
    pub(crate) name: Option<String>,
    pub(crate) channels: Vec<AnimationChannel>,
}

impl ModelAnimation {
    /// The animation's name (`None` where the file gives none).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The channels, in the file's order.
    pub fn channels(&self) -> &[AnimationChannel] {
        &self.channels
    }

    /// The last key time of any channel, in seconds.
    pub fn duration(&self) -> f32 {
        self.channels.iter().filter_map(|c| c.times.last()).fold(0.0, |a, &t| a.max(t))
    }

    /// Sets, in `poses` (one per bone of the model, indexed as `Bones`), each animated
    /// component of each channel's bone to its value at `time` (see the module documentation
    /// for the interpolation); components no channel animates keep their value. Morph weight
    /// channels are left out. A slice too short for a channel's bone is `ArgumentOutOfRange`
    /// on `poses`, and no pose changes.
    pub fn sample(&self, time: f32, poses: &mut [BonePose]) -> Result<()> {
        if let Some(c) = self.channels.iter().find(|c| c.bone >= poses.len()) {
            return Err(XnaError::out_of_range(
                "poses",
                format!(
                    "The slice holds {} poses; a channel animates bone {}.",
                    poses.len(),
                    c.bone
                ),
            ));
        }
        for c in &self.channels {
            let pose = &mut poses[c.bone];
            match &c.values {
                AnimationValues::Translation(v) => pose.translation = c.vector_at(v, time),
                AnimationValues::Rotation(v) => pose.rotation = c.rotation_at(v, time),
                AnimationValues::Scale(v) => pose.scale = c.vector_at(v, time),
                AnimationValues::Weights { .. } => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(interpolation: Interpolation, times: &[f32], v: &[f32]) -> AnimationChannel {
        let values = v.iter().map(|&x| Vector3::new(x, 0.0, 0.0)).collect();
        AnimationChannel {
            bone: 0,
            interpolation,
            times: times.to_vec(),
            values: AnimationValues::Translation(values),
        }
    }

    fn x_at(c: &AnimationChannel, t: f32) -> f32 {
        let AnimationValues::Translation(v) = &c.values else { unreachable!() };
        c.vector_at(v, t).x
    }

    #[test]
    fn times_outside_the_keys_clamp_to_the_first_or_last_value() {
        let c = channel(Interpolation::Linear, &[1.0, 2.0], &[10.0, 20.0]);
        assert_eq!(x_at(&c, 0.0), 10.0);
        assert_eq!(x_at(&c, 5.0), 20.0);
        assert_eq!(x_at(&c, 1.25), 12.5);
    }

    #[test]
    fn step_holds_a_key_until_the_next() {
        let c = channel(Interpolation::Step, &[0.0, 1.0, 2.0], &[1.0, 2.0, 3.0]);
        assert_eq!(x_at(&c, 0.99), 1.0);
        assert_eq!(x_at(&c, 1.0), 2.0);
        assert_eq!(x_at(&c, 1.5), 2.0);
    }

    #[test]
    fn cubic_spline_follows_the_hermite_weights_of_the_gltf_specification() {
        // Keys at 0 and 2: values 0 and 1, out-tangent of key 0 is 3, in-tangent of key 1 is
        // -1; at s = 0.5 (t = 1) with dt = 2: 0.5·0 + 2·0.125·3 + 0.5·1 + 2·(-0.125)·(-1).
        let c = channel(Interpolation::CubicSpline, &[0.0, 2.0], &[9.0, 0.0, 3.0, -1.0, 1.0, 9.0]);
        assert!((x_at(&c, 1.0) - (0.75 + 0.5 + 0.25)).abs() < 1e-6);
        assert_eq!(x_at(&c, 0.0), 0.0);
        assert_eq!(x_at(&c, 2.0), 1.0);
    }
}
