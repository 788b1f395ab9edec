//! Presentation to a window: SDL wraps the game's own native window, claims it for the GPU
//! device, and each presenting submission acquires its swapchain texture.
//!
//! In: the frame's [`PresentMode`] as the compiler decided it, and the plan's back buffer.
//! Out: around one command buffer, the swapchain texture the plan draws straight into
//! ([`PresentMode::Direct`]) or the back buffer is blitted into ([`PresentMode::Copy`]); SDL
//! presents it when the command buffer is submitted.
//!
//! The mechanism, none of the policy:
//! - **Wrapping.** `SDL_CreateWindowWithProperties` wraps the native window (the X11 window
//!   number, the Wayland surface on the window's own `wl_display`, the Win32 `HWND` or the
//!   AppKit window and view: see `platform`), with SDL's input handling of external windows
//!   off where SDL has such a switch (the game's window library owns the input);
//!   `SDL_ClaimWindowForGPUDevice` makes its swapchain. SDL never destroys the native window it
//!   wraps.
//! - **Size.** SDL's swapchain follows the window's size as SDL's own window events report it,
//!   and SDL gets no events of a window it wraps. Before each compile the window's size is read
//!   (X11: `XGetGeometry`; elsewhere the back buffer's size, see `platform`);
//!   on a change SDL is told the size the window has, so that it sends itself the resize event
//!   and the next acquisition makes a swapchain of the new size.
//! - **Acquisition** happens only in a command buffer that presents: SDL gives a swapchain
//!   texture to one command buffer and presents it when that command buffer is submitted, so a
//!   frame can never stay acquired across flushes (the backend reports `acquired: false`
//!   always). A Direct plan that does not present (a flush before `Present`) therefore draws
//!   into the offscreen back buffer, and the compiler copies that frame at its present, as it
//!   copies any frame that started offscreen. A failed acquisition is an error before anything
//!   is recorded (the command buffer is cancelled); a null texture (no area, hidden, a swapchain
//!   being remade) presents nothing and the plan runs offscreen.
//! - **Pacing** maps `PresentInterval` onto SDL's present modes: VSYNC, or IMMEDIATE (MAILBOX
//!   where IMMEDIATE is missing); a mode the window lacks is refused.

use std::any::Any;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use sdl3_sys::events::*;
use sdl3_sys::gpu::*;
use sdl3_sys::properties::*;
use sdl3_sys::video::*;
use xnagraph_graph::{
    BackendError, Diagnostics, FramePlan, NativeHandle, PlanNodeKind, PresentMode, PresentStats,
    PresentTarget, SurfaceFormat, SwapchainDesc, TextureDesc,
};

mod platform;

pub(crate) use self::platform::NativeWindow;
use self::platform::SizeSource;
use crate::device::sdl_error;

/// The XNA format a swapchain texture format stores unchanged, if any.
fn xna_format(format: SDL_GPUTextureFormat) -> Option<SurfaceFormat> {
    (format == SDL_GPU_TEXTUREFORMAT_B8G8R8A8_UNORM
        || format == SDL_GPU_TEXTUREFORMAT_R8G8B8A8_UNORM)
        .then_some(SurfaceFormat::Color)
}

/// The SDL present mode for a pacing: VSYNC, or IMMEDIATE (else MAILBOX, which also presents
/// without waiting for the retrace); `None` when the window offers neither.
fn present_mode(
    device: *mut SDL_GPUDevice,
    window: *mut SDL_Window,
    immediate: bool,
) -> Option<SDL_GPUPresentMode> {
    if !immediate {
        return Some(SDL_GPU_PRESENTMODE_VSYNC);
    }
    [SDL_GPU_PRESENTMODE_IMMEDIATE, SDL_GPU_PRESENTMODE_MAILBOX]
        .into_iter()
        // SAFETY: a live device and a window claimed for it.
        .find(|&m| unsafe { SDL_WindowSupportsGPUPresentMode(device, window, m) })
}

/// What one command buffer does with the swapchain; see [`Presenter::begin`].
#[derive(Default)]
pub(crate) struct FramePresentation {
    /// The plan presents.
    pub presents: bool,
    /// The swapchain texture acquired for this command buffer, and its size.
    pub texture: Option<(*mut SDL_GPUTexture, u32, u32)>,
    /// For a plan drawn straight in: the back buffer whose colour texture is replaced by the
    /// swapchain texture while recording, and the swapchain's format.
    pub direct: Option<(NativeHandle, SDL_GPUTextureFormat)>,
    /// For a copied plan: the back buffer blitted into the swapchain texture after the plan.
    pub copy_from: Option<NativeHandle>,
}

