//! One plan recorded into a frame-ring slot and submitted.
//!
//! In: a measured plan and an idle slot. Out: the slot's buffers grown to the plan's needs and
//! written (sprites, geometry), its command buffer recorded through [`crate::record`] (with the
//! plan's timestamps when GPU timing is on, [`crate::timestamps`]) and submitted with the
//! slot's fence, signalling the submission's timeline value (and, for a window, waiting for the
//! acquired image and signalling its present).

use ash::vk;
use xnagraph_graph::{BackendError, FramePlan, SubmissionId};

use crate::frame::ensure_buffer;
use crate::pass::geometry;
use crate::record::{self, Recorder};
use crate::sprite_memory::MappedSprites;
use crate::{present, sync, vk_error, VulkanBackend};

impl VulkanBackend {
    /// Bytes between two draws' uniform blocks: room for the largest stock block (the geometry
    /// effect's; a sprite's transform is 64), a multiple of minUniformBufferOffsetAlignment.
    pub(crate) fn uniform_stride(&self) -> u64 {
        let align = self.gpu.limits.min_uniform_buffer_offset_alignment.max(1);
        geometry::UNIFORM_BYTES.next_multiple_of(align)
    }

    pub(crate) fn record_and_submit(
        &mut self,
        plan: &FramePlan,
    ) -> Result<SubmissionId, BackendError> {
        record::measure(plan, self.gpu.texture_indexing.is_some(), self.uniform_stride(), false)?;
        let i = self.next_slot;
        self.finish_slot(i)?;
        self.free_completed();
        self.place_transients(plan)?;
        let presentation = self.begin_presentation(plan)?;
        let result = self.record_and_submit_in(plan, i, &presentation);
        self.end_recording(&presentation);
        let id = result?;
        if let Err(e) = self.finish_presentation(&presentation, id) {
            // The frame's work was submitted: only showing it failed. The swapchain is rebuilt
            // at the next frame, where a lasting failure (a lost surface) is reported.
            tracing::error!(error = %e, "present failed");
            if let Some(p) = self.presenter.as_mut() {
                p.mark_stale();
            }
        }
        Ok(id)
    }

