#version 450
// Writes sample planes into a multisampled image, laid out for SDL_gpu (which has no
// specialisation constants): as sample_scatter.frag, drawn over the image with per-sample
// shading (the read of gl_SampleID asks for it), sample s of texel (x, y) takes texel
// (x, y + s * height) of the planes image (its height is `samples` times the target's). The
// planes are at set 2, binding 0 (SDL_gpu's fragment sampler set); the target's sample count is
// a fragment uniform (set 3, binding 0).

layout(set = 2, binding = 0) uniform sampler2D planes;

layout(set = 3, binding = 0) uniform SampleCount {
    int samples;
};

layout(location = 0) out vec4 out_color;

void main() {
    int height = textureSize(planes, 0).y / samples;
    ivec2 at = ivec2(gl_FragCoord.xy) + ivec2(0, gl_SampleID * height);
    out_color = texelFetch(planes, at, 0);
}
