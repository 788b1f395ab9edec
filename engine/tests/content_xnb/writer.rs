//! The XNB writer of the content tests: files made byte for byte as XNA 4.0's content
//! pipeline writes them (see the test binary's doc for the format and what the compressed
//! writers exercise).

use std::path::{Path, PathBuf};

use xnagraph::Rectangle;

/// XNA's assembly qualifications, as its content pipeline writes them.
pub const GRAPHICS: &str = "Microsoft.Xna.Framework.Graphics, Version=4.0.0.0, Culture=neutral, \
                        PublicKeyToken=842cf8be1de50553";
pub const FRAMEWORK: &str = "Microsoft.Xna.Framework, Version=4.0.0.0, Culture=neutral, \
                         PublicKeyToken=842cf8be1de50553";
pub const MSCORLIB: &str =
    "mscorlib, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089";

/// The content of an XNB file after its header, written as XNA's `ContentWriter` does.
#[derive(Default)]
pub struct Body(pub Vec<u8>);

impl Body {
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn f32(&mut self, v: f32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// .NET's `Write7BitEncodedInt`.
    pub fn int7(&mut self, mut v: u32) -> &mut Self {
        while v >= 0x80 {
            self.0.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
        self
    }
    /// .NET's `Write(string)`: 7-bit byte length, UTF-8.
    pub fn string(&mut self, s: &str) -> &mut Self {
        self.int7(s.len() as u32);
        self.0.extend_from_slice(s.as_bytes());
        self
    }
    /// .NET's `Write(char)`: UTF-8.
    pub fn char(&mut self, c: char) -> &mut Self {
        let mut buf = [0; 4];
        self.0.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        self
    }
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.0.extend_from_slice(b);
        self
    }
    /// The type reader list: each name with version 0; then the shared resource count.
    pub fn readers(&mut self, names: &[String], shared: u32) -> &mut Self {
        self.int7(names.len() as u32);
        for n in names {
            self.string(n).i32(0);
        }
        self.int7(shared)
    }
    pub fn rect(&mut self, r: Rectangle) -> &mut Self {
        self.i32(r.x).i32(r.y).i32(r.width).i32(r.height)
    }
    /// `Write(Vector3)`: X, Y, Z.
    pub fn vec3(&mut self, v: [f32; 3]) -> &mut Self {
        self.f32(v[0]).f32(v[1]).f32(v[2])
    }
    /// `WriteExternalReference`: the referenced asset's name relative to this asset's
    /// directory, without extension; empty for none.
    pub fn external(&mut self, reference: &str) -> &mut Self {
        self.string(reference)
    }
}

pub fn reader(name: &str) -> String {
    format!("Microsoft.Xna.Framework.Content.{name}, {GRAPHICS}")
}

/// A reader of XNA's framework assembly (the primitive and math readers).
pub fn framework_reader(name: &str) -> String {
    format!("Microsoft.Xna.Framework.Content.{name}, {FRAMEWORK}")
}

/// `EnumReader<T>`, as XNA names it: the enum's type qualified by its assembly.
pub fn enum_reader(element: &str, assembly: &str) -> String {
    format!("Microsoft.Xna.Framework.Content.EnumReader`1[[{element}, {assembly}]]")
}

pub fn list_reader(element: &str, assembly: &str) -> String {
    format!("Microsoft.Xna.Framework.Content.ListReader`1[[{element}, {assembly}]]")
}

/// A texture object's data (after its reader index): format number, size, levels.
pub fn texture_data(b: &mut Body, format: i32, w: i32, h: i32, levels: &[Vec<u8>]) {
    b.i32(format).i32(w).i32(h).i32(levels.len() as i32);
    for level in levels {
        b.i32(level.len() as i32).bytes(level);
    }
}

/// A whole Texture2D asset's content.
pub fn texture_body(format: i32, w: i32, h: i32, levels: &[Vec<u8>]) -> Vec<u8> {
    let mut b = Body::default();
    b.readers(&[reader("Texture2DReader")], 0).int7(1);
    texture_data(&mut b, format, w, h, levels);
    b.0
}

/// A whole asset's content: the type reader list (`readers`, each by its short name in XNA's
/// graphics assembly), no shared resources, then the primary object, of the first reader,
/// whose data `data` writes.
pub fn asset_body(readers: &[&str], data: impl FnOnce(&mut Body)) -> Vec<u8> {
    let names: Vec<String> = readers.iter().map(|r| reader(r)).collect();
    let mut b = Body::default();
    b.readers(&names, 0).int7(1);
    data(&mut b);
    b.0
}

/// `Texture3DWriter`'s data: format, width, height, depth, level count, then each level's
/// byte count and bytes.
pub fn texture3d_data(b: &mut Body, format: i32, size: [u32; 3], levels: &[Vec<u8>]) {
    b.i32(format).u32(size[0]).u32(size[1]).u32(size[2]).u32(levels.len() as u32);
    for level in levels {
        b.u32(level.len() as u32).bytes(level);
    }
}

/// `TextureCubeWriter`'s data: format, edge, level count, then face after face (+X, -X, +Y,
/// -Y, +Z, -Z) each level's byte count and bytes; `faces[f][l]` is level `l` of face `f`.
pub fn texture_cube_data(b: &mut Body, format: i32, size: u32, faces: &[Vec<Vec<u8>>; 6]) {
    b.i32(format).u32(size).u32(faces[0].len() as u32);
    for face in faces {
        for level in face {
            b.i32(level.len() as i32).bytes(level);
        }
    }
}

/// A vertex element as `VertexDeclarationWriter` writes it: offset, XNA 4.0's format and usage
/// numbers, usage index.
#[derive(Clone, Copy, Debug)]
pub struct Element {
    pub offset: u32,
    pub format: i32,
    pub usage: i32,
    pub usage_index: u32,
}

/// `VertexDeclarationWriter`'s data: stride, element count, the elements.
pub fn declaration_data(b: &mut Body, stride: u32, elements: &[Element]) {
    b.u32(stride).u32(elements.len() as u32);
    for e in elements {
        b.u32(e.offset).i32(e.format).i32(e.usage).u32(e.usage_index);
    }
}

/// `VertexBufferWriter`'s data: the declaration written raw (no reader index), the vertex
/// count, the vertices' bytes.
pub fn vertex_buffer_data(b: &mut Body, stride: u32, elements: &[Element], vertices: &[u8]) {
    declaration_data(b, stride, elements);
    b.u32(vertices.len() as u32 / stride).bytes(vertices);
}

/// `IndexBufferWriter`'s data: 16-bit or not, the byte count, the indices' bytes.
pub fn index_buffer_data(b: &mut Body, sixteen_bits: bool, indices: &[u8]) {
    b.u8(sixteen_bits as u8).i32(indices.len() as i32).bytes(indices);
}

/// The header and content of an uncompressed file.
pub fn xnb(body: &[u8]) -> Vec<u8> {
    let mut f = b"XNBw\x05\x01".to_vec();
    f.extend_from_slice(&((10 + body.len()) as u32).to_le_bytes());
    f.extend_from_slice(body);
    f
}

/// A compressed file: flags, the file's size and the content's size, then `compressed`.
pub fn compressed(flags: u8, body_len: usize, compressed: &[u8]) -> Vec<u8> {
    let mut f = b"XNBw\x05".to_vec();
    f.push(flags);
    f.extend_from_slice(&((14 + compressed.len()) as u32).to_le_bytes());
    f.extend_from_slice(&(body_len as u32).to_le_bytes());
    f.extend_from_slice(compressed);
    f
}

/// LZ4 literal-only sequences: one raw LZ4 block that decodes to `data`.
pub fn lz4_literals(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let n = data.len();
    out.push((n.min(15) as u8) << 4);
    if n >= 15 {
        let mut rest = n - 15;
        while rest >= 255 {
            out.push(255);
            rest -= 255;
        }
        out.push(rest as u8);
    }
    out.extend_from_slice(data);
    out
}

/// Bits written most significant first into 16-bit little-endian words, as LZX reads them.
#[derive(Default)]
struct Bits {
    words: Vec<u8>,
    acc: u32,
    n: u32,
}

impl Bits {
    fn put(&mut self, value: u32, bits: u32) {
        for i in (0..bits).rev() {
            self.acc = (self.acc << 1) | ((value >> i) & 1);
            self.n += 1;
            if self.n == 16 {
                self.words.extend_from_slice(&(self.acc as u16).to_le_bytes());
                (self.acc, self.n) = (0, 0);
            }
        }
    }
    /// Pads to the word boundary (an uncompressed block's alignment).
    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.put(0, 16 - self.n);
        }
        self.words
    }
}

