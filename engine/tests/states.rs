//! Blend and sampler states as they reach pixels: several render targets bound, alpha blend
//! factors apart from colour ones, XNA's MaxMipLevel beyond a texture's levels.

mod common;

use common::*;
use xnagraph::{
    Blend, BlendState, Color, RenderTarget2D, SamplerState, SpriteBatch, SpriteSortMode,
    SurfaceFormat, Texture2D, XnaError,
};
use xnagraph::{Rectangle, Vector2};

#[test]
fn drawing_with_two_render_targets_bound_writes_the_first_and_keeps_the_second() {
    let _v = Validation::new();
    let device = device(16, 16);
    let a = RenderTarget2D::new(&device, 16, 16).unwrap();
    let b = RenderTarget2D::new(&device, 16, 16).unwrap();
    let white = white(&device);
    device.set_render_targets(&[(&a).into(), (&b).into()]).unwrap();
    device.clear(Color::BLUE).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin().unwrap();
    sb.draw_rect(&white, Rectangle::new(9, 2, 4, 5), Color::RED).unwrap();
    sb.end().unwrap();
    device.set_render_target(None).unwrap();
    let (pa, pb) = (read_target(&a), read_target(&b));
    assert_eq!(at(&pa, 16, 10, 4), Color::RED, "the stock shader writes the first target");
    assert_eq!(at(&pa, 16, 3, 12), Color::BLUE);
    assert!(pb.iter().all(|&p| p == Color::BLUE), "the second target keeps its clear");
}

#[test]
fn blending_into_a_format_that_cannot_blend_is_refused_at_begin() {
    let _v = Validation::new();
    let device = device(8, 8);
    let format = SurfaceFormat::NormalizedByte4;
    let rt = RenderTarget2D::with_options(
        &device,
        8,
        8,
        false,
        format,
        xnagraph::DepthFormat::None,
        0,
        xnagraph::RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    let blendable = device.format_support(format).blendable;
    let white = white(&device);
    device.set_render_target(Some(&rt)).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    let begun = sb.begin_with(
        SpriteSortMode::Deferred,
        Some(BlendState::ALPHA_BLEND),
        None,
        None,
        None,
        None,
    );
    if blendable {
        begun.unwrap();
        sb.end().unwrap();
    } else {
        assert!(matches!(begun, Err(XnaError::NotSupported { .. })), "{begun:?}");
    }
    // Opaque drawing needs no blending and works on every device.
    sb.begin_with(SpriteSortMode::Deferred, Some(BlendState::OPAQUE), None, None, None, None)
        .unwrap();
    sb.draw_rect(&white, Rectangle::new(1, 1, 2, 2), Color::WHITE).unwrap();
    sb.end().unwrap();
    device.set_render_target(None).unwrap();
}

#[test]
fn blending_into_a_target_bound_after_begin_that_cannot_blend_is_refused_at_end() {
    let _v = Validation::new();
    let device = device(8, 8);
    let format = SurfaceFormat::NormalizedByte4;
    if device.format_support(format).blendable {
        common::skipped(
            "blending_into_a_target_bound_after_begin_that_cannot_blend_is_refused_at_end",
            "this adapter blends into NormalizedByte4",
        );
        return;
    }
    let rt = RenderTarget2D::with_options(
        &device,
        8,
        8,
        false,
        format,
        xnagraph::DepthFormat::None,
        0,
        xnagraph::RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    let white = white(&device);
    // Begin while the (blendable) back buffer is current, then bind the target the sprites
    // are drawn into at End.
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin_with(SpriteSortMode::Deferred, Some(BlendState::ALPHA_BLEND), None, None, None, None)
        .unwrap();
    sb.draw_rect(&white, Rectangle::new(1, 1, 2, 2), Color::WHITE).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    let ended = sb.end();
    assert!(matches!(ended, Err(XnaError::NotSupported { .. })), "{ended:?}");
    // Nothing of the refused batch was recorded: the target holds its discard clear.
    device.set_render_target(None).unwrap();
    let mut px = vec![[0u8; 4]; 64];
    rt.get_data(&mut px).unwrap();
    assert!(px.iter().all(|p| *p == px[0]), "no sprite reached the target: {:?}", &px[..12]);
}

#[test]
fn alpha_blend_factors_apply_to_alpha_alone() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = RenderTarget2D::new(&device, 8, 8).unwrap();
    let white = white(&device);
    // Colour replaces the destination; alpha keeps the destination's.
    let keep_alpha = BlendState {
        color_source_blend: Blend::One,
        color_destination_blend: Blend::Zero,
        alpha_source_blend: Blend::Zero,
        alpha_destination_blend: Blend::One,
        ..BlendState::OPAQUE
    };
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::new(10, 20, 30, 64)).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin_with(SpriteSortMode::Deferred, Some(keep_alpha), None, None, None, None).unwrap();
    sb.draw_rect(&white, Rectangle::new(5, 1, 2, 3), Color::new(200, 100, 50, 255)).unwrap();
    sb.end().unwrap();
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    assert_eq!(at(&px, 8, 6, 2), Color::new(200, 100, 50, 64), "colour from the source only");
    assert_eq!(at(&px, 8, 1, 6), Color::new(10, 20, 30, 64), "outside the sprite");
}

