//! The options a device is created with: XNA's `PresentationParameters` and the engine's own.

use std::time::Duration;

use xnagraph_graph::compile::CompilePolicy;
use xnagraph_graph::{DepthFormat, RenderTargetUsage, SurfaceFormat};

/// How a sprite draw of several textures becomes native draws on Vulkan (not XNA; see
/// [`DeviceOptions::texture_indexing`]). The engine's own type, handed to the backend as its
/// equivalent, so that no backend type is part of the public API.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TextureIndexing {
    /// One native draw when the device has `shaderSampledImageArrayNonUniformIndexing` (each
    /// sprite indexes the array of its draw's textures), else one per run of sprites that
    /// sample one texture.
    #[default]
    Auto,
    /// One native draw per run of sprites that sample one texture, on any device.
    Runs,
    /// One native draw on any device, through a fragment stage that picks the sprite's texture
    /// with a switch of constant indices. Costly where divergent branches are (a CPU
    /// rasteriser runs every case); for tests of the one-draw path on devices without
    /// non-uniform indexing.
    Branches,
}

/// XNA's `PresentationParameters`, with XNA's defaults (800×480 `Color`, no depth, no
/// multisampling, `DiscardContents`, `PresentInterval::Default`, windowed). The window a device
/// presents to is given at creation instead of as `DeviceWindowHandle`; `DisplayOrientation` is
/// not offered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PresentationParameters {
    /// Width of the back buffer in pixels (XNA's `BackBufferWidth`); must be positive and within
    /// the profile's texture size limit.
    pub back_buffer_width: i32,
    /// Height of the back buffer in pixels (XNA's `BackBufferHeight`); same limits as the width.
    pub back_buffer_height: i32,
    /// Requested back buffer format (XNA's `BackBufferFormat`, default `Color`); a format the
    /// profile or the adapter cannot render to falls back to `Color` (see
    /// `presentation_parameters`).
    pub back_buffer_format: SurfaceFormat,
    /// Requested depth format of the back buffer (XNA's `DepthStencilFormat`, default `None`);
    /// the device applies the nearest format the adapter has.
    pub depth_stencil_format: DepthFormat,
    /// Requested multisample count (XNA's `MultiSampleCount`, default 0; 0 or 1: none); the
    /// device rounds it down to a count the adapter offers.
    pub multi_sample_count: i32,
    /// How the back buffer treats its content when it is bound again (XNA's
    /// `RenderTargetUsage`, default `DiscardContents`; see `set_render_targets`).
    pub render_target_usage: RenderTargetUsage,
    /// How presents are paced against the display's refresh (XNA's `PresentationInterval`);
    /// it matters only for a device created for a window.
    pub presentation_interval: PresentInterval,
    /// Whether the window covers its monitor (XNA's `IsFullScreen`); it matters only for a
    /// device created for a window.
    pub is_full_screen: bool,
}

/// XNA's `PresentInterval`: how `Present` is paced against the display's vertical retrace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PresentInterval {
    /// As `One` (XNA's default).
    #[default]
    Default,
    /// Wait for the vertical retrace: no tearing, at most one present per refresh (Vulkan FIFO).
    One,
    /// Present every second retrace. Vulkan has no such mode: a windowed device refuses it with
    /// `NotSupported`.
    Two,
    /// Present at once, without waiting for the retrace (Vulkan MAILBOX where offered, else
    /// IMMEDIATE; FIFO when the surface offers neither).
    Immediate,
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
            presentation_interval: PresentInterval::Default,
            is_full_screen: false,
        }
    }
}

