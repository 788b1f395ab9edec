//! `GraphicsDevice`: creation, public state, clears, presents, flushes and disposal.
//!
//! Every public call validates, updates public state and records through the device's
//! [`xnagraph_graph::FrameBuilder`]; only a flush (`present`, a `get_data`,
//! [`GraphicsDevice::flush`]) compiles the frame and hands the plan to the backend. Resource
//! creation is the one eager exception. What resources share with the device lives in
//! [`crate::device::shared`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use xnagraph_graph::null::NullProbe;
use xnagraph_graph::{
    AdapterInfo, Backend, Clear, DepthFormat, Rect, SurfaceFormat, TextureState, Viewport,
};

use crate::device::adapter::GraphicsAdapter;
use crate::device::clear::ClearOptions;
use crate::device::options::{BackendKind, DeviceOptions, PresentationParameters};
use crate::device::profile::GraphicsProfile;
use crate::device::registry::Registry;
use crate::device::shared::{DeviceEvents, DeviceShared, Recording};
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::math::Color;

use super::back_buffer::BackBufferLimits;

static NEXT_DEVICE: AtomicU64 = AtomicU64::new(1);

/// XNA's `GraphicsDevice`. Created with [`GraphicsDevice::new`] or
/// [`GraphicsDevice::with_options`] it is headless and renders into an offscreen back buffer;
/// created with [`GraphicsDevice::for_window`] it presents to a window's swapchain.
pub struct GraphicsDevice {
    pub(crate) shared: Arc<DeviceShared>,
    /// False for a view ([`GraphicsDevice::view`]): dropping it leaves the device alive.
    owner: bool,
}

impl std::fmt::Debug for GraphicsDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GraphicsDevice({}, {})", self.shared.id, self.shared.adapter_name)
    }
}

/// The variable [`DeviceOptions::pipeline_cache_from_env`] reads.
const PIPELINE_CACHE_VARIABLE: &str = "XNAGRAPH_PIPELINE_CACHE";

impl GraphicsDevice {
    /// XNA's `new GraphicsDevice(adapter, graphicsProfile, presentationParameters)`, headless,
    /// with the default [`DeviceOptions`] (Vulkan, two frames in flight, a render thread).
    ///
    /// Errors: as [`Self::with_options`]. Where it differs from XNA: there is no adapter
    /// argument (the backend picks its default adapter, [`GraphicsAdapter::default_adapter`];
    /// [`Self::with_adapter`] takes one) and no window; [`Self::for_window`] presents to one.
    pub fn new(profile: GraphicsProfile, params: PresentationParameters) -> Result<Self> {
        Self::with_options(profile, params, DeviceOptions::default())
    }

    /// XNA's `new GraphicsDevice(adapter, graphicsProfile, presentationParameters)`, headless,
    /// with engine options XNA has no place for (backend, validation, frames in flight).
    ///
    /// The back buffer is created at once; nothing else reaches the GPU until the first flush.
    /// A back buffer format the profile or adapter cannot render is replaced by `Color`, as
    /// [`Self::presentation_parameters`] then reports.
    ///
    /// Errors: a non-positive back buffer width or height is `ArgumentOutOfRange` naming
    /// `BackBufferWidth` or `BackBufferHeight`; a back buffer larger than the profile (or the
    /// adapter) allows is `NotSupported`; no usable adapter, validation asked for without the
    /// layer, or a backend this build lacks (naming its Cargo feature) is `NotSupported` as
    /// well; a malformed `XNAGRAPH_CAPTURE` or `XNAGRAPH_PIPELINE_CACHE` the options opted in
    /// to fails as [`Self::capture_frames`] or [`Self::use_pipeline_cache`].
    pub fn with_options(
        profile: GraphicsProfile,
        params: PresentationParameters,
        options: DeviceOptions,
    ) -> Result<Self> {
        let (backend, null_probe) = super::backends::headless(&options)?;
        Self::with_backend(profile, params, options, backend, null_probe)
    }