#[test]
fn max_mip_level_beyond_the_texture_clamps_to_its_last_level() {
    let _v = Validation::new();
    let device = device(16, 4);
    let rt = RenderTarget2D::new(&device, 16, 4).unwrap();
    // Three levels: 4×4 red, 2×2 lime, 1×1 blue.
    let t = Texture2D::with_format(&device, 4, 4, true, SurfaceFormat::Color).unwrap();
    for (level, (size, color)) in
        [(4, Color::RED), (2, Color::LIME), (1, Color::BLUE)].iter().enumerate()
    {
        let texels = vec![*color; size * size];
        t.set_data_region(level as i32, None, &texels, 0, texels.len()).unwrap();
    }
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::BLACK).unwrap();
    // Each quarter draws the texture 1:1 (level 0 by its footprint) with another MaxMipLevel.
    for (i, max_mip_level) in [0, 1, 9, u32::MAX].into_iter().enumerate() {
        let sampler = SamplerState { max_mip_level, ..SamplerState::POINT_CLAMP };
        let mut sb = SpriteBatch::new(&device).unwrap();
        sb.begin_with(SpriteSortMode::Deferred, None, Some(sampler), None, None, None).unwrap();
        sb.draw(&t, Vector2::new(4.0 * i as f32, 0.0), Color::WHITE).unwrap();
        sb.end().unwrap();
    }
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    assert_eq!(at(&px, 16, 1, 1), Color::RED, "MaxMipLevel 0: the top level");
    assert_eq!(at(&px, 16, 6, 2), Color::LIME, "MaxMipLevel 1: level 1");
    assert_eq!(at(&px, 16, 9, 3), Color::BLUE, "MaxMipLevel 9 clamps to the last level");
    assert_eq!(at(&px, 16, 14, 1), Color::BLUE, "u32::MAX clamps to the last level");
}

#[test]
fn max_anisotropy_above_the_device_limit_is_clamped() {
    let _v = Validation::new();
    let device = device(4, 4);
    let rt = RenderTarget2D::new(&device, 4, 4).unwrap();
    let t = Texture2D::with_format(&device, 4, 4, false, SurfaceFormat::Color).unwrap();
    t.set_data(&[Color::LIME; 16]).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::BLACK).unwrap();
    // XNA accepts any MaxAnisotropy; 1000 is far above every device's limit (16 on lavapipe).
    let sampler = SamplerState { max_anisotropy: 1000, ..SamplerState::ANISOTROPIC_CLAMP };
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin_with(SpriteSortMode::Deferred, None, Some(sampler), None, None, None).unwrap();
    sb.draw(&t, Vector2::new(0.0, 0.0), Color::WHITE).unwrap();
    sb.end().unwrap();
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    assert!(px.iter().all(|c| *c == Color::LIME), "the texture drawn 1:1: {px:?}");
}
