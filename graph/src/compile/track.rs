//! Per-subresource state the compiler carries from one frame to the next.
//!
//! Each [`TextureState`] owns one [`TrackedState`]: for every subresource of each of its native
//! images (`Color`: mip level × layer; `Samples`: one level per layer; `DepthStencil`: a single
//! subresource shared by all faces of a cube target) it records the [`Access`] the last planned
//! use left it in and whether its content is defined.
//!
//! Two operations combine them. A compile *checks out* a copy of the state of each texture it
//! names into a `FrameTracker` (one lock per texture per frame) and advances the copies while
//! it plans barriers; the finished tracker becomes a [`TrackingCommit`]. The caller *commits* it
//! once the backend has accepted the plan, which writes the advanced states back; a submission
//! that fails drops the commit instead, so the next frame's barriers start from the last state
//! the GPU really reached. Plans must be submitted in the order they were compiled, each
//! committed before the next compile: one ordered step per device.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use crate::plan::{Access, Image};
use crate::resource::{TextureDesc, TextureId, TextureState};

/// A multiplicative hasher for the compiler's small integer keys (texture ids, images,
/// layers): the default SipHash costs more than the rest of a lookup on the compile path.
#[derive(Clone, Copy, Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_isize(&mut self, n: isize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A hash map keyed by small integers, with [`IdHasher`].
pub(crate) type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// What one subresource was last used as, and whether it holds content worth keeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubState {
    /// The access the last planned use left the subresource in (its layout, in Vulkan terms).
    pub access: Access,
    /// Whether the subresource holds content that a later LOAD must keep; false when it was never
    /// written or its last store dropped it.
    pub defined: bool,
}

impl Default for SubState {
    fn default() -> Self {
        SubState { access: Access::Nothing, defined: false }
    }
}

/// Tracked state of every subresource of one texture state's images.
#[derive(Clone, Debug, Default)]
pub struct TrackedState {
    levels: u32,
    layers: u32,
    /// `layer * levels + level`, so a layer's levels are adjacent.
    color: Vec<SubState>,
    /// One per layer; empty unless multisampled.
    samples: Vec<SubState>,
    /// One, or none without a depth format.
    depth: Vec<SubState>,
}

impl TrackedState {
    /// The state of a fresh texture: every subresource of every image it has, with no access and no
    /// content.
    pub fn new(desc: &TextureDesc) -> Self {
        let levels = desc.mip_levels.max(1);
        let layers = desc.layers.max(1);
        let multisampled = desc.render_target.is_some_and(|rt| rt.is_multisampled());
        let count = |n: u32| vec![SubState::default(); n as usize];
        TrackedState {
            levels,
            layers,
            color: count(levels * layers),
            samples: if multisampled { count(layers) } else { Vec::new() },
            depth: if desc.depth_format().has_depth() { count(1) } else { Vec::new() },
        }
    }

    /// Marks every subresource's content undefined, keeping the access each was left in (the
    /// native images keep their layouts; only what they hold is no longer worth loading).
    pub fn forget_content(&mut self) {
        for s in self.color.iter_mut().chain(&mut self.samples).chain(&mut self.depth) {
            s.defined = false;
        }
    }

    fn slot(&self, image: Image, level: u32, layer: u32) -> Option<(usize, Image)> {
        match image {
            Image::Color if level < self.levels && layer < self.layers => {
                Some(((layer * self.levels + level) as usize, image))
            }
            Image::Samples if level == 0 && (layer as usize) < self.samples.len() => {
                Some((layer as usize, image))
            }
            Image::DepthStencil if level == 0 && !self.depth.is_empty() => Some((0, image)),
            _ => None,
        }
    }

    /// The state of one subresource; `None` when the texture has no such subresource.
    pub fn get(&self, image: Image, level: u32, layer: u32) -> Option<SubState> {
        let (i, image) = self.slot(image, level, layer)?;
        self.images(image).get(i).copied()
    }

    /// The state of one subresource, to be updated; `None` when the texture has no such
    /// subresource.
    pub fn get_mut(&mut self, image: Image, level: u32, layer: u32) -> Option<&mut SubState> {
        let (i, image) = self.slot(image, level, layer)?;
        self.images_mut(image).get_mut(i)
    }

    fn images(&self, image: Image) -> &[SubState] {
        match image {
            Image::Color => &self.color,
            Image::Samples => &self.samples,
            Image::DepthStencil => &self.depth,
        }
    }

    fn images_mut(&mut self, image: Image) -> &mut [SubState] {
        match image {
            Image::Color => &mut self.color,
            Image::Samples => &mut self.samples,
            Image::DepthStencil => &mut self.depth,
        }
    }
}

