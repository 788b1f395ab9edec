#version 450
// One triangle covering the whole target (vertices 0, 1, 2 of a draw without vertex buffers),
// for the SDL_gpu backend's depth/stencil transfers through draws. Its fragment stages address
// texels by gl_FragCoord, so neither a transform nor a texture coordinate is needed.

void main() {
    vec2 corner = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
