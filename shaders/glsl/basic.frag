#version 450
// Stock BasicEffect fragment stage (unlit), in SDL_gpu's resource layout: fragment samplers are
// set 2. The interpolated colour, times the texture sample when TextureEnabled.

layout(set = 2, binding = 0) uniform sampler2D basic_texture;

layout(location = 0) in vec4 v_color;
layout(location = 1) in vec2 v_texcoord;
layout(location = 2) in float v_textured;

layout(location = 0) out vec4 out_color;

void main() {
    vec4 texel = texture(basic_texture, v_texcoord);
    out_color = v_color * mix(vec4(1.0), texel, v_textured);
}
