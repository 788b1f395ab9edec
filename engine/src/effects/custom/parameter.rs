//! Effect parameters: XNA's `EffectParameter`, set by name and type.
//!
//! A parameter is a member of a stage's uniform block (a scalar, vector or `mat4`, or an array
//! of them) or a `sampler2D`. Its type is read from the SPIR-V; a value of another type is
//! XNA's `InvalidCastException`. Values are kept in the effect and copied into the draw's
//! uniform bytes by `EffectPass::apply`, so a value set after `apply` changes only later
//! draws.

use std::sync::Arc;

use super::reflect::Member;
use crate::error::{Result, XnaError};
use crate::math::{Matrix, Vector2, Vector3, Vector4};
use crate::resources::cube::TextureCube;
use crate::resources::texture::{Texture2D, TextureRef};

/// XNA's `EffectParameterType`, as far as GLSL declares it. Where it differs: XNA's type is the
/// element type (`Single` for a `float4` or `float4x4`) and `ParameterClass` gives the shape;
/// here vectors and matrices have variants of their own, and [`ParameterType::class`] gives
/// XNA's class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParameterType {
    /// `bool` (stored in GLSL blocks as `uint`, so a `uint` member is a Bool too).
    Bool,
    /// `int` (XNA: `Int32`, class `Scalar`).
    Int32,
    /// `float` (XNA: `Single`, class `Scalar`).
    Single,
    /// `vec2` (XNA: `Single`, class `Vector`, two columns).
    Vector2,
    /// `vec3` (XNA: `Single`, class `Vector`, three columns).
    Vector3,
    /// `vec4` (XNA: `Single`, class `Vector`, four columns).
    Vector4,
    /// `mat4` (XNA: `Single`, class `Matrix`, 4×4).
    Matrix,
    /// `sampler2D` (XNA: `Texture2D`, class `Object`).
    Texture2D,
    /// `samplerCube` (XNA: `TextureCube`, class `Object`): only `EnvironmentMapEffect`'s
    /// `EnvironmentMap` is one; a custom effect's source declares none that xnagraph reflects.
    TextureCube,
}

/// XNA's `EffectParameterClass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParameterClass {
    /// `Scalar`: one number (`bool`, `int`, `float`).
    Scalar,
    /// `Vector`: two to four numbers.
    Vector,
    /// `Matrix`: a 4×4 matrix (the only matrix shape reflected).
    Matrix,
    /// `Object`: a texture (XNA's class of textures, samplers and strings).
    Object,
}

impl ParameterType {
    /// XNA's `ParameterClass` of a parameter of this type.
    pub fn class(self) -> ParameterClass {
        match self {
            ParameterType::Bool | ParameterType::Int32 | ParameterType::Single => {
                ParameterClass::Scalar
            }
            ParameterType::Vector2 | ParameterType::Vector3 | ParameterType::Vector4 => {
                ParameterClass::Vector
            }
            ParameterType::Matrix => ParameterClass::Matrix,
            ParameterType::Texture2D | ParameterType::TextureCube => ParameterClass::Object,
        }
    }

    /// 32-bit words of one element.
    pub(crate) fn words(self) -> usize {
        match self {
            ParameterType::Bool | ParameterType::Int32 | ParameterType::Single => 1,
            ParameterType::Vector2 => 2,
            ParameterType::Vector3 => 3,
            ParameterType::Vector4 => 4,
            ParameterType::Matrix => 16,
            ParameterType::Texture2D | ParameterType::TextureCube => 0,
        }
    }

    /// Bytes one element takes in a block, with matrix columns `matrix_stride` apart.
    pub(crate) fn bytes(self, matrix_stride: u32) -> u32 {
        match self {
            ParameterType::Matrix => 3 * matrix_stride.max(16) + 16,
            other => other.words() as u32 * 4,
        }
    }
}

/// A parameter's current value.
#[derive(Clone, Debug)]
pub(crate) enum Value {
    /// Elements of `words()` words each, all elements of the parameter (zero until set).
    Numbers(Vec<u32>),
    /// A reference to the game's texture, never a copy of it.
    Texture(Option<TextureRef>),
}

