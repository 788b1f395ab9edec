//! `xnagraph-replay replay`'s files and streams: the `.puffin` file read back with puffin's own
//! reader (frames, scope names, a GPU scope per plan node, names kept by every frame), the
//! stream to a puffin_http client, the frame-time SVG, the DOT of a chosen frame and PNGs of
//! chosen frames equal to the live run's, and the Chrome trace (tracks that nest, a GPU slice per
//! plan node on the CPU clock).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use puffin::{FrameData, FrameView, Reader, ScopeCollection};
use xnagraph::{
    BlendState, Color, DeviceOptions, GraphicsDevice, GraphicsProfile, PresentationParameters,
    Rectangle, RenderTarget2D, SpriteBatch, SpriteSortMode, Texture2D, Vector2,
};

const W: i32 = 64;
const H: i32 = 48;
const FRAMES: u32 = 6;

fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Captures `FRAMES` frames (an upload in the first, then the target "scene" drawn and
/// composited each frame); returns the file and the live back buffer of every frame.
fn capture(name: &str) -> (PathBuf, Vec<Vec<Color>>) {
    let path = scratch(name);
    let params = PresentationParameters {
        back_buffer_width: W,
        back_buffer_height: H,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions { validation: true, ..DeviceOptions::from_env() };
    let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap();
    device.capture_frames(&path, 0..=FRAMES as u64 - 1).unwrap();
    let scene = RenderTarget2D::new(&device, W / 2, H / 2).unwrap();
    scene.set_name("scene");
    let ball = Texture2D::new(&device, 2, 2).unwrap();
    ball.set_data(&[Color::RED, Color::WHITE, Color::BLUE, Color::WHITE]).unwrap();
    let mut batch = SpriteBatch::new(&device).unwrap();
    let mut live = Vec::new();
    for frame in 0..FRAMES {
        device.set_render_target(Some(&scene)).unwrap();
        device.clear(Color::new(10, 20, 30, 255)).unwrap();
        batch.begin().unwrap();
        batch.draw(&ball, Vector2::new(3.0 * frame as f32, 3.0), Color::WHITE).unwrap();
        batch.end().unwrap();
        device.set_render_target(None).unwrap();
        device.clear(Color::BLACK).unwrap();
        batch
            .begin_with(SpriteSortMode::Deferred, Some(BlendState::OPAQUE), None, None, None, None)
            .unwrap();
        batch.draw_rect(&scene, Rectangle::new(5, 4, W - 8, H - 6), Color::WHITE).unwrap();
        batch.end().unwrap();
        let mut pixels = vec![Color::TRANSPARENT; (W * H) as usize];
        device.get_back_buffer_data(None, &mut pixels, 0, (W * H) as usize).unwrap();
        live.push(pixels);
        device.present().unwrap();
    }
    device.wait_idle().unwrap();
    assert!(device.capture_result().expect("finished").is_ok());
    assert!(device.diagnostics().take_messages().is_empty());
    (path, live)
}

fn replay(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xnagraph-replay")).args(args).output().unwrap();
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

/// Scope names of a frame's track, top level, and the names of each top scope's children.
fn track(frame: &FrameData, scopes: &ScopeCollection, name: &str) -> Vec<(String, Vec<String>)> {
    let unpacked = frame.unpacked().unwrap();
    let Some((_, info)) = unpacked.thread_streams.iter().find(|(t, _)| t.name == name) else {
        return Vec::new();
    };
    let name_of = |id| {
        scopes.fetch_by_id(&id).map_or_else(|| "<no name>".to_owned(), |d| d.name().to_string())
    };
    Reader::from_start(&info.stream)
        .read_top_scopes()
        .unwrap()
        .into_iter()
        .map(|top| {
            let children = Reader::with_offset(&info.stream, top.child_begin_position)
                .unwrap()
                .map(|c| name_of(c.unwrap().id))
                .collect();
            (name_of(top.id), children)
        })
        .collect()
}

fn read_puffin(path: &Path) -> FrameView {
    FrameView::read(&mut std::fs::File::open(path).unwrap()).expect("puffin reads the file")
}

/// The GPU scopes of a frame: its first flush (the test reads the back buffer before
/// presenting), then the present's.
fn gpu_names(first: bool) -> Vec<String> {
    let mut names =
        vec!["pass scene", "pass back buffer", "readback back buffer", "present back buffer"];
    if first {
        names.insert(0, "upload unnamed");
    }
    names.into_iter().map(str::to_owned).collect()
}

/// Captures the scene as `name`.xgc and replays it twice with validation, writing the file
/// `flag` names to `out` (a scratch file); returns that file.
fn replayed_twice_into(name: &str, flag: &str, out: &str) -> PathBuf {
    let (path, _) = capture(&format!("{name}.xgc"));
    let out = scratch(out);
    let args = ["replay", path.to_str().unwrap(), "--validation", "--repeat", "2"];
    let (ok, text) = replay(&[&args[..], &[flag, out.to_str().unwrap()]].concat());
    assert!(ok, "{text}");
    out
}

#[test]
fn the_puffin_file_holds_cpu_scopes_and_a_gpu_scope_per_plan_node_in_every_frame() {
    let out = replayed_twice_into("puffin", "--puffin", "out.puffin");
    let view = read_puffin(&out);
    let frames: Vec<Arc<FrameData>> = view.all_uniq().cloned().collect();
    assert_eq!(frames.len(), 2 * FRAMES as usize, "a puffin frame per replayed frame");
    for (i, frame) in frames.iter().enumerate() {
        let cpu = track(frame, view.scope_collection(), "CPU (replay)");
        let stages = ["record", "compile", "lowering", "submit"].map(str::to_owned).to_vec();
        assert_eq!(cpu, [("frame".to_owned(), stages)], "frame {i}");
        let gpu: Vec<String> =
            track(frame, view.scope_collection(), "GPU").into_iter().map(|(n, _)| n).collect();
        assert_eq!(gpu, gpu_names(i % FRAMES as usize == 0), "frame {i}");
    }

    // Frames 3 to 5 alone, as a tool cutting a range out of the file writes them: every scope
    // still has its name.
    let cut = scratch("cut.puffin");
    let mut file = std::fs::File::create(&cut).unwrap();
    std::io::Write::write_all(&mut file, b"PUF0").unwrap();
    for frame in &frames[3..6] {
        frame.write_into(&ScopeCollection::default(), false, &mut file).unwrap();
    }
    drop(file);
    let cut_view = read_puffin(&cut);
    let cut_frames: Vec<_> = cut_view.all_uniq().cloned().collect();
    assert_eq!(cut_frames.len(), 3);
    for frame in &cut_frames {
        let gpu: Vec<String> =
            track(frame, cut_view.scope_collection(), "GPU").into_iter().map(|(n, _)| n).collect();
        assert_eq!(gpu, gpu_names(false), "names survive the cut");
        let cpu = track(frame, cut_view.scope_collection(), "CPU (replay)");
        assert_eq!(cpu[0].0, "frame");
    }
}

#[test]
fn the_frames_stream_to_a_puffin_http_client_on_the_loopback_address() {
    let (path, _) = capture("serve.xgc");
    let port = 18585 + (std::process::id() % 1000) as u16;
    let addr = format!("127.0.0.1:{port}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_xnagraph-replay"))
        .args(["replay", path.to_str().unwrap(), "--serve", &addr, "--serve-wait", "60"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let client = puffin_http::Client::new(addr.clone());
    let deadline = Instant::now() + Duration::from_secs(60);
    let streamed = |view: &FrameView| {
        view.all_uniq().filter(|f| !track(f, view.scope_collection(), "GPU").is_empty()).count()
    };
    while streamed(&client.frame_view()) < FRAMES as usize && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = child.wait().unwrap();
    assert!(status.success());
    let view = client.frame_view();
    // Frames of the replay, after the server's waiting frames.
    let frames: Vec<_> = view
        .all_uniq()
        .filter(|f| !track(f, view.scope_collection(), "GPU").is_empty())
        .cloned()
        .collect();
    assert_eq!(frames.len(), FRAMES as usize, "every replayed frame streamed");
    let gpu: Vec<String> =
        track(&frames[1], view.scope_collection(), "GPU").into_iter().map(|(n, _)| n).collect();
    assert_eq!(gpu, gpu_names(false));

    let (ok, text) = replay(&["replay", path.to_str().unwrap(), "--serve", "0.0.0.0:18584"]);
    assert!(!ok && text.contains("only a loopback address"), "{text}");
}

fn decode_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
fn plot_dot_and_chosen_frames_are_written() {
    let (path, live) = capture("outputs.xgc");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("outputs-pngs");
    let _ = std::fs::remove_dir_all(&dir);
    let (plot, dot) = (scratch("frames.svg"), scratch("frame0.dot"));
    let (ok, text) = replay(&[
        "replay",
        path.to_str().unwrap(),
        "--validation",
        "--plot",
        plot.to_str().unwrap(),
        "--dot",
        "0",
        dot.to_str().unwrap(),
        "--png-frames",
        "1,4",
        dir.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
    assert!(svg.contains(">gpu</text>") && svg.contains("<polyline"), "{svg}");
    assert!(svg.contains(&format!("frame {FRAMES}")), "{svg}");
    // Frame 0's larger flush: the upload, two passes and the test's readback.
    let graph = std::fs::read_to_string(&dot).unwrap();
    assert!(graph.starts_with("digraph frame {"), "{graph}");
    // Boxes are `nK [label=…]`; edges `nA -> nB [label=…]`.
    let boxes = graph.lines().filter(|l| {
        let mut words = l.split_whitespace();
        words.next().is_some_and(|w| w.starts_with('n') && w[1..].parse::<u32>().is_ok())
            && words.next().is_some_and(|w| w.starts_with("[label="))
    });
    assert_eq!(boxes.count(), 4, "{graph}");
    for frame in [1usize, 4] {
        let (w, h, bytes) = decode_png(&dir.join(format!("frame-{frame}.png")));
        assert_eq!((w, h), (W as u32, H as u32));
        let expected: Vec<u8> = live[frame].iter().flat_map(|c| [c.r, c.g, c.b, c.a]).collect();
        assert_eq!(bytes, expected, "frame {frame} as the live run drew it");
    }
    assert_ne!(live[1], live[4], "the chosen frames differ");
    assert!(!dir.join("frame-2.png").exists());
}

/// The `X` slices of a Chrome trace by thread id, each as (name, begin µs, end µs, args).
type Slices = std::collections::BTreeMap<u64, Vec<(String, f64, f64, serde_json::Value)>>;

fn trace_slices(trace: &serde_json::Value) -> Slices {
    let mut slices = Slices::new();
    for event in trace["traceEvents"].as_array().expect("traceEvents") {
        if event["ph"] != "X" {
            continue;
        }
        let (ts, dur) = (event["ts"].as_f64().unwrap(), event["dur"].as_f64().unwrap());
        assert!(ts.is_finite() && dur >= 0.0, "{event}");
        let name = event["name"].as_str().unwrap().to_owned();
        let tid = event["tid"].as_u64().unwrap();
        slices.entry(tid).or_default().push((name, ts, ts + dur, event["args"].clone()));
    }
    slices
}

/// Whether the slices of one track nest: each lies inside the one open around it, or after it.
fn nests(track: &[(String, f64, f64, serde_json::Value)]) -> bool {
    let mut sorted: Vec<_> = track.iter().map(|(_, b, e, _)| (*b, *e)).collect();
    sorted.sort_by(|x, y| x.0.total_cmp(&y.0).then(y.1.total_cmp(&x.1)));
    let mut open: Vec<f64> = Vec::new();
    for (begin, end) in sorted {
        while open.last().is_some_and(|&top| top <= begin + 1e-6) {
            open.pop();
        }
        if open.last().is_some_and(|&top| end > top + 1e-6) {
            return false;
        }
        open.push(end);
    }
    true
}

#[test]
fn the_trace_is_chrome_trace_events_with_nested_cpu_stages_and_a_gpu_slice_per_plan_node() {
    let out = replayed_twice_into("trace", "--trace", "out.trace.json");
    let trace: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out).unwrap()).expect("the trace is JSON");
    // Tracks are named by metadata events.
    let mut tracks = std::collections::BTreeMap::new();
    for event in trace["traceEvents"].as_array().unwrap() {
        if event["ph"] == "M" && event["name"] == "thread_name" {
            tracks.insert(event["tid"].as_u64().unwrap(), event["args"]["name"].clone());
        }
    }
    let cpu_tid = *tracks.iter().find(|(_, n)| *n == "CPU (replay)").expect("a CPU track").0;
    let gpu_tids: Vec<u64> = tracks
        .iter()
        .filter(|(_, n)| n.as_str().is_some_and(|n| n.starts_with("GPU")))
        .map(|(t, _)| *t)
        .collect();
    assert!(!gpu_tids.is_empty(), "a GPU track: {tracks:?}");
    let slices = trace_slices(&trace);
    for (tid, track) in &slices {
        assert!(nests(track), "track {tid} has slices overlapping without nesting");
    }

    // The CPU track: each frame's slice, then its four stages in order inside it.
    let cpu = &slices[&cpu_tid];
    let frames: Vec<_> = cpu.iter().filter(|s| s.0.starts_with("frame ")).collect();
    assert_eq!(frames.len(), 2 * FRAMES as usize, "a CPU slice per replayed frame");
    assert_eq!(cpu.len(), 5 * frames.len(), "a frame and its four stages");
    for (i, group) in cpu.chunks(5).enumerate() {
        let frame = &group[0];
        assert_eq!(frame.0, format!("frame {} pass {}", i % FRAMES as usize, i / FRAMES as usize));
        let stages: Vec<&str> = group[1..].iter().map(|s| s.0.as_str()).collect();
        assert_eq!(stages, ["record", "compile", "lowering", "submit"], "frame {i}");
        for stage in &group[1..] {
            assert!(stage.1 >= frame.1 && stage.2 <= frame.2 + 1e-6, "frame {i}: {}", stage.0);
        }
    }

    // The GPU tracks: every plan node of every frame, in submission order, each beginning after
    // its frame began on the CPU (one clock for both).
    let mut gpu: Vec<_> =
        gpu_tids.iter().flat_map(|t| slices.get(t).into_iter().flatten()).collect();
    gpu.sort_by(|x, y| x.1.total_cmp(&y.1));
    for (i, frame) in frames.iter().enumerate() {
        let (f, pass) = (i % FRAMES as usize, i / FRAMES as usize);
        let nodes: Vec<_> =
            gpu.iter().filter(|s| s.3["frame"] == f && s.3["pass"] == pass).collect();
        let names: Vec<String> = nodes.iter().map(|s| s.0.clone()).collect();
        assert_eq!(names, gpu_names(f == 0), "frame {i}");
        for node in nodes {
            assert!(node.1 >= frame.1, "frame {i}: {} began on the GPU before its frame", node.0);
            assert!(node.3["gpu_ms"].as_f64().unwrap() >= 0.0);
        }
    }
}

#[test]
fn the_event_list_of_a_frame_names_every_draw_with_its_state_as_text_and_json() {
    let (path, _) = capture("events.xgc");
    let json = scratch("events.json");
    let (ok, text) = replay(&[
        "replay",
        path.to_str().unwrap(),
        "--list",
        "2",
        "--list-json",
        json.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    // The scene's pass draws the ball with SpriteBatch's defaults; the back buffer's draws the
    // scene opaquely. Their clears became the passes' clear loads.
    let scene = "DrawSprites(1 sprites) SpriteEffect | blend AlphaBlend | depth None | rasterizer \
                 CullCounterClockwise | sampler LinearClamp | textures [unnamed] | viewport 32x24+0+0";
    let back = "DrawSprites(1 sprites) SpriteEffect | blend Opaque | depth None | rasterizer \
                CullCounterClockwise | sampler LinearClamp | textures [scene] | viewport 64x48+0+0";
    let listed: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("frame 2:")).collect();
    assert_eq!(listed[1], "pass scene (pass) scene:color clear/store", "{text}");
    assert_eq!(listed[2].trim_start(), format!("1  {scene}"), "{text}");
    assert_eq!(listed[3], "pass back buffer (pass) back buffer:color clear/store", "{text}");
    assert_eq!(listed[4].trim_start(), format!("2  {back}"), "{text}");

    let nodes: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let nodes = nodes.as_array().unwrap();
    let names: Vec<&str> = nodes.iter().map(|n| n["node"].as_str().unwrap()).collect();
    assert_eq!(names, gpu_names(false));
    let draw = &nodes[1]["events"][0];
    assert_eq!(draw["event"], "draw");
    assert_eq!(draw["call"], "DrawSprites");
    assert_eq!(draw["blend"], "Opaque");
    assert_eq!(draw["textures"], serde_json::json!(["scene"]));
    assert_eq!(draw["viewport"], serde_json::json!([0, 0, W, H]));
    assert_eq!(draw["sprites"], 1);
}

/// Writes the report of a fresh capture's frame 2; returns the page's path and text.
fn report_of_frame_2(name: &str) -> (PathBuf, String) {
    let (path, _) = capture(&format!("{name}.xgc"));
    let out = scratch(&format!("{name}.html"));
    let (ok, text) = replay(&[
        "report",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--frame",
        "2",
        "--repeat",
        "2",
        "--validation",
    ]);
    assert!(ok, "{text}");
    let page = std::fs::read_to_string(&out).unwrap();
    (out, page)
}

/// The JSON the page draws.
fn report_data(page: &str) -> serde_json::Value {
    let open = r#"<script type="application/json" id="data">"#;
    let start = page.find(open).expect("the data element") + open.len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).expect("the data is JSON")
}

/// Decodes a `data:image/png;base64,` URI into (width, height, RGBA8).
fn data_uri_png(uri: &str) -> (u32, u32, Vec<u8>) {
    use base64::Engine;
    let b64 = uri.strip_prefix("data:image/png;base64,").expect("a PNG data URI");
    let bytes = base64::engine::general_purpose::STANDARD.decode(b64).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    (info.width, info.height, pixels)
}

#[test]
fn the_report_is_one_self_contained_page_with_every_node_and_pass_image_of_its_frame() {
    let (_, page) = report_of_frame_2("report");
    for outside in ["<link", "@import", "src=\"http", "href=\"http", "<iframe", "<script src"] {
        assert!(!page.contains(outside), "the page refers outside itself: {outside}");
    }
    assert_eq!(page.matches("url(").count(), page.matches("url(#").count(), "only local url()s");
    let namespace = "\"http://www.w3.org/2000/svg\"";
    assert_eq!(
        page.matches("http").count(),
        page.matches(namespace).count(),
        "only SVG's namespace"
    );
    assert!(page.len() < 5 << 20, "{} bytes", page.len());

    let data = report_data(&page);
    assert_eq!(data["frames"].as_array().unwrap().len(), 2 * FRAMES as usize, "both passes' times");
    assert_eq!(
        data["details"].as_array().unwrap().len(),
        FRAMES as usize,
        "the first pass's plans"
    );
    let chosen = data["details"].as_array().unwrap().iter().find(|d| d["frame"] == 2).unwrap();
    let names: Vec<&str> =
        chosen["nodes"].as_array().unwrap().iter().map(|n| n["name"].as_str().unwrap()).collect();
    assert_eq!(names, gpu_names(false));
    let edges: Vec<(u64, u64, &str)> = chosen["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (e["from"].as_u64().unwrap(), e["to"].as_u64().unwrap(), e["label"].as_str().unwrap())
        })
        .collect();
    assert!(edges.contains(&(0, 1, "RAW")), "the back buffer's pass samples the scene: {edges:?}");
    assert!(chosen["text"].as_str().unwrap().contains("\"pass scene\""));

    // What each pass left: the scene as cleared, with the ball's red texel where frame 2 drew
    // it (at x = 6, y = 3), and the back buffer with the scene composited at (5, 4).
    let images = data["images"].as_array().unwrap();
    let image = |name: &str| images.iter().find(|i| i["attachment"] == name).unwrap();
    let (w, h, scene) = data_uri_png(image("scene:color")["png"].as_str().unwrap());
    assert_eq!((w, h), (W as u32 / 2, H as u32 / 2));
    let at = |x: u32, y: u32| &scene[((y * w + x) * 4) as usize..][..4];
    assert_eq!(at(w / 2 + 3, h / 2 + 3), [10, 20, 30, 255]);
    assert_eq!(at(6, 3), [255, 0, 0, 255]);
    let (bw, _, back) = data_uri_png(image("back buffer:color")["png"].as_str().unwrap());
    assert_eq!(&back[..4], [0, 0, 0, 255], "outside the composite: the clear");
    let inside = ((20 * bw + 40) * 4) as usize;
    assert_eq!(&back[inside..inside + 4], [10, 20, 30, 255], "inside: the scene's clear");
}

/// The browser on this machine, if one is installed.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|p| p.is_file())
}

/// Runs headless `browser` on `page` with `args`; returns (stdout, stderr).
fn headless(browser: &Path, page: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"])
        .args(["--window-size=1300,2600", "--enable-logging=stderr", "--v=0"])
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `data-box` (x, y, width, height) of every element of the dumped DOM whose class is
/// `class`, with its `data-node` when it has one.
fn boxes(dom: &str, class: &str) -> Vec<(Option<u64>, [f64; 4])> {
    let attribute = |tag: &str, name: &str| {
        let key = format!(" {name}=\"");
        let start = tag.find(&key)? + key.len();
        Some(tag[start..start + tag[start..].find('"')?].to_owned())
    };
    dom.match_indices(&format!("class=\"{class}\""))
        .map(|(i, _)| {
            let tag = &dom[dom[..i].rfind('<').unwrap()..i + dom[i..].find('>').unwrap()];
            let b: Vec<f64> = attribute(tag, "data-box")
                .expect("a drawn element has its box")
                .split(',')
                .map(|v| v.parse().unwrap())
                .collect();
            (attribute(tag, "data-node").map(|n| n.parse().unwrap()), [b[0], b[1], b[2], b[3]])
        })
        .collect()
}

#[test]
fn the_report_opens_in_a_browser_without_errors_and_draws_what_its_data_says() {
    let Some(browser) = chromium() else {
        println!("SKIPPED: chromium is not installed, so the report was not opened in a browser");
        return;
    };
    let (page, text) = report_of_frame_2("report_browser");
    let data = report_data(&text);
    let chosen = data["details"].as_array().unwrap().iter().find(|d| d["frame"] == 2).unwrap();
    let nodes = chosen["nodes"].as_array().unwrap();

    let (dom, log) = headless(&browser, &page, &["--dump-dom"]);
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "the page logged: {console:#?}");
    assert_eq!(dom.matches("class=\"node-row\"").count(), nodes.len(), "a table row per node");
    assert_eq!(dom.matches("class=\"graph-node\"").count(), nodes.len(), "a graph box per node");
    for n in nodes {
        let name = n["name"].as_str().unwrap();
        assert!(dom.contains(&format!("<td class=\"l\">{name}</td>")), "{name} in the table");
    }
    // A GPU bar per timed node, each as long as its node's GPU time (to a pixel).
    let bars = boxes(&dom, "gpu-bar");
    assert_eq!(bars.len(), nodes.len(), "every node was timed");
    let gpu = |id: u64| nodes[id as usize]["gpu_ms"].as_f64().unwrap();
    let (longest, widest) =
        bars.iter().map(|(id, b)| (id.unwrap(), b[2])).max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
    for (id, b) in &bars {
        let want = widest * gpu(id.unwrap()) / gpu(longest);
        assert!(
            (b[2] - want).abs() <= 1.0 || b[2] <= 1.0 && want <= 1.0,
            "node {id:?}: {} px, {want}",
            b[2]
        );
    }

    // The screenshot agrees: the longest bar is drawn in its kind's colour along its length,
    // and the scene's thumbnail shows the scene's clear colour at its centre.
    let shot = scratch("report_browser.png");
    let (_, log) = headless(&browser, &page, &[&format!("--screenshot={}", shot.display())]);
    assert!(shot.exists(), "no screenshot: {log}");
    let (sw, sh, pixels) = decode_png(&shot);
    let channels = pixels.len() / (sw * sh) as usize;
    let pixel = |x: f64, y: f64| {
        let i = (y.round() as usize * sw as usize + x.round() as usize) * channels;
        [pixels[i], pixels[i + 1], pixels[i + 2]]
    };
    let bar = bars.iter().find(|(id, _)| *id == Some(longest)).unwrap().1;
    let kind_colour = match nodes[longest as usize]["kind"].as_str().unwrap() {
        "pass" => [0x4e, 0x79, 0xa7],
        "readback" => [0xe1, 0x57, 0x59],
        "present" => [0xed, 0xc9, 0x48],
        other => panic!("unexpected longest node kind {other}"),
    };
    for t in [0.2, 0.5, 0.8] {
        assert_eq!(pixel(bar[0] + bar[2] * t, bar[1] + bar[3] / 2.0), kind_colour, "bar at {t}");
    }
    let thumbs = boxes(&dom, "thumb-img");
    assert_eq!(thumbs.len(), 2, "an image per pass attachment of frame 2");
    let scene = thumbs[0].1;
    assert_eq!(pixel(scene[0] + scene[2] * 0.75, scene[1] + scene[3] * 0.75), [10, 20, 30]);
}

/// The `src` data URI of the element with id `id`.
fn image_src<'a>(page: &'a str, id: &str) -> &'a str {
    let at = page.find(&format!("id=\"{id}\" src=\"")).expect("the image") + id.len() + 11;
    &page[at..at + page[at..].find('"').unwrap()]
}

