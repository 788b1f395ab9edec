// The stock effects' options as specialization constants, by constant_id (the engine's
// StockVariant::constants): the pipeline is made for one combination, so no branch below reads a
// uniform value. Each stage reads the ones its effect has; the `flags` word of the uniform
// blocks carries the same options for the engine and is not read here.
layout(constant_id = 0) const bool VERTEX_COLOR = false;     // VertexColorEnabled
layout(constant_id = 1) const bool TEXTURE = false;          // BasicEffect.TextureEnabled
layout(constant_id = 2) const bool PER_VERTEX_LIGHTING = false;
layout(constant_id = 3) const bool PER_PIXEL_LIGHTING = false;
layout(constant_id = 4) const bool FOG = false;              // FogEnabled
layout(constant_id = 5) const bool ALPHA_EQUALITY = false;   // AlphaFunction Equal/NotEqual
layout(constant_id = 6) const bool TWO_WEIGHTS = false;      // SkinnedEffect.WeightsPerVertex 2
layout(constant_id = 7) const bool FOUR_WEIGHTS = false;     // SkinnedEffect.WeightsPerVertex 4
layout(constant_id = 8) const bool FRESNEL = false;          // EnvironmentMapEffect.FresnelFactor != 0
layout(constant_id = 9) const bool ENVIRONMENT_SPECULAR = false; // EnvironmentMapSpecular != 0
layout(constant_id = 10) const bool ONE_LIGHT = false;       // EnvironmentMapEffect, lights 1 and 2 off
