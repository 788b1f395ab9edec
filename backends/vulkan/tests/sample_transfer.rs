//! Sample planes ([`xnagraph_graph::sample_planes_size`]): a multisampled target's every sample
//! read back and written, as a capture's snapshot and its replay move them.

mod common;

use std::sync::Arc;

use common::*;
use xnagraph_graph::compile::compile;
use xnagraph_graph::{
    sample_planes_size, Backend, FrameCommands, Image, Node, Readback, ReadbackId, Rect,
    RenderTargetUsage, Slices, SpriteInstance, SurfaceFormat, TextureDesc, TextureState, Upload,
};

fn target(s: &mut Session, (w, h): (u32, u32), format: SurfaceFormat) -> Arc<TextureState> {
    let mut desc = target_desc(w, h, 1, 4);
    desc.format = format;
    if let Some(rt) = desc.render_target.as_mut() {
        rt.usage = RenderTargetUsage::PreserveContents;
    }
    s.texture(desc)
}

fn whole(texture: &Arc<TextureState>) -> Rect {
    let (w, h) = texture.desc().level_size(0);
    Rect::new(0, 0, w as i32, h as i32)
}

fn samples_readback(id: u64, texture: &Arc<TextureState>) -> Node {
    Node::Readback(Readback {
        id: ReadbackId(id),
        texture: texture.clone(),
        level: 0,
        layer: 0,
        rect: whole(texture),
        slices: Slices::FLAT,
        image: Image::Samples,
    })
}

fn samples_upload(texture: &Arc<TextureState>, data: Vec<u8>) -> Node {
    Node::Upload(Upload {
        texture: texture.clone(),
        level: 0,
        layer: 0,
        rect: whole(texture),
        slices: Slices::FLAT,
        image: Image::Samples,
        data,
    })
}

/// Submits `nodes` (with `sprites`) compiled, waits, and returns readback `id`'s bytes for each
/// of `ids`.
fn run(
    s: &mut Session,
    nodes: Vec<Node>,
    sprites: Vec<SpriteInstance>,
    ids: &[u64],
) -> Vec<Vec<u8>> {
    let plan =
        compile(FrameCommands { nodes, sprites: sprites.into(), ..FrameCommands::default() });
    let submission = s.backend.submit(&plan).expect("submit");
    drop(plan);
    s.backend.wait(submission).expect("wait");
    ids.iter().map(|id| s.backend.take_readback(ReadbackId(*id)).expect("readback")).collect()
}

/// Distinct bytes of `len` planes' worth, every one a finite value of `format` (no signed
/// normalised -128: see [`signed_normalised_minus_128_comes_back_as_minus_127`]).
fn pattern(format: SurfaceFormat, len: usize) -> Vec<u8> {
    use SurfaceFormat as F;
    match format {
        F::HalfVector4 | F::HalfVector2 | F::HalfSingle | F::HdrBlendable => (0..len / 2)
            .flat_map(|i| {
                // Normal half floats of both signs, every exponent.
                let bits = ((i as u16 & 1) << 15)
                    | ((1 + (i as u16 * 7) % 30) << 10)
                    | ((i as u16).wrapping_mul(131) & 0x3FF);
                bits.to_le_bytes()
            })
            .collect(),
        F::Single | F::Vector2 | F::Vector4 => (0..len / 4)
            .flat_map(|i| {
                let bits = ((i as u32 & 1) << 31)
                    | ((1 + (i as u32 * 11) % 253) << 23)
                    | ((i as u32).wrapping_mul(2_654_435_761) & 0x7F_FFFF);
                bits.to_le_bytes()
            })
            .collect(),
        F::NormalizedByte2 | F::NormalizedByte4 => {
            let byte = |i: usize| (i.wrapping_mul(37) + 11) as u8;
            (0..len).map(byte).map(|b| if b == 0x80 { 0x81 } else { b }).collect()
        }
        _ => (0..len).map(|i| (i.wrapping_mul(37) + 11 + i / 256) as u8).collect(),
    }
}

