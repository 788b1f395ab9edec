//! A bounded run of the API sequence fuzzer (`xnagraph_benches::sequence`) on each backend, with
//! validation on: a fixed set of seeds, each sequence checked against the model, under both
//! compile policies and through its capture's replay. Any finding fails the test and prints its
//! seed and its shrunk sequence as Rust calls. The known defects of
//! `sequence::known::KNOWN_FINDINGS` are left out of the generated sequences.
//!
//! The checks of the checker break one rule of the oracle at a time (the model's discard rule,
//! its disposal rule, one texel of the frame-blind run, one pixel of the replay) and require the
//! fuzzer to report it. `benches/fuzz-sequence.sh` runs the fuzzer for longer.

use std::path::PathBuf;
use std::time::Duration;

use xnagraph::BackendKind;
use xnagraph_benches::sequence::generate::generate;
use xnagraph_benches::sequence::{
    fuzz, Avoid, Bounds, Checker, Config, Sabotage, Summary, SEQUENCE_LENGTH,
};

/// Sequences per backend: the two backends' runs take about a minute together on a two-core
/// machine with validation.
const SEQUENCES: u64 = 200;

fn config(backend: BackendKind, sabotage: Sabotage) -> Config {
    Config {
        backend,
        validation: true,
        sabotage,
        scratch: PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sequence-fuzz"),
        second_run: true,
    }
}

fn run(backend: BackendKind, sabotage: Sabotage, sequences: u64, shrink: u64) -> Summary {
    let bounds = Bounds {
        first_seed: 1,
        sequences: Some(sequences),
        time: None,
        avoid: Avoid::LISTED,
        shrink: Duration::from_secs(shrink),
    };
    fuzz(config(backend, sabotage), &bounds, |f| {
        eprintln!("finding, {}", f.finding.report(Some(f.seed)));
    })
}

fn assert_nothing_found(backend: BackendKind) {
    let summary = run(backend, Sabotage::None, SEQUENCES, 30);
    let reports: Vec<String> =
        summary.findings.iter().map(|f| f.finding.report(Some(f.seed))).collect();
    assert!(reports.is_empty(), "{}", reports.join("\n"));
    // The run checked something: errors XNA requires, and pixels the model knows.
    assert_eq!(summary.sequences, SEQUENCES);
    assert!(summary.checks.errors > 200, "{summary:?}");
    assert!(summary.checks.texels > 100_000, "{summary:?}");
    eprintln!("{}", summary.json(&format!("{backend:?}")));
}

#[test]
fn a_fixed_set_of_sequences_finds_nothing_on_vulkan() {
    assert_nothing_found(BackendKind::Vulkan);
}

#[test]
fn a_fixed_set_of_sequences_finds_nothing_on_sdl_gpu() {
    assert_nothing_found(BackendKind::SdlGpu);
}

/// Sequences with one rule of the oracle broken, until the fuzzer reports something (at most
/// 50): what it reported.
fn findings_with(sabotage: Sabotage) -> Vec<String> {
    let mut checker = Checker::new(config(BackendKind::Vulkan, sabotage));
    (1..=50)
        .find_map(|seed| checker.check(&generate(seed, SEQUENCE_LENGTH, Avoid::LISTED)).err())
        .map(|f| vec![f.what])
        .unwrap_or_default()
}

#[test]
fn a_model_that_keeps_discarded_content_is_contradicted_by_the_pixels() {
    let found = findings_with(Sabotage::DiscardKeeps);
    assert!(found.iter().any(|w| w.contains("the model says")), "{found:?}");
}

#[test]
fn a_model_that_lets_disposed_textures_be_written_is_contradicted_by_the_errors() {
    let found = findings_with(Sabotage::DisposedWritable);
    assert!(found.iter().any(|w| w.contains("ObjectDisposed")), "{found:?}");
}

#[test]
fn a_texel_that_differs_between_the_policies_is_reported() {
    let found = findings_with(Sabotage::CorruptFrameBlind);
    assert!(found.iter().any(|w| w.contains("frame-blind")), "{found:?}");
}

#[test]
fn a_replayed_pixel_that_differs_from_the_live_frame_is_reported() {
    let found = findings_with(Sabotage::CorruptReplay);
    assert!(found.iter().any(|w| w.contains("replay")), "{found:?}");
}
