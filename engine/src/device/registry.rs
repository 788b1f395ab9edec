//! The device's registry: resource identity, the event arguments that name a resource, and
//! the disposal list of tracked resources.
//!
//! The registry holds a `Weak` to each tracked resource (a disposal list, never an owner). The
//! device walks it to dispose everything at device disposal and to tell every resource of a
//! device reset; a snapshot is taken first, so a resource told of either may unregister itself.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Weak};

use crate::event::lock;

/// Process-unique identity of one resource (not XNA, whose events hand out the resource object
/// itself): what `resource_id()` returns and resource events carry. Numbers start at 1 and are
/// never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResourceId(pub u64);

impl ResourceId {
    pub(crate) fn next() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        ResourceId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// What resource events carry: XNA's `ResourceCreatedEventArgs` (whose `Resource` is the object)
/// and `ResourceDestroyedEventArgs` (`Name`, `Tag`) in one. Here the resource is named by its
/// identity and type name, and no `Tag` is carried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceEventArgs {
    /// The resource the event is about.
    pub resource: ResourceId,
    /// The XNA type name, e.g. `"Texture2D"`.
    pub kind: &'static str,
    /// The resource's `Name` at the time of the event.
    pub name: String,
}

/// Implemented by every tracked resource so the device can dispose it and tell it of a reset.
pub(crate) trait Tracked: Send + Sync {
    /// The public `Dispose()`, called by device disposal.
    fn dispose_by_device(&self);
    /// A real device reset happened: set the content-lost flag and raise `ContentLost`.
    fn notify_content_lost(&self) {}
}

/// The tracked resources of one device.
#[derive(Default)]
pub(crate) struct Registry(Mutex<Vec<(ResourceId, Weak<dyn Tracked>)>>);

impl Registry {
    pub fn register(&self, id: ResourceId, resource: Weak<dyn Tracked>) {
        lock(&self.0).push((id, resource));
    }

    pub fn unregister(&self, id: ResourceId) {
        lock(&self.0).retain(|(r, _)| *r != id);
    }

    pub fn len(&self) -> usize {
        lock(&self.0).len()
    }

    /// The resources alive now, without holding the lock afterwards.
    pub fn snapshot(&self) -> Vec<Weak<dyn Tracked>> {
        lock(&self.0).iter().map(|(_, w)| w.clone()).collect()
    }

    /// Empties the registry, returning what it held.
    pub fn take(&self) -> Vec<Weak<dyn Tracked>> {
        std::mem::take(&mut *lock(&self.0)).into_iter().map(|(_, w)| w).collect()
    }
}