#[test]
fn sample_planes_written_then_read_come_back_exactly() {
    let mut s = Session::new();
    assert_eq!(s.backend.capabilities().clamp_sample_count(4), 4, "4 samples are required");
    let renderable = SurfaceFormat::ALL.into_iter().filter(|f| f.block_edge() == 1);
    let mut tested = Vec::new();
    for format in renderable {
        let (w, h) = (7, 5);
        let mut desc = target_desc(w, h, 1, 4);
        desc.format = format;
        let Ok(handle) = s.backend.create_texture(&desc) else {
            // Not a multisampled render target format on this device.
            continue;
        };
        tested.push(format);
        let t = TextureState::new(desc, handle, s.backend.retire_sink());
        let planes = pattern(format, sample_planes_size(format, w, h, 4));
        let nodes = vec![samples_upload(&t, planes.clone()), samples_readback(1, &t)];
        let back = run(&mut s, nodes, Vec::new(), &[1]).remove(0);
        assert_eq!(back.len(), planes.len(), "{format:?}");
        let first_wrong = back.iter().zip(&planes).position(|(a, b)| a != b);
        assert_eq!(first_wrong, None, "{format:?}: byte {first_wrong:?} differs");
    }
    for format in [SurfaceFormat::Color, SurfaceFormat::HalfVector4, SurfaceFormat::Rgba64] {
        assert!(tested.contains(&format), "{format:?} is a 4x target format: {tested:?}");
    }
    eprintln!("sample planes exact for {tested:?}");
    assert_all_freed(&mut s);
    s.finish();
}

/// A signed normalised byte of -128 is -1.0 in the fragment stage, written back as -127.
#[test]
fn signed_normalised_minus_128_comes_back_as_minus_127() {
    let mut s = Session::new();
    let t = target(&mut s, (2, 2), SurfaceFormat::NormalizedByte4);
    let mut planes = pattern(SurfaceFormat::NormalizedByte4, 64);
    planes[5] = 0x80;
    let nodes = vec![samples_upload(&t, planes.clone()), samples_readback(1, &t)];
    let back = run(&mut s, nodes, Vec::new(), &[1]).remove(0);
    planes[5] = 0x81;
    assert_eq!(back, planes);
    drop(t);
    assert_all_freed(&mut s);
    s.finish();
}

#[test]
fn sample_planes_of_a_drawn_target_average_to_its_resolve() {
    let mut s = Session::new();
    let (w, h) = (16, 12);
    let t = target(&mut s, (w, h), SurfaceFormat::Color);
    let white = s.texture(TextureDesc::texture_2d(1, 1, 1, SurfaceFormat::Color));
    // A rotated square: its diagonal edges cut texels, whose samples then differ.
    let sprite = SpriteInstance {
        origin: [7.3, 1.2],
        right: [6.0, 3.0],
        down: [-3.0, 6.0],
        texcoords: [0.0, 0.0, 1.0, 1.0],
        depth: 0.0,
        color: [255, 64, 0, 255],
        texture: 0,
    };
    let nodes = vec![
        upload(&white, Rect::new(0, 0, 1, 1), vec![255; 4]),
        Node::Pass(segment(
            &t,
            vec![clear_op([0.0, 0.0, 1.0, 1.0]), sprite_draw(&white, 0, 1, w, h)],
        )),
        samples_readback(1, &t),
        readback(2, &t, 0, whole(&t)),
    ];
    let mut got = run(&mut s, nodes, vec![sprite], &[1, 2]);
    let (planes, resolved) = (got.remove(0), got.remove(0));
    let plane = (w * h * 4) as usize;
    assert_eq!(planes.len(), plane * 4);
    let sample = |si: usize, x: u32, y: u32| pixel(&planes[si * plane..], w, x, y);
    let mut edges = 0;
    for y in 0..h {
        for x in 0..w {
            let samples: Vec<[u8; 4]> = (0..4).map(|si| sample(si, x, y)).collect();
            edges += usize::from(samples.iter().any(|p| *p != samples[0]));
            let resolve = pixel(&resolved, w, x, y);
            for c in 0..4 {
                let mean = samples.iter().map(|p| f32::from(p[c])).sum::<f32>() / 4.0;
                let error = (mean - f32::from(resolve[c])).abs();
                assert!(error <= 1.0, "({x}, {y}) channel {c}: {samples:?} resolve {resolve:?}");
            }
        }
    }
    assert!(edges >= 4, "the square's edges cut texels: {edges} texels of mixed samples");
    assert!((0..4).all(|si| sample(si, 0, 0) == [0, 0, 255, 255]), "outside: the clear");
    assert!((0..4).all(|si| sample(si, 7, 6) == [255, 64, 0, 255]), "inside: the square");
    drop((t, white));
    assert_all_freed(&mut s);
    s.finish();
}

