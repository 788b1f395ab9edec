//! XNA's `Effect` for geometry: custom vertex and fragment stages in GLSL 450 or HLSL, compiled
//! at run time, or given as SPIR-V, organised in techniques and passes, with parameters set by
//! name and type (and, from HLSL, found by semantic and carrying annotations).
//!
//! A Rust program describes an effect as techniques, each with named passes, each pass a pair
//! of GLSL 450 sources (a vertex and a fragment stage):
//!
//! ```no_run
//! # use xnagraph::*;
//! # fn f(device: &GraphicsDevice) -> Result<()> {
//! const VERTEX: &str = "#version 450
//! layout(set = 1, binding = 0) uniform Vertex { mat4 WorldViewProjection; };
//! layout(location = 0) in vec3 Position;
//! void main() { gl_Position = WorldViewProjection * vec4(Position, 1.0); }";
//! const FRAGMENT: &str = "#version 450
//! layout(set = 3, binding = 0) uniform Fragment { vec4 Tint; };
//! layout(location = 0) out vec4 color;
//! void main() { color = Tint; }";
//! let effect = CustomEffect::new(
//!     device,
//!     &[TechniqueSource {
//!         name: "Flat",
//!         passes: &[PassSource { name: "P0", vertex: VERTEX, fragment: FRAGMENT }],
//!     }],
//! )?;
//! effect.parameter("WorldViewProjection")?.set_value(Matrix::IDENTITY)?;
//! effect.parameter("Tint")?.set_value(Vector4::new(1.0, 0.5, 0.0, 1.0))?;
//! for pass in effect.current_technique().passes() {
//!     pass.apply()?;
//!     // device.draw_primitives(...)
//! }
//! # Ok(()) }
//! ```
//!
//! The stages follow SDL_gpu's resource layout (as the stock shaders do): the vertex stage's
//! uniform block at set 1, binding 0 and its `sampler2D`s at set 0 (vertex texture fetch,
//! reading `VertexTextures[binding]` with `VertexSamplerStates[binding]`, HiDef only); the
//! fragment stage's block at set 3, binding 0 and its samplers at set 2 (reading
//! `Textures[binding]` with `SamplerStates[binding]`). Each block
//! member and each sampler is a parameter, by its GLSL name; a name used by several stages or
//! passes is one parameter, and must have one type everywhere. Vertex inputs are named after
//! the vertex element they read, XNA's `VertexElementUsage` with an optional usage index
//! (`Position`, `Color`, `TextureCoordinate1`, `Normal0`); a draw whose vertex declarations
//! lack one is XNA's `InvalidOperationException`. The fragment stage writes one to four
//! colours at locations `0..n` (one per bound render target). The vertex stage writes
//! `gl_Position` in XNA's clip space (y up, depth 0 to 1), as a ported HLSL effect computes it.
//!
//! `EffectPass::apply` copies the parameters' values as they are at the call into the draws
//! that follow (a value set later changes only draws after the next `apply`) and writes each
//! texture parameter into the device's `Textures` or `VertexTextures` at its sampler's binding,
//! as XNA's does; the textures and sampler states a draw samples are the device's slots at the
//! draw, so a texture set on the device after `apply` is the one sampled. HLSL stages
//! ([`CustomEffect::from_hlsl`]) use the same layout in HLSL's registers. The backend creates each pass's native program with
//! the effect; the effect is a tracked graphics resource, and draws hold the programs, so
//! disposing the effect with draws queued is safe.

mod build;
mod hlsl;
mod parameter;
mod passes;
mod reflect;
mod source;

use std::sync::{Arc, Mutex};

use xnagraph_graph::{EffectState, TextureState};

pub use parameter::{
    AnnotationValue, EffectAnnotation, EffectValue, ParameterClass, ParameterType,
};
use parameter::{ParameterInfo, Value};
use reflect::StageInfo;
use source::{source_techniques, Code, PassCode, Techn};
pub use source::{PassSource, SpirvPassSource, SpirvTechniqueSource, TechniqueSource};