#[test]
fn the_diff_page_shows_both_final_frames_their_difference_and_each_nodes_deltas() {
    let (path, live) = capture("diff_page.xgc");
    let out = scratch("diff.html");
    let (ok, text) = replay(&[
        "diff",
        path.to_str().unwrap(),
        "--frame-blind-b",
        "--html",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(!page.contains("http") && !page.contains("<script"), "self-contained, no script");
    // The frame-blind policy draws the same pixels: both frames are the live one, the
    // difference is black.
    assert!(page.contains("final frame: 0 differing pixels, max channel error 0"), "{page}");
    let last: Vec<u8> = bytemuck::cast_slice(live.last().unwrap()).to_vec();
    for side in ["a", "b"] {
        let (w, h, rgba) = data_uri_png(image_src(&page, side));
        assert_eq!((w, h), (W as u32, H as u32));
        assert_eq!(rgba, last, "side {side}");
    }
    let (_, _, difference) = data_uri_png(image_src(&page, "difference"));
    assert!(difference.chunks(4).all(|p| p == [0, 0, 0, 255]));
    // A row per node of the text table, each with its traffic bar (and its GPU bar where both
    // sides were timed); the summary's traffic figure is the text's.
    let listed = text.lines().skip_while(|l| !l.starts_with("node ")).skip(1);
    let rows = listed.take_while(|l| !l.starts_with("attachment traffic")).count();
    assert!(rows >= 4, "{text}");
    assert_eq!(page.matches("class=\"delta-row\"").count(), rows);
    let untimed = page.matches("<td class=\"muted\">").count();
    assert_eq!(page.matches("class=\"delta\"").count(), 2 * rows - untimed);
    let total = text.lines().find(|l| l.starts_with("attachment traffic")).unwrap();
    let bytes = total.split(": ").nth(1).unwrap();
    assert!(page.contains(&format!("attachment traffic B − A: {bytes}")), "{total}");
    if let Some(browser) = chromium() {
        let (dom, log) = headless(&browser, &out, &["--dump-dom"]);
        let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
        assert!(console.is_empty(), "{console:#?}");
        assert_eq!(dom.matches("class=\"delta-row\"").count(), rows);
    } else {
        println!(
            "SKIPPED: chromium is not installed, so the diff page was not opened in a browser"
        );
    }
}