    pub(crate) fn record_and_submit_in(
        &mut self,
        plan: &FramePlan,
        i: usize,
        presentation: &present::FramePresentation,
    ) -> Result<SubmissionId, BackendError> {
        let uniform_stride = self.uniform_stride();
        // Sprites written into this device's mapped memory are drawn where they are.
        let in_place = plan
            .frame
            .sprites
            .memory()
            .and_then(|m| m.as_any().downcast_ref::<MappedSprites>())
            .filter(|m| m.belongs_to(&self.gpu));
        let indexing = self.gpu.texture_indexing.is_some();
        let needs = record::measure(plan, indexing, uniform_stride, in_place.is_some())?;
        let timestamps = self.timer.prepare(&self.gpu, i, plan.nodes.len())?;
        let mut outgrown = Vec::new();
        let slot = &mut self.slots[i];
        let wanted = [
            (
                &mut slot.vertices,
                needs.vertex_bytes,
                vk::BufferUsageFlags::VERTEX_BUFFER | vk::BufferUsageFlags::INDEX_BUFFER,
            ),
            (
                &mut slot.uniforms,
                uniform_stride * u64::from(needs.draws),
                // Storage too: a merged run's instances read their blocks from it.
                vk::BufferUsageFlags::UNIFORM_BUFFER | vk::BufferUsageFlags::STORAGE_BUFFER,
            ),
            (&mut slot.staging, needs.staging_bytes, vk::BufferUsageFlags::TRANSFER_SRC),
        ];
        let mut grown = Ok(());
        for (buffer, size, usage) in wanted {
            match ensure_buffer(&self.gpu, buffer, size, usage) {
                Ok(old) => outgrown.extend(old),
                Err(e) => {
                    grown = Err(e);
                    break;
                }
            }
        }
        let slot_last = slot.last;
        for old in outgrown {
            // The slot is idle, so this is freed at the next collection.
            self.retire_buffer(slot_last, old);
        }
        grown?;
        let slot = &mut self.slots[i];
        slot.prepare_descriptors(&self.gpu, &needs)?;
        let sprite_bytes: &[u8] = match in_place {
            Some(_) => &[],
            None => bytemuck::cast_slice(&plan.frame.sprites),
        };
        let geometry_offset = geometry::defaults_offset(sprite_bytes.len() as u64);
        // The frame's sprites and geometry bytes copied into the slot's mapped vertex buffer.
        let upload_span = tracing::debug_span!("upload_vertices").entered();
        if let Some(v) = &slot.vertices {
            v.write(&self.gpu, 0, sprite_bytes)?;
            if needs.geometry {
                let defaults: &[u8] = bytemuck::cast_slice(&geometry::DEFAULT_ATTRIBUTES);
                v.write(&self.gpu, geometry_offset, defaults)?;
                let arena = geometry_offset + defaults.len() as u64;
                v.write(&self.gpu, arena, &plan.frame.geometry_bytes)?;
            }
        }
        drop(upload_span);

        let device = &self.gpu.device;
        let cmd = slot.cmd;
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: the slot is idle, so its pool's command buffer may be reset and re-recorded.
        unsafe {
            device
                .reset_command_pool(slot.pool, vk::CommandPoolResetFlags::empty())
                .and_then(|_| device.begin_command_buffer(cmd, &begin))
        }
        .map_err(|e| vk_error("vkBeginCommandBuffer", e))?;

        let id = SubmissionId(self.last_submitted.0 + 1);
        let vertex_buffer = slot.vertices.as_ref().map(|b| b.buffer).unwrap_or_default();
        if let Some(arena) = in_place {
            arena.flush(plan.frame.sprites.len())?;
            // Not written again until the timeline passes `id` (the id of a submission that
            // fails is the next one's).
            arena.used_by(id);
        }
        let mut rec = Recorder {
            gpu: &self.gpu,
            formats: &self.formats,
            textures: &self.textures,
            buffers: &mut self.buffers,
            submission: id,
            completed: self.completed,
            pipelines: &mut self.pipelines,
            cmd,
            frame: &plan.frame,
            vertex_buffer,
            sprite_buffer: in_place.map_or(vertex_buffer, |arena| arena.buffer),
            geometry_offset,
            uniforms: slot.uniforms.as_ref(),
            uniform_stride,
            uniforms_used: 0,
            staging: slot.staging.as_ref(),
            staging_used: 0,
            descriptors: slot.descriptors,
            draw_sets: &mut slot.draw_sets,
            readbacks: Vec::new(),
            scratch: Vec::new(),
            poison_undefined: self.poison_undefined,
            acquired_image: presentation.acquired_image,
            present_copy: presentation.copy_into,
            timestamps,
            queries: &self.queries,
        };
        let recorded = {
            let _span = tracing::debug_span!("lower", submission = id.0).entered();
            xnagraph_graph::profile_scope!("lower");
            record::record(&mut rec, plan)
        };
        let readbacks = std::mem::take(&mut rec.readbacks);
        let scratch = std::mem::take(&mut rec.scratch);
        let submitted_at = std::time::Instant::now();
        let hold = self.hold;
        let submitted = recorded.and_then(|()| {
            let _span = tracing::debug_span!("queue_submit", submission = id.0).entered();
            xnagraph_graph::profile_scope!("queue_submit");
            // SAFETY: `cmd` is recording; the fence is unsignalled after the reset and not in use
            // (the slot is idle).
            unsafe {
                device.end_command_buffer(cmd).map_err(|e| vk_error("vkEndCommandBuffer", e))?;
                device.reset_fences(&[slot.fence]).map_err(|e| vk_error("vkResetFences", e))?;
                let cmds = [vk::CommandBufferSubmitInfo::default().command_buffer(cmd)];
                let mut signals = vec![vk::SemaphoreSubmitInfo::default()
                    .semaphore(self.timeline.semaphore())
                    .value(id.0)
                    .stage_mask(sync::SUBMISSION_COMPLETE)];
                signals.extend(presentation.signal.map(|s| {
                    vk::SemaphoreSubmitInfo::default()
                        .semaphore(s)
                        .stage_mask(sync::RENDER_FINISHED)
                }));
                let mut waits: Vec<_> = presentation
                    .wait
                    .map(|s| {
                        vk::SemaphoreSubmitInfo::default()
                            .semaphore(s)
                            .stage_mask(sync::ACQUIRE_WAIT)
                    })
                    .into_iter()
                    .collect();
                waits.extend(hold.map(|s| {
                    vk::SemaphoreSubmitInfo::default().semaphore(s).value(1).stage_mask(sync::HELD)
                }));
                let submit = vk::SubmitInfo2::default()
                    .command_buffer_infos(&cmds)
                    .wait_semaphore_infos(&waits)
                    .signal_semaphore_infos(&signals);
                device
                    .queue_submit2(self.gpu.queue, &[submit], slot.fence)
                    .map_err(|e| vk_error("vkQueueSubmit2", e))
            }
        });
        if let Err(e) = submitted {
            for pending in readbacks {
                // SAFETY: never submitted.
                unsafe { pending.buffer.destroy(&self.gpu) };
            }
            for image in scratch {
                // SAFETY: never submitted.
                unsafe { image.destroy(&self.gpu) };
            }
            return Err(e);
        }
        for image in scratch {
            self.retired.retire(id, crate::retirement::Retired::Scratch(image));
        }
        self.timeline.submitted(id);
        self.timer.submitted(i, id, plan.nodes.len(), submitted_at);
        let slot = &mut self.slots[i];
        slot.in_flight = Some(id);
        slot.last = id;
        slot.readbacks = readbacks;
        self.last_submitted = id;
        self.next_slot = (i + 1) % self.slots.len();
        self.mark_uses(plan, id);
        Ok(id)
    }
}
