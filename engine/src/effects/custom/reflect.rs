//! Reflection of a custom geometry effect's SPIR-V: the vertex inputs, the colour outputs, the
//! uniform block members and the samplers of one stage, read from the module itself.
//!
//! The resource layout is SDL_gpu's, which both backends use for the stock shaders: a vertex
//! stage's samplers are at set 0 and its uniform block at set 1, binding 0; a fragment stage's
//! samplers are at set 2 and its uniform block at set 3, binding 0. Everything else (storage
//! buffers, push constants, images without a sampler, a second block, sampler arrays) is
//! refused with a message naming it, so the backend only ever sees what it can bind.

use super::ParameterType;
use crate::effects::spirv::*;

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

/// Reflects `words`, a module of `stage` compiled by glslang; a refusal is the message of the
/// `ArgumentException` (the stage is named by the caller). Each global variable is one of the
/// stage's interfaces: a vertex input, a colour output, a sampler or the uniform block.
pub(crate) fn reflect(words: &[u32], stage: Stage) -> Result<StageInfo, String> {
    let module = Module::read(words).map_err(|e| {
        match e {
            Malformed::NotSpirv => "the code is not a SPIR-V module",
            Malformed::Truncated => "the code is a truncated SPIR-V module",
            Malformed::Instruction => "the code holds a malformed instruction",
        }
        .to_owned()
    })?;
    let mut info = StageInfo::default();
    let mut output_locations = Vec::new();
    let mut block_seen = false;
    for variable in &module.variables {
        let pointee = module.pointee(variable).ok_or("a variable's type is not a pointer")?;
        let d = module.decorations.get(&variable.id);
        let name = module.name(variable.id);
        match variable.storage {
            STORAGE_PRIVATE => {}
            STORAGE_INPUT | STORAGE_OUTPUT if is_built_in(&module, variable.id, pointee) => {}
            STORAGE_INPUT if stage == Stage::Vertex => {
                info.inputs.push(vertex_input(&module, d, pointee, name)?);
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
                info.samplers.push(sampler(&module, stage, d, pointee, name)?);
            }
            STORAGE_UNIFORM => {
                let (set, binding) = set_binding(d, &name)?;
                if set != stage.block_set() || binding != 0 || block_seen {
                    return Err(format!(
                        "the uniform block '{}' is at set {set}, binding {binding}; this stage \
                         has one uniform block, at set {}, binding 0",
                        module.name(pointee),
                        stage.block_set()
                    ));
                }
                block_seen = true;
                uniform_block(&module, pointee, &mut info)?;
            }
            other => {
                return Err(format!(
                    "'{name}' is in storage class {other}; effects have vertex inputs, colour \
                     outputs, one uniform block and sampler2D uniforms per stage"
                ))
            }
        }
    }
    if stage == Stage::Fragment {
        info.outputs = colour_outputs(output_locations)?;
    }
    Ok(info)
}

/// Whether a variable of type `pointee` is a built-in (`gl_Position`, `gl_FragCoord`, or
/// glslang's `gl_PerVertex` block): decorated so itself, its type so, or a struct named `gl_`
/// whose members are decorated. Built-ins are no vertex input or colour output.
fn is_built_in(module: &Module, id: u32, pointee: u32) -> bool {
    let decorated = |id| module.decorations.get(&id).is_some_and(|d| d.built_in);
    decorated(id)
        || decorated(pointee)
        || matches!(module.type_of(pointee), Type::Struct(_))
            && module.member_decorations.keys().any(|&(s, _)| s == pointee)
            && module.name(pointee).starts_with("gl_")
}

/// A vertex stage's input: a float or vector of floats at a location (vertex elements are read
/// as floats).
fn vertex_input(
    module: &Module,
    d: Option<&Decorations>,
    pointee: u32,
    name: String,
) -> Result<Input, String> {
    let Some(location) = d.and_then(|d| d.location) else {
        return Err(format!("the input '{name}' has no location"));
    };
    if module.float_components(pointee).is_none() {
        return Err(format!(
            "the input '{name}' is not a float or vector of floats; vertex elements are read as \
             floats"
        ));
    }
    Ok(Input { name, location })
}

