//! Geometry pipelines: each draw's full key (stock shader and the options its stages are
//! specialised to, static states, vertex layout, topology, pass formats, colour writes) to the
//! pipeline built the first time that combination is asked for, at a request or at lowering.

use std::collections::HashMap;

use ash::vk;
use xnagraph_graph::{
    Attribute, BackendError, ColorWrites, GeometryPipeline, NativeHandle, PipelineKey,
    PrimitiveType, ShaderKind, StockShader, StockVariant, VertexFormat, VertexLayout,
};

use super::malformed;
use crate::device::Gpu;
use crate::pipeline::stock::StockEffects;
use crate::pipeline::{PassFormats, VertexSide};

type Key = (StockVariant, PipelineKey, VertexLayout, PrimitiveType, PassFormats, ColorWrites);

/// Geometry pipelines by their full key, and the stock effects' modules and layout
/// ([`StockEffects`], made with the first geometry pipeline).
#[derive(Default)]
pub(crate) struct GeometryPipelines {
    pub(super) stock: StockEffects,
    pipelines: HashMap<Key, vk::Pipeline>,
    /// Custom geometry effects' programs (`crate::pipeline::custom`).
    pub custom: crate::pipeline::custom::CustomPrograms,
}

impl GeometryPipelines {
    pub fn count(&self) -> usize {
        self.pipelines.len()
    }

    /// Frees the custom program of `handle` and every pipeline built from it; whether there
    /// was one.
    ///
    /// # Safety
    /// No submission that used it may still be executing.
    pub unsafe fn destroy_custom(&mut self, gpu: &Gpu, handle: NativeHandle) -> bool {
        let uses =
            |k: &Key| matches!(k.1.shader, ShaderKind::CustomGeometry(e) if e.native == handle);
        let stale: Vec<_> = self.pipelines.keys().filter(|k| uses(k)).cloned().collect();
        // SAFETY: the caller's contract: nothing executing uses the program or its pipelines.
        unsafe {
            for key in stale {
                if let Some(p) = self.pipelines.remove(&key) {
                    gpu.device.destroy_pipeline(p, None);
                }
            }
            self.custom.destroy(gpu, handle)
        }
    }

    /// # Safety
    /// The device must be idle.
    pub unsafe fn destroy(&mut self, gpu: &Gpu) {
        // SAFETY: the caller's contract; every handle is destroyed once.
        unsafe {
            for (_, p) in self.pipelines.drain() {
                gpu.device.destroy_pipeline(p, None);
            }
            self.stock.destroy(gpu);
            self.custom.destroy_all(gpu);
        }
    }
}

fn format(f: VertexFormat) -> vk::Format {
    use vk::Format as F;
    match f {
        VertexFormat::Float1 => F::R32_SFLOAT,
        VertexFormat::Float2 => F::R32G32_SFLOAT,
        VertexFormat::Float3 => F::R32G32B32_SFLOAT,
        VertexFormat::Float4 => F::R32G32B32A32_SFLOAT,
        VertexFormat::UByte4Norm => F::R8G8B8A8_UNORM,
        // Read as floats, as Direct3D 9 reads them.
        VertexFormat::UByte4 => F::R8G8B8A8_USCALED,
        VertexFormat::Short2 => F::R16G16_SSCALED,
        VertexFormat::Short4 => F::R16G16B16A16_SSCALED,
        VertexFormat::Short2Norm => F::R16G16_SNORM,
        VertexFormat::Short4Norm => F::R16G16B16A16_SNORM,
        VertexFormat::Half2 => F::R16G16_SFLOAT,
        VertexFormat::Half4 => F::R16G16B16A16_SFLOAT,
    }
}

fn topology(p: PrimitiveType) -> vk::PrimitiveTopology {
    match p {
        PrimitiveType::TriangleList => vk::PrimitiveTopology::TRIANGLE_LIST,
        PrimitiveType::TriangleStrip => vk::PrimitiveTopology::TRIANGLE_STRIP,
        PrimitiveType::LineList => vk::PrimitiveTopology::LINE_LIST,
        PrimitiveType::LineStrip => vk::PrimitiveTopology::LINE_STRIP,
    }
}

