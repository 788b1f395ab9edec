//! Writing a capture: resources named by stable keys, blobs stored once, frames as recorded.
//!
//! In: the device's record, the content of the textures alive when the capture begins, then
//! each flushed [`FrameCommands`] in flush order and a marker at each present. Out: a capture
//! file (see [`super::container`]).
//!
//! A texture, a buffer, an effect (a sprite effect or a geometry effect's pass) or an occlusion
//! query gets its creation record the first time the capture meets it (in the snapshot or in a
//! flush), so a file holds exactly the resources its frames use. Byte arrays are blobs keyed by
//! content: an upload or a sprite arena equal to one already written costs its id only. The writer
//! keeps each distinct blob's bytes to compare on a hash match, so equal hashes never merge
//! different data. Each blob is hashed once, by [`content_hash`]; a flush handed over by value
//! ([`CaptureWriter::flush_owned`]) gives its upload data to the writer, which keeps a new content
//! without copying it and drops a repeated one.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

use super::container::ChunkWriter;
use super::record::*;
use crate::buffer::{BufferId, BufferState};
use crate::commands::{FrameCommands, Node};
use crate::effect::EffectKey;
use crate::query::QueryState;
use crate::resource::{NativeHandle, TextureId, TextureState};

mod commands;

/// Sizes a capture reports: what the game uploaded and drew, against the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaptureStats {
    /// Bytes of texture and buffer upload data and snapshot content, before deduplication and
    /// compression.
    pub raw_upload_bytes: u64,
    /// Bytes of sprite instances, before deduplication and compression.
    pub raw_sprite_bytes: u64,
    /// Bytes of user vertices and indices (the geometry arenas), before deduplication and
    /// compression.
    pub raw_geometry_bytes: u64,
    /// Bytes of the file so far.
    pub file_bytes: u64,
    /// Frames ended so far.
    pub frames: u64,
}

/// What the engine keeps of a custom geometry effect's pass for captures: the program's
/// stages (source and SPIR-V), what it binds, and where it sits in its effect.
#[derive(Clone, Debug)]
pub struct GeometryProgram {
    /// `EffectTechnique.Name`.
    pub technique: String,
    /// `EffectPass.Name`.
    pub pass: String,
    /// The vertex stage's GLSL source.
    pub vertex_glsl: String,
    /// The fragment stage's GLSL source.
    pub fragment_glsl: String,
    /// The vertex stage's SPIR-V.
    pub vertex_spirv: Arc<[u32]>,
    /// The fragment stage's SPIR-V.
    pub fragment_spirv: Arc<[u32]>,
    /// What the program binds.
    pub resources: crate::CustomResources,
}

/// What a flush does not hold and the engine knows about the resources it names.
#[derive(Clone, Copy)]
pub struct Sources<'a> {
    /// The SPIR-V of a custom effect's fragment stage (the engine keeps it for every effect it
    /// created).
    pub effect: &'a dyn Fn(EffectKey) -> Option<Arc<[u32]>>,
    /// A custom geometry effect pass's program (the engine keeps it for every pass it created).
    pub geometry_effect: &'a dyn Fn(EffectKey) -> Option<Arc<GeometryProgram>>,
    /// Whether a buffer was created `BufferUsage.WriteOnly`.
    pub write_only: &'a dyn Fn(BufferId) -> bool,
}

/// Writes one capture file.
pub struct CaptureWriter<W: Write> {
    out: ChunkWriter<W>,
    textures: HashMap<TextureId, TextureKey>,
    buffers: HashMap<BufferId, BufferKey>,
    effects: HashMap<EffectKey, EffectRef>,
    geometry_effects: HashMap<EffectKey, GeometryEffectKey>,
    queries: HashMap<NativeHandle, QueryKey>,
    blobs: HashMap<(u64, usize), Vec<BlobId>>,
    blob_bytes: Vec<Vec<u8>>,
    stats: CaptureStats,
}

