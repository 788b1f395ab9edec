#version 450
// Lays out the stencil of every sample of a multisampled depth/stencil image as planes (one
// byte per sample texel), as depth_gather.frag does for depth. The stencil aspect's view is at
// set 2, binding 0.

layout(set = 2, binding = 0) uniform usampler2DMS stencil_image;

layout(location = 0) out uint out_stencil;

void main() {
    int height = textureSize(stencil_image).y;
    ivec2 at = ivec2(gl_FragCoord.xy);
    out_stencil = texelFetch(stencil_image, ivec2(at.x, at.y % height), at.y / height).r;
}
