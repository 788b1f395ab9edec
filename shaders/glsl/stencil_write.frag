#version 450
// Restores one bit of a stencil image: the fragment survives (and the pipeline's REPLACE with
// write mask 1 << bit sets that bit) only where bit `bit` of the stencil value at its position is
// set. The values are an R8_UNORM texture (set 2, binding 0); `bit` is a fragment uniform (set 3,
// binding 0). No colour output.

layout(set = 2, binding = 0) uniform sampler2D stencil_texels;

layout(set = 3, binding = 0) uniform StencilBit {
    uint bit;
};

void main() {
    uint value = uint(round(texelFetch(stencil_texels, ivec2(gl_FragCoord.xy), 0).r * 255.0));
    if (((value >> bit) & 1u) == 0u) {
        discard;
    }
}
