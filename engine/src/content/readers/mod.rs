//! XNB's type readers: the list a file names, and the readers of the types xnagraph loads.
//!
//! In: an [`XnbReader`] at the type reader list. Out: the asset's primary object (a texture of
//! any kind, a `SpriteFont`, a vertex declaration, a vertex or index buffer), after its shared
//! resources are read, or a `ContentLoad` error naming what is wrong and the byte where it lies.
//!
//! A file lists its readers by .NET type name (assembly-qualified, e.g.
//! `Microsoft.Xna.Framework.Content.Texture2DReader, Microsoft.Xna.Framework.Graphics,
//! Version=4.0.0.0, Culture=neutral, PublicKeyToken=842cf8be1de50553`), each with a version
//! number; the assembly qualifications (of the reader and of a generic reader's arguments)
//! are dropped before the name is matched, so XNA's and MonoGame's names both resolve. As in
//! XNA, every listed reader must be known (an unknown one is refused at the list, before
//! anything is read) and have version 0. An object is a 7-bit encoded reader index (0: null;
//! n: the n-th listed reader) then that reader's data; the elements of a list of a value type
//! (`Rectangle`, `char`, `Vector3`) follow the list's count with no index, as .NET value types
//! are written.
//!
//! Readers kept here: `SpriteFontReader` (texture, glyph rectangles, cropping rectangles,
//! characters, line spacing, spacing, kerning triples, an optional default character), and the
//! list, `Rectangle`, `char` and `Vector3` readers a font uses. The texture readers
//! (`Texture2DReader`, `Texture3DReader`, `TextureCubeReader`) are in `textures.rs`; the
//! geometry readers (`VertexDeclarationReader`, `VertexBufferReader`, `IndexBufferReader`) in
//! `buffers.rs`.

mod buffers;
mod textures;

use super::xnb::{Header, XnbReader};
use crate::device::profile::GraphicsProfile;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::math::{Rectangle, Vector3};
use crate::resources::buffer::{IndexBuffer, VertexBuffer};
use crate::resources::cube::TextureCube;
use crate::resources::texture::Texture2D;
use crate::resources::texture3d::Texture3D;
use crate::sprites::font::SpriteFont;
use crate::vertex::VertexDeclaration;

/// A type reader xnagraph knows, by its name without assembly qualifications.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reader {
    Texture2D,
    Texture3D,
    TextureCube,
    VertexDeclaration,
    VertexBuffer,
    IndexBuffer,
    SpriteFont,
    RectangleList,
    CharList,
    Vector3List,
    Rectangle,
    Char,
    Vector3,
}

const NS: &str = "Microsoft.Xna.Framework.Content.";

impl Reader {
    /// The reader a (qualification-free) name denotes.
    fn from_name(name: &str) -> Option<Reader> {
        let local = name.strip_prefix(NS)?;
        Some(match local {
            "Texture2DReader" => Reader::Texture2D,
            "Texture3DReader" => Reader::Texture3D,
            "TextureCubeReader" => Reader::TextureCube,
            "VertexDeclarationReader" => Reader::VertexDeclaration,
            "VertexBufferReader" => Reader::VertexBuffer,
            "IndexBufferReader" => Reader::IndexBuffer,
            "SpriteFontReader" => Reader::SpriteFont,
            "ListReader`1[[Microsoft.Xna.Framework.Rectangle]]" => Reader::RectangleList,
            "ListReader`1[[System.Char]]" => Reader::CharList,
            "ListReader`1[[Microsoft.Xna.Framework.Vector3]]" => Reader::Vector3List,
            "RectangleReader" => Reader::Rectangle,
            "CharReader" => Reader::Char,
            "Vector3Reader" => Reader::Vector3,
            _ => return None,
        })
    }

