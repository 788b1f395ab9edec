//! Resource lifetime, capabilities and error paths of the backend, with validation on.

mod common;

use common::*;
use xnagraph_graph::{
    Access, Backend, ClearValue, DepthFormat, FrameCommands, Image, LoadOp, Node, PlanNode, Rect,
    StoreOp, SurfaceFormat, TextureDesc,
};
use xnagraph_vulkan::VulkanConfig;

#[test]
fn dropped_textures_are_freed_only_after_their_last_submission() {
    let mut s = Session::new();
    let mut most_alive = 0;
    let mut ever_awaiting = false;
    for frame_index in 0..24u32 {
        let uploaded = s.texture(TextureDesc::texture_2d(8, 8, 1, SurfaceFormat::Color));
        let cleared = s.texture(target_desc(8, 8, 1, 0));
        let unused = s.texture(TextureDesc::texture_2d(4, 4, 1, SurfaceFormat::Color));
        let shade = (frame_index % 4) as f32 / 4.0;
        let frame = FrameCommands {
            nodes: vec![
                upload(&uploaded, Rect::new(0, 0, 8, 8), vec![frame_index as u8; 8 * 8 * 4]),
                Node::Pass(segment(&cleared, vec![clear_op([shade, 0.0, 0.0, 1.0])])),
            ],
            sprites: vec![].into(),
            open_cycle: None,
            ..FrameCommands::default()
        };
        let load = LoadOp::Clear(ClearValue::Color([shade, 0.0, 0.0, 1.0]));
        let nodes = vec![
            planned_upload(&uploaded, 0),
            PlanNode {
                buffer_barriers: Vec::new(),
                barriers: vec![barrier(
                    &cleared,
                    Image::Color,
                    0..1,
                    Access::Nothing,
                    Access::ColorAttachmentWrite,
                )],
                kind: pass(
                    1,
                    vec![attachment(&cleared, Image::Color, load, StoreOp::Store, false)],
                    vec![],
                ),
            },
        ];
        let p = plan(frame, nodes);
        s.backend.submit(&p).expect("submit");
        // The engine drops everything right after submission, while the GPU may still be busy.
        drop((p, uploaded, cleared, unused));
        let live = s.backend.live_objects();
        most_alive = most_alive.max(live.textures);
        ever_awaiting |= live.awaiting_retirement > 0;
    }
    // Two frames in flight: at most this frame's three plus the previous frame's three.
    assert!(most_alive <= 9, "{most_alive} textures alive at once");
    assert!(ever_awaiting, "nothing ever waited for its fence");
    assert_all_freed(&mut s);
    s.finish();
}

#[test]
fn capabilities_report_the_device_sample_counts() {
    let s = Session::new();
    let caps = s.backend.capabilities().clone();
    assert!(caps.sample_counts & 1 != 0, "single-sampling always works");
    assert!(caps.max_texture_dimension >= 4096);
    assert!(caps.max_color_attachments >= 4);
    let name = s.backend.adapter_name().to_owned();
    assert!(name.ends_with(']'), "adapter name names its type: {name}");
    if name.contains("llvmpipe") {
        // Lavapipe renders with 1 or 4 samples only.
        assert!(name.ends_with("[cpu]"), "{name}");
        assert_eq!(caps.sample_counts, 0b101);
        assert_eq!(caps.clamp_sample_count(8), 4);
        assert_eq!(caps.clamp_sample_count(2), 0);
    }
    let color = s.backend.format_support(SurfaceFormat::Color);
    assert!(color.sampled && color.render_target && color.blendable);
    assert_eq!(s.backend.applied_depth_format(DepthFormat::None), DepthFormat::None);
    assert_eq!(s.backend.applied_depth_format(DepthFormat::Depth24), DepthFormat::Depth24);
    s.finish();
}

#[test]
fn a_multisampled_depth_target_counts_three_images() {
    let mut s = Session::new();
    let samples = s.backend.capabilities().clamp_sample_count(4);
    let mut desc = target_desc(16, 16, 1, samples);
    if let Some(rt) = desc.render_target.as_mut() {
        rt.depth = s.backend.applied_depth_format(DepthFormat::Depth24Stencil8);
    }
    let target = s.texture(desc);
    let expected = if samples > 1 { 3 } else { 2 };
    assert_eq!(s.backend.live_objects().images, expected);
    drop(target);
    assert_all_freed(&mut s);
    s.finish();
}

/// A multisampled cube gives each face its own single-layer sample image (resolving into that
/// face's layer of the cube) and has one single-layer depth buffer for all six faces: one view
/// each, not six layers with six views.
#[test]
fn a_cube_target_has_per_face_sample_images_and_one_depth_buffer() {
    // Without transient memory every image gets its memory and views at creation; with it (the
    // default) the sample and depth images wait for the first plan that uses them to bind them,
    // so they have no views yet.
    for shared in [false, true] {
        let mut s =
            Session::with_config(VulkanConfig { transient_aliasing: shared, ..test_config() });
        let samples = s.backend.capabilities().clamp_sample_count(4);
        for samples in [0, samples] {
            let mut desc = target_desc(8, 8, 1, samples);
            desc.layers = 6;
            if let Some(rt) = desc.render_target.as_mut() {
                rt.depth = s.backend.applied_depth_format(DepthFormat::Depth24Stencil8);
            }
            let before = s.backend.diagnostics().live_native_objects();
            let cube = s.texture(desc);
            let sample_images = if samples > 1 { 6 } else { 0 };
            // Colour, one image per face's samples, one depth image.
            assert_eq!(s.backend.live_objects().images, 2 + sample_images);
            // Views: the cube view and one per face of the colour image, one per sample image,
            // one of the depth image, and (multisampled) one per aspect of it for sampling its
            // samples.
            let aspect_views = if samples > 1 { 2 } else { 0 };
            let attachment_views = if shared { 0 } else { sample_images + 1 + aspect_views };
            let views = 1 + 6 + attachment_views;
            let objects = s.backend.diagnostics().live_native_objects() - before;
            assert_eq!(objects, 2 + sample_images + views, "{samples} samples, shared {shared}");
            drop(cube);
            assert_all_freed(&mut s);
        }
        s.finish();
    }
}

#[test]
fn a_texture_state_outliving_its_backend_is_harmless() {
    let mut s = Session::new();
    let survivor = s.texture(target_desc(8, 8, 1, 0));
    s.finish();
    // Only pushes its handle into a sink nobody drains any more.
    drop(survivor);
}

#[test]
fn a_plan_naming_a_missing_op_is_an_error_not_a_panic() {
    let mut s = Session::new();
    let target = s.texture(target_desc(8, 8, 1, 0));
    let frame = FrameCommands {
        nodes: vec![Node::Pass(segment(&target, vec![]))],
        sprites: vec![].into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let nodes = vec![PlanNode {
        buffer_barriers: Vec::new(),
        barriers: vec![],
        kind: pass(
            0,
            vec![attachment(&target, Image::Color, LoadOp::DontCare, StoreOp::Store, false)],
            vec![3],
        ),
    }];
    assert!(s.backend.submit(&plan(frame, nodes)).is_err());
    drop(target);
    assert_all_freed(&mut s);
    s.finish();
}
