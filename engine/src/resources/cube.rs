//! `CubeMapFace`, `TextureCube` and `RenderTargetCube`.
//!
//! A cube is one texture state with six layers, in `CubeMapFace` order. Its data paths are the
//! 2D ones with a face added: the same region and element checks (`data.rs`), an upload or
//! readback of one face's layer. The GPU is the authority for a cube's pixels (no CPU shadow is
//! kept), so a partial `set_data` updates the face in place.
//!
//! A `RenderTargetCube` is built by the same rules as a `RenderTarget2D`
//! ([`target_desc`](crate::resources::target::target_desc): format verdict, mip-generation check,
//! applied depth format, clamped sample count) and ends the same way (dispose refused while
//! bound, drop detaches). Its faces are ordinary entries of the device's binding list; the one
//! depth/stencil buffer of the target is shared by the six faces, and each face of a
//! multisampled cube has its own samples resolving into its own layer.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use bytemuck::Pod;
use xnagraph_graph::{
    full_mip_count, DepthFormat, Rect, RenderTargetUsage, SurfaceFormat, TextureDesc,
};

use crate::device::data::{checked_bytes, read_region, validate_region};
use crate::device::registry::ResourceEventArgs;
use crate::device::shared::DeviceShared;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::{lock, Event};
use crate::resources::target::{dispose_target, target_desc};
use crate::resources::texture::{
    check_texture_format, create_core, record_zero_fill, write_in_place, TextureCore,
};

/// XNA's `CubeMapFace`: the six faces of a cube, in XNA's order (their values are the layers
/// of the cube's image).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum CubeMapFace {
    /// The face towards +X (value 0).
    PositiveX = 0,
    /// The face towards −X (value 1).
    NegativeX = 1,
    /// The face towards +Y (value 2).
    PositiveY = 2,
    /// The face towards −Y (value 3).
    NegativeY = 3,
    /// The face towards +Z (value 4).
    PositiveZ = 4,
    /// The face towards −Z (value 5).
    NegativeZ = 5,
}

impl CubeMapFace {
    /// The six faces in XNA's order.
    pub const ALL: [CubeMapFace; 6] = [
        CubeMapFace::PositiveX,
        CubeMapFace::NegativeX,
        CubeMapFace::PositiveY,
        CubeMapFace::NegativeY,
        CubeMapFace::PositiveZ,
        CubeMapFace::NegativeZ,
    ];

    /// The array layer of this face in the cube's image.
    pub(crate) fn layer(self) -> u32 {
        self as u32
    }
}

impl TryFrom<i32> for CubeMapFace {
    type Error = XnaError;

    /// An integer face value (XNA's enum cast, or a binding's array slice): anything outside
    /// the six values is `ArgumentOutOfRange` naming `cubeMapFace`.
    fn try_from(value: i32) -> Result<Self> {
        usize::try_from(value).ok().and_then(|i| CubeMapFace::ALL.get(i).copied()).ok_or_else(
            || {
                XnaError::out_of_range(
                    "cubeMapFace",
                    format!("The cube map face {value} is not one of the six faces (0 to 5)."),
                )
            },
        )
    }
}

/// The edge checks of a cube texture or cube target: positive, within the profile's cube
/// ceiling (512 Reach, 4096 HiDef) and the device's, and a power of two under Reach.
fn validate_cube_size(shared: &DeviceShared, size: i32) -> Result<u32> {
    if size <= 0 {
        return Err(XnaError::out_of_range("size", "The size must be positive."));
    }
    let size = size as u32;
    let max = shared.profile.max_cube_size().min(shared.caps.max_cube_dimension);
    if size > max {
        return Err(XnaError::not_supported(format!(
            "Cube size {size} exceeds the {:?} profile's limit of {max}.",
            shared.profile
        )));
    }
    if shared.profile == crate::GraphicsProfile::Reach && !size.is_power_of_two() {
        return Err(XnaError::not_supported(
            "Reach profile requires TextureCube sizes to be powers of two.",
        ));
    }
    Ok(size)
}

/// XNA's `TextureCube`: six square faces with optional mipmaps, filled by `set_data` and read by
/// `get_data` one face at a time.
///
/// Creation follows XNA's cube rules: a positive size within the profile's cube ceiling (512
/// under Reach, 4096 under HiDef) and, under Reach, a power of two; the format rules of a 2D
/// texture. A new cube reads back as zero. Where it differs from XNA: no CPU copy is kept, so
/// the pixels are not restored after a device reset; dropping the last wrapper disposes it.
pub struct TextureCube {
    pub(crate) core: Arc<TextureCore>,
}

impl std::fmt::Debug for TextureCube {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}({:?}, {})", self.core.res.kind, self.core.res.id, self.size())
    }
}

