//! XNB's type readers: the list a file names, and the readers of the types xnagraph loads.
//!
//! In: an [`XnbReader`] at the type reader list. Out: the asset's primary object (a texture of
//! any kind, a `SpriteFont`, a vertex declaration, a vertex or index buffer, an effect
//! material, a model, a value), after its shared resources are read and handed to the objects
//! that reference them, or a `ContentLoad` error naming what is wrong and the byte where it
//! lies.
//!
//! A file lists its readers by .NET type name (assembly-qualified, e.g.
//! `Microsoft.Xna.Framework.Content.Texture2DReader, Microsoft.Xna.Framework.Graphics,
//! Version=4.0.0.0, Culture=neutral, PublicKeyToken=842cf8be1de50553`), each with a version
//! number; the assembly qualifications (of the reader and of a generic reader's arguments)
//! are dropped before the name is matched (`names.rs`), so XNA's and MonoGame's names both
//! resolve. As in XNA, every listed reader must be known (an unknown one is refused at the
//! list, before anything is read) and have version 0. An object is a 7-bit encoded reader
//! index (0: null; n: the n-th listed reader) then that reader's data; the elements of a list
//! of a value type (`Rectangle`, `char`, `Vector3`) follow the list's count with no index, as
//! .NET value types are written.
//!
//! Readers kept here: `SpriteFontReader` (texture, glyph rectangles, cropping rectangles,
//! characters, line spacing, spacing, kerning triples, an optional default character), the
//! list, `Rectangle`, `char` and `Vector3` readers a font uses, and the primitive and math
//! readers as XNA's `ContentReader` reads them: `Int32Reader`, `SingleReader`, `BooleanReader`
//! (one byte, nonzero true), `StringReader` (.NET's length-prefixed UTF-8), `Vector2Reader`,
//! `Vector4Reader` and `QuaternionReader` (X, Y, Z, W as `f32`), `MatrixReader` (16 `f32`, M11
//! to M44 row by row), `ColorReader` (the bytes R, G, B, A: XNA's packed value, little-endian)
//! and `EnumReader<CompareFunction>` (the enum's underlying `Int32`, XNA 4.0's numbers, Always 0
//! to NotEqual 7). The texture readers (`Texture2DReader`, `Texture3DReader`,
//! `TextureCubeReader`) are in `textures.rs`; the geometry readers (`VertexDeclarationReader`,
//! `VertexBufferReader`, `IndexBufferReader`) in `buffers.rs`; the effect readers and external
//! references in `materials.rs`; `ModelReader` and its shared resources in `model.rs`.
//!
//! Shared resources (XNA's `ReadSharedResource`) are the objects after the primary one, as many
//! as the count before it says; an object names one by its place from 1 (0: none). Only a
//! model names them (its buffers and effects): the model is read first with its references,
//! then given the resources once they are read.

mod buffers;
mod materials;
mod model;
mod names;
mod textures;

use std::sync::Arc;

use xnagraph_graph::CompareFunction;

use super::xnb::{Header, XnbReader};
use crate::device::profile::GraphicsProfile;
use crate::device::GraphicsDevice;
use crate::effects::alpha_test::AlphaTestEffect;
use crate::effects::basic::BasicEffect;
use crate::effects::dual_texture::DualTextureEffect;
use crate::effects::environment_map::EnvironmentMapEffect;
use crate::effects::skinned::SkinnedEffect;
use crate::error::{Result, XnaError};
use crate::math::{Color, Matrix, Quaternion, Rectangle, Vector2, Vector3, Vector4};
use crate::models::Model;
use crate::resources::buffer::{IndexBuffer, VertexBuffer};
use crate::resources::cube::TextureCube;
use crate::resources::texture::Texture2D;
use crate::resources::texture3d::Texture3D;
use crate::sprites::font::SpriteFont;
use crate::vertex::VertexDeclaration;
use names::{without_assemblies, Reader};

