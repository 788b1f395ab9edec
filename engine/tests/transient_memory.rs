//! `DeviceOptions::transient_aliasing`: the multisample and depth/stencil images of
//! `DiscardContents` targets drawn in different passes share memory, and the frame's pixels are
//! the same as with every image in memory of its own. Two 4x targets with depth (a reflection,
//! then the scene that samples it), each with two quads that only a working depth test orders,
//! are drawn over several frames and read back.

mod common;

use common::*;
use xnagraph::{
    BasicEffect, BlendState, ClearOptions, Color, CompareFunction, DepthFormat, DepthStencilState,
    DeviceOptions, GraphicsDevice, GraphicsProfile, PrimitiveType, RasterizerState, Rectangle,
    RenderTarget2D, RenderTargetUsage, SamplerState, SpriteBatch, SpriteSortMode, SurfaceFormat,
    Vector3, VertexPositionColor,
};

const W: i32 = 24;
const H: i32 = 16;
const REFLECTION_CLEAR: Color = Color::new(0, 0, 128, 255);
const REFLECTION_CLEAR_F: [f32; 4] = [0.0, 0.0, 128.0 / 255.0, 1.0];
const YELLOW: Color = Color::new(255, 255, 0, 255);
const CYAN: Color = Color::new(0, 255, 255, 255);
const RED: Color = Color::new(255, 0, 0, 255);
const BLUE: Color = Color::new(0, 0, 255, 255);

/// The two triangles of the rectangle `x0..x1` × `y0..y1` (pixels) at depth `z`.
fn quad(x0: f32, y0: f32, x1: f32, y1: f32, z: f32, color: Color) -> [VertexPositionColor; 6] {
    let v = |x: f32, y: f32| VertexPositionColor {
        position: Vector3::new(x / W as f32 * 2.0 - 1.0, 1.0 - y / H as f32 * 2.0, z),
        color,
    };
    [v(x0, y0), v(x1, y0), v(x1, y1), v(x0, y0), v(x1, y1), v(x0, y1)]
}

/// Draws `near` and then `far` behind it with a LessEqual depth test: where they overlap, only
/// a depth image that was cleared and kept through the pass shows `near`.
fn two_quads(
    device: &GraphicsDevice,
    effect: &BasicEffect,
    near: [VertexPositionColor; 6],
    far: [VertexPositionColor; 6],
) {
    device.set_blend_state(BlendState::OPAQUE).unwrap();
    device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
    let depth = DepthStencilState {
        depth_buffer_function: CompareFunction::LessEqual,
        ..DepthStencilState::DEFAULT
    };
    device.set_depth_stencil_state(depth).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    device.draw_user_primitives(PrimitiveType::TriangleList, &near, 0, 2).unwrap();
    device.draw_user_primitives(PrimitiveType::TriangleList, &far, 0, 2).unwrap();
}

/// A 4x `W`×`H` target with `Depth24Stencil8`.
fn target(device: &GraphicsDevice, usage: RenderTargetUsage) -> RenderTarget2D {
    let (format, depth) = (SurfaceFormat::Color, DepthFormat::Depth24Stencil8);
    RenderTarget2D::with_options(device, W, H, false, format, depth, 4, usage).unwrap()
}

/// Copies `source` 1:1 over the current `W`×`H` target.
fn copy(batch: &mut SpriteBatch, source: &RenderTarget2D) {
    let point = Some(SamplerState::POINT_CLAMP);
    let opaque = Some(BlendState::OPAQUE);
    batch.begin_with(SpriteSortMode::Deferred, opaque, point, None, None, None).unwrap();
    batch.draw_rect(source, Rectangle::new(0, 0, W, H), Color::WHITE).unwrap();
    batch.end().unwrap();
}

/// Draws `frames` frames of the reflection and the scene, and reads the last one back, with
/// the device's transient memory figures.
fn draw(aliasing: bool, frames: u32) -> (Vec<Color>, xnagraph::TransientMemory, i32) {
    draw_frames(aliasing, frames, true)
}

/// [`draw`]; unless `scene_samples_reflection`, the scene does not sample the reflection, so
/// nothing but the barrier of its first use orders its writes after the reflection's on the
/// bytes they share, and the back buffer shows the two side by side.
fn draw_frames(
    aliasing: bool,
    frames: u32,
    scene_samples_reflection: bool,
) -> (Vec<Color>, xnagraph::TransientMemory, i32) {
    let options = DeviceOptions { transient_aliasing: aliasing, ..test_options() };
    let device = device_with_options(GraphicsProfile::HiDef, params(W, H), options);
    let discard = RenderTargetUsage::DiscardContents;
    let (reflection, scene) = (target(&device, discard), target(&device, discard));
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.vertex_color_enabled = true;
    let mut batch = SpriteBatch::new(&device).unwrap();
    for _ in 0..frames {
        device.set_render_target(Some(&reflection)).unwrap();
        device.clear_with(ClearOptions::all(), REFLECTION_CLEAR_F, 1.0, 0).unwrap();
        two_quads(
            &device,
            &effect,
            quad(14.0, 2.0, 20.0, 8.0, 0.2, YELLOW),
            quad(17.0, 4.0, 23.0, 10.0, 0.6, CYAN),
        );
        device.set_render_target(Some(&scene)).unwrap();
        device.clear_with(ClearOptions::all(), [0.0, 0.4, 0.0, 1.0], 1.0, 0).unwrap();
        if scene_samples_reflection {
            copy(&mut batch, &reflection);
        }
        two_quads(
            &device,
            &effect,
            quad(2.0, 8.0, 8.0, 14.0, 0.2, RED),
            quad(5.0, 10.0, 11.0, 15.0, 0.6, BLUE),
        );
        device.set_render_target(None).unwrap();
        if scene_samples_reflection {
            copy(&mut batch, &scene);
        } else {
            side_by_side(&mut batch, &scene, &reflection);
        }
        device.present().unwrap();
    }
    let memory = device.transient_memory().expect("a live device");
    (read_back_buffer(&device), memory, scene.multi_sample_count())
}

