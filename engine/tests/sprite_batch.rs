//! SpriteBatch: sort modes, blend states, samplers and sprite geometry, read back as pixels.

mod common;
#[path = "sprite_batch/input.rs"]
mod input;

use common::*;
use xnagraph::{
    BlendState, Color, GraphicsDevice, Rectangle, SamplerState, SpriteBatch, SpriteEffects,
    SpriteSortMode, Texture2D, Vector2, XnaError,
};

fn batch(device: &GraphicsDevice) -> SpriteBatch {
    SpriteBatch::new(device).unwrap()
}

fn texture(device: &GraphicsDevice, w: i32, h: i32, pixels: &[Color]) -> Texture2D {
    let t = Texture2D::new(device, w, h).unwrap();
    t.set_data(pixels).unwrap();
    t
}

/// Draws a red sprite then a green one over (4..12, 4..12), returns the overlap's colour.
fn overlap_winner(
    sort: SpriteSortMode,
    red_depth: f32,
    green_depth: f32,
    with_third: bool,
) -> Color {
    let device = device(16, 16);
    let a = white(&device);
    let b = white(&device);
    let t2 = &b;
    device.clear(Color::BLACK).unwrap();
    let mut sb = batch(&device);
    sb.begin_with(sort, Some(BlendState::OPAQUE), None, None, None, None).unwrap();
    let rect = |x| Rectangle::new(x, 4, 8, 8);
    sb.draw_rect_ex(
        &a,
        rect(0),
        None,
        Color::RED,
        0.0,
        Vector2::ZERO,
        SpriteEffects::NONE,
        red_depth,
    )
    .unwrap();
    sb.draw_rect_ex(
        t2,
        rect(4),
        None,
        Color::LIME,
        0.0,
        Vector2::ZERO,
        SpriteEffects::NONE,
        green_depth,
    )
    .unwrap();
    if with_third {
        // A third sprite with the first texture, drawn last, over the same overlap.
        sb.draw_rect_ex(
            &a,
            rect(6),
            None,
            Color::BLUE,
            0.0,
            Vector2::ZERO,
            SpriteEffects::NONE,
            0.0,
        )
        .unwrap();
    }
    sb.end().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 16, 1, 6), Color::RED, "red's own area");
    at(&px, 16, 7, 6)
}

#[test]
fn deferred_draws_in_call_order() {
    let _v = Validation::new();
    assert_eq!(overlap_winner(SpriteSortMode::Deferred, 0.2, 0.8, false), Color::LIME);
    assert_eq!(overlap_winner(SpriteSortMode::Deferred, 0.8, 0.2, false), Color::LIME);
}

#[test]
fn back_to_front_draws_the_highest_depth_first() {
    let _v = Validation::new();
    assert_eq!(overlap_winner(SpriteSortMode::BackToFront, 0.2, 0.8, false), Color::RED);
    assert_eq!(overlap_winner(SpriteSortMode::BackToFront, 0.8, 0.2, false), Color::LIME);
}

#[test]
fn front_to_back_draws_the_lowest_depth_first() {
    let _v = Validation::new();
    assert_eq!(overlap_winner(SpriteSortMode::FrontToBack, 0.8, 0.2, false), Color::RED);
    assert_eq!(overlap_winner(SpriteSortMode::FrontToBack, 0.2, 0.8, false), Color::LIME);
}

#[test]
fn texture_mode_groups_sprites_by_texture() {
    let _v = Validation::new();
    // Call order red(A), green(B), blue(A): grouped, A's sprites go first and B's green ends on
    // top of blue; in call order blue would win.
    assert_eq!(overlap_winner(SpriteSortMode::Texture, 0.0, 0.0, true), Color::LIME);
    assert_eq!(overlap_winner(SpriteSortMode::Deferred, 0.0, 0.0, true), Color::BLUE);
}

