//! XNA's effect interfaces `IEffectMatrices`, `IEffectLights` and `IEffectFog`, so that code
//! generic over an effect (a model drawer setting the camera on whatever effect a mesh part
//! carries) drives every stock effect alike. As in XNA, `BasicEffect` implements all three;
//! `AlphaTestEffect` and `DualTextureEffect` implement the matrices and fog.

use crate::effects::stock::DirectionalLight;
use crate::math::{Matrix, Vector3};

/// XNA's `IEffectMatrices`: `World`, `View` and `Projection`.
pub trait EffectMatrices {
    /// `World`.
    fn world(&self) -> Matrix;
    /// Sets `World`.
    fn set_world(&mut self, value: Matrix);
    /// `View`.
    fn view(&self) -> Matrix;
    /// Sets `View`.
    fn set_view(&mut self, value: Matrix);
    /// `Projection`.
    fn projection(&self) -> Matrix;
    /// Sets `Projection`.
    fn set_projection(&mut self, value: Matrix);
}

/// XNA's `IEffectLights`: `LightingEnabled`, `AmbientLightColor`, the three directional
/// lights and `EnableDefaultLighting`.
pub trait EffectLights {
    /// `LightingEnabled`.
    fn lighting_enabled(&self) -> bool;
    /// Sets `LightingEnabled`.
    fn set_lighting_enabled(&mut self, value: bool);
    /// `AmbientLightColor`.
    fn ambient_light_color(&self) -> Vector3;
    /// Sets `AmbientLightColor`.
    fn set_ambient_light_color(&mut self, value: Vector3);
    /// `DirectionalLight0`, `DirectionalLight1` or `DirectionalLight2` (`index` 0 to 2; XNA
    /// hands out the light object, which the caller changes in place). An index past 2 is
    /// clamped to 2 (XNA has no fourth light to name).
    fn directional_light(&mut self, index: usize) -> &mut DirectionalLight;
    /// `EnableDefaultLighting()`: lighting on, XNA's three-light rig and its ambient colour.
    fn enable_default_lighting(&mut self);
}

/// XNA's `IEffectFog`: `FogEnabled`, `FogStart`, `FogEnd` and `FogColor`.
pub trait EffectFog {
    /// `FogEnabled`.
    fn fog_enabled(&self) -> bool;
    /// Sets `FogEnabled`.
    fn set_fog_enabled(&mut self, value: bool);
    /// `FogStart`: the view-space depth where fog begins.
    fn fog_start(&self) -> f32;
    /// Sets `FogStart`.
    fn set_fog_start(&mut self, value: f32);
    /// `FogEnd`: the view-space depth where the colour is all fog.
    fn fog_end(&self) -> f32;
    /// Sets `FogEnd`.
    fn set_fog_end(&mut self, value: f32);
    /// `FogColor`.
    fn fog_color(&self) -> Vector3;
    /// Sets `FogColor`.
    fn set_fog_color(&mut self, value: Vector3);
}

/// Implements [`EffectMatrices`] and [`EffectFog`] over an effect's public fields of the same
/// names.
macro_rules! matrices_and_fog {
    ($effect:ty) => {
        impl $crate::effects::traits::EffectMatrices for $effect {
            fn world(&self) -> $crate::math::Matrix {
                self.world
            }
            fn set_world(&mut self, value: $crate::math::Matrix) {
                self.world = value;
            }
            fn view(&self) -> $crate::math::Matrix {
                self.view
            }
            fn set_view(&mut self, value: $crate::math::Matrix) {
                self.view = value;
            }
            fn projection(&self) -> $crate::math::Matrix {
                self.projection
            }
            fn set_projection(&mut self, value: $crate::math::Matrix) {
                self.projection = value;
            }
        }

        impl $crate::effects::traits::EffectFog for $effect {
            fn fog_enabled(&self) -> bool {
                self.fog_enabled
            }
            fn set_fog_enabled(&mut self, value: bool) {
                self.fog_enabled = value;
            }
            fn fog_start(&self) -> f32 {
                self.fog_start
            }
            fn set_fog_start(&mut self, value: f32) {
                self.fog_start = value;
            }
            fn fog_end(&self) -> f32 {
                self.fog_end
            }
            fn set_fog_end(&mut self, value: f32) {
                self.fog_end = value;
            }
            fn fog_color(&self) -> $crate::math::Vector3 {
                self.fog_color
            }
            fn set_fog_color(&mut self, value: $crate::math::Vector3) {
                self.fog_color = value;
            }
        }
    };
}
pub(crate) use matrices_and_fog;
