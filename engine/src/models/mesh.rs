//! XNA's `ModelMesh` and `ModelMeshPart`: a mesh is parts under one bone, each part a range
//! of indexed triangles drawn with one effect.
//!
//! `ModelMesh::draw` is XNA's `ModelMesh.Draw()`: for each part with primitives, its vertex
//! buffer and index buffer are bound and every pass of its effect's current technique is
//! applied and draws `DrawIndexedPrimitives(TriangleList, VertexOffset, 0, NumVertices,
//! StartIndex, PrimitiveCount)`, as FNA and MonoGame draw it. The device's states (blend,
//! depth, rasterizer, samplers) are the game's, as in XNA.

use std::sync::{Arc, Weak};

use xnagraph_graph::PrimitiveType;

use super::effect::{ModelEffect, ModelEffectCollection};
use super::ModelTag;
use crate::device::shared::DeviceShared;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::math::BoundingSphere;
use crate::resources::buffer::{IndexBuffer, VertexBuffer};

/// XNA's `ModelMeshPart`: a range of indexed triangles of a mesh and the effect that draws it.
///
/// The buffers are shared (`Arc`): parts of one model often use one vertex buffer at
/// different offsets, as the content pipeline writes them. Where it differs from XNA: the
/// `Effect` setter is [`ModelMesh::set_part_effect`], since setting it changes the mesh's
/// `Effects` too.
#[derive(Clone, Debug)]
pub struct ModelMeshPart {
    pub(crate) vertex_buffer: Option<Arc<VertexBuffer>>,
    pub(crate) index_buffer: Option<Arc<IndexBuffer>>,
    pub(crate) vertex_offset: i32,
    pub(crate) num_vertices: i32,
    pub(crate) start_index: i32,
    pub(crate) primitive_count: i32,
    pub(crate) effect: Option<ModelEffect>,
    pub(crate) tag: Option<ModelTag>,
}

impl ModelMeshPart {
    /// `VertexBuffer` (`None` where the file names none, as XNA's may be null).
    pub fn vertex_buffer(&self) -> Option<&Arc<VertexBuffer>> {
        self.vertex_buffer.as_ref()
    }

    /// `IndexBuffer` (`None` where the file names none).
    pub fn index_buffer(&self) -> Option<&Arc<IndexBuffer>> {
        self.index_buffer.as_ref()
    }

    /// `VertexOffset`: the vertex the part's index 0 names (the draw's base vertex).
    pub fn vertex_offset(&self) -> i32 {
        self.vertex_offset
    }

    /// `NumVertices`: how many vertices the part's indices span (the draw's hint).
    pub fn num_vertices(&self) -> i32 {
        self.num_vertices
    }

    /// `StartIndex`: the part's first index in the index buffer.
    pub fn start_index(&self) -> i32 {
        self.start_index
    }

    /// `PrimitiveCount`: the part's triangles; a part of 0 is skipped by `Draw`.
    pub fn primitive_count(&self) -> i32 {
        self.primitive_count
    }

    /// `Effect` (`None` where the file names none).
    pub fn effect(&self) -> Option<&ModelEffect> {
        self.effect.as_ref()
    }

    /// `Tag`: the object the file attached (XNA's `object`), or what the game set.
    pub fn tag(&self) -> Option<&ModelTag> {
        self.tag.as_ref()
    }

    /// Sets `Tag`.
    pub fn set_tag(&mut self, tag: Option<ModelTag>) {
        self.tag = tag;
    }
}

/// XNA's `ModelMesh`: parts placed by one bone of the model, with a bounding sphere.
#[derive(Clone, Debug)]
pub struct ModelMesh {
    pub(crate) name: Option<String>,
    pub(crate) parent_bone: usize,
    pub(crate) bounding_sphere: BoundingSphere,
    pub(crate) tag: Option<ModelTag>,
    pub(crate) parts: Vec<ModelMeshPart>,
    pub(crate) effects: ModelEffectCollection,
    pub(crate) device: Weak<DeviceShared>,
    pub(crate) skin: Option<usize>,
}

impl ModelMesh {
    /// `Name` (`None` where the file names none).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// `ParentBone`, as its index in the model's `Bones` (XNA hands out the bone): the bone
    /// whose absolute transform places the mesh.
    pub fn parent_bone(&self) -> usize {
        self.parent_bone
    }

