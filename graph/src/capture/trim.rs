//! Trimming: a new capture holding a range of another's frames, with the snapshot it needs.
//!
//! In: a capture, a range of its frames (by position, from 0), and a backend to replay on.
//! Out: a file with the same device and creation records, whose snapshot is the content every
//! texture and buffer had when the range began, and whose frames are the range's, unchanged.
//!
//! A range that starts at the first frame keeps the original snapshot. Any later range needs the
//! content the earlier frames left, which only executing them gives: the earlier frames are
//! replayed, then every level and layer of every texture, the depth/stencil image of every target
//! whose depth a capture snapshots where the backend reads it back ([`reads_depth_back`]), the
//! samples of every layer of every target whose samples a capture snapshots ([`snapshots_samples`])
//! where the backend reads samples back, and every buffer are read back once.

use std::io::Write;
use std::ops::RangeInclusive;

use super::reader::Capture;
use super::record::*;
use super::replay::Replayer;
use super::writer::{CaptureStats, CaptureWriter};
use crate::backend::{Backend, BackendError};

/// Why a trim failed.
#[derive(Debug)]
pub enum TrimError {
    /// The range is empty or past the capture's frames.
    Range(String),
    /// Replaying the earlier frames or reading the content failed.
    Backend(BackendError),
    /// Writing the new file failed.
    Io(std::io::Error),
}

impl std::fmt::Display for TrimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrimError::Range(m) => write!(f, "bad frame range: {m}"),
            TrimError::Backend(e) => write!(f, "replay failed: {e}"),
            TrimError::Io(e) => write!(f, "writing the capture failed: {e}"),
        }
    }
}

impl std::error::Error for TrimError {}

impl From<BackendError> for TrimError {
    fn from(e: BackendError) -> Self {
        TrimError::Backend(e)
    }
}

impl From<std::io::Error> for TrimError {
    fn from(e: std::io::Error) -> Self {
        TrimError::Io(e)
    }
}

pub use crate::snapshot::{reads_depth_back, snapshots_depth, snapshots_samples};

