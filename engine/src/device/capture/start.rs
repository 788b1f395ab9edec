//! Starting a capture: arming it for a range of frames, and, when its first frame begins,
//! reading back the snapshot and opening the file.
//!
//! In: the device's shared state (to read textures and buffers back through
//! [`DeviceShared::read_back_with_buffers`]) and the hook's weak lists of what is alive. Out:
//! the capture's file, opened with the device record and the snapshot written, and its writer
//! thread started; or the error the call reports. It decides what a snapshot holds: every
//! level and layer of every live texture not given to presentation, the depth/stencil plane
//! where the backend reads it back, every sample of a multisampled target whose samples
//! survive frames, and every live buffer; nothing before the first submission.

use std::fs::File;
use std::io::BufWriter;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::{Arc, Weak};

use xnagraph_graph::capture::record::DeviceRecord;
use xnagraph_graph::capture::trim::{reads_depth_back, snapshots_samples};
use xnagraph_graph::capture::CaptureWriter;
use xnagraph_graph::{BufferState, Image, Rect, Slices, TextureState};

use super::hook::{Active, Armed, CaptureHook};
use super::thread::{Known, WriterThread};
use crate::device::shared::DeviceShared;
use crate::device::submit::ReadRegion;
use crate::error::{Result, XnaError};
use crate::event::lock;

impl CaptureHook {
    /// Arms a capture of frames `frames` into `path`; starts it at once when the first frame is
    /// the one being recorded.
    pub fn arm(
        &self,
        shared: &DeviceShared,
        path: PathBuf,
        frames: RangeInclusive<u64>,
    ) -> Result<()> {
        let (first, last) = (*frames.start(), *frames.end());
        let start_now = {
            let mut state = lock(&self.0);
            if first > last {
                return Err(XnaError::out_of_range("frames", "the range is empty"));
            }
            if first < state.presents {
                return Err(XnaError::out_of_range(
                    "frames",
                    format!(
                        "frame {first} has begun already (the device is at frame {})",
                        state.presents
                    ),
                ));
            }
            // A finished capture's writer completes its file before another capture starts.
            state.wait_for_writer();
            if state.armed.is_some() || state.active.is_some() {
                return Err(XnaError::invalid_operation("A capture is already in progress."));
            }
            state.result = None;
            state.armed = Some(Armed { path, first, last });
            first == state.presents
        };
        if start_now {
            self.start(shared)?;
        }
        Ok(())
    }

    /// After a present: starts an armed capture whose first frame begins now.
    pub fn presented(&self, shared: &DeviceShared) -> Result<()> {
        let due = {
            let state = lock(&self.0);
            state.armed.as_ref().is_some_and(|a| a.first == state.presents)
        };
        if due {
            self.start(shared)?;
        }
        Ok(())
    }

    /// Reads back every live texture and buffer (none before anything was submitted: nothing
    /// has content yet), then opens the file and writes the device and the snapshot.
    fn start(&self, shared: &DeviceShared) -> Result<()> {
        let known = lock(&self.0).known.clone();
        let (textures, mut buffers): (Vec<Arc<TextureState>>, Vec<Arc<BufferState>>) = {
            let known = lock(&known);
            (
                known.textures.iter().filter_map(Weak::upgrade).collect(),
                known.buffers.iter().filter_map(|(b, _)| b.upgrade()).collect(),
            )
        };
        let back_buffer = lock(&shared.rec).builder.back_buffer().clone();
        let mut regions = Vec::new();
        if shared.submissions.load(std::sync::atomic::Ordering::Relaxed) > 0 {
            for t in &textures {
                // A swapchain image's content belongs to the presentation engine.
                if t.given_to_presentation() {
                    continue;
                }
                let desc = *t.desc();
                for layer in 0..desc.layers {
                    for level in 0..desc.mip_levels {
                        let (w, h) = desc.level_size(level);
                        regions.push(ReadRegion {
                            image: xnagraph_graph::Image::Color,
                            texture: t.clone(),
                            level,
                            layer,
                            rect: Rect::new(0, 0, w as i32, h as i32),
                            slices: Slices { front: 0, back: desc.level_depth(level) },
                        });
                    }
                }
                // The depth/stencil content that survives frames, where the backend reads it.
                if reads_depth_back(&shared.caps, &desc) {
                    let (w, h) = desc.level_size(0);
                    regions.push(ReadRegion {
                        image: Image::DepthStencil,
                        texture: t.clone(),
                        level: 0,
                        layer: 0,
                        rect: Rect::new(0, 0, w as i32, h as i32),
                        slices: Slices::FLAT,
                    });
                }
                // Every sample of a multisampled target whose samples survive frames, where the
                // backend reads samples back.
                if shared.caps.sample_readback && snapshots_samples(&desc) {
                    let (w, h) = desc.level_size(0);
                    for layer in 0..desc.layers {
                        regions.push(ReadRegion {
                            image: Image::Samples,
                            texture: t.clone(),
                            level: 0,
                            layer,
                            rect: Rect::new(0, 0, w as i32, h as i32),
                            slices: Slices::FLAT,
                        });
                    }
                }
            }
        }
        if shared.submissions.load(std::sync::atomic::Ordering::Relaxed) == 0 {
            buffers.clear();
        }
        let (content, buffer_content) = if regions.is_empty() && buffers.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            let keys = regions
                .iter()
                .map(|r| (r.texture.clone(), r.image, r.level, r.layer, r.rect, r.slices))
                .collect::<Vec<_>>();
            let mut bytes = shared.read_back_with_buffers(regions, buffers.clone())?;
            let buffer_bytes = bytes.split_off(keys.len());
            let content: Vec<_> = keys.into_iter().zip(bytes).collect();
            (content, buffers.into_iter().zip(buffer_bytes).collect::<Vec<_>>())
        };
        let mut state = lock(&self.0);
        let Some(armed) = state.armed.take() else { return Ok(()) };
        let device = |back_buffer| DeviceRecord {
            profile: format!("{:?}", shared.profile),
            presentation: format!("{:?}", lock(&shared.rec).params),
            adapter: shared.adapter_name.clone(),
            compile_policy: shared.compile_policy,
            back_buffer,
            first_frame: armed.first,
        };
        let opened = File::create(&armed.path).and_then(|file| {
            let mut writer = CaptureWriter::new(BufWriter::new(file), &back_buffer, device)?;
            for ((texture, image, level, layer, rect, slices), bytes) in &content {
                match image {
                    Image::DepthStencil => writer.depth_snapshot(texture, bytes)?,
                    Image::Samples => writer.sample_snapshot(texture, *layer, bytes)?,
                    Image::Color => {
                        writer.snapshot(texture, (*level, *layer, *rect, *slices), bytes)?
                    }
                }
            }
            Known::with_sources(&known, |sources| {
                for (buffer, bytes) in &buffer_content {
                    writer.buffer_snapshot(buffer, bytes, sources)?;
                }
                Ok::<_, std::io::Error>(())
            })?;
            WriterThread::spawn(writer, known.clone())
        });
        match opened {
            Ok(writer) => {
                state.active = Some(Active { writer, path: armed.path, last: armed.last });
                Ok(())
            }
            Err(e) => {
                let message = format!("{}: {e}", armed.path.display());
                state.result = Some(Err(message.clone()));
                Err(XnaError::invalid_operation(format!(
                    "The capture could not be written: {message}"
                )))
            }
        }
    }
}
