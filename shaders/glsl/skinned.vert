#version 450
#extension GL_GOOGLE_include_directive : require
// SkinnedEffect's vertex stage: BasicEffect's (its block at set 1, binding 0) after skinning by
// the bones at set 1, binding 1. Its fragment stage is BasicEffect's, always textured.
#define BASIC_SET 1
#define SKINNED
#include "basic_vertex.glsl"
