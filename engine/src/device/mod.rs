//! The device: [`GraphicsDevice`], what it shares with its resources, and how a recorded frame
//! reaches the backend.
//!
//! `graphics_device.rs` holds the public type (creation, public state, clears, presents,
//! flushes, disposal) and `clear.rs` its `ClearOptions`; `shared.rs` the state a device shares
//! with its resources (recording and binding state, the backend, the events), `registry.rs` its
//! list of resources and their identity, `draw_state.rs` the state geometry draws read;
//! `submit.rs` one flush and one readback, and `data.rs` the checks every `SetData`/`GetData`
//! shares; `render_thread.rs` the thread frames are lowered on; `present.rs` what presenting
//! means and `window.rs` devices made for a window; `options.rs`, `profile.rs`,
//! `capability.rs` and `back_buffer.rs` what a device is asked for and what it can do;
//! `adapter.rs` the adapters a device can be made on, their queries and the display's modes;
//! `backends.rs` the backends this build has;
//! `gpu_timing.rs` GPU time per frame; `capture/` the frame capture hook and its writer thread.
//!
//! Calls go down: resources, effects, sprites and draws call into [`shared`] (through the
//! device-lifetime token every resource holds) and [`submit`]; nothing here names a resource
//! type, an effect or a sprite. The render thread knows the device only as a
//! [`render_thread::FrameSink`]; the draw state knows a bound buffer only as a
//! [`draw_state::BoundBuffer`].

pub(crate) mod adapter;
mod back_buffer;
pub(crate) mod backends;
pub(crate) mod capability;
pub(crate) mod capture;
pub(crate) mod clear;
pub(crate) mod data;
pub(crate) mod draw_state;
pub(crate) mod gpu_timing;
mod graphics_device;
mod introspection;
pub(crate) mod options;
pub(crate) mod present;
pub(crate) mod profile;
pub(crate) mod registry;
pub(crate) mod render_thread;
pub(crate) mod shared;
pub(crate) mod submit;
pub(crate) mod window;

pub use graphics_device::GraphicsDevice;
