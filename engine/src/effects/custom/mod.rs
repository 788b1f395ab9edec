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

mod hlsl;
mod parameter;
mod passes;
mod reflect;
mod source;

use std::sync::{Arc, Mutex};

#[cfg(feature = "capture")]
use xnagraph_graph::capture::writer::GeometryProgram;
use xnagraph_graph::{CustomResources, EffectKey, EffectState, TextureState};

pub use parameter::{
    AnnotationValue, EffectAnnotation, EffectValue, ParameterClass, ParameterType,
};
use parameter::{ParameterInfo, Value};
use reflect::{Input, Member, Stage, StageInfo};
use source::{source_techniques, Code, PassCode, Techn};
pub use source::{PassSource, SpirvPassSource, SpirvTechniqueSource, TechniqueSource};

use crate::device::draw_state::InputBinding;
pub use crate::device::draw_state::VERTEX_SAMPLER_SLOTS;
use crate::device::profile::GraphicsProfile;
use crate::device::registry::{ResourceId, Tracked};
use crate::device::shared::DeviceShared;
use crate::device::GraphicsDevice;
use crate::effects::glsl::GlslStage;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::resources::buffer::VertexElementUsage;
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

fn usage_of(name: &str) -> Option<(VertexElementUsage, u32)> {
    use VertexElementUsage as U;
    let digits = name.len() - name.bytes().rev().take_while(u8::is_ascii_digit).count();
    let (base, index) = name.split_at(digits);
    let index = if index.is_empty() { 0 } else { index.parse().ok()? };
    let usage = match base {
        "Position" => U::Position,
        "Color" => U::Color,
        "TextureCoordinate" => U::TextureCoordinate,
        "Normal" => U::Normal,
        "Binormal" => U::Binormal,
        "Tangent" => U::Tangent,
        "BlendIndices" => U::BlendIndices,
        "BlendWeight" => U::BlendWeight,
        "Depth" => U::Depth,
        "Fog" => U::Fog,
        "PointSize" => U::PointSize,
        "Sample" => U::Sample,
        "TessellateFactor" => U::TessellateFactor,
        _ => return None,
    };
    Some((usage, index))
}

fn input_bindings(inputs: &[Input], pass: &str) -> Result<Vec<InputBinding>> {
    inputs
        .iter()
        .map(|i| {
            let (usage, usage_index) = usage_of(&i.name).ok_or_else(|| {
                XnaError::argument(
                    "techniques",
                    format!(
                        "Pass '{pass}': the vertex input '{}' is not named after a vertex \
                         element usage (Position, Color, TextureCoordinate, Normal, … with an \
                         optional index such as TextureCoordinate1).",
                        i.name
                    ),
                )
            })?;
            Ok(InputBinding { usage, usage_index, location: i.location, name: i.name.clone() })
        })
        .collect()
}

