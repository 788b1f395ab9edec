//! What a device shares with its resources: recording and binding state, the backend, the
//! registry and the device's events.
//!
//! Resources hold the [`DeviceShared`] weakly (the device-lifetime token) and reach the frame
//! being recorded through it. Recording goes through one [`FrameBuilder`]; this module keeps the
//! public binding state next to it; the two ways recorded work reaches the backend,
//! `flush` and `read_back`, are in [`crate::device::submit`].
//!
//! Locks: `order` keeps frames in the order they leave the recorder (see
//! [`crate::device::submit`]), `rec` guards recording and binding state, `backend` guards the
//! backend; they are taken in that order. `failure` and `render_thread` are taken alone. No lock is
//! held while events are raised or while the GPU is awaited; the render thread takes `rec` and
//! `backend`, never `order`, so a flush blocked on a full queue under `order` cannot stop it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crossbeam_channel::Sender;

use xnagraph_graph::compile::CompilePolicy;
use xnagraph_graph::null::NullProbe;
use xnagraph_graph::{
    Backend, BackendError, Capabilities, DepthFormat, Diagnostics, FormatSupport, FrameBuilder,
    LiveObjects, PlanCost, Rect, SpriteArena, SpriteMemorySource, SubmissionWaiter, SurfaceFormat,
    TextureDesc, TextureState, Viewport,
};

use crate::device::draw_state::{DrawStates, Versioned};
use crate::device::options::PresentationParameters;
use crate::device::profile::GraphicsProfile;
use crate::device::registry::{Registry, ResourceEventArgs, ResourceId, Tracked};
use crate::device::render_thread::{Job, RenderThread};
use crate::error::{Result, XnaError};
use crate::event::{lock, Event};

/// XNA's `GraphicsDevice` events, as fields a game subscribes to ([`Event::subscribe`] for
/// XNA's `+=`).
#[derive(Debug, Default)]
pub struct DeviceEvents {
    /// Raised when a graphics resource of this device is created (XNA's `ResourceCreated`).
    pub resource_created: Event<ResourceEventArgs>,
    /// Raised when a resource of this device is disposed or dropped (XNA's `ResourceDestroyed`).
    pub resource_destroyed: Event<ResourceEventArgs>,
    /// Raised once, first, by an explicit `dispose` (XNA's `GraphicsDevice.Disposing`); not by a
    /// drop.
    pub disposing: Event<()>,
    /// Raised by [`crate::GraphicsDevice::reset`] before the back buffer changes (XNA's
    /// `DeviceResetting`).
    pub device_resetting: Event<()>,
    /// Raised after a reported device reset, once every content-losing resource was told, and
    /// after [`crate::GraphicsDevice::reset`] has applied new presentation parameters (XNA's
    /// `DeviceReset`).
    pub device_reset: Event<()>,
}

/// One bound colour target as the device's public state names it.
#[derive(Clone, Debug)]
pub(crate) struct BoundTarget {
    pub resource: ResourceId,
    pub layer: u32,
    pub state: Arc<TextureState>,
}

/// Recording and public binding state.
pub(crate) struct Recording {
    /// The frame being recorded.
    pub builder: FrameBuilder,
    pub bindings: Vec<BoundTarget>,
    pub render_target_bound: bool,
    pub bound_target_destroyed: bool,
    pub params: PresentationParameters,
    /// Submitted frames' sprite arenas, emptied, for the next sprite batches to fill (at most
    /// [`SPARE_SPRITE_ARENAS`]).
    pub spare_sprites: Vec<SpriteArena>,
    /// Where arenas in memory the GPU reads directly come from (`None`: the backend has none;
    /// every arena is a vector).
    pub sprite_memory: Option<Arc<dyn SpriteMemorySource>>,
    /// About as many sprites as recent frames held: what a new mapped arena is made for.
    pub sprite_hint: usize,
    /// The states, buffers and applied effect geometry draws use, with the count of their
    /// changes.
    pub draw: Versioned<DrawStates>,
    /// The draw state's version and the frame's last draw (`FrameBuilder::last_draw_at`) when
    /// that draw was recorded whole from the bound buffers (one instance, any effect), or found
    /// a repeat of the one before: while both are the same, the state is the one that draw was
    /// recorded with, and a repeat of it need not compare it (`draw::repeat`).
    pub repeat_verified: Option<(u64, (u64, usize))>,
}

