//! Occlusion queries: one native query pool of one occlusion query per XNA `OcclusionQuery`.
//!
//! In: the plan's query ops inside a pass. Out: the pool reset before the pass's rendering
//! begins, the query begun and ended at its ops (precise: the exact count of samples that
//! pass the depth and stencil tests), and the count read without waiting once the GPU has
//! written it. Pools retire through the retirement queue like effects.

use std::collections::HashMap;

use ash::vk;
use xnagraph_graph::{BackendError, HandleKind, NativeHandle, Node, PassOp, PlannedPass};

use crate::device::Gpu;
use crate::record::Recorder;
use crate::vk_error;

/// Query pools by handle.
#[derive(Default)]
pub(crate) struct Queries {
    pools: HashMap<NativeHandle, vk::QueryPool>,
    next: u64,
}

impl Queries {
    /// Creates a query's pool; an adapter without precise occlusion queries cannot give XNA's
    /// exact `PixelCount` and is `NotSupported`.
    pub fn create(&mut self, gpu: &Gpu) -> Result<NativeHandle, BackendError> {
        if !gpu.features.occlusion_query_precise {
            return Err(BackendError::NotSupported(
                "occlusion queries (occlusionQueryPrecise)".into(),
            ));
        }
        let info =
            vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::OCCLUSION).query_count(1);
        // SAFETY: a valid create info for this device.
        let pool = unsafe { gpu.device.create_query_pool(&info, None) }
            .map_err(|e| vk_error("vkCreateQueryPool", e))?;
        self.next += 1;
        let handle = NativeHandle::new(HandleKind::Query, self.next);
        self.pools.insert(handle, pool);
        Ok(handle)
    }

    pub fn contains(&self, handle: NativeHandle) -> bool {
        self.pools.contains_key(&handle)
    }

    pub fn count(&self) -> usize {
        self.pools.len()
    }

    fn pool(&self, handle: NativeHandle) -> Result<vk::QueryPool, BackendError> {
        self.pools
            .get(&handle)
            .copied()
            .ok_or_else(|| BackendError::Native("malformed plan: a freed occlusion query".into()))
    }

    /// The count of `handle`'s last finished span, or `None` while the GPU has not written it.
    pub fn result(&self, gpu: &Gpu, handle: NativeHandle) -> Result<Option<u64>, BackendError> {
        let pool = self.pool(handle)?;
        let mut data = [0u64; 1];
        // SAFETY: the pool is live; without WAIT the call only reads what is available.
        let got = unsafe {
            gpu.device.get_query_pool_results(pool, 0, &mut data, vk::QueryResultFlags::TYPE_64)
        };
        match got {
            Ok(()) => Ok(Some(data[0])),
            Err(vk::Result::NOT_READY) => Ok(None),
            Err(e) => Err(vk_error("vkGetQueryPoolResults", e)),
        }
    }

    /// # Safety
    /// No submission that used the query may still be executing.
    pub unsafe fn destroy(&mut self, gpu: &Gpu, handle: NativeHandle) {
        if let Some(pool) = self.pools.remove(&handle) {
            // SAFETY: the caller's contract.
            unsafe { gpu.device.destroy_query_pool(pool, None) };
        }
    }

    /// # Safety
    /// The device must be idle.
    pub unsafe fn destroy_all(&mut self, gpu: &Gpu) {
        for (_, pool) in self.pools.drain() {
            // SAFETY: the caller's contract.
            unsafe { gpu.device.destroy_query_pool(pool, None) };
        }
    }
}

/// Resets, outside rendering, the pool of every query the pass begins.
pub(crate) fn reset_for_pass(rec: &Recorder<'_>, pass: &PlannedPass) -> Result<(), BackendError> {
    let Some(Node::Pass(segment)) = rec.frame.nodes.get(pass.segment) else {
        return Ok(());
    };
    for op in &pass.ops {
        if let Some(PassOp::Query(q)) = segment.ops.get(op.index) {
            if q.begin {
                let pool = rec.queries.pool(q.query.native())?;
                // SAFETY: recording outside rendering; the pool is live for the submission.
                unsafe { rec.gpu.device.cmd_reset_query_pool(rec.cmd, pool, 0, 1) };
            }
        }
    }
    Ok(())
}

/// Begins or ends a query inside the pass's rendering.
pub(crate) fn record_op(
    rec: &Recorder<'_>,
    q: &xnagraph_graph::QueryOp,
) -> Result<(), BackendError> {
    let pool = rec.queries.pool(q.query.native())?;
    // SAFETY: inside rendering on a recording command buffer; the pool was reset before the
    // rendering began, and the engine pairs every begin with an end in the same pass.
    unsafe {
        if q.begin {
            rec.gpu.device.cmd_begin_query(rec.cmd, pool, 0, vk::QueryControlFlags::PRECISE);
        } else {
            rec.gpu.device.cmd_end_query(rec.cmd, pool, 0);
        }
    }
    Ok(())
}
