//! Dropped render targets' native images are pooled once the GPU is done with them and reused
//! by a new target of the same description; the pool is trimmed after unused frames.

mod common;

use common::*;
use xnagraph::{
    Color, DepthFormat, DeviceOptions, GraphicsDevice, GraphicsProfile, Rectangle, RenderTarget2D,
    RenderTargetUsage, SpriteBatch, SurfaceFormat,
};

fn synchronous_device(target_pool_frames: u32, frames_in_flight: u32) -> GraphicsDevice {
    let options = DeviceOptions {
        render_thread: false,
        target_pool_frames,
        frames_in_flight,
        ..test_options()
    };
    device_with_options(GraphicsProfile::HiDef, params(16, 16), options)
}

fn allocated(device: &GraphicsDevice) -> u64 {
    device.live_native_objects().unwrap().images_allocated
}

fn pooled(device: &GraphicsDevice) -> usize {
    device.live_native_objects().unwrap().pooled_images
}

/// Clears `local` to `color` and draws it into column `slot` (3 pixels wide) of `dest`.
fn draw_through(
    device: &GraphicsDevice,
    local: &RenderTarget2D,
    dest: &RenderTarget2D,
    sb: &mut SpriteBatch,
    slot: i32,
    color: Color,
) {
    device.set_render_target(Some(local)).unwrap();
    device.clear(color).unwrap();
    device.set_render_target(Some(dest)).unwrap();
    sb.begin().unwrap();
    sb.draw_rect(local, Rectangle::new(slot * 3, 0, 3, 16), Color::WHITE).unwrap();
    sb.end().unwrap();
    // The batch leaves `local` in Textures[0], as XNA's does, and the slot would hold it past
    // the drops these tests make.
    device.textures().set(0, None).unwrap();
    device.set_render_target(None).unwrap();
}

fn preserving(device: &GraphicsDevice) -> RenderTarget2D {
    let (format, usage) = (SurfaceFormat::Color, RenderTargetUsage::PreserveContents);
    RenderTarget2D::with_options(device, 16, 16, false, format, DepthFormat::None, 0, usage)
        .unwrap()
}

#[test]
fn a_dropped_target_is_reused_only_after_its_last_submission_completed() {
    if skip_on_sdlgpu(
        "a_dropped_target_is_reused_only_after_its_last_submission_completed",
        "the target pool is the Vulkan backend's",
    ) {
        return;
    }
    let _v = Validation::new();
    // Three frames in flight: a submission waits only for the one three before it, so a
    // target's last submission can still be running two submissions after it was dropped.
    let device = synchronous_device(60, 3);
    let dest = preserving(&device);
    let mut sb = SpriteBatch::new(&device).unwrap();
    let colors = [
        Color::RED,
        Color::new(0, 255, 0, 255),
        Color::BLUE,
        Color::new(255, 255, 0, 255),
        Color::new(0, 255, 255, 255),
    ];
    let mut allocations = Vec::new();
    let mut pooled_before = Vec::new();
    for (slot, color) in colors.iter().enumerate() {
        pooled_before.push(pooled(&device));
        let before = allocated(&device);
        let target = RenderTarget2D::new(&device, 8, 8).unwrap();
        allocations.push(allocated(&device) - before);
        draw_through(&device, &target, &dest, &mut sb, slot as i32, *color);
        // Dropped before its frame is submitted: the frame holds it until then.
        drop(target);
        device.present().unwrap();
    }
    // Submission n is waited for by submission n + 3 only, and a target dropped in submission
    // n reaches the retirement queue at submission n + 1: the first target is pooled by the
    // fourth submission (which waited for the first) and reused by the fifth target.
    assert_eq!(pooled_before, [0, 0, 0, 0, 1], "pooled only once its submission completed");
    assert_eq!(allocations, [1, 1, 1, 1, 0], "the fifth target takes the first one's image");

    let px = read_target(&dest);
    for (slot, color) in colors.iter().enumerate() {
        assert_eq!(at(&px, 16, slot as i32 * 3 + 1, 5), *color, "column {slot}");
    }
}

