//! The operations a sequence is made of, and how each prints as the xnagraph calls it makes.
//!
//! An operation names its resources by slot (`t0`, `rt1`, `vb2`, ...), so a sequence is plain
//! data: it can be generated, shrunk by removing operations (one on an empty slot does nothing)
//! and replayed. Geometry is on a grid that keeps every edge on a pixel boundary of every
//! target the fuzzer creates: clip-space coordinates in eighths, depths in quarters, and
//! targets whose sizes are multiples of 16. [`Op::rust`] prints the calls an operation makes as
//! Rust, so a failing sequence can be pasted into a regression test; `Debug` prints the
//! operation itself, which [`crate::sequence::run_ops`] replays.

use std::fmt::Write;

/// Texture slots.
pub const TEXTURES: usize = 4;
/// Render target slots.
pub const TARGETS: usize = 4;
/// Vertex buffer slots.
pub const VERTEX_BUFFERS: usize = 3;
/// Index buffer slots.
pub const INDEX_BUFFERS: usize = 2;
/// Effect slots.
pub const EFFECTS: usize = 3;
/// Occlusion query slots.
pub const QUERIES: usize = 2;

/// The back buffer's size: multiples of 16, like every target's.
pub const BACK_BUFFER: (i32, i32) = (48, 32);
/// The sizes targets are created with (mostly; a fault gives another).
pub const TARGET_SIZES: [(i32, i32); 4] = [(16, 16), (32, 16), (16, 32), (48, 32)];

/// A colour, R G B A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgba(pub [u8; 4]);

impl Rgba {
    /// Opaque white.
    pub const WHITE: Rgba = Rgba([255, 255, 255, 255]);
    /// Opaque black.
    pub const BLACK: Rgba = Rgba([0, 0, 0, 255]);

    fn rust(self) -> String {
        let [r, g, b, a] = self.0;
        format!("Color::new({r}, {g}, {b}, {a})")
    }
}

/// A rectangle in texels or pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct R {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl R {
    fn rust(self) -> String {
        format!("Rectangle::new({}, {}, {}, {})", self.x, self.y, self.w, self.h)
    }
}

/// A sampled texture: a `Texture2D` slot or a render target slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tex {
    /// `t{n}`.
    T(u8),
    /// `rt{n}`.
    Rt(u8),
}

impl Tex {
    fn name(self) -> String {
        match self {
            Tex::T(i) => format!("t{i}"),
            Tex::Rt(i) => format!("rt{i}"),
        }
    }
}

/// The stock effects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EffectKind {
    Basic,
    AlphaTest,
    DualTexture,
}

/// A resource slot, for disposal and drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Res {
    Texture(u8),
    Target(u8),
    VertexBuffer(u8),
    IndexBuffer(u8),
    Effect(u8),
    Query(u8),
}

impl Res {
    fn name(self) -> String {
        match self {
            Res::Texture(i) => format!("t{i}"),
            Res::Target(i) => format!("rt{i}"),
            Res::VertexBuffer(i) => format!("vb{i}"),
            Res::IndexBuffer(i) => format!("ib{i}"),
            Res::Effect(i) => format!("fx{i}"),
            Res::Query(i) => format!("q{i}"),
        }
    }
}

/// A vertex on the grid: clip-space x and y in eighths (-8..=8), depth in quarters (0..=4),
/// a colour, and texture coordinates 0 or 1 (the same for both sets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct V {
    pub x: i8,
    pub y: i8,
    pub z: u8,
    pub c: Rgba,
    pub u: u8,
    pub v: u8,
}

/// The element type of a texture `SetData`/`GetData`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// `Color` (4 bytes, the format's size).
    Color,
    /// `u16`: two per texel (a size that divides the format's).
    U16,
    /// `[u8; 3]`: a size that does not divide the format's (`Argument` on `T`).
    Bytes3,
}

