//! XNA's `Model`: meshes placed by a hierarchy of bones, each mesh's parts drawn with their
//! effects (`bone.rs`: `ModelBone` and the hierarchy; `mesh.rs`: `ModelMesh` and
//! `ModelMeshPart`, and the mesh's draw; `effect.rs`: the effect a part holds; not XNA's:
//! `skin.rs`, a skin's joints and the matrices a `SkinnedEffect` takes, and `animation.rs`,
//! animations as data and their sampling into bone poses, both as glTF files hold them).
//!
//! In: a model as the `ContentManager` reads it (XNA's `ModelReader`) or as a game changes it.
//! Out: draws recorded into the device's frame. `Model::draw(world, view, projection)` is
//! XNA's: the bones' absolute transforms are computed, each mesh's effects get `World` =
//! the absolute transform of the mesh's bone × `world`, `View` and `Projection`, and the mesh
//! draws itself. What is decided here: which effects take matrices (XNA's `IEffectMatrices`:
//! the stock effects; a `CustomEffect` is `InvalidOperation`, as XNA's custom effects are) and
//! the order of a mesh's `Effects` when a part's effect changes.

mod animation;
mod bone;
mod effect;
mod mesh;
mod skin;

pub use animation::{AnimationChannel, AnimationValues, BonePose, Interpolation, ModelAnimation};
pub use bone::{ModelBone, ModelBoneCollection};
pub use effect::{ModelEffect, ModelEffectCollection};
pub use mesh::{ModelMesh, ModelMeshPart};
pub use skin::ModelSkin;

use std::any::Any;
use std::sync::Arc;

use crate::error::Result;
use crate::math::Matrix;

/// XNA's `object` of a `Tag` (`Model.Tag`, `ModelMesh.Tag`, `ModelMeshPart.Tag`): any value,
/// read back with `downcast_ref`. A tag read from a file is the value its reader makes:
/// `String`, `i32`, `f32`, `bool`, a math type (`Vector3`, `Matrix`, ...), a `Texture2D`, ...
///
/// ```no_run
/// # use xnagraph::*;
/// # fn f(model: &Model) {
/// let label = model.tag().and_then(|t| t.downcast_ref::<String>());
/// # }
/// ```
pub type ModelTag = Arc<dyn Any + Send + Sync>;

/// XNA's `ModelMeshCollection`: a model's meshes in the file's order.
#[derive(Clone, Debug, Default)]
pub struct ModelMeshCollection(pub(crate) Vec<ModelMesh>);

impl ModelMeshCollection {
    /// `Count`.
    pub fn count(&self) -> usize {
        self.0.len()
    }

    /// The mesh at `index` (XNA's integer indexer), or `None` past the end (where XNA raises
    /// `ArgumentOutOfRangeException`).
    pub fn get(&self, index: usize) -> Option<&ModelMesh> {
        self.0.get(index)
    }

    /// The mesh at `index`, to change its tag or a part's effect.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut ModelMesh> {
        self.0.get_mut(index)
    }

    /// The first mesh named `name` (XNA's string indexer, which raises
    /// `KeyNotFoundException` where this is `None`; `TryGetValue`).
    pub fn by_name(&self, name: &str) -> Option<&ModelMesh> {
        self.0.iter().find(|m| m.name() == Some(name))
    }

    /// The meshes in order (XNA's enumerator).
    pub fn iter(&self) -> std::slice::Iter<'_, ModelMesh> {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a ModelMeshCollection {
    type Item = &'a ModelMesh;
    type IntoIter = std::slice::Iter<'a, ModelMesh>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// XNA's `Model`: meshes, the bones that place them, the root bone and a tag. Loaded with
