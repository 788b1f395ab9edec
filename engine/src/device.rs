//! `GraphicsDevice`: creation, public state, recording, flushes and disposal.
//!
//! Every public call validates, updates public state and appends to the frame's
//! [`FrameCommands`]; only a flush (`present`, a `get_data`, [`GraphicsDevice::flush`]) compiles
//! the frame and hands the plan to the backend. Resource creation is the one eager exception.
//!
//! Locks: `rec` guards recording and binding state, `backend` guards the backend. A flush takes
//! the frame out of `rec` before locking `backend`, and no lock is held while events are raised.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use xnagraph_graph::compile::compile;
use xnagraph_graph::{
    Backend, Capabilities, Clear, ColorBinding, DepthFormat, Diagnostics, FormatSupport,
    FrameCommands, Node, PassOp, PassSegment, Readback, ReadbackId, Rect, RenderTargetDesc,
    RenderTargetUsage, SegmentStart, SubmissionId, SurfaceFormat, TextureDesc, TextureState,
    Viewport,
};
use xnagraph_vulkan::{VulkanBackend, VulkanConfig};

use crate::error::{Result, XnaError};
use crate::math::Color;
use crate::profile::GraphicsProfile;
use crate::resource::{lock, Event, ResourceEventArgs, ResourceId, Tracked};

/// XNA's `PresentationParameters` (the headless subset: no window handle).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PresentationParameters {
    pub back_buffer_width: i32,
    pub back_buffer_height: i32,
    pub back_buffer_format: SurfaceFormat,
    pub depth_stencil_format: DepthFormat,
    /// Requested multisample count (0 or 1: none).
    pub multi_sample_count: i32,
    /// How the back buffer treats its content when it is bound again (see `set_render_targets`).
    pub render_target_usage: RenderTargetUsage,
}

impl Default for PresentationParameters {
    fn default() -> Self {
        PresentationParameters {
            back_buffer_width: 800,
            back_buffer_height: 480,
            back_buffer_format: SurfaceFormat::Color,
            depth_stencil_format: DepthFormat::None,
            multi_sample_count: 0,
            render_target_usage: RenderTargetUsage::DiscardContents,
        }
    }
}

/// Which native API lowers the plans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BackendKind {
    #[default]
    Vulkan,
}

/// Engine options XNA has no place for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceOptions {
    pub backend: BackendKind,
    /// Khronos validation with synchronization validation (also on with `XNAGRAPH_VALIDATION=1`).
    pub validation: bool,
    /// Submissions that may be in flight before `present` waits (at least 1).
    pub frames_in_flight: u32,
    /// A debug switch for tests: fill every attachment the plan loads or stores with DONT_CARE
    /// with a poison value (magenta colour, depth 0, stencil 0), so a wrong load or store
    /// decision changes pixels even on drivers that keep the old content. Costs a clear per
    /// such attachment; off by default.
    pub poison_undefined: bool,
}

impl Default for DeviceOptions {
    fn default() -> Self {
        DeviceOptions {
            backend: BackendKind::Vulkan,
            validation: false,
            frames_in_flight: 2,
            poison_undefined: false,
        }
    }
}

/// XNA's `ClearOptions` flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClearOptions(u8);

impl ClearOptions {
    pub const TARGET: ClearOptions = ClearOptions(1);
    pub const DEPTH_BUFFER: ClearOptions = ClearOptions(2);
    pub const STENCIL: ClearOptions = ClearOptions(4);
    pub const ALL: ClearOptions = ClearOptions(7);

