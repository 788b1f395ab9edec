//! A backend without a GPU, which makes the engine's contract with its backend observable.
//!
//! [`NullBackend`] implements [`Backend`] completely: it hands out texture handles, accepts
//! plans, completes submissions, returns readbacks and retires dropped handles after the
//! submission that last used them, all on the CPU. What it adds is a [`NullProbe`], shared with
//! the test that created it, which
//!
//! - counts every trait call by [`BackendCall`] kind, so a test can assert that recording calls
//!   reach the backend only at a flush;
//! - fails the next submission on request ([`NullProbe::fail_next_submit`]), as an out-of-memory
//!   or a capability found missing during lowering would;
//! - holds submissions incomplete until released ([`NullProbe::hold_completion`]), as a slow or
//!   hung GPU would; a wait then ends with `DeviceLost` after the configured timeout;
//! - executes each accepted plan's barriers against its own per-subresource state and records
//!   every barrier whose source access is not the state the subresource is really in
//!   ([`NullProbe::take_mismatches`]): what a validation layer reports as an invalid image layout.
//!
//! Readbacks return zeroed bytes of the right length: the null backend renders nothing.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::backend::{
    Backend, BackendError, Capabilities, FormatSupport, LiveObjects, SubmissionId, SubmissionWaiter,
};
use crate::commands::{Node, PassOp, ReadbackId};
use crate::format::{DepthFormat, SurfaceFormat};
use crate::plan::{Access, FramePlan, Image, PlanNodeKind};
use crate::resource::{HandleKind, NativeHandle, RetireSink, TextureDesc};
use crate::retire::RetirementQueue;

mod probe;

use probe::{locked, ProbeState, Progress, Timeline};
pub use probe::{BackendCall, NullProbe};

/// How a [`NullBackend`] is created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NullConfig {
    /// Submissions that may be incomplete before a submit must wait (at least 1).
    pub frames_in_flight: u32,
    /// How long a wait for a submission may take before it reports `DeviceLost`.
    pub timeout: Duration,
}

impl Default for NullConfig {
    fn default() -> Self {
        NullConfig { frames_in_flight: 2, timeout: Duration::from_secs(10) }
    }
}

/// One native texture of the null backend.
#[derive(Debug)]
struct NullTexture {
    desc: TextureDesc,
    last_use: SubmissionId,
}

impl NullTexture {
    fn images(&self) -> usize {
        let rt = self.desc.render_target;
        1 + usize::from(rt.is_some_and(|r| r.is_multisampled()))
            + usize::from(self.desc.depth_format().has_depth())
    }
}

/// A backend that does everything but render. See the module documentation.
#[derive(Debug)]
pub struct NullBackend {
    probe: NullProbe,
    caps: Capabilities,
    frames_in_flight: u64,
    sink: RetireSink,
    next_handle: u64,
    textures: HashMap<NativeHandle, NullTexture>,
    /// Images of every texture created so far.
    images_allocated: u64,
    effects: std::collections::HashSet<NativeHandle>,
    retired: RetirementQueue<NativeHandle>,
    last_submitted: SubmissionId,
    /// Readbacks of submitted plans, with the submission that makes them available.
    readbacks: HashMap<ReadbackId, (SubmissionId, Vec<u8>)>,
    /// The access each subresource was left in by the plans executed so far.
    gpu_state: HashMap<(NativeHandle, Image, u32, u32), Access>,
}

impl NullBackend {
    /// A null backend with no textures and nothing submitted; [`NullBackend::probe`] observes it.
    pub fn new(config: NullConfig) -> NullBackend {
        let timeline = Arc::new(Timeline {
            progress: Mutex::new(Progress::default()),
            changed: Condvar::new(),
            timeout: config.timeout,
        });
        let probe = NullProbe(Arc::new(ProbeState {
            calls: Mutex::new(BTreeMap::new()),
            fail_next_submit: Mutex::new(None),
            mismatches: Mutex::new(Vec::new()),
            timeline,
        }));
        NullBackend {
            probe,
            caps: Capabilities {
                max_texture_dimension: 16384,
                max_cube_dimension: 16384,
                max_volume_dimension: 2048,
                max_color_attachments: 8,
                sample_counts: 1 | 2 | 4 | 8,
                wire_frame: true,
                anisotropic_filtering: true,
                independent_blend: true,
                geometry: true,
                scaled_vertex_formats: true,
                instance_divisor: true,
                depth_readback: true,
                sample_readback: true,
                sample_restore: true,
            },
            frames_in_flight: u64::from(config.frames_in_flight.max(1)),
            sink: RetireSink::default(),
            next_handle: 1,
            textures: HashMap::new(),
            images_allocated: 0,
            effects: std::collections::HashSet::new(),
            retired: RetirementQueue::default(),
            last_submitted: SubmissionId(0),
            readbacks: HashMap::new(),
            gpu_state: HashMap::new(),
        }
    }

