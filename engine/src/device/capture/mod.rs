//! Frame capture from a running game: `GraphicsDevice::capture_frames` and
//! `XNAGRAPH_CAPTURE=path:N-M`.
//!
//! The device's frames are numbered by presents: frame k is everything flushed after the k-th
//! present (from 0) up to and including the next one. A capture of frames N to M is armed by
//! the call (or by the environment variable at the creation of a device that opted in to the
//! environment); when frame N begins, the
//! content of every texture alive (and, where the backend reads depth back, the depth/stencil
//! of every single-sample PreserveContents target; where it reads samples back, every colour,
//! depth and stencil sample of every multisampled PreserveContents target) is read back once and written as the snapshot,
//! and from then
//! on each flushed `FrameCommands` is written as it leaves the recorder (under the device's
//! flush order, so the file's order is the compiler's), with a marker at each present, until
//! the present that ends frame M closes the file. See `xnagraph_graph::capture` for the format
//! and why capture sits at the flush.
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

mod start;
mod thread;

use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

pub(crate) use thread::CaptureTag;
use thread::{Known, WriterThread};
use xnagraph_graph::capture::writer::GeometryProgram;
use xnagraph_graph::{BufferState, EffectState, FrameCommands, Node, QueryState, TextureState};

use crate::error::{Result, XnaError};
use crate::event::lock;

/// The environment variable that captures frames of an unmodified game: `path:N-M` (frames
/// N to M, counted by presents from 0) or `path:N` (one frame). Read only by a device whose
/// options opted in to the environment ([`crate::DeviceOptions::with_env`]).
pub const CAPTURE_VARIABLE: &str = "XNAGRAPH_CAPTURE";

/// What a finished capture wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureSummary {
    /// The file.
    pub path: PathBuf,
    /// Frames written.
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

struct Armed {
    path: PathBuf,
    first: u64,
    last: u64,
}

struct Active {
    writer: WriterThread,
    path: PathBuf,
    last: u64,
}

#[derive(Default)]
struct HookState {
    known: Arc<Mutex<Known>>,
    /// A capture whose last frame was queued, while its writer finishes the file.
    finishing: Option<(PathBuf, WriterThread)>,
    /// Presents recorded so far: the number of the frame being recorded.
    presents: u64,
    frame_began: Option<Instant>,
    armed: Option<Armed>,
    active: Option<Active>,
    result: Option<std::result::Result<CaptureSummary, String>>,
}

/// One device's capture state (see the module doc).
#[derive(Default)]
pub(crate) struct CaptureHook(Mutex<HookState>);

impl CaptureHook {
    /// Remembers a texture state the device created, for a later snapshot.
    pub fn texture_created(&self, texture: &Arc<TextureState>) {
        let known = lock(&self.0).known.clone();
        let mut known = lock(&known);
        if known.textures.len() >= 64 && known.textures.len().is_power_of_two() {
            known.textures.retain(|t| t.strong_count() > 0);
        }
        known.textures.push(Arc::downgrade(texture));
    }

    /// Remembers a buffer state the device created, for a later snapshot.
    pub fn buffer_created(&self, buffer: &Arc<BufferState>, write_only: bool) {
        let known = lock(&self.0).known.clone();
        let mut known = lock(&known);
        if known.buffers.len() >= 64 && known.buffers.len().is_power_of_two() {
            known.buffers.retain(|(b, _)| b.strong_count() > 0);
        }
        known.buffers.push((Arc::downgrade(buffer), write_only));
    }

    /// Remembers an effect's fragment stage, for captures of draws that use it.
    pub fn effect_created(&self, effect: &Arc<EffectState>, spirv: &[u32]) {
        let known = lock(&self.0).known.clone();
        let mut known = lock(&known);
        known.effects.retain(|(e, _)| e.strong_count() > 0);
        known.effects.push((Arc::downgrade(effect), spirv.into()));
    }

