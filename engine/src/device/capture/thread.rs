//! The capture's writer thread: encoding, compression and file writes off the game thread.
//!
//! In: each flushed frame (the `FrameCommands` that was compiled and submitted, moved here once
//! its plan was submitted: it holds every texture, buffer and effect it names alive until it is
//! written) and each frame's end, in the device's flush order, through a bounded channel. The
//! hand-over happens where the frame is rendered ([`CaptureTag::write`]: on the render thread
//! when there is one), never on the game thread's way through `flush`, and copies nothing:
//! encoding, hashing, deduplication and compression all happen here. The writer sends each
//! frame's sprite arena back, emptied, and the renderer gives it to the recorder, so a capture
//! does not cost the recorder a fresh arena per frame. Out: the file, written in that order,
//! and its sizes when the channel closes. A full channel makes the renderer (and through the
//! frames-in-flight bound, the game) wait rather than queue frames without bound; each such
//! wait is counted and reported with the capture's result. A write failure is kept and
//! reported at the end; later frames are dropped unwritten. [`WriterThread::settle`] waits until
//! the writer has handled everything queued before it: what the device's `wait_idle` needs, so
//! that no frame waiting here still holds a texture (or buffer, effect or query) the game
//! dropped.

use std::fs::File;
use std::io::BufWriter;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, TrySendError};
use xnagraph_graph::capture::writer::{CaptureStats, GeometryProgram, Sources};
use xnagraph_graph::capture::CaptureWriter;
use xnagraph_graph::{
    BufferId, BufferState, EffectKey, EffectState, FrameCommands, QueryState, SpriteArena,
    TextureState,
};

use crate::event::lock;

/// Frames (flushes and ends) the game may run ahead of the writer.
const QUEUE: usize = 16;
/// Emptied sprite arenas the writer may hold for the renderer to take back.
const SPARE_ARENAS: usize = 4;

/// What the device created that a capture may need: its texture and buffer states (each buffer
/// with whether it is `BufferUsage.WriteOnly`), its effects' SPIR-V and its custom geometry
/// effect passes' programs.
#[derive(Default)]
pub(crate) struct Known {
    pub textures: Vec<Weak<TextureState>>,
    pub buffers: Vec<(Weak<BufferState>, bool)>,
    pub effects: Vec<(Weak<EffectState>, Arc<[u32]>)>,
    pub geometry_effects: Vec<(Weak<EffectState>, Arc<GeometryProgram>)>,
}

impl Known {
    /// The SPIR-V of a live effect.
    pub fn effect(&self, key: EffectKey) -> Option<Arc<[u32]>> {
        self.effects
            .iter()
            .find_map(|(e, words)| e.upgrade().filter(|e| e.key() == key).map(|_| words.clone()))
    }

    /// The program of a live custom geometry effect pass.
    pub fn geometry_effect(&self, key: EffectKey) -> Option<Arc<GeometryProgram>> {
        self.geometry_effects
            .iter()
            .find_map(|(e, p)| e.upgrade().filter(|e| e.key() == key).map(|_| p.clone()))
    }

    /// Whether the live buffer `id` was created `BufferUsage.WriteOnly`.
    pub fn write_only(&self, id: BufferId) -> bool {
        self.buffers.iter().any(|(b, w)| *w && b.upgrade().is_some_and(|b| b.id() == id))
    }

    /// Runs `f` with sources that look up in `known`.
    pub fn with_sources<R>(known: &Mutex<Known>, f: impl FnOnce(Sources) -> R) -> R {
        let effect = |key: EffectKey| lock(known).effect(key);
        let geometry_effect = |key: EffectKey| lock(known).geometry_effect(key);
        let write_only = |id: BufferId| lock(known).write_only(id);
        f(Sources { effect: &effect, geometry_effect: &geometry_effect, write_only: &write_only })
    }
}

enum Message {
    Flush {
        frame: u64,
        commands: FrameCommands,
    },
    FrameEnd {
        frame: u64,
        record_ns: u64,
    },
    QueryResult {
        query: Arc<QueryState>,
        pixel_count: u64,
    },
    /// Answered once every message queued before it has been handled (and dropped).
    Settle(Sender<()>),
}

/// A flushed frame's place in an active capture, decided when it left the recorder: the
/// frame travels with it to where it is rendered, which writes it.
pub(crate) struct CaptureTag {
    sender: Sender<Message>,
    spares: Receiver<SpriteArena>,
    waits: Arc<AtomicU64>,
    frame: u64,
    /// The frame's recording time, when this flush ends it (holds its present).
    end_ns: Option<u64>,
}

impl CaptureTag {
    /// Hands the flushed `commands` (moved, not copied) to the writer, and the frame's end when
    /// it holds one; returns a sprite arena the writer has emptied, when one is back, for the
    /// recorder to fill again.
    pub fn write(self, commands: FrameCommands) -> Option<SpriteArena> {
        self.send(Message::Flush { frame: self.frame, commands });
        if let Some(record_ns) = self.end_ns {
            self.send(Message::FrameEnd { frame: self.frame, record_ns });
        }
        self.spares.try_recv().ok()
    }