/// A geometry draw's pipeline from the cache, built (and counted as built `on_request` or at
/// lowering) the first time its combination is asked for.
pub(crate) fn pipeline(
    gpu: &Gpu,
    pipelines: &mut crate::pipeline::Pipelines,
    key: &PipelineKey,
    g: &GeometryPipeline,
    formats: &PassFormats,
    writes: ColorWrites,
    on_request: bool,
) -> Result<vk::Pipeline, BackendError> {
    let variant = g.variant_for(key);
    let shader = variant.shader;
    let key = (variant, key.static_part(), g.layout.clone(), g.primitive, formats.clone(), writes);
    if let Some(p) = pipelines.geometry.pipelines.get(&key) {
        return Ok(*p);
    }
    let custom = match key.1.shader {
        ShaderKind::CustomGeometry(effect) => {
            let program = pipelines.geometry.custom.get(effect.native)?;
            Some((program.vertex, program.fragment, program.layout))
        }
        _ => None,
    };
    let (vertex, fragment, layout) = match custom {
        Some(program) => program,
        None => {
            let empty = pipelines.set_layouts[0];
            let stock = &mut pipelines.geometry.stock;
            let mut layout = stock.ensure_layout(gpu, empty)?;
            if variant.instanced {
                layout = stock.instanced_layout;
            } else if shader == StockShader::Skinned {
                layout = stock.skinned_layout;
            }
            let (vertex, fragment) = stock.modules(gpu, shader, variant.instanced)?;
            (vertex, fragment, layout)
        }
    };
    let defaults = g.layout.bindings.len() as u32;
    let mut bindings: Vec<_> = (g.layout.bindings.iter().enumerate())
        .map(|(i, b)| {
            let rate = if b.instance_frequency > 0 {
                vk::VertexInputRate::INSTANCE
            } else {
                vk::VertexInputRate::VERTEX
            };
            vk::VertexInputBindingDescription {
                binding: i as u32,
                stride: b.stride,
                input_rate: rate,
            }
        })
        .collect();
    // XNA's InstanceFrequency above 1: the stream steps once per that many instances.
    let divisors: Vec<_> = (g.layout.bindings.iter().enumerate())
        .filter(|(_, b)| b.instance_frequency > 1)
        .map(|(i, b)| vk::VertexInputBindingDivisorDescriptionEXT {
            binding: i as u32,
            divisor: b.instance_frequency,
        })
        .collect();
    if !divisors.is_empty() && !gpu.features.instance_divisor {
        return Err(BackendError::NotSupported(
            "an instance frequency above 1 (vertexAttributeInstanceRateDivisor)".into(),
        ));
    }
    // Stride 0: every vertex reads the same constants.
    bindings.push(vk::VertexInputBindingDescription {
        binding: defaults,
        stride: 0,
        input_rate: vk::VertexInputRate::VERTEX,
    });
    let mut attributes = Vec::new();
    for &(location, a) in g.layout.custom.iter().filter(|_| custom.is_some()) {
        if u32::from(a.binding) >= defaults {
            return Err(malformed("an attribute names a missing vertex stream"));
        }
        attributes.push(vk::VertexInputAttributeDescription {
            location,
            binding: u32::from(a.binding),
            format: format(a.format),
            offset: a.offset,
        });
    }
    let stock = if custom.is_some() { &[][..] } else { xnagraph_shaders::stock_attributes(shader) };
    for &attribute in stock {
        let default = match attribute {
            Attribute::Position => None,
            Attribute::Color => Some((vk::Format::R32G32B32A32_SFLOAT, 0)),
            Attribute::TextureCoordinate | Attribute::TextureCoordinate1 => {
                Some((vk::Format::R32G32_SFLOAT, 16))
            }
            Attribute::Normal => Some((vk::Format::R32G32B32_SFLOAT, 32)),
            Attribute::BlendIndices | Attribute::BlendWeight => None,
        };
        let location = attribute as u32;
        let (binding, format, offset) = match (g.layout.attributes[location as usize], default) {
            // The bone indices are read as integers (`uvec4`).
            (Some(a), _) if attribute == Attribute::BlendIndices => match a.format {
                VertexFormat::UByte4 => (u32::from(a.binding), vk::Format::R8G8B8A8_UINT, a.offset),
                _ => return Err(malformed("bone indices that are not four bytes")),
            },
            (Some(a), _) => (u32::from(a.binding), format(a.format), a.offset),
            (None, Some((f, o))) => (defaults, f, o),
            (None, None) => return Err(malformed("a geometry draw without an element it reads")),
        };
        if binding > defaults {
            return Err(malformed("an attribute names a missing vertex stream"));
        }
        attributes.push(vk::VertexInputAttributeDescription { location, binding, format, offset });
    }
    let mut divisor_state = vk::PipelineVertexInputDivisorStateCreateInfoEXT::default()
        .vertex_binding_divisors(&divisors);
    let mut input = vk::PipelineVertexInputStateCreateInfo::default()
        .vertex_binding_descriptions(&bindings)
        .vertex_attribute_descriptions(&attributes);
    if !divisors.is_empty() {
        input = input.push_next(&mut divisor_state);
    }
    // The stock options as specialization constants, one VkBool32 each, by constant_id.
    let constants = variant.constants();
    let values: Vec<vk::Bool32> = constants.iter().map(|&(_, on)| vk::Bool32::from(on)).collect();
    let entries: Vec<_> = (constants.iter().enumerate())
        .map(|(i, &(id, _))| vk::SpecializationMapEntry {
            constant_id: id,
            offset: (i * size_of::<vk::Bool32>()) as u32,
            size: size_of::<vk::Bool32>(),
        })
        .collect();
    let specialization =
        vk::SpecializationInfo::default().map_entries(&entries).data(bytemuck::cast_slice(&values));
    let mut stages = [
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(vertex)
            .name(c"main"),
        vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::FRAGMENT)
            .module(fragment)
            .name(c"main"),
    ];
    if custom.is_none() {
        stages = stages.map(|s| s.specialization_info(&specialization));
    }
    let side = VertexSide { stages, input, topology: topology(g.primitive), layout };
    let made = pipelines.build_with(gpu, &key.1, formats, writes, &side)?;
    pipelines.geometry.pipelines.insert(key, made);
    pipelines.count_built(on_request);
    Ok(made)
}
