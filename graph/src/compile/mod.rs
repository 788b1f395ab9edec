//! The render-graph compiler: `FrameCommands` → `FramePlan`.
//!
//! (Stages to be written: segments → nodes, load ops, store ops, mips, barriers, output.)

pub mod track;

use crate::commands::FrameCommands;
use crate::plan::FramePlan;

/// Compiles one frame. Cross-frame state (per-subresource access, whether content exists) lives
/// in each texture state's tracker and is updated here.
pub fn compile(frame: FrameCommands) -> FramePlan {
    let _ = frame;
    todo!("compiler stages")
}
