//! How a [`VulkanBackend`](crate::VulkanBackend) is created: validation, the frame ring's depth,
//! the GPU wait limit, test switches (poisoned DONT_CARE content, GPU timing) and how sprite
//! draws of several textures are drawn.

use std::path::PathBuf;
use std::time::Duration;

/// How the backend is created.
#[derive(Clone, Debug)]
pub struct VulkanConfig {
    /// Enable Khronos' validation layer with synchronization validation and collect its warnings
    /// and errors into this device's [`Diagnostics`](xnagraph_graph::Diagnostics). The backend
    /// reads no environment variable; the engine's `DeviceOptions::with_env` maps
    /// `XNAGRAPH_VALIDATION=1` onto this field for games that opt in.
    pub validation: bool,
    /// Submissions that may be executing at once (at least 1; default 2).
    pub frames_in_flight: u32,
    /// The longest any wait for the GPU may take (default 10 s); a submission that has not
    /// completed by then is reported as
    /// [`BackendError::DeviceLost`](xnagraph_graph::BackendError::DeviceLost).
    pub timeout: Duration,
    /// A debug switch for tests: every attachment the plan loads with DONT_CARE starts as the
    /// poison value, and every attachment it stores with DONT_CARE is overwritten with it after
    /// the pass (magenta colour, depth 0, stencil 0). Drivers that honour neither op (lavapipe)
    /// then show a wrong load or store decision in pixels.
    pub poison_undefined: bool,
    /// Submissions a dropped render target's native objects stay pooled for reuse by a new
    /// target of the same description before they are destroyed (default 60).
    pub pool_keep_submissions: u32,
    /// How a sprite draw of several textures (`xnagraph_graph::DrawTextures`) is drawn (default
    /// [`TextureIndexing::Auto`]); the pixels are the same either way.
    pub texture_indexing: TextureIndexing,
    /// Time every plan node on the GPU from the first submission (see
    /// [`Backend::set_gpu_timing`](xnagraph_graph::Backend::set_gpu_timing); off by default).
    pub gpu_timing: bool,
    /// Let large sprite batches write their instances straight into mapped vertex memory that
    /// draws read in place (see `Backend::sprite_memory`; default on), where a draw of several
    /// textures is drawn at once ([`VulkanConfig::texture_indexing`] resolves to indexing or
    /// branches: split into runs, it would read every sprite back). Off, every frame's sprites
    /// are copied into the frame's vertex buffer at submission; the pixels are the same either
    /// way.
    pub mapped_sprites: bool,
    /// Let the multisample and depth/stencil images whose content neither enters nor leaves a
    /// frame share memory where their uses do not overlap (default on; see `crate::transient`).
    /// On, a target's multisample and depth/stencil images get memory from the first frame that
    /// uses them, as the plan's transient lists (`FramePlan::transients`, the compiler's) say:
    /// a plan built by hand, without them, must not name such an image. The pixels are the same
    /// either way.
    pub transient_aliasing: bool,
    /// A file that keeps the device's pipeline cache between runs (default none): read at
    /// creation when it was written by the same device and driver and is whole (see
    /// `pipeline::cache_file`; anything else is ignored, a damaged file with a `warn` event),
    /// and written when the backend is dropped, so a game's second run builds no pipeline its
    /// first run built.
    pub pipeline_cache: Option<PathBuf>,
    /// The adapter to create the device on, by its `deviceUUID` (an
    /// [`AdapterIdentity::uuid`](xnagraph_graph::AdapterIdentity::uuid) from [`crate::adapters`]);
    /// `None` (the default): the best-ranked usable adapter, the first [`crate::adapters`]
    /// lists. An adapter that is absent or unusable (for a window: cannot present to it) is
    /// [`BackendError::NotSupported`](xnagraph_graph::BackendError::NotSupported).
    pub adapter: Option<[u8; 16]>,
}

impl Default for VulkanConfig {
    fn default() -> Self {
        VulkanConfig {
            validation: false,
            frames_in_flight: 2,
            timeout: Duration::from_secs(10),
            poison_undefined: false,
            pool_keep_submissions: 60,
            texture_indexing: TextureIndexing::Auto,
            gpu_timing: false,
            mapped_sprites: true,
            transient_aliasing: true,
            pipeline_cache: None,
            adapter: None,
        }
    }
}

/// How a sprite draw of several textures becomes native draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
