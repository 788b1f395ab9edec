//! `ModelReader`: XNA 4.0's compiled model, its buffers and effects as shared resources.
//!
//! In: a [`ContentReader`] at a model object's data (after its reader index), and, once the
//! asset's shared resources are read, those resources. Out: the [`Model`], its parts holding
//! the shared buffers and effects, or a `ContentLoad` error naming what is wrong and the byte
//! where it lies.
//!
//! The layout, as XNA 4.0's `ModelWriter` writes it and XNA's, FNA's and MonoGame's readers
//! read it:
//! - the bone count (`uint`); per bone its name (an object: a `String` or null) and its
//!   transform (16 `f32`, M11 to M44);
//! - per bone, its parent (a bone reference) then its child count (`uint`) and the children
//!   (bone references);
//! - the mesh count (`int`); per mesh its name (an object), its parent bone (a bone
//!   reference), its bounding sphere (centre `Vector3`, radius `f32`), its tag (an object),
//!   its part count (`int`), and per part its vertex offset, vertex count, start index and
//!   primitive count (`int`s), its tag (an object), then three shared resource references:
//!   the vertex buffer, the index buffer and the effect;
//! - the root bone (a bone reference) and the model's tag (an object).
//!
//! A bone reference is 0 for none, else the bone's index + 1: one byte when the model has
//! fewer than 255 bones (so every reference fits in a byte), a `uint` otherwise. A shared
//! resource reference is a 7-bit encoded integer: 0 for none, else the resource's place
//! (from 1) among the shared resources that follow the asset's primary object.
//!
//! What is decided here: a bone reference past the bones, and a shared resource reference
//! past the asset's count, are refused at their byte (XNA's reader fails on them too); a tag
//! is any object but a model (a model in a model's tag is refused, so reads do not nest
//! without bound); a null
//! parent bone of a mesh, a null root and a null child are refused (XNA's reader indexes with
//! them and fails); a shared resource of the wrong type for its slot (an index buffer where
//! the vertex buffer goes) is refused at the reference's byte, as XNA's typed fixup refuses
//! it. Effects are set on the parts in XNA's order, resource by resource, each resource's
//! parts in file order, through [`ModelMesh::set_part_effect`], so each mesh's `Effects`
//! come out in XNA's order. A null vertex buffer, index buffer or effect is kept as `None`,
//! as XNA keeps null (drawing such a part is then an error).

use std::sync::{Arc, Mutex};

use super::{ContentReader, Object};
use crate::error::Result;
use crate::math::{BoundingSphere, Matrix};
use crate::models::{
    BonePose, Model, ModelBone, ModelBoneCollection, ModelEffect, ModelMesh, ModelMeshCollection,
    ModelMeshPart, ModelTag,
};
use crate::resources::buffer::{IndexBuffer, VertexBuffer};

/// A shared resource reference as the file holds it: the resource's place from 1 (0: none)
/// and the byte where the reference lies.
#[derive(Clone, Copy, Debug)]
struct SharedRef {
    index: u32,
    at: usize,
}

/// The shared resource references of one part.
#[derive(Debug)]
struct PartRefs {
    mesh: usize,
    part: usize,
    vertex_buffer: SharedRef,
    index_buffer: SharedRef,
    effect: SharedRef,
}

/// A model read up to its shared resources: its parts hold no buffer or effect yet.
pub struct PendingModel {
    model: Model,
    refs: Vec<PartRefs>,
}

