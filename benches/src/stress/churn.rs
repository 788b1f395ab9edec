//! `rt-churn`: the short-lived target pattern, frame after frame.
//!
//! Each frame creates a render target, clears it to a colour of its own, draws it into a
//! long-lived `PreserveContents` target, drops it, and draws the long-lived target into the
//! back buffer. Every [`SAMPLE_EVERY`] frames the scenario reports the backend's live native
//! objects, the images it has allocated so far and the process's resident memory. After the
//! warm-up the run passes only if the live textures stay within their bound (see
//! [`Churn::live_bound`]), no native image is allocated (dropped targets are reused from the
//! backend's pool) and resident memory grows by less than [`RSS_GROWTH_LIMIT`].

use xnagraph::{
    Color, DepthFormat, GraphicsDevice, Rectangle, RenderTarget2D, RenderTargetUsage, SpriteBatch,
    SurfaceFormat,
};

use super::{resident_bytes, Scenario};
use crate::{json, string};

/// Frames between two samples of live objects and memory.
pub const SAMPLE_EVERY: u32 = 100;
/// The most resident memory may grow after the warm-up.
pub const RSS_GROWTH_LIMIT: u64 = 1 << 20;

/// The edge of the short-lived targets and of the long-lived one.
const EDGE: i32 = 256;

/// One sample of the device's state.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChurnSample {
    /// The frame after which it was taken.
    pub frame: u32,
    /// Native textures alive in the backend (awaiting retirement included, pooled excluded).
    pub live_textures: usize,
    /// Native images held in the backend's pool of dropped targets.
    pub pooled_images: usize,
    /// Native images allocated since the device was created.
    pub images_allocated: u64,
    /// Resident memory of the process, in bytes (0 where unknown).
    pub rss: u64,
}

/// The rt-churn scenario.
pub struct Churn {
    kept: RenderTarget2D,
    batch: SpriteBatch,
    baseline_textures: usize,
    frames_in_flight: u32,
    render_thread: bool,
    warmup: u32,
    /// Every sample taken, in order.
    pub samples: Vec<ChurnSample>,
}

impl Churn {
    /// Creates the long-lived target. `frames` is the run's length: the warm-up is its first
    /// tenth, at least one sample period and at most 1,000 frames.
    pub fn new(
        device: &GraphicsDevice,
        frames: u32,
        frames_in_flight: u32,
        render_thread: bool,
    ) -> xnagraph::Result<Churn> {
        let kept = RenderTarget2D::with_options(
            device,
            EDGE,
            EDGE,
            false,
            SurfaceFormat::Color,
            DepthFormat::None,
            0,
            RenderTargetUsage::PreserveContents,
        )?;
        let baseline_textures = device.live_native_objects().map_or(0, |l| l.textures);
        Ok(Churn {
            kept,
            batch: SpriteBatch::new(device)?,
            baseline_textures,
            frames_in_flight,
            render_thread,
            warmup: (frames / 10).clamp(SAMPLE_EVERY, 1000),
            samples: Vec::new(),
        })
    }

    /// The most short-lived textures alive at once: one being recorded, the frames in flight,
    /// and with the render thread as many again queued for it and one it holds back for the
    /// in-flight bound.
    pub fn live_bound(&self) -> usize {
        let fif = self.frames_in_flight as usize;
        if self.render_thread {
            2 * fif + 2
        } else {
            fif + 2
        }
    }

    fn sample(&self, device: &GraphicsDevice, frame: u32) -> ChurnSample {
        let live = device.live_native_objects().unwrap_or_default();
        ChurnSample {
            frame,
            live_textures: live.textures,
            pooled_images: live.pooled_images,
            images_allocated: live.images_allocated,
            rss: resident_bytes().unwrap_or(0),
        }
    }

    /// The verdict over the samples taken: `Ok` with the figures, or `Err` saying which bound
    /// was broken. A run shorter than its warm-up has nothing to judge and passes.
    pub fn verdict(&self) -> Result<String, String> {
        let after: Vec<&ChurnSample> =
            self.samples.iter().filter(|s| s.frame + 1 >= self.warmup).collect();
        let peak = self.samples.iter().map(|s| s.live_textures).max().unwrap_or(0);
        let transient = peak.saturating_sub(self.baseline_textures);
        let (Some(first), Some(last)) = (after.first(), after.last()) else {
            return Ok(format!("peak {transient} short-lived textures; no sample after warm-up"));
        };
        let allocated = last.images_allocated - first.images_allocated;
        let grown = last.rss.saturating_sub(first.rss);
        let figures = format!(
            "peak {transient} short-lived textures (bound {}), {allocated} images allocated and \
             {grown} bytes of RSS grown after warm-up",
            self.live_bound()
        );
        if transient > self.live_bound() {
            Err(format!("live textures past the bound: {figures}"))
        } else if allocated > 0 {
            Err(format!("native images allocated after warm-up: {figures}"))
        } else if grown >= RSS_GROWTH_LIMIT {
            Err(format!("resident memory grew: {figures}"))
        } else {
            Ok(figures)
        }
    }
}

impl Scenario for Churn {
    fn record(&mut self, device: &GraphicsDevice, index: u32) -> xnagraph::Result<()> {
        let transient = RenderTarget2D::new(device, EDGE, EDGE)?;
        device.set_render_target(Some(&transient))?;
        let i = index as usize;
        device.clear(Color::new((i * 37 % 256) as u8, (i * 91 % 256) as u8, 200, 255))?;
        device.set_render_target(Some(&self.kept))?;
        self.batch.begin()?;
        let x = (index * 16 % EDGE as u32) as i32;
        let y = (index / 16 * 16 % EDGE as u32) as i32;
        self.batch.draw_rect(&transient, Rectangle::new(x, y, 16, 16), Color::WHITE)?;
        self.batch.end()?;
        drop(transient);
        device.set_render_target(None)?;
        self.batch.begin()?;
        self.batch.draw_rect(&self.kept, Rectangle::new(0, 0, EDGE, EDGE), Color::WHITE)?;
        self.batch.end()
    }

    fn after_present(
        &mut self,
        device: &GraphicsDevice,
        index: u32,
    ) -> xnagraph::Result<Option<String>> {
        if !(index + 1).is_multiple_of(SAMPLE_EVERY) {
            return Ok(None);
        }
        let s = self.sample(device, index);
        self.samples.push(s);
        Ok(Some(json(&[
            ("scenario", string("rt-churn")),
            ("frame", index.into()),
            ("live_textures", s.live_textures.into()),
            ("pooled_images", s.pooled_images.into()),
            ("images_allocated", s.images_allocated.into()),
            ("rss_bytes", s.rss.into()),
        ])))
    }
}
