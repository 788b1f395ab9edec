//! Native textures: images, their memory and views, kept in a table by handle.
//!
//! In: a [`TextureDesc`]. Out: a [`NativeTexture`] — the single-sample `Color` image (every mip
//! level and layer; a cube when it has six layers; a 3D image for a volume), the `Samples` images
//! of a multisampled target (one single-layer image per layer, so each face of a cube has its own
//! samples resolving into its own layer) and the one single-layer `DepthStencil` image of a target
//! with a depth format (shared by every face) — with one sampled view over the whole `Color` image
//! and one level-0 view per layer of each image a pass can attach. The table
//! hands out [`NativeHandle`]s, remembers the last submission that used each texture, and frees
//! nothing by itself: the backend removes an entry only once the retirement queue allows it.

use std::collections::HashMap;

use ash::vk;
use xnagraph_graph::{BackendError, HandleKind, Image, NativeHandle, SubmissionId, TextureDesc};

use crate::device::Gpu;
use crate::format::{depth_aspects, surface_format, FormatTable};

mod native;
pub(crate) use native::{allocate, destroy, destroy_image, destroy_views, unbound_image};
use native::{allocate_image, create_view, image_info};

/// One image and its memory.
pub(crate) struct ImageMemory {
    pub image: vk::Image,
    pub memory: Memory,
}

/// Where an image's memory is.
pub(crate) enum Memory {
    /// An allocation of its own.
    Own(vk_mem::Allocation),
    /// None yet: a multisample or depth/stencil image of a device that shares transient memory,
    /// bound by the first plan that uses it (`crate::transient`).
    Unbound,
    /// Shared transient memory: heap `heap` (its serial number), from byte `offset`.
    Shared { heap: u64, offset: u64 },
}

pub(crate) struct NativeTexture {
    pub desc: TextureDesc,
    pub format: vk::Format,
    /// `UNDEFINED` when the texture has no depth image.
    pub depth_format: vk::Format,
    /// Samples of the attachments a pass binds (the `Samples` and `DepthStencil` images).
    pub samples: vk::SampleCountFlags,
    pub color: Option<ImageMemory>,
    /// One single-layer multisample image per layer (per face of a cube), each resolving into
    /// its own layer of `color`.
    pub msaa: Vec<ImageMemory>,
    /// One single-layer image, shared by every layer (the six faces of a cube).
    pub depth: Option<ImageMemory>,
    pub sampled_view: vk::ImageView,
    /// `CUBE` for a six-layer texture, `TYPE_3D` for a volume, otherwise `TYPE_2D`: which
    /// sampler dimension a shader must declare to sample `sampled_view`.
    pub sampled_view_type: vk::ImageViewType,
    /// Level-0 view per layer, indexed by layer; empty for images a pass never attaches.
    color_views: Vec<vk::ImageView>,
    msaa_views: Vec<vk::ImageView>,
    depth_views: Vec<vk::ImageView>,
    /// A multisampled target's depth image sampled one aspect at a time (a capture reads its
    /// samples back: `crate::capture::depth_samples`): the depth view, then the stencil view when
    /// the format has one; empty otherwise.
    pub depth_aspect_views: Vec<vk::ImageView>,
    pub last_use: SubmissionId,
    /// While a frame drawn straight into a swapchain image is recorded: that image stands for
    /// this back buffer's colour image.
    pub presenting: Option<Presenting>,
}

/// A swapchain image standing for a back buffer's colour image (a frame drawn straight in).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Presenting {
    pub image: vk::Image,
    pub view: vk::ImageView,
    pub format: vk::Format,
    /// The image stores blue where the back buffer stores red: a readback swaps them back.
    pub swap_red_blue: bool,
}

impl NativeTexture {
    /// The format of the colour image attachments are rendered in (a swapchain image's while
    /// one stands for it).
    pub fn color_format(&self) -> vk::Format {
        self.presenting.map_or(self.format, |p| p.format)
    }

