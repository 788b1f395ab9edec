//! `MathHelper`: XNA's scalar constants and the scalar forms of the interpolations that the
//! vector types apply per component (lerp, smooth step, Hermite, Catmull-Rom, barycentric),
//! plus clamping, angle wrapping and degree/radian conversion.
//!
//! XNA evaluates Hermite and Catmull-Rom in double precision and rounds the result once; so do
//! these, so a vector's component matches XNA's scalar result bit for bit.

/// XNA's `MathHelper` static class, as associated functions and constants of a unit struct.
#[derive(Clone, Copy, Debug)]
pub struct MathHelper;

impl MathHelper {
    /// `MathHelper.E`.
    pub const E: f32 = std::f32::consts::E;
    /// `MathHelper.Log10E`.
    pub const LOG10_E: f32 = std::f32::consts::LOG10_E;
    /// `MathHelper.Log2E`.
    pub const LOG2_E: f32 = std::f32::consts::LOG2_E;
    /// `MathHelper.Pi`.
    pub const PI: f32 = std::f32::consts::PI;
    /// `MathHelper.PiOver2`.
    pub const PI_OVER_2: f32 = std::f32::consts::FRAC_PI_2;
    /// `MathHelper.PiOver4`.
    pub const PI_OVER_4: f32 = std::f32::consts::FRAC_PI_4;
    /// `MathHelper.TwoPi`.
    pub const TWO_PI: f32 = std::f32::consts::TAU;

    /// `MathHelper.ToRadians(degrees)`: `degrees × π / 180`, computed in double precision.
    pub fn to_radians(degrees: f32) -> f32 {
        (f64::from(degrees) * (std::f64::consts::PI / 180.0)) as f32
    }

    /// `MathHelper.ToDegrees(radians)`: `radians × 180 / π`, computed in double precision.
    pub fn to_degrees(radians: f32) -> f32 {
        (f64::from(radians) * (180.0 / std::f64::consts::PI)) as f32
    }

    /// `MathHelper.Lerp(value1, value2, amount)`: `value1 + (value2 − value1) × amount`; the
    /// amount is not clamped.
    pub fn lerp(value1: f32, value2: f32, amount: f32) -> f32 {
        value1 + (value2 - value1) * amount
    }

    /// `MathHelper.Clamp(value, min, max)`: `value` limited to `max` first, then to `min` (so
    /// `min` wins when `min > max`, as in XNA). A NaN value stays NaN.
    pub fn clamp(value: f32, min: f32, max: f32) -> f32 {
        let value = if value > max { max } else { value };
        if value < min {
            min
        } else {
            value
        }
    }

    /// `MathHelper.Min(value1, value2)`: the smaller value. With a NaN the result is `value2`
    /// (NaN only when `value2` is NaN), where XNA's `Math.Min` gives NaN for either.
    pub fn min(value1: f32, value2: f32) -> f32 {
        if value1 < value2 {
            value1
        } else {
            value2
        }
    }

    /// `MathHelper.Max(value1, value2)`: the larger value. With a NaN the result is `value2`
    /// (NaN only when `value2` is NaN), where XNA's `Math.Max` gives NaN for either.
    pub fn max(value1: f32, value2: f32) -> f32 {
        if value1 > value2 {
            value1
        } else {
            value2
        }
    }

    /// `MathHelper.Distance(value1, value2)`: `|value1 − value2|`.
    pub fn distance(value1: f32, value2: f32) -> f32 {
        (value1 - value2).abs()
    }

    /// `MathHelper.WrapAngle(angle)`: the same angle in (−π, π].
    pub fn wrap_angle(angle: f32) -> f32 {
        if angle > -Self::PI && angle <= Self::PI {
            return angle;
        }
        let angle = angle % Self::TWO_PI;
        if angle <= -Self::PI {
            angle + Self::TWO_PI
        } else if angle > Self::PI {
            angle - Self::TWO_PI
        } else {
            angle
        }
    }

    /// `MathHelper.Barycentric(value1, value2, value3, amount1, amount2)`: the point at
    /// barycentric weights `amount1` (towards `value2`) and `amount2` (towards `value3`).
    pub fn barycentric(value1: f32, value2: f32, value3: f32, amount1: f32, amount2: f32) -> f32 {
        value1 + (value2 - value1) * amount1 + (value3 - value1) * amount2
    }

    /// `MathHelper.Hermite(value1, tangent1, value2, tangent2, amount)`: the cubic Hermite
    /// spline, exactly `value1` at amount 0 and `value2` at amount 1, evaluated in double
    /// precision.
    pub fn hermite(value1: f32, tangent1: f32, value2: f32, tangent2: f32, amount: f32) -> f32 {
        if amount == 0.0 {
            return value1;
        }
        if amount == 1.0 {
            return value2;
        }
        let (v1, t1, v2, t2, s) = (
            f64::from(value1),
            f64::from(tangent1),
            f64::from(value2),
            f64::from(tangent2),
            f64::from(amount),
        );
        let (s2, s3) = (s * s, s * s * s);
        ((2.0 * v1 - 2.0 * v2 + t2 + t1) * s3
            + (3.0 * v2 - 3.0 * v1 - 2.0 * t1 - t2) * s2
            + t1 * s
            + v1) as f32
    }

