//! The oracle: runs a sequence on a device, checks every result against the model, runs it
//! again under the frame-blind policy while capturing it, compares the two runs' readbacks,
//! replays the capture and compares its final frame with the live one; and shrinks a failing
//! sequence.
//!
//! In: operations, a backend and its options. Out: per sequence, the operations run, or the
//! first [`Finding`]: a result the rules do not allow or a readback the model contradicts, a
//! panic, a validation message, readbacks that differ between the compile policies (where the
//! model says the content is defined), a capture that fails, or a replay whose final frame
//! differs from the live one.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use xnagraph::{BackendKind, CompilePolicy};
use xnagraph_graph::capture::Capture;
use xnagraph_graph::Backend;

use super::exec::{DeviceSetup, Live};
use super::model::{Checks, Model, Outcome, Sabotage};
use super::ops::{listing, Op, Tex};
use super::surface::Px;

/// Where a finding was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// An operation's result contradicts the model (under the named policy).
    Model(String),
    /// An operation panicked.
    Panic,
    /// The validation layer reported something.
    Validation,
    /// The two compile policies read back different defined content, or returned different
    /// results.
    Policies,
    /// The capture failed, or its replay's final frame differs from the live one.
    Replay,
}

/// Something the fuzzer found, with the sequence that shows it.
#[derive(Clone, Debug)]
pub struct Finding {
    pub stage: Stage,
    /// The operation it was found at (an index into `ops` + `epilogue`), if one.
    pub op: Option<usize>,
    /// The kind of that operation (findings of one stage and kind are the same finding, for
    /// shrinking).
    pub op_kind: &'static str,
    pub what: String,
    pub ops: Vec<Op>,
    /// The operations the runner added to read everything back.
    pub epilogue: Vec<Op>,
}

impl Finding {
    /// Stage and operation kind: what a shrunk sequence must still show.
    pub fn class(&self) -> (Stage, &'static str) {
        (self.stage.clone(), self.op_kind)
    }

    /// The finding and its sequence as Rust calls, for a regression test.
    pub fn report(&self, seed: Option<u64>) -> String {
        let mut s = String::new();
        if let Some(seed) = seed {
            s.push_str(&format!("seed {seed}: "));
        }
        s.push_str(&format!(
            "{:?} at op {:?} ({}): {}\n",
            self.stage, self.op, self.op_kind, self.what
        ));
        s.push_str(super::exec::PROLOGUE);
        s.push('\n');
        let mut all = self.ops.clone();
        all.extend(self.epilogue.iter().cloned());
        s.push_str(&listing(&all));
        s.push_str(&format!("// as data: {:?}\n", self.ops));
        s
    }
}

/// How sequences are run.
#[derive(Clone, Debug)]
pub struct Config {
    pub backend: BackendKind,
    pub validation: bool,
    /// Rules of the model broken on purpose (to check the checker).
    pub sabotage: Sabotage,
    /// Where capture files are written.
    pub scratch: PathBuf,
    /// Run the frame-blind policy, the capture and its replay (off: one run per sequence).
    pub second_run: bool,
}

/// One readback: where, what the engine returned, what the model predicted.
struct Readback {
    at: usize,
    got: Vec<[u8; 4]>,
    predicted: Vec<Px>,
}

/// What one run of a sequence recorded.
struct RunRecord {
    /// Per operation: skipped (None), succeeded, or the error's kind.
    results: Vec<Option<Result<(), String>>>,
    readbacks: Vec<Readback>,
    presents: u64,
    epilogue: Vec<Op>,
    ops_run: usize,
    checks: Checks,
}

/// Counts of one checked sequence.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    /// Operations in the sequence, the runner's read-back epilogue included.
    pub operations: usize,
    /// Operations run on a device (not skipped), summed over both runs.
    pub executed: usize,
    /// What the model checked in the first run.
    pub checks: Checks,
}

/// Changes the first texel of the last readback whose content is defined (a deliberate fault
/// for checking the comparisons).
fn corrupt(readbacks: &mut [Readback]) {
    for r in readbacks.iter_mut().rev() {
        if let Some(k) = r.predicted.iter().position(|p| p.defined()) {
            r.got[k][0] ^= 0x55;
            return;
        }
    }
}

/// Whether the backend has occlusion queries (SDL_gpu has none).
fn queries_supported(backend: BackendKind) -> bool {
    backend != BackendKind::SdlGpu
}