    /// The native image holding layer `layer` of `which`, and that layer's index inside it:
    /// `Color` is one image of every layer; each layer of `Samples` is an image of its own; the
    /// one `DepthStencil` image serves every layer from its layer 0.
    pub fn image(&self, which: Image, layer: u32) -> Option<(vk::Image, u32)> {
        match which {
            Image::Color => match self.presenting {
                Some(p) => Some((p.image, layer)),
                None => self.color.as_ref().map(|m| (m.image, layer)),
            },
            Image::Samples => self.msaa.get(layer as usize).map(|m| (m.image, 0)),
            Image::DepthStencil => self.depth.as_ref().map(|m| (m.image, 0)),
        }
    }

    pub fn aspect(&self, which: Image) -> vk::ImageAspectFlags {
        match which {
            Image::DepthStencil => depth_aspects(self.depth_format),
            _ => vk::ImageAspectFlags::COLOR,
        }
    }

    /// The level-0 view of one layer of an attachable image.
    pub fn attachment_view(&self, which: Image, layer: u32) -> Result<vk::ImageView, BackendError> {
        if let (Image::Color, Some(p), 0) = (which, self.presenting, layer) {
            return Ok(p.view);
        }
        let views = match which {
            Image::Color => &self.color_views,
            Image::Samples => &self.msaa_views,
            Image::DepthStencil => &self.depth_views,
        };
        views.get(layer as usize).copied().filter(|v| *v != vk::ImageView::null()).ok_or_else(
            || {
                BackendError::Native(format!(
                    "{which:?} layer {layer} of this texture is not attachable"
                ))
            },
        )
    }

    pub fn image_count(&self) -> usize {
        [&self.color, &self.depth].iter().filter(|m| m.is_some()).count() + self.msaa.len()
    }
}

/// Every live native texture, by handle.
#[derive(Default)]
pub(crate) struct TextureTable {
    entries: HashMap<u64, NativeTexture>,
    next: u64,
}

impl TextureTable {
    pub fn get(&self, handle: NativeHandle) -> Result<&NativeTexture, BackendError> {
        self.entries
            .get(&handle.0)
            .ok_or_else(|| BackendError::Native(format!("unknown texture handle {}", handle.0)))
    }

    pub fn get_mut(&mut self, handle: NativeHandle) -> Option<&mut NativeTexture> {
        self.entries.get_mut(&handle.0)
    }

    pub fn insert(&mut self, texture: NativeTexture) -> NativeHandle {
        self.next += 1;
        let handle = NativeHandle::new(HandleKind::Texture, self.next);
        self.entries.insert(handle.0, texture);
        handle
    }

    pub fn remove(&mut self, handle: NativeHandle) -> Option<NativeTexture> {
        self.entries.remove(&handle.0)
    }

