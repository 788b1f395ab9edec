//! Reflection of a custom geometry effect's SPIR-V: the vertex inputs, the colour outputs, the
//! uniform block members and the samplers of one stage, read from the module itself.
//!
//! The resource layout is SDL_gpu's, which both backends use for the stock shaders: a vertex
//! stage's samplers are at set 0 and its uniform block at set 1, binding 0; a fragment stage's
//! samplers are at set 2 and its uniform block at set 3, binding 0. Everything else (storage
//! buffers, push constants, images without a sampler, a second block, sampler arrays) is
//! refused with a message naming it, so the backend only ever sees what it can bind.

use std::collections::HashMap;

use super::ParameterType;

// Opcodes, decorations and storage classes of the SPIR-V specification that reflection reads.
const OP_NAME: u32 = 5;
const OP_MEMBER_NAME: u32 = 6;
const OP_ENTRY_POINT: u32 = 15;
const OP_TYPE_BOOL: u32 = 20;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
const OP_TYPE_VECTOR: u32 = 23;
const OP_TYPE_MATRIX: u32 = 24;
const OP_TYPE_IMAGE: u32 = 25;
const OP_TYPE_SAMPLED_IMAGE: u32 = 27;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_STRUCT: u32 = 30;
const OP_TYPE_POINTER: u32 = 32;
const OP_CONSTANT: u32 = 43;
const OP_VARIABLE: u32 = 59;
const OP_DECORATE: u32 = 71;
const OP_MEMBER_DECORATE: u32 = 72;
const DECORATION_ROW_MAJOR: u32 = 4;
const DECORATION_ARRAY_STRIDE: u32 = 6;
const DECORATION_MATRIX_STRIDE: u32 = 7;
const DECORATION_BUILT_IN: u32 = 11;
const DECORATION_LOCATION: u32 = 30;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;
const DECORATION_OFFSET: u32 = 35;
const STORAGE_UNIFORM_CONSTANT: u32 = 0;
const STORAGE_INPUT: u32 = 1;
const STORAGE_UNIFORM: u32 = 2;
const STORAGE_OUTPUT: u32 = 3;
const STORAGE_PRIVATE: u32 = 6;
const STORAGE_FUNCTION: u32 = 7;
const DIM_2D: u32 = 1;

/// The most samplers one stage binds (XNA's 16 pixel samplers; HiDef's 4 vertex samplers are
/// checked by the effect).
pub(crate) const MAX_SAMPLERS: u32 = 16;

/// Which stage a module is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    Vertex,
    Fragment,
}

impl Stage {
    fn sampler_set(self) -> u32 {
        match self {
            Stage::Vertex => 0,
            Stage::Fragment => 2,
        }
    }

    fn block_set(self) -> u32 {
        match self {
            Stage::Vertex => 1,
            Stage::Fragment => 3,
        }
    }
}

/// A vertex input: its name (the vertex element it reads), location and component count.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Input {
    pub name: String,
    pub location: u32,
}

/// One member of a uniform block: a parameter's storage.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Member {
    pub name: String,
    pub ty: ParameterType,
    /// Array length; `None` for a single value.
    pub count: Option<u32>,
    pub offset: u32,
    /// Bytes between array elements.
    pub array_stride: u32,
    /// Bytes between matrix columns (rows when `row_major`).
    pub matrix_stride: u32,
    pub row_major: bool,
}

/// A sampler (`uniform sampler2D`): a Texture2D parameter at a binding.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Sampler {
    pub name: String,
    pub binding: u32,
}

/// What one stage reads and writes.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct StageInfo {
    pub inputs: Vec<Input>,
    /// Colour outputs at locations `0..outputs` (a fragment stage).
    pub outputs: u32,
    /// The uniform block's members and its size in bytes.
    pub members: Vec<Member>,
    pub block_size: u32,
    pub samplers: Vec<Sampler>,
}