/// A shared resource as a part takes it.
enum Shared {
    Vertices(Arc<VertexBuffer>),
    Indices(Arc<IndexBuffer>),
    Effect(ModelEffect),
    Other(&'static str),
    Null,
}

impl Shared {
    fn of(object: Option<Object>) -> Shared {
        match object {
            None => Shared::Null,
            Some(Object::VertexBuffer(b)) => Shared::Vertices(Arc::new(b)),
            Some(Object::IndexBuffer(b)) => Shared::Indices(Arc::new(b)),
            Some(Object::BasicEffect(e)) => Shared::Effect(ModelEffect::Basic(shared(*e))),
            Some(Object::AlphaTestEffect(e)) => Shared::Effect(ModelEffect::AlphaTest(shared(*e))),
            Some(Object::DualTextureEffect(e)) => {
                Shared::Effect(ModelEffect::DualTexture(shared(*e)))
            }
            Some(Object::SkinnedEffect(e)) => Shared::Effect(ModelEffect::Skinned(shared(*e))),
            Some(Object::EnvironmentMapEffect(e)) => {
                Shared::Effect(ModelEffect::EnvironmentMap(shared(*e)))
            }
            Some(other) => Shared::Other(other.type_name()),
        }
    }

    fn type_name(&self) -> &'static str {
        match self {
            Shared::Vertices(_) => "VertexBuffer",
            Shared::Indices(_) => "IndexBuffer",
            Shared::Effect(e) => e.type_name(),
            Shared::Other(name) => name,
            Shared::Null => "null object",
        }
    }
}

fn shared<T>(value: T) -> Arc<Mutex<T>> {
    Arc::new(Mutex::new(value))
}

/// The value of a tag object, as the game reads it back (`None` for a model, whose shared
/// resources a tag cannot reach).
fn into_tag(object: Object) -> Option<ModelTag> {
    Some(match object {
        Object::Texture2D(v) => Arc::new(v),
        Object::Texture3D(v) => Arc::new(v),
        Object::TextureCube(v) => Arc::new(v),
        Object::VertexDeclaration(v) => Arc::new(v),
        Object::VertexBuffer(v) => Arc::new(v),
        Object::IndexBuffer(v) => Arc::new(v),
        Object::SpriteFont(v) => Arc::new(*v),
        Object::Rectangles(v) => Arc::new(v),
        Object::Chars(v) => Arc::new(v),
        Object::Vectors(v) => Arc::new(v),
        Object::Rectangle(v) => Arc::new(v),
        Object::Char(v) => Arc::new(v),
        Object::Vector3(v) => Arc::new(v),
        Object::Int32(v) => Arc::new(v),
        Object::Single(v) => Arc::new(v),
        Object::Boolean(v) => Arc::new(v),
        Object::String(v) => Arc::new(v),
        Object::Vector2(v) => Arc::new(v),
        Object::Vector4(v) => Arc::new(v),
        Object::Matrix(v) => Arc::new(v),
        Object::Quaternion(v) => Arc::new(v),
        Object::Color(v) => Arc::new(v),
        Object::CompareFunction(v) => Arc::new(v),
        Object::BasicEffect(v) => Arc::new(*v),
        Object::AlphaTestEffect(v) => Arc::new(*v),
        Object::DualTextureEffect(v) => Arc::new(*v),
        Object::SkinnedEffect(v) => Arc::new(*v),
        Object::EnvironmentMapEffect(v) => Arc::new(*v),
        Object::PendingModel(_) | Object::Model(_) => return None,
    })
}

