#version 450
// The cubes scenario's fragment stage: basic.frag with per-vertex lighting, no texture and no
// fog: the lit diffuse colour, plus the specular weighted by alpha (premultiplied). No resources,
// so a CustomEffect compiles it at run time as it is.

layout(location = 0) in vec4 v_diffuse;
layout(location = 1) in vec3 v_specular;

layout(location = 0) out vec4 out_color;

void main() {
    vec4 color = v_diffuse;
    color.rgb += v_specular * color.a;
    out_color = color;
}
