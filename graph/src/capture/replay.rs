//! Replaying a capture on a backend: the recorded frames compiled and submitted again.
//!
//! In: a checked [`Capture`] and a backend. Out: the same submissions the live run made, frame by
//! frame, with the CPU time of each frame's compile and submission (lowering included).
//!
//! [`Replayer::new`] creates every texture, buffer, effect (sprite effects and custom geometry
//! effect passes) and occlusion query of the file (named as recorded), then uploads the snapshot
//! (textures and buffers) in one setup submission, so the first frame starts from the content the
//! live run had. Each frame's flushes are rebuilt as [`FrameCommands`] over the replay's own states
//! and go through the engine's own path ([`crate::flush`]): the present target asked, the compile
//! under the recorded policy (or another, for comparisons), the frames-in-flight wait, the
//! submission, and the tracked state committed on success. Readbacks the game made are executed too
//! (they are work the frame did); their bytes are collected and dropped at [`Replayer::finish`].
//! Occlusion queries count their spans again; where the file holds the count the live run read of a
//! span, the replay reads its own count of that span (before the query's next span is submitted,
//! waiting for the GPU there, or at the end) and keeps both ([`Replayer::query_checks`]). The
//! snapshot's depth/stencil content (format 3.1) is restored by depth uploads in the same setup
//! submission, and its samples (format 3.2) by sample-plane uploads (a multisampled target's depth
//! by drawn depth uploads). A frame that would load an image the snapshot does not hold (a
//! multisample image or depth buffer the capturing backend could not read back: see
//! [`super::unsnapshotted`]) is refused with an error.

use std::sync::Arc;
use std::time::Duration;

use super::reader::{Capture, CapturedFrame};
use super::rebuild::{Rebuilder, RebuiltFrame, OWN_READBACKS};
use super::record::*;
use super::unsnapshotted::Unsnapshotted;
use crate::backend::{Backend, BackendError, SubmissionId};
use crate::buffer::{BufferState, SetDataOptions};
use crate::commands::*;
use crate::compile::CompilePolicy;
use crate::effect::{EffectKey, EffectState};
use crate::flush::{FlushBackend, FlushTimes};
use crate::plan::Image;
use crate::query::QueryState;
use crate::resource::TextureState;

/// CPU time of one replayed frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameTimes {
    /// Rebuilding the frame's commands from the file.
    pub rebuild: Duration,
    /// The compiler.
    pub compile: Duration,
    /// Waiting for the submission the frames-in-flight bound needs completed.
    pub wait: Duration,
    /// The backend's lowering and queue submission.
    pub submit: Duration,
    /// The last submission of the frame.
    pub submission: Option<SubmissionId>,
}

/// One occlusion query count of the live run against the replay's count of the same span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryCheck {
    /// The query.
    pub query: QueryKey,
    /// The device frame of the span.
    pub frame: u64,
    /// What the live run's `PixelCount` read.
    pub recorded: u64,
    /// What the replay counted.
    pub replayed: u64,
}

/// A span whose live count the file holds, replayed and not yet read back.
struct PendingCount {
    query: QueryKey,
    frame: u64,
    recorded: u64,
    submission: SubmissionId,
}

/// A capture's resources on one backend, and the frames replayed on it.
pub struct Replayer {
    rebuilder: Rebuilder,
    policy: CompilePolicy,
    pending_counts: Vec<PendingCount>,
    /// The snapshot's uploads after a [`Replayer::rewind`], for the next frame's first flush.
    restore: Vec<Node>,
    query_checks: Vec<QueryCheck>,
    unsnapshotted: Unsnapshotted,
    /// The backend restores sample planes ([`crate::Capabilities::sample_restore`]): the
    /// snapshot's samples (colour, and a multisampled target's depth/stencil) are uploaded;
    /// without it they are left out, as unsnapshotted.
    restores_samples: bool,
    /// The replay's own readbacks' next id (from [`OWN_READBACKS`]).
    next_readback: u64,
    /// The game's readbacks submitted, whose bytes [`Replayer::finish`] drops.
    readbacks: Vec<ReadbackId>,
}