    /// The XNA type the reader produces, for messages.
    fn produces(self) -> &'static str {
        match self {
            Reader::Texture2D => "Texture2D",
            Reader::Texture3D => "Texture3D",
            Reader::TextureCube => "TextureCube",
            Reader::VertexDeclaration => "VertexDeclaration",
            Reader::VertexBuffer => "VertexBuffer",
            Reader::IndexBuffer => "IndexBuffer",
            Reader::SpriteFont => "SpriteFont",
            Reader::RectangleList => "List<Rectangle>",
            Reader::CharList => "List<char>",
            Reader::Vector3List => "List<Vector3>",
            Reader::Rectangle => "Rectangle",
            Reader::Char => "char",
            Reader::Vector3 => "Vector3",
        }
    }
}

/// A .NET type name without its assembly qualifications, at every generic argument too:
/// `ListReader`1[[System.Char, mscorlib, Version=4.0.0.0]], Asm` becomes
/// `ListReader`1[[System.Char]]`.
pub(crate) fn without_assemblies(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut depth = 0i32;
    // The depth at which a qualification being skipped began.
    let mut skipping: Option<i32> = None;
    let mut previous = ' ';
    for c in name.chars() {
        if let Some(from) = skipping {
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth < from {
                        skipping = None;
                        out.push(']');
                        previous = ']';
                    }
                }
                _ => {}
            }
            continue;
        }
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            // A comma after a type name starts its assembly; one after `]` inside the
            // argument list separates generic arguments.
            ',' if depth == 0 || previous != ']' => {
                skipping = Some(depth);
                continue;
            }
            _ => {}
        }
        if !c.is_whitespace() {
            out.push(c);
            previous = c;
        }
    }
    out
}

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
}

impl Object {
    /// XNA's name of the object's type, for messages.
    pub(crate) fn type_name(&self) -> &'static str {
        object_reader(self).produces()
    }
}

/// Reads objects with the file's type readers.
pub(crate) struct ContentReader<'a> {
    xnb: XnbReader<'a>,
    readers: Vec<Reader>,
    device: &'a GraphicsDevice,
}

impl<'a> ContentReader<'a> {
    /// Reads the type reader list at the start of the content, refusing HiDef content on a
    /// Reach device as XNA does.
    pub fn new(
        device: &'a GraphicsDevice,
        header: Header,
        mut xnb: XnbReader<'a>,
    ) -> Result<ContentReader<'a>> {
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
        Ok(ContentReader { xnb, readers, device })
    }

    /// XNA's `ReadAsset`: the shared resource count, the primary object (not null), then the
    /// shared resources.
    pub fn read_asset(mut self) -> Result<Object> {
        let shared = self.xnb.int7("the shared resource count")?;
        let at = self.xnb.position();
        let primary = self
            .read_object("the asset")?
            .ok_or_else(|| self.xnb.error_at(at, "the asset's object is null"))?;
        for _ in 0..shared {
            // No reader of these types refers to a shared resource; each is still read, so a
            // malformed one is reported.
            self.read_object("a shared resource")?;
        }
        Ok(primary)
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
        let x = self.xnb.f32("a Vector3")?;
        let y = self.xnb.f32("a Vector3")?;
        let z = self.xnb.f32("a Vector3")?;
        Ok(Vector3::new(x, y, z))
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assembly_qualifications_are_dropped_at_every_level() {
        let xna = "Microsoft.Xna.Framework.Content.ListReader`1[[System.Char, mscorlib, \
                   Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089]]";
        assert_eq!(
            without_assemblies(xna),
            "Microsoft.Xna.Framework.Content.ListReader`1[[System.Char]]"
        );
        let qualified = "Microsoft.Xna.Framework.Content.Texture2DReader, \
                         Microsoft.Xna.Framework.Graphics, Version=4.0.0.0, Culture=neutral, \
                         PublicKeyToken=842cf8be1de50553";
        assert_eq!(Reader::from_name(&without_assemblies(qualified)), Some(Reader::Texture2D));
        let two = "N.Dictionary`2[[A.K, a, Version=1],[B.V, b]], x";
        assert_eq!(without_assemblies(two), "N.Dictionary`2[[A.K],[B.V]]");
        assert_eq!(Reader::from_name("Microsoft.Xna.Framework.Content.ModelReader"), None);
    }
}
