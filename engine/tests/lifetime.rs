//! Targets live as long as the commands that name them; native objects are released only after
//! the GPU is done, and all of them by device teardown.

// Some tests here need the `capture` feature; without it what only they use is unused.
#![cfg_attr(not(feature = "capture"), allow(unused))]

mod common;

use common::*;
use xnagraph::{
    BasicEffect, BufferUsage, Color, DynamicVertexBuffer, IndexBuffer, IndexElementSize,
    PrimitiveType, Rectangle, RenderTarget2D, SetDataOptions, SpriteBatch, Vector3,
    VertexPositionColor, VertexType,
};

/// One frame of the short-lived target regression: an 8×8 target created, cleared red, sampled
/// into a longer-lived 16×16 target, and dropped before the frame is submitted.
fn draw_through_short_lived_target(
    device: &xnagraph::GraphicsDevice,
    dest: &RenderTarget2D,
    sb: &mut SpriteBatch,
) {
    let local = RenderTarget2D::new(device, 8, 8).unwrap();
    device.set_render_target(Some(&local)).unwrap();
    device.clear(Color::RED).unwrap();
    device.set_render_target(None).unwrap();

    device.set_render_target(Some(dest)).unwrap();
    device.clear(Color::BLUE).unwrap();
    sb.begin().unwrap();
    sb.draw_rect_source(
        &local,
        Rectangle::new(0, 0, 16, 16),
        Some(Rectangle::new(0, 0, 8, 8)),
        Color::WHITE,
    )
    .unwrap();
    sb.end().unwrap();
    device.set_render_target(None).unwrap();
}

#[test]
fn short_lived_target_is_sampled_after_it_was_dropped() {
    let _v = Validation::new();
    let device = device(16, 16);
    let dest = RenderTarget2D::new(&device, 16, 16).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    draw_through_short_lived_target(&device, &dest, &mut sb);
    device.present().unwrap();
    let px = read_target(&dest);
    assert_near(at(&px, 16, 8, 8), Color::RED, 2);
    assert_near(at(&px, 16, 2, 13), Color::RED, 2);

    let baseline = device.live_native_objects().unwrap().textures;
    let mut peak = 0;
    for _ in 0..120 {
        draw_through_short_lived_target(&device, &dest, &mut sb);
        device.present().unwrap();
        peak = peak.max(device.live_native_objects().unwrap().textures);
    }
    // Each frame's short-lived target lives while its frame is recorded (1), queued for the
    // render thread (2, the default frames in flight), held back there by the in-flight bound
    // (1) and in flight (2).
    assert!(
        peak <= baseline + 6,
        "live native textures must stay bounded (baseline {baseline}, peak {peak})"
    );
    let px = read_target(&dest);
    assert_near(at(&px, 16, 8, 8), Color::RED, 2);
}

#[test]
fn teardown_frees_every_native_object() {
    let _v = Validation::new();
    let device = device(16, 16);
    let dest = RenderTarget2D::new(&device, 16, 16).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    for _ in 0..3 {
        draw_through_short_lived_target(&device, &dest, &mut sb);
        device.present().unwrap();
    }
    drop(sb);
    drop(dest);
    // The batch left the last texture it drew in Textures[0], as XNA's does; the slot holds it
    // until it lets go.
    device.textures().set(0, None).unwrap();
    device.wait_idle().unwrap();
    let live = device.live_native_objects().unwrap();
    // Only the back buffer remains once every wrapper and queued command is gone.
    assert_eq!(live.textures, 1, "{live:?}");
    assert_eq!(live.awaiting_retirement, 0, "{live:?}");
    let diagnostics = device.diagnostics();
    assert!(diagnostics.live_native_objects() > 0, "the back buffer's images and views");
    drop(device);
    assert_eq!(diagnostics.live_native_objects(), 0, "device teardown frees everything");
}

/// Teardown with vertex and index buffers still alive (the dynamic one renamed every frame, so
/// with spare storage), geometry drawn from them and from user arrays, and a draw's frame still
/// queued: the device frees every native object.
#[test]
fn teardown_frees_buffers_their_spares_and_geometry_pipelines() {
    let _v = Validation::new();
    let device = device(16, 16);
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.vertex_color_enabled = true;
    effect.current_technique().passes()[0].apply().unwrap();
    let v = |x: f32, y: f32| VertexPositionColor {
        position: Vector3::new(x, y, 0.5),
        color: Color::new(200, 100, 50, 255),
    };
    let tri = [v(-1.0, 1.0), v(1.0, 1.0), v(-1.0, -1.0)];
    let vb = DynamicVertexBuffer::new(
        &device,
        &VertexPositionColor::vertex_declaration(),
        6,
        BufferUsage::WriteOnly,
    )
    .unwrap();
    let ib =
        IndexBuffer::new(&device, IndexElementSize::SixteenBits, 3, BufferUsage::None).unwrap();
    ib.set_data(&[0u16, 1, 2]).unwrap();
    device.set_vertex_buffer(Some(&vb)).unwrap();
    device.set_indices(Some(&ib)).unwrap();
    for _ in 0..3 {
        vb.set_data_with_options(0, &tri, 0, 3, 0, SetDataOptions::Discard).unwrap();
        device.draw_indexed_primitives(PrimitiveType::TriangleList, 0, 0, 3, 0, 1).unwrap();
        device.draw_user_primitives(PrimitiveType::LineStrip, &tri, 0, 2).unwrap();
        device.present().unwrap();
    }
    // The triangle covers the top-left half: drawn, so pipelines and buffers were used.
    device.draw_primitives(PrimitiveType::TriangleList, 0, 1).unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 16, 2, 2), Color::new(200, 100, 50, 255));
    let live = device.live_native_objects().unwrap();
    assert!(live.pipelines >= 2 && live.buffers >= 3, "{live:?}");
    vb.set_data_with_options(0, &tri, 0, 3, 0, SetDataOptions::Discard).unwrap();
    device.draw_primitives(PrimitiveType::TriangleList, 0, 1).unwrap();
    let diagnostics = device.diagnostics();
    drop(device);
    assert_eq!(diagnostics.live_native_objects(), 0, "device teardown frees everything");
    drop((vb, ib, effect));
}