impl Replayer {
    /// Creates the capture's textures, buffers and effects on `backend` and uploads the
    /// snapshot.
    pub fn new(backend: &mut dyn Backend, capture: &Capture) -> Result<Replayer, BackendError> {
        let sink = backend.retire_sink();
        let mut textures = Vec::with_capacity(capture.textures.len());
        for t in &capture.textures {
            let state = TextureState::new(t.desc, backend.create_texture(&t.desc)?, sink.clone());
            state.set_name(&t.name);
            textures.push(state);
        }
        let mut buffers = Vec::with_capacity(capture.buffers.len());
        for b in &capture.buffers {
            let state = BufferState::new(b.desc, backend.create_buffer(&b.desc)?, sink.clone());
            state.set_name(&b.name);
            buffers.push(state);
        }
        let mut effects = Vec::with_capacity(capture.effects.len());
        for e in &capture.effects {
            let native = backend.create_effect(&e.spirv, u32::from(e.outputs))?;
            effects.push(EffectState::new(EffectKey { native, outputs: e.outputs }, sink.clone()));
        }
        let mut geometry_effects = Vec::with_capacity(capture.geometry_effects.len());
        for e in &capture.geometry_effects {
            let resources = e.resources.resources();
            let native =
                backend.create_geometry_effect(&e.vertex_spirv, &e.fragment_spirv, &resources)?;
            let key = EffectKey { native, outputs: resources.outputs as u8 };
            geometry_effects.push(EffectState::new(key, sink.clone()));
        }
        let mut queries = Vec::with_capacity(capture.queries.len());
        for _ in &capture.queries {
            queries.push(QueryState::new(backend.create_query()?, sink.clone()));
        }
        let mut replayer = Replayer {
            rebuilder: Rebuilder::new(textures, buffers, effects, geometry_effects, queries),
            policy: capture.device.compile_policy,
            pending_counts: Vec::new(),
            restore: Vec::new(),
            query_checks: Vec::new(),
            unsnapshotted: Unsnapshotted::default(),
            restores_samples: backend.capabilities().sample_restore,
            next_readback: OWN_READBACKS,
            readbacks: Vec::new(),
        };
        replayer.restore_snapshot(backend, capture)?;
        Ok(replayer)
    }

    /// The snapshot as upload nodes: the content the capture's textures and buffers had when
    /// it began.
    fn snapshot_nodes(&self, capture: &Capture) -> Vec<Node> {
        let mut nodes = capture
            .snapshot
            .iter()
            .map(|s| self.rebuilder.upload(capture, &s.region, s.blob))
            .collect::<Vec<_>>();
        // A multisampled target's depth samples restore only where samples do.
        let depth = capture.depth_snapshot.iter().filter(|s| {
            let multisampled = self.rebuilder.texture(s.texture).desc().sample_count() > 1;
            self.restores_samples || !multisampled
        });
        nodes.extend(depth.map(|s| self.rebuilder.depth_upload(capture, s.texture, s.blob)));
        let samples = capture.sample_snapshot.iter().filter(|_| self.restores_samples);
        nodes.extend(
            samples.map(|s| self.rebuilder.samples_upload(capture, s.texture, s.layer, s.blob)),
        );
        nodes.extend(capture.buffer_snapshot.iter().map(|s| {
            Node::BufferUpload(BufferUpload {
                buffer: self.buffer(s.buffer).clone(),
                offset: 0,
                data: capture.blobs[s.blob as usize].clone(),
                options: SetDataOptions::None,
            })
        }));
        nodes
    }

