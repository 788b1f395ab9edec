//! The `sprites` frame's hardware reference (`--ash-reference`): the last frame's sprite
//! instances drawn by [`AshSprites`], a minimal hand-written ash program, on its own device on
//! the same adapter, with the same textures, shaders, sampler, blend and clear. Its GPU time is
//! what the hardware itself needs for the frame's draw; the engine's GPU time over it is what
//! the engine adds (a ratio near 1: the frame's cost is the hardware's).

use crate::ash_sprites::AshSprites;
use crate::number;
use crate::stress::sprites::{Sprites, CLEAR};

/// Timed draws of the frame; the median is kept.
pub const ROUNDS: usize = 15;

/// The reference's GPU time for `scenario`'s last frame on a `size` target, in nanoseconds,
/// and its adapter; `Ok(Err)` says why there is none where the adapter cannot run it (no
/// non-uniform indexing for several textures, no timestamps). Validated with `validation`,
/// whose messages fail the run.
pub fn measure(
    validation: bool,
    scenario: &Sprites,
    (width, height): (i32, i32),
) -> Result<Result<(f64, String), String>, String> {
    let textures = scenario.texture_data();
    let mut reference = match AshSprites::new(validation, width as u32, height as u32, &textures) {
        Ok(reference) => reference,
        Err(why) => return Ok(Err(format!("not run: {why}"))),
    };
    let clear = CLEAR.map(|c| f32::from(c) / 255.0);
    let ns = reference.measure(&scenario.instances(), clear, ROUNDS);
    crate::no_validation_messages(&reference.take_messages())
        .map_err(|e| format!("sprites reference: {e}"))?;
    Ok(ns.map(|ns| (ns, reference.adapter.clone())).map_err(|why| format!("failed: {why}")))
}

/// The summary fields of a `sprites` run whose engine GPU p50 is `gpu_p50_ms` (NaN when the
/// frames were not timed) against the reference's time (`Err` says why there is none):
/// `ash_reference_gpu_ms`, `gpu_over_ash_reference` and `ash_reference_adapter` (null without
/// a reference), and `ash_reference` (how it was had, or why not).
pub fn fields(
    gpu_p50_ms: f64,
    reference: &Result<(f64, String), String>,
) -> Vec<(&'static str, crate::Value)> {
    let (ms, adapter, how) = match reference {
        Ok((ns, adapter)) => {
            (ns / 1e6, crate::string(adapter), format!("median of {ROUNDS} draws on {adapter}"))
        }
        Err(why) => (f64::NAN, crate::Value::Null, why.clone()),
    };
    vec![
        ("ash_reference_gpu_ms", number(ms)),
        ("gpu_over_ash_reference", number(gpu_p50_ms / ms)),
        ("ash_reference_adapter", adapter),
        ("ash_reference", crate::string(&how)),
    ]
}
