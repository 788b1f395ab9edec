//! Reading a capture: the chunks of a file checked and gathered into a [`Capture`].
//!
//! In: a file's bytes. Out: the device, the creation records, the blobs, the snapshot and the
//! frames, each flush in order under its frame. Every reference is checked as it is read (a
//! texture, effect or blob must be defined by an earlier chunk; a sprite range must lie in its
//! arena; a blob must be as long as its region), so a replay never meets a dangling key; a
//! fault names the chunk and its byte offset.

use std::collections::HashMap;

use super::container::{read_chunks, CaptureError, RawChunk};
use super::record::*;
use crate::commands::SpriteInstance;

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

/// A whole capture file, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    /// The device.
    pub device: DeviceRecord,
    /// Texture creations, indexed by key.
    pub textures: Vec<TextureRecord>,
    /// Effect creations, indexed by key.
    pub effects: Vec<EffectRecord>,
    /// Blobs, indexed by id.
    pub blobs: Vec<Vec<u8>>,
    /// The content of textures when the capture began.
    pub snapshot: Vec<SnapshotRecord>,
    /// The frames, in order.
    pub frames: Vec<CapturedFrame>,
    /// Whether the file ends with its end record.
    pub complete: bool,
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
            effects: Vec::new(),
            blobs: Vec::new(),
            snapshot: Vec::new(),
            frames: Vec::new(),
            complete: false,
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

    fn add(&mut self, chunk: &RawChunk) -> Result<(), CaptureError> {
        match chunk.kind {
            kind::TEXTURE => {
                let t: TextureRecord = chunk.decode()?;
                if t.key as usize != self.textures.len() {
                    return Err(chunk.error(format!("texture key {} out of order", t.key)));
                }
                self.textures.push(t);
            }
            kind::EFFECT => {
                let e: EffectRecord = chunk.decode()?;
                if e.key as usize != self.effects.len() {
                    return Err(chunk.error(format!("effect key {} out of order", e.key)));
                }
                self.effects.push(e);
            }
            kind::BLOB => {
                let b: BlobRecord = chunk.decode()?;
                if b.id as usize != self.blobs.len() {
                    return Err(chunk.error(format!("blob id {} out of order", b.id)));
                }
                self.blobs.push(b.bytes);
            }
            kind::SNAPSHOT => {
                let s: SnapshotRecord = chunk.decode()?;
                self.check_region(chunk, &s.region, Some(s.blob))?;
                if !self.frames.is_empty() {
                    return Err(chunk.error("snapshot content after the first frame"));
                }
                self.snapshot.push(s);
            }
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
            _ => return Err(chunk.error("a device record after the first chunk")),
        }
        Ok(())
    }

    fn check_texture(&self, chunk: &RawChunk, key: TextureKey) -> Result<(), CaptureError> {
        if (key as usize) < self.textures.len() {
            Ok(())
        } else {
            Err(chunk.error(format!("texture {key} used before its creation")))
        }
    }

    fn check_blob(&self, chunk: &RawChunk, id: BlobId) -> Result<&[u8], CaptureError> {
        self.blobs
            .get(id as usize)
            .map(Vec::as_slice)
            .ok_or_else(|| chunk.error(format!("blob {id} used before it is written")))
    }

    /// A region must lie in its texture's subresources, and its blob hold its texels exactly.
    fn check_region(
        &self,
        chunk: &RawChunk,
        r: &Region,
        blob: Option<BlobId>,
    ) -> Result<(), CaptureError> {
        self.check_texture(chunk, r.texture)?;
        let desc = &self.textures[r.texture as usize].desc;
        let (w, h) = if r.level < desc.mip_levels { desc.level_size(r.level) } else { (0, 0) };
        let inside = r.level < desc.mip_levels
            && r.layer < desc.layers
            && r.rect.x >= 0
            && r.rect.y >= 0
            && r.rect.width > 0
            && r.rect.height > 0
            && i64::from(r.rect.x) + i64::from(r.rect.width) <= i64::from(w)
            && i64::from(r.rect.y) + i64::from(r.rect.height) <= i64::from(h)
            && r.slices.front < r.slices.back
            && r.slices.back <= desc.level_depth(r.level);
        if !inside {
            return Err(chunk.error(format!("region {r:?} outside texture {}", r.texture)));
        }
        if let Some(id) = blob {
            let bytes = self.check_blob(chunk, id)?;
            let slice = desc.format.region_size(r.rect.width as u32, r.rect.height as u32);
            let expected = slice as u64 * u64::from(r.slices.count());
            if bytes.len() as u64 != expected {
                return Err(chunk.error(format!(
                    "blob {id} holds {} bytes, the region {expected}",
                    bytes.len()
                )));
            }
        }
        Ok(())
    }

    fn check_flush(&self, chunk: &RawChunk, f: &FlushRecord) -> Result<(), CaptureError> {
        let arena = self.check_blob(chunk, f.sprites)?;
        let size = std::mem::size_of::<SpriteInstance>();
        if arena.len() % size != 0 {
            return Err(chunk.error("the sprite arena is not a whole number of sprites"));
        }
        let sprites = (arena.len() / size) as u64;
        for node in &f.nodes {
            match node {
                NodeRecord::Pass { colors, ops, .. } => {
                    if colors.is_empty() || colors.len() > 4 {
                        return Err(chunk.error("a pass without one to four attachments"));
                    }
                    for &(t, layer) in colors {
                        self.check_texture(chunk, t)?;
                        let desc = &self.textures[t as usize].desc;
                        if desc.render_target.is_none() || layer >= desc.layers {
                            return Err(chunk.error(format!("texture {t} is no attachment")));
                        }
                    }
                    for op in ops {
                        let OpRecord::Draw(d) = op else { continue };
                        if d.more_textures.len() >= crate::MAX_DRAW_TEXTURES {
                            return Err(chunk.error("a draw of too many textures"));
                        }
                        for &t in std::iter::once(&d.texture).chain(&d.more_textures) {
                            self.check_texture(chunk, t)?;
                        }
                        if u64::from(d.first_sprite) + u64::from(d.sprite_count) > sprites {
                            return Err(chunk.error("a draw past its sprite arena"));
                        }
                        if let ShaderRecord::Custom(e) = d.shader {
                            if e as usize >= self.effects.len() {
                                return Err(
                                    chunk.error(format!("effect {e} used before its creation"))
                                );
                            }
                        }
                    }
                }
                NodeRecord::Upload { region, blob } => {
                    self.check_region(chunk, region, Some(*blob))?
                }
                NodeRecord::Readback(region) => self.check_region(chunk, region, None)?,
                NodeRecord::Present(t) => self.check_texture(chunk, *t)?,
            }
        }
        if let Some(open) = f.open_cycle {
            if !matches!(f.nodes.get(open as usize), Some(NodeRecord::Pass { .. })) {
                return Err(chunk.error("the open cycle is not a pass of the flush"));
            }
        }
        Ok(())
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
        for f in self.frames.iter().flat_map(|f| &f.flushes) {
            *uses.entry(f.sprites).or_default() += 1;
            for n in &f.nodes {
                if let NodeRecord::Upload { blob, .. } = n {
                    *uses.entry(*blob).or_default() += 1;
                }
            }
        }
        uses
    }
}