/// XNB's LZX framing of `data`, each frame of at most 32 KiB one uncompressed LZX block:
/// (first frame only) the E8 flag bit 0, block type 3, the 24-bit block size, alignment, the
/// three repeated offsets, the bytes. A full frame has a 2-byte big-endian chunk size, a
/// shorter one `0xFF`, its 2-byte size and the chunk size.
pub fn lzx_uncompressed(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, frame) in data.chunks(0x8000).enumerate() {
        let mut bits = Bits::default();
        if i == 0 {
            bits.put(0, 1);
        }
        bits.put(3, 3);
        bits.put(frame.len() as u32, 24);
        let mut chunk = bits.finish();
        for _ in 0..3 {
            chunk.extend_from_slice(&1u32.to_le_bytes());
        }
        chunk.extend_from_slice(frame);
        if frame.len() == 0x8000 {
            out.extend_from_slice(&(chunk.len() as u16).to_be_bytes());
        } else {
            out.push(0xFF);
            out.extend_from_slice(&(frame.len() as u16).to_be_bytes());
            out.extend_from_slice(&(chunk.len() as u16).to_be_bytes());
        }
        out.extend_from_slice(&chunk);
    }
    out
}

/// A fresh content directory for one test.
pub fn content_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xnagraph-content-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn write(dir: &Path, name: &str, bytes: &[u8]) {
    let path = dir.join(format!("{name}.xnb"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// Distinct texel bytes for a level of `n` bytes.
pub fn pattern(n: usize, seed: u8) -> Vec<u8> {
    (0..n).map(|i| (i as u8).wrapping_mul(37).wrapping_add(seed)).collect()
}

/// The file's byte where the primary object's data starts (after the header, the reader list,
/// the shared resource count and the object's reader index).
pub fn data_at(readers: &[&str]) -> usize {
    10 + asset_body(readers, |_| {}).len()
}

/// A `BasicEffect` material as `BasicEffectWriter` writes it.
#[derive(Clone, Debug)]
pub struct BasicMaterial {
    pub texture: String,
    pub diffuse: [f32; 3],
    pub emissive: [f32; 3],
    pub specular: [f32; 3],
    pub specular_power: f32,
    pub alpha: f32,
    pub vertex_color: bool,
}

/// `BasicEffectWriter`'s data: texture reference, DiffuseColor, EmissiveColor, SpecularColor,
/// SpecularPower, Alpha, VertexColorEnabled.
pub fn basic_effect_data(b: &mut Body, m: &BasicMaterial) {
    b.external(&m.texture).vec3(m.diffuse).vec3(m.emissive).vec3(m.specular);
    b.f32(m.specular_power).f32(m.alpha).u8(m.vertex_color as u8);
}

/// An `AlphaTestEffect` material as `AlphaTestEffectWriter` writes it.
#[derive(Clone, Debug)]
pub struct AlphaTestMaterial {
    pub texture: String,
    /// XNA 4.0's `CompareFunction` number.
    pub function: i32,
    pub reference: u32,
    pub diffuse: [f32; 3],
    pub alpha: f32,
    pub vertex_color: bool,
}

/// `AlphaTestEffectWriter`'s data: texture reference, AlphaFunction (`Int32`), ReferenceAlpha
/// (`UInt32`), DiffuseColor, Alpha, VertexColorEnabled.
pub fn alpha_test_effect_data(b: &mut Body, m: &AlphaTestMaterial) {
    b.external(&m.texture).i32(m.function).u32(m.reference).vec3(m.diffuse);
    b.f32(m.alpha).u8(m.vertex_color as u8);
}

/// `DualTextureEffectWriter`'s data: texture and texture 2 references, DiffuseColor, Alpha,
/// VertexColorEnabled.
pub fn dual_texture_effect_data(
    b: &mut Body,
    textures: [&str; 2],
    diffuse: [f32; 3],
    alpha: f32,
    vertex_color: bool,
) {
    b.external(textures[0]).external(textures[1]).vec3(diffuse);
    b.f32(alpha).u8(vertex_color as u8);
}

/// `SkinnedEffectWriter`'s data: texture reference, WeightsPerVertex, DiffuseColor,
/// EmissiveColor, SpecularColor, SpecularPower, Alpha.
pub fn skinned_effect_data(b: &mut Body, texture: &str, weights: i32, m: &BasicMaterial) {
    b.external(texture).i32(weights).vec3(m.diffuse).vec3(m.emissive).vec3(m.specular);
    b.f32(m.specular_power).f32(m.alpha);
}

/// `EnvironmentMapEffectWriter`'s data: texture and environment map references,
/// EnvironmentMapAmount, EnvironmentMapSpecular, FresnelFactor, DiffuseColor, EmissiveColor,
/// Alpha.
pub fn environment_map_effect_data(b: &mut Body, textures: [&str; 2], m: &BasicMaterial) {
    b.external(textures[0]).external(textures[1]).f32(0.75).vec3(m.specular).f32(0.5);
    b.vec3(m.diffuse).vec3(m.emissive).f32(m.alpha);
}

/// `EffectWriter`'s data: the bytecode's length and bytes.
pub fn effect_data(b: &mut Body, code: &[u8]) {
    b.i32(code.len() as i32).bytes(code);
}

/// The type readers of the model files the tests write, in this order, so that an object's
/// reader index is its place here from 1: `ModelReader` 1, `StringReader` 2, `Int32Reader` 3,
/// `VertexBufferReader` 4, `IndexBufferReader` 5, `BasicEffectReader` 6,
/// `SkinnedEffectReader` 7, `VertexDeclarationReader` 8.
pub fn model_readers() -> Vec<String> {
    vec![
        reader("ModelReader"),
        framework_reader("StringReader"),
        framework_reader("Int32Reader"),
        reader("VertexBufferReader"),
        reader("IndexBufferReader"),
        reader("BasicEffectReader"),
        reader("SkinnedEffectReader"),
        reader("VertexDeclarationReader"),
    ]
}

/// A bone as `ModelWriter` writes it; bones are named by index.
#[derive(Clone, Debug)]
pub struct BoneData {
    pub name: Option<String>,
    /// M11 to M44, row by row.
    pub transform: [f32; 16],
    pub parent: Option<u32>,
    pub children: Vec<u32>,
}

/// A mesh part: its ranges, an `Int32` tag or none, and its shared resource references (the
/// resource's place from 1; 0 for none).
#[derive(Clone, Debug)]
pub struct PartData {
    pub vertex_offset: i32,
    pub num_vertices: i32,
    pub start_index: i32,
    pub primitive_count: i32,
    pub tag: Option<i32>,
    pub vertex_buffer: u32,
    pub index_buffer: u32,
    pub effect: u32,
}

/// A mesh: name, parent bone, bounding sphere (centre, radius), a `String` tag or none, parts.
#[derive(Clone, Debug)]
pub struct MeshData {
    pub name: Option<String>,
    pub parent_bone: Option<u32>,
    pub sphere: ([f32; 3], f32),
    pub tag: Option<String>,
    pub parts: Vec<PartData>,
}

/// A model: bones, meshes, root bone, a `String` tag or none.
#[derive(Clone, Debug)]
pub struct ModelData {
    pub bones: Vec<BoneData>,
    pub meshes: Vec<MeshData>,
    pub root: Option<u32>,
    pub tag: Option<String>,
}

/// `WriteObject<string>` with [`model_readers`]' `StringReader`: index 2 and the string, or 0.
fn string_object(b: &mut Body, s: &Option<String>) {
    match s {
        Some(s) => b.int7(2).string(s),
        None => b.int7(0),
    };
}

/// `ModelWriter`'s bone reference: 0 for none, else the index + 1, a `uint` when `wide`
/// (XNA: from 255 bones), else a byte.
fn bone_reference(b: &mut Body, bone: Option<u32>, wide: bool) {
    let id = bone.map_or(0, |i| i + 1);
    if wide {
        b.u32(id);
    } else {
        b.u8(id as u8);
    }
}

/// `ModelWriter`'s data, bone references in the width the bone count gives. Returns where
/// named fields start in `b` (for the truncation tests): "bone 1's transform", "bone 2's
/// parent", "mesh 0's bounding sphere", "mesh 0 part 1's start index", "mesh 0 part 1's
/// effect", "the model's root bone", "the model's tag" (where the model has them).
pub fn model_data(b: &mut Body, m: &ModelData) -> Vec<(String, usize)> {
    model_data_as(b, m, m.bones.len() >= 255)
}

/// [`model_data`] with bone references four bytes wide or one, whatever the bone count.
pub fn model_data_as(b: &mut Body, m: &ModelData, wide: bool) -> Vec<(String, usize)> {
    let mut marks = Vec::new();
    let count = wide;
    b.u32(m.bones.len() as u32);
    for (i, bone) in m.bones.iter().enumerate() {
        string_object(b, &bone.name);
        marks.push((format!("bone {i}'s transform"), b.0.len()));
        for v in bone.transform {
            b.f32(v);
        }
    }
    for (i, bone) in m.bones.iter().enumerate() {
        marks.push((format!("bone {i}'s parent"), b.0.len()));
        bone_reference(b, bone.parent, count);
        b.u32(bone.children.len() as u32);
        for &c in &bone.children {
            bone_reference(b, Some(c), count);
        }
    }
    b.i32(m.meshes.len() as i32);
    for (i, mesh) in m.meshes.iter().enumerate() {
        string_object(b, &mesh.name);
        bone_reference(b, mesh.parent_bone, count);
        marks.push((format!("mesh {i}'s bounding sphere"), b.0.len()));
        b.vec3(mesh.sphere.0).f32(mesh.sphere.1);
        string_object(b, &mesh.tag);
        b.i32(mesh.parts.len() as i32);
        for (j, p) in mesh.parts.iter().enumerate() {
            b.i32(p.vertex_offset).i32(p.num_vertices);
            marks.push((format!("mesh {i} part {j}'s start index"), b.0.len()));
            b.i32(p.start_index).i32(p.primitive_count);
            match p.tag {
                Some(t) => b.int7(3).i32(t),
                None => b.int7(0),
            };
            b.int7(p.vertex_buffer).int7(p.index_buffer);
            marks.push((format!("mesh {i} part {j}'s effect"), b.0.len()));
            b.int7(p.effect);
        }
    }
    marks.push(("the model's root bone".to_owned(), b.0.len()));
    bone_reference(b, m.root, count);
    marks.push(("the model's tag".to_owned(), b.0.len()));
    string_object(b, &m.tag);
    marks
}

/// A shared resource of a model file: its reader index and data.
pub type SharedWriter<'a> = Box<dyn Fn(&mut Body) + 'a>;

/// A whole model asset's content: [`model_readers`], the shared resource count, the model,
/// then the shared resources. Returns the content and [`model_data`]'s marks, as positions in
/// the file (header included).
pub fn model_body(m: &ModelData, shared: &[SharedWriter<'_>]) -> (Vec<u8>, Vec<(String, usize)>) {
    let mut b = Body::default();
    b.readers(&model_readers(), shared.len() as u32).int7(1);
    let marks = model_data(&mut b, m).into_iter().map(|(n, at)| (n, at + 10)).collect();
    for s in shared {
        s(&mut b);
    }
    (b.0, marks)
}

/// A vertex buffer shared resource of Vector3 positions (stride 12).
pub fn positions_resource(positions: &[[f32; 3]]) -> SharedWriter<'static> {
    let bytes: Vec<u8> = positions.iter().flatten().flat_map(|v| v.to_le_bytes()).collect();
    Box::new(move |b| {
        b.int7(4);
        let position = Element { offset: 0, format: 2, usage: 0, usage_index: 0 };
        vertex_buffer_data(b, 12, &[position], &bytes);
    })
}

/// A 16-bit index buffer shared resource.
pub fn indices_resource(indices: &[u16]) -> SharedWriter<'static> {
    let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
    Box::new(move |b| {
        b.int7(5);
        index_buffer_data(b, true, &bytes);
    })
}

/// A `BasicEffect` shared resource.
pub fn basic_resource(m: BasicMaterial) -> SharedWriter<'static> {
    Box::new(move |b| {
        b.int7(6);
        basic_effect_data(b, &m);
    })
}

/// A `SkinnedEffect` shared resource.
pub fn skinned_resource(m: BasicMaterial) -> SharedWriter<'static> {
    Box::new(move |b| {
        b.int7(7);
        skinned_effect_data(b, "", 4, &m);
    })
}
