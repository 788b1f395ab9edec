//! Rebuilding a capture's recorded frames as [`FrameCommands`] over a replay's own states: the
//! replay's counterpart of the game's recording.
//!
//! A [`Rebuilder`] holds the replay's textures, buffers and effects by key (shared with its
//! [`super::Replayer`]) and nothing the submission side changes, so it can run on a thread of its
//! own, a frame or two ahead of the compile and submission, as a game records the next frame while
//! the engine's render thread submits the last one ([`super::Replayer::rebuilder`],
//! [`super::Replayer::submit_frame`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::reader::{Capture, CapturedFrame};
use super::record::*;
use crate::buffer::BufferState;
use crate::commands::*;
use crate::custom::{CustomDraw, CustomSampler, CustomStage};
use crate::effect::EffectState;
use crate::geometry::{GeometryDraw, IndexSource, VertexSource};
use crate::plan::Image;
use crate::query::{QueryOp, QueryState};
use crate::resource::TextureState;

/// One captured frame rebuilt: its flushes as commands, and the game's readbacks it holds.
#[derive(Debug)]
pub struct RebuiltFrame {
    /// The device frame it was captured as.
    pub number: u64,
    /// Its flushes, in order.
    pub flushes: Vec<FrameCommands>,
    /// The occlusion queries of each flush, beside [`Self::flushes`].
    pub queries: Vec<FlushQueries>,
    /// The ids of the game's readbacks in them (their bytes are dropped at the replay's end).
    pub readbacks: Vec<ReadbackId>,
    /// The CPU time the rebuild took.
    pub rebuild: Duration,
}

/// The occlusion queries of one rebuilt flush.
#[derive(Debug, Default)]
pub struct FlushQueries {
    /// The queries the flush begins a span of.
    pub spans: Vec<QueryKey>,
    /// The counts the live run read of spans in the flush: (query, `PixelCount`).
    pub counts: Vec<(QueryKey, u64)>,
}

/// Rebuilds captured frames over a replay's states (see the module documentation).
#[derive(Clone)]
pub struct Rebuilder {
    pub(super) textures: Vec<Arc<TextureState>>,
    pub(super) buffers: Vec<Arc<BufferState>>,
    pub(super) effects: Vec<Arc<EffectState>>,
    pub(super) geometry_effects: Vec<Arc<EffectState>>,
    pub(super) queries: Vec<Arc<QueryState>>,
    /// Readback ids of the game's readbacks: from 1, below [`OWN_READBACKS`].
    pub(super) next_readback: u64,
    readbacks: Vec<ReadbackId>,
}

/// The first readback id of the replay's own readbacks ([`super::Replayer::read_back`]), far
/// above any count of the game's, so that a rebuilder running ahead never takes one.
pub const OWN_READBACKS: u64 = 1 << 62;

impl Rebuilder {
    pub(super) fn new(
        textures: Vec<Arc<TextureState>>,
        buffers: Vec<Arc<BufferState>>,
        effects: Vec<Arc<EffectState>>,
        geometry_effects: Vec<Arc<EffectState>>,
        queries: Vec<Arc<QueryState>>,
    ) -> Self {
        Rebuilder {
            textures,
            buffers,
            effects,
            geometry_effects,
            queries,
            next_readback: 0,
            readbacks: Vec::new(),
        }
    }

    /// The replay's state of the texture with `key`.
    pub fn texture(&self, key: TextureKey) -> &Arc<TextureState> {
        &self.textures[key as usize]
    }

    /// The replay's state of the buffer with `key`.
    pub fn buffer(&self, key: BufferKey) -> &Arc<BufferState> {
        &self.buffers[key as usize]
    }

    /// Every flush of `frame` as commands.
    pub fn frame(&mut self, capture: &Capture, frame: &CapturedFrame) -> RebuiltFrame {
        let start = Instant::now();
        let flushes = frame.flushes.iter().map(|f| self.flush(capture, f)).collect();
        let position = capture.frames.iter().position(|f| std::ptr::eq(f, frame));
        let queries = frame
            .flushes
            .iter()
            .enumerate()
            .map(|(i, flush)| FlushQueries {
                spans: spanned_queries(flush),
                counts: capture
                    .query_results
                    .iter()
                    .filter(|r| Some(r.frame) == position && r.flush == i)
                    .map(|r| (r.query, r.pixel_count))
                    .collect(),
            })
            .collect();
        RebuiltFrame {
            number: frame.number,
            flushes,
            queries,
            readbacks: std::mem::take(&mut self.readbacks),
            rebuild: start.elapsed(),
        }
    }

