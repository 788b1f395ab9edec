//! The fill probe on the default adapter (lavapipe in CI) with Khronos' validation layer, with
//! synchronization validation, on its instance: its passes raise no message, more layers take
//! longer, and what the adapter cannot do is refused with a message.

use xnagraph_benches::ash_fill::{
    FillBlend, FillPass, FillProbe, BACK_BUFFER_FORMAT, FIT_LAYERS, HDR_FORMAT,
};

fn scene_pass() -> FillPass {
    FillPass {
        width: 256,
        height: 192,
        format: HDR_FORMAT,
        samples: 4,
        blends: vec![FillBlend::Alpha],
        resolve: true,
    }
}

#[test]
fn more_layers_take_longer_and_the_fitted_layer_costs_time() {
    let mut probe = FillProbe::new(true).expect("the probe runs on the default adapter");
    let pass = scene_pass();
    let (low, high) = FIT_LAYERS;
    let one = probe.measure(&pass, &[(FillBlend::Alpha, low)]).unwrap();
    let eight = probe.measure(&pass, &[(FillBlend::Alpha, high)]).unwrap();
    // Eight blended 4x layers shade eight times the fragments of one: well over 1.5 times the
    // pass's time on any GPU, a CPU rasteriser included.
    assert!(one > 0.0 && eight > 1.5 * one, "1 layer {one} ns, {high} layers {eight} ns");
    let fit = probe.fit(&pass, FillBlend::Alpha).unwrap();
    assert!(fit.slope_ns > 0.0, "{fit:?}");
    assert!(fit.cost_ns(2.0) > fit.cost_ns(1.0), "{fit:?}");
    assert_eq!(probe.take_messages(), Vec::<String>::new());
}

#[test]
fn every_pass_kind_of_the_post_chain_runs_without_validation_messages() {
    let mut probe = FillProbe::new(true).expect("the probe runs on the default adapter");
    let passes = [
        // A downsample step: single-sample HDR, one opaque layer, stored.
        (
            FillPass {
                width: 64,
                height: 48,
                format: HDR_FORMAT,
                samples: 1,
                blends: vec![FillBlend::Opaque],
                resolve: false,
            },
            vec![(FillBlend::Opaque, 1)],
        ),
        // The bloom combine into the back buffer: an opaque then an additive layer.
        (
            FillPass {
                width: 96,
                height: 64,
                format: BACK_BUFFER_FORMAT,
                samples: 1,
                blends: vec![FillBlend::Opaque, FillBlend::Additive],
                resolve: false,
            },
            vec![(FillBlend::Opaque, 1), (FillBlend::Additive, 1)],
        ),
        (scene_pass(), vec![(FillBlend::Alpha, 3)]),
    ];
    for (pass, layers) in &passes {
        let ns = probe.measure(pass, layers).unwrap();
        assert!(ns > 0.0, "{pass:?}: {ns} ns");
    }
    assert_eq!(probe.take_messages(), Vec::<String>::new());
}

#[test]
fn what_the_adapter_or_the_pass_lacks_is_refused() {
    let mut probe = FillProbe::new(true).expect("the probe runs on the default adapter");
    let three = FillPass { samples: 3, ..scene_pass() };
    let refused = probe.measure(&three, &[(FillBlend::Alpha, 1)]).unwrap_err();
    assert!(refused.contains("3 samples"), "{refused}");
    let additive = probe.measure(&scene_pass(), &[(FillBlend::Additive, 1)]).unwrap_err();
    assert!(additive.contains("Additive"), "{additive}");
    assert_eq!(probe.take_messages(), Vec::<String>::new());
}