/// An object a reader produced (public only to the crate's sealed `Content` trait).
pub enum Object {
    /// `Texture2DReader`'s.
    Texture2D(Texture2D),
    /// `Texture3DReader`'s.
    Texture3D(Texture3D),
    /// `TextureCubeReader`'s.
    TextureCube(TextureCube),
    /// `VertexDeclarationReader`'s.
    VertexDeclaration(VertexDeclaration),
    /// `VertexBufferReader`'s.
    VertexBuffer(VertexBuffer),
    /// `IndexBufferReader`'s.
    IndexBuffer(IndexBuffer),
    /// `SpriteFontReader`'s.
    SpriteFont(Box<SpriteFont>),
    /// `ListReader<Rectangle>`'s.
    Rectangles(Vec<Rectangle>),
    /// `ListReader<char>`'s.
    Chars(Vec<char>),
    /// `ListReader<Vector3>`'s.
    Vectors(Vec<Vector3>),
    /// `RectangleReader`'s.
    Rectangle(Rectangle),
    /// `CharReader`'s.
    Char(char),
    /// `Vector3Reader`'s.
    Vector3(Vector3),
    /// `Int32Reader`'s.
    Int32(i32),
    /// `SingleReader`'s.
    Single(f32),
    /// `BooleanReader`'s.
    Boolean(bool),
    /// `StringReader`'s.
    String(String),
    /// `Vector2Reader`'s.
    Vector2(Vector2),
    /// `Vector4Reader`'s.
    Vector4(Vector4),
    /// `MatrixReader`'s.
    Matrix(Matrix),
    /// `QuaternionReader`'s.
    Quaternion(Quaternion),
    /// `ColorReader`'s.
    Color(Color),
    /// `EnumReader<CompareFunction>`'s.
    CompareFunction(CompareFunction),
    /// `BasicEffectReader`'s.
    BasicEffect(Box<BasicEffect>),
    /// `AlphaTestEffectReader`'s.
    AlphaTestEffect(Box<AlphaTestEffect>),
    /// `DualTextureEffectReader`'s.
    DualTextureEffect(Box<DualTextureEffect>),
    /// `SkinnedEffectReader`'s.
    SkinnedEffect(Box<SkinnedEffect>),
    /// `EnvironmentMapEffectReader`'s.
    EnvironmentMapEffect(Box<EnvironmentMapEffect>),
    /// `ModelReader`'s, before its shared resources are read.
    PendingModel(Box<model::PendingModel>),
    /// `ModelReader`'s, with its shared resources.
    Model(Box<Model>),
}

impl Object {
    /// XNA's name of the object's type, for messages.
    pub(crate) fn type_name(&self) -> &'static str {
        object_reader(self).produces()
    }
}

/// What a reader asks of the manager reading it: the device assets are made on, and the
/// textures external references name, loaded through the manager (cached and shared). The
/// manager implements it, so that the readers see no more of the manager than this.
pub(crate) trait References {
    /// The device the assets are made on.
    fn device(&self) -> &GraphicsDevice;
    /// The texture asset `name`, read inside the assets of `chain` (outermost first): loaded
    /// once and cached by the manager, a name already in `chain` refused as a cycle.
    fn texture(&self, name: &str, chain: &[String]) -> Result<Arc<Texture2D>>;
    /// The cube map asset `name`, loaded as [`References::texture`] loads a texture.
    fn texture_cube(&self, name: &str, chain: &[String]) -> Result<Arc<TextureCube>>;
}

/// Reads objects with the file's type readers.
pub(crate) struct ContentReader<'a> {
    xnb: XnbReader<'a>,
    readers: Vec<Reader>,
    device: &'a GraphicsDevice,
    /// The manager external references load through.
    manager: &'a dyn References,
    /// The names of the assets being read, outermost first, this one last.
    chain: &'a [String],
    /// The asset's shared resource count, which references are checked against.
    shared_count: u32,
    /// What is being read, for messages: "the asset" or "shared resource N".
    subject: String,
    /// Whether a model is being read: a model in a model's tag is refused, so that a file
    /// cannot nest reads without bound.
    in_model: bool,
}