    /// `BoundingSphere`: the sphere around the mesh's vertices, in the space of its bone.
    pub fn bounding_sphere(&self) -> BoundingSphere {
        self.bounding_sphere
    }

    /// The skin that deforms the mesh, as its index in the model's `skins()` (not XNA; `None`
    /// for a rigid mesh). A skinned mesh's parts draw with `SkinnedEffect`s, and its parent
    /// bone is the model's root, since its joints place it (glTF ignores the transform of a
    /// skinned mesh's node).
    pub fn skin(&self) -> Option<usize> {
        self.skin
    }

    /// `MeshParts` (XNA's `ModelMeshPartCollection`).
    pub fn mesh_parts(&self) -> &[ModelMeshPart] {
        &self.parts
    }

    /// `MeshParts`, to set a part's `Tag`.
    pub fn mesh_parts_mut(&mut self) -> &mut [ModelMeshPart] {
        &mut self.parts
    }

    /// `Effects`: the distinct effects of the parts (see [`ModelEffectCollection`]).
    pub fn effects(&self) -> &ModelEffectCollection {
        &self.effects
    }

    /// `Tag`: the object the file attached, or what the game set.
    pub fn tag(&self) -> Option<&ModelTag> {
        self.tag.as_ref()
    }

    /// Sets `Tag`.
    pub fn set_tag(&mut self, tag: Option<ModelTag>) {
        self.tag = tag;
    }

    /// `MeshParts[part].Effect = effect`, as XNA's setter: the same effect again changes
    /// nothing; the part's old effect leaves `Effects` when no other part holds it; the new
    /// one joins the end of `Effects` when no part held it before. A `part` past the parts is
    /// `ArgumentOutOfRange` on `index`, as XNA's collection indexer.
    pub fn set_part_effect(&mut self, part: usize, effect: Option<ModelEffect>) -> Result<()> {
        let count = self.parts.len();
        let old = match self.parts.get(part) {
            Some(p) => p.effect.clone(),
            None => {
                return Err(XnaError::out_of_range(
                    "index",
                    format!("The mesh has {count} parts; part {part} does not exist."),
                ))
            }
        };
        let same = match (&old, &effect) {
            (Some(a), Some(b)) => a.ptr_eq(b),
            (None, None) => true,
            _ => false,
        };
        if same {
            return Ok(());
        }
        if let Some(old) = &old {
            let held_elsewhere = self
                .parts
                .iter()
                .enumerate()
                .any(|(i, p)| i != part && p.effect.as_ref().is_some_and(|e| e.ptr_eq(old)));
            if !held_elsewhere {
                self.effects.remove(old);
            }
        }
        if let Some(new) = &effect {
            if !self.effects.contains(new) {
                self.effects.add(new.clone());
            }
        }
        self.parts[part].effect = effect;
        Ok(())
    }

    /// `Draw()`: each part with primitives drawn with every pass of its effect (see the module
    /// documentation), recorded into the device's frame.
    ///
    /// Errors: the device disposed is `ObjectDisposed`; a part without an effect is
    /// `InvalidOperation` (XNA's would fail on the null); a part without a vertex or index
    /// buffer, and every error of `EffectPass.Apply` and `DrawIndexedPrimitives`, as those
    /// calls raise them. Parts before the one that fails are drawn, as in XNA.
    pub fn draw(&self) -> Result<()> {
        let shared =
            self.device.upgrade().ok_or(XnaError::ObjectDisposed { object: "GraphicsDevice" })?;
        let device = GraphicsDevice::view(shared);
        for (i, part) in self.parts.iter().enumerate() {
            let effect = part.effect.as_ref().ok_or_else(|| {
                XnaError::invalid_operation(format!(
                    "Part {i} of the mesh '{}' has no effect to draw with.",
                    self.name().unwrap_or("")
                ))
            })?;
            if part.primitive_count <= 0 {
                continue;
            }
            device.set_vertex_buffer(part.vertex_buffer.as_deref())?;
            device.set_indices(part.index_buffer.as_deref())?;
            effect.for_each_pass(|| {
                device.draw_indexed_primitives(
                    PrimitiveType::TriangleList,
                    part.vertex_offset,
                    0,
                    part.num_vertices,
                    part.start_index,
                    part.primitive_count,
                )
            })?;
        }
        Ok(())
    }
}