#[derive(Clone, Debug)]
enum Type {
    Bool,
    Int {
        signed: bool,
    },
    Float,
    Vector(u32, u32),
    Matrix(u32, u32),
    Image(u32),
    SampledImage(u32),
    Array(u32, u32),
    Struct(Vec<u32>),
    /// Pointee type id.
    Pointer(u32),
    Other,
}

#[derive(Default)]
struct Decorations {
    location: Option<u32>,
    set: Option<u32>,
    binding: Option<u32>,
    built_in: bool,
    array_stride: u32,
}

#[derive(Default, Clone)]
struct MemberDecorations {
    offset: u32,
    matrix_stride: u32,
    row_major: bool,
}

/// Reflects `words`, a module of `stage` compiled by glslang; a refusal is the message of the
/// `ArgumentException` (the stage is named by the caller).
pub(crate) fn reflect(words: &[u32], stage: Stage) -> Result<StageInfo, String> {
    if words.len() < 5 || words[0] != crate::effect::SPIRV_MAGIC {
        return Err("the code is not a SPIR-V module".into());
    }
    let mut names: HashMap<u32, String> = HashMap::new();
    let mut member_names: HashMap<(u32, u32), String> = HashMap::new();
    let mut types: HashMap<u32, Type> = HashMap::new();
    let mut constants: HashMap<u32, u32> = HashMap::new();
    let mut decorations: HashMap<u32, Decorations> = HashMap::new();
    let mut member_decorations: HashMap<(u32, u32), MemberDecorations> = HashMap::new();
    let mut variables = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let opcode = words[at] & 0xFFFF;
        if count == 0 || at + count > words.len() {
            return Err("the code is a truncated SPIR-V module".into());
        }
        let op = &words[at + 1..at + count];
        let w = |i: usize| op.get(i).copied().ok_or("the code holds a malformed instruction");
        match opcode {
            OP_NAME => {
                names.insert(w(0)?, string(&op[1..]));
            }
            OP_MEMBER_NAME => {
                member_names.insert((w(0)?, w(1)?), string(op.get(2..).unwrap_or(&[])));
            }
            OP_ENTRY_POINT => {}
            OP_TYPE_BOOL => {
                types.insert(w(0)?, Type::Bool);
            }
            OP_TYPE_INT => {
                let ty = if w(1)? == 32 { Type::Int { signed: w(2)? == 1 } } else { Type::Other };
                types.insert(w(0)?, ty);
            }
            OP_TYPE_FLOAT => {
                types.insert(w(0)?, if w(1)? == 32 { Type::Float } else { Type::Other });
            }
            OP_TYPE_VECTOR => {
                types.insert(w(0)?, Type::Vector(w(1)?, w(2)?));
            }
            OP_TYPE_MATRIX => {
                types.insert(w(0)?, Type::Matrix(w(1)?, w(2)?));
            }
            OP_TYPE_IMAGE => {
                types.insert(w(0)?, Type::Image(w(2)?));
            }
            OP_TYPE_SAMPLED_IMAGE => {
                types.insert(w(0)?, Type::SampledImage(w(1)?));
            }
            OP_TYPE_ARRAY => {
                types.insert(w(0)?, Type::Array(w(1)?, w(2)?));
            }
            OP_TYPE_STRUCT => {
                types.insert(w(0)?, Type::Struct(op[1..].to_vec()));
            }
            OP_TYPE_POINTER => {
                types.insert(w(0)?, Type::Pointer(w(2)?));
            }
            OP_CONSTANT => {
                constants.insert(w(1)?, w(2)?);
            }
            OP_VARIABLE => {
                let storage = w(2)?;
                if storage != STORAGE_FUNCTION {
                    variables.push((w(1)?, w(0)?, storage));
                }
            }
            OP_DECORATE => {
                let d = decorations.entry(w(0)?).or_default();
                match w(1)? {
                    DECORATION_LOCATION => d.location = Some(w(2)?),
                    DECORATION_DESCRIPTOR_SET => d.set = Some(w(2)?),
                    DECORATION_BINDING => d.binding = Some(w(2)?),
                    DECORATION_BUILT_IN => d.built_in = true,
                    DECORATION_ARRAY_STRIDE => d.array_stride = w(2)?,
                    _ => {}
                }
            }
            OP_MEMBER_DECORATE => {
                let d = member_decorations.entry((w(0)?, w(1)?)).or_default();
                match w(2)? {
                    DECORATION_OFFSET => d.offset = w(3)?,
                    DECORATION_MATRIX_STRIDE => d.matrix_stride = w(3)?,
                    DECORATION_ROW_MAJOR => d.row_major = true,
                    _ => {}
                }
            }
            _ => {}
        }
        at += count;
    }

    let name_of = |id: u32| names.get(&id).cloned().unwrap_or_default();
    let mut info = StageInfo::default();
    let mut output_locations = Vec::new();
    let mut block_seen = false;
    for (id, pointer, storage) in variables {
        let Some(&Type::Pointer(pointee)) = types.get(&pointer) else {
            return Err("a variable's type is not a pointer".into());
        };
        let d = decorations.get(&id);
        let built_in = d.is_some_and(|d| d.built_in)
            || decorations.get(&pointee).is_some_and(|d| d.built_in)
            || matches!(types.get(&pointee), Some(Type::Struct(_)))
                && member_decorations.keys().any(|&(s, _)| s == pointee)
                && name_of(pointee).starts_with("gl_");
        let name = name_of(id);
        match storage {
            STORAGE_PRIVATE => {}
            STORAGE_INPUT | STORAGE_OUTPUT if built_in => {}
            STORAGE_INPUT if stage == Stage::Vertex => {
                let Some(location) = d.and_then(|d| d.location) else {
                    return Err(format!("the input '{name}' has no location"));
                };
                if !is_float_vector(&types, pointee) {
                    return Err(format!(
                        "the input '{name}' is not a float or vector of floats; vertex elements \
                         are read as floats"
                    ));
                }
                info.inputs.push(Input { name, location });
            }
            STORAGE_INPUT => {}
            STORAGE_OUTPUT if stage == Stage::Fragment => {
                let Some(location) = d.and_then(|d| d.location) else {
                    return Err(format!("the output '{name}' has no location"));
                };
                output_locations.push(location);
            }
            STORAGE_OUTPUT => {}
            STORAGE_UNIFORM_CONSTANT => {
                let (set, binding) = set_binding(d, &name)?;
                let image = match types.get(&pointee) {
                    Some(&Type::SampledImage(image)) => types.get(&image),
                    Some(Type::Array(..)) => {
                        return Err(format!(
                            "the sampler array '{name}' is not supported; declare one sampler \
                             per texture"
                        ))
                    }
                    _ => return Err(format!("the uniform '{name}' is not a sampler2D")),
                };
                if !matches!(image, Some(&Type::Image(DIM_2D))) {
                    return Err(format!("the sampler '{name}' is not a sampler2D"));
                }
                if set != stage.sampler_set() || binding >= MAX_SAMPLERS {
                    return Err(format!(
                        "the sampler '{name}' is at set {set}, binding {binding}; this stage's \
                         samplers are at set {}, bindings 0 to {}",
                        stage.sampler_set(),
                        MAX_SAMPLERS - 1
                    ));
                }
                info.samplers.push(Sampler { name, binding });
            }
            STORAGE_UNIFORM => {
                let (set, binding) = set_binding(d, &name)?;
                if set != stage.block_set() || binding != 0 || block_seen {
                    return Err(format!(
                        "the uniform block '{}' is at set {set}, binding {binding}; this stage \
                         has one uniform block, at set {}, binding 0",
                        name_of(pointee),
                        stage.block_set()
                    ));
                }
                block_seen = true;
                let Some(Type::Struct(members)) = types.get(&pointee) else {
                    return Err(format!(
                        "the uniform block '{}' is not a struct",
                        name_of(pointee)
                    ));
                };
                for (i, &member_type) in members.iter().enumerate() {
                    let i = i as u32;
                    let member_name = member_names.get(&(pointee, i)).cloned().unwrap_or_default();
                    let md = member_decorations.get(&(pointee, i)).cloned().unwrap_or_default();
                    let (element, count, array_stride) = match types.get(&member_type) {
                        Some(&Type::Array(element, length)) => {
                            let n = constants.get(&length).copied().unwrap_or(0);
                            let stride =
                                decorations.get(&member_type).map_or(0, |d| d.array_stride);
                            (element, Some(n), stride)
                        }
                        _ => (member_type, None, 0),
                    };
                    let ty = parameter_type(&types, element).ok_or_else(|| {
                        format!(
                            "the uniform '{member_name}' has a type no effect parameter has \
                             (bool, int, float, vec2, vec3, vec4, mat4 and arrays of them)"
                        )
                    })?;
                    let size = ty.bytes(md.matrix_stride);
                    let end = md.offset + count.map_or(size, |n| (n - 1) * array_stride + size);
                    info.block_size = info.block_size.max(end);
                    info.members.push(Member {
                        name: member_name,
                        ty,
                        count,
                        offset: md.offset,
                        array_stride,
                        matrix_stride: md.matrix_stride,
                        row_major: md.row_major,
                    });
                }
            }
            other => {
                return Err(format!(
                    "'{name}' is in storage class {other}; effects have vertex inputs, colour \
                     outputs, one uniform block and sampler2D uniforms per stage"
                ))
            }
        }
    }
    output_locations.sort_unstable();
    if stage == Stage::Fragment {
        let n = output_locations.len() as u32;
        if n == 0
            || n > crate::effect::MAX_OUTPUTS
            || output_locations.iter().ne(&(0..n).collect::<Vec<_>>())
        {
            return Err(
                "the fragment stage must write one to four colours at locations 0..n".into()
            );
        }
        info.outputs = n;
    }
    Ok(info)
}

