// The cubes stress scenario's vertex stage, without its #version line: the per-vertex default
// lighting of BasicEffect (basic.vert with lighting on, per vertex, no vertex colour, no texture,
// no fog), written out for a hand-written reference and for the scenario's instanced effect.
// cube_reference.vert compiles it for one draw per cube: each cube's block (World × View ×
// Projection with y flipped for Vulkan, World, its inverse transpose, DiffuseColor and the
// emissive term as BasicEffect computes them on the CPU) at a dynamic offset of set 1, binding 0,
// the scene at binding 1. With CUBE_INSTANCED defined (cube_reference_instanced.vert, and the
// scenario's CustomEffect, which compiles this text at run time) World's rows and DiffuseColor
// come per instance, and the one block at set 1, binding 0 holds ViewProjection and the scene;
// gl_Position is then in XNA's clip space (y up), as a CustomEffect writes it, so the draw flips
// y with its viewport. Inputs are named after XNA's vertex element usages, as a CustomEffect
// binds them. Matrices are XNA's row-vector matrices, row by row: `M * v` is XNA's `v * M`.

// The lights and material values every cube shares: AmbientLightColor (rgb), SpecularColor (rgb)
// with SpecularPower (a), the eye position (the inverse view's translation) and the three
// directional lights (a disabled one with black colours).
#define CUBE_SCENE                                                                             \
    vec4 AmbientLightColor;                                                                    \
    vec4 SpecularColorPower;                                                                   \
    vec4 EyePosition;                                                                          \
    vec4 DirLight0Direction;                                                                   \
    vec4 DirLight1Direction;                                                                   \
    vec4 DirLight2Direction;                                                                   \
    vec4 DirLight0DiffuseColor;                                                                \
    vec4 DirLight1DiffuseColor;                                                                \
    vec4 DirLight2DiffuseColor;                                                                \
    vec4 DirLight0SpecularColor;                                                               \
    vec4 DirLight1SpecularColor;                                                               \
    vec4 DirLight2SpecularColor;

layout(location = 0) in vec3 Position;
layout(location = 1) in vec3 Normal;

#ifdef CUBE_INSTANCED
layout(location = 2) in vec4 TextureCoordinate1; // World's first row
layout(location = 3) in vec4 TextureCoordinate2;
layout(location = 4) in vec4 TextureCoordinate3;
layout(location = 5) in vec4 TextureCoordinate4; // World's translation row
layout(location = 6) in vec4 Color1;             // DiffuseColor, alpha 1

layout(std140, set = 1, binding = 0) uniform CubeScene {
    mat4 ViewProjection; // View × Projection, XNA's clip space
    CUBE_SCENE
};
#else
layout(std140, set = 1, binding = 0) uniform CubeDraw {
    mat4 WorldViewProjection;   // y flipped for Vulkan's clip space
    mat4 World;
    mat4 WorldInverseTranspose; // only its upper 3×3 is read
    vec4 DiffuseColor;          // DiffuseColor × Alpha, Alpha
    vec4 EmissiveColor;         // (EmissiveColor + AmbientLightColor × DiffuseColor) × Alpha
};

layout(std140, set = 1, binding = 1) uniform CubeScene {
    CUBE_SCENE
};
#endif

layout(location = 0) out vec4 v_diffuse;
layout(location = 1) out vec3 v_specular;

// basic_uniforms.glsl's compute_lights, the same operations in the same order.
void cube_lights(vec3 eye, vec3 normal, vec3 diffuse, vec3 emissive, out vec3 lit_diffuse,
                 out vec3 lit_specular) {
    vec3 directions[3] = vec3[3](DirLight0Direction.xyz, DirLight1Direction.xyz,
                                 DirLight2Direction.xyz);
    vec3 diffuses[3] = vec3[3](DirLight0DiffuseColor.rgb, DirLight1DiffuseColor.rgb,
                               DirLight2DiffuseColor.rgb);
    vec3 speculars[3] = vec3[3](DirLight0SpecularColor.rgb, DirLight1SpecularColor.rgb,
                                DirLight2SpecularColor.rgb);
    vec3 d = vec3(0.0);
    vec3 s = vec3(0.0);
    for (int i = 0; i < 3; i++) {
        vec3 l = directions[i];
        float dot_l = dot(-l, normal);
        float dot_h = dot(normalize(eye - l), normal);
        float zero_l = step(0.0, dot_l);
        d += zero_l * dot_l * diffuses[i];
        s += pow(max(dot_h, 0.0) * zero_l, SpecularColorPower.a) * speculars[i];
    }
    lit_diffuse = d * diffuse + emissive;
    lit_specular = s * SpecularColorPower.rgb;
}

void main() {
    vec4 position = vec4(Position, 1.0);
#ifdef CUBE_INSTANCED
    mat4 world = mat4(TextureCoordinate1, TextureCoordinate2, TextureCoordinate3,
                      TextureCoordinate4);
    vec4 position_ws4 = world * position;
    gl_Position = ViewProjection * position_ws4;
    vec3 position_ws = position_ws4.xyz;
    // World is a rotation and a uniform scale, so its upper 3×3 turns normals as its inverse
    // transpose does, up to the length the normalisation removes.
    vec3 normal_ws = normalize(mat3(world) * Normal);
    vec4 diffuse = vec4(Color1.rgb, 1.0);
    vec3 emissive = AmbientLightColor.rgb * Color1.rgb;
#else
    gl_Position = WorldViewProjection * position;
    vec3 position_ws = (World * position).xyz;
    vec3 normal_ws = normalize(mat3(WorldInverseTranspose) * Normal);
    vec4 diffuse = DiffuseColor;
    vec3 emissive = EmissiveColor.rgb;
#endif
    vec3 lit_diffuse;
    vec3 lit_specular;
    cube_lights(normalize(EyePosition.xyz - position_ws), normal_ws, diffuse.rgb, emissive,
                lit_diffuse, lit_specular);
    v_diffuse = vec4(lit_diffuse, diffuse.a);
    v_specular = lit_specular;
}