    /// Remembers a custom geometry effect pass's program, for captures of draws that use it.
    pub fn geometry_effect_created(&self, effect: &Arc<EffectState>, program: GeometryProgram) {
        let known = lock(&self.0).known.clone();
        let mut known = lock(&known);
        known.geometry_effects.retain(|(e, _)| e.strong_count() > 0);
        known.geometry_effects.push((Arc::downgrade(effect), Arc::new(program)));
    }

    /// The game read the count of `query`'s last span: an active capture records it.
    pub fn query_result(&self, query: &Arc<QueryState>, pixel_count: u64) {
        if let Some(active) = lock(&self.0).active.as_ref() {
            active.writer.query_result(query.clone(), pixel_count);
        }
    }

    /// Waits until the capture's writer holds no frame handed to it so far: the active
    /// capture's writer has handled every frame queued, and a finishing one has completed its
    /// file (its outcome kept for `capture_result`). The device's `wait_idle` calls it after
    /// the last frame was rendered, so that no frame the writer has not encoded yet keeps a
    /// resource the game dropped alive past `wait_idle`.
    pub fn settle(&self) {
        let mut state = lock(&self.0);
        state.wait_for_writer();
        if let Some(active) = &state.active {
            active.writer.settle();
        }
    }

    /// The outcome of the last capture once its last frame was presented (waiting for the
    /// writer to finish the file).
    pub fn take_result(&self) -> Option<std::result::Result<CaptureSummary, String>> {
        let mut state = lock(&self.0);
        state.wait_for_writer();
        state.result.take()
    }

    /// Whether the frame being recorded is written to a capture: its sprite batches then write
    /// vectors, not mapped memory, which the capture's writer could only read back slowly
    /// (uncached).
    pub fn capturing(&self) -> bool {
        lock(&self.0).active.is_some()
    }

    /// A flushed frame leaves the recorder (called under the device's flush order): when a
    /// capture is active, the tag under which it is written where it is rendered; a present in
    /// it ends the frame.
    pub fn flushed(&self, commands: &FrameCommands) -> Option<CaptureTag> {
        let mut guard = lock(&self.0);
        let state = &mut *guard;
        let presented = commands.nodes.iter().any(|n| matches!(n, Node::Present(_)));
        let frame = state.presents;
        let mut tag = None;
        if let Some(active) = state.active.as_ref() {
            let end_ns =
                presented.then(|| state.frame_began.map_or(0, |t| t.elapsed().as_nanos() as u64));
            tag = Some(active.writer.tag(frame, end_ns));
            if presented && frame == active.last {
                state.finish();
            }
        }
        if presented {
            state.presents += 1;
            state.frame_began = Some(Instant::now());
        }
        tag
    }
}

impl HookState {
    /// Closes the active capture's queue: its writer finishes the file.
    fn finish(&mut self) {
        if let Some(active) = self.active.take() {
            self.finishing = Some((active.path, active.writer));
        }
    }

    /// Waits for a finishing writer and keeps its outcome.
    fn wait_for_writer(&mut self) {
        let Some((path, writer)) = self.finishing.take() else { return };
        self.result = Some(match writer.finish() {
            Ok(thread::Finished { stats, queue_full_waits }) => Ok(CaptureSummary {
                path,
                queue_full_waits,
                frames: stats.frames,
                file_bytes: stats.file_bytes,
                raw_upload_bytes: stats.raw_upload_bytes,
                raw_sprite_bytes: stats.raw_sprite_bytes,
                raw_geometry_bytes: stats.raw_geometry_bytes,
            }),
            Err(e) => Err(format!("{}: {e}", path.display())),
        });
    }
}

impl Drop for CaptureHook {
    /// A device disposed mid-capture still leaves a readable file (without its end record).
    fn drop(&mut self) {
        let mut state = lock(&self.0);
        state.finish();
        state.wait_for_writer();
    }
}

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
