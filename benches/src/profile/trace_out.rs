//! A profiled replay in the Chrome trace event format: the JSON file that ui.perfetto.dev and
//! chrome://tracing open.
//!
//! In: a [`ProfileRun`]. Out: one JSON object (`traceEvents`, `displayTimeUnit`, `otherData`)
//! whose complete events (`"ph": "X"`, microseconds on the timing clock,
//! [`xnagraph_graph::timing`]) lie on named tracks of one process:
//! - `CPU (replay)`: a `frame F pass P` slice as long as the frame's wall-clock time holding
//!   `record`, `compile`, `lowering` and `submit` one after another from the frame's start, as
//!   the puffin file lays them (`record` is the captured game's recording time; the others are
//!   the replay's own).
//! - `GPU`: a slice per timed plan node, named by its label (`pass scene`), its arguments the
//!   frame and pass, the node's kind, attachments, load/store ops, draws and bytes. The GPU
//!   spans are on the CPU clock, as the backends report them, so both tracks share one time
//!   axis; the frame's GPU time is an argument of its CPU slice.
//!
//! Decided here: a trace viewer draws the slices of one track as a stack and drops or misdraws
//! slices that overlap without nesting. Neighbouring plan nodes may overlap on the GPU (a
//! node's begin is written before the previous node's work has drained), so a node that would
//! overlap the node before it on its lane goes to the next lane that is free at its begin
//! (`GPU overlap 1`, `GPU overlap 2`, ...): every node keeps its true begin and end, and every
//! lane nests.

use serde_json::{json, Value};

use super::run::{FrameFigures, ProfileRun};

/// The process id every event carries.
const PID: u32 = 1;
/// The CPU track's thread id.
const CPU_TID: u32 = 1;
/// The first GPU lane's thread id; overlap lanes follow.
const GPU_TID: u32 = 2;

/// The CPU track's name.
pub const CPU_TRACK: &str = "CPU (replay)";
/// The first GPU lane's name.
pub const GPU_TRACK: &str = "GPU";

fn us(ns: u64) -> f64 {
    ns as f64 / 1000.0
}

fn slice(name: &str, tid: u32, begin_ns: u64, end_ns: u64, args: Value) -> Value {
    json!({
        "name": name,
        "cat": if tid == CPU_TID { "cpu" } else { "gpu" },
        "ph": "X",
        "pid": PID,
        "tid": tid,
        "ts": us(begin_ns),
        "dur": us(end_ns.saturating_sub(begin_ns)),
        "args": args,
    })
}

fn frame_name(f: &FrameFigures) -> String {
    format!("frame {} pass {}", f.frame, f.pass)
}

/// The CPU track of one frame: the frame's slice and its stages inside it, none past `limit`
/// (the next frame's start: `record`, the captured game's time laid first, may be longer than
/// the replayed frame; the exact figures are the slices' arguments).
fn cpu_slices(f: &FrameFigures, limit: Option<u64>, out: &mut Vec<Value>) {
    let ns = |ms: f64| (ms * 1e6).round().max(0.0) as u64;
    let stages = [
        ("record", f.record_ms),
        ("compile", f.compile_ms),
        ("lowering", f.lower_ms),
        ("submit", f.submit_ms),
    ];
    let stages_ns: u64 = stages.iter().map(|(_, ms)| ns(*ms)).sum();
    let end = f.start_ns + ns(f.frame_ms).max(stages_ns);
    let end = limit.map_or(end, |limit| end.min(limit.max(f.start_ns)));
    let args = json!({ "frame_ms": f.frame_ms, "gpu_ms": f.gpu_ms });
    out.push(slice(&frame_name(f), CPU_TID, f.start_ns, end, args));
    let mut at = f.start_ns;
    for (name, ms) in stages {
        let stage_end = (at + ns(ms)).min(end);
        out.push(slice(name, CPU_TID, at, stage_end, json!({ "ms": ms })));
        at = stage_end;
    }
}

