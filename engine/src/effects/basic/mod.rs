//! XNA's `BasicEffect`: World, View, Projection, DiffuseColor, EmissiveColor, SpecularColor,
//! SpecularPower, Alpha, VertexColorEnabled, TextureEnabled and Texture, LightingEnabled with
//! AmbientLightColor and three directional lights (EnableDefaultLighting), per-vertex or per-pixel
//! lighting (PreferPerPixelLighting), and linear fog; one technique with one pass.
//!
//! `EffectPass::apply` records the effect's values into the device as they are at the call (the
//! stock shader's uniform block, its texture and which vertex elements it reads); draws that
//! follow use them until the next `apply`, as in XNA. The values are those XNA's BasicEffect
//! hands its shaders: with lighting on, the diffuse colour is DiffuseColor × Alpha and the
//! emissive term (EmissiveColor + AmbientLightColor × DiffuseColor) × Alpha; with lighting off,
//! the colour is (DiffuseColor + EmissiveColor) × Alpha. The shaders are `shaders/glsl/basic.*`.

mod apply;

use std::sync::Arc;

use xnagraph_graph::TextureState;

use crate::device::profile::GraphicsProfile;
use crate::device::shared::DeviceShared;
use crate::device::GraphicsDevice;
use crate::effects::custom::ParameterType as T;
use crate::effects::parameters::{
    computed, held, EffectParameterCollection, StockParameterInfo, StockParameters, StockValue,
};
use crate::effects::stock::{default_lighting, DirectionalLight, EyeCache, LitValues};
use crate::effects::technique::{check_geometry, technique, white_texel, EffectTechnique};
use crate::effects::traits::{matrices_and_fog, EffectLights};
use crate::error::Result;
use crate::finite;
use crate::math::{Matrix, Vector3, Vector4};
use crate::resources::texture::{Texture2D, TextureRef};

/// XNA's `BasicEffect` (see the module doc).
///
/// `clone()` is XNA's `Effect.Clone()`: a second effect with the same values, referencing the
/// same textures. A loaded material ([`crate::ContentManager::load`]) is shared as XNA shares it;
/// a game that wants to change one copy for itself clones it.
pub struct BasicEffect {
    device: Arc<DeviceShared>,
    /// One white texel: what an untextured draw samples.
    white: Texture2D,
    /// Its backend state, which stays the same: the texel is written once, before anything
    /// shares it, so nothing renames it (see `Texture2D::set_data`). `Apply` clones this
    /// rather than taking the texture's lock.
    white_state: Arc<TextureState>,
    /// `World` (default identity): object space to world space.
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
    /// `VertexColorEnabled`: multiply by each vertex's `Color0`.
    pub vertex_color_enabled: bool,
    /// `TextureEnabled`: multiply by `Texture` sampled at `TextureCoordinate0` with
    /// `GraphicsDevice.SamplerStates[0]`.
    pub texture_enabled: bool,
    /// `LightingEnabled` (default off): light with the ambient colour and the three directional
    /// lights; the vertex declaration then needs `Normal0`.
    pub lighting_enabled: bool,
    /// `PreferPerPixelLighting` (default off): light each pixel rather than each vertex. As in
    /// XNA, only a HiDef device honours it; a Reach device lights per vertex.
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
}

impl Clone for BasicEffect {
    fn clone(&self) -> Self {
        BasicEffect {
            device: self.device.clone(),
            white: self.white.share(),
            white_state: self.white_state.clone(),
            world: self.world,
            view: self.view,
            projection: self.projection,
            diffuse_color: self.diffuse_color,
            emissive_color: self.emissive_color,
            specular_color: self.specular_color,
            specular_power: self.specular_power,
            alpha: self.alpha,
            vertex_color_enabled: self.vertex_color_enabled,
            texture_enabled: self.texture_enabled,
            lighting_enabled: self.lighting_enabled,
            prefer_per_pixel_lighting: self.prefer_per_pixel_lighting,
            ambient_light_color: self.ambient_light_color,
            directional_light0: self.directional_light0,
            directional_light1: self.directional_light1,
            directional_light2: self.directional_light2,
            fog_enabled: self.fog_enabled,
            fog_color: self.fog_color,
            fog_start: self.fog_start,
            fog_end: self.fog_end,
            texture: self.texture.clone(),
            eye: self.eye.clone(),
        }
    }
}

impl std::fmt::Debug for BasicEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BasicEffect")
            .field("vertex_color_enabled", &self.vertex_color_enabled)
            .field("texture_enabled", &self.texture_enabled)
            .field("lighting_enabled", &self.lighting_enabled)
            .field("fog_enabled", &self.fog_enabled)
            .finish()
    }
}