#[test]
fn immediate_records_each_draw_when_called() {
    let _v = Validation::new();
    for (sort, left_expected) in
        [(SpriteSortMode::Immediate, Color::RED), (SpriteSortMode::Deferred, Color::BLUE)]
    {
        let device = device(8, 8);
        let t = solid(&device, 1, 1, Color::RED);
        device.clear(Color::BLACK).unwrap();
        let mut sb = batch(&device);
        sb.begin_with(sort, None, None, None, None, None).unwrap();
        sb.draw_rect(&t, Rectangle::new(0, 0, 4, 8), Color::WHITE).unwrap();
        // Recorded between the two draws: Immediate already recorded the first one.
        t.set_data(&[Color::BLUE]).unwrap();
        sb.draw_rect(&t, Rectangle::new(4, 0, 4, 8), Color::WHITE).unwrap();
        sb.end().unwrap();
        let px = read_back_buffer(&device);
        assert_eq!(at(&px, 8, 1, 1), left_expected, "{sort:?}");
        assert_eq!(at(&px, 8, 6, 1), Color::BLUE, "{sort:?}");
    }
}

fn blended(blend: BlendState) -> Color {
    let device = device(4, 4);
    let w = white(&device);
    device.clear(Color::RED).unwrap();
    let mut sb = batch(&device);
    sb.begin_with(SpriteSortMode::Deferred, Some(blend), None, None, None, None).unwrap();
    sb.draw_rect(&w, Rectangle::new(0, 0, 4, 4), Color::new(0, 0, 255, 128)).unwrap();
    sb.end().unwrap();
    read_back_buffer(&device)[5]
}

#[test]
fn opaque_replaces_the_destination() {
    let _v = Validation::new();
    assert_near(blended(BlendState::OPAQUE), Color::new(0, 0, 255, 128), 1);
}

#[test]
fn alpha_blend_is_premultiplied_over() {
    let _v = Validation::new();
    // src + dst × (1 − srcα): (0,0,255,128) over red.
    assert_near(blended(BlendState::ALPHA_BLEND), Color::new(127, 0, 255, 255), 2);
}

#[test]
fn additive_adds_alpha_scaled_source() {
    let _v = Validation::new();
    // src × srcα + dst.
    assert_near(blended(BlendState::ADDITIVE), Color::new(255, 0, 128, 255), 2);
}

#[test]
fn non_premultiplied_interpolates_by_source_alpha() {
    let _v = Validation::new();
    // src × srcα + dst × (1 − srcα); alpha 128×128/255 + 255×127/255.
    assert_near(blended(BlendState::NON_PREMULTIPLIED), Color::new(127, 0, 128, 191), 2);
}

fn sampled_row(sampler: SamplerState, source: Option<Rectangle>) -> Vec<Color> {
    let device = device(8, 1);
    let t = texture(&device, 2, 1, &[Color::BLACK, Color::WHITE]);
    let mut sb = batch(&device);
    sb.begin_with(
        SpriteSortMode::Deferred,
        Some(BlendState::OPAQUE),
        Some(sampler),
        None,
        None,
        None,
    )
    .unwrap();
    sb.draw_rect_source(&t, Rectangle::new(0, 0, 8, 1), source, Color::WHITE).unwrap();
    sb.end().unwrap();
    read_back_buffer(&device)
}

#[test]
fn point_sampling_keeps_hard_edges_and_linear_blends() {
    let _v = Validation::new();
    let point = sampled_row(SamplerState::POINT_CLAMP, None);
    assert_eq!(&point[..4], &[Color::BLACK; 4]);
    assert_eq!(&point[4..], &[Color::WHITE; 4]);
    let linear = sampled_row(SamplerState::LINEAR_CLAMP, None);
    assert_eq!(linear[0], Color::BLACK, "clamped at the edge");
    assert_eq!(linear[7], Color::WHITE);
    assert!(linear[3].r > 20 && linear[3].r < 235, "in between: {:?}", linear[3]);
    let aniso = sampled_row(SamplerState::ANISOTROPIC_CLAMP, None);
    assert_eq!(aniso[0], Color::BLACK);
    assert_eq!(aniso[7], Color::WHITE);
}

