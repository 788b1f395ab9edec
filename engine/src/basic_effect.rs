//! XNA's `BasicEffect` (unlit): World, View, Projection, DiffuseColor, EmissiveColor, Alpha,
//! VertexColorEnabled, TextureEnabled and Texture, with its one technique and pass.
//!
//! `EffectPass::apply` records the effect's values into the device as they are at the call (the
//! stock shader's uniform block, its texture and which vertex elements it reads); draws that
//! follow use them until the next `apply`, as in XNA. The shader is `shaders/glsl/basic.*`.

use std::sync::Arc;

use xnagraph_graph::{BasicMaterial, TextureState};

use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::math::{Matrix, Vector3};
use crate::shared::DeviceShared;
use crate::texture::Texture2D;

/// What `EffectPass::apply` left on the device for the draws that follow.
#[derive(Clone, Debug)]
pub(crate) struct AppliedEffect {
    /// World × View × Projection, then y flipped for Vulkan's clip space; column-major.
    pub transform: [f32; 16],
    pub material: BasicMaterial,
    /// The texture sampled (a white texel when `TextureEnabled` is off).
    pub texture: Arc<TextureState>,
    /// The vertex declaration must have `Color0`.
    pub needs_color: bool,
    /// The vertex declaration must have `TextureCoordinate0`.
    pub needs_texture_coordinate: bool,
}

/// XNA's `BasicEffect`, without lighting or fog (see the module doc).
pub struct BasicEffect {
    device: Arc<DeviceShared>,
    /// One white texel: what an untextured draw samples.
    white: Texture2D,
    /// `World`.
    pub world: Matrix,
    /// `View`.
    pub view: Matrix,
    /// `Projection`.
    pub projection: Matrix,
    /// `DiffuseColor` (RGB, default white).
    pub diffuse_color: Vector3,
    /// `EmissiveColor` (RGB, default black): added to the diffuse colour while lighting is off.
    pub emissive_color: Vector3,
    /// `Alpha` (default 1): multiplies the colour, premultiplied.
    pub alpha: f32,
    /// `VertexColorEnabled`: multiply by each vertex's `Color0`.
    pub vertex_color_enabled: bool,
    /// `TextureEnabled`: multiply by `Texture` sampled at `TextureCoordinate0` with
    /// `GraphicsDevice.SamplerStates[0]`.
    pub texture_enabled: bool,
    texture: Option<Texture2D>,
}

impl std::fmt::Debug for BasicEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BasicEffect")
            .field("vertex_color_enabled", &self.vertex_color_enabled)
            .field("texture_enabled", &self.texture_enabled)
            .finish()
    }
}

/// XNA's `EffectTechnique` of a [`BasicEffect`]: one pass.
#[derive(Debug)]
pub struct EffectTechnique<'a> {
    effect: &'a BasicEffect,
}

/// XNA's `EffectPass`: [`EffectPass::apply`] records the effect's state on the device.
#[derive(Debug)]
pub struct EffectPass<'a> {
    effect: &'a BasicEffect,
}

impl BasicEffect {
    /// `new BasicEffect(device)`: identity matrices, white, opaque, no vertex colour, no
    /// texture.
    pub fn new(device: &GraphicsDevice) -> Result<Self> {
        device.shared.check_alive()?;
        if !device.shared.caps.geometry {
            return Err(XnaError::not_supported(
                "BasicEffect is not supported by the active renderer (it lowers no geometry).",
            ));
        }
        let white = Texture2D::new(device, 1, 1)?;
        white.set_data(&[0xFFFF_FFFFu32])?;
        Ok(BasicEffect {
            device: device.shared.clone(),
            white,
            world: Matrix::IDENTITY,
            view: Matrix::IDENTITY,
            projection: Matrix::IDENTITY,
            diffuse_color: Vector3::new(1.0, 1.0, 1.0),
            emissive_color: Vector3::ZERO,
            alpha: 1.0,
            vertex_color_enabled: false,
            texture_enabled: false,
            texture: None,
        })
    }

    /// `Texture`.
    pub fn texture(&self) -> Option<&Texture2D> {
        self.texture.as_ref()
    }

    /// Sets `Texture` (the effect keeps a wrapper over the same texture).
    pub fn set_texture(&mut self, texture: Option<&Texture2D>) {
        self.texture = texture.cloned();
    }

    /// `CurrentTechnique` (BasicEffect picks its shader from its switches; it has one
    /// technique with one pass).
    pub fn current_technique(&self) -> EffectTechnique<'_> {
        EffectTechnique { effect: self }
    }

    fn applied(&self) -> Result<AppliedEffect> {
        let values = [self.alpha, self.diffuse_color.x, self.diffuse_color.y, self.diffuse_color.z];
        let emissive = [self.emissive_color.x, self.emissive_color.y, self.emissive_color.z];
        crate::finite::check_finite(&[("value", &values), ("value", &emissive)])?;
        let texture = match (self.texture_enabled, &self.texture) {
            (true, Some(t)) => t.core.state()?,
            (true, None) => {
                return Err(XnaError::invalid_operation(
                    "BasicEffect.TextureEnabled is set but BasicEffect.Texture is null.",
                ))
            }
            (false, _) => self.white.core.state()?,
        };
        let flip = Matrix::create_scale(1.0, -1.0, 1.0);
        let wvp = self.world.mul(&self.view).mul(&self.projection).mul(&flip);
        let a = self.alpha.clamp(0.0, 1.0);
        let d = self.diffuse_color;
        let e = self.emissive_color;
        let material = BasicMaterial {
            diffuse: [(d.x + e.x) * a, (d.y + e.y) * a, (d.z + e.z) * a, a],
            flags: [
                f32::from(u8::from(self.vertex_color_enabled)),
                f32::from(u8::from(self.texture_enabled)),
                0.0,
                0.0,
            ],
        };
        Ok(AppliedEffect {
            transform: wvp.to_column_major(),
            material,
            texture,
            needs_color: self.vertex_color_enabled,
            needs_texture_coordinate: self.texture_enabled,
        })
    }
}

impl<'a> EffectTechnique<'a> {
    /// `Name`.
    pub fn name(&self) -> &'static str {
        "BasicEffect"
    }

    /// `Passes`: the one pass.
    pub fn passes(&self) -> [EffectPass<'a>; 1] {
        [EffectPass { effect: self.effect }]
    }
}

impl EffectPass<'_> {
    /// `Name`.
    pub fn name(&self) -> &'static str {
        "BasicEffect"
    }

    /// `Apply`: the effect's values as they are now become the device's for the draws that
    /// follow. A NaN or infinite colour or alpha is `ArgumentException`; `TextureEnabled` without
    /// a `Texture` is `InvalidOperationException` (XNA would sample an unset texture); a
    /// disposed texture is `ObjectDisposedException`.
    pub fn apply(&self) -> Result<()> {
        let device = &self.effect.device;
        device.check_alive()?;
        let applied = self.effect.applied()?;
        lock(&device.rec).draw.effect = Some(applied);
        Ok(())
    }
}
