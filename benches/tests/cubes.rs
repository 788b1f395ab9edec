//! The `cubes` stress scenario and its hand-written reference on the default adapter (lavapipe
//! in CI) with Khronos' validation layer: in both modes the reference, drawn from the cubes the
//! scenario's last frame drew, gives the engine's pixels inside the cubes' faces (edges may
//! round the other way), the two modes give each other's pixels there, a reference given other
//! colours is caught, and `xnagraph-stress cubes --ash-reference` prints the figures it promises.

use std::process::Command;

use xnagraph::DepthFormat;
use xnagraph::{DeviceOptions, GraphicsDevice, GraphicsProfile, PresentationParameters};
use xnagraph_benches::ash_cubes::{AshCubes, CubeInstance, DrawMode};
use xnagraph_benches::stress::cubes::{back_buffer, mesh, CubeOptions, Cubes, CLEAR};
use xnagraph_benches::stress::Scenario;

const WIDTH: i32 = 192;
const HEIGHT: i32 = 108;
const CUBES: u32 = 50;
/// Frames run; the last one, compared, has every cube turned a step from where it started.
const FRAMES: u32 = 2;
/// The largest channel difference allowed inside a face: the last bit of differently ordered
/// float operations.
const TOLERANCE: u8 = 2;

/// A validating engine device with a small Depth24 back buffer; a long GPU timeout, as lavapipe
/// compiles a shader variant for each new BasicEffect value today.
fn device() -> GraphicsDevice {
    let params = PresentationParameters {
        back_buffer_width: WIDTH,
        back_buffer_height: HEIGHT,
        depth_stencil_format: DepthFormat::Depth24,
        ..PresentationParameters::default()
    };
    let options = DeviceOptions {
        validation: true,
        timeout: std::time::Duration::from_secs(600),
        ..DeviceOptions::from_env()
    };
    GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap()
}

/// Runs [`FRAMES`] frames of the scenario in `mode`; the back buffer after the last, and the
/// scenario (its cubes where that frame drew them).
fn engine_frame(mode: DrawMode) -> (Vec<[u8; 4]>, Cubes) {
    let device = device();
    let options = CubeOptions { cubes: CUBES, mode, size: (WIDTH, HEIGHT), seed: 3 };
    let mut cubes = Cubes::new(&device, options).unwrap();
    for frame in 0..FRAMES {
        cubes.update(frame);
        cubes.record(&device, frame).unwrap();
        device.present().unwrap();
    }
    let pixels = back_buffer(&device, (WIDTH, HEIGHT)).unwrap();
    assert_eq!(device.diagnostics().take_messages(), Vec::<String>::new());
    (pixels, cubes)
}

/// The reference's frame of `instances` in `mode`, lit by `cubes`' scene.
fn reference_frame(cubes: &Cubes, mode: DrawMode, instances: &[CubeInstance]) -> Vec<[u8; 4]> {
    let (vertices, indices) = mesh();
    let size = (WIDTH as u32, HEIGHT as u32);
    let mut reference =
        AshCubes::new(true, mode, size, (&vertices, &indices), cubes.scene()).unwrap();
    let times = reference.draw(instances, CLEAR.map(|c| f32::from(c) / 255.0)).unwrap();
    assert!(times.gpu_ns > 0.0 && times.cpu_ns > 0.0, "the draw was timed: {times:?}");
    let pixels = reference.read_pixels().unwrap();
    assert_eq!(reference.take_messages(), Vec::<String>::new());
    pixels
}

fn pixel(image: &[[u8; 4]], (x, y): (usize, usize)) -> [u8; 4] {
    image[y * WIDTH as usize + x]
}

fn difference(a: [u8; 4], b: [u8; 4]) -> u8 {
    a.iter().zip(b).map(|(p, q)| p.abs_diff(q)).max().unwrap_or(0)
}

/// Points inside cubes' faces, away from the image's centre, in clearly distinct colours: each
/// the middle of a 5×5 block whose every pixel is within 8 of it (so no edge is near) and not
/// the clear colour, each colour at least 32 from the others' in some channel.
fn face_points(image: &[[u8; 4]]) -> Vec<(usize, usize)> {
    let (w, h) = (WIDTH as usize, HEIGHT as usize);
    let mut points: Vec<(usize, usize)> = Vec::new();
    for y in (2..h - 2).step_by(3) {
        for x in (2..w - 2).step_by(3) {
            let centre = pixel(image, (x, y));
            let near_middle = x.abs_diff(w / 2) < w / 10 && y.abs_diff(h / 2) < h / 10;
            if near_middle || centre == CLEAR {
                continue;
            }
            let flat = (y - 2..=y + 2)
                .all(|v| (x - 2..=x + 2).all(|u| difference(pixel(image, (u, v)), centre) <= 8));
            let distinct = points.iter().all(|&p| difference(pixel(image, p), centre) >= 32);
            if flat && distinct {
                points.push((x, y));
            }
        }
    }
    points
}

