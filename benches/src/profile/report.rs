//! What a profiled replay prints and writes: the per-node table, the per-stage percentiles and
//! the JSON summary, each over the frames of a measurement range.

use std::collections::HashMap;
use std::fmt::Write;

use serde::Serialize;
use xnagraph_graph::GpuTimingSupport;

use super::nodes::NodeInfo;
use super::run::{FrameFigures, ProfileRun};
use crate::{rounded, Fields, Value};

/// The `p`-th percentile (0 to 100) of `values`, nearest rank; 0 for none.
pub fn percentile(values: &[f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Whether frame position `frame` lies in `range` (inclusive; every frame without one).
pub fn in_range(frame: usize, range: Option<(usize, usize)>) -> bool {
    range.is_none_or(|(a, b)| (a..=b).contains(&frame))
}

/// One row of the per-node table: a node identified by its flush within the frame, its name
/// and which of the flush's nodes of that name it is (frames may add nodes, such as a first
/// frame's uploads, without shifting the others' rows), averaged over the frames that had it.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeRow {
    /// The flush (from 0) within its frame.
    pub flush: usize,
    /// The node's index in the flush's plan where it first appeared.
    pub node: usize,
    /// Which of its flush's nodes of the same name it is (from 0).
    pub nth: usize,
    /// What the node does.
    pub info: NodeInfo,
    /// Frames that had the node.
    pub frames: usize,
    /// Frames where the node was timed.
    pub timed: usize,
    /// Mean GPU time over the timed frames, ms.
    pub gpu_ms: f64,
    /// Its share of the measured frames' GPU time (sum of the node over sum of the frames).
    pub share: f64,
}

/// The per-node rows of the frames in `range`, in order of first appearance.
pub fn node_rows(run: &ProfileRun, range: Option<(usize, usize)>) -> Vec<NodeRow> {
    let mut rows: Vec<NodeRow> = Vec::new();
    let mut index: HashMap<(usize, String, usize), usize> = HashMap::new();
    let mut frames_gpu_ms = 0.0;
    for frame in run.frames.iter().filter(|f| in_range(f.frame, range)) {
        frames_gpu_ms += frame.gpu_ms.unwrap_or(0.0);
        for (flush, submission) in frame.submissions.iter().enumerate() {
            let Some(plan) = run.plan(*submission) else { continue };
            let timing = run.timings.get(submission);
            let mut seen: HashMap<&str, usize> = HashMap::new();
            for (node, info) in plan.nodes.iter().enumerate() {
                let count = seen.entry(info.name.as_str()).or_default();
                let nth = *count;
                *count += 1;
                let key = (flush, info.name.clone(), nth);
                let row = *index.entry(key).or_insert_with(|| {
                    rows.push(NodeRow {
                        flush,
                        node,
                        nth,
                        info: info.clone(),
                        frames: 0,
                        timed: 0,
                        gpu_ms: 0.0,
                        share: 0.0,
                    });
                    rows.len() - 1
                });
                let row = &mut rows[row];
                row.frames += 1;
                if let Some(t) = timing.and_then(|t| t.nodes.get(node)) {
                    row.timed += 1;
                    row.gpu_ms += t.duration_ns() as f64 / 1e6;
                }
            }
        }
    }
    for row in &mut rows {
        row.share = if frames_gpu_ms > 0.0 { row.gpu_ms / frames_gpu_ms } else { 0.0 };
        row.gpu_ms = if row.timed > 0 { row.gpu_ms / row.timed as f64 } else { 0.0 };
    }
    rows
}

/// What the GPU columns mean for `support`, as one line.
pub fn gpu_note(support: &GpuTimingSupport) -> String {
    match support {
        GpuTimingSupport::Available { calibrated: true } => {
            "GPU time from timestamp queries (calibrated to the CPU clock)".into()
        }
        GpuTimingSupport::Available { calibrated: false } => {
            "GPU time from timestamp queries (CPU offset estimated once)".into()
        }
        GpuTimingSupport::Unavailable(why) => {
            format!("no GPU time ({why}): frame time is fence to fence")
        }
    }
}

/// The per-node table as text.
pub fn node_table(run: &ProfileRun, range: Option<(usize, usize)>) -> String {
    let rows = node_rows(run, range);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>2} {:>3}  {:<28} {:<9} {:<30} {:<32} {:>5} {:>9} {:>6}",
        "fl", "#", "node", "kind", "attachments", "load/store", "draws", "GPU ms", "share"
    );
    for r in rows {
        let (gpu, share) = if r.timed > 0 {
            (format!("{:.4}", r.gpu_ms), format!("{:.1}%", r.share * 100.0))
        } else {
            ("-".into(), "-".into())
        };
        let _ = writeln!(
            out,
            "{:>2} {:>3}  {:<28} {:<9} {:<30} {:<32} {:>5} {:>9} {:>6}",
            r.flush,
            r.node,
            clip(&r.info.name, 28),
            r.info.kind,
            clip(&r.info.attachments, 30),
            clip(&r.info.ops, 32),
            r.info.draws,
            gpu,
            share
        );
    }
    out
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_owned()
    } else {
        let mut c: String = s.chars().take(n - 1).collect();
        c.push('…');
        c
    }
}

