//! Presentation to a window: the swapchain, image acquisition and queue presents.
//!
//! In: the frame's [`PresentMode`] as the compiler decided it, and the plan's back buffer.
//! Out: around one submission, the acquired swapchain image (waited on by the submission that
//! first uses it), the back buffer's colour image aliased to it for a frame drawn straight in,
//! or the image a copy blits into (the blit recorded at the plan's present node,
//! [`record_present_copy`]), and after the submission a queue present that waits on the image's
//! render-finished semaphore. One swapchain's creation and destruction are [`swapchain`]'s.
//!
//! The mechanism, none of the policy:
//! - **Acquire** happens at the first submission of a frame that needs the image (a direct
//!   frame's first flush that names the back buffer, or a copied frame's present) and the image
//!   stays acquired across the frame's later flushes, so a readback before `Present` reads the
//!   frame being drawn. Each acquire takes a semaphore that is unsignalled for certain: a fresh
//!   one, or one whose waiting submission has completed; a semaphore that was signalled and not
//!   waited is never reused. The acquire waits at most the device's timeout; a timeout is an
//!   error, not a hang.
//! - **Present** waits on a render-finished semaphore per swapchain image (an image cannot be
//!   acquired again before its present has consumed the semaphore).
//! - **Recreation** follows the window (its current extent), the back buffer (where the surface
//!   lets the swapchain choose its size), the pacing, and OUT_OF_DATE or SUBOPTIMAL from an
//!   acquire or a present. A window without area has no swapchain: the frame's work is still
//!   submitted and nothing is presented.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use ash::vk;
use xnagraph_graph::{
    Access, BackendError, FramePlan, Image, NativeHandle, PlanNodeKind, PresentMode, PresentStats,
    PresentTarget, SubmissionId, SwapchainDesc, TextureState,
};

mod swapchain;

use self::swapchain::{choose_mode, Chain, Reason};
use crate::debug_names;
use crate::device::Gpu;
use crate::record::Recorder;
use crate::sync::{image_barrier, layout, record_image_barriers};
use crate::texture::Presenting;
use crate::{vk_error, VulkanBackend};

/// How presents are paced against the display (XNA's `PresentInterval`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PresentPacing {
    /// Wait for the vertical retrace (FIFO).
    #[default]
    VerticalSync,
    /// Present at once: MAILBOX where the surface offers it, else IMMEDIATE, else FIFO.
    Immediate,
}

/// The image acquired for the frame being drawn.
struct Acquired {
    index: u32,
    semaphore: vk::Semaphore,
    /// Whether a submission already waits on `semaphore`.
    waited: bool,
    /// The back buffer the frame draws.
    back_buffer: NativeHandle,
}

/// What one submission does with the swapchain; see [`VulkanBackend::begin_presentation`].
#[derive(Default)]
pub(crate) struct FramePresentation {
    /// The acquire semaphore this submission waits on.
    pub wait: Option<vk::Semaphore>,
    /// The image index this submission presents after it completes.
    pub present: Option<u32>,
    /// The semaphore this submission signals for that present.
    pub signal: Option<vk::Semaphore>,
    /// For a copied frame: the image the back buffer is blitted into, and its size.
    pub copy_into: Option<(vk::Image, vk::Extent2D)>,
    /// For a frame drawn straight in: the back buffer whose colour image is aliased.
    pub aliased: Option<NativeHandle>,
    /// The swapchain image whose acquire this submission waits for.
    pub acquired_image: Option<vk::Image>,
}

/// The surface's swapchain and the frame's acquired image.
pub(crate) struct Presenter {
    loader: ash::khr::swapchain::Device,
    chain: Option<Chain>,
    pacing: PresentPacing,
    acquired: Option<Acquired>,
    /// Acquire semaphores known to be unsignalled, ready for the next acquire.
    free: Vec<vk::Semaphore>,
    /// Acquire semaphores waited on by a submission that may not have completed yet.
    waited: Vec<(SubmissionId, vk::Semaphore)>,
    /// The swapchain must be recreated before the next acquire (OUT_OF_DATE, SUBOPTIMAL).
    stale: bool,
    stats: PresentStats,
    /// Keeps the window alive for as long as the surface (dropped after the instance).
    _window: Arc<dyn std::any::Any + Send + Sync>,
}

