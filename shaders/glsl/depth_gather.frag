#version 450
// Lays out the depth of every sample of a multisampled depth image as planes (one float per
// sample texel), as sample_gather.frag does for colour: row y of the output is row
// y mod height of sample y / height. The depth aspect's view is at set 2, binding 0.

layout(set = 2, binding = 0) uniform sampler2DMS depth_image;

layout(location = 0) out float out_depth;

void main() {
    int height = textureSize(depth_image).y;
    ivec2 at = ivec2(gl_FragCoord.xy);
    out_depth = texelFetch(depth_image, ivec2(at.x, at.y % height), at.y / height).r;
}
