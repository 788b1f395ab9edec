//! Materials as effects, images as textures.
//!
//! In: a primitive's material and what its vertices hold. Out: the part's effect, shared by
//! every part of the model with the same material and the same vertex contents (so a mesh's
//! `Effects` lists it once). What is decided here: `SkinnedEffect` for a skinned node's parts,
//! else `BasicEffect`; lighting where the vertices have normals (a `SkinnedEffect` is always
//! lit, so a skinned part without normals is refused); a texture read through a coordinate set
//! other than 0 is `NotSupported`; each image is decoded once.

use std::collections::HashMap;

use super::File;
use crate::device::GraphicsDevice;
use crate::effects::basic::BasicEffect;
use crate::effects::skinned::SkinnedEffect;
use crate::error::{Result, XnaError};
use crate::math::{Color, Vector3};
use crate::models::ModelEffect;
use crate::resources::texture::Texture2D;

/// What an effect depends on besides the material.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Inputs {
    pub skinned: bool,
    pub normals: bool,
    pub colors: bool,
    pub texture_coordinates: bool,
}

/// The effects and textures made so far.
#[derive(Default)]
pub struct Materials {
    effects: HashMap<(Option<usize>, Inputs), ModelEffect>,
    images: HashMap<usize, Texture2D>,
    white: Option<Texture2D>,
}

impl Materials {
    /// The textures made: each image decoded, and the white texel.
    pub fn into_textures(self) -> Vec<Texture2D> {
        self.images.into_values().chain(self.white).collect()
    }

    /// The effect of `material` for vertices holding `inputs`; `what` names the primitive.
    pub fn effect(
        &mut self,
        file: &File<'_>,
        device: &GraphicsDevice,
        material: gltf::Material<'_>,
        inputs: Inputs,
        what: &str,
    ) -> Result<ModelEffect> {
        let key = (material.index(), inputs);
        if let Some(effect) = self.effects.get(&key) {
            return Ok(effect.clone());
        }
        let pbr = material.pbr_metallic_roughness();
        let [r, g, b, a] = pbr.base_color_factor();
        let [er, eg, eb] = material.emissive_factor();
        let texture = match pbr.base_color_texture() {
            None => None,
            Some(info) if info.tex_coord() != 0 => {
                return Err(XnaError::not_supported(format!(
                    "{}: {what}'s material reads its base colour texture through TEXCOORD_{}; \
                     xnagraph reads TEXCOORD_0 only.",
                    file.asset,
                    info.tex_coord()
                )))
            }
            Some(_) if !inputs.texture_coordinates && !inputs.skinned => {
                return Err(file.error(format!(
                    "{what}'s material has a base colour texture, but the primitive has no \
                     TEXCOORD_0"
                )))
            }
            Some(info) => Some(self.image(file, device, info.texture().source())?),
        };
        let effect: ModelEffect = if inputs.skinned {
            if !inputs.normals {
                return Err(file.error(format!(
                    "{what} is skinned but has no NORMAL, which SkinnedEffect's lighting needs"
                )));
            }
            let mut e = SkinnedEffect::new(device)?;
            e.diffuse_color = Vector3::new(r, g, b);
            e.alpha = a;
            e.emissive_color = Vector3::new(er, eg, eb);
            e.enable_default_lighting();
            let texture = match texture {
                Some(t) => t,
                None => self.white(device)?,
            };
            e.set_texture(Some(&texture));
            e.into()
        } else {
            let mut e = BasicEffect::new(device)?;
            e.diffuse_color = Vector3::new(r, g, b);
            e.alpha = a;
            e.emissive_color = Vector3::new(er, eg, eb);
            if inputs.normals {
                e.enable_default_lighting();
            }
            e.vertex_color_enabled = inputs.colors;
            e.texture_enabled = texture.is_some();
            e.set_texture(texture.as_ref());
            e.into()
        };
        self.effects.insert(key, effect.clone());
        Ok(effect)
    }

    /// Image `image`'s texture, decoded once.
    fn image(
        &mut self,
        file: &File<'_>,
        device: &GraphicsDevice,
        image: gltf::Image<'_>,
    ) -> Result<Texture2D> {
        let i = image.index();
        if let Some(t) = self.images.get(&i) {
            return Ok(t.share());
        }
        let what = format!("image {i}");
        let bytes = match image.source() {
            gltf::image::Source::Uri { uri, .. } => file.uri(uri, &what)?,
            gltf::image::Source::View { view, .. } => {
                let buffer = &file.buffers[view.buffer().index()];
                view.offset()
                    .checked_add(view.length())
                    .and_then(|end| buffer.get(view.offset()..end))
                    .ok_or_else(|| {
                        file.error(format!(
                            "{what} reads buffer view {}, which lies past buffer {}",
                            view.index(),
                            view.buffer().index()
                        ))
                    })?
                    .to_vec()
            }
        };
        let texture = Texture2D::from_stream(device, &bytes[..]).map_err(|e| match e {
            XnaError::InvalidOperation { message } => file.error(format!("{what}: {message}")),
            other => other,
        })?;
        self.images.insert(i, texture.share());
        Ok(texture)
    }

    /// The white 1×1 texture a skinned part without a texture samples.
    fn white(&mut self, device: &GraphicsDevice) -> Result<Texture2D> {
        if let Some(t) = &self.white {
            return Ok(t.share());
        }
        let t = Texture2D::new(device, 1, 1)?;
        t.set_data(&[Color::WHITE])?;
        self.white = Some(t.share());
        Ok(t)
    }
}
