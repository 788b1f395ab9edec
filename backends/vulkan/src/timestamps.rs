//! GPU timestamps around every plan node, read back without stalling.
//!
//! In: a plan about to be recorded into a frame-ring slot, and the slot's fence once it has
//! signalled. Out: one [`GpuFrameTiming`] per timed submission, on the CPU's timing clock
//! ([`xnagraph_graph::timing`]).
//!
//! Each slot owns a query pool sized from the largest plan it has recorded (two queries per
//! node) and a host-visible buffer as large; the command buffer resets the queries it uses,
//! writes one timestamp before each node's barriers and one after its work
//! ([`crate::sync::NODE_TIMESTAMP`]), and ends by copying the results with their availability
//! into the buffer (`vkCmdCopyQueryPoolResults`: the GPU waits for its own queries, then a
//! barrier makes the bytes visible to the host). Results are read only once the slot's fence has
//! been seen signalled, from the mapped buffer, availability checked per query: reading never
//! stalls, and never calls the driver (on lavapipe, `vkGetQueryPoolResults` waited behind the
//! queue's next frame). With two frames in flight a frame's figures arrive when its slot comes
//! round again, or at an explicit wait or drain.
//!
//! Ticks keep the queue's `timestampValidBits` and scale by the device's `timestampPeriod`.
//! With VK_EXT_calibrated_timestamps, each readback samples the device clock and
//! CLOCK_MONOTONIC together and places the ticks on the CPU clock from that pair; without it,
//! the offset is estimated once, from the first timed submission: its first timestamp is taken
//! to be the CPU time just before `vkQueueSubmit` (durations stay exact, placement against CPU
//! spans is approximate).
//!
//! Reports wait for a drain. At most [`MAX_READY_REPORTS`] are kept: past that the oldest is
//! dropped and counted ([`GpuTimer::dropped`]), so a timed run whose caller never drains holds
//! a bounded amount of memory.

use std::time::Instant;

use ash::vk;
use xnagraph_graph::timing::{instant_ns, GpuFrameTiming, GpuNodeTime, GpuTimingSupport};
use xnagraph_graph::{BackendError, SubmissionId};

use crate::device::Gpu;
use crate::frame::HostBuffer;
use crate::{sync, vk_error};

/// Reports kept for a drain; past this the oldest is dropped (about four seconds of frames at
/// 60 per second).
pub const MAX_READY_REPORTS: usize = 256;

/// Bytes one query's result takes in the results buffer: the value and its availability.
const RESULT_BYTES: u64 = 16;

/// One slot's query pool, the buffer its results are copied into, and the timed submission
/// recorded into it.
#[derive(Default)]
struct SlotQueries {
    pool: vk::QueryPool,
    results: Option<HostBuffer>,
    capacity: u32,
    pending: Option<Pending>,
}

struct Pending {
    submission: SubmissionId,
    nodes: u32,
    /// The timing clock just before `vkQueueSubmit`.
    submitted_ns: u64,
}

/// A GPU tick count and the same moment on the timing clock.
#[derive(Clone, Copy, Debug)]
struct Reference {
    ticks: u64,
    ns: u64,
}

/// The backend's GPU timer. See the module documentation.
pub(crate) struct GpuTimer {
    on: bool,
    valid_bits: u32,
    period_ns: f64,
    slots: Vec<SlotQueries>,
    /// Without calibration: the offset estimated at the first timed submission.
    estimated: Option<Reference>,
    /// CLOCK_MONOTONIC and the timing clock sampled together (calibrated devices only).
    monotonic_anchor: Option<(u64, u64)>,
    ready: Vec<GpuFrameTiming>,
    /// Reports dropped, oldest first, to keep `ready` within [`MAX_READY_REPORTS`].
    dropped: u64,
}

impl GpuTimer {
    pub fn new(gpu: &Gpu, slots: usize) -> GpuTimer {
        GpuTimer {
            on: false,
            valid_bits: gpu.timestamp_valid_bits,
            period_ns: f64::from(gpu.limits.timestamp_period),
            slots: (0..slots).map(|_| SlotQueries::default()).collect(),
            estimated: None,
            monotonic_anchor: None,
            ready: Vec::new(),
            dropped: 0,
        }
    }

