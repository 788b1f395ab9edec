//! An empty Clear + Present loop through the engine against a minimal hand-written ash loop
//! doing the same clear, submit and fence wait, both in this process, on the same adapter and
//! image size. Reports the per-frame median of each and their ratio.

use xnagraph::{Color, GraphicsDevice, GraphicsProfile, PresentationParameters};
use xnagraph_benches::ash_clear::{AshClearLoop, ClearMethod};
use xnagraph_benches::{json, number, stats, string};

const WIDTH: u32 = 1280;
const HEIGHT: u32 = 720;
const WARMUP: usize = 30;
const FRAMES: usize = 300;

fn engine_loop(frames: usize) -> xnagraph::Result<(String, Vec<std::time::Duration>)> {
    let params = PresentationParameters {
        back_buffer_width: WIDTH as i32,
        back_buffer_height: HEIGHT as i32,
        ..PresentationParameters::default()
    };
    let device = GraphicsDevice::new(GraphicsProfile::HiDef, params)?;
    let mut out = Vec::with_capacity(frames);
    for i in 0..frames {
        let start = std::time::Instant::now();
        device.clear(Color::new(25, (i % 255) as u8, 76, 255))?;
        device.present()?;
        out.push(start.elapsed());
    }
    // Frames still in flight belong to the loop's cost: wait for them, spread over the frames.
    let start = std::time::Instant::now();
    device.wait_idle()?;
    let tail = start.elapsed() / frames.max(1) as u32;
    for d in &mut out {
        *d += tail;
    }
    Ok((device.adapter_name().to_owned(), out))
}

fn main() -> Result<(), String> {
    // Interleave rounds so drift on a shared machine hits both sides alike.
    let mut engine_all = Vec::new();
    let mut ash_all = Vec::new();
    let mut ash_pass_all = Vec::new();
    let mut adapter = String::new();
    // The engine's default frames in flight, which its loop below runs with.
    let in_flight = xnagraph::DeviceOptions::default().frames_in_flight as usize;
    for _ in 0..3 {
        let mut ash = AshClearLoop::new(WIDTH, HEIGHT, ClearMethod::Transfer, in_flight)?;
        ash.run(WARMUP)?;
        ash_all.extend(ash.run(FRAMES)?);
        drop(ash);
        let mut ash = AshClearLoop::new(WIDTH, HEIGHT, ClearMethod::RenderPass, in_flight)?;
        ash.run(WARMUP)?;
        ash_pass_all.extend(ash.run(FRAMES)?);
        drop(ash);
        let (name, mut timings) = engine_loop(WARMUP + FRAMES).map_err(|e| e.to_string())?;
        adapter = name;
        engine_all.extend(timings.drain(WARMUP..));
    }
    let e = stats(&engine_all);
    let a = stats(&ash_all);
    let p = stats(&ash_pass_all);
    println!(
        "{}",
        json(&[
            ("bench", string("clear_present")),
            ("adapter", string(&adapter)),
            ("width", WIDTH.into()),
            ("height", HEIGHT.into()),
            ("frames", engine_all.len().into()),
            ("frames_in_flight", in_flight.into()),
            ("engine_median_us", number(e.median_ns / 1e3)),
            ("engine_mean_us", number(e.mean_ns / 1e3)),
            ("ash_median_us", number(a.median_ns / 1e3)),
            ("ash_mean_us", number(a.mean_ns / 1e3)),
            ("ash_render_pass_median_us", number(p.median_ns / 1e3)),
            ("ratio_median", number(e.median_ns / a.median_ns)),
            ("ratio_median_vs_render_pass", number(e.median_ns / p.median_ns)),
            ("ratio_mean", number(e.mean_ns / a.mean_ns)),
            ("budget_ratio", 1.5.into()),
        ])
    );
    Ok(())
}