    /// What the backend offers, for a test to narrow (every capability is on at creation).
    pub fn capabilities_mut(&mut self) -> &mut Capabilities {
        &mut self.caps
    }

    /// The probe a test observes and steers this backend through.
    pub fn probe(&self) -> NullProbe {
        self.probe.clone()
    }

    fn timeline(&self) -> &Timeline {
        &self.probe.0.timeline
    }

    /// Queues dropped handles and frees those whose last use has completed.
    fn retire(&mut self) {
        for handle in self.sink.drain() {
            if let Some(t) = self.textures.get(&handle) {
                self.retired.retire(t.last_use, handle);
            } else if self.effects.contains(&handle) {
                self.retired.retire(self.last_submitted, handle);
            }
        }
        for handle in self.retired.collect(self.timeline().completed()) {
            self.textures.remove(&handle);
            self.effects.remove(&handle);
            self.gpu_state.retain(|(h, ..), _| *h != handle);
        }
    }

    /// The submission the frames-in-flight bound makes the next one wait for, while incomplete.
    fn in_flight_bound(&self) -> Option<SubmissionId> {
        let oldest = (self.last_submitted.0 + 1).checked_sub(self.frames_in_flight)?;
        (oldest > self.timeline().completed().0).then_some(SubmissionId(oldest))
    }

    /// Fails as told, or waits for the in-flight bound and executes the plan.
    fn accept(&mut self, plan: &FramePlan) -> Result<SubmissionId, BackendError> {
        if let Some(injected) = locked(&self.probe.0.fail_next_submit).take() {
            return Err(injected);
        }
        if let Some(blocker) = self.in_flight_bound() {
            self.timeline().wait_for(blocker)?;
        }
        let id = SubmissionId(self.last_submitted.0 + 1);
        self.execute(plan, id);
        self.last_submitted = id;
        self.timeline().submitted(id);
        Ok(id)
    }

    /// Runs the plan's barriers and node effects against the null GPU's subresource states.
    fn execute(&mut self, plan: &FramePlan, id: SubmissionId) {
        let mut mismatches = Vec::new();
        for node in &plan.nodes {
            for b in &node.barriers {
                let handle = b.texture.native();
                for layer in b.layers.clone() {
                    for level in b.levels.clone() {
                        let key = (handle, b.image, level, layer);
                        let actual = self.gpu_state.get(&key).copied().unwrap_or(Access::Nothing);
                        if !b.discard && b.src != Access::Nothing && b.src != actual {
                            mismatches.push(format!(
                                "submission {}: t{}.{:?} level {level} layer {layer}: the plan \
                                 expects {:?}, the image is in {actual:?}",
                                id.0,
                                b.texture.id().0,
                                b.image,
                                b.src
                            ));
                        }
                        self.gpu_state.insert(key, b.dst);
                    }
                }
            }
            if let PlanNodeKind::GenerateMips { texture, layer } = &node.kind {
                // The cascade leaves every level of the layer as a blit source.
                for level in 0..texture.desc().mip_levels.max(1) {
                    let key = (texture.native(), Image::Color, level, *layer);
                    self.gpu_state.insert(key, Access::TransferRead);
                }
            }
        }
        locked(&self.probe.0.mismatches).extend(mismatches);
        // Every texture the frame names was last used by this submission.
        for node in &plan.frame.nodes {
            let mut used = Vec::new();
            match node {
                Node::Pass(segment) => {
                    used.extend(segment.colors.iter().map(|c| c.target.native()));
                    for op in &segment.ops {
                        if let PassOp::Draw(d) = op {
                            used.extend(d.textures.iter().map(|t| t.native()));
                        }
                    }
                }
                Node::Upload(u) => used.push(u.texture.native()),
                Node::Readback(r) => {
                    let (w, h) = (r.rect.width.max(0) as u32, r.rect.height.max(0) as u32);
                    let desc = r.texture.desc();
                    let bytes = match (r.image, desc.render_target) {
                        (crate::plan::Image::DepthStencil, Some(rt)) => {
                            let rows = h * rt.sample_count.max(1);
                            vec![0; crate::commands::depth_stencil_size(rt.depth, w, rows)]
                        }
                        (crate::plan::Image::Samples, Some(rt)) => {
                            let samples = rt.sample_count.max(1);
                            vec![0; crate::commands::sample_planes_size(desc.format, w, h, samples)]
                        }
                        _ => vec![0; desc.format.region_size(w, h) * r.slices.count() as usize],
                    };
                    self.readbacks.insert(r.id, (id, bytes));
                    used.push(r.texture.native());
                }
                Node::Present(t) => used.push(t.native()),
                Node::BufferUpload(_) => {}
                Node::BufferReadback(r) => {
                    self.readbacks.insert(r.id, (id, vec![0; r.len as usize]));
                }
            }
            for handle in used {
                if let Some(t) = self.textures.get_mut(&handle) {
                    t.last_use = id;
                }
            }
        }
    }
}

