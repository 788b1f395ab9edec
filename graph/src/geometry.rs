//! Geometry draws: what `DrawPrimitives` and its family record.
//!
//! A geometry draw is a [`crate::Draw`] whose [`crate::Draw::geometry`] is set: the draw's
//! pipeline key, sampler, texture, viewport, scissor and transform mean what they mean for a
//! sprite draw, and [`GeometryDraw`] adds where its vertices and indices come from, how they are
//! laid out, the primitive topology and the counts. Everything here is plain data (no native
//! handle apart from the buffers' `Arc`s), so any backend can lower it and a frame capture can
//! serialise it.
//!
//! Vertices come from vertex buffers ([`VertexSource::Buffer`]: the draw holds the buffer, and
//! the compiler orders the draw after earlier writes of the bytes it reads) or from the frame's
//! geometry arena ([`VertexSource::User`], `DrawUserPrimitives`: the bytes were copied at the
//! call into [`crate::FrameCommands::geometry_bytes`]).

use std::ops::Range;
use std::sync::Arc;

use crate::buffer::BufferState;

mod basic;
mod stock;
pub use basic::*;
pub use stock::*;

/// XNA's `PrimitiveType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum PrimitiveType {
    /// `TriangleList`: each three vertices are one triangle.
    TriangleList,
    /// `TriangleStrip`: each vertex after the first two makes a triangle with the two before it.
    TriangleStrip,
    /// `LineList`: each two vertices are one line.
    LineList,
    /// `LineStrip`: each vertex after the first makes a line with the one before it.
    LineStrip,
}

impl PrimitiveType {
    /// How many vertices (or indices) `primitives` primitives of this type take.
    pub fn vertex_count(self, primitives: u32) -> u64 {
        let n = u64::from(primitives);
        match self {
            PrimitiveType::TriangleList => n * 3,
            PrimitiveType::TriangleStrip => n + 2,
            PrimitiveType::LineList => n * 2,
            PrimitiveType::LineStrip => n + 1,
        }
    }
}

/// How one vertex attribute is stored (XNA's `VertexElementFormat`, as a backend reads it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
#[allow(missing_docs)] // Each name is the storage it reads.
pub enum VertexFormat {
    Float1,
    Float2,
    Float3,
    Float4,
    /// Four bytes normalised to [0, 1] (XNA's `Color`).
    UByte4Norm,
    UByte4,
    Short2,
    Short4,
    Short2Norm,
    Short4Norm,
    Half2,
    Half4,
}

/// The attribute locations the stock geometry shaders read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Attribute {
    /// Location 0: position (XNA's `Position0`).
    Position = 0,
    /// Location 1: vertex colour (`Color0`).
    Color = 1,
    /// Location 2: texture coordinate (`TextureCoordinate0`).
    TextureCoordinate = 2,
    /// Location 3: normal (`Normal0`), read by BasicEffect's lighting.
    Normal = 3,
    /// Location 4: second texture coordinate (`TextureCoordinate1`), read by DualTextureEffect.
    TextureCoordinate1 = 4,
    /// Location 5: the bones that move the vertex (`BlendIndices0`, four bytes read as
    /// unsigned integers), read by SkinnedEffect.
    BlendIndices = 5,
    /// Location 6: each bone's weight (`BlendWeight0`), read by SkinnedEffect.
    BlendWeight = 6,
}

/// How many attribute locations the stock geometry shaders read.
pub const ATTRIBUTES: usize = 7;

/// Where one attribute is read from: a binding (index into [`VertexLayout::bindings`]), its
/// storage and its byte offset in the vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub struct AttributeSource {
    /// The vertex stream.
    pub binding: u8,
    /// Storage format.
    pub format: VertexFormat,
    /// Byte offset in the vertex.
    pub offset: u32,
}

/// One vertex stream's stride and step rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub struct BindingLayout {
    /// Bytes from one vertex to the next.
    pub stride: u32,
    /// XNA's `InstanceFrequency`: 0 steps per vertex, n > 0 once per n instances.
    pub instance_frequency: u32,
}