type Stage = (&'static str, fn(&FrameFigures) -> Option<f64>);

const STAGES: [Stage; 6] = [
    ("record_ms", |f| Some(f.record_ms)),
    ("compile_ms", |f| Some(f.compile_ms)),
    ("lower_ms", |f| Some(f.lower_ms)),
    ("submit_ms", |f| Some(f.submit_ms)),
    ("frame_ms", |f| Some(f.frame_ms)),
    ("gpu_ms", |f| f.gpu_ms),
];

/// Values of one stage over the chosen frames (`None` when a frame lacks it).
fn values(frames: &[&FrameFigures], get: fn(&FrameFigures) -> Option<f64>) -> Option<Vec<f64>> {
    frames.iter().map(|f| get(f)).collect()
}

fn chosen(frames: &[FrameFigures], range: Option<(usize, usize)>) -> Vec<&FrameFigures> {
    frames.iter().filter(|f| in_range(f.frame, range)).collect()
}

/// The per-stage percentile table as text: mean, p50, p95, p99 of every stage.
pub fn stage_table(frames: &[FrameFigures], range: Option<(usize, usize)>) -> String {
    let frames = chosen(frames, range);
    let mut out = format!("{:<11} {:>9} {:>9} {:>9} {:>9}\n", "ms", "mean", "p50", "p95", "p99");
    for (name, get) in STAGES {
        let name = name.trim_end_matches("_ms");
        match values(&frames, get) {
            Some(v) if !v.is_empty() => {
                let mean = v.iter().sum::<f64>() / v.len() as f64;
                let _ = writeln!(
                    out,
                    "{name:<11} {mean:>9.4} {:>9.4} {:>9.4} {:>9.4}",
                    percentile(&v, 50.0),
                    percentile(&v, 95.0),
                    percentile(&v, 99.0)
                );
            }
            _ => {
                let _ = writeln!(out, "{name:<11} {:>9}", "-");
            }
        }
    }
    out
}

/// Mean and percentiles of one stage, milliseconds.
#[derive(Serialize)]
struct StageJson {
    mean: Value,
    p50: Value,
    p95: Value,
    p99: Value,
}

/// One row of the per-node table.
#[derive(Serialize)]
struct NodeJson<'a> {
    flush: usize,
    node: usize,
    name: &'a str,
    kind: &'a str,
    attachments: &'a str,
    ops: &'a str,
    draws: u32,
    bytes_loaded: u64,
    bytes_stored: u64,
    /// `null` when the node was never timed.
    gpu_ms: Value,
    share: Value,
}

#[derive(Serialize)]
struct SummaryJson<'a> {
    frames: usize,
    measurement_range: Option<(usize, usize)>,
    adapter: &'a str,
    gpu_timing: String,
    /// `record_ms`, `compile_ms`, … each `null` when a chosen frame lacks it.
    #[serde(flatten)]
    stages: Fields<'a, Option<StageJson>>,
    nodes: Vec<NodeJson<'a>>,
}

/// The JSON summary of the frames whose position lies in `range`: frame count, the GPU
/// timing mode, mean and p50/p95/p99 of every stage (GPU `null` when not timed) and the
/// per-node rows. Milliseconds and shares are rounded to four decimals.
pub fn summary_json(run: &ProfileRun, range: Option<(usize, usize)>) -> String {
    let frames = chosen(&run.frames, range);
    let ms = |x: f64| rounded(x, 4);
    let stages: Vec<(&str, Option<StageJson>)> = STAGES
        .iter()
        .map(|(name, get)| {
            let stats = values(&frames, *get).filter(|v| !v.is_empty()).map(|v| StageJson {
                mean: ms(v.iter().sum::<f64>() / v.len() as f64),
                p50: ms(percentile(&v, 50.0)),
                p95: ms(percentile(&v, 95.0)),
                p99: ms(percentile(&v, 99.0)),
            });
            (*name, stats)
        })
        .collect();
    let rows = node_rows(run, range);
    let nodes = rows
        .iter()
        .map(|r| NodeJson {
            flush: r.flush,
            node: r.node,
            name: &r.info.name,
            kind: r.info.kind,
            attachments: &r.info.attachments,
            ops: &r.info.ops,
            draws: r.info.draws,
            bytes_loaded: r.info.bytes_loaded,
            bytes_stored: r.info.bytes_stored,
            gpu_ms: if r.timed > 0 { ms(r.gpu_ms) } else { Value::Null },
            share: ms(r.share),
        })
        .collect();
    let summary = SummaryJson {
        frames: frames.len(),
        measurement_range: range,
        adapter: &run.adapter,
        gpu_timing: gpu_note(&run.support),
        stages: Fields(&stages),
        nodes,
    };
    // Plain data with string keys: serializing into a String cannot fail.
    serde_json::to_string(&summary).expect("the summary serializes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&v, 50.0), 50.0);
        assert_eq!(percentile(&v, 95.0), 95.0);
        assert_eq!(percentile(&v, 99.0), 99.0);
        assert_eq!(percentile(&[7.0], 99.0), 7.0);
        assert_eq!(percentile(&[], 50.0), 0.0);
    }

    #[test]
    fn the_measurement_range_is_inclusive_and_optional() {
        assert!(in_range(2, Some((2, 4))) && in_range(4, Some((2, 4))));
        assert!(!in_range(1, Some((2, 4))) && !in_range(5, Some((2, 4))));
        assert!(in_range(1000, None));
    }
}