impl BasicEffect {
    /// `new BasicEffect(device)`: identity matrices, white, opaque, no vertex colour, no
    /// texture, lighting off (with `DirectionalLight0` enabled for when it is turned on),
    /// white specular of power 16, fog off.
    pub fn new(device: &GraphicsDevice) -> Result<Self> {
        check_geometry(device, "BasicEffect")?;
        let white = white_texel(device)?;
        Ok(BasicEffect {
            device: device.shared.clone(),
            white_state: white.core.state()?,
            white,
            world: Matrix::IDENTITY,
            view: Matrix::IDENTITY,
            projection: Matrix::IDENTITY,
            diffuse_color: Vector3::ONE,
            emissive_color: Vector3::ZERO,
            specular_color: Vector3::ONE,
            specular_power: 16.0,
            alpha: 1.0,
            vertex_color_enabled: false,
            texture_enabled: false,
            lighting_enabled: false,
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
        })
    }

    /// `EnableDefaultLighting`: lighting on, XNA's standard three-light rig (a warm key light
    /// from above left, a fill light from below right without specular, a cool back light) and
    /// its ambient colour.
    pub fn enable_default_lighting(&mut self) {
        let ([l0, l1, l2], ambient) = default_lighting();
        self.lighting_enabled = true;
        self.directional_light0 = l0;
        self.directional_light1 = l1;
        self.directional_light2 = l2;
        self.ambient_light_color = ambient;
    }

    /// `Texture` (default none): the texture set last, the game's own resource.
    pub fn texture(&self) -> Option<&Texture2D> {
        self.texture.as_deref()
    }

    /// Sets `Texture`. The effect references the game's texture, as XNA's effect holds the object
    /// it was given: what the game later writes into it is what the effect samples, a texture the
    /// game disposed is `ObjectDisposed` at `Apply`, and one the game merely dropped lives while
    /// the effect references it. `texture()` returns that same resource (same `resource_id`).
    pub fn set_texture(&mut self, texture: Option<&Texture2D>) {
        self.texture = texture.map(TextureRef::new);
    }

    /// `CurrentTechnique` (BasicEffect picks its shader from its switches; it has one
    /// technique with one pass).
    pub fn current_technique(&self) -> EffectTechnique<'_> {
        technique(self, "BasicEffect")
    }

    /// `Parameters`: the parameters of XNA's `BasicEffect.fx` (see
    /// [`EffectParameterCollection`]). Held (read and set the property): `Texture`,
    /// `SpecularColor`, `SpecularPower`, `DirLight0Direction`, `DirLight0DiffuseColor`,
    /// `DirLight0SpecularColor` (and the same for lights 1 and 2; a disabled light's colours
    /// reach the shader as black), `FogColor`, `World`. Computed at `Apply` (read only):
    /// `DiffuseColor` (`Vector4`: the colour with alpha, and with EmissiveColor folded in when
    /// unlit), `EmissiveColor` (with AmbientLightColor × DiffuseColor folded in when lit),
    /// `EyePosition`, `FogVector`, `WorldInverseTranspose`, `WorldViewProj` (World × View ×
    /// Projection) and `ShaderIndex` (XNA's shader permutation: +1 without fog, +2 vertex
    /// colour, +4 texture, +8 per-vertex lighting with several lights, +16 with one light, +24
    /// per pixel).
    pub fn parameters(&mut self) -> EffectParameterCollection<'_> {
        EffectParameterCollection::new(self)
    }

    /// Whether the lights are computed per pixel: asked for, and on a HiDef device.
    fn per_pixel(&self) -> bool {
        self.prefer_per_pixel_lighting && self.device.profile == GraphicsProfile::HiDef
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

    /// [`Self::check_values`] of the values a draw of a run has of its own: the rest is as the
    /// last `Apply` checked it.
    fn check_draw_values(&self) -> Result<()> {
        let xyz = |v: Vector3| [v.x, v.y, v.z];
        let finite = finite::all_finite(&[self.alpha, self.specular_power])
            && finite::all_finite(&xyz(self.diffuse_color))
            && finite::all_finite(&xyz(self.emissive_color))
            && finite::all_finite(&xyz(self.specular_color));
        match finite {
            true => Ok(()),
            false => Err(finite::not_finite("value")),
        }
    }

    fn lights(&self) -> [&DirectionalLight; 3] {
        [&self.directional_light0, &self.directional_light1, &self.directional_light2]
    }
}

/// `BasicEffect.fx`'s parameters, in its declaration order.
const BASIC_PARAMETERS: &[StockParameterInfo] = &[
    held("Texture", T::Texture2D),
    computed("DiffuseColor", T::Vector4, "DiffuseColor, EmissiveColor, Alpha and LightingEnabled"),
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
    computed("WorldViewProj", T::Matrix, "World, View and Projection"),
    computed("ShaderIndex", T::Int32, "the effect's switches"),
];

