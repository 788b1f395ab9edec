//! Graphics resources: the core every wrapper holds, and the two ways a resource ends.
//!
//! Every resource a constructor makes is *tracked*: the device's registry holds a `Weak` to it
//! (a disposal list, never an owner), `ResourceCreated` is raised, and the resource keeps a weak
//! device-lifetime token (`Weak<DeviceShared>`). A clone of a texture shares the backend state but
//! is untracked: no registry entry, no `ResourceCreated`, undisposed, with its own name, tag and
//! no `Disposing` handlers.
//!
//! A resource ends by [`dispose`](ResourceCore::begin_dispose) (explicit: raises `Disposing`) or
//! by `Drop` (implicit: no `Disposing`). Either way, while the device lives, the device's
//! `ResourceDestroyed` is raised and the entry removed. Disposing an untracked copy raises
//! `ResourceDestroyed` too although no `ResourceCreated` was raised for it; tools that pair the
//! two events must expect that, as with XNA-on-C++ ports.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, Weak};

use crate::device::registry::{ResourceEventArgs, ResourceId};
use crate::device::shared::DeviceShared;
use crate::error::{Result, XnaError};
use crate::event::{lock, Event};

const ALIVE: u8 = 0;
const DISPOSING: u8 = 1;
const DISPOSED: u8 = 2;

/// Identity, name, tag, device token and disposal state of one resource wrapper.
pub(crate) struct ResourceCore {
    pub id: ResourceId,
    pub kind: &'static str,
    pub device: Weak<DeviceShared>,
    state: AtomicU8,
    pub name: Mutex<String>,
    pub tag: Mutex<Option<String>>,
    pub disposing: Event<ResourceEventArgs>,
}

impl ResourceCore {
    pub fn new(kind: &'static str, device: Weak<DeviceShared>) -> Self {
        ResourceCore {
            id: ResourceId::next(),
            kind,
            device,
            state: AtomicU8::new(ALIVE),
            name: Mutex::new(String::new()),
            tag: Mutex::new(None),
            disposing: Event::default(),
        }
    }

    /// An untracked copy's core: same device, name and tag; no handlers; undisposed unless
    /// `other`'s disposal has begun (a copy of a disposed resource is born disposed, and its
    /// end raises nothing).
    pub fn copy_of(other: &ResourceCore) -> Self {
        let core = ResourceCore::new(other.kind, other.device.clone());
        *lock(&core.name) = lock(&other.name).clone();
        *lock(&core.tag) = lock(&other.tag).clone();
        if other.state.load(Ordering::Acquire) != ALIVE {
            core.state.store(DISPOSED, Ordering::Release);
        }
        core
    }

    pub fn args(&self) -> ResourceEventArgs {
        ResourceEventArgs { resource: self.id, kind: self.kind, name: lock(&self.name).clone() }
    }

    pub fn is_disposed(&self) -> bool {
        self.state.load(Ordering::Acquire) == DISPOSED
    }

    /// `ObjectDisposed` unless the resource is alive. Inlined: every sprite drawn asks it of
    /// its texture, and a call would return the result through memory.
    #[inline]
    pub fn check_alive(&self) -> Result<()> {
        if self.state.load(Ordering::Acquire) == ALIVE {
            Ok(())
        } else {
            Err(XnaError::ObjectDisposed { object: self.kind })
        }
    }

    /// The live device, or `ObjectDisposed` when the resource or its device has gone.
    pub fn live_device(&self) -> Result<Arc<DeviceShared>> {
        self.check_alive()?;
        self.device_if_alive().ok_or(XnaError::ObjectDisposed { object: "GraphicsDevice" })
    }

    /// The device, while it exists and is not disposed (the lifetime token, upgraded).
    pub fn device_if_alive(&self) -> Option<Arc<DeviceShared>> {
        self.device.upgrade().filter(|d| !d.is_disposed())
    }

    /// Starts disposal; false when it already began (re-entrant or repeated dispose).
    /// On the explicit path, raises `Disposing` first.
    pub fn begin_dispose(&self, explicit: bool) -> bool {
        if self
            .state
            .compare_exchange(ALIVE, DISPOSING, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            return false;
        }
        if explicit {
            self.disposing.raise(&self.args());
        }
        true
    }

    /// Finishes disposal: while the device lives, raise its `ResourceDestroyed` and unregister;
    /// then mark disposed.
    pub fn end_dispose(&self) {
        if let Some(device) = self.device.upgrade() {
            device.unregister(self.id);
            device.events.resource_destroyed.raise(&self.args());
        }
        self.state.store(DISPOSED, Ordering::Release);
    }
}

/// XNA's `GraphicsResource` members every texture and buffer type has (`IsDisposed`, `Name`,
/// `Tag`, its identity and `Disposing`), for a type whose `core` field has the resource's
/// shared `res` state and a `set_name`; one definition, so the resource types cannot drift
/// apart. The optional literal documents `set_name` (what the name reaches); without it, the
/// texture types' text.
macro_rules! graphics_resource_accessors {
    () => {
        $crate::resources::resource::graphics_resource_accessors!(
            "Sets `Name`. The name also becomes the debug name of the native objects (the images \
             and views tools such as RenderDoc show, and the labels of the passes that use them); \
             it reaches the driver when the texture is next used in a flushed frame, never at this \
             call. Copies of a texture share its native objects, which carry the name set last."
        );
    };
    ($set_name_doc:literal) => {
        /// XNA's `GraphicsResource.IsDisposed`: whether it was disposed (explicitly, by its
        /// device's disposal, or as the last wrapper dropped).
        pub fn is_disposed(&self) -> bool {
            self.core.res.is_disposed()
        }

        /// XNA's `GraphicsResource.Name` (empty until set); a copy of the string, not a
        /// property.
        pub fn name(&self) -> String {
            lock(&self.core.res.name).clone()
        }

        #[doc = $set_name_doc]
        pub fn set_name(&self, name: impl Into<String>) {
            self.core.set_name(name.into());
        }

        /// XNA's `GraphicsResource.Tag`: any text the game attaches. Where it differs from XNA:
        /// a string, not any `object`.
        pub fn tag(&self) -> Option<String> {
            lock(&self.core.res.tag).clone()
        }

        /// Sets XNA's `GraphicsResource.Tag`.
        pub fn set_tag(&self, tag: Option<String>) {
            *lock(&self.core.res.tag) = tag;
        }

        /// The resource's identity, what the device's `ResourceCreated` and `ResourceDestroyed`
        /// carry (not XNA, whose events carry the object itself).
        pub fn resource_id(&self) -> crate::ResourceId {
            self.core.res.id
        }

        /// XNA's `GraphicsResource.Disposing` event, raised by an explicit `dispose` (or the
        /// device's disposal), not by dropping the last wrapper.
        pub fn disposing(&self) -> &Event<ResourceEventArgs> {
            &self.core.res.disposing
        }
    };
}
pub(crate) use graphics_resource_accessors;
