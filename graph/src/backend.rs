//! The contract between the engine and a backend.
//!
//! A backend creates native textures eagerly (the one exception to "recording only"), executes
//! compiled plans, and frees native objects through its [`crate::retire::RetirementQueue`]. It
//! makes no policy decisions: load/store ops, resolves, mip cascades and barriers all come from
//! the plan.
//!
//! Waiting for the GPU is split from using the backend: a [`SubmissionWaiter`] blocks until a
//! submission completes without borrowing the backend, so the engine waits for a frame with no
//! lock held that resource creation on another thread needs. Before a submit the engine asks
//! [`Backend::submit_blocker`] which earlier submission the frames-in-flight bound needs
//! completed and waits for it that way; after a wait, [`Backend::wait`] only collects (readbacks,
//! retired objects). Every wait ends: one longer than the backend's timeout is
//! [`BackendError::DeviceLost`].

use std::sync::Arc;

use crate::commands::ReadbackId;
use crate::diagnostics::Diagnostics;
use crate::format::{DepthFormat, SurfaceFormat};
use crate::plan::FramePlan;
use crate::present::{PresentStats, PresentTarget};
use crate::resource::{NativeHandle, RetireSink, TextureDesc, TextureState};
use crate::timing::{GpuFrameTiming, GpuTimingSupport};

/// Monotonic index of a submission; 0 means "never submitted".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SubmissionId(pub u64);

/// Failures a backend reports (not XNA); the engine maps them onto XNA's exceptions:
/// `OutOfMemory` to `OutOfVideoMemory`, `DeviceLost` and `NotSupported` to the same names,
/// `Native` to `InvalidOperation`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BackendError {
    /// The device cannot allocate the object.
    OutOfMemory(String),
    /// The device was lost (the engine reports it as `DeviceLost` and marks content lost).
    DeviceLost(String),
    /// The backend cannot do what was asked.
    NotSupported(String),
    /// Anything else the native API reported.
    Native(String),
}

impl std::fmt::Display for BackendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BackendError::OutOfMemory(m) => write!(f, "out of memory: {m}"),
            BackendError::DeviceLost(m) => write!(f, "device lost: {m}"),
            BackendError::NotSupported(m) => write!(f, "not supported: {m}"),
            BackendError::Native(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for BackendError {}

/// What a backend can do with one surface format. The engine refuses, at the call that needs
/// it, what a format cannot do here (XNA's `NotSupportedException`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FormatSupport {
    /// Can be sampled by a shader (a `Texture2D` of this format is usable).
    pub sampled: bool,
    /// Can be rendered to (a `RenderTarget2D` of this format keeps it instead of falling back to
    /// `Color`).
    pub render_target: bool,
    /// Blendable as a colour attachment: a draw with a non-opaque `BlendState` into a target
    /// of this format needs it.
    pub blendable: bool,
    /// Mip levels can be generated from level 0 (linear or nearest blits): a mipmapped render
    /// target of this format needs it.
    pub mip_generation: bool,
}

