//! Floats that reach the GPU must be finite numbers.
//!
//! XNA hands its floats to Direct3D unchecked; what a NaN or an infinity then does is up to the
//! driver, and in Vulkan it is undefined (or a validation error, as for a clear depth). Here each
//! public call that takes such a float refuses a non-finite one with `ArgumentException` naming
//! the parameter, before anything is recorded. Finite values keep XNA's meaning: a clear depth
//! is clamped to [0, 1], a viewport depth outside [0, 1] is refused, a sprite's layer depth
//! outside [0, 1] is clipped by the depth range as on Direct3D.

use xnagraph_graph::RasterizerState;

use crate::error::{Result, XnaError};

/// Exponent bits of an `f32`; all ones for NaN and the infinities.
const EXPONENT: u32 = 0x7f80_0000;

/// Whether every value is a finite number. Integer operations on the bits, without branches or
/// a chain of float latencies: this runs once per sprite.
#[inline]
pub(crate) fn all_finite(values: &[f32]) -> bool {
    values.iter().fold(0u32, |bad, v| bad | u32::from(v.to_bits() & EXPONENT == EXPONENT)) == 0
}

/// Whether every value's magnitude is below 2^124, so that sums of a few products of them with
/// factors of at most 1 (a sprite's corners) stay finite. False for NaN and the infinities too.
#[inline]
pub(crate) fn all_below_2_pow_124(values: &[f32]) -> bool {
    const LIMIT: u32 = (124 + 127) << 23;
    values.iter().fold(0u32, |max, v| max.max(v.to_bits() & 0x7fff_ffff)) < LIMIT
}

/// The first parameter of `values` that holds a non-finite number, as an `ArgumentException`.
/// Per-sprite paths call it only once [`all_finite`] has failed, hence cold.
#[cold]
#[inline(never)]
pub(crate) fn check_finite(values: &[(&'static str, &[f32])]) -> Result<()> {
    match values.iter().find(|(_, v)| !all_finite(v)) {
        Some((param, _)) => Err(not_finite(param)),
        None => Ok(()),
    }
}

/// The `ArgumentException` for parameter `param` holding a non-finite number.
#[cold]
pub(crate) fn not_finite(param: &'static str) -> XnaError {
    XnaError::argument(param, "The value must be a finite number (not NaN or infinity).")
}

/// `DepthBias` and `SlopeScaleDepthBias` must be finite numbers.
pub(crate) fn check_rasterizer(state: &RasterizerState) -> Result<()> {
    let bias = [f32::from_bits(state.depth_bias_bits)];
    let slope = [f32::from_bits(state.slope_scale_depth_bias_bits)];
    check_finite(&[("rasterizerState", &bias), ("rasterizerState", &slope)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_finite_numbers_pass() {
        assert!(all_finite(&[0.0, -0.0, 1.0, f32::MAX, f32::MIN, f32::MIN_POSITIVE]));
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert!(!all_finite(&[1.0, bad, 2.0]), "{bad}");
        }
        let limit = 2.0f32.powi(124);
        let largest_below = f32::from_bits(limit.to_bits() - 1);
        assert!(all_below_2_pow_124(&[0.0, -1.0, largest_below, -largest_below]));
        assert!((largest_below * 5.0).is_finite(), "five values below the limit never overflow");
        for big in [limit, -limit, f32::MAX, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert!(!all_below_2_pow_124(&[1.0, big]), "{big}");
        }
        let err = check_finite(&[("a", &[1.0]), ("b", &[2.0, f32::NAN]), ("c", &[f32::NAN])]);
        assert_eq!(err.unwrap_err().param(), Some("b"));
    }
}
