//! A sequence fuzzer of the engine's public API: seeded sequences of XNA calls, each result
//! checked against a model of XNA's rules and against pixels the model computes, each
//! sequence run under both compile policies and captured and replayed.
//!
//! - [`ops`]: the operations (creation, `SetData`/`GetData`, binds, clears, sprites, geometry
//!   with the stock effects, effect parameters, occlusion queries, disposal and drops,
//!   present) and how each prints as Rust.
//! - [`generate`]: the seeded generator (the xorshift [`Rng`](crate::fuzz::Rng) of the capture
//!   fuzzer): mostly valid operations, some with one wrong argument or state.
//! - [`model`] with [`surface`] and [`geometry`]: which calls must succeed, which must fail
//!   with which error, and what pixels, bytes and occlusion counts they leave.
//! - [`exec`]: the same operations on a real device.
//! - [`run`]: the oracle (model, policies, capture and replay) and the shrinker.
//! - [`known`]: the known defects the generator steers around, in one list.
//!
//! A sequence is checked in three ways. Its run under the compiler's policy must agree with
//! the model at every operation. Its run under the frame-blind policy (`CompilePolicy::
//! FrameBlind`), captured from the first frame to the last, must too, and must read back the
//! same content wherever the model says it is defined. The capture's replay on a fresh backend
//! of the same kind must end on the same frame. Every run has validation on when asked, and
//! any message is a finding. Each finding prints its seed and its sequence (shrunk) as Rust
//! calls.

pub mod exec;
pub mod generate;
pub mod geometry;
pub mod known;
pub mod model;
pub mod ops;
pub mod run;
pub mod surface;

use std::time::{Duration, Instant};

pub use known::{Avoid, Known, KNOWN_FINDINGS};
pub use model::Sabotage;
pub use run::{Checker, Config, Finding, Stage};

/// Operations per generated sequence.
pub const SEQUENCE_LENGTH: usize = 48;

/// A finding of a run, with the seed of its sequence.
#[derive(Clone, Debug)]
pub struct SeededFinding {
    pub seed: u64,
    pub finding: Finding,
}

/// What a fuzz run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub sequences: u64,
    /// Operations in the sequences (the read-back epilogues included).
    pub operations: u64,
    /// Operations run on a device, over every run of every sequence.
    pub executed: u64,
    /// What the model checked over the first runs.
    pub checks: model::Checks,
    pub findings: Vec<SeededFinding>,
    pub elapsed: Duration,
}

/// One finding in [`Summary::json`].
#[derive(serde::Serialize)]
struct FindingJson<'a> {
    seed: u64,
    stage: String,
    op: Option<usize>,
    kind: &'a str,
    what: &'a str,
    ops: usize,
}

/// [`Summary`] as written by [`Summary::json`].
#[derive(serde::Serialize)]
struct SummaryJson<'a> {
    backend: &'a str,
    sequences: u64,
    operations: u64,
    executed: u64,
    errors_checked: u64,
    texels_checked: u64,
    counts_checked: u64,
    findings: usize,
    finding_list: Vec<FindingJson<'a>>,
    seconds: crate::Value,
}

impl Summary {
    /// The summary as one JSON object.
    pub fn json(&self, backend: &str) -> String {
        let finding_list = self
            .findings
            .iter()
            .map(|f| FindingJson {
                seed: f.seed,
                stage: format!("{:?}", f.finding.stage),
                op: f.finding.op,
                kind: f.finding.op_kind,
                what: &f.finding.what,
                ops: f.finding.ops.len(),
            })
            .collect();
        let summary = SummaryJson {
            backend,
            sequences: self.sequences,
            operations: self.operations,
            executed: self.executed,
            errors_checked: self.checks.errors,
            texels_checked: self.checks.texels,
            counts_checked: self.checks.counts,
            findings: self.findings.len(),
            finding_list,
            seconds: crate::rounded(self.elapsed.as_secs_f64(), 1),
        };
        // Plain data with string keys: serializing into a String cannot fail.
        serde_json::to_string(&summary).expect("the summary serializes")
    }
}

/// How a fuzz run is bounded and what it does with findings.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// The first seed; sequence `k` has seed `first_seed + k`.
    pub first_seed: u64,
    pub sequences: Option<u64>,
    pub time: Option<Duration>,
    pub avoid: Avoid,
    /// Time given to shrinking each finding (zero: none).
    pub shrink: Duration,
}

/// Runs generated sequences until a bound is reached; `on_finding` sees each (shrunk) finding
/// as it is made.
pub fn fuzz(
    config: Config,
    bounds: &Bounds,
    mut on_finding: impl FnMut(&SeededFinding),
) -> Summary {
    let start = Instant::now();
    let mut checker = Checker::new(config);
    let mut summary = Summary::default();
    for k in 0.. {
        if bounds.sequences.is_some_and(|n| k >= n)
            || bounds.time.is_some_and(|t| start.elapsed() >= t)
        {
            break;
        }
        let seed = bounds.first_seed + k;
        let ops = generate::generate(seed, SEQUENCE_LENGTH, bounds.avoid);
        summary.sequences += 1;
        match checker.check(&ops) {
            Ok(counts) => {
                summary.operations += counts.operations as u64;
                summary.executed += counts.executed as u64;
                summary.checks.errors += counts.checks.errors;
                summary.checks.texels += counts.checks.texels;
                summary.checks.counts += counts.checks.counts;
            }
            Err(finding) => {
                summary.operations += (finding.ops.len() + finding.epilogue.len()) as u64;
                let finding = if bounds.shrink.is_zero() {
                    *finding
                } else {
                    checker.shrink(&finding, bounds.shrink)
                };
                let seeded = SeededFinding { seed, finding };
                on_finding(&seeded);
                summary.findings.push(seeded);
            }
        }
    }
    summary.elapsed = start.elapsed();
    summary
}

/// Checks one given sequence (a regression of a finding, or a sequence printed as data).
pub fn run_ops(config: Config, ops: &[ops::Op]) -> Result<run::Counts, Box<Finding>> {
    Checker::new(config).check(ops)
}
