//! `Texture3D`: a volume texture, its construction rules and its box data paths.
//!
//! A volume is a plain texture whose levels have depth as well as width and height: one 3D image,
//! mip level by mip level, without layers. It shares everything but its shape with `Texture2D`: the
//! tracked [`TextureCore`] (identity, events, disposal, the registry), the zero-filled start, and
//! the data checks of `crate::device::data`. What is its own: XNA's volume rules at construction
//! (HiDef only, at most 256 texels along each edge, no block-compressed formats, and the device's
//! volume capability), and the box signature of `SetData` and `GetData`, whose z range becomes the
//! upload's or readback's `Slices`.
//!
//! Each `SetData` writes its box in place: a level filled by several calls (slice by slice,
//! or level by level in any order) keeps every part written, because only an upload of every
//! texel of a level lets the compiler drop what the level held before. A volume keeps no CPU
//! copy and is never a render target.

use std::sync::Arc;

use bytemuck::Pod;
use xnagraph_graph::{
    full_mip_count, Capabilities, FormatSupport, SurfaceFormat, TextureDesc, Upload,
};

use crate::device::capability::check_volume;
use crate::device::data::{checked_elements, copy_out, validate_box, BoxRegion};
use crate::device::profile::GraphicsProfile;
use crate::device::registry::ResourceEventArgs;
use crate::device::submit::ReadRegion;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::{lock, Event};
use crate::resources::texture::{create_core, record_zero_fill, TextureCore};

/// XNA's `Texture3D`: a volume texture with optional mipmaps, filled by `set_data` and read by
/// `get_data`.
///
/// Creation follows XNA's rules: HiDef only (Reach has no volume textures), each edge at most
/// 256 texels, any HiDef texture format except the block-compressed `Dxt1`, `Dxt3` and `Dxt5`,
/// non-power-of-two sizes allowed; and the device must report a volume capability. A new
/// volume reads back as zero. Every level is a box of `width × height × depth` texels, each
/// halved (never below 1) from the level above; data is passed slice after slice (z), row
/// after row (y) within a slice. `set_data` copies the caller's data at the call and writes
/// only its box; `get_data` flushes and waits for the GPU. Where it differs from XNA: dropping
/// the last wrapper disposes it, the native texture being freed once the GPU no longer uses
/// it; a volume cannot be sampled by a draw yet (SpriteBatch takes `Texture2D`).
pub struct Texture3D {
    core: Arc<TextureCore>,
}

impl std::fmt::Debug for Texture3D {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (id, (w, h, d)) = (self.core.res.id, (self.width(), self.height(), self.depth()));
        write!(f, "Texture3D({id:?}, {w}x{h}x{d})")
    }
}

/// `width`, `height` and `depth` as positive sizes, or XNA's `ArgumentOutOfRange` naming the
/// first that is not.
fn positive_extent(width: i32, height: i32, depth: i32) -> Result<(u32, u32, u32)> {
    for (value, param) in [(width, "width"), (height, "height"), (depth, "depth")] {
        if value <= 0 {
            return Err(XnaError::out_of_range(param, "The size must be greater than zero."));
        }
    }
    Ok((width as u32, height as u32, depth as u32))
}

/// Every construction check of a volume, in XNA's order (see [`Texture3D::new`]); returns the
/// size.
fn validate_volume(
    profile: GraphicsProfile,
    caps: &Capabilities,
    support: FormatSupport,
    [width, height, depth]: [i32; 3],
    format: SurfaceFormat,
) -> Result<(u32, u32, u32)> {
    let (w, h, d) = positive_extent(width, height, depth)?;
    let extent = profile.max_volume_extent();
    if extent == 0 {
        return Err(XnaError::not_supported(format!(
            "XNA Framework {profile:?} profile does not support Texture3D."
        )));
    }
    if !profile.supports_volume_format(format) {
        return Err(XnaError::not_supported(format!(
            "XNA Framework {profile:?} profile does not support Texture3D of format {format:?}."
        )));
    }
    if w > extent || h > extent || d > extent {
        return Err(XnaError::not_supported(format!(
            "XNA Framework {profile:?} profile supports a maximum Texture3D size of {extent}."
        )));
    }
    check_volume(caps, w, h, d)?;
    if !support.sampled {
        return Err(XnaError::not_supported(format!(
            "{format:?} textures are not supported by this device."
        )));
    }
    Ok((w, h, d))
}