impl<W: Write> CaptureWriter<W> {
    /// Starts a file on `out` with the device's record; `back_buffer` becomes its first texture.
    pub fn new(
        out: W,
        back_buffer: &Arc<TextureState>,
        device: impl FnOnce(TextureKey) -> DeviceRecord,
    ) -> std::io::Result<Self> {
        let mut writer = CaptureWriter {
            out: ChunkWriter::new(out)?,
            textures: HashMap::new(),
            buffers: HashMap::new(),
            effects: HashMap::new(),
            geometry_effects: HashMap::new(),
            queries: HashMap::new(),
            blobs: HashMap::new(),
            blob_bytes: Vec::new(),
            stats: CaptureStats::default(),
        };
        // The device record comes first; the back buffer's creation right after it.
        let key = 0;
        writer.out.chunk(kind::DEVICE, &device(key))?;
        writer.texture(back_buffer)?;
        Ok(writer)
    }

    /// The texture's key, writing its creation record the first time.
    pub fn texture(&mut self, texture: &Arc<TextureState>) -> std::io::Result<TextureKey> {
        if let Some(&key) = self.textures.get(&texture.id()) {
            return Ok(key);
        }
        let key = self.textures.len() as TextureKey;
        let record = TextureRecord { key, desc: *texture.desc(), name: texture.name() };
        self.out.chunk(kind::TEXTURE, &record)?;
        self.textures.insert(texture.id(), key);
        Ok(key)
    }

    /// The buffer's key, writing its creation record the first time.
    pub fn buffer(
        &mut self,
        buffer: &Arc<BufferState>,
        sources: Sources,
    ) -> std::io::Result<BufferKey> {
        if let Some(&key) = self.buffers.get(&buffer.id()) {
            return Ok(key);
        }
        // A buffer the reader would refuse ends the capture here, not in an unreadable file.
        super::limits::check_buffer_size(buffer.desc().size).map_err(|m| {
            std::io::Error::other(format!("{m}: the capture cannot hold it and ends here"))
        })?;
        let key = self.buffers.len() as BufferKey;
        let record = BufferRecord {
            key,
            desc: *buffer.desc(),
            write_only: (sources.write_only)(buffer.id()),
            name: buffer.name(),
        };
        self.out.chunk(kind::BUFFER, &record)?;
        self.buffers.insert(buffer.id(), key);
        Ok(key)
    }

    fn effect(&mut self, effect: EffectKey, sources: Sources) -> std::io::Result<EffectRef> {
        if let Some(&key) = self.effects.get(&effect) {
            return Ok(key);
        }
        let spirv = (sources.effect)(effect)
            .ok_or_else(|| std::io::Error::other("a draw's custom effect has no known code"))?;
        let key = self.effects.len() as EffectRef;
        let record = EffectRecord { key, outputs: effect.outputs, spirv: spirv.to_vec() };
        self.out.chunk(kind::EFFECT, &record)?;
        self.effects.insert(effect, key);
        Ok(key)
    }

    fn geometry_effect(
        &mut self,
        effect: EffectKey,
        sources: Sources,
    ) -> std::io::Result<GeometryEffectKey> {
        if let Some(&key) = self.geometry_effects.get(&effect) {
            return Ok(key);
        }
        let program = (sources.geometry_effect)(effect).ok_or_else(|| {
            std::io::Error::other("a draw's custom geometry effect has no known program")
        })?;
        let key = self.geometry_effects.len() as GeometryEffectKey;
        let record = GeometryEffectRecord {
            key,
            technique: program.technique.clone(),
            pass: program.pass.clone(),
            vertex_glsl: program.vertex_glsl.clone(),
            fragment_glsl: program.fragment_glsl.clone(),
            vertex_spirv: program.vertex_spirv.to_vec(),
            fragment_spirv: program.fragment_spirv.to_vec(),
            resources: CustomResourcesRecord::of(&program.resources),
        };
        self.out.chunk(kind::GEOMETRY_EFFECT, &record)?;
        self.geometry_effects.insert(effect, key);
        Ok(key)
    }

