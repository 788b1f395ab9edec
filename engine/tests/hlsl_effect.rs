//! Custom effects from HLSL source (`CustomEffect::from_hlsl`): a cbuffer member and a sampler
//! are parameters by name; semantics and annotations are read from the source; vertex inputs
//! are matched by semantic; a compile error carries glslang's line; and every effect kind
//! answers parameters by name and by semantic the same way.

#![cfg(feature = "runtime-effects")]

mod common;

use common::*;
use xnagraph::{
    AnnotationValue, BasicEffect, BufferUsage, Color, CustomEffect, GraphicsDevice, Matrix,
    PassSource, PrimitiveType, SamplerState, SpirvPassSource, SpirvTechniqueSource,
    TechniqueSource, Texture2D, Vector2, Vector3, Vector4, VertexBuffer, VertexPositionTexture,
    XnaError,
};

const W: i32 = 32;
const H: i32 = 24;
const CLEAR: Color = Color::new(10, 20, 30, 255);

/// XNA's matrix from pixel coordinates (y down) to clip space (y up).
fn pixels_to_clip() -> Matrix {
    Matrix::create_orthographic_off_center(0.0, W as f32, H as f32, 0.0, 0.0, -1.0)
}

const VERTEX: &str = r#"
// The vertex stage: XNA's row-vector convention, mul(v, M).
cbuffer Vertex : register(b0, space1) {
    float4x4 World : WORLD <string UIName = "World matrix"; bool Hidden = false;>;
    float2 Offset : OFFSET;
};
struct VSInput {
    float3 Position : POSITION0;
    float2 Uv : TEXCOORD0;
};
struct VSOutput {
    float4 Position : SV_Position;
    float2 Uv : TEXCOORD0;
};
VSOutput main(VSInput input) {
    VSOutput output;
    output.Position = mul(float4(input.Position.xy + Offset, 0.5, 1.0), World);
    output.Uv = input.Uv;
    return output;
}
"#;

const FRAGMENT: &str = r#"
cbuffer Fragment : register(b0, space3) {
    float4 Tint : COLOR0 <float Min = -0.5; int Steps = 4;>;
};
sampler2D Image : register(s1, space2) <string File = "image.png";>;
float4 main(float4 position : SV_Position, float2 uv : TEXCOORD0) : SV_Target0 {
    return tex2D(Image, uv) * Tint;
}
"#;

fn effect(device: &GraphicsDevice) -> CustomEffect {
    CustomEffect::from_hlsl(
        device,
        &[TechniqueSource {
            name: "Textured",
            passes: &[PassSource { name: "P0", vertex: VERTEX, fragment: FRAGMENT }],
        }],
    )
    .expect("HLSL effect")
}

/// A quad of 8 × 6 pixels whose texture coordinates cover a 2 × 2 texture.
fn quad(device: &GraphicsDevice) -> VertexBuffer {
    let v = |x: f32, y: f32| VertexPositionTexture {
        position: Vector3::new(x * 8.0, y * 6.0, 0.0),
        texture_coordinate: Vector2::new(x, y),
    };
    let vb = VertexBuffer::with_type::<VertexPositionTexture>(device, 4, BufferUsage::WriteOnly)
        .unwrap();
    vb.set_data(&[v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0), v(1.0, 1.0)]).unwrap();
    vb
}

const TEXELS: [Color; 4] = [
    Color::new(200, 40, 100, 255),
    Color::new(60, 220, 20, 255),
    Color::new(0, 80, 240, 255),
    Color::new(250, 250, 0, 255),
];

#[test]
fn an_hlsl_effect_draws_its_cbuffer_and_sampler_parameters() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = effect(&device);
    let texture = Texture2D::new(&device, 2, 2).unwrap();
    texture.set_data(&TEXELS).unwrap();
    effect.parameter("World").unwrap().set_value(pixels_to_clip()).unwrap();
    effect.parameter("Offset").unwrap().set_value(Vector2::new(5.0, 3.0)).unwrap();
    effect.parameter("Tint").unwrap().set_value(Vector4::new(1.0, 0.5, 1.0, 1.0)).unwrap();
    effect.parameter("Image").unwrap().set_value(&texture).unwrap();
    device.sampler_states().set(1, SamplerState::POINT_CLAMP).unwrap();
    let vb = quad(&device);
    device.set_vertex_buffer(Some(&vb)).unwrap();
    device.clear(CLEAR).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
    let px = read_back_buffer(&device);
    let p = |x, y| at(&px, W, x, y);
    let tinted = |c: Color| Color::new(c.r, c.g / 2, c.b, c.a);
    // The quad covers pixels 5..13 × 3..9; each quarter is one texel.
    for (x, y, texel) in [(5, 3, 0), (12, 3, 1), (5, 8, 2), (12, 8, 3), (8, 5, 0), (9, 6, 3)] {
        assert_eq!(p(x, y), tinted(TEXELS[texel]), "texel {texel} at {x},{y}");
    }
    for (x, y) in [(4, 3), (13, 8), (5, 2), (12, 9)] {
        assert_eq!(p(x, y), CLEAR, "outside the quad at {x},{y}");
    }
    assert_eq!(px.iter().filter(|&&c| c != CLEAR).count(), 8 * 6);
}