impl BindingLayout {
    /// The elements a draw of `instances` instances reads from this per-instance stream: one
    /// per `instance_frequency` instances, the last one shared by fewer. The one rule the
    /// compiler's reads and the capture reader's checks follow.
    pub fn instance_elements(&self, instances: u32) -> u64 {
        u64::from(instances).div_ceil(u64::from(self.instance_frequency.max(1)))
    }
}

/// The vertex layout of a draw: part of its pipeline. An attribute that is `None` is read by
/// the shader as its default (white colour, texture coordinates 0, normal +z) from a constant
/// stream the backend provides.
#[derive(Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub struct VertexLayout {
    /// One per vertex stream, in binding order.
    pub bindings: Vec<BindingLayout>,
    /// Per [`Attribute`] location.
    pub attributes: [Option<AttributeSource>; ATTRIBUTES],
    /// A custom geometry effect's inputs instead (`attributes` then all `None`): each input's
    /// location and where it is read; every input has a source.
    pub custom: Vec<(u32, AttributeSource)>,
}

impl Clone for VertexLayout {
    fn clone(&self) -> Self {
        VertexLayout {
            bindings: self.bindings.clone(),
            attributes: self.attributes,
            custom: self.custom.clone(),
        }
    }

    /// Field by field, so that a layout copied into a spare geometry box reuses its lists.
    fn clone_from(&mut self, source: &Self) {
        self.bindings.clone_from(&source.bindings);
        self.attributes = source.attributes;
        self.custom.clone_from(&source.custom);
    }
}

/// Where one vertex stream's bytes are.
#[derive(Clone, Debug)]
pub enum VertexSource {
    /// A vertex buffer, from byte `offset` (held so it outlives the submission).
    Buffer {
        /// The buffer read.
        buffer: Arc<BufferState>,
        /// Byte offset of vertex 0 of the stream.
        offset: u64,
    },
    /// Bytes copied into [`crate::FrameCommands::geometry_bytes`] at this range.
    User(Range<u64>),
}

/// Where a draw's indices are.
#[derive(Clone, Debug)]
pub struct IndexSource {
    /// A buffer (held), or `None` for indices in the frame's geometry arena at `user`.
    pub buffer: Option<Arc<BufferState>>,
    /// The arena range of user indices (empty with a buffer).
    pub user: Range<u64>,
    /// 2 or 4 bytes per index.
    pub element_size: u8,
}

/// What is drawn: vertices in order, or indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum DrawCall {
    /// `vertex_count` vertices from `first_vertex`.
    Vertices {
        /// First vertex of each stream.
        first_vertex: u32,
        /// How many.
        vertex_count: u32,
    },
    /// `index_count` indices from `first_index`, each added to `base_vertex`; they are promised
    /// to lie in `min_vertex..min_vertex + vertex_span` (XNA's `minVertexIndex`, `numVertices`).
    Indexed {
        /// Added to every index.
        base_vertex: i32,
        /// The first index read.
        first_index: u32,
        /// How many indices.
        index_count: u32,
        /// The lowest vertex an index names (relative to `base_vertex`).
        min_vertex: u32,
        /// How many vertices from `min_vertex` the indices may name.
        vertex_span: u32,
    },
}

/// [`GeometryDraw::can_repeat`] of a draw's parts (which a capture's record holds too).
pub(crate) fn repeatable(
    custom: bool,
    shader: StockShader,
    instances: u32,
    bones: &[[f32; 4]],
    layout: &VertexLayout,
) -> bool {
    !custom
        && shader == StockShader::Basic
        && instances == 1
        && bones.is_empty()
        && layout.bindings.iter().all(|b| b.instance_frequency == 0)
}

