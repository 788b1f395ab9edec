//! `Texture2D`: construction rules, the data paths and the CPU shadow.
//!
//! A wrapper ([`Texture2D`]) owns a [`TextureCore`]: its resource identity plus a shared
//! [`TextureBacking`] (the backend state and the CPU shadow). `clone()` makes an untracked copy
//! sharing the backing; a [`TextureRef`] (what an effect keeps of a texture it is given) is no
//! copy but a further wrapper over the same core, so it sees every write and every disposal
//! and raises no event of its own. Uploads and readbacks are recorded like everything else; a
//! readback flushes and waits.
//!
//! Rules kept here: a full-level `set_data` on a backing that another wrapper shares detaches the
//! writer onto a fresh backing (the others keep the old pixels); the CPU shadow is kept unless
//! context recovery was disabled before creation, and a partial `set_data` of an ordinary texture
//! without its shadow is an error rather than a zero-filled upload. Render targets keep no
//! shadow: the GPU is the authority for their pixels, which are updated in place whichever
//! alias (the target, a `Texture2D` view or copy of it) writes them, and which no alias may
//! transfer while the target is bound.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use bytemuck::Pod;
use xnagraph_graph::{full_mip_count, Rect, Slices, SurfaceFormat, TextureDesc, TextureState};

use crate::device::data::{checked_bytes, read_region, validate_region, write_into_level};
use crate::device::registry::{ResourceEventArgs, Tracked};
use crate::device::shared::DeviceShared;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::{lock, Event};
use crate::resources::resource::ResourceCore;
pub(crate) use crate::resources::texture_data::{
    read_levels_except, record_upload, record_zero_fill, zeroed_levels,
};

/// The backend state and CPU shadow that copies of a texture share.
pub(crate) struct TextureBacking {
    pub state: Arc<TextureState>,
    /// One byte vector per level; `None` when context recovery is off or for render targets.
    pub shadow: Mutex<Option<Vec<Vec<u8>>>>,
}

/// Render-target facts kept on the core (applied values, not requested ones).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RenderTargetInfo {
    pub usage: xnagraph_graph::RenderTargetUsage,
    pub depth: xnagraph_graph::DepthFormat,
    pub sample_count: u32,
}

/// One resource's identity and its (shareable) backing. The game's `Texture2D` (or render
/// target) holds it, and so does every [`TextureRef`] a holder took of it.
pub(crate) struct TextureCore {
    pub res: ResourceCore,
    /// The `Texture2D` wrappers over this very core: the game's and those inside each
    /// [`TextureRef`]. Dropping the last one ends the resource (see `Drop for Texture2D`).
    owners: AtomicUsize,
    pub backing: Mutex<Option<Arc<TextureBacking>>>,
    pub desc: TextureDesc,
    pub render_target: Option<RenderTargetInfo>,
    /// Set by a reported device reset, cleared by the next bind (render targets only).
    pub content_lost: std::sync::atomic::AtomicBool,
    pub content_lost_event: Event<ResourceEventArgs>,
}

impl TextureCore {
    /// The last wrapper's end: a render target (2D or cube) is detached from its device if
    /// bound, then the resource is disposed without `Disposing`.
    pub fn drop_last(&self) {
        if self.render_target.is_some() {
            if let Some(device) = self.res.device_if_alive() {
                lock(&device.rec).detach_destroyed(self.res.id);
            }
        }
        self.dispose(false);
    }

    /// Sets `Name` and records it as the backend state's debug name (applied at a flush).
    pub fn set_name(&self, name: String) {
        if let Ok(backing) = self.backing() {
            backing.state.set_name(&name);
        }
        *lock(&self.res.name) = name;
    }

    /// The backend state, or `ObjectDisposed`.
    pub fn state(&self) -> Result<Arc<TextureState>> {
        self.backing().map(|b| b.state.clone())
    }

