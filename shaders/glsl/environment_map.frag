#version 450
#extension GL_GOOGLE_include_directive : require
// Stock EnvironmentMapEffect fragment stage, in SDL_gpu's resource layout (fragment samplers are
// set 2: Texture at binding 0, EnvironmentMap at binding 1; fragment uniforms set 3), as XNA's:
// the texel times the lit colour, blended towards the cube map's texel (premultiplied by that
// alpha) by v_specular.rgb; with ENVIRONMENT_SPECULAR, EnvironmentMapSpecular times the cube
// texel's alpha added; then fog towards FogColor × alpha.

#define ENVIRONMENT_MAP_SET 3
#include "environment_map_uniforms.glsl"
#include "stock_options.glsl"

layout(set = 2, binding = 0) uniform sampler2D environment_texture;
layout(set = 2, binding = 1) uniform samplerCube environment_map;

layout(location = 0) in vec4 v_diffuse;
layout(location = 1) in vec4 v_specular;
layout(location = 2) in vec2 v_texcoord;
layout(location = 3) in vec3 v_env_coord;

layout(location = 0) out vec4 out_color;

void main() {
    vec4 color = texture(environment_texture, v_texcoord) * v_diffuse;
    vec4 env = texture(environment_map, v_env_coord) * color.a;
    color.rgb = mix(color.rgb, env.rgb, v_specular.rgb);
    if (ENVIRONMENT_SPECULAR) {
        color.rgb += environment_specular.rgb * env.a;
    }
    if (FOG) {
        color.rgb = mix(color.rgb, fog_color.rgb * color.a, v_specular.a);
    }
    out_color = color;
}
