//! The contract between the engine and a backend.
//!
//! A backend creates native textures eagerly (the one exception to "recording only"), executes
//! compiled plans, and frees native objects through its [`crate::retire::RetirementQueue`]. It
//! makes no policy decisions: load/store ops, resolves, mip cascades and barriers all come from
//! the plan.

use crate::commands::ReadbackId;
use crate::diagnostics::Diagnostics;
use crate::format::{DepthFormat, SurfaceFormat};
use crate::plan::FramePlan;
use crate::resource::{NativeHandle, RetireSink, TextureDesc};

/// Monotonic index of a submission; 0 means "never submitted".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SubmissionId(pub u64);

/// Failures a backend reports; the engine maps them onto XNA's exceptions.
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
    /// A texture of this format can be created, uploaded, sampled and read back.
    pub sampled: bool,
    /// A render target of this format can be created.
    pub render_target: bool,
    /// Blendable as a colour attachment: a draw with a non-opaque `BlendState` into a target
    /// of this format needs it.
    pub blendable: bool,
    /// Mip levels can be generated from level 0 (linear or nearest blits): a mipmapped render
    /// target of this format needs it.
    pub mip_generation: bool,
}

/// Device limits and optional features the engine validates against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// The largest width or height of a 2D texture or render target.
    pub max_texture_dimension: u32,
    /// The largest edge of a cube texture or render target.
    pub max_cube_dimension: u32,
    /// How many colour attachments one pass can bind.
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
}

impl Capabilities {
    /// The largest supported sample count not above `requested` (0 when `requested` ≤ 1).
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

/// Live native objects, for leak tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveObjects {
    /// Texture states whose native objects are not yet freed (including those awaiting a fence).
    pub textures: usize,
    /// Native images (a multisampled, depth-buffered target counts three).
    pub images: usize,
    pub buffers: usize,
    /// Handles dropped by the engine but not yet freed because the GPU may still use them.
    pub awaiting_retirement: usize,
}

pub trait Backend: Send {
    /// The adapter in use, as a human-readable line (e.g. "llvmpipe (CPU)").
    fn adapter_name(&self) -> &str;

    fn capabilities(&self) -> &Capabilities;

    fn format_support(&self, format: SurfaceFormat) -> FormatSupport;

    /// The depth format this backend will really allocate for a request.
    fn applied_depth_format(&self, requested: DepthFormat) -> DepthFormat;

    /// Creates the native objects of a texture (eager; content undefined until written).
    fn create_texture(&mut self, desc: &TextureDesc) -> Result<NativeHandle, BackendError>;

    /// The sink every texture state created by this backend retires its handle into.
    fn retire_sink(&self) -> RetireSink;

    /// Lowers and submits a plan. May wait for the oldest frame in flight first. The caller
    /// drops the plan afterwards; handles it releases are retired against this submission.
    fn submit(&mut self, plan: &FramePlan) -> Result<SubmissionId, BackendError>;

    /// Blocks until `submission` has completed, then frees whatever that retires.
    fn wait(&mut self, submission: SubmissionId) -> Result<(), BackendError>;

    /// The bytes of a readback of a completed submission (tightly packed), once.
    fn take_readback(&mut self, id: ReadbackId) -> Option<Vec<u8>>;

    /// Waits for the GPU and frees everything retired so far.
    fn wait_idle(&mut self) -> Result<(), BackendError>;

    fn live_objects(&self) -> LiveObjects;

    /// This device's validation messages and live native object count. A backend without a
    /// validation layer reports none; the handle outlives the backend, so teardown is checkable.
    fn diagnostics(&self) -> Diagnostics {
        Diagnostics::default()
    }
}