/// Sprite arenas kept for reuse. With the render thread, the frame being recorded, the frames
/// queued (up to the frames-in-flight bound) and the one being lowered each hold an arena: a
/// pool this deep lets every new frame start in an arena that already has its pages.
pub(crate) const SPARE_SPRITE_ARENAS: usize = 6;

/// The fewest sprites a frame draws for its batches to write memory the GPU reads in place:
/// below it, a vector in the cache costs less than mapped memory's bookkeeping.
pub(crate) const MAPPED_SPRITES_FROM: usize = 16 * 1024;

impl Recording {
    pub fn new(back_buffer: Arc<TextureState>, params: PresentationParameters) -> Self {
        let mut rec = Recording {
            builder: FrameBuilder::new(back_buffer),
            bindings: Vec::new(),
            render_target_bound: false,
            bound_target_destroyed: false,
            params,
            spare_sprites: Vec::new(),
            sprite_memory: None,
            sprite_hint: 0,
            draw: Versioned::new(DrawStates::default()),
            repeat_verified: None,
        };
        rec.reset_viewport_and_scissor();
        rec
    }

    /// The current primary attachment (first bound target or the back buffer).
    pub fn primary(&self) -> &Arc<TextureState> {
        self.builder.primary()
    }

    /// Viewport and scissor to the first target's size (the back buffer's when unbound).
    pub fn reset_viewport_and_scissor(&mut self) {
        let d = self.primary().desc();
        let (w, h) = (d.width as i32, d.height as i32);
        self.draw.viewport = Viewport::new(0, 0, w, h);
        self.draw.scissor = Rect::new(0, 0, w, h);
    }

    /// Gives a submitted frame's sprite arena back, emptied, to be filled again: a later frame
    /// writes into the same (already mapped) pages instead of growing a fresh vector and
    /// faulting its pages in. When the pool is full the smallest arena is dropped.
    pub fn recycle_sprites(&mut self, mut sprites: SpriteArena) {
        if sprites.capacity() == 0 {
            return;
        }
        sprites.clear();
        if self.spare_sprites.len() < SPARE_SPRITE_ARENAS {
            self.spare_sprites.push(sprites);
        } else if let Some(smallest) = self.spare_sprites.iter_mut().min_by_key(|a| a.capacity()) {
            if smallest.capacity() < sprites.capacity() {
                *smallest = sprites;
            }
        }
    }

    /// Counts a rendered frame of `sprites` sprites into [`Recording::sprite_hint`]: the
    /// largest recent frame's count, forgotten by an eighth a frame.
    pub fn note_frame_sprites(&mut self, sprites: usize) {
        self.sprite_hint = sprites.max(self.sprite_hint - self.sprite_hint / 8);
    }

    /// An arena for a sprite batch to fill. `mapped`: the batch will hand its arena to the
    /// frame as it is (Deferred mode, no capture), so it may be memory the GPU reads in place,
    /// which is slow to read back: once frames draw [`MAPPED_SPRITES_FROM`] sprites or more
    /// ([`Recording::sprite_hint`]), an idle mapped arena with room for them, else a new one
    /// (see [`take_arena`]). Otherwise (or when there is no such memory) the largest spare
    /// vector, or an empty one.
    pub fn take_sprite_arena(&mut self, mapped: bool) -> SpriteArena {
        let source = self.sprite_memory.as_deref().filter(|_| mapped);
        take_arena(&mut self.spare_sprites, source, self.sprite_hint)
    }

    pub fn is_bound(&self, id: ResourceId) -> bool {
        self.bindings.iter().any(|b| b.resource == id)
    }

