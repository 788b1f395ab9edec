//! Nodes as bones, skins and animations.
//!
//! In: the file's nodes, skins and animations. Out: the bones in XNA's order (bone 0 the
//! model's root, then every node depth first, parents before children, so XNA's
//! `CopyAbsoluteBoneTransformsTo` walks them in index order), the map from node to bone, each
//! bone's rest pose, the skins and the animations. What is decided here: a node that is the
//! child of two nodes or its own ancestor is refused (bones form a tree); a skin of more
//! joints than `SkinnedEffect` takes is `NotSupported`; an animation sampler's key times must
//! increase and its values number one per key (three for a cubic spline).

use gltf::accessor::{DataType, Dimensions};
use gltf::animation::{Interpolation as GltfInterpolation, Property};
use gltf::scene::Transform;

use super::accessor::Expect;
use super::File;
use crate::effects::skinned::SkinnedEffect;
use crate::error::{Result, XnaError};
use crate::math::{Matrix, Quaternion, Vector3};
use crate::models::{
    AnimationChannel, AnimationValues, BonePose, Interpolation, ModelAnimation, ModelBone,
    ModelSkin,
};

/// The bones read from the nodes.
pub struct Bones {
    pub bones: Vec<ModelBone>,
    pub rest_poses: Vec<BonePose>,
    /// Each node's bone.
    pub of_node: Vec<usize>,
}

const FLOATS: &[DataType] = &[DataType::F32];
const UNIT_INTEGERS: &[DataType] =
    &[DataType::F32, DataType::I8, DataType::U8, DataType::I16, DataType::U16];