    pub fn contains(self, other: ClearOptions) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for ClearOptions {
    type Output = ClearOptions;
    fn bitor(self, rhs: ClearOptions) -> ClearOptions {
        ClearOptions(self.0 | rhs.0)
    }
}

/// Device-level events.
#[derive(Debug, Default)]
pub struct DeviceEvents {
    pub resource_created: Event<ResourceEventArgs>,
    pub resource_destroyed: Event<ResourceEventArgs>,
    /// Raised once, first, by an explicit `dispose`.
    pub disposing: Event<()>,
    /// Raised after a reported device reset, once every content-losing resource was told.
    pub device_reset: Event<()>,
}

/// One bound colour target as the device records it.
#[derive(Clone, Debug)]
pub(crate) struct BoundTarget {
    pub resource: ResourceId,
    pub layer: u32,
    pub state: Arc<TextureState>,
}

/// Recording and binding state.
pub(crate) struct Recorder {
    pub frame: FrameCommands,
    /// The last node of `frame` is the open pass of the current bind cycle.
    pub pass_open: bool,
    /// The current bind cycle was split (upload, readback, flush): resume it as `Continue`.
    pub interrupted: bool,
    pub bindings: Vec<BoundTarget>,
    pub render_target_bound: bool,
    pub bound_target_destroyed: bool,
    pub viewport: Viewport,
    pub scissor: Rect,
    pub back_buffer: Arc<TextureState>,
    pub params: PresentationParameters,
    next_readback: u64,
    /// A submitted frame's sprite arena, emptied, for the next sprite batch to fill.
    pub spare_sprites: Vec<xnagraph_graph::SpriteInstance>,
}

impl Recorder {
    /// The attachments of the current bind cycle.
    fn colors(&self) -> Vec<ColorBinding> {
        if self.bindings.is_empty() {
            vec![ColorBinding { target: self.back_buffer.clone(), layer: 0 }]
        } else {
            self.bindings
                .iter()
                .map(|b| ColorBinding { target: b.state.clone(), layer: b.layer })
                .collect()
        }
    }

    /// Starts a new bind cycle's segment.
    pub fn begin_bind_cycle(&mut self) {
        self.pass_open = false;
        self.interrupted = false;
        self.pass();
    }

    /// The open segment, resuming the bind cycle if something split it.
    pub fn pass(&mut self) -> &mut PassSegment {
        if !self.pass_open {
            let start = if self.interrupted { SegmentStart::Continue } else { SegmentStart::Bind };
            let segment = PassSegment { colors: self.colors(), start, ops: Vec::new() };
            self.frame.nodes.push(Node::Pass(segment));
            self.pass_open = true;
            self.interrupted = false;
        }
        match self.frame.nodes.last_mut() {
            Some(Node::Pass(p)) => p,
            _ => unreachable!("pass_open implies the last node is a pass"),
        }
    }

    /// Appends a non-pass node, splitting the open bind cycle.
    pub fn push_outside_pass(&mut self, node: Node) {
        if self.pass_open {
            self.pass_open = false;
            self.interrupted = true;
        }
        self.frame.nodes.push(node);
    }

    pub fn readback_id(&mut self) -> ReadbackId {
        self.next_readback += 1;
        ReadbackId(self.next_readback)
    }

    /// The current primary attachment (first bound target or the back buffer).
    pub fn primary(&self) -> &Arc<TextureState> {
        self.bindings.first().map_or(&self.back_buffer, |b| &b.state)
    }

    fn full_view(state: &TextureState) -> (Viewport, Rect) {
        let d = state.desc();
        let (w, h) = (d.width as i32, d.height as i32);
        (Viewport::new(0, 0, w, h), Rect::new(0, 0, w, h))
    }

    /// Viewport and scissor to the first target's size (the back buffer's when unbound).
    pub fn reset_viewport_and_scissor(&mut self) {
        let (vp, sc) = Self::full_view(self.primary());
        self.viewport = vp;
        self.scissor = sc;
    }

