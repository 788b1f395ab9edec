//! Runs operations on a real device: the resources of a sequence by slot, and each operation
//! as the xnagraph calls [`Op::rust`](super::ops::Op::rust) prints.
//!
//! In: a device's options and one operation at a time. Out: the engine's [`Outcome`] (a
//! readback's texels, bytes or indices; a query's answer; or the `XnaError`). Nothing here
//! judges the outcome: that is the model's job.

use bytemuck::{Pod, Zeroable};
use xnagraph::{
    AlphaTestEffect, BackendKind, BasicEffect, BlendState, BufferUsage, ClearOptions, Color,
    CompilePolicy, DepthFormat, DepthStencilState, DeviceOptions, DualTextureEffect,
    DynamicVertexBuffer, GraphicsDevice, GraphicsProfile, IndexBuffer, IndexElementSize, Matrix,
    OcclusionQuery, PresentationParameters, PrimitiveType, RasterizerState, Rectangle,
    RenderTarget2D, RenderTargetBinding, RenderTargetUsage, SamplerState, SetDataOptions,
    SpriteBatch, SpriteEffects, SpriteSortMode, SurfaceFormat, Texture2D, Vector2, Vector3,
    VertexBuffer, VertexDeclaration, VertexElement, VertexElementFormat, VertexElementUsage,
    VertexPositionColor, VertexType,
};

use super::model::{texel_color, Outcome, Value};
use super::ops::*;

/// The fuzzer's vertex: position, colour and two sets of texture coordinates (32 bytes), so
/// that every stock effect finds what it reads.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct QuadVertex {
    pub position: Vector3,
    pub color: Color,
    pub uv0: Vector2,
    pub uv1: Vector2,
}

impl VertexType for QuadVertex {
    fn vertex_declaration() -> VertexDeclaration {
        use VertexElementFormat as F;
        use VertexElementUsage as U;
        VertexDeclaration::new(&[
            VertexElement::new(0, F::Vector3, U::Position, 0),
            VertexElement::new(12, F::Color, U::Color, 0),
            VertexElement::new(16, F::Vector2, U::TextureCoordinate, 0),
            VertexElement::new(24, F::Vector2, U::TextureCoordinate, 1),
        ])
        .expect("a valid declaration")
    }
}

/// The vertex on the grid at (x/8, y/8, z/4) (the `qv` of a printed sequence).
pub fn qv(x: i8, y: i8, z: u8, c: Color, u: u8, v: u8) -> QuadVertex {
    let uv = Vector2::new(f32::from(u), f32::from(v));
    QuadVertex {
        position: Vector3::new(f32::from(x) / 8.0, f32::from(y) / 8.0, f32::from(z) / 4.0),
        color: c,
        uv0: uv,
        uv1: uv,
    }
}

/// `n` texels of `color` (with `pattern`, a distinct colour each; the `texels` of a printed
/// sequence).
pub fn texels(color: Color, pattern: bool, n: usize) -> Vec<Color> {
    let c = Rgba([color.r, color.g, color.b, color.a]);
    (0..n)
        .map(|i| {
            let [r, g, b, a] = texel_color(c, pattern, i).0;
            Color::new(r, g, b, a)
        })
        .collect()
}

/// The same vertices as `VertexPositionColor` (no texture coordinates).
pub fn positions_only(vertices: &[QuadVertex]) -> Vec<VertexPositionColor> {
    vertices.iter().map(|v| VertexPositionColor { position: v.position, color: v.color }).collect()
}

fn color(c: Rgba) -> Color {
    let [r, g, b, a] = c.0;
    Color::new(r, g, b, a)
}

fn rect(r: R) -> Rectangle {
    Rectangle::new(r.x, r.y, r.w, r.h)
}

fn vertex(v: &V) -> QuadVertex {
    qv(v.x, v.y, v.z, color(v.c), v.u, v.v)
}

enum Vb {
    Static(VertexBuffer),
    Dynamic(DynamicVertexBuffer),
}

impl Vb {
    fn buffer(&self) -> &VertexBuffer {
        match self {
            Vb::Static(b) => b,
            Vb::Dynamic(b) => b.as_vertex_buffer(),
        }
    }
}

