//! The sprites reference on the default adapter (lavapipe in CI) with Khronos' validation layer:
//! drawn from the instances the `sprites` stress scenario builds, its pixels equal the engine's
//! back buffer after the same frame, byte for byte (so the instances, texture slots, shaders,
//! sampler and blend all match), it raises no validation message, and it refuses what it cannot
//! draw.

use xnagraph::SpriteSortMode;
use xnagraph::{DeviceOptions, GraphicsDevice, GraphicsProfile, PresentationParameters};
use xnagraph_benches::ash_sprites::{AshSprites, TextureData};
use xnagraph_benches::stress::sprites::{bird_texels, SpriteOptions, Sprites, CLEAR};
use xnagraph_benches::stress::Scenario;

const WIDTH: i32 = 320;
const HEIGHT: i32 = 180;
/// Frames the birds move before the compared frame: enough for the two waves to spread over
/// the target, bouncing off its floor.
const FRAMES: u32 = 24;

/// A validating engine device with a small back buffer.
fn device() -> GraphicsDevice {
    let params = PresentationParameters {
        back_buffer_width: WIDTH,
        back_buffer_height: HEIGHT,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions { validation: true, ..DeviceOptions::from_env() };
    GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap()
}

fn options(textures: u32, mipmaps: bool, sort: SpriteSortMode) -> SpriteOptions {
    SpriteOptions { textures, sort, waves: 2, per_wave: 1000, seed: 7, mipmaps, burst: 0 }
}

/// Runs [`FRAMES`] frames of the scenario on the engine; its back buffer after the last, and
/// the scenario (standing where that frame drew it).
fn engine_frame(options: SpriteOptions) -> (Vec<[u8; 4]>, Sprites) {
    let device = device();
    let mut sprites = Sprites::new(&device, options).unwrap();
    for frame in 0..FRAMES {
        sprites.update(frame);
        sprites.record(&device, frame).unwrap();
        device.present().unwrap();
    }
    let count = (WIDTH * HEIGHT) as usize;
    let mut pixels = vec![xnagraph::Color::TRANSPARENT; count];
    device.get_back_buffer_data(None, &mut pixels, 0, count).unwrap();
    assert_eq!(device.diagnostics().take_messages(), Vec::<String>::new());
    (pixels.iter().map(|c| [c.r, c.g, c.b, c.a]).collect(), sprites)
}

fn clear() -> [f32; 4] {
    CLEAR.map(|c| f32::from(c) / 255.0)
}

/// The reference's frame for `sprites`' instances, or why it cannot draw them.
fn reference_frame(sprites: &Sprites) -> Result<Vec<[u8; 4]>, String> {
    let textures = sprites.texture_data();
    let mut reference = AshSprites::new(true, WIDTH as u32, HEIGHT as u32, &textures)?;
    let ns = reference.draw(&sprites.instances(), clear())?;
    assert!(ns > 0.0, "the draw was timed: {ns} ns");
    let pixels = reference.read_pixels()?;
    assert_eq!(reference.take_messages(), Vec::<String>::new());
    Ok(pixels)
}

/// The frame is not trivially equal: many pixels are drawn, in several colours (the waves'
/// tints over the texture), and some blend partly over the clear colour (the disc's edge).
fn assert_drawn(pixels: &[[u8; 4]]) {
    let background = CLEAR;
    let drawn = pixels.iter().filter(|&&p| p != background).count();
    assert!(drawn > pixels.len() / 20, "{drawn} of {} pixels drawn", pixels.len());
    let mut colours: Vec<[u8; 4]> = pixels.to_vec();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 8, "{} distinct colours", colours.len());
}

/// Counts the pixels that differ and shows the first, for a readable failure.
fn assert_same(engine: &[[u8; 4]], reference: &[[u8; 4]], what: &str) {
    assert_eq!(engine.len(), reference.len());
    let differ: Vec<usize> = (0..engine.len()).filter(|&i| engine[i] != reference[i]).collect();
    if let Some(&first) = differ.first() {
        let (x, y) = (first % WIDTH as usize, first / WIDTH as usize);
        panic!(
            "{what}: {} pixels differ, the first at ({x}, {y}): engine {:?}, reference {:?}",
            differ.len(),
            engine[first],
            reference[first]
        );
    }
}

#[test]
fn one_texture_without_mips_gives_the_engines_pixels() {
    let (engine, sprites) = engine_frame(options(1, false, SpriteSortMode::Deferred));
    assert_eq!(sprites.count(), 2000);
    assert_drawn(&engine);
    let reference = reference_frame(&sprites).expect("one texture draws on any adapter");
    assert_same(&engine, &reference, "1 texture");
}

