//! What a capture file's chunks hold: backend-neutral records of a device, its resources and
//! its recorded frames.
//!
//! A recorded frame is [`crate::FrameCommands`] with every `Arc` replaced by a stable key: a
//! texture is named by the [`TextureKey`] of its creation record, a vertex or index buffer by
//! its [`BufferKey`], an effect by its [`EffectKey`](EffectRef) record, and every byte array
//! (upload data, a flush's sprite and geometry arenas, snapshot content) by the [`BlobId`] of a
//! blob chunk, so that repeated data is stored once. Keys are dense from 0 in order of first
//! appearance in the file.
//!
//! The device states of a draw are recorded with the draw, as the compiler sees them: blend,
//! depth-stencil, rasterizer and sampler state, viewport, scissor and transform in
//! [`DrawRecord`]; for a geometry draw ([`OpRecord::Geometry`]) also the vertex streams bound
//! (buffer and offset, or the user arena), the index buffer, the vertex layout and the
//! `BasicEffect` values its pass applied ([`GeometryRecord::material`]).
//!
//! Format 1.1 added buffers (their creation, snapshot, uploads and readbacks) and geometry
//! draws. Format 2.0 gave each sprite its texture slot (the instance grew from 48 to 52
//! bytes) and each draw the textures of its other slots ([`DrawRecord::more_textures`]), a
//! layout 1.x readers cannot decode, so 1.x files are refused by version. Format 3.0 added
//! occlusion queries ([`QueryRecord`], [`OpRecord::Query`]), custom geometry effects
//! ([`GeometryEffectRecord`], [`ShaderRecord::CustomGeometry`] and the values each draw's
//! `Apply` recorded, [`GeometryRecord::custom`]) and instanced draws (per-instance streams and
//! instance counts, which 2.x readers refused): new enum variants and a new field of a geometry
//! draw change the postcard layout of a flush, so 2.x files are refused by version. Format 4.0
//! added SkinnedEffect: a stock shader, the blend attribute locations of a vertex layout and
//! each geometry draw's bones ([`GeometryRecord::bones`]), so 3.x files are refused likewise.

use serde::{Deserialize, Serialize};

use crate::buffer::{BufferDesc, SetDataOptions};
use crate::commands::{Clear, Rect, SegmentStart, Slices, Viewport};
use crate::compile::CompilePolicy;
use crate::geometry::{DrawCall, PrimitiveType, StockMaterial, StockValues, VertexLayout};
use crate::resource::TextureDesc;
use crate::states::{BlendState, DepthStencilState, RasterizerState, SamplerState};

/// A texture's key in one capture file.
pub type TextureKey = u32;
/// A custom effect's key in one capture file.
pub type EffectRef = u32;
/// A blob's key in one capture file.
pub type BlobId = u32;
/// A vertex or index buffer's key in one capture file.
pub type BufferKey = u32;
/// An occlusion query's key in one capture file.
pub type QueryKey = u32;
/// A custom geometry effect pass's key in one capture file.
pub type GeometryEffectKey = u32;