impl TextureCube {
    /// XNA's `new TextureCube(graphicsDevice, size, mipMap, format)`: six `size`×`size` faces,
    /// with `mip_map` the full chain of levels down to 1×1; every texel starts zero.
    ///
    /// Errors: a disposed device is `ObjectDisposed`; a `size` that is not positive is
    /// `ArgumentOutOfRange` on `size`; `NotSupported` for a size beyond the profile's cube limit
    /// (512 Reach, 4096 HiDef) or the device's, a size that is not a power of two under Reach,
    /// and a `format` that [`Texture2D::with_format`](crate::Texture2D::with_format) refuses.
    pub fn new(
        device: &GraphicsDevice,
        size: i32,
        mip_map: bool,
        format: SurfaceFormat,
    ) -> Result<Self> {
        let shared = &device.shared;
        shared.check_alive()?;
        let size = validate_cube_size(shared, size)?;
        check_texture_format(shared, format, size, size)?;
        let levels = if mip_map { full_mip_count(size, size, 1) } else { 1 };
        let desc = TextureDesc { layers: 6, ..TextureDesc::texture_2d(size, size, levels, format) };
        let core = create_core(device, "TextureCube", desc, None, false)?;
        record_zero_fill(shared, &core.state()?);
        Ok(TextureCube { core })
    }

    /// XNA's `TextureCube.Size`: the edge of each face at level 0, in texels.
    pub fn size(&self) -> i32 {
        self.core.desc.width as i32
    }

    /// XNA's `Texture.LevelCount`: 1 without mipmaps, else the full chain down to 1×1.
    pub fn level_count(&self) -> i32 {
        self.core.desc.mip_levels as i32
    }

    /// XNA's `Texture.Format`, as applied (a render target may fall back to `Color`).
    pub fn format(&self) -> SurfaceFormat {
        self.core.desc.format
    }

    crate::resources::resource::graphics_resource_accessors!();

    /// XNA's `GraphicsResource.Dispose()`: raises `Disposing`, releases the backend state (queued
    /// commands keep what they use), raises the device's `ResourceDestroyed`. `RenderTargetCube`
    /// has its own `dispose`, which is refused while a face is bound.
    pub fn dispose(&self) {
        self.core.dispose(true);
    }

    /// XNA's `TextureCube.SetData<T>(cubeMapFace, T[])`: the whole of level 0 of one face.
    ///
    /// Errors: as [`Self::set_data_region`].
    pub fn set_data<T: Pod>(&self, face: CubeMapFace, data: &[T]) -> Result<()> {
        self.set_data_region(face, 0, None, data, 0, data.len())
    }

    /// XNA's `TextureCube.SetData<T>(cubeMapFace, level, rect, T[], startIndex,
    /// elementCount)`; `rect` `None` is the whole face. The region is uploaded in place, after
    /// what was recorded before it; the other texels are kept.
    ///
    /// Errors: a disposed cube or device is `ObjectDisposed`; the `level`, `rect`, `T`, `data`
    /// and `elementCount` checks of
    /// [`Texture2D::set_data_region`](crate::Texture2D::set_data_region); a render target with
    /// a face bound is `InvalidOperation`; a multisampled render target that preserves its
    /// contents is `NotSupported`.
    pub fn set_data_region<T: Pod>(
        &self,
        face: CubeMapFace,
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
        write_in_place(&device, &self.core, (level, face.layer()), rect, bytes)
    }

    /// XNA's `TextureCube.GetData<T>(cubeMapFace, T[])`: the whole of level 0 of one face.
    ///
    /// Errors: as [`Self::get_data_region`].
    pub fn get_data<T: Pod>(&self, face: CubeMapFace, data: &mut [T]) -> Result<()> {
        let n = data.len();
        self.get_data_region(face, 0, None, data, 0, n)
    }

    /// XNA's `TextureCube.GetData<T>(cubeMapFace, level, rect, T[], startIndex,
    /// elementCount)`: flushes the frame and waits for the GPU; a render target reads its
    /// resolved image.
    ///
    /// Errors: a disposed cube or device is `ObjectDisposed`; a render target with a face bound
    /// is `InvalidOperation`; the `level`, `rect`, `T`, `data` and `elementCount` checks of
    /// [`Texture2D::set_data_region`](crate::Texture2D::set_data_region); a failed flush is the
    /// backend's error (`DeviceLost`, `OutOfVideoMemory`).
    pub fn get_data_region<T: Pod>(
        &self,
        face: CubeMapFace,
        level: i32,
        rect: Option<Rect>,
        data: &mut [T],
        start_index: usize,
        element_count: usize,
    ) -> Result<()> {
        let device = self.core.res.live_device()?;
        let state = self.core.state()?;
        device.check_not_bound(&state)?;
        read_region(&device, &state, level, face.layer(), rect, data, start_index, element_count)
    }
}

impl Drop for TextureCube {
    fn drop(&mut self) {
        if self.core.render_target.is_none() {
            self.core.dispose(false);
        }
    }
}

/// A cube as a slot of `GraphicsDevice.Textures` holds it (EnvironmentMapEffect's
/// `EnvironmentMap`, written by its `Apply`): the game's cube, shared.
pub(crate) struct CubeRef(pub Arc<TextureCube>);

