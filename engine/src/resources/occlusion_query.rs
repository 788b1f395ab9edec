//! XNA's `OcclusionQuery`: counts the samples of the draws between `Begin` and `End` that pass
//! the depth and stencil tests.
//!
//! `Begin` remembers where in the current pass the span starts; `End` records the span there (a
//! pair of query ops in the pass segment), so the compiler knows the query's pass and keeps it. A
//! span cannot leave its pass: when the pass open at `Begin` ends before `End` (the render target
//! changes, a `SetData` or `GetData` splits it, the device flushes), `End` is `InvalidOperation`
//! and records nothing. One span is open at a time on a device: `Begin` while another query's span
//! is open is `InvalidOperation` (Vulkan nests no occlusion queries; see
//! [`OcclusionQuery::begin`]). A `Begin` while no pass is open (right after a bind or a flush,
//! before any clear or draw) starts the span in the next pass that opens. The count is never waited
//! for: `IsComplete` is false until the frame with the span has been submitted and the GPU has
//! finished it, and a game polls it through later frames; `PixelCount` before that is
//! `InvalidOperation`. On a multisampled target the count is of samples, as on Direct3D.
//!
//! A backend without occlusion queries (SDL_gpu) refuses the constructor with XNA's
//! `NotSupportedException`.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use xnagraph_graph::{BackendError, QueryState};

use crate::device::registry::{ResourceId, Tracked};
use crate::device::shared::DeviceShared;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::resources::resource::ResourceCore;

/// XNA's message when the profile or renderer has no occlusion queries.
pub const OCCLUSION_QUERY_NOT_SUPPORTED: &str =
    "OcclusionQuery is not supported by the active graphics profile and renderer.";

#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    /// Never begun.
    Idle,
    /// Begun at this (segment serial, op index).
    Begun { segment: u64, index: usize },
    /// Ended in the frame of this number (as the device counts flushes); the count is not known
    /// yet.
    Ended { frame: u64 },
    /// The GPU counted this many samples.
    Complete(u64),
}

struct QueryCore {
    res: ResourceCore,
    device: std::sync::Weak<DeviceShared>,
    /// `None` once disposed.
    state: Mutex<Option<Arc<QueryState>>>,
    phase: Mutex<Phase>,
}

impl QueryCore {
    fn dispose(&self, explicit: bool) {
        if !self.res.begin_dispose(explicit) {
            return;
        }
        lock(&self.state).take();
        // A disposed query's open span can never end: it no longer keeps others from beginning.
        if let Some(device) = self.device.upgrade() {
            close_span(&device, self.res.id);
        }
        self.res.end_dispose();
    }
}

impl Tracked for QueryCore {
    fn dispose_by_device(&self) {
        self.dispose(true);
    }
}

/// XNA's `OcclusionQuery` (see the module documentation).
pub struct OcclusionQuery {
    core: Arc<QueryCore>,
}

impl std::fmt::Debug for OcclusionQuery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OcclusionQuery")
            .field("resource", &self.core.res.id)
            .field("phase", &*lock(&self.core.phase))
            .finish()
    }
}

/// Forgets `id`'s open span, if it is the one open.
fn close_span(device: &DeviceShared, id: ResourceId) {
    let mut open = lock(&device.open_query_span);
    if *open == Some(id) {
        *open = None;
    }
}

/// The number the frame being recorded will have when it is flushed.
fn recording_frame(device: &DeviceShared) -> u64 {
    device.submissions.load(Ordering::Acquire) + 1
}

impl OcclusionQuery {
    /// XNA's `new OcclusionQuery(graphicsDevice)`: creates the native query at once, under
    /// either profile (xnagraph does not check the profile). A renderer without
    /// occlusion queries (SDL_gpu, or a Vulkan adapter without precise occlusion queries) is
    /// `NotSupported` with XNA's message; a disposed device is `ObjectDisposed`.
    pub fn new(device: &GraphicsDevice) -> Result<OcclusionQuery> {
        let shared = &device.shared;
        shared.check_alive()?;
        shared.check_failure()?;
        let made = shared.backend_call(|backend| {
            let native = backend.create_query()?;
            Ok(QueryState::new(native, backend.retire_sink()))
        })?;
        let state = match made {
            Ok(state) => state,
            Err(BackendError::NotSupported(_)) => {
                return Err(XnaError::not_supported(OCCLUSION_QUERY_NOT_SUPPORTED))
            }
            Err(e) => return Err(shared.backend_failed(e)),
        };
        let core = Arc::new(QueryCore {
            res: ResourceCore::new("OcclusionQuery", Arc::downgrade(shared)),
            device: Arc::downgrade(shared),
            state: Mutex::new(Some(state)),
            phase: Mutex::new(Phase::Idle),
        });
        let weak: std::sync::Weak<dyn Tracked> =
            Arc::downgrade(&(core.clone() as Arc<dyn Tracked>));
        shared.register(core.res.id, weak, &core.res.args());
        Ok(OcclusionQuery { core })
    }

    fn device(&self) -> Result<Arc<DeviceShared>> {
        self.core.res.check_alive()?;
        let device = self
            .core
            .device
            .upgrade()
            .ok_or(XnaError::ObjectDisposed { object: "GraphicsDevice" })?;
        device.check_alive()?;
        Ok(device)
    }