/// Which native API lowers the plans.
///
/// Both GPU backends lower the same compiled plans from the same SPIR-V and give the same
/// pixels; [`crate::GraphicsDevice::capabilities`]-level differences are listed in the README.
/// The default is Vulkan, or SDL_gpu in a build with the `sdlgpu` feature and without
/// `vulkan`. A backend this build lacks is `NotSupported` when a device is created on it, naming
/// the feature. A game that opts in to the environment ([`DeviceOptions::from_env`]) lets
/// `XNAGRAPH_BACKEND` (`vulkan` or `sdlgpu`) pick another without rebuilding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    /// Vulkan 1.3 through ash and vk-mem (lavapipe included); the `vulkan` feature.
    Vulkan,
    /// SDL 3.4's GPU API (SDL_gpu) on its Vulkan driver, headless through SDL's offscreen video
    /// driver; for a window ([`crate::GraphicsDevice::for_window`]) SDL wraps the game's X11 or
    /// Wayland window. SDL_gpu has no GPU timestamps, so nothing on this backend reports GPU
    /// time. The `sdlgpu` (or `sdlgpu-system`) feature.
    SdlGpu,
    /// No GPU: plans are accepted and nothing is drawn; readbacks return zeroed bytes. Every
    /// backend call is counted and submissions can be made to fail or to hang through
    /// [`crate::GraphicsDevice::null_probe`]. For tests of the engine's contract with its backend.
    Null,
}

impl Default for BackendKind {
    fn default() -> Self {
        if cfg!(all(feature = "sdlgpu", not(feature = "vulkan"))) {
            BackendKind::SdlGpu
        } else {
            BackendKind::Vulkan
        }
    }
}

impl BackendKind {
    /// The backend `XNAGRAPH_BACKEND` names (`vulkan` or `sdlgpu`, any case), or `None` when
    /// it is unset. Another value is reported (a `tracing` warning) and ignored. Only this call
    /// and [`DeviceOptions::with_env`] read the variable: a device made without either runs on
    /// the backend its options name, whatever the environment holds.
    pub fn from_env() -> Option<BackendKind> {
        let value = std::env::var("XNAGRAPH_BACKEND").ok()?;
        match value.trim().to_ascii_lowercase().as_str() {
            "vulkan" => Some(BackendKind::Vulkan),
            "sdlgpu" | "sdl_gpu" | "sdl" => Some(BackendKind::SdlGpu),
            _ => {
                tracing::warn!("XNAGRAPH_BACKEND={value} names no backend (vulkan, sdlgpu)");
                None
            }
        }
    }
}

