//! Primitives as mesh parts, and the model put together.
//!
//! In: the nodes with a mesh, the bones, skins and animations. Out: the [`Model`]. A part's
//! vertices are packed into one vertex buffer in the declaration the module documentation of
//! `gltf/` lists, its indices into one index buffer. What is decided here: only triangle lists
//! are drawn (other modes are `NotSupported` naming the mesh and primitive); every attribute
//! holds one element per position; JOINTS_0 and WEIGHTS_0 come together; a joint index must
//! name one of the skin's joints; an index must name a vertex and the indices make whole
//! triangles; each triangle's winding is reversed, as XNA's front faces are clockwise and
//! glTF's counter-clockwise.

use std::sync::Arc;

use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::{Mode, Semantic};

use super::accessor::{Expect, Read};
use super::material::{Inputs, Materials};
use super::File;
use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::math::{BoundingSphere, Vector3};
use crate::models::{Model, ModelBoneCollection, ModelMesh, ModelMeshCollection, ModelMeshPart};
use crate::resources::buffer::{BufferUsage, IndexBuffer, VertexBuffer};
use crate::vertex::{
    IndexElementSize, VertexDeclaration, VertexElement, VertexElementFormat as F,
    VertexElementUsage as U,
};

const FLOAT: &[DataType] = &[DataType::F32];
const UNIT: &[DataType] = &[DataType::F32, DataType::U8, DataType::U16];
const UNSIGNED: &[DataType] = &[DataType::U8, DataType::U16, DataType::U32];

