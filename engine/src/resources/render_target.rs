//! `RenderTarget2D` and the `SetRenderTargets` transaction.
//!
//! Construction decides the applied format, depth format and sample count (what the object
//! reports afterwards). Binding is one transaction with every check before any state changes:
//! binding-count limits; per-binding checks; cross-binding checks; only then, as XNA validates
//! its arguments first, same set → no-op; else the bind cycle is recorded and the public state
//! published (content-lost flags cleared, viewport and scissor reset to the first target, the
//! bind recorded with the first target's usage).
//!
//! What a 2D and a cube target share (the applied description, and the two ways a bound target
//! ends) is in [`super::target`].

use std::sync::atomic::Ordering;
use std::sync::Arc;

use xnagraph_graph::{ColorBinding, DepthFormat, RenderTargetUsage, SurfaceFormat};

use crate::device::registry::{ResourceEventArgs, ResourceId};
use crate::device::shared::BoundTarget;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::{lock, Event};
use crate::resources::cube::{CubeMapFace, RenderTargetCube};
use crate::resources::target::{dispose_target, target_desc};
use crate::resources::texture::{
    create_core, validate_size, RenderTargetInfo, Texture2D, TextureCore,
};

/// XNA's four-binding ceiling on `SetRenderTargets`, whatever the profile (Reach allows one).
pub const MAX_RENDER_TARGET_BINDINGS: usize = 4;

/// XNA's `RenderTarget2D`: a `Texture2D` (through `Deref`) that the device can draw into.
///
/// Where it differs from XNA: it derives from `Texture2D` through `Deref` rather than
/// inheritance (a `&RenderTarget2D` is drawn with as a `&Texture2D`), and it is not `Clone`:
/// the device's bindings name it. Dropping it while bound unbinds it; the next `Present` is then
/// refused until the game binds again.
pub struct RenderTarget2D {
    texture: Texture2D,
}

impl std::ops::Deref for RenderTarget2D {
    type Target = Texture2D;
    fn deref(&self) -> &Texture2D {
        &self.texture
    }
}

impl std::fmt::Debug for RenderTarget2D {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.texture.fmt(f)
    }
}

/// The target of a [`RenderTargetBinding`]: a 2D target or a cube (whose face is the binding's
/// array slice). Not XNA, whose `RenderTargetBinding` holds a `Texture`; Rust names the two
/// kinds a binding may hold.
#[derive(Clone, Copy, Debug)]
pub enum BindingTarget<'a> {
    /// A `RenderTarget2D`.
    Target2D(&'a RenderTarget2D),
    /// A `RenderTargetCube`; the binding's `array_slice` names the face.
    Cube(&'a RenderTargetCube),
}

impl<'a> From<&'a RenderTarget2D> for BindingTarget<'a> {
    fn from(target: &'a RenderTarget2D) -> Self {
        BindingTarget::Target2D(target)
    }
}

impl<'a> From<&'a RenderTargetCube> for BindingTarget<'a> {
    fn from(target: &'a RenderTargetCube) -> Self {
        BindingTarget::Cube(target)
    }
}

impl<'a> BindingTarget<'a> {
    fn core(self) -> &'a Arc<TextureCore> {
        match self {
            BindingTarget::Target2D(t) => t.core(),
            BindingTarget::Cube(c) => c.core(),
        }
    }

    /// The array layer the binding names: slice 0 of a 2D target, or a cube face.
    fn layer(self, array_slice: i32) -> Result<u32> {
        match self {
            BindingTarget::Target2D(_) if array_slice != 0 => Err(XnaError::not_supported(
                "A RenderTarget2D has one array slice; the slice must be 0.",
            )),
            BindingTarget::Target2D(_) => Ok(0),
            BindingTarget::Cube(_) => Ok(CubeMapFace::try_from(array_slice)?.layer()),
        }
    }
}

/// XNA's `RenderTargetBinding`: one entry of [`GraphicsDevice::set_render_targets`], a 2D
/// target, or one face of a cube target, which goes through the same binding list as a 2D
/// target. `None` is a null target.
#[derive(Clone, Copy, Debug)]
pub struct RenderTargetBinding<'a> {
    /// The target to bind; `None` (a binding without a target) is refused with `Argument`
    /// naming `renderTarget`.
    pub render_target: Option<BindingTarget<'a>>,
    /// XNA's `ArraySlice`: the cube face (a [`CubeMapFace`] value; anything else is
    /// `ArgumentOutOfRange`) of a cube target; a `RenderTarget2D` has one slice, so anything
    /// but 0 is `NotSupported`.
    pub array_slice: i32,
}

