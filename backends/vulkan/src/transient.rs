//! Shared transient memory: the multisample and depth/stencil images a plan names transient
//! (`xnagraph_graph::compile::transient`) are bound into one allocation, where two images whose
//! plan nodes do not overlap take the same bytes, as frame graphs alias their transient
//! resources.
//!
//! In: the plan's [`TransientImages`] and each image's memory requirements. Out: every
//! multisample and depth/stencil image the plan uses bound to memory before it is recorded — a
//! transient image at its offset in the heap of its memory types, a resident one in memory of its
//! own — and the [`TransientMemory`] figures of the frame.
//!
//! A device that shares transient memory creates its targets' multisample and depth/stencil
//! images without memory (`texture::create`); the first plan that uses one binds it. Placement
//! is first fit, largest image first: each image goes at the lowest offset, a multiple of its
//! alignment, where it meets no image already placed whose nodes overlap its own. A heap is as
//! large as the largest layout it served; a frame that needs more replaces it, and the old one is
//! freed once the submissions that used it have completed. A Vulkan image is bound once, so an
//! image whose place changes is made again (the old one and its views are retired with its last
//! submission); a frame laid out like the one before binds nothing.
//!
//! Two images on the same bytes are never in use at once: the first use of each transient image
//! in a frame has a barrier from `Access::Aliased`, which waits for every access a transient image
//! can make (attachment, sampling and transfer stages), in this submission or an earlier one on
//! the queue. A resident image moved out of a heap needs no more: it left its last frame without
//! content, so its first use discards.

use ash::vk;
use vk_mem::Alloc;
use xnagraph_graph::{
    BackendError, FramePlan, Image, NativeHandle, TransientImage, TransientMemory,
};

use crate::device::Gpu;
use crate::retirement::Retired;
use crate::texture::{self, ImageMemory, Memory};
use crate::{vk_error, VulkanBackend};

/// The heaps transient images share, one per set of memory types.
#[derive(Default)]
pub(crate) struct TransientHeaps {
    heaps: Vec<Heap>,
    next_serial: u64,
    last: TransientMemory,
}

struct Heap {
    /// Names the heap in [`Memory::Shared`]; a replaced heap's images no longer match.
    serial: u64,
    type_bits: u32,
    size: u64,
    alloc: vk_mem::Allocation,
}

/// One transient image's place in the frame's layout.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// Its index in the plan's transient images.
    image: usize,
    size: u64,
    alignment: u64,
    type_bits: u32,
    offset: u64,
}

impl TransientHeaps {
    /// The figures of the last frame placed.
    pub fn last(&self) -> TransientMemory {
        self.last
    }

    /// Frees every heap.
    ///
    /// # Safety
    /// No pending or executing submission may use an image bound to them.
    pub unsafe fn destroy(&mut self, gpu: &Gpu) {
        for mut heap in self.heaps.drain(..) {
            // SAFETY: the caller's guarantee.
            unsafe { gpu.allocator.free_memory(&mut heap.alloc) };
        }
    }
}

/// Places `slots` (first fit, largest first, per set of memory types): two slots whose images'
/// nodes overlap never share a byte. Returns each set of memory types with the bytes its
/// layout needs and its largest alignment.
fn lay_out(slots: &mut [Slot], images: &[TransientImage]) -> Vec<(u32, u64, u64)> {
    let mut order: Vec<usize> = (0..slots.len()).collect();
    order.sort_by_key(|&i| (slots[i].type_bits, std::cmp::Reverse(slots[i].size), i));
    let mut groups: Vec<(u32, u64, u64)> = Vec::new();
    let mut placed: Vec<usize> = Vec::new();
    for i in order {
        let s = slots[i];
        if groups.last().is_none_or(|g| g.0 != s.type_bits) {
            groups.push((s.type_bits, 0, 1));
            placed.clear();
        }
        let mut offset = 0u64;
        loop {
            offset = offset.next_multiple_of(s.alignment.max(1));
            let end = offset + s.size;
            let blocking = placed
                .iter()
                .map(|&p| slots[p])
                .filter(|p| images[p.image].overlaps(&images[s.image]))
                .filter(|p| p.offset < end && offset < p.offset + p.size)
                .map(|p| p.offset + p.size)
                .max();
            match blocking {
                Some(past) => offset = past,
                None => break,
            }
        }
        slots[i].offset = offset;
        placed.push(i);
        let group = groups.last_mut().expect("a group was pushed above");
        group.1 = group.1.max(offset + s.size);
        group.2 = group.2.max(s.alignment);
    }
    groups
}

