//! Vertex and index buffers: data round trips through the GPU at offsets and strides, dynamic
//! writes with Discard and NoOverwrite over many frames, XNA's errors for each bad argument,
//! and the resource lifetime (events, disposal, deferred release, content lost).

mod common;

use std::sync::{Arc, Mutex};

use common::*;
use xnagraph::{
    BufferUsage, Color, DynamicIndexBuffer, DynamicVertexBuffer, IndexBuffer, IndexElementSize,
    SetDataOptions, Vector3, VertexBuffer, VertexDeclaration, VertexElement, VertexElementFormat,
    VertexElementUsage, VertexPositionColor, VertexPositionNormalTexture, VertexType, XnaError,
};

fn vpc(i: u32) -> VertexPositionColor {
    let f = i as f32;
    VertexPositionColor {
        position: Vector3 { x: f, y: f * 2.0 + 0.5, z: -f },
        color: Color::new(i as u8, 255 - i as u8, (i * 7) as u8, 200),
    }
}

#[test]
fn vertices_round_trip_at_offsets_and_strides() {
    let _v = Validation::new();
    let device = device(4, 4);
    let vb =
        VertexBuffer::with_type::<VertexPositionColor>(&device, 16, BufferUsage::None).unwrap();
    let all: Vec<_> = (0..16).map(vpc).collect();
    vb.set_data(&all).unwrap();
    let mut back = vec![VertexPositionColor::default(); 16];
    vb.get_data(&mut back).unwrap();
    assert_eq!(back, all);

    // Three vertices from index 2 of the slice, written every other vertex from vertex 5: the
    // vertices between them keep what they held.
    let new: Vec<_> = (100..106).map(vpc).collect();
    vb.set_data_full(5 * 16, &new, 2, 3, 32).unwrap();
    let mut expect = all.clone();
    expect[5] = new[2];
    expect[7] = new[3];
    expect[9] = new[4];
    vb.get_data(&mut back).unwrap();
    assert_eq!(back, expect);

    // Read back strided into the middle of a slice, leaving the rest as it was.
    let mut some = vec![VertexPositionColor::default(); 5];
    vb.get_data_full(7 * 16, &mut some, 1, 2, 32).unwrap();
    assert_eq!(
        some,
        [
            VertexPositionColor::default(),
            expect[7],
            expect[9],
            Default::default(),
            Default::default()
        ]
    );
}

#[test]
fn indices_of_both_sizes_round_trip() {
    let _v = Validation::new();
    let device = device(4, 4);
    let ib16 =
        IndexBuffer::new(&device, IndexElementSize::SixteenBits, 9, BufferUsage::None).unwrap();
    let data: Vec<u16> = (0..9).map(|i| 1000 + i * 3).collect();
    ib16.set_data(&data).unwrap();
    ib16.set_data_full(4, &[7u16, 8, 9], 1, 2).unwrap();
    let mut back = vec![0u16; 9];
    ib16.get_data(&mut back).unwrap();
    let mut expect = data.clone();
    expect[2] = 8;
    expect[3] = 9;
    assert_eq!(back, expect);
    let ib32 =
        IndexBuffer::new(&device, IndexElementSize::ThirtyTwoBits, 3, BufferUsage::None).unwrap();
    ib32.set_data(&[70_000u32, 1, 99_999]).unwrap();
    let mut back = [0u32; 3];
    ib32.get_data(&mut back).unwrap();
    assert_eq!(back, [70_000, 1, 99_999]);
}

