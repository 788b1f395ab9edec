#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Stock SpriteBatch fragment stage for a draw of several textures on a device with
// shaderSampledImageArrayNonUniformIndexing: the sprite's slot (flat from the vertex stage)
// indexes the 16 combined image samplers at set 2, binding 0. Output as sprite.frag: the texture
// sample modulated by the tint.

layout(set = 2, binding = 0) uniform sampler2D sprite_textures[16];

layout(location = 0) in vec4 v_color;
layout(location = 1) in vec2 v_texcoord;
layout(location = 2) flat in uint v_texture;

layout(location = 0) out vec4 out_color;

void main() {
    uint slot = min(v_texture, 15u);
    out_color = texture(sprite_textures[nonuniformEXT(slot)], v_texcoord) * v_color;
}
