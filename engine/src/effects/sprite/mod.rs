//! `Effect`: a custom fragment stage for SpriteBatch, from GLSL compiled at run time or from
//! SPIR-V.
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
//! The native fragment stage is created with the effect. An effect is a tracked graphics
//! resource (`ResourceCreated`, `Disposing`, `ResourceDestroyed`, disposed with its device).
//! Draws that use the effect hold its native state, so disposing or dropping the `Effect` while a
//! frame that draws with it is queued is safe; the native object is freed once the GPU has
//! finished those draws.

mod layout;

pub(crate) use layout::MAX_OUTPUTS;

use std::sync::{Arc, Mutex};

use xnagraph_graph::{EffectKey, EffectState};

use crate::device::registry::{ResourceId, Tracked};
use crate::device::shared::DeviceShared;
use crate::device::GraphicsDevice;
use crate::effects::glsl::{compile, GlslStage};
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::resources::resource::ResourceCore;

/// XNA's `Effect`, the part `SpriteBatch` uses: a pixel (fragment) stage with one to four colour
/// outputs, built from GLSL 450 source ([`Effect::from_glsl`], the `runtime-effects` feature)
/// or from its SPIR-V ([`Effect::from_spirv`]). XNA builds it from compiled effect bytecode, and
/// has parameters and techniques this type does not have. SPIR-V given as such is read whole
/// and checked for what the sprite pipeline needs (its structure, entry point, inputs, outputs
/// and bindings), not against every rule of the SPIR-V specification, which the native API
/// requires and does not check: pass what glslc or glslang wrote (`spirv-val` accepts it), as
/// XNA takes the bytecode its content pipeline compiled.
///
/// Why this is not the same type as [`CustomEffect`](crate::CustomEffect), XNA's one `Effect`:
/// the two run different programs through different pipelines. This one is a fragment stage
/// only, run behind SpriteBatch's own vertex stage, which reads sprites from the frame's
/// per-sprite arena (`ShaderKind::Custom` in a sprite draw: texture runs, sort modes and
/// batching are SpriteBatch's); it has no vertex stage to carry World, View and Projection and
/// no uniform block of its own. A `CustomEffect` pass is a whole vertex and fragment program
/// over the game's vertex buffers (`ShaderKind::CustomGeometry`) with reflected blocks and
/// samplers. One type would have to let SpriteBatch run a game's vertex stage over its sprite
/// arena, which XNA does through vertex buffers SpriteBatch builds per batch and this design
/// replaces by instanced sprites. Both are tracked resources with the same lifetime rules;
/// neither has matrices, lights or fog, so neither implements
/// [`EffectMatrices`](crate::EffectMatrices), which XNA gives only its stock effects.
pub struct Effect {
    core: Arc<EffectCore>,
}

/// What the device's registry tracks of an effect.
struct EffectCore {
    res: ResourceCore,
    /// `None` once disposed.
    state: Mutex<Option<Arc<EffectState>>>,
    outputs: usize,
}

impl EffectCore {
    fn dispose(&self, explicit: bool) {
        if !self.res.begin_dispose(explicit) {
            return;
        }
        lock(&self.state).take();
        self.res.end_dispose();
    }
}

impl Tracked for EffectCore {
    fn dispose_by_device(&self) {
        self.dispose(true);
    }
}

impl std::fmt::Debug for Effect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Effect")
            .field("resource", &self.core.res.id)
            .field("outputs", &self.core.outputs)
            .field("disposed", &self.core.res.is_disposed())
            .finish()
    }
}

