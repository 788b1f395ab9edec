//! Render-target data transfer: GetData reads what was rendered (resolved, for a multisampled
//! target), a partial SetData keeps the texels it does not cover — also once the target is bound
//! and drawn into again — or is refused where a multisampled target's next bind would lose it,
//! and no transfer or sampling of a bound target (any slot, through any alias) is allowed.

mod common;

use common::*;
use xnagraph::{
    Color, DepthFormat, GraphicsDevice, Rectangle, RenderTarget2D, RenderTargetUsage, SpriteBatch,
    SpriteSortMode, SurfaceFormat, Texture2D, Vector2, XnaError,
};

const NOT_RESOLVED: &str = "The render target must be resolved before its data can be transferred.";

fn refused() -> XnaError {
    XnaError::InvalidOperation { message: NOT_RESOLVED.into() }
}

fn target(device: &GraphicsDevice, samples: i32, usage: RenderTargetUsage) -> RenderTarget2D {
    RenderTarget2D::with_options(
        device,
        8,
        8,
        false,
        SurfaceFormat::Color,
        DepthFormat::None,
        samples,
        usage,
    )
    .unwrap()
}

fn square(device: &GraphicsDevice, white: &Texture2D, rect: Rectangle, color: Color) {
    let mut sb = SpriteBatch::new(device).unwrap();
    sb.begin().unwrap();
    sb.draw_rect(white, rect, color).unwrap();
    sb.end().unwrap();
}

#[test]
fn get_data_reads_what_was_drawn_whole_and_by_region() {
    let _v = Validation::new();
    for samples in [0, 4] {
        let device = device(8, 8);
        let white = white(&device);
        let rt = target(&device, samples, RenderTargetUsage::DiscardContents);
        let name = "get_data_reads_what_was_drawn_whole_and_by_region";
        if !multisampled_as_requested(name, rt.multi_sample_count(), samples) {
            continue;
        }
        device.set_render_target(Some(&rt)).unwrap();
        device.clear(Color::new(5, 10, 15, 255)).unwrap();
        square(&device, &white, Rectangle::new(5, 1, 2, 3), Color::new(250, 40, 0, 255));
        square(&device, &white, Rectangle::new(1, 5, 3, 2), Color::new(0, 90, 230, 255));
        device.set_render_target(None).unwrap();
        let px = read_target(&rt);
        for y in 0..8 {
            for x in 0..8 {
                let want = if (5..7).contains(&x) && (1..4).contains(&y) {
                    Color::new(250, 40, 0, 255)
                } else if (1..4).contains(&x) && (5..7).contains(&y) {
                    Color::new(0, 90, 230, 255)
                } else {
                    Color::new(5, 10, 15, 255)
                };
                assert_eq!(at(&px, 8, x, y), want, "{samples} samples, texel ({x},{y})");
            }
        }
        // An off-centre region straddling the first square's corner, into an offset slot.
        let mut region = [Color::TRANSPARENT; 5];
        rt.get_data_region(0, Some(Rectangle::new(4, 3, 2, 2)), &mut region, 1, 4).unwrap();
        let (c, r) = (Color::new(5, 10, 15, 255), Color::new(250, 40, 0, 255));
        assert_eq!(region, [Color::TRANSPARENT, c, r, c, c], "{samples} samples");
    }
}

#[test]
fn a_partial_set_data_on_a_target_survives_the_next_bind_cycle() {
    let _v = Validation::new();
    for usage in [RenderTargetUsage::PreserveContents, RenderTargetUsage::PlatformContents] {
        let device = device(8, 8);
        let white = white(&device);
        let rt = target(&device, 0, usage);
        device.set_render_target(Some(&rt)).unwrap();
        device.clear(Color::RED).unwrap();
        device.set_render_target(None).unwrap();
        rt.set_data_region(0, Some(Rectangle::new(5, 1, 2, 2)), &[Color::BLUE; 4], 0, 4).unwrap();
        // Bound again: the preserved content includes what SetData wrote.
        device.set_render_target(Some(&rt)).unwrap();
        square(&device, &white, Rectangle::new(1, 5, 2, 2), Color::LIME);
        device.set_render_target(None).unwrap();
        let px = read_target(&rt);
        assert_eq!(at(&px, 8, 5, 1), Color::BLUE, "{usage:?}: the uploaded texels");
        assert_eq!(at(&px, 8, 6, 2), Color::BLUE, "{usage:?}: the uploaded texels");
        assert_eq!(at(&px, 8, 4, 1), Color::RED, "{usage:?}: beside the upload");
        assert_eq!(at(&px, 8, 1, 5), Color::LIME, "{usage:?}: the later draw");
        assert_eq!(at(&px, 8, 6, 6), Color::RED, "{usage:?}: the first clear");
    }
}

