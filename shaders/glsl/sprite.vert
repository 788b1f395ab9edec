#version 450
// Stock SpriteBatch vertex stage, in SDL_gpu's resource layout: vertex uniforms are set 1.
// The transform maps pixels to clip space with y pointing down and depth in [0, 1].

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec4 in_color;
layout(location = 2) in vec2 in_texcoord;

layout(set = 1, binding = 0) uniform SpriteTransform {
    mat4 transform;
};

layout(location = 0) out vec4 v_color;
layout(location = 1) out vec2 v_texcoord;

void main() {
    gl_Position = transform * vec4(in_position, 1.0);
    v_color = in_color;
    v_texcoord = in_texcoord;
}