/// `ContentManager::load::<Model>` from XNA's compiled model files.
///
/// A loaded model is shared (`Arc<Model>`), as XNA shares the instance: [`Model::draw`] and
/// the effects' locks work through `&`, so the shared model draws and its effects change in
/// place, as XNA code does. Changing bones, tags or a part's effect takes a model of the
/// game's own: `clone()` gives one that shares the buffers and effects (as .NET references)
/// and owns its bones, meshes and tags.
///
/// Where it differs from XNA: a bone or mesh names bones by index (see [`ModelBone`]); the
/// effect of a part is a [`ModelEffect`]; XNA's `Model` has no `Clone`. Not XNA: a model read
/// from a glTF file (`Model::from_gltf`, with the `gltf` feature) also holds its skins and
/// animations as data ([`Self::skins`], [`Self::animations`], [`Self::rest_poses`]), which
/// [`Self::animate_bones`] and [`Self::update_skins`] apply; an `.xnb` model has none.
#[derive(Clone, Debug)]
pub struct Model {
    pub(crate) bones: ModelBoneCollection,
    pub(crate) meshes: ModelMeshCollection,
    pub(crate) root: usize,
    pub(crate) tag: Option<ModelTag>,
    pub(crate) rest_poses: Vec<BonePose>,
    pub(crate) skins: Vec<ModelSkin>,
    pub(crate) animations: Vec<ModelAnimation>,
    /// Textures the model's file made for it (a glTF file's images, and the white texel its
    /// untextured materials sample): its own, as its buffers are, where an XNB model's textures
    /// are assets of their own.
    pub(crate) textures: Vec<crate::resources::texture::Texture2D>,
}

impl Model {
    /// `Bones`.
    pub fn bones(&self) -> &ModelBoneCollection {
        &self.bones
    }

    /// `Bones`, to set their transforms.
    pub fn bones_mut(&mut self) -> &mut ModelBoneCollection {
        &mut self.bones
    }

    /// `Meshes`.
    pub fn meshes(&self) -> &ModelMeshCollection {
        &self.meshes
    }

    /// `Meshes`, to change tags and effects.
    pub fn meshes_mut(&mut self) -> &mut ModelMeshCollection {
        &mut self.meshes
    }

    /// `Root`: the bone at the top of the hierarchy.
    pub fn root(&self) -> &ModelBone {
        &self.bones.0[self.root]
    }

    /// `Tag`: the object the file attached (skinning data, with XNA's samples' processors),
    /// or what the game set.
    pub fn tag(&self) -> Option<&ModelTag> {
        self.tag.as_ref()
    }

    /// Sets `Tag`.
    pub fn set_tag(&mut self, tag: Option<ModelTag>) {
        self.tag = tag;
    }

    /// `CopyAbsoluteBoneTransformsTo(destinationBoneTransforms)`: each bone's transform
    /// relative to the model (its own × its parent's absolute one), into the first
    /// `Bones.Count` elements. A shorter slice is `ArgumentOutOfRange` on
    /// `destinationBoneTransforms`.
    pub fn copy_absolute_bone_transforms_to(&self, destination: &mut [Matrix]) -> Result<()> {
        self.bones.absolute_transforms(destination)
    }

    /// `CopyBoneTransformsTo(destinationBoneTransforms)`: each bone's own `Transform`. A
    /// shorter slice is `ArgumentOutOfRange` on `destinationBoneTransforms`.
    pub fn copy_bone_transforms_to(&self, destination: &mut [Matrix]) -> Result<()> {
        bone::checked(destination.len(), self.bones.count(), "destinationBoneTransforms")?;
        for (d, b) in destination.iter_mut().zip(self.bones.iter()) {
            *d = b.transform;
        }
        Ok(())
    }

    /// `CopyBoneTransformsFrom(sourceBoneTransforms)`: sets each bone's `Transform` from the
    /// first `Bones.Count` elements. A shorter slice is `ArgumentOutOfRange` on
    /// `sourceBoneTransforms`, and no bone changes.
    pub fn copy_bone_transforms_from(&mut self, source: &[Matrix]) -> Result<()> {
        bone::checked(source.len(), self.bones.count(), "sourceBoneTransforms")?;
        for (b, s) in self.bones.0.iter_mut().zip(source) {
            b.transform = *s;
        }
        Ok(())
    }

