//! The reader against hand-made files: each malformed record is an error naming its chunk,
//! never a panic or an allocation sized by the record. Each case here was a panic (arithmetic
//! overflow) or an unbounded size before the reader checked it.

use super::container::ChunkWriter;
use super::record::*;
use super::Capture;
use crate::buffer::{BufferDesc, BufferKind, SetDataOptions};
use crate::commands::{Rect, SegmentStart, Slices, SpriteInstance, Viewport};
use crate::compile::CompilePolicy;
use crate::format::DepthFormat;
use crate::format::SurfaceFormat;
use crate::resource::{RenderTargetDesc, RenderTargetUsage, TextureDesc};
use crate::states::{BlendState, DepthStencilState, RasterizerState, SamplerState};

/// A file of a device record, a 4x4 back buffer, then `rest` (kind, payload encoded by `add`).
fn file(add: impl FnOnce(&mut ChunkWriter<Vec<u8>>)) -> Vec<u8> {
    let mut w = ChunkWriter::new(Vec::new()).unwrap();
    let device = DeviceRecord {
        profile: "HiDef".into(),
        presentation: String::new(),
        adapter: String::new(),
        compile_policy: CompilePolicy::Graph,
        back_buffer: 0,
        first_frame: 0,
    };
    w.chunk(kind::DEVICE, &device).unwrap();
    let desc = TextureDesc::texture_2d(4, 4, 1, SurfaceFormat::Color);
    w.chunk(kind::TEXTURE, &TextureRecord { key: 0, desc, name: "back".into() }).unwrap();
    add(&mut w);
    w.finish().unwrap()
}

fn texture(w: &mut ChunkWriter<Vec<u8>>, desc: TextureDesc) {
    w.chunk(kind::TEXTURE, &TextureRecord { key: 1, desc, name: String::new() }).unwrap();
}

fn snapshot(w: &mut ChunkWriter<Vec<u8>>, level: u32, rect: Rect, bytes: usize) {
    w.chunk(kind::BLOB, &BlobRecord { id: 0, bytes: vec![7; bytes] }).unwrap();
    let region = Region { texture: 1, level, layer: 0, rect, slices: Slices::FLAT };
    w.chunk(kind::SNAPSHOT, &SnapshotRecord { region, blob: 0 }).unwrap();
}

#[test]
fn a_well_formed_file_reads() {
    let bytes = file(|w| {
        texture(w, TextureDesc::texture_2d(8, 8, 4, SurfaceFormat::Color));
        snapshot(w, 2, Rect::new(0, 0, 2, 2), 16);
    });
    let capture = Capture::from_bytes(&bytes).unwrap();
    assert_eq!(capture.snapshot.len(), 1);
}

#[test]
fn a_mip_level_past_32_is_refused_not_an_overflowing_shift() {
    let bytes = file(|w| {
        texture(w, TextureDesc::texture_2d(8, 8, 40, SurfaceFormat::Color));
        snapshot(w, 35, Rect::new(0, 0, 1, 1), 4);
    });
    let e = Capture::from_bytes(&bytes).unwrap_err();
    assert_eq!(e.chunk, Some(2), "{e}");
    assert!(e.message.contains("40 mip levels, a full chain has 4"), "{e}");
}

#[test]
fn a_texture_too_large_for_its_region_size_is_refused() {
    let bytes = file(|w| {
        texture(w, TextureDesc::texture_2d(u32::MAX, u32::MAX, 1, SurfaceFormat::Vector4));
        snapshot(w, 0, Rect::new(0, 0, i32::MAX, i32::MAX), 16);
    });
    let e = Capture::from_bytes(&bytes).unwrap_err();
    assert_eq!(e.chunk, Some(2), "{e}");
    assert!(e.message.contains("outside 1 to 16384"), "{e}");
}