    /// XNA's `new GraphicsDevice(adapter, graphicsProfile, presentationParameters)` on a chosen
    /// adapter, headless, with engine options.
    ///
    /// Vulkan creates the device on that physical device. SDL 3.4 chooses its own device, so
    /// on SDL_gpu the adapter must be the one SDL chooses (an adapter of any backend's list
    /// whose description is the one SDL reports). Otherwise as [`Self::with_options`].
    ///
    /// Errors: an adapter another backend listed, on Vulkan or the null backend, is
    /// `ArgumentException` naming `adapter`; an adapter the backend cannot create a device on
    /// (gone since it was listed, or on SDL_gpu not the one SDL chooses) is `NotSupported`, and
    /// so is a `profile` the adapter does not support ([`GraphicsAdapter::is_profile_supported`],
    /// as XNA raises it); the rest as [`Self::with_options`]. Where it differs from XNA: the
    /// adapter is a reference, so there is no `ArgumentNullException`; no window (a device for
    /// a window runs on its backend's default adapter).
    pub fn with_adapter(
        adapter: &GraphicsAdapter,
        profile: GraphicsProfile,
        params: PresentationParameters,
        options: DeviceOptions,
    ) -> Result<Self> {
        if adapter.backend() != options.backend && options.backend != BackendKind::SdlGpu {
            return Err(XnaError::argument(
                "adapter",
                format!(
                    "The adapter was listed by the {:?} backend; this device uses {:?}.",
                    adapter.backend(),
                    options.backend
                ),
            ));
        }
        if !adapter.is_profile_supported(profile) {
            return Err(XnaError::not_supported(format!(
                "The adapter {} does not support the {profile:?} profile.",
                adapter.description()
            )));
        }
        let (backend, null_probe) = super::backends::headless_on(&options, adapter.identity())?;
        Self::with_backend(profile, params, options, backend, null_probe)
    }

    /// A device over `backend`: the back buffer is created at once.
    pub(crate) fn with_backend(
        profile: GraphicsProfile,
        params: PresentationParameters,
        options: DeviceOptions,
        mut backend: Box<dyn Backend>,
        null_probe: Option<NullProbe>,
    ) -> Result<Self> {
        let caps = backend.capabilities().clone();
        let format_support =
            SurfaceFormat::ALL.iter().map(|&f| (f, backend.format_support(f))).collect::<Vec<_>>();
        let applied_depth = [
            DepthFormat::None,
            backend.applied_depth_format(DepthFormat::Depth16),
            backend.applied_depth_format(DepthFormat::Depth24),
            backend.applied_depth_format(DepthFormat::Depth24Stencil8),
        ];
        let limits = BackBufferLimits {
            profile,
            caps: &caps,
            format_support: &format_support,
            applied_depth,
        };
        let (desc, applied_params) = limits.apply(params)?;
        let handle = backend.create_texture(&desc)?;
        let back_buffer = TextureState::new(desc, handle, backend.retire_sink());
        let adapter_name = backend.adapter_name().to_owned();
        let adapter = GraphicsAdapter::from_info(
            options.backend,
            AdapterInfo {
                identity: backend.adapter_identity(),
                capabilities: caps.clone(),
                formats: format_support.clone(),
                applied_depth,
            },
        );
        let gpu_timing = crate::device::gpu_timing::GpuTimingLog::new(
            backend.set_gpu_timing(options.gpu_timing),
            options.gpu_timing,
        );
        let waiter = backend.waiter();
        let diagnostics = backend.diagnostics();
        let mut rec = Recording::new(back_buffer, applied_params);
        rec.sprite_memory = backend.sprite_memory();
        let shared = Arc::new(DeviceShared {
            id: NEXT_DEVICE.fetch_add(1, Ordering::Relaxed),
            profile,
            disposed: AtomicBool::new(false),
            context_recovery: AtomicBool::new(true),
            events: DeviceEvents::default(),
            registry: Registry::default(),
            order: Mutex::new(None),
            render_thread: Mutex::new(None),
            failure: Mutex::new(None),
            rec: Mutex::new(rec),
            backend: Mutex::new(Some(backend)),
            waiter,
            null_probe,
            caps,
            format_support,
            applied_depth,
            adapter_name,
            adapter,
            submissions: AtomicU64::new(0),
            frames_submitted: AtomicU64::new(0),
            last_submission: AtomicU64::new(0),
            diagnostics,
            compile_policy: options.compile_policy,
            auto_instancing: options.auto_instancing,
            transient_aliasing: options.transient_aliasing,
            print_plans: options.print_plans,
            last_plan_cost: Mutex::new(None),
            returned_lists: Mutex::new(Default::default()),
            capture: Default::default(),
            gpu_timing,
            open_query_span: Mutex::new(None),
        });
        shared.capture.texture_created(lock(&shared.rec).builder.back_buffer());
        if options.render_thread {
            shared.start_render_thread(super::backends::frames_in_flight(&options))?;
        }
        let device = GraphicsDevice { shared, owner: true };
        // The only place the engine reads XNAGRAPH_CAPTURE, and only when the game opted in.
        let spec = options
            .capture_from_env
            .then(|| std::env::var(crate::device::capture::CAPTURE_VARIABLE));
        if let Some(Ok(spec)) = spec {
            let (path, frames) = crate::device::capture::parse_spec(&spec)?;
            device.capture_frames(path, frames)?;
        }
        // Likewise the only place it reads XNAGRAPH_PIPELINE_CACHE.
        if let Some(path) =
            options.pipeline_cache_from_env.then(|| std::env::var_os(PIPELINE_CACHE_VARIABLE))
        {
            if let Some(path) = path.filter(|p| !p.is_empty()) {
                device.use_pipeline_cache(path)?;
            }
        }
        Ok(device)
    }