    /// What this device can do.
    pub fn support(&self, gpu: &Gpu) -> GpuTimingSupport {
        if self.valid_bits == 0 {
            GpuTimingSupport::Unavailable(format!(
                "the queue of {} writes no timestamps (timestampValidBits is 0)",
                gpu.adapter_name
            ))
        } else if self.period_ns <= 0.0 {
            GpuTimingSupport::Unavailable("the device reports no timestampPeriod".into())
        } else {
            GpuTimingSupport::Available { calibrated: gpu.calibrated_timestamps.is_some() }
        }
    }

    /// Turns timing on or off for later submissions (never on without support).
    pub fn set(&mut self, gpu: &Gpu, on: bool) -> GpuTimingSupport {
        let support = self.support(gpu);
        self.on = on && support.is_available();
        support
    }

    /// The pool and results buffer to time a plan of `nodes` nodes recorded into idle slot
    /// `slot` with, grown when the plan outgrows them; `None` while timing is off.
    pub fn prepare(
        &mut self,
        gpu: &Gpu,
        slot: usize,
        nodes: usize,
    ) -> Result<Option<(vk::QueryPool, vk::Buffer)>, BackendError> {
        if !self.on || nodes == 0 {
            return Ok(None);
        }
        let wanted = u32::try_from(nodes * 2)
            .map_err(|_| BackendError::Native("too many plan nodes to time".into()))?;
        let queries = &mut self.slots[slot];
        if queries.capacity < wanted {
            let capacity = wanted.max(queries.capacity * 2).max(64);
            let results = HostBuffer::new(
                gpu,
                u64::from(capacity) * RESULT_BYTES,
                vk::BufferUsageFlags::TRANSFER_DST,
                true,
            )?;
            if let Some(old) = queries.results.replace(results) {
                // SAFETY: the slot is idle (caller's contract).
                unsafe { old.destroy(gpu) };
            }
            let info = vk::QueryPoolCreateInfo::default()
                .query_type(vk::QueryType::TIMESTAMP)
                .query_count(capacity);
            // SAFETY: a valid create info on a live device.
            let pool = unsafe { gpu.device.create_query_pool(&info, None) }
                .map_err(|e| vk_error("vkCreateQueryPool", e))?;
            gpu.diagnostics.object_created();
            let old = std::mem::replace(&mut queries.pool, pool);
            if old != vk::QueryPool::null() {
                // SAFETY: the slot is idle (caller's contract), so no submission uses the pool.
                unsafe { gpu.device.destroy_query_pool(old, None) };
                gpu.diagnostics.object_destroyed();
            }
            queries.capacity = capacity;
        }
        let results = queries.results.as_ref().map_or(vk::Buffer::null(), |b| b.buffer);
        Ok(Some((queries.pool, results)))
    }

    /// Notes the timed submission just made from slot `slot`.
    pub fn submitted(
        &mut self,
        slot: usize,
        submission: SubmissionId,
        nodes: usize,
        submitted: Instant,
    ) {
        if !self.on {
            return;
        }
        self.slots[slot].pending =
            Some(Pending { submission, nodes: nodes as u32, submitted_ns: instant_ns(submitted) });
    }

