//! RenderTarget2D construction rules and the SetRenderTargets transaction.

mod common;
#[path = "render_target/construction.rs"]
mod construction;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::*;
use xnagraph::{
    Color, DepthFormat, GraphicsProfile, Rectangle, RenderTarget2D, RenderTargetBinding,
    RenderTargetUsage, SpriteBatch, SurfaceFormat, Vector2, Viewport, XnaError,
};

fn target(
    device: &xnagraph::GraphicsDevice,
    w: i32,
    h: i32,
    depth: DepthFormat,
    samples: i32,
    usage: RenderTargetUsage,
) -> RenderTarget2D {
    RenderTarget2D::with_options(device, w, h, false, SurfaceFormat::Color, depth, samples, usage)
        .expect("render target")
}

#[test]
fn same_set_is_a_no_op_that_keeps_the_viewport() {
    let _v = Validation::new();
    let device = device(32, 32);
    let rt = RenderTarget2D::new(&device, 16, 16).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    assert_eq!(device.viewport(), Viewport::new(0, 0, 16, 16));
    device.set_viewport(Viewport::new(2, 2, 4, 4)).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    assert_eq!(
        device.viewport(),
        Viewport::new(2, 2, 4, 4),
        "re-binding the same set changes nothing"
    );
    device.set_render_target(None).unwrap();
    assert_eq!(
        device.viewport(),
        Viewport::new(0, 0, 32, 32),
        "unbinding resets to the back buffer"
    );
    device.set_viewport(Viewport::new(1, 1, 3, 3)).unwrap();
    device.set_render_target(None).unwrap();
    assert_eq!(device.viewport(), Viewport::new(1, 1, 3, 3), "empty to empty is a no-op");
}

#[test]
fn binding_limits_are_four_and_the_profiles() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rts: Vec<_> = (0..5).map(|_| RenderTarget2D::new(&device, 8, 8).unwrap()).collect();
    let five: Vec<RenderTargetBinding> = rts.iter().map(RenderTargetBinding::from).collect();
    assert!(matches!(device.set_render_targets(&five), Err(XnaError::NotSupported { .. })));
    assert!(device.set_render_targets(&five[..4]).is_ok());
    device.set_render_target(None).unwrap();
    drop(rts);
    drop(device);
    let reach = device_with(GraphicsProfile::Reach, params(8, 8));
    let a = RenderTarget2D::new(&reach, 8, 8).unwrap();
    let b = RenderTarget2D::new(&reach, 8, 8).unwrap();
    let err = reach.set_render_targets(&[(&a).into(), (&b).into()]).unwrap_err();
    assert!(matches!(err, XnaError::NotSupported { .. }), "Reach binds one target: {err}");
}

#[test]
fn per_binding_checks_reject_null_disposed_foreign_and_array_slice() {
    let _v = Validation::new();
    let device = device(8, 8);
    let other = common::device(8, 8);
    let rt = RenderTarget2D::new(&device, 8, 8).unwrap();
    let null = RenderTargetBinding { render_target: None, array_slice: 0 };
    assert!(matches!(device.set_render_targets(&[null]), Err(XnaError::Argument { .. })));
    let slice = RenderTargetBinding { render_target: Some((&rt).into()), array_slice: 1 };
    assert!(matches!(device.set_render_targets(&[slice]), Err(XnaError::NotSupported { .. })));
    let foreign = RenderTarget2D::new(&other, 8, 8).unwrap();
    assert!(matches!(
        device.set_render_target(Some(&foreign)),
        Err(XnaError::InvalidOperation { .. })
    ));
    let disposed = RenderTarget2D::new(&device, 8, 8).unwrap();
    disposed.dispose().unwrap();
    assert!(matches!(
        device.set_render_target(Some(&disposed)),
        Err(XnaError::ObjectDisposed { .. })
    ));
    assert!(device.render_target_bindings().is_empty(), "a failed bind changes nothing");
}

