//! Depth-tested sprite draws lowered by hand: the nearer sprite is kept.

use super::*;

/// A sprite draw with depth testing (LessEqual, writes on) of `quads` quads.
fn depth_tested_draw(
    texture: &std::sync::Arc<xnagraph_graph::TextureState>,
    quads: u32,
    size: u32,
) -> xnagraph_graph::PassOp {
    let mut op = sprite_draw(texture, 0, quads, size, size);
    if let xnagraph_graph::PassOp::Draw(d) = &mut op {
        d.pipeline.depth_stencil = xnagraph_graph::DepthStencilState::DEFAULT;
    }
    op
}

fn at_depth(
    mut sprites: [xnagraph_graph::SpriteInstance; 1],
    z: f32,
) -> [xnagraph_graph::SpriteInstance; 1] {
    for s in &mut sprites {
        s.depth = z;
    }
    sprites
}

#[test]
fn depth_test_keeps_the_nearer_sprite() {
    let mut s = Session::new();
    let white = s.texture(TextureDesc::texture_2d(1, 1, 1, SurfaceFormat::Color));
    let mut desc = target_desc(32, 32, 1, 0);
    let depth = s.backend.applied_depth_format(DepthFormat::Depth24Stencil8);
    if let Some(rt) = desc.render_target.as_mut() {
        rt.depth = depth;
    }
    let target = s.texture(desc);
    // Red at 0.5 over the left 20 columns, green at 0.7 over columns 10..30 (behind red),
    // blue at 0.3 over rows 0..8 of columns 0..32 (in front of both).
    let mut vertices = Vec::new();
    vertices.extend(at_depth(quad(Rect::new(0, 0, 20, 32), RED), 0.5));
    vertices.extend(at_depth(quad(Rect::new(10, 0, 20, 32), GREEN), 0.7));
    vertices.extend(at_depth(quad(Rect::new(0, 0, 32, 8), BLUE), 0.3));
    let frame = FrameCommands {
        nodes: vec![
            upload(&white, Rect::new(0, 0, 1, 1), WHITE.to_vec()),
            Node::Pass(segment(&target, vec![depth_tested_draw(&white, 3, 32)])),
            readback(4, &target, 0, Rect::new(0, 0, 32, 32)),
        ],
        sprites: vertices.into(),
        open_cycle: None,
        ..FrameCommands::default()
    };
    let depth_attachment = xnagraph_graph::PlannedAttachment {
        texture: target.clone(),
        image: Image::DepthStencil,
        layer: 0,
        load: LoadOp::Clear(ClearValue::DepthStencil { depth: 1.0, stencil: 0 }),
        store: StoreOp::DontCare,
        resolve: false,
    };
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
                colors: vec![attachment(
                    &target,
                    Image::Color,
                    LoadOp::Clear(ClearValue::Color([0.0, 0.0, 0.0, 1.0])),
                    StoreOp::Store,
                    false,
                )],
                depth: Some(depth_attachment),
                ops: vec![PlannedOp {
                    index: 0,
                    writes: ColorWrites([0xF, 0, 0, 0]),
                    instances: 1,
                    repeats: 0,
                }],
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
    let bytes = submit_and_read(&mut s, plan(frame, nodes), 4);
    for y in 0..32 {
        for x in 0..32 {
            let expected = if y < 8 {
                BLUE
            } else if x < 20 {
                RED
            } else if x < 30 {
                GREEN
            } else {
                BLACK
            };
            assert_eq!(pixel(&bytes, 32, x, y), expected, "pixel ({x}, {y})");
        }
    }
    drop((white, target));
    assert_all_freed(&mut s);
    s.finish();
}