impl BasicEffect {
    /// The light a `DirLightN...` parameter names, and the rest of its name.
    fn light_of<'n>(&mut self, name: &'n str) -> Option<(&mut DirectionalLight, &'n str)> {
        let rest = name.strip_prefix("DirLight")?;
        let (n, field) = rest.split_at(1);
        let light = match n {
            "0" => &mut self.directional_light0,
            "1" => &mut self.directional_light1,
            "2" => &mut self.directional_light2,
            _ => return None,
        };
        Some((light, field))
    }

    /// XNA's `ShaderIndex` of the effect's switches.
    fn shader_index(&self) -> i32 {
        let mut index = 0;
        if !self.fog_enabled {
            index += 1;
        }
        if self.vertex_color_enabled {
            index += 2;
        }
        if self.texture_enabled {
            index += 4;
        }
        if self.lighting_enabled {
            let one_light = !self.directional_light1.enabled && !self.directional_light2.enabled;
            index += match (self.per_pixel(), one_light) {
                (true, _) => 24,
                (false, true) => 16,
                (false, false) => 8,
            };
        }
        index
    }
}

impl StockParameters for BasicEffect {
    fn table(&self) -> &'static [StockParameterInfo] {
        BASIC_PARAMETERS
    }

    fn read(&self, index: usize) -> StockValue {
        // The values `Apply` derives, as it derives them.
        let own = || self.run_basis().own_values(&self.draw_values());
        let lights = self.lights();
        let light = |name: &str| -> Option<Vector3> {
            let rest = name.strip_prefix("DirLight")?;
            let l = lights.get(rest.get(..1)?.parse::<usize>().ok()?)?;
            Some(match &rest[1..] {
                "Direction" => l.direction,
                "DiffuseColor" => l.diffuse_color,
                _ => l.specular_color,
            })
        };
        let name = BASIC_PARAMETERS[index].name;
        match name {
            "Texture" => StockValue::Texture(self.texture.clone()),
            "DiffuseColor" => {
                let [r, g, b, a] = own().diffuse;
                StockValue::Vector4(Vector4::new(r, g, b, a))
            }
            "EmissiveColor" => {
                let [r, g, b, _] = own().emissive;
                StockValue::Vector3(Vector3::new(r, g, b))
            }
            "SpecularColor" => StockValue::Vector3(self.specular_color),
            "SpecularPower" => StockValue::Single(self.specular_power),
            "EyePosition" => StockValue::Vector3(self.eye.eye_position(&self.view)),
            "FogColor" => StockValue::Vector3(self.fog_color),
            "FogVector" => {
                let [x, y, z, w] = own().fog;
                StockValue::Vector4(Vector4::new(x, y, z, w))
            }
            "World" => StockValue::Matrix(self.world),
            "WorldInverseTranspose" => StockValue::Matrix(own().world_inverse_transpose),
            "WorldViewProj" => StockValue::Matrix(self.world.mul(&self.view).mul(&self.projection)),
            "ShaderIndex" => StockValue::Int32(self.shader_index()),
            other => StockValue::Vector3(light(other).unwrap_or(Vector3::ZERO)),
        }
    }

    fn write(&mut self, index: usize, value: StockValue) {
        let name = BASIC_PARAMETERS[index].name;
        match (name, value) {
            ("Texture", StockValue::Texture(t)) => self.texture = t,
            ("SpecularColor", StockValue::Vector3(v)) => self.specular_color = v,
            ("SpecularPower", StockValue::Single(v)) => self.specular_power = v,
            ("FogColor", StockValue::Vector3(v)) => self.fog_color = v,
            ("World", StockValue::Matrix(m)) => self.world = m,
            (other, StockValue::Vector3(v)) => {
                if let Some((light, field)) = self.light_of(other) {
                    match field {
                        "Direction" => light.direction = v,
                        "DiffuseColor" => light.diffuse_color = v,
                        _ => light.specular_color = v,
                    }
                }
            }
            _ => {}
        }
    }
}

matrices_and_fog!(BasicEffect);

impl EffectLights for BasicEffect {
    fn lighting_enabled(&self) -> bool {
        self.lighting_enabled
    }
    fn set_lighting_enabled(&mut self, value: bool) {
        self.lighting_enabled = value;
    }
    fn ambient_light_color(&self) -> Vector3 {
        self.ambient_light_color
    }
    fn set_ambient_light_color(&mut self, value: Vector3) {
        self.ambient_light_color = value;
    }
    fn directional_light(&mut self, index: usize) -> &mut DirectionalLight {
        match index {
            0 => &mut self.directional_light0,
            1 => &mut self.directional_light1,
            _ => &mut self.directional_light2,
        }
    }
    fn enable_default_lighting(&mut self) {
        BasicEffect::enable_default_lighting(self);
    }
}
