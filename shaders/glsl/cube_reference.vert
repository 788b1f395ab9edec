#version 450
#extension GL_GOOGLE_include_directive : require
// The cubes reference's vertex stage for one draw per cube (see cube_reference.glsl).

#include "cube_reference.glsl"