    /// The clear a `DiscardContents` bind records: opaque black, depth 1, stencil 0, on the
    /// aspects the primary target really has.
    pub fn record_discard_clear(&mut self) {
        let depth = self.primary().desc().depth_format();
        let clear = Clear {
            color: Some([0.0, 0.0, 0.0, 1.0]),
            depth: depth.has_depth().then_some(1.0),
            stencil: depth.has_stencil().then_some(0),
        };
        self.pass().ops.push(PassOp::Clear(clear));
    }
}

static NEXT_DEVICE: AtomicU64 = AtomicU64::new(1);

/// `XNAGRAPH_PRINT_PLAN=1` prints every compiled plan to stderr (read once).
fn print_plans() -> bool {
    static PRINT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PRINT.get_or_init(|| std::env::var_os("XNAGRAPH_PRINT_PLAN").is_some_and(|v| v != "0"))
}

/// What resources share with their device; resources hold it weakly (the lifetime token).
pub(crate) struct DeviceShared {
    pub id: u64,
    pub profile: GraphicsProfile,
    disposed: AtomicBool,
    pub context_recovery: AtomicBool,
    pub events: DeviceEvents,
    registry: Mutex<Vec<(ResourceId, Weak<dyn Tracked>)>>,
    pub rec: Mutex<Recorder>,
    backend: Mutex<Option<Box<dyn Backend>>>,
    pub caps: Capabilities,
    format_support: Vec<(SurfaceFormat, FormatSupport)>,
    applied_depth: [DepthFormat; 4],
    pub adapter_name: String,
    submissions: AtomicU64,
    diagnostics: Diagnostics,
}

impl DeviceShared {
    pub fn is_disposed(&self) -> bool {
        self.disposed.load(Ordering::Acquire)
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
    pub fn register(&self, id: ResourceId, resource: Weak<dyn Tracked>, args: &ResourceEventArgs) {
        lock(&self.registry).push((id, resource));
        self.events.resource_created.raise(args);
    }

    pub fn unregister(&self, id: ResourceId) {
        lock(&self.registry).retain(|(r, _)| *r != id);
    }

    pub fn tracked_count(&self) -> usize {
        lock(&self.registry).len()
    }

    /// Runs `f` on the backend. The lock is released before a failure is handled, so the
    /// events a lost device raises may call back into the device.
    fn with_backend<R>(
        &self,
        f: impl FnOnce(&mut dyn Backend) -> std::result::Result<R, xnagraph_graph::BackendError>,
    ) -> Result<R> {
        let result = {
            let mut backend = lock(&self.backend);
            let backend =
                backend.as_mut().ok_or(XnaError::ObjectDisposed { object: "GraphicsDevice" })?;
            f(backend.as_mut())
        };
        result.map_err(|e| self.backend_failed(e))
    }

    /// Creates a native texture (eagerly) and its shared state.
    pub fn create_state(&self, desc: TextureDesc) -> Result<Arc<TextureState>> {
        self.with_backend(|backend| {
            let handle = backend.create_texture(&desc)?;
            Ok(TextureState::new(desc, handle, backend.retire_sink()))
        })
    }

    /// Compiles and submits everything recorded so far.
    pub fn flush(&self) -> Result<Option<SubmissionId>> {
        let frame = {
            let mut rec = lock(&self.rec);
            if rec.pass_open {
                rec.pass_open = false;
                rec.interrupted = true;
            }
            std::mem::take(&mut rec.frame)
        };
        if frame.is_empty() {
            return Ok(None);
        }
        let mut plan = compile(frame);
        if print_plans() {
            eprintln!("{plan}");
        }
        let result = self.with_backend(|backend| backend.submit(&plan));
        // The sprite arena's memory goes back to the sprite batches: the next frame writes into
        // the same (cache-warm, already mapped) pages instead of faulting in fresh ones.
        let mut sprites = std::mem::take(&mut plan.frame.sprites);
        drop(plan);
        sprites.clear();
        let mut rec = lock(&self.rec);
        if rec.spare_sprites.capacity() < sprites.capacity() {
            rec.spare_sprites = sprites;
        }
        drop(rec);
        self.submissions.fetch_add(1, Ordering::Relaxed);
        result.map(Some)
    }

    /// Flushes, waits for the readback and returns its bytes.
    pub fn read_back(&self, readback: Readback) -> Result<Vec<u8>> {
        let id = readback.id;
        lock(&self.rec).push_outside_pass(Node::Readback(readback));
        let submission = self
            .flush()?
            .ok_or_else(|| XnaError::invalid_operation("the readback was not submitted"))?;
        self.with_backend(|backend| {
            backend.wait(submission)?;
            Ok(backend.take_readback(id))
        })?
        .ok_or_else(|| XnaError::invalid_operation("the backend returned no readback data"))
    }

    fn backend_failed(&self, e: xnagraph_graph::BackendError) -> XnaError {
        if matches!(e, xnagraph_graph::BackendError::DeviceLost(_)) {
            self.notify_device_reset();
        }
        e.into()
    }

    /// Tells every content-losing resource that its content is gone, then raises `DeviceReset`.
    /// Walks a snapshot, so a handler may dispose the resource it is told about.
    pub fn notify_device_reset(&self) {
        let snapshot: Vec<Weak<dyn Tracked>> =
            lock(&self.registry).iter().map(|(_, w)| w.clone()).collect();
        for resource in snapshot.iter().filter_map(Weak::upgrade) {
            resource.notify_content_lost();
        }
        self.events.device_reset.raise(&());
    }

    pub fn live_native_objects(&self) -> Option<xnagraph_graph::LiveObjects> {
        lock(&self.backend).as_ref().map(|b| b.live_objects())
    }
}

/// XNA's `GraphicsDevice`, headless: it renders into an offscreen back buffer.
pub struct GraphicsDevice {
    pub(crate) shared: Arc<DeviceShared>,
}

impl std::fmt::Debug for GraphicsDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GraphicsDevice({}, {})", self.shared.id, self.shared.adapter_name)
    }
}