impl<'a> From<&'a RenderTarget2D> for RenderTargetBinding<'a> {
    fn from(target: &'a RenderTarget2D) -> Self {
        RenderTargetBinding { render_target: Some(target.into()), array_slice: 0 }
    }
}

impl<'a> RenderTargetBinding<'a> {
    /// XNA's `new RenderTargetBinding(renderTarget, cubeMapFace)`: one face of a cube.
    pub fn cube(target: &'a RenderTargetCube, face: CubeMapFace) -> Self {
        RenderTargetBinding { render_target: Some(target.into()), array_slice: face as i32 }
    }
}

/// XNA's 2048:1 limit on a render target's aspect ratio.
const MAX_ASPECT_RATIO: u32 = 2048;

/// What a render target is created with besides its size, by name (not XNA): the descriptor of
/// [`RenderTarget2D::with_descriptor`], for a call that reads better than XNA's eight positional
/// arguments. `Default` is XNA's `new RenderTarget2D(device, width, height)`: no mips,
/// `SurfaceFormat::Color`, no depth, no multisampling, `DiscardContents`.
///
/// ```no_run
/// # use xnagraph::*;
/// # fn f(device: &GraphicsDevice) -> Result<()> {
/// let options = RenderTargetOptions {
///     depth_format: DepthFormat::Depth24,
///     multi_sample_count: 4,
///     ..RenderTargetOptions::default()
/// };
/// let scene = RenderTarget2D::with_descriptor(device, 640, 360, &options)?;
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RenderTargetOptions {
    /// XNA's `mipMap`: give the target a full mip chain, generated after each pass that draws
    /// it.
    pub mip_map: bool,
    /// XNA's `preferredFormat`; a format the profile or device cannot render to falls back to
    /// `Color`, as in XNA.
    pub format: SurfaceFormat,
    /// XNA's `preferredDepthFormat`; the backend may apply another with at least its bits.
    pub depth_format: DepthFormat,
    /// XNA's `preferredMultiSampleCount`, clamped to what the device supports (0 or less:
    /// none).
    pub multi_sample_count: i32,
    /// XNA's `usage`: what binding the target again does to its content.
    pub usage: RenderTargetUsage,
}

impl Default for RenderTargetOptions {
    fn default() -> Self {
        RenderTargetOptions {
            mip_map: false,
            format: SurfaceFormat::Color,
            depth_format: DepthFormat::None,
            multi_sample_count: 0,
            usage: RenderTargetUsage::DiscardContents,
        }
    }
}

impl RenderTarget2D {
    /// A `width` × `height` target created with `options` (not XNA: a Rust form of its
    /// eight-argument constructor): the same as [`RenderTarget2D::with_options`] given the
    /// same values, with the same errors.
    pub fn with_descriptor(
        device: &GraphicsDevice,
        width: i32,
        height: i32,
        options: &RenderTargetOptions,
    ) -> Result<Self> {
        let o = *options;
        Self::with_options(
            device,
            width,
            height,
            o.mip_map,
            o.format,
            o.depth_format,
            o.multi_sample_count,
            o.usage,
        )
    }

    /// XNA's `new RenderTarget2D(graphicsDevice, width, height)`: Color, no mips, no depth, no
    /// multisampling, `DiscardContents`.
    ///
    /// Errors: as [`RenderTarget2D::with_options`].
    pub fn new(device: &GraphicsDevice, width: i32, height: i32) -> Result<Self> {
        Self::with_descriptor(device, width, height, &RenderTargetOptions::default())
    }

    /// XNA's `new RenderTarget2D(graphicsDevice, width, height, mipMap, preferredFormat,
    /// preferredDepthFormat, preferredMultiSampleCount, usage)`.
    ///
    /// The preferred values are applied as XNA does: a format the profile or device cannot
    /// render becomes `Color`, the sample count is clamped, and the target reports what was
    /// applied. [`RenderTarget2D::with_descriptor`] takes the same options by name.
    ///
    /// Errors: a disposed device is `ObjectDisposed`; a `width` or `height` that is not
    /// positive is `ArgumentOutOfRange` on that parameter; `NotSupported` for a side beyond
    /// the profile's or device's limit, an aspect ratio beyond 2048:1, and a mipmapped target
    /// whose applied format the device cannot generate mips for (here, not at the flush that
    /// would generate them). Where it differs from XNA: mipmapped non-power-of-two targets are
    /// allowed under Reach.
    #[allow(clippy::too_many_arguments)]
    pub fn with_options(
        device: &GraphicsDevice,
        width: i32,
        height: i32,
        mip_map: bool,
        preferred_format: SurfaceFormat,
        preferred_depth_format: DepthFormat,
        preferred_multi_sample_count: i32,
        usage: RenderTargetUsage,
    ) -> Result<Self> {
        let shared = &device.shared;
        shared.check_alive()?;
        let (w, h) = validate_size(shared, width, height)?;
        if u64::from(w.max(h)) > u64::from(MAX_ASPECT_RATIO) * u64::from(w.min(h)) {
            return Err(XnaError::not_supported(format!(
                "Render target aspect ratio {w}:{h} exceeds {MAX_ASPECT_RATIO}:1."
            )));
        }
        let (desc, info) = target_desc(
            shared,
            (w, h, 1),
            mip_map,
            preferred_format,
            preferred_depth_format,
            preferred_multi_sample_count,
            usage,
        )?;
        let core = create_core(device, "RenderTarget2D", desc, Some(info), false)?;
        Ok(RenderTarget2D { texture: Texture2D { core } })
    }