    /// Keeps the device's compiled pipelines in the file at `path` between runs (no XNA
    /// counterpart: XNA compiles effects ahead of time and has no pipeline objects). What the
    /// file holds is taken into the device's pipeline cache now, when it was written by the same
    /// adapter and driver and is whole; anything else (a missing file, another driver's, a
    /// damaged one: the last with a `tracing` warning) is ignored, never an error. The cache is
    /// written back to the file, whole or not at all, when the device is dropped, so a game's
    /// second run builds no pipeline its first run built. Call it right after creating the
    /// device, before content is loaded. Returns the bytes of cache data read (0: none).
    ///
    /// Errors: `NotSupported` on a backend that keeps no pipeline cache (SDL_gpu);
    /// `ObjectDisposed` after `Dispose`.
    pub fn use_pipeline_cache(&self, path: impl AsRef<std::path::Path>) -> Result<usize> {
        let path = path.as_ref();
        self.shared.with_backend(|backend| backend.use_pipeline_cache(path))
    }

    /// Captures frames `frames` (numbered by presents: frame k ends with the (k+1)-th `Present`
    /// of this device) into the file at `path`; no XNA counterpart. When the first frame begins
    /// (at once, if it is the frame being recorded now) every live texture is read back once as
    /// the capture's snapshot, and the file is complete after the present that ends the last
    /// frame ([`GraphicsDevice::capture_result`] then reports it). `XNAGRAPH_CAPTURE=path:N-M`
    /// does the same at the creation of a device whose options opted in to the environment
    /// ([`DeviceOptions::with_env`]).
    ///
    /// Errors: a disposed device is `ObjectDisposed`; an empty range, or a first frame that
    /// has begun already, is `ArgumentOutOfRange` on `frames`; a capture already armed or
    /// running is `InvalidOperation`, as is a file that cannot be created; a build without the
    /// `capture` feature is `NotSupported`, naming it.
    pub fn capture_frames(
        &self,
        path: impl Into<std::path::PathBuf>,
        frames: std::ops::RangeInclusive<u64>,
    ) -> Result<()> {
        self.shared.check_alive()?;
        self.shared.capture.arm(&self.shared, path.into(), frames)
    }

    /// The outcome of the last capture once its last frame was presented (not XNA; taken: a second
    /// call returns `None`); `None` while it runs. A write failure ends the capture and is reported
    /// here as `InvalidOperation`.
    pub fn capture_result(&self) -> Option<Result<crate::CaptureSummary>> {
        let result = self.shared.capture.take_result()?;
        Some(result.map_err(|m| XnaError::invalid_operation(format!("The capture failed: {m}"))))
    }

    /// XNA's `GraphicsDevice.GraphicsProfile`: the profile the device was created with; it
    /// bounds texture sizes, formats and render-target counts.
    pub fn graphics_profile(&self) -> GraphicsProfile {
        self.shared.profile
    }