fn create_backend(options: &DeviceOptions) -> Result<Box<dyn Backend>> {
    match options.backend {
        BackendKind::Vulkan => {
            let config = VulkanConfig {
                validation: options.validation,
                frames_in_flight: options.frames_in_flight.max(1),
                poison_undefined: options.poison_undefined,
            };
            Ok(Box::new(VulkanBackend::new(config)?))
        }
    }
}

impl GraphicsDevice {
    /// Creates a device with default options (Vulkan, two frames in flight).
    pub fn new(profile: GraphicsProfile, params: PresentationParameters) -> Result<Self> {
        Self::with_options(profile, params, DeviceOptions::default())
    }

    pub fn with_options(
        profile: GraphicsProfile,
        params: PresentationParameters,
        options: DeviceOptions,
    ) -> Result<Self> {
        if params.back_buffer_width <= 0 {
            return Err(XnaError::out_of_range("BackBufferWidth", "must be positive"));
        }
        if params.back_buffer_height <= 0 {
            return Err(XnaError::out_of_range("BackBufferHeight", "must be positive"));
        }
        let mut backend = create_backend(&options)?;
        let caps = backend.capabilities().clone();
        let max = profile.max_texture_size().min(caps.max_texture_dimension);
        if params.back_buffer_width as u32 > max || params.back_buffer_height as u32 > max {
            return Err(XnaError::not_supported(format!(
                "The back buffer size exceeds the {profile:?} profile's limit of {max}."
            )));
        }
        let format_support =
            SurfaceFormat::ALL.iter().map(|&f| (f, backend.format_support(f))).collect::<Vec<_>>();
        let applied_depth = [
            DepthFormat::None,
            backend.applied_depth_format(DepthFormat::Depth16),
            backend.applied_depth_format(DepthFormat::Depth24),
            backend.applied_depth_format(DepthFormat::Depth24Stencil8),
        ];
        let back_format = {
            let s = format_support.iter().find(|(f, _)| *f == params.back_buffer_format);
            if profile.supports_render_target_format(params.back_buffer_format)
                && s.is_some_and(|(_, s)| s.render_target)
            {
                params.back_buffer_format
            } else {
                SurfaceFormat::Color
            }
        };
        let desc = TextureDesc {
            width: params.back_buffer_width as u32,
            height: params.back_buffer_height as u32,
            mip_levels: 1,
            layers: 1,
            format: back_format,
            render_target: Some(RenderTargetDesc {
                depth: applied_depth[params.depth_stencil_format as usize],
                sample_count: caps.clamp_sample_count(params.multi_sample_count.max(0) as u32),
                usage: params.render_target_usage,
                back_buffer: true,
            }),
        };
        let handle = backend.create_texture(&desc)?;
        let back_buffer = TextureState::new(desc, handle, backend.retire_sink());
        let (w, h) = (desc.width as i32, desc.height as i32);
        let applied_params = PresentationParameters {
            back_buffer_format: back_format,
            depth_stencil_format: desc.depth_format(),
            multi_sample_count: desc.sample_count() as i32,
            ..params
        };
        let adapter_name = backend.adapter_name().to_owned();
        let diagnostics = backend.diagnostics();
        let shared = Arc::new(DeviceShared {
            id: NEXT_DEVICE.fetch_add(1, Ordering::Relaxed),
            profile,
            disposed: AtomicBool::new(false),
            context_recovery: AtomicBool::new(true),
            events: DeviceEvents::default(),
            registry: Mutex::new(Vec::new()),
            rec: Mutex::new(Recorder {
                frame: FrameCommands::default(),
                pass_open: false,
                interrupted: false,
                bindings: Vec::new(),
                render_target_bound: false,
                bound_target_destroyed: false,
                viewport: Viewport::new(0, 0, w, h),
                scissor: Rect::new(0, 0, w, h),
                back_buffer,
                params: applied_params,
                next_readback: 0,
                spare_sprites: Vec::new(),
            }),
            backend: Mutex::new(Some(backend)),
            caps,
            format_support,
            applied_depth,
            adapter_name,
            submissions: AtomicU64::new(0),
            diagnostics,
        });
        Ok(GraphicsDevice { shared })
    }