#[test]
fn only_a_target_of_the_same_description_takes_a_pooled_one() {
    if skip_on_sdlgpu(
        "only_a_target_of_the_same_description_takes_a_pooled_one",
        "the target pool is the Vulkan backend's",
    ) {
        return;
    }
    let _v = Validation::new();
    let device = synchronous_device(60, 2);
    let dest = preserving(&device);
    let mut sb = SpriteBatch::new(&device).unwrap();
    let a = RenderTarget2D::new(&device, 8, 8).unwrap();
    draw_through(&device, &a, &dest, &mut sb, 0, Color::RED);
    drop(a);
    device.present().unwrap();
    // Two more submissions: the second waits for the first, which used A.
    for _ in 0..2 {
        device.present().unwrap();
    }
    assert_eq!(pooled(&device), 1);

    let before = allocated(&device);
    let others = [
        RenderTarget2D::new(&device, 8, 4).unwrap(),
        RenderTarget2D::with_options(
            &device,
            8,
            8,
            true,
            SurfaceFormat::Color,
            DepthFormat::None,
            0,
            RenderTargetUsage::DiscardContents,
        )
        .unwrap(),
        RenderTarget2D::with_options(
            &device,
            8,
            8,
            false,
            SurfaceFormat::Color,
            DepthFormat::Depth24Stencil8,
            0,
            RenderTargetUsage::DiscardContents,
        )
        .unwrap(),
    ];
    // The third adds a depth image to its colour image.
    assert_eq!(allocated(&device), before + 4, "other descriptions allocate");
    assert_eq!(pooled(&device), 1);
    let same = RenderTarget2D::new(&device, 8, 8).unwrap();
    assert_eq!(allocated(&device), before + 4, "the same description reuses");
    assert_eq!(pooled(&device), 0);

    draw_through(&device, &same, &dest, &mut sb, 1, Color::BLUE);
    device.present().unwrap();
    let px = read_target(&dest);
    assert_eq!(at(&px, 16, 1, 5), Color::RED);
    assert_eq!(at(&px, 16, 4, 5), Color::BLUE);
    drop(others);
}

#[test]
fn pooled_targets_are_destroyed_after_the_keep_period() {
    if skip_on_sdlgpu(
        "pooled_targets_are_destroyed_after_the_keep_period",
        "the target pool is the Vulkan backend's",
    ) {
        return;
    }
    let _v = Validation::new();
    let device = synchronous_device(3, 2);
    let dest = preserving(&device);
    let mut sb = SpriteBatch::new(&device).unwrap();
    let a = RenderTarget2D::new(&device, 8, 8).unwrap();
    draw_through(&device, &a, &dest, &mut sb, 0, Color::RED);
    drop(a);
    device.present().unwrap();
    device.present().unwrap();
    assert_eq!(pooled(&device), 0, "A waits for its submission");
    device.present().unwrap();
    assert_eq!(pooled(&device), 1);
    let diagnostics = device.diagnostics();
    let live = diagnostics.live_native_objects();

    let frame = || {
        device.clear(Color::BLACK).unwrap();
        device.present().unwrap();
    };
    for i in 0..3 {
        frame();
        assert_eq!(pooled(&device), 1, "kept {i} frames after pooling");
    }
    frame();
    frame();
    assert_eq!(pooled(&device), 0, "trimmed after 3 unused submissions");
    // Its image and its views are destroyed.
    assert_eq!(diagnostics.live_native_objects(), live - 3);
}

#[test]
fn wait_idle_destroys_the_pooled_targets() {
    if skip_on_sdlgpu(
        "wait_idle_destroys_the_pooled_targets",
        "the target pool is the Vulkan backend's",
    ) {
        return;
    }
    let _v = Validation::new();
    let device = synchronous_device(60, 2);
    let dest = preserving(&device);
    let mut sb = SpriteBatch::new(&device).unwrap();
    let a = RenderTarget2D::new(&device, 8, 8).unwrap();
    draw_through(&device, &a, &dest, &mut sb, 0, Color::RED);
    drop(a);
    for _ in 0..3 {
        device.present().unwrap();
    }
    assert_eq!(pooled(&device), 1);
    let diagnostics = device.diagnostics();
    let live = diagnostics.live_native_objects();
    let buffers = device.live_native_objects().unwrap().buffers;
    device.wait_idle().unwrap();
    assert_eq!(pooled(&device), 0, "wait_idle frees everything whose last user has gone");
    // It also frees the idle frame ring's buffers.
    let buffers_freed = buffers - device.live_native_objects().unwrap().buffers;
    assert_eq!(
        diagnostics.live_native_objects(),
        live - 3 - buffers_freed,
        "the pooled image and its two views"
    );
}

#[test]
fn churning_targets_allocate_no_image_after_warm_up() {
    if skip_on_sdlgpu(
        "churning_targets_allocate_no_image_after_warm_up",
        "the target pool is the Vulkan backend's",
    ) {
        return;
    }
    let _v = Validation::new();
    let device = device(16, 16);
    let dest = preserving(&device);
    let mut sb = SpriteBatch::new(&device).unwrap();
    let mut churn = |frame: usize| {
        let local = RenderTarget2D::new(&device, 8, 8).unwrap();
        let color = Color::new((frame * 40 % 256) as u8, 255, (frame * 90 % 256) as u8, 255);
        draw_through(&device, &local, &dest, &mut sb, (frame % 4) as i32, color);
        drop(local);
        device.present().unwrap();
        color
    };
    for frame in 0..20 {
        churn(frame);
    }
    let before = allocated(&device);
    let mut last = Vec::new();
    for frame in 20..120 {
        last.push(churn(frame));
    }
    assert_eq!(allocated(&device), before, "every short-lived target came from the pool");
    let px = read_target(&dest);
    for (i, color) in last.iter().rev().take(4).enumerate() {
        let slot = (119 - i) % 4;
        assert_eq!(at(&px, 16, slot as i32 * 3 + 1, 5), *color, "column {slot}");
    }
}
