#version 450
#extension GL_GOOGLE_include_directive : require
// BasicEffect's vertex stage for a merged run of draws: instance i's own values (BasicDraw) are
// element i of a storage buffer at set 0, binding 0; what the run shares is the first draw's
// uniform block at set 1.
#define INSTANCED
#define BASIC_SET 1
#include "basic_vertex.glsl"
