//! Frames recorded as the engine records them, compiled by the graph compiler, lowered here.

mod common;

use std::sync::Arc;

use common::*;
use xnagraph_graph::compile::compile;
use xnagraph_graph::{
    Backend, Clear, CompareFunction, DepthFormat, DepthStencilState, FrameCommands, FramePlan,
    Image, Node, PassOp, PlanNodeKind, Readback, ReadbackId, Rect, RenderTargetUsage, Slices,
    SurfaceFormat, TextureDesc, TextureState,
};

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];
const BLACK: [u8; 4] = [0, 0, 0, 255];
const GREY: [u8; 4] = [128, 128, 128, 255];

#[test]
fn compiled_frames_render_and_read_back_across_frames() {
    let mut s = Session::new();
    let texture = s.texture(TextureDesc::texture_2d(2, 2, 1, SurfaceFormat::Color));
    let target = s.texture(target_desc(32, 32, 1, 0));
    let grey = 128.0 / 255.0;
    for (frame_index, region) in
        [Rect::new(4, 6, 8, 8), Rect::new(18, 12, 10, 6)].into_iter().enumerate()
    {
        let mut nodes = Vec::new();
        if frame_index == 0 {
            nodes.push(upload(&texture, Rect::new(0, 0, 2, 2), RED.repeat(4)));
        }
        // A DiscardContents bind clears to opaque black, then the caller clears to grey.
        nodes.push(Node::Pass(segment(
            &target,
            vec![
                clear_op([0.0, 0.0, 0.0, 1.0]),
                clear_op([grey, grey, grey, 1.0]),
                sprite_draw(&texture, 0, 1, 32, 32),
            ],
        )));
        let id = ReadbackId(frame_index as u64 + 1);
        nodes.push(Node::Readback(Readback {
            image: xnagraph_graph::Image::Color,
            id,
            texture: target.clone(),
            level: 0,
            layer: 0,
            rect: Rect::new(0, 0, 32, 32),
            slices: Slices::FLAT,
        }));
        let plan = compile(FrameCommands {
            nodes,
            sprites: quad(region, [255; 4]).to_vec().into(),
            open_cycle: None,
            ..FrameCommands::default()
        });
        let submission = s.backend.submit(&plan).expect("submit");
        drop(plan);
        s.backend.wait(submission).expect("wait");
        let bytes = s.backend.take_readback(id).expect("readback");
        for y in 0..32 {
            for x in 0..32 {
                let inside = (region.x..region.x + region.width).contains(&(x as i32))
                    && (region.y..region.y + region.height).contains(&(y as i32));
                let expected = if inside { RED } else { GREY };
                assert_eq!(
                    pixel(&bytes, 32, x, y),
                    expected,
                    "frame {frame_index} pixel ({x}, {y})"
                );
            }
        }
        assert_ne!(pixel(&bytes, 32, 0, 0), BLACK);
    }
    drop((texture, target));
    assert_all_freed(&mut s);
    s.finish();
}

#[test]
fn compiled_multisampled_mipmapped_target_resolves_then_cascades() {
    let mut s = Session::new();
    let samples = s.backend.capabilities().clamp_sample_count(4);
    let target = s.texture(target_desc(16, 16, 3, samples));
    let white = s.texture(TextureDesc::texture_2d(1, 1, 1, SurfaceFormat::Color));
    // A draw, so that the pass renders and resolves rather than becoming a transfer clear.
    let nodes = vec![
        upload(&white, Rect::new(0, 0, 1, 1), vec![255; 4]),
        Node::Pass(segment(
            &target,
            vec![clear_op([0.0, 0.0, 0.0, 1.0]), sprite_draw(&white, 0, 1, 16, 16)],
        )),
        Node::Readback(Readback {
            image: xnagraph_graph::Image::Color,
            id: ReadbackId(11),
            texture: target.clone(),
            level: 1,
            layer: 0,
            rect: Rect::new(0, 0, 8, 8),
            slices: Slices::FLAT,
        }),
    ];
    let plan = compile(FrameCommands {
        nodes,
        sprites: quad(Rect::new(0, 0, 16, 16), CLEARED).to_vec().into(),
        open_cycle: None,
        ..FrameCommands::default()
    });
    assert!(cleared_images(&plan).is_empty());
    let submission = s.backend.submit(&plan).expect("submit");
    drop(plan);
    s.backend.wait(submission).expect("wait");
    let bytes = s.backend.take_readback(ReadbackId(11)).expect("readback");
    assert_eq!(bytes.len(), 8 * 8 * 4);
    assert!(bytes.chunks_exact(4).all(|p| p == [51, 102, 153, 255]), "level 1: {:?}", &bytes[..4]);
    drop((target, white));
    assert_all_freed(&mut s);
    s.finish();
}

const CLEAR: [f32; 4] = [0.2, 0.4, 0.6, 1.0];
const CLEARED: [u8; 4] = [51, 102, 153, 255];

/// The images each transfer-clear node of `plan` clears, in order.
fn cleared_images(plan: &FramePlan) -> Vec<Image> {
    plan.nodes
        .iter()
        .filter_map(|n| match &n.kind {
            PlanNodeKind::ClearImages { clears } => Some(clears.iter().map(|c| c.image)),
            _ => None,
        })
        .flatten()
        .collect()
}

