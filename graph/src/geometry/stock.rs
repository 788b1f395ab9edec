//! The stock effects' side of a geometry draw: which shader pair draws it
//! ([`StockShader`]), the variant its options select when the pipeline is made
//! ([`StockVariant`]), and the per-draw values it binds ([`StockMaterial`], and
//! [`BasicInstance`] for each repeat of a draw, [`StockValues`] for it whole).

use std::ops::Range;

/// Which stock effect's shader pair draws a geometry draw (part of its pipeline).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum StockShader {
    /// `BasicEffect`: `shaders/glsl/basic.*`.
    #[default]
    Basic,
    /// `AlphaTestEffect`: `shaders/glsl/alpha_test.*`.
    AlphaTest,
    /// `DualTextureEffect`: `shaders/glsl/dual_texture.*`.
    DualTexture,
    /// `SkinnedEffect`: `shaders/glsl/skinned.vert` and BasicEffect's fragment stage; its block
    /// is BasicEffect's, its bones travel beside it
    /// ([`GeometryDraw::bones`](super::GeometryDraw::bones)).
    Skinned,
    /// `EnvironmentMapEffect`: `shaders/glsl/environment_map.*`; its cube map travels as the
    /// draw's second texture ([`GeometryDraw::texture2`](super::GeometryDraw::texture2)).
    EnvironmentMap,
}

impl StockShader {
    /// Where the options word (`flags`, the last vec4 of the shader's uniform block) starts in
    /// [`StockMaterial::block`]: the one place that says where the engine's effect writes the
    /// options and [`StockMaterial::variant`] reads them.
    pub const fn options_at(self) -> usize {
        match self {
            // world, world_inverse_transpose, six vec4s, three lights of three vec4s.
            StockShader::Basic | StockShader::Skinned => 16 + 16 + 6 * 4 + 9 * 4,
            // diffuse, alpha_test, fog_color, fog_vector.
            StockShader::AlphaTest => 4 * 4,
            // diffuse, fog_color, fog_vector.
            StockShader::DualTexture => 3 * 4,
            // world, world_inverse_transpose, six vec4s, three lights of two vec4s.
            StockShader::EnvironmentMap => 16 + 16 + 6 * 4 + 6 * 4,
        }
    }
}

/// How a stock effect lights its surface (BasicEffect's `LightingEnabled` and
/// `PreferPerPixelLighting`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum StockLighting {
    /// The material colour only.
    #[default]
    Unlit,
    /// The three directional lights evaluated per vertex.
    PerVertex,
    /// The three directional lights evaluated per pixel.
    PerPixel,
}

/// Which of a stock effect's code paths a draw runs: part of its pipeline, decided when the
/// pipeline is made and never by a branch on a uniform value, as XNA's BasicEffect picks one of
/// its precompiled shaders from its flags. A shader's stages declare each option as a boolean
/// specialization constant ([`StockVariant::constants`]); the Vulkan backend hands them to the
/// pipeline, SDL_gpu (which has no specialization constants) gets stages frozen to them. So a
/// draw that changes only the effect's values (World, DiffuseColor) keeps its pipeline, and a
/// driver that specialises shaders on uniform values (lavapipe inlines uniforms used by
/// branches) never sees one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct StockVariant {
    /// The effect.
    pub shader: StockShader,
    /// `VertexColorEnabled`: the vertex colour multiplies the material colour.
    pub vertex_color: bool,
    /// `TextureEnabled` (BasicEffect; the other stock effects always sample).
    pub texture: bool,
    /// BasicEffect's lighting path ([`StockLighting::Unlit`] for the others).
    pub lighting: StockLighting,
    /// `FogEnabled`.
    pub fog: bool,
    /// AlphaTestEffect's `Equal`/`NotEqual` comparison (a tolerance test rather than an order).
    pub alpha_equality: bool,
    /// SkinnedEffect's `WeightsPerVertex` (1, 2 or 4; 0 for the other effects).
    pub weights_per_vertex: u8,
    /// EnvironmentMapEffect's Fresnel term (`FresnelFactor` non-zero): the cube map's share
    /// falls off with the angle between the eye and the normal.
    pub fresnel: bool,
    /// EnvironmentMapEffect's specular term (`EnvironmentMapSpecular` non-zero): the cube
    /// map's alpha times it is added.
    pub environment_specular: bool,
    /// EnvironmentMapEffect with `DirectionalLight1` and `DirectionalLight2` off: only light 0
    /// is evaluated.
    pub one_light: bool,
    /// The draw is a run of draws merged into one instanced draw
    /// ([`crate::compile::instances`]): instance `i` reads its own values ([`BasicInstance`])
    /// from a buffer of instances, through the effect's instanced pair of stages, and the rest
    /// from the first draw's uniform block. Chosen by the
    /// backend for a merged op; never by [`StockMaterial::variant`].
    pub instanced: bool,
}