    /// The query's key, writing its creation record the first time.
    fn query(&mut self, query: &QueryState) -> std::io::Result<QueryKey> {
        if let Some(&key) = self.queries.get(&query.native()) {
            return Ok(key);
        }
        let key = self.queries.len() as QueryKey;
        self.out.chunk(kind::QUERY, &QueryRecord { key })?;
        self.queries.insert(query.native(), key);
        Ok(key)
    }

    /// The count the game read of `query`'s last span; nothing when the query has no span in
    /// this file (its span was before the capture began).
    pub fn query_result(&mut self, query: &QueryState, pixel_count: u64) -> std::io::Result<()> {
        match self.queries.get(&query.native()) {
            Some(&query) => {
                self.out.chunk(kind::QUERY_RESULT, &QueryResultRecord { query, pixel_count })
            }
            None => Ok(()),
        }
    }

    /// A query result record whose key is already this file's (trimming).
    pub fn query_result_record(&mut self, record: &QueryResultRecord) -> std::io::Result<()> {
        self.out.chunk(kind::QUERY_RESULT, record)
    }

    /// The blob id of `bytes`, writing the blob the first time this content is met.
    pub fn blob(&mut self, bytes: &[u8]) -> std::io::Result<BlobId> {
        self.blob_of(Cow::Borrowed(bytes))
    }

    /// [`Self::blob`] of bytes the writer may keep: a new content is kept without a copy.
    fn blob_of(&mut self, bytes: Cow<'_, [u8]>) -> std::io::Result<BlobId> {
        let candidates = self.blobs.entry((content_hash(&bytes), bytes.len())).or_default();
        if let Some(&id) = candidates.iter().find(|&&id| *self.blob_bytes[id as usize] == *bytes) {
            return Ok(id);
        }
        let id = self.blob_bytes.len() as BlobId;
        candidates.push(id);
        self.out.chunk(kind::BLOB, &BlobOut { id, bytes: ByteSeq(&bytes) })?;
        self.blob_bytes.push(bytes.into_owned());
        Ok(id)
    }

    /// A snapshot record whose blob is already this file's (trimming).
    pub fn snapshot_record(&mut self, record: &SnapshotRecord) -> std::io::Result<()> {
        self.out.chunk(kind::SNAPSHOT, record)
    }

    /// Content `texture` holds as the capture begins (one subresource region).
    pub fn snapshot(
        &mut self,
        texture: &Arc<TextureState>,
        region: (u32, u32, crate::Rect, crate::Slices),
        bytes: &[u8],
    ) -> std::io::Result<()> {
        let (level, layer, rect, slices) = region;
        let texture = self.texture(texture)?;
        self.stats.raw_upload_bytes += bytes.len() as u64;
        let blob = self.blob(bytes)?;
        let region = Region { texture, level, layer, rect, slices };
        self.out.chunk(kind::SNAPSHOT, &SnapshotRecord { region, blob })
    }

    /// The depth/stencil content `texture` (a render target with a depth format) holds as the
    /// capture begins, in the encoding of [`crate::depth_stencil_size`] (every sample of a
    /// multisampled one).
    pub fn depth_snapshot(
        &mut self,
        texture: &Arc<TextureState>,
        bytes: &[u8],
    ) -> std::io::Result<()> {
        let multisampled = texture.desc().render_target.is_some_and(|rt| rt.is_multisampled());
        let texture = self.texture(texture)?;
        self.stats.raw_upload_bytes += bytes.len() as u64;
        let blob = self.blob(bytes)?;
        self.depth_snapshot_record(&DepthSnapshotRecord { texture, blob }, multisampled)
    }

