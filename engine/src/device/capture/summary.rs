//! What a finished capture reports to the game ([`crate::GraphicsDevice::capture_result`]).

use std::path::PathBuf;

/// What a finished capture wrote (not XNA: frame capture is xnagraph's debugging aid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureSummary {
    /// The capture file, as given to `capture_frames` or `XNAGRAPH_CAPTURE`.
    pub path: PathBuf,
    /// Frames written (presents captured).
    pub frames: u64,
    /// Size of the file, in bytes.
    pub file_bytes: u64,
    /// Bytes of texel and buffer data the frames uploaded plus the snapshot's, before
    /// deduplication and compression.
    pub raw_upload_bytes: u64,
    /// Bytes of sprite instances the frames drew, before deduplication and compression.
    pub raw_sprite_bytes: u64,
    /// Bytes of user vertices and indices the frames drew, before deduplication and
    /// compression.
    pub raw_geometry_bytes: u64,
    /// Hand-overs of a frame to the writer thread that found its queue full and waited: each is
    /// a time the capture held up rendering (and, past the frames-in-flight bound, the game).
    pub queue_full_waits: u64,
}