impl VulkanBackend {
    /// Binds every multisample and depth/stencil image `plan` uses (see the module docs).
    pub(crate) fn place_transients(&mut self, plan: &FramePlan) -> Result<(), BackendError> {
        let t = &plan.transients;
        let share = t.aliased && self.share_transients;
        let mut slots = Vec::with_capacity(t.images.len());
        for (i, image) in t.images.iter().enumerate() {
            let native = self.textures.get(image.texture.native())?;
            let Some(m) = native.attachment_memory(image.image, image.layer) else { continue };
            // SAFETY: a live image of this device.
            let req = unsafe { self.gpu.device.get_image_memory_requirements(m.image) };
            let (size, alignment, type_bits) = (req.size, req.alignment, req.memory_type_bits);
            slots.push(Slot { image: i, size, alignment, type_bits, offset: 0 });
        }
        let unaliased_bytes = slots.iter().map(|s| s.size).sum();
        if !share {
            self.give_unshared_own_memory(plan, share)?;
            let images = slots.len();
            self.transients.last = TransientMemory { images, unaliased_bytes, shared_bytes: 0 };
            return Ok(());
        }
        for (type_bits, size, alignment) in lay_out(&mut slots, &t.images) {
            self.ensure_heap(type_bits, size, alignment)?;
        }
        for slot in &slots {
            let image = &t.images[slot.image];
            let heap = self.transients.heaps.iter().find(|h| h.type_bits == slot.type_bits);
            let Some(heap) = heap.map(|h| h.serial) else { continue };
            let place = (heap, slot.offset);
            self.bind_shared(image.texture.native(), image.image, image.layer, place)?;
        }
        self.give_unshared_own_memory(plan, share)?;
        let shared_bytes = self.transients.heaps.iter().map(|h| h.size).sum();
        let images = slots.len();
        self.transients.last = TransientMemory { images, unaliased_bytes, shared_bytes };
        Ok(())
    }

    /// Gives memory of its own to each image the compiler keeps resident in the plan
    /// (`TransientImages::resident`) and, where the frame shares nothing, to each transient
    /// image. Between them the two lists name every multisample and depth/stencil image the plan
    /// uses.
    fn give_unshared_own_memory(
        &mut self,
        plan: &FramePlan,
        share: bool,
    ) -> Result<(), BackendError> {
        let t = &plan.transients;
        let resident = t.resident.iter().map(|(texture, image, layer)| (texture, *image, *layer));
        let unshared = t.images.iter().filter(|_| !share).map(|i| (&i.texture, i.image, i.layer));
        for (texture, image, layer) in resident.chain(unshared) {
            self.give_own_memory(texture.native(), image, layer)?;
        }
        Ok(())
    }

    /// A heap for `type_bits` of at least `size` bytes: the one there is, or a new one (the
    /// old one retired with the last submission, which may still use it).
    fn ensure_heap(
        &mut self,
        type_bits: u32,
        size: u64,
        alignment: u64,
    ) -> Result<(), BackendError> {
        let heaps = &mut self.transients.heaps;
        let at = heaps.iter().position(|h| h.type_bits == type_bits);
        if at.is_some_and(|i| heaps[i].size >= size) {
            return Ok(());
        }
        let req = vk::MemoryRequirements { size, alignment, memory_type_bits: type_bits };
        let info = vk_mem::AllocationCreateInfo {
            flags: vk_mem::AllocationCreateFlags::DEDICATED_MEMORY
                | vk_mem::AllocationCreateFlags::CAN_ALIAS,
            required_flags: vk::MemoryPropertyFlags::DEVICE_LOCAL,
            ..Default::default()
        };
        // SAFETY: valid requirements for this device's allocator.
        let alloc = unsafe { self.gpu.allocator.allocate_memory(&req, &info) }
            .map_err(|e| vk_error("vmaAllocateMemory (transient heap)", e))?;
        self.transients.next_serial += 1;
        let heap = Heap { serial: self.transients.next_serial, type_bits, size, alloc };
        match at {
            Some(i) => {
                let old = std::mem::replace(&mut self.transients.heaps[i], heap);
                self.retired.retire(self.last_submitted, Retired::Heap(old.alloc));
            }
            None => self.transients.heaps.push(heap),
        }
        Ok(())
    }

