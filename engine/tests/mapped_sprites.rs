//! Large Deferred sprite batches write their instances into mapped vertex memory the GPU draws
//! from in place (`DeviceOptions::mapped_sprites`): the pixels are those of the copied path,
//! rotated sprites included, across frames that reuse the mapped arenas, a frame that outgrows
//! its arena, and a frame that mixes a mapped batch with a sorted one.

mod common;

use common::*;
use xnagraph::{
    Color, DeviceOptions, GraphicsDevice, GraphicsProfile, SpriteBatch, SpriteEffects,
    SpriteSortMode, Texture2D, TextureIndexing, Vector2,
};

const W: i32 = 96;
const H: i32 = 64;

/// Sprites enough for a frame to be drawn from mapped memory (the engine's threshold is 16,384).
const SPRITES: usize = 20_000;

fn device(mapped_sprites: bool) -> GraphicsDevice {
    // Mapped arenas need batches of several textures drawn at once: lavapipe has no non-uniform
    // indexing, so through branches.
    let texture_indexing = TextureIndexing::Branches;
    let options = DeviceOptions { mapped_sprites, texture_indexing, ..test_options() };
    device_with_options(GraphicsProfile::HiDef, params(W, H), options)
}

/// Sprite `i` of frame `frame`: a 3×2 texel sprite at a place and in a colour of its own, every
/// seventh one rotated about its centre, so the last sprites drawn over a pixel decide it.
fn draw(batch: &mut SpriteBatch, texture: &Texture2D, frame: usize, count: usize) {
    for i in 0..count {
        let k = i * 7 + frame * 13;
        let at = Vector2::new((k % (W as usize + 4)) as f32 - 2.0, (k / 97 % H as usize) as f32);
        let color = Color::new((k * 37) as u8, (k * 11 + frame * 50) as u8, (i * 3) as u8, 255);
        let rotation = if i % 7 == 0 { (i % 360) as f32 * 0.0174 } else { 0.0 };
        let origin = Vector2::new(1.5, 1.0);
        batch
            .draw_ex(
                texture,
                at,
                None,
                color,
                rotation,
                origin,
                Vector2::new(1.0, 1.0),
                SpriteEffects::NONE,
                0.0,
            )
            .unwrap();
    }
}

/// The back buffer after each of the frames, the sprite counts of which are `counts`; a
/// frame whose count is odd also draws a sorted batch after the Deferred one.
fn frames(mapped_sprites: bool, counts: &[usize]) -> (Vec<Vec<Color>>, usize) {
    let device = device(mapped_sprites);
    let texture = solid(&device, 3, 2, Color::WHITE);
    let mut batch = SpriteBatch::new(&device).unwrap();
    let mut sorted = SpriteBatch::new(&device).unwrap();
    let mut shots = Vec::new();
    for (frame, &count) in counts.iter().enumerate() {
        device.clear(Color::new(10, 20, 30, 255)).unwrap();
        batch.begin_with(SpriteSortMode::Deferred, None, None, None, None, None).unwrap();
        draw(&mut batch, &texture, frame, count);
        batch.end().unwrap();
        if count % 2 == 1 {
            sorted.begin_with(SpriteSortMode::Texture, None, None, None, None, None).unwrap();
            draw(&mut sorted, &texture, frame + 1, 300);
            sorted.end().unwrap();
        }
        shots.push(read_back_buffer(&device));
        device.present().unwrap();
    }
    device.wait_idle().unwrap();
    let live = device.diagnostics().live_native_objects();
    (shots, live)
}

/// The first frame writes a vector (no size is known yet); later ones mapped memory, reused
/// once the GPU is done with it, grown past (20,000 then 40,001 sprites) and mixed with a
/// sorted batch: every frame's pixels equal the copied path's, and mapped arenas exist.
#[test]
fn mapped_sprite_arenas_draw_what_copied_ones_draw() {
    if skip_on_sdlgpu("mapped_sprite_arenas_draw_what_copied_ones_draw", "Vulkan memory") {
        return;
    }
    let counts = [SPRITES, SPRITES, SPRITES, SPRITES + 1, 2 * SPRITES + 1, SPRITES, SPRITES];
    let (copied, live_copied) = frames(false, &counts);
    let (mapped, live_mapped) = frames(true, &counts);
    for (frame, (a, b)) in copied.iter().zip(&mapped).enumerate() {
        let differing = a.iter().zip(b).filter(|(a, b)| a != b).count();
        assert_eq!(differing, 0, "frame {frame}: {differing} pixels differ");
    }
    // The sprites cover the target with many colours: equal pixels are not an empty frame.
    let distinct: std::collections::HashSet<_> =
        mapped[2].iter().map(|c| [c.r, c.g, c.b, c.a]).collect();
    assert!(distinct.len() > 100, "{} colours", distinct.len());
    assert!(
        live_mapped > live_copied,
        "mapped arenas: {live_mapped} objects against {live_copied}"
    );
}
