//! A fuzzer for the capture reader that runs on stable Rust: mutations of real captures fed to
//! [`Capture::from_bytes`], each checked for a panic, an oversized allocation or a slow read.
//!
//! Captures are zstd-compressed chunk by chunk, so flipping bytes of a file mostly produces
//! chunks that fail to decompress and never reach the payload decoding or the reader's checks.
//! Half of the mutations therefore work on the structure: the file is split into its chunks,
//! one decoded payload is mutated (bytes flipped, set to values that matter to postcard's
//! varints, inserted, removed, copied from another chunk) or chunks are dropped, repeated,
//! swapped or given another kind, and the file is written again with valid compression and
//! lengths. The other half mutate the file's bytes (header, length fields, truncation, splices
//! with another input). Mutants the reader accepts join the pool, so later mutations start from
//! files that got deeper. There is no coverage feedback: this is a mutational fuzzer seeded by
//! structure, bounded by time or by executions.
//!
//! What counts as a finding: a panic; a single allocation past [`ALLOCATION_LIMIT`] (with
//! [`crate::alloc_count::CountingAllocator`] installed as the global allocator: the reader
//! must never allocate from an unchecked length); a read slower than [`SLOW_READ`].

use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

use xnagraph_graph::capture::container::{read_chunks, ChunkWriter, HEADER_LEN};
use xnagraph_graph::capture::record::kind;
use xnagraph_graph::capture::Capture;

/// The largest single allocation a read of a fuzzed input may make (64 MiB): inputs are a few
/// kilobytes, so anything near this is sized by a length field, not by data.
pub const ALLOCATION_LIMIT: usize = 64 << 20;
/// A read slower than this is a finding (a hang, or work quadratic in a length field).
pub const SLOW_READ: Duration = Duration::from_secs(2);
/// Accepted mutants kept in the pool at most.
const POOL: usize = 256;

/// A small deterministic generator (xorshift64*), so a run is reproducible from its seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value).
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.bits() % n as u64) as usize
        }
    }
}

/// Byte strings that matter to the format: postcard varints of 0, 1, 127, 128, u32::MAX and
/// u64::MAX, option and enum tags (3 and 4: an op's query and a draw's custom geometry shader,
/// format 3.0), and little-endian words for the container's fields.
const INTERESTING: &[&[u8]] = &[
    &[0],
    &[1],
    &[2],
    &[3],
    &[4],
    &[0x7f],
    &[0x80, 0x01],
    &[0xff, 0xff, 0xff, 0xff, 0x0f],
    &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
    &[0xff, 0xff, 0xff, 0x7f],
    &[0x00, 0x00, 0x00, 0x40],
    &[0xff, 0xff, 0xff, 0xff],
];

/// One byte-level mutation of `bytes`, in place; `other` is another input to splice from.
/// Half of the mutations land in the first 16 bytes, where a payload keeps its keys, ids and
/// the length prefixes of its first fields.
fn mutate_bytes(bytes: &mut Vec<u8>, other: &[u8], rng: &mut Rng) {
    let span = if rng.below(2) == 0 { bytes.len().min(16) } else { bytes.len() };
    let at = rng.below(span + 1);
    match rng.below(8) {
        0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
        1 if at < bytes.len() => bytes[at] = rng.bits() as u8,
        2 => {
            let value = INTERESTING[rng.below(INTERESTING.len())];
            let end = (at + value.len()).min(bytes.len());
            bytes.splice(at..end, value.iter().copied());
        }
        3 => {
            let value = INTERESTING[rng.below(INTERESTING.len())];
            bytes.splice(at..at, value.iter().copied());
        }
        4 => {
            let end = (at + 1 + rng.below(16)).min(bytes.len());
            bytes.drain(at.min(end)..end);
        }
        5 => bytes.truncate(at),
        6 if !other.is_empty() => {
            let from = rng.below(other.len());
            let len = 1 + rng.below((other.len() - from).min(64));
            bytes.splice(at..at, other[from..from + len].iter().copied());
        }
        _ if at < bytes.len() => {
            bytes[at] = bytes[at].wrapping_add(if rng.below(2) == 0 { 1 } else { 255 });
        }
        _ => bytes.push(rng.bits() as u8),
    }
}