#[test]
fn wrap_repeats_and_clamp_extends_the_edge() {
    let _v = Validation::new();
    let twice = Some(Rectangle::new(0, 0, 4, 1));
    let wrap = sampled_row(SamplerState::POINT_WRAP, twice);
    assert_eq!(
        wrap,
        [
            Color::BLACK,
            Color::BLACK,
            Color::WHITE,
            Color::WHITE,
            Color::BLACK,
            Color::BLACK,
            Color::WHITE,
            Color::WHITE
        ]
    );
    let clamp = sampled_row(SamplerState::POINT_CLAMP, twice);
    assert_eq!(
        clamp,
        [
            Color::BLACK,
            Color::BLACK,
            Color::WHITE,
            Color::WHITE,
            Color::WHITE,
            Color::WHITE,
            Color::WHITE,
            Color::WHITE
        ]
    );
    let linear_wrap = sampled_row(SamplerState::LINEAR_WRAP, twice);
    assert!(linear_wrap[7].r < 235, "wrapping blends the last texel back towards black");
}

#[test]
fn tint_and_source_rectangle_select_and_colour_texels() {
    let _v = Validation::new();
    let device = device(8, 8);
    let quads = texture(&device, 2, 2, &[Color::RED, Color::LIME, Color::BLUE, Color::WHITE]);
    device.clear(Color::BLACK).unwrap();
    let mut sb = batch(&device);
    sb.begin_with(
        SpriteSortMode::Deferred,
        None,
        Some(SamplerState::POINT_CLAMP),
        None,
        None,
        None,
    )
    .unwrap();
    sb.draw_rect_source(
        &quads,
        Rectangle::new(1, 1, 3, 3),
        Some(Rectangle::new(1, 0, 1, 1)),
        Color::WHITE,
    )
    .unwrap();
    sb.draw_rect_source(
        &quads,
        Rectangle::new(5, 5, 2, 2),
        Some(Rectangle::new(1, 1, 1, 1)),
        Color::new(255, 128, 0, 255),
    )
    .unwrap();
    sb.end().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 8, 2, 2), Color::LIME);
    assert_eq!(at(&px, 8, 0, 0), Color::BLACK);
    assert_eq!(at(&px, 8, 5, 5), Color::new(255, 128, 0, 255));
    assert_eq!(at(&px, 8, 4, 4), Color::BLACK);
}

/// `Draw(texture, position, sourceRectangle, color)` draws the source texels at their size;
/// `Draw(..., float scale, ...)` scales both axes by the one factor.
#[test]
fn position_source_and_uniform_scale_overloads_place_the_texels() {
    let _v = Validation::new();
    let device = device(16, 16);
    let quads = texture(&device, 2, 2, &[Color::RED, Color::LIME, Color::BLUE, Color::WHITE]);
    device.clear(Color::BLACK).unwrap();
    let mut sb = batch(&device);
    let point = Some(SamplerState::POINT_CLAMP);
    sb.begin_with(SpriteSortMode::Deferred, None, point, None, None, None).unwrap();
    // The blue texel, one pixel at (2, 3).
    let blue = Some(Rectangle::new(0, 1, 1, 1));
    sb.draw_source(&quads, Vector2::new(2.0, 3.0), blue, Color::WHITE).unwrap();
    // The lime texel scaled 3x: (8..11, 9..12).
    let lime = Some(Rectangle::new(1, 0, 1, 1));
    let position = Vector2::new(8.0, 9.0);
    let none = SpriteEffects::NONE;
    sb.draw_ex_uniform(&quads, position, lime, Color::WHITE, 0.0, Vector2::ZERO, 3.0, none, 0.0)
        .unwrap();
    sb.end().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 16, 2, 3), Color::BLUE);
    assert_eq!((at(&px, 16, 3, 3), at(&px, 16, 2, 4)), (Color::BLACK, Color::BLACK));
    assert_eq!((at(&px, 16, 8, 9), at(&px, 16, 10, 11)), (Color::LIME, Color::LIME));
    assert_eq!((at(&px, 16, 11, 11), at(&px, 16, 10, 12)), (Color::BLACK, Color::BLACK));
}

