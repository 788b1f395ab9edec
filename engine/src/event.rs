//! XNA's multicast events, and the one lock helper every module uses.
//!
//! An [`Event`] holds its handlers behind a mutex; raising copies them out first, so a handler
//! runs outside every internal lock and may subscribe, unsubscribe, or dispose what raised it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

type Handler<A> = Arc<dyn Fn(&A) + Send + Sync>;

/// A multicast event (XNA's `EventHandler`). Handlers run on the raising thread, outside every
/// internal lock, so a handler may dispose resources or subscribe others.
pub struct Event<A> {
    handlers: Mutex<Vec<(u64, Handler<A>)>>,
}

/// Returned by [`Event::subscribe`]; pass it to [`Event::unsubscribe`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandlerId(u64);

impl<A> Default for Event<A> {
    fn default() -> Self {
        Event { handlers: Mutex::new(Vec::new()) }
    }
}

impl<A> std::fmt::Debug for Event<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Event({} handlers)", lock(&self.handlers).len())
    }
}

impl<A> Event<A> {
    /// Adds a handler (XNA's `+=`); it runs on the thread that raises the event, outside every lock
    /// of the device.
    pub fn subscribe(&self, handler: impl Fn(&A) + Send + Sync + 'static) -> HandlerId {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        lock(&self.handlers).push((id, Arc::new(handler)));
        HandlerId(id)
    }

    /// Removes a handler (XNA's `-=`); an unknown id is ignored, as removing a handler that is not
    /// subscribed is in .NET.
    pub fn unsubscribe(&self, id: HandlerId) {
        lock(&self.handlers).retain(|(h, _)| *h != id.0);
    }

    pub(crate) fn raise(&self, args: &A) {
        let handlers: Vec<Handler<A>> =
            lock(&self.handlers).iter().map(|(_, h)| h.clone()).collect();
        for h in handlers {
            h(args);
        }
    }
}

/// Locks a mutex, treating poisoning (a panic in another thread) as recoverable: the data is
/// still consistent at every point where this crate releases a lock.
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
