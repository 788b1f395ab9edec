//! The effect a model's mesh part draws with ([`ModelEffect`]), and the effects of a mesh
//! ([`ModelEffectCollection`]).
//!
//! In XNA a part holds an `Effect` reference: several parts (and meshes) may hold the same one,
//! `Model.Draw` changes its matrices in place, and `ModelMesh.Effects` lists each distinct one
//! once. Here a part holds a [`ModelEffect`], one of the effects xnagraph has behind an `Arc`:
//! cloning a `ModelEffect` is copying the .NET reference, and two are the same effect when
//! [`ModelEffect::ptr_eq`] says so. The stock effects sit behind a `Mutex` because their
//! values are fields changed through `&mut`; a `CustomEffect` sets its parameters through `&`.

use std::sync::{Arc, Mutex};

use crate::effects::alpha_test::AlphaTestEffect;
use crate::effects::basic::BasicEffect;
use crate::effects::custom::CustomEffect;
use crate::effects::dual_texture::DualTextureEffect;
use crate::effects::environment_map::EnvironmentMapEffect;
use crate::effects::skinned::SkinnedEffect;
use crate::effects::traits::EffectMatrices;
use crate::error::{Result, XnaError};
use crate::event::lock;
use crate::math::Matrix;

/// The effect of a [`ModelMeshPart`](crate::ModelMeshPart): XNA's `Effect` as a mesh part
/// holds it, one of the stock effects xnagraph has or a [`CustomEffect`].
///
/// A model loaded by the `ContentManager` holds the stock effects its file names (XNA's
/// default model processor makes `BasicEffect`s). A game changes an effect in place through
/// the lock, as XNA code changes `mesh.Effects`:
///
/// ```no_run
/// # use xnagraph::*;
/// # fn f(model: &Model) {
/// for mesh in model.meshes() {
///     for effect in mesh.effects() {
///         if let ModelEffect::Basic(basic) = effect {
///             basic.lock().unwrap().enable_default_lighting();
///         }
///     }
/// }
/// # }
/// ```
///
/// Where it differs from XNA: a `CustomEffect` has no `World`, `View` and `Projection` of its own (XNA's custom effects do
/// not implement `IEffectMatrices` either), so [`Model::draw`](crate::Model::draw) refuses a
/// model that holds one, as XNA's does.
#[derive(Clone)]
pub enum ModelEffect {
    /// A `BasicEffect`.
    Basic(Arc<Mutex<BasicEffect>>),
    /// An `AlphaTestEffect`.
    AlphaTest(Arc<Mutex<AlphaTestEffect>>),
    /// A `DualTextureEffect`.
    DualTexture(Arc<Mutex<DualTextureEffect>>),
    /// A `SkinnedEffect` (what XNA's skinned model processor makes).
    Skinned(Arc<Mutex<SkinnedEffect>>),
    /// An `EnvironmentMapEffect`.
    EnvironmentMap(Arc<Mutex<EnvironmentMapEffect>>),
    /// A `CustomEffect`: every pass of its current technique draws the part.
    Custom(Arc<CustomEffect>),
}

impl std::fmt::Debug for ModelEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ModelEffect::{}", self.type_name())
    }
}

impl From<BasicEffect> for ModelEffect {
    fn from(effect: BasicEffect) -> Self {
        ModelEffect::Basic(Arc::new(Mutex::new(effect)))
    }
}

impl From<AlphaTestEffect> for ModelEffect {
    fn from(effect: AlphaTestEffect) -> Self {
        ModelEffect::AlphaTest(Arc::new(Mutex::new(effect)))
    }
}

impl From<DualTextureEffect> for ModelEffect {
    fn from(effect: DualTextureEffect) -> Self {
        ModelEffect::DualTexture(Arc::new(Mutex::new(effect)))
    }
}

impl From<SkinnedEffect> for ModelEffect {
    fn from(effect: SkinnedEffect) -> Self {
        ModelEffect::Skinned(Arc::new(Mutex::new(effect)))
    }
}

impl From<EnvironmentMapEffect> for ModelEffect {
    fn from(effect: EnvironmentMapEffect) -> Self {
        ModelEffect::EnvironmentMap(Arc::new(Mutex::new(effect)))
    }
}

impl From<Arc<CustomEffect>> for ModelEffect {
    fn from(effect: Arc<CustomEffect>) -> Self {
        ModelEffect::Custom(effect)
    }
}

