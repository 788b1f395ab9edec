//! XNA's `AlphaTestEffect`: a textured, optionally vertex-coloured and fogged effect that keeps
//! only the pixels whose alpha passes `AlphaFunction` against `ReferenceAlpha`. One technique
//! with one pass; the shaders are `shaders/glsl/alpha_test.*`.
//!
//! The test is XNA's: the reference is `ReferenceAlpha / 255`, and the comparison allows half an
//! 8-bit step (Less and GreaterEqual compare with the reference minus it, LessEqual and Greater
//! with the reference plus it, Equal and NotEqual ask whether the alpha lies within it), so an
//! 8-bit alpha compares exactly as its integer would.

use std::sync::Arc;

use xnagraph_graph::{CompareFunction, StockShader, TextureState};

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

/// XNA's `AlphaTestEffect` (see the module doc).
///
/// `clone()` is XNA's `Effect.Clone()`: a second effect with the same values, referencing the
/// same textures. A loaded material ([`crate::ContentManager::load`]) is shared as XNA shares it;
/// a game that wants to change one copy for itself clones it.
#[derive(Clone)]
pub struct AlphaTestEffect {
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
    /// `AlphaFunction` (default `Greater`): how the pixel's alpha compares with the reference.
    pub alpha_function: CompareFunction,
    /// `ReferenceAlpha` (default 0), in 8-bit steps (XNA's `int`; a `u8` here, so a value
    /// outside 0..=255 cannot be set).
    pub reference_alpha: u8,
    /// `FogEnabled` (default off).
    pub fog_enabled: bool,
    /// `FogColor` (default black).
    pub fog_color: Vector3,
    /// `FogStart` (default 0): the view-space depth where fog begins.
    pub fog_start: f32,
    /// `FogEnd` (default 1): the view-space depth where the colour is all fog.
    pub fog_end: f32,
    texture: Option<TextureRef>,
}

impl std::fmt::Debug for AlphaTestEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaTestEffect")
            .field("alpha_function", &self.alpha_function)
            .field("reference_alpha", &self.reference_alpha)
            .finish()
    }
}

/// XNA's `AlphaTest` vector for the shader: (reference, tolerance, sign when the comparison
/// holds, sign when it does not), and whether it is the Equal/NotEqual form
/// (`|alpha − x| < y`) rather than `alpha < x`. A negative sign discards the pixel.
pub(crate) fn alpha_test_vector(function: CompareFunction, reference: u8) -> ([f32; 4], bool) {
    let r = f32::from(reference) / 255.0;
    let half = 0.5 / 255.0;
    use CompareFunction as C;
    match function {
        C::Less => ([r - half, 0.0, 1.0, -1.0], false),
        C::LessEqual => ([r + half, 0.0, 1.0, -1.0], false),
        C::GreaterEqual => ([r - half, 0.0, -1.0, 1.0], false),
        C::Greater => ([r + half, 0.0, -1.0, 1.0], false),
        C::Equal => ([r, half, 1.0, -1.0], true),
        C::NotEqual => ([r, half, -1.0, 1.0], true),
        C::Never => ([0.0, 0.0, -1.0, -1.0], false),
        C::Always => ([0.0, 0.0, 1.0, 1.0], false),
    }
}

impl AlphaTestEffect {
    /// `new AlphaTestEffect(device)`: identity matrices, white, opaque, `Greater` than 0, no
    /// vertex colour, no fog, no texture (one must be set before `Apply`).
    pub fn new(device: &GraphicsDevice) -> Result<Self> {
        check_geometry(device, "AlphaTestEffect")?;
        Ok(AlphaTestEffect {
            device: device.shared.clone(),
            world: Matrix::IDENTITY,
            view: Matrix::IDENTITY,
            projection: Matrix::IDENTITY,
            diffuse_color: Vector3::ONE,
            alpha: 1.0,
            vertex_color_enabled: false,
            alpha_function: CompareFunction::Greater,
            reference_alpha: 0,
            fog_enabled: false,
            fog_color: Vector3::ZERO,
            fog_start: 0.0,
            fog_end: 1.0,
            texture: None,
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

    /// `CurrentTechnique`: one technique with one pass.
    pub fn current_technique(&self) -> EffectTechnique<'_> {
        technique(self, "AlphaTestEffect")
    }

    /// `Parameters`: the parameters of XNA's `AlphaTestEffect.fx` (see
    /// [`EffectParameterCollection`]). Held (read and set the property): `Texture`,
    /// `FogColor`. Computed at `Apply` (read only): `DiffuseColor` (`Vector4`: DiffuseColor ×
    /// Alpha, Alpha), `AlphaTest` (the reference with half an 8-bit step and the signs of the
    /// comparison, see the module doc), `FogVector`, `WorldViewProj` and `ShaderIndex` (+1
    /// without fog, +2 vertex colour, +4 for Equal and NotEqual).
    pub fn parameters(&mut self) -> EffectParameterCollection<'_> {
        EffectParameterCollection::new(self)
    }
}

/// `AlphaTestEffect.fx`'s parameters, in its declaration order.
const ALPHA_TEST_PARAMETERS: &[StockParameterInfo] = &[
    held("Texture", T::Texture2D),
    computed("DiffuseColor", T::Vector4, "DiffuseColor and Alpha"),
    computed("AlphaTest", T::Vector4, "AlphaFunction and ReferenceAlpha"),
    held("FogColor", T::Vector3),
    computed("FogVector", T::Vector4, "FogEnabled, FogStart, FogEnd, World and View"),
    computed("WorldViewProj", T::Matrix, "World, View and Projection"),
    computed("ShaderIndex", T::Int32, "the effect's switches"),
];

impl StockParameters for AlphaTestEffect {
    fn table(&self) -> &'static [StockParameterInfo] {
        ALPHA_TEST_PARAMETERS
    }

