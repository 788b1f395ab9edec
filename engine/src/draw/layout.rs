//! The vertex layout a geometry draw reads: which element of which bound stream feeds each
//! input the applied effect's shader declares, derived from the vertex declarations (XNA's
//! `InvalidOperationException` naming an element the effect needs and no stream has), and kept
//! between draws of the same streams and effect.

use xnagraph_graph::{
    Attribute, AttributeSource, BindingLayout, VertexFormat, VertexLayout, ATTRIBUTES,
};

use super::ActiveEffect;
use crate::device::draw_state::{AppliedEffect, CustomApplied, DrawStates, LastLayout};
use crate::error::{Result, XnaError};
use crate::resources::buffer::{VertexDeclaration, VertexElementFormat, VertexElementUsage};

fn vertex_format(f: VertexElementFormat) -> VertexFormat {
    match f {
        VertexElementFormat::Single => VertexFormat::Float1,
        VertexElementFormat::Vector2 => VertexFormat::Float2,
        VertexElementFormat::Vector3 => VertexFormat::Float3,
        VertexElementFormat::Vector4 => VertexFormat::Float4,
        VertexElementFormat::Color => VertexFormat::UByte4Norm,
        VertexElementFormat::Byte4 => VertexFormat::UByte4,
        VertexElementFormat::Short2 => VertexFormat::Short2,
        VertexElementFormat::Short4 => VertexFormat::Short4,
        VertexElementFormat::NormalizedShort2 => VertexFormat::Short2Norm,
        VertexElementFormat::NormalizedShort4 => VertexFormat::Short4Norm,
        VertexElementFormat::HalfVector2 => VertexFormat::Half2,
        VertexElementFormat::HalfVector4 => VertexFormat::Half4,
    }
}

/// The vertex layout of `declarations` (one per stream) for the applied effect: the first
/// element of each usage the shader reads, searched stream by stream. An element the effect
/// needs and no stream has is XNA's `InvalidOperationException` naming it.
pub(super) fn layout(
    declarations: &[(&VertexDeclaration, u32)],
    effect: &ActiveEffect,
    caps: &xnagraph_graph::Capabilities,
) -> Result<VertexLayout> {
    match effect {
        ActiveEffect::Basic(e) => stock_layout(declarations, e, caps),
        ActiveEffect::Custom(c) => custom_layout(declarations, c),
    }
}

/// [`layout`] for a stock effect.
fn stock_layout(
    declarations: &[(&VertexDeclaration, u32)],
    effect: &AppliedEffect,
    caps: &xnagraph_graph::Capabilities,
) -> Result<VertexLayout> {
    let mut attributes = [None; ATTRIBUTES];
    for (binding, (decl, _)) in declarations.iter().enumerate() {
        for e in decl.vertex_elements() {
            let location = match (e.usage, e.usage_index) {
                (VertexElementUsage::Position, 0) => Attribute::Position,
                (VertexElementUsage::Color, 0) => Attribute::Color,
                (VertexElementUsage::TextureCoordinate, 0) => Attribute::TextureCoordinate,
                (VertexElementUsage::Normal, 0) => Attribute::Normal,
                (VertexElementUsage::TextureCoordinate, 1) => Attribute::TextureCoordinate1,
                (VertexElementUsage::BlendIndices, 0) => Attribute::BlendIndices,
                (VertexElementUsage::BlendWeight, 0) => Attribute::BlendWeight,
                _ => continue,
            };
            let slot = &mut attributes[location as usize];
            if slot.is_none() {
                *slot = Some(AttributeSource {
                    binding: binding as u8,
                    format: vertex_format(e.format),
                    offset: e.offset,
                });
            }
        }
    }
    let needed = [
        (Attribute::Position, true, "Position0"),
        (Attribute::Color, effect.needs_color, "Color0"),
        (Attribute::TextureCoordinate, effect.needs_texture_coordinate, "TextureCoordinate0"),
        (Attribute::Normal, effect.needs_normal, "Normal0"),
        (Attribute::TextureCoordinate1, effect.needs_texture_coordinate1, "TextureCoordinate1"),
        (Attribute::BlendIndices, effect.needs_skinning, "BlendIndices0"),
        (Attribute::BlendWeight, effect.needs_skinning, "BlendWeight0"),
    ];
    for (location, needed, name) in needed {
        if needed && attributes[location as usize].is_none() {
            return Err(XnaError::invalid_operation(format!(
                "The current vertex declaration does not include all the elements required by \
                 the current vertex shader. {name} is missing."
            )));
        }
        // Elements the effect does not use are not read: the constant stream stands in.
        if !needed {
            attributes[location as usize] = None;
        }
    }
    // The bone indices are read as integers, which every renderer reads; only four bytes.
    if let Some(a) = attributes[Attribute::BlendIndices as usize] {
        if a.format != VertexFormat::UByte4 {
            return Err(XnaError::not_supported(format!(
                "BlendIndices0 of format {:?}: SkinnedEffect reads bone indices as Byte4.",
                a.format
            )));
        }
    }
    let scaled = [VertexFormat::UByte4, VertexFormat::Short2, VertexFormat::Short4];
    let read_as_floats = attributes
        .iter()
        .enumerate()
        .filter(|(location, _)| *location != Attribute::BlendIndices as usize);
    if let Some(a) =
        read_as_floats.filter_map(|(_, a)| a.as_ref()).find(|a| scaled.contains(&a.format))
    {
        if !caps.scaled_vertex_formats {
            return Err(XnaError::not_supported(format!(
                "Vertex elements of format {:?} (read as unnormalised floats) are not supported \
                 by the active renderer.",
                a.format
            )));
        }
    }
    let bindings = bindings(declarations);
    Ok(VertexLayout { bindings, attributes, custom: Vec::new() })
}

