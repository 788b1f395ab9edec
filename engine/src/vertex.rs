//! XNA's vertex declarations, the stock vertex types, and `IndexElementSize`: what the
//! elements of a buffer are.
//!
//! A [`VertexDeclaration`] lists the [`VertexElement`]s of one vertex (offset, format, usage,
//! usage index) and its stride. A type implementing [`VertexType`] (XNA's `IVertexType`) names
//! its declaration, so `VertexBuffer::with_type::<T>` needs no declaration argument. The stock
//! types are `#[repr(C)]` and `Pod`, laid out exactly as their declarations say.

use bytemuck::{Pod, Zeroable};

use crate::error::{Result, XnaError};
use crate::math::{Color, Vector2, Vector3};

/// XNA's `VertexElementFormat`: how one element is stored. Each variant's value (`as i32`) is
/// XNA 4.0's, the number a compiled `.xnb` vertex declaration stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexElementFormat {
    /// `Single`: one 32-bit float.
    Single = 0,
    /// `Vector2`: two 32-bit floats.
    Vector2 = 1,
    /// `Vector3`: three 32-bit floats.
    Vector3 = 2,
    /// `Vector4`: four 32-bit floats.
    Vector4 = 3,
    /// `Color`: four unsigned bytes normalised to [0, 1], R G B A (XNA's packed `Color`).
    Color = 4,
    /// `Byte4`: four unsigned bytes, not normalised.
    Byte4 = 5,
    /// `Short2`: two signed 16-bit integers.
    Short2 = 6,
    /// `Short4`: four signed 16-bit integers.
    Short4 = 7,
    /// `NormalizedShort2`: two signed 16-bit integers normalised to [-1, 1].
    NormalizedShort2 = 8,
    /// `NormalizedShort4`: four signed 16-bit integers normalised to [-1, 1].
    NormalizedShort4 = 9,
    /// `HalfVector2`: two 16-bit floats.
    HalfVector2 = 10,
    /// `HalfVector4`: four 16-bit floats.
    HalfVector4 = 11,
}

impl VertexElementFormat {
    /// Every format, in XNA 4.0's order: `ALL[n]` is the format whose value is `n`.
    pub const ALL: [VertexElementFormat; 12] = [
        VertexElementFormat::Single,
        VertexElementFormat::Vector2,
        VertexElementFormat::Vector3,
        VertexElementFormat::Vector4,
        VertexElementFormat::Color,
        VertexElementFormat::Byte4,
        VertexElementFormat::Short2,
        VertexElementFormat::Short4,
        VertexElementFormat::NormalizedShort2,
        VertexElementFormat::NormalizedShort4,
        VertexElementFormat::HalfVector2,
        VertexElementFormat::HalfVector4,
    ];

    /// Bytes one element of this format takes (not XNA, which keeps the size internal).
    pub fn size(self) -> u32 {
        match self {
            VertexElementFormat::Single
            | VertexElementFormat::Color
            | VertexElementFormat::Byte4
            | VertexElementFormat::Short2
            | VertexElementFormat::NormalizedShort2
            | VertexElementFormat::HalfVector2 => 4,
            VertexElementFormat::Vector2
            | VertexElementFormat::Short4
            | VertexElementFormat::NormalizedShort4
            | VertexElementFormat::HalfVector4 => 8,
            VertexElementFormat::Vector3 => 12,
            VertexElementFormat::Vector4 => 16,
        }
    }
}

