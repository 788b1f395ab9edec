//! XNA's `SkinnedEffect`: BasicEffect's lit, textured shading of vertices first moved by up to
//! 72 bones. World, View, Projection, DiffuseColor, EmissiveColor, SpecularColor,
//! SpecularPower, Alpha, AmbientLightColor and three directional lights (EnableDefaultLighting),
//! per-vertex or per-pixel lighting (PreferPerPixelLighting), linear fog, Texture, and the
//! bones: `WeightsPerVertex` (1, 2 or 4) weights from each vertex's `BlendWeight0` pick bones by
//! its `BlendIndices0`. Lighting is always on and the texture always sampled, as XNA's
//! SkinnedEffect has no switch for either; one technique with one pass.
//!
//! The values reach the shader as BasicEffect's do when lit (the same uniform block; the
//! options word holds WeightsPerVertex where BasicEffect's holds VertexColorEnabled). The bones
//! do not: each bone is handed over as XNA hands it, the first three columns of its matrix, in
//! a second uniform block of the draw ([`xnagraph_graph::GeometryDraw::bones`]), so no other
//! stock draw carries them. The vertex stage is `shaders/glsl/skinned.vert`, the fragment stage
//! BasicEffect's.

use std::sync::Arc;

use xnagraph_graph::{BasicDrawValues, BasicRunBasis, StockShader, TextureState};

use crate::device::draw_state::{AppliedEffect, BoundTexture};
use crate::device::profile::GraphicsProfile;
use crate::device::shared::DeviceShared;
use crate::device::GraphicsDevice;
use crate::effects::custom::ParameterType as T;
use crate::effects::parameters::{
    computed, held, held_array, light_field, light_value, set_light_value,
    EffectParameterCollection, StockParameterInfo, StockParameters, StockValue,
};
use crate::effects::stock::{
    default_lighting, fog_vector, slot_of, switch, Block, DirectionalLight, EyeCache, LitValues,
    StockEffect,
};
use crate::effects::technique::{check_geometry, technique, EffectTechnique};
use crate::effects::traits::matrices_and_fog;
use crate::error::{Result, XnaError};
use crate::math::{Matrix, Vector3, Vector4};
use crate::resources::texture::{Texture2D, TextureRef};

/// XNA's `SkinnedEffect` (see the module doc).
///
/// `clone()` is XNA's `Effect.Clone()`: a second effect with the same values and bones,
/// referencing the same texture.
#[derive(Clone)]
pub struct SkinnedEffect {
    device: Arc<DeviceShared>,
    /// `World` (default identity): object space to world space, after skinning.
    pub world: Matrix,
    /// `View` (default identity): world space to view space.
    pub view: Matrix,
    /// `Projection` (default identity): view space to clip space.
    pub projection: Matrix,
    /// `DiffuseColor` (RGB, default white).
    pub diffuse_color: Vector3,
    /// `EmissiveColor` (RGB, default black).
    pub emissive_color: Vector3,
    /// `SpecularColor` (RGB, default white): multiplies the lights' specular colours.
    pub specular_color: Vector3,
    /// `SpecularPower` (default 16): the exponent of the specular highlight.
    pub specular_power: f32,
    /// `Alpha` (default 1): multiplies the colour, premultiplied. Clamped to 0..=1 at `Apply`;
    /// XNA hands the shader the value as set.
    pub alpha: f32,
    /// `PreferPerPixelLighting` (default off): light each pixel rather than each vertex. As
    /// BasicEffect's, honoured only on a HiDef device.
    pub prefer_per_pixel_lighting: bool,
    /// `AmbientLightColor` (default black): added as AmbientLightColor × DiffuseColor.
    pub ambient_light_color: Vector3,
    /// `DirectionalLight0` (enabled by default, as in XNA).
    pub directional_light0: DirectionalLight,
    /// `DirectionalLight1`.
    pub directional_light1: DirectionalLight,
    /// `DirectionalLight2`.
    pub directional_light2: DirectionalLight,
    /// `FogEnabled` (default off).
    pub fog_enabled: bool,
    /// `FogColor` (default black).
    pub fog_color: Vector3,
    /// `FogStart` (default 0): the view-space depth where fog begins.
    pub fog_start: f32,
    /// `FogEnd` (default 1): the view-space depth where the colour is all fog.
    pub fog_end: f32,
    texture: Option<TextureRef>,
    /// `EyePosition` of the last View applied.
    eye: EyeCache,
    weights_per_vertex: i32,
    bones: Vec<Matrix>,
}