/// Chunk kinds. A reader skips kinds it does not know.
pub mod kind {
    /// [`super::DeviceRecord`], first in every file.
    pub const DEVICE: u32 = 1;
    /// [`super::TextureRecord`].
    pub const TEXTURE: u32 = 2;
    /// [`super::EffectRecord`].
    pub const EFFECT: u32 = 3;
    /// [`super::BlobRecord`].
    pub const BLOB: u32 = 4;
    /// [`super::SnapshotRecord`].
    pub const SNAPSHOT: u32 = 5;
    /// [`super::FlushRecord`].
    pub const FLUSH: u32 = 6;
    /// [`super::FrameEndRecord`].
    pub const FRAME_END: u32 = 7;
    /// [`super::EndRecord`], last in a complete file.
    pub const END: u32 = 8;
    /// [`super::BufferRecord`] (format 1.1).
    pub const BUFFER: u32 = 9;
    /// [`super::BufferSnapshotRecord`] (format 1.1).
    pub const BUFFER_SNAPSHOT: u32 = 10;
    /// [`super::QueryRecord`] (format 3.0).
    pub const QUERY: u32 = 11;
    /// [`super::GeometryEffectRecord`] (format 3.0).
    pub const GEOMETRY_EFFECT: u32 = 12;
    /// [`super::QueryResultRecord`] (format 3.0).
    pub const QUERY_RESULT: u32 = 13;
    /// [`super::DepthSnapshotRecord`] (format 3.1).
    pub const DEPTH_SNAPSHOT: u32 = 14;
    /// [`super::SampleSnapshotRecord`] (format 3.2).
    pub const SAMPLE_SNAPSHOT: u32 = 15;
    /// [`super::DepthSnapshotRecord`] of a multisampled target, every sample (format 3.2; a
    /// kind of its own, so that 3.1 readers, which know only single-sample depth, skip it).
    pub const SAMPLE_DEPTH_SNAPSHOT: u32 = 16;

    /// Whether this reader knows `kind`.
    pub fn known(kind: u32) -> bool {
        (DEVICE..=SAMPLE_DEPTH_SNAPSHOT).contains(&kind)
    }
}

/// The device the frames were recorded on: its profile and presentation parameters as applied,
/// the policy its compiler ran, and its back buffer.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct DeviceRecord {
    /// `GraphicsProfile` (`"Reach"` or `"HiDef"`).
    pub profile: String,
    /// The presentation parameters, as `Debug` prints them (for people and tools).
    pub presentation: String,
    /// The adapter the frames were recorded on (for people; a replay may use any).
    pub adapter: String,
    /// The policy frames were compiled under.
    pub compile_policy: CompilePolicy,
    /// The back buffer's creation record (its desc holds size, format, depth, samples, usage).
    pub back_buffer: TextureKey,
    /// The device's frame number (presents so far) of the first frame captured.
    pub first_frame: u64,
}

/// A texture's creation: what it is and what it is called.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct TextureRecord {
    /// Its key.
    pub key: TextureKey,
    /// Its description, as applied.
    pub desc: TextureDesc,
    /// Its name (`GraphicsResource.Name`, or what tools show without one).
    pub name: String,
}

/// A vertex or index buffer's creation (`new VertexBuffer`, `new DynamicIndexBuffer`, ...).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct BufferRecord {
    /// Its key.
    pub key: BufferKey,
    /// Size in bytes, vertices or indices, dynamic or not.
    pub desc: BufferDesc,
    /// XNA's `BufferUsage.WriteOnly` (for people and tools: a replay reads any buffer back).
    pub write_only: bool,
    /// Its name (`GraphicsResource.Name`, or what tools show without one).
    pub name: String,
}

/// The whole content a buffer held when the capture began (read back once): replay uploads it
/// before the first frame.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct BufferSnapshotRecord {
    /// The buffer.
    pub buffer: BufferKey,
    /// Its bytes, as many as the buffer's size.
    pub blob: BlobId,
}

/// The depth/stencil content a preserving render target held when the capture began (read back
/// once; format 3.1, a `DEPTH_SNAPSHOT` chunk; for a multisampled target format 3.2, a
/// `SAMPLE_DEPTH_SNAPSHOT` chunk): replay restores it before the first frame. The blob is the
/// backend-neutral encoding of [`crate::depth_stencil_size`] (every texel's depth as an `f32`, then
/// every texel's stencil byte when the format has one; for a multisampled target, of every sample,
/// as an image `samples` times as tall).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct DepthSnapshotRecord {
    /// The render target.
    pub texture: TextureKey,
    /// Its depth (and stencil) content.
    pub blob: BlobId,
}