fn clear_all(color: [f32; 4], depth: f32, stencil: u32) -> PassOp {
    PassOp::Clear(Clear { color: Some(color), depth: Some(depth), stencil: Some(stencil) })
}

/// A DiscardContents bind (cleared to black, as the engine records it), then the caller's clear,
/// nothing drawn, and the whole target read back.
fn clear_only_frame(target: &Arc<TextureState>, size: u32, id: u64) -> FrameCommands {
    FrameCommands {
        nodes: vec![
            Node::Pass(segment(target, vec![clear_op([0.0, 0.0, 0.0, 1.0]), clear_op(CLEAR)])),
            readback(id, target, 0, Rect::new(0, 0, size as i32, size as i32)),
        ],
        sprites: vec![].into(),
        open_cycle: None,
        ..FrameCommands::default()
    }
}

#[test]
fn clear_only_frame_on_a_single_sample_target_clears_by_transfer() {
    let mut s = Session::new();
    let target = s.texture(target_desc(24, 24, 1, 0));
    for frame_index in 0..2 {
        let plan = compile(clear_only_frame(&target, 24, 21 + frame_index));
        assert_eq!(cleared_images(&plan), [Image::Color]);
        let bytes = submit_and_read(&mut s, plan, 21 + frame_index);
        assert_eq!(bytes.len(), 24 * 24 * 4);
        assert!(
            bytes.chunks_exact(4).all(|p| p == CLEARED),
            "frame {frame_index}: {:?}",
            &bytes[..4]
        );
    }
    drop(target);
    assert_all_freed(&mut s);
    s.finish();
}

#[test]
fn clear_only_frame_on_a_multisampled_discard_target_clears_only_the_resolved_image() {
    let mut s = Session::new();
    if s.backend.capabilities().clamp_sample_count(4) != 4 {
        eprintln!("SKIPPED: the adapter has no 4x multisampling");
        s.finish();
        return;
    }
    // Mipmapped: the cascade follows the transfer clear.
    let target = s.texture(target_desc(24, 24, 3, 4));
    let mut frame = clear_only_frame(&target, 24, 31);
    frame.nodes.push(readback(32, &target, 1, Rect::new(0, 0, 12, 12)));
    let plan = compile(frame);
    assert_eq!(cleared_images(&plan), [Image::Color]);
    let submission = s.backend.submit(&plan).expect("submit");
    drop(plan);
    s.backend.wait(submission).expect("wait");
    for (id, len) in [(31, 24 * 24 * 4), (32, 12 * 12 * 4)] {
        let bytes = s.backend.take_readback(ReadbackId(id)).expect("readback");
        assert_eq!(bytes.len(), len);
        assert!(bytes.chunks_exact(4).all(|p| p == CLEARED), "readback {id}: {:?}", &bytes[..4]);
    }
    drop(target);
    assert_all_freed(&mut s);
    s.finish();
}

