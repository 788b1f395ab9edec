//! A model's skins as data (not XNA: XNA 4.0's `Model` has none; its samples carry skinning
//! data in `Model.Tag`), and the bone matrices a `SkinnedEffect` takes.
//!
//! In: a skin (a glTF skin: the bones that act as its joints, each with its inverse bind
//! matrix) and the bones' absolute transforms. Out: one matrix per joint, for
//! `SkinnedEffect::set_bone_transforms`: a vertex at rest in the mesh's space, times its
//! joint's matrix, is where the joint's current transform puts it. In XNA's row-vector order
//! that matrix is `InverseBind × Absolute(joint)` (glTF writes the same product in column
//! order, `Absolute(joint) · InverseBind`).

use crate::error::{Result, XnaError};
use crate::math::Matrix;

/// A skin: the bones that deform a skinned mesh's vertices (a vertex's `BlendIndices` name
/// joints, which are indices into [`Self::joints`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSkin {
    pub(crate) name: Option<String>,
    pub(crate) joints: Vec<usize>,
    pub(crate) inverse_bind_matrices: Vec<Matrix>,
    pub(crate) skeleton: Option<usize>,
}

impl ModelSkin {
    /// The skin's name (`None` where the file gives none).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The joints, as indices in the model's `Bones`; a vertex's blend index `j` names
    /// `joints()[j]`.
    pub fn joints(&self) -> &[usize] {
        &self.joints
    }

    /// Each joint's inverse bind matrix (identity where the file gives none): from the mesh's
    /// space to the joint's space at rest.
    pub fn inverse_bind_matrices(&self) -> &[Matrix] {
        &self.inverse_bind_matrices
    }

    /// The bone at the top of the skeleton, where the file names one (glTF's `skeleton`).
    pub fn skeleton(&self) -> Option<usize> {
        self.skeleton
    }

    /// Writes one matrix per joint into `destination`: the joint's inverse bind matrix × its
    /// absolute transform in `absolute_bone_transforms` (from
    /// [`crate::Model::copy_absolute_bone_transforms_to`]), ready for
    /// `SkinnedEffect::set_bone_transforms(&destination[..joints().len()])`.
    ///
    /// Errors: `ArgumentOutOfRange` on `absoluteBoneTransforms` when it holds fewer matrices
    /// than a joint's bone index needs, on `destination` when it is shorter than the joints.
    pub fn skin_transforms(
        &self,
        absolute_bone_transforms: &[Matrix],
        destination: &mut [Matrix],
    ) -> Result<()> {
        if destination.len() < self.joints.len() {
            return Err(XnaError::out_of_range(
                "destination",
                format!(
                    "The slice holds {} matrices; the skin has {} joints.",
                    destination.len(),
                    self.joints.len()
                ),
            ));
        }
        if let Some(&bone) = self.joints.iter().find(|&&b| b >= absolute_bone_transforms.len()) {
            return Err(XnaError::out_of_range(
                "absoluteBoneTransforms",
                format!(
                    "The slice holds {} matrices; joint bone {bone} is past them.",
                    absolute_bone_transforms.len()
                ),
            ));
        }
        for ((d, &bone), inverse) in
            destination.iter_mut().zip(&self.joints).zip(&self.inverse_bind_matrices)
        {
            *d = *inverse * absolute_bone_transforms[bone];
        }
        Ok(())
    }
}
