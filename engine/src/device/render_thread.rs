//! The render thread: compile, lowering, submission and retirement of the frames a device's
//! callers hand over, one device, one thread.
//!
//! Recording stays on the game's threads. A flush ([`crate::device::submit`]) takes the frame out
//! of the recorder and sends it here over a bounded channel whose bound is the device's
//! frames-in-flight limit: `present` returns once its frame is queued and blocks only while the
//! channel is full. Frames are compiled and submitted in the order they were sent, which is the
//! order they left the recorder, so each plan's barriers start where the previous plan left its
//! textures.
//!
//! Pipelines are created when a combination is first recorded: the recording side's builder
//! hands each new combination's [`PipelineRequest`] to a second, unbounded channel. The thread
//! builds requests as they arrive while it has no frame to render, and drains every pending one
//! before it renders a frame, so every combination a frame draws was requested before the frame
//! was sent and is built before the frame is lowered. A request that fails to build is dropped:
//! the draw that named it reports the failure when its frame is lowered.
//!
//! The thread calls no game code and raises no event. A frame's failure is kept in the device's
//! shared state and reported by the next call that checks it (see [`crate::device::submit`]),
//! which raises the device-reset events on its own thread, holding no lock. The thread knows
//! its device only as a [`FrameSink`] (what the thread asks of it: build pipelines, render a
//! frame), held weakly; the device's disposal closes the channel and joins it, after every
//! queued frame was submitted.

use std::sync::{Arc, Weak};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender};
use xnagraph_graph::{FrameCommands, PipelineRequest, SubmissionId};

use crate::error::{Result, XnaError};

/// One recorded frame on its way to the backend.
pub(crate) struct Frame {
    /// This device's flush count when the frame was taken (from 1): the `frame` field of every
    /// span the frame opens, on either thread.
    pub number: u64,
    pub commands: FrameCommands,
    /// The caller's `flush` span, which the render thread's `render_frame` span follows from.
    pub cause: Option<tracing::Id>,
    /// Where the frame is written when a capture holds it (by `render_frame`, before the
    /// compile consumes it).
    pub capture: Option<crate::device::capture::CaptureTag>,
}

/// What the render thread is sent: a frame, or nothing (a flush with nothing recorded), with
/// where to say that it is done.
pub(crate) struct Job {
    pub frame: Option<Frame>,
    /// Receives the frame's submission (`None`: nothing submitted, or the frame failed) once
    /// every job sent before, and this one, has been handled.
    pub done: Option<Sender<Option<SubmissionId>>>,
}

/// A device's render thread: the sending side of its queue and its handle.
pub(crate) struct RenderThread {
    pub jobs: Sender<Job>,
    /// Where the recording side requests new pipeline combinations.
    pub requests: Sender<PipelineRequest>,
    pub handle: JoinHandle<()>,
}

/// What the render thread asks of its device, and all it knows of it.
pub(crate) trait FrameSink: Send + Sync {
    /// Builds the pipelines `requests` name; a failure is left to the draw's own lowering.
    fn prepare(&self, requests: &[PipelineRequest]);
    /// Lowers and submits `frame`: its submission, or `None` when the frame failed (the
    /// failure kept for the next call that checks) or the device was disposed under it.
    fn render(&self, frame: Frame) -> Option<SubmissionId>;
}

impl RenderThread {
    /// Starts the render thread of device `id`, with a queue of `bound` frames. It reports its
    /// spans to the `tracing` dispatcher current on the creating thread.
    pub fn spawn<D: FrameSink + 'static>(
        device: &Arc<D>,
        id: u64,
        bound: usize,
    ) -> Result<RenderThread> {
        let (jobs, queue) = crossbeam_channel::bounded(bound.max(1));
        let (requests, pending) = crossbeam_channel::unbounded();
        let weak: Weak<dyn FrameSink> = Arc::downgrade(device) as Weak<dyn FrameSink>;
        let dispatch = tracing::dispatcher::get_default(|d| d.clone());
        let handle = std::thread::Builder::new()
            .name(format!("xnagraph-render-{id}"))
            .spawn(move || {
                tracing::dispatcher::with_default(&dispatch, || run(&weak, &queue, pending))
            })
            .map_err(|e| {
                XnaError::invalid_operation(format!("The render thread did not start: {e}"))
            })?;
        Ok(RenderThread { jobs, requests, handle })
    }
}

/// Builds the pipelines `requests` name, while the device lives.
fn prepare(device: &Weak<dyn FrameSink>, requests: &[PipelineRequest]) {
    if requests.is_empty() {
        return;
    }
    if let Some(device) = device.upgrade() {
        device.prepare(requests);
    }
}

/// Handles pipeline requests and jobs until every job sender is gone.
fn run(
    device: &Weak<dyn FrameSink>,
    queue: &Receiver<Job>,
    mut pending: Receiver<PipelineRequest>,
) {
    let mut batch = Vec::new();
    loop {
        let job = crossbeam_channel::select! {
            recv(queue) -> job => match job {
                Ok(job) => job,
                Err(_) => return,
            },
            recv(pending) -> request => {
                match request {
                    Ok(request) => prepare(device, &[request]),
                    // The recording side is gone: only frames are left to come.
                    Err(_) => pending = crossbeam_channel::never(),
                }
                continue;
            }
        };
        // Every combination the frame draws was requested before it was sent.
        batch.extend(pending.try_iter());
        prepare(device, &batch);
        batch.clear();
        let submitted = match (job.frame, device.upgrade()) {
            (Some(frame), Some(device)) => device.render(frame),
            _ => None,
        };
        if let Some(done) = job.done {
            // The caller may have stopped waiting (its thread unwound): nothing to tell.
            let _ = done.send(submitted);
        }
    }
}

/// The error a caller sees when the render thread is gone (it panicked).
pub(crate) fn stopped() -> XnaError {
    XnaError::invalid_operation("The device's render thread has stopped.")
}