impl<'a> ContentReader<'a> {
    /// Reads the type reader list at the start of the content, refusing HiDef content on a
    /// Reach device as XNA does. `chain` names the assets being read, outermost first, the
    /// asset of `xnb` last.
    pub fn new(
        manager: &'a dyn References,
        header: Header,
        mut xnb: XnbReader<'a>,
        chain: &'a [String],
    ) -> Result<ContentReader<'a>> {
        let device = manager.device();
        if header.hidef && device.graphics_profile() == GraphicsProfile::Reach {
            return Err(super::xnb::load_error(
                xnb.asset(),
                "the asset was built for the HiDef profile (byte 5), which this Reach device \
                 does not support",
            ));
        }
        let count = xnb.int7("the type reader count")? as usize;
        let mut readers = Vec::with_capacity(count.min(64));
        for i in 0..count {
            let at = xnb.position();
            let name = xnb.string("a type reader name")?;
            let version_at = xnb.position();
            let version = xnb.i32("a type reader version")?;
            let reader = Reader::from_name(&without_assemblies(&name)).ok_or_else(|| {
                xnb.error_at(at, format!("type reader {i} ('{name}') is not one xnagraph has"))
            })?;
            if version != 0 {
                return Err(xnb.error_at(
                    version_at,
                    format!("type reader {i} ('{name}') has version {version}; xnagraph reads 0"),
                ));
            }
            readers.push(reader);
        }
        let subject = "the asset".to_owned();
        Ok(ContentReader {
            xnb,
            readers,
            device,
            manager,
            chain,
            shared_count: 0,
            subject,
            in_model: false,
        })
    }

    /// XNA's `ReadAsset`: the shared resource count, the primary object (not null), then the
    /// shared resources, handed to the primary object if it names them (a model).
    pub fn read_asset(mut self) -> Result<Object> {
        self.shared_count = self.xnb.int7("the shared resource count")?;
        let at = self.xnb.position();
        let primary = self
            .read_object("the asset")?
            .ok_or_else(|| self.xnb.error_at(at, "the asset's object is null"))?;
        let mut resources = Vec::with_capacity((self.shared_count as usize).min(4096));
        for i in 1..=self.shared_count {
            // Every one is read, also where nothing names it, so a malformed one is reported.
            self.subject = format!("shared resource {i}");
            resources.push(self.read_object(&format!("shared resource {i}"))?);
        }
        match primary {
            Object::PendingModel(model) => {
                Ok(Object::Model(Box::new(self.resolve_model(*model, resources)?)))
            }
            other => Ok(other),
        }
    }

    /// `ReadObject`: a reader index, then that reader's data; `None` for index 0 (null).
    fn read_object(&mut self, what: &str) -> Result<Option<Object>> {
        let at = self.xnb.position();
        let index = self.xnb.int7(what)? as usize;
        if index == 0 {
            return Ok(None);
        }
        let reader = *self.readers.get(index - 1).ok_or_else(|| {
            self.xnb.error_at(
                at,
                format!(
                    "{what} names type reader {index}, but the file lists {}",
                    self.readers.len()
                ),
            )
        })?;
        self.read_with(reader).map(Some)
    }

    /// `ReadObject` of an object that must be there and of one reader's type.
    fn read_required(&mut self, what: &str, want: Reader) -> Result<Object> {
        let at = self.xnb.position();
        match self.read_object(what)? {
            None => Err(self.xnb.error_at(at, format!("{what} is null"))),
            Some(object) => {
                let got = object_reader(&object);
                if got == want {
                    Ok(object)
                } else {
                    Err(self.xnb.error_at(
                        at,
                        format!(
                            "{what} should be a {}, but its reader makes a {}",
                            want.produces(),
                            got.produces()
                        ),
                    ))
                }
            }
        }
    }

    fn read_with(&mut self, reader: Reader) -> Result<Object> {
        Ok(match reader {
            Reader::Texture2D => Object::Texture2D(self.texture2d()?),
            Reader::Texture3D => Object::Texture3D(self.texture3d()?),
            Reader::TextureCube => Object::TextureCube(self.texture_cube()?),
            Reader::VertexDeclaration => Object::VertexDeclaration(self.vertex_declaration()?),
            Reader::VertexBuffer => Object::VertexBuffer(self.vertex_buffer()?),
            Reader::IndexBuffer => Object::IndexBuffer(self.index_buffer()?),
            Reader::SpriteFont => Object::SpriteFont(Box::new(self.sprite_font()?)),
            Reader::RectangleList => Object::Rectangles(self.list(Self::rectangle)?),
            Reader::CharList => Object::Chars(self.list(|r| r.xnb.char("a character"))?),
            Reader::Vector3List => Object::Vectors(self.list(Self::vector3)?),
            Reader::Rectangle => Object::Rectangle(self.rectangle()?),
            Reader::Char => Object::Char(self.xnb.char("a character")?),
            Reader::Vector3 => Object::Vector3(self.vector3()?),
            Reader::Int32 => Object::Int32(self.xnb.i32("an Int32")?),
            Reader::Single => Object::Single(self.xnb.f32("a Single")?),
            Reader::Boolean => Object::Boolean(self.xnb.bool("a Boolean")?),
            Reader::String => Object::String(self.xnb.string("a String")?),
            Reader::Vector2 => Object::Vector2(self.vector2()?),
            Reader::Vector4 => Object::Vector4(self.vector4("a Vector4")?),
            Reader::Matrix => Object::Matrix(self.matrix()?),
            Reader::Quaternion => {
                let v = self.vector4("a Quaternion")?;
                Object::Quaternion(Quaternion::new(v.x, v.y, v.z, v.w))
            }
            Reader::Color => Object::Color(self.color()?),
            Reader::CompareFunction => {
                Object::CompareFunction(self.compare_function("a CompareFunction")?)
            }
            Reader::BasicEffect => Object::BasicEffect(Box::new(self.basic_effect()?)),
            Reader::AlphaTestEffect => Object::AlphaTestEffect(Box::new(self.alpha_test_effect()?)),
            Reader::DualTextureEffect => {
                Object::DualTextureEffect(Box::new(self.dual_texture_effect()?))
            }
            Reader::SkinnedEffect => Object::SkinnedEffect(Box::new(self.skinned_effect()?)),
            Reader::EnvironmentMapEffect => {
                Object::EnvironmentMapEffect(Box::new(self.environment_map_effect()?))
            }
            Reader::Effect => return Err(self.effect()),
            Reader::Model if self.in_model => {
                return Err(self.xnb.error_at(
                    self.xnb.position(),
                    "a Model's data lies inside a Model (in a tag); xnagraph reads a Model only \
                     as an asset or a shared resource",
                ))
            }
            Reader::Model => {
                self.in_model = true;
                let model = self.model();
                self.in_model = false;
                Object::PendingModel(Box::new(model?))
            }
        })
    }

    /// `ListReader<T>` of a value type: an `i32` count, then the elements.
    fn list<T>(&mut self, mut element: impl FnMut(&mut Self) -> Result<T>) -> Result<Vec<T>> {
        let n = self.xnb.count("a list's count")?;
        let mut out = Vec::with_capacity(n.min(4096));
        for _ in 0..n {
            out.push(element(self)?);
        }
        Ok(out)
    }

    fn rectangle(&mut self) -> Result<Rectangle> {
        let x = self.xnb.i32("a Rectangle")?;
        let y = self.xnb.i32("a Rectangle")?;
        let w = self.xnb.i32("a Rectangle")?;
        let h = self.xnb.i32("a Rectangle")?;
        Ok(Rectangle::new(x, y, w, h))
    }

    fn vector3(&mut self) -> Result<Vector3> {
        self.vector3_of("a Vector3")
    }

    /// `ReadVector3` of a field named `what`.
    fn vector3_of(&mut self, what: &str) -> Result<Vector3> {
        let x = self.xnb.f32(what)?;
        let y = self.xnb.f32(what)?;
        let z = self.xnb.f32(what)?;
        Ok(Vector3::new(x, y, z))
    }

    fn vector2(&mut self) -> Result<Vector2> {
        let x = self.xnb.f32("a Vector2")?;
        let y = self.xnb.f32("a Vector2")?;
        Ok(Vector2::new(x, y))
    }

    fn vector4(&mut self, what: &str) -> Result<Vector4> {
        let x = self.xnb.f32(what)?;
        let y = self.xnb.f32(what)?;
        let z = self.xnb.f32(what)?;
        let w = self.xnb.f32(what)?;
        Ok(Vector4::new(x, y, z, w))
    }

    /// `ReadMatrix`: M11, M12, ... M44, row by row.
    fn matrix(&mut self) -> Result<Matrix> {
        let mut m = [[0.0f32; 4]; 4];
        for row in &mut m {
            for value in row {
                *value = self.xnb.f32("a Matrix")?;
            }
        }
        Ok(Matrix { m })
    }

    /// `ReadColor`: the packed value, little-endian, so R, G, B, A byte by byte.
    fn color(&mut self) -> Result<Color> {
        let b = self.xnb.bytes(4, "a Color")?;
        Ok(Color::new(b[0], b[1], b[2], b[3]))
    }

    /// A `CompareFunction` stored as its `Int32`, XNA 4.0's numbers (Always 0, Never, Less,
    /// LessEqual, Equal, GreaterEqual, Greater, NotEqual 7).
    fn compare_function(&mut self, what: &str) -> Result<CompareFunction> {
        use CompareFunction as C;
        let at = self.xnb.position();
        Ok(match self.xnb.i32(what)? {
            0 => C::Always,
            1 => C::Never,
            2 => C::Less,
            3 => C::LessEqual,
            4 => C::Equal,
            5 => C::GreaterEqual,
            6 => C::Greater,
            7 => C::NotEqual,
            n => {
                return Err(self.xnb.error_at(
                    at,
                    format!("{what} is {n}, not an XNA 4.0 CompareFunction (0 to 7)"),
                ))
            }
        })
    }

    /// `SpriteFontReader`: the texture, glyph and cropping rectangles, characters, line
    /// spacing, spacing, kerning, and an optional default character.
    fn sprite_font(&mut self) -> Result<SpriteFont> {
        let at = self.xnb.position();
        let Object::Texture2D(texture) =
            self.read_required("the font's texture", Reader::Texture2D)?
        else {
            unreachable!("checked by read_required")
        };
        let Object::Rectangles(glyphs) =
            self.read_required("the font's glyph rectangles", Reader::RectangleList)?
        else {
            unreachable!("checked by read_required")
        };
        let Object::Rectangles(cropping) =
            self.read_required("the font's cropping rectangles", Reader::RectangleList)?
        else {
            unreachable!("checked by read_required")
        };
        let Object::Chars(characters) =
            self.read_required("the font's characters", Reader::CharList)?
        else {
            unreachable!("checked by read_required")
        };
        let line_spacing = self.xnb.i32("the font's line spacing")?;
        let spacing = self.xnb.f32("the font's spacing")?;
        let Object::Vectors(kerning) =
            self.read_required("the font's kerning", Reader::Vector3List)?
        else {
            unreachable!("checked by read_required")
        };
        let default_character = match self.xnb.bool("the font's default character flag")? {
            true => Some(self.xnb.char("the font's default character")?),
            false => None,
        };
        SpriteFont::from_parts(
            texture,
            &glyphs,
            &cropping,
            &characters,
            line_spacing,
            spacing,
            &kerning,
            default_character,
        )
        .map_err(|e: XnaError| self.xnb.error_at(at, format!("the font is inconsistent ({e})")))
    }
}