impl StockVariant {
    /// The specialization constants of the stock stages, by `constant_id`: 0 vertex colour,
    /// 1 texture, 2 per-vertex lighting, 3 per-pixel lighting, 4 fog, 5 alpha equality, 6 two
    /// weights per vertex, 7 four weights per vertex (neither: one), 8 Fresnel, 9 environment
    /// specular, 10 one light. A stage declares the ones it reads
    /// (`shaders/glsl/stock_options.glsl`).
    pub fn constants(&self) -> [(u32, bool); 11] {
        [
            (0, self.vertex_color),
            (1, self.texture),
            (2, self.lighting == StockLighting::PerVertex),
            (3, self.lighting == StockLighting::PerPixel),
            (4, self.fog),
            (5, self.alpha_equality),
            (6, self.weights_per_vertex == 2),
            (7, self.weights_per_vertex == 4),
            (8, self.fresnel),
            (9, self.environment_specular),
            (10, self.one_light),
        ]
    }
}

/// How many floats of a stock effect's uniform block follow its transform.
pub const MATERIAL_FLOATS: usize = 96;

/// The ranges of BasicEffect's [`StockMaterial::block`] that are one draw's own in a merged
/// run, in the order the instanced stages' `BasicInstance` lays them out after the transform
/// (`shaders/glsl/basic_block.glsl`): World; the first three columns of its inverse transpose
/// (the stages read its upper 3×3; the fourth moves with World but is read by nothing);
/// diffuse, emissive and specular; the fog vector (the view-space depth row of World × View).
/// The rest of the block, eye position, fog colour, lights and options, is the run's, one
/// uniform block for all its instances ([`StockMaterial::shares_run_values`]).
pub const BASIC_INSTANCE_PARTS: [Range<usize>; 3] = [0..28, 32..44, 52..56];

/// Floats of one instance of a merged run: its transform, then [`BASIC_INSTANCE_PARTS`].
pub const BASIC_INSTANCE_FLOATS: usize = 16 + 28 + 12 + 4;

/// The ranges of BasicEffect's block every draw of a merged run shares: eye position and fog
/// colour; the three lights and the options word.
const BASIC_SHARED_PARTS: [Range<usize>; 2] = [44..52, 56..MATERIAL_FLOATS];

/// The per-draw values of a stock geometry effect: which shader pair draws, and the floats of
/// its uniform block after the transform, laid out as that shader's block declares them (std140;
/// the engine's effect that fills them and the GLSL are the two ends of one contract). The
/// same block is bound to the vertex stage (set 1) and the fragment stage (set 3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StockMaterial {
    /// The shader pair.
    pub shader: StockShader,
    /// The uniform block after the transform.
    pub block: [f32; MATERIAL_FLOATS],
}

impl StockMaterial {
    /// Whether a draw of block `other` can be an instance of a merged run whose draws have this
    /// block ([`crate::compile::instances`]): both are BasicEffect's (the one stock effect
    /// with instanced stages), and every float the run shares is the same bit for bit: eye
    /// position, fog colour, the three lights and the options word (so the same variant).
    /// What a run's instances may differ in is [`BASIC_INSTANCE_PARTS`]: World, its inverse
    /// transpose, the material colours and the fog vector, the values XNA's
    /// `BasicEffect.World` and material properties set for each object. Both merges, the
    /// recording's and the compiler's, and the capture reader's check of repeats ask this.
    pub fn shares_run_values(&self, other: &StockMaterial) -> bool {
        self.shader == StockShader::Basic
            && other.shader == StockShader::Basic
            && BASIC_SHARED_PARTS.iter().all(|r| {
                let a: &[u32] = bytemuck::cast_slice(&self.block[r.clone()]);
                let b: &[u32] = bytemuck::cast_slice(&other.block[r.clone()]);
                a == b
            })
    }

