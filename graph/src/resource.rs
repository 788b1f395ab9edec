//! Backend-neutral resource descriptions and the shared state that recorded commands hold.
//!
//! A [`TextureState`] is the one object that stands for a native texture (with its multisample
//! and depth companions, for a render target). Public wrappers, pass segments, draws, uploads and
//! readbacks all hold it by `Arc`, so a queued command always keeps what it names alive. When the
//! last `Arc` drops, the state hands its [`NativeHandle`] to its [`RetireSink`]; the backend frees
//! it only after the submission that last used it has completed.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::commands::{Rect, Slices};
use crate::compile::track::TrackedState;
use crate::format::{DepthFormat, SurfaceFormat};

/// Identity of a texture state, unique for the life of the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TextureId(pub u64);

impl TextureId {
    /// A fresh id, never handed out before.
    pub fn next() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        TextureId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// A backend's name for one native object: a texture (with its companions), a vertex or index
/// buffer, an effect or an occlusion query. Opaque to `graph` but for its [`HandleKind`].
///
/// Every kind of object retires through the one [`RetireSink`], so a handle must say what it
/// names: a backend makes its handles with [`NativeHandle::new`], which keeps the kind in the
/// top byte and the serial below, and dispatches on [`NativeHandle::kind`] when it frees one.
/// Two objects of different kinds never share a handle, whatever their serials.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NativeHandle(pub u64);

/// What a [`NativeHandle`] names. A raw `NativeHandle(n)` with `n` below 2^56 is a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandleKind {
    /// A texture or render target, with its companions.
    Texture,
    /// A vertex or index buffer.
    Buffer,
    /// A custom effect's native stages, or a custom geometry program.
    Effect,
    /// An occlusion query.
    Query,
}

impl HandleKind {
    const ALL: [HandleKind; 4] =
        [HandleKind::Texture, HandleKind::Buffer, HandleKind::Effect, HandleKind::Query];
}

impl NativeHandle {
    /// Bits of a handle below its kind: the serial's room.
    const KIND_SHIFT: u32 = 56;

    /// The handle of the `serial`-th object of `kind`. Backends count each kind on its own
    /// from 1; the kind keeps the counts apart. A serial is below 2^56.
    pub fn new(kind: HandleKind, serial: u64) -> Self {
        debug_assert!(serial < 1 << Self::KIND_SHIFT, "handle serial {serial} out of range");
        let tag = HandleKind::ALL.iter().position(|k| *k == kind).unwrap_or(0) as u64;
        NativeHandle(tag << Self::KIND_SHIFT | serial)
    }

    /// What the handle names; `None` for a handle no backend makes.
    pub fn kind(self) -> Option<HandleKind> {
        HandleKind::ALL.get((self.0 >> Self::KIND_SHIFT) as usize).copied()
    }
}

/// XNA's `RenderTargetUsage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum RenderTargetUsage {
    /// The content does not survive a new bind: each bind starts the target cleared to opaque
    /// black, depth 1, stencil 0 (on the buffers it has).
    #[default]
    DiscardContents,
    /// The content survives from one bind to the next.
    PreserveContents,
    /// The platform's choice in XNA; here it preserves, like `PreserveContents` (FNA's rule: only
    /// `DiscardContents` discards).
    PlatformContents,
}

impl RenderTargetUsage {
    /// The usage predicate, in its one home: only `DiscardContents` discards;
    /// `PreserveContents` and `PlatformContents` both preserve (FNA's `usage != DiscardContents`).
    pub fn preserves_contents(self) -> bool {
        self != RenderTargetUsage::DiscardContents
    }
}

/// What makes a texture a render target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub struct RenderTargetDesc {
    /// The depth format the backend applied (not necessarily the one requested).
    pub depth: DepthFormat,
    /// Applied multisample count: 0 means single-sampled, otherwise a power of two ≥ 2.
    pub sample_count: u32,
    /// How the target treats its content when it is bound again.
    pub usage: RenderTargetUsage,
    /// The device's back buffer: presented, never sampled.
    pub back_buffer: bool,
}