#[test]
fn hlsl_parameters_answer_by_name_and_by_semantic() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = effect(&device);
    let names: Vec<_> = effect.parameters().iter().map(|p| p.name().to_owned()).collect();
    assert_eq!(names, ["World", "Offset", "Tint", "Image"]);
    let semantics: Vec<_> = effect.parameters().iter().map(|p| p.semantic().to_owned()).collect();
    assert_eq!(semantics, ["WORLD", "OFFSET", "COLOR0", ""]);
    let by = |s| effect.parameter_by_semantic(s).map(|p| p.name().to_owned());
    assert_eq!(by("WORLD").as_deref(), Some("World"));
    assert_eq!(by("world").as_deref(), Some("World"), "semantics compare without case");
    assert_eq!(by("COLOR0").as_deref(), Some("Tint"));
    assert_eq!(by("COLOR1"), None, "XNA's null");
    assert_eq!(by(""), None, "a parameter without a semantic is not found by an empty one");
    // What is found by semantic is the parameter: setting it through either is one value.
    effect.parameter_by_semantic("OFFSET").unwrap().set_value(Vector2::new(1.0, 2.0)).unwrap();
    assert!(matches!(
        effect.parameter("Offset").unwrap().set_value(1.0f32),
        Err(XnaError::InvalidCast { .. })
    ));
}

#[test]
fn annotations_are_read_from_the_hlsl_source() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = effect(&device);
    let world = effect.parameter("World").unwrap();
    let names: Vec<_> = world.annotations().iter().map(|a| a.name().to_owned()).collect();
    assert_eq!(names, ["UIName", "Hidden"]);
    assert_eq!(world.annotation("UIName").unwrap().get_value_string().unwrap(), "World matrix");
    assert!(!world.annotation("Hidden").unwrap().get_value_boolean().unwrap());
    assert!(matches!(
        world.annotation("UIName").unwrap().get_value_single(),
        Err(XnaError::InvalidCast { .. })
    ));
    assert!(world.annotation("Missing").is_none());
    let tint = effect.parameter("Tint").unwrap();
    assert_eq!(tint.annotation("Min").unwrap().get_value_single().unwrap(), -0.5);
    assert_eq!(tint.annotation("Steps").unwrap().value(), &AnnotationValue::Int32(4));
    let image = effect.parameter("Image").unwrap();
    assert_eq!(image.annotation("File").unwrap().get_value_string().unwrap(), "image.png");
    assert!(effect.parameter("Offset").unwrap().annotations().is_empty());
}

fn hlsl(device: &GraphicsDevice, vertex: &str, fragment: &str) -> xnagraph::Result<CustomEffect> {
    CustomEffect::from_hlsl(
        device,
        &[TechniqueSource { name: "T", passes: &[PassSource { name: "P", vertex, fragment }] }],
    )
}

#[test]
fn hlsl_compile_errors_carry_the_compilers_line() {
    let _v = Validation::new();
    let device = device(W, H);
    let broken = FRAGMENT.replace("return tex2D(Image, uv) * Tint;", "return Undeclared * Tint;");
    let line = broken.lines().position(|l| l.contains("Undeclared")).unwrap() + 1;
    match hlsl(&device, VERTEX, &broken) {
        Err(XnaError::Argument { param, message }) => {
            assert_eq!(param, "fragmentSource");
            assert!(message.contains("Pass 'P' of technique 'T'"), "{message}");
            assert!(message.contains(&format!(":{line}:")), "line {line}: {message}");
            assert!(message.contains("Undeclared"), "{message}");
        }
        other => panic!("expected Argument, got {other:?}"),
    }
    match hlsl(&device, "float4 main( : SV_Position { }", FRAGMENT) {
        Err(XnaError::Argument { param, message }) => {
            assert_eq!(param, "vertexSource");
            assert!(message.contains("ERROR: 0:1:"), "{message}");
        }
        other => panic!("expected Argument, got {other:?}"),
    }
}

