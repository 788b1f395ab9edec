//! Custom effects: a fragment stage compiled at run time that replaces the stock sprite fragment
//! stage of a draw.
//!
//! An effect's native object (the backend's shader module) is created with the effect and freed
//! like a texture's: when the last [`Arc<EffectState>`] drops — the public wrapper's and those of
//! the draws that use it — its [`NativeHandle`] goes to the backend's [`RetireSink`], and the
//! backend frees it once the submissions that may have used it have completed.

use std::sync::Arc;

use crate::resource::{NativeHandle, RetireSink};

/// The SPIR-V magic number, the first word of every module.
pub const SPIRV_MAGIC: u32 = 0x0723_0203;

/// Whether `words` is SPIR-V, by its first word ([`SPIRV_MAGIC`]): the check every backend
/// makes of an effect's code before handing it to the driver, and the engine's reflection
/// before reading it.
pub fn is_spirv(words: &[u32]) -> bool {
    words.first() == Some(&SPIRV_MAGIC)
}

/// What a pipeline needs to know of a custom effect: which native fragment stage it runs and how
/// many colour outputs (locations `0..outputs`) that stage writes. Part of [`crate::PipelineKey`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EffectKey {
    /// The backend's name for the effect's fragment stage; unique for the backend's lifetime.
    pub native: NativeHandle,
    /// Colour outputs written, at locations `0..outputs` (1 to 4).
    pub outputs: u8,
}

/// The shared state of one custom effect; draws that use it hold it, so its native stage lives
/// until the GPU is done with them.
#[derive(Debug)]
pub struct EffectState {
    key: EffectKey,
    sink: RetireSink,
}

impl EffectState {
    /// A state for an effect the backend has just created as `key.native`; the handle goes to
    /// `sink` when the last reference drops.
    pub fn new(key: EffectKey, sink: RetireSink) -> Arc<Self> {
        Arc::new(EffectState { key, sink })
    }

    /// The effect's native stage and output count.
    pub fn key(&self) -> EffectKey {
        self.key
    }
}

impl Drop for EffectState {
    fn drop(&mut self) {
        self.sink.push(self.key.native);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropping_the_last_effect_state_retires_its_handle() {
        let sink = RetireSink::default();
        let state =
            EffectState::new(EffectKey { native: NativeHandle(9), outputs: 2 }, sink.clone());
        let held_by_a_draw = state.clone();
        drop(state);
        assert!(sink.drain().is_empty());
        drop(held_by_a_draw);
        assert_eq!(sink.drain(), vec![NativeHandle(9)]);
    }

    #[test]
    fn spirv_is_told_by_its_magic_number() {
        assert!(is_spirv(&[0x0723_0203, 0x0001_0000]));
        assert!(!is_spirv(&[0x0302_2307]), "the magic byte-swapped");
        assert!(!is_spirv(&[]));
    }
}