/// A `sampler2D` uniform, at this stage's sampler set and a binding below [`MAX_SAMPLERS`].
fn sampler(
    module: &Module,
    stage: Stage,
    d: Option<&Decorations>,
    pointee: u32,
    name: String,
) -> Result<Sampler, String> {
    let (set, binding) = set_binding(d, &name)?;
    let image = match *module.type_of(pointee) {
        Type::SampledImage(image) => module.type_of(image),
        Type::Array(..) => {
            return Err(format!(
                "the sampler array '{name}' is not supported; declare one sampler per texture"
            ))
        }
        _ => return Err(format!("the uniform '{name}' is not a sampler2D")),
    };
    if *image != Type::Image(DIM_2D) {
        return Err(format!("the sampler '{name}' is not a sampler2D"));
    }
    if set != stage.sampler_set() || binding >= MAX_SAMPLERS {
        return Err(format!(
            "the sampler '{name}' is at set {set}, binding {binding}; this stage's samplers are \
             at set {}, bindings 0 to {}",
            stage.sampler_set(),
            MAX_SAMPLERS - 1
        ));
    }
    Ok(Sampler { name, binding })
}

/// The members of the uniform block of struct type `block`, each an effect parameter's
/// storage, and the block's size.
fn uniform_block(module: &Module, block: u32, info: &mut StageInfo) -> Result<(), String> {
    let Type::Struct(members) = module.type_of(block) else {
        return Err(format!("the uniform block '{}' is not a struct", module.name(block)));
    };
    for (i, &member_type) in members.iter().enumerate() {
        let i = i as u32;
        let member_name = module.member_names.get(&(block, i)).cloned().unwrap_or_default();
        let md = module.member_decorations.get(&(block, i)).cloned().unwrap_or_default();
        let (element, count, array_stride) = match *module.type_of(member_type) {
            Type::Array(element, length) => {
                let n = module.constants.get(&length).copied().unwrap_or(0);
                let stride = module.decorations.get(&member_type).map_or(0, |d| d.array_stride);
                (element, Some(n), stride)
            }
            _ => (member_type, None, 0),
        };
        let ty = parameter_type(module, element).ok_or_else(|| {
            format!(
                "the uniform '{member_name}' has a type no effect parameter has (bool, int, \
                 float, vec2, vec3, vec4, mat4 and arrays of them)"
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
    Ok(())
}

/// A fragment stage's colour outputs: one to four, at locations `0..n`.
fn colour_outputs(mut locations: Vec<u32>) -> Result<u32, String> {
    locations.sort_unstable();
    let n = locations.len() as u32;
    if n == 0
        || n > crate::effects::sprite::MAX_OUTPUTS
        || locations.iter().ne(&(0..n).collect::<Vec<_>>())
    {
        return Err("the fragment stage must write one to four colours at locations 0..n".into());
    }
    Ok(n)
}

fn set_binding(d: Option<&Decorations>, name: &str) -> Result<(u32, u32), String> {
    match d.map(|d| (d.set, d.binding)) {
        Some((Some(s), Some(b))) => Ok((s, b)),
        _ => Err(format!("the uniform '{name}' has no set and binding")),
    }
}

/// The parameter type of a block member's element type. GLSL stores a block's `bool` as a
/// `uint`, so a `uint` member is a Bool parameter.
fn parameter_type(module: &Module, id: u32) -> Option<ParameterType> {
    let float = |id| *module.type_of(id) == Type::Float;
    match *module.type_of(id) {
        Type::Bool | Type::Int { signed: false } => Some(ParameterType::Bool),
        Type::Int { signed: true } => Some(ParameterType::Int32),
        Type::Float => Some(ParameterType::Single),
        Type::Vector(c, n) if float(c) => match n {
            2 => Some(ParameterType::Vector2),
            3 => Some(ParameterType::Vector3),
            4 => Some(ParameterType::Vector4),
            _ => None,
        },
        Type::Matrix(column, 4) => match *module.type_of(column) {
            Type::Vector(c, 4) if float(c) => Some(ParameterType::Matrix),
            _ => None,
        },
        _ => None,
    }
}