enum Fx {
    Basic(Box<BasicEffect>),
    AlphaTest(AlphaTestEffect),
    Dual(DualTextureEffect),
}

/// How a device is made for a run.
#[derive(Clone, Copy, Debug)]
pub struct DeviceSetup {
    pub backend: BackendKind,
    pub validation: bool,
    pub policy: CompilePolicy,
}

/// The device of a run (the back buffer [`BACK_BUFFER`], HiDef, DONT_CARE content poisoned,
/// culling off) and the resources in each slot. Resources drop before the device.
pub struct Live {
    textures: Vec<Option<Texture2D>>,
    targets: Vec<Option<RenderTarget2D>>,
    vbs: Vec<Option<Vb>>,
    ibs: Vec<Option<IndexBuffer>>,
    effects: Vec<Option<Fx>>,
    queries: Vec<Option<OcclusionQuery>>,
    batch: SpriteBatch,
    pub device: GraphicsDevice,
}

/// The lines that set a device up as [`Live::new`] does, for a printed sequence.
pub const PROLOGUE: &str = "let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, \
    PresentationParameters { back_buffer_width: 48, back_buffer_height: 32, \
    ..Default::default() }, DeviceOptions { poison_undefined: true, validation: true, \
    ..Default::default() }).unwrap();\n\
    device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();\n\
    let mut batch = SpriteBatch::new(&device).unwrap();";