    fn core(&self) -> &Arc<TextureCore> {
        &self.texture.core
    }

    fn info(&self) -> RenderTargetInfo {
        self.core().target_info()
    }

    /// XNA's `RenderTarget2D.RenderTargetUsage`: how the target treats its content when it is
    /// bound again.
    pub fn render_target_usage(&self) -> RenderTargetUsage {
        self.info().usage
    }

    /// XNA's `RenderTarget2D.DepthStencilFormat`: the depth format the backend applied.
    pub fn depth_stencil_format(&self) -> DepthFormat {
        self.info().depth
    }

    /// XNA's `RenderTarget2D.MultiSampleCount`: the device-clamped sample count (0: not
    /// multisampled).
    pub fn multi_sample_count(&self) -> i32 {
        self.info().sample_count as i32
    }

    /// XNA's `RenderTarget2D.IsContentLost`: true after a reported device reset, until the
    /// target is next bound.
    pub fn is_content_lost(&self) -> bool {
        self.core().content_lost.load(Ordering::Acquire)
    }

    /// XNA's `RenderTarget2D.ContentLost` event, raised by a reported device reset.
    pub fn content_lost(&self) -> &Event<ResourceEventArgs> {
        &self.core().content_lost_event
    }

    /// XNA's `GraphicsResource.Dispose()`.
    ///
    /// Errors: `InvalidOperation` while the target is bound to its live device, as XNA. Where
    /// it differs from XNA: disposing returns a `Result` (a texture's `dispose` does not).
    pub fn dispose(&self) -> Result<()> {
        dispose_target(self.core())
    }
}

impl GraphicsDevice {
    /// XNA's `GraphicsDevice.SetRenderTarget(RenderTarget2D)`; `None` returns to the back
    /// buffer.
    ///
    /// Errors: as [`Self::set_render_targets`].
    pub fn set_render_target(&self, target: Option<&RenderTarget2D>) -> Result<()> {
        match target {
            Some(t) => self.set_render_targets(&[RenderTargetBinding::from(t)]),
            None => self.set_render_targets(&[]),
        }
    }

    /// XNA's `GraphicsDevice.SetRenderTarget(RenderTargetCube, CubeMapFace)`: one face of a
    /// cube; `None` returns to the back buffer.
    ///
    /// The face goes through the same binding list, checks and no-op rule as a 2D target.
    /// Errors: as [`Self::set_render_targets`]. Where it differs from XNA: the method name, as
    /// Rust has no overloads.
    pub fn set_render_target_cube(
        &self,
        target: Option<&RenderTargetCube>,
        face: CubeMapFace,
    ) -> Result<()> {
        match target {
            Some(t) => self.set_render_targets(&[RenderTargetBinding::cube(t, face)]),
            None => self.set_render_targets(&[]),
        }
    }

