//! XNA's `EnvironmentMapEffect`: a lit, textured surface that reflects a cube map. World, View,
//! Projection, DiffuseColor, EmissiveColor, Alpha, AmbientLightColor and three directional
//! lights (diffuse only: the effect has no specular lighting), linear fog, `Texture`, and the
//! environment: `EnvironmentMap` (a [`TextureCube`]) looked up along the eye vector reflected
//! about the world normal, blended over the lit texel by `EnvironmentMapAmount`, scaled by the
//! Fresnel term `pow(max(1 − |E·N|, 0), FresnelFactor)` unless `FresnelFactor` is 0, with
//! `EnvironmentMapSpecular` × the cube texel's alpha added. Lighting is always on and both
//! textures always sampled; one technique with one pass. `Texture` is sampled with
//! `SamplerStates[0]`, `EnvironmentMap` with `SamplerStates[1]`.
//!
//! As XNA's effect picks one of its precompiled shaders, the pipeline's variant
//! ([`xnagraph_graph::StockVariant`]) says whether the Fresnel term is computed (FresnelFactor
//! non-zero), whether the specular term is added (EnvironmentMapSpecular non-zero), whether
//! only light 0 is evaluated (lights 1 and 2 off) and whether fog is applied. The shaders are
//! `shaders/glsl/environment_map.*`.

use std::sync::Arc;

use xnagraph_graph::{StockShader, TextureState};

use crate::device::draw_state::{AppliedEffect, BoundTexture};
use crate::device::shared::DeviceShared;
use crate::device::GraphicsDevice;
use crate::effects::custom::ParameterType as T;
use crate::effects::parameters::{
    computed, held, light_field, light_value, set_light_value, EffectParameterCollection,
    StockParameterInfo, StockParameters, StockValue,
};
use crate::effects::stock::{
    clip_transform_of, default_lighting, fog_vector, slot_of, switch, Block, DirectionalLight,
    EyeCache, LitValues, StockEffect,
};
use crate::effects::technique::{check_geometry, technique, EffectTechnique};
use crate::effects::traits::matrices_and_fog;
use crate::error::{Result, XnaError};
use crate::math::{Matrix, Vector3, Vector4};
use crate::resources::cube::{CubeRef, TextureCube};
use crate::resources::texture::{Texture2D, TextureRef};

/// XNA's `EnvironmentMapEffect` (see the module doc).
///
/// `clone()` is XNA's `Effect.Clone()`: a second effect with the same values, referencing the
/// same texture and cube map.
#[derive(Clone)]
pub struct EnvironmentMapEffect {
    device: Arc<DeviceShared>,
    /// `World` (default identity): object space to world space.
    pub world: Matrix,
    /// `View` (default identity): world space to view space; its inverse's translation is the
    /// eye position the reflection and the Fresnel term are computed from.
    pub view: Matrix,
    /// `Projection` (default identity): view space to clip space.
    pub projection: Matrix,
    /// `DiffuseColor` (RGB, default white).
    pub diffuse_color: Vector3,
    /// `EmissiveColor` (RGB, default black).
    pub emissive_color: Vector3,
    /// `Alpha` (default 1): multiplies the colour and the cube map's texel, premultiplied.
    /// Clamped to 0..=1 at `Apply`; XNA hands the shader the value as set.
    pub alpha: f32,
    /// `EnvironmentMapAmount` (default 1): how much of the cube map replaces the lit texel
    /// (0 none, 1 all of it at the Fresnel term's full strength).
    pub environment_map_amount: f32,
    /// `EnvironmentMapSpecular` (RGB, default black): added, times the cube texel's alpha, over
    /// the blend (a glint map in the cube's alpha channel). Non-zero picks the specular
    /// variant, as in XNA.
    pub environment_map_specular: Vector3,
    /// `FresnelFactor` (default 1): the exponent of the Fresnel term; 0 turns the term off
    /// (the cube map's share is then `EnvironmentMapAmount` at every angle), as in XNA.
    pub fresnel_factor: f32,
    /// `AmbientLightColor` (default black): added as AmbientLightColor × DiffuseColor.
    pub ambient_light_color: Vector3,
    /// `DirectionalLight0` (enabled by default, as in XNA). Its `specular_color` is kept but not
    /// used: XNA's EnvironmentMapEffect lights with the diffuse term only.
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
    environment_map: Option<Arc<TextureCube>>,
}