impl File<'_> {
    /// The whole model.
    pub fn model(&self, device: &GraphicsDevice) -> Result<Model> {
        let bones = self.bones()?;
        let skins = self.skins(&bones.of_node)?;
        let animations = self.animations(&bones.of_node)?;
        let mut materials = Materials::default();
        let mut meshes = Vec::new();
        for node in self.document.nodes() {
            let Some(mesh) = node.mesh() else { continue };
            let skin = node.skin().map(|s| s.index());
            let joints = skin.map(|s| skins[s].joints.len());
            let mut parts = Vec::new();
            let mut effects = Vec::new();
            let mut points = Vec::new();
            for primitive in mesh.primitives() {
                let what = format!("mesh {} primitive {}", mesh.index(), primitive.index());
                let (part, inputs) = self.part(device, &primitive, joints, &what, &mut points)?;
                let material = primitive.material();
                effects.push(materials.effect(self, device, material, inputs, &what)?);
                parts.push(part);
            }
            let bounding_sphere = BoundingSphere::create_from_points(&points).map_err(|e| {
                self.error(format!(
                    "mesh {}'s positions make no bounding sphere ({e})",
                    mesh.index()
                ))
            })?;
            let mut model_mesh = ModelMesh {
                name: mesh.name().map(str::to_owned),
                parent_bone: if skin.is_some() { 0 } else { bones.of_node[node.index()] },
                bounding_sphere,
                tag: None,
                parts,
                effects: Default::default(),
                device: Arc::downgrade(&device.shared),
                skin,
            };
            for (p, effect) in effects.into_iter().enumerate() {
                model_mesh.set_part_effect(p, Some(effect))?;
            }
            meshes.push(model_mesh);
        }
        Ok(Model {
            bones: ModelBoneCollection(bones.bones),
            meshes: ModelMeshCollection(meshes),
            root: 0,
            tag: None,
            rest_poses: bones.rest_poses,
            skins,
            animations,
            textures: materials.into_textures(),
        })
    }

    /// One primitive as a part, its positions added to `points`.
    fn part(
        &self,
        device: &GraphicsDevice,
        primitive: &gltf::Primitive<'_>,
        joints: Option<usize>,
        what: &str,
        points: &mut Vec<Vector3>,
    ) -> Result<(ModelMeshPart, Inputs)> {
        if primitive.mode() != Mode::Triangles {
            return Err(XnaError::not_supported(format!(
                "{}: {what} draws {:?}; xnagraph's models draw triangle lists only.",
                self.asset,
                primitive.mode()
            )));
        }
        let read = |semantic: Semantic, name: &str, expect: &Expect| {
            primitive
                .get(&semantic)
                .map(|a| {
                    let use_ = format!("{what}'s {name}");
                    self.floats(a.index(), &use_, expect).map(|r| (a.index(), use_, r))
                })
                .transpose()
        };
        let vec = |d: &'static [Dimensions], types: &'static [DataType]| Expect {
            dimensions: d,
            types,
            normalized: Some(true),
        };
        let Some((_, _, positions)) =
            read(Semantic::Positions, "POSITION", &vec(&[Dimensions::Vec3], FLOAT))?
        else {
            return Err(self.error(format!("{what} has no POSITION")));
        };
        let n = positions.count();
        let normals = read(Semantic::Normals, "NORMAL", &vec(&[Dimensions::Vec3], FLOAT))?;
        let texcoords =
            read(Semantic::TexCoords(0), "TEXCOORD_0", &vec(&[Dimensions::Vec2], UNIT))?;
        let colors = read(
            Semantic::Colors(0),
            "COLOR_0",
            &vec(&[Dimensions::Vec3, Dimensions::Vec4], UNIT),
        )?;
        let weights = read(Semantic::Weights(0), "WEIGHTS_0", &vec(&[Dimensions::Vec4], UNIT))?;
        let blend = match (primitive.get(&Semantic::Joints(0)), &weights) {
            (None, None) => None,
            (Some(a), Some(w)) => {
                let use_ = format!("{what}'s JOINTS_0");
                let expect = Expect {
                    dimensions: &[Dimensions::Vec4],
                    types: &[DataType::U8, DataType::U16],
                    normalized: Some(false),
                };
                Some(((a.index(), use_.clone(), self.integers(a.index(), &use_, &expect)?), w))
            }
            _ => {
                return Err(self
                    .error(format!("{what} has one of JOINTS_0 and WEIGHTS_0 without the other")))
            }
        };
        for (index, use_, count) in [
            normals.as_ref().map(|(i, u, r)| (*i, u, r.count())),
            texcoords.as_ref().map(|(i, u, r)| (*i, u, r.count())),
            colors.as_ref().map(|(i, u, r)| (*i, u, r.count())),
            blend.as_ref().map(|((i, u, r), _)| (*i, u, r.count())),
            weights.as_ref().map(|(i, u, r)| (*i, u, r.count())),
        ]
        .into_iter()
        .flatten()
        {
            if count != n {
                return Err(self.accessor_error(
                    index,
                    use_,
                    format!("holds {count} elements for {n} positions"),
                ));
            }
        }
        if joints.is_some() && blend.is_none() {
            return Err(self.error(format!(
                "{what} belongs to a skinned node but has no JOINTS_0 and WEIGHTS_0"
            )));
        }
        if let (Some(((index, use_, j), _)), Some(joint_count)) = (&blend, joints) {
            if let Some(bad) = j.values.iter().find(|&&v| v as usize >= joint_count) {
                return Err(self.accessor_error(
                    *index,
                    use_,
                    format!("names joint {bad}, but the skin has {joint_count}"),
                ));
            }
        }
        let skinned = joints.is_some();
        // A node without a skin draws its mesh rigidly (glTF ignores the mesh's joints there):
        // its vertices carry no blend elements.
        let blend = blend.filter(|_| skinned);
        let inputs = Inputs {
            skinned,
            normals: normals.is_some(),
            colors: colors.is_some(),
            texture_coordinates: texcoords.is_some(),
        };

        // The declaration, element by element in a fixed order.
        let mut elements = Vec::new();
        let mut offset = 0;
        let mut add = |format: F, usage: U| {
            elements.push(VertexElement::new(offset, format, usage, 0));
            offset += format.size();
        };
        add(F::Vector3, U::Position);
        if normals.is_some() {
            add(F::Vector3, U::Normal);
        }
        let texcoords_written = texcoords.is_some() || skinned;
        if texcoords_written {
            add(F::Vector2, U::TextureCoordinate);
        }
        if colors.is_some() {
            add(F::Color, U::Color);
        }
        if blend.is_some() {
            add(F::Byte4, U::BlendIndices);
            add(F::Vector4, U::BlendWeight);
        }
        let declaration = VertexDeclaration::new(&elements)?;
        let mut bytes = Vec::with_capacity(n * declaration.vertex_stride() as usize);
        let floats = |bytes: &mut Vec<u8>, v: &[f32]| {
            for x in v {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        };
        for i in 0..n {
            let p = positions.get(i);
            points.push(Vector3::new(p[0], p[1], p[2]));
            floats(&mut bytes, p);
            if let Some((_, _, r)) = &normals {
                floats(&mut bytes, r.get(i));
            }
            match &texcoords {
                Some((_, _, r)) => floats(&mut bytes, r.get(i)),
                None if texcoords_written => floats(&mut bytes, &[0.0, 0.0]),
                None => {}
            }
            if let Some((_, _, r)) = &colors {
                let c = r.get(i);
                let alpha = c.get(3).copied().unwrap_or(1.0);
                for x in [c[0], c[1], c[2], alpha] {
                    bytes.push((x.clamp(0.0, 1.0) * 255.0).round() as u8);
                }
            }
            if let Some(((_, _, j), (_, _, w))) = &blend {
                bytes.extend(j.get(i).iter().map(|&v| v as u8));
                floats(&mut bytes, w.get(i));
            }
        }
        let vertex_buffer = VertexBuffer::new(device, &declaration, n as i32, BufferUsage::None)?;
        vertex_buffer.set_data(&bytes)?;

        let indices: Vec<u32> = match primitive.indices() {
            None => (0..n as u32).collect(),
            Some(a) => {
                let use_ = format!("{what}'s indices");
                let expect = Expect {
                    dimensions: &[Dimensions::Scalar],
                    types: UNSIGNED,
                    normalized: Some(false),
                };
                let read: Read<u32> = self.integers(a.index(), &use_, &expect)?;
                if let Some(bad) = read.values.iter().find(|&&v| v as usize >= n) {
                    return Err(self.accessor_error(
                        a.index(),
                        &use_,
                        format!("names vertex {bad} of {n}"),
                    ));
                }
                read.values
            }
        };
        if indices.is_empty() || !indices.len().is_multiple_of(3) {
            return Err(self.error(format!(
                "{what} has {} indices, which make no whole triangles",
                indices.len()
            )));
        }
        // glTF's front faces wind counter-clockwise, XNA's clockwise (its default
        // `CullCounterClockwiseFace` culls glTF's fronts): each triangle is reversed.
        let indices: Vec<u32> = indices.chunks_exact(3).flat_map(|t| [t[0], t[2], t[1]]).collect();
        let index_buffer = if n <= 1 << 16 {
            let b = IndexBuffer::new(
                device,
                IndexElementSize::SixteenBits,
                indices.len() as i32,
                BufferUsage::None,
            )?;
            b.set_data(&indices.iter().map(|&i| i as u16).collect::<Vec<u16>>())?;
            b
        } else {
            let b = IndexBuffer::new(
                device,
                IndexElementSize::ThirtyTwoBits,
                indices.len() as i32,
                BufferUsage::None,
            )?;
            b.set_data(&indices)?;
            b
        };
        let part = ModelMeshPart {
            vertex_buffer: Some(Arc::new(vertex_buffer)),
            index_buffer: Some(Arc::new(index_buffer)),
            vertex_offset: 0,
            num_vertices: n as i32,
            start_index: 0,
            primitive_count: (indices.len() / 3) as i32,
            effect: None,
            tag: None,
        };
        Ok((part, inputs))
    }
}
