//! A sprite batch that alternates textures is one draw of all of them (each sprite picks its
//! texture), and still draws every sprite with its own texture in the sort mode's order: drawn
//! at once (Vulkan: non-uniform indexing where the device has it, or branches) or split into
//! runs (Vulkan without indexing, SDL_gpu). Past the 16 textures a draw holds, the batch is cut
//! into draws of 16 textures at most, in drawing order.

mod common;

use common::*;
use xnagraph::{
    Color, DeviceOptions, GraphicsProfile, Rectangle, SpriteBatch, SpriteSortMode, Texture2D,
    TextureIndexing, Vector2,
};

const W: i32 = 168;
const H: i32 = 8;

/// Texture `t`'s colour: distinct for every texture of these tests, so a sprite that samples
/// another texture's slot shows.
fn color(t: usize) -> Color {
    Color::new((t * 6) as u8, 255 - (t * 5) as u8, (t * 97 % 256) as u8, 255)
}

fn device_indexing(indexing: TextureIndexing) -> xnagraph::GraphicsDevice {
    let options = DeviceOptions { texture_indexing: indexing, ..test_options() };
    device_with_options(GraphicsProfile::HiDef, params(W, H), options)
}

/// Sprite `i`: 6 pixels wide at x = 2i, so each column is covered by up to three sprites of
/// different textures; layer depths scrambled so that the depth orders differ from call order.
fn depth(i: usize) -> f32 {
    ((i * 7) % 17) as f32 / 17.0
}

/// The order the sort mode draws sprites `0..n` of textures `texture(i)` in.
fn order(sort: SpriteSortMode, n: usize, texture: impl Fn(usize) -> usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    match sort {
        SpriteSortMode::BackToFront => order.sort_by(|&a, &b| depth(b).total_cmp(&depth(a))),
        SpriteSortMode::FrontToBack => order.sort_by(|&a, &b| depth(a).total_cmp(&depth(b))),
        // By the batch's first use of each texture; stable.
        SpriteSortMode::Texture => order.sort_by_key(|&i| texture(i)),
        _ => {}
    }
    order
}

/// Draws `n` overlapping sprites of `textures` round-robin and checks every pixel of row 1
/// against the sprite the sort order draws last there; returns the plan's draw count.
fn draw_and_check(
    device: &xnagraph::GraphicsDevice,
    textures: &[Texture2D],
    sort: SpriteSortMode,
    n: usize,
) -> usize {
    let texture = |i: usize| i % textures.len();
    device.clear(Color::BLACK).unwrap();
    let mut sb = SpriteBatch::new(device).unwrap();
    sb.begin_with(sort, None, None, None, None, None).unwrap();
    for i in 0..n {
        let dest = Rectangle::new(2 * i as i32, 0, 6, 4);
        sb.draw_rect_ex(
            &textures[texture(i)],
            dest,
            None,
            Color::WHITE,
            0.0,
            Vector2::ZERO,
            Default::default(),
            depth(i),
        )
        .unwrap();
    }
    sb.end().unwrap();
    device.present().unwrap();
    let draws = device.last_plan_cost().expect("a plan").draws;
    let px = read_back_buffer(device);
    let mut top = [None; W as usize];
    for i in order(sort, n, texture) {
        top[2 * i..2 * i + 6].fill(Some(texture(i)));
    }
    for (x, t) in top.iter().enumerate() {
        let want = t.map_or(Color::BLACK, color);
        assert_eq!(at(&px, W, x as i32, 1), want, "{sort:?}, column {x}");
    }
    assert_eq!(at(&px, W, 3, 5), Color::BLACK, "{sort:?}: below the sprites");
    draws
}

#[test]
fn alternating_textures_are_one_draw_in_every_sort_modes_order() {
    let _v = Validation::new();
    for indexing in [TextureIndexing::Auto, TextureIndexing::Runs, TextureIndexing::Branches] {
        let device = device_indexing(indexing);
        let textures: Vec<_> = (0..3).map(|t| solid(&device, 2, 2, color(t))).collect();
        for sort in SORTS {
            let draws = draw_and_check(&device, &textures, sort, 12);
            assert_eq!(draws, 1, "{sort:?}, {indexing:?}: one draw of three textures");
        }
    }
}

const SORTS: [SpriteSortMode; 4] = [
    SpriteSortMode::Deferred,
    SpriteSortMode::BackToFront,
    SpriteSortMode::FrontToBack,
    SpriteSortMode::Texture,
];

/// 40 textures, one sprite each, round-robin: three draws (16, 16 and 8 textures) in every sort
/// mode, each sprite with its own texture's colour in the sort mode's order, whether the device
/// indexes textures, branches or splits the draws into runs.
#[test]
fn forty_textures_are_three_draws_of_at_most_sixteen_in_every_sort_modes_order() {
    let _v = Validation::new();
    for indexing in [TextureIndexing::Auto, TextureIndexing::Runs, TextureIndexing::Branches] {
        let device = device_indexing(indexing);
        let textures: Vec<_> = (0..40).map(|t| solid(&device, 2, 2, color(t))).collect();
        for sort in SORTS {
            let draws = draw_and_check(&device, &textures, sort, 40);
            assert_eq!(draws, 3, "{sort:?}, {indexing:?}: 40 textures in draws of 16");
        }
    }
}

/// Two rounds of 40 textures: sorted by texture they are still three draws; in call order a
/// draw ends wherever a seventeenth texture would join it, so the third draw holds textures
/// 32..40 then 0..8 (slots that differ from the batch's indices), and there are five.
#[test]
fn a_draw_ends_where_a_seventeenth_texture_would_join_it() {
    let _v = Validation::new();
    let device = device_indexing(TextureIndexing::Auto);
    let textures: Vec<_> = (0..40).map(|t| solid(&device, 2, 2, color(t))).collect();
    assert_eq!(draw_and_check(&device, &textures, SpriteSortMode::Texture, 80), 3);
    assert_eq!(draw_and_check(&device, &textures, SpriteSortMode::Deferred, 80), 5);
    for sort in SORTS {
        draw_and_check(&device, &textures, sort, 80);
    }
}

/// In Immediate mode a batch draws one run at a time, as before.
#[test]
fn immediate_mode_draws_per_run() {
    let _v = Validation::new();
    let device = device_indexing(TextureIndexing::Auto);
    let three: Vec<_> = (0..3).map(|t| solid(&device, 2, 2, color(t))).collect();
    assert_eq!(draw_and_check(&device, &three, SpriteSortMode::Immediate, 12), 12);
    assert_eq!(draw_and_check(&device, &three, SpriteSortMode::Deferred, 12), 1);
}
