#version 450
// Restores a depth image: every fragment's depth is the texel at its position of an R32_FLOAT
// texture (combined image sampler at set 2, binding 0, SDL_gpu's fragment sampler set). No
// colour output.

layout(set = 2, binding = 0) uniform sampler2D depth_texels;

void main() {
    gl_FragDepth = texelFetch(depth_texels, ivec2(gl_FragCoord.xy), 0).r;
}