impl std::fmt::Debug for EnvironmentMapEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnvironmentMapEffect")
            .field("environment_map_amount", &self.environment_map_amount)
            .field("fresnel_factor", &self.fresnel_factor)
            .field("fog_enabled", &self.fog_enabled)
            .finish()
    }
}

impl EnvironmentMapEffect {
    /// `new EnvironmentMapEffect(device)`: identity matrices, white diffuse, black emissive and
    /// ambient, opaque, `DirectionalLight0` enabled (the others off), EnvironmentMapAmount 1,
    /// EnvironmentMapSpecular black, FresnelFactor 1, fog off, no texture and no cube map (both
    /// must be set before `Apply`).
    ///
    /// Errors: a disposed device is `ObjectDisposed`; a device that cannot draw geometry is
    /// `NotSupported`.
    pub fn new(device: &GraphicsDevice) -> Result<Self> {
        check_geometry(device, "EnvironmentMapEffect")?;
        Ok(EnvironmentMapEffect {
            device: device.shared.clone(),
            world: Matrix::IDENTITY,
            view: Matrix::IDENTITY,
            projection: Matrix::IDENTITY,
            diffuse_color: Vector3::ONE,
            emissive_color: Vector3::ZERO,
            alpha: 1.0,
            environment_map_amount: 1.0,
            environment_map_specular: Vector3::ZERO,
            fresnel_factor: 1.0,
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
            environment_map: None,
        })
    }

    /// `LightingEnabled` (`IEffectLights`): always true, as XNA's EnvironmentMapEffect always
    /// lights.
    pub fn lighting_enabled(&self) -> bool {
        true
    }

    /// `IEffectLights.LightingEnabled = value`: true is accepted and changes nothing; false is
    /// `NotSupportedException`, as in XNA ("EnvironmentMapEffect does not support setting
    /// LightingEnabled to false.").
    pub fn set_lighting_enabled(&mut self, value: bool) -> Result<()> {
        if !value {
            return Err(XnaError::not_supported(
                "EnvironmentMapEffect does not support setting LightingEnabled to false.",
            ));
        }
        Ok(())
    }

    /// `EnableDefaultLighting`: XNA's standard three-light rig and its ambient colour (see
    /// [`crate::BasicEffect::enable_default_lighting`]); only the lights' diffuse colours are
    /// used.
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

    /// Sets `Texture`, referenced as BasicEffect references its texture. The effect always
    /// samples it: `Apply` without one is `InvalidOperationException` (XNA would sample an
    /// unset texture).
    pub fn set_texture(&mut self, texture: Option<&Texture2D>) {
        self.texture = texture.map(TextureRef::new);
    }

    /// `EnvironmentMap` (default none): the cube map set last.
    pub fn environment_map(&self) -> Option<&Arc<TextureCube>> {
        self.environment_map.as_ref()
    }

    /// Sets `EnvironmentMap`. The effect holds the cube as XNA's effect holds the object it was
    /// given: what the game later writes into it is what the effect samples, and a cube the
    /// game disposed is `ObjectDisposed` at `Apply`. Where xnagraph differs: a `TextureCube` has
    /// one owner, so the effect shares it through the `Arc` the game (or a `ContentManager`,
    /// which hands out `Arc<TextureCube>`) passes. `Apply` without one is
    /// `InvalidOperationException`.
    pub fn set_environment_map(&mut self, environment_map: Option<Arc<TextureCube>>) {
        self.environment_map = environment_map;
    }