    pub fn backing(&self) -> Result<Arc<TextureBacking>> {
        self.res.check_alive()?;
        lock(&self.backing).clone().ok_or(XnaError::ObjectDisposed { object: self.res.kind })
    }

    /// The applied render-target facts; a plain texture reads as a discarding target without
    /// depth or samples.
    pub fn target_info(&self) -> RenderTargetInfo {
        self.render_target.unwrap_or(RenderTargetInfo {
            usage: xnagraph_graph::RenderTargetUsage::DiscardContents,
            depth: xnagraph_graph::DepthFormat::None,
            sample_count: 0,
        })
    }

    /// Common disposal: `Disposing` (explicit only), release the backing, `ResourceDestroyed`
    /// and unregistration while the device lives, then disposed.
    pub fn dispose(&self, explicit: bool) {
        if !self.res.begin_dispose(explicit) {
            return;
        }
        lock(&self.backing).take();
        self.res.end_dispose();
    }
}

impl Tracked for TextureCore {
    fn dispose_by_device(&self) {
        self.dispose(true);
    }

    fn notify_content_lost(&self) {
        if self.render_target.is_some() && !self.res.is_disposed() {
            self.content_lost.store(true, std::sync::atomic::Ordering::Release);
            self.content_lost_event.raise(&self.res.args());
        }
    }
}

/// Creates a tracked core around a fresh backend state.
pub(crate) fn create_core(
    device: &GraphicsDevice,
    kind: &'static str,
    desc: TextureDesc,
    render_target: Option<RenderTargetInfo>,
    keep_shadow: bool,
) -> Result<Arc<TextureCore>> {
    let shared = &device.shared;
    let state = shared.create_state(desc)?;
    let shadow = keep_shadow.then(|| zeroed_levels(&desc));
    let core = Arc::new(TextureCore {
        res: ResourceCore::new(kind, Arc::downgrade(shared)),
        owners: AtomicUsize::new(1),
        backing: Mutex::new(Some(Arc::new(TextureBacking { state, shadow: Mutex::new(shadow) }))),
        desc,
        render_target,
        content_lost: std::sync::atomic::AtomicBool::new(false),
        content_lost_event: Event::default(),
    });
    let weak: std::sync::Weak<dyn Tracked> = Arc::downgrade(&(core.clone() as Arc<dyn Tracked>));
    shared.register(core.res.id, weak, &core.res.args());
    Ok(core)
}

/// XNA's `Texture2D`: a 2D texture with optional mipmaps, filled by `set_data` and read by
/// `get_data`.
///
/// Creation follows XNA's size, format and profile rules. `set_data` copies the caller's data
/// into the frame at the call (the slice may be reused at once) and the upload runs in recording
/// order, after the draws recorded before it; `get_data` flushes and waits for the GPU. Where it
/// differs from XNA: `clone()` gives a second wrapper over the same pixels (a full-level
/// `set_data` through one of them detaches it onto its own copy), and dropping the last wrapper
/// disposes it, the native texture being freed once the GPU no longer uses it. An effect given
/// the texture holds the texture itself, not a copy, so it counts among the wrappers until it
/// lets go.
pub struct Texture2D {
    pub(crate) core: Arc<TextureCore>,
}

impl std::fmt::Debug for Texture2D {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}({:?}, {}x{})",
            self.core.res.kind,
            self.core.res.id,
            self.width(),
            self.height()
        )
    }
}

/// Validates a texture's size against the profile and device.
pub(crate) fn validate_size(device: &DeviceShared, width: i32, height: i32) -> Result<(u32, u32)> {
    if width <= 0 {
        return Err(XnaError::out_of_range("width", "The width must be positive."));
    }
    if height <= 0 {
        return Err(XnaError::out_of_range("height", "The height must be positive."));
    }
    let max = device.profile.max_texture_size().min(device.caps.max_texture_dimension);
    if width as u32 > max || height as u32 > max {
        return Err(XnaError::not_supported(format!(
            "Texture size {width}x{height} exceeds the {:?} profile's limit of {max}.",
            device.profile
        )));
    }
    Ok((width as u32, height as u32))
}