#[test]
fn cross_binding_checks_reject_duplicates_and_mismatches() {
    let _v = Validation::new();
    let device = device(8, 8);
    let a = RenderTarget2D::new(&device, 8, 8).unwrap();
    let small = RenderTarget2D::new(&device, 4, 8).unwrap();
    let hdr = RenderTarget2D::with_options(
        &device,
        8,
        8,
        false,
        SurfaceFormat::HdrBlendable,
        DepthFormat::None,
        0,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    let single = RenderTarget2D::with_options(
        &device,
        8,
        8,
        false,
        SurfaceFormat::Single,
        DepthFormat::None,
        0,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    let dup = device.set_render_targets(&[(&a).into(), (&a).into()]).unwrap_err();
    assert!(matches!(dup, XnaError::Argument { .. }), "{dup}");
    assert!(device.set_render_targets(&[(&a).into(), (&small).into()]).is_err());
    assert!(device.set_render_targets(&[(&a).into(), (&hdr).into()]).is_err(), "4 vs 8 bytes");
    // Equal pixel size is compatible even when the formats differ.
    assert!(device.set_render_targets(&[(&a).into(), (&single).into()]).is_ok());
    device.set_render_target(None).unwrap();
    let msaa = target(&device, 8, 8, DepthFormat::None, 4, RenderTargetUsage::DiscardContents);
    let name = "cross_binding_checks_reject_duplicates_and_mismatches";
    if multisampled_as_requested(name, msaa.multi_sample_count(), 4) {
        let err = device.set_render_targets(&[(&a).into(), (&msaa).into()]).unwrap_err();
        assert!(matches!(err, XnaError::Argument { .. }), "sample counts differ: {err}");
    }
}

#[test]
fn discard_contents_bind_clears_to_opaque_black() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = RenderTarget2D::new(&device, 8, 8).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::RED).unwrap();
    device.set_render_target(None).unwrap();
    assert!(read_target(&rt).iter().all(|&p| p == Color::RED));
    // A new bind cycle of a DiscardContents target starts from opaque black.
    device.set_render_target(Some(&rt)).unwrap();
    device.set_render_target(None).unwrap();
    assert!(read_target(&rt).iter().all(|&p| p == Color::BLACK));
}

#[test]
fn readback_right_after_a_clear_only_pass_sees_the_clear() {
    // The pass only clears, so it becomes a transfer clear; the readback's transition must wait
    // for that transfer write (synchronization validation reports a write-after-write if not).
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = RenderTarget2D::new(&device, 8, 8).unwrap();
    for color in [Color::new(9, 80, 160, 255), Color::new(200, 7, 33, 255)] {
        device.set_render_target(Some(&rt)).unwrap();
        device.clear(color).unwrap();
        device.set_render_target(None).unwrap();
        assert!(read_target(&rt).iter().all(|&p| p == color));
    }
}

/// Draws a tinted square. `white` is created before the bind cycle under test: an upload inside
/// the cycle would split it, and the continued segment's LOAD would then hide the bind's own
/// load decision.
fn draw_square(
    device: &xnagraph::GraphicsDevice,
    white: &xnagraph::Texture2D,
    rect: Rectangle,
    color: Color,
) {
    let mut sb = SpriteBatch::new(device).unwrap();
    sb.begin().unwrap();
    sb.draw_rect(white, rect, color).unwrap();
    sb.end().unwrap();
}

#[test]
fn preserving_multisampled_target_keeps_samples_across_binds() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt =
        target(&device, 8, 8, DepthFormat::Depth24Stencil8, 4, RenderTargetUsage::PreserveContents);
    let name = "preserving_multisampled_target_keeps_samples_across_binds";
    if !multisampled_as_requested(name, rt.multi_sample_count(), 4) {
        return;
    }
    let white = white(&device);
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::GREEN).unwrap();
    device.set_render_target(None).unwrap();
    device.present().unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    draw_square(&device, &white, Rectangle::new(0, 0, 2, 2), Color::YELLOW);
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    assert_eq!(at(&px, 8, 6, 6), Color::GREEN);
    assert_eq!(at(&px, 8, 1, 1), Color::YELLOW);
}

#[test]
fn multiple_render_targets_are_all_cleared() {
    let _v = Validation::new();
    let device = device(8, 8);
    let a = RenderTarget2D::new(&device, 8, 8).unwrap();
    let b = RenderTarget2D::new(&device, 8, 8).unwrap();
    device.set_render_targets(&[(&a).into(), (&b).into()]).unwrap();
    device.clear(Color::new(1, 2, 3, 255)).unwrap();
    device.set_render_target(None).unwrap();
    assert!(read_target(&a).iter().all(|&p| p == Color::new(1, 2, 3, 255)));
    assert!(read_target(&b).iter().all(|&p| p == Color::new(1, 2, 3, 255)));
}

#[test]
fn disposing_a_bound_target_is_refused() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = RenderTarget2D::new(&device, 8, 8).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    let err = rt.dispose().unwrap_err();
    assert_eq!(
        err,
        XnaError::InvalidOperation { message: "Disposing target that is still bound".into() }
    );
    assert!(!rt.is_disposed());
    device.set_render_target(None).unwrap();
    rt.dispose().unwrap();
    assert!(rt.is_disposed());
}