    pub fn drain(&mut self) -> Vec<NativeTexture> {
        self.entries.drain().map(|(_, t)| t).collect()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn image_count(&self) -> usize {
        self.entries.values().map(NativeTexture::image_count).sum()
    }
}

/// A volume: a 3D image of one layer, never a render target, within the 3D extent limit, of a
/// format the adapter can make 3D images of with the usage plain textures have.
fn check_volume(gpu: &Gpu, desc: &TextureDesc, depth: u32) -> Result<(), BackendError> {
    let max = gpu.capabilities().max_volume_dimension;
    let unsupported = |m: String| Err(BackendError::NotSupported(m));
    if depth == 0 || desc.width > max || desc.height > max || depth > max {
        return unsupported(format!(
            "volume size {}x{}x{depth} (limit {max})",
            desc.width, desc.height
        ));
    }
    let full_chain = desc.full_mip_chain();
    if desc.layers != 1 || desc.render_target.is_some() || desc.mip_levels > full_chain {
        return unsupported(format!(
            "a volume of {} layers and {} levels, render target: {}",
            desc.layers,
            desc.mip_levels,
            desc.render_target.is_some()
        ));
    }
    let (format, _) = surface_format(desc.format);
    // SAFETY: `physical` belongs to this live instance; the query creates nothing.
    let props = unsafe {
        gpu.instance.get_physical_device_image_format_properties(
            gpu.physical,
            format,
            vk::ImageType::TYPE_3D,
            vk::ImageTiling::OPTIMAL,
            texture_usage(false),
            vk::ImageCreateFlags::empty(),
        )
    };
    match props {
        Ok(p) if p.max_mip_levels >= desc.mip_levels => Ok(()),
        _ => unsupported(format!("{:?} volumes", desc.format)),
    }
}

/// The usage of a texture's single-sample colour image.
fn texture_usage(is_target: bool) -> vk::ImageUsageFlags {
    let usage = vk::ImageUsageFlags::SAMPLED
        | vk::ImageUsageFlags::TRANSFER_SRC
        | vk::ImageUsageFlags::TRANSFER_DST;
    if is_target {
        usage | vk::ImageUsageFlags::COLOR_ATTACHMENT
    } else {
        usage
    }
}

fn check_desc(gpu: &Gpu, formats: &FormatTable, desc: &TextureDesc) -> Result<(), BackendError> {
    let caps = gpu.capabilities();
    let unsupported = |m: String| Err(BackendError::NotSupported(m));
    if let Some(depth) = desc.volume_depth {
        check_volume(gpu, desc, depth)?;
    }
    let max = if desc.layers == 6 { caps.max_cube_dimension } else { caps.max_texture_dimension };
    if desc.width == 0 || desc.height == 0 || desc.width > max || desc.height > max {
        return unsupported(format!("texture size {}x{} (limit {max})", desc.width, desc.height));
    }
    let full_chain = desc.full_mip_chain();
    if desc.mip_levels == 0 || desc.mip_levels > full_chain {
        return unsupported(format!(
            "{} mip levels for {}x{}",
            desc.mip_levels, desc.width, desc.height
        ));
    }
    if desc.layers != 1 && !(desc.layers == 6 && desc.width == desc.height) {
        return unsupported(format!("{} layers of {}x{}", desc.layers, desc.width, desc.height));
    }
    let support = formats.support(desc.format);
    if !support.sampled {
        return unsupported(format!("{:?} textures", desc.format));
    }
    if let Some(rt) = desc.render_target {
        if !support.render_target {
            return unsupported(format!("{:?} render targets", desc.format));
        }
        if rt.sample_count > 1
            && (!rt.sample_count.is_power_of_two() || caps.sample_counts & rt.sample_count == 0)
        {
            return unsupported(format!("{} samples", rt.sample_count));
        }
        if rt.depth.has_depth() && formats.depth_format(rt.depth).is_none() {
            return unsupported(format!("depth format {:?}", rt.depth));
        }
    }
    Ok(())
}

/// Creates every native object of a texture. On failure nothing is left allocated.
///
/// With `defer_attachments` (a device that shares transient memory), the multisample and
/// depth/stencil images get neither memory nor attachment views here: the first plan that uses
/// them binds them (`crate::transient`).
pub(crate) fn create(
    gpu: &Gpu,
    formats: &FormatTable,
    desc: &TextureDesc,
    defer_attachments: bool,
) -> Result<NativeTexture, BackendError> {
    check_desc(gpu, formats, desc)?;
    let (format, swizzle) = surface_format(desc.format);
    let rt = desc.render_target;
    let samples = match rt.map_or(0, |r| r.sample_count) {
        n if n > 1 => vk::SampleCountFlags::from_raw(n),
        _ => vk::SampleCountFlags::TYPE_1,
    };
    let depth_format =
        rt.and_then(|r| formats.depth_format(r.depth)).unwrap_or(vk::Format::UNDEFINED);
    let mut texture = NativeTexture {
        desc: *desc,
        format,
        depth_format,
        samples,
        color: None,
        msaa: Vec::new(),
        depth: None,
        sampled_view: vk::ImageView::null(),
        sampled_view_type: vk::ImageViewType::TYPE_2D,
        color_views: Vec::new(),
        msaa_views: Vec::new(),
        depth_views: Vec::new(),
        depth_aspect_views: Vec::new(),
        last_use: SubmissionId(0),
        presenting: None,
    };
    match fill(gpu, &mut texture, swizzle, defer_attachments) {
        Ok(()) => Ok(texture),
        Err(e) => {
            // SAFETY: nothing created so far has been used by any submission.
            unsafe { destroy(gpu, texture) };
            Err(e)
        }
    }
}

/// Makes a texture's images and views: the colour image with its sampled view, and for a render
/// target its colour attachment views, its multisample images and its depth/stencil image.
fn fill(
    gpu: &Gpu,
    t: &mut NativeTexture,
    swizzle: vk::ComponentMapping,
    defer: bool,
) -> Result<(), BackendError> {
    let color = fill_color(gpu, t, swizzle)?;
    if t.desc.render_target.is_none() {
        return Ok(());
    }
    for layer in 0..t.desc.layers {
        let range = single(vk::ImageAspectFlags::COLOR, layer);
        t.color_views.push(attachment_view(gpu, color, t.format, range)?);
    }
    if t.samples != vk::SampleCountFlags::TYPE_1 {
        for layer in 0..t.desc.layers {
            let image = attachment_image(gpu, t, Image::Samples, defer)?;
            t.msaa.push(image);
            if !defer {
                t.make_views(gpu, Image::Samples, layer)?;
            }
        }
    }
    if t.depth_format != vk::Format::UNDEFINED {
        t.depth = Some(attachment_image(gpu, t, Image::DepthStencil, defer)?);
        if !defer {
            t.make_views(gpu, Image::DepthStencil, 0)?;
        }
    }
    Ok(())
}

/// The colour image (every level and layer, a volume's slices) and the view draws sample it
/// through; returns the image.
fn fill_color(
    gpu: &Gpu,
    t: &mut NativeTexture,
    swizzle: vk::ComponentMapping,
) -> Result<vk::Image, BackendError> {
    let desc = t.desc;
    let usage = texture_usage(desc.render_target.is_some());
    let flags = if desc.layers == 6 {
        vk::ImageCreateFlags::CUBE_COMPATIBLE
    } else {
        vk::ImageCreateFlags::empty()
    };
    let one_sample = vk::SampleCountFlags::TYPE_1;
    let levels = (desc.layers, desc.mip_levels);
    let color = allocate_image(gpu, t.format, &desc, levels, one_sample, usage, flags)?;
    let color_image = color.image;
    t.color = Some(color);
    let view_type = match (desc.is_volume(), desc.layers) {
        (true, _) => vk::ImageViewType::TYPE_3D,
        (false, 6) => vk::ImageViewType::CUBE,
        (false, _) => vk::ImageViewType::TYPE_2D,
    };
    let full = vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: desc.mip_levels,
        base_array_layer: 0,
        layer_count: desc.layers,
    };
    t.sampled_view = create_view(gpu, color_image, view_type, t.format, swizzle, full)?;
    t.sampled_view_type = view_type;
    Ok(color_image)
}