/// One call (or a few calls that make one XNA step) on the device and its resources.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// `Texture2D::with_format(&device, width, height, mipmap, Color)` into a slot.
    CreateTexture { slot: u8, width: i32, height: i32, mipmap: bool },
    /// `RenderTarget2D::with_options` (Color, no multisampling) into a slot.
    CreateTarget { slot: u8, width: i32, height: i32, mipmap: bool, depth: bool, preserve: bool },
    /// `VertexBuffer::new` or `DynamicVertexBuffer::new` of
    /// [`QuadVertex`](super::exec::QuadVertex).
    CreateVertexBuffer { slot: u8, vertices: i32, dynamic: bool, write_only: bool },
    /// `IndexBuffer::new` of 16-bit indices.
    CreateIndexBuffer { slot: u8, indices: i32, write_only: bool },
    /// A stock effect.
    CreateEffect { slot: u8, kind: EffectKind },
    /// `OcclusionQuery::new`.
    CreateQuery { slot: u8 },
    /// `set_data_region(level, rect, data, start, count)` with `data` of `len` elements, each
    /// texel `color` (or, with `pattern`, a distinct colour per texel).
    SetTexels {
        tex: Tex,
        level: i32,
        rect: Option<R>,
        color: Rgba,
        pattern: bool,
        elem: Elem,
        len: usize,
        start: usize,
        count: usize,
    },
    /// `get_data_region(level, rect, data, start, count)` into `len` elements of `Color`.
    GetTexels { tex: Tex, level: i32, rect: Option<R>, len: usize, start: usize, count: usize },
    /// `get_back_buffer_data(rect, data, 0, count)` into `count` colours.
    GetBackBuffer { rect: Option<R>, count: usize },
    /// `set_data_full(offset, vertices, start, count, stride)` (a dynamic buffer:
    /// `set_data_with_options`, `discard` choosing `Discard` over `None`).
    SetVertices {
        slot: u8,
        offset: i32,
        vertices: Vec<V>,
        start: usize,
        count: usize,
        stride: i32,
        discard: bool,
    },
    /// `get_data_full(offset, data, 0, count, stride)` of `QuadVertex`.
    GetVertices { slot: u8, offset: i32, count: usize, stride: i32 },
    /// `set_data_full(offset, indices, start, count)`; `wide` gives `u32` to a 16-bit buffer.
    SetIndices { slot: u8, offset: i32, indices: Vec<u16>, start: usize, count: usize, wide: bool },
    /// `get_data_full(offset, data, 0, count)` of `u16`.
    GetIndices { slot: u8, offset: i32, count: usize },
    /// `set_render_target(None)` (empty), `set_render_target(Some(..))` (one) or
    /// `set_render_targets` (several).
    BindTargets { slots: Vec<u8> },
    /// `set_vertex_buffer(None)` or `set_vertex_buffer_with_offset(vb, offset)`.
    BindVertexBuffer { slot: Option<u8>, offset: i32 },
    /// `set_indices`.
    BindIndexBuffer { slot: Option<u8> },
    /// `clear(color)`.
    Clear { color: Rgba },
    /// `clear_with(options, color, depth, 0)`: the colour aspect when `color` is some, the
    /// depth aspect when `depth` (in quarters) is some.
    ClearWith { color: Option<Rgba>, depth: Option<u8> },
    /// `set_depth_stencil_state(DEFAULT or NONE)`.
    SetDepthTest { on: bool },
    /// `begin_with(Deferred or Immediate, OPAQUE, POINT_CLAMP, DEFAULT or NONE, CULL_NONE)`.
    SpriteBegin { immediate: bool, depth_test: bool },
    /// `draw_rect_ex(tex, rect, None, tint, 0, 0, NONE, depth / 4)`.
    SpriteDraw { tex: Tex, rect: R, tint: Rgba, depth: u8 },
    /// `end()`.
    SpriteEnd,
    /// `set_texture` (`second`: `set_texture2` of a DualTextureEffect).
    EffectTexture { effect: u8, second: bool, tex: Option<Tex> },
    /// `diffuse_color = rgb / 255`.
    EffectDiffuse { effect: u8, rgb: [u8; 3] },
    /// `world = Matrix::create_translation(dx / 8, dy / 8, 0)`.
    EffectWorld { effect: u8, dx: i8, dy: i8 },
    /// BasicEffect's `texture_enabled` and any effect's `vertex_color_enabled`.
    EffectFlags { effect: u8, texture: bool, vertex_color: bool },
    /// AlphaTestEffect's `reference_alpha` (function `Greater`).
    EffectReferenceAlpha { effect: u8, value: u8 },
    /// `current_technique().passes()[0].apply()`.
    Apply { effect: u8 },
    /// `draw_user_primitives(TriangleStrip, vertices, offset, primitives)` of `QuadVertex`
    /// (`positions_only`: of `VertexPositionColor`, which lacks texture coordinates).
    DrawUser { vertices: Vec<V>, offset: i32, primitives: i32, positions_only: bool },
    /// `draw_primitives(TriangleStrip, start, primitives)`.
    DrawPrimitives { start: i32, primitives: i32 },
    /// `draw_indexed_primitives(TriangleList, base, min, num, start, primitives)`.
    DrawIndexed { base: i32, min: i32, num: i32, start: i32, primitives: i32 },
    /// `OcclusionQuery::begin`.
    QueryBegin { slot: u8 },
    /// `OcclusionQuery::end`.
    QueryEnd { slot: u8 },
    /// `OcclusionQuery::is_complete`.
    QueryComplete { slot: u8 },
    /// `OcclusionQuery::pixel_count`.
    QueryPixels { slot: u8 },
    /// `dispose()`.
    Dispose { res: Res },
    /// `drop(..)`: the slot is emptied.
    Drop { res: Res },
    /// `present()`.
    Present,
    /// `flush()`.
    Flush,
}

