//! XNA's `DualTextureEffect`: two textures, the second read at `TextureCoordinate1`, combined
//! with Direct3D's 2× modulate (`Texture` × 2 × `Texture2`), times the material and optionally
//! the vertex colour, optionally fogged. One technique with one pass; the shaders are
//! `shaders/glsl/dual_texture.*`. `Texture` is sampled with `SamplerStates[0]`, `Texture2` with
//! `SamplerStates[1]`.

use std::sync::Arc;

use xnagraph_graph::{StockShader, TextureState};

use crate::device::draw_state::{AppliedEffect, BoundTexture};
use crate::device::shared::DeviceShared;
use crate::device::GraphicsDevice;
use crate::effects::custom::ParameterType as T;
use crate::effects::parameters::{
    computed, held, EffectParameterCollection, StockParameterInfo, StockParameters, StockValue,
};
use crate::effects::stock::{clip_transform, fog_vector, slot_of, switch, Block, StockEffect};
use crate::effects::technique::{check_geometry, technique, EffectTechnique};
use crate::effects::traits::matrices_and_fog;
use crate::error::{Result, XnaError};
use crate::math::{Matrix, Vector3, Vector4};
use crate::resources::texture::{Texture2D, TextureRef};

/// XNA's `DualTextureEffect` (see the module doc).
///
/// `clone()` is XNA's `Effect.Clone()`: a second effect with the same values, referencing the
/// same textures. A loaded material ([`crate::ContentManager::load`]) is shared as XNA shares it;
/// a game that wants to change one copy for itself clones it.
#[derive(Clone)]
pub struct DualTextureEffect {
    device: Arc<DeviceShared>,
    /// `World` (default identity): object space to world space.
    pub world: Matrix,
    /// `View` (default identity): world space to view space.
    pub view: Matrix,
    /// `Projection` (default identity): view space to clip space.
    pub projection: Matrix,
    /// `DiffuseColor` (RGB, default white).
    pub diffuse_color: Vector3,
    /// `Alpha` (default 1): multiplies the colour, premultiplied. Clamped to 0..=1 at `Apply`;
    /// XNA hands the shader the value as set.
    pub alpha: f32,
    /// `VertexColorEnabled`: multiply by each vertex's `Color0`.
    pub vertex_color_enabled: bool,
    /// `FogEnabled` (default off).
    pub fog_enabled: bool,
    /// `FogColor` (default black).
    pub fog_color: Vector3,
    /// `FogStart` (default 0): the view-space depth where fog begins.
    pub fog_start: f32,
    /// `FogEnd` (default 1): the view-space depth where the colour is all fog.
    pub fog_end: f32,
    texture: Option<TextureRef>,
    texture2: Option<TextureRef>,
}

impl std::fmt::Debug for DualTextureEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DualTextureEffect")
            .field("vertex_color_enabled", &self.vertex_color_enabled)
            .field("fog_enabled", &self.fog_enabled)
            .finish()
    }
}

impl DualTextureEffect {
    /// `new DualTextureEffect(device)`: identity matrices, white, opaque, no vertex colour, no
    /// fog, no textures (both must be set before `Apply`).
    pub fn new(device: &GraphicsDevice) -> Result<Self> {
        check_geometry(device, "DualTextureEffect")?;
        Ok(DualTextureEffect {
            device: device.shared.clone(),
            world: Matrix::IDENTITY,
            view: Matrix::IDENTITY,
            projection: Matrix::IDENTITY,
            diffuse_color: Vector3::ONE,
            alpha: 1.0,
            vertex_color_enabled: false,
            fog_enabled: false,
            fog_color: Vector3::ZERO,
            fog_start: 0.0,
            fog_end: 1.0,
            texture: None,
            texture2: None,
        })
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

    /// `Texture2` (default none): the second texture, read at `TextureCoordinate1`.
    pub fn texture2(&self) -> Option<&Texture2D> {
        self.texture2.as_deref()
    }

    /// Sets `Texture2`. The effect references the game's texture, as XNA's effect holds the object
    /// it was given: what the game later writes into it is what the effect samples, a texture the
    /// game disposed is `ObjectDisposed` at `Apply`, and one the game merely dropped lives while
    /// the effect references it. `texture2()` returns that same resource (same `resource_id`).
    pub fn set_texture2(&mut self, texture: Option<&Texture2D>) {
        self.texture2 = texture.map(TextureRef::new);
    }

    /// `CurrentTechnique`: one technique with one pass.
    pub fn current_technique(&self) -> EffectTechnique<'_> {
        technique(self, "DualTextureEffect")
    }

