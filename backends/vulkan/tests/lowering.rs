//! Plans written by hand, lowered on the local adapter with validation on, pixels read back.

mod common;
#[path = "lowering/depth.rs"]
mod depth;

use common::*;
use xnagraph_graph::{
    Access, Backend, ClearValue, ColorWrites, DepthFormat, FrameCommands, Image, LoadOp, Node,
    PlanNode, PlanNodeKind, PlannedOp, PlannedPass, Readback, ReadbackId, Rect, Slices, StoreOp,
    SurfaceFormat, TextureDesc,
};

#[test]
fn load_op_clear_fills_the_whole_target() {
    let mut s = Session::new();
    let target = s.texture(target_desc(64, 64, 1, 0));
    let colour = [1.0, 0.2, 0.6, 1.0];
    let frame = FrameCommands {
        nodes: vec![
            Node::Pass(segment(&target, vec![clear_op(colour)])),
            readback(1, &target, 0, Rect::new(0, 0, 64, 64)),
        ],
        sprites: vec![].into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let load = LoadOp::Clear(ClearValue::Color(colour));
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
            kind: pass(
                0,
                vec![attachment(&target, Image::Color, load, StoreOp::Store, false)],
                vec![],
            ),
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
    assert_eq!(bytes.len(), 64 * 64 * 4);
    assert!(
        bytes.chunks_exact(4).all(|p| p == [255, 51, 153, 255]),
        "first pixel {:?}",
        &bytes[..4]
    );
    assert!(s.backend.take_readback(ReadbackId(1)).is_none(), "a readback is handed out once");
    drop(target);
    assert_all_freed(&mut s);
    s.finish();
}

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];
const WHITE: [u8; 4] = [255, 255, 255, 255];
const BLACK: [u8; 4] = [0, 0, 0, 255];

/// A 4×4 texture in four 2×2 quadrants: red, green / blue, white.
fn quadrant_texels() -> Vec<u8> {
    let mut data = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            data.extend_from_slice(match (x < 2, y < 2) {
                (true, true) => &RED,
                (false, true) => &GREEN,
                (true, false) => &BLUE,
                (false, false) => &WHITE,
            });
        }
    }
    data
}

#[test]
fn uploaded_texture_is_drawn_into_an_off_centre_region() {
    let mut s = Session::new();
    let texture = s.texture(TextureDesc::texture_2d(4, 4, 1, SurfaceFormat::Color));
    let target = s.texture(target_desc(64, 64, 1, 0));
    let region = Rect::new(10, 20, 16, 16);
    let frame = FrameCommands {
        nodes: vec![
            upload(&texture, Rect::new(0, 0, 4, 4), quadrant_texels()),
            Node::Pass(segment(
                &target,
                vec![clear_op([0.0, 0.0, 0.0, 1.0]), sprite_draw(&texture, 0, 1, 64, 64)],
            )),
            readback(7, &target, 0, Rect::new(0, 0, 64, 64)),
        ],
        sprites: quad(region, WHITE).to_vec().into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let load = LoadOp::Clear(ClearValue::Color([0.0, 0.0, 0.0, 1.0]));
    let nodes = vec![
        planned_upload(&texture, 0),
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![
                barrier(
                    &texture,
                    Image::Color,
                    0..1,
                    Access::TransferWrite,
                    Access::FragmentSampled,
                ),
                barrier(&target, Image::Color, 0..1, Access::Nothing, Access::ColorAttachmentWrite),
            ],
            // The clear (op 0) is absorbed into the CLEAR load op.
            kind: pass(
                1,
                vec![attachment(&target, Image::Color, load, StoreOp::Store, false)],
                vec![1],
            ),
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
            kind: PlanNodeKind::Readback { node: 2 },
        },
    ];
    let bytes = submit_and_read(&mut s, plan(frame, nodes), 7);
    for y in 0..64 {
        for x in 0..64 {
            let inside = (10..26).contains(&x) && (20..36).contains(&y);
            let expected = if !inside {
                BLACK
            } else {
                match ((x - 10) < 8, (y - 20) < 8) {
                    (true, true) => RED,
                    (false, true) => GREEN,
                    (true, false) => BLUE,
                    (false, false) => WHITE,
                }
            };
            assert_eq!(pixel(&bytes, 64, x, y), expected, "pixel ({x}, {y})");
        }
    }
    drop((texture, target));
    assert_all_freed(&mut s);
    s.finish();
}