impl std::fmt::Debug for SkinnedEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SkinnedEffect")
            .field("weights_per_vertex", &self.weights_per_vertex)
            .field("bones", &self.bones.len())
            .field("fog_enabled", &self.fog_enabled)
            .finish()
    }
}

impl SkinnedEffect {
    /// XNA's `SkinnedEffect.MaxBones`: the most bones `SetBoneTransforms` takes.
    pub const MAX_BONES: usize = 72;

    /// `new SkinnedEffect(device)`: identity matrices and bones (all 72), white, opaque,
    /// `DirectionalLight0` enabled, white specular of power 16, four weights per vertex, fog
    /// off, no texture (one must be set before `Apply`).
    pub fn new(device: &GraphicsDevice) -> Result<Self> {
        check_geometry(device, "SkinnedEffect")?;
        Ok(SkinnedEffect {
            device: device.shared.clone(),
            world: Matrix::IDENTITY,
            view: Matrix::IDENTITY,
            projection: Matrix::IDENTITY,
            diffuse_color: Vector3::ONE,
            emissive_color: Vector3::ZERO,
            specular_color: Vector3::ONE,
            specular_power: 16.0,
            alpha: 1.0,
            prefer_per_pixel_lighting: false,
            ambient_light_color: Vector3::ZERO,
            directional_light0: DirectionalLight { enabled: true, ..Default::default() },
            directional_light1: DirectionalLight::default(),
            directional_light2: DirectionalLight::default(),
            fog_enabled: false,
            fog_color: Vector3::ZERO,
            fog_start: 0.0,
            fog_end: 1.0,
            texture: None,
            eye: EyeCache::new(),
            weights_per_vertex: 4,
            bones: vec![Matrix::IDENTITY; Self::MAX_BONES],
        })
    }

    /// `WeightsPerVertex` (default 4): how many of each vertex's bone indices and weights
    /// are read.
    pub fn weights_per_vertex(&self) -> i32 {
        self.weights_per_vertex
    }

    /// Sets `WeightsPerVertex`: 1, 2 or 4; any other value is `ArgumentOutOfRangeException`
    /// (`value`), as in XNA, and leaves the effect as it was.
    pub fn set_weights_per_vertex(&mut self, value: i32) -> Result<()> {
        if !matches!(value, 1 | 2 | 4) {
            return Err(XnaError::out_of_range(
                "value",
                format!("WeightsPerVertex must be 1, 2 or 4; {value} was given."),
            ));
        }
        self.weights_per_vertex = value;
        Ok(())
    }

    /// `SetBoneTransforms`: bone `i` becomes `bone_transforms[i]`; the bones past them keep
    /// their values, as in XNA. More than [`Self::MAX_BONES`] is `ArgumentException`
    /// (`boneTransforms`), and nothing changes.
    pub fn set_bone_transforms(&mut self, bone_transforms: &[Matrix]) -> Result<()> {
        if bone_transforms.len() > Self::MAX_BONES {
            return Err(XnaError::argument(
                "boneTransforms",
                format!(
                    "SkinnedEffect takes at most {} bones; {} were given.",
                    Self::MAX_BONES,
                    bone_transforms.len()
                ),
            ));
        }
        self.bones[..bone_transforms.len()].copy_from_slice(bone_transforms);
        Ok(())
    }

    /// `GetBoneTransforms(count)`: the first `count` bones. A count outside 1..=72 is
    /// `ArgumentOutOfRangeException` (`count`), as in XNA.
    pub fn get_bone_transforms(&self, count: i32) -> Result<Vec<Matrix>> {
        if count <= 0 || count as usize > Self::MAX_BONES {
            return Err(XnaError::out_of_range(
                "count",
                format!(
                    "The bone count must lie in 1..={}; {count} was asked for.",
                    Self::MAX_BONES
                ),
            ));
        }
        Ok(self.bones[..count as usize].to_vec())
    }

