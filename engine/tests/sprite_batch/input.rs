//! SpriteBatch's refusals of geometry and batch states that are not finite, and sources of
//! zero size.

use super::*;

#[test]
fn non_finite_sprite_geometry_is_an_argument_error() {
    let _v = Validation::new();
    let device = device(8, 8);
    let w = white(&device);
    device.clear(Color::BLACK).unwrap();
    let mut sb = batch(&device);
    sb.begin().unwrap();
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let v = Vector2::new;
    let none = SpriteEffects::NONE;
    let cases: [(&str, Result<(), XnaError>); 9] = [
        (
            "position",
            sb.draw_ex(&w, v(nan, 0.0), None, Color::RED, 0.0, v(0.0, 0.0), v(1.0, 1.0), none, 0.0),
        ),
        (
            "rotation",
            sb.draw_ex(&w, v(0.0, 0.0), None, Color::RED, inf, v(0.0, 0.0), v(1.0, 1.0), none, 0.0),
        ),
        (
            "origin",
            sb.draw_ex(
                &w,
                v(0.0, 0.0),
                None,
                Color::RED,
                0.0,
                v(0.0, -inf),
                v(1.0, 1.0),
                none,
                0.0,
            ),
        ),
        (
            "scale",
            sb.draw_ex(&w, v(0.0, 0.0), None, Color::RED, 0.0, v(0.0, 0.0), v(nan, 1.0), none, 0.0),
        ),
        (
            "layerDepth",
            sb.draw_ex(&w, v(0.0, 0.0), None, Color::RED, 0.0, v(0.0, 0.0), v(1.0, 1.0), none, nan),
        ),
        // Finite arguments whose product overflows.
        (
            "position",
            sb.draw_ex(
                &w,
                v(f32::MAX, 0.0),
                None,
                Color::RED,
                0.0,
                v(0.0, 0.0),
                v(1.0, 1.0),
                none,
                0.0,
            ),
        ),
        (
            "scale",
            sb.draw_ex(
                &w,
                v(0.0, 0.0),
                None,
                Color::RED,
                0.0,
                v(0.0, 0.0),
                v(f32::MAX, 1.0),
                none,
                0.0,
            ),
        ),
        (
            "rotation",
            sb.draw_rect_ex(
                &w,
                Rectangle::new(0, 0, 2, 2),
                None,
                Color::RED,
                nan,
                v(0.0, 0.0),
                none,
                0.0,
            ),
        ),
        (
            "origin",
            sb.draw_rect_ex(
                &w,
                Rectangle::new(0, 0, 2, 2),
                None,
                Color::RED,
                0.0,
                v(f32::MAX, 0.0),
                none,
                0.0,
            ),
        ),
    ];
    for (param, result) in cases {
        let err = result.unwrap_err();
        assert!(
            matches!(&err, XnaError::Argument { param: p, .. } if *p == param),
            "{param}: {err}"
        );
    }
    // The refused sprites left nothing behind; the batch goes on.
    sb.draw_rect(&w, Rectangle::new(5, 1, 2, 3), Color::LIME).unwrap();
    sb.end().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 8, 5, 1), Color::LIME);
    assert_eq!(at(&px, 8, 6, 3), Color::LIME);
    assert!(px.iter().all(|&p| p == Color::BLACK || p == Color::LIME), "no refused sprite drew");
}

#[test]
fn non_finite_batch_state_is_an_argument_error() {
    let _v = Validation::new();
    let device = device(8, 8);
    let mut sb = batch(&device);
    for bias in [f32::NAN, f32::INFINITY] {
        for raster in [
            xnagraph::RasterizerState {
                depth_bias_bits: bias.to_bits(),
                ..xnagraph::RasterizerState::CULL_NONE
            },
            xnagraph::RasterizerState {
                slope_scale_depth_bias_bits: bias.to_bits(),
                ..xnagraph::RasterizerState::CULL_NONE
            },
        ] {
            let err = sb
                .begin_with(SpriteSortMode::Deferred, None, None, None, Some(raster), None)
                .unwrap_err();
            assert!(matches!(err, XnaError::Argument { param: "rasterizerState", .. }), "{err}");
        }
    }
    let mut m = xnagraph::Matrix::IDENTITY;
    m.m[3][1] = f32::NAN;
    let err = sb.begin_with(SpriteSortMode::Deferred, None, None, None, None, Some(m)).unwrap_err();
    assert!(matches!(err, XnaError::Argument { param: "transformMatrix", .. }), "{err}");
    // A refused Begin leaves the batch closed.
    sb.begin().unwrap();
    sb.end().unwrap();
}

#[test]
fn a_zero_width_source_scales_the_origin_by_the_texture_size() {
    let _v = Validation::new();
    let device = device(8, 8);
    let w = solid(&device, 2, 2, Color::WHITE);
    device.clear(Color::BLACK).unwrap();
    let mut sb = batch(&device);
    sb.begin().unwrap();
    // A zero-width source: the origin's x is carried to pixels by the destination width over
    // the texture width (4 / 2), so the quad starts 2 pixels left of x = 3.
    sb.draw_rect_ex(
        &w,
        Rectangle::new(3, 2, 4, 3),
        Some(Rectangle::new(1, 0, 0, 2)),
        Color::BLUE,
        0.0,
        Vector2::new(1.0, 0.0),
        SpriteEffects::NONE,
        0.0,
    )
    .unwrap();
    sb.end().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 8, 1, 2), Color::BLUE);
    assert_eq!(at(&px, 8, 4, 4), Color::BLUE);
    assert_eq!(at(&px, 8, 0, 2), Color::BLACK);
    assert_eq!(at(&px, 8, 5, 2), Color::BLACK);
    assert_eq!(at(&px, 8, 1, 5), Color::BLACK);
}
