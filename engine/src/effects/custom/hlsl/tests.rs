//! The HLSL declaration reader against effect sources.

use super::*;

fn uniform(name: &str, semantic: &str, annotations: Vec<EffectAnnotation>) -> Uniform {
    Uniform { name: name.into(), semantic: semantic.into(), annotations }
}

fn annotation(name: &str, value: AnnotationValue) -> EffectAnnotation {
    EffectAnnotation { name: name.into(), value }
}

#[test]
fn cbuffer_members_keep_their_semantics_and_annotations() {
    let source = r#"
// A comment: float4x4 NotThis : NOPE;
#define TINT_NAME "Tint"
cbuffer Vertex : register(b0, space1) {
float4x4 World : WORLD <string UIName = "World \"matrix\""; bool Hidden = false;>;
row_major float4x4 View : VIEW, Projection : PROJECTION;
float4 Tint[2] : COLOR0 < float Min = -0.5; int Steps = 0x10; >;
float Plain;
};
/* sampler2D Gone : GONE; */
sampler2D Image : register(s1, space2) < string File = "a.png"; >;
float4 helper(float4 v) { float4 local : NOT_A_UNIFORM = v; return local; }
"#;
    let d = declarations(source).unwrap();
    assert_eq!(
        d.uniforms,
        vec![
            uniform(
                "World",
                "WORLD",
                vec![
                    annotation("UIName", AnnotationValue::String("World \"matrix\"".into())),
                    annotation("Hidden", AnnotationValue::Bool(false)),
                ]
            ),
            uniform("View", "VIEW", vec![]),
            uniform("Projection", "PROJECTION", vec![]),
            uniform(
                "Tint",
                "COLOR0",
                vec![
                    annotation("Min", AnnotationValue::Single(-0.5)),
                    annotation("Steps", AnnotationValue::Int32(16)),
                ]
            ),
            uniform("Plain", "", vec![]),
            uniform("Image", "", vec![annotation("File", AnnotationValue::String("a.png".into()))]),
        ]
    );
}

#[test]
fn main_inputs_are_named_as_glslang_names_them() {
    let source = "
struct VSInput { float3 Position : POSITION0; float2 Uv : TEXCOORD1; };
float4 main(VSInput input, float4 Color : COLOR, out float2 uv : TEXCOORD0) : SV_Position { return 0; }
";
    let d = declarations(source).unwrap();
    let names: Vec<_> = d.inputs.iter().map(|(n, s)| (n.as_str(), s.as_str())).collect();
    assert_eq!(
        names,
        [("input.Position", "POSITION0"), ("input.Uv", "TEXCOORD1"), ("Color", "COLOR")]
    );
}

#[test]
fn an_annotation_of_another_type_is_refused_with_its_line() {
    let source = "cbuffer B : register(b0, space3) {\n  float4 Tint <float2 Range = 1;>;\n};";
    let e = declarations(source).unwrap_err();
    assert!(e.starts_with("line 2:") && e.contains("Range"), "{e}");
}

#[test]
fn semantics_map_onto_vertex_element_usages() {
    assert_eq!(usage_name("POSITION0").as_deref(), Some("Position0"));
    assert_eq!(usage_name("texcoord1").as_deref(), Some("TextureCoordinate1"));
    assert_eq!(usage_name("COLOR").as_deref(), Some("Color"));
    assert_eq!(usage_name("PSIZE").as_deref(), Some("PointSize"));
    assert_eq!(usage_name("SV_VertexID"), None);
}
