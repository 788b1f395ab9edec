#version 450
#extension GL_GOOGLE_include_directive : require
// BasicEffect's fragment stage for a merged run of draws: the instance's material colours come
// from the vertex stage (flat), what the run shares from the first draw's uniform block at set 3.
#define INSTANCED
#define BASIC_SET 3
#include "basic_fragment.glsl"