/// XNA's `VertexElementUsage`: what an element means to the vertex stage. Each variant's value
/// (`as i32`) is XNA 4.0's, from `Position` (0) to `TessellateFactor` (12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexElementUsage {
    /// XNA's `VertexElementUsage.Position`: the vertex position.
    Position = 0,
    /// XNA's `VertexElementUsage.Color`: a vertex colour.
    Color = 1,
    /// XNA's `VertexElementUsage.TextureCoordinate`: texture coordinates.
    TextureCoordinate = 2,
    /// XNA's `VertexElementUsage.Normal`: a vertex normal.
    Normal = 3,
    /// XNA's `VertexElementUsage.Binormal`: a binormal.
    Binormal = 4,
    /// XNA's `VertexElementUsage.Tangent`: a tangent.
    Tangent = 5,
    /// XNA's `VertexElementUsage.BlendIndices`: skinning bone indices.
    BlendIndices = 6,
    /// XNA's `VertexElementUsage.BlendWeight`: skinning bone weights.
    BlendWeight = 7,
    /// XNA's `VertexElementUsage.Depth`: a depth value.
    Depth = 8,
    /// XNA's `VertexElementUsage.Fog`: a fog value.
    Fog = 9,
    /// XNA's `VertexElementUsage.PointSize`: a point sprite size.
    PointSize = 10,
    /// XNA's `VertexElementUsage.Sample`: a sampler data value.
    Sample = 11,
    /// XNA's `VertexElementUsage.TessellateFactor`: a tessellation factor.
    TessellateFactor = 12,
}

impl VertexElementUsage {
    /// Every usage, in XNA 4.0's order: `ALL[n]` is the usage whose value is `n`.
    pub const ALL: [VertexElementUsage; 13] = [
        VertexElementUsage::Position,
        VertexElementUsage::Color,
        VertexElementUsage::TextureCoordinate,
        VertexElementUsage::Normal,
        VertexElementUsage::Binormal,
        VertexElementUsage::Tangent,
        VertexElementUsage::BlendIndices,
        VertexElementUsage::BlendWeight,
        VertexElementUsage::Depth,
        VertexElementUsage::Fog,
        VertexElementUsage::PointSize,
        VertexElementUsage::Sample,
        VertexElementUsage::TessellateFactor,
    ];
}

/// XNA's `VertexElement`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexElement {
    /// XNA's `Offset`: bytes from the start of the vertex (a multiple of 4; see
    /// [`VertexDeclaration`]).
    pub offset: u32,
    /// XNA's `VertexElementFormat`: how the element is stored.
    pub format: VertexElementFormat,
    /// XNA's `VertexElementUsage`: what the element means.
    pub usage: VertexElementUsage,
    /// XNA's `UsageIndex`: which of several elements of one usage (texture coordinate 0, 1,
    /// …).
    pub usage_index: u32,
}

impl VertexElement {
    /// XNA's `new VertexElement(offset, elementFormat, elementUsage, usageIndex)`; checked
    /// when a [`VertexDeclaration`] is made of it. Where it differs from XNA: the offset and
    /// index are unsigned.
    pub const fn new(
        offset: u32,
        format: VertexElementFormat,
        usage: VertexElementUsage,
        usage_index: u32,
    ) -> Self {
        VertexElement { offset, format, usage, usage_index }
    }
}

/// XNA's `VertexDeclaration`: the elements of one vertex and its stride in bytes.
///
/// Every element offset and the stride must be a multiple of 4, as XNA 4.0's own declaration
/// validator requires (an `ArgumentException`), although Direct3D 9 beneath it read vertices
/// at any stride. xnagraph needs the rule too: Vulkan requires each attribute's address to be
/// aligned to its format's component size (4 bytes for the float formats), and SDL_gpu passes
/// the layout through. Repacking such vertices at upload instead would cost a copy of every
/// `SetData` and every user draw, and `GetData` would no longer return the bytes written.
/// Refusing costs nothing a real layout needs: every [`VertexElementFormat`] is a multiple of
/// 4 bytes long (`Color`, `Byte4`, `Short2`, `NormalizedShort2` and `HalfVector2` are 4; the
/// rest 8, 12 or 16), so elements packed one after another from offset 0, as XNA's stock
/// types and the content pipeline lay them out, are always aligned; only padding of 1 to 3
/// bytes is refused. A `VertexBuffer`, an instanced stream and a `DrawUserPrimitives` vertex
/// type all take their stride from a declaration, so this is the one place the rule is
/// checked.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VertexDeclaration {
    stride: u32,
    elements: Vec<VertexElement>,
}

/// The alignment in bytes of every vertex element offset and vertex stride.
const VERTEX_ALIGNMENT: u32 = 4;