#[test]
fn multisampled_target_is_resolved_at_the_end_of_the_pass() {
    let mut s = Session::new();
    if s.backend.capabilities().sample_counts & 4 == 0 {
        eprintln!("SKIPPED: 4x multisampling unsupported here; nothing to test");
        s.finish();
        return;
    }
    let white = s.texture(TextureDesc::texture_2d(1, 1, 1, SurfaceFormat::Color));
    let target = s.texture(target_desc(32, 32, 1, 4));
    let frame = FrameCommands {
        nodes: vec![
            upload(&white, Rect::new(0, 0, 1, 1), WHITE.to_vec()),
            Node::Pass(segment(
                &target,
                vec![clear_op([0.0, 0.0, 1.0, 1.0]), sprite_draw(&white, 0, 1, 32, 32)],
            )),
            readback(3, &target, 0, Rect::new(0, 0, 32, 32)),
        ],
        sprites: quad(Rect::new(0, 0, 16, 32), RED).to_vec().into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let load = LoadOp::Clear(ClearValue::Color([0.0, 0.0, 1.0, 1.0]));
    let nodes = vec![
        planned_upload(&white, 0),
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![
                barrier(&white, Image::Color, 0..1, Access::TransferWrite, Access::FragmentSampled),
                barrier(
                    &target,
                    Image::Samples,
                    0..1,
                    Access::Nothing,
                    Access::ColorAttachmentWrite,
                ),
                barrier(&target, Image::Color, 0..1, Access::Nothing, Access::ColorAttachmentWrite),
            ],
            // Samples are never loaded again: DONT_CARE, resolved into the Color image.
            kind: pass(
                1,
                vec![attachment(&target, Image::Samples, load, StoreOp::DontCare, true)],
                vec![1],
            ),
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
            kind: PlanNodeKind::Readback { node: 2 },
        },
    ];
    let bytes = submit_and_read(&mut s, plan(frame, nodes), 3);
    for y in 0..32 {
        for x in 0..32 {
            let expected = if x < 16 { RED } else { BLUE };
            assert_eq!(pixel(&bytes, 32, x, y), expected, "pixel ({x}, {y})");
        }
    }
    drop((white, target));
    assert_all_freed(&mut s);
    s.finish();
}

#[test]
fn mip_cascade_carries_level_0_down_to_level_2() {
    let mut s = Session::new();
    let target = s.texture(target_desc(16, 16, 5, 0));
    let colour = [0.2, 0.4, 0.6, 1.0];
    let frame = FrameCommands {
        nodes: vec![
            Node::Pass(segment(&target, vec![clear_op(colour)])),
            readback(9, &target, 2, Rect::new(0, 0, 4, 4)),
        ],
        sprites: vec![].into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let load = LoadOp::Clear(ClearValue::Color(colour));
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
            kind: pass(
                0,
                vec![attachment(&target, Image::Color, load, StoreOp::Store, false)],
                vec![],
            ),
        },
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![
                barrier(
                    &target,
                    Image::Color,
                    0..1,
                    Access::ColorAttachmentWrite,
                    Access::TransferRead,
                ),
                barrier(&target, Image::Color, 1..5, Access::Nothing, Access::TransferWrite),
            ],
            kind: PlanNodeKind::GenerateMips { texture: target.clone(), layer: 0 },
        },
        // The cascade leaves every level in TransferRead: no barrier before the readback.
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![],
            kind: PlanNodeKind::Readback { node: 1 },
        },
    ];
    let bytes = submit_and_read(&mut s, plan(frame, nodes), 9);
    assert_eq!(bytes.len(), 4 * 4 * 4);
    assert!(bytes.chunks_exact(4).all(|p| p == [51, 102, 153, 255]), "level 2: {bytes:?}");
    drop(target);
    assert_all_freed(&mut s);
    s.finish();
}