    /// An upload node of blob `blob` into region `r`.
    pub fn upload(&self, capture: &Capture, r: &Region, blob: BlobId) -> Node {
        Node::Upload(Upload {
            texture: self.texture(r.texture).clone(),
            level: r.level,
            layer: r.layer,
            rect: r.rect,
            slices: r.slices,
            image: Image::Color,
            data: capture.blobs[blob as usize].clone(),
        })
    }

    /// An upload node restoring every sample (the sample planes of blob `blob`) of layer
    /// `layer` of texture `key`.
    pub fn samples_upload(
        &self,
        capture: &Capture,
        key: TextureKey,
        layer: u32,
        blob: BlobId,
    ) -> Node {
        let texture = self.texture(key).clone();
        let (w, h) = texture.desc().level_size(0);
        Node::Upload(Upload {
            texture,
            level: 0,
            layer,
            rect: crate::Rect::new(0, 0, w as i32, h as i32),
            slices: crate::Slices::FLAT,
            image: Image::Samples,
            data: capture.blobs[blob as usize].clone(),
        })
    }

    /// An upload node restoring the depth/stencil content (blob `blob`) of texture `key`.
    pub fn depth_upload(&self, capture: &Capture, key: TextureKey, blob: BlobId) -> Node {
        let texture = self.texture(key).clone();
        let (w, h) = texture.desc().level_size(0);
        Node::Upload(Upload {
            texture,
            level: 0,
            layer: 0,
            rect: crate::Rect::new(0, 0, w as i32, h as i32),
            slices: crate::Slices::FLAT,
            image: Image::DepthStencil,
            data: capture.blobs[blob as usize].clone(),
        })
    }

    /// A flush record as commands over this replay's states.
    pub fn flush(&mut self, capture: &Capture, flush: &FlushRecord) -> FrameCommands {
        let nodes = flush.nodes.iter().map(|n| self.node(capture, n)).collect();
        FrameCommands {
            nodes,
            sprites: capture.sprites(flush).into(),
            geometry_bytes: flush
                .geometry
                .map_or_else(Vec::new, |g| capture.blobs[g as usize].clone()),
            open_cycle: flush.open_cycle.map(|i| i as usize),
            ..FrameCommands::default()
        }
    }

    fn node(&mut self, capture: &Capture, node: &NodeRecord) -> Node {
        match node {
            NodeRecord::Pass { colors, start, ops } => Node::Pass(PassSegment {
                colors: colors
                    .iter()
                    .map(|&(t, layer)| ColorBinding { target: self.texture(t).clone(), layer })
                    .collect(),
                start: *start,
                ops: ops.iter().map(|op| self.op(op)).collect(),
            }),
            NodeRecord::Upload { region, blob } => self.upload(capture, region, *blob),
            NodeRecord::Readback(r) => {
                self.next_readback += 1;
                let id = ReadbackId(self.next_readback);
                self.readbacks.push(id);
                Node::Readback(Readback {
                    id,
                    texture: self.texture(r.texture).clone(),
                    level: r.level,
                    layer: r.layer,
                    rect: r.rect,
                    slices: r.slices,
                    image: Image::Color,
                })
            }
            NodeRecord::Present(t) => Node::Present(self.texture(*t).clone()),
            NodeRecord::BufferUpload { buffer, offset, blob, options } => {
                Node::BufferUpload(BufferUpload {
                    buffer: self.buffer(*buffer).clone(),
                    offset: *offset,
                    data: capture.blobs[*blob as usize].clone(),
                    options: *options,
                })
            }
            NodeRecord::BufferReadback { buffer, offset, len } => {
                self.next_readback += 1;
                let id = ReadbackId(self.next_readback);
                self.readbacks.push(id);
                Node::BufferReadback(BufferReadback {
                    id,
                    buffer: self.buffer(*buffer).clone(),
                    offset: *offset,
                    len: *len,
                })
            }
        }
    }