impl Presenter {
    pub fn new(gpu: &Gpu, window: Arc<dyn std::any::Any + Send + Sync>) -> Presenter {
        Presenter {
            loader: ash::khr::swapchain::Device::new(&gpu.instance, &gpu.device),
            chain: None,
            pacing: PresentPacing::default(),
            acquired: None,
            free: Vec::new(),
            waited: Vec::new(),
            stale: false,
            stats: PresentStats::default(),
            _window: window,
        }
    }

    /// The swapchain is rebuilt before the next acquire.
    pub fn mark_stale(&mut self) {
        self.stale = true;
    }

    pub fn stats(&self) -> PresentStats {
        self.stats.clone()
    }

    /// Native objects held: swapchain, image views and semaphores.
    pub fn object_count(&self) -> usize {
        let chain = self.chain.as_ref().map_or(0, |c| 1 + c.views.len() + c.render_finished.len());
        chain + self.free.len() + self.waited.len() + usize::from(self.acquired.is_some())
    }

    /// Destroys the swapchain and every semaphore.
    ///
    /// # Safety
    /// The device must be idle.
    pub unsafe fn destroy(&mut self, gpu: &Gpu) {
        // SAFETY: the device is idle (caller's contract).
        unsafe { self.destroy_chain(gpu) };
        let semaphores = self.free.drain(..).chain(self.waited.drain(..).map(|(_, s)| s));
        for s in semaphores.chain(self.acquired.take().map(|a| a.semaphore)).collect::<Vec<_>>() {
            // SAFETY: the device is idle, so no wait on it is pending.
            unsafe { gpu.device.destroy_semaphore(s, None) };
            gpu.diagnostics.object_destroyed();
        }
    }

    /// # Safety
    /// The device must be idle (no submission or present uses the chain's objects).
    unsafe fn destroy_chain(&mut self, gpu: &Gpu) {
        if let Some(chain) = self.chain.take() {
            // SAFETY: idle device (caller's contract).
            unsafe { chain.destroy(gpu, &self.loader) };
        }
    }

    /// An acquire semaphore that is unsignalled for certain.
    fn semaphore(
        &mut self,
        gpu: &Gpu,
        completed: SubmissionId,
    ) -> Result<vk::Semaphore, BackendError> {
        let (done, pending): (Vec<_>, Vec<_>) =
            self.waited.drain(..).partition(|(id, _)| *id <= completed);
        self.waited = pending;
        self.free.extend(done.into_iter().map(|(_, s)| s));
        if let Some(s) = self.free.pop() {
            return Ok(s);
        }
        // SAFETY: a plain create on a live device.
        let s = unsafe { gpu.device.create_semaphore(&vk::SemaphoreCreateInfo::default(), None) }
            .map_err(|e| vk_error("vkCreateSemaphore", e))?;
        gpu.diagnostics.object_created();
        debug_names::name_handle(gpu, s, "swapchain acquire");
        Ok(s)
    }
}

impl VulkanBackend {
    fn presenter(&mut self) -> Option<&mut Presenter> {
        self.presenter.as_mut()
    }

