#version 450
// Writes depth planes into a multisampled depth image, laid out for SDL_gpu (which has no
// specialisation constants): as depth_scatter.frag, drawn over it with per-sample shading (the
// read of gl_SampleID asks for it) and the depth test passing always, sample s of texel (x, y)
// takes the depth at texel (x, y + s * height) of the R32_FLOAT planes (`samples` times the
// target's height) at set 2, binding 0; the sample count is a fragment uniform (set 3,
// binding 0).

layout(set = 2, binding = 0) uniform sampler2D planes;

layout(set = 3, binding = 0) uniform SampleCount {
    int samples;
};

void main() {
    int height = textureSize(planes, 0).y / samples;
    gl_FragDepth = texelFetch(planes, ivec2(gl_FragCoord.xy) + ivec2(0, gl_SampleID * height), 0).r;
}
