//! Making a [`CustomEffect`]: each pass's stages compiled (GLSL, HLSL) or taken as SPIR-V and
//! reflected, its vertex inputs bound to XNA's vertex elements, the parameters of every stage
//! and pass collected into one set by name and type, and the native program of each pass
//! created by the backend.

use std::sync::{Arc, Mutex};

#[cfg(feature = "capture")]
use xnagraph_graph::capture::writer::GeometryProgram;
use xnagraph_graph::{CustomResources, EffectKey, EffectState};

use super::parameter::{ParameterInfo, ParameterType};
use super::reflect::{self, Input, Member, Stage};
use super::source::Techn;
use super::{hlsl, CustomCore, CustomEffect, Pass, Technique};
use crate::device::draw_state::{InputBinding, VERTEX_SAMPLER_SLOTS};
use crate::device::profile::GraphicsProfile;
use crate::device::registry::Tracked;
use crate::device::GraphicsDevice;
use crate::effects::glsl::GlslStage;
use crate::error::{Result, XnaError};
use crate::resources::buffer::VertexElementUsage;
use crate::resources::resource::ResourceCore;
use crate::resources::texture::Texture2D;

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
    pub(super) fn build(device: &GraphicsDevice, techniques: &[Techn<'_>]) -> Result<CustomEffect> {
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