/// The right half of `right` over the right half of the current target, the left half of `left`
/// over its left half.
fn side_by_side(batch: &mut SpriteBatch, left: &RenderTarget2D, right: &RenderTarget2D) {
    let point = Some(SamplerState::POINT_CLAMP);
    let opaque = Some(BlendState::OPAQUE);
    batch.begin_with(SpriteSortMode::Deferred, opaque, point, None, None, None).unwrap();
    let (half, full) = (Rectangle::new(0, 0, W / 2, H), Rectangle::new(W / 2, 0, W / 2, H));
    batch.draw_rect_source(right, full, Some(full), Color::WHITE).unwrap();
    batch.draw_rect_source(left, half, Some(half), Color::WHITE).unwrap();
    batch.end().unwrap();
}

#[test]
fn transient_images_of_two_passes_share_memory_with_the_same_pixels() {
    let _v = Validation::new();
    let (shared_pixels, shared, samples) = draw(true, 3);
    let (own_pixels, own, _) = draw(false, 3);
    for (x, y, want) in [
        (1, 1, REFLECTION_CLEAR),
        (15, 3, YELLOW),
        (18, 5, YELLOW),
        (21, 8, CYAN),
        (3, 9, RED),
        (6, 12, RED),
        (10, 13, BLUE),
    ] {
        assert_eq!(at(&shared_pixels, W, x, y), want, "pixel ({x}, {y}) with shared memory");
    }
    assert_eq!(shared_pixels, own_pixels, "sharing memory changes no pixel");
    if !multisampled_as_requested("transient_images_share_memory", samples, 4) {
        return;
    }
    assert_eq!(shared.images, 4, "two targets' samples and depth: {shared:?}");
    assert_eq!((own.images, own.unaliased_bytes, own.shared_bytes), (4, shared.unaliased_bytes, 0));
    if on_sdlgpu() {
        skipped("transient_images_share_memory", "SDL_gpu gives each image its own memory");
        assert_eq!(shared.shared_bytes, 0);
        return;
    }
    // The scene's samples and depth take the reflection's bytes: one target's worth.
    assert!(shared.shared_bytes < shared.unaliased_bytes, "{shared:?}");
    assert!(2 * shared.shared_bytes >= shared.unaliased_bytes, "{shared:?}");
    assert_eq!(shared.held_bytes(), shared.shared_bytes);
    assert_eq!(own.held_bytes(), own.unaliased_bytes);
}

#[test]
fn passes_sharing_memory_without_sampling_each_other_keep_their_pixels() {
    let _v = Validation::new();
    let (shared_pixels, shared, _) = draw_frames(true, 3, false);
    let (own_pixels, ..) = draw_frames(false, 3, false);
    // The scene's quads on the left, the reflection's on the right.
    for (x, y, want) in [
        (6, 12, RED),
        (10, 13, BLUE),
        (3, 3, Color::new(0, 102, 0, 255)),
        (15, 3, YELLOW),
        (21, 8, CYAN),
    ] {
        assert_eq!(at(&shared_pixels, W, x, y), want, "pixel ({x}, {y}) with shared memory");
    }
    assert_eq!(shared_pixels, own_pixels, "sharing memory changes no pixel");
    if !on_sdlgpu() && shared.images == 4 {
        assert!(shared.shared_bytes < shared.unaliased_bytes, "{shared:?}");
    }
}

#[test]
fn a_preserved_target_keeps_memory_of_its_own() {
    let _v = Validation::new();
    let device = device(W, H);
    let kept = target(&device, RenderTargetUsage::PreserveContents);
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.vertex_color_enabled = true;
    let mut batch = SpriteBatch::new(&device).unwrap();
    for frame in 0..2 {
        device.set_render_target(Some(&kept)).unwrap();
        if frame == 0 {
            device.clear_with(ClearOptions::all(), REFLECTION_CLEAR_F, 1.0, 0).unwrap();
            two_quads(
                &device,
                &effect,
                quad(2.0, 8.0, 8.0, 14.0, 0.2, RED),
                quad(14.0, 2.0, 20.0, 8.0, 0.2, YELLOW),
            );
        } else {
            // Behind what frame 0 drew: the depth test keeps frame 0's quads in front.
            two_quads(
                &device,
                &effect,
                quad(0.0, 0.0, W as f32, H as f32, 0.6, CYAN),
                quad(0.0, 0.0, 1.0, 1.0, 0.7, BLUE),
            );
        }
        device.set_render_target(None).unwrap();
        copy(&mut batch, &kept);
        device.present().unwrap();
    }
    let pixels = read_back_buffer(&device);
    assert_eq!(at(&pixels, W, 4, 10), RED, "frame 0's samples and depth survived");
    assert_eq!(at(&pixels, W, 16, 4), YELLOW);
    assert_eq!(at(&pixels, W, 22, 14), CYAN);
    let memory = device.transient_memory().expect("a live device");
    assert_eq!(memory.images, 0, "nothing of a preserved target is transient: {memory:?}");
}