fn set_binding(d: Option<&Decorations>, name: &str) -> Result<(u32, u32), String> {
    match d.map(|d| (d.set, d.binding)) {
        Some((Some(s), Some(b))) => Ok((s, b)),
        _ => Err(format!("the uniform '{name}' has no set and binding")),
    }
}

fn is_float_vector(types: &HashMap<u32, Type>, id: u32) -> bool {
    match types.get(&id) {
        Some(Type::Float) => true,
        Some(&Type::Vector(c, _)) => matches!(types.get(&c), Some(Type::Float)),
        _ => false,
    }
}

/// The parameter type of a block member's element type. GLSL stores a block's `bool` as a
/// `uint`, so a `uint` member is a Bool parameter.
fn parameter_type(types: &HashMap<u32, Type>, id: u32) -> Option<ParameterType> {
    match types.get(&id)? {
        Type::Bool | Type::Int { signed: false } => Some(ParameterType::Bool),
        Type::Int { signed: true } => Some(ParameterType::Int32),
        Type::Float => Some(ParameterType::Single),
        &Type::Vector(c, n) if matches!(types.get(&c), Some(Type::Float)) => match n {
            2 => Some(ParameterType::Vector2),
            3 => Some(ParameterType::Vector3),
            4 => Some(ParameterType::Vector4),
            _ => None,
        },
        &Type::Matrix(column, 4) => match types.get(&column) {
            Some(&Type::Vector(c, 4)) if matches!(types.get(&c), Some(Type::Float)) => {
                Some(ParameterType::Matrix)
            }
            _ => None,
        },
        _ => None,
    }
}

/// A literal string operand (NUL-terminated, packed little-endian into words).
fn string(words: &[u32]) -> String {
    let bytes: Vec<u8> =
        words.iter().flat_map(|w| w.to_le_bytes()).take_while(|&b| b != 0).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}