#[test]
fn one_texture_with_mips_gives_the_engines_pixels() {
    let (engine, sprites) = engine_frame(options(1, true, SpriteSortMode::Deferred));
    assert_drawn(&engine);
    assert!(sprites.texture_data()[0].levels.len() == 9, "256 down to 1: nine levels");
    let reference = reference_frame(&sprites).expect("one texture draws on any adapter");
    assert_same(&engine, &reference, "1 texture with mips");
}

/// Twelve textures go through the indexing stage, which needs non-uniform indexing: where the
/// adapter has it, the pixels are the engine's (with and without mips, in call order and
/// sorted by texture); where it does not (lavapipe), the reference refuses, saying so, as the
/// engine falls back to a draw per texture run.
#[test]
fn twelve_textures_give_the_engines_pixels_or_are_refused_without_nonuniform_indexing() {
    for (mipmaps, sort) in [
        (false, SpriteSortMode::Deferred),
        (true, SpriteSortMode::Deferred),
        (false, SpriteSortMode::Texture),
    ] {
        let (engine, sprites) = engine_frame(options(12, mipmaps, sort));
        assert_drawn(&engine);
        match reference_frame(&sprites) {
            Ok(reference) => assert_same(&engine, &reference, &format!("12, {mipmaps} {sort:?}")),
            Err(why) => {
                assert!(why.contains("shaderSampledImageArrayNonUniformIndexing"), "{why}");
                return;
            }
        }
    }
}

/// Bird `i` takes texture `i % 12`, the batch's slot for it (textures are indexed in the
/// order of their first draw, and the first twelve birds draw them in order): the slots the
/// indexing stage reads, checked here on any adapter.
#[test]
fn the_instances_carry_the_batchs_texture_slots_in_the_sort_modes_order() {
    let device = device();
    let deferred = Sprites::new(&device, options(12, false, SpriteSortMode::Deferred)).unwrap();
    let slots: Vec<u32> = deferred.instances().iter().map(|i| i.texture).collect();
    assert_eq!(slots.len(), 2000);
    assert!(slots.iter().enumerate().all(|(i, &s)| s == i as u32 % 12), "{:?}", &slots[..24]);
    let sorted = Sprites::new(&device, options(12, false, SpriteSortMode::Texture)).unwrap();
    let slots: Vec<u32> = sorted.instances().iter().map(|i| i.texture).collect();
    assert!(slots.windows(2).all(|w| w[0] <= w[1]), "sorted by texture");
    assert_eq!(slots.iter().filter(|&&s| s == 11).count(), 2000 / 12);
}

#[test]
fn measure_times_the_draw_without_validation_messages() {
    let textures = [bird_texels(0, false)];
    let mut reference = AshSprites::new(true, 64, 48, &textures).unwrap();
    assert!(!reference.adapter.is_empty());
    let device = device();
    let sprites = Sprites::new(&device, options(1, false, SpriteSortMode::Deferred)).unwrap();
    let ns = reference.measure(&sprites.instances(), clear(), 3).unwrap();
    assert!(ns > 0.0, "{ns} ns");
    // Fewer instances than the vertex buffer holds, then more: it is reused, then grown.
    reference.draw(&sprites.instances()[..10], clear()).unwrap();
    let mut more = sprites.instances();
    more.extend(sprites.instances());
    reference.draw(&more, clear()).unwrap();
    assert_eq!(reference.read_pixels().unwrap().len(), 64 * 48);
    assert_eq!(reference.take_messages(), Vec::<String>::new());
}

#[test]
fn what_it_cannot_draw_is_refused_with_a_message() {
    let bird = bird_texels(0, false);
    let refused = |textures: &[TextureData]| match AshSprites::new(false, 32, 32, textures) {
        Ok(_) => panic!("{} textures were accepted", textures.len()),
        Err(why) => why,
    };
    assert!(refused(&[]).contains("1 to 16 textures"));
    assert!(refused(&vec![bird.clone(); 17]).contains("1 to 16 textures"));
    let short = TextureData { levels: vec![vec![[0; 4]; 5]], ..bird.clone() };
    assert!(refused(&[short]).contains("level 0: 5 texels for 256x256"));
    let too_many = TextureData { levels: vec![vec![[0; 4]; 1]; 10], width: 1, height: 1 };
    assert!(refused(&[too_many]).contains("1 to 1 levels"));
    let mut reference = AshSprites::new(true, 32, 32, &[bird]).unwrap();
    assert!(reference.read_pixels().unwrap_err().contains("nothing drawn"));
    reference.draw(&[], clear()).unwrap();
    assert!(reference.read_pixels().unwrap().iter().all(|&p| p == CLEAR), "a clear alone");
    assert_eq!(reference.take_messages(), Vec::<String>::new());
}
