//! SpriteBatch's unit tests: placement checks, rotations applied at the flush, the texture
//! switch table. The tests that read the sprite memory of a GPU backend need the Vulkan one.

#![cfg_attr(not(feature = "vulkan"), allow(dead_code, unused_imports))]

use super::geometry::apply_rotations;
use super::*;
use crate::event::lock;
use crate::finite::all_finite;
use crate::math::sin_cos;
use crate::{GraphicsProfile, PresentationParameters};
use xnagraph_graph::SpriteInstance;

/// A sprite's instance as a draw computed it before rotations waited for the flush: the
/// sine and cosine at the draw, then [`instance`].
#[allow(clippy::too_many_arguments)]
fn per_draw(
    size: (f32, f32),
    position: Vector2,
    source: Option<Rectangle>,
    color: Color,
    rotation: f32,
    origin: Vector2,
    scale: Vector2,
    effects: SpriteEffects,
    depth: f32,
) -> SpriteInstance {
    let (source, sw, sh) = normalised_source(source, size.0, size.1);
    let (sin, cos) = if rotation == 0.0 { (0.0, 1.0) } else { sin_cos(rotation) };
    instance(&Sprite {
        source,
        destination: [position.x, position.y, scale.x * sw, scale.y * sh],
        offset: [origin.x * scale.x, origin.y * scale.y],
        sin,
        cos,
        depth,
        color: [color.r, color.g, color.b, color.a],
        effects: effects.bits() & 3,
        texture: 0,
    })
}

/// A device with a 64x64 back buffer (Vulkan: these tests read what the GPU backend's sprite
/// memory holds).
#[cfg(feature = "vulkan")]
fn device_64() -> GraphicsDevice {
    let params = PresentationParameters {
        back_buffer_width: 64,
        back_buffer_height: 64,
        ..Default::default()
    };
    GraphicsDevice::new(GraphicsProfile::HiDef, params).unwrap()
}

/// The sprites differing bit for bit from `expected`, by index.
fn differing(got: &[SpriteInstance], expected: &[SpriteInstance]) -> Vec<usize> {
    assert_eq!(got.len(), expected.len());
    let bits = |i: &SpriteInstance| bytemuck::bytes_of(i).to_vec();
    (0..got.len()).filter(|&i| bits(&got[i]) != bits(&expected[i])).collect()
}

/// Rotations applied at the flush give exactly the instances the per-draw path gave, for
/// random sprites (a quarter unrotated) in a small batch and in one of several blocks of
/// sines and cosines (a last block partly filled). The comparison catches a rotation dropped or
/// applied twice.
#[cfg(feature = "vulkan")]
#[test]
fn rotations_applied_at_the_flush_give_the_per_draw_instances() {
    let device = device_64();
    let texture = Texture2D::new(&device, 16, 8).unwrap();
    let mut batch = SpriteBatch::new(&device).unwrap();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut unit = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 40) as f32 / (1u64 << 24) as f32
    };
    for count in [3000, 65_659] {
        batch.begin().unwrap();
        let mut expected = Vec::with_capacity(count);
        for _ in 0..count {
            let position = Vector2::new(unit() * 2000.0 - 500.0, unit() * 1000.0 - 300.0);
            let rotation = if unit() < 0.25 { 0.0 } else { (unit() - 0.5) * 40.0 };
            let origin = Vector2::new(unit() * 16.0, unit() * 8.0 - 2.0);
            let scale = Vector2::new(unit() * 3.0 - 1.0, unit() * 2.0);
            let source = (unit() < 0.5)
                .then(|| Rectangle::new((unit() * 8.0) as i32, 1, (unit() * 9.0) as i32, 5));
            let effects = SpriteEffects::from_bits_retain((unit() * 4.0) as u8);
            let color = Color::new((unit() * 255.0) as u8, 7, 200, 255);
            let depth = unit();
            let args = (position, source, color, rotation, origin, scale, effects, depth);
            batch
                .draw_ex(&texture, args.0, args.1, args.2, args.3, args.4, args.5, args.6, args.7)
                .unwrap();
            let (w, h) = (texture.width() as f32, texture.height() as f32);
            expected.push(per_draw(
                (w, h),
                args.0,
                args.1,
                args.2,
                args.3,
                args.4,
                args.5,
                args.6,
                args.7,
            ));
        }
        let (queued, rotations) = (batch.instances.clone(), batch.rotations.clone());
        assert!(rotations.len() > count / 2, "{}", rotations.len());
        batch.apply_rotations();
        assert_eq!(differing(&batch.instances, &expected), Vec::<usize>::new(), "{count}");
        assert!(batch.rotations.is_empty());

        // A rotation dropped, or one applied twice, shows in the comparison.
        let at = rotations.len() / 2;
        let index = rotations[at].0 as usize;
        let mut dropped = rotations.clone();
        dropped.remove(at);
        let mut without = queued.clone();
        apply_rotations(&mut without, &dropped);
        assert_eq!(differing(&without, &expected), vec![index], "{count}");
        let mut twice = queued;
        apply_rotations(&mut twice, &rotations);
        apply_rotations(&mut twice, &rotations[at..=at]);
        assert_eq!(differing(&twice, &expected), vec![index], "{count}");
        batch.end().unwrap();
    }
}

