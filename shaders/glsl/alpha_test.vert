#version 450
#extension GL_GOOGLE_include_directive : require
// Stock AlphaTestEffect vertex stage, in SDL_gpu's resource layout (vertex uniforms are set 1):
// the material colour times the vertex colour when VertexColorEnabled, the texture coordinate,
// and the fog factor saturate(dot(position, FogVector)).

#define ALPHA_TEST_SET 1
#include "alpha_test_uniforms.glsl"
#include "stock_options.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec4 in_color;
layout(location = 2) in vec2 in_texcoord;

layout(location = 0) out vec4 v_diffuse;
layout(location = 1) out vec2 v_texcoord;
layout(location = 2) out float v_fog;

void main() {
    vec4 position = vec4(in_position, 1.0);
    gl_Position = world_view_projection * position;
    v_diffuse = VERTEX_COLOR ? diffuse * in_color : diffuse;
    v_texcoord = in_texcoord;
    v_fog = FOG ? clamp(dot(position, fog_vector), 0.0, 1.0) : 0.0;
}
