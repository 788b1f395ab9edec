//! `sprites`: the bevymark workload, as Bevy's `bevymark --benchmark` defines it.
//!
//! Waves of birds are added up front (`--waves` × `--per-wave`); each starts at the top-left
//! corner with a random horizontal velocity, falls under gravity and bounces off the edges of
//! a 1920×1080 back buffer, advanced by a fixed 1/60 s step. Each is a 256×256 texture drawn at
//! scale 0.15 (about 38 px), tinted with its wave's colour. With 12 textures the birds take
//! them round-robin, so consecutive sprites never share one (every sprite a batch break in
//! `Deferred` order). The sort mode is the `SpriteBatch`'s; back-to-front sorts by a layer
//! depth each bird draws at spawn.

use xnagraph::{
    Color, GraphicsDevice, SpriteBatch, SpriteEffects, SpriteSortMode, SurfaceFormat, Texture2D,
    Vector2,
};

use super::{Rng, Scenario, TIME_STEP};

/// Bevymark's constants: gravity (px/s², down), the largest initial horizontal speed (px/s),
/// the bird texture's edge and its drawn scale.
const GRAVITY: f32 = 9.8 * 100.0;
const MAX_VELOCITY: f32 = 750.0;
const TEXTURE_SIZE: i32 = 256;
const SCALE: f32 = 0.15;

/// The back buffer bevymark draws into.
pub const WIDTH: i32 = 1920;
/// The back buffer bevymark draws into.
pub const HEIGHT: i32 = 1080;

/// How the sprites are drawn.
#[derive(Clone, Copy, Debug)]
pub struct SpriteOptions {
    /// Distinct textures, taken round-robin (1 or 12).
    pub textures: u32,
    /// The `SpriteBatch` sort mode.
    pub sort: SpriteSortMode,
    /// Waves added up front.
    pub waves: u32,
    /// Birds per wave.
    pub per_wave: u32,
    /// The generator's seed.
    pub seed: u64,
}

struct Bird {
    position: Vector2,
    velocity: Vector2,
    depth: f32,
    texture: usize,
    color: Color,
}

/// The bevymark scenario.
pub struct Sprites {
    options: SpriteOptions,
    textures: Vec<Texture2D>,
    birds: Vec<Bird>,
    rng: Rng,
    batch: SpriteBatch,
    waves: u32,
}

impl Sprites {
    /// Creates the textures and the first `options.waves` waves.
    pub fn new(device: &GraphicsDevice, options: SpriteOptions) -> xnagraph::Result<Sprites> {
        let textures = (0..options.textures.max(1))
            .map(|i| bird_texture(device, i))
            .collect::<xnagraph::Result<Vec<_>>>()?;
        let mut sprites = Sprites {
            options,
            textures,
            birds: Vec::new(),
            rng: Rng::new(options.seed),
            batch: SpriteBatch::new(device)?,
            waves: 0,
        };
        for _ in 0..options.waves {
            sprites.add_wave(options.per_wave);
        }
        Ok(sprites)
    }

    /// Adds a wave of `count` birds.
    pub fn add_wave(&mut self, count: u32) {
        let half = TEXTURE_SIZE as f32 * SCALE * 0.5;
        let color = Color::new(
            64 + self.rng.below(192) as u8,
            64 + self.rng.below(192) as u8,
            64 + self.rng.below(192) as u8,
            255,
        );
        self.birds.reserve(count as usize);
        for _ in 0..count {
            let vx = self.rng.unit() * MAX_VELOCITY - MAX_VELOCITY * 0.5;
            let texture = self.birds.len() % self.textures.len();
            self.birds.push(Bird {
                position: Vector2::new(half, half),
                velocity: Vector2::new(vx, 0.0),
                depth: self.rng.unit(),
                texture,
                color,
            });
        }
        self.waves += 1;
    }

    /// Birds alive.
    pub fn count(&self) -> usize {
        self.birds.len()
    }

    /// One fixed step of bevymark's movement and collision.
    fn step(&mut self) {
        let half = TEXTURE_SIZE as f32 * SCALE * 0.5;
        let (right, bottom) = (WIDTH as f32 - half, HEIGHT as f32 - half);
        for bird in &mut self.birds {
            bird.position.x += bird.velocity.x * TIME_STEP;
            bird.position.y += bird.velocity.y * TIME_STEP;
            bird.velocity.y += GRAVITY * TIME_STEP;
            if (bird.velocity.x > 0.0 && bird.position.x > right)
                || (bird.velocity.x < 0.0 && bird.position.x < half)
            {
                bird.velocity.x = -bird.velocity.x;
            }
            if bird.velocity.y > 0.0 && bird.position.y > bottom {
                bird.velocity.y = -bird.velocity.y;
            }
            if bird.velocity.y < 0.0 && bird.position.y < half {
                bird.velocity.y = 0.0;
            }
        }
    }
}

/// A 256×256 bird stand-in: a disc in a distinct colour per index, transparent outside.
fn bird_texture(device: &GraphicsDevice, index: u32) -> xnagraph::Result<Texture2D> {
    let texture =
        Texture2D::with_format(device, TEXTURE_SIZE, TEXTURE_SIZE, false, SurfaceFormat::Color)?;
    let tint = Color::new(
        (255 - index * 17 % 256) as u8,
        (96 + index * 53 % 160) as u8,
        (index * 97 % 256) as u8,
        255,
    );
    let c = TEXTURE_SIZE as f32 / 2.0;
    let texels: Vec<Color> = (0..TEXTURE_SIZE * TEXTURE_SIZE)
        .map(|i| {
            let (x, y) = ((i % TEXTURE_SIZE) as f32 + 0.5 - c, (i / TEXTURE_SIZE) as f32 + 0.5 - c);
            if x * x + y * y <= c * c {
                tint
            } else {
                Color::TRANSPARENT
            }
        })
        .collect();
    texture.set_data(&texels)?;
    Ok(texture)
}

impl Scenario for Sprites {
    fn record(&mut self, device: &GraphicsDevice, _: u32) -> xnagraph::Result<()> {
        self.step();
        device.clear(Color::new(26, 26, 26, 255))?;
        let origin = Vector2::new(TEXTURE_SIZE as f32 / 2.0, TEXTURE_SIZE as f32 / 2.0);
        let scale = Vector2::new(SCALE, SCALE);
        self.batch.begin_with(self.options.sort, None, None, None, None, None)?;
        for bird in &self.birds {
            self.batch.draw_ex(
                &self.textures[bird.texture],
                bird.position,
                None,
                bird.color,
                0.0,
                origin,
                scale,
                SpriteEffects::NONE,
                bird.depth,
            )?;
        }
        self.batch.end()
    }
}