#[test]
fn buffers_of_no_or_too_many_bytes_and_writes_past_their_end_are_refused() {
    let buffer = |size| BufferRecord {
        key: 0,
        desc: BufferDesc { size, kind: BufferKind::Vertex, dynamic: true },
        write_only: false,
        name: String::new(),
    };
    for size in [0, u64::MAX] {
        let e = Capture::from_bytes(&file(|w| w.chunk(kind::BUFFER, &buffer(size)).unwrap()))
            .unwrap_err();
        assert!(e.message.contains("bytes (a capture holds 1 to"), "{e}");
    }
    let write = |offset: u64| {
        file(|w| {
            w.chunk(kind::BUFFER, &buffer(16)).unwrap();
            w.chunk(kind::BLOB, &BlobRecord { id: 0, bytes: vec![1; 8] }).unwrap();
            w.chunk(kind::BLOB, &BlobRecord { id: 1, bytes: Vec::new() }).unwrap();
            let upload = NodeRecord::BufferUpload {
                buffer: 0,
                offset,
                blob: 0,
                options: SetDataOptions::Discard,
            };
            let flush = FlushRecord {
                frame: 0,
                nodes: vec![upload],
                sprites: 1,
                open_cycle: None,
                geometry: None,
            };
            w.chunk(kind::FLUSH, &flush).unwrap();
        })
    };
    assert!(Capture::from_bytes(&write(8)).is_ok());
    for offset in [9, u64::MAX - 4] {
        let e = Capture::from_bytes(&write(offset)).unwrap_err();
        assert_eq!(e.chunk, Some(5), "{e}");
        assert!(e.message.contains("outside buffer 0 of 16 bytes"), "{e}");
    }
}

/// A flush of one pass into a 4x4 target drawing `count` sprites from an arena of `arena`
/// bytes, with the draw's extra textures `more`.
fn sprite_flush(arena: Vec<u8>, count: u32, more: Vec<TextureKey>) -> Vec<u8> {
    file(|w| {
        let mut target = TextureDesc::texture_2d(4, 4, 1, SurfaceFormat::Color);
        target.render_target = Some(RenderTargetDesc {
            depth: DepthFormat::None,
            sample_count: 0,
            usage: RenderTargetUsage::PreserveContents,
            back_buffer: false,
        });
        texture(w, target);
        w.chunk(kind::BLOB, &BlobRecord { id: 0, bytes: arena }).unwrap();
        let draw = DrawRecord {
            shader: ShaderRecord::Sprite,
            blend: BlendState::ALPHA_BLEND,
            depth_stencil: DepthStencilState::NONE,
            rasterizer: RasterizerState::CULL_COUNTER_CLOCKWISE,
            sampler: SamplerState::LINEAR_CLAMP,
            texture: 0,
            more_textures: more,
            first_sprite: 0,
            sprite_count: count,
            viewport: Viewport::new(0, 0, 4, 4),
            scissor: Rect::new(0, 0, 4, 4),
            transform: [0.0; 16],
        };
        let pass = NodeRecord::Pass {
            colors: vec![(1, 0)],
            start: SegmentStart::Bind { usage: RenderTargetUsage::PreserveContents },
            ops: vec![OpRecord::Draw(draw)],
        };
        let flush = FlushRecord {
            frame: 0,
            nodes: vec![pass],
            sprites: 0,
            open_cycle: None,
            geometry: None,
        };
        w.chunk(kind::FLUSH, &flush).unwrap();
    })
}

fn sprites_sampling(slots: &[u32]) -> Vec<u8> {
    let sprites: Vec<SpriteInstance> =
        slots.iter().map(|&texture| SpriteInstance { texture, ..Default::default() }).collect();
    bytemuck::cast_slice(&sprites).to_vec()
}

#[test]
fn a_sprite_arena_that_is_not_whole_sprites_is_refused() {
    // Found by the fuzzer with this check removed: the sprites were copied out of a 49-byte
    // arena and the copy panicked.
    let ok = Capture::from_bytes(&sprite_flush(sprites_sampling(&[0]), 1, Vec::new()));
    assert!(ok.is_ok(), "{:?}", ok.err());
    let mut arena = sprites_sampling(&[0]);
    arena.push(0);
    let e = Capture::from_bytes(&sprite_flush(arena, 1, Vec::new())).unwrap_err();
    assert!(e.message.contains("not a whole number of sprites"), "{e}");
}

