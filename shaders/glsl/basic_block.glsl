// BasicEffect's values, one block per draw: read by basic.vert and basic.frag from a uniform
// block (set 1 for the vertex stage, set 3 for the fragment stage). Its floats after
// `world_view_projection` are written by the engine's BasicEffect in this order (std140).
// Matrices are XNA's row-vector matrices uploaded row by row, so `M * v` here is XNA's `v * M`.
//
// A run of draws merged into one instanced draw (basic_instanced.*, INSTANCED defined) splits
// the block: what each draw sets for its object (BasicDraw: the transform, World, the inverse
// transpose's upper 3×3, the material colours, the fog vector) comes per instance from a storage
// buffer at set 0, binding 0 (SDL_gpu's place for a vertex stage's first storage buffer), and
// what the run shares (eye, fog colour, lights) from the first draw's uniform block, as above.
// The vertex stage hands the instance's material colours to the fragment stage, flat.
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

layout(std140, set = BASIC_SET, binding = 0) uniform BasicUniforms {
    BasicBlock b;
};

// One draw's own values: a merged run's instance (std430, 240 bytes, in the order the engine's
// BASIC_INSTANCE_PARTS takes them from the block), or the draw's block.
struct BasicDraw {
    mat4 world_view_projection;
    mat4 world;
    mat3 world_inverse_transpose;
    vec4 diffuse;
    vec4 emissive;
    vec4 specular;
    vec4 fog_vector;
};

#ifdef INSTANCED
layout(std430, set = 0, binding = 0) readonly buffer BasicInstances {
    BasicDraw instances[];
} basic_instances;
#endif

// XNA's three directional lights: Blinn-Phong with the half vector of the eye vector and each
// light, no diffuse or specular from a light behind the surface. Returns the lit diffuse colour
// (emissive and ambient included) and the specular colour.
// `diffuse`, `emissive`, `specular`: the draw's material (specular power in `specular.a`).
void compute_lights(vec3 eye, vec3 normal, vec4 diffuse, vec3 emissive, vec4 specular,
                    out vec3 lit_diffuse, out vec3 lit_specular) {
    vec3 d = vec3(0.0);
    vec3 s = vec3(0.0);
    for (int i = 0; i < 3; i++) {
        vec3 l = b.light_direction[i].xyz;
        float dot_l = dot(-l, normal);
        float dot_h = dot(normalize(eye - l), normal);
        float zero_l = step(0.0, dot_l);
        d += zero_l * dot_l * b.light_diffuse[i].rgb;
        s += pow(max(dot_h, 0.0) * zero_l, specular.a) * b.light_specular[i].rgb;
    }
    lit_diffuse = d * diffuse.rgb + emissive;
    lit_specular = s * specular.rgb;
}
