//! Multisample resolves and mip cascades as read back: coverage at 4x, samples kept across
//! bind cycles, generated levels of a mipmapped target, authored levels of a plain texture.

mod common;

use common::*;
use xnagraph::{
    Color, DepthFormat, GraphicsDevice, Rectangle, RenderTarget2D, RenderTargetUsage, SamplerState,
    SpriteBatch, SpriteEffects, SpriteSortMode, SurfaceFormat, Texture2D, Vector2,
};

fn target(
    device: &GraphicsDevice,
    size: i32,
    mip_map: bool,
    depth: DepthFormat,
    samples: i32,
    usage: RenderTargetUsage,
) -> RenderTarget2D {
    RenderTarget2D::with_options(
        device,
        size,
        size,
        mip_map,
        SurfaceFormat::Color,
        depth,
        samples,
        usage,
    )
    .expect("render target")
}

/// Draws `white` tinted `color` over the full-height band from `x0` to `x1` (fractional).
fn band(device: &GraphicsDevice, white: &Texture2D, x0: f32, x1: f32, height: f32, color: Color) {
    let mut sb = SpriteBatch::new(device).unwrap();
    sb.begin().unwrap();
    let (position, scale) = (Vector2::new(x0, 0.0), Vector2::new(x1 - x0, height));
    let origin = Vector2::new(0.0, 0.0);
    sb.draw_ex(white, position, None, color, 0.0, origin, scale, SpriteEffects::NONE, 0.0).unwrap();
    sb.end().unwrap();
}

/// Whether every channel of `got` lies strictly between `a`'s and `b`'s where they differ, and
/// equals them where they agree.
fn strictly_between(got: Color, a: Color, b: Color) -> bool {
    let channel = |g: u8, a: u8, b: u8| if a == b { g == a } else { g > a.min(b) && g < a.max(b) };
    channel(got.r, a.r, b.r) && channel(got.g, a.g, b.g) && channel(got.b, a.b, b.b) && got.a == 255
}

/// A sprite edge at x = 2.5 covers half of the samples of pixel column 2 (the standard 4x
/// positions lie at x offsets 1/8, 3/8, 5/8 and 7/8): after the resolve that column holds a
/// value strictly between the background and the sprite, and the columns either side hold
/// each exactly.
#[test]
fn an_edge_drawn_at_4x_resolves_to_intermediate_coverage() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = target(&device, 8, false, DepthFormat::None, 4, RenderTargetUsage::DiscardContents);
    if !multisampled_as_requested("an_edge_drawn_at_4x", rt.multi_sample_count(), 4) {
        return;
    }
    let white = white(&device);
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::BLUE).unwrap();
    band(&device, &white, 2.5, 5.5, 8.0, Color::RED);
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    for y in [0, 3, 7] {
        assert_eq!(at(&px, 8, 1, y), Color::BLUE, "row {y}");
        assert_eq!(at(&px, 8, 3, y), Color::RED, "row {y}");
        assert_eq!(at(&px, 8, 4, y), Color::RED, "row {y}");
        assert_eq!(at(&px, 8, 6, y), Color::BLUE, "row {y}");
        for x in [2, 5] {
            let edge = at(&px, 8, x, y);
            assert!(strictly_between(edge, Color::BLUE, Color::RED), "({x}, {y}): {edge:?}");
        }
    }
}

/// A preserving 4x target drawn in two bind cycles of one frame, another target bound between
/// them: the second cycle loads the samples the first stored, so the first cycle's band and its
/// half-covered edge column survive the second resolve. A sample image wrongly dropped would be
/// loaded as poison (magenta) and resolved over the first band.
#[test]
fn a_preserving_4x_target_keeps_its_samples_across_two_bind_cycles() {
    let _v = Validation::new();
    let device = device(8, 8);
    let usage = RenderTargetUsage::PreserveContents;
    let rt = target(&device, 8, false, DepthFormat::Depth24Stencil8, 4, usage);
    if !multisampled_as_requested("a_preserving_4x_target", rt.multi_sample_count(), 4) {
        return;
    }
    let other = target(&device, 4, false, DepthFormat::None, 0, RenderTargetUsage::DiscardContents);
    let white = white(&device);
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::BLUE).unwrap();
    band(&device, &white, 0.0, 2.5, 8.0, Color::RED);
    device.set_render_target(Some(&other)).unwrap();
    band(&device, &white, 0.0, 4.0, 4.0, Color::GREEN);
    device.set_render_target(Some(&rt)).unwrap();
    band(&device, &white, 5.5, 8.0, 8.0, Color::YELLOW);
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    for y in [0, 5] {
        assert_eq!(at(&px, 8, 0, y), Color::RED, "row {y}: the first cycle's band");
        assert_eq!(at(&px, 8, 1, y), Color::RED, "row {y}");
        let edge = at(&px, 8, 2, y);
        assert!(strictly_between(edge, Color::RED, Color::BLUE), "row {y}: {edge:?}");
        assert_eq!(at(&px, 8, 3, y), Color::BLUE, "row {y}: the first cycle's clear");
        assert_eq!(at(&px, 8, 4, y), Color::BLUE, "row {y}");
        let edge = at(&px, 8, 5, y);
        assert!(strictly_between(edge, Color::BLUE, Color::YELLOW), "row {y}: {edge:?}");
        assert_eq!(at(&px, 8, 6, y), Color::YELLOW, "row {y}: the second cycle's band");
        assert_eq!(at(&px, 8, 7, y), Color::YELLOW, "row {y}");
    }
}

