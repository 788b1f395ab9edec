//! SpriteBatch recording plus vertex generation: 100k sprites of one texture, from `begin` to
//! `end` (which hands the vertices to the frame). Four workloads: the full overload (rotation,
//! origin, scale), the plain `draw(texture, position, color)`, the full overload with a layer
//! depth per sprite in `BackToFront` order (the sort included), and the full overload over 12
//! textures taken round-robin (a texture switch on every sprite). Each round's frame is submitted
//! and drained outside the timed region. A counting allocator reports the heap allocations of
//! the timed region (the game thread's recording, plus whatever other threads allocate
//! meanwhile: the render thread is idle then, as each round waits for it).
//! `XNAGRAPH_BENCH_ONLY=rotation_origin_scale,position_only` runs only the workloads named.

use std::time::{Duration, Instant};

use xnagraph::{
    Color, GraphicsDevice, GraphicsProfile, PresentationParameters, SpriteBatch, SpriteEffects,
    SpriteSortMode, Texture2D, Vector2,
};
use xnagraph_benches::alloc_count::{allocations, CountingAllocator};
use xnagraph_benches::{json, number, stats, string};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const SPRITES: usize = 100_000;
const WARMUP: usize = 3;
const ROUNDS: usize = 30;

/// Whether `workload` runs: all do unless `XNAGRAPH_BENCH_ONLY` names some (a comma-separated
/// list).
fn wanted(workload: &str) -> bool {
    std::env::var("XNAGRAPH_BENCH_ONLY").map_or(true, |only| only.split(',').any(|w| w == workload))
}

fn rounds(
    workload: &str,
    device: &GraphicsDevice,
    batch: &mut SpriteBatch,
    sort: SpriteSortMode,
    mut draw_all: impl FnMut(&mut SpriteBatch) -> xnagraph::Result<()>,
) -> xnagraph::Result<(Vec<Duration>, u64)> {
    let mut timings = Vec::with_capacity(ROUNDS);
    let mut most_allocations = 0;
    if !wanted(workload) {
        return Ok((timings, most_allocations));
    }
    for round in 0..WARMUP + ROUNDS {
        let allocated = allocations();
        let start = Instant::now();
        batch.begin_with(sort, None, None, None, None, None)?;
        draw_all(batch)?;
        batch.end()?;
        let elapsed = start.elapsed();
        let allocated = allocations() - allocated;
        if round >= WARMUP {
            timings.push(elapsed);
            most_allocations = most_allocations.max(allocated);
        }
        device.flush()?;
        device.wait_idle()?;
    }
    Ok((timings, most_allocations))
}

fn report(workload: &str, (timings, most_allocations): &(Vec<Duration>, u64), textures: usize) {
    if timings.is_empty() {
        return;
    }
    let s = stats(timings);
    if std::env::var_os("XNAGRAPH_BENCH_ROUNDS").is_some() {
        let ns: Vec<String> = timings
            .iter()
            .map(|d| format!("{:.1}", d.as_secs_f64() * 1e9 / SPRITES as f64))
            .collect();
        eprintln!("{workload} rounds (ns/sprite): {}", ns.join(" "));
    }
    println!(
        "{}",
        json(&[
            ("bench", string("sprite_batch_record")),
            ("workload", string(workload)),
            ("sprites", SPRITES.into()),
            ("textures", textures.into()),
            ("rounds", timings.len().into()),
            ("median_ns_per_sprite", number(s.median_ns / SPRITES as f64)),
            ("min_ns_per_sprite", number(s.min_ns / SPRITES as f64)),
            ("mean_ns_per_sprite", number(s.mean_ns / SPRITES as f64)),
            ("budget_ns_per_sprite", 12.into()),
            ("most_allocations_per_round", (*most_allocations).into()),
        ])
    );
}

fn main() -> xnagraph::Result<()> {
    let params = PresentationParameters {
        back_buffer_width: 256,
        back_buffer_height: 256,
        ..Default::default()
    };
    let device = GraphicsDevice::with_options(
        GraphicsProfile::HiDef,
        params,
        xnagraph::DeviceOptions::from_env(),
    )?;
    let texture = Texture2D::new(&device, 16, 16)?;
    texture.set_data(&[Color::WHITE; 256])?;
    let mut batch = SpriteBatch::new(&device)?;
    let positions: Vec<Vector2> =
        (0..SPRITES).map(|i| Vector2::new((i % 256) as f32, ((i / 256) % 256) as f32)).collect();

    let rotated =
        rounds("rotation_origin_scale", &device, &mut batch, SpriteSortMode::Deferred, |batch| {
            for (i, &p) in positions.iter().enumerate() {
                batch.draw_ex(
                    &texture,
                    p,
                    None,
                    Color::WHITE,
                    i as f32 * 0.001,
                    Vector2::new(8.0, 8.0),
                    Vector2::new(0.5, 0.5),
                    SpriteEffects::NONE,
                    0.0,
                )?;
            }
            Ok(())
        })?;
    report("rotation_origin_scale", &rotated, 1);

    let plain = rounds("position_only", &device, &mut batch, SpriteSortMode::Deferred, |batch| {
        for &p in &positions {
            batch.draw(&texture, p, Color::WHITE)?;
        }
        Ok(())
    })?;
    report("position_only", &plain, 1);

    // Depths from a fixed permutation with repeats, so the sort moves most sprites and keeps
    // the call order of equal depths.
    let sorted =
        rounds("back_to_front", &device, &mut batch, SpriteSortMode::BackToFront, |batch| {
            for (i, &p) in positions.iter().enumerate() {
                batch.draw_ex(
                    &texture,
                    p,
                    None,
                    Color::WHITE,
                    0.0,
                    Vector2::new(8.0, 8.0),
                    Vector2::new(0.5, 0.5),
                    SpriteEffects::NONE,
                    (i * 7919 % 1000) as f32 / 1000.0,
                )?;
            }
            Ok(())
        })?;
    report("back_to_front", &sorted, 1);

    let mut textures = Vec::new();
    for _ in 0..12 {
        let t = Texture2D::new(&device, 16, 16)?;
        t.set_data(&[Color::WHITE; 256])?;
        textures.push(t);
    }
    let round_robin =
        rounds("round_robin_textures", &device, &mut batch, SpriteSortMode::Deferred, |batch| {
            for (i, &p) in positions.iter().enumerate() {
                batch.draw_ex(
                    &textures[i % 12],
                    p,
                    None,
                    Color::WHITE,
                    0.0,
                    Vector2::new(8.0, 8.0),
                    Vector2::new(0.5, 0.5),
                    SpriteEffects::NONE,
                    0.0,
                )?;
            }
            Ok(())
        })?;
    report("round_robin_textures", &round_robin, 12);
    Ok(())
}
