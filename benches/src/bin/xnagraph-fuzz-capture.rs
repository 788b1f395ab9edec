//! `xnagraph-fuzz-capture`: a bounded fuzz run of the capture reader (see
//! `xnagraph_benches::fuzz`), seeded from a corpus of real captures; prints a JSON summary and
//! writes each finding's input to the findings directory. Exit status 1 when anything was
//! found. `benches/fuzz.sh` runs it with the committed corpus.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use xnagraph_benches::alloc_count::CountingAllocator;
use xnagraph_benches::fuzz::{load_corpus, run};
use xnagraph_benches::{json, number, rounded};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Fuzzes the capture reader.
#[derive(Parser, Debug)]
#[command(name = "xnagraph-fuzz-capture")]
struct Cli {
    /// The directory of seed captures.
    #[arg(long, default_value = "benches/fuzz/corpus")]
    corpus: PathBuf,
    /// Where each finding's input is written.
    #[arg(long, default_value = "target/fuzz-findings")]
    findings: PathBuf,
    /// Stop after this many seconds.
    #[arg(long, default_value_t = 180)]
    seconds: u64,
    /// Stop after this many executions (whichever comes first).
    #[arg(long)]
    executions: Option<u64>,
    /// The generator's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let corpus = match load_corpus(&cli.corpus) {
        Ok(c) if !c.is_empty() => c,
        Ok(_) => {
            eprintln!("{}: no seed captures", cli.corpus.display());
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("{}: {e}", cli.corpus.display());
            return ExitCode::from(2);
        }
    };
    // Panics are caught and reported as findings; their default message would flood stderr.
    std::panic::set_hook(Box::new(|_| {}));
    let report = run(&corpus, cli.seed, Some(Duration::from_secs(cli.seconds)), cli.executions, 20);
    let _ = std::panic::take_hook();
    for (i, (what, input)) in report.findings.iter().enumerate() {
        let _ = std::fs::create_dir_all(&cli.findings);
        let path = cli.findings.join(format!("finding-{i}.xgc"));
        match std::fs::write(&path, input) {
            Ok(()) => eprintln!("finding {i}: {what} ({})", path.display()),
            Err(e) => eprintln!("finding {i}: {what} (not written: {e})"),
        }
    }
    let secs = report.elapsed.as_secs_f64();
    let figures = json(&[
        ("seeds", corpus.len().into()),
        ("executions", report.executions.into()),
        ("executions_per_s", rounded(report.executions as f64 / secs.max(1e-9), 0)),
        ("accepted", report.accepted.into()),
        ("refused", report.refused.into()),
        ("findings", report.findings.len().into()),
        ("slowest_read_ms", number(report.slowest.as_secs_f64() * 1000.0)),
        ("seconds", rounded(secs, 1)),
    ]);
    println!("{figures}");
    if report.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