    fn op(&self, op: &OpRecord) -> PassOp {
        match op {
            OpRecord::Clear(clear) => PassOp::Clear(*clear),
            OpRecord::Draw(d) => PassOp::Draw(self.draw(d, None)),
            OpRecord::Geometry(d, g) => PassOp::Draw(self.draw(d, Some(self.geometry(g)))),
            OpRecord::Query { query, begin } => PassOp::Query(QueryOp {
                query: self.queries[*query as usize].clone(),
                begin: *begin,
            }),
        }
    }

    fn draw(&self, d: &DrawRecord, geometry: Option<GeometryDraw>) -> Draw {
        let (shader, effect) = match d.shader {
            ShaderRecord::Sprite => (ShaderKind::Sprite, None),
            ShaderRecord::CubeSample => (ShaderKind::CubeSample, None),
            ShaderRecord::Basic => (ShaderKind::Basic, None),
            ShaderRecord::Custom(e) => {
                let effect = self.effects[e as usize].clone();
                (ShaderKind::Custom(effect.key()), Some(effect))
            }
            ShaderRecord::CustomGeometry(e) => {
                (ShaderKind::CustomGeometry(self.geometry_effects[e as usize].key()), None)
            }
        };
        Draw {
            pipeline: PipelineKey {
                shader,
                blend: d.blend,
                depth_stencil: d.depth_stencil,
                rasterizer: d.rasterizer,
            },
            sampler: d.sampler,
            // The reader checked that the count is within MAX_DRAW_TEXTURES.
            textures: DrawTextures {
                first: self.texture(d.texture).clone(),
                more: d.more_textures.iter().map(|&t| self.texture(t).clone()).collect(),
            },
            effect,
            first_sprite: d.first_sprite,
            sprite_count: d.sprite_count,
            viewport: d.viewport,
            scissor: d.scissor,
            transform: d.transform,
            geometry: geometry.map(Box::new),
        }
    }

    fn geometry(&self, g: &GeometryRecord) -> GeometryDraw {
        let streams = g
            .streams
            .iter()
            .map(|s| match *s {
                StreamRecord::Buffer { buffer, offset } => {
                    VertexSource::Buffer { buffer: self.buffer(buffer).clone(), offset }
                }
                StreamRecord::User { start, end } => VertexSource::User(start..end),
            })
            .collect();
        let indices = g.indices.as_ref().map(|ix| IndexSource {
            buffer: ix.buffer.map(|b| self.buffer(b).clone()),
            user: ix.user.0..ix.user.1,
            element_size: ix.element_size,
        });
        GeometryDraw {
            layout: g.layout.clone(),
            primitive: g.primitive,
            streams,
            indices,
            call: g.call,
            instances: g.instances,
            material: g.material,
            texture2: g.texture2.map(|(t, sampler)| (self.texture(t).clone(), sampler)),
            bones: g.bones.clone(),
            custom: g.custom.as_ref().map(|c| {
                Box::new(CustomDraw {
                    effect: self.geometry_effects[c.effect as usize].clone(),
                    vertex_uniforms: c.vertex_uniforms.clone(),
                    fragment_uniforms: c.fragment_uniforms.clone(),
                    samplers: c
                        .samplers
                        .iter()
                        .map(|s| CustomSampler {
                            stage: if s.vertex {
                                CustomStage::Vertex
                            } else {
                                CustomStage::Fragment
                            },
                            binding: s.binding,
                            texture: self.texture(s.texture).clone(),
                            sampler: s.sampler,
                        })
                        .collect(),
                })
            }),
            // Each repeat shares the rest of its block with the draw (checked on read).
            repeats: g
                .repeats
                .iter()
                .map(|v| crate::geometry::BasicInstance::new(&v.transform, &v.block))
                .collect(),
            repeat_values: Default::default(),
        }
    }
}

/// The queries a flush begins a span of.
fn spanned_queries(flush: &FlushRecord) -> Vec<QueryKey> {
    let mut queries = Vec::new();
    for node in &flush.nodes {
        if let NodeRecord::Pass { ops, .. } = node {
            for op in ops {
                if let OpRecord::Query { query, begin: true } = op {
                    queries.push(*query);
                }
            }
        }
    }
    queries
}
