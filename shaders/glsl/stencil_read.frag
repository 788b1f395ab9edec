#version 450
// Reads one bit of a stencil image back: drawn with the stencil test EQUAL, compare mask and
// reference 1 << bit, it outputs (1 << bit) / 255 where the bit is set; additive blending into
// an R8_UNORM target cleared to zero sums the eight bits exactly. `bit` is a fragment uniform
// (set 3, binding 0).

layout(set = 3, binding = 0) uniform StencilBit {
    uint bit;
};

layout(location = 0) out float out_bit;

void main() {
    out_bit = float(1u << bit) / 255.0;
}
