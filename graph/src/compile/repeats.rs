//! The step before the stages: the repeats a recording's merge kept as BasicEffect's values
//! ([`crate::GeometryDraw::repeat_values`]) become instances ([`crate::GeometryDraw::repeats`]), so that no
//! stage, backend or capture sees them. The matrices and colours of a merged run's draws are
//! computed here, on the thread that compiles, not on the game's.
//!
//! In: a frame as recorded. Out: the same frame, every draw's repeats derived
//! ([`crate::GeometryDraw::derive_repeats`]).

use crate::commands::{FrameCommands, Node, PassOp};

/// Derives every draw's [`crate::GeometryDraw::repeat_values`] into its repeats: the compiler's first
/// step, and what a capture of a frame that was never compiled asks first. Idempotent.
pub fn derive_repeats(frame: &mut FrameCommands) {
    for node in &mut frame.nodes {
        let Node::Pass(segment) = node else { continue };
        for op in &mut segment.ops {
            let PassOp::Draw(d) = op else { continue };
            if let Some(g) = d.geometry.as_deref_mut().filter(|g| !g.repeat_values.is_empty()) {
                g.derive_repeats();
            }
        }
    }
}