/// The end of `element` (its offset plus its size), or XNA's `ArgumentException` naming
/// `elements` when it lies past `u32::MAX` (in XNA, past `int.MaxValue`).
fn element_end(element: &VertexElement) -> Result<u32> {
    element
        .offset
        .checked_add(element.format.size())
        .filter(|&end| end <= i32::MAX as u32)
        .ok_or_else(|| {
            XnaError::argument(
                "elements",
                format!(
                    "The vertex element at offset {} ({:?}) ends past the largest vertex stride.",
                    element.offset, element.format
                ),
            )
        })
}

impl VertexDeclaration {
    /// XNA's `new VertexDeclaration(params VertexElement[])`: the stride is the end of the
    /// furthest element.
    /// Refused as XNA does: no elements, or an element ending past `i32::MAX` bytes
    /// (`Argument`, `elements`), elements that overlap or repeat a usage and index
    /// (`InvalidOperation`), an offset that is not a multiple of 4 (`Argument`, `elements`; see
    /// the type's doc).
    pub fn new(elements: &[VertexElement]) -> Result<Self> {
        let mut stride = 0;
        for e in elements {
            stride = stride.max(element_end(e)?);
        }
        Self::with_stride(stride as i32, elements)
    }

    /// XNA's `new VertexDeclaration(vertexStride, params VertexElement[])`. Besides [`Self::new`]'s
    /// checks, the stride must be positive and cover every element (`ArgumentOutOfRange`,
    /// `vertexStride`) and be a multiple of 4 (`Argument`, `vertexStride`, as XNA; see the type's
    /// doc).
    pub fn with_stride(stride: i32, elements: &[VertexElement]) -> Result<Self> {
        if elements.is_empty() {
            return Err(XnaError::argument("elements", "Elements cannot be empty."));
        }
        let mut end = 0;
        for e in elements {
            end = end.max(element_end(e)?);
            if !e.offset.is_multiple_of(VERTEX_ALIGNMENT) {
                return Err(XnaError::argument(
                    "elements",
                    format!(
                        "The vertex element offset {} is not a multiple of {VERTEX_ALIGNMENT} \
                         (Vulkan reads vertex attributes at aligned addresses only).",
                        e.offset
                    ),
                ));
            }
        }
        if stride <= 0 || (stride as u32) < end {
            return Err(XnaError::out_of_range(
                "vertexStride",
                format!("The vertex stride {stride} does not cover the elements ({end} bytes)."),
            ));
        }
        if !(stride as u32).is_multiple_of(VERTEX_ALIGNMENT) {
            return Err(XnaError::argument(
                "vertexStride",
                format!(
                    "The vertex stride {stride} is not a multiple of {VERTEX_ALIGNMENT} (Vulkan \
                     reads vertex attributes at aligned addresses only)."
                ),
            ));
        }
        for (i, a) in elements.iter().enumerate() {
            for b in &elements[..i] {
                // Both ends were checked above: no sum here overflows.
                let overlap =
                    a.offset < b.offset + b.format.size() && b.offset < a.offset + a.format.size();
                if overlap {
                    return Err(XnaError::invalid_operation(format!(
                        "The vertex elements at offsets {} and {} overlap.",
                        b.offset, a.offset
                    )));
                }
                if a.usage == b.usage && a.usage_index == b.usage_index {
                    return Err(XnaError::invalid_operation(format!(
                        "The vertex declaration has two {:?} elements with usage index {}.",
                        a.usage, a.usage_index
                    )));
                }
            }
        }
        Ok(VertexDeclaration { stride: stride as u32, elements: elements.to_vec() })
    }

    /// XNA's `VertexDeclaration.VertexStride`, in bytes.
    pub fn vertex_stride(&self) -> i32 {
        self.stride as i32
    }

    /// XNA's `VertexDeclaration.GetVertexElements()`, borrowed rather than copied.
    pub fn vertex_elements(&self) -> &[VertexElement] {
        &self.elements
    }
}

/// XNA's `IVertexType`: a vertex structure that knows its declaration.
pub trait VertexType: Pod {
    /// XNA's `IVertexType.VertexDeclaration`: the declaration describing `Self`'s layout.
    /// Where it differs from XNA: an associated function, so no value is needed.
    fn vertex_declaration() -> VertexDeclaration;
}