    /// Uploads the snapshot in a submission of its own.
    fn restore_snapshot(
        &mut self,
        backend: &mut dyn Backend,
        capture: &Capture,
    ) -> Result<(), BackendError> {
        let nodes = self.snapshot_nodes(capture);
        if !nodes.is_empty() {
            self.submit(backend, FrameCommands { nodes, ..FrameCommands::default() }, None)?;
        }
        self.unsnapshotted =
            Unsnapshotted::new(capture, &self.rebuilder.textures, self.restores_samples);
        Ok(())
    }

    /// Starts the capture's frames again from its snapshot on the same native resources,
    /// without waiting for the GPU: every texture's content is forgotten (its layouts kept), the
    /// snapshot's uploads go first into the next frame's first flush, and what the snapshot
    /// lacks is checked again from that frame. In the frame's own compile the uploads the frame
    /// overwrites before anything reads them (a back buffer it clears) are culled like any dead
    /// upload. A repeated replay runs its passes back to back this way, as a game runs its
    /// frames, instead of creating every resource again and draining the GPU between passes.
    /// The game's readbacks of the passes before stay with [`Self::finish`].
    pub fn rewind(&mut self, capture: &Capture) {
        for texture in &self.rebuilder.textures {
            texture.forget_content();
        }
        self.restore = self.snapshot_nodes(capture);
        self.unsnapshotted =
            Unsnapshotted::new(capture, &self.rebuilder.textures, self.restores_samples);
    }

    /// Compiles the frames under `policy` instead of the recorded one.
    pub fn with_policy(mut self, policy: CompilePolicy) -> Self {
        self.policy = policy;
        self
    }

    /// The replay's state of the texture with `key`.
    pub fn texture(&self, key: TextureKey) -> &Arc<TextureState> {
        self.rebuilder.texture(key)
    }

    /// The replay's state of the buffer with `key`.
    pub fn buffer(&self, key: BufferKey) -> &Arc<BufferState> {
        self.rebuilder.buffer(key)
    }

    /// A rebuilder of this replay's frames, to run ahead of [`Self::submit_frame`] (on another
    /// thread): its frames must be submitted in the order it rebuilt them, and no frame of the
    /// same replay through [`Self::replay_frame`] (both number the game's readbacks from the
    /// same count).
    pub fn rebuilder(&self) -> Rebuilder {
        self.rebuilder.clone()
    }

    /// The samples the last replayed span of the query with `key` counted, once the GPU has
    /// produced it (`None` while it has not; never waits): what `OcclusionQuery.PixelCount`
    /// answered in the live run.
    pub fn query_result(
        &self,
        backend: &mut dyn Backend,
        key: QueryKey,
    ) -> Result<Option<u64>, BackendError> {
        backend.query_result(self.rebuilder.queries[key as usize].native())
    }

    /// Replays one frame: each of its flushes rebuilt, then compiled and submitted in order.
    pub fn replay_frame(
        &mut self,
        backend: &mut dyn Backend,
        capture: &Capture,
        frame: &CapturedFrame,
    ) -> Result<FrameTimes, BackendError> {
        let rebuilt = self.rebuilder.frame(capture, frame);
        self.submit_frame(backend, rebuilt)
    }

    /// Compiles and submits a rebuilt frame's flushes in order (frames in the order they were
    /// captured: each compile starts from the state the previous submission left).
    pub fn submit_frame(
        &mut self,
        backend: &mut dyn Backend,
        frame: RebuiltFrame,
    ) -> Result<FrameTimes, BackendError> {
        let mut times = FrameTimes { rebuild: frame.rebuild, ..FrameTimes::default() };
        self.readbacks.extend(frame.readbacks);
        let mut flushes = frame.flushes;
        if let Some(first) = flushes.first_mut().filter(|_| !self.restore.is_empty()) {
            let restore = std::mem::take(&mut self.restore);
            first.open_cycle = first.open_cycle.map(|i| i + restore.len());
            first.nodes.splice(0..0, restore);
        }
        for (commands, queries) in flushes.into_iter().zip(frame.queries) {
            // A query's new span replaces the count of its last: read that one first.
            if self.pending_counts.iter().any(|p| queries.spans.contains(&p.query)) {
                self.read_counts(backend, &queries.spans)?;
            }
            let (submission, t) = self.submit(backend, commands, Some(frame.number))?;
            for (query, recorded) in queries.counts {
                self.pending_counts.push(PendingCount {
                    query,
                    frame: frame.number,
                    recorded,
                    submission,
                });
            }
            times.compile += t.compile;
            times.wait += t.wait;
            times.submit += t.submit;
            times.submission = Some(submission);
        }
        Ok(times)
    }

