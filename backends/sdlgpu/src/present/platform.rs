//! Everything this backend does differently per window system, and nothing else: which native
//! window a raw-window-handle names, which SDL video driver wraps it, the properties
//! `SDL_CreateWindowWithProperties` wraps it with, and where the window's current size comes
//! from.
//!
//! - **X11** (Linux and the BSDs): the window number (`SDL_PROP_WINDOW_CREATE_X11_WINDOW_NUMBER`)
//!   on SDL's `x11` driver, with SDL's input handling of external windows off (the game's window
//!   library owns the input); the size is `XGetGeometry` on SDL's own display connection (libX11
//!   opened at run time).
//! - **Wayland** (Linux and the BSDs): the `wl_surface`
//!   (`SDL_PROP_WINDOW_CREATE_WAYLAND_WL_SURFACE_POINTER`) on SDL's `wayland` driver, which must
//!   use the window's own `wl_display`; a client sizes its surface itself, so the size is the
//!   back buffer's.
//! - **Win32** (Windows): the `HWND` (`SDL_PROP_WINDOW_CREATE_WIN32_HWND_POINTER`) on SDL's
//!   `windows` driver; the size is the back buffer's.
//! - **AppKit** (macOS): raw-window-handle gives the `NSView`; SDL wraps the view's `NSWindow`
//!   (`SDL_PROP_WINDOW_CREATE_COCOA_WINDOW_POINTER`, asked of the view) with that view
//!   (`SDL_PROP_WINDOW_CREATE_COCOA_VIEW_POINTER`) on SDL's `cocoa` driver; the size is the
//!   back buffer's.
//!
//! `x11_wayland` (set by the build script) marks the systems whose windows are X11 or Wayland
//! windows: Linux and the BSDs, winit's list. Only X11 and Wayland are exercised by the tests
//! (Xvfb); the Win32 and AppKit paths are compiled for their targets. A handle of any other system
//! (or of a system this build is not for) is `NotSupported`.

use std::ffi::c_void;

use raw_window_handle::{RawDisplayHandle, RawWindowHandle};
use sdl3_sys::properties::*;
use sdl3_sys::video::*;
use xnagraph_graph::{BackendError, TextureDesc};

use crate::device::Video;

/// The native window SDL wraps, from its raw-window-handle handles.
#[derive(Clone, Copy, Debug)]
pub(crate) enum NativeWindow {
    /// An X11 window id.
    #[cfg(x11_wayland)]
    X11 { window: u64 },
    /// A Wayland surface and the display connection it belongs to.
    #[cfg(x11_wayland)]
    Wayland { display: *mut c_void, surface: *mut c_void },
    /// A Win32 window (`HWND`).
    #[cfg(target_os = "windows")]
    Win32 { hwnd: *mut c_void },
    /// An AppKit view (`NSView`) and the window (`NSWindow`) it is in.
    #[cfg(target_os = "macos")]
    AppKit { window: *mut c_void, view: *mut c_void },
}

impl NativeWindow {
    /// The window behind `window` and `display`; a system this build cannot wrap is
    /// `NotSupported`.
    pub fn from_handles(
        display: RawDisplayHandle,
        window: RawWindowHandle,
    ) -> Result<NativeWindow, BackendError> {
        let _ = display;
        match window {
            // An X window id (c_ulong: 64 bits here).
            #[cfg(x11_wayland)]
            #[allow(clippy::useless_conversion)]
            RawWindowHandle::Xlib(h) => Ok(NativeWindow::X11 { window: u64::from(h.window) }),
            #[cfg(x11_wayland)]
            RawWindowHandle::Xcb(h) => Ok(NativeWindow::X11 { window: u64::from(h.window.get()) }),
            #[cfg(x11_wayland)]
            RawWindowHandle::Wayland(w) => match display {
                RawDisplayHandle::Wayland(d) => Ok(NativeWindow::Wayland {
                    display: d.display.as_ptr(),
                    surface: w.surface.as_ptr(),
                }),
                other => Err(BackendError::NotSupported(format!(
                    "a Wayland surface needs a Wayland display, not {other:?}"
                ))),
            },
            #[cfg(target_os = "windows")]
            RawWindowHandle::Win32(h) => {
                Ok(NativeWindow::Win32 { hwnd: h.hwnd.get() as *mut c_void })
            }
            #[cfg(target_os = "macos")]
            RawWindowHandle::AppKit(h) => {
                let view = h.ns_view.as_ptr();
                // SAFETY: a live NSView (the handle's contract while the window exists).
                let window = unsafe { appkit::window_of(view) };
                if window.is_null() {
                    return Err(BackendError::NotSupported(
                        "the AppKit view is in no window".into(),
                    ));
                }
                Ok(NativeWindow::AppKit { window, view })
            }
            other => Err(BackendError::NotSupported(format!(
                "SDL_gpu here presents to {} windows, not to {other:?}",
                Self::SYSTEMS
            ))),
        }
    }