    /// `Draw(world, view, projection)`: mesh by mesh, every effect of the mesh gets `World` =
    /// the absolute transform of the mesh's parent bone × `world`, `View` and `Projection`,
    /// then the mesh draws ([`ModelMesh::draw`]). The effects keep those values afterwards, as
    /// in XNA.
    ///
    /// Errors: a mesh holding a `CustomEffect` is `InvalidOperation` (XNA's for an effect
    /// that does not implement `IEffectMatrices`), and the errors of [`ModelMesh::draw`]. As
    /// in XNA, the meshes before the one that fails have been drawn.
    pub fn draw(&self, world: Matrix, view: Matrix, projection: Matrix) -> Result<()> {
        let mut absolute = vec![Matrix::IDENTITY; self.bones.count()];
        self.copy_absolute_bone_transforms_to(&mut absolute)?;
        for mesh in &self.meshes {
            let mesh_world = absolute[mesh.parent_bone] * world;
            for effect in mesh.effects() {
                effect.set_matrices(mesh_world, view, projection)?;
            }
            mesh.draw()?;
        }
        Ok(())
    }

    /// The skins (not XNA), in the file's order; a mesh names its skin by
    /// [`ModelMesh::skin`].
    pub fn skins(&self) -> &[ModelSkin] {
        &self.skins
    }

    /// The animations (not XNA), in the file's order.
    pub fn animations(&self) -> &[ModelAnimation] {
        &self.animations
    }

    /// Each bone's pose as the file gave it (not XNA): a glTF node's translation, rotation
    /// and scale; a bone given as a matrix (a glTF node's `matrix`, an `.xnb` model's bone)
    /// decomposed by `Matrix::decompose`, identity where the matrix has shear. Animations
    /// start from these.
    pub fn rest_poses(&self) -> &[BonePose] {
        &self.rest_poses
    }

    /// Sets every bone's `Transform` to its rest pose with `Animations[animation]` sampled at
    /// `time` seconds ([`ModelAnimation::sample`]; not XNA). An `animation` past the
    /// animations is `ArgumentOutOfRange` on `animation`, and no bone changes.
    pub fn animate_bones(&mut self, animation: usize, time: f32) -> Result<()> {
        let clip = self.animations.get(animation).ok_or_else(|| {
            crate::error::XnaError::out_of_range(
                "animation",
                format!("The model has {} animations.", self.animations.len()),
            )
        })?;
        let mut poses = self.rest_poses.clone();
        clip.sample(time, &mut poses)?;
        for (bone, pose) in self.bones.0.iter_mut().zip(&poses) {
            bone.transform = pose.to_matrix();
        }
        Ok(())
    }

    /// For each mesh with a skin (not XNA): the skin's matrices from the bones' current
    /// absolute transforms ([`ModelSkin::skin_transforms`]) set on every `SkinnedEffect` of the
    /// mesh (`SetBoneTransforms`). Errors: those of `SetBoneTransforms` (a skin of more than
    /// `SkinnedEffect::MAX_BONES` joints).
    pub fn update_skins(&self) -> Result<()> {
        let mut absolute = vec![Matrix::IDENTITY; self.bones.count()];
        self.copy_absolute_bone_transforms_to(&mut absolute)?;
        for mesh in &self.meshes {
            let Some(skin) = mesh.skin.and_then(|s| self.skins.get(s)) else { continue };
            let mut matrices = vec![Matrix::IDENTITY; skin.joints.len()];
            skin.skin_transforms(&absolute, &mut matrices)?;
            for effect in mesh.effects() {
                if let ModelEffect::Skinned(e) = effect {
                    crate::event::lock(e).set_bone_transforms(&matrices)?;
                }
            }
        }
        Ok(())
    }

    /// `Dispose` of what the model's file made, as `ContentManager.Unload` does: the vertex
    /// and index buffers, and the textures a glTF file made (an XNB model's effects hold
    /// nothing of their own: their textures are assets).
    pub(crate) fn dispose_resources(&self) {
        for texture in &self.textures {
            texture.dispose();
        }
        for part in self.meshes.iter().flat_map(|m| m.parts.iter()) {
            if let Some(b) = &part.vertex_buffer {
                b.dispose();
            }
            if let Some(b) = &part.index_buffer {
                b.dispose();
            }
        }
    }
}