    /// The variant the block's options word selects (see [`StockShader::options_at`]): for
    /// BasicEffect x vertex colour, y texture, z lighting (0 unlit, 1 per vertex, 2 per pixel),
    /// w fog; for AlphaTestEffect x vertex colour, y equality form, z fog; for DualTextureEffect
    /// x vertex colour, y fog; for SkinnedEffect x weights per vertex, y texture (always on), z
    /// and w as BasicEffect's; for EnvironmentMapEffect x Fresnel, y environment specular, z one
    /// light, w fog. An option the shader does not have stays off, so two draws of one
    /// effect differ in variant only where their shader can tell. Derived from the block rather
    /// than stored beside it, so a frame capture, which holds the block, replays the same
    /// variant.
    pub fn variant(&self) -> StockVariant {
        let at = self.shader.options_at();
        let on = |i: usize| self.block[at + i] != 0.0;
        let mut v = StockVariant { shader: self.shader, ..Default::default() };
        match self.shader {
            StockShader::Basic | StockShader::Skinned => {
                if self.shader == StockShader::Skinned {
                    let w = self.block[at];
                    v.weights_per_vertex = if w == 4.0 {
                        4
                    } else if w == 2.0 {
                        2
                    } else {
                        1
                    };
                } else {
                    v.vertex_color = on(0);
                }
                v.texture = on(1);
                let lighting = self.block[at + 2];
                v.lighting = if lighting == 1.0 {
                    StockLighting::PerVertex
                } else if lighting == 2.0 {
                    StockLighting::PerPixel
                } else {
                    StockLighting::Unlit
                };
                v.fog = on(3);
            }
            StockShader::AlphaTest => {
                v.vertex_color = on(0);
                v.alpha_equality = on(1);
                v.fog = on(2);
            }
            StockShader::DualTexture => {
                v.vertex_color = on(0);
                v.fog = on(1);
            }
            StockShader::EnvironmentMap => {
                v.fresnel = on(0);
                v.environment_specular = on(1);
                v.one_light = on(2);
                v.fog = on(3);
            }
        }
        v
    }
}

impl Default for StockMaterial {
    fn default() -> Self {
        StockMaterial { shader: StockShader::Basic, block: [0.0; MATERIAL_FLOATS] }
    }
}

/// Serialised as the shader and the block's floats as a sequence (serde's arrays stop at 32).
#[cfg(feature = "capture")]
impl serde::Serialize for StockMaterial {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (self.shader, &self.block[..]).serialize(s)
    }
}

/// A block of any other length than [`MATERIAL_FLOATS`] is an error, never a short material.
#[cfg(feature = "capture")]
impl<'de> serde::Deserialize<'de> for StockMaterial {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (shader, floats): (StockShader, Vec<f32>) = serde::Deserialize::deserialize(d)?;
        let block = floats.try_into().map_err(|v: Vec<f32>| {
            serde::de::Error::invalid_length(v.len(), &"a stock effect's uniform block")
        })?;
        Ok(StockMaterial { shader, block })
    }
}

/// The values one draw of a stock geometry effect reads: its clip-space transform (as
/// [`crate::Draw::transform`]) and its uniform block (as [`StockMaterial::block`]). A repeat of a
/// draw ([`GeometryDraw::repeats`](super::GeometryDraw::repeats)) is drawn with these in place
/// of the draw's own. Laid out as the two are in a stock draw's uniform buffer: the transform's
/// 64 bytes, then the block's.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct StockValues {
    /// The clip-space transform, column-major.
    pub transform: [f32; 16],
    /// The uniform block after the transform.
    pub block: [f32; MATERIAL_FLOATS],
}

/// One repeat of a BasicEffect draw ([`GeometryDraw::repeats`](super::GeometryDraw::repeats)) as
/// a merged run's instance holds it, and as the instanced stages read it (`BasicDraw`, std430):
/// its transform, then the parts of its block that are its own ([`BASIC_INSTANCE_PARTS`]). The
/// rest of its block is the draw's ([`StockMaterial::shares_run_values`]), so a repeat keeps
/// 240 bytes, not the 448 of a whole transform and block.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(transparent)]
pub struct BasicInstance(pub [f32; BASIC_INSTANCE_FLOATS]);

impl BasicInstance {
    /// The instance of a draw whose transform is `transform` and block `block`.
    pub fn new(transform: &[f32; 16], block: &[f32; MATERIAL_FLOATS]) -> BasicInstance {
        let mut floats = [0.0; BASIC_INSTANCE_FLOATS];
        let mut at = 0;
        for part in Self::parts(transform, block) {
            let end = at + part.len();
            floats[at..end].copy_from_slice(part);
            at = end;
        }
        BasicInstance(floats)
    }

