//! `OcclusionQuery`: the exact count of a 13×7 rectangle partly hidden by a nearer one, read
//! without stalling (not complete while its frame is recorded, complete some frames later),
//! a second span in a later frame, XNA's errors for misuse, and `NotSupported` with XNA's
//! message where the renderer has no queries (SDL_gpu).

mod common;

use common::*;
use xnagraph::{
    BasicEffect, BufferUsage, Color, DepthFormat, GraphicsDevice, IndexBuffer, IndexElementSize,
    OcclusionQuery, PrimitiveType, RenderTarget2D, Vector3, VertexBuffer, VertexPositionColor,
    XnaError, OCCLUSION_QUERY_NOT_SUPPORTED,
};

const W: i32 = 32;
const H: i32 = 24;
const CLEAR: Color = Color::new(10, 20, 30, 255);
const NEAR: Color = Color::new(200, 40, 50, 255);
const FAR: Color = Color::new(30, 190, 80, 255);

fn vpc(x: f32, y: f32, z: f32, color: Color) -> VertexPositionColor {
    VertexPositionColor {
        position: Vector3::new(x / W as f32 * 2.0 - 1.0, 1.0 - y / H as f32 * 2.0, z),
        color,
    }
}

/// Two clockwise triangles covering pixels x0..x1 × y0..y1 at depth z.
fn rect(x0: f32, y0: f32, x1: f32, y1: f32, z: f32, c: Color) -> [VertexPositionColor; 6] {
    let (tl, tr, bl, br) =
        (vpc(x0, y0, z, c), vpc(x1, y0, z, c), vpc(x0, y1, z, c), vpc(x1, y1, z, c));
    [tl, tr, bl, tr, br, bl]
}

/// A device with depth, its query, and a vertex-coloured effect applied; `None` where the
/// renderer has no queries (SDL_gpu), after checking it refuses them with XNA's message.
fn setup() -> Option<(GraphicsDevice, OcclusionQuery, BasicEffect)> {
    let mut p = params(W, H);
    p.depth_stencil_format = DepthFormat::Depth24;
    let device = device_with(xnagraph::GraphicsProfile::HiDef, p);
    let query = match OcclusionQuery::new(&device) {
        Ok(q) => q,
        Err(XnaError::NotSupported { message }) if on_sdlgpu() => {
            assert_eq!(message, OCCLUSION_QUERY_NOT_SUPPORTED);
            return None;
        }
        Err(e) => panic!("{e:?}"),
    };
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.vertex_color_enabled = true;
    effect.current_technique().passes()[0].apply().unwrap();
    Some((device, query, effect))
}

