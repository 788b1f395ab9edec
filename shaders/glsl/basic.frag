#version 450
#extension GL_GOOGLE_include_directive : require
// BasicEffect's fragment stage, one draw: its block is a uniform block at set 3.
#define BASIC_SET 3
#include "basic_fragment.glsl"
