//! The effect readers (`BasicEffectReader`, `AlphaTestEffectReader`, `DualTextureEffectReader`,
//! `SkinnedEffectReader`, `EnvironmentMapEffectReader`, `EffectReader`) and XNA's external
//! references, through which a material names its textures.
//!
//! In: a [`ContentReader`] at an effect object's data (after its reader index). Out: the stock
//! effect with the file's values, its textures loaded through the asset's `ContentManager`, or
//! a `ContentLoad` error naming what is wrong and the byte where it lies.
//!
//! The layouts, as XNA 4.0's content pipeline writes them and its readers (and FNA's and
//! MonoGame's) read them; a vector is three `f32` (X, Y, Z), a bool one byte, a texture an
//! external reference:
//! - `BasicEffect`: texture, DiffuseColor, EmissiveColor, SpecularColor, SpecularPower `f32`,
//!   Alpha `f32`, VertexColorEnabled; `TextureEnabled` is set when a texture is named.
//! - `AlphaTestEffect`: texture, AlphaFunction (`CompareFunction` as an `Int32`, not an object),
//!   ReferenceAlpha (`UInt32`), DiffuseColor, Alpha, VertexColorEnabled.
//! - `DualTextureEffect`: texture, texture 2, DiffuseColor, Alpha, VertexColorEnabled.
//! - `SkinnedEffect`: texture, WeightsPerVertex `Int32`, DiffuseColor, EmissiveColor,
//!   SpecularColor, SpecularPower, Alpha.
//! - `EnvironmentMapEffect`: texture, environment map (a `TextureCube` reference),
//!   EnvironmentMapAmount `f32`, EnvironmentMapSpecular, FresnelFactor `f32`, DiffuseColor,
//!   EmissiveColor, Alpha.
//! - `Effect` (XNA's compiled Direct3D 9 effect, and MonoGame's MGFX under the same reader
//!   name): an `Int32` byte count, then the bytecode.
//!
//! An external reference (`ReadExternalReference`) is a string: empty for none, else the
//! referenced asset's name relative to the directory of the asset being read (`\` or `/`
//! separated, `.` and `..` resolved as XNA's `GetCleanPath` does); the asset is loaded with the
//! same manager, so it is cached under its resolved name and shared.
//!
//! What is decided here: a texture reference is loaded as a `Texture2D` (the environment map as a
//! `TextureCube`), and one of another type is an error (XNA's readers cast with `as`, making it
//! null); an external reference that fails carries the referenced asset's error; a
//! ReferenceAlpha past 255 and a WeightsPerVertex other than 1, 2 or 4 are refused; compiled
//! effect bytecode is read, then refused: xnagraph runs GLSL or SPIR-V (`CustomEffect`), not
//! Direct3D or MGFX bytecode.

use std::path::Path;
use std::sync::Arc;

use super::ContentReader;
use crate::content::xnb::load_error;
use crate::device::GraphicsDevice;
use crate::effects::alpha_test::AlphaTestEffect;
use crate::effects::basic::BasicEffect;
use crate::effects::dual_texture::DualTextureEffect;
use crate::effects::environment_map::EnvironmentMapEffect;
use crate::effects::skinned::SkinnedEffect;
use crate::error::{Result, XnaError};
use crate::resources::cube::TextureCube;
use crate::resources::texture::Texture2D;

/// XNA 4.0's wrapper of a compiled effect (`0xBCF00BCF`, little-endian).
const XNA_EFFECT: [u8; 4] = [0xCF, 0x0B, 0xF0, 0xBC];
/// The Direct3D 9 effect framework's signature (`0xFEFF0901`, little-endian).
const D3D9_EFFECT: [u8; 4] = [0x01, 0x09, 0xFF, 0xFE];
/// MonoGame's compiled effect signature.
const MGFX: &[u8; 4] = b"MGFX";