impl crate::device::draw_state::BoundTexture for CubeRef {
    fn state(&self) -> Result<Arc<xnagraph_graph::TextureState>> {
        self.0.core.state()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// XNA's `RenderTargetCube`: a `TextureCube` (through `Deref`) whose faces can be bound.
///
/// Construction applies the rules of a `RenderTarget2D` plus the cube's: the profile's cube
/// ceiling and, under Reach, a power-of-two size; the format verdict (a format the profile
/// forbids or the device cannot render becomes `Color`); the applied depth format and the
/// device-clamped sample count are what it reports. The six faces share one depth/stencil
/// buffer. A face is bound with [`GraphicsDevice::set_render_target_cube`] or a
/// [`RenderTargetBinding::cube`](crate::RenderTargetBinding::cube) entry. Not `Clone`: the
/// device's bindings name it.
pub struct RenderTargetCube {
    texture: TextureCube,
}

impl std::ops::Deref for RenderTargetCube {
    type Target = TextureCube;
    fn deref(&self) -> &TextureCube {
        &self.texture
    }
}

impl std::fmt::Debug for RenderTargetCube {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.texture.fmt(f)
    }
}

impl RenderTargetCube {
    /// `new RenderTargetCube(device, size, mipMap, preferredFormat, preferredDepthFormat)`: no
    /// multisampling, `DiscardContents`. The preferred format is substituted, not refused: one a
    /// cube target of the profile cannot use
    /// ([`GraphicsProfile::supports_cube_target_format`](crate::GraphicsProfile::supports_cube_target_format):
    /// on HiDef the DXT and signed normalised formats) or the adapter cannot render becomes
    /// `Color`, as in XNA.
    pub fn new(
        device: &GraphicsDevice,
        size: i32,
        mip_map: bool,
        preferred_format: SurfaceFormat,
        preferred_depth_format: DepthFormat,
    ) -> Result<Self> {
        Self::with_options(
            device,
            size,
            mip_map,
            preferred_format,
            preferred_depth_format,
            0,
            RenderTargetUsage::DiscardContents,
        )
    }

    /// `new RenderTargetCube(device, size, mipMap, preferredFormat, preferredDepthFormat,
    /// preferredMultiSampleCount, usage)`. A mipmapped target whose (applied) format the device
    /// cannot generate mips for is `NotSupported` here, not at the flush that would generate
    /// them.
    pub fn with_options(
        device: &GraphicsDevice,
        size: i32,
        mip_map: bool,
        preferred_format: SurfaceFormat,
        preferred_depth_format: DepthFormat,
        preferred_multi_sample_count: i32,
        usage: RenderTargetUsage,
    ) -> Result<Self> {
        let shared = &device.shared;
        shared.check_alive()?;
        let size = validate_cube_size(shared, size)?;
        let (desc, info) = target_desc(
            shared,
            (size, size, 6),
            mip_map,
            preferred_format,
            preferred_depth_format,
            preferred_multi_sample_count,
            usage,
        )?;
        let core = create_core(device, "RenderTargetCube", desc, Some(info), false)?;
        Ok(RenderTargetCube { texture: TextureCube { core } })
    }

    pub(crate) fn core(&self) -> &Arc<TextureCore> {
        &self.texture.core
    }

    /// XNA's `RenderTargetCube.RenderTargetUsage`: how each face treats its content when it is
    /// bound again.
    pub fn render_target_usage(&self) -> RenderTargetUsage {
        self.core().target_info().usage
    }

    /// XNA's `RenderTargetCube.DepthStencilFormat`: the depth format the backend applied (one
    /// buffer shared by the six faces).
    pub fn depth_stencil_format(&self) -> DepthFormat {
        self.core().target_info().depth
    }

    /// XNA's `RenderTargetCube.MultiSampleCount`: the device-clamped sample count (0: not
    /// multisampled).
    pub fn multi_sample_count(&self) -> i32 {
        self.core().target_info().sample_count as i32
    }

    /// XNA's `RenderTargetCube.IsContentLost`: true after a reported device reset, until a face
    /// of the target is next bound.
    pub fn is_content_lost(&self) -> bool {
        self.core().content_lost.load(Ordering::Acquire)
    }

    /// XNA's `RenderTargetCube.ContentLost` event, raised when a device reset discards the
    /// faces' contents.
    pub fn content_lost(&self) -> &Event<ResourceEventArgs> {
        &self.core().content_lost_event
    }

    /// XNA's `GraphicsResource.Dispose()` for the target: `InvalidOperation` ("Disposing target
    /// that is still bound") while any face of the target is bound to its live device; else as
    /// [`TextureCube::dispose`].
    pub fn dispose(&self) -> Result<()> {
        dispose_target(self.core())
    }
}

impl Drop for RenderTargetCube {
    fn drop(&mut self) {
        self.core().drop_last();
    }
}