    /// Every sample of layer `layer` of `texture` (a multisampled render target) as the capture
    /// begins, as the sample planes of [`crate::sample_planes_size`].
    pub fn sample_snapshot(
        &mut self,
        texture: &Arc<TextureState>,
        layer: u32,
        bytes: &[u8],
    ) -> std::io::Result<()> {
        let texture = self.texture(texture)?;
        self.stats.raw_upload_bytes += bytes.len() as u64;
        let blob = self.blob(bytes)?;
        self.sample_snapshot_record(&SampleSnapshotRecord { texture, layer, blob })
    }

    /// A sample snapshot record whose keys are already this file's (trimming).
    pub fn sample_snapshot_record(&mut self, record: &SampleSnapshotRecord) -> std::io::Result<()> {
        self.out.chunk(kind::SAMPLE_SNAPSHOT, record)
    }

    /// A depth snapshot record whose keys are already this file's (trimming), of a
    /// `multisampled` target or not (its chunk kind says which).
    pub fn depth_snapshot_record(
        &mut self,
        record: &DepthSnapshotRecord,
        multisampled: bool,
    ) -> std::io::Result<()> {
        let kind = if multisampled { kind::SAMPLE_DEPTH_SNAPSHOT } else { kind::DEPTH_SNAPSHOT };
        self.out.chunk(kind, record)
    }

    /// The whole content `buffer` holds as the capture begins.
    pub fn buffer_snapshot(
        &mut self,
        buffer: &Arc<BufferState>,
        bytes: &[u8],
        sources: Sources,
    ) -> std::io::Result<()> {
        let buffer = self.buffer(buffer, sources)?;
        self.stats.raw_upload_bytes += bytes.len() as u64;
        let blob = self.blob(bytes)?;
        self.buffer_snapshot_record(&BufferSnapshotRecord { buffer, blob })
    }

    /// A buffer snapshot record whose keys are already this file's (trimming).
    pub fn buffer_snapshot_record(&mut self, record: &BufferSnapshotRecord) -> std::io::Result<()> {
        self.out.chunk(kind::BUFFER_SNAPSHOT, record)
    }

    /// One flushed frame of device frame `frame`.
    pub fn flush(
        &mut self,
        frame: u64,
        commands: &FrameCommands,
        sources: Sources,
    ) -> std::io::Result<()> {
        let mut nodes = Vec::with_capacity(commands.nodes.len());
        for node in &commands.nodes {
            nodes.push(self.node(node, None, sources)?);
        }
        self.flush_arenas(frame, nodes, commands)
    }

    /// [`Self::flush`] of a frame handed over by value: its upload data moves into the writer
    /// (a new content is kept without a copy). Returns the sprite arena, emptied, for reuse.
    pub fn flush_owned(
        &mut self,
        frame: u64,
        mut commands: FrameCommands,
        sources: Sources,
    ) -> std::io::Result<crate::SpriteArena> {
        let mut nodes = Vec::with_capacity(commands.nodes.len());
        for node in &mut commands.nodes {
            let data = match node {
                Node::Upload(u) => Some(std::mem::take(&mut u.data)),
                Node::BufferUpload(u) => Some(std::mem::take(&mut u.data)),
                _ => None,
            };
            nodes.push(self.node(node, data, sources)?);
        }
        self.flush_arenas(frame, nodes, &commands)?;
        let mut sprites = std::mem::take(&mut commands.sprites);
        sprites.clear();
        Ok(sprites)
    }

    /// Writes the flush record of `nodes` with `commands`' sprite and geometry arenas.
    fn flush_arenas(
        &mut self,
        frame: u64,
        nodes: Vec<NodeRecord>,
        commands: &FrameCommands,
    ) -> std::io::Result<()> {
        let sprite_bytes: &[u8] = bytemuck::cast_slice(&commands.sprites);
        self.stats.raw_sprite_bytes += sprite_bytes.len() as u64;
        let sprites = self.blob(sprite_bytes)?;
        self.stats.raw_geometry_bytes += commands.geometry_bytes.len() as u64;
        let geometry = if commands.geometry_bytes.is_empty() {
            None
        } else {
            Some(self.blob(&commands.geometry_bytes)?)
        };
        let open_cycle = commands.open_cycle.map(|i| i as u32);
        self.out.chunk(kind::FLUSH, &FlushRecord { frame, nodes, sprites, open_cycle, geometry })
    }

