//! Frames recorded as the engine records them, compiled by the graph compiler, lowered here.

mod common;

use common::*;
use xnagraph_graph::compile::compile;
use xnagraph_graph::{
    Backend, FrameCommands, LiveObjects, Node, Readback, ReadbackId, Rect, SurfaceFormat,
    TextureDesc, Upload,
};

const RED: [u8; 4] = [255, 0, 0, 255];
const BLACK: [u8; 4] = [0, 0, 0, 255];
const GREY: [u8; 4] = [128, 128, 128, 255];

#[test]
fn compiled_frames_render_and_read_back_across_frames() {
    let mut s = Session::new();
    let texture = s.texture(TextureDesc::texture_2d(2, 2, 1, SurfaceFormat::Color));
    let target = s.texture(target_desc(32, 32, 1, 0));
    let grey = 128.0 / 255.0;
    for (frame_index, region) in [Rect::new(4, 6, 8, 8), Rect::new(18, 12, 10, 6)]
        .into_iter()
        .enumerate()
    {
        let mut nodes = Vec::new();
        if frame_index == 0 {
            nodes.push(Node::Upload(Upload {
                texture: texture.clone(),
                level: 0,
                layer: 0,
                rect: Rect::new(0, 0, 2, 2),
                data: RED.repeat(4),
            }));
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
            id,
            texture: target.clone(),
            level: 0,
            layer: 0,
            rect: Rect::new(0, 0, 32, 32),
        }));
        let plan = compile(FrameCommands {
            nodes,
            vertices: quad(region, [255; 4]).to_vec(),
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
    s.backend.wait_idle().expect("wait_idle");
    assert_eq!(s.backend.live_objects(), LiveObjects::default());
    s.finish();
}

#[test]
fn compiled_multisampled_mipmapped_target_resolves_then_cascades() {
    let mut s = Session::new();
    let samples = s.backend.capabilities().clamp_sample_count(4);
    let target = s.texture(target_desc(16, 16, 3, samples));
    let colour = [0.2, 0.4, 0.6, 1.0];
    let nodes = vec![
        Node::Pass(segment(
            &target,
            vec![clear_op([0.0, 0.0, 0.0, 1.0]), clear_op(colour)],
        )),
        Node::Readback(Readback {
            id: ReadbackId(11),
            texture: target.clone(),
            level: 1,
            layer: 0,
            rect: Rect::new(0, 0, 8, 8),
        }),
    ];
    let plan = compile(FrameCommands {
        nodes,
        vertices: vec![],
    });
    let submission = s.backend.submit(&plan).expect("submit");
    drop(plan);
    s.backend.wait(submission).expect("wait");
    let bytes = s.backend.take_readback(ReadbackId(11)).expect("readback");
    assert_eq!(bytes.len(), 8 * 8 * 4);
    assert!(
        bytes.chunks_exact(4).all(|p| p == [51, 102, 153, 255]),
        "level 1: {:?}",
        &bytes[..4]
    );
    drop(target);
    s.backend.wait_idle().expect("wait_idle");
    assert_eq!(s.backend.live_objects(), LiveObjects::default());
    s.finish();
}