    pub fn graphics_profile(&self) -> GraphicsProfile {
        self.shared.profile
    }

    /// The adapter the backend chose, e.g. `"llvmpipe (…) [cpu]"`.
    pub fn adapter_name(&self) -> &str {
        &self.shared.adapter_name
    }

    /// The presentation parameters as applied (format, depth and sample count after
    /// substitution and clamping).
    pub fn presentation_parameters(&self) -> PresentationParameters {
        lock(&self.shared.rec).params
    }

    pub fn events(&self) -> &DeviceEvents {
        &self.shared.events
    }

    pub fn is_disposed(&self) -> bool {
        self.shared.is_disposed()
    }

    /// CNA's `SetContextRecoveryEnabled`: with recovery off, textures created afterwards keep no
    /// CPU shadow of their pixels.
    pub fn set_context_recovery_enabled(&self, enabled: bool) {
        self.shared.context_recovery.store(enabled, Ordering::Release);
    }

    pub fn viewport(&self) -> Viewport {
        lock(&self.shared.rec).viewport
    }

    /// Sets the viewport. As in XNA, it must lie inside the current target (the back buffer
    /// when none is bound) and its depth range inside [0, 1]; switching targets resets it.
    pub fn set_viewport(&self, viewport: Viewport) -> Result<()> {
        self.shared.check_alive()?;
        let mut rec = lock(&self.shared.rec);
        let d = *rec.primary().desc();
        let inside = viewport.x >= 0
            && viewport.y >= 0
            && viewport.width > 0
            && viewport.height > 0
            && i64::from(viewport.x) + i64::from(viewport.width) <= i64::from(d.width)
            && i64::from(viewport.y) + i64::from(viewport.height) <= i64::from(d.height);
        let depth_ok =
            (0.0..=1.0).contains(&viewport.min_depth) && (0.0..=1.0).contains(&viewport.max_depth);
        if !inside || !depth_ok {
            return Err(XnaError::argument(
                "value",
                "The viewport is invalid. The viewport cannot be larger than or outside of the \
                 current render target bounds. The MinDepth and MaxDepth must be between 0 and 1.",
            ));
        }
        rec.viewport = viewport;
        Ok(())
    }

    pub fn scissor_rectangle(&self) -> Rect {
        lock(&self.shared.rec).scissor
    }

    /// Sets the scissor rectangle, clipped to the current target as XNA does.
    pub fn set_scissor_rectangle(&self, rect: Rect) -> Result<()> {
        self.shared.check_alive()?;
        let mut rec = lock(&self.shared.rec);
        let d = *rec.primary().desc();
        let x0 = rect.x.clamp(0, d.width as i32);
        let y0 = rect.y.clamp(0, d.height as i32);
        let x1 = (rect.x.saturating_add(rect.width)).clamp(x0, d.width as i32);
        let y1 = (rect.y.saturating_add(rect.height)).clamp(y0, d.height as i32);
        rec.scissor = Rect::new(x0, y0, x1 - x0, y1 - y0);
        Ok(())
    }

    /// `Clear(Color)`: colour, depth 1 and stencil 0, on the aspects the target has.
    pub fn clear(&self, color: Color) -> Result<()> {
        self.clear_with(ClearOptions::ALL, color.to_floats(), 1.0, 0)
    }

    /// `Clear(ClearOptions, Vector4, float, int)`: each requested aspect, only where it exists.
    pub fn clear_with(
        &self,
        options: ClearOptions,
        color: [f32; 4],
        depth: f32,
        stencil: i32,
    ) -> Result<()> {
        self.shared.check_alive()?;
        let mut rec = lock(&self.shared.rec);
        let target_depth = rec.primary().desc().depth_format();
        let clear = Clear {
            color: options.contains(ClearOptions::TARGET).then_some(color),
            depth: (options.contains(ClearOptions::DEPTH_BUFFER) && target_depth.has_depth())
                .then_some(depth.clamp(0.0, 1.0)),
            stencil: (options.contains(ClearOptions::STENCIL) && target_depth.has_stencil())
                .then_some(stencil as u32),
        };
        if clear.color.is_some() || clear.depth.is_some() || clear.stencil.is_some() {
            rec.pass().ops.push(PassOp::Clear(clear));
        }
        Ok(())
    }