    /// [`xnagraph_graph::Backend::present_target`] for a device with a window.
    pub(crate) fn window_target(
        &mut self,
        back_buffer: &TextureState,
    ) -> Result<PresentTarget, BackendError> {
        let Some(p) = self.presenter.as_mut() else { return Ok(PresentTarget::Offscreen) };
        if let Some(a) = &p.acquired {
            if a.back_buffer == back_buffer.native() {
                let native = self.textures.get(back_buffer.native()).map(|t| t.format).ok();
                let desc = p
                    .chain
                    .as_ref()
                    .map(|c| SwapchainDesc { resolve_target: Some(c.format) == native, ..c.desc });
                return Ok(PresentTarget::Window { swapchain: desc, acquired: true });
            }
            // The back buffer was replaced in the middle of a frame drawn straight in: the
            // acquired image cannot be given back, so the swapchain goes with it.
            self.drop_swapchain()?;
        }
        let gpu = &self.gpu;
        let Some((surface_loader, surface)) = &gpu.surface else {
            return Ok(PresentTarget::Offscreen);
        };
        // SAFETY: the surface and adapter belong to this instance.
        let caps = unsafe {
            surface_loader.get_physical_device_surface_capabilities(gpu.physical, *surface)
        }
        .map_err(|e| vk_error("vkGetPhysicalDeviceSurfaceCapabilitiesKHR", e))?;
        let desc = back_buffer.desc();
        let extent = if caps.current_extent.width == u32::MAX {
            vk::Extent2D {
                width: desc.width.clamp(caps.min_image_extent.width, caps.max_image_extent.width),
                height: desc
                    .height
                    .clamp(caps.min_image_extent.height, caps.max_image_extent.height),
            }
        } else {
            caps.current_extent
        };
        let p = self.presenter.as_mut().expect("checked above");
        if extent.width == 0
            || extent.height == 0
            || p.stats.simulate_zero_extent.load(Ordering::Relaxed)
        {
            return Ok(PresentTarget::Window { swapchain: None, acquired: false });
        }
        // SAFETY: as above.
        let modes = unsafe {
            surface_loader.get_physical_device_surface_present_modes(gpu.physical, *surface)
        }
        .map_err(|e| vk_error("vkGetPhysicalDeviceSurfacePresentModesKHR", e))?;
        let mode = choose_mode(p.pacing, &modes);
        let reason = match &p.chain {
            None => Some(Reason::First),
            Some(_) if p.stale => Some(Reason::OutOfDate),
            Some(c) if c.extent != extent => Some(Reason::Resized),
            Some(c) if c.mode != mode => Some(Reason::Pacing),
            Some(_) => None,
        };
        if let Some(reason) = reason {
            self.recreate(caps, extent, mode, reason)?;
        }
        let native = self.textures.get(back_buffer.native()).map(|t| t.format).ok();
        let desc = self
            .presenter
            .as_ref()
            .and_then(|p| p.chain.as_ref())
            .map(|c| SwapchainDesc { resolve_target: Some(c.format) == native, ..c.desc });
        Ok(PresentTarget::Window { swapchain: desc, acquired: false })
    }

    /// Sets the pacing; the swapchain follows at the next frame.
    pub(crate) fn set_pacing(&mut self, pacing: PresentPacing) {
        if let Some(p) = self.presenter() {
            p.pacing = pacing;
        }
    }

    /// Waits for every submission (bounded by the timeout) and for the queue's presents.
    fn wait_for_presents(&mut self) -> Result<(), BackendError> {
        for i in 0..self.slots.len() {
            self.finish_slot(i)?;
        }
        // Presents have no fence; the submissions they wait on have completed, so this wait
        // covers only the presentation engine taking the images.
        // SAFETY: the queue belongs to this device and is not used elsewhere meanwhile.
        unsafe { self.gpu.device.queue_wait_idle(self.gpu.queue) }
            .map_err(|e| vk_error("vkQueueWaitIdle", e))
    }

    /// Destroys the swapchain (and the image held for the frame, if any).
    fn drop_swapchain(&mut self) -> Result<(), BackendError> {
        self.wait_for_presents()?;
        let gpu = &self.gpu;
        let Some(p) = self.presenter.as_mut() else { return Ok(()) };
        if let Some(a) = p.acquired.take() {
            // A semaphore that was signalled and perhaps not waited is never reused.
            // SAFETY: the device is idle.
            unsafe { gpu.device.destroy_semaphore(a.semaphore, None) };
            gpu.diagnostics.object_destroyed();
        }
        // SAFETY: the device is idle.
        unsafe { p.destroy_chain(gpu) };
        Ok(())
    }

