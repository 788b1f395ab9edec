//! `Effect`: a custom fragment stage for SpriteBatch, compiled at run time.
//!
//! XNA's `SpriteBatch.Begin` takes an `Effect` whose pixel shader replaces the stock one. Here an
//! effect is a GLSL 450 fragment stage written in SDL_gpu's resource layout (the sprite texture
//! as `layout(set = 2, binding = 0) uniform sampler2D`, the tint as `vec4` input 0, the texture
//! coordinates as `vec2` input 1), run behind the stock sprite vertex stage. It may write one to
//! four colour outputs, at locations `0..n`; output `i` goes to the `i`-th bound render target,
//! so an effect is how one draw writes several targets. The output count is read from the
//! compiled code and recorded with every draw, so the compiler knows which attachments a draw
//! writes (the others keep their content).
//!
//! The native fragment stage is created with the effect. Draws that use the effect hold it, so
//! dropping the `Effect` while a frame that draws with it is queued is safe; the native object is
//! freed once the GPU has finished those draws.

mod layout;

use std::sync::{Arc, Mutex, Weak};

use xnagraph_graph::{EffectKey, EffectState};

use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::shared::DeviceShared;

/// XNA's `Effect`, the part `SpriteBatch` uses: a pixel (fragment) stage with one to four colour
/// outputs, built from GLSL 450 source ([`Effect::from_glsl`]). XNA builds it from compiled
/// effect bytecode, and has parameters and techniques this type does not have. (Precompiled
/// SPIR-V is not taken: only code from the compiler is known to be valid SPIR-V, which the
/// native API requires and does not check.)
#[derive(Clone, Debug)]
pub struct Effect {
    device: Weak<DeviceShared>,
    state: Arc<EffectState>,
}

/// glslang's process-wide state is shared; one compile at a time keeps it simple.
static COMPILER: Mutex<()> = Mutex::new(());

impl Effect {
    /// Compiles `fragment_source`, GLSL 450 for Vulkan, into an effect for `device`.
    ///
    /// A compile error is `Argument` on `fragmentSource` whose message is the compiler's,
    /// naming the line (`ERROR: 0:LINE: ...`); code that reads anything the sprite pipeline does
    /// not provide (see the module documentation), or writes no colour, more than four, or
    /// colours at locations with gaps, is `Argument` too. `ObjectDisposed` when the device is.
    pub fn from_glsl(device: &GraphicsDevice, fragment_source: &str) -> Result<Effect> {
        device.shared.check_alive()?;
        let words = compile_fragment(fragment_source)?;
        Effect::create(&device.shared, &words)
    }

    fn create(device: &Arc<DeviceShared>, words: &[u32]) -> Result<Effect> {
        let outputs = layout::check_fragment_stage(words)
            .map_err(|m| XnaError::argument("fragmentSource", m))?;
        let state = device.with_backend(|backend| {
            let native = backend.create_effect(words, outputs)?;
            let key = EffectKey { native, outputs: outputs as u8 };
            Ok(EffectState::new(key, backend.retire_sink()))
        })?;
        Ok(Effect { device: Arc::downgrade(device), state })
    }

    /// How many colour outputs the fragment stage writes (locations `0..n`): the number of
    /// bound render targets a draw with this effect writes.
    pub fn output_count(&self) -> usize {
        usize::from(self.state.key().outputs)
    }

    /// The shared state a draw holds, after checking the effect belongs to `device`.
    pub(crate) fn state_for(&self, device: &Arc<DeviceShared>) -> Result<Arc<EffectState>> {
        if !std::ptr::eq(self.device.as_ptr(), Arc::as_ptr(device)) {
            return Err(XnaError::argument(
                "effect",
                "The effect was created on a different GraphicsDevice.",
            ));
        }
        Ok(self.state.clone())
    }
}

/// GLSL 450 for Vulkan 1.0 → SPIR-V 1.0, as `glslc --target-env=vulkan1.0` compiles the stock
/// shaders.
fn compile_fragment(source: &str) -> Result<Vec<u32>> {
    use glslang::{Compiler, CompilerOptions, ShaderInput, ShaderSource, ShaderStage};
    let refuse = |message: String| XnaError::argument("fragmentSource", message);
    if source.contains('\0') {
        return Err(refuse("The shader source contains a NUL character.".into()));
    }
    let _one_at_a_time = COMPILER.lock().unwrap_or_else(|e| e.into_inner());
    let compiler = Compiler::acquire()
        .ok_or_else(|| XnaError::not_supported("The GLSL compiler could not be initialised."))?;
    let source = ShaderSource::from(source);
    let options = CompilerOptions::default();
    let compiled = ShaderInput::new(
        &source,
        ShaderStage::Fragment,
        &options,
        None::<&[(&str, Option<&str>)]>,
        None,
    )
    .and_then(|input| compiler.create_shader(input))
    .and_then(|shader| shader.compile());
    compiled.map_err(|e| refuse(compile_message(&e)))
}

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