impl File<'_> {
    /// Bone 0, the root, then every node depth first.
    pub fn bones(&self) -> Result<Bones> {
        let count = self.document.nodes().count();
        let mut parent = vec![None; count];
        for node in self.document.nodes() {
            for child in node.children() {
                if let Some(first) = parent[child.index()].replace(node.index()) {
                    return Err(self.error(format!(
                        "node {} is a child of nodes {first} and {}; a node has one parent",
                        child.index(),
                        node.index()
                    )));
                }
            }
        }
        let scene_name = self.document.scenes().next().and_then(|s| s.name().map(str::to_owned));
        let mut bones = vec![ModelBone {
            name: scene_name,
            index: 0,
            parent: None,
            children: Vec::new(),
            transform: Matrix::IDENTITY,
        }];
        let mut rest_poses = vec![BonePose::IDENTITY];
        let mut of_node = vec![usize::MAX; count];
        // Depth first from the nodes without a parent, children in file order.
        let mut stack: Vec<(usize, usize)> =
            (0..count).rev().filter(|&n| parent[n].is_none()).map(|n| (n, 0)).collect();
        // Every index on the stack is below the node count, so indexing cannot fail.
        let nodes: Vec<_> = self.document.nodes().collect();
        while let Some((n, parent_bone)) = stack.pop() {
            let node = &nodes[n];
            let index = bones.len();
            of_node[n] = index;
            let (transform, pose) = match node.transform() {
                Transform::Matrix { matrix } => {
                    let m = Matrix { m: matrix };
                    (m, BonePose::from_matrix(&m).unwrap_or(BonePose::IDENTITY))
                }
                Transform::Decomposed { translation: t, rotation: r, scale: s } => {
                    let pose = BonePose {
                        translation: Vector3::new(t[0], t[1], t[2]),
                        rotation: Quaternion::new(r[0], r[1], r[2], r[3]),
                        scale: Vector3::new(s[0], s[1], s[2]),
                    };
                    (pose.to_matrix(), pose)
                }
            };
            bones[parent_bone].children.push(index);
            bones.push(ModelBone {
                name: node.name().map(str::to_owned),
                index,
                parent: Some(parent_bone),
                children: Vec::new(),
                transform,
            });
            rest_poses.push(pose);
            let children: Vec<usize> = node.children().map(|c| c.index()).collect();
            stack.extend(children.into_iter().rev().map(|c| (c, index)));
        }
        if let Some(n) = of_node.iter().position(|&b| b == usize::MAX) {
            return Err(self.error(format!("node {n} is its own ancestor")));
        }
        Ok(Bones { bones, rest_poses, of_node })
    }

    /// The skins, joints as bones.
    pub fn skins(&self, of_node: &[usize]) -> Result<Vec<ModelSkin>> {
        let mut skins = Vec::new();
        for skin in self.document.skins() {
            let s = skin.index();
            let joints: Vec<usize> = skin.joints().map(|j| of_node[j.index()]).collect();
            if joints.len() > SkinnedEffect::MAX_BONES {
                return Err(XnaError::not_supported(format!(
                    "{}: skin {s} has {} joints; SkinnedEffect takes at most {}.",
                    self.asset,
                    joints.len(),
                    SkinnedEffect::MAX_BONES
                )));
            }
            let inverse_bind_matrices = match skin.inverse_bind_matrices() {
                None => vec![Matrix::IDENTITY; joints.len()],
                Some(a) => {
                    let what = format!("skin {s}'s inverse bind matrices");
                    let expect =
                        Expect { dimensions: &[Dimensions::Mat4], types: FLOATS, normalized: None };
                    let read = self.floats(a.index(), &what, &expect)?;
                    if read.count() != joints.len() {
                        return Err(self.accessor_error(
                            a.index(),
                            &what,
                            format!("holds {} matrices for {} joints", read.count(), joints.len()),
                        ));
                    }
                    (0..read.count())
                        .map(|i| {
                            let v = read.get(i);
                            Matrix {
                                m: std::array::from_fn(|r| std::array::from_fn(|c| v[r * 4 + c])),
                            }
                        })
                        .collect()
                }
            };
            skins.push(ModelSkin {
                name: skin.name().map(str::to_owned),
                joints,
                inverse_bind_matrices,
                skeleton: skin.skeleton().map(|n| of_node[n.index()]),
            });
        }
        Ok(skins)
    }

    /// The animations, targets as bones.
    pub fn animations(&self, of_node: &[usize]) -> Result<Vec<ModelAnimation>> {
        let mut animations = Vec::new();
        for animation in self.document.animations() {
            let a = animation.index();
            let mut channels = Vec::new();
            for channel in animation.channels() {
                let c = channel.index();
                let sampler = channel.sampler();
                let what = |field: &str| format!("animation {a} channel {c}'s {field}");
                let input = sampler.input().index();
                let times = self
                    .floats(
                        input,
                        &what("key times"),
                        &Expect {
                            dimensions: &[Dimensions::Scalar],
                            types: FLOATS,
                            normalized: None,
                        },
                    )?
                    .values;
                if times.is_empty() {
                    return Err(self.accessor_error(input, &what("key times"), "holds no keys"));
                }
                if let Some(k) = times.windows(2).position(|w| w[1] <= w[0] || !w[1].is_finite()) {
                    return Err(self.accessor_error(
                        input,
                        &what("key times"),
                        format!("does not increase at key {}", k + 1),
                    ));
                }
                let interpolation = match sampler.interpolation() {
                    GltfInterpolation::Step => Interpolation::Step,
                    GltfInterpolation::Linear => Interpolation::Linear,
                    GltfInterpolation::CubicSpline => Interpolation::CubicSpline,
                };
                let per_key = if interpolation == Interpolation::CubicSpline { 3 } else { 1 };
                let keys = times.len() * per_key;
                let output = sampler.output().index();
                let out_what = what("values");
                let (dimensions, types): (&[Dimensions], _) = match channel.target().property() {
                    Property::Rotation => (&[Dimensions::Vec4], UNIT_INTEGERS),
                    Property::MorphTargetWeights => (&[Dimensions::Scalar], UNIT_INTEGERS),
                    Property::Translation | Property::Scale => (&[Dimensions::Vec3], FLOATS),
                };
                let expect = Expect { dimensions, types, normalized: Some(true) };
                let read = self.floats(output, &out_what, &expect)?;
                let count_error = |count: usize| {
                    self.accessor_error(
                        output,
                        &out_what,
                        format!("holds {count} values for {} keys", times.len()),
                    )
                };
                let v = |i: usize| read.get(i);
                let values = match channel.target().property() {
                    Property::MorphTargetWeights => {
                        let n = read.count();
                        if n == 0 || !n.is_multiple_of(keys) {
                            return Err(count_error(n));
                        }
                        AnimationValues::Weights { targets: n / keys, values: read.values.clone() }
                    }
                    _ if read.count() != keys => return Err(count_error(read.count())),
                    Property::Translation => AnimationValues::Translation(
                        (0..keys).map(|i| Vector3::new(v(i)[0], v(i)[1], v(i)[2])).collect(),
                    ),
                    Property::Scale => AnimationValues::Scale(
                        (0..keys).map(|i| Vector3::new(v(i)[0], v(i)[1], v(i)[2])).collect(),
                    ),
                    Property::Rotation => AnimationValues::Rotation(
                        (0..keys)
                            .map(|i| Quaternion::new(v(i)[0], v(i)[1], v(i)[2], v(i)[3]))
                            .collect(),
                    ),
                };
                channels.push(AnimationChannel {
                    bone: of_node[channel.target().node().index()],
                    interpolation,
                    times,
                    values,
                });
            }
            animations.push(ModelAnimation { name: animation.name().map(str::to_owned), channels });
        }
        Ok(animations)
    }
}
