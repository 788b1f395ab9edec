//! Process memory while the blend factor animates: 2,000 frames, each drawing one sprite with a
//! `BlendState` whose `BlendFactor` differs from every earlier frame's. With the factor baked into
//! pipelines every frame builds one more pipeline; as dynamic state the frames share one. Reports
//! the resident set size after the first frame and after the last, and their difference.
//!
//! ```text
//! cargo bench -p xnagraph-benches --bench blend_factor_rss
//! ```

use xnagraph::{
    Blend, BlendState, Color, GraphicsDevice, GraphicsProfile, PresentationParameters, Rectangle,
    SpriteBatch, SpriteSortMode, Texture2D,
};
use xnagraph_benches::{json, number, string};

const FRAMES: u32 = 2_000;

/// Resident set size of this process in KiB (Linux: VmRSS in /proc/self/status).
fn rss_kib() -> Result<u64, String> {
    let status = std::fs::read_to_string("/proc/self/status").map_err(|e| e.to_string())?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| "no VmRSS line".to_owned())
}

fn run() -> xnagraph::Result<(String, u64, u64)> {
    let params = PresentationParameters {
        back_buffer_width: 64,
        back_buffer_height: 64,
        ..PresentationParameters::default()
    };
    let device = GraphicsDevice::with_options(
        GraphicsProfile::HiDef,
        params,
        xnagraph::DeviceOptions::from_env(),
    )?;
    let white = Texture2D::new(&device, 1, 1)?;
    white.set_data(&[Color::WHITE])?;
    let mut sb = SpriteBatch::new(&device)?;
    let mut first = 0;
    for frame in 0..FRAMES {
        let blend = BlendState {
            color_source_blend: Blend::BlendFactor,
            color_destination_blend: Blend::Zero,
            alpha_source_blend: Blend::One,
            alpha_destination_blend: Blend::Zero,
            // A factor no earlier frame used.
            blend_factor: [(frame % 256) as u8, (frame / 256) as u8, 128, 255],
            ..BlendState::OPAQUE
        };
        device.clear(Color::BLACK)?;
        sb.begin_with(SpriteSortMode::Deferred, Some(blend), None, None, None, None)?;
        sb.draw_rect(&white, Rectangle::new(8, 8, 32, 32), Color::WHITE)?;
        sb.end()?;
        device.present()?;
        if frame == 0 {
            device.wait_idle()?;
            first = rss_kib().unwrap_or(0);
        }
    }
    device.wait_idle()?;
    let last = rss_kib().unwrap_or(0);
    Ok((device.adapter_name().to_owned(), first, last))
}

fn main() -> Result<(), String> {
    let (adapter, first, last) = run().map_err(|e| e.to_string())?;
    println!(
        "{}",
        json(&[
            ("bench", string("blend_factor_rss")),
            ("adapter", string(&adapter)),
            ("frames", number(f64::from(FRAMES))),
            ("rss_after_first_frame_mib", number(first as f64 / 1024.0)),
            ("rss_after_last_frame_mib", number(last as f64 / 1024.0)),
            ("growth_mib", number((last as f64 - first as f64) / 1024.0)),
        ])
    );
    Ok(())
}
