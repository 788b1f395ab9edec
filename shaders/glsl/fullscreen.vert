#version 450
// A triangle covering the whole render area, without vertex input: vertices 0, 1 and 2 at
// clip-space (-1, -1), (3, -1) and (-1, 3). The backend's sample-plane transfers draw it.

void main() {
    vec2 corner = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