impl RenderTargetDesc {
    /// Whether the target has a multisample image (two or more samples).
    pub fn is_multisampled(&self) -> bool {
        self.sample_count > 1
    }
}

/// Everything a backend needs to create a native texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub struct TextureDesc {
    /// Width of level 0, in texels.
    pub width: u32,
    /// Height of level 0, in texels.
    pub height: u32,
    /// Number of mip levels (at least 1).
    pub mip_levels: u32,
    /// 1 for a 2D texture or a volume, 6 for a cube (faces in XNA's `CubeMapFace` order).
    pub layers: u32,
    /// `Some(depth of level 0)` for a volume (XNA's `Texture3D`: a 3D image, sampled as one,
    /// whose levels shrink in depth too); `None` for a 2D texture, a cube or a render target,
    /// which have one slice per level. Volumes are never render targets.
    pub volume_depth: Option<u32>,
    /// The format of the colour image, as applied (after any fallback).
    pub format: SurfaceFormat,
    /// Set for a render target (or the back buffer); `None` for a plain texture.
    pub render_target: Option<RenderTargetDesc>,
}

/// The number of levels of a full mip chain of a `width` × `height` × `depth` image: level by
/// level each edge halves (rounded down, never below one texel) until the longest is one texel.
/// The one home of the rule: the engine's `mipMap` textures, the capture reader's checks and the
/// backends' refusals all count with it.
pub fn full_mip_count(width: u32, height: u32, depth: u32) -> u32 {
    32 - width.max(height).max(depth).max(1).leading_zeros()
}

impl TextureDesc {
    /// A plain 2D texture: one layer, no render-target companions.
    pub fn texture_2d(width: u32, height: u32, mip_levels: u32, format: SurfaceFormat) -> Self {
        TextureDesc {
            width,
            height,
            mip_levels,
            layers: 1,
            volume_depth: None,
            format,
            render_target: None,
        }
    }

    /// A volume (`Texture3D`): one layer of `depth` slices at level 0, no render-target
    /// companions.
    pub fn volume(
        width: u32,
        height: u32,
        depth: u32,
        mip_levels: u32,
        format: SurfaceFormat,
    ) -> Self {
        TextureDesc {
            volume_depth: Some(depth),
            ..Self::texture_2d(width, height, mip_levels, format)
        }
    }

    /// Whether this is a volume (a 3D image).
    pub fn is_volume(&self) -> bool {
        self.volume_depth.is_some()
    }

    /// Depth slices of mip `level` (never below 1; always 1 for anything but a volume).
    pub fn level_depth(&self, level: u32) -> u32 {
        self.volume_depth.map_or(1, |d| (d >> level).max(1))
    }

    /// Whether a transfer of `rect` × `slices` of `level` reaches every texel of the level, so
    /// that nothing the level held before survives it: the one home of the whole-level test.
    pub fn covers_level(&self, level: u32, rect: Rect, slices: Slices) -> bool {
        let (w, h) = self.level_size(level);
        let reaches = |start: i32, len: i32, edge: u32| {
            start <= 0 && i64::from(start) + i64::from(len) >= i64::from(edge)
        };
        reaches(rect.x, rect.width, w)
            && reaches(rect.y, rect.height, h)
            && slices.front == 0
            && slices.back >= self.level_depth(level)
    }

    /// Size of mip `level` (never below 1).
    pub fn level_size(&self, level: u32) -> (u32, u32) {
        ((self.width >> level).max(1), (self.height >> level).max(1))
    }

    /// The levels of a full mip chain of this texture ([`full_mip_count`] of level 0).
    pub fn full_mip_chain(&self) -> u32 {
        full_mip_count(self.width, self.height, self.level_depth(0))
    }

    /// The applied depth format (`None` for a plain texture).
    pub fn depth_format(&self) -> DepthFormat {
        self.render_target.map_or(DepthFormat::None, |rt| rt.depth)
    }

    /// The applied sample count (0 when not multisampled).
    pub fn sample_count(&self) -> u32 {
        self.render_target.map_or(0, |rt| rt.sample_count)
    }

    /// Whether this is a device's back buffer.
    pub fn is_back_buffer(&self) -> bool {
        self.render_target.is_some_and(|rt| rt.back_buffer)
    }
}