#[test]
fn dropping_a_bound_target_detaches_it_and_present_keeps_refusing() {
    let _v = Validation::new();
    let device = device(8, 8);
    {
        let rt = RenderTarget2D::new(&device, 8, 8).unwrap();
        device.set_render_target(Some(&rt)).unwrap();
        device.clear(Color::RED).unwrap();
    }
    assert!(device.render_target_bindings().is_empty(), "the dead binding is gone");
    assert!(matches!(device.present(), Err(XnaError::InvalidOperation { .. })));
    // Even an empty set is a real transition now.
    device.set_render_target(None).unwrap();
    device.clear(Color::BLUE).unwrap();
    device.present().unwrap();
    assert!(read_back_buffer(&device).iter().all(|&p| p == Color::BLUE));
}

#[test]
fn content_lost_is_set_by_a_reset_and_cleared_by_the_next_bind() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = RenderTarget2D::new(&device, 8, 8).unwrap();
    let raised = Arc::new(AtomicUsize::new(0));
    let r = raised.clone();
    rt.content_lost().subscribe(move |_| {
        r.fetch_add(1, Ordering::SeqCst);
    });
    assert!(!rt.is_content_lost());
    device.notify_device_reset();
    assert!(rt.is_content_lost());
    assert_eq!(raised.load(Ordering::SeqCst), 1);
    device.set_render_target(Some(&rt)).unwrap();
    assert!(!rt.is_content_lost());
    device.set_render_target(None).unwrap();
}

#[test]
fn mipmapped_target_levels_are_generated_from_level_zero() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = RenderTarget2D::with_options(
        &device,
        16,
        16,
        true,
        SurfaceFormat::Color,
        DepthFormat::None,
        0,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::new(40, 80, 160, 255)).unwrap();
    device.set_render_target(None).unwrap();
    let mut level2 = vec![Color::TRANSPARENT; 16];
    rt.get_data_region(2, None, &mut level2, 0, 16).unwrap();
    assert!(level2.iter().all(|&p| p == Color::new(40, 80, 160, 255)), "{level2:?}");
}

#[test]
fn multisampled_target_is_resolved_before_it_is_sampled() {
    let _v = Validation::new();
    let device = device(16, 16);
    let rt =
        target(&device, 8, 8, DepthFormat::Depth24Stencil8, 4, RenderTargetUsage::DiscardContents);
    let name = "multisampled_target_is_resolved_before_it_is_sampled";
    if !multisampled_as_requested(name, rt.multi_sample_count(), 4) {
        return;
    }
    let white = white(&device);
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::RED).unwrap();
    draw_square(&device, &white, Rectangle::new(4, 0, 4, 8), Color::BLUE);
    device.set_render_target(None).unwrap();
    device.clear(Color::BLACK).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin_with(
        xnagraph::SpriteSortMode::Deferred,
        None,
        Some(xnagraph::SamplerState::POINT_CLAMP),
        None,
        None,
        None,
    )
    .unwrap();
    sb.draw_rect(&rt, Rectangle::new(0, 0, 16, 16), Color::WHITE).unwrap();
    sb.end().unwrap();
    device.present().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 16, 2, 8), Color::RED);
    assert_eq!(at(&px, 16, 13, 8), Color::BLUE);
}

#[test]
fn discard_contents_bind_resets_depth_to_one_and_stencil_to_zero() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt =
        target(&device, 8, 8, DepthFormat::Depth24Stencil8, 0, RenderTargetUsage::DiscardContents);
    let white = white(&device);
    // First cycle: leave depth 0 and stencil 5 behind.
    device.set_render_target(Some(&rt)).unwrap();
    device
        .clear_with(
            xnagraph::ClearOptions::DEPTH_BUFFER | xnagraph::ClearOptions::STENCIL,
            [0.0; 4],
            0.0,
            5,
        )
        .unwrap();
    device.set_render_target(None).unwrap();
    // Second cycle: the bind itself must have cleared depth to 1 and stencil to 0, so a sprite
    // at depth 0.5 passes LessEqual, and one tested for stencil == 0 passes too.
    device.set_render_target(Some(&rt)).unwrap();
    let depth_tested = xnagraph::DepthStencilState::DEFAULT;
    let stencil_zero = xnagraph::DepthStencilState {
        stencil_enable: true,
        stencil_function: xnagraph::CompareFunction::Equal,
        reference_stencil: 0,
        ..xnagraph::DepthStencilState::NONE
    };
    for (rect, color, state) in [
        (Rectangle::new(0, 0, 4, 8), Color::RED, depth_tested),
        (Rectangle::new(4, 0, 4, 8), Color::BLUE, stencil_zero),
    ] {
        let mut sb = SpriteBatch::new(&device).unwrap();
        sb.begin_with(xnagraph::SpriteSortMode::Deferred, None, None, Some(state), None, None)
            .unwrap();
        sb.draw_rect_ex(
            &white,
            rect,
            None,
            color,
            0.0,
            Vector2::ZERO,
            xnagraph::SpriteEffects::NONE,
            0.5,
        )
        .unwrap();
        sb.end().unwrap();
    }
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    assert_eq!(at(&px, 8, 1, 4), Color::RED, "depth was reset to 1");
    assert_eq!(at(&px, 8, 6, 4), Color::BLUE, "stencil was reset to 0");
}

