//! The breakout sample, played headless with scripted input: what it draws (read back before
//! the present), how input moves it, and its command line.

use std::process::Command;

use xnagraph::game::{GameContext, InputEvent, Keys};
use xnagraph::Color;
use xnagraph_samples::breakout::world::{
    Phase, World, BRICK_COLUMNS, BRICK_SIZE, FIELD_WIDTH, PADDLE_SIZE,
};
use xnagraph_samples::breakout::{
    default_content_dir, field_destination, Breakout, COMPOSITE_TINT, FLASH_TINT, ROW_COLORS,
};

const WIDTH: i32 = 1000;
const HEIGHT: i32 = 720;

/// Plays `frames` frames with `script` feeding input, and returns the game with its last
/// frame captured.
fn play(
    frames: u64,
    setup: impl FnOnce(&mut Breakout),
    script: impl FnMut(u64, &mut Vec<InputEvent>),
) -> Breakout {
    let mut game = Breakout::new(default_content_dir());
    setup(&mut game);
    game.capture_frame(frames - 1);
    let mut ctx = GameContext::new();
    ctx.graphics.preferred_back_buffer_width = WIDTH;
    ctx.graphics.preferred_back_buffer_height = HEIGHT;
    ctx.graphics.device_options = xnagraph::DeviceOptions::from_env();
    ctx.graphics.device_options.validation = true;
    ctx.graphics.device_options.poison_undefined = true;
    ctx.run_headless(&mut game, frames, script).expect("the game runs");
    game
}

/// `a * b / 255`, rounded as a unorm multiply is.
fn mul(a: u8, b: u8) -> u8 {
    ((a as u32 * b as u32 + 127) / 255) as u8
}

fn tinted(texel: u8, color: Color, composite: Color) -> Color {
    let channel = |c: u8, t: u8| mul(mul(texel, c), t);
    Color::new(
        channel(color.r, composite.r),
        channel(color.g, composite.g),
        channel(color.b, composite.b),
        255,
    )
}

fn assert_near(got: Color, want: Color, what: &str) {
    let close = |a: u8, b: u8| a.abs_diff(b) <= 1;
    assert!(
        close(got.r, want.r) && close(got.g, want.g) && close(got.b, want.b) && got.a == want.a,
        "{what}: got {got:?}, want {want:?}"
    );
}

/// The back-buffer pixel showing field pixel (x, y), sampled at the centre of its 2x2 block.
fn field_pixel(pixels: &[Color], x: f32, y: f32) -> Color {
    let dest = field_destination(WIDTH, HEIGHT);
    let scale = dest.width as f32 / FIELD_WIDTH;
    let (px, py) = (dest.x + (x * scale) as i32, dest.y + (y * scale) as i32);
    pixels[(py * WIDTH + px) as usize]
}

#[test]
fn the_first_frame_shows_the_wall_and_the_paddle_through_the_tinted_scaled_composite() {
    let game = play(1, |_| {}, |_, _| {});
    let pixels = game.captured().expect("captured");
    assert_eq!(pixels.len(), (WIDTH * HEIGHT) as usize);
    // 1000x720 holds the 480x360 field at 2x, centred: 20-pixel black bars left and right.
    assert_eq!(field_destination(WIDTH, HEIGHT), xnagraph::Rectangle::new(20, 0, 960, 720));
    for y in [0, 359, 719] {
        assert_eq!(pixels[(y * WIDTH + 19) as usize], Color::BLACK, "left bar, row {y}");
        assert_eq!(pixels[(y * WIDTH + 980) as usize], Color::BLACK, "right bar, row {y}");
    }
    // One brick per row, in a different column each time; brick.png's interior texel is 215.
    for (row, color) in ROW_COLORS.iter().enumerate() {
        let brick = game.world.bricks[row * BRICK_COLUMNS + (row * 2 + 1) % BRICK_COLUMNS];
        let centre = field_pixel(pixels, brick.x + 20.5, brick.y + 10.5);
        assert_near(centre, tinted(215, *color, COMPOSITE_TINT), &format!("brick of row {row}"));
        // Its bright top-left bevel (texel 255) is the row colour, tinted.
        let bevel = field_pixel(pixels, brick.x + 1.5, brick.y + 1.5);
        assert_near(bevel, tinted(255, *color, COMPOSITE_TINT), &format!("bevel of row {row}"));
    }
    // The paddle: paddle.png's row 8 is 225 grey, tinted (200, 220, 255).
    let paddle = field_pixel(pixels, game.world.paddle_x + 48.5, World::paddle_y() + 8.5);
    assert_near(paddle, tinted(225, Color::new(200, 220, 255, 255), COMPOSITE_TINT), "paddle");
}

