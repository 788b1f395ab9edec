//! XNA's `Effect.Parameters` on the stock effects: the parameters of XNA's stock effect sources
//! (`BasicEffect.fx`, `AlphaTestEffect.fx`, `DualTextureEffect.fx`, `SkinnedEffect.fx`,
//! `EnvironmentMapEffect.fx`), by their names and types, over the effect's properties.
//!
//! A stock effect's parameters are of two kinds. Those that hold a property as it is (`World`,
//! `Texture`, `SpecularPower`, `FogColor`, a light's `Direction`, SkinnedEffect's `Bones`) are
//! read and written: setting one by name sets the property, and reading one reads it. Those that XNA's effect classes
//! compute from several properties at `Apply` (`WorldViewProj`, `WorldInverseTranspose`,
//! `EyePosition`, `DiffuseColor` and `EmissiveColor` with alpha, ambient and lighting folded
//! in, `FogVector`, `AlphaTest`, `ShaderIndex`) read as `Apply` would compute them from the
//! properties now; setting one is `InvalidOperation` naming the properties to set instead. XNA
//! let such a write stand until a property it derives from next changed, so a ported game that
//! relied on that learns of it at the call.

use std::sync::Arc;

use crate::effects::custom::{EffectValue, ParameterClass, ParameterType};
use crate::effects::stock::DirectionalLight;
use crate::error::{Result, XnaError};
use crate::math::{Matrix, Vector3, Vector4};
use crate::resources::cube::TextureCube;
use crate::resources::texture::{Texture2D, TextureRef};

/// One parameter of a stock effect's table: its XNA name and type, and, for a computed one,
/// the properties it is computed from (`None` for a parameter that holds a property).
#[derive(Clone, Copy, Debug)]
pub(crate) struct StockParameterInfo {
    pub name: &'static str,
    pub ty: ParameterType,
    pub computed_from: Option<&'static str>,
    /// The array's length, or 0 for a parameter that is not an array.
    pub elements: usize,
}

impl StockParameterInfo {
    /// The parameter's semantic: XNA's stock effect sources declare none.
    fn semantic(&self) -> &'static str {
        ""
    }
}

/// A parameter that holds a property.
pub(crate) const fn held(name: &'static str, ty: ParameterType) -> StockParameterInfo {
    StockParameterInfo { name, ty, computed_from: None, elements: 0 }
}

/// An array parameter of `elements` elements that holds a property.
pub(crate) const fn held_array(
    name: &'static str,
    ty: ParameterType,
    elements: usize,
) -> StockParameterInfo {
    StockParameterInfo { name, ty, computed_from: None, elements }
}

/// A parameter computed at `Apply` from `from`.
pub(crate) const fn computed(
    name: &'static str,
    ty: ParameterType,
    from: &'static str,
) -> StockParameterInfo {
    StockParameterInfo { name, ty, computed_from: Some(from), elements: 0 }
}

/// A stock parameter's value.
#[derive(Clone, Debug)]
pub(crate) enum StockValue {
    Matrix(Matrix),
    Vector3(Vector3),
    Vector4(Vector4),
    Single(f32),
    Int32(i32),
    /// A reference to the game's texture, never a copy of it.
    Texture(Option<TextureRef>),
    /// The game's cube map, shared.
    Cube(Option<Arc<TextureCube>>),
    /// The elements of a `Matrix` array parameter: all of them when read; the first ones, to
    /// set, when written (the others keep their values).
    Matrices(Vec<Matrix>),
}

/// A stock effect as its parameter collection sees it: the table, and reading and writing a
/// parameter of the table by its index.
pub(crate) trait StockParameters {
    /// The effect's parameters in XNA's declaration order.
    fn table(&self) -> &'static [StockParameterInfo];
    /// The value of parameter `index` as `Apply` would hand it to the shader now.
    fn read(&self, index: usize) -> StockValue;
    /// Sets the property behind parameter `index` (only called for held parameters, with a
    /// value of the parameter's type).
    fn write(&mut self, index: usize, value: StockValue);
}