    /// The destructor path of a bound target: drop every binding so nothing can see the dead
    /// target, return recording to the back buffer, and leave the device marked bound so that
    /// `present` refuses until the game binds again.
    pub fn detach_destroyed(&mut self, id: ResourceId) {
        if !self.is_bound(id) {
            return;
        }
        self.bindings.clear();
        self.bound_target_destroyed = true;
        self.builder.return_to_back_buffer();
        self.reset_viewport_and_scissor();
    }

    /// Refuses a data transfer or a sampling draw on a bound target: the one rule SpriteBatch's
    /// flush and every geometry draw (each texture its stock or custom effect samples) apply.
    /// Identity is the target's state, so a `Texture2D` copy or view of the target is refused
    /// like the target itself.
    pub fn refuse_bound(&self, state: &Arc<TextureState>) -> Result<()> {
        if self.bindings.iter().any(|b| Arc::ptr_eq(&b.state, state)) {
            return Err(XnaError::invalid_operation(
                "The render target must be resolved before its data can be transferred.",
            ));
        }
        Ok(())
    }
}

/// [`Recording::take_sprite_arena`] over the pool `spares`: with a `source` (the batch may
/// have mapped memory) and a `hint` of at least [`MAPPED_SPRITES_FROM`] sprites, an idle mapped
/// arena that holds a quarter more than the hint, else a new one made for twice the hint (a
/// frame that outgrows its mapped arena reads it back, which is slow, so arenas keep room for
/// growth); otherwise the largest spare vector, or an empty one. A mapped arena a submission
/// still reads is never handed out. Idle mapped arenas no frame of this size needs are dropped
/// on the way: too small for the hint, more than twice what one would be made for, or any once
/// frames are below the threshold.
fn take_arena(
    spares: &mut Vec<SpriteArena>,
    source: Option<&dyn SpriteMemorySource>,
    hint: usize,
) -> SpriteArena {
    let idle = |a: &SpriteArena| a.memory().is_some_and(|m| m.idle());
    let (wanted, made_for) = (hint + hint / 4, 2 * hint);
    let mapped_frames = hint >= MAPPED_SPRITES_FROM;
    spares.retain(|a| {
        let needless = !mapped_frames || a.capacity() < wanted || a.capacity() > 2 * made_for;
        !(idle(a) && needless)
    });
    if let Some(source) = source.filter(|_| mapped_frames) {
        if let Some(i) = spares.iter().position(|a| idle(a) && a.capacity() >= wanted) {
            return spares.swap_remove(i);
        }
        if let Some(memory) = source.allocate(made_for) {
            return SpriteArena::mapped(memory);
        }
    }
    let largest =
        (0..spares.len()).filter(|&i| !spares[i].is_mapped()).max_by_key(|&i| spares[i].capacity());
    largest.map_or_else(SpriteArena::default, |i| spares.swap_remove(i))
}