/// [`stock_layout`] of the bound streams, derived only when they or the elements the effect
/// reads changed since the last draw that asked (a game draws many times with one vertex buffer
/// bound): otherwise the layout remembered in `states`.
pub(super) fn bound_stock_layout<'a>(
    states: &'a mut DrawStates,
    effect: &AppliedEffect,
    caps: &xnagraph_graph::Capabilities,
) -> Result<&'a VertexLayout> {
    let needs = effect.needs();
    let last = match states.last_layout.take() {
        Some(last) if last.is_of(&states.streams, needs) => last,
        _ => {
            let declarations: Vec<_> = states
                .streams
                .iter()
                .map(|s| (&s.declaration, s.instance_frequency as u32))
                .collect();
            let layout = stock_layout(&declarations, effect, caps)?;
            let streams = declarations.iter().map(|&(d, f)| (d.clone(), f)).collect();
            LastLayout { streams, needs, layout }
        }
    };
    Ok(&states.last_layout.insert(last).layout)
}

/// The vertex layout of `declarations` (one per stream, with its instance frequency) for the
/// pass's inputs: each input reads the first element of its usage and index, searched stream
/// by stream. An input no stream has is XNA's `InvalidOperationException` naming it.
pub(super) fn custom_layout(
    declarations: &[(&VertexDeclaration, u32)],
    effect: &CustomApplied,
) -> Result<VertexLayout> {
    let mut custom = Vec::with_capacity(effect.inputs.len());
    for input in &effect.inputs {
        let found = declarations.iter().enumerate().find_map(|(binding, (decl, _))| {
            let e = decl
                .vertex_elements()
                .iter()
                .find(|e| e.usage == input.usage && e.usage_index == input.usage_index)?;
            Some(AttributeSource {
                binding: binding as u8,
                format: vertex_format(e.format),
                offset: e.offset,
            })
        });
        let Some(source) = found else {
            return Err(XnaError::invalid_operation(format!(
                "The current vertex declaration does not include all the elements required by \
                 the current vertex shader. {:?}{} (the input '{}') is missing.",
                input.usage, input.usage_index, input.name
            )));
        };
        custom.push((input.location, source));
    }
    let bindings = bindings(declarations);
    Ok(VertexLayout { bindings, attributes: [None; ATTRIBUTES], custom })
}

/// One binding per stream: its declaration's stride and its instance frequency (0 per vertex).
pub(super) fn bindings(declarations: &[(&VertexDeclaration, u32)]) -> Vec<BindingLayout> {
    let binding = |(d, freq): &(&VertexDeclaration, u32)| BindingLayout {
        stride: d.vertex_stride() as u32,
        instance_frequency: *freq,
    };
    declarations.iter().map(binding).collect()
}
