//! Flushes: recorded frame → plan → backend, in the order frames leave the recorder.
//!
//! A flush takes the frame out of the recorder on the caller's thread and hands it over: to the
//! device's render thread ([`crate::device::render_thread`], the default), or, with
//! `DeviceOptions::render_thread` off, to [`DeviceShared::render_frame`] on the caller's thread.
//! Rendering a frame is graph's one flush ([`xnagraph_graph::flush`], the path a capture's replay
//! takes too): it compiles the frame, waits for the submission the frames-in-flight bound needs
//! completed, submits, and commits the plan's tracked texture state. Four rules shape it:
//!
//! - **Ordered.** Compiling advances each texture's tracked layouts, so plans must reach the
//!   backend in the order their frames were recorded. The `order` lock is held from taking the
//!   frame out of the recorder until it is queued (or, without a render thread, submitted); the
//!   render thread handles its queue in order. A readback is recorded under the same lock, so no
//!   other thread's flush carries it off.
//! - **Committed on success only.** The tracked state a plan leaves is written back only once the
//!   backend accepted the plan (the flush decides it); a failed submission executed nothing, and
//!   the next frame's barriers start from the state the GPU really reached.
//! - **No lock across a GPU wait.** Waits go through the backend's
//!   [`xnagraph_graph::SubmissionWaiter`], holding neither the backend (resource creation on other
//!   threads proceeds) nor the recorder, and every wait is bounded: a timeout is `DeviceLost`.
//!   Events a failure raises are raised after every lock is released, on the thread of the call
//!   that reports the failure, never on the render thread.
//! - **Failures reach the next call.** A frame that fails on the render thread leaves its error in
//!   [`DeviceShared::failure`]. The calls that check it are `present`, `flush`, every readback
//!   (`GetData`, `GetBackBufferData`), `wait_idle` and resource creation: each checks first and,
//!   finding a failure, returns it as the `XnaError` the synchronous path gives (a lost device
//!   first raises the reset events) and does nothing else. `flush`, a readback and `wait_idle` wait
//!   for the render thread to reach their frame, then check again, so they report the failure of
//!   their own frame and of every frame sent before it.
//!
//! `present` returns once its frame is queued; `flush` returns once the render thread has submitted
//! its frame (not once the GPU ran it); a readback waits for its own frame's submission and
//! completion only, not for frames queued after it.
//!
//! Each flush is a `tracing` span `flush` (DEBUG) carrying the frame number (this device's flush
//! count) with `record` (taking the frame out of the recorder) inside, on the caller's thread.
//! Rendering the frame is a span `render_frame` with the same number, on the render thread
//! (following from the `flush` span) or nested in `flush` without one; `compile_frame` (the
//! compiler's stages nest in it), `submit` and the backend's lowering, queue submission and
//! retirement are inside it. `puffin` scopes of the same names sit at the same points.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use crossbeam_channel::Receiver;
use xnagraph_graph::flush::{flush, FlushBackend};
use xnagraph_graph::{
    BackendError, FrameCommands, FramePlan, PresentTarget, ReadbackId, Rect, Slices, SubmissionId,
    TextureState,
};

use crate::device::render_thread::{stopped, Frame, FrameSink, Job};
use crate::device::shared::{DeviceShared, Recording};
use crate::error::{Result, XnaError};
use crate::event::lock;

/// One region of one subresource to read back (a box of a volume's level).
pub(crate) struct ReadRegion {
    pub texture: Arc<TextureState>,
    pub level: u32,
    pub layer: u32,
    pub rect: Rect,
    pub slices: Slices,
    /// The image read (`Color`, a single-sample target's whole `DepthStencil` image, or the
    /// sample planes of one layer of a multisampled target's `Samples` image).
    pub image: xnagraph_graph::Image,
}

/// A frame's outcome before its failure is handled: `Err` only for a disposed device, the inner
/// result is the backend's.
type Unhandled<T> = Result<std::result::Result<T, BackendError>>;

