//! Flushes: recorded frame → plan → backend, one ordered step per device.
//!
//! A flush takes the frame out of the recorder, compiles it, waits for the submission the
//! frames-in-flight bound needs completed, submits, and commits the plan's tracked texture state.
//! Three rules shape it:
//!
//! - **Ordered.** Compiling advances each texture's tracked layouts, so plans must reach the
//!   backend in the order they were compiled. The `submission_order` lock is taken before the
//!   frame leaves the recorder and held until its submission is settled; a readback is recorded
//!   and flushed under the same lock, so no other thread's flush can carry it off.
//! - **Committed on success only.** The tracked state a plan leaves is written back only once
//!   the backend accepted the plan; a failed submission executed nothing, and the next frame's
//!   barriers start from the state the GPU really reached.
//! - **No lock across a GPU wait.** Waits go through the backend's
//!   [`xnagraph_graph::SubmissionWaiter`], holding neither the backend (resource creation on
//!   other threads proceeds) nor the recorder, and every wait is bounded: a timeout is
//!   `DeviceLost`. Events a failure raises are raised after every lock is released.
//!
//! Each flush is a `tracing` span `flush` (DEBUG) carrying the frame number (this device's
//! flush count), with `record` (taking the frame out of the recorder), `compile_frame` (the
//! compiler's stages nest in it), `submit` and the backend's lowering, queue submission and
//! retirement inside; `puffin` scopes of the same names sit at the same points.

use std::sync::atomic::Ordering;

use std::sync::Arc;
use xnagraph_graph::compile::compile_for_submission_with;

use xnagraph_graph::{BackendError, ReadbackId, Rect, Slices, SubmissionId, TextureState};

use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::shared::DeviceShared;

/// `XNAGRAPH_PRINT_PLAN=1` emits every compiled plan as a `tracing` INFO event of target
/// `xnagraph::plan` (read once).
fn print_plans() -> bool {
    static PRINT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PRINT.get_or_init(|| std::env::var_os("XNAGRAPH_PRINT_PLAN").is_some_and(|v| v != "0"))
}

/// One region of one subresource to read back (a box of a volume's level).
pub(crate) struct ReadRegion {
    pub texture: Arc<TextureState>,
    pub level: u32,
    pub layer: u32,
    pub rect: Rect,
    pub slices: Slices,
}

/// A flush's outcome before its failure is handled: `Err` only for a disposed device, the inner
/// result is the backend's.
type Unhandled<T> = Result<std::result::Result<T, BackendError>>;

impl DeviceShared {
    /// Compiles and submits everything recorded so far; `None` when nothing was recorded.
    pub fn flush(&self) -> Result<Option<SubmissionId>> {
        let outcome = {
            let _order = lock(&self.submission_order);
            self.flush_in_order()
        };
        outcome?.map_err(|e| self.backend_failed(e))
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
        self.read_back_region(ReadRegion { texture, level, layer, rect, slices: Slices::FLAT })
    }

    /// Records a readback of one region, flushes, waits for it and returns its bytes.
    pub fn read_back_region(&self, region: ReadRegion) -> Result<Vec<u8>> {
        let mut bytes = self.read_back_all(vec![region])?;
        Ok(bytes.swap_remove(0))
    }

    /// Records a readback of every region, flushes once, waits, and returns their bytes in
    /// order. The caller must hold no lock of this device.
    pub fn read_back_all(&self, regions: Vec<ReadRegion>) -> Result<Vec<Vec<u8>>> {
        let (ids, submitted) = {
            let _order = lock(&self.submission_order);
            let ids: Vec<ReadbackId> = {
                let mut rec = lock(&self.rec);
                regions
                    .into_iter()
                    .map(|r| {
                        rec.builder.readback_slices(r.texture, r.level, r.layer, r.rect, r.slices)
                    })
                    .collect()
            };
            (ids, self.flush_in_order())
        };
        let submission = submitted?
            .map_err(|e| self.backend_failed(e))?
            .ok_or_else(|| XnaError::invalid_operation("the readback was not submitted"))?;
        self.await_submission(submission)?;
        self.with_backend(|backend| {
            backend.wait(submission)?;
            Ok(ids.iter().map(|&id| backend.take_readback(id)).collect::<Option<Vec<_>>>())
        })?
        .ok_or_else(|| XnaError::invalid_operation("the backend returned no readback data"))
    }

    /// Waits for every submission made so far, then lets the backend free what they retire.
    pub fn wait_idle(&self) -> Result<()> {
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

    /// The flush proper; the caller holds `submission_order`.
    fn flush_in_order(&self) -> Unhandled<Option<SubmissionId>> {
        // The frame number: this device's flushes so far, plus this one. Stable here, since
        // every flush holds `submission_order`.
        let number = self.submissions.load(Ordering::Relaxed) + 1;
        let _flush = tracing::debug_span!("flush", frame = number).entered();
        puffin::profile_scope!("flush");
        let frame = {
            let _span = tracing::debug_span!("record", frame = number).entered();
            puffin::profile_scope!("record");
            lock(&self.rec).builder.take_frame()
        };
        if frame.is_empty() {
            return Ok(Ok(None));
        }
        let mut frame = frame;
        frame.present_target = match self.present_target()? {
            Ok(target) => target,
            Err(e) => return Ok(Err(e)),
        };
        let (mut plan, tracking) = {
            let _span = tracing::debug_span!("compile_frame", frame = number).entered();
            compile_for_submission_with(frame, self.compile_policy)
        };
        if print_plans() {
            tracing::info!(target: "xnagraph::plan", frame = number, "compiled plan\n{plan}");
        }
        *lock(&self.last_plan_cost) = Some(plan.cost);
        let submitted = self.submit_plan(&plan, number);
        if matches!(submitted, Ok(Ok(_))) {
            tracking.commit();
        } else {
            // Nothing of the plan executed: the textures keep the state the GPU really has.
            drop(tracking);
        }
        let sprites = std::mem::take(&mut plan.frame.sprites);
        drop(plan);
        lock(&self.rec).recycle_sprites(sprites);
        self.submissions.fetch_add(1, Ordering::Relaxed);
        if let Ok(Ok(id)) = submitted {
            self.last_submission.fetch_max(id.0, Ordering::AcqRel);
        }
        submitted.map(|r| r.map(Some))
    }

    /// Waits, without the backend lock, for the submission whose resources the next one
    /// reuses, then submits; `number` is the frame number the spans carry.
    fn submit_plan(
        &self,
        plan: &xnagraph_graph::FramePlan,
        number: u64,
    ) -> Unhandled<SubmissionId> {
        let _span = tracing::debug_span!("submit", frame = number).entered();
        puffin::profile_scope!("submit");
        let blocker = self.backend_call(|backend| Ok(backend.submit_blocker()))?;
        if let Ok(Some(blocker)) = blocker {
            if let Err(e) = self.waiter.wait_for(blocker) {
                return Ok(Err(e));
            }
        }
        self.backend_call(|backend| backend.submit(plan))
    }
}