/// Engine options XNA has no place for.
///
/// The library reads no environment variable on its own: [`DeviceOptions::default`] and a
/// device made from it behave the same whatever the player's environment holds (a shipped game
/// must not start writing capture files because a variable happens to be set). A game, sample or
/// tool that wants the developer variables opts in with [`DeviceOptions::from_env`] (or
/// [`DeviceOptions::with_env`] on options of its own):
///
/// | Variable | Effect |
/// |---|---|
/// | `XNAGRAPH_BACKEND=vulkan\|sdlgpu` | [`DeviceOptions::backend`] |
/// | `XNAGRAPH_VALIDATION=1` | [`DeviceOptions::validation`] on |
/// | `XNAGRAPH_PRINT_PLAN=1` | [`DeviceOptions::print_plans`] on |
/// | `XNAGRAPH_CAPTURE=path:N-M` | [`DeviceOptions::capture_from_env`] on: the device captures frames N to M into `path` |
/// | `XNAGRAPH_PIPELINE_CACHE=path` | [`DeviceOptions::pipeline_cache_from_env`] on: the device keeps its pipeline cache in `path` ([`crate::GraphicsDevice::use_pipeline_cache`]) |
///
/// XNA has no such variables; they are xnagraph's debugging aids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceOptions {
    /// Which backend lowers the frames (`XNAGRAPH_BACKEND` through
    /// [`DeviceOptions::with_env`]). The default is [`BackendKind::default`]: Vulkan, or SDL_gpu
    /// in a build with the `sdlgpu` feature and without `vulkan`, so the default options make a
    /// device in every build that has a GPU backend.
    pub backend: BackendKind,
    /// Khronos validation with synchronization validation (`XNAGRAPH_VALIDATION=1` through
    /// [`DeviceOptions::with_env`]); without the layer installed, creation is `NotSupported`.
    /// On SDL_gpu it turns SDL's debug mode on (which debug builds have anyway) with the
    /// Khronos layer underneath.
    pub validation: bool,
    /// Submissions that may be in flight before `present` waits (default 2; 0 counts as 1).
    pub frames_in_flight: u32,
    /// The longest any wait for the GPU may take (default 10 s). XNA has no such bound; here a
    /// frame that has not completed by then fails its call with `DeviceLost` and raises the
    /// device-reset events, rather than hanging the game.
    pub timeout: Duration,
    /// A debug switch for tests: fill every attachment the plan loads or stores with DONT_CARE
    /// with a poison value (magenta colour, depth 0, stencil 0), so a wrong load or store
    /// decision changes pixels even on drivers that keep the old content. Costs a clear per
    /// such attachment; off by default.
    pub poison_undefined: bool,
    /// Which policy compiles the frames: the compiler's own ([`CompilePolicy::Graph`], the
    /// default), or the frame-blind
    /// policy of a driver that sees one call at a time, for benchmarks and tests that measure what
    /// the compiler saves. Both give the same pixels; [`crate::GraphicsDevice::last_plan_cost`]
    /// reports what each plan loads, stores and synchronizes.
    pub compile_policy: CompilePolicy,
    /// Automatic instancing (on by default; not XNA's, which draws every call as it comes): the
    /// frame compiler merges a run of consecutive `BasicEffect` draws that differ only in the
    /// effect's values (World, View, Projection, the material colours, lights, fog) and draw the
    /// same buffers, ranges, states and textures into one instanced draw, each draw's values
    /// becoming its instance's. The game's code does not change; the plan text
    /// ([`DeviceOptions::print_plans`]) shows each merge as `first-last as n instances`, and the
    /// pixels are the same with it off. The Vulkan backend draws a merged run as one draw; the
    /// SDL_gpu backend draws it draw by draw.
    ///
    /// The merge starts at the call: a draw that the frame's last draw could merge with is
    /// recorded as that draw's repeat, keeping only its transform and uniform block, so a run
    /// costs the compiler and the backend one op (`0 as n instances` in the plan text). An
    /// `OcclusionQuery.Begin` between two draws keeps them apart, so a query counts what was
    /// drawn inside its span. A frame capture keeps the repeats as recorded.
    pub auto_instancing: bool,
    /// Transient memory (on by default; not XNA's): a render target's multisample image and
    /// its depth/stencil image are only ever attachments, and in a frame that clears or
    /// discards them at their first use and drops them at their last (a `DiscardContents`
    /// target, whose content XNA discards whenever it is set) their memory matters only between
    /// those uses. Such images of different passes then share memory, as industrial render
    /// graphs alias their transient resources; the compiler's barriers order each one's first
    /// use after whatever used the memory before. A target's multisample and depth/stencil
    /// images then get their memory from the first frame that draws into them. The pixels are
    /// the same with it off; [`crate::GraphicsDevice::transient_memory`] reports what the
    /// frame's transient images take either way. The Vulkan backend shares; SDL_gpu, which
    /// cannot place a texture in given memory, gives each its own.
    pub transient_aliasing: bool,
    /// Compile, lower and submit on a render thread of the device's own (the default), fed by a
    /// queue as long as `frames_in_flight`: `present` returns once its frame is queued, and a
    /// failure of a queued frame is reported by the device's next call (see
    /// [`crate::GraphicsDevice::present`]). Off, every flush compiles and submits on the
    /// calling thread before it returns, as XNA's `Present` does; for tests and benchmarks.
    pub render_thread: bool,
    /// Frames (submissions) the native objects of a dropped render target stay pooled before
    /// they are destroyed (default 60). Once the GPU is done with a dropped target, a new target
    /// of the same size, format, depth format, sample count and usage takes its images instead
    /// of allocating (XNA allocates anew; the observable behaviour is the same). 0 still reuses
    /// a target dropped and replaced between two submissions.
    pub target_pool_frames: u32,
    /// Vulkan: how a sprite batch that alternates textures (recorded as one draw of all of them,
    /// see [`crate::SpriteBatch`]) becomes native draws: by default
    /// ([`TextureIndexing::Auto`]) one native draw, each sprite indexing an array of the batch's
    /// textures, on a device with non-uniform texture indexing, else one per run of sprites
    /// sampling one texture, as on SDL_gpu. The pixels are the same either way; the other modes
    /// exist for tests and benchmarks that compare the paths.
    pub texture_indexing: TextureIndexing,
    /// Time every frame's plan nodes on the GPU with timestamp queries, for profilers and
    /// benchmarks ([`crate::GraphicsDevice::drain_gpu_timings`]); off by default, so a game pays
    /// nothing. A backend without timestamps (SDL_gpu) reports them unavailable
    /// ([`crate::GraphicsDevice::gpu_timing_support`]). Not part of XNA.
    pub gpu_timing: bool,
    /// Vulkan: let a large Deferred sprite batch (a frame of 16,384 sprites or more, not being
    /// captured) write its instances straight into mapped vertex memory the GPU draws from (on
    /// by default): no copy at submission, and on a discrete GPU write-combined memory several
    /// times faster to write than cached memory. Only where a batch of several textures is
    /// drawn at once ([`DeviceOptions::texture_indexing`] resolves to indexing or branches).
    /// Off, sprites are written to host memory and copied at submission. The pixels are the
    /// same either way. Not part of XNA.
    pub mapped_sprites: bool,
    /// Emit every compiled plan as a `tracing` INFO event of target `xnagraph::plan`, as text
    /// (off by default; `XNAGRAPH_PRINT_PLAN=1` through [`DeviceOptions::with_env`]). Not part
    /// of XNA.
    pub print_plans: bool,
    /// Read `XNAGRAPH_CAPTURE=path:N-M` (or `path:N`) when the device is created and capture
    /// those frames as [`crate::GraphicsDevice::capture_frames`] does; unset, nothing is
    /// captured. A value of another form fails the creation with `ArgumentException` naming
    /// `XNAGRAPH_CAPTURE`. Off by default; [`DeviceOptions::with_env`] turns it on. The
    /// variable is read at creation rather than here so that the options stay `Copy`. Not part
    /// of XNA.
    pub capture_from_env: bool,
    /// Read `XNAGRAPH_PIPELINE_CACHE=path` when the device is created and keep the pipeline
    /// cache in that file as [`crate::GraphicsDevice::use_pipeline_cache`] does (a backend
    /// without one fails the creation with `NotSupported`); unset, nothing is read or written.
    /// Off by default; [`DeviceOptions::with_env`] turns it on. Not part of XNA.
    pub pipeline_cache_from_env: bool,
}