    /// `MathHelper.SmoothStep(value1, value2, amount)`: the Hermite curve with zero tangents,
    /// the amount clamped to [0, 1].
    pub fn smooth_step(value1: f32, value2: f32, amount: f32) -> f32 {
        Self::hermite(value1, 0.0, value2, 0.0, Self::clamp(amount, 0.0, 1.0))
    }

    /// `MathHelper.CatmullRom(value1, value2, value3, value4, amount)`: the Catmull-Rom spline
    /// through `value2` (amount 0) and `value3` (amount 1), evaluated in double precision.
    pub fn catmull_rom(value1: f32, value2: f32, value3: f32, value4: f32, amount: f32) -> f32 {
        let (p1, p2, p3, p4, s) = (
            f64::from(value1),
            f64::from(value2),
            f64::from(value3),
            f64::from(value4),
            f64::from(amount),
        );
        let (s2, s3) = (s * s, s * s * s);
        (0.5 * (2.0 * p2
            + (p3 - p1) * s
            + (2.0 * p1 - 5.0 * p2 + 4.0 * p3 - p4) * s2
            + (3.0 * p2 - p1 - 3.0 * p3 + p4) * s3)) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::MathHelper as M;

    #[test]
    fn constants_are_the_published_values() {
        // The IEEE single-precision bit patterns of π, 2π, π/2, π/4 and e.
        assert_eq!(M::PI.to_bits(), 0x4049_0FDB);
        assert_eq!(M::TWO_PI.to_bits(), 0x40C9_0FDB);
        assert_eq!(M::PI_OVER_2.to_bits(), 0x3FC9_0FDB);
        assert_eq!(M::PI_OVER_4.to_bits(), 0x3F49_0FDB);
        assert_eq!(M::E.to_bits(), 0x402D_F854);
    }

    #[test]
    fn degrees_and_radians_convert_both_ways() {
        assert_eq!(M::to_radians(180.0), M::PI);
        assert_eq!(M::to_radians(90.0), M::PI_OVER_2);
        assert_eq!(M::to_degrees(M::PI), 180.0);
        assert_eq!(M::to_degrees(-M::PI_OVER_4), -45.0);
    }

    #[test]
    fn wrap_angle_lands_in_minus_pi_exclusive_to_pi_inclusive() {
        assert_eq!(M::wrap_angle(M::PI), M::PI);
        assert_eq!(M::wrap_angle(-M::PI), M::PI);
        assert_eq!(M::wrap_angle(0.5), 0.5);
        assert!((M::wrap_angle(3.0 * M::PI_OVER_2) + M::PI_OVER_2).abs() < 1e-6);
        assert!((M::wrap_angle(-7.0) - (-7.0 + M::TWO_PI)).abs() < 1e-6);
        assert!((M::wrap_angle(20.0) - (20.0 - 3.0 * M::TWO_PI)).abs() < 1e-5);
    }

    #[test]
    fn clamp_applies_max_then_min() {
        assert_eq!(M::clamp(5.0, 0.0, 1.0), 1.0);
        assert_eq!(M::clamp(-5.0, 0.0, 1.0), 0.0);
        assert_eq!(M::clamp(0.25, 0.0, 1.0), 0.25);
        // min > max: XNA applies max first, so min wins.
        assert_eq!(M::clamp(0.5, 2.0, 1.0), 2.0);
    }

    #[test]
    fn interpolations_hit_their_end_points_and_published_midpoints() {
        assert_eq!(M::lerp(2.0, 6.0, 0.25), 3.0);
        assert_eq!(M::lerp(2.0, 6.0, 2.0), 10.0);
        assert_eq!(M::smooth_step(0.0, 10.0, 0.5), 5.0);
        // 3t² − 2t³ at t = 0.25 is 0.15625.
        assert_eq!(M::smooth_step(0.0, 1.0, 0.25), 0.156_25);
        assert_eq!(M::smooth_step(0.0, 1.0, 7.0), 1.0);
        assert_eq!(M::smooth_step(0.0, 1.0, -7.0), 0.0);
        assert_eq!(M::hermite(1.0, 5.0, 2.0, 5.0, 0.0), 1.0);
        assert_eq!(M::hermite(1.0, 5.0, 2.0, 5.0, 1.0), 2.0);
        // h00 = h01 = 0.5, h10 = 0.125, h11 = -0.125 at t = 0.5.
        assert_eq!(M::hermite(0.0, 1.0, 4.0, 3.0, 0.5), 2.0 + 0.125 - 0.375);
        assert_eq!(M::catmull_rom(0.0, 1.0, 2.0, 3.0, 0.5), 1.5);
        assert_eq!(M::catmull_rom(0.0, 1.0, 4.0, 9.0, 0.0), 1.0);
        assert_eq!(M::catmull_rom(0.0, 1.0, 4.0, 9.0, 1.0), 4.0);
        // 0.5 × (2·1 + 4·0.5 + (−5 + 16 − 9)·0.25 + (3 − 12 + 9)·0.125) = 2.25.
        assert_eq!(M::catmull_rom(0.0, 1.0, 4.0, 9.0, 0.5), 2.25);
        assert_eq!(M::barycentric(1.0, 3.0, 5.0, 0.5, 0.25), 3.0);
        assert_eq!(M::distance(-2.0, 3.0), 5.0);
    }
}