#[test]
fn the_score_is_drawn_in_the_top_band_and_nowhere_between_score_and_balls() {
    let game = play(1, |_| {}, |_, _| {});
    let pixels = game.captured().unwrap();
    let white = tinted(255, Color::WHITE, COMPOSITE_TINT);
    let text_pixels = |x0: f32, x1: f32| {
        let mut count = 0;
        let mut y = 4.0;
        while y < 24.0 {
            let mut x = x0;
            while x < x1 {
                if field_pixel(pixels, x, y) == white {
                    count += 1;
                }
                x += 1.0;
            }
            y += 1.0;
        }
        count
    };
    // "SCORE 0" at (8, 4) in 18 px type: fully covered glyph pixels are exactly white, tinted.
    assert!(text_pixels(8.0, 90.0) > 40, "score text");
    assert_eq!(text_pixels(160.0, 320.0), 0, "the middle of the band is empty");
}

#[test]
fn breaking_a_brick_flashes_the_composite_white() {
    let game = play(
        1,
        |game| {
            // The ball just under the bottom row's fifth brick, moving up into it.
            let target = game.world.bricks[BRICK_COLUMNS * 4 + 4];
            game.world.phase = Phase::Playing;
            game.world.ball = (target.x + 16.0, target.y + BRICK_SIZE.1 + 1.0);
            game.world.velocity = (0.0, -300.0);
        },
        |_, _| {},
    );
    assert_eq!(game.world.score, 10, "the brick was hit this frame");
    let pixels = game.captured().unwrap();
    let brick = game.world.bricks[0];
    let centre = field_pixel(pixels, brick.x + 20.5, brick.y + 10.5);
    assert_near(centre, tinted(215, ROW_COLORS[0], FLASH_TINT), "flashed brick");
}

#[test]
fn arrow_keys_move_the_paddle_and_space_serves() {
    let game = play(
        40,
        |_| {},
        |frame, events| match frame {
            0 => events.push(InputEvent::KeyDown(Keys::Right)),
            30 => events.push(InputEvent::KeyUp(Keys::Right)),
            31 => events.push(InputEvent::KeyDown(Keys::Space)),
            _ => {}
        },
    );
    // 30 frames at 420 px/s: 210 px right from the centre, stopped by the wall.
    assert_eq!(game.world.paddle_x, FIELD_WIDTH - PADDLE_SIZE.0);
    assert_eq!(game.world.phase, Phase::Playing, "Space served the ball");
    let pixels = game.captured().unwrap();
    let floor = World::paddle_y() + 8.5;
    let paddle = tinted(225, Color::new(200, 220, 255, 255), COMPOSITE_TINT);
    assert_near(field_pixel(pixels, FIELD_WIDTH - 10.5, floor), paddle, "paddle at the right wall");
    let centre = field_pixel(pixels, FIELD_WIDTH / 2.0 - 40.5, floor);
    assert_ne!(centre, paddle, "nothing of the paddle is left at the centre");
}

#[test]
fn the_mouse_steers_the_paddle_and_a_click_serves() {
    let game = play(
        6,
        |_| {},
        |frame, events| match frame {
            0 => events.push(InputEvent::MouseMoved { x: 500, y: 400 }),
            // Back-buffer x 120 is field x 50: the paddle's centre goes there.
            2 => events.push(InputEvent::MouseMoved { x: 120, y: 400 }),
            4 => events.push(InputEvent::ButtonDown(xnagraph::game::MouseButton::Left)),
            _ => {}
        },
    );
    assert_eq!(game.world.paddle_x, 50.0 - PADDLE_SIZE.0 / 2.0);
    assert_eq!(game.world.phase, Phase::Playing);
}

#[test]
fn escape_ends_the_game_before_the_frame_is_drawn() {
    let game = play(
        10,
        |_| {},
        |frame, events| {
            if frame == 3 {
                events.push(InputEvent::KeyDown(Keys::Escape));
            }
        },
    );
    assert!(game.captured().is_none(), "the run ended before frame 9 was drawn");
}

fn breakout() -> Command {
    Command::new(env!("CARGO_BIN_EXE_breakout"))
}

#[test]
fn headless_runs_write_the_last_frame_as_a_png() {
    let dir = std::env::temp_dir().join(format!("xnagraph-breakout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("last.png");
    let status = breakout()
        .args(["--headless", "--frames", "90", "--width", "480", "--height", "400", "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&out).unwrap()));
    let reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (480, 400));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_flags_are_refused_naming_them() {
    let output = breakout().args(["--headless", "--frames", "0"]).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--frames"), "{stderr}");
    let output = breakout().args(["--width", "8"]).output().unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--width"));
}
