//! `--profile-file`: the sample writes its run's puffin scopes as a `.puffin` file that puffin
//! reads back, with the scopes of recording, every compile stage, lowering, submission and
//! retirement inside the frames.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use puffin::{FrameView, Reader, Stream};

/// A fresh path under the tests' scratch directory (nothing exists there yet).
fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Every scope id recorded in `stream`, at any depth.
fn recorded_ids(stream: &Stream, offset: u64, ids: &mut BTreeSet<puffin::ScopeId>) {
    let scopes = Reader::with_offset(stream, offset)
        .and_then(Reader::read_top_scopes)
        .expect("a scope stream of the file does not decode");
    for scope in scopes {
        ids.insert(scope.id);
        recorded_ids(stream, scope.child_begin_position, ids);
    }
}

#[test]
fn profile_file_holds_a_frame_per_rendered_frame_with_every_stage_scope() {
    let png = scratch("profiled.png");
    let file = scratch("profiled.puffin");
    let out = Command::new(env!("CARGO_BIN_EXE_xnagraph-samples"))
        .args(["--frames", "3", "--width", "64", "--height", "48"])
        .arg("--out")
        .arg(&png)
        .arg("--profile-file")
        .arg(&file)
        .env_remove("RUST_LOG")
        .output()
        .expect("the sample binary could not be started");
    assert!(out.status.success(), "{out:?}");

    let bytes = std::fs::read(&file).expect("no profile was written");
    assert!(bytes.len() > 4, "the profile is empty");
    let view = FrameView::read(&mut bytes.as_slice()).expect("the profile does not parse");

    // Three rendered frames and the readback of the last one close four profiler frames.
    let frames: Vec<_> = view.all_uniq().collect();
    assert_eq!(frames.len(), 4, "one profiler frame per rendered frame plus the readback");

    let mut recorded = BTreeSet::new();
    for frame in &frames {
        let unpacked = frame.unpacked().expect("a frame of the profile does not unpack");
        for stream in unpacked.thread_streams.values() {
            recorded_ids(&stream.stream, 0, &mut recorded);
        }
    }
    let names: BTreeSet<String> = recorded
        .iter()
        .filter_map(|id| view.scope_collection().fetch_by_id(id))
        .map(|details| details.name().to_string())
        .collect();
    for expected in [
        "flush",
        "record",
        "compile",
        "compile::nodes",
        "compile::load",
        "compile::store",
        "compile::cull",
        "compile::mips",
        "compile::clears",
        "compile::barriers",
        "submit",
        "lower",
        "queue_submit",
        "retire",
    ] {
        assert!(names.contains(expected), "no {expected} scope was recorded: {names:?}");
    }
}

/// Kills the sample when the test ends, however it ends.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn profile_serves_frames_that_a_puffin_viewer_decodes() {
    use std::io::Read;
    use std::net::TcpStream;
    use std::time::{Duration, Instant};

    let png = scratch("served.png");
    let _sample = Running(
        Command::new(env!("CARGO_BIN_EXE_xnagraph-samples"))
            .args(["--frames", "1000000", "--width", "32", "--height", "32", "--profile"])
            .arg("--out")
            .arg(&png)
            .env_remove("RUST_LOG")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the sample binary could not be started"),
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut stream = loop {
        match TcpStream::connect("127.0.0.1:8585") {
            Ok(stream) => break stream,
            Err(e) if Instant::now() > deadline => panic!("nothing serves 127.0.0.1:8585: {e}"),
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    };
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();

    // The render thread's scopes of a frame reach the profiler after the game thread has
    // started the next one, so they arrive with a later frame: read on until they do.
    let mut names = BTreeSet::new();
    for _ in 0..200 {
        // puffin_http's message: its protocol version (u16 LE), then one frame as in a .puffin
        // file.
        let mut version = [0_u8; 2];
        stream.read_exact(&mut version).expect("the server sent nothing");
        assert_eq!(u16::from_le_bytes(version), puffin_http::PROTOCOL_VERSION);
        let frame = puffin::FrameData::read_next(&mut stream)
            .expect("the served frame does not parse")
            .expect("the server closed the stream");
        let unpacked = frame.unpacked().expect("the served frame does not unpack");
        let scopes: usize = unpacked.thread_streams.values().map(|s| s.num_scopes).sum();
        assert!(scopes > 0, "the served frame holds no scopes");
        names.extend(frame.scope_delta.iter().map(|details| details.name().to_string()));
        if names.contains("compile::barriers") {
            break;
        }
    }
    assert!(names.contains("compile::barriers"), "{names:?}");
}