/// A dynamic buffer rewritten every frame for 100 frames: a Discard of the first half, then a
/// NoOverwrite of the second, read back every tenth frame; the values are each frame's own.
#[test]
fn dynamic_buffers_rewritten_every_frame_with_discard_and_no_overwrite() {
    let _v = Validation::new();
    let device = device(4, 4);
    let decl = VertexPositionColor::vertex_declaration();
    let vb = DynamicVertexBuffer::new(&device, &decl, 8, BufferUsage::None).unwrap();
    let ib = DynamicIndexBuffer::new(&device, IndexElementSize::SixteenBits, 4, BufferUsage::None)
        .unwrap();
    for frame in 0..100u32 {
        let first: Vec<_> = (0..4).map(|i| vpc(frame + i)).collect();
        let second: Vec<_> = (0..4).map(|i| vpc(frame * 2 + i)).collect();
        vb.set_data_with_options(0, &first, 0, 4, 0, SetDataOptions::Discard).unwrap();
        vb.set_data_with_options(64, &second, 0, 4, 0, SetDataOptions::NoOverwrite).unwrap();
        let idx = [frame as u16, 1, 2, frame as u16 + 3];
        ib.set_data_with_options(0, &idx, 0, 4, SetDataOptions::Discard).unwrap();
        if frame % 10 == 9 {
            let mut back = vec![VertexPositionColor::default(); 8];
            vb.get_data(&mut back).unwrap();
            assert_eq!(&back[..4], &first[..], "frame {frame}");
            assert_eq!(&back[4..], &second[..], "frame {frame}");
            let mut got = [0u16; 4];
            ib.get_data(&mut got).unwrap();
            assert_eq!(got, idx, "frame {frame}");
        }
        device.present().unwrap();
    }
    device.wait_idle().unwrap();
    // Renamed storage is recycled: the buffers hold a few storages, not one per frame.
    let live = device.live_native_objects().unwrap();
    assert!(live.buffers < 16, "{live:?}");
}

/// The renamed storage keeps what earlier uses of the frame read: a readback recorded before a
/// Discard rewrite sees the old bytes, one after it the new ones, in one flush.
#[test]
fn a_discard_write_after_a_use_does_not_change_what_that_use_saw() {
    let _v = Validation::new();
    let device = device(4, 4);
    let ib =
        DynamicIndexBuffer::new(&device, IndexElementSize::ThirtyTwoBits, 4, BufferUsage::None)
            .unwrap();
    ib.set_data_with_options(0, &[1u32, 2, 3, 4], 0, 4, SetDataOptions::Discard).unwrap();
    let mut before = [0u32; 4];
    ib.get_data(&mut before).unwrap();
    ib.set_data_with_options(0, &[5u32, 6], 0, 2, SetDataOptions::Discard).unwrap();
    ib.set_data_with_options(8, &[7u32, 8], 0, 2, SetDataOptions::NoOverwrite).unwrap();
    let mut after = [0u32; 4];
    ib.get_data(&mut after).unwrap();
    assert_eq!((before, after), ([1, 2, 3, 4], [5, 6, 7, 8]));
}

fn out_of_range(param: &'static str) -> impl Fn(&XnaError) -> bool {
    move |e| matches!(e, XnaError::ArgumentOutOfRange { param: p, .. } if *p == param)
}

/// XNA accepts a `vertexStride` larger than the whole buffer for one element (MonoGame's
/// `SetDataWithElementCountAndVertexStride` records it: 1 element at stride 81 of an 80-byte
/// buffer succeeds, 2 are `InvalidOperation`); the element lands at the offset, and reads
/// back with the same stride.
#[test]
fn a_stride_larger_than_the_buffer_is_accepted_for_one_element() {
    let _v = Validation::new();
    let device = device(4, 4);
    let vb = VertexBuffer::with_type::<VertexPositionColor>(&device, 4, BufferUsage::None).unwrap();
    vb.set_data(&[vpc(1), vpc(2), vpc(3), vpc(4)]).unwrap();
    let size = 4 * std::mem::size_of::<VertexPositionColor>() as i32;
    vb.set_data_full(16, &[vpc(9)], 0, 1, size + 1).unwrap();
    let mut one = [VertexPositionColor::default()];
    vb.get_data_full(16, &mut one, 0, 1, size + 1).unwrap();
    assert_eq!(one[0], vpc(9));
    let mut all = [VertexPositionColor::default(); 4];
    vb.get_data(&mut all).unwrap();
    assert_eq!(all, [vpc(1), vpc(9), vpc(3), vpc(4)], "only the one element was placed");
    let two = vb.set_data_full(0, &[vpc(5), vpc(6)], 0, 2, size + 1);
    assert!(matches!(two, Err(XnaError::InvalidOperation { .. })), "{two:?}");
}

