#version 450
#extension GL_GOOGLE_include_directive : require
// Stock AlphaTestEffect fragment stage, in SDL_gpu's resource layout (fragment samplers are set
// 2, fragment uniforms set 3). The texel times the interpolated colour; the fragment is discarded
// when the selected sign is negative: (alpha < x) ? z : w for Less/LessEqual/Greater/
// GreaterEqual/Never/Always, (|alpha - x| < y) ? z : w for Equal/NotEqual. Then fog.

#define ALPHA_TEST_SET 3
#include "alpha_test_uniforms.glsl"
#include "stock_options.glsl"

layout(set = 2, binding = 0) uniform sampler2D alpha_test_texture;

layout(location = 0) in vec4 v_diffuse;
layout(location = 1) in vec2 v_texcoord;
layout(location = 2) in float v_fog;

layout(location = 0) out vec4 out_color;

void main() {
    vec4 color = texture(alpha_test_texture, v_texcoord) * v_diffuse;
    bool test = ALPHA_EQUALITY ? abs(color.a - alpha_test.x) < alpha_test.y
                               : color.a < alpha_test.x;
    if ((test ? alpha_test.z : alpha_test.w) < 0.0) {
        discard;
    }
    if (FOG) {
        color.rgb = mix(color.rgb, fog_color.rgb * color.a, v_fog);
    }
    out_color = color;
}
