//! Geometry buffers: the shared state every vertex or index buffer wrapper, upload and readback
//! holds, and the per-range tracking the compiler derives buffer barriers from.
//!
//! A [`BufferState`] stands for one native buffer the way a [`crate::TextureState`] stands for
//! a texture: held by `Arc` by the public wrapper and by every recorded node that names it, its
//! [`NativeHandle`] handed to the [`RetireSink`] when the last `Arc` drops. Its tracked state is
//! a list of byte ranges with the access that last touched each ([`BufferTrack`]), carried from
//! frame to frame and committed with the texture states once the backend accepted a plan.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::plan::Access;
use crate::resource::{NativeHandle, RetireSink};

/// A buffer's identity, unique in the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BufferId(pub u64);

impl BufferId {
    /// A fresh id.
    pub fn next() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        BufferId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// What a buffer holds: vertices (XNA's `VertexBuffer`) or indices (`IndexBuffer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum BufferKind {
    /// Vertex data, bound with `SetVertexBuffer`.
    Vertex,
    /// 16- or 32-bit indices, bound with `Indices`.
    Index,
}

/// What a backend needs to create a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub struct BufferDesc {
    /// Size in bytes (more than zero).
    pub size: u64,
    /// Vertices or indices.
    pub kind: BufferKind,
    /// A `DynamicVertexBuffer` or `DynamicIndexBuffer`: rewritten often, with
    /// [`SetDataOptions`] that let the compiler rename it.
    pub dynamic: bool,
}

impl BufferDesc {
    /// Whether bytes `offset..offset + len` lie inside the buffer (an overflowing end does
    /// not): the range every transfer of a buffer must keep to.
    pub fn holds(&self, offset: u64, len: u64) -> bool {
        offset.checked_add(len).is_some_and(|end| end <= self.size)
    }
}

/// XNA's `SetDataOptions`: what a write promises about the buffer's other content.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum SetDataOptions {
    /// The write is ordered after every earlier use of the bytes it overwrites.
    #[default]
    None,
    /// The whole previous content may be thrown away: bytes outside the write are undefined
    /// afterwards. The compiler may give the buffer fresh storage instead of waiting for the
    /// earlier uses (renaming).
    Discard,
    /// The caller promises not to overwrite bytes an earlier use of the frame still reads: the
    /// write waits only for uses of the bytes it overlaps (none, when the promise is kept).
    NoOverwrite,
}

/// The shared state of one native buffer (see the module doc).
#[derive(Debug)]
pub struct BufferState {
    id: BufferId,
    desc: BufferDesc,
    native: NativeHandle,
    sink: RetireSink,
    pub(crate) tracked: Mutex<BufferTrack>,
    name: Mutex<String>,
}

impl BufferState {
    /// Wraps a native buffer the backend created for `desc`.
    pub fn new(desc: BufferDesc, native: NativeHandle, sink: RetireSink) -> Arc<Self> {
        Arc::new(BufferState {
            id: BufferId::next(),
            desc,
            native,
            sink,
            tracked: Mutex::new(BufferTrack::default()),
            name: Mutex::new(String::new()),
        })
    }

    /// The buffer's identity.
    pub fn id(&self) -> BufferId {
        self.id
    }

    /// Size and kind.
    pub fn desc(&self) -> &BufferDesc {
        &self.desc
    }

    /// The backend's handle.
    pub fn native(&self) -> NativeHandle {
        self.native
    }

    /// XNA's `Name`, or `unnamed`: used in plan text and node labels.
    pub fn name(&self) -> String {
        let name = self.name.lock().unwrap_or_else(|e| e.into_inner());
        if name.is_empty() {
            "unnamed".to_owned()
        } else {
            name.clone()
        }
    }

    /// Sets the name shown in plans.
    pub fn set_name(&self, name: &str) {
        *self.name.lock().unwrap_or_else(|e| e.into_inner()) = name.to_owned();
    }
}

impl Drop for BufferState {
    fn drop(&mut self) {
        self.sink.push(self.native);
    }
}

/// The accesses that last touched each byte range of a buffer and have not been waited for by a
/// later barrier: what the next use of an overlapping range must be ordered after.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BufferTrack {
    /// Disjoint or overlapping (reads may overlap reads) ranges with their access.
    pub(crate) uses: Vec<(Range<u64>, Access)>,
}

impl BufferTrack {
    /// Whether any earlier use is tracked (the buffer has been used since its storage was new).
    pub fn is_used(&self) -> bool {
        !self.uses.is_empty()
    }

    /// The tracked uses, for tests and tools.
    pub fn uses(&self) -> &[(Range<u64>, Access)] {
        &self.uses
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_holds_a_range_that_ends_inside_it() {
        let desc = BufferDesc { size: 64, kind: BufferKind::Vertex, dynamic: false };
        assert!(desc.holds(0, 64));
        assert!(desc.holds(60, 4));
        assert!(desc.holds(64, 0));
        assert!(!desc.holds(60, 5), "past the end");
        assert!(!desc.holds(65, 0), "starting past the end");
        assert!(!desc.holds(u64::MAX, 2), "an end that overflows");
    }
}
