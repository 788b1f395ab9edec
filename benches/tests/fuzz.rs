//! A short fuzz run of the capture reader over the committed corpus (benches/fuzz/corpus), as
//! part of the test suite: no input may panic the reader, make it allocate past the fuzzer's
//! limit or read slowly. `benches/fuzz.sh` runs the same fuzzer for minutes.

use std::path::PathBuf;

use xnagraph_benches::alloc_count::CountingAllocator;
use xnagraph_benches::fuzz::{check, load_corpus, run, Verdict};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn corpus() -> Vec<Vec<u8>> {
    load_corpus(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus")).unwrap()
}

#[test]
fn the_seeds_are_real_captures_of_this_format_version() {
    let corpus = corpus();
    assert!(corpus.len() >= 2);
    for seed in &corpus {
        assert_eq!(check(seed), Verdict::Accepted);
    }
    let versions: Vec<_> = corpus
        .iter()
        .map(|s| xnagraph_graph::capture::Capture::from_bytes(s).unwrap().version)
        .collect();
    let current = xnagraph_graph::capture::container::VERSION;
    assert!(versions.iter().all(|&v| v == current), "{versions:?}");
    // A run of draws recorded as one draw with repeats is in the corpus for mutants to reach.
    let repeats: usize = corpus.iter().map(|seed| repeats(seed)).sum();
    assert!(repeats > 0, "no seed holds a repeated geometry draw");
}

/// The repeats of every geometry draw of a capture.
fn repeats(seed: &[u8]) -> usize {
    use xnagraph_graph::capture::record::{NodeRecord, OpRecord};
    let capture = xnagraph_graph::capture::Capture::from_bytes(seed).unwrap();
    let flushes = capture.frames.iter().flat_map(|f| &f.flushes);
    let ops = flushes.flat_map(|f| &f.nodes).flat_map(|n| match n {
        NodeRecord::Pass { ops, .. } => ops.as_slice(),
        _ => &[],
    });
    ops.map(|op| match op {
        OpRecord::Geometry(_, g) => g.repeats.len(),
        _ => 0,
    })
    .sum()
}

#[test]
fn three_thousand_mutants_of_the_corpus_find_nothing() {
    std::panic::set_hook(Box::new(|_| {}));
    let report = run(&corpus(), 7, None, Some(3000), 1);
    let _ = std::panic::take_hook();
    let findings: Vec<_> = report.findings.iter().map(|(what, _)| what).collect();
    assert!(findings.is_empty(), "{findings:?}");
    // The mutants reach both outcomes: the fuzzer is not only producing garbage.
    assert!(report.accepted > 100 && report.refused > 100, "{report:?}");
}
