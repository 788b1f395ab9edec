//! The post-chain frame's hardware floor: the least GPU time this hardware can spend on the
//! frame, the larger of the bound its plan's bytes set at the memory bandwidth and the fill
//! floor the [fill probe](crate::ash_fill) measures for its passes.
//!
//! Memory alone does not bound a frame on every GPU: the NVIDIA H200, a compute GPU, can
//! rasterise in very few of its units, so drawing the frame's fragments takes it far longer
//! than moving the frame's bytes. The fill floor charges each pass of the frame what the same
//! pass costs in a minimal hand-written program on this adapter: the 4x HDR scene (alpha
//! blended, resolved) for the screens of fragments its sprites cover, each downsample step
//! (one opaque layer at its size) and the bloom combine into the back buffer (an opaque and an
//! additive layer).

use crate::ash_fill::{FillBlend, FillPass, FillProbe, BACK_BUFFER_FORMAT, HDR_FORMAT};
use crate::number;
use crate::post_chain::chain_size;

/// The fill floor of the post-chain frame on the probe's adapter, by pass, in milliseconds.
#[derive(Clone, Copy, Debug)]
pub struct FillFloor {
    /// The scene pass: fixed cost plus the covered screens of 4x alpha-blended fragments.
    pub scene_ms: f64,
    /// The four downsample steps together.
    pub chain_ms: f64,
    /// The bloom combine into the back buffer.
    pub back_buffer_ms: f64,
}

impl FillFloor {
    /// The whole frame's fill floor.
    pub fn total_ms(&self) -> f64 {
        self.scene_ms + self.chain_ms + self.back_buffer_ms
    }
}

/// Measures the fill floor of the post-chain frame of a `size` back buffer and scene whose
/// sprites cover `coverage_screens` times the scene's area, each pass configuration at the
/// pass's own size. Fails where the adapter lacks what a pass needs (4x HDR colour).
pub fn fill_floor(
    probe: &mut FillProbe,
    size: (i32, i32),
    coverage_screens: f64,
) -> Result<FillFloor, String> {
    let pass = |(width, height): (i32, i32), format, samples, blends: &[FillBlend], resolve| {
        let (width, height) = (width as u32, height as u32);
        FillPass { width, height, format, samples, blends: blends.to_vec(), resolve }
    };
    let alpha = FillBlend::Alpha;
    let scene = pass(size, HDR_FORMAT, 4, &[alpha], true);
    let scene_ns = probe.fit(&scene, alpha)?.cost_ns(coverage_screens);
    let mut chain_ns = 0.0;
    for step in 1..=4 {
        let opaque = FillBlend::Opaque;
        let target = pass(chain_size(size, step), HDR_FORMAT, 1, &[opaque], false);
        chain_ns += probe.measure(&target, &[(opaque, 1)])?;
    }
    let layers = [(FillBlend::Opaque, 1), (FillBlend::Additive, 1)];
    let blends = layers.map(|(blend, _)| blend);
    let back_buffer = pass(size, BACK_BUFFER_FORMAT, 1, &blends, false);
    let back_buffer_ns = probe.measure(&back_buffer, &layers)?;
    Ok(FillFloor {
        scene_ms: scene_ns / 1e6,
        chain_ms: chain_ns / 1e6,
        back_buffer_ms: back_buffer_ns / 1e6,
    })
}

/// The post-chain frame's fill floor, from the fill probe on its own device (validated with
/// `validation`, whose messages fail the run), before the engine's devices exist; `Ok(Err)`
/// says why there is none where the adapter cannot run the probe.
pub fn probe_fill_floor(
    validation: bool,
    size: (i32, i32),
    coverage_screens: f64,
) -> Result<Result<(FillFloor, String), String>, String> {
    let mut probe = match FillProbe::new(validation) {
        Ok(probe) => probe,
        Err(why) => return Ok(Err(format!("no probe: {why}"))),
    };
    let floor = fill_floor(&mut probe, size, coverage_screens);
    crate::no_validation_messages(&probe.take_messages())
        .map_err(|e| format!("fill probe: {e}"))?;
    Ok(floor.map(|f| (f, probe.adapter.clone())).map_err(|why| format!("failed: {why}")))
}

/// The summary fields of a post-chain run whose GPU p50 is `gpu_p50_ms`, against its
/// bandwidth bound and the fill floor (`Err` says why there is none): `fill_floor_ms` (null
/// without one) and its parts, `fill_probe` (how it was had), `scene_coverage_screens`,
/// `hardware_floor_ms` (the larger of the two floors) and `gpu_over_hardware_floor`.
pub fn floor_fields(
    gpu_p50_ms: f64,
    bandwidth_bound_ms: f64,
    coverage_screens: f64,
    fill: &Result<(FillFloor, String), String>,
) -> Vec<(&'static str, crate::Value)> {
    let (floor, probe) = match fill {
        Ok((floor, adapter)) => (Some(*floor), format!("measured on {adapter}")),
        Err(why) => (None, why.clone()),
    };
    let part = |get: fn(&FillFloor) -> f64| number(floor.as_ref().map_or(f64::NAN, get));
    let hardware_ms = floor.map_or(f64::NAN, |f| f.total_ms().max(bandwidth_bound_ms));
    vec![
        ("fill_floor_ms", part(FillFloor::total_ms)),
        ("fill_scene_ms", part(|f| f.scene_ms)),
        ("fill_chain_ms", part(|f| f.chain_ms)),
        ("fill_back_buffer_ms", part(|f| f.back_buffer_ms)),
        ("fill_probe", crate::string(&probe)),
        ("scene_coverage_screens", number(coverage_screens)),
        ("hardware_floor_ms", number(hardware_ms)),
        ("gpu_over_hardware_floor", number(gpu_p50_ms / hardware_ms)),
    ]
}