    /// Binds `which` image of `layer` of texture `handle` at `(heap, offset)`, unless it is there.
    fn bind_shared(
        &mut self,
        handle: NativeHandle,
        which: Image,
        layer: u32,
        (heap, offset): (u64, u64),
    ) -> Result<(), BackendError> {
        let t = self.textures.get(handle)?;
        let Some(current) = t.attachment_memory(which, layer) else { return Ok(()) };
        let Some(h) = self.transients.heaps.iter().find(|h| h.serial == heap) else {
            return Err(BackendError::Native(format!("transient heap {heap} does not exist")));
        };
        let image = match current.memory {
            Memory::Shared { heap: at, offset: from } if (at, from) == (heap, offset) => {
                return Ok(())
            }
            Memory::Unbound => current.image,
            Memory::Own(_) | Memory::Shared { .. } => {
                texture::unbound_image(&self.gpu, &texture::attachment_info(t, which))?
            }
        };
        // SAFETY: an image without memory, bound inside the heap (the layout kept it within the
        // heap's size at the image's alignment, in the memory types its requirements allow).
        let bound = unsafe {
            self.gpu.allocator.bind_image_memory2(&h.alloc, offset, image, std::ptr::null())
        };
        if let Err(e) = bound {
            if image != current.image {
                // SAFETY: never used.
                unsafe {
                    texture::destroy_image(
                        &self.gpu,
                        ImageMemory { image, memory: Memory::Unbound },
                    )
                };
            }
            return Err(vk_error("vmaBindImageMemory2", e));
        }
        self.replace_attachment(
            handle,
            which,
            layer,
            ImageMemory { image, memory: Memory::Shared { heap, offset } },
        )
    }

    /// Gives `which` image of `layer` of texture `handle` memory of its own, unless it has.
    fn give_own_memory(
        &mut self,
        handle: NativeHandle,
        which: Image,
        layer: u32,
    ) -> Result<(), BackendError> {
        let t = self.textures.get(handle)?;
        let Some(current) = t.attachment_memory(which, layer) else { return Ok(()) };
        let fresh = match current.memory {
            Memory::Own(_) => return Ok(()),
            Memory::Unbound => {
                let image = current.image;
                // (VMA's automatic usages need the image's create info, which this call lacks.)
                let info = vk_mem::AllocationCreateInfo {
                    required_flags: vk::MemoryPropertyFlags::DEVICE_LOCAL,
                    ..Default::default()
                };
                // SAFETY: a live image without memory; the allocation is bound to it at once.
                let alloc = unsafe { self.gpu.allocator.allocate_memory_for_image(image, &info) }
                    .map_err(|e| vk_error("vmaAllocateMemoryForImage", e))?;
                // SAFETY: as above.
                if let Err(e) = unsafe { self.gpu.allocator.bind_image_memory(&alloc, image) } {
                    let mut alloc = alloc;
                    // SAFETY: bound to nothing.
                    unsafe { self.gpu.allocator.free_memory(&mut alloc) };
                    return Err(vk_error("vmaBindImageMemory", e));
                }
                ImageMemory { image, memory: Memory::Own(alloc) }
            }
            Memory::Shared { .. } => {
                texture::allocate(&self.gpu, &texture::attachment_info(t, which))?
            }
        };
        self.replace_attachment(handle, which, layer, fresh)
    }

    /// Puts `fresh` (bound) in place of `which` image of `layer`, makes its views, and retires
    /// the image it replaces (unless it is the same image, newly bound) with the texture's last
    /// submission.
    fn replace_attachment(
        &mut self,
        handle: NativeHandle,
        which: Image,
        layer: u32,
        fresh: ImageMemory,
    ) -> Result<(), BackendError> {
        let gpu = self.gpu.clone();
        let Some(t) = self.textures.get_mut(handle) else { return Ok(()) };
        let same = t.attachment_memory(which, layer).is_some_and(|m| m.image == fresh.image);
        let Some((old, views)) = t.swap_attachment(which, layer, fresh) else { return Ok(()) };
        let last_use = t.last_use;
        let made = t.make_views(&gpu, which, layer);
        if same {
            // The image itself stays, newly bound; it had no views to retire (an unbound
            // image gets none), and its old record names no memory.
            debug_assert!(views.iter().all(|v| *v == vk::ImageView::null()));
            debug_assert!(matches!(old.memory, Memory::Unbound));
        } else {
            self.retired.retire(last_use, Retired::Image(old, views));
        }
        made
    }
}
