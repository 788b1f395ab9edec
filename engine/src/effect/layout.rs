//! The check of a custom fragment stage's SPIR-V against the stock sprite pipeline: what it
//! reads must be what the sprite vertex stage and the pipeline layout provide, and what it
//! writes decides which colour attachments a draw with it writes.
//!
//! In SDL_gpu's resource layout the sprite pipeline binds one combined image sampler at set 2,
//! binding 0 (the sprite's texture) for the fragment stage; set 1 holds the vertex stage's
//! uniform block, which the fragment stage cannot see. The vertex stage passes the tint as a
//! `vec4` at location 0 and the texture coordinates as a `vec2` at location 1. Colour outputs
//! are `vec4`s at locations `0..n`, one per bound target, at most four.

use std::collections::HashMap;

/// The SPIR-V magic number, the first word of every module.
pub(crate) const SPIRV_MAGIC: u32 = 0x0723_0203;

// Opcodes, storage classes and decorations of the SPIR-V specification that the check reads.
const OP_ENTRY_POINT: u32 = 15;
const OP_TYPE_FLOAT: u32 = 22;
const OP_TYPE_VECTOR: u32 = 23;
const OP_TYPE_IMAGE: u32 = 25;
const OP_TYPE_SAMPLED_IMAGE: u32 = 27;
const OP_TYPE_POINTER: u32 = 32;
const OP_VARIABLE: u32 = 59;
const OP_DECORATE: u32 = 71;
const EXECUTION_MODEL_FRAGMENT: u32 = 4;
const STORAGE_UNIFORM_CONSTANT: u32 = 0;
const STORAGE_INPUT: u32 = 1;
const STORAGE_OUTPUT: u32 = 3;
const STORAGE_PRIVATE: u32 = 6;
const STORAGE_FUNCTION: u32 = 7;
const DECORATION_BUILT_IN: u32 = 11;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;
const DECORATION_LOCATION: u32 = 30;
const DIM_2D: u32 = 1;

/// The most colour outputs an effect may write (XNA's four render targets under HiDef).
pub(crate) const MAX_OUTPUTS: u32 = 4;

/// A type, as far as the check needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Type {
    Float32,
    /// Component type id and count.
    Vector(u32, u32),
    /// Dimensionality.
    Image(u32),
    /// Image type id.
    SampledImage(u32),
    /// Storage class and pointee type id.
    Pointer(u32, u32),
    Other,
}

#[derive(Default)]
struct Decorations {
    location: Option<u32>,
    set: Option<u32>,
    binding: Option<u32>,
    built_in: bool,
}

/// Why a module does not fit the sprite pipeline: the message of the `ArgumentException`.
pub(crate) type Refusal = String;

