//! The capture hook of a device built without the `capture` feature: nothing is kept, nothing
//! is written, and asking for a capture is `NotSupported`.

use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::Arc;

use xnagraph_graph::{
    BufferState, EffectState, FrameCommands, QueryState, SpriteArena, TextureState,
};

use super::summary::CaptureSummary;
use crate::device::shared::DeviceShared;
use crate::error::{Result, XnaError};

/// A device's capture state when capture is not built: none.
#[derive(Default)]
pub(crate) struct CaptureHook;

/// A frame's place in a capture: there is none without the `capture` feature.
pub(crate) enum CaptureTag {}

impl CaptureTag {
    /// Never called: no frame is tagged.
    pub fn write(self, _commands: FrameCommands) -> Option<SpriteArena> {
        match self {}
    }
}

impl CaptureHook {
    pub fn texture_created(&self, _texture: &Arc<TextureState>) {}

    pub fn buffer_created(&self, _buffer: &Arc<BufferState>, _write_only: bool) {}

    pub fn effect_created(&self, _effect: &Arc<EffectState>, _spirv: &[u32]) {}

    pub fn query_result(&self, _query: &Arc<QueryState>, _pixel_count: u64) {}

    /// `GraphicsDevice::capture_frames`: `NotSupported`, naming the feature.
    pub fn arm(
        &self,
        _shared: &DeviceShared,
        _path: PathBuf,
        _frames: RangeInclusive<u64>,
    ) -> Result<()> {
        Err(XnaError::not_supported(
            "Frame capture is not built in: build xnagraph with the `capture` feature.",
        ))
    }

    pub fn settle(&self) {}

    pub fn take_result(&self) -> Option<std::result::Result<CaptureSummary, String>> {
        None
    }

    pub fn capturing(&self) -> bool {
        false
    }

    pub fn flushed(&self, _commands: &FrameCommands) -> Option<CaptureTag> {
        None
    }

    pub fn presented(&self, _shared: &DeviceShared) -> Result<()> {
        Ok(())
    }
}
