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

/// Which stock effect's shader pair draws a geometry draw (part of its pipeline).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum StockShader {
    /// `BasicEffect`: `shaders/glsl/basic.*`.
    #[default]
    Basic,
    /// `AlphaTestEffect`: `shaders/glsl/alpha_test.*`.
    AlphaTest,
    /// `DualTextureEffect`: `shaders/glsl/dual_texture.*`.
    DualTexture,
    /// `SkinnedEffect`: `shaders/glsl/skinned.vert` and BasicEffect's fragment stage; its block
    /// is BasicEffect's, its bones travel beside it ([`GeometryDraw::bones`]).
    Skinned,
    /// `EnvironmentMapEffect`: `shaders/glsl/environment_map.*`; its cube map travels as the
    /// draw's second texture ([`GeometryDraw::texture2`]).
    EnvironmentMap,
}

impl StockShader {
    /// Where the options word (`flags`, the last vec4 of the shader's uniform block) starts in
    /// [`StockMaterial::block`]: the one place that says where the engine's effect writes the
    /// options and [`StockMaterial::variant`] reads them.
    pub const fn options_at(self) -> usize {
        match self {
            // world, world_inverse_transpose, six vec4s, three lights of three vec4s.
            StockShader::Basic | StockShader::Skinned => 16 + 16 + 6 * 4 + 9 * 4,
            // diffuse, alpha_test, fog_color, fog_vector.
            StockShader::AlphaTest => 4 * 4,
            // diffuse, fog_color, fog_vector.
            StockShader::DualTexture => 3 * 4,
            // world, world_inverse_transpose, six vec4s, three lights of two vec4s.
            StockShader::EnvironmentMap => 16 + 16 + 6 * 4 + 6 * 4,
        }
    }
}

/// How a stock effect lights its surface (BasicEffect's `LightingEnabled` and
/// `PreferPerPixelLighting`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum StockLighting {
    /// The material colour only.
    #[default]
    Unlit,
    /// The three directional lights evaluated per vertex.
    PerVertex,
    /// The three directional lights evaluated per pixel.
    PerPixel,
}

/// Which of a stock effect's code paths a draw runs: part of its pipeline, decided when the
/// pipeline is made and never by a branch on a uniform value, as XNA's BasicEffect picks one of
/// its precompiled shaders from its flags. A shader's stages declare each option as a boolean
/// specialization constant ([`StockVariant::constants`]); the Vulkan backend hands them to the
/// pipeline, SDL_gpu (which has no specialization constants) gets stages frozen to them. So a
/// draw that changes only the effect's values (World, DiffuseColor) keeps its pipeline, and a
/// driver that specialises shaders on uniform values (lavapipe inlines uniforms used by
/// branches) never sees one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct StockVariant {
    /// The effect.
    pub shader: StockShader,
    /// `VertexColorEnabled`: the vertex colour multiplies the material colour.
    pub vertex_color: bool,
    /// `TextureEnabled` (BasicEffect; the other stock effects always sample).
    pub texture: bool,
    /// BasicEffect's lighting path ([`StockLighting::Unlit`] for the others).
    pub lighting: StockLighting,
    /// `FogEnabled`.
    pub fog: bool,
    /// AlphaTestEffect's `Equal`/`NotEqual` comparison (a tolerance test rather than an order).
    pub alpha_equality: bool,
    /// SkinnedEffect's `WeightsPerVertex` (1, 2 or 4; 0 for the other effects).
    pub weights_per_vertex: u8,
    /// EnvironmentMapEffect's Fresnel term (`FresnelFactor` non-zero): the cube map's share
    /// falls off with the angle between the eye and the normal.
    pub fresnel: bool,
    /// EnvironmentMapEffect's specular term (`EnvironmentMapSpecular` non-zero): the cube
    /// map's alpha times it is added.
    pub environment_specular: bool,
    /// EnvironmentMapEffect with `DirectionalLight1` and `DirectionalLight2` off: only light 0
    /// is evaluated.
    pub one_light: bool,
    /// The draw is a run of draws merged into one instanced draw
    /// ([`crate::compile::instances`]): instance `i` reads its block from a buffer of blocks,
    /// through the effect's instanced pair of stages, not from a uniform block. Chosen by the
    /// backend for a merged op; never by [`StockMaterial::variant`].
    pub instanced: bool,
}