#[test]
fn every_bad_argument_is_xnas_error() {
    let device = device(4, 4);
    let vb = VertexBuffer::with_type::<VertexPositionColor>(&device, 4, BufferUsage::None).unwrap();
    let v = [vpc(1); 4];
    let check = |r: xnagraph::Result<()>, ok: &dyn Fn(&XnaError) -> bool, what: &str| {
        let e = r.expect_err(what);
        assert!(ok(&e), "{what}: {e:?}");
    };
    check(vb.set_data_full(-1, &v, 0, 1, 0), &out_of_range("offsetInBytes"), "negative offset");
    check(vb.set_data_full(0, &v, 0, 1, -16), &out_of_range("vertexStride"), "negative stride");
    check(vb.set_data_full(0, &v, 0, 1, 8), &out_of_range("vertexStride"), "stride below T");
    let invalid = |e: &XnaError| matches!(e, XnaError::InvalidOperation { .. });
    check(vb.set_data_full(0, &v, 0, 2, 128), &invalid, "two elements, stride past buffer");
    check(vb.set_data_full(0, &v, 3, 2, 0), &out_of_range("data"), "range past the slice");
    check(vb.set_data_full(0, &v, 0, 0, 0), &out_of_range("data"), "no elements");
    check(vb.set_data_full(16, &v, 0, 4, 0), &invalid, "past the buffer's end");
    let mut out = [VertexPositionColor::default(); 4];
    check(vb.get_data_full(32, &mut out, 0, 3, 0), &invalid, "read past the end");
    check(vb.get_data_full(0, &mut out, 2, 3, 0), &out_of_range("data"), "read past the slice");

    let ib = IndexBuffer::new(&device, IndexElementSize::SixteenBits, 4, BufferUsage::WriteOnly)
        .unwrap();
    let arg = |e: &XnaError| matches!(e, XnaError::Argument { param: "data", .. });
    check(ib.set_data(&[1u32, 2]), &arg, "32-bit data into 16-bit indices");
    let mut idx = [0u16; 4];
    let unsupported = |e: &XnaError| matches!(e, XnaError::NotSupported { .. });
    check(ib.get_data(&mut idx), &unsupported, "GetData of a WriteOnly buffer");

    let count = |param| {
        move |r: xnagraph::Result<()>| {
            let e = r.expect_err(param);
            assert!(out_of_range(param)(&e), "{e:?}");
        }
    };
    count("vertexCount")(
        VertexBuffer::with_type::<VertexPositionColor>(&device, 0, BufferUsage::None).map(drop),
    );
    count("indexCount")(
        IndexBuffer::new(&device, IndexElementSize::SixteenBits, -1, BufferUsage::None).map(drop),
    );
    let reach = device_with(xnagraph::GraphicsProfile::Reach, params(4, 4));
    let e = IndexBuffer::new(&reach, IndexElementSize::ThirtyTwoBits, 4, BufferUsage::None)
        .unwrap_err();
    assert!(unsupported(&e), "{e:?}");

    // Declarations.
    let el = |offset, format, usage| VertexElement::new(offset, format, usage, 0);
    use VertexElementFormat as F;
    use VertexElementUsage as U;
    assert!(matches!(
        VertexDeclaration::new(&[]),
        Err(XnaError::Argument { param: "elements", .. })
    ));
    let overlap = [el(0, F::Vector3, U::Position), el(8, F::Color, U::Color)];
    assert!(matches!(VertexDeclaration::new(&overlap), Err(XnaError::InvalidOperation { .. })));
    let twice = [el(0, F::Vector3, U::Position), el(12, F::Vector3, U::Position)];
    assert!(matches!(VertexDeclaration::new(&twice), Err(XnaError::InvalidOperation { .. })));
    let short = VertexDeclaration::with_stride(8, &[el(0, F::Vector3, U::Position)]);
    assert!(out_of_range("vertexStride")(&short.unwrap_err()));
    assert_eq!(VertexPositionNormalTexture::vertex_declaration().vertex_stride(), 32);
    assert_eq!(std::mem::size_of::<VertexPositionNormalTexture>(), 32);

    vb.dispose();
    let disposed = |e: &XnaError| matches!(e, XnaError::ObjectDisposed { object: "VertexBuffer" });
    check(vb.set_data(&v), &disposed, "SetData after Dispose");
    check(vb.get_data(&mut out), &disposed, "GetData after Dispose");
}