    /// `CurrentTechnique`: the one technique, with one pass.
    pub fn current_technique(&self) -> EffectTechnique<'_> {
        technique(self, "EnvironmentMapEffect")
    }

    /// `Parameters`: the parameters of XNA's `EnvironmentMapEffect.fx`, in its declaration
    /// order (see [`EffectParameterCollection`]). Held (read and set the property):
    /// `Texture`, `EnvironmentMap` (of type `TextureCube`: `set_value` takes a
    /// `&Arc<TextureCube>` and shares it as [`Self::set_environment_map`] does,
    /// `get_value_texture_cube` reads it), `EnvironmentMapSpecular`, `FresnelFactor`,
    /// `EnvironmentMapAmount`, `DirLight0Direction`, `DirLight0DiffuseColor` (and the same for
    /// lights 1 and 2; a disabled light's colour reaches the shader as black; the effect has no
    /// `DirLightNSpecularColor`, as XNA's has none), `FogColor`, `World`. Computed at `Apply`
    /// (read only): `DiffuseColor` (`Vector4`: DiffuseColor × Alpha, Alpha), `EmissiveColor`
    /// ((EmissiveColor + AmbientLightColor × DiffuseColor) × Alpha), `EyePosition`,
    /// `FogVector`, `WorldInverseTranspose`, `WorldViewProj` (World × View × Projection) and
    /// `ShaderIndex` (XNA's shader permutation: +1 without fog, +2 with FresnelFactor non-zero,
    /// +4 with EnvironmentMapSpecular non-zero, +8 with lights 1 and 2 off).
    pub fn parameters(&mut self) -> EffectParameterCollection<'_> {
        EffectParameterCollection::new(self)
    }

    /// XNA's `ShaderIndex` of the effect's values.
    fn shader_index(&self) -> i32 {
        let mut index = 0;
        if !self.fog_enabled {
            index += 1;
        }
        if self.fresnel_factor != 0.0 {
            index += 2;
        }
        if self.environment_map_specular != Vector3::ZERO {
            index += 4;
        }
        if !self.directional_light1.enabled && !self.directional_light2.enabled {
            index += 8;
        }
        index
    }

    fn check_values(&self) -> Result<()> {
        let [l0, l1, l2] = self.lights();
        LitValues {
            scalars: &[
                self.alpha,
                self.environment_map_amount,
                self.fresnel_factor,
                self.fog_start,
                self.fog_end,
            ],
            colors: &[
                self.diffuse_color,
                self.emissive_color,
                self.ambient_light_color,
                self.environment_map_specular,
                self.fog_color,
            ],
            lights: [l0, l1, l2],
            light_specular: false,
        }
        .check()
    }

    fn lights(&self) -> [&DirectionalLight; 3] {
        [&self.directional_light0, &self.directional_light1, &self.directional_light2]
    }

    /// The cube map's state, or XNA's error for none or a disposed one.
    fn environment_map_state(&self) -> Result<Arc<TextureState>> {
        match &self.environment_map {
            Some(cube) => cube.core.state(),
            None => Err(XnaError::invalid_operation(
                "EnvironmentMapEffect.EnvironmentMap is null: the effect samples it.",
            )),
        }
    }
}

/// `EnvironmentMapEffect.fx`'s parameters, in its declaration order.
const ENVIRONMENT_MAP_PARAMETERS: &[StockParameterInfo] = &[
    held("Texture", T::Texture2D),
    held("EnvironmentMap", T::TextureCube),
    held("EnvironmentMapSpecular", T::Vector3),
    held("FresnelFactor", T::Single),
    held("EnvironmentMapAmount", T::Single),
    computed("DiffuseColor", T::Vector4, "DiffuseColor and Alpha"),
    computed("EmissiveColor", T::Vector3, "EmissiveColor, AmbientLightColor, DiffuseColor, Alpha"),
    held("DirLight0Direction", T::Vector3),
    held("DirLight0DiffuseColor", T::Vector3),
    held("DirLight1Direction", T::Vector3),
    held("DirLight1DiffuseColor", T::Vector3),
    held("DirLight2Direction", T::Vector3),
    held("DirLight2DiffuseColor", T::Vector3),
    computed("EyePosition", T::Vector3, "View"),
    held("FogColor", T::Vector3),
    computed("FogVector", T::Vector4, "FogEnabled, FogStart, FogEnd, World and View"),
    held("World", T::Matrix),
    computed("WorldInverseTranspose", T::Matrix, "World"),
    computed("WorldViewProj", T::Matrix, "World, View and Projection"),
    computed("ShaderIndex", T::Int32, "the effect's values"),
];