#[test]
fn set_data_on_a_multisampled_target_is_refused_only_where_its_next_bind_would_lose_it() {
    let _v = Validation::new();
    let name =
        "set_data_on_a_multisampled_target_is_refused_only_where_its_next_bind_would_lose_it";
    for usage in [
        RenderTargetUsage::DiscardContents,
        RenderTargetUsage::PreserveContents,
        RenderTargetUsage::PlatformContents,
    ] {
        let device = device(8, 8);
        let rt = target(&device, 4, usage);
        if !multisampled_as_requested(name, rt.multi_sample_count(), 4) {
            return;
        }
        let copy: Texture2D = (*rt).clone();
        device.set_render_target(Some(&rt)).unwrap();
        device.clear(Color::RED).unwrap();
        device.set_render_target(None).unwrap();
        let rect = Some(Rectangle::new(5, 1, 2, 2));
        if usage == RenderTargetUsage::DiscardContents {
            // Its next bind starts from black anyway: until then the data is the target's.
            rt.set_data_region(0, rect, &[Color::BLUE; 4], 0, 4).unwrap();
            let px = read_target(&rt);
            assert_eq!(at(&px, 8, 6, 2), Color::BLUE, "{usage:?}: the uploaded texels");
            assert_eq!(at(&px, 8, 2, 6), Color::RED, "{usage:?}: the rest");
            continue;
        }
        for (alias, t) in [("target", &*rt), ("copy", &copy)] {
            let err = t.set_data_region(0, rect, &[Color::BLUE; 4], 0, 4).unwrap_err();
            assert!(matches!(err, XnaError::NotSupported { .. }), "{usage:?} {alias}: {err}");
            let err = t.set_data(&[Color::BLUE; 64]).unwrap_err();
            assert!(matches!(err, XnaError::NotSupported { .. }), "{usage:?} {alias}: {err}");
        }
        assert!(read_target(&rt).iter().all(|&p| p == Color::RED), "{usage:?}: unchanged");
    }
}

#[test]
fn every_transfer_of_a_bound_target_is_refused_with_xnas_message() {
    let _v = Validation::new();
    let device = device(8, 8);
    let a = RenderTarget2D::new(&device, 4, 4).unwrap();
    let b = RenderTarget2D::new(&device, 4, 4).unwrap();
    // b is bound in the second slot: it is as bound as the first.
    device.set_render_targets(&[(&a).into(), (&b).into()]).unwrap();
    device.clear(Color::RED).unwrap();
    let one = Some(Rectangle::new(1, 2, 1, 1));
    for (name, rt) in [("first slot", &a), ("second slot", &b)] {
        let view: &Texture2D = rt;
        let copy: Texture2D = view.clone();
        for (alias, t) in [("target", view), ("copy", &copy)] {
            let mut out = [Color::TRANSPARENT; 16];
            assert_eq!(t.get_data(&mut out), Err(refused()), "{name} {alias} get_data");
            let mut px = [Color::TRANSPARENT; 1];
            let err = t.get_data_region(0, one, &mut px, 0, 1);
            assert_eq!(err, Err(refused()), "{name} {alias} get_data_region");
            assert_eq!(t.set_data(&out), Err(refused()), "{name} {alias} set_data");
            let err = t.set_data_region(0, one, &[Color::BLUE], 0, 1);
            assert_eq!(err, Err(refused()), "{name} {alias} set_data_region");
            let mut sb = SpriteBatch::new(&device).unwrap();
            sb.begin().unwrap();
            sb.draw(t, Vector2::ZERO, Color::WHITE).unwrap();
            assert_eq!(sb.end(), Err(refused()), "{name} {alias} sampled");
            let mut sb = SpriteBatch::new(&device).unwrap();
            sb.begin_with(SpriteSortMode::Immediate, None, None, None, None, None).unwrap();
            let err = sb.draw(t, Vector2::ZERO, Color::WHITE);
            assert_eq!(err, Err(refused()), "{name} {alias} sampled immediately");
            sb.end().unwrap();
        }
    }
    device.set_render_target(None).unwrap();
    // Nothing refused reached the targets: both hold the clear.
    for rt in [&a, &b] {
        assert!(read_target(rt).iter().all(|&p| p == Color::RED));
    }
}