/// Device limits and optional features the engine validates against (not XNA, whose profiles
/// fix what a device must do; xnagraph also checks what the adapter reports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// Largest width or height of a 2D texture or render target, in texels.
    pub max_texture_dimension: u32,
    /// Largest edge of a cube texture or cube render target, in texels.
    pub max_cube_dimension: u32,
    /// Largest width, height or depth of a volume (`Texture3D`), in texels; 0 when the device
    /// cannot make volumes at all.
    pub max_volume_dimension: u32,
    /// Most colour attachments one pass can write (XNA's HiDef allows four simultaneous render
    /// targets).
    pub max_color_attachments: u32,
    /// Supported multisample counts for colour+depth attachments, as a bit set (bit n ⇒ 2ⁿ).
    pub sample_counts: u32,
    /// `FillMode::WireFrame` can be drawn.
    pub wire_frame: bool,
    /// `TextureFilter::Anisotropic` samples anisotropically (never silently trilinear).
    pub anisotropic_filtering: bool,
    /// Draws with several render targets bound: each attachment has its own blend state (the
    /// stock shaders write the first and leave the others as they are).
    pub independent_blend: bool,
    /// Vertex and index buffers and geometry draws through the stock effects (`BasicEffect`)
    /// are lowered; without it `BasicEffect` and the buffers are `NotSupported` at their
    /// constructors.
    pub geometry: bool,
    /// Vertex elements of XNA's `Byte4`, `Short2` and `Short4` formats are read as unnormalised
    /// floats, as Direct3D 9 reads them; without it a draw whose effect reads one is
    /// `NotSupported`.
    pub scaled_vertex_formats: bool,
    /// A vertex stream can step once per several instances (XNA's `InstanceFrequency` above
    /// 1: Vulkan's `vertexAttributeInstanceRateDivisor`); without it such a binding is
    /// `NotSupported` at `SetVertexBuffers`.
    pub instance_divisor: bool,
    /// The depth/stencil image of a single-sample render target (with
    /// [`Capabilities::sample_readback`], of a multisampled one too, every sample) can be read back
    /// and written by transfers ([`crate::Readback::image`], [`crate::Upload::image`]): a frame
    /// capture snapshots the depth/stencil content of preserving targets, and a replay restores it.
    /// Without it a capture's snapshot lacks that content, and a replay that would load it is
    /// refused (the capture module's `unsnapshotted`).
    pub depth_readback: bool,
    /// The multisample image of a multisampled render target can be read back as sample planes
    /// ([`crate::sample_planes_size`]; a [`crate::Readback::image`] of
    /// [`crate::Image::Samples`]): a frame capture snapshots every sample of preserving
    /// multisampled targets (and, with [`Capabilities::depth_readback`], their depth/stencil
    /// samples). Without it (SDL_gpu cannot sample a multisampled texture) the snapshot lacks
    /// them. What a replay needs is [`Capabilities::sample_restore`].
    pub sample_readback: bool,
    /// The multisample image of a multisampled render target can be written from sample planes
    /// (an [`crate::Upload::image`] of [`crate::Image::Samples`]): a replay restores the samples
    /// a capture's snapshot holds, whichever backend captured them. Without it the replay leaves
    /// them out, and a frame that would load them is refused
    /// (the capture module's `unsnapshotted`). It covers a multisampled target's depth/stencil
    /// samples too (an [`crate::Upload::image`] of [`crate::Image::DepthStencil`] in the encoding
    /// of its planes). Every backend that reads samples back restores them too; SDL_gpu restores
    /// them without reading them back.
    pub sample_restore: bool,
}

impl Capabilities {
    /// The largest supported sample count not above `requested` (0 when `requested` ≤ 1): the
    /// one rounding of a requested multisample count, FNA's `ClosestMSAAPower` (down to a power
    /// of two; 0 and 1 mean no multisampling) followed by the device's support.
    pub fn clamp_sample_count(&self, requested: u32) -> u32 {
        if requested <= 1 {
            return 0;
        }
        let mut count = 1u32 << (31 - requested.leading_zeros());
        while count > 1 && self.sample_counts & count == 0 {
            count >>= 1;
        }
        if count <= 1 {
            0
        } else {
            count
        }
    }
}

/// Who an adapter is: what XNA's `GraphicsAdapter` reports about it, and the identifier a
/// backend recognises it by again when a device is created on it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AdapterIdentity {
    /// The adapter's own name, as its driver reports it (XNA's `Description`).
    pub description: String,
    /// The PCI vendor id (XNA's `VendorId`); 0 where the native API does not report it.
    pub vendor_id: u32,
    /// The vendor's device id (XNA's `DeviceId`); 0 where the native API does not report it.
    pub device_id: u32,
    /// The driver's unique identifier of the adapter (Vulkan's `deviceUUID`); all zeros where
    /// the native API has none.
    pub uuid: [u8; 16],
}

