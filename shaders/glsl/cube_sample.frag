#version 450
// Stock cube-sampling fragment stage, in SDL_gpu's resource layout: fragment samplers are set 2.
// The sprite's colour carries the lookup direction, each component mapped from [0, 1] to
// [-1, 1]; the output is the cube's texel, untinted.

layout(set = 2, binding = 0) uniform samplerCube cube_texture;

layout(location = 0) in vec4 v_color;
layout(location = 1) in vec2 v_texcoord;

layout(location = 0) out vec4 out_color;

void main() {
    vec3 dir = v_color.rgb * 2.0 - 1.0;
    out_color = texture(cube_texture, dir);
}