    /// `LightingEnabled` (`IEffectLights`): always true, as XNA's SkinnedEffect always lights.
    pub fn lighting_enabled(&self) -> bool {
        true
    }

    /// `IEffectLights.LightingEnabled = value`: true is accepted and changes nothing; false is
    /// `NotSupportedException`, as XNA's SkinnedEffect cannot draw unlit.
    pub fn set_lighting_enabled(&mut self, value: bool) -> Result<()> {
        if !value {
            return Err(XnaError::not_supported("SkinnedEffect without lighting isn't supported."));
        }
        Ok(())
    }

    /// `EnableDefaultLighting`: XNA's standard three-light rig and its ambient colour (see
    /// [`crate::BasicEffect::enable_default_lighting`]).
    pub fn enable_default_lighting(&mut self) {
        let ([l0, l1, l2], ambient) = default_lighting();
        self.directional_light0 = l0;
        self.directional_light1 = l1;
        self.directional_light2 = l2;
        self.ambient_light_color = ambient;
    }

    /// `Texture` (default none): the texture set last, the game's own resource.
    pub fn texture(&self) -> Option<&Texture2D> {
        self.texture.as_deref()
    }

    /// Sets `Texture`, referenced as BasicEffect references its texture. SkinnedEffect always
    /// samples it: `Apply` without one is `InvalidOperationException` (XNA would sample an
    /// unset texture).
    pub fn set_texture(&mut self, texture: Option<&Texture2D>) {
        self.texture = texture.map(TextureRef::new);
    }

    /// `CurrentTechnique`: the one technique, with one pass.
    pub fn current_technique(&self) -> EffectTechnique<'_> {
        technique(self, "SkinnedEffect")
    }

    /// `Parameters`: the parameters of XNA's `SkinnedEffect.fx`, in its declaration order (see
    /// [`EffectParameterCollection`]). Held (read and set the property): `Texture`,
    /// `SpecularColor`, `SpecularPower`, `DirLight0Direction`, `DirLight0DiffuseColor`,
    /// `DirLight0SpecularColor` (and the same for lights 1 and 2; a disabled light's colours
    /// reach the shader as black), `FogColor`, `World`, and `Bones`, a `Matrix` array of
    /// [`Self::MAX_BONES`] elements: `get_value_matrix_array(count)` reads the first `count`
    /// bone transforms as [`Self::get_bone_transforms`] returns them, and `set_value` of a
    /// `&[Matrix]` sets the first bones as [`Self::set_bone_transforms`] does (more than 72 is
    /// `ArgumentOutOfRange`; a single `Matrix`, or `get_value_matrix`, is `InvalidCast`, as
    /// for any array). XNA stores a bone as `float4x3`, dropping its fourth column, and reads it
    /// back with that column zero; here the whole matrix is kept and read back, and the
    /// shader is handed the first three columns, as XNA's. Computed at `Apply` (read only):
    /// `DiffuseColor` (`Vector4`: DiffuseColor × Alpha, Alpha), `EmissiveColor`
    /// ((EmissiveColor + AmbientLightColor × DiffuseColor) × Alpha), `EyePosition`,
    /// `FogVector`, `WorldInverseTranspose`, `WorldViewProj` (World × View × Projection) and
    /// `ShaderIndex` (XNA's shader permutation: +1 without fog, +2 with two weights per vertex,
    /// +4 with four, +6 with lights 1 and 2 off, +12 per pixel instead).
    pub fn parameters(&mut self) -> EffectParameterCollection<'_> {
        EffectParameterCollection::new(self)
    }

    /// Whether the lights are computed per pixel: asked for, and on a HiDef device.
    fn per_pixel(&self) -> bool {
        self.prefer_per_pixel_lighting && self.device.profile == GraphicsProfile::HiDef
    }

    /// XNA's `ShaderIndex` of the effect's values.
    fn shader_index(&self) -> i32 {
        let mut index = 0;
        if !self.fog_enabled {
            index += 1;
        }
        index += match self.weights_per_vertex {
            2 => 2,
            4 => 4,
            _ => 0,
        };
        if self.per_pixel() {
            index += 12;
        } else if !self.directional_light1.enabled && !self.directional_light2.enabled {
            index += 6;
        }
        index
    }

    fn check_values(&self) -> Result<()> {
        let [l0, l1, l2] = self.lights();
        LitValues {
            scalars: &[self.alpha, self.specular_power, self.fog_start, self.fog_end],
            colors: &[
                self.diffuse_color,
                self.emissive_color,
                self.specular_color,
                self.ambient_light_color,
                self.fog_color,
            ],
            lights: [l0, l1, l2],
            light_specular: true,
        }
        .check()
    }

    fn lights(&self) -> [&DirectionalLight; 3] {
        [&self.directional_light0, &self.directional_light1, &self.directional_light2]
    }
}