#[test]
fn each_layer_of_a_multisampled_cube_moves_its_own_samples() {
    let mut s = Session::new();
    let mut desc = target_desc(4, 4, 1, 4);
    desc.layers = 6;
    let cube = s.texture(desc);
    let size = sample_planes_size(SurfaceFormat::Color, 4, 4, 4);
    let planes =
        |layer: u32| -> Vec<u8> { (0..size).map(|i| (i as u32 * 3 + layer * 50) as u8).collect() };
    let transfer = |layer: u32, upload: bool| {
        let (rect, slices) = (whole(&cube), Slices::FLAT);
        let texture = cube.clone();
        if upload {
            let data = planes(layer);
            Node::Upload(Upload {
                texture,
                level: 0,
                layer,
                rect,
                slices,
                image: Image::Samples,
                data,
            })
        } else {
            let id = ReadbackId(u64::from(layer) + 1);
            Node::Readback(Readback {
                id,
                texture,
                level: 0,
                layer,
                rect,
                slices,
                image: Image::Samples,
            })
        }
    };
    let nodes = vec![transfer(1, true), transfer(4, true), transfer(4, false), transfer(1, false)];
    let mut back = run(&mut s, nodes, Vec::new(), &[2, 5]);
    assert_eq!(back.remove(0), planes(1), "face 1");
    assert_eq!(back.remove(0), planes(4), "face 4");
    drop(cube);
    assert_all_freed(&mut s);
    s.finish();
}

#[test]
fn sample_planes_taller_than_an_image_can_be_are_not_supported_naming_the_texture() {
    let mut s = Session::new();
    let rows = s.backend.capabilities().max_texture_dimension / 4 + 1;
    let t = target(&mut s, (1, rows), SurfaceFormat::Color);
    t.set_name("tall");
    let plan =
        compile(FrameCommands { nodes: vec![samples_readback(1, &t)], ..FrameCommands::default() });
    let e = s.backend.submit(&plan).expect_err("planes past maxImageDimension2D").to_string();
    assert!(e.contains("texture \"tall\""), "{e}");
    assert!(e.contains("maxImageDimension2D"), "{e}");
    drop((plan, t));
    s.finish();
}

#[test]
fn multisampled_depth_and_stencil_planes_written_then_read_come_back_exactly() {
    let mut s = Session::new();
    for depth in
        [xnagraph_graph::DepthFormat::Depth24Stencil8, xnagraph_graph::DepthFormat::Depth16]
    {
        let (w, h) = (5, 3);
        let mut desc = target_desc(w, h, 1, 4);
        if let Some(rt) = desc.render_target.as_mut() {
            rt.depth = depth;
            rt.usage = RenderTargetUsage::PreserveContents;
        }
        let t = s.texture(desc);
        let texels = (w * h * 4) as usize;
        let len = xnagraph_graph::depth_stencil_size(depth, w, h * 4);
        // Depths the format stores exactly (multiples of its unit), then stencil bytes.
        let scale =
            if depth == xnagraph_graph::DepthFormat::Depth16 { 65535.0 } else { 16_777_215.0 };
        let mut data: Vec<u8> = (0..texels)
            .map(|i| (((i * 977 + 13) % 4096) as f64 * 16.0 / scale).min(1.0) as f32)
            .flat_map(|d| d.to_le_bytes())
            .collect();
        data.extend((0..len - texels * 4).map(|i| (i * 53 + 7) as u8));
        let nodes = vec![
            Node::Upload(Upload {
                texture: t.clone(),
                level: 0,
                layer: 0,
                rect: whole(&t),
                slices: Slices::FLAT,
                image: Image::DepthStencil,
                data: data.clone(),
            }),
            Node::Readback(Readback {
                id: ReadbackId(1),
                texture: t.clone(),
                level: 0,
                layer: 0,
                rect: whole(&t),
                slices: Slices::FLAT,
                image: Image::DepthStencil,
            }),
        ];
        let back = run(&mut s, nodes, Vec::new(), &[1]).remove(0);
        assert_eq!(back.len(), data.len(), "{depth:?}");
        let first_wrong = back.iter().zip(&data).position(|(a, b)| a != b);
        assert_eq!(first_wrong, None, "{depth:?}: byte {first_wrong:?} differs");
        drop(t);
    }
    assert_all_freed(&mut s);
    s.finish();
}
