#version 450
// Writes depth planes into a multisampled depth image: drawn over it with per-sample shading
// (the read of gl_SampleID asks for it) and the depth test passing always, sample s of texel
// (x, y) takes the depth at texel (x, y + s * height) of the planes (a float image `SAMPLES`
// times the target's height) at set 2, binding 0; the sample count is specialisation
// constant 0.

layout(constant_id = 0) const int SAMPLES = 4;

layout(set = 2, binding = 0) uniform sampler2D planes;

void main() {
    int height = textureSize(planes, 0).y / SAMPLES;
    gl_FragDepth = texelFetch(planes, ivec2(gl_FragCoord.xy) + ivec2(0, gl_SampleID * height), 0).r;
}