#[test]
fn hlsl_declarations_outside_the_rules_are_refused() {
    let _v = Validation::new();
    let device = device(W, H);
    // An input whose semantic names no vertex element.
    let vertex = VERTEX.replace("POSITION0", "BANANA0");
    let r = hlsl(&device, &vertex, FRAGMENT);
    assert!(
        matches!(&r, Err(XnaError::Argument { param: "vertexSource", message }) if message.contains("BANANA0")),
        "{r:?}"
    );
    // An annotation of a type the reader does not read, named with its line.
    let fragment = FRAGMENT.replace("int Steps = 4;", "float2 Range = 1;");
    let line = fragment.lines().position(|l| l.contains("Range")).unwrap() + 1;
    let r = hlsl(&device, VERTEX, &fragment);
    assert!(
        matches!(&r, Err(XnaError::Argument { param: "fragmentSource", message })
            if message.contains(&format!("line {line}:")) && message.contains("Range")),
        "{r:?}"
    );
}

/// SPIR-V made by a run-time compile is accepted by `from_spirv` and draws the same pixels;
/// its parameters have names but no semantics or annotations.
#[test]
fn spirv_words_make_the_same_effect_without_semantics() {
    let _v = Validation::new();
    let device = device(W, H);
    let vertex = "#version 450
layout(set = 1, binding = 0) uniform Vertex { mat4 World; vec2 Offset; };
layout(location = 0) in vec3 Position;
layout(location = 1) in vec2 TextureCoordinate;
layout(location = 0) out vec2 uv;
void main() { gl_Position = World * vec4(Position.xy + Offset, 0.5, 1.0); uv = TextureCoordinate; }";
    let fragment = "#version 450
layout(set = 3, binding = 0) uniform Fragment { vec4 Tint; };
layout(set = 2, binding = 1) uniform sampler2D Image;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = texture(Image, uv) * Tint; }";
    let vw = spirv(vertex, glslang::ShaderStage::Vertex);
    let fw = spirv(fragment, glslang::ShaderStage::Fragment);
    let effect = CustomEffect::from_spirv(
        &device,
        &[SpirvTechniqueSource {
            name: "T",
            passes: &[SpirvPassSource { name: "P", vertex: &vw, fragment: &fw }],
        }],
    )
    .unwrap();
    assert!(effect.parameters().iter().all(|p| p.semantic().is_empty()));
    assert!(effect.parameters().iter().all(|p| p.annotations().is_empty()));
    assert!(effect.parameter_by_semantic("WORLD").is_none());
    let texture = Texture2D::new(&device, 2, 2).unwrap();
    texture.set_data(&TEXELS).unwrap();
    effect.parameter("World").unwrap().set_value(pixels_to_clip()).unwrap();
    effect.parameter("Offset").unwrap().set_value(Vector2::new(5.0, 3.0)).unwrap();
    effect.parameter("Tint").unwrap().set_value(Vector4::new(1.0, 0.5, 1.0, 1.0)).unwrap();
    effect.parameter("Image").unwrap().set_value(&texture).unwrap();
    device.sampler_states().set(1, SamplerState::POINT_CLAMP).unwrap();
    let vb = quad(&device);
    device.set_vertex_buffer(Some(&vb)).unwrap();
    device.clear(CLEAR).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
    let px = read_back_buffer(&device);
    let tinted = |c: Color| Color::new(c.r, c.g / 2, c.b, c.a);
    assert_eq!(at(&px, W, 12, 8), tinted(TEXELS[3]));
    assert_eq!(at(&px, W, 5, 3), tinted(TEXELS[0]));
    assert_eq!(px.iter().filter(|&&c| c != CLEAR).count(), 8 * 6);
    // Words that are not SPIR-V are refused on `techniques`.
    let r = CustomEffect::from_spirv(
        &device,
        &[SpirvTechniqueSource {
            name: "T",
            passes: &[SpirvPassSource { name: "P", vertex: &[1, 2, 3, 4, 5], fragment: &fw }],
        }],
    );
    assert!(matches!(r, Err(XnaError::Argument { param: "techniques", .. })), "{r:?}");
}