#[test]
fn rotation_origin_and_scale_place_the_quad() {
    let _v = Validation::new();
    let device = device(16, 16);
    let w = white(&device);
    device.clear(Color::BLACK).unwrap();
    let mut sb = batch(&device);
    sb.begin_with(
        SpriteSortMode::Deferred,
        Some(BlendState::OPAQUE),
        None,
        None,
        Some(xnagraph::RasterizerState::CULL_NONE),
        None,
    )
    .unwrap();
    // 1×1 texel scaled to 4×2 at (8,8), rotated 90° clockwise about its top-left: covers
    // x ∈ [6,8), y ∈ [8,12).
    sb.draw_ex(
        &w,
        Vector2::new(8.0, 8.0),
        None,
        Color::RED,
        std::f32::consts::FRAC_PI_2,
        Vector2::ZERO,
        Vector2::new(4.0, 2.0),
        SpriteEffects::NONE,
        0.0,
    )
    .unwrap();
    // Scaled 4×4 about its centre origin (0.5, 0.5) at (3,3): covers [1, 5).
    sb.draw_ex(
        &w,
        Vector2::new(3.0, 3.0),
        None,
        Color::LIME,
        0.0,
        Vector2::new(0.5, 0.5),
        Vector2::new(4.0, 4.0),
        SpriteEffects::NONE,
        0.0,
    )
    .unwrap();
    sb.end().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 16, 6, 11), Color::RED);
    assert_eq!(at(&px, 16, 7, 8), Color::RED);
    assert_eq!(at(&px, 16, 8, 9), Color::BLACK);
    assert_eq!(at(&px, 16, 6, 12), Color::BLACK);
    assert_eq!(at(&px, 16, 1, 1), Color::LIME);
    assert_eq!(at(&px, 16, 4, 4), Color::LIME);
    assert_eq!(at(&px, 16, 0, 1), Color::BLACK);
    assert_eq!(at(&px, 16, 5, 3), Color::BLACK);
}

#[test]
fn sprite_effects_flip_the_texture() {
    let _v = Validation::new();
    let device = device(4, 4);
    let t = texture(&device, 2, 2, &[Color::RED, Color::LIME, Color::BLUE, Color::WHITE]);
    for (effects, want) in [
        (SpriteEffects::NONE, [Color::RED, Color::LIME, Color::BLUE, Color::WHITE]),
        (SpriteEffects::FLIP_HORIZONTALLY, [Color::LIME, Color::RED, Color::WHITE, Color::BLUE]),
        (SpriteEffects::FLIP_VERTICALLY, [Color::BLUE, Color::WHITE, Color::RED, Color::LIME]),
        (
            SpriteEffects::FLIP_HORIZONTALLY | SpriteEffects::FLIP_VERTICALLY,
            [Color::WHITE, Color::BLUE, Color::LIME, Color::RED],
        ),
    ] {
        let mut sb = batch(&device);
        sb.begin_with(
            SpriteSortMode::Deferred,
            None,
            Some(SamplerState::POINT_CLAMP),
            None,
            None,
            None,
        )
        .unwrap();
        sb.draw_rect_ex(
            &t,
            Rectangle::new(0, 0, 4, 4),
            None,
            Color::WHITE,
            0.0,
            Vector2::ZERO,
            effects,
            0.0,
        )
        .unwrap();
        sb.end().unwrap();
        let px = read_back_buffer(&device);
        let got = [at(&px, 4, 0, 0), at(&px, 4, 3, 0), at(&px, 4, 0, 3), at(&px, 4, 3, 3)];
        assert_eq!(got, want, "{effects:?}");
    }
}

#[test]
fn begin_end_misuse_is_invalid_operation() {
    let _v = Validation::new();
    let device = device(4, 4);
    let w = white(&device);
    let mut sb = batch(&device);
    assert!(matches!(
        sb.draw(&w, Vector2::ZERO, Color::WHITE),
        Err(XnaError::InvalidOperation { .. })
    ));
    assert!(matches!(sb.end(), Err(XnaError::InvalidOperation { .. })));
    sb.begin().unwrap();
    assert!(matches!(sb.begin(), Err(XnaError::InvalidOperation { .. })));
    sb.end().unwrap();
}

