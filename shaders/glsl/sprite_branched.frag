#version 450
// Stock SpriteBatch fragment stage for a draw of several textures on a device without
// non-uniform texture indexing: the sprite's slot (flat from the vertex stage) picks one of the
// 16 combined image samplers at set 2, binding 0. Each case indexes the array with a constant,
// so no descriptor-indexing feature is needed, and samples with the derivatives taken before the
// branch, so the level of detail is the same as the implicit one of sprite.frag whatever the
// neighbouring pixels sample. Output as sprite.frag.

layout(set = 2, binding = 0) uniform sampler2D sprite_textures[16];

layout(location = 0) in vec4 v_color;
layout(location = 1) in vec2 v_texcoord;
layout(location = 2) flat in uint v_texture;

layout(location = 0) out vec4 out_color;

void main() {
    vec2 dx = dFdx(v_texcoord);
    vec2 dy = dFdy(v_texcoord);
    vec4 texel;
    switch (v_texture) {
    case 0u: texel = textureGrad(sprite_textures[0], v_texcoord, dx, dy); break;
    case 1u: texel = textureGrad(sprite_textures[1], v_texcoord, dx, dy); break;
    case 2u: texel = textureGrad(sprite_textures[2], v_texcoord, dx, dy); break;
    case 3u: texel = textureGrad(sprite_textures[3], v_texcoord, dx, dy); break;
    case 4u: texel = textureGrad(sprite_textures[4], v_texcoord, dx, dy); break;
    case 5u: texel = textureGrad(sprite_textures[5], v_texcoord, dx, dy); break;
    case 6u: texel = textureGrad(sprite_textures[6], v_texcoord, dx, dy); break;
    case 7u: texel = textureGrad(sprite_textures[7], v_texcoord, dx, dy); break;
    case 8u: texel = textureGrad(sprite_textures[8], v_texcoord, dx, dy); break;
    case 9u: texel = textureGrad(sprite_textures[9], v_texcoord, dx, dy); break;
    case 10u: texel = textureGrad(sprite_textures[10], v_texcoord, dx, dy); break;
    case 11u: texel = textureGrad(sprite_textures[11], v_texcoord, dx, dy); break;
    case 12u: texel = textureGrad(sprite_textures[12], v_texcoord, dx, dy); break;
    case 13u: texel = textureGrad(sprite_textures[13], v_texcoord, dx, dy); break;
    case 14u: texel = textureGrad(sprite_textures[14], v_texcoord, dx, dy); break;
    default: texel = textureGrad(sprite_textures[15], v_texcoord, dx, dy); break;
    }
    out_color = texel * v_color;
}
