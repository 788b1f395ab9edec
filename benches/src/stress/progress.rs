//! `xnagraph-stress`'s progress bar: frames done out of the run's, on stderr.

use indicatif::{ProgressBar, ProgressStyle};

use super::Progress;

/// A progress bar on stderr for long runs, driven as the harness's [`Progress`].
pub struct Bar(Option<ProgressBar>);

impl Bar {
    /// A progress bar on stderr for runs of at least 500 frames (hidden when stderr is not a
    /// terminal).
    pub fn new(frames: u32) -> Bar {
        Bar((frames >= 500).then(|| {
            let bar = ProgressBar::new(u64::from(frames));
            if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} frames {elapsed}")
            {
                bar.set_style(style);
            }
            bar
        }))
    }
}

impl Progress for Bar {
    fn frame_done(&mut self, index: u32) {
        if let Some(bar) = &self.0 {
            if index.is_multiple_of(16) {
                bar.set_position(u64::from(index + 1));
            }
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