impl StockParameters for EnvironmentMapEffect {
    fn table(&self) -> &'static [StockParameterInfo] {
        ENVIRONMENT_MAP_PARAMETERS
    }

    fn read(&self, index: usize) -> StockValue {
        let (d, a) = (self.diffuse_color, self.alpha.clamp(0.0, 1.0));
        match ENVIRONMENT_MAP_PARAMETERS[index].name {
            "Texture" => StockValue::Texture(self.texture.clone()),
            "EnvironmentMap" => StockValue::Cube(self.environment_map.clone()),
            "EnvironmentMapSpecular" => StockValue::Vector3(self.environment_map_specular),
            "FresnelFactor" => StockValue::Single(self.fresnel_factor),
            "EnvironmentMapAmount" => StockValue::Single(self.environment_map_amount),
            "DiffuseColor" => StockValue::Vector4(Vector4::new(d.x * a, d.y * a, d.z * a, a)),
            "EmissiveColor" => {
                StockValue::Vector3((self.emissive_color + self.ambient_light_color * d) * a)
            }
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
            "WorldViewProj" => StockValue::Matrix(self.world.mul(&self.view).mul(&self.projection)),
            "ShaderIndex" => StockValue::Int32(self.shader_index()),
            other => {
                let (n, field) = light_field(other).unwrap_or((0, "Direction"));
                StockValue::Vector3(light_value(self.lights()[n], field))
            }
        }
    }

    fn write(&mut self, index: usize, value: StockValue) {
        match (ENVIRONMENT_MAP_PARAMETERS[index].name, value) {
            ("Texture", StockValue::Texture(t)) => self.texture = t,
            ("EnvironmentMap", StockValue::Cube(c)) => self.environment_map = c,
            ("EnvironmentMapSpecular", StockValue::Vector3(v)) => self.environment_map_specular = v,
            ("FresnelFactor", StockValue::Single(v)) => self.fresnel_factor = v,
            ("EnvironmentMapAmount", StockValue::Single(v)) => self.environment_map_amount = v,
            ("FogColor", StockValue::Vector3(v)) => self.fog_color = v,
            ("World", StockValue::Matrix(m)) => self.world = m,
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

matrices_and_fog!(EnvironmentMapEffect);

impl StockEffect for EnvironmentMapEffect {
    fn device(&self) -> &Arc<DeviceShared> {
        &self.device
    }

    fn device_textures(&self) -> Vec<(usize, Arc<dyn BoundTexture>)> {
        let cube = self
            .environment_map
            .clone()
            .map(|c| (1, Arc::new(CubeRef(c)) as Arc<dyn BoundTexture>));
        [slot_of(0, &self.texture), cube].into_iter().flatten().collect()
    }

    fn applied_with(&self, texture0: Option<Arc<TextureState>>) -> Result<AppliedEffect> {
        self.check_values()?;
        let texture = match (texture0, &self.texture) {
            (Some(t), _) => t,
            (None, Some(t)) => t.core.state()?,
            (None, None) => {
                return Err(XnaError::invalid_operation(
                    "EnvironmentMapEffect.Texture is null: the effect samples it.",
                ))
            }
        };
        let environment_map = self.environment_map_state()?;
        let a = self.alpha.clamp(0.0, 1.0);
        let d = self.diffuse_color;
        let world_view = self.world.mul(&self.view);
        let emissive = (self.emissive_color + self.ambient_light_color * d) * a;
        let mut floats = [0.0; xnagraph_graph::MATERIAL_FLOATS];
        let mut block = Block::new(&mut floats);
        block
            .mat4(&self.world)
            .mat4(&self.world.invert().transpose())
            .vec3(d * a, a)
            .vec3(emissive, self.environment_map_amount)
            .vec3(self.eye.eye_position(&self.view), self.fresnel_factor)
            .vec3(self.environment_map_specular, 0.0)
            .vec3(self.fog_color, 0.0)
            .vec4(fog_vector(self.fog_enabled, &world_view, self.fog_start, self.fog_end));
        block.lights(self.lights(), false);
        // XNA's shader index: Fresnel when FresnelFactor is non-zero, specular when
        // EnvironmentMapSpecular is, one light when lights 1 and 2 are off.
        let one_light = !self.directional_light1.enabled && !self.directional_light2.enabled;
        block.vec4([
            switch(self.fresnel_factor != 0.0),
            switch(self.environment_map_specular != Vector3::ZERO),
            switch(one_light),
            switch(self.fog_enabled),
        ]);
        Ok(AppliedEffect {
            transform: clip_transform_of(&world_view, &self.projection),
            material: block.material(StockShader::EnvironmentMap),
            basic: None,
            texture,
            texture2: Some(environment_map),
            bones: Vec::new(),
            needs_color: false,
            needs_texture_coordinate: true,
            needs_normal: true,
            needs_texture_coordinate1: false,
            needs_skinning: false,
            reads_slots: [false; 2],
        })
    }
}
