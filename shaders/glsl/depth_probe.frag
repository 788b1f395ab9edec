#version 450
// Reads a 24-bit depth texel back exactly, one candidate per draw: the depth sampled from it
// (set 2, binding 0: the R32_FLOAT image the depth read wrote) gives its nearest 24-bit value q,
// which a driver's unorm-to-float conversion may miss by a step or two; this draw tries
// q + offset (fragment uniform at set 3, binding 0) as the fragment's depth, with the depth test
// EQUAL against the texel, and writes the candidate to an R32_UINT target where it passes.
// depth_of(c) is the smallest float at or above c / (2^24 - 1): a conversion to 24 bits that
// rounds to nearest or toward zero gives c back.

layout(set = 2, binding = 0) uniform sampler2D sampled_depth;

layout(set = 3, binding = 0) uniform Candidate {
    int offset;
};

layout(location = 0) out uint out_texel;

float depth_of(uint c) {
    if (c == 0u) {
        return 0.0;
    }
    if (c >= 0xFFFFFFu) {
        return 1.0;
    }
    // float(c) is exact; one step up its significand, scaled by 2^-24 (exact), lands just above
    // c / (2^24 - 1) = (c + c / (2^24 - 1)) * 2^-24.
    return uintBitsToFloat(floatBitsToUint(float(c)) + 1u) * exp2(-24.0);
}

void main() {
    float s = texelFetch(sampled_depth, ivec2(gl_FragCoord.xy), 0).r;
    int q = int(round(s * 16777215.0)) + offset;
    uint c = uint(clamp(q, 0, 0xFFFFFF));
    gl_FragDepth = depth_of(c);
    out_texel = c;
}
