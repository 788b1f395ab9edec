//! A sprite batch that alternates textures is one draw of all of them (each sprite picks its
//! texture), and still draws every sprite with its own texture in the sort mode's order: drawn
//! at once (Vulkan: non-uniform indexing where the device has it, or branches) or split into
//! runs (Vulkan without indexing, SDL_gpu).

mod common;

use common::*;
use xnagraph::{
    Color, DeviceOptions, GraphicsProfile, Rectangle, SpriteBatch, SpriteSortMode, Texture2D,
    TextureIndexing, Vector2,
};

const W: i32 = 48;
const H: i32 = 8;
const COLORS: [Color; 3] = [Color::RED, Color::new(0, 255, 0, 255), Color::BLUE];

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

/// Draws 12 overlapping sprites (one per texture when there are more) of `textures` round-robin
/// and checks every pixel of row 1 against the sprite the sort order draws last there; returns
/// the plan's draw count.
fn draw_and_check(
    device: &xnagraph::GraphicsDevice,
    textures: &[Texture2D],
    sort: SpriteSortMode,
) -> usize {
    let n = textures.len().max(12);
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
        let want = t.map_or(Color::BLACK, |t| COLORS[t % 3]);
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
        let textures: Vec<_> = COLORS.iter().map(|&c| solid(&device, 2, 2, c)).collect();
        for sort in [
            SpriteSortMode::Deferred,
            SpriteSortMode::BackToFront,
            SpriteSortMode::FrontToBack,
            SpriteSortMode::Texture,
        ] {
            let draws = draw_and_check(&device, &textures, sort);
            assert_eq!(draws, 1, "{sort:?}, {indexing:?}: one draw of three textures");
        }
    }
}

/// Past 16 textures, or in Immediate mode, a batch draws one run at a time, as before.
#[test]
fn more_textures_than_a_draw_holds_and_immediate_mode_draw_per_run() {
    let _v = Validation::new();
    let device = device_indexing(TextureIndexing::Auto);
    let textures: Vec<_> = (0..17).map(|i| solid(&device, 2, 2, COLORS[i % 3])).collect();
    assert_eq!(draw_and_check(&device, &textures, SpriteSortMode::Deferred), 17);
    let three = &textures[..3];
    assert_eq!(draw_and_check(&device, three, SpriteSortMode::Immediate), 12);
    assert_eq!(draw_and_check(&device, three, SpriteSortMode::Deferred), 1);
}