impl StockVariant {
    /// The specialization constants of the stock stages, by `constant_id`: 0 vertex colour,
    /// 1 texture, 2 per-vertex lighting, 3 per-pixel lighting, 4 fog, 5 alpha equality, 6 two
    /// weights per vertex, 7 four weights per vertex (neither: one), 8 Fresnel, 9 environment
    /// specular, 10 one light. A stage declares the ones it reads
    /// (`shaders/glsl/stock_options.glsl`).
    pub fn constants(&self) -> [(u32, bool); 11] {
        [
            (0, self.vertex_color),
            (1, self.texture),
            (2, self.lighting == StockLighting::PerVertex),
            (3, self.lighting == StockLighting::PerPixel),
            (4, self.fog),
            (5, self.alpha_equality),
            (6, self.weights_per_vertex == 2),
            (7, self.weights_per_vertex == 4),
            (8, self.fresnel),
            (9, self.environment_specular),
            (10, self.one_light),
        ]
    }
}

/// How many floats of a stock effect's uniform block follow its transform.
pub const MATERIAL_FLOATS: usize = 96;

/// The per-draw values of a stock geometry effect: which shader pair draws, and the floats of
/// its uniform block after the transform, laid out as that shader's block declares them (std140;
/// the engine's effect that fills them and the GLSL are the two ends of one contract). The
/// same block is bound to the vertex stage (set 1) and the fragment stage (set 3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StockMaterial {
    /// The shader pair.
    pub shader: StockShader,
    /// The uniform block after the transform.
    pub block: [f32; MATERIAL_FLOATS],
}

impl StockMaterial {
    /// Whether `other` selects the same variant as this block: the same shader and the same
    /// options word, bit for bit. The variant is a function of the two, so this is the cheap
    /// form of comparing [`variant`](Self::variant)s (the engine writes each option as 0, 1 or
    /// 2, so the two tests agree on every block it makes).
    pub fn selects_same_variant(&self, other: &StockMaterial) -> bool {
        let at = self.shader.options_at();
        self.shader == other.shader
            && self.block[at..at + 4]
                .iter()
                .zip(&other.block[at..at + 4])
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }

    /// The variant the block's options word selects (see [`StockShader::options_at`]): for
    /// BasicEffect x vertex colour, y texture, z lighting (0 unlit, 1 per vertex, 2 per pixel),
    /// w fog; for AlphaTestEffect x vertex colour, y equality form, z fog; for DualTextureEffect
    /// x vertex colour, y fog; for SkinnedEffect x weights per vertex, y texture (always on), z
    /// and w as BasicEffect's; for EnvironmentMapEffect x Fresnel, y environment specular, z one
    /// light, w fog. An option the shader does not have stays off, so two draws of one
    /// effect differ in variant only where their shader can tell. Derived from the block rather
    /// than stored beside it, so a frame capture, which holds the block, replays the same
    /// variant.
    pub fn variant(&self) -> StockVariant {
        let at = self.shader.options_at();
        let on = |i: usize| self.block[at + i] != 0.0;
        let mut v = StockVariant { shader: self.shader, ..Default::default() };
        match self.shader {
            StockShader::Basic | StockShader::Skinned => {
                if self.shader == StockShader::Skinned {
                    let w = self.block[at];
                    v.weights_per_vertex = if w == 4.0 {
                        4
                    } else if w == 2.0 {
                        2
                    } else {
                        1
                    };
                } else {
                    v.vertex_color = on(0);
                }
                v.texture = on(1);
                let lighting = self.block[at + 2];
                v.lighting = if lighting == 1.0 {
                    StockLighting::PerVertex
                } else if lighting == 2.0 {
                    StockLighting::PerPixel
                } else {
                    StockLighting::Unlit
                };
                v.fog = on(3);
            }
            StockShader::AlphaTest => {
                v.vertex_color = on(0);
                v.alpha_equality = on(1);
                v.fog = on(2);
            }
            StockShader::DualTexture => {
                v.vertex_color = on(0);
                v.fog = on(1);
            }
            StockShader::EnvironmentMap => {
                v.fresnel = on(0);
                v.environment_specular = on(1);
                v.one_light = on(2);
                v.fog = on(3);
            }
        }
        v
    }
}

