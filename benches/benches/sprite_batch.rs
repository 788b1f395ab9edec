//! SpriteBatch recording plus vertex generation: 100k sprites of one texture, with rotation,
//! origin and scale, from `begin` to `end` (which writes the vertices into the frame). The frame
//! is submitted outside the timed region.

use xnagraph::{
    Color, GraphicsDevice, GraphicsProfile, PresentationParameters, SpriteBatch, SpriteEffects,
    Texture2D, Vector2,
};
use xnagraph_benches::{json, number, stats, string};

const SPRITES: usize = 100_000;

fn main() -> xnagraph::Result<()> {
    let params = PresentationParameters {
        back_buffer_width: 256,
        back_buffer_height: 256,
        ..Default::default()
    };
    let device = GraphicsDevice::new(GraphicsProfile::HiDef, params)?;
    let texture = Texture2D::new(&device, 16, 16)?;
    texture.set_data(&[Color::WHITE; 256])?;
    let mut batch = SpriteBatch::new(&device)?;
    let positions: Vec<Vector2> = (0..SPRITES)
        .map(|i| Vector2::new((i % 256) as f32, ((i / 256) % 256) as f32))
        .collect();

    let mut result = Ok(());
    let record = |batch: &mut SpriteBatch| -> xnagraph::Result<()> {
        batch.begin()?;
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
        batch.end()
    };
    let mut timings = Vec::new();
    for round in 0..12 {
        let start = std::time::Instant::now();
        if let Err(e) = record(&mut batch) {
            result = Err(e);
            break;
        }
        let elapsed = start.elapsed();
        if round >= 2 {
            timings.push(elapsed);
        }
        // Submit (and let the GPU drain) outside the timed region.
        device.flush()?;
        device.wait_idle()?;
    }
    result?;
    let s = stats(&timings);
    println!(
        "{}",
        json(&[
            ("bench", string("sprite_batch_record")),
            ("sprites", SPRITES.to_string()),
            ("textures", "1".into()),
            ("iterations", timings.len().to_string()),
            ("median_ns_per_sprite", number(s.median_ns / SPRITES as f64)),
            ("min_ns_per_sprite", number(s.min_ns / SPRITES as f64)),
            ("mean_ns_per_sprite", number(s.mean_ns / SPRITES as f64)),
            ("budget_ns_per_sprite", "25".into()),
        ])
    );
    Ok(())
}