    /// A flush record whose keys are already this file's (trimming copies frames this way).
    pub fn flush_record(&mut self, record: &FlushRecord) -> std::io::Result<()> {
        self.out.chunk(kind::FLUSH, record)
    }

    /// The marker of device frame `frame`'s end (its present).
    pub fn frame_end(&mut self, frame: u64, record_ns: u64) -> std::io::Result<()> {
        self.stats.frames += 1;
        self.out.chunk(kind::FRAME_END, &FrameEndRecord { frame, record_ns })
    }

    /// Starts a file that repeats `capture`'s creation records under the same keys, with
    /// `device` as its device record (trimming); its frames and snapshot then come through
    /// [`Self::blob`], [`Self::snapshot_record`], [`Self::buffer_snapshot_record`],
    /// [`Self::flush_record`] and [`Self::frame_end`].
    pub fn copy_of(
        out: W,
        device: &DeviceRecord,
        capture: &super::Capture,
    ) -> std::io::Result<Self> {
        let mut writer = CaptureWriter {
            out: ChunkWriter::new(out)?,
            textures: HashMap::new(),
            buffers: HashMap::new(),
            effects: HashMap::new(),
            geometry_effects: HashMap::new(),
            queries: HashMap::new(),
            blobs: HashMap::new(),
            blob_bytes: Vec::new(),
            stats: CaptureStats::default(),
        };
        writer.out.chunk(kind::DEVICE, device)?;
        for t in &capture.textures {
            writer.out.chunk(kind::TEXTURE, t)?;
        }
        for b in &capture.buffers {
            writer.out.chunk(kind::BUFFER, b)?;
        }
        for e in &capture.effects {
            writer.out.chunk(kind::EFFECT, e)?;
        }
        for e in &capture.geometry_effects {
            writer.out.chunk(kind::GEOMETRY_EFFECT, e)?;
        }
        for q in &capture.queries {
            writer.out.chunk(kind::QUERY, q)?;
        }
        Ok(writer)
    }

    /// Sizes so far.
    pub fn stats(&self) -> CaptureStats {
        CaptureStats { file_bytes: self.out.written(), ..self.stats }
    }

    /// Writes the end record and flushes; returns the output and the final sizes.
    pub fn finish(mut self) -> std::io::Result<(W, CaptureStats)> {
        self.out.chunk(kind::END, &EndRecord { frames: self.stats.frames })?;
        let stats = self.stats();
        Ok((self.out.finish()?, stats))
    }
}

/// A blob's 64-bit content hash: its 8-byte words (the tail zero-padded) folded by
/// rotate, xor and multiply, seeded with the length. Fast rather than strong: a match is
/// confirmed by comparing the bytes.
pub fn content_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let fold = |h: u64, word: u64| (h.rotate_left(23) ^ word).wrapping_mul(K);
    let mut words = bytes.chunks_exact(8);
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    for w in &mut words {
        h = fold(h, u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]));
    }
    let mut tail = [0u8; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    let h = fold(h, u64::from_le_bytes(tail));
    h ^ (h >> 29)
}

/// A [`BlobRecord`] written from borrowed bytes: the same encoding (postcard writes a byte
/// string as its length and its bytes, as it writes a `Vec<u8>`), without copying them.
#[derive(serde::Serialize)]
struct BlobOut<'a> {
    id: BlobId,
    bytes: ByteSeq<'a>,
}

/// Bytes serialized as one byte string rather than element by element.
struct ByteSeq<'a>(&'a [u8]);

impl serde::Serialize for ByteSeq<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}