/// Where a handed-over frame went.
enum Handed {
    /// To the render thread; the receiver (when asked for) says when it was handled.
    Queued(Option<Receiver<Option<SubmissionId>>>),
    /// Rendered on the caller's thread (no render thread).
    Rendered(Unhandled<Option<SubmissionId>>),
}

impl DeviceShared {
    /// Reports a failure the render thread left, as the synchronous path would have reported
    /// it (a lost device raises the reset events first, on this thread, holding no lock).
    pub fn check_failure(&self) -> Result<()> {
        let failure = lock(&self.failure).take();
        match failure {
            Some(e) => Err(self.backend_failed(e)),
            None => Ok(()),
        }
    }

    /// Keeps a render-thread failure for the next call that checks. The first failure is kept,
    /// unless a later one is a lost device (which must raise the reset events).
    pub fn keep_failure(&self, e: BackendError) {
        let mut kept = lock(&self.failure);
        let lost = |e: &BackendError| matches!(e, BackendError::DeviceLost(_));
        let replace = match kept.as_ref() {
            None => true,
            Some(k) => lost(&e) && !lost(k),
        };
        if replace {
            *kept = Some(e);
        }
    }

    /// Ends the frame at `present`: checks for an earlier failure, records the present through
    /// `record`, and hands the frame over without waiting for the render thread.
    pub fn present(&self, record: impl FnOnce(&mut Recording) -> Result<()>) -> Result<()> {
        self.check_failure()?;
        match self.hand_over(record, false)?.1 {
            Handed::Queued(_) => {}
            Handed::Rendered(outcome) => {
                outcome?.map_err(|e| self.backend_failed(e))?;
            }
        }
        self.capture.presented(self)
    }

    /// Compiles and submits everything recorded so far and returns once it is submitted;
    /// `None` when nothing was recorded.
    pub fn flush(&self) -> Result<Option<SubmissionId>> {
        self.check_failure()?;
        let handed = self.hand_over(|_| Ok(()), true)?.1;
        self.settle(handed)
    }

    /// Waits for a handed-over frame to be handled and reports its failure and every earlier
    /// one.
    fn settle(&self, handed: Handed) -> Result<Option<SubmissionId>> {
        match handed {
            Handed::Queued(done) => {
                let submitted = match done {
                    Some(done) => done.recv().map_err(|_| stopped())?,
                    None => None,
                };
                self.check_failure()?;
                Ok(submitted)
            }
            Handed::Rendered(outcome) => outcome?.map_err(|e| self.backend_failed(e)),
        }
    }

    /// Waits until the render thread has handled every frame sent so far, reporting nothing.
    pub fn drain(&self) {
        if let Ok(Handed::Queued(Some(done))) = self.hand_over_nothing() {
            let _ = done.recv();
        }
    }

    /// Sends an empty job (to learn when the queue has been worked through).
    fn hand_over_nothing(&self) -> Result<Handed> {
        let order = lock(&self.order);
        let Some(jobs) = order.as_ref() else {
            return Ok(Handed::Rendered(Ok(Ok(None))));
        };
        let (done, handled) = crossbeam_channel::bounded(1);
        jobs.send(Job { frame: None, done: Some(done) }).map_err(|_| stopped())?;
        Ok(Handed::Queued(Some(handled)))
    }

    /// Records a readback of one region of one subresource, flushes, waits for it and returns
    /// its bytes.
    pub fn read_back(
        &self,
        texture: Arc<TextureState>,
        level: u32,
        layer: u32,
        rect: Rect,
    ) -> Result<Vec<u8>> {
        self.read_back_region(ReadRegion {
            texture,
            level,
            layer,
            rect,
            slices: Slices::FLAT,
            image: xnagraph_graph::Image::Color,
        })
    }

    /// Records a readback of one region, flushes, waits for it and returns its bytes.
    pub fn read_back_region(&self, region: ReadRegion) -> Result<Vec<u8>> {
        let mut bytes = self.read_back_all(vec![region])?;
        Ok(bytes.swap_remove(0))
    }