    /// Queues `message`, counting a wait when the queue is full. A closed channel means the
    /// thread ended: its result says why.
    fn send(&self, message: Message) {
        if let Err(TrySendError::Full(message)) = self.sender.try_send(message) {
            self.waits.fetch_add(1, Ordering::Relaxed);
            let _ = self.sender.send(message);
        }
    }
}

/// What a writer thread reports when its queue closes.
pub(crate) struct Finished {
    /// The file's sizes.
    pub stats: CaptureStats,
    /// Hand-overs that found the queue full and waited for the writer.
    pub queue_full_waits: u64,
}

/// A running writer thread (see the module doc).
pub(crate) struct WriterThread {
    sender: Sender<Message>,
    spares: Receiver<SpriteArena>,
    waits: Arc<AtomicU64>,
    handle: JoinHandle<Result<CaptureStats, String>>,
}

impl WriterThread {
    /// Moves `writer` (its header and snapshot written) to a new thread.
    pub fn spawn(
        mut writer: CaptureWriter<BufWriter<File>>,
        known: Arc<Mutex<Known>>,
    ) -> std::io::Result<Self> {
        let (sender, receiver) = crossbeam_channel::bounded::<Message>(QUEUE);
        let (give_back, spares) = crossbeam_channel::bounded(SPARE_ARENAS);
        let handle =
            std::thread::Builder::new().name("xnagraph capture".into()).spawn(move || {
                let mut failed = None;
                for message in receiver {
                    if let Message::Settle(done) = &message {
                        let _ = done.send(());
                        continue;
                    }
                    if failed.is_some() {
                        continue;
                    }
                    let written = match message {
                        Message::Flush { frame, commands } => {
                            Known::with_sources(&known, |s| writer.flush_owned(frame, commands, s))
                                .map(|arena| {
                                    // A full return queue: the renderer has arenas enough.
                                    if arena.capacity() > 0 {
                                        let _ = give_back.try_send(arena);
                                    }
                                })
                        }
                        Message::FrameEnd { frame, record_ns } => {
                            writer.frame_end(frame, record_ns)
                        }
                        Message::QueryResult { query, pixel_count } => {
                            writer.query_result(&query, pixel_count)
                        }
                        Message::Settle(_) => Ok(()),
                    };
                    failed = written.err();
                }
                match failed {
                    Some(e) => Err(format!("writing the capture failed: {e}")),
                    None => writer.finish().map(|(_, stats)| stats).map_err(|e| e.to_string()),
                }
            })?;
        Ok(WriterThread { sender, spares, waits: Arc::default(), handle })
    }

    /// The tag of a flush of device frame `frame` (ending it after `end_ns` of recording).
    pub fn tag(&self, frame: u64, end_ns: Option<u64>) -> CaptureTag {
        CaptureTag {
            sender: self.sender.clone(),
            spares: self.spares.clone(),
            waits: self.waits.clone(),
            frame,
            end_ns,
        }
    }

    /// Queues the count the game read of `query`'s last span (its flush is queued already:
    /// a count exists only once the span's frame was submitted).
    pub fn query_result(&self, query: Arc<QueryState>, pixel_count: u64) {
        let _ = self.sender.send(Message::QueryResult { query, pixel_count });
    }

    /// Waits until the writer has handled every frame queued so far, so that nothing those
    /// frames named is held here any more (their commands are dropped as they are written, or
    /// unwritten after a failure). Returns at once if the thread has ended.
    pub fn settle(&self) {
        let (done, settled) = crossbeam_channel::bounded(1);
        if self.sender.send(Message::Settle(done)).is_ok() {
            // A thread that ends first drops the sender of `done`: no answer, no wait.
            let _ = settled.recv();
        }
    }

    /// Closes the queue, waits for every tagged frame to be written (or dropped), and returns
    /// the sizes and the waits for a full queue.
    pub fn finish(self) -> Result<Finished, String> {
        drop(self.sender);
        let stats = self
            .handle
            .join()
            .unwrap_or_else(|_| Err("the capture's writer thread panicked".into()))?;
        Ok(Finished { stats, queue_full_waits: self.waits.load(Ordering::Relaxed) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-over that finds the queue full waits for the writer and is counted; one that
    /// finds room is not.
    #[test]
    fn a_hand_over_to_a_full_queue_waits_and_is_counted() {
        let (sender, receiver) = crossbeam_channel::bounded(1);
        let (give_back, spares) = crossbeam_channel::bounded(1);
        let waits = Arc::new(AtomicU64::new(0));
        let tag = |frame| CaptureTag {
            sender: sender.clone(),
            spares: spares.clone(),
            waits: waits.clone(),
            frame,
            end_ns: None,
        };
        give_back.send(SpriteArena::from(Vec::with_capacity(8))).unwrap();
        let arena = tag(0).write(FrameCommands::default());
        assert_eq!(waits.load(Ordering::Relaxed), 0, "the queue had room");
        assert_eq!(arena.map(|a| a.capacity()), Some(8), "the writer's arena comes back");
        let writer = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            receiver.iter().take(2).count()
        });
        assert!(tag(1).write(FrameCommands::default()).is_none());
        assert_eq!(waits.load(Ordering::Relaxed), 1, "the queue held frame 0");
        drop(sender);
        assert_eq!(writer.join().unwrap(), 2);
    }
}