/// XNA's `EffectParameterCollection` of a stock effect (`BasicEffect.Parameters`,
/// `AlphaTestEffect.Parameters`, `DualTextureEffect.Parameters`, `SkinnedEffect.Parameters`,
/// `EnvironmentMapEffect.Parameters`): see the module doc of
/// `effects::parameters` for which parameters hold a property and which are computed. It
/// borrows the effect mutably, since a parameter written sets the effect's property.
pub struct EffectParameterCollection<'a> {
    effect: &'a mut dyn StockParameters,
}

/// XNA's `EffectParameter` of a stock effect: one parameter of an
/// [`EffectParameterCollection`].
pub struct StockParameter<'a> {
    effect: &'a mut dyn StockParameters,
    index: usize,
}

impl<'a> EffectParameterCollection<'a> {
    pub(crate) fn new(effect: &'a mut dyn StockParameters) -> Self {
        EffectParameterCollection { effect }
    }

    /// `Count`.
    pub fn len(&self) -> usize {
        self.effect.table().len()
    }

    /// Whether the collection is empty (never, for a stock effect).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The parameters' names, in XNA's declaration order.
    pub fn names(&self) -> Vec<&'static str> {
        self.effect.table().iter().map(|p| p.name).collect()
    }

    /// `Parameters[name]`. XNA answers null for an unknown name and fails at its use; here
    /// the unknown name is `Argument` on `name` at once, as for a custom effect.
    pub fn get(&mut self, name: &str) -> Result<StockParameter<'_>> {
        let index = self.effect.table().iter().position(|p| p.name == name).ok_or_else(|| {
            XnaError::argument("name", format!("The effect has no parameter named '{name}'."))
        })?;
        Ok(StockParameter { effect: &mut *self.effect, index })
    }

    /// `GetParameterBySemantic(semantic)`: XNA's stock effect sources give their parameters no
    /// semantics, so this is always `None` (XNA's null), as in XNA. It is here so that code
    /// written against any effect's parameters reads the same (see
    /// [`CustomEffect::parameter_by_semantic`](crate::CustomEffect::parameter_by_semantic)).
    pub fn get_by_semantic(&mut self, semantic: &str) -> Option<StockParameter<'_>> {
        let table = self.effect.table();
        let index = table.iter().position(|p| {
            !p.semantic().is_empty() && p.semantic().eq_ignore_ascii_case(semantic)
        })?;
        Some(StockParameter { effect: &mut *self.effect, index })
    }
}

impl std::fmt::Debug for EffectParameterCollection<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl std::fmt::Debug for StockParameter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StockParameter")
            .field("name", &self.name())
            .field("type", &self.parameter_type())
            .finish()
    }
}

fn invalid_cast(name: &str, expected: ParameterType, given: &str) -> XnaError {
    XnaError::InvalidCast {
        message: format!(
            "The effect parameter '{name}' is {expected:?}; a {given} value cannot be {}.",
            if given.ends_with("read") { "read" } else { "set on it" }
        ),
    }
}