/// The reader that makes an object of this kind.
fn object_reader(object: &Object) -> Reader {
    match object {
        Object::Texture2D(_) => Reader::Texture2D,
        Object::Texture3D(_) => Reader::Texture3D,
        Object::TextureCube(_) => Reader::TextureCube,
        Object::VertexDeclaration(_) => Reader::VertexDeclaration,
        Object::VertexBuffer(_) => Reader::VertexBuffer,
        Object::IndexBuffer(_) => Reader::IndexBuffer,
        Object::SpriteFont(_) => Reader::SpriteFont,
        Object::Rectangles(_) => Reader::RectangleList,
        Object::Chars(_) => Reader::CharList,
        Object::Vectors(_) => Reader::Vector3List,
        Object::Rectangle(_) => Reader::Rectangle,
        Object::Char(_) => Reader::Char,
        Object::Vector3(_) => Reader::Vector3,
        Object::Int32(_) => Reader::Int32,
        Object::Single(_) => Reader::Single,
        Object::Boolean(_) => Reader::Boolean,
        Object::String(_) => Reader::String,
        Object::Vector2(_) => Reader::Vector2,
        Object::Vector4(_) => Reader::Vector4,
        Object::Matrix(_) => Reader::Matrix,
        Object::Quaternion(_) => Reader::Quaternion,
        Object::Color(_) => Reader::Color,
        Object::CompareFunction(_) => Reader::CompareFunction,
        Object::BasicEffect(_) => Reader::BasicEffect,
        Object::AlphaTestEffect(_) => Reader::AlphaTestEffect,
        Object::DualTextureEffect(_) => Reader::DualTextureEffect,
        Object::SkinnedEffect(_) => Reader::SkinnedEffect,
        Object::EnvironmentMapEffect(_) => Reader::EnvironmentMapEffect,
        Object::PendingModel(_) | Object::Model(_) => Reader::Model,
    }
}
