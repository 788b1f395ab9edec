#version 450
#extension GL_GOOGLE_include_directive : require
// The cubes reference's vertex stage for one instanced draw (see cube_reference.glsl).

#define CUBE_INSTANCED
#include "cube_reference.glsl"