/// The format checks of a sampled texture (2D or cube): the profile's format set, the device's
/// sampling support, and whole 4×4 blocks for a block-compressed format.
pub(crate) fn check_texture_format(
    shared: &DeviceShared,
    format: SurfaceFormat,
    w: u32,
    h: u32,
) -> Result<()> {
    if !shared.profile.supports_texture_format(format) {
        return Err(XnaError::not_supported(format!(
            "{format:?} textures are not supported by the {:?} profile.",
            shared.profile
        )));
    }
    if !shared.format_support(format).sampled {
        return Err(XnaError::not_supported(format!(
            "{format:?} textures are not supported by this device."
        )));
    }
    if format.is_block_compressed() && (!w.is_multiple_of(4) || !h.is_multiple_of(4)) {
        return Err(XnaError::not_supported(format!(
            "{format:?} textures must have a width and height that are multiples of 4."
        )));
    }
    Ok(())
}

impl Texture2D {
    /// XNA's `new Texture2D(graphicsDevice, width, height)`: one level of `SurfaceFormat::Color`,
    /// every texel zero.
    ///
    /// Errors: as [`Self::with_format`].
    pub fn new(device: &GraphicsDevice, width: i32, height: i32) -> Result<Self> {
        Self::with_format(device, width, height, false, SurfaceFormat::Color)
    }

    /// XNA's `new Texture2D(graphicsDevice, width, height, mipMap, format)`: with `mip_map`, the
    /// full chain of levels down to 1×1; every texel of every level starts zero.
    ///
    /// Errors: a disposed device is `ObjectDisposed`; a `width` or `height` that is not
    /// positive is `ArgumentOutOfRange` on that parameter; `NotSupported` for a side beyond the
    /// profile's limit (2048 Reach, 4096 HiDef) or the device's, a `format` outside the
    /// profile's set or that the device cannot sample, a block-compressed `format` whose sides
    /// are not multiples of 4, and under Reach a mipmapped texture whose sides are not powers
    /// of two. Where it differs from XNA: the method name, as Rust has no overloads.
    pub fn with_format(
        device: &GraphicsDevice,
        width: i32,
        height: i32,
        mip_map: bool,
        format: SurfaceFormat,
    ) -> Result<Self> {
        let shared = &device.shared;
        shared.check_alive()?;
        let (w, h) = validate_size(shared, width, height)?;
        check_texture_format(shared, format, w, h)?;
        let pow2 = w.is_power_of_two() && h.is_power_of_two();
        if mip_map && !pow2 && shared.profile == crate::GraphicsProfile::Reach {
            return Err(XnaError::not_supported(
                "Reach profile does not support mipmaps on non-power-of-two textures.",
            ));
        }
        let levels = if mip_map { full_mip_count(w, h, 1) } else { 1 };
        let desc = TextureDesc::texture_2d(w, h, levels, format);
        let keep_shadow = shared.context_recovery.load(std::sync::atomic::Ordering::Acquire);
        let core = create_core(device, "Texture2D", desc, None, keep_shadow)?;
        record_zero_fill(shared, &core.state()?);
        Ok(Texture2D { core })
    }

    /// XNA's `Texture2D.Width`: of level 0, in texels.
    pub fn width(&self) -> i32 {
        self.core.desc.width as i32
    }

    /// XNA's `Texture2D.Height`: of level 0, in texels.
    pub fn height(&self) -> i32 {
        self.core.desc.height as i32
    }

    /// XNA's `Texture.LevelCount`: 1 without mipmaps, else the full chain down to 1×1.
    pub fn level_count(&self) -> i32 {
        self.core.desc.mip_levels as i32
    }

