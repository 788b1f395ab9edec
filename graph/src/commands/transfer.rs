//! The nodes that move data between the host and the GPU: texture uploads and readbacks
//! ([`Upload`], [`Readback`], with the sizes of their depth/stencil and sample-plane
//! encodings) and buffer uploads and readbacks ([`BufferUpload`], [`BufferReadback`]).

use std::sync::Arc;

use super::Slices;
use crate::plan::Image;
use crate::resource::TextureState;
use crate::Rect;

/// A CPU → texture upload of one region of one subresource. `data` is tightly packed
/// (`format.region_size(width, height)` bytes per slice, slice after slice).
#[derive(Clone, Debug)]
pub struct Upload {
    /// The texture written.
    pub texture: Arc<TextureState>,
    /// The mip level written.
    pub level: u32,
    /// The array layer (cube face) written.
    pub layer: u32,
    /// The region written, in texels of that level.
    pub rect: Rect,
    /// The depth slices written (a volume's box); [`Slices::FLAT`] otherwise.
    pub slices: Slices,
    /// The image written: [`Image::Color`] for `SetData`; [`Image::DepthStencil`] restores a render
    /// target's depth/stencil content (level 0, layer 0, the whole level; a replay's snapshot;
    /// every sample of a multisampled one), as [`depth_stencil_size`] describes; [`Image::Samples`]
    /// restores every sample of one layer of a multisampled target (level 0, the whole level), as
    /// [`sample_planes_size`] describes, where the backend allows it
    /// ([`crate::Capabilities::sample_readback`]).
    pub image: Image,
    /// The caller's data, copied at the call, tightly packed in the texture's format (the
    /// depth/stencil encoding for [`Image::DepthStencil`], the sample planes for
    /// [`Image::Samples`]).
    pub data: Vec<u8>,
}

/// Bytes of a depth/stencil image's content of `width` × `height` texels in the
/// backend-neutral encoding of depth [`Upload`]s and [`Readback`]s: every texel's depth as a
/// little-endian `f32` in [0, 1], row after row, then, when `format` has a stencil, every
/// texel's stencil as one byte. (A 16- or 24-bit normalised depth converts to `f32` and back
/// exactly.) A multisampled target's depth/stencil image is moved as sample planes: its content
/// is the encoding of an image `samples` times as tall (`depth_stencil_size(format, width,
/// height * samples)`), whose rows `[s * height, (s + 1) * height)` hold sample `s` (every
/// sample's depth planes, then every sample's stencil planes).
pub fn depth_stencil_size(format: crate::format::DepthFormat, width: u32, height: u32) -> usize {
    let texels = width as usize * height as usize;
    let stencil = format == crate::format::DepthFormat::Depth24Stencil8;
    texels * 4 + if stencil { texels } else { 0 }
}

/// Bytes of a multisampled image's content of `width` × `height` texels with `samples` samples
/// each, in the backend-neutral encoding of [`Image::Samples`] [`Upload`]s and [`Readback`]s:
/// `samples` sample planes one after another, plane `s` being the `width` × `height` image of
/// every texel's sample `s`, row after row, tightly packed in the texture's own `format` (the
/// bytes per texel of a colour readback). The samples are numbered as the backend's API numbers
/// them (Vulkan's sample index), so planes move exactly between captures and replays of one API.
pub fn sample_planes_size(
    format: crate::format::SurfaceFormat,
    width: u32,
    height: u32,
    samples: u32,
) -> usize {
    format.region_size(width, height) * samples as usize
}

/// Names one readback within a frame so the caller can collect its bytes after the wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReadbackId(pub u64);

/// A texture → CPU copy of one region of one subresource (the resolved image of a
/// multisampled target), tightly packed.
#[derive(Clone, Debug)]
pub struct Readback {
    /// The name the caller collects the bytes under.
    pub id: ReadbackId,
    /// The texture read.
    pub texture: Arc<TextureState>,
    /// The mip level read.
    pub level: u32,
    /// The array layer (cube face) read.
    pub layer: u32,
    /// The region read, in texels of that level.
    pub rect: Rect,
    /// The depth slices read (a volume's box); [`Slices::FLAT`] otherwise. The bytes come
    /// slice after slice.
    pub slices: Slices,
    /// The image read: [`Image::Color`] for `GetData`; [`Image::DepthStencil`] reads a render
    /// target's depth/stencil content (level 0, layer 0, the whole level) in the encoding
    /// [`depth_stencil_size`] describes, where the backend's capabilities allow it
    /// ([`crate::Capabilities::depth_readback`]; for a multisampled target also
    /// [`crate::Capabilities::sample_readback`]); [`Image::Samples`] reads every sample of
    /// one layer of a multisampled target (level 0, the whole level) as the sample planes of
    /// [`sample_planes_size`] ([`crate::Capabilities::sample_readback`]).
    pub image: Image,
}

impl Upload {
    /// Whether the upload replaces the whole level, so the old texels need not survive it.
    pub fn covers_level(&self) -> bool {
        self.texture.desc().covers_level(self.level, self.rect, self.slices)
    }
}

/// A CPU → buffer write of `data` at byte `offset` (XNA's `SetData` on a vertex or index
/// buffer, the caller's elements already packed at their stride).
#[derive(Clone, Debug)]
pub struct BufferUpload {
    /// The buffer written.
    pub buffer: Arc<crate::buffer::BufferState>,
    /// The first byte written.
    pub offset: u64,
    /// The bytes, copied at the call.
    pub data: Vec<u8>,
    /// What the write promises about the rest of the buffer (dynamic buffers; `None` for static
    /// ones).
    pub options: crate::buffer::SetDataOptions,
}

impl BufferUpload {
    /// The bytes written.
    pub fn range(&self) -> std::ops::Range<u64> {
        self.offset..self.offset + self.data.len() as u64
    }
}

/// A buffer → CPU copy of `len` bytes from byte `offset` (XNA's `GetData`).
#[derive(Clone, Debug)]
pub struct BufferReadback {
    /// The name the caller collects the bytes under.
    pub id: ReadbackId,
    /// The buffer read.
    pub buffer: Arc<crate::buffer::BufferState>,
    /// The first byte read.
    pub offset: u64,
    /// How many bytes.
    pub len: u64,
}

impl BufferReadback {
    /// The bytes read.
    pub fn range(&self) -> std::ops::Range<u64> {
        self.offset..self.offset + self.len
    }
}