    /// The window systems this build can wrap, for messages.
    const SYSTEMS: &'static str = if cfg!(target_os = "windows") {
        "Win32"
    } else if cfg!(target_os = "macos") {
        "AppKit"
    } else if cfg!(x11_wayland) {
        "X11 and Wayland"
    } else {
        "no"
    };

    /// The SDL video driver that can wrap this window.
    pub fn video(&self) -> Video {
        match self {
            #[cfg(x11_wayland)]
            NativeWindow::X11 { .. } => Video::Driver(c"x11"),
            #[cfg(x11_wayland)]
            NativeWindow::Wayland { .. } => Video::Driver(c"wayland"),
            #[cfg(target_os = "windows")]
            NativeWindow::Win32 { .. } => Video::Driver(c"windows"),
            #[cfg(target_os = "macos")]
            NativeWindow::AppKit { .. } => Video::Driver(c"cocoa"),
        }
    }

    /// Before SDL's video subsystem starts: SDL's Wayland driver must use the window's own
    /// display connection, or the surface would belong to another client; SDL must not select
    /// input on an X11 window the game's window library already handles.
    pub fn prepare(&self) {
        match *self {
            // SAFETY: a global property set before video initialisation, which reads it; the
            // display outlives the device (the window is kept alive by the presenter).
            #[cfg(x11_wayland)]
            NativeWindow::Wayland { display, .. } => unsafe {
                SDL_SetPointerProperty(
                    SDL_GetGlobalProperties(),
                    SDL_PROP_GLOBAL_VIDEO_WAYLAND_WL_DISPLAY_POINTER,
                    display,
                );
            },
            // SAFETY: both strings are NUL-terminated.
            #[cfg(x11_wayland)]
            NativeWindow::X11 { .. } => unsafe {
                sdl3_sys::hints::SDL_SetHint(
                    sdl3_sys::hints::SDL_HINT_VIDEO_X11_EXTERNAL_WINDOW_INPUT,
                    c"0".as_ptr(),
                );
            },
            #[cfg(any(target_os = "windows", target_os = "macos"))]
            _ => {}
        }
    }

    /// Sets the properties that make `SDL_CreateWindowWithProperties` wrap this window.
    ///
    /// # Safety
    /// `props` is a live property set.
    pub unsafe fn set_create_properties(&self, props: SDL_PropertiesID) {
        match *self {
            #[cfg(x11_wayland)]
            // SAFETY: a live property set (caller's contract); SDL's NUL-terminated name.
            NativeWindow::X11 { window } => unsafe {
                SDL_SetNumberProperty(
                    props,
                    SDL_PROP_WINDOW_CREATE_X11_WINDOW_NUMBER,
                    window as i64,
                );
            },
            #[cfg(x11_wayland)]
            // SAFETY: as above.
            NativeWindow::Wayland { surface, .. } => unsafe {
                SDL_SetPointerProperty(
                    props,
                    SDL_PROP_WINDOW_CREATE_WAYLAND_WL_SURFACE_POINTER,
                    surface,
                );
            },
            #[cfg(target_os = "windows")]
            // SAFETY: as above.
            NativeWindow::Win32 { hwnd } => unsafe {
                SDL_SetPointerProperty(props, SDL_PROP_WINDOW_CREATE_WIN32_HWND_POINTER, hwnd);
            },
            #[cfg(target_os = "macos")]
            // SAFETY: as above.
            NativeWindow::AppKit { window, view } => unsafe {
                SDL_SetPointerProperty(props, SDL_PROP_WINDOW_CREATE_COCOA_WINDOW_POINTER, window);
                SDL_SetPointerProperty(props, SDL_PROP_WINDOW_CREATE_COCOA_VIEW_POINTER, view);
            },
        }
    }

    /// Where the size of the SDL window `sdl_window`, made from this native window, comes
    /// from.
    pub fn size_source(&self, sdl_window: *mut SDL_Window) -> Result<SizeSource, BackendError> {
        let _ = sdl_window;
        match *self {
            #[cfg(x11_wayland)]
            NativeWindow::X11 { window } => {
                let xlib = x11_dl::xlib::Xlib::open().map(Box::new).map_err(|e| {
                    BackendError::NotSupported(format!("libX11 cannot be loaded: {e}"))
                })?;
                // SAFETY: a live SDL window of the x11 driver.
                let display = unsafe {
                    SDL_GetPointerProperty(
                        SDL_GetWindowProperties(sdl_window),
                        SDL_PROP_WINDOW_X11_DISPLAY_POINTER,
                        std::ptr::null_mut(),
                    )
                };
                if display.is_null() {
                    return Err(BackendError::NotSupported(
                        "SDL's x11 window has no display connection".into(),
                    ));
                }
                Ok(SizeSource::X11 { xlib, display: display.cast(), window })
            }
            #[allow(unreachable_patterns)]
            _ => Ok(SizeSource::BackBuffer),
        }
    }
}

