//! GLSL compiled at run time, with the `runtime-effects` feature.
//!
//! In: a stage's GLSL 450 source in SDL_gpu's resource layout. Out: its SPIR-V, as
//! `glslc --target-env=vulkan1.0` compiles the stock shaders, or `Argument` on the caller's
//! parameter carrying the compiler's log (`ERROR: 0:LINE: ...`). Without the feature every
//! source is `NotSupported`, naming the feature and the SPIR-V constructors
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

/// GLSL 450 for Vulkan 1.0 → SPIR-V 1.0 for `stage`, as `glslc --target-env=vulkan1.0`
/// compiles the stock shaders. A compile error is `Argument` on `param` carrying the compiler's
/// log (`ERROR: 0:LINE: ...`).
#[cfg(feature = "runtime-effects")]
pub(crate) fn compile(source: &str, stage: GlslStage, param: &'static str) -> Result<Vec<u32>> {
    use glslang::{Compiler, CompilerOptions, ShaderInput, ShaderSource, ShaderStage};
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
        .ok_or_else(|| XnaError::not_supported("The GLSL compiler could not be initialised."))?;
    let source = ShaderSource::from(source);
    let options = CompilerOptions::default();
    // The bindings' own checks (a log that is not UTF-8, a shader glslang could not allocate)
    // panic; they become an error here, so no source reaches the caller as a panic.
    let compiled = std::panic::catch_unwind(|| {
        ShaderInput::new(&source, stage, &options, None::<&[(&str, Option<&str>)]>, None)
            .and_then(|input| compiler.create_shader(input))
            .and_then(|shader| shader.compile())
    })
    .map_err(|_| refuse("The GLSL compiler failed on this source.".into()))?;
    compiled.map_err(|e| refuse(compile_message(&e)))
}

#[cfg(feature = "runtime-effects")]
/// The compiler's own words: its log (one `ERROR: 0:LINE: ...` line per error) where it has one.
fn compile_message(e: &glslang::error::GlslangError) -> String {
    use glslang::error::GlslangError as E;
    match e {
        E::PreprocessError(log) | E::ParseError(log) | E::LinkError(log) | E::MapIoError(log) => {
            log.trim_end_matches(['\0', '\n', ' ']).to_string()
        }
        other => format!("The shader source cannot be compiled as GLSL 450 for Vulkan: {other}."),
    }
}

/// Without the `runtime-effects` feature: GLSL cannot be compiled.
#[cfg(not(feature = "runtime-effects"))]
pub(crate) fn compile(_source: &str, _stage: GlslStage, _param: &'static str) -> Result<Vec<u32>> {
    Err(XnaError::not_supported(
        "Effects from GLSL source need the GLSL compiler: build xnagraph with the \
         `runtime-effects` feature, or make the effect from SPIR-V (from_spirv).",
    ))
}
