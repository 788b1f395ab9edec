//! Frame capture: recorded frames written to a file independent of any backend, read back,
//! replayed and trimmed.
//!
//! [`limits`] holds the bounds the writer and the reader share.
//!
//! [`container`] is the file's framing (magic, version, typed length-prefixed zstd chunks),
//! [`record`] the payloads (serde, postcard), [`writer`] turns a device's textures and flushed
//! [`crate::FrameCommands`] into chunks, [`reader`] checks a file into a [`Capture`],
//! [`replay`] runs a capture on a backend, and [`trim`] cuts a frame range out of one.
//!
//! Capture happens on the flushed `FrameCommands`, not call by call in the public API: a flush
//! holds exactly what the compiler gets (every bind, clear, draw, upload, readback and present,
//! the sprite arena, the open cycle), so a replay feeds the compiler the same input, and new
//! node kinds reach the file where they reach the compiler, without a second recording path.

mod checks;
pub mod container;
pub mod limits;
pub mod reader;
pub mod rebuild;
pub mod record;
pub mod replay;
pub mod trim;
pub mod unsnapshotted;
pub mod writer;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod writer_tests;

pub use container::CaptureError;
pub use reader::{Capture, CapturedFrame, QueryResult};
pub use rebuild::{FlushQueries, Rebuilder, RebuiltFrame};
pub use replay::{FrameTimes, QueryCheck, Replayer};
pub use writer::{CaptureStats, CaptureWriter};