fn opt_rect(rect: Option<R>) -> String {
    rect.map_or("None".to_owned(), |r| format!("Some({})", r.rust()))
}

fn vertex_list(vertices: &[V]) -> String {
    let mut s = String::from("&[");
    for (i, v) in vertices.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "qv({}, {}, {}, {}, {}, {})", v.x, v.y, v.z, v.c.rust(), v.u, v.v);
    }
    s.push(']');
    s
}

impl Op {
    /// The xnagraph calls this operation makes, as Rust (`qv(x, y, z, color, u, v)` builds a
    /// vertex on the grid, `texels(color, pattern, n)` `n` texels; both are in
    /// [`crate::sequence::exec`]).
    pub fn rust(&self) -> String {
        match self {
            Op::CreateTexture { slot, width, height, mipmap } => format!(
                "let t{slot} = Texture2D::with_format(&device, {width}, {height}, {mipmap}, \
                 SurfaceFormat::Color);"
            ),
            Op::CreateTarget { slot, width, height, mipmap, depth, preserve } => format!(
                "let rt{slot} = RenderTarget2D::with_options(&device, {width}, {height}, {mipmap}, \
                 SurfaceFormat::Color, DepthFormat::{}, 0, RenderTargetUsage::{});",
                if *depth { "Depth24" } else { "None" },
                if *preserve { "PreserveContents" } else { "DiscardContents" }
            ),
            Op::CreateVertexBuffer { slot, vertices, dynamic, write_only } => format!(
                "let vb{slot} = {}::new(&device, &QuadVertex::vertex_declaration(), {vertices}, \
                 BufferUsage::{});",
                if *dynamic { "DynamicVertexBuffer" } else { "VertexBuffer" },
                if *write_only { "WriteOnly" } else { "None" }
            ),
            Op::CreateIndexBuffer { slot, indices, write_only } => format!(
                "let ib{slot} = IndexBuffer::new(&device, IndexElementSize::SixteenBits, \
                 {indices}, BufferUsage::{});",
                if *write_only { "WriteOnly" } else { "None" }
            ),
            Op::CreateEffect { slot, kind } => {
                format!("let mut fx{slot} = {kind:?}Effect::new(&device);")
            }
            Op::CreateQuery { slot } => format!("let q{slot} = OcclusionQuery::new(&device);"),
            Op::SetTexels { tex, level, rect, color, pattern, elem, len, start, count } => {
                let data = match elem {
                    Elem::Color => format!("&texels({}, {pattern}, {len})", color.rust()),
                    Elem::U16 => format!("&vec![0u16; {len}]"),
                    Elem::Bytes3 => format!("&vec![[0u8; 3]; {len}]"),
                };
                format!(
                    "{}.set_data_region({level}, {}, {data}, {start}, {count});",
                    tex.name(),
                    opt_rect(*rect)
                )
            }
            Op::GetTexels { tex, level, rect, len, start, count } => format!(
                "{}.get_data_region({level}, {}, &mut vec![Color::TRANSPARENT; {len}], {start}, \
                 {count});",
                tex.name(),
                opt_rect(*rect)
            ),
            Op::GetBackBuffer { rect, count } => format!(
                "device.get_back_buffer_data({}, &mut vec![Color::TRANSPARENT; {count}], 0, \
                 {count});",
                opt_rect(*rect)
            ),
            Op::SetVertices { slot, offset, vertices, start, count, stride, discard } => {
                let list = vertex_list(vertices);
                if *discard {
                    format!(
                        "vb{slot}.set_data_with_options({offset}, {list}, {start}, {count}, \
                         {stride}, SetDataOptions::Discard);"
                    )
                } else {
                    format!("vb{slot}.set_data_full({offset}, {list}, {start}, {count}, {stride});")
                }
            }
            Op::GetVertices { slot, offset, count, stride } => format!(
                "vb{slot}.get_data_full({offset}, &mut vec![QuadVertex::default(); {count}], 0, \
                 {count}, {stride});"
            ),
            Op::SetIndices { slot, offset, indices, start, count, wide } => format!(
                "ib{slot}.set_data_full({offset}, &{}{indices:?}, {start}, {count});",
                if *wide { "[u32]" } else { "" }
            ),
            Op::GetIndices { slot, offset, count } => {
                format!("ib{slot}.get_data_full({offset}, &mut vec![0u16; {count}], 0, {count});")
            }
            Op::BindTargets { slots } => match slots.as_slice() {
                [] => "device.set_render_target(None);".to_owned(),
                [one] => format!("device.set_render_target(Some(&rt{one}));"),
                many => {
                    let list: Vec<String> =
                        many.iter().map(|s| format!("(&rt{s}).into()")).collect();
                    format!("device.set_render_targets(&[{}]);", list.join(", "))
                }
            },
            Op::BindVertexBuffer { slot: None, .. } => "device.set_vertex_buffer(None);".to_owned(),
            Op::BindVertexBuffer { slot: Some(s), offset } => {
                format!("device.set_vertex_buffer_with_offset(&vb{s}, {offset});")
            }
            Op::BindIndexBuffer { slot } => match slot {
                None => "device.set_indices(None);".to_owned(),
                Some(s) => format!("device.set_indices(Some(&ib{s}));"),
            },
            Op::Clear { color } => format!("device.clear({});", color.rust()),
            Op::ClearWith { color, depth } => {
                let mut options = Vec::new();
                if color.is_some() {
                    options.push("ClearOptions::TARGET");
                }
                if depth.is_some() {
                    options.push("ClearOptions::DEPTH_BUFFER");
                }
                let options = if options.is_empty() {
                    "ClearOptions::empty()".to_owned()
                } else {
                    options.join(" | ")
                };
                format!(
                    "device.clear_with({options}, {}.to_floats(), {}, 0);",
                    color.unwrap_or(Rgba::BLACK).rust(),
                    f32::from(depth.unwrap_or(4)) / 4.0
                )
            }
            Op::SetDepthTest { on } => format!(
                "device.set_depth_stencil_state(DepthStencilState::{});",
                if *on { "DEFAULT" } else { "NONE" }
            ),
            Op::SpriteBegin { immediate, depth_test } => format!(
                "batch.begin_with(SpriteSortMode::{}, Some(BlendState::OPAQUE), \
                 Some(SamplerState::POINT_CLAMP), Some(DepthStencilState::{}), \
                 Some(RasterizerState::CULL_NONE), None);",
                if *immediate { "Immediate" } else { "Deferred" },
                if *depth_test { "DEFAULT" } else { "NONE" }
            ),
            Op::SpriteDraw { tex, rect, tint, depth } => format!(
                "batch.draw_rect_ex(&{}, {}, None, {}, 0.0, Vector2::ZERO, SpriteEffects::NONE, \
                 {});",
                tex.name(),
                rect.rust(),
                tint.rust(),
                f32::from(*depth) / 4.0
            ),
            Op::SpriteEnd => "batch.end();".to_owned(),
            Op::EffectTexture { effect, second, tex } => format!(
                "fx{effect}.set_texture{}({});",
                if *second { "2" } else { "" },
                tex.map_or("None".to_owned(), |t| format!("Some(&{})", t.name()))
            ),
            Op::EffectDiffuse { effect, rgb: [r, g, b] } => format!(
                "fx{effect}.diffuse_color = Vector3::new({r} as f32 / 255.0, {g} as f32 / 255.0, \
                 {b} as f32 / 255.0);"
            ),
            Op::EffectWorld { effect, dx, dy } => format!(
                "fx{effect}.world = Matrix::create_translation({} as f32 / 8.0, {} as f32 / 8.0, \
                 0.0);",
                dx, dy
            ),
            Op::EffectFlags { effect, texture, vertex_color } => format!(
                "fx{effect}.texture_enabled = {texture}; fx{effect}.vertex_color_enabled = \
                 {vertex_color};"
            ),
            Op::EffectReferenceAlpha { effect, value } => {
                format!("fx{effect}.reference_alpha = {value};")
            }
            Op::Apply { effect } => format!("fx{effect}.current_technique().passes()[0].apply();"),
            Op::DrawUser { vertices, offset, primitives, positions_only } => {
                let list = vertex_list(vertices);
                let list = if *positions_only { format!("&positions_only({list})") } else { list };
                format!(
                    "device.draw_user_primitives(PrimitiveType::TriangleStrip, {list}, {offset}, \
                     {primitives});"
                )
            }
            Op::DrawPrimitives { start, primitives } => format!(
                "device.draw_primitives(PrimitiveType::TriangleStrip, {start}, {primitives});"
            ),
            Op::DrawIndexed { base, min, num, start, primitives } => format!(
                "device.draw_indexed_primitives(PrimitiveType::TriangleList, {base}, {min}, \
                 {num}, {start}, {primitives});"
            ),
            Op::QueryBegin { slot } => format!("q{slot}.begin();"),
            Op::QueryEnd { slot } => format!("q{slot}.end();"),
            Op::QueryComplete { slot } => format!("q{slot}.is_complete();"),
            Op::QueryPixels { slot } => format!("q{slot}.pixel_count();"),
            Op::Dispose { res } => format!("{}.dispose();", res.name()),
            Op::Drop { res } => format!("drop({});", res.name()),
            Op::Present => "device.present();".to_owned(),
            Op::Flush => "device.flush();".to_owned(),
        }
    }

