#version 450
// One triangle covering the whole render area, without vertex input: vertices 0, 1 and 2 at
// clip-space (-1, -1), (3, -1) and (-1, 3). The backends' transfers through draws use it (the
// sample planes of multisampled images, SDL_gpu's depth/stencil); their fragment stages address
// texels by gl_FragCoord, so neither a transform nor a texture coordinate is needed.

void main() {
    vec2 corner = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
