//! `sprites`: the bevymark workload, as Bevy's `bevymark --benchmark` defines it.
//!
//! Waves of birds are added up front (`--waves` × `--per-wave`); each starts at the top-left
//! corner with a random horizontal velocity, falls under gravity and bounces off the edges of
//! a 1920×1080 back buffer, advanced by a fixed 1/60 s step. Each is a 256×256 texture drawn at
//! scale 0.15 (about 38 px), tinted with its wave's colour. With 12 textures the birds take
//! them round-robin, so consecutive sprites never share one (every sprite a batch break in
//! `Deferred` order). The sort mode is the `SpriteBatch`'s; back-to-front sorts by a layer
//! depth each bird draws at spawn.
//!
//! The birds are kept as columns (positions, velocities, tints, depths, textures), so the
//! movement step streams through just the positions and velocities, and the collision tests
//! are selects rather than branches: the per-bird work is bevymark's, no more. The step is the
//! scenario's [`Scenario::update`], timed as `update`; `record` is the clear and the
//! `SpriteBatch` from `begin` to `end` alone.

use xnagraph::{
    Color, GraphicsDevice, SpriteBatch, SpriteEffects, SpriteSortMode, SurfaceFormat, Texture2D,
    Vector2,
};

use xnagraph_graph::SpriteInstance;

use super::timing::StageTimes;
use super::{Rng, Scenario, TIME_STEP};
use crate::ash_sprites::TextureData;
use crate::{json, number, string};

/// Bevymark's constants: gravity (px/s², down), the largest initial horizontal speed (px/s),
/// the bird texture's edge and its drawn scale.
const GRAVITY: f32 = 9.8 * 100.0;
const MAX_VELOCITY: f32 = 750.0;
const TEXTURE_SIZE: i32 = 256;
const SCALE: f32 = 0.15;

/// The colour each frame clears the back buffer to, R G B A.
pub const CLEAR: [u8; 4] = [26, 26, 26, 255];

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
    /// Give each texture a full mip chain (each level the 2x2 box average of the one above),
    /// so a bird minified to about 38 px samples a level near its size instead of the
    /// 256x256 one. Off by default, as in bevymark.
    pub mipmaps: bool,
    /// Waves added at once in the update of frame [`BURST_FRAME`] (0: none): a sudden spike,
    /// whose frame outgrows the sprite memory made for the frames before it.
    pub burst: u32,
}

/// The frame whose update adds [`SpriteOptions::burst`] waves.
pub const BURST_FRAME: u32 = 10;

/// The birds, one column per attribute (bird `i` is entry `i` of each).
#[derive(Default)]
struct Birds {
    x: Vec<f32>,
    y: Vec<f32>,
    vx: Vec<f32>,
    vy: Vec<f32>,
    depth: Vec<f32>,
    texture: Vec<u16>,
    color: Vec<Color>,
}

impl Birds {
    fn reserve(&mut self, n: usize) {
        self.x.reserve(n);
        self.y.reserve(n);
        self.vx.reserve(n);
        self.vy.reserve(n);
        self.depth.reserve(n);
        self.texture.reserve(n);
        self.color.reserve(n);
    }
}

/// The bevymark scenario.
pub struct Sprites {
    options: SpriteOptions,
    textures: Vec<Texture2D>,
    birds: Birds,
    rng: Rng,
    batch: SpriteBatch,
    waves: u32,
}

