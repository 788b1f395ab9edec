#version 450
// Writes one bit of stencil planes into a multisampled depth/stencil image: drawn over it with
// per-sample shading, a stencil test that always passes and replaces through a write mask of
// bit `BIT` alone, it keeps the samples whose planes' byte (at texel (x, y + s * height) of the
// unsigned planes at set 2, binding 0) has that bit and discards the others. Eight draws, one
// per bit, over a stencil cleared to 0 write every byte. `SAMPLES` is specialisation constant 0,
// `BIT` constant 1.

layout(constant_id = 0) const int SAMPLES = 4;
layout(constant_id = 1) const int BIT = 0;

layout(set = 2, binding = 0) uniform usampler2D planes;

void main() {
    int height = textureSize(planes, 0).y / SAMPLES;
    uint value = texelFetch(planes, ivec2(gl_FragCoord.xy) + ivec2(0, gl_SampleID * height), 0).r;
    if ((value & (1u << uint(BIT))) == 0u) {
        discard;
    }
}