/// One adapter a backend can create a device on, with what a device made on it could do:
/// the data `GraphicsAdapter`'s queries answer from, measured as the backend measures it for
/// a device (so an answer before creation and the device's behaviour after agree).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterInfo {
    /// Who the adapter is.
    pub identity: AdapterIdentity,
    /// The limits and features a device on it has ([`Backend::capabilities`]).
    pub capabilities: Capabilities,
    /// What it can do with each surface format, in [`SurfaceFormat::ALL`]'s order
    /// ([`Backend::format_support`]).
    pub formats: Vec<(SurfaceFormat, FormatSupport)>,
    /// The depth format allocated for each request, indexed by `DepthFormat as usize`
    /// ([`Backend::applied_depth_format`]).
    pub applied_depth: [DepthFormat; 4],
}

impl AdapterInfo {
    /// The information of the adapter `backend` runs on: its identity, capabilities, format
    /// table and depth substitutions, as a device on it reports them.
    pub fn of(backend: &dyn Backend) -> AdapterInfo {
        AdapterInfo {
            identity: backend.adapter_identity(),
            capabilities: backend.capabilities().clone(),
            formats: SurfaceFormat::ALL.iter().map(|&f| (f, backend.format_support(f))).collect(),
            applied_depth: [
                DepthFormat::None,
                backend.applied_depth_format(DepthFormat::Depth16),
                backend.applied_depth_format(DepthFormat::Depth24),
                backend.applied_depth_format(DepthFormat::Depth24Stencil8),
            ],
        }
    }

    /// What the adapter can do with `format` (nothing for a format missing from the table).
    pub fn format_support(&self, format: SurfaceFormat) -> FormatSupport {
        self.formats.iter().find(|(f, _)| *f == format).map_or_else(Default::default, |(_, s)| *s)
    }
}

/// The memory of the last submitted frame's transient images (multisample and depth/stencil
/// images whose content neither enters nor leaves the frame: [`crate::compile::transient`]), not
/// XNA. Without sharing, each takes memory of its own, `unaliased_bytes` in all; shared, they
/// take the device's transient heaps, `shared_bytes`, where images whose uses do not overlap
/// take the same bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TransientMemory {
    /// The frame's transient images.
    pub images: usize,
    /// What they take, each in memory of its own (the sum of their sizes).
    pub unaliased_bytes: u64,
    /// The size of the shared heaps they are placed in: 0 where the device does not share
    /// (`DeviceOptions::transient_aliasing` off, or a backend that cannot alias memory).
    pub shared_bytes: u64,
}

impl TransientMemory {
    /// The memory the frame's transient images hold: the shared heaps where they are shared,
    /// else the sum of their own allocations.
    pub fn held_bytes(&self) -> u64 {
        if self.shared_bytes > 0 {
            self.shared_bytes
        } else {
            self.unaliased_bytes
        }
    }
}

/// Live native objects, for leak tests (not XNA).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveObjects {
    /// Texture states whose native objects are not yet freed (including those awaiting a fence).
    pub textures: usize,
    /// Native images (a multisampled, depth-buffered target counts three).
    pub images: usize,
    /// Native buffers (vertex, uniform, staging and readback buffers).
    pub buffers: usize,
    /// Custom effects' native stages and programs, and occlusion queries' native objects, not
    /// yet freed (including those awaiting a fence).
    pub effects: usize,
    /// Handles dropped by the engine but not yet freed because the GPU may still use them.
    pub awaiting_retirement: usize,
    /// Presentation objects of a device with a window: surface, swapchain, its image views and
    /// semaphores.
    pub swapchain_objects: usize,
    /// Native images of dropped render targets the backend keeps for reuse by a new target of
    /// the same description (not counted in `images`).
    pub pooled_images: usize,
    /// Native images allocated since the backend was created (an image taken from the pool
    /// is not allocated again).
    pub images_allocated: u64,
    /// Graphics pipelines built and cached (one per state combination drawn, never per draw).
    /// They live as long as the device, so a leak check leaves them out
    /// ([`LiveObjects::resources`]).
    pub pipelines: usize,
}