    /// Ends the frame: records the present and submits. Refused while a render target is bound
    /// (including after a bound target was dropped, until the game binds again).
    pub fn present(&self) -> Result<()> {
        self.shared.check_alive()?;
        {
            let mut rec = lock(&self.shared.rec);
            if rec.render_target_bound {
                return Err(XnaError::invalid_operation(
                    "Cannot call Present when a render target is active.",
                ));
            }
            let back_buffer = rec.back_buffer.clone();
            rec.push_outside_pass(Node::Present(back_buffer));
            // A new frame starts: the back buffer's next use begins a fresh cycle.
            rec.interrupted = false;
        }
        self.shared.flush()?;
        Ok(())
    }

    /// Submits what was recorded so far without ending the frame.
    pub fn flush(&self) -> Result<()> {
        self.shared.check_alive()?;
        self.shared.flush().map(|_| ())
    }

    /// `GetBackBufferData`: reads the back buffer (resolved) into `data`.
    pub fn get_back_buffer_data<T: bytemuck::Pod>(
        &self,
        rect: Option<Rect>,
        data: &mut [T],
        start_index: usize,
        element_count: usize,
    ) -> Result<()> {
        self.shared.check_alive()?;
        let state = lock(&self.shared.rec).back_buffer.clone();
        crate::texture::read_region(
            &self.shared,
            &state,
            0,
            0,
            rect,
            data,
            start_index,
            element_count,
        )
    }

    /// Reports a real device reset (from the platform layer, or when the backend reports a lost
    /// device): render targets become content-lost and raise `ContentLost`.
    pub fn notify_device_reset(&self) {
        self.shared.notify_device_reset();
    }

    /// Frames (or partial frames) handed to the backend so far.
    pub fn submission_count(&self) -> u64 {
        self.shared.submissions.load(Ordering::Relaxed)
    }

    /// Number of resources in the device's registry.
    pub fn tracked_resource_count(&self) -> usize {
        self.shared.tracked_count()
    }

    /// Native objects the backend holds right now (leak checks).
    pub fn live_native_objects(&self) -> Option<xnagraph_graph::LiveObjects> {
        self.shared.live_native_objects()
    }

    /// What the device can do (not XNA, which answers through exceptions): limits, supported
    /// multisample counts and optional features. Calls that need a missing one are
    /// `NotSupported`.
    pub fn capabilities(&self) -> &Capabilities {
        &self.shared.caps
    }

    /// What the device can do with one surface format (not XNA): sample it, render to it,
    /// blend into it, generate its mips.
    pub fn format_support(&self, format: SurfaceFormat) -> FormatSupport {
        self.shared.format_support(format)
    }

    /// This device's validation messages and live native object count (not XNA). The handle
    /// outlives the device, so a test can check that teardown freed everything; devices of
    /// parallel tests never see each other's records.
    pub fn diagnostics(&self) -> Diagnostics {
        self.shared.diagnostics.clone()
    }

    /// Waits for the GPU and frees everything whose last user has gone.
    pub fn wait_idle(&self) -> Result<()> {
        self.shared.with_backend(|backend| backend.wait_idle())
    }

    /// Disposes the device: marks it disposed, raises `Disposing`, disposes every tracked
    /// resource, then waits for the GPU and tears the backend down.
    pub fn dispose(&self) {
        self.dispose_impl(true);
    }

    fn dispose_impl(&self, explicit: bool) {
        let shared = &self.shared;
        if shared.disposed.swap(true, Ordering::AcqRel) {
            return;
        }
        if explicit {
            shared.events.disposing.raise(&());
        }
        let tracked = std::mem::take(&mut *lock(&shared.registry));
        for resource in tracked.iter().filter_map(|(_, w)| w.upgrade()) {
            resource.dispose_by_device();
        }
        {
            let mut rec = lock(&shared.rec);
            rec.frame = FrameCommands::default();
            rec.bindings.clear();
            rec.pass_open = false;
        }
        if let Some(mut backend) = lock(&shared.backend).take() {
            // Teardown must not fail loudly: the backend's Drop waits and frees regardless.
            let _ = backend.wait_idle();
            drop(backend);
        }
    }
}

impl Drop for GraphicsDevice {
    fn drop(&mut self) {
        self.dispose_impl(false);
    }
}
