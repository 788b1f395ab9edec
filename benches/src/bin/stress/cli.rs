//! The command line of `xnagraph-stress`: the options every scenario shares and each
//! scenario's own (`--help` prints them).

use clap::{Parser, Subcommand, ValueEnum};
use xnagraph_benches::cli::{BackendChoice, OnOff};

#[derive(Parser)]
#[command(
    name = "xnagraph-stress",
    about = "Deterministic multi-frame stress scenarios of xnagraph"
)]
pub(crate) struct Cli {
    /// Frames to run (default: the scenario's own).
    #[arg(long, global = true)]
    pub(crate) frames: Option<u32>,
    /// The generator's seed: the same seed gives the same frames.
    #[arg(long, global = true, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Write an SVG plot of the frame times to this file.
    #[arg(long, global = true, value_name = "F.svg")]
    pub(crate) plot: Option<std::path::PathBuf>,
    /// Turn on the Khronos validation layer (a validation message fails the run).
    #[arg(long, global = true)]
    pub(crate) validation: bool,
    /// Submissions in flight at once (1 to 16).
    #[arg(long, global = true, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub(crate) frames_in_flight: u32,
    /// Render on the game's thread instead of the device's render thread.
    #[arg(long, global = true)]
    pub(crate) no_render_thread: bool,
    /// Print only the scenario's samples and the summary, not a line per frame.
    #[arg(long, global = true)]
    pub(crate) quiet: bool,
    /// How a sprite batch that alternates textures becomes native draws on Vulkan: one draw
    /// where the device indexes textures non-uniformly, else one per run (auto); one per run
    /// (runs); one draw through branches on any device (branches).
    #[arg(long, global = true, value_enum, default_value_t = Indexing::Auto)]
    pub(crate) texture_indexing: Indexing,
    /// Whether large sprite batches write straight into mapped vertex memory the GPU draws from
    /// (on, the default) or into host memory copied at submission (off); Vulkan only.
    #[arg(long, global = true, value_enum, default_value_t = OnOff::On)]
    pub(crate) mapped_sprites: OnOff,
    /// Whether the compiler merges runs of BasicEffect draws that differ only in the effect's
    /// values into instanced draws (on, the default: `DeviceOptions::auto_instancing`).
    #[arg(long, global = true, value_enum, default_value_t = OnOff::On)]
    pub(crate) auto_instancing: OnOff,
    /// Whether the multisample and depth/stencil images whose content neither enters nor
    /// leaves a frame share memory where their passes do not overlap (on, the default:
    /// `DeviceOptions::transient_aliasing`). `post-chain` runs its graph policy both ways.
    #[arg(long, global = true, value_enum, default_value_t = OnOff::On)]
    pub(crate) transient_aliasing: OnOff,
    /// The longest wait for the GPU before the device is reported lost, in seconds (a CPU
    /// rasteriser needs long for large scenarios).
    #[arg(long, global = true, default_value_t = 10)]
    pub(crate) timeout_s: u64,
    /// The backend that lowers the frames.
    #[arg(long, global = true, value_enum, default_value_t = BackendChoice::Vulkan)]
    pub(crate) backend: BackendChoice,
    /// GPU timestamps around every plan node, for each frame's GPU time (Vulkan; SDL_gpu has
    /// none, its frames are timed fence to fence).
    #[arg(long, global = true, value_enum, default_value_t = OnOff::On)]
    pub(crate) timestamps: OnOff,
    /// Present every frame into a window of the scenario's back-buffer size instead of
    /// running headless; closing the window ends the run with the figures so far.
    #[arg(long, global = true)]
    pub(crate) window: bool,
    /// With --window: after the last frame, keep the window open showing it until it is
    /// closed (the summary is printed first).
    #[arg(long, global = true, requires = "window")]
    pub(crate) keep_open: bool,
    /// Headless runs: write the back buffer after the last frame as an RGBA PNG (a windowed
    /// run draws its frames straight into the window's images, which cannot be read back).
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "window")]
    pub(crate) png: Option<std::path::PathBuf>,
    #[command(subcommand)]
    pub(crate) scenario: Command,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Indexing {
    Auto,
    Runs,
    Branches,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Sort {
    Deferred,
    Texture,
    BackToFront,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Mode {
    Draws,
    Instanced,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// The bevymark workload at 1920x1080.
    Sprites {
        /// Distinct textures, taken round-robin.
        #[arg(long, default_value_t = 1, value_parser = textures_arg)]
        textures: u32,
        /// The SpriteBatch sort mode.
        #[arg(long, value_enum, default_value_t = Sort::Deferred)]
        sort: Sort,
        /// Waves added up front.
        #[arg(long, default_value_t = 160)]
        waves: u32,
        /// Sprites per wave.
        #[arg(long, default_value_t = 1000)]
        per_wave: u32,
        /// Add a wave at a time until a frame takes longer than 16.7 ms; report the count.
        #[arg(long)]
        ramp: bool,
        /// Give the textures full mip chains (bevymark's have none), so minified birds sample
        /// a level near their size.
        #[arg(long)]
        mipmaps: bool,
        /// Add this many waves at once in the update of frame 10 (a sudden spike: that frame
        /// outgrows the sprite memory made for the frames before it).
        #[arg(long, default_value_t = 0)]
        burst: u32,
        /// After the frames, draw the last frame's sprites in a hand-written ash program on
        /// this adapter (same shaders, textures, sampler, blend) and report its GPU time.
        #[arg(long)]
        ash_reference: bool,
    },
    /// Short-lived render targets every frame (default 10,000 frames); fails past its bounds.
    RtChurn,
    /// A 4x HDR scene, a downsample chain and bloom, under both compile policies.
    PostChain {
        #[arg(long, default_value_t = 3840, value_parser = clap::value_parser!(i32).range(32..=4096))]
        width: i32,
        #[arg(long, default_value_t = 2160, value_parser = clap::value_parser!(i32).range(32..=4096))]
        height: i32,
        /// Sprites in the scene.
        #[arg(long, default_value_t = 400)]
        sprites: u32,
        /// The device's memory bandwidth in GB/s, for the bound the plan's bytes set on GPU
        /// time (default: the NVIDIA H200's 4.8 TB/s).
        #[arg(long, default_value_t = 4800.0)]
        bandwidth_gbs: f64,
        /// Skip the fill probe (a hand-written ash program timing the frame's passes on this
        /// adapter before the frames), so the summary has no fill or hardware floor.
        #[arg(long)]
        no_fill_probe: bool,
        /// Draw a planar reflection of the sprites first, into a second 4x HDR target with
        /// depth that the scene samples (no fill probe: it times the frame without it).
        #[arg(long)]
        reflection: bool,
    },
    /// SetData into dynamic textures every frame, against memcpy.
    Uploads {
        /// MiB streamed per frame.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=64))]
        mib: u32,
    },
    /// Targets of many sizes, mips, multiple render targets and cube faces every frame.
    Mixed,
    /// Lit cubes over a depth buffer, each its own World and colour, one shared mesh: 3D
    /// draw-call throughput.
    Cubes {
        /// Cubes drawn every frame.
        #[arg(long, default_value_t = 1000)]
        cubes: u32,
        /// One BasicEffect draw per cube (XNA's way), or one instanced draw of a custom effect
        /// with World and the colour per instance.
        #[arg(long, value_enum, default_value_t = Mode::Draws)]
        mode: Mode,
        #[arg(long, default_value_t = 1920, value_parser = clap::value_parser!(i32).range(16..=4096))]
        width: i32,
        #[arg(long, default_value_t = 1080, value_parser = clap::value_parser!(i32).range(16..=4096))]
        height: i32,
        /// After the frames, draw the last frame again in a hand-written ash program on this
        /// adapter (one draw per cube at dynamic uniform offsets, or one instanced draw), report
        /// its CPU and GPU time and compare its pixels with the engine's.
        #[arg(long)]
        ash_reference: bool,
    },
}

fn textures_arg(s: &str) -> Result<u32, String> {
    match s {
        "1" => Ok(1),
        "12" => Ok(12),
        _ => Err(format!("{s} textures: 1 or 12")),
    }
}