/// The wrapped window, its claim and its pacing.
pub(crate) struct Presenter {
    window: *mut SDL_Window,
    claimed: bool,
    size: SizeSource,
    /// The size SDL's swapchain has or is remade at by the next acquisition.
    told: (u32, u32),
    format: SDL_GPUTextureFormat,
    mode: SDL_GPUPresentMode,
    /// The swapchain SDL made or remade that no compile has seen yet, and why: counted and
    /// reported (a `swapchain created` tracing event) when the next compile asks for it.
    pending: Option<&'static str>,
    stats: PresentStats,
    /// Keeps the native window alive for as long as SDL wraps it.
    _keep: Arc<dyn Any + Send + Sync>,
}

impl Presenter {
    /// Wraps `native`, claims it for `device` and paces it with the vertical retrace.
    pub fn new(
        device: *mut SDL_GPUDevice,
        native: NativeWindow,
        keep: Arc<dyn Any + Send + Sync>,
        diagnostics: &Diagnostics,
    ) -> Result<Presenter, BackendError> {
        // SAFETY: a property set used only for this call and destroyed after it; the native
        // window outlives the SDL window (kept by `keep`).
        let window = unsafe {
            let props = SDL_CreateProperties();
            // Resizable, so that telling SDL the window's size never sets size hints on it.
            SDL_SetBooleanProperty(props, SDL_PROP_WINDOW_CREATE_RESIZABLE_BOOLEAN, true);
            native.set_create_properties(props);
            let window = SDL_CreateWindowWithProperties(props);
            SDL_DestroyProperties(props);
            window
        };
        if window.is_null() {
            return Err(BackendError::NotSupported(sdl_error("SDL_CreateWindowWithProperties")));
        }
        diagnostics.object_created();
        let mut p = Presenter {
            window,
            claimed: false,
            size: SizeSource::BackBuffer,
            told: (0, 0),
            format: SDL_GPU_TEXTUREFORMAT_INVALID,
            mode: SDL_GPU_PRESENTMODE_VSYNC,
            pending: None,
            stats: PresentStats::default(),
            _keep: keep,
        };
        let made = (|| {
            p.size = native.size_source(p.window)?;
            p.claim(device, diagnostics)
        })();
        if let Err(e) = made {
            // SAFETY: the window is not claimed (or `claim` failed) and nothing uses it.
            unsafe { p.destroy(device, diagnostics) };
            return Err(e);
        }
        p.pending = Some("first");
        Ok(p)
    }

    /// Claims the window (again) for `device`: SDL makes its swapchain at the size SDL knows,
    /// with the present mode in force.
    fn claim(
        &mut self,
        device: *mut SDL_GPUDevice,
        diagnostics: &Diagnostics,
    ) -> Result<(), BackendError> {
        // SAFETY: a live device and window.
        if !unsafe { SDL_ClaimWindowForGPUDevice(device, self.window) } {
            return Err(BackendError::NotSupported(sdl_error("SDL_ClaimWindowForGPUDevice")));
        }
        diagnostics.object_created();
        self.claimed = true;
        self.pending = Some("claimed again");
        let (mut w, mut h) = (0, 0);
        // SAFETY: a live device and a claimed window; out pointers are locals.
        unsafe {
            SDL_GetWindowSizeInPixels(self.window, &mut w, &mut h);
            self.format = SDL_GetGPUSwapchainTextureFormat(device, self.window);
        }
        self.told = (w.max(0) as u32, h.max(0) as u32);
        if self.mode != SDL_GPU_PRESENTMODE_VSYNC {
            self.apply_mode(device, self.mode)?;
        }
        Ok(())
    }

    /// Test support: releases the window from the device (`claimed == false`), after which
    /// acquisitions fail with SDL's error, or claims it again.
    pub fn set_claimed(
        &mut self,
        device: *mut SDL_GPUDevice,
        diagnostics: &Diagnostics,
        claimed: bool,
    ) -> Result<(), BackendError> {
        match (self.claimed, claimed) {
            (false, true) => {
                self.claim(device, diagnostics)?;
            }
            (true, false) => {
                // SAFETY: a claimed window; SDL waits for the GPU before destroying the
                // swapchain.
                unsafe { SDL_ReleaseWindowFromGPUDevice(device, self.window) };
                diagnostics.object_destroyed();
                self.claimed = false;
            }
            _ => {}
        }
        Ok(())
    }