#[test]
fn transform_matrix_moves_sprites() {
    let _v = Validation::new();
    let device = device(8, 8);
    let w = white(&device);
    device.clear(Color::BLACK).unwrap();
    let mut sb = batch(&device);
    let m = xnagraph::Matrix::create_translation(4.0, 2.0, 0.0);
    sb.begin_with(SpriteSortMode::Deferred, None, None, None, None, Some(m)).unwrap();
    sb.draw_rect(&w, Rectangle::new(0, 0, 2, 2), Color::WHITE).unwrap();
    sb.end().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 8, 4, 2), Color::WHITE);
    assert_eq!(at(&px, 8, 0, 0), Color::BLACK);
}

#[test]
fn drawing_a_texture_of_another_device_is_invalid_operation() {
    let _v = Validation::new();
    let device = device(4, 4);
    let other = common::device(4, 4);
    let foreign = white(&other);
    let mut sb = batch(&device);
    sb.begin().unwrap();
    let err = sb.draw(&foreign, Vector2::ZERO, Color::WHITE).unwrap_err();
    assert!(matches!(err, XnaError::InvalidOperation { .. }), "{err}");
    sb.end().unwrap();
}

#[test]
fn blend_factor_scales_the_source() {
    let _v = Validation::new();
    let factor = xnagraph::BlendState {
        color_source_blend: xnagraph::Blend::BlendFactor,
        alpha_source_blend: xnagraph::Blend::BlendFactor,
        color_destination_blend: xnagraph::Blend::InverseBlendFactor,
        alpha_destination_blend: xnagraph::Blend::InverseBlendFactor,
        blend_factor: [64, 128, 255, 255],
        ..BlendState::OPAQUE
    };
    let device = device(4, 4);
    let w = white(&device);
    device.clear(Color::RED).unwrap();
    let mut sb = batch(&device);
    sb.begin_with(SpriteSortMode::Deferred, Some(factor), None, None, None, None).unwrap();
    sb.draw_rect(&w, Rectangle::new(0, 0, 4, 4), Color::WHITE).unwrap();
    sb.end().unwrap();
    // white × factor + red × (1 − factor).
    assert_near(read_back_buffer(&device)[5], Color::new(255, 128, 255, 255), 1);
}

#[test]
fn immediate_draws_after_binding_a_target_drawn_earlier_are_accepted() {
    let _v = Validation::new();
    let params = xnagraph::PresentationParameters {
        render_target_usage: xnagraph::RenderTargetUsage::PreserveContents,
        ..params(16, 16)
    };
    let device = device_with(xnagraph::GraphicsProfile::HiDef, params);
    let rt = xnagraph::RenderTarget2D::new(&device, 16, 16).unwrap();
    let w = white(&device);
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::RED).unwrap();
    device.set_render_target(None).unwrap();
    device.clear(Color::BLACK).unwrap();
    let mut sb = batch(&device);
    sb.begin_with(SpriteSortMode::Immediate, None, None, None, None, None).unwrap();
    sb.draw_rect(&rt, Rectangle::new(2, 2, 8, 8), Color::WHITE).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    // The target drawn before it was bound no longer blocks other textures.
    sb.draw_rect(&w, Rectangle::new(5, 3, 4, 2), Color::BLUE).unwrap();
    // The bound target itself is still refused, and the batch goes on after the refusal.
    let err = sb.draw_rect(&rt, Rectangle::new(0, 0, 2, 2), Color::WHITE).unwrap_err();
    assert!(matches!(err, XnaError::InvalidOperation { .. }), "{err}");
    sb.draw_rect(&w, Rectangle::new(11, 12, 3, 2), Color::LIME).unwrap();
    sb.end().unwrap();
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    assert_eq!(at(&px, 16, 5, 3), Color::BLUE);
    assert_eq!(at(&px, 16, 8, 4), Color::BLUE);
    assert_eq!(at(&px, 16, 13, 13), Color::LIME);
    assert_eq!(at(&px, 16, 4, 3), Color::BLACK, "the discarding bind cleared the target");
    assert_eq!(at(&px, 16, 1, 1), Color::BLACK, "the refused draw drew nothing");
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 16, 2, 2), Color::RED);
    assert_eq!(at(&px, 16, 9, 9), Color::RED);
    assert_eq!(at(&px, 16, 1, 2), Color::BLACK);
    assert_eq!(at(&px, 16, 10, 9), Color::BLACK);
}