#[test]
fn validation_reports_a_readback_without_its_barrier() {
    // A second device alive at the same time: its record must stay its own.
    let bystander = Session::new();
    let mut s = Session::new();
    let target = s.texture(target_desc(8, 8, 1, 0));
    let colour = [0.0, 1.0, 0.0, 1.0];
    let frame = FrameCommands {
        nodes: vec![
            Node::Pass(segment(&target, vec![clear_op(colour)])),
            readback(2, &target, 0, Rect::new(0, 0, 8, 8)),
        ],
        sprites: vec![].into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let load = LoadOp::Clear(ClearValue::Color(colour));
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
            kind: pass(
                0,
                vec![attachment(&target, Image::Color, load, StoreOp::Store, false)],
                vec![],
            ),
        },
        // Deliberately wrong: the image is still a colour attachment when it is copied.
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![],
            kind: PlanNodeKind::Readback { node: 1 },
        },
    ];
    let submission = s.backend.submit(&plan(frame, nodes)).expect("submit");
    s.backend.wait(submission).expect("wait");
    let messages = s.diagnostics.take_messages();
    assert!(!messages.is_empty(), "the harness must see validation errors");
    assert!(bystander.diagnostics.take_messages().is_empty(), "messages are per device");
    drop(target);
    assert_all_freed(&mut s);
    s.finish();
    bystander.finish();
}

/// The validation layer prints the debug names of the objects a message concerns: a deliberate
/// hazard on a named target reports the name, so the name reached the driver.
#[test]
fn validation_messages_name_the_texture() {
    let mut s = Session::new();
    let target = s.texture(target_desc(8, 8, 1, 0));
    target.set_name("first name");
    let colour = [0.0, 0.0, 1.0, 1.0];
    let frame = FrameCommands {
        nodes: vec![
            Node::Pass(segment(&target, vec![clear_op(colour)])),
            readback(2, &target, 0, Rect::new(0, 0, 8, 8)),
        ],
        sprites: vec![].into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let load = LoadOp::Clear(ClearValue::Color(colour));
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
            kind: pass(
                0,
                vec![attachment(&target, Image::Color, load, StoreOp::Store, false)],
                vec![],
            ),
        },
        // Deliberately wrong: the image is still a colour attachment when it is copied.
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![],
            kind: PlanNodeKind::Readback { node: 1 },
        },
    ];
    // Renamed after the plan was built and before it is submitted: the submission applies the
    // name it finds then.
    target.set_name("hud target");
    let submission = s.backend.submit(&plan(frame, nodes)).expect("submit");
    s.backend.wait(submission).expect("wait");
    let messages = s.diagnostics.take_messages();
    assert!(!messages.is_empty(), "the deliberate hazard must be reported");
    assert!(
        messages.iter().any(|m| m.contains("[hud target]")),
        "the message names the image: {messages:?}"
    );
    assert!(!messages.iter().any(|m| m.contains("first name")), "{messages:?}");
    drop(target);
    assert_all_freed(&mut s);
    s.finish();
}

#[test]
fn a_cube_face_is_rendered_and_read_back_alone() {
    let mut s = Session::new();
    let mut desc = target_desc(8, 8, 1, 0);
    desc.layers = 6;
    let cube = s.texture(desc);
    let face = 3;
    let colour = [0.0, 0.2, 1.0, 1.0];
    let mut seg = segment(&cube, vec![]);
    seg.colors[0].layer = face;
    let frame = FrameCommands {
        nodes: vec![
            Node::Pass(seg),
            Node::Readback(Readback {
                image: xnagraph_graph::Image::Color,
                id: ReadbackId(6),
                texture: cube.clone(),
                level: 0,
                layer: face,
                rect: Rect::new(0, 0, 8, 8),
                slices: Slices::FLAT,
            }),
        ],
        sprites: vec![].into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let face_barrier = |src, dst| xnagraph_graph::Barrier {
        texture: cube.clone(),
        image: Image::Color,
        levels: 0..1,
        layers: face..face + 1,
        src,
        dst,
        discard: src == Access::Nothing,
    };
    let mut colour_attachment = attachment(
        &cube,
        Image::Color,
        LoadOp::Clear(ClearValue::Color(colour)),
        StoreOp::Store,
        false,
    );
    colour_attachment.layer = face;
    let nodes = vec![
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![face_barrier(Access::Nothing, Access::ColorAttachmentWrite)],
            kind: pass(0, vec![colour_attachment], vec![]),
        },
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![face_barrier(Access::ColorAttachmentWrite, Access::TransferRead)],
            kind: PlanNodeKind::Readback { node: 1 },
        },
    ];
    let bytes = submit_and_read(&mut s, plan(frame, nodes), 6);
    assert!(
        bytes.chunks_exact(4).all(|p| p == [0, 51, 255, 255]),
        "face {face}: {:?}",
        &bytes[..4]
    );
    drop(cube);
    assert_all_freed(&mut s);
    s.finish();
}
