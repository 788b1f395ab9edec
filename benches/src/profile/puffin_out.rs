//! A profiled replay as puffin frames: for puffin_viewer, through a `.puffin` file or streamed
//! by `puffin_http` to a viewer on the same machine.
//!
//! Each replayed frame becomes one puffin frame with two tracks on the timing clock
//! ([`xnagraph_graph::timing`]):
//! - `CPU (replay)`: a `frame` scope as long as the frame's wall-clock time holding `record`,
//!   `compile`, `lowering` and `submit` one after another from the frame's start. `record` is
//!   the captured game's recording time (a replay does not record), laid first; the others
//!   are the replay's own.
//! - `GPU`: one scope per plan node, named by its label (`pass scene`, `present back buffer`),
//!   where the timestamps put it; its data is the node's kind, load/store ops and draws. A frame
//!   without GPU time has no GPU track.
//!
//! Scopes are registered with puffin's global profiler, and every frame carries the
//! definitions of all of them: a file cut down to any range of frames keeps its names.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

use puffin::{FrameData, GlobalProfiler, ScopeDetails, ScopeId, Stream, StreamInfo, ThreadInfo};

use super::run::{FrameFigures, ProfileRun};

/// The CPU scopes of a frame, in the order they are laid out.
const CPU_SCOPES: [&str; 5] = ["frame", "record", "compile", "lowering", "submit"];

/// The track names.
pub const CPU_TRACK: &str = "CPU (replay)";
/// The GPU track's name.
pub const GPU_TRACK: &str = "GPU";

/// Scope ids by name, registered with the global profiler on first use.
#[derive(Default)]
struct Scopes(HashMap<String, ScopeId>);

impl Scopes {
    fn id(&mut self, profiler: &mut GlobalProfiler, name: &str) -> ScopeId {
        *self.0.entry(name.to_owned()).or_insert_with(|| {
            let details =
                ScopeDetails::from_scope_name(name.to_owned()).with_file("xnagraph-replay");
            profiler.register_user_scopes(&[details])[0]
        })
    }
}

fn ns(ms: f64) -> i64 {
    (ms * 1e6).round() as i64
}

/// The CPU track of one frame.
fn cpu_stream(profiler: &mut GlobalProfiler, scopes: &mut Scopes, f: &FrameFigures) -> Stream {
    let mut stream = Stream::default();
    let start = f.start_ns as i64;
    let parts = [f.record_ms, f.compile_ms, f.lower_ms, f.submit_ms];
    let total = parts.iter().sum::<f64>().max(f.frame_ms);
    let id = scopes.id(profiler, CPU_SCOPES[0]);
    let (frame, _) =
        stream.begin_scope(|| start, id, &format!("frame {} pass {}", f.frame, f.pass));
    let mut at = start;
    for (name, ms) in CPU_SCOPES[1..].iter().zip(parts) {
        let id = scopes.id(profiler, name);
        let (offset, _) = stream.begin_scope(|| at, id, "");
        at += ns(ms);
        stream.end_scope(offset, at);
    }
    stream.end_scope(frame, start + ns(total));
    stream
}

/// The GPU track of one frame: a scope per timed plan node.
fn gpu_stream(
    profiler: &mut GlobalProfiler,
    scopes: &mut Scopes,
    run: &ProfileRun,
    f: &FrameFigures,
) -> Option<Stream> {
    let mut stream = Stream::default();
    for submission in &f.submissions {
        let (plan, timing) = (run.plan(*submission)?, run.timings.get(submission)?);
        for (info, time) in plan.nodes.iter().zip(&timing.nodes) {
            let id = scopes.id(profiler, &info.name);
            let data = format!("{} {} draws {}", info.kind, info.ops, info.draws);
            let (offset, _) = stream.begin_scope(|| time.begin_ns as i64, id, &data);
            stream.end_scope(offset, time.end_ns as i64);
        }
    }
    (!stream.is_empty()).then_some(stream)
}

fn thread(name: &str) -> ThreadInfo {
    ThreadInfo { start_time_ns: None, name: name.to_owned() }
}

/// Turns every frame of `run` into a puffin frame, handed to the global profiler's sinks (a
/// `puffin_http` server among them, when one runs) and returned in order.
pub fn emit_frames(run: &ProfileRun) -> Result<Vec<Arc<FrameData>>, String> {
    let collected: Arc<Mutex<Vec<Arc<FrameData>>>> = Arc::default();
    let sink = collected.clone();
    let mut profiler = GlobalProfiler::lock();
    let sink_id = profiler.add_sink(Box::new(move |frame| {
        sink.lock().unwrap_or_else(PoisonError::into_inner).push(frame);
    }));
    let mut scopes = Scopes::default();
    let mut result = Ok(());
    for f in &run.frames {
        let cpu = cpu_stream(&mut profiler, &mut scopes, f);
        let gpu = gpu_stream(&mut profiler, &mut scopes, run, f);
        for (track, stream) in [(CPU_TRACK, Some(cpu)), (GPU_TRACK, gpu)] {
            let Some(stream) = stream else { continue };
            match StreamInfo::parse(stream) {
                Ok(info) => profiler.report_user_scopes(thread(track), &info.as_stream_into_ref()),
                Err(e) => result = Err(format!("a puffin stream did not parse: {e:?}")),
            }
        }
        // Every frame carries every scope's definition.
        profiler.emit_scope_snapshot();
        profiler.new_frame();
    }
    profiler.remove_sink(sink_id);
    drop(profiler);
    result?;
    let frames = std::mem::take(&mut *collected.lock().unwrap_or_else(PoisonError::into_inner));
    Ok(frames)
}

/// Emits a frame holding one `waiting for viewer` scope: puffin_http accepts a viewer's
/// connection only when a frame goes out, so a server waiting for one sends these.
pub fn emit_waiting_frame() {
    static SCOPE: std::sync::OnceLock<ScopeId> = std::sync::OnceLock::new();
    let mut profiler = GlobalProfiler::lock();
    let id = *SCOPE.get_or_init(|| {
        let details =
            ScopeDetails::from_scope_name("waiting for viewer").with_file("xnagraph-replay");
        profiler.register_user_scopes(&[details])[0]
    });
    let now = puffin::now_ns();
    let mut stream = Stream::default();
    let (offset, _) = stream.begin_scope(|| now, id, "");
    stream.end_scope(offset, now + 1);
    if let Ok(info) = StreamInfo::parse(stream) {
        profiler.report_user_scopes(thread(CPU_TRACK), &info.as_stream_into_ref());
    }
    profiler.emit_scope_snapshot();
    profiler.new_frame();
}

/// Writes `frames` as a `.puffin` stream (puffin_viewer opens it), each frame with its scope
/// definitions.
pub fn write_puffin(frames: &[Arc<FrameData>], out: &mut impl Write) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("writing puffin frames: {e}");
    out.write_all(b"PUF0").map_err(|e| fail(&e))?;
    let none = puffin::ScopeCollection::default();
    for frame in frames {
        frame.write_into(&none, false, out).map_err(|e| fail(&e))?;
    }
    Ok(())
}
