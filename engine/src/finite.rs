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

/// Whether every value is a finite number (one multiply-add each: `x * 0` is 0 only for a
/// finite `x`).
#[inline]
pub(crate) fn all_finite(values: &[f32]) -> bool {
    values.iter().fold(0.0f32, |sum, v| sum + v * 0.0) == 0.0
}

/// The first parameter of `values` that holds a non-finite number, as an `ArgumentException`.
pub(crate) fn check_finite(values: &[(&'static str, &[f32])]) -> Result<()> {
    match values.iter().find(|(_, v)| !all_finite(v)) {
        Some((param, _)) => Err(XnaError::argument(
            param,
            "The value must be a finite number (not NaN or infinity).",
        )),
        None => Ok(()),
    }
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
        let err = check_finite(&[("a", &[1.0]), ("b", &[2.0, f32::NAN]), ("c", &[f32::NAN])]);
        assert_eq!(err.unwrap_err().param(), Some("b"));
    }
}
