// BasicEffect's values, one block per draw: read by basic.vert and basic.frag from a uniform
// block (set 1 for the vertex stage, set 3 for the fragment stage), and by basic_instanced.* from
// a storage buffer of one block per instance (a run of draws the frame compiler merged into one
// instanced draw: set 0 for the vertex stage, set 2 binding 2 for the fragment stage). Its floats
// after `world_view_projection` are written by the engine's BasicEffect in this order (std140,
// which for these vec4 and mat4 members is also the std430 layout of the storage buffer).
// Matrices are XNA's row-vector matrices uploaded row by row, so `M * v` here is XNA's `v * M`.
struct BasicBlock {
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

#ifdef INSTANCED
layout(std430, set = BASIC_INSTANCES_SET, binding = BASIC_INSTANCES_BINDING) readonly buffer
    BasicInstances {
    BasicBlock instances[];
} basic_instances;
// This invocation's instance's block, read at the start of main().
BasicBlock b;
#else
layout(std140, set = BASIC_SET, binding = 0) uniform BasicUniforms {
    BasicBlock b;
};
#endif

// XNA's three directional lights: Blinn-Phong with the half vector of the eye vector and each
// light, no diffuse or specular from a light behind the surface. Returns the lit diffuse colour
// (emissive and ambient included) and the specular colour.
void compute_lights(vec3 eye, vec3 normal, out vec3 lit_diffuse, out vec3 lit_specular) {
    vec3 d = vec3(0.0);
    vec3 s = vec3(0.0);
    for (int i = 0; i < 3; i++) {
        vec3 l = b.light_direction[i].xyz;
        float dot_l = dot(-l, normal);
        float dot_h = dot(normalize(eye - l), normal);
        float zero_l = step(0.0, dot_l);
        d += zero_l * dot_l * b.light_diffuse[i].rgb;
        s += pow(max(dot_h, 0.0) * zero_l, b.specular.a) * b.light_specular[i].rgb;
    }
    lit_diffuse = d * b.diffuse.rgb + b.emissive.rgb;
    lit_specular = s * b.specular.rgb;
}