/// What resources share with their device; resources hold it weakly (the lifetime token).
pub(crate) struct DeviceShared {
    pub id: u64,
    pub profile: GraphicsProfile,
    pub disposed: AtomicBool,
    pub context_recovery: AtomicBool,
    pub events: DeviceEvents,
    pub registry: Registry,
    /// Held from taking a frame out of `rec` until it is queued (or, without a render thread,
    /// submitted); holds the render thread's queue (`None`: no render thread, or disposed).
    pub order: Mutex<Option<Sender<Job>>>,
    /// The render thread, joined at disposal.
    pub render_thread: Mutex<Option<JoinHandle<()>>>,
    /// A render-thread failure not yet reported (see [`crate::device::submit`]).
    pub failure: Mutex<Option<BackendError>>,
    pub rec: Mutex<Recording>,
    pub backend: Mutex<Option<Box<dyn Backend>>>,
    /// Waits for submissions without `backend`.
    pub waiter: Arc<dyn SubmissionWaiter>,
    pub null_probe: Option<NullProbe>,
    pub caps: Capabilities,
    pub format_support: Vec<(SurfaceFormat, FormatSupport)>,
    pub applied_depth: [DepthFormat; 4],
    pub adapter_name: String,
    /// The adapter the device runs on, as its backend reports it.
    pub adapter: crate::device::adapter::GraphicsAdapter,
    pub submissions: AtomicU64,
    /// The number of the latest frame (as `submissions` counts them) the backend accepted.
    pub frames_submitted: AtomicU64,
    /// The latest submission the backend accepted (0: none).
    pub last_submission: AtomicU64,
    /// The backend's validation messages and live native object count, per device.
    pub diagnostics: Diagnostics,
    /// The policy frames are compiled under (`DeviceOptions::compile_policy`).
    pub compile_policy: CompilePolicy,
    /// Whether frames merge runs of draws (`DeviceOptions::auto_instancing`).
    pub auto_instancing: bool,
    /// Whether frames let transient images share memory (`DeviceOptions::transient_aliasing`).
    pub transient_aliasing: bool,
    /// Whether every compiled plan is emitted as a `tracing` event
    /// (`DeviceOptions::print_plans`).
    pub print_plans: bool,
    /// The cost of the last plan handed to the backend.
    pub last_plan_cost: Mutex<Option<PlanCost>>,
    /// Submitted frames' lists, emptied on the submitting thread before they go back to the
    /// recorder (kept here so that the emptying allocates nothing either).
    pub returned_lists: Mutex<xnagraph_graph::SpareLists>,
    /// Frame capture (see [`crate::device::capture`]).
    pub capture: crate::device::capture::CaptureHook,
    /// Which frame each timed submission carried ([`crate::DeviceOptions::gpu_timing`]).
    pub gpu_timing: crate::device::gpu_timing::GpuTimingLog,
    /// The `OcclusionQuery` whose span is open (begun, not yet ended): another query's `Begin`
    /// is refused while it is (see [`crate::OcclusionQuery::begin`]).
    pub open_query_span: Mutex<Option<ResourceId>>,
}

impl DeviceShared {
    pub fn is_disposed(&self) -> bool {
        self.disposed.load(Ordering::Acquire)
    }

    /// A copy of `bytes` for an upload's data: made in a spare buffer of a submitted frame's
    /// uploads when one holds them ([`xnagraph_graph::FrameBuilder::upload_buffer`]), so
    /// streaming `SetData` writes memory it has written before; the copy itself is made
    /// outside the recorder's lock.
    pub fn upload_copy(&self, bytes: &[u8]) -> Vec<u8> {
        let mut data = lock(&self.rec).builder.upload_buffer(bytes.len());
        data.extend_from_slice(bytes);
        data
    }

    pub fn check_alive(&self) -> Result<()> {
        if self.is_disposed() {
            Err(XnaError::ObjectDisposed { object: "GraphicsDevice" })
        } else {
            Ok(())
        }
    }

    pub fn format_support(&self, format: SurfaceFormat) -> FormatSupport {
        self.format_support
            .iter()
            .find(|(f, _)| *f == format)
            .map_or(FormatSupport::default(), |(_, s)| *s)
    }

    pub fn applied_depth_format(&self, requested: DepthFormat) -> DepthFormat {
        self.applied_depth[requested as usize]
    }

    /// Registers a tracked resource and raises `ResourceCreated`.
    pub fn register(
        &self,
        id: ResourceId,
        resource: std::sync::Weak<dyn Tracked>,
        args: &ResourceEventArgs,
    ) {
        self.registry.register(id, resource);
        self.events.resource_created.raise(args);
    }

    pub fn unregister(&self, id: ResourceId) {
        self.registry.unregister(id);
    }

    /// Refuses a data transfer on a bound target, whatever alias reaches it (see
    /// [`Recording::refuse_bound`]).
    pub fn check_not_bound(&self, state: &Arc<TextureState>) -> Result<()> {
        lock(&self.rec).refuse_bound(state)
    }

