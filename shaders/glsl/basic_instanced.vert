#version 450
#extension GL_GOOGLE_include_directive : require
// BasicEffect's vertex stage for a merged run of draws: instance i reads block i of a storage
// buffer at set 0, binding 0 (SDL_gpu's place for a vertex stage's first storage buffer).
#define INSTANCED
#define BASIC_INSTANCES_SET 0
#define BASIC_INSTANCES_BINDING 0
#include "basic_vertex.glsl"
