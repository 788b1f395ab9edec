//! The capture's records of a frame's commands: each node, draw, geometry draw and custom
//! draw with its resources named by the file's keys (each resource's creation record written
//! the first time a command names it).

use std::borrow::Cow;
use std::io::Write;

use super::super::record::*;
use super::{CaptureWriter, Sources};
use crate::commands::{Draw, Node, PassOp, ShaderKind};
use crate::custom::{CustomDraw, CustomStage};
use crate::geometry::{GeometryDraw, VertexSource};

impl<W: Write> CaptureWriter<W> {
    /// `node` with keys; `data`, when given, is the upload's bytes taken out of it.
    pub(super) fn node(
        &mut self,
        node: &Node,
        data: Option<Vec<u8>>,
        sources: Sources,
    ) -> std::io::Result<NodeRecord> {
        fn bytes_of(data: Option<Vec<u8>>, recorded: &[u8]) -> Cow<'_, [u8]> {
            data.map_or(Cow::Borrowed(recorded), Cow::Owned)
        }
        Ok(match node {
            Node::Pass(segment) => {
                let mut colors = Vec::with_capacity(segment.colors.len());
                for c in &segment.colors {
                    colors.push((self.texture(&c.target)?, c.layer));
                }
                let mut ops = Vec::with_capacity(segment.ops.len());
                for op in &segment.ops {
                    ops.push(match op {
                        PassOp::Clear(clear) => OpRecord::Clear(*clear),
                        PassOp::Query(q) => {
                            OpRecord::Query { query: self.query(&q.query)?, begin: q.begin }
                        }
                        PassOp::Draw(d) => {
                            let draw = self.draw(d, sources)?;
                            match &d.geometry {
                                None => OpRecord::Draw(draw),
                                Some(g) => {
                                    OpRecord::Geometry(draw, Box::new(self.geometry(g, sources)?))
                                }
                            }
                        }
                    });
                }
                NodeRecord::Pass { colors, start: segment.start, ops }
            }
            // A game records colour transfers only; depth/stencil and sample-plane ones are a
            // snapshot's and a replay's, and a flush record has no place for them.
            Node::Upload(crate::commands::Upload { image, .. })
            | Node::Readback(crate::commands::Readback { image, .. })
                if *image != crate::plan::Image::Color =>
            {
                return Err(std::io::Error::other(
                    "a depth/stencil or sample-plane transfer in a captured frame (only a \
                     snapshot holds one)",
                ));
            }
            Node::Upload(u) => {
                let bytes = bytes_of(data, &u.data);
                self.stats.raw_upload_bytes += bytes.len() as u64;
                let region = Region {
                    texture: self.texture(&u.texture)?,
                    level: u.level,
                    layer: u.layer,
                    rect: u.rect,
                    slices: u.slices,
                };
                NodeRecord::Upload { region, blob: self.blob_of(bytes)? }
            }
            Node::Readback(r) => NodeRecord::Readback(Region {
                texture: self.texture(&r.texture)?,
                level: r.level,
                layer: r.layer,
                rect: r.rect,
                slices: r.slices,
            }),
            Node::Present(t) => NodeRecord::Present(self.texture(t)?),
            Node::BufferUpload(u) => {
                let bytes = bytes_of(data, &u.data);
                self.stats.raw_upload_bytes += bytes.len() as u64;
                NodeRecord::BufferUpload {
                    buffer: self.buffer(&u.buffer, sources)?,
                    offset: u.offset,
                    blob: self.blob_of(bytes)?,
                    options: u.options,
                }
            }
            Node::BufferReadback(r) => NodeRecord::BufferReadback {
                buffer: self.buffer(&r.buffer, sources)?,
                offset: r.offset,
                len: r.len,
            },
        })
    }

    fn draw(&mut self, d: &Draw, sources: Sources) -> std::io::Result<DrawRecord> {
        Ok(DrawRecord {
            shader: match d.pipeline.shader {
                ShaderKind::Sprite => ShaderRecord::Sprite,
                ShaderKind::CubeSample => ShaderRecord::CubeSample,
                ShaderKind::Custom(key) => ShaderRecord::Custom(self.effect(key, sources)?),
                ShaderKind::Basic => ShaderRecord::Basic,
                ShaderKind::CustomGeometry(key) => {
                    ShaderRecord::CustomGeometry(self.geometry_effect(key, sources)?)
                }
            },
            blend: d.pipeline.blend,
            depth_stencil: d.pipeline.depth_stencil,
            rasterizer: d.pipeline.rasterizer,
            sampler: d.sampler,
            texture: self.texture(d.textures.first())?,
            more_textures: d
                .textures
                .iter()
                .skip(1)
                .map(|t| self.texture(t))
                .collect::<Result<_, _>>()?,
            first_sprite: d.first_sprite,
            sprite_count: d.sprite_count,
            viewport: d.viewport,
            scissor: d.scissor,
            transform: d.transform,
        })
    }

    fn geometry(&mut self, g: &GeometryDraw, sources: Sources) -> std::io::Result<GeometryRecord> {
        let mut streams = Vec::with_capacity(g.streams.len());
        for s in &g.streams {
            streams.push(match s {
                VertexSource::Buffer { buffer, offset } => {
                    StreamRecord::Buffer { buffer: self.buffer(buffer, sources)?, offset: *offset }
                }
                VertexSource::User(r) => StreamRecord::User { start: r.start, end: r.end },
            });
        }
        let indices = match &g.indices {
            None => None,
            Some(ix) => Some(IndexRecord {
                buffer: match &ix.buffer {
                    Some(b) => Some(self.buffer(b, sources)?),
                    None => None,
                },
                user: (ix.user.start, ix.user.end),
                element_size: ix.element_size,
            }),
        };
        Ok(GeometryRecord {
            layout: g.layout.clone(),
            primitive: g.primitive,
            streams,
            indices,
            call: g.call,
            instances: g.instances,
            material: g.material,
            texture2: match &g.texture2 {
                Some((t, sampler)) => Some((self.texture(t)?, *sampler)),
                None => None,
            },
            bones: g.bones.clone(),
            custom: match &g.custom {
                Some(c) => Some(self.custom_draw(c, sources)?),
                None => None,
            },
            // Whole, as the format keeps them: each repeat's block is the draw's with the
            // repeat's own values in place.
            repeats: g.repeats.iter().map(|r| r.values(&g.material.block)).collect(),
        })
    }

    fn custom_draw(
        &mut self,
        c: &CustomDraw,
        sources: Sources,
    ) -> std::io::Result<CustomDrawRecord> {
        let mut samplers = Vec::with_capacity(c.samplers.len());
        for s in &c.samplers {
            samplers.push(CustomSamplerRecord {
                vertex: s.stage == CustomStage::Vertex,
                binding: s.binding,
                texture: self.texture(&s.texture)?,
                sampler: s.sampler,
            });
        }
        Ok(CustomDrawRecord {
            effect: self.geometry_effect(c.effect.key(), sources)?,
            vertex_uniforms: c.vertex_uniforms.clone(),
            fragment_uniforms: c.fragment_uniforms.clone(),
            samplers,
        })
    }
}