    /// Runs `f` on the backend. The lock is released before a failure is handled, so the
    /// events a lost device raises may call back into the device.
    pub fn with_backend<R>(
        &self,
        f: impl FnOnce(&mut dyn Backend) -> std::result::Result<R, BackendError>,
    ) -> Result<R> {
        self.backend_call(f)?.map_err(|e| self.backend_failed(e))
    }

    /// Runs `f` on the backend and hands its failure back unhandled, for a caller that must
    /// release its own locks before [`DeviceShared::backend_failed`] raises events.
    pub fn backend_call<R>(
        &self,
        f: impl FnOnce(&mut dyn Backend) -> std::result::Result<R, BackendError>,
    ) -> Result<std::result::Result<R, BackendError>> {
        let mut backend = lock(&self.backend);
        let backend =
            backend.as_mut().ok_or(XnaError::ObjectDisposed { object: "GraphicsDevice" })?;
        Ok(f(backend.as_mut()))
    }

    /// Starts the render thread, with a queue as long as the frames-in-flight bound.
    pub fn start_render_thread(self: &Arc<Self>, frames_in_flight: u32) -> Result<()> {
        let thread = RenderThread::spawn(self, self.id, frames_in_flight as usize)?;
        let requests = thread.requests;
        lock(&self.rec).builder.set_pipeline_sink(Some(Box::new(move |request| {
            // The render thread is gone only at disposal, when nothing is drawn any more.
            let _ = requests.send(request);
        })));
        *lock(&self.order) = Some(thread.jobs);
        *lock(&self.render_thread) = Some(thread.handle);
        Ok(())
    }

    /// Closes the render thread's queue and joins it once it has submitted every queued
    /// frame; flushes afterwards render on the caller's thread. Failures of those frames are
    /// not reported: the device is going away.
    pub fn stop_render_thread(&self) {
        drop(lock(&self.order).take());
        let handle = lock(&self.render_thread).take();
        if let Some(handle) = handle {
            // A panic on the render thread has already been reported by the panic hook.
            let _ = handle.join();
        }
        lock(&self.failure).take();
    }

    /// Creates a native texture (eagerly) and its shared state. Reports a render-thread
    /// failure first.
    pub fn create_state(&self, desc: TextureDesc) -> Result<Arc<TextureState>> {
        self.check_failure()?;
        let state = self.with_backend(|backend| {
            let handle = backend.create_texture(&desc)?;
            Ok(TextureState::new(desc, handle, backend.retire_sink()))
        })?;
        self.capture.texture_created(&state);
        Ok(state)
    }

    /// Maps a backend failure onto its error; a lost device first raises the reset events.
    pub fn backend_failed(&self, e: BackendError) -> XnaError {
        if matches!(e, BackendError::DeviceLost(_)) {
            self.notify_device_reset();
        }
        e.into()
    }

    /// Tells every content-losing resource that its content is gone, then raises `DeviceReset`.
    /// Walks a snapshot, so a handler may dispose the resource it is told about.
    pub fn notify_device_reset(&self) {
        for resource in self.registry.snapshot().iter().filter_map(std::sync::Weak::upgrade) {
            resource.notify_content_lost();
        }
        self.events.device_reset.raise(&());
    }

    pub fn live_native_objects(&self) -> Option<LiveObjects> {
        lock(&self.backend).as_ref().map(|b| b.live_objects())
    }

    pub fn transient_memory(&self) -> Option<xnagraph_graph::TransientMemory> {
        lock(&self.backend).as_ref().map(|b| b.transient_memory())
    }