impl LiveObjects {
    /// The counts without the device-lifetime caches (`pipelines`) and the running count of
    /// images ever allocated: what must fall to zero once every resource is dropped and the GPU
    /// is idle.
    pub fn resources(self) -> LiveObjects {
        LiveObjects { pipelines: 0, images_allocated: 0, ..self }
    }
}

/// Blocks until a submission has completed, without borrowing the backend that made it.
pub trait SubmissionWaiter: Send + Sync {
    /// Returns once `submission` (and every earlier one) has completed on the GPU. A lost device,
    /// or a wait longer than the backend's timeout, is [`BackendError::DeviceLost`].
    fn wait_for(&self, submission: SubmissionId) -> Result<(), BackendError>;
}

/// A native API that executes compiled plans.
/// The engine owns one per `GraphicsDevice` and calls it only to create textures and at a flush: a
/// backend never sees an individual draw or clear as it is recorded. It executes what the plan says
/// (load/store ops, resolves, mip cascades, barriers) and decides nothing of its own; a capability
/// it lacks is `BackendError::NotSupported`, never an operation skipped in silence.
pub trait Backend: Send {
    /// The adapter in use, as a human-readable line (e.g. "llvmpipe (CPU)").
    fn adapter_name(&self) -> &str;

    /// Who the adapter in use is ([`AdapterIdentity`]). The default names it by
    /// [`Backend::adapter_name`] with zero ids and uuid, for a backend whose native API reports
    /// neither.
    fn adapter_identity(&self) -> AdapterIdentity {
        AdapterIdentity {
            description: self.adapter_name().to_owned(),
            vendor_id: 0,
            device_id: 0,
            uuid: [0; 16],
        }
    }

    /// The device limits the engine validates XNA's arguments against.
    fn capabilities(&self) -> &Capabilities;

    /// What the backend can do with `format`; the engine consults it when a texture or render
    /// target of that format is created.
    fn format_support(&self, format: SurfaceFormat) -> FormatSupport;

    /// The depth format this backend will really allocate for a request.
    fn applied_depth_format(&self, requested: DepthFormat) -> DepthFormat;

    /// Creates the native objects of a texture (eager; content undefined until written).
    fn create_texture(&mut self, desc: &TextureDesc) -> Result<NativeHandle, BackendError>;

    /// Creates a native vertex or index buffer of `desc.size` bytes (contents undefined until
    /// written), at once, so that an out-of-memory surfaces at the constructor.
    fn create_buffer(
        &mut self,
        desc: &crate::buffer::BufferDesc,
    ) -> Result<NativeHandle, BackendError>;

    /// Creates the native fragment stage of a custom effect from its SPIR-V (already checked
    /// against the stock sprite pipeline layout by the engine), writing `outputs` colour outputs.
    /// The handle is unique among everything this backend creates; its
    /// [`crate::EffectState`] retires it through [`Backend::retire_sink`] like a texture's.
    fn create_effect(&mut self, spirv: &[u32], outputs: u32) -> Result<NativeHandle, BackendError>;

    /// Creates the native program of a custom geometry effect's pass from its two stages'
    /// SPIR-V (already reflected and checked by the engine) and the resources it binds. The
    /// handle is unique among everything this backend creates and retires like an effect's.
    /// A backend without custom geometry programs answers `NotSupported`.
    fn create_geometry_effect(
        &mut self,
        vertex: &[u32],
        fragment: &[u32],
        resources: &crate::custom::CustomResources,
    ) -> Result<NativeHandle, BackendError> {
        let _ = (vertex, fragment, resources);
        Err(BackendError::NotSupported("custom geometry effects".into()))
    }