/// Where the window's current size comes from.
pub(crate) enum SizeSource {
    /// `XGetGeometry` on SDL's own display connection (used only by the thread holding the
    /// backend, as every SDL call is).
    #[cfg(x11_wayland)]
    X11 { xlib: Box<x11_dl::xlib::Xlib>, display: *mut x11_dl::xlib::Display, window: u64 },
    /// The back buffer's size: a Wayland surface has the size its client gives it; on Win32
    /// and AppKit the game resets the back buffer to the window's size (the game loop does on
    /// a resize), and SDL's swapchain follows that size.
    BackBuffer,
}

impl SizeSource {
    /// The window's size now; `None` when the window system cannot tell.
    pub fn size(&self, back_buffer: &TextureDesc) -> Option<(u32, u32)> {
        match self {
            #[cfg(x11_wayland)]
            SizeSource::X11 { xlib, display, window } => {
                let (mut root, mut x, mut y, mut w, mut h, mut border, mut depth) =
                    (0, 0, 0, 0, 0, 0, 0);
                // SAFETY: a live display connection and a window id; every out pointer is a
                // local.
                let ok = unsafe {
                    (xlib.XGetGeometry)(
                        *display,
                        *window,
                        &mut root,
                        &mut x,
                        &mut y,
                        &mut w,
                        &mut h,
                        &mut border,
                        &mut depth,
                    )
                };
                (ok != 0).then_some((w, h))
            }
            SizeSource::BackBuffer => Some((back_buffer.width, back_buffer.height)),
        }
    }

    /// After SDL destroyed its window: SDL's last requests on the native window (removing its
    /// properties) reach the X server now, while the window still exists; buffered until
    /// SDL's connection closes, they would name a window the game destroyed by then.
    pub fn flush_after_destroy(&self) {
        match self {
            #[cfg(x11_wayland)]
            // SAFETY: SDL's display connection is open until the video subsystem quits.
            SizeSource::X11 { xlib, display, .. } => unsafe {
                (xlib.XSync)(*display, 0);
            },
            SizeSource::BackBuffer => {}
        }
    }
}

/// The one Objective-C call AppKit wrapping needs, through the runtime every macOS process has.
#[cfg(target_os = "macos")]
mod appkit {
    use std::ffi::{c_char, c_void};

    #[link(name = "objc")]
    extern "C" {
        fn sel_registerName(name: *const c_char) -> *mut c_void;
        fn objc_msgSend();
    }

    /// `[view window]`: the NSWindow the NSView is in (null when it is in none).
    ///
    /// # Safety
    /// `view` is a live NSView.
    pub unsafe fn window_of(view: *mut c_void) -> *mut c_void {
        // SAFETY: objc_msgSend called through the signature of the method it dispatches to
        // (`- (NSWindow *)window`, no arguments); the selector name is NUL-terminated.
        unsafe {
            let send: unsafe extern "C" fn(*mut c_void, *mut c_void) -> *mut c_void =
                std::mem::transmute(objc_msgSend as unsafe extern "C" fn());
            send(view, sel_registerName(c"window".as_ptr()))
        }
    }
}
