//! Per-subresource state the compiler carries from one frame to the next.
//!
//! Each [`TextureState`] owns one [`TrackedState`]: for every subresource of each of its native
//! images (`Color`: mip level × layer; `Samples`: one level per layer; `DepthStencil`: a single
//! subresource shared by all faces of a cube target) it records the [`Access`] the last planned
//! use left it in and whether its content is defined.
//!
//! A compile checks the states of the textures it names out into a `FrameTracker` (one lock per
//! texture per frame), reads and updates them while it plans barriers, and puts them back when
//! the tracker drops. The compiler assumes that every plan it produces is executed in order.

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
    pub access: Access,
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

/// The tracked states of the textures one frame names, checked out for the compile and put
/// back on drop.
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
            let mut guard = texture.tracked.lock().unwrap_or_else(|p| p.into_inner());
            let state = std::mem::take(&mut *guard);
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
}

impl Drop for FrameTracker {
    fn drop(&mut self) {
        for (texture, state) in self.entries.drain(..) {
            *texture.tracked.lock().unwrap_or_else(|p| p.into_inner()) = state;
        }
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
    }

    #[test]
    fn checked_out_state_is_put_back_when_the_tracker_drops() {
        let t = target(4, 4, 0, DISCARD);
        {
            let mut tracker = FrameTracker::default();
            let s = tracker.state(&t).get_mut(Image::Color, 0, 0).unwrap();
            *s = SubState { access: Access::TransferWrite, defined: true };
        }
        let state = t.tracked.lock().unwrap().get(Image::Color, 0, 0).unwrap();
        assert_eq!(state, SubState { access: Access::TransferWrite, defined: true });
    }
}
