//! The capture's writer thread: encoding, compression and file writes off the game thread.
//!
//! In: each flushed frame (a clone of the `FrameCommands` leaving the recorder, which holds
//! every texture, buffer and effect it names alive until it is written) and each frame's end,
//! in the device's flush order, through a bounded channel. The clone is made where the frame
//! is rendered ([`CaptureTag::write`]: on the render thread when there is one), never on the
//! game thread's way through `flush`. Out: the file, written in that
//! order, and its sizes when the channel closes. A full channel makes the game wait rather than
//! queue frames without bound. A write failure is kept and reported at the end; later frames
//! are dropped unwritten.

use std::fs::File;
use std::io::BufWriter;
use std::sync::{Arc, Mutex, Weak};
use std::thread::JoinHandle;

use crossbeam_channel::Sender;
use xnagraph_graph::capture::writer::{CaptureStats, GeometryProgram, Sources};
use xnagraph_graph::capture::CaptureWriter;
use xnagraph_graph::{
    BufferId, BufferState, EffectKey, EffectState, FrameCommands, QueryState, TextureState,
};

use crate::event::lock;

/// Frames (flushes and ends) the game may run ahead of the writer.
const QUEUE: usize = 16;

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
    Flush { frame: u64, commands: FrameCommands },
    FrameEnd { frame: u64, record_ns: u64 },
    QueryResult { query: Arc<QueryState>, pixel_count: u64 },
}

/// A flushed frame's place in an active capture, decided when it left the recorder: the
/// frame travels with it to where it is rendered, which writes it.
pub(crate) struct CaptureTag {
    sender: Sender<Message>,
    frame: u64,
    /// The frame's recording time, when this flush ends it (holds its present).
    end_ns: Option<u64>,
}

impl CaptureTag {
    /// Queues a copy of the flushed `commands`, and the frame's end when it holds one.
    pub fn write(self, commands: &FrameCommands) {
        // A closed channel means the thread ended: its result says why.
        let _ = self.sender.send(Message::Flush { frame: self.frame, commands: commands.clone() });
        if let Some(record_ns) = self.end_ns {
            let _ = self.sender.send(Message::FrameEnd { frame: self.frame, record_ns });
        }
    }
}

/// A running writer thread (see the module doc).
pub(crate) struct WriterThread {
    sender: Sender<Message>,
    handle: JoinHandle<Result<CaptureStats, String>>,
}

impl WriterThread {
    /// Moves `writer` (its header and snapshot written) to a new thread.
    pub fn spawn(
        mut writer: CaptureWriter<BufWriter<File>>,
        known: Arc<Mutex<Known>>,
    ) -> std::io::Result<Self> {
        let (sender, receiver) = crossbeam_channel::bounded::<Message>(QUEUE);
        let handle =
            std::thread::Builder::new().name("xnagraph capture".into()).spawn(move || {
                let mut failed = None;
                for message in receiver {
                    if failed.is_some() {
                        continue;
                    }
                    let written = match message {
                        Message::Flush { frame, commands } => {
                            Known::with_sources(&known, |s| writer.flush(frame, &commands, s))
                        }
                        Message::FrameEnd { frame, record_ns } => {
                            writer.frame_end(frame, record_ns)
                        }
                        Message::QueryResult { query, pixel_count } => {
                            writer.query_result(&query, pixel_count)
                        }
                    };
                    failed = written.err();
                }
                match failed {
                    Some(e) => Err(format!("writing the capture failed: {e}")),
                    None => writer.finish().map(|(_, stats)| stats).map_err(|e| e.to_string()),
                }
            })?;
        Ok(WriterThread { sender, handle })
    }

    /// The tag of a flush of device frame `frame` (ending it after `end_ns` of recording).
    pub fn tag(&self, frame: u64, end_ns: Option<u64>) -> CaptureTag {
        CaptureTag { sender: self.sender.clone(), frame, end_ns }
    }

    /// Queues the count the game read of `query`'s last span (its flush is queued already:
    /// a count exists only once the span's frame was submitted).
    pub fn query_result(&self, query: Arc<QueryState>, pixel_count: u64) {
        let _ = self.sender.send(Message::QueryResult { query, pixel_count });
    }

    /// Closes the queue, waits for every tagged frame to be written (or dropped), and returns
    /// the sizes.
    pub fn finish(self) -> Result<CaptureStats, String> {
        drop(self.sender);
        self.handle.join().unwrap_or_else(|_| Err("the capture's writer thread panicked".into()))
    }
}
