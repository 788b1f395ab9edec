#version 450
#extension GL_GOOGLE_include_directive : require
// BasicEffect's fragment stage for a merged run of draws: the instance's block from a storage
// buffer at set 2, binding 2 (SDL_gpu's place for a fragment stage's first storage buffer after
// its two samplers).
#define INSTANCED
#define BASIC_INSTANCES_SET 2
#define BASIC_INSTANCES_BINDING 2
#include "basic_fragment.glsl"