/// A point where two frames differ by more than [`TOLERANCE`], and their pixels there.
#[derive(Debug)]
#[allow(dead_code)] // Read through Debug, in assertion messages.
struct Disagreement {
    at: (usize, usize),
    a: [u8; 4],
    b: [u8; 4],
}

/// The points of `points` where `a` and `b` differ by more than [`TOLERANCE`].
fn disagreements(a: &[[u8; 4]], b: &[[u8; 4]], points: &[(usize, usize)]) -> Vec<Disagreement> {
    points
        .iter()
        .filter(|&&at| difference(pixel(a, at), pixel(b, at)) > TOLERANCE)
        .map(|&at| Disagreement { at, a: pixel(a, at), b: pixel(b, at) })
        .collect()
}

#[test]
fn the_reference_and_both_modes_give_the_same_pixels_inside_the_faces() {
    let (draws, cubes) = engine_frame(DrawMode::Draws);
    let (instanced, _) = engine_frame(DrawMode::Instanced);
    let points = face_points(&draws);
    assert!(points.len() >= 4, "too few face points in distinct colours: {points:?}");
    for (mode, engine) in [(DrawMode::Draws, &draws), (DrawMode::Instanced, &instanced)] {
        let reference = reference_frame(&cubes, mode, cubes.instances());
        let wrong = disagreements(engine, &reference, &points);
        assert!(wrong.is_empty(), "{mode:?}: engine vs reference at {wrong:?}");
        // Edges aside, the whole frames agree.
        let off = engine.iter().zip(&reference).filter(|(a, b)| difference(**a, **b) > TOLERANCE);
        let share = off.count() as f64 / engine.len() as f64;
        assert!(share < 0.05, "{mode:?}: {:.1}% of the pixels differ", share * 100.0);
    }
    let wrong = disagreements(&draws, &instanced, &points);
    assert!(wrong.is_empty(), "draws vs instanced at {wrong:?}");

    // The check of the check: the reference with the cubes' colours rotated (red to green,
    // green to blue, blue to red) disagrees at the face points.
    let rotated: Vec<CubeInstance> = cubes
        .instances()
        .iter()
        .map(|c| {
            let [r, g, b, a] = c.color;
            CubeInstance { color: [b, r, g, a], ..*c }
        })
        .collect();
    let poisoned = reference_frame(&cubes, DrawMode::Draws, &rotated);
    let wrong = disagreements(&draws, &poisoned, &points);
    assert!(wrong.len() * 2 >= points.len(), "other colours went unnoticed: {wrong:?}");
}

/// The value of `key` in a JSON line, as its text.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = line.find(&format!("\"{key}\": "))? + key.len() + 4;
    let rest = &line[start..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Some(rest[..end].trim())
}

#[test]
fn cubes_with_the_ash_reference_reports_both_sides_figures() {
    for (mode, draws) in [("draws", CUBES), ("instanced", 1)] {
        let (cubes, width, height) = (CUBES.to_string(), WIDTH.to_string(), HEIGHT.to_string());
        let out = Command::new(env!("CARGO_BIN_EXE_xnagraph-stress"))
            .args(["--validation", "--timeout-s", "600", "--frames", "2", "--quiet", "cubes"])
            .args(["--cubes", &cubes, "--width", &width, "--height", &height, "--mode", mode])
            .arg("--ash-reference")
            .output()
            .expect("the stress binary runs");
        let stdout = String::from_utf8(out.stdout).expect("UTF-8");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{mode}: {stdout}{stderr}");
        let s = stdout.lines().find(|l| field(l, "summary") == Some("true")).expect("a summary");
        assert_eq!(field(s, "mode"), Some(format!("\"{mode}\"").as_str()), "{s}");
        assert_eq!(field(s, "draws"), Some(draws.to_string().as_str()), "{s}");
        for key in [
            "record_ns_per_draw_p50",
            "lower_ns_per_draw_p50",
            "frame_p50_ms",
            "gpu_p50_ms",
            "ash_reference_cpu_ns_per_draw",
            "ash_reference_gpu_ms",
        ] {
            let v: f64 = field(s, key).and_then(|v| v.parse().ok()).unwrap_or(-1.0);
            assert!(v > 0.0, "{mode}: {key} in {s}");
        }
        let pixels = (WIDTH * HEIGHT) as f64;
        let differing: f64 = field(s, "differing_pixels").unwrap().parse().unwrap();
        assert!(differing < pixels * 0.05, "{mode}: edges only differ: {s}");
        let max: u32 = field(s, "max_channel_difference").unwrap().parse().unwrap();
        assert!(max <= 255, "{s}");
        assert_eq!(field(s, "ash_reference_adapter"), field(s, "adapter"), "{s}");
    }
}
