//! Draws share descriptor sets within a frame (one per texture and sampler, one per run of
//! equal transforms): sprites that alternate textures, samplers and transforms still draw each
//! with its own.

mod common;

use common::*;
use xnagraph::{Color, Matrix, Rectangle, SamplerState, SpriteBatch, SpriteSortMode, Texture2D};

#[test]
fn alternating_textures_samplers_and_transforms_draw_each_sprite_with_its_own() {
    let _v = Validation::new();
    let device = device(32, 16);
    let colors =
        [Color::RED, Color::new(0, 255, 0, 255), Color::BLUE, Color::new(255, 255, 0, 255)];
    // Each texture: its colour on the left texel, black on the right one. Drawn 4 pixels wide,
    // pixel 1 is the colour through a point sampler and a blend through a linear one.
    let textures: Vec<_> = colors
        .iter()
        .map(|c| {
            let t = Texture2D::new(&device, 2, 1).unwrap();
            t.set_data(&[*c, Color::BLACK]).unwrap();
            t
        })
        .collect();
    device.clear(Color::BLACK).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    for (row, (sampler, transform)) in [
        (SamplerState::POINT_CLAMP, Matrix::IDENTITY),
        (SamplerState::LINEAR_CLAMP, Matrix::create_translation(0.0, 4.0, 0.0)),
        (SamplerState::POINT_CLAMP, Matrix::create_translation(0.0, 8.0, 0.0)),
    ]
    .into_iter()
    .enumerate()
    {
        // Rows 1 and 2 draw the textures in another order, so a set reused for the wrong
        // texture shows.
        sb.begin_with(SpriteSortMode::Deferred, None, Some(sampler), None, None, Some(transform))
            .unwrap();
        for i in 0..8 {
            let t = (i + row) % 4;
            sb.draw_rect(&textures[t], Rectangle::new(i as i32 * 4, 0, 4, 4), Color::WHITE)
                .unwrap();
        }
        sb.end().unwrap();
    }
    device.present().unwrap();
    let mut px = vec![Color::TRANSPARENT; 32 * 16];
    device.get_back_buffer_data(None, &mut px, 0, 32 * 16).unwrap();
    for row in 0..3 {
        for i in 0..8 {
            let expected = colors[(i + row) % 4];
            let got = at(&px, 32, i as i32 * 4 + 1, row as i32 * 4 + 1);
            if row == 1 {
                // Linear: three quarters of the colour, a quarter of black.
                let blend = |c: u8| (u32::from(c) * 3).div_ceil(4) as i32;
                let want = [blend(expected.r), blend(expected.g), blend(expected.b)];
                let have = [got.r as i32, got.g as i32, got.b as i32];
                assert!(
                    want.iter().zip(have).all(|(w, h)| (w - h).abs() <= 2),
                    "row {row}, sprite {i}: {got:?}, want about {want:?}"
                );
            } else {
                assert_eq!(got, expected, "row {row}, sprite {i}");
            }
        }
    }
    assert_eq!(at(&px, 32, 5, 13), Color::BLACK, "below the translated rows");
}