/// Checks `words` against the sprite pipeline and returns how many colour outputs it writes.
pub(crate) fn check_fragment_stage(words: &[u32]) -> Result<u32, Refusal> {
    if words.len() < 5 || words[0] != SPIRV_MAGIC {
        return Err("The effect code is not a SPIR-V module.".into());
    }
    let mut types: HashMap<u32, Type> = HashMap::new();
    let mut decorations: HashMap<u32, Decorations> = HashMap::new();
    // (id, pointer type id, storage class) of every global variable.
    let mut variables = Vec::new();
    let mut entry_points = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let opcode = words[at] & 0xFFFF;
        if count == 0 || at + count > words.len() {
            return Err("The effect code is a truncated SPIR-V module.".into());
        }
        let op = &words[at + 1..at + count];
        let word =
            |i: usize| op.get(i).copied().ok_or("The effect code holds a malformed instruction.");
        match opcode {
            OP_ENTRY_POINT => entry_points.push((word(0)?, string(op.get(2..).unwrap_or(&[])))),
            OP_TYPE_FLOAT => {
                let ty = if word(1)? == 32 { Type::Float32 } else { Type::Other };
                types.insert(word(0)?, ty);
            }
            OP_TYPE_VECTOR => {
                types.insert(word(0)?, Type::Vector(word(1)?, word(2)?));
            }
            OP_TYPE_IMAGE => {
                types.insert(word(0)?, Type::Image(word(2)?));
            }
            OP_TYPE_SAMPLED_IMAGE => {
                types.insert(word(0)?, Type::SampledImage(word(1)?));
            }
            OP_TYPE_POINTER => {
                types.insert(word(0)?, Type::Pointer(word(1)?, word(2)?));
            }
            OP_VARIABLE => {
                let storage = word(2)?;
                if storage != STORAGE_FUNCTION {
                    variables.push((word(1)?, word(0)?, storage));
                }
            }
            OP_DECORATE => {
                let d = decorations.entry(word(0)?).or_default();
                match word(1)? {
                    DECORATION_LOCATION => d.location = Some(word(2)?),
                    DECORATION_DESCRIPTOR_SET => d.set = Some(word(2)?),
                    DECORATION_BINDING => d.binding = Some(word(2)?),
                    DECORATION_BUILT_IN => d.built_in = true,
                    _ => {}
                }
            }
            _ => {}
        }
        at += count;
    }
    match entry_points.as_slice() {
        [(EXECUTION_MODEL_FRAGMENT, name)] if name == "main" => {}
        _ => {
            return Err(
                "The effect code must have one entry point, a fragment stage named main.".into()
            )
        }
    }

    let ty = |id: u32| types.get(&id).copied().unwrap_or(Type::Other);
    // The number of 32-bit float components of a float or float vector type.
    let floats = |id: u32| match ty(id) {
        Type::Float32 => Some(1),
        Type::Vector(c, n) if ty(c) == Type::Float32 => Some(n),
        _ => None,
    };
    let none = Decorations::default();
    let mut outputs = Vec::new();
    for &(id, pointer, storage) in &variables {
        let d = decorations.get(&id).unwrap_or(&none);
        let pointee = match ty(pointer) {
            Type::Pointer(_, pointee) => pointee,
            _ => return Err("The effect code declares a variable that is not a pointer.".into()),
        };
        match storage {
            STORAGE_PRIVATE => {}
            STORAGE_INPUT if d.built_in => {}
            STORAGE_INPUT => match (d.location, floats(pointee)) {
                (Some(0), Some(4)) | (Some(1), Some(2)) => {}
                _ => {
                    return Err("The effect's fragment inputs must be the sprite vertex stage's \
                                outputs: the tint (vec4, location 0) and the texture coordinates \
                                (vec2, location 1)."
                        .into())
                }
            },
            STORAGE_OUTPUT => match (d.built_in, d.location, floats(pointee)) {
                (false, Some(location), Some(4)) => outputs.push(location),
                _ => {
                    return Err("Every output of the effect's fragment stage must be a colour \
                                (vec4) at a location."
                        .into())
                }
            },
            STORAGE_UNIFORM_CONSTANT
                if d.set == Some(2)
                    && d.binding == Some(0)
                    && matches!(ty(pointee), Type::SampledImage(i) if ty(i) == Type::Image(DIM_2D)) =>
                {}
            _ => {
                return Err("The effect's fragment stage may use only the sprite texture, \
                            `layout(set = 2, binding = 0) uniform sampler2D`: the sprite pipeline \
                            binds nothing else."
                    .into())
            }
        }
    }
    outputs.sort_unstable();
    let n = outputs.len() as u32;
    if n == 0 || n > MAX_OUTPUTS || outputs.iter().enumerate().any(|(i, &l)| l != i as u32) {
        return Err(format!(
            "The effect's fragment stage must write 1 to {MAX_OUTPUTS} colours at locations 0, 1, \
             ... without gaps, one per render target; it writes locations {outputs:?}."
        ));
    }
    Ok(n)
}

/// A SPIR-V literal string (nul-terminated, little-endian bytes in words).
fn string(words: &[u32]) -> String {
    let bytes: Vec<u8> =
        words.iter().flat_map(|w| w.to_le_bytes()).take_while(|&b| b != 0).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stock_fragment_stage() -> Vec<u32> {
        crate::effect::compile(
            include_str!("../../../shaders/glsl/sprite.frag"),
            glslang::ShaderStage::Fragment,
            "fragmentSource",
        )
        .expect("the stock fragment stage compiles")
    }

    #[test]
    fn the_stock_fragment_stage_fits_with_one_output() {
        assert_eq!(check_fragment_stage(&stock_fragment_stage()), Ok(1));
    }

    #[test]
    fn malformed_modules_are_refused_without_panicking() {
        let words = stock_fragment_stage();
        assert!(check_fragment_stage(&[]).is_err());
        assert!(check_fragment_stage(&words[..4]).is_err());
        // Every truncation inside an instruction, and every word zeroed or saturated, is either
        // refused or still a module that fits; none panics.
        for len in 5..words.len() {
            let _ = check_fragment_stage(&words[..len]);
        }
        for i in 5..words.len() {
            for value in [0, u32::MAX, 0xFFFF_0000] {
                let mut bad = words.clone();
                bad[i] = value;
                let _ = check_fragment_stage(&bad);
            }
        }
        let mut zero_count = words.clone();
        zero_count[5] &= 0xFFFF;
        assert!(check_fragment_stage(&zero_count).is_err());
    }
}
