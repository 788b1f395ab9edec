//! Reading a capture: the chunks of a file checked and gathered into a [`Capture`].
//!
//! In: a file's bytes. Out: the device, the creation records, the blobs, the snapshot and the
//! frames, each flush in order under its frame. Every reference is checked as it is read (a
//! texture, buffer, effect or blob must be defined by an earlier chunk; a sprite range must lie
//! in its arena; a blob must be as long as its region; a buffer transfer and the vertices and
//! indices a draw reads must lie in their buffer or arena), so a replay never meets a dangling
//! key or reads past a buffer; a fault names the chunk and its byte offset. The checks of each
//! record are in `checks.rs`.

use std::collections::HashMap;

use super::checks::{check_resources, check_texture_desc};
use super::container::{read_chunks, read_header, CaptureError, RawChunk};
use super::limits::check_buffer_size;
use super::record::*;
use crate::commands::SpriteInstance;

/// The largest texture edge (and volume depth) a capture may declare: past any device's limit
/// (XNA's HiDef allows 4096), small enough that a level's size never overflows.
pub const MAX_TEXTURE_EDGE: u32 = 16384;

/// The most instances a captured draw may declare: past what any game draws at once, small
/// enough that what a replay computes from the count stays in range.
pub const MAX_INSTANCES: u32 = 1 << 24;

/// Vertex input locations a custom geometry draw may use (Vulkan's guaranteed minimum).
pub const MAX_VERTEX_INPUTS: u32 = 16;

/// One captured frame: its flushes and its end marker.
#[derive(Clone, Debug, PartialEq)]
pub struct CapturedFrame {
    /// The device frame number it had when recorded.
    pub number: u64,
    /// Its flushes, in order.
    pub flushes: Vec<FlushRecord>,
    /// Its end marker (`None` for a frame cut off by the end of the file).
    pub end: Option<FrameEndRecord>,
}

/// A count the live run read of one span ([`QueryResultRecord`] placed at its span).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryResult {
    /// The query.
    pub query: QueryKey,
    /// The span's frame: its position in [`Capture::frames`].
    pub frame: usize,
    /// The span's flush: its position in that frame's flushes.
    pub flush: usize,
    /// The samples the span counted in the live run.
    pub pixel_count: u64,
}

/// A whole capture file, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    /// The device.
    pub device: DeviceRecord,
    /// Texture creations, indexed by key.
    pub textures: Vec<TextureRecord>,
    /// Vertex and index buffer creations, indexed by key.
    pub buffers: Vec<BufferRecord>,
    /// Effect creations, indexed by key.
    pub effects: Vec<EffectRecord>,
    /// Custom geometry effect passes, indexed by key.
    pub geometry_effects: Vec<GeometryEffectRecord>,
    /// Occlusion query creations, indexed by key.
    pub queries: Vec<QueryRecord>,
    /// The counts the live run read, in file order.
    pub query_results: Vec<QueryResult>,
    /// Blobs, indexed by id.
    pub blobs: Vec<Vec<u8>>,
    /// The content of textures when the capture began.
    pub snapshot: Vec<SnapshotRecord>,
    /// The content of buffers when the capture began.
    pub buffer_snapshot: Vec<BufferSnapshotRecord>,
    /// The depth/stencil content of preserving render targets when the capture began (format
    /// 3.1; empty for older files and for backends that cannot read depth back).
    pub depth_snapshot: Vec<DepthSnapshotRecord>,
    /// The samples of multisampled preserving render targets when the capture began, layer by
    /// layer (format 3.2; empty for older files and for backends that cannot read samples
    /// back).
    pub sample_snapshot: Vec<SampleSnapshotRecord>,
    /// The frames, in order.
    pub frames: Vec<CapturedFrame>,
    /// Whether the file ends with its end record.
    pub complete: bool,
    /// The format version the file was written in (major, minor).
    pub version: (u16, u16),
}