    pub fn pipeline_stats(&self) -> Option<xnagraph_graph::PipelineStats> {
        lock(&self.backend).as_ref().map(|b| b.pipeline_stats())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;

    use xnagraph_graph::{HostSpriteMemory, SpriteMemory};

    use super::*;

    /// Counts what it allocates; every allocation shares one idle flag.
    #[derive(Default)]
    struct Source {
        made: AtomicUsize,
        idle: Arc<AtomicBool>,
    }

    impl SpriteMemorySource for Source {
        fn allocate(&self, capacity: usize) -> Option<Box<dyn SpriteMemory>> {
            self.made.fetch_add(1, Ordering::Relaxed);
            Some(Box::new(HostSpriteMemory::new(capacity, self.idle.clone())))
        }
    }

    const HINT: usize = MAPPED_SPRITES_FROM;

    /// Below the threshold, or without a source, a batch gets the largest spare vector; from it
    /// on, a new mapped arena a quarter larger than the hint.
    #[test]
    fn mapped_arenas_only_from_the_threshold_and_with_a_source() {
        let source = Source::default();
        let mut spares = vec![SpriteArena::from(Vec::with_capacity(10))];
        spares.push(SpriteArena::from(Vec::with_capacity(30)));
        let small = take_arena(&mut spares, Some(&source), HINT - 1);
        assert!(!small.is_mapped() && small.capacity() == 30, "the largest vector");
        let none = take_arena(&mut spares, None, HINT);
        assert!(!none.is_mapped() && none.capacity() == 10);
        let mapped = take_arena(&mut spares, Some(&source), HINT);
        assert!(mapped.is_mapped());
        assert_eq!(mapped.capacity(), 2 * HINT);
        assert_eq!(source.made.load(Ordering::Relaxed), 1);
    }

    /// A mapped arena still read by a submission is never handed out: a new one is made; once
    /// idle, the pool's is taken again, and an idle one too small for the hint is dropped.
    #[test]
    fn busy_mapped_arenas_stay_in_the_pool() {
        let source = Source::default();
        let mut spares = vec![take_arena(&mut Vec::new(), Some(&source), HINT)];
        source.idle.store(false, Ordering::Relaxed);
        let fresh = take_arena(&mut spares, Some(&source), HINT);
        assert!(fresh.is_mapped());
        assert_eq!((source.made.load(Ordering::Relaxed), spares.len()), (2, 1), "busy: kept");
        source.idle.store(true, Ordering::Relaxed);
        let reused = take_arena(&mut spares, Some(&source), HINT);
        assert!(reused.is_mapped() && spares.is_empty());
        assert_eq!(source.made.load(Ordering::Relaxed), 2, "the pool's, not a new one");
        spares.push(reused);
        let bigger = take_arena(&mut spares, Some(&source), 2 * HINT);
        assert_eq!(bigger.capacity(), 4 * HINT);
        assert!(spares.is_empty(), "the idle arena too small for the hint is dropped");
    }

    /// Once frames are small, or much smaller than an idle arena was made for, the pool lets
    /// it go; a busy one stays until it is idle.
    #[test]
    fn idle_mapped_arenas_frames_no_longer_need_are_dropped() {
        let source = Source::default();
        source.idle.store(true, Ordering::Relaxed);
        let mut spares = vec![take_arena(&mut Vec::new(), Some(&source), 4 * HINT + 2)];
        let taken = take_arena(&mut spares, Some(&source), HINT);
        assert_eq!(taken.capacity(), 2 * HINT, "a new arena, made for the hint");
        assert!(spares.is_empty(), "more than twice what a frame of the hint needs: dropped");
        spares.push(take_arena(&mut Vec::new(), Some(&source), HINT));
        source.idle.store(false, Ordering::Relaxed);
        let small = take_arena(&mut spares, Some(&source), HINT - 1);
        assert!(!small.is_mapped());
        assert_eq!(spares.len(), 1, "busy: kept");
        source.idle.store(true, Ordering::Relaxed);
        let _ = take_arena(&mut spares, None, HINT - 1);
        assert!(spares.is_empty(), "idle, and frames are below the threshold");
    }

    /// A mapped arena is never the vector a sorting batch gets.
    #[test]
    fn a_batch_that_reads_its_arena_back_gets_a_vector() {
        let source = Source::default();
        let mut spares = vec![take_arena(&mut Vec::new(), Some(&source), HINT)];
        let vector = take_arena(&mut spares, None, HINT);
        assert!(!vector.is_mapped());
        assert_eq!(spares.len(), 1);
    }
}