#[test]
fn preserving_multisampled_target_cleared_by_transfer_is_loaded_and_drawn_over() {
    const SIZE: u32 = 16;
    let mut s = Session::new();
    let samples = s.backend.capabilities().clamp_sample_count(4);
    let depth = s.backend.applied_depth_format(DepthFormat::Depth24Stencil8);
    let mut desc = target_desc(SIZE, SIZE, 1, samples);
    if let Some(rt) = desc.render_target.as_mut() {
        rt.depth = depth;
        rt.usage = RenderTargetUsage::PreserveContents;
    }
    let target = s.texture(desc);
    let white = s.texture(TextureDesc::texture_2d(1, 1, 1, SurfaceFormat::Color));
    let has_stencil = depth == DepthFormat::Depth24Stencil8;

    // Frame 1: colour, depth 0.5 and stencil 3, nothing drawn: every image is cleared by
    // transfer, because the next bind loads them all.
    let nodes = vec![
        Node::Pass(segment(&target, vec![clear_all(CLEAR, 0.5, 3)])),
        readback(41, &target, 0, Rect::new(0, 0, SIZE as i32, SIZE as i32)),
    ];
    let plan = compile(FrameCommands {
        nodes,
        sprites: vec![].into(),
        open_cycle: None,
        ..FrameCommands::default()
    });
    let mut expected = vec![Image::Color];
    if samples > 1 {
        expected.push(Image::Samples);
    }
    expected.push(Image::DepthStencil);
    assert_eq!(cleared_images(&plan), expected);
    let bytes = submit_and_read(&mut s, plan, 41);
    assert!(bytes.chunks_exact(4).all(|p| p == CLEARED), "{:?}", &bytes[..4]);

    // Frame 2: the bind loads the cleared samples and depth/stencil. Top left passes the depth
    // test (0.25 <= 0.5), top right fails it (0.75); bottom left passes a stencil test against
    // 3, bottom right fails one against 4.
    let half = SIZE as i32 / 2;
    let mut vertices = Vec::new();
    for (x, z) in [(0, 0.25), (half, 0.75)] {
        let mut q = quad(Rect::new(x, 0, half, half), GREEN);
        q.iter_mut().for_each(|s| s.depth = z);
        vertices.extend(q);
    }
    vertices.extend(quad(Rect::new(0, half, half, half), BLUE));
    vertices.extend(quad(Rect::new(half, half, half, half), BLUE));
    let with = |first: u32, quads: u32, depth_stencil: DepthStencilState| {
        let mut op = sprite_draw(&white, first, quads, SIZE, SIZE);
        if let PassOp::Draw(d) = &mut op {
            d.pipeline.depth_stencil = depth_stencil;
        }
        op
    };
    let stencil_equal = |reference| DepthStencilState {
        stencil_enable: true,
        stencil_function: CompareFunction::Equal,
        reference_stencil: reference,
        ..DepthStencilState::NONE
    };
    let mut ops = vec![with(0, 2, DepthStencilState::DEPTH_READ)];
    if has_stencil {
        ops.push(with(2, 1, stencil_equal(3)));
        ops.push(with(3, 1, stencil_equal(4)));
    }
    let nodes = vec![
        upload(&white, Rect::new(0, 0, 1, 1), vec![255; 4]),
        Node::Pass(segment(&target, ops)),
        readback(42, &target, 0, Rect::new(0, 0, SIZE as i32, SIZE as i32)),
    ];
    let plan = compile(FrameCommands {
        nodes,
        sprites: vertices.into(),
        open_cycle: None,
        ..FrameCommands::default()
    });
    assert!(cleared_images(&plan).is_empty());
    let bytes = submit_and_read(&mut s, plan, 42);
    for y in 0..SIZE {
        for x in 0..SIZE {
            let (left, top) = (x < SIZE / 2, y < SIZE / 2);
            let expected = match (top, left) {
                (true, true) => GREEN,
                (false, true) if has_stencil => BLUE,
                _ => CLEARED,
            };
            assert_eq!(pixel(&bytes, SIZE, x, y), expected, "pixel ({x}, {y})");
        }
    }
    drop((target, white));
    assert_all_freed(&mut s);
    s.finish();
}

/// A bind of one face of a 6-layer (cube) target: `ops` into `face`.
fn face_segment(cube: &Arc<TextureState>, face: u32, ops: Vec<PassOp>) -> Node {
    let mut seg = segment(cube, ops);
    seg.colors[0].layer = face;
    Node::Pass(seg)
}

#[test]
fn cube_faces_share_one_depth_buffer() {
    let mut s = Session::new();
    let white = s.texture(TextureDesc::texture_2d(1, 1, 1, SurfaceFormat::Color));
    let mut desc = target_desc(8, 8, 1, 0);
    desc.layers = 6;
    if let Some(rt) = desc.render_target.as_mut() {
        rt.depth = DepthFormat::Depth24;
        rt.usage = RenderTargetUsage::PreserveContents;
    }
    let cube = s.texture(desc);
    let depth_tested = |first: u32| {
        let mut op = sprite_draw(&white, first, 1, 8, 8);
        if let PassOp::Draw(d) = &mut op {
            d.pipeline.depth_stencil = DepthStencilState::DEFAULT;
        }
        op
    };
    // Face 2 writes depth 0.2 over its left half; face 4 then draws red at depth 0.5 over the
    // whole face: the shared depth rejects it on the left and accepts it on the right.
    let mut near = quad(Rect::new(0, 0, 4, 8), [0, 255, 0, 255]);
    near[0].depth = 0.2;
    let mut far = quad(Rect::new(0, 0, 8, 8), [255, 0, 0, 255]);
    far[0].depth = 0.5;
    let grey = 128.0 / 255.0;
    let frame = FrameCommands {
        nodes: vec![
            upload(&white, Rect::new(0, 0, 1, 1), vec![255; 4]),
            face_segment(
                &cube,
                2,
                vec![
                    PassOp::Clear(Clear {
                        color: Some([0.0, 0.0, 0.0, 1.0]),
                        depth: Some(1.0),
                        stencil: None,
                    }),
                    depth_tested(0),
                ],
            ),
            face_segment(&cube, 4, vec![clear_op([grey, grey, grey, 1.0]), depth_tested(1)]),
            Node::Readback(Readback {
                image: xnagraph_graph::Image::Color,
                id: ReadbackId(4),
                texture: cube.clone(),
                level: 0,
                layer: 4,
                rect: Rect::new(0, 0, 8, 8),
                slices: Slices::FLAT,
            }),
        ],
        sprites: [near, far].concat().into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let plan = compile(frame);
    let submission = s.backend.submit(&plan).expect("submit");
    drop(plan);
    s.backend.wait(submission).expect("wait");
    let bytes = s.backend.take_readback(ReadbackId(4)).expect("readback");
    assert_eq!(pixel(&bytes, 8, 1, 3), GREY, "depth 0.2 written through face 2 rejects 0.5");
    assert_eq!(pixel(&bytes, 8, 6, 5), RED, "where face 2 wrote no depth, 0.5 passes");
    drop((white, cube));
    assert_all_freed(&mut s);
    s.finish();
}
