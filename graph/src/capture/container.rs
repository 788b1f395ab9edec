//! The capture file's container: a header, then typed, length-prefixed chunks.
//!
//! In: chunk kinds and serde payloads (writing), or a file's bytes (reading). Out: the file's
//! bytes, or its chunks in order with the index and byte offset of each.
//!
//! Layout (little-endian): the magic `XNAGCAP\0`, the format version as major and minor `u16`,
//! then chunks. A chunk is its kind (`u32`), its payload's decoded length (`u32`), its stored
//! length (`u32`), and the stored bytes: the postcard encoding of the payload, zstd-compressed.
//! A reader skips a kind it does not know by its stored length (the reason every chunk carries
//! it), refuses a newer major version, and reads any minor version of its own major. Every
//! length is checked against what the file still holds and against [`MAX_CHUNK`] before
//! anything is allocated, so a corrupt length can neither panic nor allocate unchecked.

use std::io::{Read, Write};

use serde::de::DeserializeOwned;
use serde::Serialize;

/// The first eight bytes of every capture file.
pub const MAGIC: [u8; 8] = *b"XNAGCAP\0";
/// The format version this build writes: a reader accepts any minor version of its major.
/// Major 2: a sprite carries its texture slot and a draw its extra textures. Major 3: occlusion
/// queries, custom geometry effects and instanced draws (new variants and a new field in a
/// flush's draws). Minor 1: the depth/stencil snapshot of preserving targets
/// ([`super::record::DepthSnapshotRecord`], a chunk older readers skip). Minor 2: the sample
/// snapshot of multisampled preserving targets ([`super::record::SampleSnapshotRecord`], skipped
/// likewise) and of multisampled targets' depth/stencil (the `SAMPLE_DEPTH_SNAPSHOT` kind, whose
/// records 3.1 readers would refuse as `DEPTH_SNAPSHOT`s). Major 4: SkinnedEffect (a new
/// stock shader, two more vertex attribute locations and each geometry draw's bones). Major 5:
/// EnvironmentMapEffect (a new stock shader, which 4.x readers cannot decode). Major 6: each
/// geometry draw's repeats (a run of draws recorded as one, [`crate::GeometryDraw::repeats`]).
pub const VERSION: (u16, u16) = (6, 0);
/// Bytes before the first chunk: the magic and the version.
pub const HEADER_LEN: usize = 12;
/// Bytes of a chunk's header: kind, decoded length, stored length.
pub const CHUNK_HEADER_LEN: usize = 12;
/// The largest decoded payload a chunk may declare (1 GiB).
pub const MAX_CHUNK: u32 = 1 << 30;
/// zstd's level for every chunk: its fastest strategy at a light acceleration. Repeated texel
/// and sprite data still shrinks to little (and repeated blobs are stored once anyway); a
/// frame's fresh sprite arena barely compresses at any fast level, and level 3 took the
/// capture's writer thread about twice as long per frame (measured on the README's sample: 17%
/// smaller files for 0.11 against 0.065 ms a frame), so a capture of a fast game would fall
/// behind its frames.
const ZSTD_LEVEL: i32 = -1;

/// Where a capture file is malformed: the chunk (by index, from 0) and the byte offset of the
/// fault, with what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureError {
    /// The byte offset in the file where the faulty part begins.
    pub offset: u64,
    /// The chunk's index, or `None` for the header (or an I/O failure).
    pub chunk: Option<u64>,
    /// What was wrong.
    pub message: String,
}

impl CaptureError {
    pub(crate) fn at(offset: u64, chunk: Option<u64>, message: impl Into<String>) -> Self {
        CaptureError { offset, chunk, message: message.into() }
    }
}

impl std::fmt::Display for CaptureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.chunk {
            Some(c) => write!(f, "capture chunk {c} at byte {}: {}", self.offset, self.message),
            None => write!(f, "capture file at byte {}: {}", self.offset, self.message),
        }
    }
}

impl std::error::Error for CaptureError {}

/// Writes the header, then one chunk per call; counts the bytes written.
///
/// One zstd context and the encoding and compression buffers serve every chunk: a chunk costs
/// its encoding and compression, never a context's or a buffer's allocation.
pub struct ChunkWriter<W: Write> {
    out: W,
    written: u64,
    compressor: zstd::bulk::Compressor<'static>,
    raw: Vec<u8>,
    stored: Vec<u8>,
}

impl<W: Write> std::fmt::Debug for ChunkWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChunkWriter").field("written", &self.written).finish_non_exhaustive()
    }
}

impl<W: Write> ChunkWriter<W> {
    /// Writes the magic and the version to `out`.
    pub fn new(mut out: W) -> std::io::Result<Self> {
        out.write_all(&MAGIC)?;
        out.write_all(&VERSION.0.to_le_bytes())?;
        out.write_all(&VERSION.1.to_le_bytes())?;
        Ok(ChunkWriter {
            out,
            written: HEADER_LEN as u64,
            compressor: zstd::bulk::Compressor::new(ZSTD_LEVEL)?,
            raw: Vec::new(),
            stored: Vec::new(),
        })
    }