    /// One flush on the engine's path ([`crate::flush`]); a flush of captured frame `frame` is
    /// checked against what the snapshot lacks before it waits or submits.
    fn submit(
        &mut self,
        backend: &mut dyn Backend,
        mut commands: FrameCommands,
        frame: Option<u64>,
    ) -> Result<(SubmissionId, FrameTimes), BackendError> {
        // A capture does not say whether its device merged runs of draws; a replay merges, as
        // a device does by default (`DeviceOptions::auto_instancing`). The pixels are the same.
        commands.merge_instances = true;
        // Nor whether it shared transient memory; a replay shares, as a device does by default
        // (`DeviceOptions::transient_aliasing`). The pixels are the same.
        commands.alias_transients = true;
        let mut path = ReplayFlush {
            backend,
            back_buffer: self.rebuilder.texture(0),
            unsnapshotted: frame.map(|f| (&mut self.unsnapshotted, f)),
        };
        let flushed = crate::flush::flush(&mut path, commands, self.policy, frame.unwrap_or(0));
        let FlushTimes { compile, wait, submit } = flushed.times;
        let times = FrameTimes { compile, wait, submit, ..FrameTimes::default() };
        Ok((flushed.submitted?, times))
    }

    /// Reads back a whole level of a texture (layer `layer`, every slice), after everything
    /// replayed so far.
    pub fn read_back(
        &mut self,
        backend: &mut dyn Backend,
        key: TextureKey,
        level: u32,
        layer: u32,
    ) -> Result<Vec<u8>, BackendError> {
        self.read_back_image(backend, key, Image::Color, level, layer)
    }

    /// Reads back the depth/stencil content of texture `key` (a single-sample render target
    /// with a depth format) in the encoding of [`depth_stencil_size`], after everything
    /// replayed so far.
    pub fn read_back_depth(
        &mut self,
        backend: &mut dyn Backend,
        key: TextureKey,
    ) -> Result<Vec<u8>, BackendError> {
        self.read_back_image(backend, key, Image::DepthStencil, 0, 0)
    }

    /// Reads back every sample of layer `layer` of texture `key` (a multisampled render target)
    /// as the sample planes of [`sample_planes_size`], after everything replayed so far.
    pub fn read_back_samples(
        &mut self,
        backend: &mut dyn Backend,
        key: TextureKey,
        layer: u32,
    ) -> Result<Vec<u8>, BackendError> {
        self.read_back_image(backend, key, Image::Samples, 0, layer)
    }

    fn read_back_image(
        &mut self,
        backend: &mut dyn Backend,
        key: TextureKey,
        image: Image,
        level: u32,
        layer: u32,
    ) -> Result<Vec<u8>, BackendError> {
        let texture = self.texture(key).clone();
        let (w, h) = texture.desc().level_size(level);
        self.next_readback += 1;
        let id = ReadbackId(self.next_readback);
        let readback = Readback {
            id,
            texture: texture.clone(),
            level,
            layer,
            rect: Rect::new(0, 0, w as i32, h as i32),
            slices: Slices { front: 0, back: texture.desc().level_depth(level) },
            image,
        };
        let commands =
            FrameCommands { nodes: vec![Node::Readback(readback)], ..FrameCommands::default() };
        let (submission, _) = self.submit(backend, commands, None)?;
        backend.waiter().wait_for(submission)?;
        backend.wait(submission)?;
        backend
            .take_readback(id)
            .ok_or_else(|| BackendError::Native("the backend returned no readback".into()))
    }