impl StockParameter<'_> {
    fn info(&self) -> StockParameterInfo {
        self.effect.table()[self.index]
    }

    /// `Name`.
    pub fn name(&self) -> &'static str {
        self.info().name
    }

    /// `Semantic`: empty, as XNA's stock effect sources declare no semantics.
    pub fn semantic(&self) -> &'static str {
        self.info().semantic()
    }

    /// `Annotations`: empty, as XNA's stock effect sources declare no annotations.
    pub fn annotations(&self) -> &'static [crate::effects::custom::EffectAnnotation] {
        &[]
    }

    /// `ParameterType`. XNA's 3×3 `WorldInverseTranspose` is a `Matrix` here (its 4×4 with
    /// the translation row of the inverse transpose).
    pub fn parameter_type(&self) -> ParameterType {
        self.info().ty
    }

    /// `ParameterClass`.
    pub fn parameter_class(&self) -> ParameterClass {
        self.info().ty.class()
    }

    /// `Elements.Count`: the array's length (72 for SkinnedEffect's `Bones`, XNA's
    /// `float4x3 Bones[72]`), or 0 for a parameter that is not an array, as in XNA.
    pub fn element_count(&self) -> usize {
        self.info().elements
    }

    /// Whether the effect computes this parameter at `Apply` from its properties (so it can
    /// be read, not set).
    pub fn is_computed(&self) -> bool {
        self.info().computed_from.is_some()
    }

    /// `SetValue(value)`: sets the property this parameter holds. A value of another type than
    /// the parameter's, a slice for a single value or a single value for an array (only
    /// SkinnedEffect's `Bones` is one), is `InvalidCast`; a slice longer than the array is
    /// `ArgumentOutOfRange` (`value`), and a shorter one sets the first elements, keeping the
    /// others, as XNA does; a computed parameter is `InvalidOperation` naming the properties it
    /// is computed from; a disposed texture or cube map is `ObjectDisposed`. Nothing changes
    /// on an error. `EnvironmentMap` takes a `&Arc<TextureCube>` and shares it, as
    /// [`crate::EnvironmentMapEffect::set_environment_map`] does.
    pub fn set_value<V: EffectValue>(&mut self, value: V) -> Result<()> {
        let info = self.info();
        let (ty, array, words) = value.describe();
        if ty != info.ty || array != (info.elements > 0) {
            let given = if array { format!("{ty:?}[]") } else { format!("{ty:?}") };
            return Err(invalid_cast(info.name, info.ty, &given));
        }
        if let Some(from) = info.computed_from {
            return Err(XnaError::invalid_operation(format!(
                "The effect parameter '{}' is computed at Apply from {from}; set those instead.",
                info.name
            )));
        }
        let f = |i: usize| f32::from_bits(words[i]);
        let matrix = |w: &[u32]| {
            let mut m = Matrix::IDENTITY;
            for (r, row) in m.m.iter_mut().enumerate() {
                for (c, cell) in row.iter_mut().enumerate() {
                    *cell = f32::from_bits(w[r * 4 + c]);
                }
            }
            m
        };
        let stock = match ty {
            ParameterType::Matrix if array => {
                let given = words.len() / 16;
                if given > info.elements {
                    return Err(XnaError::out_of_range(
                        "value",
                        format!(
                            "The effect parameter '{}' has {} elements; {given} were given.",
                            info.name, info.elements
                        ),
                    ));
                }
                StockValue::Matrices(words.chunks(16).map(matrix).collect())
            }
            ParameterType::Matrix => StockValue::Matrix(matrix(&words)),
            ParameterType::Vector3 => StockValue::Vector3(Vector3::new(f(0), f(1), f(2))),
            ParameterType::Vector4 => StockValue::Vector4(Vector4::new(f(0), f(1), f(2), f(3))),
            ParameterType::Single => StockValue::Single(f(0)),
            ParameterType::Int32 => StockValue::Int32(words[0] as i32),
            ParameterType::Texture2D => {
                let texture = value.texture();
                if let Some(t) = texture {
                    t.core.state()?;
                }
                StockValue::Texture(texture.map(TextureRef::new))
            }
            ParameterType::TextureCube => {
                let cube = value.cube();
                if let Some(c) = cube {
                    c.core.state()?;
                }
                StockValue::Cube(cube.cloned())
            }
            ParameterType::Bool | ParameterType::Vector2 => {
                return Err(invalid_cast(info.name, info.ty, &format!("{ty:?}")))
            }
        };
        self.effect.write(self.index, stock);
        Ok(())
    }

    /// The value, if the parameter is of type `wanted`; else `InvalidCast`.
    fn read<T>(&self, wanted: ParameterType, pick: fn(StockValue) -> Option<T>) -> Result<T> {
        let info = self.info();
        pick(self.effect.read(self.index))
            .ok_or_else(|| invalid_cast(info.name, info.ty, &format!("{wanted:?} read")))
    }

    /// `GetValueMatrix()`; a parameter of another type, or an array (`Bones`: see
    /// [`Self::get_value_matrix_array`]), is `InvalidCast`.
    pub fn get_value_matrix(&self) -> Result<Matrix> {
        self.read(ParameterType::Matrix, |v| match v {
            StockValue::Matrix(m) => Some(m),
            _ => None,
        })
    }

    /// `GetValueVector3()`; a parameter of another type is `InvalidCast`.
    pub fn get_value_vector3(&self) -> Result<Vector3> {
        self.read(ParameterType::Vector3, |v| match v {
            StockValue::Vector3(v) => Some(v),
            _ => None,
        })
    }

    /// `GetValueVector4()`; a parameter of another type is `InvalidCast`.
    pub fn get_value_vector4(&self) -> Result<Vector4> {
        self.read(ParameterType::Vector4, |v| match v {
            StockValue::Vector4(v) => Some(v),
            _ => None,
        })
    }

    /// `GetValueSingle()`; a parameter of another type is `InvalidCast`.
    pub fn get_value_single(&self) -> Result<f32> {
        self.read(ParameterType::Single, |v| match v {
            StockValue::Single(v) => Some(v),
            _ => None,
        })
    }

    /// `GetValueInt32()`; a parameter of another type is `InvalidCast`.
    pub fn get_value_int32(&self) -> Result<i32> {
        self.read(ParameterType::Int32, |v| match v {
            StockValue::Int32(v) => Some(v),
            _ => None,
        })
    }

    /// `GetValueTexture2D()` (`None` for XNA's null); a parameter of another type is
    /// `InvalidCast`.
    pub fn get_value_texture2d(&self) -> Result<Option<Texture2D>> {
        self.read(ParameterType::Texture2D, |v| match v {
            StockValue::Texture(t) => Some(t.as_ref().map(TextureRef::to_texture)),
            _ => None,
        })
    }

    /// `GetValueMatrixArray(count)`: the first `count` elements of a `Matrix` array parameter
    /// (SkinnedEffect's `Bones`: the bone transforms, as
    /// [`crate::SkinnedEffect::get_bone_transforms`] returns them). A parameter that is not a
    /// `Matrix` array is `InvalidCast`; a count outside 1..=`element_count()` is
    /// `ArgumentOutOfRange` (`count`).
    pub fn get_value_matrix_array(&self, count: usize) -> Result<Vec<Matrix>> {
        let info = self.info();
        let all = self.read(ParameterType::Matrix, |v| match v {
            StockValue::Matrices(m) => Some(m),
            _ => None,
        })?;
        if count == 0 || count > all.len() {
            return Err(XnaError::out_of_range(
                "count",
                format!(
                    "The effect parameter '{}' has {} elements; {count} were asked for.",
                    info.name,
                    all.len()
                ),
            ));
        }
        Ok(all[..count].to_vec())
    }

    /// `GetValueTextureCube()` (`None` for XNA's null): EnvironmentMapEffect's
    /// `EnvironmentMap`, the cube the effect shares; a parameter of another type is
    /// `InvalidCast`.
    pub fn get_value_texture_cube(&self) -> Result<Option<Arc<TextureCube>>> {
        self.read(ParameterType::TextureCube, |v| match v {
            StockValue::Cube(c) => Some(c),
            _ => None,
        })
    }
}

/// Light `n` (0..=2) and the rest of the name, for a `DirLight{n}...` parameter.
pub(crate) fn light_field(name: &str) -> Option<(usize, &str)> {
    let rest = name.strip_prefix("DirLight")?;
    let n = rest.get(..1)?.parse::<usize>().ok().filter(|&n| n < 3)?;
    Some((n, &rest[1..]))
}

/// The field of `light` a `DirLightN{field}` parameter holds.
pub(crate) fn light_value(light: &DirectionalLight, field: &str) -> Vector3 {
    match field {
        "Direction" => light.direction,
        "DiffuseColor" => light.diffuse_color,
        _ => light.specular_color,
    }
}

/// Sets the field of `light` a `DirLightN{field}` parameter holds.
pub(crate) fn set_light_value(light: &mut DirectionalLight, field: &str, value: Vector3) {
    match field {
        "Direction" => light.direction = value,
        "DiffuseColor" => light.diffuse_color = value,
        _ => light.specular_color = value,
    }
}