    /// Records a readback of `len` bytes of a buffer from `offset`, flushes, waits for that frame
    /// and returns the bytes. The caller must hold no lock of this device.
    pub fn read_back_buffer(
        &self,
        buffer: Arc<xnagraph_graph::BufferState>,
        offset: u64,
        len: u64,
    ) -> Result<Vec<u8>> {
        self.check_failure()?;
        let (id, handed) =
            self.hand_over(|rec| Ok(rec.builder.buffer_readback(buffer, offset, len)), true)?;
        let submission = self
            .settle(handed)?
            .ok_or_else(|| XnaError::invalid_operation("the readback was not submitted"))?;
        self.await_submission(submission)?;
        self.with_backend(|backend| {
            backend.wait(submission)?;
            Ok(backend.take_readback(id))
        })?
        .ok_or_else(|| XnaError::invalid_operation("the backend returned no readback data"))
    }

    /// Records a readback of every region, flushes once, waits for that frame alone, and returns
    /// their bytes in order. The caller must hold no lock of this device.
    pub fn read_back_all(&self, regions: Vec<ReadRegion>) -> Result<Vec<Vec<u8>>> {
        self.read_back_with_buffers(regions, Vec::new())
    }

    /// Records a readback of every region, then of the whole content of every buffer, flushes
    /// once, waits for that frame alone, and returns their bytes in that order. The caller must
    /// hold no lock of this device.
    pub fn read_back_with_buffers(
        &self,
        regions: Vec<ReadRegion>,
        buffers: Vec<Arc<xnagraph_graph::BufferState>>,
    ) -> Result<Vec<Vec<u8>>> {
        self.check_failure()?;
        let (ids, handed) = self.hand_over(
            |rec| {
                let mut ids = regions
                    .into_iter()
                    .map(|r| {
                        rec.builder
                            .readback_image(r.texture, r.image, r.level, r.layer, r.rect, r.slices)
                    })
                    .collect::<Vec<ReadbackId>>();
                for b in buffers {
                    let size = b.desc().size;
                    ids.push(rec.builder.buffer_readback(b, 0, size));
                }
                Ok(ids)
            },
            true,
        )?;
        let submission = self
            .settle(handed)?
            .ok_or_else(|| XnaError::invalid_operation("the readback was not submitted"))?;
        self.await_submission(submission)?;
        self.with_backend(|backend| {
            backend.wait(submission)?;
            Ok(ids.iter().map(|&id| backend.take_readback(id)).collect::<Option<Vec<_>>>())
        })?
        .ok_or_else(|| XnaError::invalid_operation("the backend returned no readback data"))
    }

    /// Waits for every frame handed over so far to be submitted and for every submission to
    /// complete, then lets the backend free what they retire.
    pub fn wait_idle(&self) -> Result<()> {
        self.check_failure()?;
        let handed = self.hand_over_nothing()?;
        self.settle(handed)?;
        // Frames the capture's writer has not encoded yet hold what they name: let it finish
        // them, so that what the game dropped reaches the retire sink before the backend frees.
        self.capture.settle();
        let last = SubmissionId(self.last_submission.load(Ordering::Acquire));
        if last.0 > 0 {
            self.await_submission(last)?;
        }
        self.with_backend(|backend| backend.wait_idle())
    }

    /// Blocks until `submission` has completed, holding no lock of this device.
    pub fn await_submission(&self, submission: SubmissionId) -> Result<()> {
        self.waiter.wait_for(submission).map_err(|e| self.backend_failed(e))
    }