impl Sprites {
    /// Creates the textures and the first `options.waves` waves.
    pub fn new(device: &GraphicsDevice, options: SpriteOptions) -> xnagraph::Result<Sprites> {
        let textures = (0..options.textures.max(1))
            .map(|i| bird_texture(device, i, options.mipmaps))
            .collect::<xnagraph::Result<Vec<_>>>()?;
        let mut sprites = Sprites {
            options,
            textures,
            birds: Birds::default(),
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
        let birds = &mut self.birds;
        birds.reserve(count as usize);
        for _ in 0..count {
            let vx = self.rng.unit() * MAX_VELOCITY - MAX_VELOCITY * 0.5;
            birds.texture.push((birds.x.len() % self.textures.len()) as u16);
            birds.x.push(half);
            birds.y.push(half);
            birds.vx.push(vx);
            birds.vy.push(0.0);
            birds.depth.push(self.rng.unit());
            birds.color.push(color);
        }
        self.waves += 1;
    }

    /// Birds alive.
    pub fn count(&self) -> usize {
        self.birds.x.len()
    }

    /// One fixed step of bevymark's movement and collision: each bird moves by its velocity,
    /// falls under gravity, turns back at the side walls, bounces off the floor and stops
    /// rising at the ceiling. Selects, not branches, so the loop vectorises.
    fn step(&mut self) {
        let half = TEXTURE_SIZE as f32 * SCALE * 0.5;
        let (right, bottom) = (WIDTH as f32 - half, HEIGHT as f32 - half);
        let Birds { x, y, vx, vy, .. } = &mut self.birds;
        let moving = x.iter_mut().zip(y.iter_mut()).zip(vx.iter_mut().zip(vy.iter_mut()));
        for ((x, y), (vx, vy)) in moving {
            *x += *vx * TIME_STEP;
            *y += *vy * TIME_STEP;
            let fall = *vy + GRAVITY * TIME_STEP;
            let wall = (*vx > 0.0) & (*x > right) | (*vx < 0.0) & (*x < half);
            *vx = if wall { -*vx } else { *vx };
            let floor = (fall > 0.0) & (*y > bottom);
            let ceiling = (fall < 0.0) & (*y < half);
            *vy = if floor {
                -fall
            } else if ceiling {
                0.0
            } else {
                fall
            };
        }
    }
}

/// A 256×256 bird stand-in: a disc in a distinct colour per index, transparent outside; with
/// `mipmaps`, a full chain whose every level is the 2x2 box average of the level above.
fn bird_texture(device: &GraphicsDevice, index: u32, mipmaps: bool) -> xnagraph::Result<Texture2D> {
    let texture =
        Texture2D::with_format(device, TEXTURE_SIZE, TEXTURE_SIZE, mipmaps, SurfaceFormat::Color)?;
    let data = bird_texels(index, mipmaps);
    for (level, texels) in data.levels.iter().enumerate() {
        let colors: Vec<Color> =
            texels.iter().map(|&[r, g, b, a]| Color::new(r, g, b, a)).collect();
        texture.set_data_region(level as i32, None, &colors, 0, colors.len())?;
    }
    Ok(texture)
}

/// The texels of bird texture `index` (the disc the scenario draws): level 0, then with
/// `mipmaps` every smaller level down to 1x1, each the 2x2 box average (rounded) of the one
/// above.
pub fn bird_texels(index: u32, mipmaps: bool) -> TextureData {
    let tint = [
        (255 - index * 17 % 256) as u8,
        (96 + index * 53 % 160) as u8,
        (index * 97 % 256) as u8,
        255,
    ];
    let c = TEXTURE_SIZE as f32 / 2.0;
    let mut texels: Vec<[u8; 4]> = (0..TEXTURE_SIZE * TEXTURE_SIZE)
        .map(|i| {
            let (x, y) = ((i % TEXTURE_SIZE) as f32 + 0.5 - c, (i / TEXTURE_SIZE) as f32 + 0.5 - c);
            if x * x + y * y <= c * c {
                tint
            } else {
                [0; 4]
            }
        })
        .collect();
    let mut levels = Vec::new();
    let mut size = TEXTURE_SIZE as usize;
    while mipmaps && size > 1 {
        let half = size / 2;
        let next = (0..half * half)
            .map(|i| {
                let (x, y) = (i % half * 2, i / half * 2);
                let quad = [texels[y * size + x], texels[y * size + x + 1]]
                    .into_iter()
                    .chain([texels[(y + 1) * size + x], texels[(y + 1) * size + x + 1]]);
                let mut sum = [0u32; 4];
                for t in quad {
                    for (s, v) in sum.iter_mut().zip(t) {
                        *s += u32::from(v);
                    }
                }
                sum.map(|s| ((s + 2) / 4) as u8)
            })
            .collect();
        levels.push(std::mem::replace(&mut texels, next));
        size = half;
    }
    levels.push(texels);
    let edge = TEXTURE_SIZE as u32;
    TextureData { width: edge, height: edge, levels }
}

impl Sprites {
    /// The texels of the scenario's textures, in the order the birds take them.
    pub fn texture_data(&self) -> Vec<TextureData> {
        let count = self.textures.len() as u32;
        (0..count).map(|i| bird_texels(i, self.options.mipmaps)).collect()
    }