#[test]
fn buffers_are_tracked_resources_released_after_their_last_use() {
    let _v = Validation::new();
    let device = device(4, 4);
    let events = Arc::new(Mutex::new(Vec::new()));
    let (c, d) = (events.clone(), events.clone());
    device
        .events()
        .resource_created
        .subscribe(move |a| c.lock().unwrap().push(("created", a.kind)));
    device
        .events()
        .resource_destroyed
        .subscribe(move |a| d.lock().unwrap().push(("destroyed", a.kind)));
    // One frame first: the backend's own per-frame buffers (SDL_gpu makes its vertex stream and
    // upload buffer at the first submission) are not what this test counts.
    device.present().unwrap();
    device.wait_idle().unwrap();
    let before = device.live_native_objects().unwrap().buffers;
    let vb = VertexBuffer::with_type::<VertexPositionColor>(&device, 4, BufferUsage::None).unwrap();
    let ib = DynamicIndexBuffer::new(&device, IndexElementSize::SixteenBits, 4, BufferUsage::None)
        .unwrap();
    let disposing = Arc::new(Mutex::new(0));
    let n = disposing.clone();
    vb.disposing().subscribe(move |_| *n.lock().unwrap() += 1);
    assert_eq!(device.live_native_objects().unwrap().buffers, before + 2);
    // A queued upload keeps the native buffer alive past Dispose.
    vb.set_data(&[vpc(3); 4]).unwrap();
    vb.dispose();
    drop(ib);
    assert_eq!(*disposing.lock().unwrap(), 1, "Disposing is raised by Dispose only");
    device.present().unwrap();
    device.wait_idle().unwrap();
    assert_eq!(device.live_native_objects().unwrap().buffers, before);
    assert_eq!(
        *events.lock().unwrap(),
        [
            ("created", "VertexBuffer"),
            ("created", "DynamicIndexBuffer"),
            ("destroyed", "VertexBuffer"),
            ("destroyed", "DynamicIndexBuffer")
        ]
    );
}

#[test]
fn a_reported_reset_loses_dynamic_content_until_the_next_set_data() {
    let device = device(4, 4);
    let decl = VertexPositionColor::vertex_declaration();
    let dynamic = DynamicVertexBuffer::new(&device, &decl, 4, BufferUsage::None).unwrap();
    let stat = VertexBuffer::new(&device, &decl, 4, BufferUsage::None).unwrap();
    let raised = Arc::new(Mutex::new(0));
    let r = raised.clone();
    dynamic.content_lost().subscribe(move |_| *r.lock().unwrap() += 1);
    device.notify_device_reset();
    assert!(dynamic.is_content_lost());
    assert_eq!(*raised.lock().unwrap(), 1);
    dynamic.set_data_with_options(0, &[vpc(1)], 0, 1, 0, SetDataOptions::Discard).unwrap();
    assert!(!dynamic.is_content_lost());
    drop(stat);
}