    /// Under the `order` lock: lets `record` add to the frame, takes the frame out of the
    /// recorder and hands it over, to the render thread (with a receiver for its completion
    /// when `wait`) or, without one, to [`DeviceShared::render_frame`] here.
    fn hand_over<R>(
        &self,
        record: impl FnOnce(&mut Recording) -> Result<R>,
        wait: bool,
    ) -> Result<(R, Handed)> {
        let order = lock(&self.order);
        // The frame number: this device's flushes so far, plus this one. Stable here, since
        // every flush holds `order`.
        let number = self.submissions.load(Ordering::Relaxed) + 1;
        let flush = tracing::debug_span!("flush", frame = number);
        let _flush = flush.enter();
        xnagraph_graph::profile_scope!("flush");
        let (recorded, commands) = {
            let _span = tracing::debug_span!("record", frame = number).entered();
            xnagraph_graph::profile_scope!("record");
            let mut rec = lock(&self.rec);
            let recorded = record(&mut rec)?;
            (recorded, rec.builder.take_frame())
        };
        let frame = (!commands.is_empty()).then(|| {
            let capture = self.capture.flushed(&commands);
            self.submissions.store(number, Ordering::Relaxed);
            Frame { number, commands, cause: flush.id(), capture }
        });
        let Some(jobs) = order.as_ref() else {
            let outcome = match frame {
                Some(frame) => self.render_frame(frame).map(|r| r.map(Some)),
                None => Ok(Ok(None)),
            };
            return Ok((recorded, Handed::Rendered(outcome)));
        };
        if frame.is_none() && !wait {
            return Ok((recorded, Handed::Queued(None)));
        }
        let (done, handled) = if wait {
            let (done, handled) = crossbeam_channel::bounded(1);
            (Some(done), Some(handled))
        } else {
            (None, None)
        };
        // Blocks while the queue is full: the game runs at most the frames-in-flight bound
        // ahead of the render thread.
        jobs.send(Job { frame, done }).map_err(|_| stopped())?;
        Ok((recorded, Handed::Queued(handled)))
    }

    /// Renders one frame: compiles it, submits the plan, commits the tracked state on success,
    /// and gives the sprite arena and the frame's emptied lists back to the recorder (or the
    /// frame to its capture, whose writer gives an arena back). Called in the order frames left the
    /// recorder: on the render thread, or under `order` without one.
    pub(crate) fn render_frame(&self, frame: Frame) -> Unhandled<SubmissionId> {
        let number = frame.number;
        let span = tracing::debug_span!("render_frame", frame = number);
        span.follows_from(frame.cause);
        let _span = span.entered();
        xnagraph_graph::profile_scope!("render_frame");
        let mut path = EngineFlush { shared: self, number };
        let mut commands = frame.commands;
        commands.merge_instances = self.auto_instancing;
        commands.alias_transients = self.transient_aliasing;
        let flushed = flush(&mut path, commands, self.compile_policy, number);
        let submitted = match flushed.submitted {
            Ok(id) => Ok(Ok(id)),
            Err(Failure::Backend(e)) => Ok(Err(e)),
            // A device disposed before the frame compiled leaves the frame to be dropped.
            Err(Failure::Disposed(e)) if !flushed.compiled => return Err(e),
            Err(Failure::Disposed(e)) => Err(e),
        };
        // The flush gives the recorded frame back as it was: a capture takes it as it is, once
        // the submission no longer reads it (the frame is recorded, even when not rendered).
        let mut commands = flushed.frame;
        if !flushed.compiled && frame.capture.is_none() {
            return submitted;
        }
        match frame.capture {
            Some(capture) => self.recycle_captured(capture, commands),
            None => {
                // Emptied here, without the recorder's lock: dropping the textures they hold
                // may retire them.
                let mut lists = lock(&self.returned_lists);
                lists.take_from(&mut commands);
                {
                    let mut rec = lock(&self.rec);
                    rec.note_frame_sprites(commands.sprites.len());
                    rec.recycle_sprites(std::mem::take(&mut commands.sprites));
                    rec.builder.recycle(&mut lists);
                }
                drop(lists);
            }
        }
        if let Ok(Ok(id)) = submitted {
            self.last_submission.fetch_max(id.0, Ordering::AcqRel);
            self.frames_submitted.fetch_max(number, Ordering::AcqRel);
        }
        submitted
    }