    /// Reads back the whole content of buffer `key`, after everything replayed so far.
    pub fn read_back_buffer(
        &mut self,
        backend: &mut dyn Backend,
        key: BufferKey,
    ) -> Result<Vec<u8>, BackendError> {
        let buffer = self.buffer(key).clone();
        self.next_readback += 1;
        let id = ReadbackId(self.next_readback);
        let len = buffer.desc().size;
        let readback = BufferReadback { id, buffer, offset: 0, len };
        let commands = FrameCommands {
            nodes: vec![Node::BufferReadback(readback)],
            ..FrameCommands::default()
        };
        let (submission, _) = self.submit(backend, commands, None)?;
        backend.waiter().wait_for(submission)?;
        backend.wait(submission)?;
        backend
            .take_readback(id)
            .ok_or_else(|| BackendError::Native("the backend returned no readback".into()))
    }

    /// Reads back the replay's count of every pending span of `queries` (waiting for their
    /// submissions) into [`Self::query_checks`].
    fn read_counts(
        &mut self,
        backend: &mut dyn Backend,
        queries: &[QueryKey],
    ) -> Result<(), BackendError> {
        let (due, rest): (Vec<_>, Vec<_>) =
            self.pending_counts.drain(..).partition(|p| queries.contains(&p.query));
        self.pending_counts = rest;
        for p in due {
            backend.waiter().wait_for(p.submission)?;
            backend.wait(p.submission)?;
            let replayed = self.query_result(backend, p.query)?.ok_or_else(|| {
                BackendError::Native(format!("query {} has no count after its span", p.query))
            })?;
            self.query_checks.push(QueryCheck {
                query: p.query,
                frame: p.frame,
                recorded: p.recorded,
                replayed,
            });
        }
        Ok(())
    }

    /// Every live occlusion query count the file holds against the replay's count of the same
    /// span, for the spans replayed and read so far (each is read before the query's next span
    /// is submitted, waiting for the GPU then, and at [`Self::finish`]).
    pub fn query_checks(&self) -> &[QueryCheck] {
        &self.query_checks
    }

    /// Waits for every submission, reads the counts of the spans still pending, and drops the
    /// bytes of the game's own readbacks.
    pub fn finish(&mut self, backend: &mut dyn Backend) -> Result<(), BackendError> {
        backend.wait_idle()?;
        let pending: Vec<_> = self.pending_counts.iter().map(|p| p.query).collect();
        self.read_counts(backend, &pending)?;
        for id in self.readbacks.drain(..) {
            backend.take_readback(id);
        }
        Ok(())
    }
}

/// How a replay's flush reaches the backend it owns.
struct ReplayFlush<'a> {
    backend: &'a mut dyn Backend,
    back_buffer: &'a Arc<TextureState>,
    /// What the snapshot lacks, and the captured frame the flush belongs to.
    unsnapshotted: Option<(&'a mut Unsnapshotted, u64)>,
}

impl FlushBackend for ReplayFlush<'_> {
    type Error = BackendError;

    fn present_target(&mut self) -> Result<crate::PresentTarget, BackendError> {
        self.backend.present_target(self.back_buffer)
    }

    fn compiled(&mut self, plan: &crate::FramePlan) -> Result<(), BackendError> {
        match &mut self.unsnapshotted {
            Some((unsnapshotted, frame)) => unsnapshotted.check(plan, *frame),
            None => Ok(()),
        }
    }

    fn submit_blocker(&mut self) -> Result<Option<SubmissionId>, BackendError> {
        Ok(self.backend.submit_blocker())
    }

    fn wait_for(&mut self, submission: SubmissionId) -> Result<(), BackendError> {
        self.backend.waiter().wait_for(submission)
    }

    fn submit(&mut self, plan: &crate::FramePlan) -> Result<SubmissionId, BackendError> {
        self.backend.submit(plan)
    }
}
