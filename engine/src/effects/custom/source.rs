//! What a [`super::CustomEffect`] is made from: techniques of passes whose two stages are
//! GLSL 450, HLSL or SPIR-V as the game gave them, and each stage's SPIR-V and declarations.

use super::hlsl;
use crate::effects::glsl::GlslStage;
use crate::error::{Result, XnaError};

/// One pass of a [`TechniqueSource`]: its name and its two stages' GLSL 450 source.
#[derive(Clone, Copy, Debug)]
pub struct PassSource<'a> {
    /// `EffectPass.Name`.
    pub name: &'a str,
    /// The vertex stage.
    pub vertex: &'a str,
    /// The fragment stage.
    pub fragment: &'a str,
}

/// One technique of a [`CustomEffect`](super::CustomEffect): its name and passes, applied in order.
#[derive(Clone, Copy, Debug)]
pub struct TechniqueSource<'a> {
    /// `EffectTechnique.Name`.
    pub name: &'a str,
    /// `EffectTechnique.Passes`.
    pub passes: &'a [PassSource<'a>],
}

/// One pass of an effect made from SPIR-V ([`CustomEffect::from_spirv`](super::CustomEffect::from_spirv)): its name and the
/// words of its two stages.
#[derive(Clone, Copy, Debug)]
pub struct SpirvPassSource<'a> {
    /// `EffectPass.Name`.
    pub name: &'a str,
    /// The vertex stage's SPIR-V words.
    pub vertex: &'a [u32],
    /// The fragment stage's SPIR-V words.
    pub fragment: &'a [u32],
}

/// One technique of an effect made from SPIR-V: its name and passes, applied in order.
#[derive(Clone, Copy, Debug)]
pub struct SpirvTechniqueSource<'a> {
    /// `EffectTechnique.Name`.
    pub name: &'a str,
    /// `EffectTechnique.Passes`.
    pub passes: &'a [SpirvPassSource<'a>],
}

/// A stage as the game gave it.
#[derive(Clone, Copy)]
pub(super) enum Code<'a> {
    Glsl(&'a str),
    Hlsl(&'a str),
    Spirv(&'a [u32]),
}

impl<'a> Code<'a> {
    /// The stage's SPIR-V: compiled from GLSL or HLSL, or the words given.
    pub(super) fn words(self, stage: GlslStage, param: &'static str) -> Result<Vec<u32>> {
        match self {
            Code::Glsl(source) => crate::effects::glsl::compile(source, stage, param),
            Code::Hlsl(source) => crate::effects::glsl::compile_hlsl(source, stage, param),
            Code::Spirv(words) => Ok(words.to_vec()),
        }
    }

    /// The GLSL a capture keeps beside the SPIR-V (none for HLSL, or SPIR-V given as such).
    pub(super) fn glsl(self) -> &'a str {
        match self {
            Code::Glsl(source) => source,
            Code::Hlsl(_) | Code::Spirv(_) => "",
        }
    }

    /// What an HLSL source declares beyond its SPIR-V (semantics, annotations, input
    /// semantics); `None` for other code. A declaration the parser refuses is `Argument` on
    /// `param`.
    pub(super) fn declarations(self, param: &'static str) -> Result<Option<hlsl::Declarations>> {
        match self {
            Code::Hlsl(source) => {
                hlsl::declarations(source).map(Some).map_err(|m| XnaError::argument(param, m))
            }
            Code::Glsl(_) | Code::Spirv(_) => Ok(None),
        }
    }
}

/// One pass's name and its two stages as the game gave them.
pub(super) struct PassCode<'a> {
    pub name: &'a str,
    pub vertex: Code<'a>,
    pub fragment: Code<'a>,
}

/// One technique's name and passes as the game gave them.
pub(super) struct Techn<'a> {
    pub name: &'a str,
    pub passes: Vec<PassCode<'a>>,
}

/// `techniques` with each pass's two stage sources read as `code` (GLSL or HLSL text).
pub(super) fn source_techniques<'a>(
    techniques: &[TechniqueSource<'a>],
    code: fn(&'a str) -> Code<'a>,
) -> Vec<Techn<'a>> {
    let pass = |p: &PassSource<'a>| PassCode {
        name: p.name,
        vertex: code(p.vertex),
        fragment: code(p.fragment),
    };
    techniques
        .iter()
        .map(|t| Techn { name: t.name, passes: t.passes.iter().map(pass).collect() })
        .collect()
}