    /// A short name of the operation's kind, for summaries and for telling findings apart.
    pub fn kind(&self) -> &'static str {
        match self {
            Op::CreateTexture { .. } => "CreateTexture",
            Op::CreateTarget { .. } => "CreateTarget",
            Op::CreateVertexBuffer { .. } => "CreateVertexBuffer",
            Op::CreateIndexBuffer { .. } => "CreateIndexBuffer",
            Op::CreateEffect { .. } => "CreateEffect",
            Op::CreateQuery { .. } => "CreateQuery",
            Op::SetTexels { .. } => "SetTexels",
            Op::GetTexels { .. } => "GetTexels",
            Op::GetBackBuffer { .. } => "GetBackBuffer",
            Op::SetVertices { .. } => "SetVertices",
            Op::GetVertices { .. } => "GetVertices",
            Op::SetIndices { .. } => "SetIndices",
            Op::GetIndices { .. } => "GetIndices",
            Op::BindTargets { .. } => "BindTargets",
            Op::BindVertexBuffer { .. } => "BindVertexBuffer",
            Op::BindIndexBuffer { .. } => "BindIndexBuffer",
            Op::Clear { .. } => "Clear",
            Op::ClearWith { .. } => "ClearWith",
            Op::SetDepthTest { .. } => "SetDepthTest",
            Op::SpriteBegin { .. } => "SpriteBegin",
            Op::SpriteDraw { .. } => "SpriteDraw",
            Op::SpriteEnd => "SpriteEnd",
            Op::EffectTexture { .. } => "EffectTexture",
            Op::EffectDiffuse { .. } => "EffectDiffuse",
            Op::EffectWorld { .. } => "EffectWorld",
            Op::EffectFlags { .. } => "EffectFlags",
            Op::EffectReferenceAlpha { .. } => "EffectReferenceAlpha",
            Op::Apply { .. } => "Apply",
            Op::DrawUser { .. } => "DrawUser",
            Op::DrawPrimitives { .. } => "DrawPrimitives",
            Op::DrawIndexed { .. } => "DrawIndexed",
            Op::QueryBegin { .. } => "QueryBegin",
            Op::QueryEnd { .. } => "QueryEnd",
            Op::QueryComplete { .. } => "QueryComplete",
            Op::QueryPixels { .. } => "QueryPixels",
            Op::Dispose { .. } => "Dispose",
            Op::Drop { .. } => "Drop",
            Op::Present => "Present",
            Op::Flush => "Flush",
        }
    }
}

/// A whole sequence as Rust calls, one per line, numbered.
pub fn listing(ops: &[Op]) -> String {
    let mut s = String::new();
    for (i, op) in ops.iter().enumerate() {
        let _ = writeln!(s, "/* {i:3} */ {}", op.rust());
    }
    s
}