impl ContentReader<'_> {
    /// `ModelReader`, up to the shared resources ([`Self::resolve_model`] finishes it).
    pub(super) fn model(&mut self) -> Result<PendingModel> {
        let bone_count = self.xnb.u32("the model's bone count")?;
        let mut bones = Vec::with_capacity((bone_count as usize).min(4096));
        for i in 0..bone_count as usize {
            let name = self.optional_string(&format!("bone {i}'s name"))?;
            let mut m = [[0.0f32; 4]; 4];
            for row in &mut m {
                for value in row {
                    *value = self.xnb.f32(&format!("bone {i}'s transform"))?;
                }
            }
            let transform = Matrix { m };
            bones.push(ModelBone { name, index: i, parent: None, children: Vec::new(), transform });
        }
        for (i, bone) in bones.iter_mut().enumerate() {
            bone.parent = self.bone_reference(bone_count, &format!("bone {i}'s parent"))?;
            let children = self.xnb.u32(&format!("bone {i}'s child count"))?;
            for j in 0..children {
                let what = format!("bone {i}'s child {j}");
                bone.children.push(self.required_bone(bone_count, &what)?);
            }
        }

        let mesh_count = self.xnb.count("the model's mesh count")?;
        let mut meshes = Vec::with_capacity(mesh_count.min(4096));
        let mut refs = Vec::new();
        for m in 0..mesh_count {
            let name = self.optional_string(&format!("mesh {m}'s name"))?;
            let parent_bone = self.required_bone(bone_count, &format!("mesh {m}'s parent bone"))?;
            let center = self.vector3_of(&format!("mesh {m}'s bounding sphere"))?;
            let radius = self.xnb.f32(&format!("mesh {m}'s bounding sphere"))?;
            let tag = self.tag(&format!("mesh {m}'s tag"))?;
            let part_count = self.xnb.count(&format!("mesh {m}'s part count"))?;
            let mut parts = Vec::with_capacity(part_count.min(4096));
            for p in 0..part_count {
                let what = |field: &str| format!("mesh {m} part {p}'s {field}");
                let vertex_offset = self.xnb.i32(&what("vertex offset"))?;
                let num_vertices = self.xnb.i32(&what("vertex count"))?;
                let start_index = self.xnb.i32(&what("start index"))?;
                let primitive_count = self.xnb.i32(&what("primitive count"))?;
                let tag = self.tag(&what("tag"))?;
                refs.push(PartRefs {
                    mesh: m,
                    part: p,
                    vertex_buffer: self.shared_reference(&what("vertex buffer"))?,
                    index_buffer: self.shared_reference(&what("index buffer"))?,
                    effect: self.shared_reference(&what("effect"))?,
                });
                parts.push(ModelMeshPart {
                    vertex_buffer: None,
                    index_buffer: None,
                    vertex_offset,
                    num_vertices,
                    start_index,
                    primitive_count,
                    effect: None,
                    tag,
                });
            }
            meshes.push(ModelMesh {
                name,
                parent_bone,
                bounding_sphere: BoundingSphere { center, radius },
                tag,
                parts,
                effects: Default::default(),
                device: Arc::downgrade(&self.device.shared),
                skin: None,
            });
        }
        let root = self.required_bone(bone_count, "the model's root bone")?;
        let tag = self.tag("the model's tag")?;
        let rest_poses =
            bones.iter().map(|b| BonePose::from_matrix(&b.transform).unwrap_or(BonePose::IDENTITY));
        let model = Model {
            rest_poses: rest_poses.collect(),
            skins: Vec::new(),
            animations: Vec::new(),
            textures: Vec::new(),
            bones: ModelBoneCollection(bones),
            meshes: ModelMeshCollection(meshes),
            root,
            tag,
        };
        Ok(PendingModel { model, refs })
    }

    /// The model with its parts given the shared resources `resources` (each as read, null
    /// as `None`), effects set in XNA's fixup order.
    pub(super) fn resolve_model(
        &self,
        pending: PendingModel,
        resources: Vec<Option<Object>>,
    ) -> Result<Model> {
        let PendingModel { mut model, refs } = pending;
        let shared: Vec<Shared> = resources.into_iter().map(Shared::of).collect();
        // The resource a reference names (`None` for none or a null resource), checked
        // against its slot's type; its index was checked against the count where it was read.
        // The resource a reference names (`None` for none or a null resource), checked
        // against its slot's type, `wants` with its article; the index was checked against
        // the count where it was read.
        let take = |r: SharedRef, field: &str, wants: &str, part: &PartRefs| {
            let Some(s) = r.index.checked_sub(1).map(|i| &shared[i as usize]) else {
                return Ok(None);
            };
            match (s, wants) {
                (Shared::Null, _) => Ok(None),
                (Shared::Vertices(_), "a VertexBuffer")
                | (Shared::Indices(_), "an IndexBuffer")
                | (Shared::Effect(_), "an Effect") => Ok(Some(s)),
                _ => Err(self.xnb.error_at(
                    r.at,
                    format!(
                        "mesh {} part {}'s {field} names shared resource {}, of type {}, where \
                         {wants} goes",
                        part.mesh,
                        part.part,
                        r.index,
                        s.type_name(),
                    ),
                )),
            }
        };
        for r in &refs {
            let part = &mut model.meshes.0[r.mesh].parts[r.part];
            if let Some(Shared::Vertices(b)) =
                take(r.vertex_buffer, "vertex buffer", "a VertexBuffer", r)?
            {
                part.vertex_buffer = Some(b.clone());
            }
            if let Some(Shared::Indices(b)) =
                take(r.index_buffer, "index buffer", "an IndexBuffer", r)?
            {
                part.index_buffer = Some(b.clone());
            }
            take(r.effect, "effect", "an Effect", r)?;
        }
        // XNA runs each resource's fixups when it reads the resource: effects join a mesh's
        // Effects resource by resource, then part by part.
        for (i, resource) in shared.iter().enumerate() {
            let Shared::Effect(effect) = resource else { continue };
            for r in refs.iter().filter(|r| r.effect.index as usize == i + 1) {
                model.meshes.0[r.mesh]
                    .set_part_effect(r.part, Some(effect.clone()))
                    .expect("the part was read");
            }
        }
        Ok(model)
    }

    /// A bone reference: a byte below 255 bones, a `uint` from 255; `None` for 0.
    fn bone_reference(&mut self, bone_count: u32, what: &str) -> Result<Option<usize>> {
        let at = self.xnb.position();
        let id = match bone_count < 255 {
            true => u32::from(self.xnb.u8(what)?),
            false => self.xnb.u32(what)?,
        };
        match id {
            0 => Ok(None),
            id if id <= bone_count => Ok(Some(id as usize - 1)),
            id => Err(self.xnb.error_at(
                at,
                format!("{what} names bone {}, but the model has {bone_count} bones", id - 1),
            )),
        }
    }

    /// A bone reference that must not be null.
    fn required_bone(&mut self, bone_count: u32, what: &str) -> Result<usize> {
        let at = self.xnb.position();
        self.bone_reference(bone_count, what)?
            .ok_or_else(|| self.xnb.error_at(at, format!("{what} is null")))
    }

    /// `ReadSharedResource`'s reference, checked against the asset's shared resource count.
    fn shared_reference(&mut self, what: &str) -> Result<SharedRef> {
        let at = self.xnb.position();
        let index = self.xnb.int7(what)?;
        if index > self.shared_count {
            return Err(self.xnb.error_at(
                at,
                format!(
                    "{what} names shared resource {index}, but the file has {}",
                    self.shared_count
                ),
            ));
        }
        Ok(SharedRef { index, at })
    }

    /// `ReadObject<string>`: a `String` or null.
    fn optional_string(&mut self, what: &str) -> Result<Option<String>> {
        let at = self.xnb.position();
        match self.read_object(what)? {
            None => Ok(None),
            Some(Object::String(s)) => Ok(Some(s)),
            Some(other) => Err(self.xnb.error_at(
                at,
                format!("{what} should be a String, but its reader makes a {}", other.type_name()),
            )),
        }
    }

    /// `ReadObject<object>` of a tag.
    fn tag(&mut self, what: &str) -> Result<Option<ModelTag>> {
        let at = self.xnb.position();
        match self.read_object(what)? {
            None => Ok(None),
            Some(object) => into_tag(object).map(Some).ok_or_else(|| {
                self.xnb.error_at(
                    at,
                    format!("{what} is a Model, which xnagraph reads only as an asset"),
                )
            }),
        }
    }
}
