//! The type readers a file may list, by the .NET names XNA's and MonoGame's writers give
//! them: [`Reader`] and the qualification-free form of a name that it is matched on.
//!
//! In: a reader's name as the file spells it. Out: the [`Reader`] it denotes, or none (the
//! file is then refused at the name). What is decided here: which names xnagraph reads, and
//! that assembly qualifications (of the reader and of a generic reader's arguments) do not
//! take part in the match.

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
    Int32,
    Single,
    Boolean,
    String,
    Vector2,
    Vector4,
    Matrix,
    Quaternion,
    Color,
    CompareFunction,
    BasicEffect,
    AlphaTestEffect,
    DualTextureEffect,
    SkinnedEffect,
    EnvironmentMapEffect,
    Effect,
    Model,
}

const NS: &str = "Microsoft.Xna.Framework.Content.";

impl Reader {
    /// The reader a (qualification-free) name denotes.
    pub(super) fn from_name(name: &str) -> Option<Reader> {
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
            "Int32Reader" => Reader::Int32,
            "SingleReader" => Reader::Single,
            "BooleanReader" => Reader::Boolean,
            "StringReader" => Reader::String,
            "Vector2Reader" => Reader::Vector2,
            "Vector4Reader" => Reader::Vector4,
            "MatrixReader" => Reader::Matrix,
            "QuaternionReader" => Reader::Quaternion,
            "ColorReader" => Reader::Color,
            "EnumReader`1[[Microsoft.Xna.Framework.Graphics.CompareFunction]]" => {
                Reader::CompareFunction
            }
            "BasicEffectReader" => Reader::BasicEffect,
            "AlphaTestEffectReader" => Reader::AlphaTestEffect,
            "DualTextureEffectReader" => Reader::DualTextureEffect,
            "SkinnedEffectReader" => Reader::SkinnedEffect,
            "EnvironmentMapEffectReader" => Reader::EnvironmentMapEffect,
            // XNA's (compiled Direct3D 9 effects) and MonoGame's (MGFX) have one name.
            "EffectReader" => Reader::Effect,
            "ModelReader" => Reader::Model,
            _ => return None,
        })
    }

    /// The XNA type the reader produces, for messages.
    pub(super) fn produces(self) -> &'static str {
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
            Reader::Int32 => "Int32",
            Reader::Single => "Single",
            Reader::Boolean => "Boolean",
            Reader::String => "String",
            Reader::Vector2 => "Vector2",
            Reader::Vector4 => "Vector4",
            Reader::Matrix => "Matrix",
            Reader::Quaternion => "Quaternion",
            Reader::Color => "Color",
            Reader::CompareFunction => "CompareFunction",
            Reader::BasicEffect => "BasicEffect",
            Reader::AlphaTestEffect => "AlphaTestEffect",
            Reader::DualTextureEffect => "DualTextureEffect",
            Reader::SkinnedEffect => "SkinnedEffect",
            Reader::EnvironmentMapEffect => "EnvironmentMapEffect",
            Reader::Effect => "Effect",
            Reader::Model => "Model",
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
        assert_eq!(
            Reader::from_name("Microsoft.Xna.Framework.Content.ModelReader"),
            Some(Reader::Model)
        );
        assert_eq!(Reader::from_name("Microsoft.Xna.Framework.Content.SoundEffectReader"), None);
    }
}