use crate::device::draw_state::InputBinding;
pub use crate::device::draw_state::VERTEX_SAMPLER_SLOTS;
use crate::device::registry::{ResourceId, Tracked};
use crate::device::shared::DeviceShared;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::resources::resource::ResourceCore;
use crate::resources::texture::Texture2D;

struct Pass {
    name: String,
    state: Arc<EffectState>,
    inputs: Vec<InputBinding>,
    vertex: StageInfo,
    fragment: StageInfo,
}

struct Technique {
    name: String,
    passes: Vec<Pass>,
}

/// What the device's registry tracks of an effect.
struct CustomCore {
    res: ResourceCore,
    device: std::sync::Weak<DeviceShared>,
    /// `None` once disposed.
    techniques: Mutex<Option<Vec<Technique>>>,
    parameters: Vec<ParameterInfo>,
    values: Mutex<Vec<Value>>,
    current: Mutex<usize>,
    /// A white texel: the draw's nominal texture (every sampler has its own).
    white: Arc<TextureState>,
}

impl CustomCore {
    fn dispose(&self, explicit: bool) {
        if !self.res.begin_dispose(explicit) {
            return;
        }
        lock(&self.techniques).take();
        lock(&self.values).clear();
        self.res.end_dispose();
    }
}

impl Tracked for CustomCore {
    fn dispose_by_device(&self) {
        self.dispose(true);
    }
}

/// XNA's `Effect` for geometry draws: techniques of passes, each a vertex and a fragment stage
/// from GLSL 450 ([`CustomEffect::new`]), HLSL ([`CustomEffect::from_hlsl`]) or SPIR-V
/// ([`CustomEffect::from_spirv`]), with reflected parameters (see the module documentation).
pub struct CustomEffect {
    core: Arc<CustomCore>,
    _white: Texture2D,
}

impl std::fmt::Debug for CustomEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CustomEffect")
            .field("resource", &self.core.res.id)
            .field("parameters", &self.core.parameters.len())
            .field("disposed", &self.core.res.is_disposed())
            .finish()
    }
}

/// XNA's `EffectTechnique` of a [`CustomEffect`].
#[derive(Clone, Copy)]
pub struct CustomTechnique<'a> {
    effect: &'a CustomEffect,
    index: usize,
}

/// XNA's `EffectPass` of a [`CustomEffect`]: [`CustomPass::apply`] records the effect's state.
#[derive(Clone, Copy)]
pub struct CustomPass<'a> {
    effect: &'a CustomEffect,
    technique: usize,
    index: usize,
}

/// XNA's `EffectParameter`: one parameter of a [`CustomEffect`], set with
/// [`EffectParameter::set_value`].
#[derive(Clone, Copy)]
pub struct EffectParameter<'a> {
    effect: &'a CustomEffect,
    index: usize,
}

