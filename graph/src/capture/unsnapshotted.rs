//! What a capture's snapshot does not hold, and the refusal of a replay that would read it.
//!
//! A snapshot holds what a readback returns: the single-sample colour image of every level and
//! layer (a multisampled target's resolved image), every buffer's bytes, (format 3.1, where the
//! backend can read depth back) the depth/stencil image of every single-sample PreserveContents
//! target and (format 3.2, where the backend can read samples back) the sample image of every layer
//! and the depth/stencil image of every multisampled PreserveContents target. Depth or samples the
//! capturing backend could not read back are not: when the capture begins, their content is not in
//! the file; samples the replaying backend cannot restore ([`crate::Capabilities::sample_restore`])
//! are left out of the replay's snapshot uploads and count as missing too. A replay whose first use
//! of such an image clears it (a CLEAR load op, a transfer clear) never sees the difference. Any
//! other first use is refused at that frame with an error naming the texture and the image, rather
//! than being silently wrong: the live run loaded that content, while the replay's compiler, which
//! knows the image as never written, would start it with a don't-care load over undefined content.
//! (The refusal is conservative: a first use the live run did not load either, because nothing read
//! it, is refused too.)

use std::collections::HashMap;
use std::sync::Arc;

use super::reader::Capture;
use crate::backend::BackendError;
use crate::plan::{FramePlan, Image, LoadOp, PlanNodeKind};
use crate::resource::{TextureId, TextureState};

/// The images of snapshot textures whose content the file lacks and the replay has not yet
/// defined.
#[derive(Debug, Default)]
pub struct Unsnapshotted(HashMap<(TextureId, Image), String>);

impl Unsnapshotted {
    /// Every depth/stencil image and multisample image of the textures that existed when the
    /// capture began (those with snapshot content) that the replay does not restore;
    /// `textures` are the replay's, by key. `restores_samples`: the replaying backend restores
    /// the snapshot's sample planes ([`crate::Capabilities::sample_restore`]); without it every
    /// multisample image, and the depth/stencil image of every multisampled target, is
    /// unsnapshotted, whatever the file holds.
    pub fn new(capture: &Capture, textures: &[Arc<TextureState>], restores_samples: bool) -> Self {
        let mut images = HashMap::new();
        for s in &capture.snapshot {
            let record = &capture.textures[s.region.texture as usize];
            let Some(rt) = record.desc.render_target else { continue };
            let id = textures[s.region.texture as usize].id();
            let name = format!("texture {} \"{}\"", record.key, record.name);
            let restored = capture.depth_snapshot.iter().any(|d| d.texture == s.region.texture)
                && (restores_samples || !rt.is_multisampled());
            if rt.depth != crate::format::DepthFormat::None && !restored {
                images.insert(
                    (id, Image::DepthStencil),
                    format!("the depth/stencil image of {name}"),
                );
            }
            let snapshotted =
                capture.sample_snapshot.iter().filter(|m| m.texture == s.region.texture);
            let restored_layers = if restores_samples { snapshotted.count() } else { 0 };
            if rt.is_multisampled() && restored_layers < record.desc.layers as usize {
                images.insert((id, Image::Samples), format!("the multisample image of {name}"));
            }
        }
        Unsnapshotted(images)
    }

    /// Walks `plan` in execution order: an image it clears is defined from then on; one it uses
    /// first in any other way is the error.
    pub fn check(&mut self, plan: &FramePlan, frame: u64) -> Result<(), BackendError> {
        if self.0.is_empty() {
            return Ok(());
        }
        for node in &plan.nodes {
            match &node.kind {
                PlanNodeKind::Pass(pass) => {
                    for a in pass.colors.iter().chain(&pass.depth) {
                        let key = (a.texture.id(), a.image);
                        let Some(what) = self.0.get(&key) else { continue };
                        if !matches!(a.load, LoadOp::Clear(_)) {
                            return Err(BackendError::NotSupported(format!(
                                "frame {frame} uses {what} without clearing it, and its content \
                                 when the capture began is not in the file (a snapshot holds \
                                 colour images, a multisampled target's resolved one, buffers, \
                                 and the depth/stencil and multisampled colour samples the \
                                 capturing backend read back, samples only where the replaying \
                                 backend restores them): the replay would draw over undefined \
                                 content"
                            )));
                        }
                        self.0.remove(&key);
                    }
                }
                PlanNodeKind::ClearImages { clears } => {
                    for c in clears {
                        self.0.remove(&(c.texture.id(), c.image));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}