/// The operations that read everything back at the end of a sequence: end an open batch,
/// return to the back buffer, read every live texture and target, the back buffer, present,
/// and the presented frame (what the capture's replay ends on).
fn epilogue(model: &Model) -> Vec<Op> {
    let mut ops = Vec::new();
    if model.batch_open() {
        ops.push(Op::SpriteEnd);
    }
    ops.push(Op::BindTargets { slots: Vec::new() });
    let (textures, targets) = model.live_images();
    let read = |tex: Tex| {
        let (w, h) = model.size_of(tex).expect("live");
        let n = (w * h) as usize;
        Op::GetTexels { tex, level: 0, rect: None, len: n, start: 0, count: n }
    };
    ops.extend(textures.into_iter().map(|i| read(Tex::T(i))));
    ops.extend(targets.into_iter().map(|i| read(Tex::Rt(i))));
    let n = (super::ops::BACK_BUFFER.0 * super::ops::BACK_BUFFER.1) as usize;
    ops.push(Op::GetBackBuffer { rect: None, count: n });
    ops.push(Op::Present);
    ops.push(Op::GetBackBuffer { rect: None, count: n });
    ops
}

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_owned())
}

fn result_kind(outcome: &Outcome) -> Result<(), String> {
    match outcome {
        Ok(_) => Ok(()),
        Err(e) => Err(e.to_string().split(':').next().unwrap_or_default().to_owned()),
    }
}

/// Runs `ops` (then the epilogue) once under `policy`, capturing frames 0 to `capture.1 - 1`
/// into `capture.0` when given; checks each result against the model.
fn run_once(
    ops: &[Op],
    config: &Config,
    policy: CompilePolicy,
    capture: Option<(&Path, u64)>,
) -> Result<RunRecord, Box<Finding>> {
    let setup = DeviceSetup { backend: config.backend, validation: config.validation, policy };
    let finding = |stage: Stage, op: Option<usize>, kind: &'static str, what: String| {
        Box::new(Finding {
            stage,
            op,
            op_kind: kind,
            what,
            ops: ops.to_vec(),
            epilogue: Vec::new(),
        })
    };
    let mut live = Live::new(setup)
        .map_err(|e| finding(Stage::Model(format!("{policy:?}")), None, "device", e.to_string()))?;
    let diagnostics = live.device.diagnostics();
    if let Some((path, frames)) = capture {
        if frames > 0 {
            if let Err(e) = live.device.capture_frames(path, 0..=frames - 1) {
                return Err(finding(Stage::Replay, None, "capture", e.to_string()));
            }
        }
    }
    let mut model = Model::new(queries_supported(config.backend), config.sabotage);
    let mut record = RunRecord {
        results: Vec::new(),
        readbacks: Vec::new(),
        presents: 0,
        epilogue: Vec::new(),
        ops_run: 0,
        checks: Checks::default(),
    };
    let step = |i: usize, op: &Op, live: &mut Live, model: &mut Model, record: &mut RunRecord| {
        if model.expect(op) == super::model::Expect::Skip {
            record.results.push(None);
            return Ok(());
        }
        record.ops_run += 1;
        let outcome = catch_unwind(AssertUnwindSafe(|| live.exec(op)))
            .map_err(|p| finding(Stage::Panic, Some(i), op.kind(), panic_message(p)))?;
        record.results.push(Some(result_kind(&outcome)));
        let checked = model.step(op, &outcome).map_err(|what| {
            finding(Stage::Model(format!("{policy:?}")), Some(i), op.kind(), what)
        })?;
        if let (Some(predicted), Ok(super::model::Value::Texels(got))) = (checked, &outcome) {
            record.readbacks.push(Readback { at: i, got: got.clone(), predicted });
        }
        let messages = diagnostics.take_messages();
        if !messages.is_empty() {
            return Err(finding(Stage::Validation, Some(i), op.kind(), messages.join("\n")));
        }
        Ok(())
    };
    let with_epilogue = |mut f: Box<Finding>, epilogue: &[Op]| {
        f.epilogue = epilogue.to_vec();
        f
    };
    for (i, op) in ops.iter().enumerate() {
        step(i, op, &mut live, &mut model, &mut record)?;
    }
    let tail = epilogue(&model);
    for (k, op) in tail.iter().enumerate() {
        step(ops.len() + k, op, &mut live, &mut model, &mut record)
            .map_err(|f| with_epilogue(f, &tail))?;
    }
    record.presents = model.presents;
    record.epilogue = tail.clone();
    record.checks = model.checks;
    if config.sabotage == Sabotage::CorruptFrameBlind && policy == CompilePolicy::FrameBlind {
        corrupt(&mut record.readbacks);
    }
    if capture.is_some_and(|(_, frames)| frames > 0) {
        let result = wait_for_capture(&live);
        if let Err(what) = result {
            return Err(with_epilogue(finding(Stage::Replay, None, "capture", what), &tail));
        }
    }
    catch_unwind(AssertUnwindSafe(|| drop(live))).map_err(|p| {
        with_epilogue(finding(Stage::Panic, None, "teardown", panic_message(p)), &tail)
    })?;
    let messages = diagnostics.take_messages();
    if !messages.is_empty() {
        let f = finding(Stage::Validation, None, "teardown", messages.join("\n"));
        return Err(with_epilogue(f, &tail));
    }
    Ok(record)
}