/// A value [`EffectParameter::set_value`](super::EffectParameter::set_value) takes: XNA's
/// `SetValue` overloads.
pub trait EffectValue: private::Sealed {
    /// The parameter type this value is, and its elements' words (`None` for a texture).
    #[doc(hidden)]
    fn describe(&self) -> (ParameterType, bool, Vec<u32>);
    /// The texture, for a texture value.
    #[doc(hidden)]
    fn texture(&self) -> Option<&Texture2D> {
        None
    }
    /// The cube map, for a cube map value.
    #[doc(hidden)]
    fn cube(&self) -> Option<&Arc<TextureCube>> {
        None
    }
}

mod private {
    pub trait Sealed {}
}

fn float_words(values: &[f32]) -> Vec<u32> {
    values.iter().map(|f| f.to_bits()).collect()
}

/// A matrix's words in XNA's storage order (M11, M12, … M44): GLSL reads them column by column
/// as the transpose, so `M * v` in the shader is XNA's `v * M`.
fn matrix_words(m: &Matrix) -> Vec<u32> {
    float_words(&m.to_column_major())
}

macro_rules! value {
    ($t:ty, $ty:expr, |$v:ident| $words:expr) => {
        impl private::Sealed for $t {}
        impl EffectValue for $t {
            fn describe(&self) -> (ParameterType, bool, Vec<u32>) {
                let $v = self;
                ($ty, false, $words)
            }
        }
        impl private::Sealed for &[$t] {}
        impl EffectValue for &[$t] {
            fn describe(&self) -> (ParameterType, bool, Vec<u32>) {
                let words = self.iter().flat_map(|$v| $words).collect();
                ($ty, true, words)
            }
        }
    };
}

value!(bool, ParameterType::Bool, |v| vec![u32::from(*v)]);
value!(i32, ParameterType::Int32, |v| vec![*v as u32]);
value!(f32, ParameterType::Single, |v| vec![v.to_bits()]);
value!(Vector2, ParameterType::Vector2, |v| float_words(&[v.x, v.y]));
value!(Vector3, ParameterType::Vector3, |v| float_words(&[v.x, v.y, v.z]));
value!(Vector4, ParameterType::Vector4, |v| float_words(&[v.x, v.y, v.z, v.w]));
value!(Matrix, ParameterType::Matrix, |v| matrix_words(v));

impl private::Sealed for &Texture2D {}
impl EffectValue for &Texture2D {
    fn describe(&self) -> (ParameterType, bool, Vec<u32>) {
        (ParameterType::Texture2D, false, Vec::new())
    }
    fn texture(&self) -> Option<&Texture2D> {
        Some(self)
    }
}

impl private::Sealed for &Arc<TextureCube> {}
impl EffectValue for &Arc<TextureCube> {
    fn describe(&self) -> (ParameterType, bool, Vec<u32>) {
        (ParameterType::TextureCube, false, Vec::new())
    }
    fn cube(&self) -> Option<&Arc<TextureCube>> {
        Some(self)
    }
}

/// The value of an [`EffectAnnotation`]: the annotation types an HLSL source can declare that
/// xnagraph reads (see [`CustomEffect::from_hlsl`](super::CustomEffect::from_hlsl)).
#[derive(Clone, Debug, PartialEq)]
pub enum AnnotationValue {
    /// `string Name = "...";` (XNA: `ParameterType.String`).
    String(String),
    /// `float`, `half` or `double` (XNA: `ParameterType.Single`).
    Single(f32),
    /// `int`, `uint` or `dword` (XNA: `ParameterType.Int32`).
    Int32(i32),
    /// `bool` (XNA: `ParameterType.Bool`).
    Bool(bool),
}

/// XNA's `EffectAnnotation`: a name and a value an effect source attaches to a parameter
/// (`float4 Tint <string UIName = "Tint colour";>;`), read with the `get_value_*` methods as
/// XNA's `GetValueString()` and its siblings. Where xnagraph differs: only scalar and string
/// annotations exist (XNA also has vector and matrix ones), and an annotation has no semantic.
#[derive(Clone, Debug, PartialEq)]
pub struct EffectAnnotation {
    pub(crate) name: String,
    pub(crate) value: AnnotationValue,
}

impl EffectAnnotation {
    /// XNA's `EffectAnnotation.Name`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The value, of whichever type the source declared.
    pub fn value(&self) -> &AnnotationValue {
        &self.value
    }

    fn cast(&self, wanted: &str) -> XnaError {
        XnaError::InvalidCast {
            message: format!(
                "The annotation '{}' is {:?}; it cannot be read as {wanted}.",
                self.name, self.value
            ),
        }
    }