/// The compiler's renaming decision is carried out by the backend: a partial Discard write to
/// a buffer an earlier use still tracks goes to fresh storage (one more native buffer: the old
/// storage stays as a spare), the spare is reused by later renames once its submission has
/// completed, and a write with `None` never renames. The bytes are each write's own.
#[test]
fn a_partial_discard_write_after_a_use_renames_and_later_renames_reuse_the_spare() {
    let _v = Validation::new();
    let device = device(4, 4);
    let decl = VertexPositionColor::vertex_declaration();
    let vb = DynamicVertexBuffer::new(&device, &decl, 8, BufferUsage::None).unwrap();
    let mut back = vec![VertexPositionColor::default(); 8];
    let count = || {
        device.wait_idle().unwrap();
        device.live_native_objects().unwrap().buffers
    };
    let all: Vec<_> = (0..8).map(vpc).collect();
    vb.set_data(&all).unwrap();
    vb.get_data(&mut back).unwrap();
    let base = count();
    let none: Vec<_> = (20..24).map(vpc).collect();
    vb.set_data_with_options(0, &none, 0, 4, 0, SetDataOptions::None).unwrap();
    vb.get_data(&mut back).unwrap();
    assert_eq!((&back[..4], &back[4..]), (&none[..], &all[4..]));
    assert_eq!(count(), base, "a write with None lands in place");
    for round in 0..4u32 {
        let discard: Vec<_> = (0..4).map(|i| vpc(40 + round * 4 + i)).collect();
        vb.set_data_with_options(0, &discard, 0, 4, 0, SetDataOptions::Discard).unwrap();
        vb.get_data_full(0, &mut back[..4], 0, 4, 0).unwrap();
        assert_eq!(&back[..4], &discard[..], "round {round}");
        assert_eq!(count(), base + 1, "round {round}: one spare, reused once completed");
    }
}

/// A vertex buffer written, drawn from and read back in one frame: the readback's copy must
/// wait for the write, though a draw that read the bytes lies between them (the barrier before
/// the copy makes the write, not only the draw's read, available to it). Found by the sequence
/// fuzzer (`xnagraph-fuzz-sequence`, seed 82); on Vulkan, sync validation reports a
/// read-after-write hazard on the copy.
#[test]
fn a_readback_after_a_draw_from_written_vertices_waits_for_the_write() {
    for dynamic in [false, true] {
        let _v = Validation::new();
        let device = device(8, 8);
        let effect = xnagraph::BasicEffect::new(&device).unwrap();
        let decl = VertexPositionColor::vertex_declaration();
        let (static_vb, dynamic_vb);
        let vb: &VertexBuffer = if dynamic {
            dynamic_vb = DynamicVertexBuffer::new(&device, &decl, 4, BufferUsage::None).unwrap();
            dynamic_vb.as_vertex_buffer()
        } else {
            static_vb = VertexBuffer::new(&device, &decl, 4, BufferUsage::None).unwrap();
            &static_vb
        };
        let quad: Vec<_> = (0..4).map(vpc).collect();
        effect.current_technique().passes()[0].apply().unwrap();
        vb.set_data(&quad).unwrap();
        device.set_vertex_buffer(Some(vb)).unwrap();
        device.draw_primitives(xnagraph::PrimitiveType::TriangleStrip, 0, 2).unwrap();
        let mut back = vec![VertexPositionColor::default(); 4];
        vb.get_data(&mut back).unwrap();
        assert_eq!(back, quad, "dynamic: {dynamic}");
    }
}

fn argument_error(r: xnagraph::Result<VertexDeclaration>, param: &str, what: &str) {
    match r {
        Err(XnaError::Argument { param: p, .. }) => assert_eq!(p, param, "{what}"),
        other => panic!("{what}: expected Argument({param}), got {other:?}"),
    }
}

#[test]
fn a_vertex_element_ending_past_the_largest_stride_is_an_argument_error() {
    use VertexElementFormat as F;
    use VertexElementUsage as U;
    let el = |offset, format, usage| VertexElement::new(offset, format, usage, 0);
    // Offset plus size wraps u32: without the check it panics, or wraps to an element 4 GiB
    // past the vertex.
    let wraps = [el(0, F::Vector3, U::Position), el(u32::MAX - 3, F::Vector4, U::Color)];
    argument_error(VertexDeclaration::new(&wraps), "elements", "wrapping, new");
    argument_error(VertexDeclaration::with_stride(16, &wraps), "elements", "wrapping, stride");
    // Ends past i32::MAX, the largest stride XNA's int can hold.
    let past = [el(i32::MAX as u32 - 3, F::Vector2, U::Position)];
    argument_error(VertexDeclaration::new(&past), "elements", "past i32::MAX");
    // An element that ends exactly at the largest stride is a valid declaration.
    let last = [el(i32::MAX as u32 - 7, F::Single, U::Position)];
    let d = VertexDeclaration::new(&last).unwrap();
    assert_eq!(d.vertex_stride(), i32::MAX - 3);
}

