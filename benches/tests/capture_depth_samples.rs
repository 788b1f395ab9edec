//! Frame capture of a multisampled depth/stencil image whose samples differ within texels,
//! replayed on SDL_gpu: a 4x PreserveContents Depth24Stencil8 target gets slanted triangles in
//! frames 0 to 2 (each at its own depth, with its own stencil reference, so an edge texel's
//! samples hold different depths and stencil values), and frames 3 to 5 draw over it without
//! clearing, depth-tested and stencil-tested. SDL_gpu cannot read samples back but restores
//! them: a Vulkan capture of frames 3 to 5 replays there to the live Vulkan frame exactly, which
//! needs each sample's own depth and stencil (an edge texel's resolved colour is the average of
//! its samples' test results).

mod common;

use common::{replay_final_on, scratch, sdlgpu};
use xnagraph::{
    BackendKind, BasicEffect, Color, CompareFunction, DepthFormat, DepthStencilState,
    GraphicsDevice, PrimitiveType, RasterizerState, RenderTarget2D, RenderTargetUsage, SpriteBatch,
    StencilOperation, SurfaceFormat, Vector2, Vector3, VertexPositionColor,
};
use xnagraph_graph::capture::Capture;

const W: i32 = 48;
const H: i32 = 40;
/// The target's size.
const TW: f32 = 32.0;
const TH: f32 = 24.0;

fn vulkan_device() -> GraphicsDevice {
    common::device_on(BackendKind::Vulkan, W, H)
}

/// A triangle over target pixels at depth z.
fn triangle(corners: [(f32, f32); 3], z: f32, color: Color) -> [VertexPositionColor; 3] {
    corners.map(|(x, y)| VertexPositionColor {
        position: Vector3::new(x / TW * 2.0 - 1.0, 1.0 - y / TH * 2.0, z),
        color,
    })
}

/// A whole-target quad at depth z, as a strip.
fn whole(z: f32, color: Color) -> [VertexPositionColor; 4] {
    let v = |x: f32, y: f32| VertexPositionColor { position: Vector3::new(x, y, z), color };
    [v(-1.0, 1.0), v(1.0, 1.0), v(-1.0, -1.0), v(1.0, -1.0)]
}

/// Six frames of the scene; the final back buffer.
fn render(device: &GraphicsDevice, frames: u32, depth: DepthFormat) -> Vec<u8> {
    let target = RenderTarget2D::with_options(
        device,
        TW as i32,
        TH as i32,
        false,
        SurfaceFormat::Color,
        depth,
        4,
        RenderTargetUsage::PreserveContents,
    )
    .unwrap();
    assert_eq!(target.multi_sample_count(), 4);
    let mut effect = BasicEffect::new(device).unwrap();
    effect.vertex_color_enabled = true;
    let mut batch = SpriteBatch::new(device).unwrap();
    let slanted = [
        ([(3.3, 2.1), (28.7, 5.4), (6.2, 21.8)], 0.3, 1, Color::new(200, 30, 30, 255)),
        ([(12.5, 1.2), (30.6, 17.3), (15.1, 23.7)], 0.7, 2, Color::new(30, 200, 40, 255)),
        ([(1.4, 12.6), (26.8, 22.9), (9.3, 8.5)], 0.4, 3, Color::new(40, 50, 210, 255)),
    ];
    for frame in 0..frames {
        device.set_render_target(Some(&target)).unwrap();
        device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
        effect.current_technique().passes()[0].apply().unwrap();
        if frame == 0 {
            device.clear(Color::new(5, 10, 20, 255)).unwrap();
        }
        if let Some(&(corners, z, reference, color)) = slanted.get(frame as usize) {
            let writes = DepthStencilState {
                depth_buffer_function: CompareFunction::Always,
                stencil_enable: depth == DepthFormat::Depth24Stencil8,
                stencil_function: CompareFunction::Always,
                stencil_pass: StencilOperation::Replace,
                reference_stencil: reference,
                ..DepthStencilState::DEFAULT
            };
            device.set_depth_stencil_state(writes).unwrap();
            let list = triangle(corners, z, color);
            device.draw_user_primitives(PrimitiveType::TriangleList, &list, 0, 1).unwrap();
        } else {
            let shade = 40 * (frame as u8 - 2);
            let depth_tested = DepthStencilState {
                depth_buffer_function: CompareFunction::LessEqual,
                depth_buffer_write_enable: false,
                ..DepthStencilState::DEFAULT
            };
            device.set_depth_stencil_state(depth_tested).unwrap();
            let strip = |corners: &[VertexPositionColor; 4]| {
                device.draw_user_primitives(PrimitiveType::TriangleStrip, corners, 0, 2).unwrap();
            };
            strip(&whole(0.5, Color::new(250, 120, shade, 255)));
            if depth == DepthFormat::Depth24Stencil8 {
                let where_stencil = DepthStencilState {
                    depth_buffer_enable: false,
                    depth_buffer_write_enable: false,
                    stencil_enable: true,
                    stencil_function: CompareFunction::Equal,
                    reference_stencil: 3,
                    ..DepthStencilState::DEFAULT
                };
                device.set_depth_stencil_state(where_stencil).unwrap();
                strip(&whole(0.9, Color::new(shade, 240, 250, 255)));
            }
        }
        device.set_render_target(None).unwrap();
        device.clear(Color::BLACK).unwrap();
        batch.begin().unwrap();
        batch.draw(&target, Vector2::new(7.0, 9.0), Color::WHITE).unwrap();
        batch.end().unwrap();
        device.present().unwrap();
    }
    let mut pixels = vec![Color::TRANSPARENT; (W * H) as usize];
    device.get_back_buffer_data(None, &mut pixels, 0, (W * H) as usize).unwrap();
    bytemuck::cast_slice(&pixels).to_vec()
}

/// Texels of the depth snapshot (the depth planes of a 4x target) whose samples' depths differ.
fn mixed_depth_texels(capture: &Capture) -> usize {
    let blob = &capture.blobs[capture.depth_snapshot[0].blob as usize];
    let plane = (TW * TH) as usize;
    let depth = |s: usize, t: usize| &blob[(s * plane + t) * 4..(s * plane + t) * 4 + 4];
    (0..plane).filter(|&t| (1..4).any(|s| depth(s, t) != depth(0, t))).count()
}

#[test]
fn depth_and_stencil_samples_of_a_vulkan_capture_replay_on_sdlgpu_exactly() {
    for depth in [DepthFormat::Depth24Stencil8, DepthFormat::Depth16] {
        let path = scratch(&format!("depth_samples_{depth:?}.xgc"));
        let device = vulkan_device();
        device.capture_frames(&path, 3..=5).unwrap();
        let live = render(&device, 6, depth);
        device.capture_result().expect("the capture finished").unwrap();
        let capture = Capture::open(&path).unwrap();
        assert_eq!((capture.depth_snapshot.len(), capture.sample_snapshot.len()), (1, 1));
        let mixed = mixed_depth_texels(&capture);
        assert!(mixed >= 20, "{depth:?}: {mixed} texels of mixed depth samples");
        assert!(
            replay_final_on(&mut sdlgpu(), &capture) == live,
            "{depth:?}: replays on SDL_gpu exactly"
        );
    }
}