    /// The name of the adapter the backend chose, e.g. `"llvmpipe (…) [cpu]"` (XNA's
    /// `GraphicsDevice.Adapter.Description`, as a string).
    pub fn adapter_name(&self) -> &str {
        &self.shared.adapter_name
    }

    /// XNA's `GraphicsDevice.Adapter`: the adapter the device runs on, as its backend reports
    /// it (equal to the listed adapter it was created on; on lavapipe the one "llvmpipe").
    pub fn adapter(&self) -> GraphicsAdapter {
        self.shared.adapter.clone()
    }

    /// XNA's `GraphicsDevice.PresentationParameters`, as applied (format, depth and sample
    /// count after substitution and clamping); a copy, not the live object.
    pub fn presentation_parameters(&self) -> PresentationParameters {
        lock(&self.shared.rec).params
    }

    /// XNA's `GraphicsDevice.Reset(PresentationParameters)`: applies new presentation
    /// parameters (back buffer size, format, depth, multisampling, usage, presentation
    /// interval). Raises `DeviceResetting`, submits what was recorded so far, replaces the back
    /// buffer, unbinds any render target, resets viewport and scissor to the new back buffer,
    /// then raises `DeviceReset`. Render targets and textures are untouched (their content is
    /// kept: this is not a lost device). A device created for a window resizes its swapchain to
    /// the new back buffer at the next present.
    ///
    /// Errors: a disposed device is `ObjectDisposed`; bad parameters are refused as at
    /// creation ([`Self::with_options`]), and leave the device as it was; on a windowed
    /// device, a presentation interval the window cannot pace is refused as by
    /// [`Self::for_window`]; a failed flush of what was recorded is the backend's error.
    pub fn reset(&self, params: PresentationParameters) -> Result<()> {
        self.shared.check_alive()?;
        let windowed = self.present_stats().is_some();
        if windowed {
            crate::device::present::check_interval(params.presentation_interval)?;
            let immediate = crate::device::present::is_immediate(params.presentation_interval);
            self.shared.with_backend(|b| b.check_present_pacing(immediate))?;
        }
        let limits = BackBufferLimits {
            profile: self.shared.profile,
            caps: &self.shared.caps,
            format_support: &self.shared.format_support,
            applied_depth: self.shared.applied_depth,
        };
        let (desc, applied) = limits.apply(params)?;
        self.shared.events.device_resetting.raise(&());
        self.shared.flush()?;
        if windowed {
            let immediate = crate::device::present::is_immediate(params.presentation_interval);
            self.shared.with_backend(|b| {
                b.set_present_immediate(immediate);
                Ok(())
            })?;
        }
        let back_buffer = self.shared.create_state(desc)?;
        {
            let mut rec = lock(&self.shared.rec);
            rec.builder.replace_back_buffer(back_buffer);
            rec.bindings.clear();
            rec.render_target_bound = false;
            rec.bound_target_destroyed = false;
            rec.params = applied;
            rec.reset_viewport_and_scissor();
        }
        self.shared.events.device_reset.raise(&());
        Ok(())
    }

    /// XNA's `GraphicsDevice` events (`ResourceCreated`, `ResourceDestroyed`, `Disposing`,
    /// `DeviceResetting`, `DeviceReset`), gathered in one value.
    pub fn events(&self) -> &DeviceEvents {
        &self.shared.events
    }

    /// XNA's `GraphicsDevice.IsDisposed`: whether the device has been disposed; every call on a
    /// disposed device is `ObjectDisposed`.
    pub fn is_disposed(&self) -> bool {
        self.shared.is_disposed()
    }

    /// Not XNA (CNA's `SetContextRecoveryEnabled`): with recovery off, textures created
    /// afterwards keep no CPU shadow of their pixels, so a partial `set_data` of one is
    /// `InvalidOperation`.
    pub fn set_context_recovery_enabled(&self, enabled: bool) {
        self.shared.context_recovery.store(enabled, Ordering::Release);
    }

    /// XNA's `GraphicsDevice.Viewport`: the current viewport; binding render targets resets it
    /// to the first target's bounds.
    pub fn viewport(&self) -> Viewport {
        lock(&self.shared.rec).draw.viewport
    }