    pub fn stats(&self) -> PresentStats {
        self.stats.clone()
    }

    /// Native objects held: the SDL window and its claim (the swapchain).
    pub fn object_count(&self) -> usize {
        1 + usize::from(self.claimed)
    }

    /// Whether presents can be paced as asked; `NotSupported` names what the window lacks.
    pub fn check_pacing(
        &self,
        device: *mut SDL_GPUDevice,
        immediate: bool,
    ) -> Result<(), BackendError> {
        if !self.claimed {
            return Ok(());
        }
        present_mode(device, self.window, immediate).map(|_| ()).ok_or_else(|| {
            BackendError::NotSupported(
                "PresentInterval.Immediate is not supported: the window offers SDL_gpu neither \
                 the IMMEDIATE nor the MAILBOX present mode."
                    .into(),
            )
        })
    }

    /// Paces presents; a mode the window lacks leaves the current one (the engine checked).
    pub fn set_pacing(&mut self, device: *mut SDL_GPUDevice, immediate: bool) {
        let wanted = if self.claimed {
            present_mode(device, self.window, immediate)
        } else {
            Some(if immediate { SDL_GPU_PRESENTMODE_IMMEDIATE } else { SDL_GPU_PRESENTMODE_VSYNC })
        };
        let Some(mode) = wanted.filter(|&m| m != self.mode) else { return };
        self.mode = mode;
        if self.claimed {
            if let Err(e) = self.apply_mode(device, mode) {
                tracing::warn!("{e}");
            }
        }
    }

    fn apply_mode(
        &mut self,
        device: *mut SDL_GPUDevice,
        mode: SDL_GPUPresentMode,
    ) -> Result<(), BackendError> {
        // SAFETY: a live device and a claimed window; SDL remakes the swapchain.
        if !unsafe {
            SDL_SetGPUSwapchainParameters(
                device,
                self.window,
                SDL_GPU_SWAPCHAINCOMPOSITION_SDR,
                mode,
            )
        } {
            return Err(BackendError::NotSupported(sdl_error("SDL_SetGPUSwapchainParameters")));
        }
        // A swapchain no compile has seen yet is the first of its kind still: it only takes
        // the new mode.
        self.pending.get_or_insert("pacing");
        Ok(())
    }

    /// [`xnagraph_graph::Backend::present_target`]: the window's size now (handed to SDL's
    /// swapchain when it changed) and the swapchain's format. `back_buffer_format` is the back
    /// buffer's native format, which a resolve into the swapchain needs.
    pub fn present_target(
        &mut self,
        back_buffer: &TextureDesc,
        back_buffer_format: Option<SDL_GPUTextureFormat>,
    ) -> PresentTarget {
        let size = self.size.size(back_buffer).unwrap_or((0, 0));
        if size.0 == 0 || size.1 == 0 || self.stats.simulate_zero_extent.load(Ordering::Relaxed) {
            return PresentTarget::Window { swapchain: None, acquired: false };
        }
        if self.claimed && size != self.told {
            self.tell_size(size);
        }
        if let Some(reason) = self.pending.take() {
            self.stats.recreations.fetch_add(1, Ordering::Relaxed);
            tracing::info!(
                width = size.0,
                height = size.1,
                format = self.format.0,
                mode = self.mode.0,
                reason,
                "swapchain created"
            );
        }
        let swapchain = SwapchainDesc {
            width: size.0,
            height: size.1,
            format: xna_format(self.format),
            resolve_target: back_buffer_format == Some(self.format),
        };
        PresentTarget::Window { swapchain: Some(swapchain), acquired: false }
    }

    /// Lets SDL's swapchain learn the window's new size, which the next acquisition remakes it
    /// at. SDL reads no events of a window it wraps (and pumps events only on the main
    /// thread), so it is told the size the window already has: for a wrapped window,
    /// `SDL_SetWindowSize` followed by `SDL_SyncWindow` checks the native window and sends the
    /// resize event its swapchain watches for.
    fn tell_size(&mut self, size: (u32, u32)) {
        // SAFETY: a live window; the window events SDL queued are dropped (nothing reads
        // SDL's event queue).
        unsafe {
            SDL_SetWindowSize(self.window, size.0 as i32, size.1 as i32);
            SDL_SyncWindow(self.window);
            SDL_FlushEvents(SDL_EVENT_WINDOW_FIRST.0, SDL_EVENT_WINDOW_LAST.0);
        }
        self.told = size;
        self.pending.get_or_insert("resized");
    }