    /// The slices of a draw's transform and block its instance is made of, in the instance's
    /// order: what [`BasicInstance::new`] copies, and what a backend writes in place of the
    /// instance of a draw that has none of its own.
    pub fn parts<'a>(
        transform: &'a [f32; 16],
        block: &'a [f32; MATERIAL_FLOATS],
    ) -> [&'a [f32]; 4] {
        let [world, material, fog] = BASIC_INSTANCE_PARTS;
        [&transform[..], &block[world], &block[material], &block[fog]]
    }

    /// The transform and whole block this instance draws with in a run whose draw has block
    /// `run`: `run` with this instance's own parts in place (the inverse transpose's fourth
    /// column, which no stage reads, is the draw's).
    pub fn values(&self, run: &[f32; MATERIAL_FLOATS]) -> StockValues {
        let mut block = *run;
        let mut at = 16;
        for part in BASIC_INSTANCE_PARTS {
            let end = at + part.len();
            block[part].copy_from_slice(&self.0[at..end]);
            at = end;
        }
        let mut transform = [0.0; 16];
        transform.copy_from_slice(&self.0[..16]);
        StockValues { transform, block }
    }
}

/// Serialised as the transform's and the block's floats as sequences.
#[cfg(feature = "capture")]
impl serde::Serialize for StockValues {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (&self.transform[..], &self.block[..]).serialize(s)
    }
}

/// A transform or block of any other length is an error.
#[cfg(feature = "capture")]
impl<'de> serde::Deserialize<'de> for StockValues {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (transform, block): (Vec<f32>, Vec<f32>) = serde::Deserialize::deserialize(d)?;
        let transform = transform.try_into().map_err(|v: Vec<f32>| {
            serde::de::Error::invalid_length(v.len(), &"a transform of 16 floats")
        })?;
        let block = block.try_into().map_err(|v: Vec<f32>| {
            serde::de::Error::invalid_length(v.len(), &"a stock effect's uniform block")
        })?;
        Ok(StockValues { transform, block })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A material of `shader` whose options word is `options`, every other float 0.5.
    fn material(shader: StockShader, options: [f32; 4]) -> StockMaterial {
        let mut block = [0.5; MATERIAL_FLOATS];
        let at = shader.options_at();
        block[at..at + 4].copy_from_slice(&options);
        StockMaterial { shader, block }
    }

    #[test]
    fn the_variant_is_read_from_each_shaders_options_word_and_nothing_else() {
        let basic = material(StockShader::Basic, [1.0, 0.0, 2.0, 1.0]).variant();
        assert_eq!(
            basic,
            StockVariant {
                shader: StockShader::Basic,
                vertex_color: true,
                texture: false,
                lighting: StockLighting::PerPixel,
                fog: true,
                alpha_equality: false,
                weights_per_vertex: 0,
                fresnel: false,
                environment_specular: false,
                one_light: false,
                instanced: false,
            }
        );
        let per_vertex = material(StockShader::Basic, [0.0, 1.0, 1.0, 0.0]).variant();
        assert_eq!((per_vertex.texture, per_vertex.lighting), (true, StockLighting::PerVertex));
        // AlphaTestEffect: x vertex colour, y equality, z fog; its w and the options it lacks
        // stay off.
        let alpha = material(StockShader::AlphaTest, [0.0, 1.0, 1.0, 1.0]).variant();
        assert_eq!(
            (alpha.vertex_color, alpha.alpha_equality, alpha.fog, alpha.texture),
            (false, true, true, false)
        );
        assert_eq!(alpha.lighting, StockLighting::Unlit);
        // DualTextureEffect: x vertex colour, y fog.
        let dual = material(StockShader::DualTexture, [1.0, 1.0, 1.0, 1.0]).variant();
        assert_eq!(
            (dual.vertex_color, dual.fog, dual.texture, dual.alpha_equality),
            (true, true, false, false)
        );
        // SkinnedEffect: x weights per vertex (never vertex colour), then BasicEffect's y, z, w.
        let skinned = material(StockShader::Skinned, [2.0, 1.0, 1.0, 1.0]).variant();
        assert_eq!(
            (skinned.weights_per_vertex, skinned.vertex_color, skinned.texture, skinned.fog),
            (2, false, true, true)
        );
        assert_eq!(skinned.lighting, StockLighting::PerVertex);
        let four = material(StockShader::Skinned, [4.0, 1.0, 2.0, 0.0]).variant();
        assert_eq!((four.weights_per_vertex, four.lighting), (4, StockLighting::PerPixel));
        assert_eq!(material(StockShader::Skinned, [1.0; 4]).variant().weights_per_vertex, 1);
        assert_eq!(basic.weights_per_vertex, 0);
        // EnvironmentMapEffect: x Fresnel, y environment specular, z one light, w fog.
        let env = material(StockShader::EnvironmentMap, [1.0, 0.0, 1.0, 1.0]).variant();
        assert_eq!(
            (env.fresnel, env.environment_specular, env.one_light, env.fog, env.texture),
            (true, false, true, true, false)
        );
        let specular = material(StockShader::EnvironmentMap, [0.0, 1.0, 0.0, 0.0]).variant();
        assert_eq!(
            (specular.fresnel, specular.environment_specular, specular.one_light, specular.fog),
            (false, true, false, false)
        );
        assert!(!basic.fresnel && !basic.environment_specular && !basic.one_light);
        // The values around the options word do not change the variant.
        let mut moved = material(StockShader::Basic, [1.0, 0.0, 2.0, 1.0]);
        moved.block[0] = -3.0;
        moved.block[MATERIAL_FLOATS - 5] = 9.0;
        assert_eq!(moved.variant(), basic);
    }