/// Ends the frame in the middle of the current bind cycle: an explicit flush, or a GetData of
/// another texture (which flushes to read it).
fn flush_mid_cycle(device: &xnagraph::GraphicsDevice, how: usize, other: &xnagraph::Texture2D) {
    if how == 0 {
        device.flush().unwrap();
    } else {
        let mut px = [Color::TRANSPARENT; 1];
        other.get_data_region(0, Some(Rectangle::new(0, 0, 1, 1)), &mut px, 0, 1).unwrap();
    }
}

#[test]
fn multisampled_discard_target_keeps_its_bind_clear_across_a_flush_in_the_cycle() {
    let _v = Validation::new();
    for how in 0..2 {
        let device = device(8, 8);
        let white = white(&device);
        let rt = target(
            &device,
            8,
            8,
            DepthFormat::Depth24Stencil8,
            4,
            RenderTargetUsage::DiscardContents,
        );
        device.set_render_target(Some(&rt)).unwrap();
        flush_mid_cycle(&device, how, &white);
        let mut sb = SpriteBatch::new(&device).unwrap();
        sb.begin().unwrap();
        sb.draw_rect(&white, Rectangle::new(5, 1, 2, 3), Color::RED).unwrap();
        sb.end().unwrap();
        device.set_render_target(None).unwrap();
        let px = read_target(&rt);
        assert_eq!(at(&px, 8, 1, 6), Color::BLACK, "flush {how}: the undrawn area keeps the clear");
        assert_eq!(at(&px, 8, 6, 2), Color::RED, "flush {how}: the draw after the flush");
    }
}

#[test]
fn discard_target_depth_cleared_by_its_bind_survives_a_flush_in_the_cycle() {
    let _v = Validation::new();
    for how in 0..2 {
        let device = device(8, 8);
        let white = white(&device);
        let rt = target(
            &device,
            8,
            8,
            DepthFormat::Depth24Stencil8,
            0,
            RenderTargetUsage::DiscardContents,
        );
        device.set_render_target(Some(&rt)).unwrap();
        flush_mid_cycle(&device, how, &white);
        // Depth-tested at 0.5 against the bind's depth of 1: it must pass.
        let mut sb = SpriteBatch::new(&device).unwrap();
        let depth_tested = xnagraph::DepthStencilState::DEFAULT;
        sb.begin_with(
            xnagraph::SpriteSortMode::Deferred,
            None,
            None,
            Some(depth_tested),
            None,
            None,
        )
        .unwrap();
        sb.draw_rect_ex(
            &white,
            Rectangle::new(1, 2, 3, 5),
            None,
            Color::GREEN,
            0.0,
            Vector2::ZERO,
            xnagraph::SpriteEffects::NONE,
            0.5,
        )
        .unwrap();
        sb.end().unwrap();
        device.set_render_target(None).unwrap();
        let px = read_target(&rt);
        assert_eq!(at(&px, 8, 2, 4), Color::GREEN, "flush {how}: depth was 1 after the flush");
        assert_eq!(at(&px, 8, 6, 1), Color::BLACK, "flush {how}: the undrawn area");
    }
}

#[test]
fn array_slice_is_validated_before_the_same_set_shortcut() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = RenderTarget2D::new(&device, 8, 8).unwrap();
    let minus_one = RenderTargetBinding { render_target: Some((&rt).into()), array_slice: -1 };
    let fresh = device.set_render_targets(&[minus_one]).unwrap_err();
    assert!(matches!(fresh, XnaError::NotSupported { .. }), "{fresh}");
    device.set_render_target(Some(&rt)).unwrap();
    device.set_viewport(Viewport::new(1, 1, 4, 4)).unwrap();
    let rebind = device.set_render_targets(&[minus_one]).unwrap_err();
    assert_eq!(rebind, fresh, "the same answer whether or not the target is already bound");
    assert_eq!(device.viewport(), Viewport::new(1, 1, 4, 4), "a refused bind changes nothing");
    assert_eq!(device.render_target_bindings(), [(rt.resource_id(), 0)]);
    device.set_render_target(None).unwrap();
}