    fn read(&self, index: usize) -> StockValue {
        let v4 = |[x, y, z, w]: [f32; 4]| StockValue::Vector4(Vector4::new(x, y, z, w));
        let (test, eq_ne) = alpha_test_vector(self.alpha_function, self.reference_alpha);
        match ALPHA_TEST_PARAMETERS[index].name {
            "Texture" => StockValue::Texture(self.texture.clone()),
            "DiffuseColor" => {
                let a = self.alpha.clamp(0.0, 1.0);
                let d = self.diffuse_color * a;
                v4([d.x, d.y, d.z, a])
            }
            "AlphaTest" => v4(test),
            "FogColor" => StockValue::Vector3(self.fog_color),
            "FogVector" => v4(fog_vector(
                self.fog_enabled,
                &self.world.mul(&self.view),
                self.fog_start,
                self.fog_end,
            )),
            "WorldViewProj" => StockValue::Matrix(self.world.mul(&self.view).mul(&self.projection)),
            _ => StockValue::Int32(
                i32::from(!self.fog_enabled)
                    + 2 * i32::from(self.vertex_color_enabled)
                    + 4 * i32::from(eq_ne),
            ),
        }
    }

    fn write(&mut self, index: usize, value: StockValue) {
        match (ALPHA_TEST_PARAMETERS[index].name, value) {
            ("Texture", StockValue::Texture(t)) => self.texture = t,
            ("FogColor", StockValue::Vector3(v)) => self.fog_color = v,
            _ => {}
        }
    }
}

matrices_and_fog!(AlphaTestEffect);

impl StockEffect for AlphaTestEffect {
    fn device(&self) -> &Arc<DeviceShared> {
        &self.device
    }

    fn device_textures(&self) -> Vec<(usize, Arc<dyn BoundTexture>)> {
        slot_of(0, &self.texture).into_iter().collect()
    }

    fn applied_with(&self, texture0: Option<Arc<TextureState>>) -> Result<AppliedEffect> {
        let d = self.diffuse_color;
        let f = self.fog_color;
        let values = [self.alpha, d.x, d.y, d.z, f.x, f.y, f.z, self.fog_start, self.fog_end];
        crate::finite::check_finite(&[("value", &values)])?;
        let texture = match (texture0, &self.texture) {
            (Some(t), _) => t,
            (None, Some(t)) => t.core.state()?,
            (None, None) => {
                return Err(XnaError::invalid_operation(
                    "AlphaTestEffect.Texture is null: the effect samples it.",
                ))
            }
        };
        let a = self.alpha.clamp(0.0, 1.0);
        let world_view = self.world.mul(&self.view);
        let (test, eq_ne) = alpha_test_vector(self.alpha_function, self.reference_alpha);
        let mut floats = [0.0; xnagraph_graph::MATERIAL_FLOATS];
        let mut block = Block::new(&mut floats);
        block
            .vec3(d * a, a)
            .vec4(test)
            .vec3(f, 0.0)
            .vec4(fog_vector(self.fog_enabled, &world_view, self.fog_start, self.fog_end))
            .vec4([
                switch(self.vertex_color_enabled),
                switch(eq_ne),
                switch(self.fog_enabled),
                0.0,
            ]);
        Ok(AppliedEffect {
            transform: clip_transform(&self.world, &self.view, &self.projection),
            material: block.material(StockShader::AlphaTest),
            basic: None,
            texture,
            texture2: None,
            bones: Vec::new(),
            needs_color: self.vertex_color_enabled,
            needs_texture_coordinate: true,
            needs_normal: false,
            needs_texture_coordinate1: false,
            needs_skinning: false,
            reads_slots: [false; 2],
        })
    }
}
