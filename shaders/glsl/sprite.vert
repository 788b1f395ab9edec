#version 450
// Stock SpriteBatch vertex stage, in SDL_gpu's resource layout: vertex uniforms are set 1.
// One instance per sprite; the four vertices of its strip (TL, TR, BL, BR) are expanded here from
// the top-left corner and the two edge vectors. The transform maps pixels to clip space with y
// pointing down and depth in [0, 1]. The sprite's texture slot passes through, flat, for a
// fragment stage that samples one of several textures.

layout(location = 0) in vec2 in_origin;
layout(location = 1) in vec2 in_right;
layout(location = 2) in vec2 in_down;
layout(location = 3) in vec4 in_texcoords;
layout(location = 4) in float in_depth;
layout(location = 5) in vec4 in_color;
layout(location = 6) in uint in_texture;

layout(set = 1, binding = 0) uniform SpriteTransform {
    mat4 transform;
};

layout(location = 0) out vec4 v_color;
layout(location = 1) out vec2 v_texcoord;
layout(location = 2) flat out uint v_texture;

void main() {
    vec2 corner = vec2(float(gl_VertexIndex & 1), float(gl_VertexIndex >> 1));
    vec2 position = in_origin + in_right * corner.x + in_down * corner.y;
    gl_Position = transform * vec4(position, in_depth, 1.0);
    v_color = in_color;
    v_texcoord = mix(in_texcoords.xy, in_texcoords.zw, corner);
    v_texture = in_texture;
}