/// How a target's multisample image (one per layer: each face's samples resolve into its own
/// layer) or its depth/stencil image (one, shared by every face) is made.
pub(crate) fn attachment_info(t: &NativeTexture, which: Image) -> vk::ImageCreateInfo<'static> {
    let multisampled = t.samples != vk::SampleCountFlags::TYPE_1;
    let (format, usage) = match which {
        // TRANSFER_DST: the plan may fill the samples with a transfer clear; SAMPLED: a
        // capture's snapshot reads the samples back through a fragment stage
        // (`crate::capture::samples`).
        Image::Samples | Image::Color => (
            t.format,
            vk::ImageUsageFlags::COLOR_ATTACHMENT
                | vk::ImageUsageFlags::TRANSFER_SRC
                | vk::ImageUsageFlags::TRANSFER_DST
                | vk::ImageUsageFlags::SAMPLED,
        ),
        // TRANSFER_DST: transfer clears, and a replay restoring a snapshot; TRANSFER_SRC: a
        // capture's snapshot reads it back; SAMPLED (multisampled): a capture's snapshot reads
        // its samples through a fragment stage.
        Image::DepthStencil => (
            t.depth_format,
            vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
                | vk::ImageUsageFlags::TRANSFER_SRC
                | vk::ImageUsageFlags::TRANSFER_DST
                | if multisampled {
                    vk::ImageUsageFlags::SAMPLED
                } else {
                    vk::ImageUsageFlags::empty()
                },
        ),
    };
    image_info(format, &t.desc, (1, 1), t.samples, usage, vk::ImageCreateFlags::empty())
}

