#version 450
// Writes one bit of stencil planes into a multisampled depth/stencil image, laid out for SDL_gpu:
// as stencil_scatter.frag, drawn over it with per-sample shading, a stencil test that always
// passes and replaces through a write mask of bit `bit` alone, it keeps the samples whose
// planes' byte (at texel (x, y + s * height) of the R8_UNORM planes at set 2, binding 0) has
// that bit and discards the others. The sample count and the bit are a fragment uniform (set 3,
// binding 0).

layout(set = 2, binding = 0) uniform sampler2D planes;

layout(set = 3, binding = 0) uniform SampleBit {
    int samples;
    uint bit;
};

void main() {
    int height = textureSize(planes, 0).y / samples;
    ivec2 at = ivec2(gl_FragCoord.xy) + ivec2(0, gl_SampleID * height);
    uint value = uint(round(texelFetch(planes, at, 0).r * 255.0));
    if (((value >> bit) & 1u) == 0u) {
        discard;
    }
}
