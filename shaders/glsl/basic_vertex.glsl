// Stock BasicEffect vertex stage, in SDL_gpu's resource layout (its block: basic_block.glsl).
// Unlit: the material colour times the vertex colour. Per-vertex lighting: the lights computed
// here, the diffuse result in v_diffuse and the specular in v_specular.rgb. Per-pixel lighting:
// the world position and normal for the fragment stage, v_diffuse the vertex colour with the
// material's alpha. v_specular.a is the fog factor: saturate(dot(position, FogVector)), as
// XNA's BasicEffect computes it from the object-space position. Attributes the vertex declaration
// lacks come from a constant stream (white, texture coordinate 0, normal +z).

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
layout(location = 5) flat out int v_instance;
#endif

void main() {
#ifdef INSTANCED
    b = basic_instances.instances[gl_InstanceIndex];
    v_instance = gl_InstanceIndex;
#endif
    vec4 position = vec4(in_position, 1.0);
    gl_Position = b.world_view_projection * position;
    vec4 vertex_color = VERTEX_COLOR ? in_color : vec4(1.0);
    vec3 position_ws = (b.world * position).xyz;
    vec3 normal_ws = normalize(mat3(b.world_inverse_transpose) * in_normal);
    float fog = FOG ? clamp(dot(position, b.fog_vector), 0.0, 1.0) : 0.0;
    v_specular = vec4(0.0, 0.0, 0.0, fog);
    if (PER_VERTEX_LIGHTING) {
        vec3 lit_diffuse;
        vec3 lit_specular;
        compute_lights(normalize(b.eye_position.xyz - position_ws), normal_ws, lit_diffuse,
                       lit_specular);
        v_diffuse = vec4(lit_diffuse, b.diffuse.a) * vertex_color;
        v_specular.rgb = lit_specular;
    } else if (PER_PIXEL_LIGHTING) {
        v_diffuse = vec4(vertex_color.rgb, vertex_color.a * b.diffuse.a);
    } else {
        v_diffuse = b.diffuse * vertex_color;
    }
    v_texcoord = in_texcoord;
    v_position_ws = position_ws;
    v_normal_ws = normal_ws;
}