/// The name an external reference `reference`, read from the asset `asset`, denotes: the
/// reference joined to the asset's directory, `\` made `/`, `.` and `..` resolved (a `..` past
/// the first directory is kept, naming a file above the root, as XNA's path would). A rooted
/// reference is returned as it is (and refused by the load as an absolute name).
pub(crate) fn resolve_reference(asset: &str, reference: &str) -> String {
    let reference = reference.replace('\\', "/");
    let path = Path::new(&reference);
    if path.has_root() || path.is_absolute() {
        return reference;
    }
    let asset = asset.replace('\\', "/");
    let directory = asset.rfind('/').map_or("", |i| &asset[..i]);
    let mut parts: Vec<&str> = Vec::new();
    for part in directory.split('/').chain(reference.split('/')) {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|last| *last != "..") => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

impl ContentReader<'_> {
    /// `ReadExternalReference<Texture2D>` (see [`Self::external`]).
    fn external_texture(&mut self, what: &str) -> Result<Option<Arc<Texture2D>>> {
        self.external(what, |m, name, chain| m.texture(name, chain))
    }

    /// `ReadExternalReference<TextureCube>` (see [`Self::external`]).
    fn external_cube(&mut self, what: &str) -> Result<Option<Arc<TextureCube>>> {
        self.external(what, |m, name, chain| m.texture_cube(name, chain))
    }

    /// `ReadExternalReference<T>`: the name (empty: `None`), then the asset it denotes, loaded
    /// through the manager by `load` (cached and shared; a name already being read is a
    /// cycle). A failed load is this asset's error, saying where the reference lies and
    /// carrying the referenced asset's error.
    fn external<T>(
        &mut self,
        what: &str,
        load: impl FnOnce(&dyn super::References, &str, &[String]) -> Result<Arc<T>>,
    ) -> Result<Option<Arc<T>>> {
        let at = self.xnb.position();
        let reference = self.xnb.string(what)?;
        if reference.is_empty() {
            return Ok(None);
        }
        let name = resolve_reference(self.xnb.asset(), &reference);
        load(self.manager, &name, self.chain).map(Some).map_err(|e| {
            // The referenced asset's message without its closing period, as it is nested.
            let inner = match e {
                XnaError::ContentLoad { asset, message } => {
                    format!("Error loading \"{asset}\": {message}")
                }
                other => other.to_string(),
            };
            load_error(
                self.xnb.asset(),
                format!(
                    "{what} at {}, the external reference '{reference}' (the asset '{name}'), \
                     cannot be loaded: {}",
                    self.xnb.place(at),
                    inner
                ),
            )
        })
    }

    /// The stock effect `new` makes on the device, or the error of one it refuses.
    fn stock<E>(
        &self,
        name: &str,
        at: usize,
        new: impl FnOnce(&GraphicsDevice) -> Result<E>,
    ) -> Result<E> {
        new(self.device).map_err(|e: XnaError| {
            self.xnb.error_at(at, format!("the {name} cannot be made ({})", e.message()))
        })
    }

    /// `BasicEffectReader`.
    pub(super) fn basic_effect(&mut self) -> Result<BasicEffect> {
        let at = self.xnb.position();
        let texture = self.external_texture("the BasicEffect's Texture")?;
        let diffuse = self.vector3_of("the BasicEffect's DiffuseColor")?;
        let emissive = self.vector3_of("the BasicEffect's EmissiveColor")?;
        let specular = self.vector3_of("the BasicEffect's SpecularColor")?;
        let specular_power = self.xnb.f32("the BasicEffect's SpecularPower")?;
        let alpha = self.xnb.f32("the BasicEffect's Alpha")?;
        let vertex_color = self.xnb.bool("the BasicEffect's VertexColorEnabled")?;
        let mut effect = self.stock("BasicEffect", at, BasicEffect::new)?;
        effect.set_texture(texture.as_deref());
        effect.texture_enabled = texture.is_some();
        effect.diffuse_color = diffuse;
        effect.emissive_color = emissive;
        effect.specular_color = specular;
        effect.specular_power = specular_power;
        effect.alpha = alpha;
        effect.vertex_color_enabled = vertex_color;
        Ok(effect)
    }

    /// `AlphaTestEffectReader`.
    pub(super) fn alpha_test_effect(&mut self) -> Result<AlphaTestEffect> {
        let at = self.xnb.position();
        let texture = self.external_texture("the AlphaTestEffect's Texture")?;
        let function = self.compare_function("the AlphaTestEffect's AlphaFunction")?;
        let reference_at = self.xnb.position();
        let reference = self.xnb.u32("the AlphaTestEffect's ReferenceAlpha")?;
        let reference = u8::try_from(reference).map_err(|_| {
            self.xnb.error_at(
                reference_at,
                format!(
                    "the AlphaTestEffect's ReferenceAlpha is {reference}; xnagraph's holds 0 to \
                     255"
                ),
            )
        })?;
        let diffuse = self.vector3_of("the AlphaTestEffect's DiffuseColor")?;
        let alpha = self.xnb.f32("the AlphaTestEffect's Alpha")?;
        let vertex_color = self.xnb.bool("the AlphaTestEffect's VertexColorEnabled")?;
        let mut effect = self.stock("AlphaTestEffect", at, AlphaTestEffect::new)?;
        effect.set_texture(texture.as_deref());
        effect.alpha_function = function;
        effect.reference_alpha = reference;
        effect.diffuse_color = diffuse;
        effect.alpha = alpha;
        effect.vertex_color_enabled = vertex_color;
        Ok(effect)
    }

    /// `DualTextureEffectReader`.
    pub(super) fn dual_texture_effect(&mut self) -> Result<DualTextureEffect> {
        let at = self.xnb.position();
        let texture = self.external_texture("the DualTextureEffect's Texture")?;
        let texture2 = self.external_texture("the DualTextureEffect's Texture2")?;
        let diffuse = self.vector3_of("the DualTextureEffect's DiffuseColor")?;
        let alpha = self.xnb.f32("the DualTextureEffect's Alpha")?;
        let vertex_color = self.xnb.bool("the DualTextureEffect's VertexColorEnabled")?;
        let mut effect = self.stock("DualTextureEffect", at, DualTextureEffect::new)?;
        effect.set_texture(texture.as_deref());
        effect.set_texture2(texture2.as_deref());
        effect.diffuse_color = diffuse;
        effect.alpha = alpha;
        effect.vertex_color_enabled = vertex_color;
        Ok(effect)
    }

    /// `SkinnedEffectReader`. A WeightsPerVertex other than 1, 2 or 4 is an error at its byte
    /// (XNA's reader would raise the setter's `ArgumentOutOfRangeException`).
    pub(super) fn skinned_effect(&mut self) -> Result<SkinnedEffect> {
        let at = self.xnb.position();
        let texture = self.external_texture("the SkinnedEffect's Texture")?;
        let weights_at = self.xnb.position();
        let weights = self.xnb.i32("the SkinnedEffect's WeightsPerVertex")?;
        let diffuse = self.vector3_of("the SkinnedEffect's DiffuseColor")?;
        let emissive = self.vector3_of("the SkinnedEffect's EmissiveColor")?;
        let specular = self.vector3_of("the SkinnedEffect's SpecularColor")?;
        let specular_power = self.xnb.f32("the SkinnedEffect's SpecularPower")?;
        let alpha = self.xnb.f32("the SkinnedEffect's Alpha")?;
        let mut effect = self.stock("SkinnedEffect", at, SkinnedEffect::new)?;
        effect.set_weights_per_vertex(weights).map_err(|_| {
            self.xnb.error_at(
                weights_at,
                format!("the SkinnedEffect's WeightsPerVertex is {weights}; it must be 1, 2 or 4"),
            )
        })?;
        effect.set_texture(texture.as_deref());
        effect.diffuse_color = diffuse;
        effect.emissive_color = emissive;
        effect.specular_color = specular;
        effect.specular_power = specular_power;
        effect.alpha = alpha;
        Ok(effect)
    }

    /// `EnvironmentMapEffectReader`: the texture and the cube map (external references), then
    /// EnvironmentMapAmount, EnvironmentMapSpecular, FresnelFactor, DiffuseColor,
    /// EmissiveColor and Alpha.
    pub(super) fn environment_map_effect(&mut self) -> Result<EnvironmentMapEffect> {
        let at = self.xnb.position();
        let texture = self.external_texture("the EnvironmentMapEffect's Texture")?;
        let environment_map = self.external_cube("the EnvironmentMapEffect's EnvironmentMap")?;
        let amount = self.xnb.f32("the EnvironmentMapEffect's EnvironmentMapAmount")?;
        let specular = self.vector3_of("the EnvironmentMapEffect's EnvironmentMapSpecular")?;
        let fresnel = self.xnb.f32("the EnvironmentMapEffect's FresnelFactor")?;
        let diffuse = self.vector3_of("the EnvironmentMapEffect's DiffuseColor")?;
        let emissive = self.vector3_of("the EnvironmentMapEffect's EmissiveColor")?;
        let alpha = self.xnb.f32("the EnvironmentMapEffect's Alpha")?;
        let mut effect = self.stock("EnvironmentMapEffect", at, EnvironmentMapEffect::new)?;
        effect.set_texture(texture.as_deref());
        effect.set_environment_map(environment_map);
        effect.environment_map_amount = amount;
        effect.environment_map_specular = specular;
        effect.fresnel_factor = fresnel;
        effect.diffuse_color = diffuse;
        effect.emissive_color = emissive;
        effect.alpha = alpha;
        Ok(effect)
    }

    /// `EffectReader`'s bytecode, read, then refused, named by its signature.
    pub(super) fn effect(&mut self) -> XnaError {
        let at = self.xnb.position();
        let code = match self.xnb.count("the Effect's bytecode size") {
            Ok(n) => match self.xnb.bytes(n, "the Effect's bytecode") {
                Ok(code) => code,
                Err(e) => return e,
            },
            Err(e) => return e,
        };
        let kind = match code.get(..4) {
            Some(s) if s == MGFX => "MonoGame effect bytecode (MGFX)",
            Some(s) if s == XNA_EFFECT || s == D3D9_EFFECT => {
                "compiled Direct3D effect bytecode (XNA's fx_2_0)"
            }
            _ => "compiled effect bytecode of no known signature",
        };
        let n = code.len();
        load_error(
            self.xnb.asset(),
            format!(
                "{} is an Effect of {kind}, {n} bytes from {}: compiled Direct3D or \
                 MonoGame effect bytecode cannot be used by xnagraph; write the effect in GLSL \
                 or SPIR-V and make it a CustomEffect",
                self.subject,
                self.xnb.place(at)
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::resolve_reference;

    #[test]
    fn references_resolve_against_the_assets_directory() {
        assert_eq!(resolve_reference("stone", "stone_0"), "stone_0");
        assert_eq!(resolve_reference("Models\\ship", "ship_0"), "Models/ship_0");
        assert_eq!(resolve_reference("a/b/mat", "..\\tex\\t"), "a/tex/t");
        assert_eq!(resolve_reference("a/mat", "./t"), "a/t");
        assert_eq!(resolve_reference("mat", "../up/t"), "../up/t");
        assert_eq!(resolve_reference("a/mat", "/abs/t"), "/abs/t");
    }
}
