//! The check of a custom fragment stage's SPIR-V against the stock sprite pipeline: what it
//! reads must be what the sprite vertex stage and the pipeline layout provide, and what it
//! writes decides which colour attachments a draw with it writes.
//!
//! In SDL_gpu's resource layout the sprite pipeline binds one combined image sampler at set 2,
//! binding 0 (the sprite's texture) for the fragment stage; set 1 holds the vertex stage's
//! uniform block, which the fragment stage cannot see. The vertex stage passes the tint as a
//! `vec4` at location 0 and the texture coordinates as a `vec2` at location 1. Colour outputs
//! are `vec4`s at locations `0..n`, one per bound target, at most four.

use crate::effects::spirv::*;

/// The most colour outputs an effect may write (XNA's four render targets under HiDef).
pub(crate) const MAX_OUTPUTS: u32 = 4;

/// Why a module does not fit the sprite pipeline: the message of the `ArgumentException`.
pub(crate) type Refusal = String;

/// Checks `words` against the sprite pipeline and returns how many colour outputs it writes.
pub(crate) fn check_fragment_stage(words: &[u32]) -> Result<u32, Refusal> {
    let module = Module::read(words).map_err(|e| {
        match e {
            Malformed::NotSpirv => "The effect code is not a SPIR-V module.",
            Malformed::Truncated => "The effect code is a truncated SPIR-V module.",
            Malformed::Instruction => "The effect code holds a malformed instruction.",
        }
        .to_owned()
    })?;
    match module.entry_points.as_slice() {
        [(EXECUTION_MODEL_FRAGMENT, name)] if name == "main" => {}
        _ => {
            return Err(
                "The effect code must have one entry point, a fragment stage named main.".into()
            )
        }
    }
    let none = Decorations::default();
    let mut outputs = Vec::new();
    for variable in &module.variables {
        let d = module.decorations.get(&variable.id).unwrap_or(&none);
        let Some(pointee) = module.pointee(variable) else {
            return Err("The effect code declares a variable that is not a pointer.".into());
        };
        let floats = module.float_components(pointee);
        match variable.storage {
            STORAGE_PRIVATE => {}
            STORAGE_INPUT if d.built_in => {}
            STORAGE_INPUT => match (d.location, floats) {
                (Some(0), Some(4)) | (Some(1), Some(2)) => {}
                _ => {
                    return Err("The effect's fragment inputs must be the sprite vertex stage's \
                                outputs: the tint (vec4, location 0) and the texture coordinates \
                                (vec2, location 1)."
                        .into())
                }
            },
            STORAGE_OUTPUT => match (d.built_in, d.location, floats) {
                (false, Some(location), Some(4)) => outputs.push(location),
                _ => {
                    return Err("Every output of the effect's fragment stage must be a colour \
                                (vec4) at a location."
                        .into())
                }
            },
            STORAGE_UNIFORM_CONSTANT
                if d.set == Some(2) && d.binding == Some(0) && is_sampler_2d(&module, pointee) => {}
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

/// Whether `ty` is a `sampler2D`: a sampled image of a 2D image.
fn is_sampler_2d(module: &Module, ty: u32) -> bool {
    matches!(*module.type_of(ty), Type::SampledImage(i) if *module.type_of(i) == Type::Image(DIM_2D))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stock_fragment_stage() -> Vec<u32> {
        xnagraph_shaders::SPRITE_FRAG.words()
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