/// The capture's outcome once its last frame was presented.
fn wait_for_capture(live: &Live) -> Result<(), String> {
    live.device.wait_idle().map_err(|e| e.to_string())?;
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        match live.device.capture_result() {
            Some(Ok(_)) => return Ok(()),
            Some(Err(e)) => return Err(format!("the capture failed: {e}")),
            None if Instant::now() > until => return Err("the capture never finished".to_owned()),
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    }
}

/// Compares the runs of both policies: the same result kinds (a query's completion aside),
/// and the same readbacks wherever the model says the content is defined.
fn compare_policies(ops: &[Op], a: &RunRecord, b: &RunRecord) -> Result<(), Box<Finding>> {
    let all: Vec<&Op> = ops.iter().chain(&a.epilogue).collect();
    let finding = |at: usize, what: String| {
        Box::new(Finding {
            stage: Stage::Policies,
            op: Some(at),
            op_kind: all.get(at).map_or("end", |o| o.kind()),
            what,
            ops: ops.to_vec(),
            epilogue: a.epilogue.clone(),
        })
    };
    for (i, (ra, rb)) in a.results.iter().zip(&b.results).enumerate() {
        let timing = matches!(all.get(i), Some(Op::QueryComplete { .. } | Op::QueryPixels { .. }));
        if ra != rb && !timing {
            return Err(finding(i, format!("graph policy {ra:?}, frame-blind {rb:?}")));
        }
    }
    for (ra, rb) in a.readbacks.iter().zip(&b.readbacks) {
        if ra.at != rb.at {
            return Err(finding(ra.at, format!("readbacks at ops {} and {}", ra.at, rb.at)));
        }
        for (k, ((ga, gb), p)) in ra.got.iter().zip(&rb.got).zip(&ra.predicted).enumerate() {
            if p.defined() && ga != gb {
                return Err(finding(
                    ra.at,
                    format!("texel {k}: graph policy {ga:?}, frame-blind {gb:?} (model {p:?})"),
                ));
            }
        }
    }
    Ok(())
}

/// Replays the capture at `path` on `backend` and compares its final frame with `live`'s last
/// readback (the presented frame), where the model says it is defined.
fn compare_replay(
    ops: &[Op],
    path: &Path,
    live: &RunRecord,
    backend: &mut dyn Backend,
    corrupt_one: bool,
) -> Result<(), Box<Finding>> {
    let finding = |what: String| {
        Box::new(Finding {
            stage: Stage::Replay,
            op: None,
            op_kind: "replay",
            what,
            ops: ops.to_vec(),
            epilogue: live.epilogue.clone(),
        })
    };
    let capture =
        Capture::open(path).map_err(|e| finding(format!("the capture does not open: {e}")))?;
    let run = crate::replay::replay(backend, &capture, 1, None, || {})
        .map_err(|e| finding(format!("the replay failed: {e}")))?;
    let messages = backend.diagnostics().take_messages();
    if !messages.is_empty() {
        return Err(finding(format!("validation during the replay: {}", messages.join("\n"))));
    }
    let last = live.readbacks.last().expect("the epilogue reads the presented frame");
    let mut replayed: Vec<[u8; 4]> =
        run.final_back_buffer.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
    if corrupt_one {
        if let Some(k) = last.predicted.iter().position(|p| p.defined()) {
            replayed[k][1] ^= 0x55;
        }
    }
    if replayed.len() != last.got.len() {
        return Err(finding(format!(
            "{} pixels replayed, {} live",
            replayed.len(),
            last.got.len()
        )));
    }
    for (k, ((r, l), p)) in replayed.iter().zip(&last.got).zip(&last.predicted).enumerate() {
        if p.defined() && r != l {
            let (x, y) =
                (k % super::ops::BACK_BUFFER.0 as usize, k / super::ops::BACK_BUFFER.0 as usize);
            return Err(finding(format!(
                "pixel ({x}, {y}): replay {r:?}, live {l:?} (model {p:?})"
            )));
        }
    }
    Ok(())
}

/// A backend for replays of `kind`, validating when `validation`.
pub fn replay_backend(kind: BackendKind, validation: bool) -> Option<Box<dyn Backend>> {
    match kind {
        BackendKind::Vulkan => {
            let config = xnagraph_vulkan::VulkanConfig { validation, ..Default::default() };
            xnagraph_vulkan::VulkanBackend::new(config)
                .ok()
                .map(|b| Box::new(b) as Box<dyn Backend>)
        }
        BackendKind::SdlGpu => {
            let config =
                xnagraph_sdlgpu::SdlGpuConfig { debug_mode: validation, ..Default::default() };
            xnagraph_sdlgpu::SdlGpuBackend::new(config)
                .ok()
                .map(|b| Box::new(b) as Box<dyn Backend>)
        }
        BackendKind::Null => None,
    }
}