    /// Reads the timestamps of slot `slot`'s submission, whose fence has signalled. Never
    /// waits: a query that is not available (it always is after the fence) drops the report.
    pub fn collect(&mut self, gpu: &Gpu, slot: usize) {
        let Some(pending) = self.slots[slot].pending.take() else {
            return;
        };
        let count = pending.nodes as usize * 2;
        let mut results = vec![[0u64; 2]; count];
        if count > 0 {
            let Some(buffer) = self.slots[slot].results.as_ref() else { return };
            // The copy and its host barrier were in the submission, whose fence has signalled.
            match buffer.read(gpu, count * RESULT_BYTES as usize) {
                Ok(bytes) => {
                    for (pair, chunk) in results.iter_mut().zip(bytes.chunks_exact(16)) {
                        let word = |i: usize| {
                            u64::from_le_bytes(chunk[i..i + 8].try_into().unwrap_or_default())
                        };
                        *pair = [word(0), word(8)];
                    }
                }
                Err(e) => tracing::warn!(error = %e, "reading GPU timestamps failed"),
            }
            if results.iter().any(|r| r[1] == 0) {
                tracing::warn!(
                    submission = pending.submission.0,
                    "GPU timestamps not available after the fence; frame not timed"
                );
                return;
            }
        }
        let Some(reference) = self.reference(gpu, &pending, &results) else {
            return;
        };
        let nodes = results
            .chunks_exact(2)
            .enumerate()
            .map(|(node, pair)| GpuNodeTime {
                node,
                begin_ns: self.to_ns(reference, pair[0][0]),
                end_ns: self.to_ns(reference, pair[1][0]),
            })
            .collect();
        self.keep(GpuFrameTiming { submission: pending.submission, nodes });
    }

    /// Keeps a report for the next drain, dropping the oldest past [`MAX_READY_REPORTS`].
    fn keep(&mut self, timing: GpuFrameTiming) {
        if self.ready.len() >= MAX_READY_REPORTS {
            let oldest = (0..self.ready.len()).min_by_key(|&i| self.ready[i].submission);
            if let Some(oldest) = oldest {
                self.ready.swap_remove(oldest);
                self.dropped += 1;
            }
        }
        self.ready.push(timing);
    }

    /// Reports dropped undrained since the timer was made.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The reports collected so far, in submission order.
    pub fn drain(&mut self) -> Vec<GpuFrameTiming> {
        let mut ready = std::mem::take(&mut self.ready);
        ready.sort_by_key(|t| t.submission);
        ready
    }

    /// The pair of clocks ticks are placed from.
    fn reference(
        &mut self,
        gpu: &Gpu,
        pending: &Pending,
        results: &[[u64; 2]],
    ) -> Option<Reference> {
        if let Some(calibrated) = &gpu.calibrated_timestamps {
            let infos = [
                vk::CalibratedTimestampInfoEXT::default().time_domain(vk::TimeDomainEXT::DEVICE),
                vk::CalibratedTimestampInfoEXT::default()
                    .time_domain(vk::TimeDomainEXT::CLOCK_MONOTONIC),
            ];
            // SAFETY: the extension is enabled and both domains are calibrateable (checked at
            // device creation).
            match unsafe { calibrated.get_calibrated_timestamps(&infos) } {
                Ok((stamps, _deviation)) => {
                    return Some(Reference {
                        ticks: stamps[0],
                        ns: self.monotonic_to_timing(stamps[1]),
                    })
                }
                Err(e) => tracing::warn!(error = %e, "vkGetCalibratedTimestampsEXT failed"),
            }
        }
        if self.estimated.is_none() {
            let first = results.first()?[0];
            self.estimated = Some(Reference { ticks: first, ns: pending.submitted_ns });
        }
        self.estimated
    }

    /// A CLOCK_MONOTONIC reading on the timing clock, through a pair sampled once.
    fn monotonic_to_timing(&mut self, monotonic_ns: u64) -> u64 {
        let (mono, timing) = *self.monotonic_anchor.get_or_insert_with(|| {
            let before = Instant::now();
            let mono = monotonic_now_ns();
            let after = Instant::now();
            let middle = before + (after - before) / 2;
            (mono, instant_ns(middle))
        });
        (timing as i128 + (monotonic_ns as i128 - mono as i128)).max(0) as u64
    }

    /// `ticks` on the timing clock, from a reference pair.
    fn to_ns(&self, reference: Reference, ticks: u64) -> u64 {
        let delta = tick_delta(ticks, reference.ticks, self.valid_bits);
        (reference.ns as f64 + delta as f64 * self.period_ns).max(0.0) as u64
    }