/// Each sprite carries the batch's index of the texture it was drawn with, through the
/// texture-switch cache: 200 textures (more than its slots, so addresses share slots)
/// drawn in a random order, and a second batch in another order, which must not reuse
/// the first batch's indices.
#[cfg(feature = "vulkan")]
#[test]
fn sprites_carry_their_own_texture_index_through_the_switch_cache() {
    let device = device_64();
    let textures: Vec<Texture2D> =
        (0..200).map(|_| Texture2D::new(&device, 4, 4).unwrap()).collect();
    let mut batch = SpriteBatch::new(&device).unwrap();
    let mut seed = 7u64;
    for round in 0..2 {
        batch.begin().unwrap();
        let mut drawn = Vec::new();
        for _ in 0..5000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let pick = (seed >> 33) as usize % (textures.len() - round * 150);
            batch.draw(&textures[pick], Vector2::new(1.0, 2.0), Color::WHITE).unwrap();
            drawn.push(pick);
        }
        assert!(batch.textures.len() > RECENT_SLOTS || round == 1, "{}", batch.textures.len());
        for (instance, &pick) in batch.instances.iter().zip(&drawn) {
            let held = &batch.textures[instance.texture as usize].core;
            assert!(Arc::ptr_eq(held, &textures[pick].core), "round {round}");
        }
        batch.end().unwrap();
    }
}

/// The per-sprite check answers as the two general ones do, for every value class in every
/// position: zeros, ordinary values, the largest below the bound, the bound itself, the
/// largest finite value, the infinities and NaN.
#[test]
fn placement_ok_answers_as_the_general_checks() {
    let bound = 2.0f32.powi(124);
    let below = f32::from_bits(bound.to_bits() - 1);
    let classes = [
        0.0,
        -0.0,
        1.5,
        -7.0,
        below,
        -below,
        bound,
        -bound,
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
    ];
    for at in 0..8 {
        for &v in &classes {
            let mut values = [3.0f32; 8];
            values[at] = v;
            let placement: [f32; 6] = values[..6].try_into().unwrap();
            let expected = all_below_2_pow_124(&placement) && all_finite(&values[6..]);
            assert_eq!(placement_ok(&placement, values[6], values[7]), expected, "{v} at {at}");
        }
    }
}

/// Hands out host memory standing for mapped memory, keeping each one's read count.
struct CountingSource(std::sync::Mutex<Vec<std::sync::Arc<std::sync::atomic::AtomicUsize>>>);

impl xnagraph_graph::SpriteMemorySource for CountingSource {
    fn allocate(&self, capacity: usize) -> Option<Box<dyn xnagraph_graph::SpriteMemory>> {
        let idle = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let memory = xnagraph_graph::HostSpriteMemory::new(capacity, idle);
        self.0.lock().unwrap().push(memory.reads());
        Some(Box::new(memory))
    }
}

/// A frame's first Deferred batch writes mapped memory and hands it over; a second Deferred
/// batch and a sorted one write vectors (their sprites are copied after the first's), so
/// recording never reads mapped memory back; rotated sprites in it are rotated as drawn.
#[cfg(feature = "vulkan")]
#[test]
fn only_the_batch_that_opens_a_frame_writes_mapped_memory_and_none_is_read_back() {
    let device = device_64();
    let source = std::sync::Arc::new(CountingSource(Default::default()));
    {
        let mut rec = lock(&device.shared.rec);
        rec.sprite_memory = Some(source.clone());
        rec.note_frame_sprites(crate::device::shared::MAPPED_SPRITES_FROM);
    }
    let texture = Texture2D::new(&device, 4, 4).unwrap();
    // Draws and ends a batch; whether its arena was mapped and held rotations to apply at the
    // flush (which reads the arena) before it ended.
    let draw = |batch: &mut SpriteBatch, sort, count: usize, rotation: f32| {
        batch.begin_with(sort, None, None, None, None, None).unwrap();
        for i in 0..count {
            let at = Vector2::new((i % 60) as f32, (i / 60 % 60) as f32);
            let (o, s) = (Vector2::new(2.0, 2.0), Vector2::new(1.0, 1.0));
            let e = SpriteEffects::NONE;
            batch.draw_ex(&texture, at, None, Color::WHITE, rotation, o, s, e, 0.5).unwrap();
        }
        let queued = (batch.instances.is_mapped(), !batch.rotations.is_empty());
        batch.end().unwrap();
        queued
    };
    let (mut first, mut second, mut sorted) = (
        SpriteBatch::new(&device).unwrap(),
        SpriteBatch::new(&device).unwrap(),
        SpriteBatch::new(&device).unwrap(),
    );
    assert_eq!(draw(&mut first, SpriteSortMode::Deferred, 1000, 0.7), (true, false));
    assert_eq!(draw(&mut second, SpriteSortMode::Deferred, 300, 0.0), (false, false));
    assert_eq!(draw(&mut sorted, SpriteSortMode::BackToFront, 200, 0.3), (false, true));
    let made = source.0.lock().unwrap().clone();
    assert_eq!(made.len(), 1, "one mapped arena, the first batch's");
    let reads = made[0].load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(reads, 0, "mapped memory read back {reads} times while recording");
    let mut rec = lock(&device.shared.rec);
    let sprites = rec.builder.sprites_mut();
    assert!(sprites.is_mapped());
    assert_eq!(sprites.len(), 1500);
    let expected = per_draw(
        (4.0, 4.0),
        Vector2::new(0.0, 0.0),
        None,
        Color::WHITE,
        0.7,
        Vector2::new(2.0, 2.0),
        Vector2::new(1.0, 1.0),
        SpriteEffects::NONE,
        0.5,
    );
    assert_eq!(differing(&sprites[..1], &[expected]), Vec::<usize>::new(), "rotated as drawn");
}