/// Copies of the tracked states of the textures one frame names, advanced by the compile.
#[derive(Default)]
pub(crate) struct FrameTracker {
    index: IdMap<TextureId, usize>,
    entries: Vec<(Arc<TextureState>, TrackedState)>,
}

impl FrameTracker {
    /// The state of `texture`, checked out on first use.
    pub(crate) fn state(&mut self, texture: &Arc<TextureState>) -> &mut TrackedState {
        let next = self.entries.len();
        let i = *self.index.entry(texture.id()).or_insert(next);
        if i == next {
            let state = texture.tracked.lock().unwrap_or_else(|p| p.into_inner()).clone();
            self.entries.push((texture.clone(), state));
        }
        &mut self.entries[i].1
    }

    pub(crate) fn get(
        &mut self,
        texture: &Arc<TextureState>,
        image: Image,
        level: u32,
        layer: u32,
    ) -> SubState {
        self.state(texture).get(image, level, layer).unwrap_or_default()
    }

    /// The advanced states, to be committed once the plan was submitted.
    pub(crate) fn into_commit(self) -> TrackingCommit {
        TrackingCommit { entries: self.entries, buffers: Vec::new() }
    }
}

/// The tracked states a compiled plan leaves its textures in, not yet written back.
///
/// [`TrackingCommit::commit`] writes them back; call it once the backend has accepted the plan.
/// Dropping it instead (the submission failed) leaves every texture in the state the last
/// committed plan left it in.
#[must_use = "a plan's tracked states take effect only when committed"]
#[derive(Debug, Default)]
pub struct TrackingCommit {
    entries: Vec<(Arc<TextureState>, TrackedState)>,
    buffers: Vec<(Arc<crate::buffer::BufferState>, crate::buffer::BufferTrack)>,
}

impl TrackingCommit {
    /// Adds the buffers' tracked uses the plan leaves behind.
    pub(crate) fn with_buffers(
        mut self,
        buffers: Vec<(Arc<crate::buffer::BufferState>, crate::buffer::BufferTrack)>,
    ) -> Self {
        self.buffers = buffers;
        self
    }

    /// Writes the advanced states back to their textures.
    pub fn commit(self) {
        for (texture, state) in self.entries {
            *texture.tracked.lock().unwrap_or_else(|p| p.into_inner()) = state;
        }
        for (buffer, track) in self.buffers {
            *buffer.tracked.lock().unwrap_or_else(|p| p.into_inner()) = track;
        }
    }

    /// How many textures the plan advanced.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the plan names no texture.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::testkit::*;

    #[test]
    fn cube_target_tracks_per_face_samples_and_one_shared_depth() {
        let cube = target_cube(8, 2, 2, DISCARD);
        let state = cube.tracked.lock().unwrap();
        assert!(state.get(Image::Color, 1, 5).is_some());
        assert!(state.get(Image::Samples, 0, 5).is_some());
        assert!(state.get(Image::DepthStencil, 0, 0).is_some());
        assert!(state.get(Image::Color, 2, 0).is_none());
        assert!(state.get(Image::Samples, 1, 0).is_none());
        assert!(state.get(Image::DepthStencil, 1, 0).is_none(), "depth has one level");
        drop(state);
        let written = SubState { access: Access::DepthStencilAttachmentReadWrite, defined: true };
        let mut state = cube.tracked.lock().unwrap();
        *state.get_mut(Image::DepthStencil, 0, 5).unwrap() = written;
        assert_eq!(state.get(Image::DepthStencil, 0, 0), Some(written), "every face shares it");
    }

    #[test]
    fn a_commit_holds_each_texture_the_plan_names_once() {
        use crate::compile::compile_for_submission;
        let (_, empty) = compile_for_submission(frame(vec![]));
        assert_eq!((empty.len(), empty.is_empty()), (0, true));
        let (t, u) = (texture(4, 4, 1), texture(4, 4, 1));
        let steps = vec![upload(&t, 0, 0), readback(&t, 0, 0), readback(&u, 0, 0)];
        let (_, two) = compile_for_submission(frame(steps));
        assert_eq!((two.len(), two.is_empty()), (2, false));
    }

    #[test]
    fn checked_out_state_takes_effect_only_when_committed() {
        let t = target(4, 4, 0, DISCARD);
        let written = SubState { access: Access::TransferWrite, defined: true };
        let advance = || {
            let mut tracker = FrameTracker::default();
            *tracker.state(&t).get_mut(Image::Color, 0, 0).unwrap() = written;
            tracker.into_commit()
        };
        let pending = advance();
        let now = || t.tracked.lock().unwrap().get(Image::Color, 0, 0).unwrap();
        assert_eq!(now(), SubState::default(), "checking out leaves the committed state");
        drop(pending);
        assert_eq!(now(), SubState::default(), "a dropped commit changes nothing");
        advance().commit();
        assert_eq!(now(), written);
    }
}