#[test]
fn target_data_transfer_is_refused_while_bound() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = RenderTarget2D::new(&device, 4, 4).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::RED).unwrap();
    let mut out = vec![Color::TRANSPARENT; 16];
    assert!(matches!(rt.get_data(&mut out), Err(XnaError::InvalidOperation { .. })));
    assert!(matches!(rt.set_data(&out), Err(XnaError::InvalidOperation { .. })));
    device.set_render_target(None).unwrap();
    // Unbound: a partial SetData updates the target in place and keeps the other texels.
    rt.set_data_region(0, Some(Rectangle::new(2, 1, 2, 2)), &[Color::BLUE; 4], 0, 4).unwrap();
    rt.get_data(&mut out).unwrap();
    assert_eq!(at(&out, 4, 0, 0), Color::RED);
    assert_eq!(at(&out, 4, 2, 1), Color::BLUE);
    assert_eq!(at(&out, 4, 3, 2), Color::BLUE);
    assert_eq!(at(&out, 4, 1, 2), Color::RED);
}

#[test]
fn sampling_a_bound_target_through_a_copy_or_view_is_refused() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = RenderTarget2D::new(&device, 4, 4).unwrap();
    let copy: Texture2D = (*rt).clone();
    let view: &Texture2D = &rt;
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::RED).unwrap();
    for (alias, texture) in [("copy", &copy), ("view", view)] {
        let mut sb = SpriteBatch::new(&device).unwrap();
        sb.begin().unwrap();
        sb.draw(texture, Vector2::ZERO, Color::WHITE).unwrap();
        let err = sb.end().unwrap_err();
        assert_eq!(err, XnaError::InvalidOperation { message: NOT_RESOLVED.into() }, "{alias}");
        let mut sb = SpriteBatch::new(&device).unwrap();
        sb.begin_with(xnagraph::SpriteSortMode::Immediate, None, None, None, None, None).unwrap();
        let err = sb.draw(texture, Vector2::ZERO, Color::WHITE).unwrap_err();
        assert_eq!(err, XnaError::InvalidOperation { message: NOT_RESOLVED.into() }, "{alias}");
        sb.end().unwrap();
    }
    device.set_render_target(None).unwrap();
    // Unbound, the copy samples the target's pixels.
    device.clear(Color::BLACK).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin().unwrap();
    sb.draw(&copy, Vector2::new(3.0, 2.0), Color::WHITE).unwrap();
    sb.end().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 8, 3, 2), Color::RED);
    assert_eq!(at(&px, 8, 6, 5), Color::RED);
    assert_eq!(at(&px, 8, 2, 2), Color::BLACK);
    assert_eq!(at(&px, 8, 7, 6), Color::BLACK);
}

#[test]
fn data_transfer_through_a_copy_of_a_bound_target_is_refused() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = RenderTarget2D::new(&device, 4, 4).unwrap();
    let copy: Texture2D = (*rt).clone();
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::RED).unwrap();
    let refused = XnaError::InvalidOperation { message: NOT_RESOLVED.into() };
    let mut out = vec![Color::TRANSPARENT; 16];
    assert_eq!(copy.get_data(&mut out).unwrap_err(), refused);
    assert_eq!(copy.set_data(&out).unwrap_err(), refused);
    let one = [Color::BLUE];
    let rect = Some(Rectangle::new(1, 1, 1, 1));
    assert_eq!(copy.set_data_region(0, rect, &one, 0, 1).unwrap_err(), refused);
    device.set_render_target(None).unwrap();
    // Unbound, both paths go to the target itself: the GPU is the authority for its pixels.
    copy.set_data_region(0, Some(Rectangle::new(2, 1, 2, 2)), &[Color::BLUE; 4], 0, 4).unwrap();
    rt.get_data(&mut out).unwrap();
    assert_eq!(at(&out, 4, 0, 0), Color::RED);
    assert_eq!(at(&out, 4, 2, 1), Color::BLUE);
    assert_eq!(at(&out, 4, 3, 2), Color::BLUE);
    assert_eq!(at(&out, 4, 1, 2), Color::RED);
    copy.set_data(&[Color::GREEN; 16]).unwrap();
    assert!(copy.shares_backing_with(&rt), "a whole-level SetData updates the target in place");
    rt.get_data(&mut out).unwrap();
    assert_eq!(out, vec![Color::GREEN; 16]);
}

#[test]
fn a_partial_set_data_on_a_copy_of_a_target_updates_the_target() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = RenderTarget2D::new(&device, 4, 4).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::RED).unwrap();
    device.set_render_target(None).unwrap();
    // Context recovery is on, and the copy has no CPU shadow either: a target never has one.
    let copy: Texture2D = (*rt).clone();
    copy.set_data_region(0, Some(Rectangle::new(3, 0, 1, 2)), &[Color::BLUE; 2], 0, 2).unwrap();
    let mut out = vec![Color::TRANSPARENT; 16];
    rt.get_data(&mut out).unwrap();
    assert_eq!(at(&out, 4, 3, 0), Color::BLUE);
    assert_eq!(at(&out, 4, 3, 1), Color::BLUE);
    assert_eq!(at(&out, 4, 3, 2), Color::RED);
    assert_eq!(at(&out, 4, 2, 0), Color::RED);
}
