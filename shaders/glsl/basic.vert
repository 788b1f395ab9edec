#version 450
#extension GL_GOOGLE_include_directive : require
// BasicEffect's vertex stage, one draw: its block is a uniform block at set 1.
#define BASIC_SET 1
#include "basic_vertex.glsl"