impl DeviceOptions {
    /// The default options with the developer variables of the environment applied (see
    /// [`DeviceOptions::with_env`]): what the samples, the tools and the tests use.
    pub fn from_env() -> DeviceOptions {
        DeviceOptions::default().with_env()
    }

    /// These options with the developer variables of the environment applied: `XNAGRAPH_BACKEND`
    /// replaces [`DeviceOptions::backend`] (an unknown name is reported as a `tracing` warning
    /// and ignored), `XNAGRAPH_VALIDATION=1` turns [`DeviceOptions::validation`] on and
    /// `XNAGRAPH_PRINT_PLAN=1` [`DeviceOptions::print_plans`] (neither turns an option off), and
    /// [`DeviceOptions::capture_from_env`] and [`DeviceOptions::pipeline_cache_from_env`] are
    /// turned on so that the device reads `XNAGRAPH_CAPTURE` and `XNAGRAPH_PIPELINE_CACHE` when
    /// it is created. Without this call the library reads none of them.
    pub fn with_env(self) -> DeviceOptions {
        let on = |name: &str| std::env::var_os(name).is_some_and(|v| v == "1");
        DeviceOptions {
            backend: BackendKind::from_env().unwrap_or(self.backend),
            validation: self.validation || on("XNAGRAPH_VALIDATION"),
            print_plans: self.print_plans || on("XNAGRAPH_PRINT_PLAN"),
            capture_from_env: true,
            pipeline_cache_from_env: true,
            ..self
        }
    }
}

impl Default for DeviceOptions {
    fn default() -> Self {
        DeviceOptions {
            backend: BackendKind::default(),
            validation: false,
            frames_in_flight: 2,
            timeout: Duration::from_secs(10),
            poison_undefined: false,
            compile_policy: CompilePolicy::Graph,
            auto_instancing: true,
            transient_aliasing: true,
            render_thread: true,
            target_pool_frames: 60,
            texture_indexing: TextureIndexing::Auto,
            gpu_timing: false,
            mapped_sprites: true,
            print_plans: false,
            capture_from_env: false,
            pipeline_cache_from_env: false,
        }
    }
}