/// Every sample of one layer of a multisampled preserving render target when the capture began
/// (read back once, format 3.2): replay restores it before the first frame, so a frame that
/// draws over the samples without clearing them sees what the live run saw. The blob holds the
/// sample planes of [`crate::sample_planes_size`] (plane `s`: every texel's sample `s`, in the
/// texture's format).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct SampleSnapshotRecord {
    /// The render target.
    pub texture: TextureKey,
    /// The layer (cube face) whose samples these are.
    pub layer: u32,
    /// Its sample planes.
    pub blob: BlobId,
}

/// A custom effect's creation: its fragment stage.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct EffectRecord {
    /// Its key.
    pub key: EffectRef,
    /// Colour outputs the stage writes.
    pub outputs: u8,
    /// The SPIR-V words of the fragment stage.
    pub spirv: Vec<u32>,
}

/// An occlusion query's creation (`new OcclusionQuery`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct QueryRecord {
    /// Its key.
    pub key: QueryKey,
}

/// A count the game read: `OcclusionQuery.PixelCount` of the query's last span written before
/// this record (the engine reads a span's count only once its flush was submitted, so the
/// flush comes first in the file). A replay compares its own count of that span with it.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryResultRecord {
    /// The query.
    pub query: QueryKey,
    /// The samples its span counted in the live run.
    pub pixel_count: u64,
}

/// What a custom geometry program binds, as [`crate::CustomResources`].
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CustomResourcesRecord {
    /// Bindings of the vertex stage's samplers (set 0).
    pub vertex_samplers: Vec<u32>,
    /// Size in bytes of the vertex stage's uniform block; 0 without one.
    pub vertex_uniform_bytes: u32,
    /// Bindings of the fragment stage's samplers (set 2).
    pub fragment_samplers: Vec<u32>,
    /// Size in bytes of the fragment stage's uniform block; 0 without one.
    pub fragment_uniform_bytes: u32,
    /// Colour outputs written (1 to 4).
    pub outputs: u32,
}

impl CustomResourcesRecord {
    /// The record of `r`.
    pub fn of(r: &crate::CustomResources) -> Self {
        CustomResourcesRecord {
            vertex_samplers: r.vertex_samplers.clone(),
            vertex_uniform_bytes: r.vertex_uniform_bytes,
            fragment_samplers: r.fragment_samplers.clone(),
            fragment_uniform_bytes: r.fragment_uniform_bytes,
            outputs: r.outputs,
        }
    }

    /// The resources it records.
    pub fn resources(&self) -> crate::CustomResources {
        crate::CustomResources {
            vertex_samplers: self.vertex_samplers.clone(),
            vertex_uniform_bytes: self.vertex_uniform_bytes,
            fragment_samplers: self.fragment_samplers.clone(),
            fragment_uniform_bytes: self.fragment_uniform_bytes,
            outputs: self.outputs,
        }
    }
}

/// One pass of a custom geometry effect (`new CustomEffect`): the program a draw names, with
/// the technique and pass it belongs to and its two stages' GLSL and SPIR-V.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GeometryEffectRecord {
    /// Its key.
    pub key: GeometryEffectKey,
    /// `EffectTechnique.Name` of the pass's technique (for people and tools).
    pub technique: String,
    /// `EffectPass.Name` (for people and tools).
    pub pass: String,
    /// The vertex stage's GLSL 450 source, as given (for people and tools).
    pub vertex_glsl: String,
    /// The fragment stage's GLSL 450 source, as given (for people and tools).
    pub fragment_glsl: String,
    /// The SPIR-V words of the vertex stage (what a replay creates the program from).
    pub vertex_spirv: Vec<u32>,
    /// The SPIR-V words of the fragment stage.
    pub fragment_spirv: Vec<u32>,
    /// What the program binds.
    pub resources: CustomResourcesRecord,
}

/// A byte array that records refer to by id; each distinct content is stored once per file.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct BlobRecord {
    /// Its id.
    pub id: BlobId,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// A subresource region and the blob of its texels, tightly packed.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct Region {
    /// The texture.
    pub texture: TextureKey,
    /// The mip level.
    pub level: u32,
    /// The array layer (cube face).
    pub layer: u32,
    /// The texels covered.
    pub rect: Rect,
    /// The depth slices covered.
    pub slices: Slices,
}