/// Where a dropped state's native handle goes. Shared between the backend (which drains it at
/// each submission) and every state it created.
#[derive(Clone, Debug, Default)]
pub struct RetireSink(Arc<Mutex<Vec<NativeHandle>>>);

impl RetireSink {
    /// Queues `handle` for retirement (called when a texture state drops).
    pub fn push(&self, handle: NativeHandle) {
        // A poisoned lock only means another thread panicked mid-push; the Vec is still valid.
        self.0.lock().unwrap_or_else(|p| p.into_inner()).push(handle);
    }

    /// Takes every handle dropped since the last call.
    pub fn drain(&self) -> Vec<NativeHandle> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

/// The shared, backend-neutral state of one native texture.
#[derive(Debug)]
pub struct TextureState {
    id: TextureId,
    desc: TextureDesc,
    native: NativeHandle,
    sink: RetireSink,
    /// Per-subresource access and content tracking, owned by the compiler across frames.
    pub(crate) tracked: Mutex<TrackedState>,
    name: Mutex<DebugName>,
}

/// A texture's debug name and whether the backend has been given it yet.
#[derive(Debug, Default)]
struct DebugName {
    text: String,
    applied: bool,
}

impl TextureState {
    /// A state for a texture the backend has just created as `native`; its handle goes to `sink`
    /// when the last `Arc` drops.
    pub fn new(desc: TextureDesc, native: NativeHandle, sink: RetireSink) -> Arc<Self> {
        Arc::new(TextureState {
            id: TextureId::next(),
            desc,
            native,
            sink,
            tracked: Mutex::new(TrackedState::new(&desc)),
            name: Mutex::new(DebugName::default()),
        })
    }

    /// The texture's process-wide identity.
    pub fn id(&self) -> TextureId {
        self.id
    }

    /// What the texture is.
    pub fn desc(&self) -> &TextureDesc {
        &self.desc
    }

    /// The backend's handle for the native objects.
    pub fn native(&self) -> NativeHandle {
        self.native
    }

    /// The name tools show for the texture: the one given by [`set_name`](Self::set_name)
    /// (XNA's `GraphicsResource.Name`), else `back buffer` for the back buffer, else `unnamed`.
    pub fn name(&self) -> String {
        let name = self.name.lock().unwrap_or_else(|e| e.into_inner());
        match (name.text.is_empty(), self.desc.render_target) {
            (false, _) => name.text.clone(),
            (true, Some(rt)) if rt.back_buffer => "back buffer".to_owned(),
            (true, _) => "unnamed".to_owned(),
        }
    }

    /// Whether the last plan that used the texture handed its colour content to the presentation
    /// engine (a frame drawn straight into a swapchain image, then presented): until something
    /// is drawn into it again, it has no content the engine can read.
    pub fn given_to_presentation(&self) -> bool {
        let tracked = self.tracked.lock().unwrap_or_else(|e| e.into_inner());
        tracked
            .get(crate::plan::Image::Color, 0, 0)
            .is_some_and(|s| s.access == crate::plan::Access::PresentSwapchain)
    }

    /// Forgets the texture's content (the compiler treats every subresource as never written)
    /// while keeping the access each was left in: a replay rewinding to its snapshot does this
    /// before uploading the snapshot again, so that a texture the captured frames create finds
    /// nothing from an earlier pass to load.
    pub fn forget_content(&self) {
        self.tracked.lock().unwrap_or_else(|e| e.into_inner()).forget_content();
    }

    /// Records a new name. Nothing reaches the backend here: it takes the name with
    /// [`take_rename`](Self::take_rename) when it next submits a plan naming the texture.
    pub fn set_name(&self, name: &str) {
        let mut current = self.name.lock().unwrap_or_else(|e| e.into_inner());
        if current.text != name || !current.applied {
            *current = DebugName { text: name.to_owned(), applied: false };
        }
    }