impl CustomEffect {
    /// Compiles every pass of `techniques` for `device` and reflects their parameters; the
    /// first technique is current.
    ///
    /// No technique, a technique without passes, or two techniques (or two passes of one
    /// technique) with one name is `Argument` on `techniques`. A compile error is `Argument` on
    /// `vertexSource` or `fragmentSource` whose message names the pass and carries the
    /// compiler's log (`ERROR: 0:LINE: ...`); code outside the resource layout of the module
    /// documentation, a vertex input not named after a vertex element, or one parameter name
    /// with two types is `Argument` on `techniques`. A vertex-stage sampler under the Reach
    /// profile is `NotSupported` (vertex texture fetch is HiDef's). A backend without custom
    /// geometry programs, or (SDL_gpu) a uniform block past 4 KiB, is `NotSupported`; a disposed
    /// device `ObjectDisposed`.
    ///
    /// GLSL is compiled at run time by glslang, with the `runtime-effects` feature; without it
    /// this is `NotSupported` and the effect comes from SPIR-V ([`CustomEffect::from_spirv`]).
    pub fn new(
        device: &GraphicsDevice,
        techniques: &[TechniqueSource<'_>],
    ) -> Result<CustomEffect> {
        CustomEffect::build(device, &source_techniques(techniques, Code::Glsl))
    }

    /// An effect from SPIR-V: every pass's two stages as glslc or glslang compiled them, in the
    /// resource layout of the module documentation (`glslc --target-env=vulkan1.0`). The same
    /// checks and errors as [`CustomEffect::new`], a module that is not SPIR-V or does not
    /// reflect being `Argument` on `techniques`; it needs no GLSL compiler at run time. The
    /// passes' GLSL, which a capture keeps beside the SPIR-V for reading, is empty.
    pub fn from_spirv(
        device: &GraphicsDevice,
        techniques: &[SpirvTechniqueSource<'_>],
    ) -> Result<CustomEffect> {
        let techniques: Vec<_> = techniques
            .iter()
            .map(|t| Techn {
                name: t.name,
                passes: t
                    .passes
                    .iter()
                    .map(|p| PassCode {
                        name: p.name,
                        vertex: Code::Spirv(p.vertex),
                        fragment: Code::Spirv(p.fragment),
                    })
                    .collect(),
            })
            .collect();
        CustomEffect::build(device, &techniques)
    }

    /// An effect from HLSL: every pass's two stages as HLSL source, each with the entry point
    /// `main`, compiled at run time by glslang (the `runtime-effects` feature; without it this is
    /// `NotSupported`) in its DirectX 9 compatible mode. The resource layout is the module
    /// documentation's, in HLSL's registers: the vertex stage's `cbuffer` at `register(b0,
    /// space1)` and its `sampler2D`s at `register(sN, space0)`; the fragment stage's `cbuffer`
    /// at `register(b0, space3)` and its `sampler2D`s at `register(sN, space2)`, sampled with
    /// `tex2D`. Uniforms declared outside a `cbuffer`, as XNA's effects declare them
    /// (`float4x4 World;`), form the stage's uniform block in that place instead; a stage has
    /// one block, so it uses either a `cbuffer` or such uniforms. Each block member and each
    /// sampler is a parameter by its name.
    ///
    /// ```hlsl
    /// cbuffer Parameters : register(b0, space1) {
    ///     float4x4 WorldViewProjection : WORLDVIEWPROJECTION <string UIName = "WVP";>;
    /// };
    /// float4 main(float3 Position : POSITION0) : SV_Position {
    ///     return mul(float4(Position, 1), WorldViewProjection);
    /// }
    /// ```
    ///
    /// XNA's `EffectParameter.Semantic` and `Annotations` are read from the source text (SPIR-V
    /// keeps neither), by a small parser of declarations whose rules the `hlsl` module of this
    /// file's folder lists: declarations at file scope and in `cbuffer` bodies, `: SEMANTIC`,
    /// and annotations of type `string`, `float`, `int` and `bool`; macros are not expanded, and
    /// an annotation of another type is `Argument` on the stage's source. The vertex stage's
    /// inputs are `main`'s parameters (or members of a struct parameter) and are matched to
    /// vertex elements by semantic, XNA's `POSITION0`, `COLOR0`, `TEXCOORD1`, `NORMAL`, ...; an
    /// input without one is `Argument` on `vertexSource`.
    ///
    /// Where xnagraph differs from XNA: XNA compiled `.fx` files (with `technique` and `pass`
    /// blocks, `sampler_state` and render states) offline into bytecode; here each pass is a
    /// pair of stage sources, techniques and passes are given as for GLSL, and an effect
    /// declares no states (set them on the device). Any resource outside the layout above is
    /// refused (`Argument` on `techniques`), as for GLSL.
    ///
    /// Errors: as [`CustomEffect::new`]; a compile error is `Argument` on `vertexSource` or
    /// `fragmentSource`, naming the pass and carrying glslang's log (`ERROR: 0:LINE: ...`).
    pub fn from_hlsl(
        device: &GraphicsDevice,
        techniques: &[TechniqueSource<'_>],
    ) -> Result<CustomEffect> {
        CustomEffect::build(device, &source_techniques(techniques, Code::Hlsl))
    }

    /// XNA's `Effect.Techniques`, in declaration order; empty once disposed.
    pub fn techniques(&self) -> Vec<CustomTechnique<'_>> {
        let n = lock(&self.core.techniques).as_ref().map_or(0, Vec::len);
        (0..n).map(|index| CustomTechnique { effect: self, index }).collect()
    }

    /// XNA's `Effect.Techniques[name]`: `None` when there is none of that name (XNA's null).
    pub fn technique(&self, name: &str) -> Option<CustomTechnique<'_>> {
        let techniques = lock(&self.core.techniques);
        let index = techniques.as_ref()?.iter().position(|t| t.name == name)?;
        Some(CustomTechnique { effect: self, index })
    }

    /// XNA's `Effect.CurrentTechnique` (the first technique until set).
    pub fn current_technique(&self) -> CustomTechnique<'_> {
        CustomTechnique { effect: self, index: *lock(&self.core.current) }
    }