#[test]
fn a_sprite_sampling_a_slot_past_its_draws_textures_is_refused() {
    // Slots 0 and 1 both name texture 0 (any live texture key does).
    let two = sprite_flush(sprites_sampling(&[1, 0, 1]), 3, vec![0]);
    assert!(Capture::from_bytes(&two).is_ok());
    let e =
        Capture::from_bytes(&sprite_flush(sprites_sampling(&[1, 2, 0]), 3, vec![0])).unwrap_err();
    assert!(e.message.contains("texture slot past its draw's 2"), "{e}");
    // A draw of one texture samples it whatever the slot, as the backends do.
    assert!(Capture::from_bytes(&sprite_flush(sprites_sampling(&[5]), 1, Vec::new())).is_ok());
}

/// A 4x4 PreserveContents target (texture 1).
fn target(w: &mut ChunkWriter<Vec<u8>>) {
    let mut target = TextureDesc::texture_2d(4, 4, 1, SurfaceFormat::Color);
    target.render_target = Some(RenderTargetDesc {
        depth: DepthFormat::None,
        sample_count: 0,
        usage: RenderTargetUsage::PreserveContents,
        back_buffer: false,
    });
    texture(w, target);
}

/// A flush of one pass into texture 1 holding `ops`, with an empty sprite arena (blob 0) and
/// a geometry arena (blob 1) of 64 bytes.
fn pass_flush(w: &mut ChunkWriter<Vec<u8>>, ops: Vec<OpRecord>) {
    w.chunk(kind::BLOB, &BlobRecord { id: 0, bytes: Vec::new() }).unwrap();
    w.chunk(kind::BLOB, &BlobRecord { id: 1, bytes: vec![0; 64] }).unwrap();
    let pass = NodeRecord::Pass {
        colors: vec![(1, 0)],
        start: SegmentStart::Bind { usage: RenderTargetUsage::PreserveContents },
        ops,
    };
    let flush = FlushRecord {
        frame: 0,
        nodes: vec![pass],
        sprites: 0,
        open_cycle: None,
        geometry: Some(1),
    };
    w.chunk(kind::FLUSH, &flush).unwrap();
}

fn query_ops(spans: &[(QueryKey, bool)]) -> Vec<u8> {
    file(|w| {
        target(w);
        w.chunk(kind::QUERY, &QueryRecord { key: 0 }).unwrap();
        let ops = spans.iter().map(|&(query, begin)| OpRecord::Query { query, begin }).collect();
        pass_flush(w, ops);
    })
}

#[test]
fn a_query_span_must_be_one_begin_and_one_end_of_a_created_query_in_a_pass() {
    let capture = Capture::from_bytes(&query_ops(&[(0, true), (0, false)])).unwrap();
    assert_eq!(capture.queries, vec![QueryRecord { key: 0 }]);
    // A count follows a span of its query.
    let counted = |spans: &[(QueryKey, bool)]| {
        let mut bytes = query_ops(spans);
        let mut w = ChunkWriter::new(Vec::new()).unwrap();
        w.chunk(kind::QUERY_RESULT, &QueryResultRecord { query: 0, pixel_count: 9 }).unwrap();
        bytes.extend_from_slice(&w.finish().unwrap()[super::container::HEADER_LEN..]);
        Capture::from_bytes(&bytes)
    };
    let capture = counted(&[(0, true), (0, false)]).unwrap();
    assert_eq!(capture.query_results.len(), 1);
    assert_eq!((capture.query_results[0].frame, capture.query_results[0].pixel_count), (0, 9));
    let e = counted(&[]).unwrap_err();
    assert!(e.message.contains("a count of query 0 before any span of it"), "{e}");
    for (spans, says) in [
        (&[(0, true)][..], "begun and not ended"),
        (&[(0, false)][..], "not one begin and one end"),
        (&[(0, true), (0, true)][..], "not one begin and one end"),
        (&[(0, true), (0, false), (0, true), (0, false)][..], "not one begin and one end"),
        (&[(1, true), (1, false)][..], "query 1 used before its creation"),
    ] {
        let e = Capture::from_bytes(&query_ops(spans)).unwrap_err();
        assert_eq!(e.chunk, Some(6), "{spans:?}: {e}");
        assert!(e.message.contains(says), "{spans:?}: {e}");
    }
}

mod geometry;
