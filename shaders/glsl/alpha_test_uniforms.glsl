// AlphaTestEffect's uniform block, shared by alpha_test.vert (set 1) and alpha_test.frag (set 3),
// written by the engine's AlphaTestEffect in this order (std140).
layout(std140, set = ALPHA_TEST_SET, binding = 0) uniform AlphaTestUniforms {
    mat4 world_view_projection; // y flipped for Vulkan's clip space
    vec4 diffuse;    // DiffuseColor × Alpha, Alpha
    vec4 alpha_test; // x: reference (± half a step), y: tolerance, z: kept when the test is
                     // true (+1) or discarded (-1), w: the same when it is false
    vec4 fog_color;  // rgb: FogColor
    vec4 fog_vector; // the view-space depth row scaled to FogStart..FogEnd
    vec4 flags;      // x: VertexColorEnabled, y: Equal/NotEqual form, z: FogEnabled; read by
                     // the engine to choose the variant (stock_options.glsl), not here
};