    /// XNA's `GraphicsDevice.SetRenderTargets(params RenderTargetBinding[])`; an empty slice
    /// returns to the back buffer.
    ///
    /// Binding resets the viewport and scissor to the first target and clears its content-lost
    /// flag. A cube face is an ordinary entry: it may be one member of a multi-target set (same
    /// size as the others), the same set (same resources and faces in the same order) is a
    /// no-op, and one cube on two slots is refused whatever the faces. Every check runs before
    /// any state changes.
    ///
    /// Errors: a disposed device or target is `ObjectDisposed`; more than four bindings, or
    /// more than the profile (one under Reach) or device allows, is `NotSupported`; a binding
    /// without a target is `Argument` on `renderTarget`; a target of another device is
    /// `InvalidOperation`; a cube face outside the six is `ArgumentOutOfRange` on
    /// `cubeMapFace`, and an array slice other than 0 of a 2D target is `NotSupported`; one
    /// target on two slots, or targets of different sizes, sample counts or pixel sizes, is
    /// `Argument` on `renderTargets`.
    pub fn set_render_targets(&self, bindings: &[RenderTargetBinding<'_>]) -> Result<()> {
        let shared = &self.shared;
        shared.check_alive()?;
        let mut rec = lock(&shared.rec);

        // 1. Limits.
        if bindings.len() > MAX_RENDER_TARGET_BINDINGS {
            return Err(XnaError::not_supported(format!(
                "At most {MAX_RENDER_TARGET_BINDINGS} render targets can be bound at once."
            )));
        }
        let profile_max =
            shared.profile.max_render_targets().min(shared.caps.max_color_attachments as usize);
        if bindings.len() > profile_max {
            return Err(XnaError::not_supported(format!(
                "The {:?} profile supports at most {profile_max} simultaneous render targets.",
                shared.profile
            )));
        }

        // 2. Per binding.
        let mut resolved: Vec<(BoundTarget, &TextureCore)> = Vec::with_capacity(bindings.len());
        for binding in bindings {
            let target = binding.render_target.ok_or_else(|| {
                XnaError::argument("renderTarget", "A render target binding has no render target.")
            })?;
            let core = target.core();
            core.res.check_alive()?;
            let same_device = core.res.device.upgrade().is_some_and(|d| Arc::ptr_eq(&d, shared));
            if !same_device {
                return Err(XnaError::invalid_operation(
                    "The render target was created by a different GraphicsDevice.",
                ));
            }
            let layer = target.layer(binding.array_slice)?;
            let state = lock(&core.backing).as_ref().map(|b| b.state.clone()).ok_or_else(|| {
                XnaError::not_supported(format!("this renderer does not support {}", core.res.kind))
            })?;
            resolved.push((BoundTarget { resource: core.res.id, layer, state }, core));
        }

        // 3. Across bindings.
        for (i, (a, _)) in resolved.iter().enumerate() {
            if resolved[..i].iter().any(|(b, _)| b.resource == a.resource) {
                return Err(XnaError::argument(
                    "renderTargets",
                    "The same render target cannot be bound to more than one slot.",
                ));
            }
        }
        if let Some(((first, _), rest)) = resolved.split_first() {
            let f = first.state.desc();
            for (other, _) in rest {
                let o = other.state.desc();
                if (o.width, o.height) != (f.width, f.height) {
                    return Err(XnaError::argument(
                        "renderTargets",
                        "All render targets must have the same width and height.",
                    ));
                }
                if o.sample_count() != f.sample_count() {
                    return Err(XnaError::argument(
                        "renderTargets",
                        "All render targets must have the same multisample count.",
                    ));
                }
                if o.format.element_size() != f.format.element_size() {
                    return Err(XnaError::argument(
                        "renderTargets",
                        "All render targets must have the same pixel size.",
                    ));
                }
            }
        }

        // 4. Only a valid set reaches the shortcut: the same set is a no-op (unless a bound
        // target was destroyed since).
        let same = resolved.len() == rec.bindings.len()
            && resolved
                .iter()
                .zip(&rec.bindings)
                .all(|((b, _), cur)| b.resource == cur.resource && b.layer == cur.layer);
        if same && !rec.bound_target_destroyed {
            return Ok(());
        }

        // 5. Commit: record the new bind cycle, then publish the public state.
        for (_, core) in &resolved {
            core.content_lost.store(false, Ordering::Release);
        }
        rec.bindings = resolved.into_iter().map(|(b, _)| b).collect();
        let attachments = rec
            .bindings
            .iter()
            .map(|b| ColorBinding { target: b.state.clone(), layer: b.layer })
            .collect();
        // The bind records the first target's usage; the compiler turns a discarding one into
        // the clear to opaque black, depth 1, stencil 0.
        rec.builder.bind(attachments);
        rec.render_target_bound = !rec.bindings.is_empty();
        rec.bound_target_destroyed = false;
        rec.reset_viewport_and_scissor();
        Ok(())
    }

    /// XNA's `GraphicsDevice.GetRenderTargets()`, as (resource, array slice) pairs; empty when
    /// drawing to the back buffer. Where it differs from XNA: identities, not the targets.
    pub fn render_target_bindings(&self) -> Vec<(ResourceId, u32)> {
        lock(&self.shared.rec).bindings.iter().map(|b| (b.resource, b.layer)).collect()
    }
}