    /// XNA's `GetValueString()`; an annotation of another type is `InvalidCast`.
    pub fn get_value_string(&self) -> Result<&str> {
        match &self.value {
            AnnotationValue::String(s) => Ok(s),
            _ => Err(self.cast("a String")),
        }
    }

    /// XNA's `GetValueSingle()`; an annotation of another type is `InvalidCast`.
    pub fn get_value_single(&self) -> Result<f32> {
        match self.value {
            AnnotationValue::Single(v) => Ok(v),
            _ => Err(self.cast("a Single")),
        }
    }

    /// XNA's `GetValueInt32()`; an annotation of another type is `InvalidCast`.
    pub fn get_value_int32(&self) -> Result<i32> {
        match self.value {
            AnnotationValue::Int32(v) => Ok(v),
            _ => Err(self.cast("an Int32")),
        }
    }

    /// XNA's `GetValueBoolean()`; an annotation of another type is `InvalidCast`.
    pub fn get_value_boolean(&self) -> Result<bool> {
        match self.value {
            AnnotationValue::Bool(v) => Ok(v),
            _ => Err(self.cast("a Boolean")),
        }
    }
}

/// What the effect knows of one parameter.
#[derive(Clone, Debug)]
pub(crate) struct ParameterInfo {
    pub name: String,
    pub ty: ParameterType,
    /// Array length; `None` for a single value.
    pub count: Option<u32>,
    /// XNA's `Semantic`, empty where the source gives none (always, for GLSL and SPIR-V).
    pub semantic: String,
    pub annotations: Vec<EffectAnnotation>,
}

impl ParameterInfo {
    pub fn of_member(m: &Member) -> ParameterInfo {
        ParameterInfo {
            name: m.name.clone(),
            ty: m.ty,
            count: m.count,
            semantic: String::new(),
            annotations: Vec::new(),
        }
    }

    pub fn initial(&self) -> Value {
        match self.ty {
            ParameterType::Texture2D => Value::Texture(None),
            ty => Value::Numbers(vec![0; ty.words() * self.count.unwrap_or(1) as usize]),
        }
    }

    /// Checks `value` against the parameter and returns its new stored value.
    pub fn accept(&self, value: &dyn EffectValue, current: &Value) -> Result<Value> {
        let (ty, array, words) = value.describe();
        let expected = match self.count {
            Some(n) => format!("{:?}[{n}]", self.ty),
            None => format!("{:?}", self.ty),
        };
        let given = if array { format!("{ty:?}[]") } else { format!("{ty:?}") };
        if ty != self.ty || array != self.count.is_some() {
            return Err(XnaError::InvalidCast {
                message: format!(
                    "The effect parameter '{}' is {expected}; a {given} value cannot be set on it.",
                    self.name
                ),
            });
        }
        if ty == ParameterType::Texture2D {
            return Ok(Value::Texture(value.texture().map(TextureRef::new)));
        }
        let Value::Numbers(old) = current else {
            return Err(XnaError::invalid_operation("The parameter holds no numbers."));
        };
        if words.len() > old.len() {
            return Err(XnaError::out_of_range(
                "value",
                format!(
                    "The effect parameter '{}' has {} elements; {} were given.",
                    self.name,
                    self.count.unwrap_or(1),
                    words.len() / ty.words()
                ),
            ));
        }
        // A shorter array sets the first elements and keeps the others, as XNA does.
        let mut new = old.clone();
        new[..words.len()].copy_from_slice(&words);
        Ok(Value::Numbers(new))
    }
}

/// Writes `words` (the parameter's elements) into `block` as member `m` lays them out.
pub(crate) fn write_member(block: &mut [u8], m: &Member, words: &[u32]) {
    let per = m.ty.words();
    for (e, element) in words.chunks(per).enumerate() {
        let base = m.offset as usize + e * m.array_stride as usize;
        let mut put = |at: usize, w: u32| {
            if let Some(dst) = block.get_mut(at..at + 4) {
                dst.copy_from_slice(&w.to_ne_bytes());
            }
        };
        if m.ty == ParameterType::Matrix {
            // `element` is XNA's M11..M44 row by row, which is the GLSL matrix's columns.
            let stride = m.matrix_stride as usize;
            for c in 0..4 {
                for r in 0..4 {
                    let (major, minor) = if m.row_major { (r, c) } else { (c, r) };
                    put(base + major * stride + minor * 4, element[c * 4 + r]);
                }
            }
        } else {
            for (i, &w) in element.iter().enumerate() {
                put(base + i * 4, w);
            }
        }
    }
}
