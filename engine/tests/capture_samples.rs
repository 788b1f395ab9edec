//! A capture's sample snapshot on each backend: where the backend reads samples back
//! (`Capabilities::sample_readback`: Vulkan), the snapshot holds every sample of a preserved
//! multisampled target and a replay of a frame that draws over them without clearing runs;
//! where it cannot (SDL_gpu, which cannot sample a multisampled texture), the snapshot lacks
//! them and the replay is refused naming the frame, the texture and the image.

mod common;

use common::{device, Validation};
use xnagraph::{
    BasicEffect, Color, DepthFormat, PrimitiveType, RasterizerState, RenderTarget2D,
    RenderTargetUsage, SurfaceFormat, Vector3, VertexPositionColor,
};
use xnagraph_graph::capture::replay::Replayer;
use xnagraph_graph::capture::Capture;
use xnagraph_graph::null::{NullBackend, NullConfig};

#[test]
fn a_preserved_multisampled_target_is_in_the_snapshot_exactly_where_the_backend_reads_samples() {
    let _v = Validation::new();
    let path =
        std::env::temp_dir().join(format!("xnagraph-capture-samples-{}.xgc", std::process::id()));
    let device = device(16, 16);
    let target = RenderTarget2D::with_options(
        &device,
        8,
        8,
        false,
        SurfaceFormat::Color,
        DepthFormat::None,
        4,
        RenderTargetUsage::PreserveContents,
    )
    .unwrap();
    assert_eq!(target.multi_sample_count(), 4, "the device offers 4 samples");
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.vertex_color_enabled = true;
    device.capture_frames(&path, 1..=1).unwrap();
    for frame in 0..2 {
        device.set_render_target(Some(&target)).unwrap();
        if frame == 0 {
            device.clear(Color::BLACK).unwrap();
        }
        device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
        effect.current_technique().passes()[0].apply().unwrap();
        // A triangle with a slanted edge: the samples of the texels it cuts differ.
        let v = |x: f32, y: f32| VertexPositionColor {
            position: Vector3::new(x, y, 0.0),
            color: Color::new(200, 40 + 60 * frame as u8, 30, 255),
        };
        let list = [v(-0.9, 0.8), v(0.7 - 0.3 * frame as f32, 0.9), v(-0.6, -0.7)];
        device.draw_user_primitives(PrimitiveType::TriangleList, &list, 0, 1).unwrap();
        device.set_render_target(None).unwrap();
        device.present().unwrap();
    }
    device.capture_result().expect("the capture finished").unwrap();
    let capture = Capture::open(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let reads_samples = device.capabilities().sample_readback;
    assert_eq!(capture.sample_snapshot.len(), usize::from(reads_samples));
    // The replay's refusal depends on the file alone: the null backend runs it.
    let mut backend = NullBackend::new(NullConfig::default());
    let mut replayer = Replayer::new(&mut backend, &capture).unwrap();
    let replayed = replayer.replay_frame(&mut backend, &capture, &capture.frames[0]);
    if reads_samples {
        replayed.expect("the snapshot's samples are restored before the frame loads them");
    } else {
        let e = replayed.expect_err("the frame loads samples the file lacks").to_string();
        assert!(e.contains("frame 1 uses the multisample image of texture"), "{e}");
        assert!(e.contains("not in the file"), "{e}");
    }
}