    /// Before recording a plan into `cmd`: acquires the swapchain texture when the plan
    /// presents and its mode draws into or copies to the window. A failed acquisition is
    /// SDL's error (nothing is recorded yet; the caller cancels `cmd`).
    pub fn begin(
        &mut self,
        cmd: *mut SDL_GPUCommandBuffer,
        plan: &FramePlan,
    ) -> Result<FramePresentation, BackendError> {
        let presents = plan.nodes.iter().any(|n| matches!(n.kind, PlanNodeKind::Present { .. }));
        let mut out = FramePresentation { presents, ..FramePresentation::default() };
        let mode = plan.frame.presentation;
        if !presents || !matches!(mode, PresentMode::Direct | PresentMode::Copy) {
            return Ok(out);
        }
        let Some(back_buffer) = plan.textures().into_iter().find(|t| t.desc().is_back_buffer())
        else {
            return Ok(out);
        };
        let (mut texture, mut w, mut h) = (std::ptr::null_mut(), 0, 0);
        // SAFETY: a recording command buffer outside any pass; out pointers are locals.
        let ok = unsafe {
            SDL_WaitAndAcquireGPUSwapchainTexture(cmd, self.window, &mut texture, &mut w, &mut h)
        };
        if !ok {
            return Err(BackendError::Native(sdl_error("SDL_WaitAndAcquireGPUSwapchainTexture")));
        }
        if texture.is_null() {
            return Ok(out);
        }
        out.texture = Some((texture, w, h));
        let desc = back_buffer.desc();
        // A Direct plan whose swapchain changed size since the compile (a resize in between)
        // is drawn offscreen and copied like any other: its content is the same.
        if mode == PresentMode::Direct && (w, h) == (desc.width, desc.height) {
            out.direct = Some((back_buffer.native(), self.format));
        } else {
            out.copy_from = Some(back_buffer.native());
        }
        Ok(out)
    }

    /// After a successful submission: what reached the window.
    pub fn finish(&self, frame: &FramePresentation) {
        if !frame.presents {
            return;
        }
        let counter =
            if frame.texture.is_some() { &self.stats.presented } else { &self.stats.skipped };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Releases the claim and the SDL window (the native window stays).
    ///
    /// # Safety
    /// The GPU is idle.
    pub unsafe fn destroy(&mut self, device: *mut SDL_GPUDevice, diagnostics: &Diagnostics) {
        if self.claimed {
            // SAFETY: a claimed window; the GPU is idle (caller's contract).
            unsafe { SDL_ReleaseWindowFromGPUDevice(device, self.window) };
            diagnostics.object_destroyed();
            self.claimed = false;
        }
        if !self.window.is_null() {
            // SAFETY: SDL does not destroy a native window it wraps.
            unsafe { SDL_DestroyWindow(self.window) };
            diagnostics.object_destroyed();
            self.window = std::ptr::null_mut();
            self.size.flush_after_destroy();
        }
    }
}

/// Blits the back buffer's colour texture (`from`, scaled with linear filtering) into the
/// swapchain texture.
pub(crate) fn blit(
    cmd: *mut SDL_GPUCommandBuffer,
    from: (*mut SDL_GPUTexture, u32, u32),
    to: (*mut SDL_GPUTexture, u32, u32),
) {
    let region = |(texture, w, h): (*mut SDL_GPUTexture, u32, u32)| SDL_GPUBlitRegion {
        texture,
        mip_level: 0,
        layer_or_depth_plane: 0,
        x: 0,
        y: 0,
        w,
        h,
    };
    let info = SDL_GPUBlitInfo {
        source: region(from),
        destination: region(to),
        load_op: SDL_GPU_LOADOP_DONT_CARE,
        filter: SDL_GPU_FILTER_LINEAR,
        ..Default::default()
    };
    // SAFETY: recording outside any pass; the back buffer has sampler usage, the swapchain
    // texture is the command buffer's.
    unsafe { SDL_BlitGPUTexture(cmd, &info) };
}
