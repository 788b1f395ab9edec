//! Submission as the engine drives it: tracked state committed only after the backend accepted
//! a plan, and waits through the backend's waiter.

mod common;

use common::*;
use xnagraph_graph::compile::compile_for_submission;
use xnagraph_graph::ReadbackId;
use xnagraph_graph::{
    Backend, BackendError, FrameCommands, Node, Rect, SurfaceFormat, TextureDesc,
};

const RED: [u8; 4] = [255, 0, 0, 255];
const GREY: [u8; 4] = [128, 128, 128, 255];

/// Submits like the engine: the plan's tracked state is committed only when the backend
/// accepted it.
fn submit(
    s: &mut Session,
    frame: FrameCommands,
) -> Result<xnagraph_graph::SubmissionId, BackendError> {
    let (plan, tracking) = compile_for_submission(frame);
    let submitted = s.backend.submit(&plan);
    if submitted.is_ok() {
        tracking.commit();
    }
    submitted
}

/// A frame the lowering rejects (its draw names sprites the frame does not have) moves no
/// image: the next frame's barriers start from the layouts the GPU really has, so it renders
/// correctly and the validation layer (which checks every barrier's old layout at submission)
/// stays silent.
#[test]
fn a_plan_rejected_by_the_lowering_leaves_layouts_as_the_gpu_has_them() {
    let mut s = Session::new();
    let texture = s.texture(TextureDesc::texture_2d(2, 2, 1, SurfaceFormat::Color));
    let target = s.texture(target_desc(16, 16, 1, 0));
    let other = s.texture(TextureDesc::texture_2d(2, 2, 1, SurfaceFormat::Color));
    let grey = 128.0 / 255.0;
    let whole = Rect::new(0, 0, 16, 16);
    let region = Rect::new(3, 5, 6, 4);
    let draw_frame = |readback_id: u64| FrameCommands {
        nodes: vec![
            Node::Pass(segment(
                &target,
                vec![clear_op([grey, grey, grey, 1.0]), sprite_draw(&texture, 0, 1, 16, 16)],
            )),
            readback(readback_id, &target, 0, whole),
        ],
        sprites: quad(region, [255; 4]).to_vec().into(),
        open_cycle: None,
        ..FrameCommands::default()
    };

    // Frame 1: upload, draw the texture (it ends up sampled), read the target back.
    let mut first = draw_frame(1);
    first.nodes.insert(0, upload(&texture, Rect::new(0, 0, 2, 2), RED.repeat(4)));
    let id = submit(&mut s, first).expect("frame 1");
    s.backend.wait(id).expect("wait");
    assert!(s.backend.take_readback(ReadbackId(1)).is_some());

    // Frame 2: reads the texture back (it would become a transfer source), then draws sprites
    // the frame does not have, which the lowering refuses before recording anything.
    let rejected = FrameCommands {
        nodes: vec![
            readback(2, &texture, 0, Rect::new(0, 0, 2, 2)),
            Node::Pass(segment(&target, vec![sprite_draw(&other, 5, 1, 16, 16)])),
        ],
        sprites: vec![].into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let refused = submit(&mut s, rejected);
    assert!(matches!(&refused, Err(BackendError::Native(m)) if m.contains("malformed plan")));

    // Frame 3: samples the texture again. Had frame 2's state been kept, its barrier would
    // move the texture out of TRANSFER_SRC, a layout it never reached.
    let id = submit(&mut s, draw_frame(3)).expect("frame 3");
    s.backend.wait(id).expect("wait");
    let bytes = s.backend.take_readback(ReadbackId(3)).expect("readback");
    for (x, y, want) in [(3, 5, RED), (8, 8, RED), (2, 5, GREY), (9, 5, GREY), (3, 9, GREY)] {
        assert_eq!(pixel(&bytes, 16, x, y), want, "pixel ({x}, {y})");
    }
    drop((texture, target, other));
    assert_all_freed(&mut s);
    s.finish();
}

/// The waiter observes completion apart from the backend: a submission waited for through it
/// needs no further wait, and its readback is there to take.
#[test]
fn the_waiter_sees_a_submission_complete_without_the_backend() {
    let mut s = Session::new();
    let target = s.texture(target_desc(8, 8, 1, 0));
    let waiter = s.backend.waiter();
    let frame = FrameCommands {
        nodes: vec![
            Node::Pass(segment(&target, vec![clear_op([1.0, 0.0, 0.0, 1.0])])),
            readback(7, &target, 0, Rect::new(0, 0, 8, 8)),
        ],
        sprites: vec![].into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let id = submit(&mut s, frame).expect("submit");
    let thread = std::thread::spawn(move || waiter.wait_for(id));
    assert_eq!(thread.join().unwrap(), Ok(()));
    assert!(matches!(
        s.backend.waiter().wait_for(xnagraph_graph::SubmissionId(id.0 + 1)),
        Err(BackendError::Native(_))
    ));
    s.backend.wait(id).expect("collect");
    let bytes = s.backend.take_readback(ReadbackId(7)).expect("readback");
    assert!(bytes.chunks_exact(4).all(|p| p == RED));
    drop(target);
    assert_all_freed(&mut s);
    s.finish();
}