/// Draws a green sprite, moves the viewport to (16, 8, 16, 16), then draws a red one at the
/// viewport's origin, all in one batch of `sort` on a 32×32 back buffer.
fn draw_across_a_viewport_change(sort: SpriteSortMode) -> Vec<Color> {
    let device = device(32, 32);
    let w = white(&device);
    device.clear(Color::BLACK).unwrap();
    let mut sb = batch(&device);
    sb.begin_with(sort, Some(BlendState::OPAQUE), None, None, None, None).unwrap();
    sb.draw_rect(&w, Rectangle::new(2, 10, 4, 4), Color::LIME).unwrap();
    device.set_viewport(xnagraph::Viewport::new(16, 8, 16, 16)).unwrap();
    sb.draw_rect(&w, Rectangle::new(0, 0, 8, 4), Color::RED).unwrap();
    sb.end().unwrap();
    read_back_buffer(&device)
}

#[test]
fn immediate_keeps_the_projection_of_the_viewport_at_begin() {
    let _v = Validation::new();
    // Immediate: the projection maps the 32×32 viewport of Begin; the second sprite is drawn
    // into the new 16×16 viewport, so it lands at (16, 8) at half size: 4×2 pixels.
    let px = draw_across_a_viewport_change(SpriteSortMode::Immediate);
    assert_eq!(at(&px, 32, 2, 10), Color::LIME);
    assert_eq!(at(&px, 32, 5, 13), Color::LIME);
    assert_eq!(at(&px, 32, 6, 13), Color::BLACK);
    assert_eq!(at(&px, 32, 16, 8), Color::RED);
    assert_eq!(at(&px, 32, 19, 9), Color::RED);
    assert_eq!(at(&px, 32, 20, 9), Color::BLACK, "half the width");
    assert_eq!(at(&px, 32, 19, 10), Color::BLACK, "half the height");
    assert_eq!(at(&px, 32, 15, 8), Color::BLACK);
    // Deferred: everything is drawn at End, with End's viewport and its projection: both
    // sprites are placed in the 16×16 viewport at full size.
    let px = draw_across_a_viewport_change(SpriteSortMode::Deferred);
    assert_eq!(at(&px, 32, 16, 8), Color::RED);
    assert_eq!(at(&px, 32, 23, 11), Color::RED);
    assert_eq!(at(&px, 32, 24, 11), Color::BLACK);
    assert_eq!(at(&px, 32, 18, 18), Color::LIME);
    assert_eq!(at(&px, 32, 21, 21), Color::LIME);
    assert_eq!(at(&px, 32, 2, 10), Color::BLACK);
}

/// A Deferred sprite draws what its texture holds at `End`, as XNA draws at `End`: a whole-level
/// `SetData` between `Draw` and `End` shows, also when a copy of the texture shares its storage
/// (the write gives the texture fresh storage, and the copy keeps the old). Found by the sequence
/// fuzzer (`xnagraph-fuzz-sequence`, where a stock effect's texture is such a copy); before, the
/// sprite drew the storage it was queued with.
#[test]
fn a_deferred_sprite_draws_its_texture_as_it_is_at_end() {
    let _v = Validation::new();
    let device = device(8, 8);
    let red = Color::new(200, 30, 20, 255);
    let blue = Color::new(20, 40, 210, 255);
    let t = texture(&device, 2, 2, &[blue; 4]);
    let copy = t.clone();
    let mut sb = batch(&device);
    sb.begin_with(SpriteSortMode::Deferred, Some(BlendState::OPAQUE), None, None, None, None)
        .unwrap();
    sb.draw(&t, Vector2::new(5.0, 1.0), Color::WHITE).unwrap();
    t.set_data(&[red; 4]).unwrap();
    sb.draw(&copy, Vector2::new(1.0, 5.0), Color::WHITE).unwrap();
    sb.end().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 8, 5, 1), red, "the texture, written after its sprite was queued");
    assert_eq!(at(&px, 8, 1, 5), blue, "the copy keeps the old content");
    assert_eq!(at(&px, 8, 1, 1), Color::BLACK, "away from both sprites");
}