    /// Creates the native object of an occlusion query (XNA's `OcclusionQuery`), whose handle
    /// retires like an effect's. A backend without occlusion queries answers `NotSupported`.
    fn create_query(&mut self) -> Result<NativeHandle, BackendError> {
        Err(BackendError::NotSupported("occlusion queries".into()))
    }

    /// The samples the last submitted span of `query` counted, once the GPU has finished it;
    /// `None` while it has not (never waits).
    fn query_result(&mut self, query: NativeHandle) -> Result<Option<u64>, BackendError> {
        let _ = query;
        Err(BackendError::NotSupported("occlusion queries".into()))
    }

    /// The sink every texture and effect state created by this backend retires its handle into.
    fn retire_sink(&self) -> RetireSink;

    /// The waiter for this backend's submissions; one shared object, usable from any thread
    /// while others use the backend.
    fn waiter(&self) -> Arc<dyn SubmissionWaiter>;

    /// The submission that must complete before the next [`Backend::submit`] can reuse its
    /// resources (the frames-in-flight bound), when it has not been seen to complete yet. A
    /// caller waits for it through [`Backend::waiter`], not holding the backend, then submits.
    fn submit_blocker(&self) -> Option<SubmissionId>;

    /// Where the recorder gets sprite arenas this backend draws in place, written where the
    /// GPU reads them (see [`crate::sprite_arena`]); `None` (the default): the recorder writes
    /// vectors, which the backend copies at submission.
    fn sprite_memory(&self) -> Option<std::sync::Arc<dyn crate::SpriteMemorySource>> {
        None
    }

    /// Lowers and submits a plan. It waits (within the timeout) only for a
    /// [`Backend::submit_blocker`] the caller has not waited for. The caller drops the plan
    /// afterwards; handles it releases are retired against this submission. On an error nothing
    /// of the plan has executed.
    fn submit(&mut self, plan: &FramePlan) -> Result<SubmissionId, BackendError>;

    /// Builds the pipelines `requests` name (see [`crate::pipeline_request`]) into the cache
    /// lowering reads, so a frame that draws them builds none. A backend without a pipeline
    /// cache builds nothing here.
    fn prepare_pipelines(
        &mut self,
        requests: &[crate::PipelineRequest],
    ) -> Result<(), BackendError> {
        let _ = requests;
        Ok(())
    }

    /// Pipelines built so far, on request and at lowering (zero for a backend without a
    /// pipeline cache).
    fn pipeline_stats(&self) -> crate::PipelineStats {
        crate::PipelineStats::default()
    }

    /// Collects what `submission` completes (readbacks, retired objects), waiting for it within
    /// the timeout when the caller did not wait through the waiter first.
    fn wait(&mut self, submission: SubmissionId) -> Result<(), BackendError>;

    /// The bytes of a readback of a completed submission (tightly packed), once.
    fn take_readback(&mut self, id: ReadbackId) -> Option<Vec<u8>>;

    /// Waits for the GPU and frees everything retired so far.
    fn wait_idle(&mut self) -> Result<(), BackendError>;

    /// Live native objects right now, for leak tests.
    fn live_objects(&self) -> LiveObjects;

    /// The memory the last submitted frame's transient images took ([`TransientMemory`]);
    /// nothing on a backend that does not report it.
    fn transient_memory(&self) -> TransientMemory {
        TransientMemory::default()
    }

    /// This device's validation messages and live native object count. A backend without a
    /// validation layer reports none; the handle outlives the backend, so teardown is checkable.
    fn diagnostics(&self) -> Diagnostics {
        Diagnostics::default()
    }

    /// What `back_buffer`'s frame is presented to now (see [`crate::present`]), asked before each
    /// compile: [`PresentTarget::Offscreen`] for a backend without a window. A backend with one
    /// follows the window here (recreating its swapchain when the window or the back buffer
    /// changed size, or it went out of date).
    fn present_target(
        &mut self,
        back_buffer: &TextureState,
    ) -> Result<PresentTarget, BackendError> {
        let _ = back_buffer;
        Ok(PresentTarget::Offscreen)
    }