impl Default for StockMaterial {
    fn default() -> Self {
        StockMaterial { shader: StockShader::Basic, block: [0.0; MATERIAL_FLOATS] }
    }
}

/// Serialised as the shader and the block's floats as a sequence (serde's arrays stop at 32).
#[cfg(feature = "capture")]
impl serde::Serialize for StockMaterial {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (self.shader, &self.block[..]).serialize(s)
    }
}

/// A block of any other length than [`MATERIAL_FLOATS`] is an error, never a short material.
#[cfg(feature = "capture")]
impl<'de> serde::Deserialize<'de> for StockMaterial {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (shader, floats): (StockShader, Vec<f32>) = serde::Deserialize::deserialize(d)?;
        let block = floats.try_into().map_err(|v: Vec<f32>| {
            serde::de::Error::invalid_length(v.len(), &"a stock effect's uniform block")
        })?;
        Ok(StockMaterial { shader, block })
    }
}

/// The values one draw of a stock geometry effect reads: its clip-space transform (as
/// [`crate::Draw::transform`]) and its uniform block (as [`StockMaterial::block`]). A repeat of a
/// draw ([`GeometryDraw::repeats`]) is drawn with these in place of the draw's own. Laid out as
/// the two are in a stock draw's uniform buffer: the transform's 64 bytes, then the block's.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct StockValues {
    /// The clip-space transform, column-major.
    pub transform: [f32; 16],
    /// The uniform block after the transform.
    pub block: [f32; MATERIAL_FLOATS],
}

/// Serialised as the transform's and the block's floats as sequences.
#[cfg(feature = "capture")]
impl serde::Serialize for StockValues {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (&self.transform[..], &self.block[..]).serialize(s)
    }
}