    fn recreate(
        &mut self,
        caps: vk::SurfaceCapabilitiesKHR,
        extent: vk::Extent2D,
        mode: vk::PresentModeKHR,
        reason: Reason,
    ) -> Result<(), BackendError> {
        self.wait_for_presents()?;
        let gpu = &self.gpu;
        let Some((surface_loader, surface)) = &gpu.surface else { return Ok(()) };
        let Some(p) = self.presenter.as_mut() else { return Ok(()) };
        let old = p.chain.as_ref().map_or(vk::SwapchainKHR::null(), |c| c.handle);
        let chain =
            Chain::create(gpu, &p.loader, (surface_loader, *surface), caps, extent, mode, old)?;
        // SAFETY: the device is idle; the new swapchain replaced the old one.
        unsafe { p.destroy_chain(gpu) };
        let format = chain.format;
        tracing::info!(
            width = extent.width,
            height = extent.height,
            format = ?format,
            mode = ?mode,
            images = chain.images.len(),
            reason = ?reason,
            "swapchain created"
        );
        p.chain = Some(chain);
        p.stale = false;
        p.stats.recreations.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Acquires an image for the frame of `back_buffer`, unless one is held. `false` when none
    /// can be had now (out of date, zero-sized): the frame is not presented.
    fn acquire(&mut self, back_buffer: NativeHandle) -> Result<bool, BackendError> {
        let timeout = self.timeline.timeout_ns();
        let completed = self.completed;
        let gpu = &self.gpu;
        let Some(p) = self.presenter.as_mut() else { return Ok(false) };
        if p.acquired.is_some() {
            return Ok(true);
        }
        let Some(chain) = &p.chain else { return Ok(false) };
        if p.stale {
            return Ok(false);
        }
        let (handle, semaphore) = (chain.handle, p.semaphore(gpu, completed)?);
        // SAFETY: the semaphore is unsignalled with no pending wait; the swapchain is live.
        let result =
            unsafe { p.loader.acquire_next_image(handle, timeout, semaphore, vk::Fence::null()) };
        match result {
            Ok((index, suboptimal)) => {
                // The image is usable this frame; the swapchain is rebuilt before the next one.
                p.stale |= suboptimal;
                p.acquired = Some(Acquired { index, semaphore, waited: false, back_buffer });
                Ok(true)
            }
            Err(vk::Result::ERROR_OUT_OF_DATE_KHR) => {
                // A failed acquire signals nothing: the semaphore stays reusable.
                p.free.push(semaphore);
                p.stale = true;
                Ok(false)
            }
            Err(vk::Result::TIMEOUT | vk::Result::NOT_READY) => {
                p.free.push(semaphore);
                Err(self.timeline.timed_out("acquiring a swapchain image"))
            }
            Err(e) => {
                p.free.push(semaphore);
                Err(vk_error("vkAcquireNextImageKHR", e))
            }
        }
    }

    /// Before recording: acquires what the plan's present mode needs and aliases the back
    /// buffer of a frame drawn straight in.
    pub(crate) fn begin_presentation(
        &mut self,
        plan: &FramePlan,
    ) -> Result<FramePresentation, BackendError> {
        let mut out = FramePresentation::default();
        if self.presenter.is_none() {
            return Ok(out);
        }
        let presents = plan.nodes.iter().any(|n| matches!(n.kind, PlanNodeKind::Present { .. }));
        let back_buffer = plan.textures().into_iter().find(|t| t.desc().is_back_buffer());
        let Some(back_buffer) = back_buffer.map(|t| t.native()) else { return Ok(out) };
        let mode = plan.frame.presentation;
        let wanted = match mode {
            PresentMode::Direct => true,
            PresentMode::Copy => presents,
            PresentMode::Offscreen | PresentMode::Skip => false,
        };
        let have = wanted && self.acquire(back_buffer)?;
        let p = self.presenter.as_mut().expect("checked above");
        if presents && !have {
            p.stats.skipped.fetch_add(1, Ordering::Relaxed);
        }
        let (Some(a), Some(chain)) = (p.acquired.as_mut(), p.chain.as_ref()) else {
            return Ok(out);
        };
        if !have {
            return Ok(out);
        }
        let i = a.index as usize;
        if !a.waited {
            out.wait = Some(a.semaphore);
            out.acquired_image = Some(chain.images[i]);
        }
        if presents {
            out.present = Some(a.index);
            out.signal = Some(chain.render_finished[i]);
        }
        match mode {
            PresentMode::Direct => {
                let presenting = Presenting {
                    image: chain.images[i],
                    view: chain.views[i],
                    format: chain.format,
                    swap_red_blue: chain.format == vk::Format::B8G8R8A8_UNORM,
                };
                if let Some(t) = self.textures.get_mut(back_buffer) {
                    t.presenting = Some(presenting);
                    out.aliased = Some(back_buffer);
                }
            }
            _ => out.copy_into = Some((chain.images[i], chain.extent)),
        }
        Ok(out)
    }

    /// After recording: removes the alias (the table is only read while recording).
    pub(crate) fn end_recording(&mut self, frame: &FramePresentation) {
        if let Some(t) = frame.aliased.and_then(|h| self.textures.get_mut(h)) {
            t.presenting = None;
        }
    }

    /// After a successful submission `id`: its acquire semaphore is waited, and the image goes
    /// to the presentation engine when the plan presents.
    pub(crate) fn finish_presentation(
        &mut self,
        frame: &FramePresentation,
        id: SubmissionId,
    ) -> Result<(), BackendError> {
        let queue = self.gpu.queue;
        let Some(p) = self.presenter.as_mut() else { return Ok(()) };
        if let Some(a) = p.acquired.as_mut() {
            if frame.wait == Some(a.semaphore) {
                a.waited = true;
            }
        }
        let (Some(index), Some(signal)) = (frame.present, frame.signal) else { return Ok(()) };
        let Some(chain) = &p.chain else { return Ok(()) };
        if let Some(a) = p.acquired.take() {
            p.waited.push((id, a.semaphore));
        }
        let waits = [signal];
        let swapchains = [chain.handle];
        let indices = [index];
        let info = vk::PresentInfoKHR::default()
            .wait_semaphores(&waits)
            .swapchains(&swapchains)
            .image_indices(&indices);
        // SAFETY: the image was acquired and the submission just made signals `signal` after
        // leaving it in the present layout.
        match unsafe { p.loader.queue_present(queue, &info) } {
            Ok(suboptimal) => {
                p.stale |= suboptimal;
                p.stats.presented.fetch_add(1, Ordering::Relaxed);
                Ok(())
            }
            Err(vk::Result::ERROR_OUT_OF_DATE_KHR) => {
                p.stale = true;
                p.stats.skipped.fetch_add(1, Ordering::Relaxed);
                Ok(())
            }
            Err(e) => Err(vk_error("vkQueuePresentKHR", e)),
        }
    }
}

/// A copied frame's present: the back buffer's colour image (left by the plan in the present
/// access, the transfer-source layout) is blitted into the acquired swapchain image, scaled to
/// it with linear filtering when the sizes differ (as XNA scales the back buffer to the
/// window), and the swapchain image is left ready to present.
pub(crate) fn record_present_copy(
    rec: &mut Recorder<'_>,
    back_buffer: NativeHandle,
    (target, extent): (vk::Image, vk::Extent2D),
) -> Result<(), BackendError> {
    let texture = rec.textures.get(back_buffer)?;
    let desc = texture.desc;
    let source = texture.image(Image::Color, 0).map(|(image, _)| image).unwrap_or_default();
    let device = &rec.gpu.device;
    let range = vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    };
    // The plan's present barrier made the back buffer's writes available; this one makes them
    // visible to the blit (same layout), and the swapchain image's old content is discarded.
    let mut into = image_barrier(target, range, Access::Nothing, Access::TransferWrite, true);
    crate::sync::after_acquire(&mut into);
    let before = [image_barrier(source, range, Access::Present, Access::TransferRead, false), into];
    record_image_barriers(device, rec.cmd, &before);
    let layers = vk::ImageSubresourceLayers {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        mip_level: 0,
        base_array_layer: 0,
        layer_count: 1,
    };
    let corner = |w: u32, h: u32| {
        [vk::Offset3D { x: 0, y: 0, z: 0 }, vk::Offset3D { x: w as i32, y: h as i32, z: 1 }]
    };
    let blit = vk::ImageBlit {
        src_subresource: layers,
        src_offsets: corner(desc.width, desc.height),
        dst_subresource: layers,
        dst_offsets: corner(extent.width, extent.height),
    };
    let same_size = (desc.width, desc.height) == (extent.width, extent.height);
    let filter = if same_size { vk::Filter::NEAREST } else { vk::Filter::LINEAR };
    // SAFETY: recording outside rendering; the barriers above put the source in TRANSFER_SRC and
    // the acquired swapchain image in TRANSFER_DST.
    unsafe {
        device.cmd_blit_image(
            rec.cmd,
            source,
            layout(Access::TransferRead),
            target,
            layout(Access::TransferWrite),
            &[blit],
            filter,
        )
    };
    let after = [
        image_barrier(source, range, Access::TransferRead, Access::Present, false),
        image_barrier(target, range, Access::TransferWrite, Access::PresentSwapchain, false),
    ];
    record_image_barriers(device, rec.cmd, &after);
    Ok(())
}
