//! Frame capture from a running game: `GraphicsDevice::capture_frames` and
//! `XNAGRAPH_CAPTURE=path:N-M`.
//!
//! The device's frames are numbered by presents: frame k is everything flushed after the k-th
//! present (from 0) up to and including the next one. A capture of frames N to M is armed by the
//! call (or by the environment variable at the creation of a device that opted in to the
//! environment); when frame N begins, the content of every texture alive (and, where the backend
//! reads depth back, the depth/stencil of every single-sample PreserveContents target; where it
//! reads samples back, every colour, depth and stencil sample of every multisampled
//! PreserveContents target) is read back once and written as the snapshot, and from then on each
//! flushed `FrameCommands` is written as it leaves the recorder (under the device's flush order, so
//! the file's order is the compiler's), with a marker at each present, until the present that ends
//! frame M closes the file. See `xnagraph_graph::capture` for the format and why capture sits at
//! the flush.
//!
//! The game thread only tags each flushed `FrameCommands`; where it is rendered, once its plan
//! is submitted, the frame moves (uncopied) into a bounded queue, and encoding, hashing,
//! deduplication, compression and the file writes happen on a writer thread ([`thread`]), in
//! flush order. The snapshot is read back and written when the capture starts, on the calling
//! thread (a one-off). `capture_result` waits for the writer to finish the file; the device's
//! `wait_idle` waits for it to have written every frame queued so far (a queued frame holds what
//! it names alive, and `wait_idle` promises the device holds nothing the game dropped).
//!
//! The hook also keeps what a snapshot needs whatever is armed: weak lists of the device's
//! texture and buffer states (with each buffer's `BufferUsage`), the SPIR-V of its effects and
//! the programs of its custom geometry effects' passes (a frame may draw with an effect created
//! long before it).

#[cfg(feature = "capture")]
mod hook;
#[cfg(not(feature = "capture"))]
mod off;
#[cfg(feature = "capture")]
mod start;
mod summary;
#[cfg(feature = "capture")]
mod thread;

use std::ops::RangeInclusive;
use std::path::PathBuf;

#[cfg(feature = "capture")]
pub(crate) use hook::CaptureHook;
#[cfg(not(feature = "capture"))]
pub(crate) use off::{CaptureHook, CaptureTag};
pub use summary::CaptureSummary;
#[cfg(feature = "capture")]
pub(crate) use thread::CaptureTag;

use crate::error::{Result, XnaError};

/// The environment variable that captures frames of an unmodified game: `path:N-M` (frames
/// N to M, counted by presents from 0) or `path:N` (one frame). Read only by a device whose
/// options opted in to the environment ([`crate::DeviceOptions::with_env`]).
pub const CAPTURE_VARIABLE: &str = "XNAGRAPH_CAPTURE";

/// Parses `path:N-M` or `path:N`.
pub(crate) fn parse_spec(spec: &str) -> Result<(PathBuf, RangeInclusive<u64>)> {
    let bad = || {
        XnaError::argument(
            "XNAGRAPH_CAPTURE",
            format!("`{spec}` is not PATH:FIRST-LAST or PATH:FRAME"),
        )
    };
    let (path, frames) = spec.rsplit_once(':').ok_or_else(bad)?;
    let (first, last) = frames.split_once('-').unwrap_or((frames, frames));
    let first = first.trim().parse::<u64>().map_err(|_| bad())?;
    let last = last.trim().parse::<u64>().map_err(|_| bad())?;
    if path.is_empty() || first > last {
        return Err(bad());
    }
    Ok((PathBuf::from(path), first..=last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_capture_variable_names_a_path_and_a_frame_range() {
        assert_eq!(parse_spec("out.xgc:100-110").unwrap(), (PathBuf::from("out.xgc"), 100..=110));
        assert_eq!(parse_spec("a:b.xgc:7").unwrap(), (PathBuf::from("a:b.xgc"), 7..=7));
        for bad in ["out.xgc", "out.xgc:5-2", ":1-2", "out.xgc:x-2"] {
            let e = parse_spec(bad).unwrap_err();
            assert_eq!(e.param(), Some("XNAGRAPH_CAPTURE"), "{bad}");
        }
    }
}