/// A transform or block of any other length is an error.
#[cfg(feature = "capture")]
impl<'de> serde::Deserialize<'de> for StockValues {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (transform, block): (Vec<f32>, Vec<f32>) = serde::Deserialize::deserialize(d)?;
        let transform = transform.try_into().map_err(|v: Vec<f32>| {
            serde::de::Error::invalid_length(v.len(), &"a transform of 16 floats")
        })?;
        let block = block.try_into().map_err(|v: Vec<f32>| {
            serde::de::Error::invalid_length(v.len(), &"a stock effect's uniform block")
        })?;
        Ok(StockValues { transform, block })
    }
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
    /// transform and block: a run of draws that differ in nothing but their stock effect's
    /// values, recorded as one draw ([`GeometryDraw::can_repeat`]) while the device merges such
    /// runs ([`crate::FrameCommands::merge_instances`]). The draw and its repeats are drawn as
    /// one instanced draw ([`crate::compile::instances`]). Each repeat's block selects the
    /// draw's variant. Empty for every other draw.
    pub repeats: Vec<StockValues>,
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
        bindings.clear();
        custom.clear();
        streams.clear();
        bones.clear();
        repeats.clear();
        *self = GeometryDraw {
            layout: VertexLayout { bindings, custom, ..VertexLayout::default() },
            streams,
            bones,
            repeats,
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
        1 + self.repeats.len() as u32
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A material of `shader` whose options word is `options`, every other float 0.5.
    fn material(shader: StockShader, options: [f32; 4]) -> StockMaterial {
        let mut block = [0.5; MATERIAL_FLOATS];
        let at = shader.options_at();
        block[at..at + 4].copy_from_slice(&options);
        StockMaterial { shader, block }
    }

    #[test]
    fn the_variant_is_read_from_each_shaders_options_word_and_nothing_else() {
        let basic = material(StockShader::Basic, [1.0, 0.0, 2.0, 1.0]).variant();
        assert_eq!(
            basic,
            StockVariant {
                shader: StockShader::Basic,
                vertex_color: true,
                texture: false,
                lighting: StockLighting::PerPixel,
                fog: true,
                alpha_equality: false,
                weights_per_vertex: 0,
                fresnel: false,
                environment_specular: false,
                one_light: false,
                instanced: false,
            }
        );
        let per_vertex = material(StockShader::Basic, [0.0, 1.0, 1.0, 0.0]).variant();
        assert_eq!((per_vertex.texture, per_vertex.lighting), (true, StockLighting::PerVertex));
        // AlphaTestEffect: x vertex colour, y equality, z fog; its w and the options it lacks
        // stay off.
        let alpha = material(StockShader::AlphaTest, [0.0, 1.0, 1.0, 1.0]).variant();
        assert_eq!(
            (alpha.vertex_color, alpha.alpha_equality, alpha.fog, alpha.texture),
            (false, true, true, false)
        );
        assert_eq!(alpha.lighting, StockLighting::Unlit);
        // DualTextureEffect: x vertex colour, y fog.
        let dual = material(StockShader::DualTexture, [1.0, 1.0, 1.0, 1.0]).variant();
        assert_eq!(
            (dual.vertex_color, dual.fog, dual.texture, dual.alpha_equality),
            (true, true, false, false)
        );
        // SkinnedEffect: x weights per vertex (never vertex colour), then BasicEffect's y, z, w.
        let skinned = material(StockShader::Skinned, [2.0, 1.0, 1.0, 1.0]).variant();
        assert_eq!(
            (skinned.weights_per_vertex, skinned.vertex_color, skinned.texture, skinned.fog),
            (2, false, true, true)
        );
        assert_eq!(skinned.lighting, StockLighting::PerVertex);
        let four = material(StockShader::Skinned, [4.0, 1.0, 2.0, 0.0]).variant();
        assert_eq!((four.weights_per_vertex, four.lighting), (4, StockLighting::PerPixel));
        assert_eq!(material(StockShader::Skinned, [1.0; 4]).variant().weights_per_vertex, 1);
        assert_eq!(basic.weights_per_vertex, 0);
        // EnvironmentMapEffect: x Fresnel, y environment specular, z one light, w fog.
        let env = material(StockShader::EnvironmentMap, [1.0, 0.0, 1.0, 1.0]).variant();
        assert_eq!(
            (env.fresnel, env.environment_specular, env.one_light, env.fog, env.texture),
            (true, false, true, true, false)
        );
        let specular = material(StockShader::EnvironmentMap, [0.0, 1.0, 0.0, 0.0]).variant();
        assert_eq!(
            (specular.fresnel, specular.environment_specular, specular.one_light, specular.fog),
            (false, true, false, false)
        );
        assert!(!basic.fresnel && !basic.environment_specular && !basic.one_light);
        // The values around the options word do not change the variant.
        let mut moved = material(StockShader::Basic, [1.0, 0.0, 2.0, 1.0]);
        moved.block[0] = -3.0;
        moved.block[MATERIAL_FLOATS - 5] = 9.0;
        assert_eq!(moved.variant(), basic);
    }

    #[test]
    fn two_blocks_select_the_same_variant_when_shader_and_options_word_match() {
        let lit = material(StockShader::Basic, [0.0, 0.0, 1.0, 0.0]);
        let mut recoloured = lit;
        recoloured.block[0] = -3.0;
        recoloured.block[MATERIAL_FLOATS - 5] = 9.0;
        assert!(lit.selects_same_variant(&recoloured));
        assert_eq!(lit.variant(), recoloured.variant());
        for i in 0..4 {
            let mut options = [0.0, 0.0, 1.0, 0.0];
            options[i] = if i == 2 { 2.0 } else { 1.0 };
            let other = material(StockShader::Basic, options);
            assert!(!lit.selects_same_variant(&other), "option {i}");
            assert_ne!(lit.variant(), other.variant(), "option {i}");
        }
        // The same word in another shader's block is another variant.
        let skinned = material(StockShader::Skinned, [0.0, 0.0, 1.0, 0.0]);
        assert!(!lit.selects_same_variant(&skinned));
    }

    #[test]
    fn the_constants_name_each_option_by_its_constant_id() {
        let v = StockVariant {
            shader: StockShader::Basic,
            vertex_color: true,
            texture: false,
            lighting: StockLighting::PerVertex,
            fog: true,
            alpha_equality: false,
            weights_per_vertex: 4,
            fresnel: true,
            environment_specular: false,
            one_light: true,
            instanced: true,
        };
        assert_eq!(
            v.constants(),
            [
                (0, true),
                (1, false),
                (2, true),
                (3, false),
                (4, true),
                (5, false),
                (6, false),
                (7, true),
                (8, true),
                (9, false),
                (10, true)
            ]
        );
    }
}
