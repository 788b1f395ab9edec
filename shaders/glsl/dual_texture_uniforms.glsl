// DualTextureEffect's uniform block, shared by dual_texture.vert (set 1) and dual_texture.frag
// (set 3), written by the engine's DualTextureEffect in this order (std140).
layout(std140, set = DUAL_TEXTURE_SET, binding = 0) uniform DualTextureUniforms {
    mat4 world_view_projection; // y flipped for Vulkan's clip space
    vec4 diffuse;    // DiffuseColor × Alpha, Alpha
    vec4 fog_color;  // rgb: FogColor
    vec4 fog_vector; // the view-space depth row scaled to FogStart..FogEnd
    vec4 flags;      // x: VertexColorEnabled, y: FogEnabled; read by the engine to choose the
                     // variant (stock_options.glsl), not here
};