/// Polls `query` through presented frames until it is complete (a bounded number of frames).
fn poll(device: &GraphicsDevice, query: &OcclusionQuery) -> (i32, usize) {
    for frame in 0..200 {
        if query.is_complete().unwrap() {
            return (query.pixel_count().unwrap(), frame);
        }
        device.present().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("the query never completed");
}

#[test]
fn a_query_counts_the_visible_pixels_of_a_partly_hidden_rectangle() {
    let _v = Validation::new();
    let Some((device, query, _effect)) = setup() else { return };
    device.clear(CLEAR).unwrap();
    // The occluder, nearer: columns 0..14 of rows 3..20, drawn before the query.
    device
        .draw_user_primitives(
            PrimitiveType::TriangleList,
            &rect(0.0, 3.0, 14.0, 20.0, 0.2, NEAR),
            0,
            2,
        )
        .unwrap();
    query.begin().unwrap();
    // 13×7 at x 9..22, y 5..12, farther: columns 9..14 (5 × 7 = 35 pixels) are hidden.
    device
        .draw_user_primitives(
            PrimitiveType::TriangleList,
            &rect(9.0, 5.0, 22.0, 12.0, 0.5, FAR),
            0,
            2,
        )
        .unwrap();
    query.end().unwrap();
    // Drawn after End: not counted.
    device
        .draw_user_primitives(
            PrimitiveType::TriangleList,
            &rect(24.0, 14.0, 30.0, 22.0, 0.5, FAR),
            0,
            2,
        )
        .unwrap();
    assert!(!query.is_complete().unwrap(), "nothing is submitted while the frame is recorded");
    assert!(matches!(query.pixel_count(), Err(XnaError::InvalidOperation { .. })));
    let px = read_back_buffer(&device);
    let far_in_rect = (5..12)
        .flat_map(|y| (9..22).map(move |x| (x, y)))
        .filter(|&(x, y)| at(&px, W, x, y) == FAR)
        .count();
    assert_eq!(far_in_rect, 13 * 7 - 5 * 7, "the picture agrees with the count expected");
    let (count, _) = poll(&device, &query);
    assert_eq!(count, 13 * 7 - 5 * 7);

    // A second span, in a later frame, with nothing in front: the whole rectangle.
    device.clear(CLEAR).unwrap();
    query.begin().unwrap();
    device
        .draw_user_primitives(
            PrimitiveType::TriangleList,
            &rect(9.0, 5.0, 22.0, 12.0, 0.5, FAR),
            0,
            2,
        )
        .unwrap();
    query.end().unwrap();
    device.present().unwrap();
    let (count, _) = poll(&device, &query);
    assert_eq!(count, 13 * 7);

    // A span in a pass nothing else observes (a discarding target overwritten by its next
    // bind before anything reads it): the pass is kept for the count.
    let unseen = RenderTarget2D::new(&device, 16, 16).unwrap();
    device.set_render_target(Some(&unseen)).unwrap();
    device.clear(CLEAR).unwrap();
    query.begin().unwrap();
    let quad = [vpc(0.0, 0.0, 0.5, FAR), vpc(32.0, 0.0, 0.5, FAR), vpc(0.0, 24.0, 0.5, FAR)];
    device.draw_user_primitives(PrimitiveType::TriangleList, &quad, 0, 1).unwrap();
    query.end().unwrap();
    device.set_render_target(None).unwrap();
    device.set_render_target(Some(&unseen)).unwrap();
    device.clear(NEAR).unwrap();
    device.set_render_target(None).unwrap();
    device.present().unwrap();
    // The upper-left half of the 16×16 target: pixels with x + y < 15; the centres of the
    // diagonal's pixels lie on the bottom-right edge, which the top-left rule leaves out.
    assert_eq!(poll(&device, &query).0, 16 * 15 / 2, "the unobserved pass counted");

    // Two spans in one frame: the second Begin submits the first span's frame.
    device.clear(CLEAR).unwrap();
    query.begin().unwrap();
    query.end().unwrap();
    query.begin().unwrap();
    device
        .draw_user_primitives(
            PrimitiveType::TriangleList,
            &rect(1.0, 1.0, 4.0, 3.0, 0.5, FAR),
            0,
            2,
        )
        .unwrap();
    query.end().unwrap();
    device.present().unwrap();
    assert_eq!(poll(&device, &query).0, 6, "the last span counts");
}

/// A device that merges runs of draws records a draw that differs from the last one only in
/// World as a repeat of it; a query begun between the two still counts the second draw alone,
/// and a draw after `End` stays out of the span.
#[test]
fn a_query_begun_between_two_draws_of_one_mesh_counts_the_second_alone() {
    let _v = Validation::new();
    let Some((device, query, mut effect)) = setup() else { return };
    // A 4×3 rectangle at pixel (0, 0); World moves it by whole pixels.
    let quad =
        VertexBuffer::with_type::<VertexPositionColor>(&device, 6, BufferUsage::WriteOnly).unwrap();
    quad.set_data(&rect(0.0, 0.0, 4.0, 3.0, 0.5, FAR)).unwrap();
    let at_pixel = |x: f32, y: f32| {
        xnagraph::Matrix::create_translation(x * 2.0 / W as f32, -y * 2.0 / H as f32, 0.0)
    };
    device.clear(CLEAR).unwrap();
    device.set_vertex_buffer(Some(&quad)).unwrap();
    let mut draw_at = |x: f32, y: f32| {
        effect.world = at_pixel(x, y);
        effect.current_technique().passes()[0].apply().unwrap();
        device.draw_primitives(PrimitiveType::TriangleList, 0, 2).unwrap();
    };
    draw_at(2.0, 2.0);
    query.begin().unwrap();
    draw_at(10.0, 9.0);
    query.end().unwrap();
    draw_at(21.0, 15.0);
    let px = read_back_buffer(&device);
    for (x, y) in [(2, 2), (10, 9), (21, 15)] {
        assert_eq!(at(&px, W, x + 3, y + 2), FAR, "the rectangle at ({x}, {y})");
        assert_eq!(at(&px, W, x + 4, y + 3), CLEAR, "beyond the rectangle at ({x}, {y})");
    }
    assert_eq!(poll(&device, &query).0, 4 * 3, "the draw inside the span alone");
}

/// XNA's (and MonoGame's) `IsComplete` of a query never begun is false, not an exception: a
/// game may poll a query before its first use.
#[test]
fn is_complete_is_false_before_the_query_was_begun() {
    let _v = Validation::new();
    let Some((_device, query, _effect)) = setup() else { return };
    assert_eq!(query.is_complete(), Ok(false));
    assert!(matches!(query.pixel_count(), Err(XnaError::InvalidOperation { .. })));
}

#[test]
fn misuse_gets_xnas_errors() {
    let _v = Validation::new();
    let Some((device, query, _effect)) = setup() else { return };
    let invalid = |r: xnagraph::Result<()>, says: &str| match r {
        Err(XnaError::InvalidOperation { message }) => assert!(message.contains(says), "{message}"),
        other => panic!("expected InvalidOperation ({says}), got {other:?}"),
    };
    invalid(query.pixel_count().map(|_| ()), "until IsComplete is true");
    invalid(query.end(), "before Begin");
    // A clear opens the back buffer's pass, where the span begins.
    device.clear(CLEAR).unwrap();
    query.begin().unwrap();
    invalid(query.begin(), "before End");
    assert_eq!(query.is_complete(), Ok(false), "IsComplete between Begin and End");
    invalid(query.pixel_count().map(|_| ()), "until IsComplete is true");
    // The target changes between Begin and End: the span would leave its pass.

    let rt = RenderTarget2D::new(&device, 8, 8).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(CLEAR).unwrap();
    invalid(query.end(), "in the pass of its Begin");
    device.set_render_target(None).unwrap();
    // Refused spans record nothing: the query is idle again and the frame is valid.
    query.begin().unwrap();
    query.end().unwrap();
    device.present().unwrap();
    assert_eq!(poll(&device, &query).0, 0, "an empty span counts nothing");
    query.dispose();
    assert!(matches!(query.begin(), Err(XnaError::ObjectDisposed { .. })));
    assert!(matches!(query.is_complete(), Err(XnaError::ObjectDisposed { .. })));
}

#[test]
fn sdl_gpu_refuses_occlusion_queries_with_xnas_message() {
    if !on_sdlgpu() {
        skipped("sdl_gpu_refuses_occlusion_queries_with_xnas_message", "runs on SDL_gpu only");
        return;
    }
    let device = device(W, H);
    match OcclusionQuery::new(&device) {
        Err(XnaError::NotSupported { message }) => {
            assert_eq!(message, OCCLUSION_QUERY_NOT_SUPPORTED)
        }
        other => panic!("expected NotSupported, got {other:?}"),
    }
}

/// Two queries whose spans overlap in one pass: an outer span around a 10×4 rectangle and an
/// inner one around a 5×2 rectangle drawn inside it. Vulkan allows one active occlusion query in
/// a command buffer, so either the inner `Begin` is refused with `InvalidOperation` (as ports of
/// XNA over OpenGL must, and as xnagraph does), or both spans are counted exactly (outer 40 +
/// 10, inner 10), and in both cases without a validation message. Once the outer span has
/// ended, the refused query begins and counts its own span.
///
/// Before the refusal both `Begin`s were accepted and the plan nested two active queries
/// (VUID-vkCmdBeginQuery-queryPool-01922). Found by the sequence fuzzer
/// (`xnagraph-fuzz-sequence`, seed 100283: `q0.begin(); q1.begin(); q1.end(); q0.end();`).
#[test]
fn overlapping_query_spans_are_refused_or_each_counted_exactly() {
    let _v = Validation::new();
    let Some((device, outer, _effect)) = setup() else { return };
    let inner = OcclusionQuery::new(&device).unwrap();
    device.clear(CLEAR).unwrap();
    outer.begin().unwrap();
    let big = rect(2.0, 2.0, 12.0, 6.0, 0.5, FAR);
    device.draw_user_primitives(PrimitiveType::TriangleList, &big, 0, 2).unwrap();
    let nested = inner.begin();
    let small = rect(20.0, 10.0, 25.0, 12.0, 0.4, NEAR);
    device.draw_user_primitives(PrimitiveType::TriangleList, &small, 0, 2).unwrap();
    match nested {
        Err(XnaError::InvalidOperation { .. }) => {
            outer.end().unwrap();
            assert_eq!(poll(&device, &outer).0, 50);
            // Refused, the inner query is idle: End is InvalidOperation, and a span after the
            // outer one's counts.
            assert!(matches!(inner.end(), Err(XnaError::InvalidOperation { .. })));
            device.clear(CLEAR).unwrap();
            inner.begin().unwrap();
            device.draw_user_primitives(PrimitiveType::TriangleList, &small, 0, 2).unwrap();
            inner.end().unwrap();
            assert_eq!(poll(&device, &inner).0, 10);
        }
        Err(e) => panic!("{e:?}"),
        Ok(()) => {
            inner.end().unwrap();
            outer.end().unwrap();
            assert_eq!(poll(&device, &inner).0, 10);
            assert_eq!(poll(&device, &outer).0, 50);
        }
    }
}

/// A disposed query's native object is freed and nothing else is: the retirement of query
/// n must not reach the vertex or index buffer whose serial is also n. The buffers keep their
/// data through the flush that retires the query, and the query's native object is gone once
/// the device is idle.
#[test]
fn disposing_a_query_frees_the_query_and_no_buffer() {
    let _v = Validation::new();
    let Some((device, query, _effect)) = setup() else { return };
    device.wait_idle().unwrap();
    let before = device.live_native_objects().unwrap();
    let vertices = [vpc(1.0, 2.0, 0.25, NEAR), vpc(3.0, 4.0, 0.5, FAR), vpc(5.0, 6.0, 0.75, CLEAR)];
    let vb = VertexBuffer::with_type::<VertexPositionColor>(&device, 3, BufferUsage::None).unwrap();
    vb.set_data(&vertices).unwrap();
    let ib =
        IndexBuffer::new(&device, IndexElementSize::SixteenBits, 3, BufferUsage::None).unwrap();
    ib.set_data(&[2u16, 0, 1]).unwrap();
    let second = OcclusionQuery::new(&device).unwrap();
    query.dispose();
    drop(second);
    device.clear(CLEAR).unwrap();
    device.flush().unwrap();
    device.wait_idle().unwrap();
    let mut back = [VertexPositionColor::default(); 3];
    vb.get_data(&mut back).unwrap();
    assert_eq!(back, vertices);
    let mut indices = [0u16; 3];
    ib.get_data(&mut indices).unwrap();
    assert_eq!(indices, [2, 0, 1]);
    let after = device.live_native_objects().unwrap();
    assert_eq!(after.effects + 1, before.effects, "the query's native object is freed: {after:?}");
    assert_eq!(after.awaiting_retirement, 0, "{after:?}");
}

/// The span a query leaves open when it is disposed or dropped no longer refuses another
/// query's `Begin`: nothing can end it, so it would refuse every later span.
#[test]
fn a_disposed_or_dropped_query_no_longer_keeps_others_from_beginning() {
    let _v = Validation::new();
    let Some((device, first, _effect)) = setup() else { return };
    let second = OcclusionQuery::new(&device).unwrap();
    device.clear(CLEAR).unwrap();
    first.begin().unwrap();
    assert!(matches!(second.begin(), Err(XnaError::InvalidOperation { .. })));
    first.dispose();
    second.begin().unwrap();
    let third = OcclusionQuery::new(&device).unwrap();
    assert!(matches!(third.begin(), Err(XnaError::InvalidOperation { .. })));
    drop(second);
    third.begin().unwrap();
    let small = rect(20.0, 10.0, 25.0, 12.0, 0.4, NEAR);
    device.draw_user_primitives(PrimitiveType::TriangleList, &small, 0, 2).unwrap();
    third.end().unwrap();
    assert_eq!(poll(&device, &third).0, 10);
}
