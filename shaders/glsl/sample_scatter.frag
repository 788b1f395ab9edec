#version 450
// Writes sample planes into a multisampled image: drawn over it with per-sample shading (the
// read of gl_SampleID asks for it), sample s of texel (x, y) takes texel (x, y + s * height) of
// the planes image (its height is `SAMPLES` times the target's). The planes are at set 2,
// binding 0; the target's sample count is specialisation constant 0.

layout(constant_id = 0) const int SAMPLES = 4;

layout(set = 2, binding = 0) uniform sampler2D planes;

layout(location = 0) out vec4 out_color;

void main() {
    int height = textureSize(planes, 0).y / SAMPLES;
    ivec2 at = ivec2(gl_FragCoord.xy) + ivec2(0, gl_SampleID * height);
    out_color = texelFetch(planes, at, 0);
}