    /// Encodes `payload` with postcard, compresses it and writes it as a chunk of `kind`.
    pub fn chunk<T: Serialize + ?Sized>(&mut self, kind: u32, payload: &T) -> std::io::Result<()> {
        let mut raw = std::mem::take(&mut self.raw);
        raw.clear();
        let raw = postcard::to_extend(payload, raw).map_err(std::io::Error::other)?;
        let written = self.raw_chunk(kind, &raw);
        self.raw = raw;
        written
    }

    /// Writes already-encoded payload bytes as a chunk of `kind`.
    pub fn raw_chunk(&mut self, kind: u32, raw: &[u8]) -> std::io::Result<()> {
        let too_long = || std::io::Error::other("a capture chunk past the 1 GiB limit");
        let raw_len =
            u32::try_from(raw.len()).ok().filter(|&l| l <= MAX_CHUNK).ok_or_else(too_long)?;
        self.stored.clear();
        self.stored.reserve(zstd::zstd_safe::compress_bound(raw.len()));
        let stored_len = self.compressor.compress_to_buffer(raw, &mut self.stored)?;
        let stored_len = u32::try_from(stored_len).map_err(|_| too_long())?;
        self.out.write_all(&kind.to_le_bytes())?;
        self.out.write_all(&raw_len.to_le_bytes())?;
        self.out.write_all(&stored_len.to_le_bytes())?;
        self.out.write_all(&self.stored)?;
        self.written += (CHUNK_HEADER_LEN + self.stored.len()) as u64;
        Ok(())
    }

    /// Bytes written so far, header included.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Flushes and returns the output.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// One chunk as read: where it lies, its kind, and its decoded payload.
#[derive(Debug)]
pub struct RawChunk {
    /// Its index in the file, from 0.
    pub index: u64,
    /// The byte offset of its header.
    pub offset: u64,
    /// Its kind.
    pub kind: u32,
    /// Its payload, decompressed (empty for a kind the reader skipped).
    pub payload: Vec<u8>,
}

impl RawChunk {
    /// Decodes the payload as `T`; a failure names this chunk.
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T, CaptureError> {
        postcard::from_bytes(&self.payload).map_err(|e| {
            CaptureError::at(self.offset, Some(self.index), format!("undecodable payload: {e}"))
        })
    }