    /// # Safety
    /// No pending or executing submission may use the pools.
    pub unsafe fn destroy(&mut self, gpu: &Gpu) {
        for mut queries in self.slots.drain(..) {
            if let Some(results) = queries.results.take() {
                // SAFETY: as below.
                unsafe { results.destroy(gpu) };
            }
            if queries.pool != vk::QueryPool::null() {
                // SAFETY: the caller guarantees the GPU is done with the pools.
                unsafe { gpu.device.destroy_query_pool(queries.pool, None) };
                gpu.diagnostics.object_destroyed();
            }
        }
    }
}

/// Records the reset of the queries a plan of `nodes` nodes uses; before any node.
pub(crate) fn record_reset(gpu: &Gpu, cmd: vk::CommandBuffer, pool: vk::QueryPool, nodes: usize) {
    // SAFETY: `cmd` is recording outside a render pass; the pool holds at least 2 × nodes.
    unsafe { gpu.device.cmd_reset_query_pool(cmd, pool, 0, nodes as u32 * 2) };
}

/// Records node `node`'s begin (`end` false) or end timestamp.
pub(crate) fn record_stamp(
    gpu: &Gpu,
    cmd: vk::CommandBuffer,
    pool: vk::QueryPool,
    node: usize,
    end: bool,
) {
    let query = node as u32 * 2 + u32::from(end);
    // SAFETY: `cmd` is recording outside a render pass; the query was reset earlier in it.
    unsafe { gpu.device.cmd_write_timestamp2(cmd, sync::NODE_TIMESTAMP, pool, query) };
}

/// Records the copy of a plan's `nodes` × 2 results (value and availability, 64-bit) into
/// `results`, after the GPU has written them, and the barrier that lets the host read them;
/// after every node.
pub(crate) fn record_copy(
    gpu: &Gpu,
    cmd: vk::CommandBuffer,
    (pool, results): (vk::QueryPool, vk::Buffer),
    nodes: usize,
) {
    let flags = vk::QueryResultFlags::TYPE_64
        | vk::QueryResultFlags::WITH_AVAILABILITY
        | vk::QueryResultFlags::WAIT;
    let host = [sync::host_read_barrier(results)];
    let dependency = vk::DependencyInfo::default().buffer_memory_barriers(&host);
    // SAFETY: `cmd` is recording outside a render pass; the queries were reset and written
    // earlier in it; the buffer holds at least 2 × nodes results (it was sized with the pool).
    // WAIT makes the GPU, not the host, wait for the timestamps.
    unsafe {
        gpu.device.cmd_copy_query_pool_results(
            cmd,
            pool,
            0,
            nodes as u32 * 2,
            results,
            0,
            RESULT_BYTES,
            flags,
        );
        gpu.device.cmd_pipeline_barrier2(cmd, &dependency);
    }
}

/// `ticks - reference` for counters of `bits` meaningful bits that may have wrapped once,
/// signed (a reference later than the ticks gives a negative delta).
fn tick_delta(ticks: u64, reference: u64, bits: u32) -> i64 {
    if bits >= 64 {
        return ticks.wrapping_sub(reference) as i64;
    }
    let mask = (1u64 << bits) - 1;
    let delta = ticks.wrapping_sub(reference) & mask;
    if delta >= 1u64 << (bits - 1) {
        delta as i64 - (1i64 << bits)
    } else {
        delta as i64
    }
}

#[cfg(unix)]
fn monotonic_now_ns() -> u64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid out pointer; CLOCK_MONOTONIC always exists on the platforms Vulkan
    // calibrates against it.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
}

#[cfg(not(unix))]
fn monotonic_now_ns() -> u64 {
    // Never called: calibration against CLOCK_MONOTONIC is only enabled on Unix.
    0
}

#[cfg(test)]
mod tests {
    use super::tick_delta;

    #[test]
    fn tick_deltas_survive_one_wrap_of_the_valid_bits() {
        assert_eq!(tick_delta(10, 4, 64), 6);
        assert_eq!(tick_delta(4, 10, 64), -6);
        // 36 valid bits: a counter that wrapped from near the top to 5.
        let top = (1u64 << 36) - 3;
        assert_eq!(tick_delta(5, top, 36), 8);
        assert_eq!(tick_delta(top, 5, 36), -8);
    }
}