#[test]
fn frames_in_flight_is_configurable_and_rendering_stays_correct() {
    let _v = Validation::new();
    for frames_in_flight in [1, 3] {
        let options = xnagraph::DeviceOptions { frames_in_flight, ..test_options() };
        let device = device_with_options(xnagraph::GraphicsProfile::HiDef, params(16, 16), options);
        let dest = RenderTarget2D::new(&device, 16, 16).unwrap();
        let mut sb = SpriteBatch::new(&device).unwrap();
        let baseline = device.live_native_objects().unwrap().textures;
        let mut peak = 0;
        for _ in 0..30 {
            draw_through_short_lived_target(&device, &dest, &mut sb);
            device.present().unwrap();
            peak = peak.max(device.live_native_objects().unwrap().textures);
        }
        // One frame-ring slot per frame in flight, each with its own vertex and uniform
        // buffers: the default 2 gives 4 buffers, so this tells 1 and 3 from it.
        let live = device.live_native_objects().unwrap();
        if on_sdlgpu() {
            // SDL_gpu cycles one vertex and one transfer buffer instead of a ring of slots.
            assert_eq!(live.buffers, 2, "{frames_in_flight}: {live:?}");
        } else {
            assert_eq!(live.buffers, 2 * frames_in_flight as usize, "{frames_in_flight}: {live:?}");
        }
        // The dropped targets of at most the frames in flight wait, plus those of the frames
        // queued for the render thread (as many), the one it holds back for the bound, and the
        // one being recorded.
        assert!(
            peak <= baseline + 2 + 2 * frames_in_flight as usize,
            "{frames_in_flight} in flight: baseline {baseline}, peak {peak}"
        );
        let px = read_target(&dest);
        assert_near(at(&px, 16, 8, 8), Color::RED, 2);
    }
}

/// `wait_idle` means the device holds nothing the game dropped, a capture running or not:
/// textures created, drawn and dropped in captured frames (each with a megabyte of noise for
/// the writer to hash and compress, so it lags behind the renderer) are freed by `wait_idle`,
/// while the capture is still running and once it has ended.
#[cfg(feature = "capture")]
#[test]
fn wait_idle_frees_textures_dropped_in_frames_the_capture_has_not_written() {
    let _v = Validation::new();
    let device = device(16, 16);
    let mut sb = SpriteBatch::new(&device).unwrap();
    device.wait_idle().unwrap();
    let baseline = device.live_native_objects().unwrap();
    let path =
        std::env::temp_dir().join(format!("xnagraph-lifetime-capture-{}.xgc", std::process::id()));
    device.capture_frames(&path, 0..=9).unwrap();
    let mut seed = 0x2545_f491_u32;
    let mut frame = |device: &xnagraph::GraphicsDevice| {
        let noise: Vec<u32> = (0..512 * 512)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                seed | 0xff00_0000
            })
            .collect();
        let texture = xnagraph::Texture2D::new(device, 512, 512).unwrap();
        texture.set_data(&noise).unwrap();
        sb.begin().unwrap();
        sb.draw_rect(&texture, Rectangle::new(0, 0, 16, 16), Color::WHITE).unwrap();
        sb.end().unwrap();
        drop(texture);
        device.present().unwrap();
    };
    for _ in 0..6 {
        frame(&device);
    }
    // The batch left the last frame's texture in Textures[0], as XNA's does; the slot holds it
    // until it lets go.
    device.textures().set(0, None).unwrap();
    device.wait_idle().unwrap();
    let live = device.live_native_objects().unwrap();
    assert_eq!(live.textures, baseline.textures, "while capturing: {live:?}");
    assert_eq!(live.awaiting_retirement, 0, "while capturing: {live:?}");

    // The capture's last frames: its writer finishes the file after the present of frame 9.
    for _ in 0..4 {
        frame(&device);
    }
    device.textures().set(0, None).unwrap();
    device.wait_idle().unwrap();
    let live = device.live_native_objects().unwrap();
    assert_eq!(live.textures, baseline.textures, "after the capture: {live:?}");
    assert_eq!(live.awaiting_retirement, 0, "after the capture: {live:?}");
    let summary = device.capture_result().expect("the capture finished").unwrap();
    assert_eq!(summary.frames, 10);
    let _ = std::fs::remove_file(&path);
}