    /// Paces presents: immediate, or with the vertical retrace. Without a window nothing is
    /// presented, so there is nothing to pace.
    fn set_present_immediate(&mut self, immediate: bool) {
        let _ = immediate;
    }

    /// Whether presents to the window can be paced as asked (`immediate`: at once, else with
    /// the vertical retrace), asked where XNA sets `PresentationInterval` (device creation,
    /// `Reset`); a pacing the window lacks is `NotSupported`. Always fine without a window.
    fn check_present_pacing(&self, immediate: bool) -> Result<(), BackendError> {
        let _ = immediate;
        Ok(())
    }

    /// What a backend with a window has presented; `None` without a window.
    fn present_stats(&self) -> Option<PresentStats> {
        None
    }

    /// Test support (a lost window): `false` releases the window from the GPU device so that
    /// the next present fails with the native API's error; `true` claims the same window
    /// again. `NotSupported` on a backend without that notion (Vulkan) or without a window.
    fn set_window_claimed(&mut self, claimed: bool) -> Result<(), BackendError> {
        let _ = claimed;
        Err(BackendError::NotSupported(
            "releasing the window from the device is not available on this backend".into(),
        ))
    }

    /// Keeps the device's pipeline cache in the file at `path` from now on: what the file holds
    /// is merged into the cache now, when the same device and driver wrote it and it is whole
    /// (anything else is ignored), and the cache is written back to the file when the backend
    /// is dropped. Returns the bytes of cache data read (0: none). A backend without a pipeline
    /// cache it can keep answers [`BackendError::NotSupported`].
    fn use_pipeline_cache(&mut self, path: &std::path::Path) -> Result<usize, BackendError> {
        let _ = path;
        Err(BackendError::NotSupported("this backend keeps no pipeline cache between runs".into()))
    }

    /// Turns GPU timing of later submissions on or off (off when a backend is created: a game
    /// pays nothing for it) and says whether this backend can time them at all. A backend
    /// without timestamps answers [`GpuTimingSupport::Unavailable`] with the reason and never
    /// reports; its callers measure frames fence to fence. See [`crate::timing`].
    fn set_gpu_timing(&mut self, on: bool) -> GpuTimingSupport {
        let _ = on;
        GpuTimingSupport::Unavailable("this backend has no GPU timestamps".into())
    }

    /// The GPU times of timed submissions the backend has seen complete since the last call,
    /// in submission order. Never waits for the GPU (a backend may check, without blocking,
    /// whether submissions in flight have completed): a submission still executing is reported
    /// by a later call, once it has completed.
    fn drain_gpu_timings(&mut self) -> Vec<GpuFrameTiming> {
        Vec::new()
    }

    /// Reports of timed submissions the backend dropped undrained since it was created: a
    /// backend keeps a bounded number for [`Backend::drain_gpu_timings`] and drops the oldest
    /// past it, so a caller that never drains holds bounded memory. 0 without GPU timing.
    fn dropped_gpu_timings(&self) -> u64 {
        0
    }
}

#[cfg(test)]
mod tests {
    use crate::null::{NullBackend, NullConfig};

    #[test]
    fn sample_count_rounds_down_to_a_supported_power_of_two_and_one_means_none() {
        let mut null = NullBackend::new(NullConfig::default());
        let caps = null.capabilities_mut();
        caps.sample_counts = 1 | 2 | 4 | 16;
        let rounded = [0, 1, 2, 3, 4, 7, 8, 16, 31, 64].map(|n| caps.clamp_sample_count(n));
        assert_eq!(rounded, [0, 0, 2, 2, 4, 4, 4, 16, 16, 16]);
        caps.sample_counts = 1;
        assert_eq!(caps.clamp_sample_count(8), 0, "a device without multisampling");
    }
}
