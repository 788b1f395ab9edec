#version 450
// Stock BasicEffect vertex stage (unlit), in SDL_gpu's resource layout: vertex uniforms are set 1.
// The transform is World × View × Projection with y flipped for Vulkan's clip space, column-major;
// depth is already in [0, 1] as XNA's projections make it. The material colour is premultiplied:
// (DiffuseColor + EmissiveColor) × Alpha, Alpha. Attributes the vertex declaration lacks come
// from a constant stream (white, texture coordinate 0); flags.x says whether the vertex colour is
// used at all (VertexColorEnabled), flags.y whether the texture is (TextureEnabled).

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec4 in_color;
layout(location = 2) in vec2 in_texcoord;

layout(set = 1, binding = 0) uniform BasicUniforms {
    mat4 transform;
    vec4 diffuse;
    vec4 flags;
};

layout(location = 0) out vec4 v_color;
layout(location = 1) out vec2 v_texcoord;
layout(location = 2) out float v_textured;

void main() {
    gl_Position = transform * vec4(in_position, 1.0);
    v_color = diffuse * mix(vec4(1.0), in_color, flags.x);
    v_texcoord = in_texcoord;
    v_textured = flags.y;
}