/// A geometry draw's sources and counts (see the module doc).
#[derive(Clone, Debug)]
pub struct GeometryDraw {
    /// Layout of the vertex streams (part of the pipeline).
    pub layout: VertexLayout,
    /// The primitive topology (part of the pipeline).
    pub primitive: PrimitiveType,
    /// One source per binding of `layout`.
    pub streams: Vec<VertexSource>,
    /// The index buffer of an indexed draw.
    pub indices: Option<IndexSource>,
    /// What is drawn.
    pub call: DrawCall,
    /// Instances drawn (1 outside instancing).
    pub instances: u32,
    /// The effect's shader pair and uniform values.
    pub material: StockMaterial,
    /// The second texture a `DualTextureEffect` samples (set 2, binding 1) with its sampler
    /// (`SamplerStates[1]`), held like [`crate::Draw::textures`]: its `Texture2`, or an
    /// `EnvironmentMapEffect`'s cube map; `None` for the other stock effects.
    pub texture2: Option<(Arc<crate::TextureState>, crate::SamplerState)>,
    /// A `SkinnedEffect`'s bones, three vec4 rows each (the first three columns of each bone's
    /// XNA matrix, as XNA uploads 4×3 matrices), bound to the vertex stage as a second uniform
    /// block (set 1, binding 1) rather than grown into every stock draw's block; empty for the
    /// other effects.
    pub bones: Vec<[f32; 4]>,
    /// A custom geometry effect's program and values (the pipeline key's shader is then
    /// [`crate::ShaderKind::CustomGeometry`]); `None` for the stock effects.
    pub custom: Option<Box<crate::custom::CustomDraw>>,
    /// The same draw again, once per entry, in order after this one, each with its own
    /// transform and values ([`BasicInstance`]; the rest of its block is this draw's): a run of
    /// draws that differ in nothing but their stock effect's values of a draw's own, recorded
    /// as one draw ([`GeometryDraw::can_repeat`]) while the device merges such runs
    /// ([`crate::FrameCommands::merge_instances`]). The draw and its repeats are drawn as one
    /// instanced draw ([`crate::compile::instances`]). Empty for every other draw.
    pub repeats: Vec<BasicInstance>,
    /// More repeats, after those of [`GeometryDraw::repeats`], as the recording's merge keeps
    /// them: each draw's BasicEffect values as `Apply` took them, not yet derived, so that the
    /// game's thread only copies them. No stage of the compiler reads a repeat's values, so
    /// they stay here until the backend writes the run's instances: it derives each where the
    /// GPU reads it ([`GeometryDraw::repeat_instances`]), with no list of instances between.
    /// A capture derives them into `repeats` first ([`crate::FrameCommands::derive_repeats`]).
    pub repeat_values: RepeatValues,
}

/// Repeats of a draw kept as BasicEffect's values of each draw
/// ([`GeometryDraw::repeat_values`]), with the one basis they are all derived with.
#[derive(Clone, Debug, Default)]
pub struct RepeatValues {
    /// View, Projection, ambient light and fog of every repeat here (`Some` while `values` is
    /// not empty).
    pub basis: Option<Arc<BasicRunBasis>>,
    /// Each repeat's values, in draw order.
    pub values: Vec<BasicDrawValues>,
}

impl RepeatValues {
    /// How many repeats.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Each repeat's instance, in draw order, derived ([`BasicRunBasis::instance`]) as it is
    /// asked for: no list of instances is made.
    pub fn instances(&self) -> impl Iterator<Item = BasicInstance> + '_ {
        // Values are kept only under a basis (`None` leaves none to derive).
        let values = if self.basis.is_some() { &self.values[..] } else { &[] };
        values.iter().filter_map(|v| Some(self.basis.as_deref()?.instance(v)))
    }
}

/// A draw of nothing: no streams, no vertices, the default material.
impl Default for GeometryDraw {
    fn default() -> Self {
        GeometryDraw {
            layout: VertexLayout::default(),
            primitive: PrimitiveType::TriangleList,
            streams: Vec::new(),
            indices: None,
            call: DrawCall::Vertices { first_vertex: 0, vertex_count: 0 },
            instances: 1,
            material: StockMaterial::default(),
            texture2: None,
            bones: Vec::new(),
            custom: None,
            repeats: Vec::new(),
            repeat_values: RepeatValues::default(),
        }
    }
}