/// Content a texture held when the capture began (read back once): replay uploads it before
/// the first frame.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct SnapshotRecord {
    /// Where it goes.
    pub region: Region,
    /// Its texels.
    pub blob: BlobId,
}

/// The shaders of a draw.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShaderRecord {
    /// The stock sprite shaders.
    Sprite,
    /// The stock cube-sampling fragment stage.
    CubeSample,
    /// A custom effect's fragment stage.
    Custom(EffectRef),
    /// The stock geometry effect (`BasicEffect`) of a geometry draw.
    Basic,
    /// A custom geometry effect's pass (format 3.0): its values in [`GeometryRecord::custom`].
    CustomGeometry(GeometryEffectKey),
}

/// A draw, as [`crate::Draw`] with keys.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct DrawRecord {
    /// The shaders.
    pub shader: ShaderRecord,
    /// Blend state.
    pub blend: BlendState,
    /// Depth and stencil state.
    pub depth_stencil: DepthStencilState,
    /// Rasterizer state.
    pub rasterizer: RasterizerState,
    /// Sampler state.
    pub sampler: SamplerState,
    /// The texture sampled (slot 0 of the draw's textures).
    pub texture: TextureKey,
    /// The textures of slots 1 and on, for a draw of several ([`crate::DrawTextures`]).
    pub more_textures: Vec<TextureKey>,
    /// First sprite in the flush's arena.
    pub first_sprite: u32,
    /// Sprites drawn.
    pub sprite_count: u32,
    /// The viewport.
    pub viewport: Viewport,
    /// The scissor rectangle.
    pub scissor: Rect,
    /// The clip-space transform, column-major.
    pub transform: [f32; 16],
}

/// Where one vertex stream of a geometry draw reads, as [`crate::VertexSource`] with keys.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub enum StreamRecord {
    /// A vertex buffer from byte `offset`.
    Buffer {
        /// The buffer.
        buffer: BufferKey,
        /// Byte offset of vertex 0 of the stream.
        offset: u64,
    },
    /// A byte range of the flush's geometry arena (`DrawUserPrimitives`).
    User {
        /// First byte.
        start: u64,
        /// One past the last byte.
        end: u64,
    },
}

/// Where a geometry draw's indices are, as [`crate::IndexSource`] with keys.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct IndexRecord {
    /// The index buffer, or `None` for user indices in the geometry arena.
    pub buffer: Option<BufferKey>,
    /// The arena range of user indices (empty with a buffer).
    pub user: (u64, u64),
    /// 2 or 4 bytes per index.
    pub element_size: u8,
}

/// What a geometry draw adds to a [`DrawRecord`]: [`crate::GeometryDraw`] with keys.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GeometryRecord {
    /// The vertex streams' layout.
    pub layout: VertexLayout,
    /// The primitive topology.
    pub primitive: PrimitiveType,
    /// One source per binding of `layout` (the vertex buffer bindings).
    pub streams: Vec<StreamRecord>,
    /// The index buffer (`GraphicsDevice.Indices`) or user indices of an indexed draw.
    pub indices: Option<IndexRecord>,
    /// What is drawn.
    pub call: DrawCall,
    /// Instances drawn.
    pub instances: u32,
    /// The stock effect and its values the draw's pass applied.
    pub material: StockMaterial,
    /// A `DualTextureEffect`'s second texture and its sampler state.
    pub texture2: Option<(TextureKey, SamplerState)>,
    /// A `SkinnedEffect`'s bones, three rows each (format 4.0).
    pub bones: Vec<[f32; 4]>,
    /// A custom geometry effect's values, as its pass's `Apply` recorded them (format 3.0);
    /// `None` for the stock effects.
    pub custom: Option<CustomDrawRecord>,
    /// The draw's repeats, each with its transform and block (format 6.0).
    pub repeats: Vec<StockValues>,
}

