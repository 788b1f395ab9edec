//! The capture hook of a device built with the `capture` feature: what a snapshot needs
//! whatever is armed, and the capture armed or running (see the module doc of
//! [`super`]).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use xnagraph_graph::capture::writer::GeometryProgram;
use xnagraph_graph::{BufferState, EffectState, FrameCommands, Node, QueryState, TextureState};

use super::summary::CaptureSummary;
use super::thread::{self, CaptureTag, Known, WriterThread};
use crate::event::lock;

pub(super) struct Armed {
    pub(super) path: PathBuf,
    pub(super) first: u64,
    pub(super) last: u64,
}

pub(super) struct Active {
    pub(super) writer: WriterThread,
    pub(super) path: PathBuf,
    pub(super) last: u64,
}

#[derive(Default)]
pub(super) struct HookState {
    pub(super) known: Arc<Mutex<Known>>,
    /// A capture whose last frame was queued, while its writer finishes the file.
    pub(super) finishing: Option<(PathBuf, WriterThread)>,
    /// Presents recorded so far: the number of the frame being recorded.
    pub(super) presents: u64,
    pub(super) frame_began: Option<Instant>,
    pub(super) armed: Option<Armed>,
    pub(super) active: Option<Active>,
    pub(super) result: Option<std::result::Result<CaptureSummary, String>>,
}

/// One device's capture state (see the module doc).
#[derive(Default)]
pub(crate) struct CaptureHook(pub(super) Mutex<HookState>);

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
    pub(super) fn finish(&mut self) {
        if let Some(active) = self.active.take() {
            self.finishing = Some((active.path, active.writer));
        }
    }

    /// Waits for a finishing writer and keeps its outcome.
    pub(super) fn wait_for_writer(&mut self) {
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
