// BasicEffect's uniform block, shared by basic.vert (set 1) and basic.frag (set 3). Its floats
// after `world_view_projection` are written by the engine's BasicEffect in this order (std140).
// Matrices are XNA's row-vector matrices uploaded row by row, so `M * v` here is XNA's `v * M`.
layout(std140, set = BASIC_SET, binding = 0) uniform BasicUniforms {
    mat4 world_view_projection; // World × View × Projection, y flipped for Vulkan's clip space
    mat4 world;
    mat4 world_inverse_transpose; // only its upper 3×3 is read
    vec4 diffuse;      // lit: DiffuseColor × Alpha, Alpha; unlit: (DiffuseColor + EmissiveColor) × Alpha, Alpha
    vec4 emissive;     // rgb: (EmissiveColor + AmbientLightColor × DiffuseColor) × Alpha
    vec4 specular;     // rgb: SpecularColor, a: SpecularPower
    vec4 eye_position; // xyz: the inverse view's translation
    vec4 fog_color;    // rgb: FogColor
    vec4 fog_vector;   // the view-space depth row scaled to FogStart..FogEnd
    vec4 light_direction[3];
    vec4 light_diffuse[3];  // zero for a disabled light
    vec4 light_specular[3]; // zero for a disabled light
    // The options (x: VertexColorEnabled, y: TextureEnabled, z: 0 unlit, 1 per vertex, 2 per
    // pixel, w: FogEnabled): the engine makes the pipeline for them, the stages read them as
    // specialization constants (stock_options.glsl), not from here.
    vec4 flags;
};

// XNA's three directional lights: Blinn-Phong with the half vector of the eye vector and each
// light, no diffuse or specular from a light behind the surface. Returns the lit diffuse colour
// (emissive and ambient included) and the specular colour.
void compute_lights(vec3 eye, vec3 normal, out vec3 lit_diffuse, out vec3 lit_specular) {
    vec3 d = vec3(0.0);
    vec3 s = vec3(0.0);
    for (int i = 0; i < 3; i++) {
        vec3 l = light_direction[i].xyz;
        float dot_l = dot(-l, normal);
        float dot_h = dot(normalize(eye - l), normal);
        float zero_l = step(0.0, dot_l);
        d += zero_l * dot_l * light_diffuse[i].rgb;
        s += pow(max(dot_h, 0.0) * zero_l, specular.a) * light_specular[i].rgb;
    }
    lit_diffuse = d * diffuse.rgb + emissive.rgb;
    lit_specular = s * specular.rgb;
}
