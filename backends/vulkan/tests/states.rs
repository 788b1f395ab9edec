//! Pipeline state lowered per draw: XNA's `BlendFactor` and `ReferenceStencil` are dynamic state
//! (one pipeline serves every value), with pixels read back.

mod common;

use common::*;
use xnagraph_graph::{
    Access, Blend, ClearValue, CompareFunction, DepthFormat, DepthStencilState, FrameCommands,
    Image, LoadOp, Node, PassOp, PlanNode, PlanNodeKind, PlannedPass, Rect, SpriteInstance,
    StencilOperation, StoreOp, SurfaceFormat, TextureDesc,
};

const W: u32 = 40;
const H: u32 = 25;

/// The blend factor of draw `i`: distinct for every i below 1,000, alpha included.
fn factor(i: u32) -> [u8; 4] {
    [(i % 256) as u8, (i / 256 * 60) as u8, (i * 37 % 256) as u8, (i * 11 % 256) as u8]
}

/// A white 1×1 texture uploaded in the frame's first node.
fn white_upload(s: &mut Session) -> (std::sync::Arc<xnagraph_graph::TextureState>, Node) {
    let white = s.texture(TextureDesc::texture_2d(1, 1, 1, SurfaceFormat::Color));
    let upload = upload(&white, Rect::new(0, 0, 1, 1), vec![255; 4]);
    (white, upload)
}

#[test]
fn a_thousand_blend_factors_share_one_pipeline() {
    let mut s = Session::new();
    let target = s.texture(target_desc(W, H, 1, 0));
    let (white, upload) = white_upload(&mut s);
    // Draw i covers pixel (i % W, i / W) with colour = alpha = its blend factor.
    let mut sprites = Vec::new();
    let mut ops = Vec::new();
    for i in 0..W * H {
        sprites.extend(quad(Rect::new((i % W) as i32, (i / W) as i32, 1, 1), [255; 4]));
        let mut op = sprite_draw(&white, i, 1, W, H);
        if let PassOp::Draw(d) = &mut op {
            let b = &mut d.pipeline.blend;
            (b.color_source_blend, b.color_destination_blend) = (Blend::BlendFactor, Blend::Zero);
            (b.alpha_source_blend, b.alpha_destination_blend) = (Blend::BlendFactor, Blend::Zero);
            b.blend_factor = factor(i);
        }
        ops.push(op);
    }
    let draws = (0..ops.len()).collect();
    let frame = FrameCommands {
        nodes: vec![
            upload,
            Node::Pass(segment(&target, ops)),
            readback(3, &target, 0, Rect::new(0, 0, W as i32, H as i32)),
        ],
        sprites: sprites.into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let black = LoadOp::Clear(ClearValue::Color([0.0, 0.0, 0.0, 1.0]));
    let nodes = vec![
        planned_upload(&white, 0),
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![
                barrier(&white, Image::Color, 0..1, Access::TransferWrite, Access::FragmentSampled),
                barrier(&target, Image::Color, 0..1, Access::Nothing, Access::ColorAttachmentWrite),
            ],
            kind: pass(
                1,
                vec![attachment(&target, Image::Color, black, StoreOp::Store, false)],
                draws,
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
    assert_eq!(s.backend.pipeline_count(), 1, "the blend factor must not select a pipeline");
    for i in 0..W * H {
        assert_eq!(pixel(&bytes, W, i % W, i / W), factor(i), "draw {i}'s own blend factor");
    }
    drop((target, white));
    assert_all_freed(&mut s);
    s.finish();
}

#[test]
fn reference_stencil_is_set_per_draw_by_one_pipeline() {
    let mut s = Session::new();
    let mut desc = target_desc(W, H, 1, 0);
    if let Some(rt) = desc.render_target.as_mut() {
        rt.depth = DepthFormat::Depth24Stencil8;
    }
    let target = s.texture(desc);
    let (white, upload) = white_upload(&mut s);
    let stencil = |function, pass, reference| DepthStencilState {
        depth_buffer_enable: false,
        depth_buffer_write_enable: false,
        stencil_enable: true,
        stencil_function: function,
        stencil_pass: pass,
        reference_stencil: reference,
        ..DepthStencilState::NONE
    };
    // Left third gets stencil 3, middle third 7 (tinted dark grey); then a full-target red draw
    // passes only where the stencil equals 7.
    let thirds = |x| Rect::new(x, 0, W as i32 / 3, H as i32);
    let mut sprites: Vec<SpriteInstance> = Vec::new();
    sprites.extend(quad(thirds(0), [40, 40, 40, 255]));
    sprites.extend(quad(thirds(W as i32 / 3), [40, 40, 40, 255]));
    sprites.extend(quad(Rect::new(0, 0, W as i32, H as i32), [255, 0, 0, 255]));
    let states = [
        stencil(CompareFunction::Always, StencilOperation::Replace, 3),
        stencil(CompareFunction::Always, StencilOperation::Replace, 7),
        stencil(CompareFunction::Equal, StencilOperation::Keep, 7),
    ];
    let ops: Vec<PassOp> = states
        .iter()
        .enumerate()
        .map(|(i, state)| {
            let mut op = sprite_draw(&white, i as u32, 1, W, H);
            if let PassOp::Draw(d) = &mut op {
                d.pipeline.depth_stencil = *state;
            }
            op
        })
        .collect();
    let frame = FrameCommands {
        nodes: vec![
            upload,
            Node::Pass(segment(&target, ops)),
            readback(3, &target, 0, Rect::new(0, 0, W as i32, H as i32)),
        ],
        sprites: sprites.into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let black = LoadOp::Clear(ClearValue::Color([0.0, 0.0, 0.0, 1.0]));
    let zero = LoadOp::Clear(ClearValue::DepthStencil { depth: 1.0, stencil: 0 });
    let nodes = vec![
        planned_upload(&white, 0),
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![
                barrier(&white, Image::Color, 0..1, Access::TransferWrite, Access::FragmentSampled),
                barrier(&target, Image::Color, 0..1, Access::Nothing, Access::ColorAttachmentWrite),
                barrier(
                    &target,
                    Image::DepthStencil,
                    0..1,
                    Access::Nothing,
                    Access::DepthStencilAttachmentReadWrite,
                ),
            ],
            kind: PlanNodeKind::Pass(PlannedPass {
                segment: 1,
                colors: vec![attachment(&target, Image::Color, black, StoreOp::Store, false)],
                depth: Some(attachment(
                    &target,
                    Image::DepthStencil,
                    zero,
                    StoreOp::DontCare,
                    false,
                )),
                ops: (0..3)
                    .map(|index| xnagraph_graph::PlannedOp {
                        index,
                        writes: xnagraph_graph::ColorWrites([0xF, 0, 0, 0]),
                        instances: 1,
                        repeats: 0,
                    })
                    .collect(),
            }),
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
    let grey = [40, 40, 40, 255];
    assert_eq!(pixel(&bytes, W, 3, 20), grey, "stencil 3: the red draw fails");
    assert_eq!(pixel(&bytes, W, 20, 4), [255, 0, 0, 255], "stencil 7: the red draw passes");
    assert_eq!(pixel(&bytes, W, 35, 12), [0, 0, 0, 255], "stencil 0: the red draw fails");
    assert_eq!(s.backend.pipeline_count(), 2, "Always/Replace once, Equal/Keep once");
    drop((target, white));
    assert_all_freed(&mut s);
    s.finish();
}
