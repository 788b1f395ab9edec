//! Per-texture state the compiler carries from one frame to the next.

use crate::resource::TextureDesc;

#[derive(Debug, Default)]
pub struct TrackedState {}

impl TrackedState {
    pub fn new(desc: &TextureDesc) -> Self {
        let _ = desc;
        TrackedState {}
    }
}
