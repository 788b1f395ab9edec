#version 450
// Reads a depth image back: the depth texel at the fragment's position (the depth texture bound
// as a combined image sampler at set 2, binding 0; SDL_gpu samples its depth aspect) into an
// R32_FLOAT colour target.

layout(set = 2, binding = 0) uniform sampler2D depth_image;

layout(location = 0) out float out_depth;

void main() {
    out_depth = texelFetch(depth_image, ivec2(gl_FragCoord.xy), 0).r;
}