/// A multisample or depth/stencil image of `t`: with its own memory, or (`defer`) none yet.
fn attachment_image(
    gpu: &Gpu,
    t: &NativeTexture,
    which: Image,
    defer: bool,
) -> Result<ImageMemory, BackendError> {
    let info = attachment_info(t, which);
    if defer {
        Ok(ImageMemory { image: unbound_image(gpu, &info)?, memory: Memory::Unbound })
    } else {
        allocate(gpu, &info)
    }
}

impl NativeTexture {
    /// The attachment views of `which` image's `layer` (the one depth/stencil image: its
    /// attachment view and, multisampled, a view of each aspect its samples are read through).
    /// The image must have memory.
    pub(crate) fn make_views(
        &mut self,
        gpu: &Gpu,
        which: Image,
        layer: u32,
    ) -> Result<(), BackendError> {
        match which {
            Image::Samples => {
                let image = self.msaa[layer as usize].image;
                let range = single(vk::ImageAspectFlags::COLOR, 0);
                let view = attachment_view(gpu, image, self.format, range)?;
                set_view(&mut self.msaa_views, layer as usize, view);
            }
            Image::DepthStencil => {
                let Some(depth) = &self.depth else { return Ok(()) };
                let (image, format) = (depth.image, self.depth_format);
                let aspects = depth_aspects(format);
                let view = attachment_view(gpu, image, format, single(aspects, 0))?;
                set_view(&mut self.depth_views, 0, view);
                if self.samples != vk::SampleCountFlags::TYPE_1 {
                    let mut i = 0;
                    for aspect in [vk::ImageAspectFlags::DEPTH, vk::ImageAspectFlags::STENCIL] {
                        if aspects.contains(aspect) {
                            let view = attachment_view(gpu, image, format, single(aspect, 0))?;
                            set_view(&mut self.depth_aspect_views, i, view);
                            i += 1;
                        }
                    }
                }
            }
            Image::Color => {}
        }
        Ok(())
    }

    /// Takes `which` image of `layer` and its views out (for retirement), leaving `image` in
    /// its place without views.
    pub(crate) fn swap_attachment(
        &mut self,
        which: Image,
        layer: u32,
        image: ImageMemory,
    ) -> Option<(ImageMemory, Vec<vk::ImageView>)> {
        let take = |v: &mut Vec<vk::ImageView>, i: usize| {
            v.get_mut(i).map(|view| std::mem::replace(view, vk::ImageView::null()))
        };
        match which {
            Image::Samples => {
                let slot = self.msaa.get_mut(layer as usize)?;
                let old = std::mem::replace(slot, image);
                let views = take(&mut self.msaa_views, layer as usize).into_iter().collect();
                Some((old, views))
            }
            Image::DepthStencil => {
                let old = self.depth.replace(image)?;
                let mut views: Vec<_> = take(&mut self.depth_views, 0).into_iter().collect();
                views.extend(
                    self.depth_aspect_views
                        .iter_mut()
                        .map(|v| std::mem::replace(v, vk::ImageView::null())),
                );
                Some((old, views))
            }
            Image::Color => None,
        }
    }

    /// The memory of `which` image of `layer`, if the texture has it.
    pub(crate) fn attachment_memory(&self, which: Image, layer: u32) -> Option<&ImageMemory> {
        match which {
            Image::Samples => self.msaa.get(layer as usize),
            Image::DepthStencil => self.depth.as_ref(),
            Image::Color => None,
        }
    }
}

fn set_view(views: &mut Vec<vk::ImageView>, i: usize, view: vk::ImageView) {
    if views.len() <= i {
        views.resize(i + 1, vk::ImageView::null());
    }
    views[i] = view;
}

/// A 2D view of `range` of `image` without a swizzle: what attachments and per-sample reads use.
fn attachment_view(
    gpu: &Gpu,
    image: vk::Image,
    format: vk::Format,
    range: vk::ImageSubresourceRange,
) -> Result<vk::ImageView, BackendError> {
    create_view(gpu, image, vk::ImageViewType::TYPE_2D, format, Default::default(), range)
}

fn single(aspect_mask: vk::ImageAspectFlags, layer: u32) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: layer,
        layer_count: 1,
    }
}
