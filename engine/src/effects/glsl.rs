//! GLSL and HLSL compiled at run time, with the `runtime-effects` feature.
//!
//! In: a stage's GLSL 450 source, or its HLSL source with the entry point `main`, in SDL_gpu's
//! resource layout. Out: its SPIR-V, as `glslc --target-env=vulkan1.0` compiles the stock
//! shaders, or `Argument` on the caller's parameter carrying the compiler's log
//! (`ERROR: 0:LINE: ...`). HLSL is read in glslang's DirectX 9 compatible mode, so a
//! `sampler2D` sampled with `tex2D` is one combined sampler, as in an XNA effect. Without the
//! feature every source is `NotSupported`, naming the feature and the SPIR-V constructors
//! ([`crate::Effect::from_spirv`], [`crate::CustomEffect::from_spirv`]) that need no compiler.

use crate::error::{Result, XnaError};

/// The stage a source is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GlslStage {
    Vertex,
    Fragment,
}

/// glslang's process-wide state is shared; one compile at a time keeps it simple.
#[cfg(feature = "runtime-effects")]
static COMPILER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The language of a source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Language {
    Glsl,
    Hlsl,
}

impl Language {
    fn name(self) -> &'static str {
        match self {
            Language::Glsl => "GLSL",
            Language::Hlsl => "HLSL",
        }
    }
}

/// GLSL 450 for Vulkan 1.0 → SPIR-V 1.0 for `stage`, as `glslc --target-env=vulkan1.0`
/// compiles the stock shaders. A compile error is `Argument` on `param` carrying the compiler's
/// log (`ERROR: 0:LINE: ...`).
pub(crate) fn compile(source: &str, stage: GlslStage, param: &'static str) -> Result<Vec<u32>> {
    compile_as(Language::Glsl, source, stage, param)
}

/// HLSL (entry point `main`) → SPIR-V 1.0 for Vulkan 1.0 for `stage`, as `glslangValidator -D
/// -e main` compiles it, with DirectX 9's combined `sampler2D`; uniforms outside a `cbuffer`
/// form the stage's uniform block (set 1 for the vertex stage, 3 for the fragment stage,
/// binding 0). Errors as [`compile`].
pub(crate) fn compile_hlsl(
    source: &str,
    stage: GlslStage,
    param: &'static str,
) -> Result<Vec<u32>> {
    compile_as(Language::Hlsl, source, stage, param)
}

#[cfg(feature = "runtime-effects")]
fn compile_as(
    language: Language,
    source: &str,
    stage: GlslStage,
    param: &'static str,
) -> Result<Vec<u32>> {
    use glslang::{Compiler, CompilerOptions, ShaderInput, ShaderMessage, ShaderSource};
    use glslang::{ShaderStage, SourceLanguage};
    let stage = match stage {
        GlslStage::Vertex => ShaderStage::Vertex,
        GlslStage::Fragment => ShaderStage::Fragment,
    };
    let refuse = |message: String| XnaError::argument(param, message);
    if source.contains('\0') {
        return Err(refuse("The shader source contains a NUL character.".into()));
    }
    let _one_at_a_time = COMPILER.lock().unwrap_or_else(|e| e.into_inner());
    let compiler = Compiler::acquire()
        .ok_or_else(|| XnaError::not_supported("The shader compiler could not be initialised."))?;
    let source = ShaderSource::from(source);
    let options = match language {
        Language::Glsl => CompilerOptions::default(),
        Language::Hlsl => CompilerOptions {
            source_language: SourceLanguage::HLSL,
            messages: ShaderMessage::READ_HLSL | ShaderMessage::HLSL_DX9_COMPATIBLE,
            ..CompilerOptions::default()
        },
    };
    // The bindings' own checks (a log that is not UTF-8, a shader glslang could not allocate)
    // panic; they become an error here, so no source reaches the caller as a panic.
    let compiled = std::panic::catch_unwind(|| {
        let input =
            ShaderInput::new(&source, stage, &options, None::<&[(&str, Option<&str>)]>, None)?;
        let mut shader = glslang::Shader::new(compiler, input);
        if language == Language::Hlsl {
            shader.entry_point("main");
            // HLSL's uniforms outside a cbuffer (XNA's style) form glslang's `$Global` block:
            // it goes where SDL_gpu's layout puts the stage's one uniform block. glslang reads
            // the place from an attribute on a declaration before them (the C API's setting
            // for it serves GLSL only). The declaration is a function prototype: no parameter,
            // and glslang reads the preamble twice (preprocessing, then parsing), which a
            // prototype, unlike a variable, survives. `#line 1` keeps the log's line numbers the
            // source's own.
            shader.preamble(match stage {
                ShaderStage::Vertex => {
                    "[[vk::global_cbuffer_binding(0, 1)]] void xnagraph_block();\n#line 1\n"
                }
                _ => "[[vk::global_cbuffer_binding(0, 3)]] void xnagraph_block();\n#line 1\n",
            });
        }
        shader.parse()?.compile()
    })
    .map_err(|_| refuse(format!("The {} compiler failed on this source.", language.name())))?;
    compiled.map_err(|e| refuse(compile_message(language, &e)))
}

#[cfg(feature = "runtime-effects")]
/// The compiler's own words: its log (one `ERROR: 0:LINE: ...` line per error) where it has one.
fn compile_message(language: Language, e: &glslang::error::GlslangError) -> String {
    use glslang::error::GlslangError as E;
    match e {
        E::PreprocessError(log) | E::ParseError(log) | E::LinkError(log) | E::MapIoError(log) => {
            log.log.trim_end_matches(['\0', '\n', ' ']).to_string()
        }
        other => format!(
            "The shader source cannot be compiled as {} for Vulkan: {other}.",
            match language {
                Language::Glsl => "GLSL 450",
                Language::Hlsl => "HLSL",
            }
        ),
    }
}

/// Without the `runtime-effects` feature: no source can be compiled.
#[cfg(not(feature = "runtime-effects"))]
fn compile_as(
    language: Language,
    _source: &str,
    _stage: GlslStage,
    _param: &'static str,
) -> Result<Vec<u32>> {
    Err(XnaError::not_supported(format!(
        "Effects from {} source need the shader compiler: build xnagraph with the \
         `runtime-effects` feature, or make the effect from SPIR-V (from_spirv).",
        language.name()
    )))
}