/// `SkinnedEffect.fx`'s parameters, in its declaration order.
const SKINNED_PARAMETERS: &[StockParameterInfo] = &[
    held("Texture", T::Texture2D),
    computed("DiffuseColor", T::Vector4, "DiffuseColor and Alpha"),
    computed("EmissiveColor", T::Vector3, "EmissiveColor, AmbientLightColor, DiffuseColor, Alpha"),
    held("SpecularColor", T::Vector3),
    held("SpecularPower", T::Single),
    held("DirLight0Direction", T::Vector3),
    held("DirLight0DiffuseColor", T::Vector3),
    held("DirLight0SpecularColor", T::Vector3),
    held("DirLight1Direction", T::Vector3),
    held("DirLight1DiffuseColor", T::Vector3),
    held("DirLight1SpecularColor", T::Vector3),
    held("DirLight2Direction", T::Vector3),
    held("DirLight2DiffuseColor", T::Vector3),
    held("DirLight2SpecularColor", T::Vector3),
    computed("EyePosition", T::Vector3, "View"),
    held("FogColor", T::Vector3),
    computed("FogVector", T::Vector4, "FogEnabled, FogStart, FogEnd, World and View"),
    held("World", T::Matrix),
    computed("WorldInverseTranspose", T::Matrix, "World"),
    held_array("Bones", T::Matrix, SkinnedEffect::MAX_BONES),
    computed("WorldViewProj", T::Matrix, "World, View and Projection"),
    computed("ShaderIndex", T::Int32, "the effect's values"),
];

impl StockParameters for SkinnedEffect {
    fn table(&self) -> &'static [StockParameterInfo] {
        SKINNED_PARAMETERS
    }

    fn read(&self, index: usize) -> StockValue {
        let (d, a) = (self.diffuse_color, self.alpha.clamp(0.0, 1.0));
        match SKINNED_PARAMETERS[index].name {
            "Texture" => StockValue::Texture(self.texture.clone()),
            "DiffuseColor" => StockValue::Vector4(Vector4::new(d.x * a, d.y * a, d.z * a, a)),
            "EmissiveColor" => {
                StockValue::Vector3((self.emissive_color + self.ambient_light_color * d) * a)
            }
            "SpecularColor" => StockValue::Vector3(self.specular_color),
            "SpecularPower" => StockValue::Single(self.specular_power),
            "EyePosition" => StockValue::Vector3(self.eye.eye_position(&self.view)),
            "FogColor" => StockValue::Vector3(self.fog_color),
            "FogVector" => {
                let world_view = self.world.mul(&self.view);
                let [x, y, z, w] =
                    fog_vector(self.fog_enabled, &world_view, self.fog_start, self.fog_end);
                StockValue::Vector4(Vector4::new(x, y, z, w))
            }
            "World" => StockValue::Matrix(self.world),
            "WorldInverseTranspose" => StockValue::Matrix(self.world.invert().transpose()),
            "Bones" => StockValue::Matrices(self.bones.clone()),
            "WorldViewProj" => StockValue::Matrix(self.world.mul(&self.view).mul(&self.projection)),
            "ShaderIndex" => StockValue::Int32(self.shader_index()),
            other => {
                let (n, field) = light_field(other).unwrap_or((0, "Direction"));
                StockValue::Vector3(light_value(self.lights()[n], field))
            }
        }
    }

    fn write(&mut self, index: usize, value: StockValue) {
        match (SKINNED_PARAMETERS[index].name, value) {
            ("Texture", StockValue::Texture(t)) => self.texture = t,
            ("SpecularColor", StockValue::Vector3(v)) => self.specular_color = v,
            ("SpecularPower", StockValue::Single(v)) => self.specular_power = v,
            ("FogColor", StockValue::Vector3(v)) => self.fog_color = v,
            ("World", StockValue::Matrix(m)) => self.world = m,
            ("Bones", StockValue::Matrices(m)) => self.bones[..m.len()].copy_from_slice(&m),
            (other, StockValue::Vector3(v)) => {
                if let Some((n, field)) = light_field(other) {
                    let light = match n {
                        0 => &mut self.directional_light0,
                        1 => &mut self.directional_light1,
                        _ => &mut self.directional_light2,
                    };
                    set_light_value(light, field, v);
                }
            }
            _ => {}
        }
    }
}