impl Backend for NullBackend {
    fn adapter_name(&self) -> &str {
        self.probe.called(BackendCall::AdapterName);
        "null (no GPU)"
    }

    /// "null (no GPU)", with zero ids and uuid.
    fn adapter_identity(&self) -> crate::backend::AdapterIdentity {
        crate::backend::AdapterIdentity {
            description: "null (no GPU)".into(),
            vendor_id: 0,
            device_id: 0,
            uuid: [0; 16],
        }
    }

    fn capabilities(&self) -> &Capabilities {
        self.probe.called(BackendCall::Capabilities);
        &self.caps
    }

    /// Every format is sampled, rendered to and blended.
    fn format_support(&self, _format: SurfaceFormat) -> FormatSupport {
        self.probe.called(BackendCall::FormatSupport);
        FormatSupport { sampled: true, render_target: true, blendable: true, mip_generation: true }
    }

    /// Every depth format is allocated as requested.
    fn applied_depth_format(&self, requested: DepthFormat) -> DepthFormat {
        self.probe.called(BackendCall::AppliedDepthFormat);
        requested
    }

    fn create_texture(&mut self, desc: &TextureDesc) -> Result<NativeHandle, BackendError> {
        self.probe.called(BackendCall::CreateTexture);
        let handle = NativeHandle::new(HandleKind::Texture, self.next_handle);
        self.next_handle += 1;
        let texture = NullTexture { desc: *desc, last_use: SubmissionId(0) };
        self.images_allocated += texture.images() as u64;
        self.textures.insert(handle, texture);
        Ok(handle)
    }

    fn create_buffer(
        &mut self,
        _desc: &crate::buffer::BufferDesc,
    ) -> Result<NativeHandle, BackendError> {
        self.probe.called(BackendCall::CreateBuffer);
        let handle = NativeHandle::new(HandleKind::Buffer, self.next_handle);
        self.next_handle += 1;
        Ok(handle)
    }

    fn create_effect(&mut self, spirv: &[u32], outputs: u32) -> Result<NativeHandle, BackendError> {
        self.probe.called(BackendCall::CreateEffect);
        if !crate::effect::is_spirv(spirv) || !(1..=4).contains(&outputs) {
            return Err(BackendError::Native(
                "not a fragment stage the sprite pipeline takes".into(),
            ));
        }
        let handle = NativeHandle::new(HandleKind::Effect, self.next_handle);
        self.next_handle += 1;
        self.effects.insert(handle);
        Ok(handle)
    }

    fn retire_sink(&self) -> RetireSink {
        self.probe.called(BackendCall::RetireSink);
        self.sink.clone()
    }

    fn waiter(&self) -> Arc<dyn SubmissionWaiter> {
        self.probe.called(BackendCall::Waiter);
        self.probe.0.timeline.clone()
    }

    fn submit_blocker(&self) -> Option<SubmissionId> {
        self.probe.called(BackendCall::SubmitBlocker);
        self.in_flight_bound()
    }

    fn submit(&mut self, plan: &FramePlan) -> Result<SubmissionId, BackendError> {
        self.probe.called(BackendCall::Submit);
        let result = self.accept(plan);
        self.retire();
        result
    }

    fn wait(&mut self, submission: SubmissionId) -> Result<(), BackendError> {
        self.probe.called(BackendCall::Wait);
        let result = self.probe.0.timeline.wait_for(submission);
        self.retire();
        result
    }