impl Capture {
    /// Reads a file.
    pub fn open(path: &std::path::Path) -> Result<Capture, CaptureError> {
        let bytes = std::fs::read(path)
            .map_err(|e| CaptureError::at(0, None, format!("{}: {e}", path.display())))?;
        Capture::from_bytes(&bytes)
    }

    /// Reads a file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Capture, CaptureError> {
        let version = read_header(bytes)?;
        let chunks = read_chunks(bytes, kind::known)?;
        let mut chunks = chunks.into_iter().filter(|c| kind::known(c.kind));
        let first = chunks
            .next()
            .ok_or_else(|| CaptureError::at(bytes.len() as u64, Some(0), "no device record"))?;
        if first.kind != kind::DEVICE {
            return Err(first.error("the first chunk is not the device record"));
        }
        let mut capture = Capture {
            device: first.decode()?,
            textures: Vec::new(),
            buffers: Vec::new(),
            effects: Vec::new(),
            geometry_effects: Vec::new(),
            queries: Vec::new(),
            query_results: Vec::new(),
            blobs: Vec::new(),
            snapshot: Vec::new(),
            buffer_snapshot: Vec::new(),
            depth_snapshot: Vec::new(),
            sample_snapshot: Vec::new(),
            frames: Vec::new(),
            complete: false,
            version,
        };
        for chunk in chunks {
            if capture.complete {
                return Err(chunk.error("a chunk after the end record"));
            }
            capture.add(&chunk)?;
        }
        if capture.device.back_buffer as usize >= capture.textures.len() {
            return Err(CaptureError::at(
                bytes.len() as u64,
                None,
                "the back buffer is never created",
            ));
        }
        Ok(capture)
    }

    /// Adds one chunk after the device record: a declaration, snapshot content or a record of
    /// the frames.
    fn add(&mut self, chunk: &RawChunk) -> Result<(), CaptureError> {
        if self.add_declaration(chunk)?
            || self.add_snapshot(chunk)?
            || self.add_frame_record(chunk)?
        {
            return Ok(());
        }
        Err(chunk.error("a device record after the first chunk"))
    }

    /// A declaration the frames name by key, in key order: a texture, buffer, effect, geometry
    /// effect, occlusion query or blob. False for a chunk of another kind.
    fn add_declaration(&mut self, chunk: &RawChunk) -> Result<bool, CaptureError> {
        match chunk.kind {
            kind::TEXTURE => {
                let t: TextureRecord = chunk.decode()?;
                if t.key as usize != self.textures.len() {
                    return Err(chunk.error(format!("texture key {} out of order", t.key)));
                }
                check_texture_desc(&t.desc)
                    .map_err(|m| chunk.error(format!("texture {}: {m}", t.key)))?;
                self.textures.push(t);
            }
            kind::BUFFER => {
                let b: BufferRecord = chunk.decode()?;
                if b.key as usize != self.buffers.len() {
                    return Err(chunk.error(format!("buffer key {} out of order", b.key)));
                }
                check_buffer_size(b.desc.size)
                    .map_err(|m| chunk.error(format!("buffer {}: {m}", b.key)))?;
                self.buffers.push(b);
            }
            kind::EFFECT => {
                let e: EffectRecord = chunk.decode()?;
                if e.key as usize != self.effects.len() {
                    return Err(chunk.error(format!("effect key {} out of order", e.key)));
                }
                self.effects.push(e);
            }
            kind::GEOMETRY_EFFECT => {
                let e: GeometryEffectRecord = chunk.decode()?;
                if e.key as usize != self.geometry_effects.len() {
                    return Err(chunk.error(format!("geometry effect key {} out of order", e.key)));
                }
                check_resources(&e.resources)
                    .map_err(|m| chunk.error(format!("geometry effect {}: {m}", e.key)))?;
                self.geometry_effects.push(e);
            }
            kind::QUERY => {
                let q: QueryRecord = chunk.decode()?;
                if q.key as usize != self.queries.len() {
                    return Err(chunk.error(format!("query key {} out of order", q.key)));
                }
                self.queries.push(q);
            }
            kind::BLOB => {
                let b: BlobRecord = chunk.decode()?;
                if b.id as usize != self.blobs.len() {
                    return Err(chunk.error(format!("blob id {} out of order", b.id)));
                }
                self.blobs.push(b.bytes);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Snapshot content, before the first frame, each part checked against what it restores: a
    /// texture region, a buffer's bytes, a target's depth/stencil or its samples. False for a
    /// chunk of another kind.
    fn add_snapshot(&mut self, chunk: &RawChunk) -> Result<bool, CaptureError> {
        match chunk.kind {
            kind::SNAPSHOT => {
                let s: SnapshotRecord = chunk.decode()?;
                self.check_region(chunk, &s.region, Some(s.blob))?;
                self.check_before_frames(chunk)?;
                self.snapshot.push(s);
            }
            kind::BUFFER_SNAPSHOT => {
                let s: BufferSnapshotRecord = chunk.decode()?;
                let size = self.check_buffer(chunk, s.buffer)?;
                let len = self.check_blob(chunk, s.blob)?.len() as u64;
                if len != size {
                    return Err(chunk.error(format!(
                        "blob {} holds {len} bytes, buffer {} {size}",
                        s.blob, s.buffer
                    )));
                }
                self.check_before_frames(chunk)?;
                self.buffer_snapshot.push(s);
            }
            kind::DEPTH_SNAPSHOT | kind::SAMPLE_DEPTH_SNAPSHOT => {
                let s: DepthSnapshotRecord = chunk.decode()?;
                self.check_texture(chunk, s.texture)?;
                let desc = &self.textures[s.texture as usize].desc;
                let depth = desc.render_target.map(|rt| (rt.depth, rt.sample_count.max(1)));
                let multisampled = chunk.kind == kind::SAMPLE_DEPTH_SNAPSHOT;
                let Some((depth, samples)) =
                    depth.filter(|d| d.0 != crate::DepthFormat::None && (d.1 > 1) == multisampled)
                else {
                    let what = if multisampled { "multisampled" } else { "single-sample" };
                    return Err(chunk.error(format!(
                        "depth snapshot of texture {}, not a {what} target with depth",
                        s.texture
                    )));
                };
                // A multisampled target's: every sample, as an image `samples` times as tall.
                let rows = desc.height * samples;
                let expected = crate::depth_stencil_size(depth, desc.width, rows);
                let len = self.check_blob(chunk, s.blob)?.len();
                if len != expected {
                    return Err(chunk.error(format!(
                        "blob {} holds {len} bytes, the depth of texture {} {expected}",
                        s.blob, s.texture
                    )));
                }
                self.check_before_frames(chunk)?;
                self.depth_snapshot.push(s);
            }
            kind::SAMPLE_SNAPSHOT => {
                let s: SampleSnapshotRecord = chunk.decode()?;
                self.check_texture(chunk, s.texture)?;
                let desc = &self.textures[s.texture as usize].desc;
                let samples = desc.render_target.map_or(0, |rt| rt.sample_count);
                if samples <= 1 || s.layer >= desc.layers {
                    return Err(chunk.error(format!(
                        "sample snapshot of layer {} of texture {}, not a layer of a multisampled \
                         target",
                        s.layer, s.texture
                    )));
                }
                let expected =
                    crate::sample_planes_size(desc.format, desc.width, desc.height, samples);
                let len = self.check_blob(chunk, s.blob)?.len();
                if len != expected {
                    return Err(chunk.error(format!(
                        "blob {} holds {len} bytes, the sample planes of texture {} {expected}",
                        s.blob, s.texture
                    )));
                }
                self.check_before_frames(chunk)?;
                self.sample_snapshot.push(s);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A record of the frames: a flush, a frame's end, a query count the game read, or the end of
    /// the capture. False for a chunk of another kind.
    fn add_frame_record(&mut self, chunk: &RawChunk) -> Result<bool, CaptureError> {
        match chunk.kind {
            kind::FLUSH => {
                let f: FlushRecord = chunk.decode()?;
                self.check_flush(chunk, &f)?;
                match self.frames.last_mut() {
                    Some(frame) if frame.number == f.frame && frame.end.is_none() => {
                        frame.flushes.push(f)
                    }
                    _ => self.frames.push(CapturedFrame {
                        number: f.frame,
                        flushes: vec![f],
                        end: None,
                    }),
                }
            }
            kind::FRAME_END => {
                let end: FrameEndRecord = chunk.decode()?;
                match self.frames.last_mut() {
                    Some(frame) if frame.number == end.frame && frame.end.is_none() => {
                        frame.end = Some(end)
                    }
                    _ => {
                        return Err(
                            chunk.error(format!("end of frame {} that has no flush", end.frame))
                        )
                    }
                }
            }
            kind::QUERY_RESULT => {
                let r: QueryResultRecord = chunk.decode()?;
                let (frame, flush) = self.last_span(r.query).ok_or_else(|| {
                    chunk.error(format!("a count of query {} before any span of it", r.query))
                })?;
                self.query_results.push(QueryResult {
                    query: r.query,
                    frame,
                    flush,
                    pixel_count: r.pixel_count,
                });
            }
            kind::END => {
                let end: EndRecord = chunk.decode()?;
                let ended = self.frames.iter().filter(|f| f.end.is_some()).count() as u64;
                if end.frames != ended {
                    return Err(
                        chunk.error(format!("{} frames declared, {ended} present", end.frames))
                    );
                }
                self.complete = true;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Snapshot content comes before the first frame.
    fn check_before_frames(&self, chunk: &RawChunk) -> Result<(), CaptureError> {
        if self.frames.is_empty() {
            Ok(())
        } else {
            Err(chunk.error("snapshot content after the first frame"))
        }
    }

    /// Where the last span of `query` so far is: its frame's and its flush's positions.
    fn last_span(&self, query: QueryKey) -> Option<(usize, usize)> {
        for (i, frame) in self.frames.iter().enumerate().rev() {
            for (j, flush) in frame.flushes.iter().enumerate().rev() {
                let spans = flush.nodes.iter().any(|n| match n {
                    NodeRecord::Pass { ops, .. } => ops.iter().any(
                        |op| matches!(op, OpRecord::Query { query: q, begin: true } if *q == query),
                    ),
                    _ => false,
                });
                if spans {
                    return Some((i, j));
                }
            }
        }
        None
    }

    /// The sprite arena of a flush.
    pub fn sprites(&self, flush: &FlushRecord) -> Vec<SpriteInstance> {
        // Checked on reading: the blob is a whole number of sprites. Copied, since a blob's
        // bytes need not be aligned for the instances.
        let bytes = &self.blobs[flush.sprites as usize];
        let mut sprites =
            vec![SpriteInstance::default(); bytes.len() / std::mem::size_of::<SpriteInstance>()];
        bytemuck::cast_slice_mut::<SpriteInstance, u8>(&mut sprites).copy_from_slice(bytes);
        sprites
    }

    /// Blob ids by how often the frames and the snapshot refer to them (for reports).
    pub fn blob_uses(&self) -> HashMap<BlobId, usize> {
        let mut uses = HashMap::new();
        for s in &self.snapshot {
            *uses.entry(s.blob).or_default() += 1;
        }
        for s in &self.depth_snapshot {
            *uses.entry(s.blob).or_default() += 1;
        }
        for s in &self.sample_snapshot {
            *uses.entry(s.blob).or_default() += 1;
        }
        for s in &self.buffer_snapshot {
            *uses.entry(s.blob).or_default() += 1;
        }
        for f in self.frames.iter().flat_map(|f| &f.flushes) {
            *uses.entry(f.sprites).or_default() += 1;
            if let Some(g) = f.geometry {
                *uses.entry(g).or_default() += 1;
            }
            for n in &f.nodes {
                if let NodeRecord::Upload { blob, .. } | NodeRecord::BufferUpload { blob, .. } = n {
                    *uses.entry(*blob).or_default() += 1;
                }
            }
        }
        uses
    }
}