    /// XNA's `Texture.Format`, as applied (a render target may fall back to `Color`).
    pub fn format(&self) -> SurfaceFormat {
        self.core.desc.format
    }

    /// XNA's `Texture2D.Bounds`: (0, 0, width, height).
    pub fn bounds(&self) -> Rect {
        Rect::new(0, 0, self.width(), self.height())
    }

    crate::resources::resource::graphics_resource_accessors!();

    /// Whether this wrapper shares its backend state with `other` (a copy of it, or the same);
    /// not XNA, whose textures are not copied.
    pub fn shares_backing_with(&self, other: &Texture2D) -> bool {
        match (lock(&self.core.backing).as_ref(), lock(&other.core.backing).as_ref()) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Whether a CPU shadow of the pixels is kept (not XNA; see
    /// [`GraphicsDevice::set_context_recovery_enabled`]).
    pub fn has_cpu_shadow(&self) -> bool {
        lock(&self.core.backing).as_ref().is_some_and(|b| lock(&b.shadow).is_some())
    }

    /// XNA's `GraphicsResource.Dispose()`: raises `Disposing`, releases the backend state
    /// (queued commands keep what they use), raises the device's `ResourceDestroyed`; a second
    /// call does nothing. Every later call but the accessors is `ObjectDisposed`.
    pub fn dispose(&self) {
        self.core.dispose(true);
    }

    /// XNA's `Texture2D.SetData<T>(T[])`: the whole of level 0.
    ///
    /// Errors: as [`Self::set_data_region`].
    pub fn set_data<T: Pod>(&self, data: &[T]) -> Result<()> {
        self.set_data_region(0, None, data, 0, data.len())
    }

    /// XNA's `Texture2D.SetData<T>(T[], startIndex, elementCount)`: the whole of level 0.
    ///
    /// Errors: as [`Self::set_data_region`].
    pub fn set_data_range<T: Pod>(
        &self,
        data: &[T],
        start_index: usize,
        element_count: usize,
    ) -> Result<()> {
        self.set_data_region(0, None, data, start_index, element_count)
    }

    /// XNA's `Texture2D.SetData<T>(level, rect, T[], startIndex, elementCount)`; `rect` `None`
    /// is the whole level.
    ///
    /// The data is copied at the call and uploaded in recording order. In a DXT format the
    /// rectangle is rounded out to the 4×4 blocks it touches, and the data holds those whole
    /// blocks, row of blocks after row, as in XNA. On a render target (through the target or
    /// any alias of it) the region is written in place and the other texels kept.
    ///
    /// Errors: a disposed texture or device is `ObjectDisposed`; `ArgumentOutOfRange` on
    /// `level` outside the texture's levels; `Argument` on `rect` for a rectangle that is empty
    /// or not inside the level, on `T` for an element size that does not divide the format's,
    /// on `data` when `start_index + element_count` passes its end, and on `elementCount` when
    /// the elements are not exactly the region's bytes; `InvalidOperation` for a partial write
    /// of a texture whose CPU copy was released (context recovery off) and for a render target
    /// that is bound; `NotSupported` on a multisampled render target that preserves its
    /// contents (its next bind would load samples that lack the data).
    pub fn set_data_region<T: Pod>(
        &self,
        level: i32,
        rect: Option<Rect>,
        data: &[T],
        start_index: usize,
        element_count: usize,
    ) -> Result<()> {
        let device = self.core.res.live_device()?;
        let desc = self.core.desc;
        let (level, rect) = validate_region(&desc, level, rect)?;
        let bytes = checked_bytes(&desc, rect, data, start_index, element_count)?;
        let full_level = desc.covers_level(level, rect, Slices::FLAT);
        // Render-target content (reached through the target or any copy of it) lives only on
        // the GPU: it is updated in place, whole level or not.
        if desc.render_target.is_some() {
            return write_in_place(&device, &self.core, (level, 0), rect, bytes);
        }
        let shared_with_others =
            lock(&self.core.backing).as_ref().is_some_and(|b| Arc::strong_count(b) > 1);
        let mut backing = self.core.backing()?;
        if full_level && shared_with_others {
            backing = self.detach(&device, &backing, level)?;
        }
        {
            let mut shadow = lock(&backing.shadow);
            match shadow.as_mut() {
                Some(levels) => {
                    write_into_level(&mut levels[level as usize], &desc, level, rect, bytes)
                }
                None if !full_level => {
                    return Err(XnaError::invalid_operation(
                        "A partial SetData needs the texture's CPU copy, which was released \
                         because context recovery is disabled.",
                    ))
                }
                None => {}
            }
        }
        record_upload(&device, &backing.state, (level, 0), rect, device.upload_copy(bytes));
        Ok(())
    }

    /// Gives this wrapper a fresh backend state holding the old contents of every level but
    /// `level` (which the caller is about to overwrite); other holders keep the old backing.
    /// Without a CPU shadow the kept levels are read back from the GPU, all in one flush.
    fn detach(
        &self,
        device: &Arc<DeviceShared>,
        old: &Arc<TextureBacking>,
        level: u32,
    ) -> Result<Arc<TextureBacking>> {
        let desc = self.core.desc;
        let state = device.create_state(desc)?;
        let old_shadow = lock(&old.shadow).clone();
        let levels = match &old_shadow {
            Some(levels) => levels.clone(),
            None => read_levels_except(device, &old.state, level)?,
        };
        for (l, bytes) in levels.iter().enumerate().filter(|(l, _)| *l as u32 != level) {
            let (w, h) = desc.level_size(l as u32);
            record_upload(
                device,
                &state,
                (l as u32, 0),
                Rect::new(0, 0, w as i32, h as i32),
                bytes.clone(),
            );
        }
        let fresh =
            Arc::new(TextureBacking { state, shadow: Mutex::new(old_shadow.map(|_| levels)) });
        *lock(&self.core.backing) = Some(fresh.clone());
        Ok(fresh)
    }

    /// XNA's `Texture2D.GetData<T>(T[])`: the whole of level 0.
    ///
    /// Errors: as [`Self::get_data_region`].
    pub fn get_data<T: Pod>(&self, data: &mut [T]) -> Result<()> {
        let n = data.len();
        self.get_data_region(0, None, data, 0, n)
    }

    /// XNA's `Texture2D.GetData<T>(level, rect, T[], startIndex, elementCount)`: flushes the
    /// frame and waits for the GPU.
    ///
    /// Reads the GPU copy (for a render target, its resolved image). In a DXT format the
    /// rectangle is rounded out to the 4×4 blocks it touches, as in [`Self::set_data_region`].
    ///
    /// Errors: a disposed texture or device is `ObjectDisposed`; a render target that is bound
    /// is `InvalidOperation`; the `level`, `rect`, `T`, `data` and `elementCount` checks of
    /// [`Self::set_data_region`]; a failed flush is the backend's error (`DeviceLost`,
    /// `OutOfVideoMemory`).
    pub fn get_data_region<T: Pod>(
        &self,
        level: i32,
        rect: Option<Rect>,
        data: &mut [T],
        start_index: usize,
        element_count: usize,
    ) -> Result<()> {
        let device = self.core.res.live_device()?;
        let state = self.core.state()?;
        device.check_not_bound(&state)?;
        read_region(&device, &state, level, 0, rect, data, start_index, element_count)
    }
}

impl Clone for Texture2D {
    /// An untracked copy: shares the backend state and CPU shadow, adds no registry entry and
    /// raises no `ResourceCreated`; starts with the same name and tag and no `Disposing`
    /// handlers, undisposed (a copy of a disposed texture is disposed).
    fn clone(&self) -> Self {
        // The backing first: disposal begins before it releases the backing, so a copy that
        // finds none also finds its source disposing.
        let backing = lock(&self.core.backing).clone();
        let core = Arc::new(TextureCore {
            res: ResourceCore::copy_of(&self.core.res),
            owners: AtomicUsize::new(1),
            backing: Mutex::new(backing),
            desc: self.core.desc,
            render_target: None,
            content_lost: std::sync::atomic::AtomicBool::new(false),
            content_lost_event: Event::default(),
        });
        Texture2D { core }
    }
}

impl Texture2D {
    /// A second wrapper over this very resource (same identity, same backing, same disposal),
    /// for a [`TextureRef`]; unlike `clone()` it is no copy.
    pub(crate) fn share(&self) -> Texture2D {
        self.core.owners.fetch_add(1, Ordering::Relaxed);
        Texture2D { core: self.core.clone() }
    }
}

impl Drop for Texture2D {
    /// The last wrapper of a resource ends it without `Disposing`: a render target is detached
    /// from the device if bound, then disposed; a texture is disposed. An effect's reference to
    /// the texture counts as a wrapper, so a texture the game dropped while an effect still
    /// references it lives until the effect lets go, as a referenced texture outlives the
    /// game's reference in XNA.
    fn drop(&mut self) {
        if self.core.owners.fetch_sub(1, Ordering::AcqRel) != 1 {
            return;
        }
        self.core.drop_last();
    }
}

/// What an effect (or any other holder) keeps of a texture the game gave it: a reference to
/// the game's own resource, never a copy. The holder therefore sees what the game does to it:
/// a full-level `SetData` through the game's texture is what the holder draws (no detach, as
/// the backing is not shared with a copy), an explicit `Dispose` makes the holder's next use
/// `ObjectDisposed`, and letting go of the reference raises no resource event (no copy was
/// made, so none was created). Cloning a reference takes another reference.
pub(crate) struct TextureRef(Texture2D);

impl TextureRef {
    /// A reference to the resource `texture` wraps.
    pub fn new(texture: &Texture2D) -> TextureRef {
        TextureRef(texture.share())
    }

    /// A new public wrapper over the same resource (for `GetValueTexture2D`): dropping it ends
    /// nothing while the reference lives.
    pub fn to_texture(&self) -> Texture2D {
        self.0.share()
    }
}

impl std::ops::Deref for TextureRef {
    type Target = Texture2D;
    fn deref(&self) -> &Texture2D {
        &self.0
    }
}

impl Clone for TextureRef {
    fn clone(&self) -> Self {
        TextureRef(self.0.share())
    }
}

/// `GraphicsDevice.Textures` and `VertexTextures` hold a reference, as an effect does.
impl crate::device::draw_state::BoundTexture for TextureRef {
    fn state(&self) -> Result<Arc<TextureState>> {
        self.0.core.state()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl std::fmt::Debug for TextureRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// `SetData` where the GPU is the authority (a render target, a cube): the region of
/// `(level, layer)` is uploaded in place, refused while the target is bound. A multisampled
/// target that preserves its contents refuses: the upload reaches its resolved image, but its
/// next bind loads its samples, which cannot take the uploaded texels here, so they would be lost
/// without a word (a discarding target starts its next bind from black, so nothing is lost
/// there).
pub(crate) fn write_in_place(
    device: &Arc<DeviceShared>,
    core: &TextureCore,
    subresource: (u32, u32),
    rect: Rect,
    bytes: &[u8],
) -> Result<()> {
    let state = core.state()?;
    device.check_not_bound(&state)?;
    if let Some(rt) = core.desc.render_target {
        if rt.sample_count > 1 && rt.usage.preserves_contents() {
            return Err(XnaError::not_supported(
                "SetData on a multisampled render target that preserves its contents is not \
                 supported by this device: the samples its next bind loads cannot take the data.",
            ));
        }
    }
    record_upload(device, &state, subresource, rect, device.upload_copy(bytes));
    Ok(())
}