impl Texture3D {
    /// XNA's `new Texture3D(graphicsDevice, width, height, depth, mipMap, format)`; every texel
    /// starts zero.
    ///
    /// Errors, in XNA's order (after a disposed device, `ObjectDisposed`): a size ≤ 0 is
    /// `ArgumentOutOfRange` naming it; under Reach, `NotSupported` ("XNA Framework Reach profile
    /// does not support Texture3D."); a block-compressed format, or an edge above 256,
    /// `NotSupported`; then, where the device reports no volume capability or a smaller limit, or
    /// cannot sample the format, `NotSupported`. With `mip_map` the chain runs down to 1×1×1 (the
    /// largest edge decides its length).
    pub fn new(
        device: &GraphicsDevice,
        width: i32,
        height: i32,
        depth: i32,
        mip_map: bool,
        format: SurfaceFormat,
    ) -> Result<Self> {
        let shared = &device.shared;
        shared.check_alive()?;
        let support = shared.format_support(format);
        let (w, h, d) =
            validate_volume(shared.profile, &shared.caps, support, [width, height, depth], format)?;
        let levels = if mip_map { full_mip_count(w, h, d) } else { 1 };
        let desc = TextureDesc::volume(w, h, d, levels, format);
        let core = create_core(device, "Texture3D", desc, None, false)?;
        record_zero_fill(shared, &core.state()?);
        Ok(Texture3D { core })
    }

    fn desc(&self) -> &TextureDesc {
        &self.core.desc
    }

    /// XNA's `Texture3D.Width`: of level 0, in texels.
    pub fn width(&self) -> i32 {
        self.desc().width as i32
    }

    /// XNA's `Texture3D.Height`: of level 0, in texels.
    pub fn height(&self) -> i32 {
        self.desc().height as i32
    }

    /// XNA's `Texture3D.Depth`: of level 0, in slices.
    pub fn depth(&self) -> i32 {
        self.desc().level_depth(0) as i32
    }

    /// XNA's `Texture.LevelCount`: 1 without mipmaps, else the full chain down to 1×1×1.
    pub fn level_count(&self) -> i32 {
        self.desc().mip_levels as i32
    }

    /// XNA's `Texture.Format`, as created.
    pub fn format(&self) -> SurfaceFormat {
        self.desc().format
    }

    crate::resources::resource::graphics_resource_accessors!();

    /// XNA's `GraphicsResource.Dispose()`: raises `Disposing`, releases the backend state (queued
    /// commands keep what they use), raises the device's `ResourceDestroyed`.
    pub fn dispose(&self) {
        self.core.dispose(true);
    }

    /// The whole of level 0, as XNA's overloads without a box name it.
    fn level_0(&self) -> [i32; 6] {
        [0, 0, self.width(), self.height(), 0, self.depth()]
    }

    /// XNA's `Texture3D.SetData<T>(T[])`: the whole of level 0.
    ///
    /// Errors: as [`Self::set_data_box`].
    pub fn set_data<T: Pod>(&self, data: &[T]) -> Result<()> {
        self.set_data_range(data, 0, data.len())
    }

    /// XNA's `Texture3D.SetData<T>(T[], startIndex, elementCount)`: the whole of level 0.
    ///
    /// Errors: as [`Self::set_data_box`].
    pub fn set_data_range<T: Pod>(
        &self,
        data: &[T],
        start_index: usize,
        element_count: usize,
    ) -> Result<()> {
        let [l, t, r, b, f, k] = self.level_0();
        self.set_data_box(0, l, t, r, b, f, k, data, start_index, element_count)
    }

    /// XNA's `Texture3D.SetData<T>(level, left, top, right, bottom, front, back, T[],
    /// startIndex, elementCount)`:
    /// writes the box `left..right` × `top..bottom` × `front..back` of `level` from
    /// `data[start_index..start_index + element_count]`, slice after slice; the rest of the
    /// level keeps what it held.
    ///
    /// Errors: a disposed volume or device is `ObjectDisposed`; a level outside the chain is
    /// `ArgumentOutOfRange` ("level"); an empty box or one
    /// that leaves the level is `Argument` naming the first bound at fault; a `T` whose size
    /// does not divide the format's element size is `Argument` ("T"); a start and count past
    /// the end of `data` is `Argument` ("data"); a count that is not the box's size is
    /// `Argument` ("elementCount").
    #[allow(clippy::too_many_arguments)]
    pub fn set_data_box<T: Pod>(
        &self,
        level: i32,
        left: i32,
        top: i32,
        right: i32,
        bottom: i32,
        front: i32,
        back: i32,
        data: &[T],
        start_index: usize,
        element_count: usize,
    ) -> Result<()> {
        let device = self.core.res.live_device()?;
        let (region, bytes) = self.checked(
            level,
            [left, top, right, bottom, front, back],
            data.len(),
            start_index,
            element_count,
            std::mem::size_of::<T>(),
        )?;
        let data = device.upload_copy(&bytemuck::cast_slice::<T, u8>(data)[bytes]);
        let upload = Upload {
            image: xnagraph_graph::Image::Color,
            texture: self.core.state()?,
            level: region.level,
            layer: 0,
            rect: region.rect,
            slices: region.slices,
            data,
        };
        lock(&device.rec).builder.upload(upload);
        Ok(())
    }