    /// `Parameters`: the parameters of XNA's `DualTextureEffect.fx` (see
    /// [`EffectParameterCollection`]). Held (read and set the property): `Texture`,
    /// `Texture2`, `FogColor`. Computed at `Apply` (read only): `DiffuseColor` (`Vector4`:
    /// DiffuseColor × Alpha, Alpha), `FogVector`, `WorldViewProj` and `ShaderIndex` (+1
    /// without fog, +2 vertex colour).
    pub fn parameters(&mut self) -> EffectParameterCollection<'_> {
        EffectParameterCollection::new(self)
    }
}

/// `DualTextureEffect.fx`'s parameters, in its declaration order.
const DUAL_TEXTURE_PARAMETERS: &[StockParameterInfo] = &[
    held("Texture", T::Texture2D),
    held("Texture2", T::Texture2D),
    computed("DiffuseColor", T::Vector4, "DiffuseColor and Alpha"),
    held("FogColor", T::Vector3),
    computed("FogVector", T::Vector4, "FogEnabled, FogStart, FogEnd, World and View"),
    computed("WorldViewProj", T::Matrix, "World, View and Projection"),
    computed("ShaderIndex", T::Int32, "the effect's switches"),
];

impl StockParameters for DualTextureEffect {
    fn table(&self) -> &'static [StockParameterInfo] {
        DUAL_TEXTURE_PARAMETERS
    }

    fn read(&self, index: usize) -> StockValue {
        let v4 = |[x, y, z, w]: [f32; 4]| StockValue::Vector4(Vector4::new(x, y, z, w));
        match DUAL_TEXTURE_PARAMETERS[index].name {
            "Texture" => StockValue::Texture(self.texture.clone()),
            "Texture2" => StockValue::Texture(self.texture2.clone()),
            "DiffuseColor" => {
                let a = self.alpha.clamp(0.0, 1.0);
                let d = self.diffuse_color * a;
                v4([d.x, d.y, d.z, a])
            }
            "FogColor" => StockValue::Vector3(self.fog_color),
            "FogVector" => v4(fog_vector(
                self.fog_enabled,
                &self.world.mul(&self.view),
                self.fog_start,
                self.fog_end,
            )),
            "WorldViewProj" => StockValue::Matrix(self.world.mul(&self.view).mul(&self.projection)),
            _ => StockValue::Int32(
                i32::from(!self.fog_enabled) + 2 * i32::from(self.vertex_color_enabled),
            ),
        }
    }

    fn write(&mut self, index: usize, value: StockValue) {
        match (DUAL_TEXTURE_PARAMETERS[index].name, value) {
            ("Texture", StockValue::Texture(t)) => self.texture = t,
            ("Texture2", StockValue::Texture(t)) => self.texture2 = t,
            ("FogColor", StockValue::Vector3(v)) => self.fog_color = v,
            _ => {}
        }
    }
}

matrices_and_fog!(DualTextureEffect);

impl StockEffect for DualTextureEffect {
    fn device(&self) -> &Arc<DeviceShared> {
        &self.device
    }

    fn device_textures(&self) -> Vec<(usize, Arc<dyn BoundTexture>)> {
        [slot_of(0, &self.texture), slot_of(1, &self.texture2)].into_iter().flatten().collect()
    }

    fn applied_with(&self, texture0: Option<Arc<TextureState>>) -> Result<AppliedEffect> {
        let d = self.diffuse_color;
        let f = self.fog_color;
        let values = [self.alpha, d.x, d.y, d.z, f.x, f.y, f.z, self.fog_start, self.fog_end];
        crate::finite::check_finite(&[("value", &values)])?;
        let state = |t: &Option<TextureRef>, name: &str| match t {
            Some(t) => t.core.state(),
            None => Err(XnaError::invalid_operation(format!(
                "DualTextureEffect.{name} is null: the effect samples it."
            ))),
        };
        let texture = match texture0 {
            Some(t) => t,
            None => state(&self.texture, "Texture")?,
        };
        let texture2 = state(&self.texture2, "Texture2")?;
        let a = self.alpha.clamp(0.0, 1.0);
        let world_view = self.world.mul(&self.view);
        let mut floats = [0.0; xnagraph_graph::MATERIAL_FLOATS];
        let mut block = Block::new(&mut floats);
        block
            .vec3(d * a, a)
            .vec3(f, 0.0)
            .vec4(fog_vector(self.fog_enabled, &world_view, self.fog_start, self.fog_end))
            .vec4([switch(self.vertex_color_enabled), switch(self.fog_enabled), 0.0, 0.0]);
        Ok(AppliedEffect {
            transform: clip_transform(&self.world, &self.view, &self.projection),
            material: block.material(StockShader::DualTexture),
            basic: None,
            texture,
            texture2: Some(texture2),
            bones: Vec::new(),
            needs_color: self.vertex_color_enabled,
            needs_texture_coordinate: true,
            needs_normal: false,
            needs_texture_coordinate1: true,
            needs_skinning: false,
            reads_slots: [false; 2],
        })
    }
}