    #[test]
    fn a_run_shares_eye_fog_colour_lights_and_options_and_nothing_else() {
        let lit = material(StockShader::Basic, [0.0, 0.0, 1.0, 0.0]);
        // Each float of a draw's own parts may differ; so may the inverse transpose's fourth
        // column, which no stage reads.
        let own = BASIC_INSTANCE_PARTS.iter().cloned().flatten().chain(28..32);
        for i in own {
            let mut other = lit;
            other.block[i] = -3.0;
            assert!(lit.shares_run_values(&other), "float {i} is one draw's own");
        }
        // Every other float is the run's: eye, fog colour, lights, and the options word (so a
        // run is one variant).
        for i in (44..52).chain(56..MATERIAL_FLOATS) {
            let mut other = lit;
            other.block[i] = -3.0;
            assert!(!lit.shares_run_values(&other), "float {i} is the run's");
        }
        for i in 0..4 {
            let mut options = [0.0, 0.0, 1.0, 0.0];
            options[i] = if i == 2 { 2.0 } else { 1.0 };
            let other = material(StockShader::Basic, options);
            assert!(!lit.shares_run_values(&other), "option {i}");
            assert_ne!(lit.variant(), other.variant(), "option {i}");
        }
        // Bit for bit: a negative zero is another value.
        let mut signed = lit;
        signed.block[60] = -0.0;
        let mut unsigned = lit;
        unsigned.block[60] = 0.0;
        assert!(!signed.shares_run_values(&unsigned));
        // Only BasicEffect has instanced stages.
        let skinned = material(StockShader::Skinned, [0.0, 0.0, 1.0, 0.0]);
        assert!(!skinned.shares_run_values(&skinned));
        assert!(!lit.shares_run_values(&skinned));
        // The instance's parts fill the floats the instanced stages read after the transform.
        let floats: usize = BASIC_INSTANCE_PARTS.iter().map(|r| r.len()).sum();
        assert_eq!(16 + floats, BASIC_INSTANCE_FLOATS);
    }

    #[test]
    fn an_instance_keeps_a_draws_own_values_and_takes_the_rest_from_its_run() {
        let run = material(StockShader::Basic, [0.0, 0.0, 1.0, 0.0]).block;
        let mut block = run;
        let own: Vec<usize> = BASIC_INSTANCE_PARTS.iter().cloned().flatten().collect();
        for &i in &own {
            block[i] = i as f32;
        }
        let transform: [f32; 16] = std::array::from_fn(|i| 100.0 + i as f32);
        let instance = BasicInstance::new(&transform, &block);
        // In the stages' order: the transform, then each part in turn.
        assert_eq!(instance.0[..16], transform);
        let after: Vec<f32> = own.iter().map(|&i| i as f32).collect();
        assert_eq!(instance.0[16..], after[..]);
        // Back to the whole block: the draw's own values from the instance, the rest the run's.
        let values = instance.values(&run);
        assert_eq!(values.transform, transform);
        assert_eq!(values.block, block);
        let mut other_run = run;
        other_run[60] = -1.0;
        assert_eq!(instance.values(&other_run).block[60], -1.0);
    }

    #[test]
    fn the_constants_name_each_option_by_its_constant_id() {
        let v = StockVariant {
            shader: StockShader::Basic,
            vertex_color: true,
            texture: false,
            lighting: StockLighting::PerVertex,
            fog: true,
            alpha_equality: false,
            weights_per_vertex: 4,
            fresnel: true,
            environment_specular: false,
            one_light: true,
            instanced: true,
        };
        assert_eq!(
            v.constants(),
            [
                (0, true),
                (1, false),
                (2, true),
                (3, false),
                (4, true),
                (5, false),
                (6, false),
                (7, true),
                (8, true),
                (9, false),
                (10, true)
            ]
        );
    }
}
