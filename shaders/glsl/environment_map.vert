#version 450
#extension GL_GOOGLE_include_directive : require
// Stock EnvironmentMapEffect vertex stage, in SDL_gpu's resource layout (vertex uniforms are
// set 1), as XNA's: the directional lights' diffuse term per vertex (light 0 only with
// ONE_LIGHT), the cube map's share in v_specular.rgb (EnvironmentMapAmount, times the Fresnel
// term pow(max(1 - |E·N|, 0), FresnelFactor) with FRESNEL), the fog factor in v_specular.a, and
// the lookup direction: the eye vector reflected about the world normal.

#define ENVIRONMENT_MAP_SET 1
#include "environment_map_uniforms.glsl"
#include "stock_options.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 2) in vec2 in_texcoord;
layout(location = 3) in vec3 in_normal;

layout(location = 0) out vec4 v_diffuse;
layout(location = 1) out vec4 v_specular;
layout(location = 2) out vec2 v_texcoord;
layout(location = 3) out vec3 v_env_coord;

// Light i's diffuse contribution: none from behind the surface.
vec3 light(int i, vec3 normal) {
    float dot_l = dot(-light_direction[i].xyz, normal);
    return step(0.0, dot_l) * dot_l * light_diffuse[i].rgb;
}

void main() {
    vec4 position = vec4(in_position, 1.0);
    gl_Position = world_view_projection * position;
    vec3 position_ws = (world * position).xyz;
    vec3 eye = normalize(eye_position.xyz - position_ws);
    vec3 normal = normalize(mat3(world_inverse_transpose) * in_normal);
    vec3 lights;
    if (ONE_LIGHT) {
        lights = light(0, normal);
    } else {
        lights = light(0, normal) + light(1, normal) + light(2, normal);
    }
    v_diffuse = vec4(lights * diffuse.rgb + emissive.rgb, diffuse.a);
    float amount = emissive.a;
    if (FRESNEL) {
        amount *= pow(max(1.0 - abs(dot(eye, normal)), 0.0), eye_position.w);
    }
    float fog = FOG ? clamp(dot(position, fog_vector), 0.0, 1.0) : 0.0;
    v_specular = vec4(vec3(amount), fog);
    v_texcoord = in_texcoord;
    v_env_coord = reflect(-eye, normal);
}