impl Live {
    pub fn new(setup: DeviceSetup) -> xnagraph::Result<Live> {
        let params = PresentationParameters {
            back_buffer_width: BACK_BUFFER.0,
            back_buffer_height: BACK_BUFFER.1,
            ..PresentationParameters::default()
        };
        let options = DeviceOptions {
            backend: setup.backend,
            validation: setup.validation,
            compile_policy: setup.policy,
            poison_undefined: true,
            ..DeviceOptions::default()
        };
        let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options)?;
        device.set_rasterizer_state(RasterizerState::CULL_NONE)?;
        let batch = SpriteBatch::new(&device)?;
        Ok(Live {
            textures: (0..TEXTURES).map(|_| None).collect(),
            targets: (0..TARGETS).map(|_| None).collect(),
            vbs: (0..VERTEX_BUFFERS).map(|_| None).collect(),
            ibs: (0..INDEX_BUFFERS).map(|_| None).collect(),
            effects: (0..EFFECTS).map(|_| None).collect(),
            queries: (0..QUERIES).map(|_| None).collect(),
            batch,
            device,
        })
    }

    fn tex(&self, t: Tex) -> Option<&Texture2D> {
        match t {
            Tex::T(i) => self.textures[i as usize].as_ref(),
            Tex::Rt(i) => self.targets[i as usize].as_deref(),
        }
    }

    /// Runs `op` (which the model did not skip, so every slot it names is full).
    pub fn exec(&mut self, op: &Op) -> Outcome {
        let unit = |r: xnagraph::Result<()>| r.map(|_| Value::Unit);
        let d = &self.device;
        match op {
            Op::CreateTexture { slot, width, height, mipmap } => {
                let t = Texture2D::with_format(d, *width, *height, *mipmap, SurfaceFormat::Color)?;
                self.textures[*slot as usize] = Some(t);
                Ok(Value::Unit)
            }
            Op::CreateTarget { slot, width, height, mipmap, depth, preserve } => {
                let t = RenderTarget2D::with_options(
                    d,
                    *width,
                    *height,
                    *mipmap,
                    SurfaceFormat::Color,
                    if *depth { DepthFormat::Depth24 } else { DepthFormat::None },
                    0,
                    if *preserve {
                        RenderTargetUsage::PreserveContents
                    } else {
                        RenderTargetUsage::DiscardContents
                    },
                )?;
                self.targets[*slot as usize] = Some(t);
                Ok(Value::Unit)
            }
            Op::CreateVertexBuffer { slot, vertices, dynamic, write_only } => {
                let usage = if *write_only { BufferUsage::WriteOnly } else { BufferUsage::None };
                let decl = QuadVertex::vertex_declaration();
                let b = if *dynamic {
                    Vb::Dynamic(DynamicVertexBuffer::new(d, &decl, *vertices, usage)?)
                } else {
                    Vb::Static(VertexBuffer::new(d, &decl, *vertices, usage)?)
                };
                self.vbs[*slot as usize] = Some(b);
                Ok(Value::Unit)
            }
            Op::CreateIndexBuffer { slot, indices, write_only } => {
                let usage = if *write_only { BufferUsage::WriteOnly } else { BufferUsage::None };
                let b = IndexBuffer::new(d, IndexElementSize::SixteenBits, *indices, usage)?;
                self.ibs[*slot as usize] = Some(b);
                Ok(Value::Unit)
            }
            Op::CreateEffect { slot, kind } => {
                let e = match kind {
                    EffectKind::Basic => Fx::Basic(Box::new(BasicEffect::new(d)?)),
                    EffectKind::AlphaTest => Fx::AlphaTest(AlphaTestEffect::new(d)?),
                    EffectKind::DualTexture => Fx::Dual(DualTextureEffect::new(d)?),
                };
                self.effects[*slot as usize] = Some(e);
                Ok(Value::Unit)
            }
            Op::CreateQuery { slot } => {
                self.queries[*slot as usize] = Some(OcclusionQuery::new(d)?);
                Ok(Value::Unit)
            }
            Op::SetTexels { tex, level, rect: r, color: c, pattern, elem, len, start, count } => {
                let t = self.tex(*tex).expect("a texture");
                let r = r.map(rect);
                unit(match elem {
                    Elem::Color => t.set_data_region(
                        *level,
                        r,
                        &texels(color(*c), *pattern, *len),
                        *start,
                        *count,
                    ),
                    Elem::U16 => t.set_data_region(*level, r, &vec![0u16; *len], *start, *count),
                    Elem::Bytes3 => {
                        t.set_data_region(*level, r, &vec![[0u8; 3]; *len], *start, *count)
                    }
                })
            }
            Op::GetTexels { tex, level, rect: r, len, start, count } => {
                let t = self.tex(*tex).expect("a texture");
                let mut data = vec![Color::TRANSPARENT; *len];
                t.get_data_region(*level, r.map(rect), &mut data, *start, *count)?;
                Ok(texel_value(&data[*start..start + count]))
            }
            Op::GetBackBuffer { rect: r, count } => {
                let mut data = vec![Color::TRANSPARENT; *count];
                d.get_back_buffer_data(r.map(rect), &mut data, 0, *count)?;
                Ok(texel_value(&data))
            }
            Op::SetVertices { slot, offset, vertices, start, count, stride, discard } => {
                let data: Vec<QuadVertex> = vertices.iter().map(vertex).collect();
                unit(match self.vbs[*slot as usize].as_ref().expect("a buffer") {
                    Vb::Dynamic(b) => {
                        let options =
                            if *discard { SetDataOptions::Discard } else { SetDataOptions::None };
                        b.set_data_with_options(*offset, &data, *start, *count, *stride, options)
                    }
                    Vb::Static(b) => b.set_data_full(*offset, &data, *start, *count, *stride),
                })
            }
            Op::GetVertices { slot, offset, count, stride } => {
                let b = self.vbs[*slot as usize].as_ref().expect("a buffer").buffer();
                let mut data = vec![QuadVertex::default(); *count];
                b.get_data_full(*offset, &mut data, 0, *count, *stride)?;
                Ok(Value::Bytes(bytemuck::cast_slice(&data).to_vec()))
            }
            Op::SetIndices { slot, offset, indices, start, count, wide } => {
                let b = self.ibs[*slot as usize].as_ref().expect("a buffer");
                unit(if *wide {
                    let data: Vec<u32> = indices.iter().map(|i| u32::from(*i)).collect();
                    b.set_data_full(*offset, &data, *start, *count)
                } else {
                    b.set_data_full(*offset, indices, *start, *count)
                })
            }
            Op::GetIndices { slot, offset, count } => {
                let b = self.ibs[*slot as usize].as_ref().expect("a buffer");
                let mut data = vec![0u16; *count];
                b.get_data_full(*offset, &mut data, 0, *count)?;
                Ok(Value::Indices(data))
            }
            Op::BindTargets { slots } => {
                let targets: Vec<&RenderTarget2D> = slots
                    .iter()
                    .map(|s| self.targets[*s as usize].as_ref().expect("a target"))
                    .collect();
                unit(match targets.as_slice() {
                    [] => d.set_render_target(None),
                    [one] => d.set_render_target(Some(one)),
                    many => {
                        let bindings: Vec<RenderTargetBinding> =
                            many.iter().map(|t| RenderTargetBinding::from(*t)).collect();
                        d.set_render_targets(&bindings)
                    }
                })
            }
            Op::BindVertexBuffer { slot: None, .. } => unit(d.set_vertex_buffer(None)),
            Op::BindVertexBuffer { slot: Some(s), offset } => {
                let b = self.vbs[*s as usize].as_ref().expect("a buffer").buffer();
                unit(d.set_vertex_buffer_with_offset(b, *offset))
            }
            Op::BindIndexBuffer { slot } => {
                let b = slot.map(|s| self.ibs[s as usize].as_ref().expect("a buffer"));
                unit(d.set_indices(b))
            }
            Op::Clear { color: c } => unit(d.clear(color(*c))),
            Op::ClearWith { color: c, depth } => {
                let mut options = ClearOptions::empty();
                if c.is_some() {
                    options |= ClearOptions::TARGET;
                }
                if depth.is_some() {
                    options |= ClearOptions::DEPTH_BUFFER;
                }
                let floats = color(c.unwrap_or(Rgba::BLACK)).to_floats();
                unit(d.clear_with(options, floats, f32::from(depth.unwrap_or(4)) / 4.0, 0))
            }
            Op::SetDepthTest { on } => unit(d.set_depth_stencil_state(if *on {
                DepthStencilState::DEFAULT
            } else {
                DepthStencilState::NONE
            })),
            Op::SpriteBegin { immediate, depth_test } => unit(self.batch.begin_with(
                if *immediate { SpriteSortMode::Immediate } else { SpriteSortMode::Deferred },
                Some(BlendState::OPAQUE),
                Some(SamplerState::POINT_CLAMP),
                Some(if *depth_test {
                    DepthStencilState::DEFAULT
                } else {
                    DepthStencilState::NONE
                }),
                Some(RasterizerState::CULL_NONE),
                None,
            )),
            Op::SpriteDraw { tex, rect: r, tint, depth } => {
                let t = match *tex {
                    Tex::T(i) => self.textures[i as usize].as_ref(),
                    Tex::Rt(i) => self.targets[i as usize].as_deref(),
                }
                .expect("a texture");
                unit(self.batch.draw_rect_ex(
                    t,
                    rect(*r),
                    None,
                    color(*tint),
                    0.0,
                    Vector2::ZERO,
                    SpriteEffects::NONE,
                    f32::from(*depth) / 4.0,
                ))
            }
            Op::SpriteEnd => unit(self.batch.end()),
            Op::EffectTexture { effect, second, tex } => {
                let t = tex.map(|t| match t {
                    Tex::T(i) => self.textures[i as usize].as_ref(),
                    Tex::Rt(i) => self.targets[i as usize].as_deref(),
                });
                let t = t.map(|t| t.expect("a texture"));
                match self.effects[*effect as usize].as_mut().expect("an effect") {
                    Fx::Basic(e) => e.set_texture(t),
                    Fx::AlphaTest(e) => e.set_texture(t),
                    Fx::Dual(e) if *second => e.set_texture2(t),
                    Fx::Dual(e) => e.set_texture(t),
                }
                Ok(Value::Unit)
            }
            Op::EffectDiffuse { effect, rgb } => {
                let v = Vector3::new(
                    f32::from(rgb[0]) / 255.0,
                    f32::from(rgb[1]) / 255.0,
                    f32::from(rgb[2]) / 255.0,
                );
                match self.effects[*effect as usize].as_mut().expect("an effect") {
                    Fx::Basic(e) => e.diffuse_color = v,
                    Fx::AlphaTest(e) => e.diffuse_color = v,
                    Fx::Dual(e) => e.diffuse_color = v,
                }
                Ok(Value::Unit)
            }
            Op::EffectWorld { effect, dx, dy } => {
                let m = Matrix::create_translation(f32::from(*dx) / 8.0, f32::from(*dy) / 8.0, 0.0);
                match self.effects[*effect as usize].as_mut().expect("an effect") {
                    Fx::Basic(e) => e.world = m,
                    Fx::AlphaTest(e) => e.world = m,
                    Fx::Dual(e) => e.world = m,
                }
                Ok(Value::Unit)
            }
            Op::EffectFlags { effect, texture, vertex_color } => {
                match self.effects[*effect as usize].as_mut().expect("an effect") {
                    Fx::Basic(e) => {
                        e.texture_enabled = *texture;
                        e.vertex_color_enabled = *vertex_color;
                    }
                    Fx::AlphaTest(e) => e.vertex_color_enabled = *vertex_color,
                    Fx::Dual(e) => e.vertex_color_enabled = *vertex_color,
                }
                Ok(Value::Unit)
            }
            Op::EffectReferenceAlpha { effect, value } => {
                if let Some(Fx::AlphaTest(e)) = self.effects[*effect as usize].as_mut() {
                    e.reference_alpha = *value;
                }
                Ok(Value::Unit)
            }
            Op::Apply { effect } => {
                unit(match self.effects[*effect as usize].as_ref().expect("an effect") {
                    Fx::Basic(e) => e.current_technique().passes()[0].apply(),
                    Fx::AlphaTest(e) => e.current_technique().passes()[0].apply(),
                    Fx::Dual(e) => e.current_technique().passes()[0].apply(),
                })
            }
            Op::DrawUser { vertices, offset, primitives, positions_only: only } => {
                let data: Vec<QuadVertex> = vertices.iter().map(vertex).collect();
                let strip = PrimitiveType::TriangleStrip;
                unit(if *only {
                    d.draw_user_primitives(strip, &positions_only(&data), *offset, *primitives)
                } else {
                    d.draw_user_primitives(strip, &data, *offset, *primitives)
                })
            }
            Op::DrawPrimitives { start, primitives } => {
                unit(d.draw_primitives(PrimitiveType::TriangleStrip, *start, *primitives))
            }
            Op::DrawIndexed { base, min, num, start, primitives } => {
                unit(d.draw_indexed_primitives(
                    PrimitiveType::TriangleList,
                    *base,
                    *min,
                    *num,
                    *start,
                    *primitives,
                ))
            }
            Op::QueryBegin { slot } => unit(self.query(*slot).begin()),
            Op::QueryEnd { slot } => unit(self.query(*slot).end()),
            Op::QueryComplete { slot } => self.query(*slot).is_complete().map(Value::Bool),
            Op::QueryPixels { slot } => self.query(*slot).pixel_count().map(Value::Count),
            Op::Dispose { res } => {
                match res {
                    Res::Texture(i) => self.textures[*i as usize].as_ref().expect("full").dispose(),
                    Res::Target(i) => {
                        self.targets[*i as usize].as_ref().expect("full").dispose()?
                    }
                    Res::VertexBuffer(i) => {
                        self.vbs[*i as usize].as_ref().expect("full").buffer().dispose()
                    }
                    Res::IndexBuffer(i) => self.ibs[*i as usize].as_ref().expect("full").dispose(),
                    Res::Query(i) => self.query(*i).dispose(),
                    Res::Effect(_) => unreachable!("effects have no Dispose"),
                }
                Ok(Value::Unit)
            }
            Op::Drop { res } => {
                match res {
                    Res::Texture(i) => drop(self.textures[*i as usize].take()),
                    Res::Target(i) => drop(self.targets[*i as usize].take()),
                    Res::VertexBuffer(i) => drop(self.vbs[*i as usize].take()),
                    Res::IndexBuffer(i) => drop(self.ibs[*i as usize].take()),
                    Res::Effect(i) => drop(self.effects[*i as usize].take()),
                    Res::Query(i) => drop(self.queries[*i as usize].take()),
                }
                Ok(Value::Unit)
            }
            Op::Present => unit(d.present()),
            Op::Flush => unit(d.flush()),
        }
    }

    fn query(&self, slot: u8) -> &OcclusionQuery {
        self.queries[slot as usize].as_ref().expect("a query")
    }
}

fn texel_value(data: &[Color]) -> Value {
    Value::Texels(data.iter().map(|c| [c.r, c.g, c.b, c.a]).collect())
}