    fn take_readback(&mut self, id: ReadbackId) -> Option<Vec<u8>> {
        self.probe.called(BackendCall::TakeReadback);
        let completed = self.timeline().completed();
        match self.readbacks.get(&id) {
            Some((submission, _)) if *submission <= completed => {
                self.readbacks.remove(&id).map(|(_, bytes)| bytes)
            }
            _ => None,
        }
    }

    fn wait_idle(&mut self) -> Result<(), BackendError> {
        self.probe.called(BackendCall::WaitIdle);
        let result = self.probe.0.timeline.wait_for(self.last_submitted);
        self.retire();
        result
    }

    fn live_objects(&self) -> LiveObjects {
        self.probe.called(BackendCall::LiveObjects);
        LiveObjects {
            swapchain_objects: 0,
            pipelines: 0,
            textures: self.textures.len(),
            images: self.textures.values().map(NullTexture::images).sum(),
            buffers: 0,
            effects: self.effects.len(),
            awaiting_retirement: self.retired.len(),
            pooled_images: 0,
            images_allocated: self.images_allocated,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::compile::compile;
    use crate::compile::testkit::*;

    fn config(timeout_ms: u64) -> NullConfig {
        NullConfig { frames_in_flight: 2, timeout: Duration::from_millis(timeout_ms) }
    }

    #[test]
    fn a_held_submission_times_out_as_a_lost_device() {
        let mut backend = NullBackend::new(config(50));
        let probe = backend.probe();
        probe.hold_completion();
        let t = texture(4, 4, 1);
        let id = backend.submit(&compile(frame(vec![upload(&t, 0, 0)]))).unwrap();
        let start = Instant::now();
        let waited = backend.waiter().wait_for(id);
        assert!(matches!(waited, Err(BackendError::DeviceLost(_))), "{waited:?}");
        assert!(start.elapsed() >= Duration::from_millis(50));
        probe.release_completion();
        assert_eq!(backend.waiter().wait_for(id), Ok(()));
    }

    #[test]
    fn completing_what_was_submitted_keeps_holding_later_submissions() {
        let mut backend = NullBackend::new(config(50));
        let probe = backend.probe();
        probe.hold_completion();
        let t = texture(4, 4, 1);
        let first = backend.submit(&compile(frame(vec![upload(&t, 0, 0)]))).unwrap();
        probe.complete_submitted();
        let second = backend.submit(&compile(frame(vec![upload(&t, 0, 0)]))).unwrap();
        assert_eq!(backend.waiter().wait_for(first), Ok(()));
        let waited = backend.waiter().wait_for(second);
        assert!(matches!(waited, Err(BackendError::DeviceLost(_))), "{waited:?}");
    }

    #[test]
    fn the_frames_in_flight_bound_names_the_oldest_incomplete_submission() {
        let mut backend = NullBackend::new(config(1000));
        let probe = backend.probe();
        probe.hold_completion();
        let t = texture(4, 4, 1);
        for expected in [None, None, Some(SubmissionId(1))] {
            assert_eq!(backend.submit_blocker(), expected);
            if expected.is_none() {
                backend.submit(&compile(frame(vec![upload(&t, 0, 0)]))).unwrap();
            }
        }
        probe.release_completion();
        assert_eq!(backend.submit_blocker(), None);
        assert_eq!(probe.count(BackendCall::SubmitBlocker), 4);
        assert_eq!(probe.count(BackendCall::Submit), 2);
    }

    #[test]
    fn a_barrier_from_a_state_the_image_is_not_in_is_a_mismatch() {
        let mut backend = NullBackend::new(config(1000));
        let probe = backend.probe();
        let t = texture(4, 4, 1);
        let t = crate::resource::TextureState::new(
            *t.desc(),
            backend.create_texture(t.desc()).unwrap(),
            backend.retire_sink(),
        );
        backend.submit(&compile(frame(vec![upload(&t, 0, 0)]))).unwrap();
        assert!(probe.take_mismatches().is_empty());
        // The image is in TransferWrite; a plan that believes it is being sampled is wrong.
        let mut plan = compile(frame(vec![readback(&t, 0, 0)]));
        plan.nodes[0].barriers[0].src = Access::FragmentSampled;
        backend.submit(&plan).unwrap();
        let mismatches = probe.take_mismatches();
        assert_eq!(mismatches.len(), 1, "{mismatches:?}");
        assert!(mismatches[0].contains("expects FragmentSampled, the image is in TransferWrite"));
    }
}