    /// Hands a rendered frame to its capture and gives the recorder the sprite arena the
    /// capture's writer gave back, if any.
    fn recycle_captured(
        &self,
        capture: crate::device::capture::CaptureTag,
        mut commands: FrameCommands,
    ) {
        // A frame that never reached the compiler still holds its merged runs' values.
        commands.derive_repeats();
        let sprites = commands.sprites.len();
        let arena = capture.write(commands);
        let mut rec = lock(&self.rec);
        rec.note_frame_sprites(sprites);
        if let Some(arena) = arena {
            rec.recycle_sprites(arena);
        }
    }

    /// Builds the pipelines `requests` name (see [`crate::device::render_thread`]).
    pub(crate) fn prepare_pipelines(
        &self,
        requests: &[xnagraph_graph::PipelineRequest],
    ) -> Unhandled<()> {
        let _span = tracing::debug_span!("prepare_pipelines", count = requests.len()).entered();
        self.backend_call(|backend| backend.prepare_pipelines(requests))
    }
}

impl FrameSink for DeviceShared {
    fn prepare(&self, requests: &[xnagraph_graph::PipelineRequest]) {
        if let Ok(Err(e)) = self.prepare_pipelines(requests) {
            tracing::debug!("a requested pipeline was not built: {e}");
        }
    }

    fn render(&self, frame: Frame) -> Option<SubmissionId> {
        match self.render_frame(frame) {
            Ok(Ok(id)) => Some(id),
            Ok(Err(e)) => {
                self.keep_failure(e);
                None
            }
            // The device was disposed under the frame: nothing to submit it to.
            Err(_) => None,
        }
    }
}

/// Why a frame's flush stopped: the device was disposed, or the backend failed.
enum Failure {
    Disposed(XnaError),
    Backend(BackendError),
}

/// How the engine's flush reaches its backend: each call under the backend lock, the wait for
/// the frames-in-flight blocker through the waiter without it (resource creation on other
/// threads proceeds meanwhile).
struct EngineFlush<'a> {
    shared: &'a DeviceShared,
    /// The frame number the spans carry.
    number: u64,
}

/// A frame's outcome with its two kinds of failure told apart.
fn failure<T>(outcome: Unhandled<T>) -> std::result::Result<T, Failure> {
    match outcome {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(e)) => Err(Failure::Backend(e)),
        Err(e) => Err(Failure::Disposed(e)),
    }
}

impl FlushBackend for EngineFlush<'_> {
    type Error = Failure;

    fn present_target(&mut self) -> std::result::Result<PresentTarget, Failure> {
        failure(self.shared.present_target())
    }

    fn compiled(&mut self, plan: &FramePlan) -> std::result::Result<(), Failure> {
        if self.shared.print_plans {
            tracing::info!(target: "xnagraph::plan", frame = self.number, "compiled plan\n{plan}");
        }
        *lock(&self.shared.last_plan_cost) = Some(plan.cost);
        Ok(())
    }

    fn submit_blocker(&mut self) -> std::result::Result<Option<SubmissionId>, Failure> {
        failure(self.shared.backend_call(|backend| Ok(backend.submit_blocker())))
    }

    fn wait_for(&mut self, submission: SubmissionId) -> std::result::Result<(), Failure> {
        self.shared.waiter.wait_for(submission).map_err(Failure::Backend)
    }

    fn submit(&mut self, plan: &FramePlan) -> std::result::Result<SubmissionId, Failure> {
        let (timing, number) = (&self.shared.gpu_timing, self.number);
        // Noted under the backend lock, before anyone can drain the submission's timing.
        let submit = |backend: &mut dyn xnagraph_graph::Backend| {
            backend.submit(plan).inspect(|&id| timing.submitted(id, number))
        };
        failure(self.shared.backend_call(submit))
    }
}