    /// XNA's `OcclusionQuery.Begin()`: the draws from here to `End` are counted. `Begin` twice
    /// without `End` is `InvalidOperation`. A query whose previous span is still in the frame being
    /// recorded flushes that frame first (one native query counts one span per submission).
    ///
    /// Differs from XNA: a `Begin` while another query's span is open (begun and neither
    /// ended nor disposed) is `InvalidOperation`, with nothing recorded. XNA on Direct3D 9
    /// accepts overlapping spans of different queries and counts each; Vulkan allows only one
    /// active occlusion query in a command buffer (as OpenGL allows one per target), so
    /// xnagraph refuses the second span rather than nest two native queries. A game ends one
    /// span before it begins the next.
    pub fn begin(&self) -> Result<()> {
        let device = self.device()?;
        let mut phase = lock(&self.core.phase);
        if let Phase::Begun { .. } = *phase {
            return Err(XnaError::invalid_operation(
                "OcclusionQuery.Begin cannot be called again before End.",
            ));
        }
        if lock(&device.open_query_span).is_some_and(|id| id != self.core.res.id) {
            return Err(XnaError::invalid_operation(
                "OcclusionQuery.Begin cannot be called while another OcclusionQuery is begun: \
                 call End on that query first (xnagraph counts one span at a time).",
            ));
        }
        let pending = matches!(*phase, Phase::Ended { frame } if frame == recording_frame(&device));
        if pending {
            device.flush()?;
        }
        *lock(&device.open_query_span) = Some(self.core.res.id);
        let (segment, index) = lock(&device.rec).builder.next_op_position();
        *phase = Phase::Begun { segment, index };
        Ok(())
    }

    /// XNA's `OcclusionQuery.End()`: records the span from `Begin`. `End` without `Begin` is
    /// `InvalidOperation`, and so is an `End` in another pass than its `Begin` (see the module
    /// documentation); the query is then idle again and nothing is recorded.
    pub fn end(&self) -> Result<()> {
        let device = self.device()?;
        let mut phase = lock(&self.core.phase);
        let Phase::Begun { segment, index } = *phase else {
            return Err(XnaError::invalid_operation(
                "OcclusionQuery.End cannot be called before Begin.",
            ));
        };
        // Whichever way this End goes, the span is no longer open.
        close_span(&device, self.core.res.id);
        let state = lock(&self.core.state)
            .clone()
            .ok_or(XnaError::ObjectDisposed { object: "OcclusionQuery" })?;
        let mut rec = lock(&device.rec);
        if rec.builder.next_op_position().0 != segment {
            *phase = Phase::Idle;
            return Err(XnaError::invalid_operation(
                "OcclusionQuery.End must be called in the pass of its Begin: the render target \
                 changed, or data was set or read, or the device flushed, since Begin.",
            ));
        }
        rec.builder.query_span(state, index);
        *phase = Phase::Ended { frame: recording_frame(&device) };
        Ok(())
    }

    /// XNA's `OcclusionQuery.IsComplete`: whether the GPU has counted the last span. False while
    /// the frame with the span is still being recorded or running; never waits. False too before
    /// the query was ever begun and between `Begin` and `End` (not an error, as in XNA and
    /// MonoGame: a game may poll a query it has not used yet). A disposed query is
    /// `ObjectDisposed`.
    pub fn is_complete(&self) -> Result<bool> {
        let device = self.device()?;
        let mut phase = lock(&self.core.phase);
        match *phase {
            Phase::Complete(_) => Ok(true),
            Phase::Idle | Phase::Begun { .. } => Ok(false),
            Phase::Ended { frame } => {
                if device.frames_submitted.load(Ordering::Acquire) < frame {
                    return Ok(false);
                }
                let state = lock(&self.core.state)
                    .clone()
                    .ok_or(XnaError::ObjectDisposed { object: "OcclusionQuery" })?;
                match device.with_backend(|b| b.query_result(state.native()))? {
                    Some(count) => {
                        *phase = Phase::Complete(count);
                        // A capture keeps the count, for its replay to compare.
                        device.capture.query_result(&state, count);
                        Ok(true)
                    }
                    None => Ok(false),
                }
            }
        }
    }

    /// XNA's `OcclusionQuery.PixelCount`: the samples the last span counted, saturated at
    /// `i32::MAX`. Before `IsComplete` is true it is `InvalidOperation` (the count is never
    /// waited for); a disposed query is `ObjectDisposed`.
    pub fn pixel_count(&self) -> Result<i32> {
        match self.is_complete()? {
            true => match *lock(&self.core.phase) {
                Phase::Complete(n) => Ok(n.min(i32::MAX as u64) as i32),
                _ => unreachable!("complete"),
            },
            false => Err(XnaError::invalid_operation(
                "OcclusionQuery.PixelCount is not available until IsComplete is true.",
            )),
        }
    }

    /// XNA's `GraphicsResource.Dispose()`: raises `Disposing`, then `ResourceDestroyed`; later
    /// calls are `ObjectDisposed`. A span already recorded keeps the native query until the GPU has
    /// run it.
    pub fn dispose(&self) {
        self.core.dispose(true);
    }

    /// XNA's `GraphicsResource.IsDisposed`: whether `dispose` was called (or the device
    /// disposed it).
    pub fn is_disposed(&self) -> bool {
        self.core.res.is_disposed()
    }

    /// The identity `ResourceCreated` and `ResourceDestroyed` name this query by.
    pub fn resource_id(&self) -> ResourceId {
        self.core.res.id
    }
}

impl Drop for OcclusionQuery {
    /// Dropping is an implicit dispose (no `Disposing`).
    fn drop(&mut self) {
        self.core.dispose(false);
    }
}