/// A structural mutation: the file's chunks decoded, changed and written again with valid
/// compression and lengths; `None` when `input` does not split into chunks.
fn mutate_chunks(input: &[u8], other: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
    let chunks = read_chunks(input, |_| true).ok()?;
    let mut chunks: Vec<(u32, Vec<u8>)> = chunks.into_iter().map(|c| (c.kind, c.payload)).collect();
    if chunks.is_empty() {
        return None;
    }
    let i = rng.below(chunks.len());
    match rng.below(10) {
        0 => {
            chunks.remove(i);
        }
        1 => {
            let copy = chunks[i].clone();
            chunks.insert(rng.below(chunks.len() + 1), copy);
        }
        2 => {
            let j = rng.below(chunks.len());
            chunks.swap(i, j);
        }
        // Every kind this reader knows (the occlusion query, query result and geometry effect
        // chunks of format 3.0 included), and one past them, which it skips.
        3 => chunks[i].0 = rng.below(kind::QUERY_RESULT as usize + 2) as u32,
        4 => {
            let j = rng.below(chunks.len());
            let donor = chunks[j].1.clone();
            mutate_bytes(&mut chunks[i].1, &donor, rng);
        }
        _ => {
            for _ in 0..1 + rng.below(3) {
                mutate_bytes(&mut chunks[i].1, other, rng);
            }
        }
    }
    let mut writer = ChunkWriter::new(Vec::new()).ok()?;
    for (kind, payload) in &chunks {
        writer.raw_chunk(*kind, payload).ok()?;
    }
    let mut bytes = writer.finish().ok()?;
    // Keep the input's version.
    bytes[..HEADER_LEN].copy_from_slice(&input[..HEADER_LEN]);
    Some(bytes)
}

/// A mutant of `input`.
pub fn mutate(input: &[u8], other: &[u8], rng: &mut Rng) -> Vec<u8> {
    if rng.below(2) == 0 {
        if let Some(bytes) = mutate_chunks(input, other, rng) {
            return bytes;
        }
    }
    let mut bytes = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        mutate_bytes(&mut bytes, other, rng);
    }
    bytes
}

/// What one read did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The reader accepted the input.
    Accepted,
    /// The reader refused it with an error.
    Refused,
    /// A finding, described.
    Finding(String),
}

/// Reads `input` as a capture, and walks what an accepted one holds (every flush's sprites and
/// the blob uses), catching a panic; checks the largest allocation and the time taken.
pub fn check(input: &[u8]) -> Verdict {
    crate::alloc_count::take_largest();
    let start = Instant::now();
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| match Capture::from_bytes(input) {
        Ok(capture) => {
            for flush in capture.frames.iter().flat_map(|f| &f.flushes) {
                std::hint::black_box(capture.sprites(flush));
            }
            std::hint::black_box(capture.blob_uses());
            true
        }
        Err(e) => {
            std::hint::black_box(e.to_string());
            false
        }
    }));
    let took = start.elapsed();
    let largest = crate::alloc_count::take_largest();
    match outcome {
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            Verdict::Finding(format!("panic: {message}"))
        }
        Ok(_) if largest > ALLOCATION_LIMIT => {
            Verdict::Finding(format!("an allocation of {largest} bytes"))
        }
        Ok(_) if took > SLOW_READ => Verdict::Finding(format!("a read of {took:?}")),
        Ok(true) => Verdict::Accepted,
        Ok(false) => Verdict::Refused,
    }
}

/// A fuzz run's figures and findings.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Inputs read.
    pub executions: u64,
    /// Inputs the reader accepted.
    pub accepted: u64,
    /// Inputs the reader refused with an error.
    pub refused: u64,
    /// Each finding with its input.
    pub findings: Vec<(String, Vec<u8>)>,
    /// The slowest read.
    pub slowest: Duration,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
}

/// Fuzzes the reader from `corpus` (non-empty) until `deadline` has passed or `executions`
/// inputs were read, from `seed`; stops at the first `max_findings` findings.
pub fn run(
    corpus: &[Vec<u8>],
    seed: u64,
    deadline: Option<Duration>,
    executions: Option<u64>,
    max_findings: usize,
) -> Report {
    let mut rng = Rng::new(seed);
    let mut pool: Vec<Vec<u8>> = corpus.to_vec();
    let seeds = pool.len();
    let mut report = Report::default();
    let start = Instant::now();
    // The seeds themselves first.
    let mut queue: Vec<Vec<u8>> = corpus.to_vec();
    loop {
        if deadline.is_some_and(|d| start.elapsed() >= d)
            || executions.is_some_and(|n| report.executions >= n)
            || report.findings.len() >= max_findings
        {
            break;
        }
        let input = queue.pop().unwrap_or_else(|| {
            let base = &pool[rng.below(pool.len())];
            let other = &pool[rng.below(pool.len())];
            mutate(base, other, &mut rng)
        });
        let began = Instant::now();
        let verdict = check(&input);
        report.slowest = report.slowest.max(began.elapsed());
        report.executions += 1;
        match verdict {
            Verdict::Accepted => {
                report.accepted += 1;
                if pool.len() < seeds + POOL {
                    pool.push(input);
                } else {
                    let i = seeds + rng.below(POOL);
                    pool[i] = input;
                }
            }
            Verdict::Refused => report.refused += 1,
            Verdict::Finding(what) => report.findings.push((what, input)),
        }
    }
    report.elapsed = start.elapsed();
    report
}

/// Reads every file of `dir` (the corpus), sorted by name.
pub fn load_corpus(dir: &std::path::Path) -> std::io::Result<Vec<Vec<u8>>> {
    let mut paths: Vec<_> =
        std::fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect::<std::io::Result<_>>()?;
    paths.sort();
    paths.iter().filter(|p| p.is_file()).map(std::fs::read).collect()
}
