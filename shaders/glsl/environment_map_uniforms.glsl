// EnvironmentMapEffect's uniform block, shared by environment_map.vert (set 1) and
// environment_map.frag (set 3), written by the engine's EnvironmentMapEffect in this order
// (std140). Matrices are XNA's row-vector matrices uploaded row by row, so `M * v` here is
// XNA's `v * M`.
layout(std140, set = ENVIRONMENT_MAP_SET, binding = 0) uniform EnvironmentMapUniforms {
    mat4 world_view_projection; // World × View × Projection, y flipped for Vulkan's clip space
    mat4 world;
    mat4 world_inverse_transpose; // only its upper 3×3 is read
    vec4 diffuse;       // DiffuseColor × Alpha, Alpha
    vec4 emissive;      // rgb: (EmissiveColor + AmbientLightColor × DiffuseColor) × Alpha,
                        // a: EnvironmentMapAmount
    vec4 eye_position;  // xyz: the inverse view's translation, w: FresnelFactor
    vec4 environment_specular; // rgb: EnvironmentMapSpecular
    vec4 fog_color;     // rgb: FogColor
    vec4 fog_vector;    // the view-space depth row scaled to FogStart..FogEnd
    vec4 light_direction[3];
    vec4 light_diffuse[3]; // zero for a disabled light
    vec4 flags; // x: Fresnel, y: environment specular, z: one light, w: FogEnabled; read by
                // the engine to choose the variant (stock_options.glsl), not here
};