    /// The sprite instances of the frame [`Scenario::record`] draws from the birds as they
    /// stand, as `SpriteBatch` builds them for its `draw_ex` calls (no source rectangle, no
    /// rotation, the texture's centre as origin, scale 0.15, no flips): the same float
    /// operations in the same order, so the same bytes. Each sprite's texture slot is the
    /// batch's index of its texture, textures being indexed in the order of their first draw
    /// (bird `i` takes texture `i % textures`, so slot and texture index agree), and the
    /// instances come in the sort mode's order (stable, as the batch sorts them).
    pub fn instances(&self) -> Vec<SpriteInstance> {
        let size = TEXTURE_SIZE as f32;
        // `draw_ex`: the destination's size is the scale times the source's (the whole
        // texture), the origin's offset the origin times the scale.
        let (dw, dh) = (SCALE * size, SCALE * size);
        let offset = [size / 2.0 * SCALE, size / 2.0 * SCALE];
        // `instance`, with the sine and cosine of rotation 0.
        let (ox, oy) = (-offset[0], -offset[1]);
        let (sin, cos) = (0.0f32, 1.0f32);
        let birds = &self.birds;
        let columns = birds.x.iter().zip(&birds.y).zip(&birds.color).zip(&birds.depth);
        let mut out: Vec<SpriteInstance> = columns
            .zip(&birds.texture)
            .map(|((((&dx, &dy), color), &depth), &texture)| SpriteInstance {
                origin: [dx + cos * ox - sin * oy, dy + sin * ox + cos * oy],
                right: [cos * dw, sin * dw],
                down: [-sin * dh, cos * dh],
                texcoords: [0.0, 0.0, 0.0 + 1.0, 0.0 + 1.0],
                depth,
                color: [color.r, color.g, color.b, color.a],
                texture: u32::from(texture),
            })
            .collect();
        match self.options.sort {
            SpriteSortMode::Texture => out.sort_by_key(|i| i.texture),
            SpriteSortMode::BackToFront => out.sort_by(|a, b| b.depth.total_cmp(&a.depth)),
            SpriteSortMode::FrontToBack => out.sort_by(|a, b| a.depth.total_cmp(&b.depth)),
            SpriteSortMode::Deferred | SpriteSortMode::Immediate => {}
        }
        out
    }
}

impl Scenario for Sprites {
    /// Bevymark's movement step: the game's update, timed apart from the recording.
    fn update(&mut self, frame: u32) {
        if frame == BURST_FRAME {
            for _ in 0..self.options.burst {
                self.add_wave(self.options.per_wave);
            }
        }
        self.step();
    }

    fn record(&mut self, device: &GraphicsDevice, _: u32) -> xnagraph::Result<()> {
        let [r, g, b, a] = CLEAR;
        device.clear(Color::new(r, g, b, a))?;
        let origin = Vector2::new(TEXTURE_SIZE as f32 / 2.0, TEXTURE_SIZE as f32 / 2.0);
        let scale = Vector2::new(SCALE, SCALE);
        self.batch.begin_with(self.options.sort, None, None, None, None, None)?;
        let birds = &self.birds;
        let columns = birds.x.iter().zip(&birds.y).zip(&birds.color).zip(&birds.depth);
        for ((((&x, &y), &color), &depth), &texture) in columns.zip(&birds.texture) {
            self.batch.draw_ex(
                &self.textures[texture as usize],
                Vector2::new(x, y),
                None,
                color,
                0.0,
                origin,
                scale,
                SpriteEffects::NONE,
                depth,
            )?;
        }
        self.batch.end()
    }
}

/// Adds a wave every `RAMP_FRAMES` frames until the median of a step's last frames passes
/// 16.7 ms; reports the sprite count of the last step within it.
/// The stage figures go to `times`, the lines to `out`.
pub fn ramp(
    device: &GraphicsDevice,
    options: SpriteOptions,
    times: &StageTimes,
    out: &mut dyn FnMut(String),
) -> xnagraph::Result<()> {
    const RAMP_FRAMES: u32 = 8;
    const MAX_SPRITES: usize = 20_000_000;
    let mut scenario = Sprites::new(device, SpriteOptions { waves: 1, burst: 0, ..options })?;
    let mut within = 0;
    loop {
        let mut times = super::run(device, &mut scenario, RAMP_FRAMES, times, &mut (), out)?;
        let mut frame: Vec<f64> =
            times.drain(RAMP_FRAMES as usize / 2..).map(|f| f.frame.as_secs_f64() * 1e3).collect();
        let median = super::percentile(&mut frame, 50.0);
        out(json(&[
            ("scenario", string("sprites-ramp")),
            ("sprites", scenario.count().into()),
            ("frame_ms_p50", number(median)),
        ]));
        if median > 16.7 || scenario.count() >= MAX_SPRITES {
            break;
        }
        within = scenario.count();
        scenario.add_wave(options.per_wave);
    }
    out(json(&[
        ("scenario", string("sprites-ramp")),
        ("summary", true.into()),
        ("adapter", string(device.adapter_name())),
        ("sprites_within_16_7_ms", within.into()),
    ]));
    Ok(())
}