impl GeometryDraw {
    /// Makes this the draw of nothing ([`GeometryDraw::default`]), dropping what it holds (its
    /// buffers, textures, custom program) but keeping its lists' capacity: a spare box that a
    /// later frame's draw is written into ([`crate::FrameBuilder::spare_geometry`]) without
    /// allocating.
    pub fn empty(&mut self) {
        let mut bindings = std::mem::take(&mut self.layout.bindings);
        let mut custom = std::mem::take(&mut self.layout.custom);
        let mut streams = std::mem::take(&mut self.streams);
        let mut bones = std::mem::take(&mut self.bones);
        let mut repeats = std::mem::take(&mut self.repeats);
        let mut values = std::mem::take(&mut self.repeat_values.values);
        bindings.clear();
        custom.clear();
        streams.clear();
        bones.clear();
        repeats.clear();
        values.clear();
        *self = GeometryDraw {
            layout: VertexLayout { bindings, custom, ..VertexLayout::default() },
            streams,
            bones,
            repeats,
            repeat_values: RepeatValues { basis: None, values },
            ..GeometryDraw::default()
        };
    }

    /// Whether this draw can be one of a run drawn as one instanced draw, one instance per draw
    /// ([`crate::compile::instances`]), and so carry [`GeometryDraw::repeats`]: a BasicEffect
    /// draw (the one stock effect with an instanced stage pair) of one instance, whose vertex
    /// streams are all per vertex (no instance data of its own).
    pub fn can_repeat(&self) -> bool {
        let custom = self.custom.is_some();
        repeatable(custom, self.material.shader, self.instances, &self.bones, &self.layout)
    }

    /// Draws this draw makes: itself and each repeat.
    pub fn draws(&self) -> u32 {
        1 + self.repeats.len() as u32 + self.repeat_values.len() as u32
    }

    /// Every repeat's instance, in draw order: [`GeometryDraw::repeats`], then those of
    /// [`GeometryDraw::repeat_values`] ([`RepeatValues::instances`]).
    pub fn repeat_instances(&self) -> impl Iterator<Item = BasicInstance> + '_ {
        self.repeats.iter().copied().chain(self.repeat_values.instances())
    }

    /// Derives the instance of each of [`GeometryDraw::repeat_values`] into
    /// [`GeometryDraw::repeats`], after those there, and empties it.
    pub fn derive_repeats(&mut self) {
        self.repeats.extend(self.repeat_values.instances());
        self.repeat_values.basis = None;
        self.repeat_values.values.clear();
    }

    /// The byte range of each buffer-sourced stream the draw reads, with its buffer: the
    /// vertices it draws, or for an indexed draw everything from the stream's offset to the
    /// end of the buffer (indices are read on the GPU, so the vertices they name are not known
    /// here; XNA's `minVertexIndex` and `numVertices` are a promise the compiler does not rely
    /// on, as a GPU's validation of indexed draws does not).
    pub fn vertex_reads(&self) -> impl Iterator<Item = (&Arc<BufferState>, Range<u64>)> {
        self.streams.iter().zip(&self.layout.bindings).filter_map(|(s, b)| {
            let VertexSource::Buffer { buffer, offset } = s else { return None };
            let stride = u64::from(b.stride);
            let size = buffer.desc().size;
            let range = match self.call {
                DrawCall::Indexed { .. } => *offset..size,
                _ if b.instance_frequency > 0 => {
                    let n = b.instance_elements(self.instances);
                    *offset..offset + n * stride
                }
                DrawCall::Vertices { first_vertex, vertex_count } => {
                    let begin = offset + u64::from(first_vertex) * stride;
                    begin..begin + u64::from(vertex_count) * stride
                }
            };
            let end = range.end.min(size);
            Some((buffer, range.start.min(end)..end))
        })
    }

    /// The byte range of the index buffer the draw reads, with the buffer.
    pub fn index_read(&self) -> Option<(&Arc<BufferState>, Range<u64>)> {
        let (DrawCall::Indexed { first_index, index_count, .. }, Some(ix)) =
            (self.call, &self.indices)
        else {
            return None;
        };
        let buffer = ix.buffer.as_ref()?;
        let size = u64::from(ix.element_size);
        let begin = u64::from(first_index) * size;
        Some((buffer, begin..begin + u64::from(index_count) * size))
    }
}
