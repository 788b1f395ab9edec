//! Command-line values the benchmark binaries share (`xnagraph-stress`, `xnagraph-replay`).

/// `--backend`: the backend a run creates its device on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendChoice {
    /// Vulkan 1.3 (ash + vk-mem).
    Vulkan,
    /// SDL 3.4's GPU API (no GPU timestamps: frame time is fence to fence).
    Sdlgpu,
}

/// A switch given as `on` or `off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OnOff {
    On,
    Off,
}
