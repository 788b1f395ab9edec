// Stock BasicEffect vertex stage, in SDL_gpu's resource layout (its block: basic_block.glsl).
// Unlit: the material colour times the vertex colour. Per-vertex lighting: the lights computed
// here, the diffuse result in v_diffuse and the specular in v_specular.rgb. Per-pixel lighting:
// the world position and normal for the fragment stage, v_diffuse the vertex colour with the
// material's alpha. v_specular.a is the fog factor: saturate(dot(position, FogVector)), as
// XNA's BasicEffect computes it from the object-space position. Attributes the vertex declaration
// lacks come from a constant stream (white, texture coordinate 0, normal +z). With SKINNED
// (SkinnedEffect's stage, skinned.vert) the position and normal are first moved by the
// vertex's bones, weighted, as XNA's SkinnedEffect does before anything else.

#include "basic_block.glsl"
#include "stock_options.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec4 in_color;
layout(location = 2) in vec2 in_texcoord;
layout(location = 3) in vec3 in_normal;

layout(location = 0) out vec4 v_diffuse;
layout(location = 1) out vec4 v_specular;
layout(location = 2) out vec2 v_texcoord;
layout(location = 3) out vec3 v_position_ws;
layout(location = 4) out vec3 v_normal_ws;
#ifdef INSTANCED
// The instance's material for the fragment stage's per-pixel lighting.
layout(location = 5) flat out vec4 v_material_diffuse;
layout(location = 6) flat out vec4 v_material_emissive;
layout(location = 7) flat out vec4 v_material_specular;
#endif

#ifdef SKINNED
layout(location = 5) in uvec4 in_blend_indices;
layout(location = 6) in vec4 in_blend_weights;

// XNA's 72 bones, each the first three columns of its row-vector matrix (a 4×3 matrix), so
// that column k of the skinned transform dotted with (position, 1) is the skinned position's
// component k. A second uniform block beside BasicBlock, at vertex uniform slot 1.
layout(std140, set = 1, binding = 1) uniform SkinnedBones {
    vec4 bones[72 * 3];
};

// Adds bone `i` of the vertex, by its weight, to the skinning columns.
void add_bone(int i, inout vec4 c0, inout vec4 c1, inout vec4 c2) {
    uint bone = min(in_blend_indices[i], 71u) * 3u;
    float w = in_blend_weights[i];
    c0 += bones[bone] * w;
    c1 += bones[bone + 1u] * w;
    c2 += bones[bone + 2u] * w;
}

// The weighted sum of the vertex's WeightsPerVertex bones applied to the position (w kept)
// and the normal (its 3×3 part), as XNA's Skin(). Each option is read on its own, so that no
// specialization constant enters an expression.
void skin(inout vec4 position, inout vec3 normal) {
    vec4 c0 = vec4(0.0);
    vec4 c1 = vec4(0.0);
    vec4 c2 = vec4(0.0);
    add_bone(0, c0, c1, c2);
    if (TWO_WEIGHTS) {
        add_bone(1, c0, c1, c2);
    }
    if (FOUR_WEIGHTS) {
        add_bone(1, c0, c1, c2);
        add_bone(2, c0, c1, c2);
        add_bone(3, c0, c1, c2);
    }
    position = vec4(dot(position, c0), dot(position, c1), dot(position, c2), position.w);
    normal = vec3(dot(normal, c0.xyz), dot(normal, c1.xyz), dot(normal, c2.xyz));
}
#endif

void main() {
#ifdef INSTANCED
    BasicDraw p = basic_instances.instances[gl_InstanceIndex];
    v_material_diffuse = p.diffuse;
    v_material_emissive = p.emissive;
    v_material_specular = p.specular;
#else
    BasicDraw p = BasicDraw(b.world_view_projection, b.world, mat3(b.world_inverse_transpose),
                            b.diffuse, b.emissive, b.specular, b.fog_vector);
#endif
    vec4 position = vec4(in_position, 1.0);
    vec3 normal = in_normal;
#ifdef SKINNED
    skin(position, normal);
#endif
    gl_Position = p.world_view_projection * position;
    vec4 vertex_color = VERTEX_COLOR ? in_color : vec4(1.0);
    vec3 position_ws = (p.world * position).xyz;
    vec3 normal_ws = normalize(p.world_inverse_transpose * normal);
    float fog = FOG ? clamp(dot(position, p.fog_vector), 0.0, 1.0) : 0.0;
    v_specular = vec4(0.0, 0.0, 0.0, fog);
    if (PER_VERTEX_LIGHTING) {
        vec3 lit_diffuse;
        vec3 lit_specular;
        compute_lights(normalize(b.eye_position.xyz - position_ws), normal_ws, p.diffuse,
                       p.emissive.rgb, p.specular, lit_diffuse, lit_specular);
        v_diffuse = vec4(lit_diffuse, p.diffuse.a) * vertex_color;
        v_specular.rgb = lit_specular;
    } else if (PER_PIXEL_LIGHTING) {
        v_diffuse = vec4(vertex_color.rgb, vertex_color.a * p.diffuse.a);
    } else {
        v_diffuse = p.diffuse * vertex_color;
    }
    v_texcoord = in_texcoord;
    v_position_ws = position_ws;
    v_normal_ws = normal_ws;
}