/// SPIR-V words for a GLSL stage, compiled as `glslc --target-env=vulkan1.0` would.
fn spirv(source: &str, stage: glslang::ShaderStage) -> Vec<u32> {
    let compiler = glslang::Compiler::acquire().expect("glslang");
    let source = glslang::ShaderSource::from(source);
    let options = glslang::CompilerOptions::default();
    let input =
        glslang::ShaderInput::new(&source, stage, &options, None::<&[(&str, Option<&str>)]>, None)
            .expect("input");
    compiler.create_shader(input).expect("parse").compile().expect("compile")
}

/// Every effect kind answers a parameter by name with `Argument` on `name` when it has none,
/// and by semantic with XNA's null when none has it; the stock effects' sources declare no
/// semantics, so none is found on them.
#[test]
fn every_effect_kind_answers_by_name_and_semantic_alike() {
    let _v = Validation::new();
    let device = device(W, H);
    let custom = effect(&device);
    assert!(matches!(custom.parameter("Nope"), Err(XnaError::Argument { param: "name", .. })));
    let mut basic = BasicEffect::new(&device).unwrap();
    let mut parameters = basic.parameters();
    assert!(matches!(parameters.get("Nope"), Err(XnaError::Argument { param: "name", .. })));
    assert_eq!(parameters.get("World").unwrap().semantic(), "");
    assert!(parameters.get("World").unwrap().annotations().is_empty());
    assert!(parameters.get_by_semantic("WORLD").is_none());
    assert!(parameters.get_by_semantic("").is_none());
}

/// XNA's own style: uniforms at file scope, with semantics, and a sampler read through the
/// device's `Textures` slot of its register.
const XNA_VERTEX: &str = r#"
float4x4 WorldViewProjection : WORLDVIEWPROJECTION;
float2 Offset;
void main(float3 position : POSITION, float2 uv : TEXCOORD0,
          out float4 clip : SV_Position, out float2 uvOut : TEXCOORD0) {
    clip = mul(float4(position.xy + Offset, 0.5, 1), WorldViewProjection);
    uvOut = uv;
}
"#;

const XNA_FRAGMENT: &str = r#"
float4 Tint : DIFFUSECOLOR <string UIWidget = "Color";>;
sampler2D Image : register(s2, space2);
float4 main(float4 position : SV_Position, float2 uv : TEXCOORD0) : COLOR0 {
    return tex2D(Image, uv) * Tint;
}
"#;

#[test]
fn file_scope_uniforms_are_parameters_as_in_xnas_effects() {
    let _v = Validation::new();
    let device = device(W, H);
    let effect = hlsl(&device, XNA_VERTEX, XNA_FRAGMENT).expect("XNA-style HLSL");
    let wvp = effect.parameter_by_semantic("WorldViewProjection").expect("by semantic");
    assert_eq!(wvp.name(), "WorldViewProjection");
    wvp.set_value(pixels_to_clip()).unwrap();
    assert_eq!(effect.parameter("Offset").unwrap().semantic(), "");
    effect.parameter("Offset").unwrap().set_value(Vector2::new(17.0, 11.0)).unwrap();
    let tint = effect.parameter_by_semantic("DIFFUSECOLOR").unwrap();
    assert_eq!(tint.annotation("UIWidget").unwrap().get_value_string().unwrap(), "Color");
    tint.set_value(Vector4::new(0.5, 1.0, 1.0, 1.0)).unwrap();
    let vb = quad(&device);
    device.set_vertex_buffer(Some(&vb)).unwrap();
    device.sampler_states().set(2, SamplerState::POINT_CLAMP).unwrap();
    let texture = Texture2D::new(&device, 2, 2).unwrap();
    texture.set_data(&TEXELS).unwrap();
    device.clear(CLEAR).unwrap();
    effect.current_technique().passes()[0].apply().unwrap();
    // No parameter holds the texture: the slot of the sampler's register does.
    device.textures().set(2, Some(&texture)).unwrap();
    device.draw_primitives(PrimitiveType::TriangleStrip, 0, 2).unwrap();
    let px = read_back_buffer(&device);
    let halved = |c: Color| Color::new(c.r / 2, c.g, c.b, c.a);
    // The quad covers pixels 17..25 × 11..17.
    for (x, y, texel) in [(17, 11, 0), (24, 11, 1), (17, 16, 2), (24, 16, 3)] {
        assert_eq!(at(&px, W, x, y), halved(TEXELS[texel]), "texel {texel} at {x},{y}");
    }
    assert_eq!(at(&px, W, 16, 11), CLEAR);
    assert_eq!(at(&px, W, 25, 16), CLEAR);
    assert_eq!(px.iter().filter(|&&c| c != CLEAR).count(), 8 * 6);
}
