//! `puffin` scopes, compiled in only with the `profiling` feature.
//!
//! The compiler's stages, the backends' submission steps and the engine's flush open a puffin
//! scope through [`profile_scope!`](crate::profile_scope), which expands to puffin's own macro
//! when the crate is built with `profiling` and to nothing otherwise, so a game that does not
//! profile does not build puffin. `tracing` spans sit at the same points either way.

/// puffin, for [`profile_scope!`](crate::profile_scope)'s expansion.
#[cfg(feature = "profiling")]
#[doc(hidden)]
pub use puffin;

/// A puffin scope until the end of the enclosing block (`profiling` feature), or nothing.
#[cfg(feature = "profiling")]
#[macro_export]
macro_rules! profile_scope {
    ($($arg:tt)*) => {
        $crate::profiling::puffin::profile_scope!($($arg)*)
    };
}

/// A puffin scope until the end of the enclosing block (`profiling` feature), or nothing.
#[cfg(not(feature = "profiling"))]
#[macro_export]
macro_rules! profile_scope {
    ($($arg:tt)*) => {};
}

/// A puffin scope held by the value it returns, until that value is dropped (`profiling`
/// feature), or `()`.
#[cfg(feature = "profiling")]
#[macro_export]
macro_rules! profile_scope_guard {
    ($name:expr) => {
        $crate::profiling::puffin::profile_scope_custom!($name)
    };
}

/// A puffin scope held by the value it returns, until that value is dropped (`profiling`
/// feature), or `()`.
#[cfg(not(feature = "profiling"))]
#[macro_export]
macro_rules! profile_scope_guard {
    ($name:expr) => {
        ()
    };
}