    /// XNA's `Texture3D.GetData<T>(T[])`: the whole of level 0.
    ///
    /// Errors: as [`Self::get_data_box`].
    pub fn get_data<T: Pod>(&self, data: &mut [T]) -> Result<()> {
        let n = data.len();
        self.get_data_range(data, 0, n)
    }

    /// XNA's `Texture3D.GetData<T>(T[], startIndex, elementCount)`: the whole of level 0.
    ///
    /// Errors: as [`Self::get_data_box`].
    pub fn get_data_range<T: Pod>(
        &self,
        data: &mut [T],
        start_index: usize,
        element_count: usize,
    ) -> Result<()> {
        let [l, t, r, b, f, k] = self.level_0();
        self.get_data_box(0, l, t, r, b, f, k, data, start_index, element_count)
    }

    /// XNA's `Texture3D.GetData<T>(level, left, top, right, bottom, front, back, T[],
    /// startIndex, elementCount)`: reads the box into `data[start_index..start_index +
    /// element_count]`, slice after slice, flushing and waiting for the GPU.
    ///
    /// Errors: as [`Texture3D::set_data_box`], and a failed flush is the backend's error
    /// (`DeviceLost`, `OutOfVideoMemory`).
    #[allow(clippy::too_many_arguments)]
    pub fn get_data_box<T: Pod>(
        &self,
        level: i32,
        left: i32,
        top: i32,
        right: i32,
        bottom: i32,
        front: i32,
        back: i32,
        data: &mut [T],
        start_index: usize,
        element_count: usize,
    ) -> Result<()> {
        let device = self.core.res.live_device()?;
        let (region, bytes) = self.checked(
            level,
            [left, top, right, bottom, front, back],
            data.len(),
            start_index,
            element_count,
            std::mem::size_of::<T>(),
        )?;
        let read = ReadRegion {
            image: xnagraph_graph::Image::Color,
            texture: self.core.state()?,
            level: region.level,
            layer: 0,
            rect: region.rect,
            slices: region.slices,
        };
        copy_out(&device.read_back_region(read)?, data, bytes)
    }

    /// The box and the byte range of the caller's data it takes, or XNA's error.
    fn checked(
        &self,
        level: i32,
        bounds: [i32; 6],
        len: usize,
        start_index: usize,
        element_count: usize,
        elem: usize,
    ) -> Result<(BoxRegion, std::ops::Range<usize>)> {
        let desc = self.desc();
        let region = validate_box(desc, level, bounds)?;
        let needed = region.byte_len(desc);
        let bytes = checked_elements(desc, needed, len, start_index, element_count, elem)?;
        Ok((region, bytes))
    }
}

impl Drop for Texture3D {
    fn drop(&mut self) {
        self.core.dispose(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLED: FormatSupport = FormatSupport {
        sampled: true,
        render_target: false,
        blendable: false,
        mip_generation: false,
    };

    fn caps(max_volume_dimension: u32) -> Capabilities {
        Capabilities {
            max_texture_dimension: 4096,
            max_cube_dimension: 4096,
            max_volume_dimension,
            max_color_attachments: 4,
            sample_counts: 1,
            wire_frame: true,
            anisotropic_filtering: true,
            independent_blend: true,
            geometry: true,
            scaled_vertex_formats: true,
            instance_divisor: true,
            depth_readback: true,
            sample_readback: true,
            sample_restore: true,
        }
    }

    fn validate(caps: &Capabilities, support: FormatSupport) -> Result<(u32, u32, u32)> {
        validate_volume(GraphicsProfile::HiDef, caps, support, [4, 2, 8], SurfaceFormat::Color)
    }

    /// A HiDef volume the profile allows is still refused where the backend reports no volume
    /// capability, a smaller limit, or no sampling of the format.
    #[test]
    fn construction_needs_the_backends_volume_capability() {
        assert_eq!(validate(&caps(256), SAMPLED), Ok((4, 2, 8)));
        let none = validate(&caps(0), SAMPLED).unwrap_err();
        assert_eq!(none.message(), "Texture3D is not supported by this device.");
        assert!(matches!(validate(&caps(4), SAMPLED), Err(XnaError::NotSupported { .. })));
        let unsampled = FormatSupport { sampled: false, ..SAMPLED };
        assert!(matches!(validate(&caps(256), unsampled), Err(XnaError::NotSupported { .. })));
    }
}