impl Effect {
    /// Compiles `fragment_source`, GLSL 450 for Vulkan, into an effect for `device`.
    ///
    /// A compile error is `Argument` on `fragmentSource` whose message is the compiler's,
    /// naming the line (`ERROR: 0:LINE: ...`); code that reads anything the sprite pipeline does
    /// not provide (see the module documentation), or writes no colour, more than four, or
    /// colours at locations with gaps, is `Argument` too. `ObjectDisposed` when the device is.
    ///
    /// GLSL is compiled at run time by glslang, with the `runtime-effects` feature; without it
    /// this is `NotSupported` and the effect comes from SPIR-V ([`Effect::from_spirv`]).
    pub fn from_glsl(device: &GraphicsDevice, fragment_source: &str) -> Result<Effect> {
        device.shared.check_alive()?;
        let words = compile(fragment_source, GlslStage::Fragment, "fragmentSource")?;
        Effect::create(&device.shared, &words)
    }

    /// An effect from the SPIR-V words of a fragment stage, as glslc or glslang compiled it
    /// (`glslc --target-env=vulkan1.0`), in the layout of the module documentation. The same
    /// checks as [`Effect::from_glsl`]: a module that is not SPIR-V, or reads what the sprite
    /// pipeline does not provide, is `Argument` on `fragmentSource`. It needs no GLSL compiler
    /// at run time. `ObjectDisposed` when the device is.
    pub fn from_spirv(device: &GraphicsDevice, words: &[u32]) -> Result<Effect> {
        device.shared.check_alive()?;
        Effect::create(&device.shared, words)
    }

    fn create(device: &Arc<DeviceShared>, words: &[u32]) -> Result<Effect> {
        let outputs = layout::check_fragment_stage(words)
            .map_err(|m| XnaError::argument("fragmentSource", m))?;
        device.check_failure()?;
        let state = device.with_backend(|backend| {
            let native = backend.create_effect(words, outputs)?;
            let key = EffectKey { native, outputs: outputs as u8 };
            Ok(EffectState::new(key, backend.retire_sink()))
        })?;
        device.capture.effect_created(&state, words);
        let core = Arc::new(EffectCore {
            res: ResourceCore::new("Effect", Arc::downgrade(device)),
            state: Mutex::new(Some(state)),
            outputs: outputs as usize,
        });
        let weak: std::sync::Weak<dyn Tracked> =
            Arc::downgrade(&(core.clone() as Arc<dyn Tracked>));
        device.register(core.res.id, weak, &core.res.args());
        Ok(Effect { core })
    }

    /// How many colour outputs the fragment stage writes (locations `0..n`): the number of
    /// bound render targets a draw with this effect writes (not XNA).
    pub fn output_count(&self) -> usize {
        self.core.outputs
    }

    /// XNA's `GraphicsResource.Dispose()`: raises `Disposing`, then `ResourceDestroyed`; a later
    /// `Begin` with the effect is `ObjectDisposed`. Draws already recorded keep its native stage
    /// until the GPU has run them. Disposing twice does nothing.
    pub fn dispose(&self) {
        self.core.dispose(true);
    }

    /// XNA's `GraphicsResource.IsDisposed`: whether `dispose` was called (or the device disposed
    /// the effect).
    pub fn is_disposed(&self) -> bool {
        self.core.res.is_disposed()
    }

    /// The identity `ResourceCreated` and `ResourceDestroyed` name this effect by (not XNA).
    pub fn resource_id(&self) -> ResourceId {
        self.core.res.id
    }

    /// The shared state a draw holds: `ObjectDisposed` once disposed, `Argument` on `effect`
    /// when it belongs to another device.
    pub(crate) fn state_for(&self, device: &Arc<DeviceShared>) -> Result<Arc<EffectState>> {
        self.core.res.check_alive()?;
        if !std::ptr::eq(self.core.res.device.as_ptr(), Arc::as_ptr(device)) {
            return Err(XnaError::argument(
                "effect",
                "The effect was created on a different GraphicsDevice.",
            ));
        }
        lock(&self.core.state).clone().ok_or(XnaError::ObjectDisposed { object: "Effect" })
    }
}

impl Drop for Effect {
    /// Dropping is an implicit dispose (no `Disposing`).
    fn drop(&mut self) {
        self.core.dispose(false);
    }
}