/// Where each GPU lane's last slice ends (nodes are placed in submission order).
#[derive(Default)]
struct Lanes(Vec<u64>);

impl Lanes {
    /// The first lane free at `begin` (a new one when none is), now busy until `end`.
    fn place(&mut self, begin: u64, end: u64) -> u32 {
        let lane = match self.0.iter().position(|&busy_until| busy_until <= begin) {
            Some(lane) => lane,
            None => {
                self.0.push(0);
                self.0.len() - 1
            }
        };
        self.0[lane] = end;
        GPU_TID + lane as u32
    }
}

/// The GPU slices of one frame: a slice per timed plan node, each on the first lane free at its
/// begin.
fn gpu_slices(run: &ProfileRun, f: &FrameFigures, lanes: &mut Lanes, out: &mut Vec<Value>) {
    for submission in &f.submissions {
        let (Some(plan), Some(timing)) = (run.plan(*submission), run.timings.get(submission))
        else {
            continue;
        };
        for (info, time) in plan.nodes.iter().zip(&timing.nodes) {
            let tid = lanes.place(time.begin_ns, time.end_ns);
            let args = json!({
                "frame": f.frame,
                "pass": f.pass,
                "kind": info.kind,
                "attachments": info.attachments,
                "ops": info.ops,
                "draws": info.draws,
                "bytes_loaded": info.bytes_loaded,
                "bytes_stored": info.bytes_stored,
                "gpu_ms": time.end_ns.saturating_sub(time.begin_ns) as f64 / 1e6,
            });
            out.push(slice(&info.name, tid, time.begin_ns, time.end_ns, args));
        }
    }
}

fn track_name(tid: u32, name: &str, sort: u32) -> [Value; 2] {
    [
        json!({ "name": "thread_name", "ph": "M", "pid": PID, "tid": tid, "args": { "name": name } }),
        json!({
            "name": "thread_sort_index", "ph": "M", "pid": PID, "tid": tid,
            "args": { "sort_index": sort },
        }),
    ]
}

/// The run as a Chrome trace: every frame's CPU stages and, where it was timed, its GPU plan
/// nodes.
pub fn trace(run: &ProfileRun) -> Value {
    let mut events = Vec::new();
    let mut lanes = Lanes::default();
    for (i, f) in run.frames.iter().enumerate() {
        cpu_slices(f, run.frames.get(i + 1).map(|next| next.start_ns), &mut events);
        gpu_slices(run, f, &mut lanes, &mut events);
    }
    let mut meta = vec![json!({
        "name": "process_name", "ph": "M", "pid": PID,
        "args": { "name": format!("xnagraph-replay ({})", run.adapter) },
    })];
    meta.extend(track_name(CPU_TID, CPU_TRACK, 0));
    for lane in 0..lanes.0.len().max(1) as u32 {
        let name =
            if lane == 0 { GPU_TRACK.to_owned() } else { format!("{GPU_TRACK} overlap {lane}") };
        meta.extend(track_name(GPU_TID + lane, &name, 1 + lane));
    }
    meta.extend(events);
    json!({
        "traceEvents": meta,
        "displayTimeUnit": "ms",
        "otherData": {
            "adapter": run.adapter,
            "gpu_timing": format!("{:?}", run.support),
            "frames": run.frames.len(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_overlapping_the_one_before_goes_to_the_next_free_lane() {
        let mut lanes = Lanes::default();
        assert_eq!(lanes.place(0, 10), GPU_TID);
        // Begins before the first ends: a second lane.
        assert_eq!(lanes.place(8, 20), GPU_TID + 1);
        // The first lane is free again at 10.
        assert_eq!(lanes.place(10, 12), GPU_TID);
        // Both busy at 11 (until 12 and 20): a third lane.
        assert_eq!(lanes.place(11, 13), GPU_TID + 2);
        assert_eq!(lanes.place(20, 30), GPU_TID);
    }
}
