//! `GraphicsDevice::use_pipeline_cache`: a device keeps its pipelines in a file, the next
//! device of the same adapter starts from them, and a damaged file is ignored, never fatal;
//! SDL_gpu, which keeps no pipeline cache, refuses with `NotSupported`.

mod common;

use common::*;
use xnagraph::{BlendState, Color, SpriteBatch, SpriteSortMode, Vector2, XnaError};

/// A device that keeps its cache at `path` and draws a sprite with two blend states; returns
/// what `use_pipeline_cache` read, or `None` on a backend without a cache.
fn play(path: &std::path::Path) -> Option<usize> {
    let device = device(32, 32);
    let loaded = match device.use_pipeline_cache(path) {
        Ok(bytes) => bytes,
        Err(XnaError::NotSupported { message }) if on_sdlgpu() => {
            assert!(message.contains("pipeline cache"), "{message}");
            return None;
        }
        Err(e) => panic!("{e:?}"),
    };
    let texture = solid(&device, 2, 2, Color::RED);
    let mut batch = SpriteBatch::new(&device).unwrap();
    for blend in [BlendState::OPAQUE, BlendState::ADDITIVE] {
        device.clear(Color::BLACK).unwrap();
        batch.begin_with(SpriteSortMode::Deferred, Some(blend), None, None, None, None).unwrap();
        batch.draw(&texture, Vector2::new(3.0, 5.0), Color::WHITE).unwrap();
        batch.end().unwrap();
        device.present().unwrap();
    }
    device.wait_idle().unwrap();
    assert!(device.diagnostics().take_messages().is_empty());
    Some(loaded)
}

#[test]
fn a_device_starts_from_the_pipelines_the_last_one_kept_and_ignores_a_damaged_file() {
    let path =
        std::env::temp_dir().join(format!("xnagraph-engine-{}.pipelines", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let Some(first) = play(&path) else {
        println!("SKIPPED: SDL_gpu keeps no pipeline cache (NotSupported, checked)");
        return;
    };
    assert_eq!(first, 0, "no file yet");
    assert!(path.exists(), "the dropped device wrote its cache");
    assert!(play(&path).unwrap() > 0, "the next device read it");
    // Damaged: every byte after the header inverted. The device starts empty and works.
    let mut bytes = std::fs::read(&path).unwrap();
    for b in &mut bytes[40..] {
        *b = !*b;
    }
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(play(&path).unwrap(), 0, "a damaged file is ignored");
    assert!(play(&path).unwrap() > 0, "and replaced by a whole one");
    std::fs::remove_file(&path).unwrap();
}