    /// Sets XNA's `GraphicsDevice.Viewport`; switching targets resets it.
    ///
    /// Errors: a disposed device is `ObjectDisposed`; as in XNA, a viewport that is empty or
    /// not inside the current target (the back buffer when none is bound), or whose depth range
    /// is not inside [0, 1] (NaN is outside), is `Argument` on `value`.
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
        rec.draw.viewport = viewport;
        Ok(())
    }

    /// XNA's `GraphicsDevice.ScissorRectangle`, as clipped to the current target.
    pub fn scissor_rectangle(&self) -> Rect {
        lock(&self.shared.rec).draw.scissor
    }

    /// Sets XNA's `GraphicsDevice.ScissorRectangle`, clipped to the current target as XNA does.
    ///
    /// Errors: a disposed device is `ObjectDisposed`.
    pub fn set_scissor_rectangle(&self, rect: Rect) -> Result<()> {
        self.shared.check_alive()?;
        let mut rec = lock(&self.shared.rec);
        let d = *rec.primary().desc();
        let x0 = rect.x.clamp(0, d.width as i32);
        let y0 = rect.y.clamp(0, d.height as i32);
        let x1 = (rect.x.saturating_add(rect.width)).clamp(x0, d.width as i32);
        let y1 = (rect.y.saturating_add(rect.height)).clamp(y0, d.height as i32);
        rec.draw.scissor = Rect::new(x0, y0, x1 - x0, y1 - y0);
        Ok(())
    }

    /// XNA's `GraphicsDevice.Clear(Color)`: colour, depth 1 and stencil 0, on the aspects the
    /// target has.
    ///
    /// Errors: a disposed device is `ObjectDisposed`.
    pub fn clear(&self, color: Color) -> Result<()> {
        self.clear_with(ClearOptions::all(), color.to_floats(), 1.0, 0)
    }

    /// XNA's `GraphicsDevice.Clear(ClearOptions, Vector4, float, int)`: each requested aspect,
    /// only where the target has it; a finite depth is clamped to [0, 1].
    ///
    /// Errors: a disposed device is `ObjectDisposed`; a NaN or infinite `color` component or
    /// `depth` is `Argument` on `color` or `depth` (whatever the options). Where it differs
    /// from XNA: the colour is `[f32; 4]` rather than a `Vector4`.
    pub fn clear_with(
        &self,
        options: ClearOptions,
        color: [f32; 4],
        depth: f32,
        stencil: i32,
    ) -> Result<()> {
        self.shared.check_alive()?;
        crate::finite::check_finite(&[("color", &color), ("depth", &[depth])])?;
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
            rec.builder.clear(clear);
        }
        Ok(())
    }

    /// XNA's `GraphicsDevice.Present()`: ends the frame, recording the present and handing the
    /// frame to the render thread.
    ///
    /// Returns once the frame is queued (while the frames-in-flight bound of frames is queued
    /// already, it waits for the render thread to take one).
    ///
    /// Errors: a disposed device is `ObjectDisposed`; a render target bound (including after a
    /// bound target was dropped, until the game binds again) is `InvalidOperation`, as in XNA;
    /// an earlier frame's failure, as below.
    ///
    /// Unlike XNA, whose `Present` fails with the frame it submits, a frame that fails on the
    /// render thread (a lost device, video memory exhausted) is reported by the device's next
    /// `present`, `flush`, readback (`GetData`, `GetBackBufferData`), `wait_idle` or resource
    /// creation, as the same error; that call does nothing else, and a lost device raises the
    /// reset events on its thread first. With [`DeviceOptions::render_thread`] off, the frame is
    /// compiled and submitted before `present` returns and its failure is `present`'s.
    pub fn present(&self) -> Result<()> {
        self.shared.check_alive()?;
        self.shared.present(|rec| {
            if rec.render_target_bound {
                return Err(XnaError::invalid_operation(
                    "Cannot call Present when a render target is active.",
                ));
            }
            rec.builder.present();
            Ok(())
        })
    }

    /// Submits what was recorded so far without ending the frame (not XNA, which flushes
    /// internally), and returns once the backend has accepted it (not once the GPU ran it).
    ///
    /// Errors: a disposed device is `ObjectDisposed`; the failure of this frame and of any
    /// frame presented before it (`DeviceLost`, `OutOfVideoMemory`, ...).
    pub fn flush(&self) -> Result<()> {
        self.shared.check_alive()?;
        self.shared.flush().map(|_| ())
    }

    /// XNA's `GraphicsDevice.GetBackBufferData<T>(Rectangle?, T[], startIndex, elementCount)`:
    /// reads the back buffer (resolved) into `data`, flushing and waiting for the GPU.
    ///
    /// Before `Present` it reads the frame being drawn. After `Present` it reads the presented
    /// frame, except on a device with a window whose frame was drawn straight into the
    /// swapchain image (a `DiscardContents` back buffer of the window's size): that image
    /// belongs to the presentation engine, XNA leaves such content undefined, and the call is
    /// `InvalidOperation` (read before `Present`, or use `PreserveContents`).
    ///
    /// Errors: besides that, a disposed device is `ObjectDisposed`; the `rect`, `T`, `data` and
    /// `elementCount` checks of [`Texture2D::set_data_region`](crate::Texture2D::set_data_region);
    /// a failed flush is the backend's error.
    pub fn get_back_buffer_data<T: bytemuck::Pod>(
        &self,
        rect: Option<Rect>,
        data: &mut [T],
        start_index: usize,
        element_count: usize,
    ) -> Result<()> {
        self.shared.check_alive()?;
        if self.present_stats().is_some() {
            // Whether the presented frame went straight into the swapchain is known once the
            // render thread has compiled the frames handed over so far.
            self.shared.drain();
        }
        let state = {
            let rec = lock(&self.shared.rec);
            crate::device::present::check_back_buffer_readable(&rec.builder)?;
            rec.builder.back_buffer().clone()
        };
        crate::device::data::read_region(
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

    /// Reports a real device reset (not XNA, where the device itself detects one; from the
    /// platform layer, or when the backend reports a lost device): render targets become
    /// content-lost and raise `ContentLost`.
    pub fn notify_device_reset(&self) {
        self.shared.notify_device_reset();
    }

    /// Not XNA: waits for the render thread to submit every frame handed over, for a running
    /// capture's writer to have written every frame handed to it (see
    /// [`capture_frames`](GraphicsDevice::capture_frames)), then for the GPU (within
    /// [`DeviceOptions::timeout`]), and frees everything whose last user has gone: afterwards
    /// the device holds nothing the game dropped. Reports a failure of any of those frames.
    pub fn wait_idle(&self) -> Result<()> {
        self.shared.wait_idle()
    }

    /// XNA's `GraphicsDevice.Dispose()`: marks it disposed, raises `Disposing`, lets the render
    /// thread submit the frames queued and joins it, disposes every tracked resource, then
    /// waits for the GPU and tears the backend down; a second call does nothing. Dropping the
    /// device does the same without raising `Disposing`.
    pub fn dispose(&self) {
        self.dispose_impl(true);
    }

    /// A handle to the device of `shared` that does not own it: dropping it neither disposes
    /// nor waits. It lets an object that keeps only the device's shared state (as XNA's
    /// `ModelMesh` keeps its `GraphicsDevice`) call the device's public methods.
    pub(crate) fn view(shared: Arc<DeviceShared>) -> GraphicsDevice {
        GraphicsDevice { shared, owner: false }
    }

    fn dispose_impl(&self, explicit: bool) {
        let shared = &self.shared;
        if shared.disposed.swap(true, Ordering::AcqRel) {
            return;
        }
        if explicit {
            shared.events.disposing.raise(&());
        }
        shared.stop_render_thread();
        for resource in shared.registry.take().iter().filter_map(|w| w.upgrade()) {
            resource.dispose_by_device();
        }
        {
            let mut rec = lock(&shared.rec);
            rec.builder.discard_frame();
            rec.bindings.clear();
            // Mapped sprite arenas go before the backend (each waits for its last reader).
            rec.spare_sprites.clear();
            rec.sprite_memory = None;
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
        if self.owner {
            self.dispose_impl(false);
        }
    }
}