/// Capture files written so far by every checker of the process: each gets its own name, so
/// that checkers on several threads of one process (tests of one binary under `cargo test`)
/// never write one file.
static CAPTURES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The checker of whole sequences. Each sequence's replay gets a fresh backend, so that a
/// finding depends on its own sequence alone.
pub struct Checker {
    pub config: Config,
}

impl Checker {
    pub fn new(config: Config) -> Checker {
        Checker { config }
    }

    /// A capture file name no other checker of the process uses.
    fn next_capture_path(&self) -> std::path::PathBuf {
        let serial = CAPTURES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.config.scratch.join(format!("sequence-{}-{serial}.xgc", std::process::id()))
    }

    /// Checks `ops`: the graph-policy run against the model; then the frame-blind run, captured,
    /// against the model and the first run; then the capture's replay against the live frame.
    pub fn check(&mut self, ops: &[Op]) -> Result<Counts, Box<Finding>> {
        let a = run_once(ops, &self.config, CompilePolicy::Graph, None)?;
        let mut counts = Counts {
            operations: ops.len() + a.epilogue.len(),
            executed: a.ops_run,
            checks: a.checks,
        };
        if !self.config.second_run {
            return Ok(counts);
        }
        let path = self.next_capture_path();
        let _ = std::fs::create_dir_all(&self.config.scratch);
        let b = run_once(ops, &self.config, CompilePolicy::FrameBlind, Some((&path, a.presents)));
        let b = match b {
            Ok(b) => b,
            Err(f) => {
                let _ = std::fs::remove_file(&path);
                return Err(f);
            }
        };
        counts.executed += b.ops_run;
        let replay = replay_backend(self.config.backend, self.config.validation);
        let compared = compare_policies(ops, &a, &b).and_then(|()| match replay {
            Some(mut backend) if b.presents > 0 => {
                let corrupt = self.config.sabotage == Sabotage::CorruptReplay;
                compare_replay(ops, &path, &b, backend.as_mut(), corrupt)
            }
            _ => Ok(()),
        });
        let _ = std::fs::remove_file(&path);
        compared.map(|()| counts)
    }

    /// The shortest sequence found (within `budget`) that still shows `finding`'s class:
    /// the operations after the one it was found at dropped, then ever smaller chunks removed
    /// while the finding stays.
    pub fn shrink(&mut self, finding: &Finding, budget: Duration) -> Finding {
        let start = Instant::now();
        let class = finding.class();
        let mut best = finding.clone();
        let mut ops = finding.ops.clone();
        if let Some(at) = finding.op.filter(|&at| at < ops.len()) {
            if matches!(finding.stage, Stage::Model(_) | Stage::Panic) {
                ops.truncate(at + 1);
            }
        }
        let mut try_ops = |candidate: &[Op], best: &mut Finding| -> bool {
            match self.check(candidate) {
                Err(f) if f.class() == class => {
                    *best = *f;
                    true
                }
                _ => false,
            }
        };
        if ops.len() < finding.ops.len() && !try_ops(&ops, &mut best) {
            ops = finding.ops.clone();
        }
        let mut chunk = (ops.len() / 2).max(1);
        while chunk >= 1 && start.elapsed() < budget {
            let mut i = 0;
            let mut removed = false;
            while i < ops.len() && start.elapsed() < budget {
                let end = (i + chunk).min(ops.len());
                let candidate: Vec<Op> = ops[..i].iter().chain(&ops[end..]).cloned().collect();
                if try_ops(&candidate, &mut best) {
                    ops = candidate;
                    removed = true;
                } else {
                    i += chunk;
                }
            }
            if !removed {
                if chunk == 1 {
                    break;
                }
                chunk /= 2;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checkers on two threads of one process (two tests of one binary under `cargo test`)
    /// never write their captures to one file: before, each counted its own captures from 1
    /// and both wrote `sequence-PID-1.xgc`, one truncating the other's before its replay.
    #[test]
    fn checkers_of_one_process_never_share_a_capture_file() {
        let config = |backend| Config {
            backend,
            validation: false,
            sabotage: Sabotage::None,
            scratch: PathBuf::from("scratch"),
            second_run: true,
        };
        let (a, b) =
            (Checker::new(config(BackendKind::Vulkan)), Checker::new(config(BackendKind::SdlGpu)));
        let paths = [a.next_capture_path(), b.next_capture_path(), a.next_capture_path()];
        assert_ne!(paths[0], paths[1]);
        assert_ne!(paths[1], paths[2]);
        assert_ne!(paths[0], paths[2]);
    }
}