#[test]
fn vertex_offsets_and_strides_must_be_multiples_of_four() {
    use VertexElementFormat as F;
    use VertexElementUsage as U;
    let el = |offset, format, usage| VertexElement::new(offset, format, usage, 0);
    for offset in [1, 2, 3, 14] {
        let d = [el(0, F::Vector3, U::Position), el(offset + 12, F::Color, U::Color)];
        argument_error(VertexDeclaration::new(&d), "elements", &format!("offset {}", offset + 12));
    }
    let position = [el(0, F::Vector3, U::Position)];
    for stride in [13, 14, 15, 18] {
        let r = VertexDeclaration::with_stride(stride, &position);
        assert!(
            matches!(r, Err(XnaError::Argument { param: "vertexStride", .. })),
            "stride {stride}: {r:?}"
        );
    }
    // Aligned padding is accepted, every format packed from 0 is aligned.
    assert_eq!(VertexDeclaration::with_stride(20, &position).unwrap().vertex_stride(), 20);
    let formats = [
        F::Single,
        F::Vector2,
        F::Vector3,
        F::Vector4,
        F::Color,
        F::Byte4,
        F::Short2,
        F::Short4,
        F::NormalizedShort2,
        F::NormalizedShort4,
        F::HalfVector2,
        F::HalfVector4,
    ];
    let mut offset = 0;
    let packed: Vec<_> = formats
        .iter()
        .enumerate()
        .map(|(i, &f)| {
            let e = VertexElement::new(offset, f, U::TextureCoordinate, i as u32);
            offset += f.size();
            e
        })
        .collect();
    assert_eq!(VertexDeclaration::new(&packed).unwrap().vertex_stride(), offset as i32);
}

#[test]
fn a_data_span_past_u64_is_refused_not_wrapped() {
    let _v = Validation::new();
    let device = device(4, 4);
    let vb = VertexBuffer::with_type::<VertexPositionColor>(&device, 4, BufferUsage::None).unwrap();
    // A slice of a zero-sized type may hold usize::MAX elements: placed 4 bytes apart, their
    // span is past u64.
    let many = vec![(); usize::MAX];
    let r = vb.set_data_full(0, &many, 0, usize::MAX, 4);
    assert!(matches!(r, Err(XnaError::InvalidOperation { .. })), "SetData: {r:?}");
    let mut many = vec![(); usize::MAX];
    let r = vb.get_data_full(0, &mut many, 0, usize::MAX, 4);
    assert!(matches!(r, Err(XnaError::InvalidOperation { .. })), "GetData: {r:?}");
}

/// A buffer the device cannot hold is refused at its constructor as XNA's
/// `OutOfVideoMemoryException`, on every backend, never accepted and then failing at a flush.
#[test]
fn a_buffer_past_the_device_limit_is_out_of_video_memory_at_its_constructor() {
    let _v = Validation::new();
    let device = device(4, 4);
    let decl = VertexDeclaration::new(&[VertexElement::new(
        0,
        VertexElementFormat::Color,
        VertexElementUsage::Color,
        0,
    )])
    .unwrap();
    for count in [(1 << 30) - 1, 1 << 30] {
        let made = VertexBuffer::new(&device, &decl, count, BufferUsage::None);
        assert!(
            matches!(made, Err(XnaError::OutOfVideoMemory { .. })),
            "{} bytes: {:?}",
            count as u64 * 4,
            made.as_ref().err()
        );
    }
    // The device goes on: nothing was left behind for the next flush to fail on.
    device.clear(Color::RED).unwrap();
    device.present().unwrap();
}