/// Adds the parameters of `members` and `samplers` to `out`, refusing a name with two types;
/// an HLSL stage's `declarations` give them their semantics and annotations (the first stage
/// that declares a parameter with a semantic gives it).
fn collect_parameters(
    out: &mut Vec<ParameterInfo>,
    members: &[Member],
    samplers: &[reflect::Sampler],
    declarations: Option<&hlsl::Declarations>,
) -> Result<()> {
    let found = members.iter().map(ParameterInfo::of_member).chain(samplers.iter().map(|s| {
        ParameterInfo {
            name: s.name.clone(),
            ty: ParameterType::Texture2D,
            count: None,
            semantic: String::new(),
            annotations: Vec::new(),
        }
    }));
    for mut p in found {
        if let Some(u) = declarations.and_then(|d| d.uniforms.iter().find(|u| u.name == p.name)) {
            p.semantic.clone_from(&u.semantic);
            p.annotations.clone_from(&u.annotations);
        }
        if let Some(q) = out.iter_mut().find(|q| q.name == p.name && q.semantic.is_empty()) {
            if q.ty == p.ty && q.count == p.count && !p.semantic.is_empty() {
                q.semantic = std::mem::take(&mut p.semantic);
                q.annotations = std::mem::take(&mut p.annotations);
            }
        }
        match out.iter().find(|q| q.name == p.name) {
            Some(q) if q.ty != p.ty || q.count != p.count => {
                return Err(XnaError::argument(
                    "techniques",
                    format!(
                        "The parameter '{}' is declared with two types ({:?}{} and {:?}{}).",
                        p.name,
                        q.ty,
                        q.count.map_or(String::new(), |n| format!("[{n}]")),
                        p.ty,
                        p.count.map_or(String::new(), |n| format!("[{n}]")),
                    ),
                ))
            }
            Some(_) => {}
            None => out.push(p),
        }
    }
    Ok(())
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

    fn build(device: &GraphicsDevice, techniques: &[Techn<'_>]) -> Result<CustomEffect> {
        let shared = &device.shared;
        shared.check_alive()?;
        if !shared.caps.geometry {
            return Err(XnaError::not_supported(
                "Custom effects are not supported by the active renderer (it lowers no geometry).",
            ));
        }
        let refuse = |m: String| XnaError::argument("techniques", m);
        if techniques.is_empty() {
            return Err(refuse("An effect needs at least one technique.".into()));
        }
        let mut parameters = Vec::new();
        let mut compiled = Vec::new();
        for (i, t) in techniques.iter().enumerate() {
            if techniques[..i].iter().any(|o| o.name == t.name) {
                return Err(refuse(format!("Two techniques are named '{}'.", t.name)));
            }
            if t.passes.is_empty() {
                return Err(refuse(format!("The technique '{}' has no passes.", t.name)));
            }
            let mut passes = Vec::new();
            for (j, p) in t.passes.iter().enumerate() {
                if t.passes[..j].iter().any(|o| o.name == p.name) {
                    return Err(refuse(format!(
                        "Two passes of the technique '{}' are named '{}'.",
                        t.name, p.name
                    )));
                }
                let at = |e: XnaError| match e {
                    XnaError::Argument { param, message } => XnaError::Argument {
                        param,
                        message: format!("Pass '{}' of technique '{}': {message}", p.name, t.name),
                    },
                    other => other,
                };
                let vertex_words = p.vertex.words(GlslStage::Vertex, "vertexSource").map_err(at)?;
                let fragment_words =
                    p.fragment.words(GlslStage::Fragment, "fragmentSource").map_err(at)?;
                let reflected = |words: &[u32], stage, what: &str| {
                    reflect::reflect(words, stage).map_err(|m| {
                        refuse(format!(
                            "Pass '{}' of technique '{}': the {what} stage: {m}.",
                            p.name, t.name
                        ))
                    })
                };
                let mut vertex = reflected(&vertex_words, Stage::Vertex, "vertex")?;
                let fragment = reflected(&fragment_words, Stage::Fragment, "fragment")?;
                if !vertex.samplers.is_empty() {
                    check_vertex_samplers(device.graphics_profile(), &vertex.samplers)?;
                }
                let vertex_declared = p.vertex.declarations("vertexSource").map_err(at)?;
                let fragment_declared = p.fragment.declarations("fragmentSource").map_err(at)?;
                if let Some(declared) = &vertex_declared {
                    name_inputs_by_semantic(&mut vertex.inputs, declared).map_err(at)?;
                }
                collect_parameters(
                    &mut parameters,
                    &vertex.members,
                    &vertex.samplers,
                    vertex_declared.as_ref(),
                )?;
                collect_parameters(
                    &mut parameters,
                    &fragment.members,
                    &fragment.samplers,
                    fragment_declared.as_ref(),
                )?;
                let inputs = input_bindings(&vertex.inputs, p.name)?;
                passes.push((
                    p.name.to_owned(),
                    vertex_words,
                    fragment_words,
                    vertex,
                    fragment,
                    inputs,
                    (p.vertex.glsl().to_owned(), p.fragment.glsl().to_owned()),
                ));
            }
            compiled.push((t.name.to_owned(), passes));
        }

        shared.check_failure()?;
        let white = Texture2D::new(device, 1, 1)?;
        white.set_data(&[0xFFFF_FFFFu32])?;
        let mut techniques_out = Vec::new();
        for (name, passes) in compiled {
            let mut out = Vec::new();
            for (pass_name, vw, fw, vertex, fragment, inputs, glsl) in passes {
                #[cfg(not(feature = "capture"))]
                let _ = glsl;
                let resources = CustomResources {
                    vertex_samplers: vertex.samplers.iter().map(|s| s.binding).collect(),
                    vertex_uniform_bytes: vertex.block_size,
                    fragment_samplers: fragment.samplers.iter().map(|s| s.binding).collect(),
                    fragment_uniform_bytes: fragment.block_size,
                    outputs: fragment.outputs,
                };
                let state = shared.with_backend(|backend| {
                    let native = backend.create_geometry_effect(&vw, &fw, &resources)?;
                    let key = EffectKey { native, outputs: fragment.outputs as u8 };
                    Ok(EffectState::new(key, backend.retire_sink()))
                })?;
                #[cfg(feature = "capture")]
                shared.capture.geometry_effect_created(
                    &state,
                    GeometryProgram {
                        technique: name.clone(),
                        pass: pass_name.clone(),
                        vertex_glsl: glsl.0,
                        fragment_glsl: glsl.1,
                        vertex_spirv: vw.into(),
                        fragment_spirv: fw.into(),
                        resources,
                    },
                );
                out.push(Pass { name: pass_name, state, inputs, vertex, fragment });
            }
            techniques_out.push(Technique { name, passes: out });
        }
        let values = parameters.iter().map(ParameterInfo::initial).collect();
        let core = Arc::new(CustomCore {
            res: ResourceCore::new("Effect", Arc::downgrade(shared)),
            device: Arc::downgrade(shared),
            techniques: Mutex::new(Some(techniques_out)),
            parameters,
            values: Mutex::new(values),
            current: Mutex::new(0),
            white: white.core.state()?,
        });
        let weak: std::sync::Weak<dyn Tracked> =
            Arc::downgrade(&(core.clone() as Arc<dyn Tracked>));
        shared.register(core.res.id, weak, &core.res.args());
        Ok(CustomEffect { core, _white: white })
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

/// Names each of an HLSL vertex stage's `inputs` (glslang names them after the entry point's
/// parameters) after the vertex element its semantic reads (`POSITION0` is `Position0`). An
/// input without such a semantic is `Argument` on `vertexSource`.
fn name_inputs_by_semantic(inputs: &mut [Input], declared: &hlsl::Declarations) -> Result<()> {
    for input in inputs {
        let semantic = declared.inputs.iter().find(|(name, _)| *name == input.name);
        let usage = semantic.and_then(|(_, s)| hlsl::usage_name(s));
        input.name = usage.ok_or_else(|| {
            XnaError::argument(
                "vertexSource",
                format!(
                    "The vertex input '{}' of main has no vertex element semantic (POSITION, \
                     COLOR, TEXCOORD, NORMAL, ... with an optional index){}.",
                    input.name,
                    semantic.map_or(String::new(), |(_, s)| format!("; it has '{s}'"))
                ),
            )
        })?;
    }
    Ok(())
}

/// Vertex texture fetch is HiDef's, with four samplers.
fn check_vertex_samplers(profile: GraphicsProfile, samplers: &[reflect::Sampler]) -> Result<()> {
    if profile == GraphicsProfile::Reach {
        return Err(XnaError::not_supported(
            "Vertex texture fetch (a sampler in the vertex stage) requires the HiDef profile.",
        ));
    }
    if let Some(s) = samplers.iter().find(|s| s.binding as usize >= VERTEX_SAMPLER_SLOTS) {
        return Err(XnaError::argument(
            "techniques",
            format!(
                "The vertex sampler '{}' is at binding {}; HiDef has {VERTEX_SAMPLER_SLOTS} vertex \
                 samplers.",
                s.name, s.binding
            ),
        ));
    }
    Ok(())
}
