#version 450
// Lays out the samples of a multisampled image as sample planes: drawn over an image of the
// multisampled image's width and `samples` times its height, row y of the output is row
// y mod height of sample y / height. The multisample image is at set 2, binding 0.

layout(set = 2, binding = 0) uniform sampler2DMS samples_image;

layout(location = 0) out vec4 out_color;

void main() {
    int height = textureSize(samples_image).y;
    ivec2 at = ivec2(gl_FragCoord.xy);
    out_color = texelFetch(samples_image, ivec2(at.x, at.y % height), at.y / height);
}
