//! The profiler tests' scene: a validating W x H device, and a capture of every one of its
//! `FRAMES` frames.

use std::path::PathBuf;

use xnagraph::{
    BlendState, Color, DeviceOptions, GraphicsDevice, GraphicsProfile, PresentationParameters,
    Rectangle, RenderTarget2D, SpriteBatch, SpriteSortMode, Texture2D, Vector2,
};

use super::scratch;

/// The back buffer's width.
pub const W: i32 = 64;
/// The back buffer's height.
pub const H: i32 = 48;
/// The frames rendered and captured.
pub const FRAMES: u32 = 6;

/// A validating device with a W x H back buffer.
pub fn device() -> GraphicsDevice {
    let params = PresentationParameters {
        back_buffer_width: W,
        back_buffer_height: H,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions { validation: true, ..DeviceOptions::from_env() };
    GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap()
}

/// Frames of three plan nodes each: two sprites into the target "scene" (cleared each frame),
/// the scene drawn into the back buffer, the present.
pub fn capture(name: &str) -> PathBuf {
    capture_named(name, "scene")
}

/// [`capture`] with the target named `target`.
pub fn capture_named(name: &str, target: &str) -> PathBuf {
    let path = scratch(name);
    let device = device();
    device.capture_frames(&path, 0..=FRAMES as u64 - 1).unwrap();
    let scene = RenderTarget2D::new(&device, W / 2, H / 2).unwrap();
    scene.set_name(target);
    let ball = Texture2D::new(&device, 2, 2).unwrap();
    ball.set_data(&[Color::RED, Color::WHITE, Color::BLUE, Color::WHITE]).unwrap();
    let mut batch = SpriteBatch::new(&device).unwrap();
    for frame in 0..FRAMES {
        device.set_render_target(Some(&scene)).unwrap();
        device.clear(Color::new(10, 20, 30, 255)).unwrap();
        batch.begin().unwrap();
        batch.draw(&ball, Vector2::new(frame as f32, 3.0), Color::WHITE).unwrap();
        batch.draw(&ball, Vector2::new(9.0, frame as f32), Color::WHITE).unwrap();
        batch.end().unwrap();
        device.set_render_target(None).unwrap();
        device.clear(Color::BLACK).unwrap();
        batch
            .begin_with(SpriteSortMode::Deferred, Some(BlendState::OPAQUE), None, None, None, None)
            .unwrap();
        batch.draw_rect(&scene, Rectangle::new(5, 4, W - 8, H - 6), Color::WHITE).unwrap();
        batch.end().unwrap();
        device.present().unwrap();
    }
    device.wait_idle().unwrap();
    assert!(device.capture_result().expect("finished").is_ok());
    assert!(device.diagnostics().take_messages().is_empty());
    path
}
