//! The stock cube-sampling stage's texture must be a cube, and the stock sprite stage's must not
//! be: a draw that pairs them wrongly is a malformed plan, refused before anything is recorded
//! (never a validation error: the session asserts validation silent at the end).

mod common;

use common::*;
use xnagraph_graph::compile::compile_for_submission;
use xnagraph_graph::{
    Backend, BackendError, FrameCommands, Node, PassOp, Rect, ShaderKind, SurfaceFormat,
    TextureDesc,
};

fn with_shader(op: PassOp, shader: ShaderKind) -> PassOp {
    match op {
        PassOp::Draw(mut d) => {
            d.pipeline.shader = shader;
            PassOp::Draw(d)
        }
        other => other,
    }
}

#[test]
fn a_draw_whose_shader_does_not_match_its_textures_dimension_is_a_malformed_plan() {
    let mut s = Session::new();
    let flat = s.texture(TextureDesc::texture_2d(4, 4, 1, SurfaceFormat::Color));
    let cube = s.texture(TextureDesc {
        layers: 6,
        ..TextureDesc::texture_2d(4, 4, 1, SurfaceFormat::Color)
    });
    let target = s.texture(target_desc(8, 8, 1, 0));
    let cases = [
        (&flat, ShaderKind::CubeSample, "not a cube", false),
        (&cube, ShaderKind::Sprite, "of a cube texture", false),
        (&cube, ShaderKind::CubeSample, "", true),
        (&flat, ShaderKind::Sprite, "", true),
    ];
    for (texture, shader, message, accepted) in cases {
        let frame = FrameCommands {
            nodes: vec![
                Node::Pass(segment(
                    &target,
                    vec![with_shader(sprite_draw(texture, 0, 1, 8, 8), shader)],
                )),
                readback(1, &target, 0, Rect::new(0, 0, 8, 8)),
            ],
            sprites: quad(Rect::new(1, 2, 3, 4), [255, 128, 128, 255]).to_vec().into(),
            open_cycle: None,
            ..FrameCommands::default()
        };
        let (plan, tracking) = compile_for_submission(frame);
        match s.backend.submit(&plan) {
            Ok(id) => {
                assert!(accepted, "{shader:?} accepted");
                tracking.commit();
                s.backend.wait(id).expect("wait");
                s.backend.take_readback(xnagraph_graph::ReadbackId(1)).expect("readback");
            }
            Err(BackendError::Native(m)) => {
                assert!(!accepted, "{shader:?} refused: {m}");
                assert!(m.contains("malformed plan") && m.contains(message), "{m}");
            }
            Err(e) => panic!("{shader:?}: {e:?}"),
        }
    }
    drop((flat, cube, target));
    assert_all_freed(&mut s);
    s.finish();
}
