//! `xnagraph-fuzz-sequence`: a bounded run of the API sequence fuzzer (see
//! `xnagraph_benches::sequence`): generated sequences of XNA calls checked against the model,
//! under both compile policies, and through a capture and its replay. Prints each finding (its
//! seed and its shrunk sequence as Rust calls) on stderr and a JSON summary on stdout. Exit
//! status 1 when anything was found. `benches/fuzz-sequence.sh` runs it for longer.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use xnagraph::BackendKind;
use xnagraph_benches::sequence::{fuzz, Avoid, Bounds, Config, Sabotage};

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Backend {
    Vulkan,
    Sdlgpu,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Break {
    /// A DiscardContents bind keeps content in the model.
    DiscardKeeps,
    /// Disposed textures stay writable in the model.
    DisposedWritable,
    /// One texel of the frame-blind run's readbacks is changed.
    CorruptFrameBlind,
    /// One pixel of the replay's final frame is changed.
    CorruptReplay,
}

/// Fuzzes sequences of XNA calls.
#[derive(Parser, Debug)]
#[command(name = "xnagraph-fuzz-sequence")]
struct Cli {
    /// Stop after this many seconds.
    #[arg(long, default_value_t = 120)]
    seconds: u64,
    /// Stop after this many sequences (whichever comes first).
    #[arg(long)]
    sequences: Option<u64>,
    /// The first sequence's seed (sequence k has seed + k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The backend (default: XNAGRAPH_BACKEND's, else Vulkan).
    #[arg(long, value_enum)]
    backend: Option<Backend>,
    /// Khronos validation (SDL_gpu: debug mode); any message is a finding.
    #[arg(long)]
    validation: bool,
    /// Generate the operations of the known defects too (see `sequence::known`).
    #[arg(long)]
    include_known: bool,
    /// Seconds spent shrinking each finding.
    #[arg(long, default_value_t = 60)]
    shrink_seconds: u64,
    /// Only the graph-policy run (no frame-blind run, capture or replay).
    #[arg(long)]
    single_run: bool,
    /// Break one model rule on purpose: the run must then report findings.
    #[arg(long, value_enum)]
    sabotage: Option<Break>,
    /// Where capture files are written.
    #[arg(long, default_value = "target/fuzz-sequence")]
    scratch: PathBuf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let backend = match cli.backend {
        Some(Backend::Vulkan) => BackendKind::Vulkan,
        Some(Backend::Sdlgpu) => BackendKind::SdlGpu,
        None => BackendKind::from_env().unwrap_or_default(),
    };
    let name = if backend == BackendKind::SdlGpu { "sdlgpu" } else { "vulkan" };
    let config = Config {
        backend,
        validation: cli.validation,
        sabotage: match cli.sabotage {
            None => Sabotage::None,
            Some(Break::DiscardKeeps) => Sabotage::DiscardKeeps,
            Some(Break::DisposedWritable) => Sabotage::DisposedWritable,
            Some(Break::CorruptFrameBlind) => Sabotage::CorruptFrameBlind,
            Some(Break::CorruptReplay) => Sabotage::CorruptReplay,
        },
        scratch: cli.scratch,
        second_run: !cli.single_run,
    };
    let bounds = Bounds {
        first_seed: cli.seed,
        sequences: cli.sequences,
        time: Some(Duration::from_secs(cli.seconds)),
        avoid: if cli.include_known { Avoid::NOTHING } else { Avoid::LISTED },
        shrink: Duration::from_secs(cli.shrink_seconds),
    };
    let summary = fuzz(config, &bounds, |f| {
        eprintln!("finding, {}", f.finding.report(Some(f.seed)));
    });
    println!("{}", summary.json(name));
    if summary.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
