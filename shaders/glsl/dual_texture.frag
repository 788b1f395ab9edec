#version 450
#extension GL_GOOGLE_include_directive : require
// Stock DualTextureEffect fragment stage, in SDL_gpu's resource layout (fragment samplers are set
// 2: Texture at binding 0, Texture2 at binding 1; fragment uniforms set 3). XNA's 2× modulate:
// the first texel's colour doubled, times the second texel, times the interpolated colour; then
// fog.

#define DUAL_TEXTURE_SET 3
#include "dual_texture_uniforms.glsl"
#include "stock_options.glsl"

layout(set = 2, binding = 0) uniform sampler2D dual_texture;
layout(set = 2, binding = 1) uniform sampler2D dual_texture2;

layout(location = 0) in vec4 v_diffuse;
layout(location = 1) in vec2 v_texcoord;
layout(location = 2) in vec2 v_texcoord1;
layout(location = 3) in float v_fog;

layout(location = 0) out vec4 out_color;

void main() {
    vec4 color = texture(dual_texture, v_texcoord);
    vec4 overlay = texture(dual_texture2, v_texcoord1);
    color.rgb *= 2.0;
    color *= overlay * v_diffuse;
    if (FOG) {
        color.rgb = mix(color.rgb, fog_color.rgb * color.a, v_fog);
    }
    out_color = color;
}
