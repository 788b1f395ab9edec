#version 450
// One colour, given as a push constant, written to colour output 0. The benchmarks' fill probe
// draws it with fullscreen.vert to measure what a full-screen layer of fragments costs the
// hardware, with no texture fetch or uniform buffer to add work of their own.

layout(push_constant) uniform Solid {
    vec4 color;
};

layout(location = 0) out vec4 out_color;

void main() {
    out_color = color;
}