/// One sampler of a custom geometry draw, as [`crate::CustomSampler`] with a key.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct CustomSamplerRecord {
    /// `true` for the vertex stage (set 0), `false` for the fragment stage (set 2).
    pub vertex: bool,
    /// Its binding in that set.
    pub binding: u32,
    /// The texture sampled.
    pub texture: TextureKey,
    /// The sampler state at the draw.
    pub sampler: SamplerState,
}

/// The values of a custom geometry draw, as [`crate::CustomDraw`] with keys: the uniform
/// bytes and samplers its pass's `Apply` snapshotted.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct CustomDrawRecord {
    /// The pass's program.
    pub effect: GeometryEffectKey,
    /// The vertex stage's uniform block bytes (as long as the block).
    pub vertex_uniforms: Vec<u8>,
    /// The fragment stage's uniform block bytes (as long as the block).
    pub fragment_uniforms: Vec<u8>,
    /// One per sampler the program binds.
    pub samplers: Vec<CustomSamplerRecord>,
}

/// A clear or a draw.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub enum OpRecord {
    /// A clear.
    Clear(Clear),
    /// A sprite draw.
    Draw(DrawRecord),
    /// A geometry draw (format 1.1): its states in the draw record (shader
    /// [`ShaderRecord::Basic`], no sprites), its sources in the geometry record.
    Geometry(DrawRecord, Box<GeometryRecord>),
    /// One end of an occlusion query's span (format 3.0): `Begin` or `End`.
    Query {
        /// The query.
        query: QueryKey,
        /// `true` at `Begin`, `false` at `End`.
        begin: bool,
    },
}

/// One recorded node, as [`crate::Node`] with keys.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub enum NodeRecord {
    /// A pass segment: attachments (texture, layer), how it began, its ops.
    Pass {
        /// The colour attachments: texture and array layer.
        colors: Vec<(TextureKey, u32)>,
        /// How the segment began.
        start: SegmentStart,
        /// Clears and draws in order.
        ops: Vec<OpRecord>,
    },
    /// An upload of a blob into a region.
    Upload {
        /// Where.
        region: Region,
        /// The data.
        blob: BlobId,
    },
    /// A readback of a region.
    Readback(Region),
    /// A present of the back buffer.
    Present(TextureKey),
    /// A vertex or index buffer's `SetData` (format 1.1).
    BufferUpload {
        /// The buffer.
        buffer: BufferKey,
        /// The first byte written.
        offset: u64,
        /// The bytes.
        blob: BlobId,
        /// The write's `SetDataOptions`.
        options: SetDataOptions,
    },
    /// A vertex or index buffer's `GetData` (format 1.1).
    BufferReadback {
        /// The buffer.
        buffer: BufferKey,
        /// The first byte read.
        offset: u64,
        /// How many bytes.
        len: u64,
    },
}

/// One flush: the nodes of one [`crate::FrameCommands`] and its sprite arena.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct FlushRecord {
    /// The device frame (presents before it) the flush belongs to.
    pub frame: u64,
    /// The nodes in recording order.
    pub nodes: Vec<NodeRecord>,
    /// The sprite arena, as the bytes of its instances.
    pub sprites: BlobId,
    /// The pass segment left open at the flush.
    pub open_cycle: Option<u32>,
    /// The geometry arena (the vertices and indices of user draws), `None` when empty.
    pub geometry: Option<BlobId>,
}

/// A frame marker: the frame's present was recorded.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameEndRecord {
    /// The device frame that ended.
    pub frame: u64,
    /// Nanoseconds the game spent between the previous frame's end and this present (its
    /// recording CPU time, as the game thread saw it).
    pub record_ns: u64,
}

/// The end of a complete capture.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndRecord {
    /// Frames the file holds.
    pub frames: u64,
}
