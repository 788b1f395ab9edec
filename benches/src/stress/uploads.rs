//! `uploads`: streaming texel data into dynamic textures every frame.
//!
//! `--mib` MiB of `Color` texels are written per frame with `SetData` into textures 1,024
//! texels wide (at most 4,096 rows, 16 MiB, each), which are then drawn small into the back
//! buffer so every upload is used. The throughput is set against a plain copy of the same
//! bytes between two buffers of this process ([`memcpy_bytes_per_second`]).

use std::time::Instant;

use xnagraph::{Color, GraphicsDevice, Rectangle, SpriteBatch, Texture2D};

use super::Scenario;

const WIDTH: i32 = 1024;
const MAX_ROWS: i32 = 4096;

/// The uploads scenario.
pub struct Uploads {
    textures: Vec<Texture2D>,
    texels: Vec<Color>,
    batch: SpriteBatch,
}

impl Uploads {
    /// Creates textures holding `mib` MiB in all (1 to 64).
    pub fn new(device: &GraphicsDevice, mib: u32) -> xnagraph::Result<Uploads> {
        let mut rows = mib as i32 * (1 << 20) / 4 / WIDTH;
        let mut textures = Vec::new();
        while rows > 0 {
            let h = rows.min(MAX_ROWS);
            textures.push(Texture2D::new(device, WIDTH, h)?);
            rows -= h;
        }
        let texels = vec![Color::new(0, 0, 0, 255); (WIDTH * MAX_ROWS) as usize];
        Ok(Uploads { textures, texels, batch: SpriteBatch::new(device)? })
    }

    /// Bytes uploaded per frame.
    pub fn bytes_per_frame(&self) -> u64 {
        self.textures.iter().map(|t| t.width() as u64 * t.height() as u64 * 4).sum()
    }
}

impl Scenario for Uploads {
    fn record(&mut self, device: &GraphicsDevice, index: u32) -> xnagraph::Result<()> {
        // One texel a frame changes, so no two frames upload the same bytes.
        let changed = index as usize % self.texels.len();
        self.texels[changed] = Color::new(index as u8, 255, 0, 255);
        for texture in &self.textures {
            let n = (texture.width() * texture.height()) as usize;
            texture.set_data(&self.texels[..n])?;
        }
        device.clear(Color::BLACK)?;
        self.batch.begin()?;
        for (i, texture) in self.textures.iter().enumerate() {
            let x = (i as i32 % 8) * 32;
            let y = (i as i32 / 8) * 32;
            self.batch.draw_rect(texture, Rectangle::new(x, y, 32, 32), Color::WHITE)?;
        }
        self.batch.end()
    }
}

/// Bytes per second of a plain copy of `bytes` bytes between two buffers of this process: the
/// best of `rounds` copies (each buffer touched once before timing).
pub fn memcpy_bytes_per_second(bytes: usize, rounds: u32) -> f64 {
    let source: Vec<u8> = (0..bytes).map(|i| i as u8).collect();
    let mut dest = vec![0u8; bytes];
    let mut best = f64::INFINITY;
    for _ in 0..rounds.max(1) {
        let start = Instant::now();
        dest.copy_from_slice(&source);
        std::hint::black_box(&mut dest);
        best = best.min(start.elapsed().as_secs_f64());
    }
    bytes as f64 / best.max(1e-9)
}