    /// Sets XNA's `Effect.CurrentTechnique`, by name where XNA takes the technique object; an
    /// unknown name is `Argument` on `value`.
    pub fn set_current_technique(&self, name: &str) -> Result<()> {
        let index = self.technique(name).map(|t| t.index).ok_or_else(|| {
            XnaError::argument("value", format!("The effect has no technique named '{name}'."))
        })?;
        *lock(&self.core.current) = index;
        Ok(())
    }

    /// XNA's `Effect.Parameters`, in the order the passes declare them (vertex stage first, then
    /// fragment, pass by pass).
    pub fn parameters(&self) -> Vec<EffectParameter<'_>> {
        (0..self.core.parameters.len())
            .map(|index| EffectParameter { effect: self, index })
            .collect()
    }

    /// XNA's `Effect.Parameters[name]`. XNA answers null for an unknown name and fails at its use;
    /// here the unknown name is `Argument` on `name` at once.
    pub fn parameter(&self, name: &str) -> Result<EffectParameter<'_>> {
        let index = self.core.parameters.iter().position(|p| p.name == name).ok_or_else(|| {
            XnaError::argument("name", format!("The effect has no parameter named '{name}'."))
        })?;
        Ok(EffectParameter { effect: self, index })
    }

    /// XNA's `Effect.Parameters.GetParameterBySemantic(semantic)`: the first parameter whose
    /// semantic is `semantic`, compared without regard to case as XNA compares them; `None`
    /// (XNA's null) when none has it. Only an effect from HLSL has semantics
    /// ([`CustomEffect::from_hlsl`]); GLSL and SPIR-V carry none.
    pub fn parameter_by_semantic(&self, semantic: &str) -> Option<EffectParameter<'_>> {
        let index =
            self.core.parameters.iter().position(|p| {
                !p.semantic.is_empty() && p.semantic.eq_ignore_ascii_case(semantic)
            })?;
        Some(EffectParameter { effect: self, index })
    }

    /// What each pass of the current technique leaves on the device, for a `SpriteBatch` of
    /// `device` drawing through the effect (`Textures[0]` left to the batch: see
    /// [`CustomPass::applied_for_batch`]). A disposed effect is `ObjectDisposed`; an effect of another
    /// device is `Argument` on `effect`.
    pub(crate) fn sprite_passes(
        &self,
        device: &Arc<DeviceShared>,
    ) -> Result<Vec<crate::device::draw_state::CustomApplied>> {
        self.core.res.check_alive()?;
        if !std::ptr::eq(self.core.device.as_ptr(), Arc::as_ptr(device)) {
            return Err(XnaError::argument(
                "effect",
                "The effect was created on a different GraphicsDevice.",
            ));
        }
        let passes = self.current_technique().passes();
        passes.iter().map(CustomPass::applied_for_batch).collect()
    }

    /// XNA's `GraphicsResource.Dispose()`: raises `Disposing`, then `ResourceDestroyed`; a
    /// later `apply` is `ObjectDisposed`. Draws already recorded keep the programs until the GPU
    /// has run them.
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
}

impl Drop for CustomEffect {
    /// Dropping is an implicit dispose (no `Disposing`).
    fn drop(&mut self) {
        self.core.dispose(false);
    }
}