macro_rules! stock_declaration {
    ($($offset:expr, $format:ident, $usage:ident);+) => {
        VertexDeclaration::new(&[$(VertexElement::new(
            $offset,
            VertexElementFormat::$format,
            VertexElementUsage::$usage,
            0,
        )),+])
        .expect("the stock declarations are valid")
    };
}

/// XNA's `VertexPositionColor`: position, then colour (16 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, Pod, Zeroable)]
pub struct VertexPositionColor {
    /// XNA's `Position` field.
    pub position: Vector3,
    /// XNA's `Color` field.
    pub color: Color,
}

impl VertexType for VertexPositionColor {
    fn vertex_declaration() -> VertexDeclaration {
        stock_declaration!(0, Vector3, Position; 12, Color, Color)
    }
}

/// XNA's `VertexPositionTexture`: position, then texture coordinates (20 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, Pod, Zeroable)]
pub struct VertexPositionTexture {
    /// XNA's `Position` field.
    pub position: Vector3,
    /// XNA's `TextureCoordinate` field.
    pub texture_coordinate: Vector2,
}

impl VertexType for VertexPositionTexture {
    fn vertex_declaration() -> VertexDeclaration {
        stock_declaration!(0, Vector3, Position; 12, Vector2, TextureCoordinate)
    }
}

/// XNA's `VertexPositionColorTexture`: position, colour, texture coordinates (24 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, Pod, Zeroable)]
pub struct VertexPositionColorTexture {
    /// XNA's `Position` field.
    pub position: Vector3,
    /// XNA's `Color` field.
    pub color: Color,
    /// XNA's `TextureCoordinate` field.
    pub texture_coordinate: Vector2,
}

impl VertexType for VertexPositionColorTexture {
    fn vertex_declaration() -> VertexDeclaration {
        stock_declaration!(0, Vector3, Position; 12, Color, Color; 16, Vector2, TextureCoordinate)
    }
}

/// XNA's `VertexPositionNormalTexture`: position, normal, texture coordinates (32 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, Pod, Zeroable)]
pub struct VertexPositionNormalTexture {
    /// XNA's `Position` field.
    pub position: Vector3,
    /// XNA's `Normal` field.
    pub normal: Vector3,
    /// XNA's `TextureCoordinate` field.
    pub texture_coordinate: Vector2,
}

impl VertexType for VertexPositionNormalTexture {
    fn vertex_declaration() -> VertexDeclaration {
        stock_declaration!(0, Vector3, Position; 12, Vector3, Normal; 24, Vector2, TextureCoordinate)
    }
}

/// XNA's `IndexElementSize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexElementSize {
    /// XNA's `IndexElementSize.SixteenBits`: 16-bit indices (`u16`).
    SixteenBits,
    /// XNA's `IndexElementSize.ThirtyTwoBits`: 32-bit indices (`u32`; HiDef profile only).
    ThirtyTwoBits,
}

impl IndexElementSize {
    /// Bytes per index (not XNA).
    pub fn bytes(self) -> u32 {
        match self {
            IndexElementSize::SixteenBits => 2,
            IndexElementSize::ThirtyTwoBits => 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ALL[n]` is the variant whose value is `n`, and the values are XNA 4.0's (the ends and a
    /// middle one of each enum named here, as XNA's documentation numbers them).
    #[test]
    fn element_enum_values_are_xna_4s() {
        for (n, format) in VertexElementFormat::ALL.iter().enumerate() {
            assert_eq!(*format as usize, n, "{format:?}");
        }
        for (n, usage) in VertexElementUsage::ALL.iter().enumerate() {
            assert_eq!(*usage as usize, n, "{usage:?}");
        }
        assert_eq!(VertexElementFormat::Color as i32, 4);
        assert_eq!(VertexElementFormat::HalfVector4 as i32, 11);
        assert_eq!(VertexElementUsage::TextureCoordinate as i32, 2);
        assert_eq!(VertexElementUsage::TessellateFactor as i32, 12);
    }
}