/// Writes frames `range` (positions in `capture.frames`) of `capture` to `out` as a capture that
/// replays on its own.
pub fn trim<W: Write>(
    capture: &Capture,
    range: RangeInclusive<usize>,
    backend: &mut dyn Backend,
    out: W,
) -> Result<(W, CaptureStats), TrimError> {
    let (first, last) = (*range.start(), *range.end());
    if first > last || last >= capture.frames.len() {
        return Err(TrimError::Range(format!(
            "{first}-{last} of a capture of {} frames",
            capture.frames.len()
        )));
    }
    let device =
        DeviceRecord { first_frame: capture.frames[first].number, ..capture.device.clone() };
    let mut writer = CaptureWriter::copy_of(out, &device, capture)?;
    if first == 0 {
        for s in &capture.snapshot {
            let blob = writer.blob(&capture.blobs[s.blob as usize])?;
            writer.snapshot_record(&SnapshotRecord { blob, ..*s })?;
        }
        for s in &capture.depth_snapshot {
            let blob = writer.blob(&capture.blobs[s.blob as usize])?;
            let desc = &capture.textures[s.texture as usize].desc;
            let multisampled = desc.render_target.is_some_and(|rt| rt.is_multisampled());
            writer.depth_snapshot_record(&DepthSnapshotRecord { blob, ..*s }, multisampled)?;
        }
        for s in &capture.sample_snapshot {
            let blob = writer.blob(&capture.blobs[s.blob as usize])?;
            writer.sample_snapshot_record(&SampleSnapshotRecord { blob, ..*s })?;
        }
        for s in &capture.buffer_snapshot {
            let blob = writer.blob(&capture.blobs[s.blob as usize])?;
            writer.buffer_snapshot_record(&BufferSnapshotRecord { blob, ..*s })?;
        }
    } else {
        let mut replayer = Replayer::new(backend, capture)?;
        for frame in &capture.frames[..first] {
            replayer.replay_frame(backend, capture, frame)?;
        }
        for t in &capture.textures {
            let desc = t.desc;
            for layer in 0..desc.layers {
                for level in 0..desc.mip_levels {
                    let bytes = replayer.read_back(backend, t.key, level, layer)?;
                    let (w, h) = desc.level_size(level);
                    let region = Region {
                        texture: t.key,
                        level,
                        layer,
                        rect: crate::Rect::new(0, 0, w as i32, h as i32),
                        slices: crate::Slices { front: 0, back: desc.level_depth(level) },
                    };
                    let blob = writer.blob(&bytes)?;
                    writer.snapshot_record(&SnapshotRecord { region, blob })?;
                }
            }
        }
        // Depth that survives frames, where the backend reads depth back (as a capture does).
        let caps = backend.capabilities().clone();
        for t in capture.textures.iter().filter(|t| reads_depth_back(&caps, &t.desc)) {
            let bytes = replayer.read_back_depth(backend, t.key)?;
            let blob = writer.blob(&bytes)?;
            let multisampled = t.desc.render_target.is_some_and(|rt| rt.is_multisampled());
            let record = DepthSnapshotRecord { texture: t.key, blob };
            writer.depth_snapshot_record(&record, multisampled)?;
        }
        // Samples that survive frames, where the backend reads samples back.
        if backend.capabilities().sample_readback {
            for t in capture.textures.iter().filter(|t| snapshots_samples(&t.desc)) {
                for layer in 0..t.desc.layers {
                    let bytes = replayer.read_back_samples(backend, t.key, layer)?;
                    let blob = writer.blob(&bytes)?;
                    let record = SampleSnapshotRecord { texture: t.key, layer, blob };
                    writer.sample_snapshot_record(&record)?;
                }
            }
        }
        for b in &capture.buffers {
            let bytes = replayer.read_back_buffer(backend, b.key)?;
            let blob = writer.blob(&bytes)?;
            writer.buffer_snapshot_record(&BufferSnapshotRecord { buffer: b.key, blob })?;
        }
        replayer.finish(backend)?;
    }
    for (position, frame) in capture.frames.iter().enumerate().take(last + 1).skip(first) {
        for (i, flush) in frame.flushes.iter().enumerate() {
            let mut flush = flush.clone();
            flush.sprites = writer.blob(&capture.blobs[flush.sprites as usize])?;
            if let Some(g) = flush.geometry.as_mut() {
                *g = writer.blob(&capture.blobs[*g as usize])?;
            }
            for node in &mut flush.nodes {
                if let NodeRecord::Upload { blob, .. } | NodeRecord::BufferUpload { blob, .. } =
                    node
                {
                    *blob = writer.blob(&capture.blobs[*blob as usize])?;
                }
            }
            writer.flush_record(&flush)?;
            // The live counts of this flush's spans follow it, as in the original.
            for r in capture.query_results.iter().filter(|r| (r.frame, r.flush) == (position, i)) {
                let record = QueryResultRecord { query: r.query, pixel_count: r.pixel_count };
                writer.query_result_record(&record)?;
            }
        }
        if let Some(end) = frame.end {
            writer.frame_end(end.frame, end.record_ns)?;
        }
    }
    Ok(writer.finish()?)
}

#[cfg(test)]
mod tests {
    use crate::compile::testkit::*;
    use crate::DepthFormat;

    /// Only a single-sample target with a depth format whose content survives frames has its
    /// depth read back as one image.
    #[test]
    fn a_single_sample_preserving_depth_target_snapshots_its_depth_as_one_image() {
        let depth = DepthFormat::Depth24Stencil8;
        let snapshots = |samples, depth, usage| {
            target_with_depth(8, samples, depth, usage).desc().snapshots_single_sample_depth()
        };
        assert!(snapshots(0, depth, PRESERVE));
        assert!(snapshots(0, DepthFormat::Depth16, PLATFORM));
        assert!(!snapshots(4, depth, PRESERVE), "multisampled: through the sample planes");
        assert!(!snapshots(0, depth, DISCARD), "its depth is undefined at each frame's start");
        assert!(!snapshots(0, DepthFormat::None, PRESERVE), "no depth");
        assert!(!texture(8, 8, 1).desc().snapshots_single_sample_depth(), "not a target");
    }
}
