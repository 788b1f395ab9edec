//! A capture's depth/stencil snapshot on each backend: where the backend reads depth back
//! (`Capabilities::depth_readback`: Vulkan), the snapshot holds a preserved target's depth and
//! a replay of a frame that draws over it without clearing runs; where it cannot (SDL_gpu), the
//! snapshot lacks it and the replay is refused naming the frame, the texture and the image.

mod common;

use common::{device, Validation};
use xnagraph::{
    BasicEffect, Color, DepthFormat, DepthStencilState, PrimitiveType, RenderTarget2D,
    RenderTargetUsage, SurfaceFormat, Vector3, VertexPositionColor,
};
use xnagraph_graph::capture::replay::Replayer;
use xnagraph_graph::capture::Capture;
use xnagraph_graph::null::{NullBackend, NullConfig};

#[test]
fn a_preserved_depth_buffer_is_in_the_snapshot_exactly_where_the_backend_reads_depth_back() {
    let _v = Validation::new();
    let path =
        std::env::temp_dir().join(format!("xnagraph-capture-depth-{}.xgc", std::process::id()));
    let device = device(16, 16);
    let target = RenderTarget2D::with_options(
        &device,
        8,
        8,
        false,
        SurfaceFormat::Color,
        DepthFormat::Depth24Stencil8,
        0,
        RenderTargetUsage::PreserveContents,
    )
    .unwrap();
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.vertex_color_enabled = true;
    device.capture_frames(&path, 1..=1).unwrap();
    for frame in 0..2 {
        device.set_render_target(Some(&target)).unwrap();
        if frame == 0 {
            device.clear(Color::BLACK).unwrap();
        }
        device.set_depth_stencil_state(DepthStencilState::DEFAULT).unwrap();
        effect.current_technique().passes()[0].apply().unwrap();
        let v = |x: f32, y: f32| VertexPositionColor {
            position: Vector3::new(x, y, 0.2 + 0.3 * frame as f32),
            color: Color::new(200, 40 * frame as u8, 30, 255),
        };
        let strip = [v(-1.0, 1.0), v(0.5, 1.0), v(-1.0, -0.5), v(0.5, -0.5)];
        device.draw_user_primitives(PrimitiveType::TriangleStrip, &strip, 0, 2).unwrap();
        device.set_render_target(None).unwrap();
        device.present().unwrap();
    }
    device.capture_result().expect("the capture finished").unwrap();
    let capture = Capture::open(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let reads_depth = device.capabilities().depth_readback;
    assert_eq!(capture.depth_snapshot.len(), usize::from(reads_depth));
    // The replay's refusal depends on the file alone: the null backend runs it.
    let mut backend = NullBackend::new(NullConfig::default());
    let mut replayer = Replayer::new(&mut backend, &capture).unwrap();
    let replayed = replayer.replay_frame(&mut backend, &capture, &capture.frames[0]);
    if reads_depth {
        replayed.expect("the snapshot's depth is restored before the frame loads it");
    } else {
        let e = replayed.expect_err("the frame loads depth the file lacks").to_string();
        assert!(e.contains("frame 1 uses the depth/stencil image of texture"), "{e}");
    }
}