const QUADRANTS: [(i32, i32, Color); 4] = [
    (0, 0, Color::new(200, 0, 40, 255)),
    (4, 0, Color::new(0, 100, 0, 255)),
    (0, 4, Color::new(40, 60, 200, 255)),
    (4, 4, Color::new(160, 20, 0, 255)),
];

/// An 8×8 mipmapped target drawn as four 4×4 quadrants of distinct colours: after the cascade
/// its 2×2 level holds each quadrant's colour in that quadrant's place and its 1×1 level their
/// average (100, 45, 60). At 4x the cascade follows the resolve.
#[test]
fn a_mipmapped_targets_levels_hold_its_quadrants_and_their_average() {
    let _v = Validation::new();
    for samples in [0, 4] {
        let device = device(8, 8);
        let usage = RenderTargetUsage::DiscardContents;
        let rt = target(&device, 8, true, DepthFormat::None, samples, usage);
        assert_eq!(rt.level_count(), 4);
        if !multisampled_as_requested(
            "a_mipmapped_targets_levels",
            rt.multi_sample_count(),
            samples,
        ) {
            continue;
        }
        let white = white(&device);
        device.set_render_target(Some(&rt)).unwrap();
        let mut sb = SpriteBatch::new(&device).unwrap();
        sb.begin().unwrap();
        for (x, y, color) in QUADRANTS {
            sb.draw_rect(&white, Rectangle::new(x, y, 4, 4), color).unwrap();
        }
        sb.end().unwrap();
        device.set_render_target(None).unwrap();
        let mut level2 = [Color::TRANSPARENT; 4];
        rt.get_data_region(2, None, &mut level2, 0, 4).unwrap();
        for (i, (_, _, color)) in QUADRANTS.into_iter().enumerate() {
            assert_near(level2[i], color, 1);
        }
        let mut level3 = [Color::TRANSPARENT; 1];
        rt.get_data_region(3, None, &mut level3, 0, 1).unwrap();
        assert_near(level3[0], Color::new(100, 45, 60, 255), 1);
    }
}

/// A plain texture's levels are authored: level 1 keeps what was uploaded after the texture is
/// sampled and level 0 is written again (no cascade regenerates it), and sampling level 1
/// shows the uploaded colour.
#[test]
fn a_plain_textures_upper_level_stays_as_uploaded() {
    let _v = Validation::new();
    let device = device(8, 8);
    let texture = Texture2D::with_format(&device, 4, 4, true, SurfaceFormat::Color).unwrap();
    assert_eq!(texture.level_count(), 3);
    let (level0, level1, level2) = (Color::RED, Color::new(10, 200, 30, 255), Color::BLUE);
    texture.set_data_region(0, None, &[level0; 16], 0, 16).unwrap();
    texture.set_data_region(1, None, &[level1; 4], 0, 4).unwrap();
    texture.set_data_region(2, None, &[level2; 1], 0, 1).unwrap();
    let rt = target(&device, 2, false, DepthFormat::None, 0, RenderTargetUsage::DiscardContents);
    let draw = || {
        device.set_render_target(Some(&rt)).unwrap();
        let mut sb = SpriteBatch::new(&device).unwrap();
        let point = Some(SamplerState::POINT_CLAMP);
        sb.begin_with(SpriteSortMode::Deferred, None, point, None, None, None).unwrap();
        // 4×4 texels onto 2×2 pixels: the sampler picks level 1.
        sb.draw_rect(&texture, Rectangle::new(0, 0, 2, 2), Color::WHITE).unwrap();
        sb.end().unwrap();
        device.set_render_target(None).unwrap();
        read_target(&rt)
    };
    let first = draw();
    texture.set_data_region(0, None, &[Color::YELLOW; 16], 0, 16).unwrap();
    let second = draw();
    let mut got1 = [Color::TRANSPARENT; 4];
    texture.get_data_region(1, None, &mut got1, 0, 4).unwrap();
    assert_eq!(got1, [level1; 4], "level 1 as uploaded");
    let mut got0 = [Color::TRANSPARENT; 16];
    texture.get_data_region(0, None, &mut got0, 0, 16).unwrap();
    assert_eq!(got0, [Color::YELLOW; 16]);
    assert_eq!((first[0], second[0]), (level1, level1), "sampled from level 1");
}
