//! RenderTarget2D construction: sizes, the profile's limits, format substitution, sample counts
//! and the applied depth format.

use super::*;

#[test]
fn construction_requires_a_positive_size() {
    let _v = Validation::new();
    let device = device(8, 8);
    let err = RenderTarget2D::new(&device, 0, 4).unwrap_err();
    assert!(matches!(err, XnaError::ArgumentOutOfRange { param: "width", .. }), "{err}");
    let err = RenderTarget2D::new(&device, 4, -1).unwrap_err();
    assert!(matches!(err, XnaError::ArgumentOutOfRange { param: "height", .. }), "{err}");
}

#[test]
fn construction_enforces_the_profile_ceiling_and_aspect_ratio() {
    let _v = Validation::new();
    let reach = device_with(GraphicsProfile::Reach, params(8, 8));
    assert!(matches!(RenderTarget2D::new(&reach, 2049, 4), Err(XnaError::NotSupported { .. })));
    assert!(RenderTarget2D::new(&reach, 2048, 1).is_ok(), "exactly 2048:1 is allowed");
    drop(reach);
    let hidef = device(8, 8);
    assert!(RenderTarget2D::new(&hidef, 4096, 2).is_ok());
    assert!(matches!(RenderTarget2D::new(&hidef, 4097, 4), Err(XnaError::NotSupported { .. })));
    assert!(matches!(RenderTarget2D::new(&hidef, 4096, 1), Err(XnaError::NotSupported { .. })));
}

#[test]
fn preferred_format_is_substituted_not_refused() {
    let _v = Validation::new();
    let reach = device_with(GraphicsProfile::Reach, params(8, 8));
    let rt = RenderTarget2D::with_options(
        &reach,
        8,
        8,
        false,
        SurfaceFormat::HdrBlendable,
        DepthFormat::None,
        0,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    assert_eq!(rt.format(), SurfaceFormat::Color);
    drop(rt);
    drop(reach);
    let hidef = device(8, 8);
    let rt = RenderTarget2D::with_options(
        &hidef,
        8,
        8,
        false,
        SurfaceFormat::HdrBlendable,
        DepthFormat::None,
        0,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    assert_eq!(rt.format(), SurfaceFormat::HdrBlendable);
    let rt = RenderTarget2D::with_options(
        &hidef,
        8,
        8,
        false,
        SurfaceFormat::Dxt1,
        DepthFormat::None,
        0,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    assert_eq!(rt.format(), SurfaceFormat::Color, "compressed formats cannot be rendered to");
}

#[test]
fn mipmapped_non_power_of_two_target_is_allowed_under_reach() {
    let _v = Validation::new();
    let reach = device_with(GraphicsProfile::Reach, params(8, 8));
    let rt = RenderTarget2D::with_options(
        &reach,
        100,
        60,
        true,
        SurfaceFormat::Color,
        DepthFormat::None,
        0,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    assert_eq!(rt.level_count(), 7);
    // The Texture2D rule still holds for plain textures.
    let err = xnagraph::Texture2D::with_format(&reach, 100, 60, true, SurfaceFormat::Color);
    assert!(matches!(err, Err(XnaError::NotSupported { .. })));
}

#[test]
fn multisample_count_is_rounded_clamped_and_reported() {
    let _v = Validation::new();
    let device = device(8, 8);
    // The counts the device supports, queried (bit n set: 2^n samples).
    let supported = device.capabilities().sample_counts;
    if device.adapter_name().contains("llvmpipe") {
        assert_eq!(supported, 0b101, "lavapipe renders with 1 or 4 samples");
    }
    // XNA's rule, written out independently: round the request down to a power of two, then
    // down again to the nearest supported count; 1 sample (or none supported) reports 0.
    let expected = |requested: i32| -> i32 {
        let mut count = if requested <= 1 { 1 } else { 1 << (31 - requested.leading_zeros()) };
        while count > 1 && supported & count as u32 == 0 {
            count >>= 1;
        }
        if count == 1 {
            0
        } else {
            count
        }
    };
    for requested in [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 64] {
        let rt =
            target(&device, 8, 8, DepthFormat::None, requested, RenderTargetUsage::DiscardContents);
        assert_eq!(rt.multi_sample_count(), expected(requested), "{requested} samples requested");
    }
    if supported == 0b101 {
        let three = target(&device, 8, 8, DepthFormat::None, 3, RenderTargetUsage::DiscardContents);
        assert_eq!(three.multi_sample_count(), 0, "3 rounds to 2, which lavapipe lacks");
        let many = target(&device, 8, 8, DepthFormat::None, 64, RenderTargetUsage::DiscardContents);
        assert_eq!(many.multi_sample_count(), 4);
    }
}

#[test]
fn applied_depth_format_is_the_allocated_one() {
    let _v = Validation::new();
    let device = device(16, 16);
    for requested in [
        DepthFormat::None,
        DepthFormat::Depth16,
        DepthFormat::Depth24,
        DepthFormat::Depth24Stencil8,
    ] {
        let rt = target(&device, 16, 16, requested, 0, RenderTargetUsage::DiscardContents);
        device.set_render_target(Some(&rt)).unwrap();
        let real = probe_depth_format(&device, || {
            device.set_render_target(None).unwrap();
            (read_target(&rt), 16)
        });
        assert_eq!(rt.depth_stencil_format(), real, "requested {requested:?}");
        if real != requested {
            eprintln!("{requested:?} was substituted by {real:?} on this adapter");
        }
    }
}
