#version 450
// Stock SpriteBatch fragment stage, in SDL_gpu's resource layout: fragment samplers are set 2.
// Output is the texture sample modulated by the vertex tint, as XNA's SpriteEffect does.

layout(set = 2, binding = 0) uniform sampler2D sprite_texture;

layout(location = 0) in vec4 v_color;
layout(location = 1) in vec2 v_texcoord;

layout(location = 0) out vec4 out_color;

void main() {
    out_color = texture(sprite_texture, v_texcoord) * v_color;
}