impl ModelEffect {
    /// Whether `self` and `other` are the same effect (.NET's reference equality of two
    /// `Effect`s), not two effects of equal values.
    pub fn ptr_eq(&self, other: &ModelEffect) -> bool {
        match (self, other) {
            (ModelEffect::Basic(a), ModelEffect::Basic(b)) => Arc::ptr_eq(a, b),
            (ModelEffect::AlphaTest(a), ModelEffect::AlphaTest(b)) => Arc::ptr_eq(a, b),
            (ModelEffect::DualTexture(a), ModelEffect::DualTexture(b)) => Arc::ptr_eq(a, b),
            (ModelEffect::Skinned(a), ModelEffect::Skinned(b)) => Arc::ptr_eq(a, b),
            (ModelEffect::EnvironmentMap(a), ModelEffect::EnvironmentMap(b)) => Arc::ptr_eq(a, b),
            (ModelEffect::Custom(a), ModelEffect::Custom(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// XNA's name of the effect's type.
    pub fn type_name(&self) -> &'static str {
        match self {
            ModelEffect::Basic(_) => "BasicEffect",
            ModelEffect::AlphaTest(_) => "AlphaTestEffect",
            ModelEffect::DualTexture(_) => "DualTextureEffect",
            ModelEffect::Skinned(_) => "SkinnedEffect",
            ModelEffect::EnvironmentMap(_) => "EnvironmentMapEffect",
            ModelEffect::Custom(_) => "CustomEffect",
        }
    }

    /// `Model.Draw`'s step for one effect: `World`, `View` and `Projection` set through
    /// `IEffectMatrices`, or XNA's `InvalidOperationException` for an effect without them.
    pub(crate) fn set_matrices(
        &self,
        world: Matrix,
        view: Matrix,
        projection: Matrix,
    ) -> Result<()> {
        fn set(e: &mut dyn EffectMatrices, world: Matrix, view: Matrix, projection: Matrix) {
            e.set_world(world);
            e.set_view(view);
            e.set_projection(projection);
        }
        match self {
            ModelEffect::Basic(e) => set(&mut *lock(e), world, view, projection),
            ModelEffect::AlphaTest(e) => set(&mut *lock(e), world, view, projection),
            ModelEffect::DualTexture(e) => set(&mut *lock(e), world, view, projection),
            ModelEffect::Skinned(e) => set(&mut *lock(e), world, view, projection),
            ModelEffect::EnvironmentMap(e) => set(&mut *lock(e), world, view, projection),
            ModelEffect::Custom(_) => {
                return Err(XnaError::invalid_operation(
                    "The model contains an effect that does not implement IEffectMatrices (a \
                     CustomEffect): Model.Draw cannot set its World, View and Projection. Set \
                     them on the effect and draw each mesh with ModelMesh.Draw.",
                ))
            }
        }
        Ok(())
    }

    /// Applies each pass of the current technique in turn, calling `draw` after each, as
    /// `ModelMesh.Draw` does.
    pub(crate) fn for_each_pass(&self, mut draw: impl FnMut() -> Result<()>) -> Result<()> {
        match self {
            ModelEffect::Basic(e) => {
                lock(e).current_technique().passes()[0].apply()?;
                draw()
            }
            ModelEffect::AlphaTest(e) => {
                lock(e).current_technique().passes()[0].apply()?;
                draw()
            }
            ModelEffect::DualTexture(e) => {
                lock(e).current_technique().passes()[0].apply()?;
                draw()
            }
            ModelEffect::Skinned(e) => {
                lock(e).current_technique().passes()[0].apply()?;
                draw()
            }
            ModelEffect::EnvironmentMap(e) => {
                lock(e).current_technique().passes()[0].apply()?;
                draw()
            }
            ModelEffect::Custom(e) => {
                for pass in e.current_technique().passes() {
                    pass.apply()?;
                    draw()?;
                }
                Ok(())
            }
        }
    }
}

/// XNA's `ModelEffectCollection`: the distinct effects of a mesh's parts, each once, in the
/// order XNA's `ModelMeshPart.Effect` setter leaves them (an effect joins at the end when a
/// part first takes it, and leaves when no part holds it any more).
#[derive(Clone, Debug, Default)]
pub struct ModelEffectCollection(Vec<ModelEffect>);

impl ModelEffectCollection {
    /// `Count`.
    pub fn count(&self) -> usize {
        self.0.len()
    }

    /// The effect at `index` (XNA's indexer), or `None` past the end (where XNA raises
    /// `ArgumentOutOfRangeException`).
    pub fn get(&self, index: usize) -> Option<&ModelEffect> {
        self.0.get(index)
    }

    /// The effects in order (XNA's enumerator).
    pub fn iter(&self) -> std::slice::Iter<'_, ModelEffect> {
        self.0.iter()
    }

    /// Whether `effect` is one of them (by identity).
    pub fn contains(&self, effect: &ModelEffect) -> bool {
        self.0.iter().any(|e| e.ptr_eq(effect))
    }

    pub(crate) fn add(&mut self, effect: ModelEffect) {
        self.0.push(effect);
    }

    pub(crate) fn remove(&mut self, effect: &ModelEffect) {
        self.0.retain(|e| !e.ptr_eq(effect));
    }
}

impl<'a> IntoIterator for &'a ModelEffectCollection {
    type Item = &'a ModelEffect;
    type IntoIter = std::slice::Iter<'a, ModelEffect>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