    /// The name to give the native objects, once per change (and once at first use, so an
    /// unnamed back buffer is still called so); `None` when the backend already has it.
    pub fn take_rename(&self) -> Option<String> {
        let mut current = self.name.lock().unwrap_or_else(|e| e.into_inner());
        if current.applied {
            return None;
        }
        current.applied = true;
        drop(current);
        Some(self.name())
    }
}

impl Drop for TextureState {
    fn drop(&mut self) {
        self.sink.push(self.native);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_mip_chain_counts_down_to_one_texel_on_the_longest_edge() {
        assert_eq!(full_mip_count(1, 1, 1), 1);
        assert_eq!(full_mip_count(256, 64, 1), 9);
        assert_eq!(full_mip_count(300, 5, 1), 9);
        assert_eq!(full_mip_count(4, 2, 16), 5, "a volume's depth counts");
        assert_eq!(full_mip_count(0, 0, 0), 1, "an empty image has its one level");
        let volume = TextureDesc::volume(8, 4, 32, 1, SurfaceFormat::Color);
        assert_eq!(volume.full_mip_chain(), 6);
    }

    #[test]
    fn only_discard_contents_discards() {
        assert!(!RenderTargetUsage::DiscardContents.preserves_contents());
        assert!(RenderTargetUsage::PreserveContents.preserves_contents());
        assert!(RenderTargetUsage::PlatformContents.preserves_contents());
    }

    #[test]
    fn a_volume_level_is_covered_only_by_every_slice_of_it() {
        let desc = TextureDesc::volume(4, 4, 4, 3, SurfaceFormat::Color);
        let all = Rect::new(0, 0, 4, 4);
        assert!(desc.covers_level(0, all, Slices { front: 0, back: 4 }));
        assert!(!desc.covers_level(0, all, Slices { front: 0, back: 3 }));
        assert!(!desc.covers_level(0, all, Slices { front: 1, back: 4 }));
        assert!(!desc.covers_level(0, Rect::new(0, 0, 4, 3), Slices { front: 0, back: 4 }));
        assert!(desc.covers_level(1, Rect::new(0, 0, 2, 2), Slices { front: 0, back: 2 }));
        assert!(!desc.covers_level(1, Rect::new(0, 0, 2, 2), Slices::FLAT));
        assert_eq!((desc.level_depth(0), desc.level_depth(2), desc.level_depth(5)), (4, 1, 1));
        let flat = TextureDesc::texture_2d(4, 4, 1, SurfaceFormat::Color);
        assert!(flat.covers_level(0, all, Slices::FLAT));
        assert_eq!(flat.level_depth(0), 1);
    }

    #[test]
    fn handles_of_different_kinds_never_collide() {
        let kinds = HandleKind::ALL;
        for serial in [1, 2, 41, (1 << 56) - 1] {
            let handles: Vec<_> = kinds.iter().map(|k| NativeHandle::new(*k, serial)).collect();
            for (i, h) in handles.iter().enumerate() {
                assert_eq!(h.kind(), Some(kinds[i]), "{h:?}");
                assert!(handles[i + 1..].iter().all(|o| o != h), "{handles:?}");
            }
        }
        assert_eq!(NativeHandle(7).kind(), Some(HandleKind::Texture));
    }

    #[test]
    fn a_rename_is_taken_once_per_change() {
        let sink = RetireSink::default();
        let t = TextureState::new(
            TextureDesc::texture_2d(4, 4, 1, SurfaceFormat::Color),
            NativeHandle(1),
            sink.clone(),
        );
        assert_eq!(t.take_rename().as_deref(), Some("unnamed"));
        assert_eq!(t.take_rename(), None);
        t.set_name("hud");
        assert_eq!(t.take_rename().as_deref(), Some("hud"));
        t.set_name("hud");
        assert_eq!(t.take_rename(), None, "the same name again is no change");
        assert_eq!(t.name(), "hud");
    }

    #[test]
    fn dropping_the_last_state_retires_its_handle() {
        let sink = RetireSink::default();
        let state = TextureState::new(
            TextureDesc::texture_2d(4, 4, 1, SurfaceFormat::Color),
            NativeHandle(7),
            sink.clone(),
        );
        let held = state.clone();
        drop(state);
        assert!(sink.drain().is_empty());
        drop(held);
        assert_eq!(sink.drain(), vec![NativeHandle(7)]);
    }
}