/// A bone as XNA uploads it: the first three columns of its matrix, one vec4 each.
fn bone_rows(m: &Matrix) -> [[f32; 4]; 3] {
    std::array::from_fn(|c| [m.m[0][c], m.m[1][c], m.m[2][c], m.m[3][c]])
}

matrices_and_fog!(SkinnedEffect);

impl StockEffect for SkinnedEffect {
    fn device(&self) -> &Arc<DeviceShared> {
        &self.device
    }

    fn device_textures(&self) -> Vec<(usize, Arc<dyn BoundTexture>)> {
        slot_of(0, &self.texture).into_iter().collect()
    }

    fn applied_with(&self, texture0: Option<Arc<TextureState>>) -> Result<AppliedEffect> {
        self.check_values()?;
        let texture = match (texture0, &self.texture) {
            (Some(t), _) => t,
            (None, Some(t)) => t.core.state()?,
            (None, None) => {
                return Err(XnaError::invalid_operation(
                    "SkinnedEffect.Texture is null: the effect samples it.",
                ))
            }
        };
        // The draw's own parts are BasicEffect's, lit: one derivation serves both blocks.
        let basis = BasicRunBasis {
            view: self.view,
            projection: self.projection,
            ambient_light_color: self.ambient_light_color,
            lighting_enabled: true,
            fog_enabled: self.fog_enabled,
            fog_start: self.fog_start,
            fog_end: self.fog_end,
        };
        let values = BasicDrawValues {
            world: self.world,
            diffuse_color: self.diffuse_color,
            emissive_color: self.emissive_color,
            specular_color: self.specular_color,
            specular_power: self.specular_power,
            alpha: self.alpha.clamp(0.0, 1.0),
        };
        let mut floats = [0.0; xnagraph_graph::MATERIAL_FLOATS];
        let transform = basis.write_own(&values, &mut floats);
        let mut block = Block::at(&mut floats, 44);
        block
            .vec3(self.eye.eye_position(&self.view), 1.0)
            .vec3(self.fog_color, 0.0)
            // The fog vector: the draw's own.
            .skip(4)
            .lights(self.lights(), true);
        let per_pixel = self.per_pixel();
        block.vec4([
            self.weights_per_vertex as f32,
            1.0,
            if per_pixel { 2.0 } else { 1.0 },
            switch(self.fog_enabled),
        ]);
        Ok(AppliedEffect {
            transform,
            material: block.material(StockShader::Skinned),
            basic: None,
            texture,
            texture2: None,
            bones: self.bones.iter().flat_map(bone_rows).collect(),
            needs_color: false,
            needs_texture_coordinate: true,
            needs_normal: true,
            needs_texture_coordinate1: false,
            needs_skinning: true,
            reads_slots: [false; 2],
        })
    }
}