    /// An error about this chunk's content.
    pub fn error(&self, message: impl Into<String>) -> CaptureError {
        CaptureError::at(self.offset, Some(self.index), message)
    }
}

/// Checks the header of `bytes` and returns the version found.
pub fn read_header(bytes: &[u8]) -> Result<(u16, u16), CaptureError> {
    if bytes.len() < HEADER_LEN {
        return Err(CaptureError::at(
            0,
            None,
            format!("truncated header: {} of {HEADER_LEN} bytes", bytes.len()),
        ));
    }
    if bytes[..8] != MAGIC {
        return Err(CaptureError::at(0, None, "not an xnagraph capture (wrong magic)"));
    }
    let major = u16::from_le_bytes([bytes[8], bytes[9]]);
    let minor = u16::from_le_bytes([bytes[10], bytes[11]]);
    if major != VERSION.0 {
        return Err(CaptureError::at(
            8,
            None,
            format!("format version {major}.{minor}; this reader reads {}.x", VERSION.0),
        ));
    }
    Ok((major, minor))
}

/// Reads every chunk after the header, in order. `known` says which kinds to decode; the
/// others are skipped with a warning (their payload left empty).
pub fn read_chunks(
    bytes: &[u8],
    known: impl Fn(u32) -> bool,
) -> Result<Vec<RawChunk>, CaptureError> {
    read_header(bytes)?;
    let mut chunks = Vec::new();
    let mut at = HEADER_LEN;
    let mut index = 0u64;
    while at < bytes.len() {
        let offset = at as u64;
        let fail = |message: String| CaptureError::at(offset, Some(index), message);
        let rest = &bytes[at..];
        if rest.len() < CHUNK_HEADER_LEN {
            return Err(fail(format!(
                "truncated chunk header: {} of {CHUNK_HEADER_LEN} bytes",
                rest.len()
            )));
        }
        let word = |i: usize| u32::from_le_bytes([rest[i], rest[i + 1], rest[i + 2], rest[i + 3]]);
        let (kind, raw_len, stored_len) = (word(0), word(4), word(8));
        let body = &rest[CHUNK_HEADER_LEN..];
        if stored_len as usize > body.len() {
            return Err(fail(format!(
                "truncated chunk: {stored_len} bytes declared, {} left in the file",
                body.len()
            )));
        }
        if raw_len > MAX_CHUNK {
            return Err(fail(format!("chunk length {raw_len} past the {MAX_CHUNK}-byte limit")));
        }
        let stored = &body[..stored_len as usize];
        let payload = if known(kind) {
            decompress(stored, raw_len).map_err(fail)?
        } else {
            tracing::warn!(kind, index, offset, "skipping a capture chunk of unknown kind");
            Vec::new()
        };
        chunks.push(RawChunk { index, offset, kind, payload });
        at += CHUNK_HEADER_LEN + stored_len as usize;
        index += 1;
    }
    Ok(chunks)
}

/// Decompresses `stored`, reading at most `raw_len + 1` bytes (the buffer grows with what is
/// really decoded, never by the declared length), and checks the declared length.
fn decompress(stored: &[u8], raw_len: u32) -> Result<Vec<u8>, String> {
    let decoder = zstd::stream::read::Decoder::with_buffer(stored)
        .map_err(|e| format!("undecompressable chunk: {e}"))?;
    let mut payload = Vec::new();
    decoder
        .take(u64::from(raw_len) + 1)
        .read_to_end(&mut payload)
        .map_err(|e| format!("undecompressable chunk: {e}"))?;
    if payload.len() != raw_len as usize {
        return Err(format!("chunk decodes to {} bytes, {raw_len} declared", payload.len()));
    }
    Ok(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_chunks() -> Vec<u8> {
        let mut w = ChunkWriter::new(Vec::new()).unwrap();
        w.chunk(1, &(7u32, "first".to_owned())).unwrap();
        w.chunk(2, &vec![9u8; 1000]).unwrap();
        w.finish().unwrap()
    }

    #[test]
    fn chunks_read_back_in_order_with_their_offsets() {
        let bytes = two_chunks();
        let chunks = read_chunks(&bytes, |_| true).unwrap();
        assert_eq!(chunks.len(), 2);
        assert_eq!((chunks[0].index, chunks[0].offset, chunks[0].kind), (0, 12, 1));
        assert_eq!(chunks[0].decode::<(u32, String)>().unwrap(), (7, "first".to_owned()));
        assert_eq!(chunks[1].decode::<Vec<u8>>().unwrap(), vec![9u8; 1000]);
        assert!(bytes.len() < 200, "1000 repeated bytes compress: {} bytes", bytes.len());
    }

    #[test]
    fn an_unknown_kind_is_skipped_and_the_next_chunk_still_read() {
        let bytes = two_chunks();
        let chunks = read_chunks(&bytes, |k| k == 2).unwrap();
        assert!(chunks[0].payload.is_empty());
        assert_eq!(chunks[1].decode::<Vec<u8>>().unwrap(), vec![9u8; 1000]);
    }

    #[test]
    fn a_wrong_magic_or_a_newer_major_version_is_refused_at_the_header() {
        let mut bytes = two_chunks();
        bytes[0] = b'Y';
        let e = read_chunks(&bytes, |_| true).unwrap_err();
        assert_eq!((e.offset, e.chunk), (0, None));
        assert!(e.message.contains("magic"), "{e}");
        let mut bytes = two_chunks();
        bytes[8..10].copy_from_slice(&(VERSION.0 + 1).to_le_bytes());
        let e = read_chunks(&bytes, |_| true).unwrap_err();
        assert_eq!((e.offset, e.chunk), (8, None));
        assert!(e.message.contains(&format!("version {}.{}", VERSION.0 + 1, VERSION.1)), "{e}");
        let mut bytes = two_chunks();
        bytes[10..12].copy_from_slice(&(VERSION.1 + 5).to_le_bytes());
        assert!(read_chunks(&bytes, |_| true).is_ok(), "a newer minor version is read");
    }

    #[test]
    fn a_truncated_file_names_the_chunk_and_offset() {
        let bytes = two_chunks();
        let second = read_chunks(&bytes, |_| true).unwrap()[1].offset as usize;
        let e = read_chunks(&bytes[..bytes.len() - 1], |_| true).unwrap_err();
        assert_eq!((e.chunk, e.offset), (Some(1), second as u64));
        assert!(e.message.contains("truncated chunk"), "{e}");
        let e = read_chunks(&bytes[..second + 5], |_| true).unwrap_err();
        assert!(e.message.contains("truncated chunk header"), "{e}");
        assert_eq!(e.to_string(), format!("capture chunk 1 at byte {second}: {}", e.message));
    }

    #[test]
    fn a_corrupt_chunk_or_a_lying_length_is_an_error_not_an_allocation() {
        let bytes = two_chunks();
        let second = read_chunks(&bytes, |_| true).unwrap()[1].offset as usize;
        // The stored bytes corrupted.
        let mut bad = bytes.clone();
        let last = bad.len() - 3;
        bad[last] ^= 0xff;
        bad[second + CHUNK_HEADER_LEN + 2] ^= 0x5a;
        let e = read_chunks(&bad, |_| true).unwrap_err();
        assert_eq!(e.chunk, Some(1));
        // A declared length far past the limit.
        let mut bad = bytes.clone();
        bad[second + 4..second + 8].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = read_chunks(&bad, |_| true).unwrap_err();
        assert!(e.message.contains("limit"), "{e}");
        // A declared length that disagrees with the data.
        let mut bad = bytes;
        bad[second + 4..second + 8].copy_from_slice(&999u32.to_le_bytes());
        let e = read_chunks(&bad, |_| true).unwrap_err();
        assert!(e.message.contains("1000 bytes, 999 declared"), "{e}");
    }
}
