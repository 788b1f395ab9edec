//! The writer's hot path: blobs written from borrowed bytes decode as [`BlobRecord`]s, a frame
//! handed over by value writes the same file as one lent, and the reused compression buffers
//! never leak one chunk's bytes into the next.

use std::sync::Arc;

use super::container::{read_chunks, ChunkWriter};
use super::record::*;
use super::writer::{content_hash, CaptureWriter, Sources};
use super::Capture;
use crate::commands::{FrameCommands, Node, Rect, Slices, SpriteInstance, Upload};
use crate::compile::testkit::{back_buffer, texture};
use crate::compile::CompilePolicy;
use crate::resource::RenderTargetUsage;

fn device(back_buffer: TextureKey) -> DeviceRecord {
    DeviceRecord {
        profile: "HiDef".into(),
        presentation: String::new(),
        adapter: String::new(),
        compile_policy: CompilePolicy::Graph,
        back_buffer,
        first_frame: 0,
    }
}

/// A frame of one 2x2 upload of `texel` and `sprites` sprites.
fn frame(target: &Arc<crate::TextureState>, texel: u8, sprites: usize) -> FrameCommands {
    let upload = Upload {
        image: crate::plan::Image::Color,
        texture: target.clone(),
        level: 0,
        layer: 0,
        rect: Rect::new(0, 0, 2, 2),
        slices: Slices::FLAT,
        data: vec![texel; 16],
    };
    let sprites = (0..sprites)
        .map(|i| SpriteInstance { texture: i as u32, ..Default::default() })
        .collect::<Vec<_>>();
    FrameCommands {
        nodes: vec![Node::Upload(upload)],
        sprites: sprites.into(),
        ..FrameCommands::default()
    }
}

/// Writes three frames (the second's upload repeats the first's) lent or handed over.
fn write(owned: bool) -> (Vec<u8>, Vec<crate::SpriteArena>) {
    let back = back_buffer(4, 4, RenderTargetUsage::DiscardContents);
    let target = texture(2, 2, 1);
    let effect = |_| None;
    let geometry_effect = |_| None;
    let write_only = |_| false;
    let sources =
        Sources { effect: &effect, geometry_effect: &geometry_effect, write_only: &write_only };
    let mut writer = CaptureWriter::new(Vec::new(), &back, device).unwrap();
    let mut arenas = Vec::new();
    for (i, texel) in [5u8, 5, 9].into_iter().enumerate() {
        let commands = frame(&target, texel, 3 + i);
        if owned {
            arenas.push(writer.flush_owned(i as u64, commands, sources).unwrap());
        } else {
            writer.flush(i as u64, &commands, sources).unwrap();
        }
        writer.frame_end(i as u64, 0).unwrap();
    }
    (writer.finish().unwrap().0, arenas)
}

#[test]
fn a_frame_handed_over_writes_the_file_a_lent_one_writes_and_gives_its_arena_back() {
    let (lent, _) = write(false);
    let (owned, arenas) = write(true);
    assert_eq!(owned, lent);
    let capture = Capture::from_bytes(&owned).unwrap();
    // Two distinct uploads and three distinct sprite arenas: the repeated upload is stored once.
    assert_eq!(capture.blobs.len(), 5);
    let upload_blob = |f: usize| match capture.frames[f].flushes[0].nodes[0] {
        NodeRecord::Upload { blob, .. } => blob,
        ref other => panic!("{other:?}"),
    };
    assert_eq!(upload_blob(0), upload_blob(1));
    assert_ne!(upload_blob(0), upload_blob(2));
    assert_eq!(capture.blobs[upload_blob(2) as usize], vec![9; 16]);
    for (i, arena) in arenas.iter().enumerate() {
        assert!(arena.is_empty() && arena.capacity() >= 3 + i, "arena {i}: {}", arena.capacity());
    }
}

#[test]
fn a_blob_written_from_borrowed_bytes_decodes_as_a_blob_record() {
    let back = back_buffer(4, 4, RenderTargetUsage::DiscardContents);
    let mut writer = CaptureWriter::new(Vec::new(), &back, device).unwrap();
    let bytes = (0..=255u8).cycle().take(1000).collect::<Vec<_>>();
    assert_eq!(writer.blob(&bytes).unwrap(), 0);
    assert_eq!(writer.blob(&bytes[..999]).unwrap(), 1, "a different length is another blob");
    assert_eq!(writer.blob(&bytes.clone()).unwrap(), 0, "equal content is the same blob");
    let file = writer.finish().unwrap().0;
    let chunks = read_chunks(&file, |_| true).unwrap();
    let blobs = chunks.iter().filter(|c| c.kind == kind::BLOB).collect::<Vec<_>>();
    assert_eq!(blobs.len(), 2);
    assert_eq!(blobs[0].decode::<BlobRecord>().unwrap(), BlobRecord { id: 0, bytes });
}

#[test]
fn the_content_hash_sees_every_byte_and_the_length() {
    let bytes = vec![0u8; 37];
    let base = content_hash(&bytes);
    for i in 0..bytes.len() {
        let mut changed = bytes.clone();
        changed[i] = 1;
        assert_ne!(content_hash(&changed), base, "byte {i}");
    }
    assert_ne!(content_hash(&bytes[..36]), base, "a shorter run of zeros");
    assert_ne!(content_hash(&[]), content_hash(&[0]));
}

#[test]
fn reused_compression_buffers_hold_only_the_current_chunk() {
    let mut w = ChunkWriter::new(Vec::new()).unwrap();
    let big = (0..50_000u32).map(|i| (i * 7919 % 251) as u8).collect::<Vec<_>>();
    w.chunk(1, &big).unwrap();
    w.chunk(2, &vec![3u8; 10]).unwrap();
    w.chunk(3, &big[..100]).unwrap();
    let file = w.finish().unwrap();
    let chunks = read_chunks(&file, |_| true).unwrap();
    assert_eq!(chunks[0].decode::<Vec<u8>>().unwrap(), big);
    assert_eq!(chunks[1].decode::<Vec<u8>>().unwrap(), vec![3u8; 10]);
    assert_eq!(chunks[2].decode::<Vec<u8>>().unwrap(), big[..100].to_vec());
}

/// Whatever the writer records the reader opens: a buffer past the capture's limit ends the
/// capture at the writer with an error naming it, and a buffer at the limit is read back.
#[test]
fn a_buffer_past_the_readers_limit_ends_the_capture_at_the_writer() {
    use super::limits::MAX_BUFFER_SIZE;
    use crate::buffer::{BufferDesc, BufferKind, BufferState};
    use crate::resource::{NativeHandle, RetireSink};
    let buffer = |size| {
        let desc = BufferDesc { size, kind: BufferKind::Vertex, dynamic: false };
        BufferState::new(desc, NativeHandle(900), RetireSink::default())
    };
    let effect = |_| None;
    let geometry_effect = |_| None;
    let write_only = |_| false;
    let sources =
        Sources { effect: &effect, geometry_effect: &geometry_effect, write_only: &write_only };
    let back = back_buffer(4, 4, RenderTargetUsage::DiscardContents);
    let mut writer = CaptureWriter::new(Vec::new(), &back, device).unwrap();
    writer.buffer(&buffer(MAX_BUFFER_SIZE), sources).unwrap();
    let refused = writer.buffer(&buffer(MAX_BUFFER_SIZE + 1), sources).unwrap_err();
    assert!(refused.to_string().contains("capture"), "{refused}");
    let bytes = writer.finish().unwrap().0;
    let capture = Capture::from_bytes(&bytes).unwrap();
    assert_eq!(capture.buffers.len(), 1);
}
