//! XNA's `ModelBone` and `ModelBoneCollection`: a model's transform hierarchy.
//!
//! A bone has a transform relative to its parent; a bone's absolute transform is its own
//! times its parent's absolute one (XNA's row vectors: `bone × parent`), computed in index
//! order, as XNA's `CopyAbsoluteBoneTransformsTo` does (the content pipeline writes every
//! parent before its children). Bones name each other by index into the model's collection,
//! where XNA's hold references.

use crate::error::{Result, XnaError};
use crate::math::Matrix;

/// XNA's `ModelBone`: a named transform in a model's hierarchy.
///
/// Where it differs from XNA: `Parent` and `Children` are indices into the model's
/// [`ModelBoneCollection`] (`model.bones().get(i)`) rather than bone references, as a Rust
/// tree held in one vector names its nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelBone {
    pub(crate) name: Option<String>,
    pub(crate) index: usize,
    pub(crate) parent: Option<usize>,
    pub(crate) children: Vec<usize>,
    pub(crate) transform: Matrix,
}

impl ModelBone {
    /// `Name` (XNA's may be null: `None`).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// `Index`: the bone's place in the model's `Bones`.
    pub fn index(&self) -> usize {
        self.index
    }

    /// `Parent`, as its index in the model's `Bones`; `None` for a bone without a parent (the
    /// root).
    pub fn parent(&self) -> Option<usize> {
        self.parent
    }

    /// `Children`, as indices in the model's `Bones`, in the file's order.
    pub fn children(&self) -> &[usize] {
        &self.children
    }

    /// `Transform`: the bone's transform relative to its parent.
    pub fn transform(&self) -> Matrix {
        self.transform
    }

    /// Sets `Transform`.
    pub fn set_transform(&mut self, transform: Matrix) {
        self.transform = transform;
    }
}

/// XNA's `ModelBoneCollection`: a model's bones in index order, each bone's [`ModelBone::index`]
/// its place here.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelBoneCollection(pub(crate) Vec<ModelBone>);

impl ModelBoneCollection {
    /// `Count`.
    pub fn count(&self) -> usize {
        self.0.len()
    }

    /// The bone at `index` (XNA's integer indexer), or `None` past the end (where XNA raises
    /// `ArgumentOutOfRangeException`).
    pub fn get(&self, index: usize) -> Option<&ModelBone> {
        self.0.get(index)
    }

    /// The bone at `index`, to set its transform.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut ModelBone> {
        self.0.get_mut(index)
    }

    /// The first bone named `name` (XNA's string indexer, which raises
    /// `KeyNotFoundException` where this is `None`; `TryGetValue`).
    pub fn by_name(&self, name: &str) -> Option<&ModelBone> {
        self.0.iter().find(|b| b.name() == Some(name))
    }

    /// The bones in index order (XNA's enumerator).
    pub fn iter(&self) -> std::slice::Iter<'_, ModelBone> {
        self.0.iter()
    }

    /// The bones' absolute transforms into `destination` (see [`crate::Model`]).
    pub(crate) fn absolute_transforms(&self, destination: &mut [Matrix]) -> Result<()> {
        let destination = checked(destination.len(), self.count(), "destinationBoneTransforms")
            .map(|()| destination)?;
        for (i, bone) in self.0.iter().enumerate() {
            destination[i] = match bone.parent {
                // A parent listed after its child gives what `destination` held, as in XNA.
                Some(parent) => bone.transform * destination[parent],
                None => bone.transform,
            };
        }
        Ok(())
    }
}

impl<'a> IntoIterator for &'a ModelBoneCollection {
    type Item = &'a ModelBone;
    type IntoIter = std::slice::Iter<'a, ModelBone>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// XNA's check of a bone transform array: at least one element per bone, else
/// `ArgumentOutOfRangeException` on `param`.
pub(crate) fn checked(len: usize, bones: usize, param: &'static str) -> Result<()> {
    if len < bones {
        return Err(XnaError::out_of_range(
            param,
            format!("The array holds {len} matrices; the model has {bones} bones."),
        ));
    }
    Ok(())
}
