//! The DONT_CARE oracle checked: with `poison_undefined` (on in every test), what a plan loads or
//! stores with DONT_CARE reads back as the poison colour, and nothing else does.

mod common;

use common::*;
use xnagraph_graph::{
    Access, ClearValue, FrameCommands, Image, LoadOp, Node, PlanNode, PlanNodeKind, Rect, StoreOp,
};

const MAGENTA: [u8; 4] = [255, 0, 255, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];

/// One pass over an 8×8 target with `load`/`store` and the segment's `ops`, then a readback.
fn pass_then_read(load: LoadOp, store: StoreOp, ops: Vec<xnagraph_graph::PassOp>) -> Vec<u8> {
    let mut s = Session::new();
    let target = s.texture(target_desc(8, 8, 1, 0));
    let kept = (0..ops.len()).collect();
    let frame = FrameCommands {
        nodes: vec![
            Node::Pass(segment(&target, ops)),
            readback(1, &target, 0, Rect::new(0, 0, 8, 8)),
        ],
        sprites: vec![].into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let nodes = vec![
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![barrier(
                &target,
                Image::Color,
                0..1,
                Access::Nothing,
                Access::ColorAttachmentWrite,
            )],
            kind: pass(0, vec![attachment(&target, Image::Color, load, store, false)], kept),
        },
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![barrier(
                &target,
                Image::Color,
                0..1,
                Access::ColorAttachmentWrite,
                Access::TransferRead,
            )],
            kind: PlanNodeKind::Readback { node: 1 },
        },
    ];
    let bytes = submit_and_read(&mut s, plan(frame, nodes), 1);
    drop(target);
    assert_all_freed(&mut s);
    s.finish();
    bytes
}

fn all(bytes: &[u8], want: [u8; 4]) -> bool {
    bytes.len() == 8 * 8 * 4 && bytes.chunks_exact(4).all(|p| p == want)
}

#[test]
fn a_dont_care_store_reads_back_as_poison() {
    let green = LoadOp::Clear(ClearValue::Color([0.0, 1.0, 0.0, 1.0]));
    let dropped = pass_then_read(green, StoreOp::DontCare, vec![]);
    assert!(all(&dropped, MAGENTA), "dropped content must read as poison: {:?}", &dropped[..4]);
    let stored = pass_then_read(green, StoreOp::Store, vec![]);
    assert!(all(&stored, GREEN), "stored content is untouched: {:?}", &stored[..4]);
}

#[test]
fn a_dont_care_load_starts_from_poison() {
    let loaded = pass_then_read(LoadOp::DontCare, StoreOp::Store, vec![]);
    assert!(all(&loaded, MAGENTA), "undefined content must read as poison: {:?}", &loaded[..4]);
    let cleared =
        pass_then_read(LoadOp::DontCare, StoreOp::Store, vec![clear_op([0.0, 1.0, 0.0, 1.0])]);
    assert!(all(&cleared, GREEN), "what the pass writes wins: {:?}", &cleared[..4]);
}
