// Stock BasicEffect fragment stage, in SDL_gpu's resource layout (fragment samplers are set 2;
// its block: basic_block.glsl). The interpolated colour times the texture when TextureEnabled; per-pixel
// lighting multiplies by the lit diffuse colour; the specular is added weighted by alpha
// (premultiplied); fog blends towards FogColor × alpha by the fog factor.

#include "basic_block.glsl"
#include "stock_options.glsl"

layout(set = 2, binding = 0) uniform sampler2D basic_texture;

layout(location = 0) in vec4 v_diffuse;
layout(location = 1) in vec4 v_specular;
layout(location = 2) in vec2 v_texcoord;
layout(location = 3) in vec3 v_position_ws;
layout(location = 4) in vec3 v_normal_ws;
#ifdef INSTANCED
layout(location = 5) flat in vec4 v_material_diffuse;
layout(location = 6) flat in vec4 v_material_emissive;
layout(location = 7) flat in vec4 v_material_specular;
#endif

layout(location = 0) out vec4 out_color;

void main() {
    vec4 color = v_diffuse;
    if (TEXTURE) {
        color *= texture(basic_texture, v_texcoord);
    }
    if (PER_PIXEL_LIGHTING) {
        vec3 lit_diffuse;
        vec3 lit_specular;
#ifdef INSTANCED
        compute_lights(normalize(b.eye_position.xyz - v_position_ws), normalize(v_normal_ws),
                       v_material_diffuse, v_material_emissive.rgb, v_material_specular,
                       lit_diffuse, lit_specular);
#else
        compute_lights(normalize(b.eye_position.xyz - v_position_ws), normalize(v_normal_ws),
                       b.diffuse, b.emissive.rgb, b.specular, lit_diffuse, lit_specular);
#endif
        color.rgb *= lit_diffuse;
        color.rgb += lit_specular * color.a;
    } else if (PER_VERTEX_LIGHTING) {
        color.rgb += v_specular.rgb * color.a;
    }
    if (FOG) {
        color.rgb = mix(color.rgb, b.fog_color.rgb * color.a, v_specular.a);
    }
    out_color = color;
}
