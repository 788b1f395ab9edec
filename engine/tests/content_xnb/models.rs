//! `ModelReader` and `Model`: every field of a model read back (bones, hierarchy, meshes,
//! parts, tags, the root), absolute bone transforms computed as XNA computes them, one vertex
//! buffer shared by several parts, effects set in XNA's order and `ModelMeshPart.Effect`'s
//! setter, bone references one byte wide below 255 bones and four from 255, truncations and
//! bad references refused at their byte, and a part holding a `SkinnedEffect`.
//! `content_xnb/model_draw.rs` holds the tests of `Model.Draw` and `ModelMesh.Draw`.

use super::*;
use xnagraph::{BasicEffect, IndexElementSize, Matrix, Model, ModelEffect, Vector3};

const RED: BasicMaterial = material([1.0, 0.0, 0.0]);
const BLUE: BasicMaterial = material([0.0, 0.0, 1.0]);

/// An untextured, unlit material of colour `diffuse`, its other values off the defaults.
const fn material(diffuse: [f32; 3]) -> BasicMaterial {
    BasicMaterial {
        texture: String::new(),
        diffuse,
        emissive: [0.0; 3],
        specular: [0.25, 0.5, 0.75],
        specular_power: 3.0,
        alpha: 1.0,
        vertex_color: false,
    }
}

fn flat(m: Matrix) -> [f32; 16] {
    let mut out = [0.0; 16];
    for (i, row) in m.m.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(row);
    }
    out
}

pub(super) fn bone(
    name: Option<&str>,
    transform: Matrix,
    parent: Option<u32>,
    children: &[u32],
) -> BoneData {
    BoneData {
        name: name.map(str::to_owned),
        transform: flat(transform),
        parent,
        children: children.to_vec(),
    }
}

/// Two unit-height quads in z = 0: vertices 0..4 the square (0,0)-(1,1), vertices 4..8 the
/// rectangle (0,0)-(2,1), so a part that ignored its vertex offset would draw the square.
pub(super) const QUADS: [[f32; 3]; 8] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [1.0, 1.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0],
    [2.0, 0.0, 0.0],
    [2.0, 1.0, 0.0],
    [0.0, 1.0, 0.0],
];
/// Two copies of a quad's two triangles: a part at start index 6 reads the second.
pub(super) const QUAD_INDICES: [u16; 12] = [0, 1, 2, 0, 2, 3, 0, 1, 2, 0, 2, 3];

pub(super) fn part(
    vertex_offset: i32,
    start_index: i32,
    tag: Option<i32>,
    effect: u32,
) -> PartData {
    PartData {
        vertex_offset,
        num_vertices: 4,
        start_index,
        primitive_count: 2,
        tag,
        vertex_buffer: 1,
        index_buffer: 2,
        effect,
    }
}

/// The model of the field test: a three-bone chain root → arm → hand (root scaled by 2, arm
/// moved by x 1, hand by y 3; the arm's name null); the mesh "hull" under the hand with two
/// parts over the one vertex buffer (part 0 blue, part 1 red: effect resources in the other
/// order than the parts); the unnamed mesh under the arm with one red part.
fn ship() -> ModelData {
    ModelData {
        bones: vec![
            bone(Some("root"), Matrix::create_scale(2.0, 2.0, 2.0), None, &[1]),
            bone(None, Matrix::create_translation(1.0, 0.0, 0.0), Some(0), &[2]),
            bone(Some("hand"), Matrix::create_translation(0.0, 3.0, 0.0), Some(1), &[]),
        ],
        meshes: vec![
            MeshData {
                name: Some("hull".to_owned()),
                parent_bone: Some(2),
                sphere: ([1.0, 2.0, 3.0], 4.5),
                tag: Some("hull tag".to_owned()),
                parts: vec![part(0, 0, Some(7), 4), part(4, 6, None, 3)],
            },
            MeshData {
                name: None,
                parent_bone: Some(1),
                sphere: ([-1.0, 0.5, 0.0], 2.0),
                tag: None,
                parts: vec![part(0, 0, Some(-3), 3)],
            },
        ],
        root: Some(0),
        tag: Some("ship".to_owned()),
    }
}

pub(super) fn ship_resources() -> Vec<SharedWriter<'static>> {
    vec![
        positions_resource(&QUADS),
        indices_resource(&QUAD_INDICES),
        basic_resource(RED),
        basic_resource(BLUE),
    ]
}

pub(super) fn basic(effect: &ModelEffect) -> std::sync::Arc<std::sync::Mutex<BasicEffect>> {
    match effect {
        ModelEffect::Basic(e) => e.clone(),
        other => panic!("expected a BasicEffect, got {other:?}"),
    }
}

fn diffuse(effect: &ModelEffect) -> Vector3 {
    basic(effect).lock().unwrap().diffuse_color
}

#[test]
fn a_model_reads_every_field_back() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("model-fields");
    write(&dir, "ship", &xnb(&model_body(&ship(), &ship_resources()).0));
    let content = ContentManager::new(&device, &dir);
    let model = content.load::<Model>("ship").unwrap();

    // Bones: names (one null), indices, hierarchy, transforms.
    let bones = model.bones();
    assert_eq!(bones.count(), 3);
    let names: Vec<Option<&str>> = bones.iter().map(|b| b.name()).collect();
    assert_eq!(names, [Some("root"), None, Some("hand")]);
    for (i, b) in bones.iter().enumerate() {
        assert_eq!(b.index(), i);
    }
    assert_eq!(bones.iter().map(|b| b.parent()).collect::<Vec<_>>(), [None, Some(0), Some(1)]);
    assert_eq!(bones.get(0).unwrap().children(), [1]);
    assert_eq!(bones.get(1).unwrap().children(), [2]);
    assert!(bones.get(2).unwrap().children().is_empty());
    assert_eq!(bones.get(1).unwrap().transform(), Matrix::create_translation(1.0, 0.0, 0.0));
    assert_eq!(bones.by_name("hand").unwrap().index(), 2);
    assert_eq!(model.root().index(), 0);
    assert_eq!(model.tag().unwrap().downcast_ref::<String>().unwrap(), "ship");

    // Meshes and parts.
    let meshes = model.meshes();
    assert_eq!(meshes.count(), 2);
    let hull = meshes.by_name("hull").unwrap();
    assert_eq!(hull.parent_bone(), 2);
    assert_eq!(hull.bounding_sphere().center, Vector3::new(1.0, 2.0, 3.0));
    assert_eq!(hull.bounding_sphere().radius, 4.5);
    assert_eq!(hull.tag().unwrap().downcast_ref::<String>().unwrap(), "hull tag");
    let mast = meshes.get(1).unwrap();
    assert_eq!((mast.name(), mast.parent_bone(), mast.tag().is_none()), (None, 1, true));
    assert_eq!(mast.bounding_sphere().center, Vector3::new(-1.0, 0.5, 0.0));
    let parts = hull.mesh_parts();
    assert_eq!(parts.len(), 2);
    let ranges: Vec<_> = parts
        .iter()
        .chain(mast.mesh_parts())
        .map(|p| (p.vertex_offset(), p.num_vertices(), p.start_index(), p.primitive_count()))
        .collect();
    assert_eq!(ranges, [(0, 4, 0, 2), (4, 4, 6, 2), (0, 4, 0, 2)]);
    assert_eq!(parts[0].tag().unwrap().downcast_ref::<i32>(), Some(&7));
    assert!(parts[1].tag().is_none());
    assert_eq!(mast.mesh_parts()[0].tag().unwrap().downcast_ref::<i32>(), Some(&-3));

    // One vertex buffer and one index buffer, shared by every part.
    let vb = parts[0].vertex_buffer().unwrap();
    assert!(Arc::ptr_eq(vb, parts[1].vertex_buffer().unwrap()), "one buffer, shared");
    assert!(Arc::ptr_eq(vb, mast.mesh_parts()[0].vertex_buffer().unwrap()));
    assert!(Arc::ptr_eq(parts[0].index_buffer().unwrap(), parts[1].index_buffer().unwrap()));
    assert_eq!(vb.vertex_count(), 8);
    let mut positions = [Vector3::ZERO; 8];
    vb.get_data(&mut positions).unwrap();
    assert_eq!(positions[5], Vector3::new(2.0, 0.0, 0.0));
    let ib = parts[0].index_buffer().unwrap();
    assert_eq!(ib.index_element_size(), IndexElementSize::SixteenBits);
    let mut indices = [0u16; 12];
    ib.get_data(&mut indices).unwrap();
    assert_eq!(indices, QUAD_INDICES);

    // Effects: part 0 holds resource 4 (blue), part 1 resource 3 (red); the mesh's Effects
    // are in resource order, as XNA's fixups run; the red effect is shared with the mast.
    assert_eq!(diffuse(parts[0].effect().unwrap()), Vector3::new(0.0, 0.0, 1.0));
    assert_eq!(diffuse(parts[1].effect().unwrap()), Vector3::new(1.0, 0.0, 0.0));
    let effects: Vec<Vector3> = hull.effects().iter().map(diffuse).collect();
    assert_eq!(effects, [Vector3::new(1.0, 0.0, 0.0), Vector3::new(0.0, 0.0, 1.0)]);
    assert!(parts[1].effect().unwrap().ptr_eq(mast.mesh_parts()[0].effect().unwrap()));
    assert_eq!(mast.effects().count(), 1);
    let red = basic(parts[1].effect().unwrap());
    let red = red.lock().unwrap();
    assert_eq!((red.specular_power, red.texture_enabled), (3.0, false));
    assert_eq!(red.specular_color, Vector3::new(0.25, 0.5, 0.75));

    // Unload disposes the buffers the model's file made, as XNA's loader records them.
    let (vb, ib) = (vb.clone(), parts[0].index_buffer().unwrap().clone());
    content.unload();
    assert!(vb.is_disposed() && ib.is_disposed());
}

#[test]
fn absolute_bone_transforms_are_each_bone_times_its_parents() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("model-bones");
    write(&dir, "ship", &xnb(&model_body(&ship(), &ship_resources()).0));
    let content = ContentManager::new(&device, &dir);
    let model = content.load::<Model>("ship").unwrap();

    let mut absolute = [Matrix::IDENTITY; 3];
    model.copy_absolute_bone_transforms_to(&mut absolute).unwrap();
    // XNA's row vectors: the hand's point (0, 0, 0) moves by y 3, then by x 1, then scales by 2.
    let scale2 = |x: f32, y: f32| {
        let mut m = Matrix::create_scale(2.0, 2.0, 2.0);
        m.m[3] = [x, y, 0.0, 1.0];
        m
    };
    assert_eq!(absolute, [scale2(0.0, 0.0), scale2(2.0, 0.0), scale2(2.0, 6.0)]);

    let mut own = [Matrix::IDENTITY; 3];
    model.copy_bone_transforms_to(&mut own).unwrap();
    assert_eq!(own[2], Matrix::create_translation(0.0, 3.0, 0.0));

    // A slice shorter than the bones: XNA's ArgumentOutOfRange, naming its parameter.
    let mut short = [Matrix::IDENTITY; 2];
    let param = |e: XnaError| match e {
        XnaError::ArgumentOutOfRange { param, .. } => param,
        other => panic!("expected ArgumentOutOfRange, got {other:?}"),
    };
    assert_eq!(
        param(model.copy_absolute_bone_transforms_to(&mut short).unwrap_err()),
        "destinationBoneTransforms"
    );
    assert_eq!(
        param(model.copy_bone_transforms_to(&mut short).unwrap_err()),
        "destinationBoneTransforms"
    );

    // The game's own copy: new transforms change its absolute ones, not the cached model's.
    let mut mine = (*model).clone();
    assert_eq!(param(mine.copy_bone_transforms_from(&short).unwrap_err()), "sourceBoneTransforms");
    assert_eq!(mine.bones().get(0).unwrap().transform(), Matrix::create_scale(2.0, 2.0, 2.0));
    let moved = [Matrix::create_translation(5.0, 0.0, 0.0), own[1], own[2]];
    mine.copy_bone_transforms_from(&moved).unwrap();
    mine.bones_mut().get_mut(2).unwrap().set_transform(Matrix::create_translation(0.0, 0.0, 7.0));
    mine.copy_absolute_bone_transforms_to(&mut absolute).unwrap();
    assert_eq!(absolute[2], Matrix::create_translation(6.0, 0.0, 7.0));
    model.copy_absolute_bone_transforms_to(&mut absolute).unwrap();
    assert_eq!(absolute[2], scale2(2.0, 6.0), "the cached model is unchanged");
}

#[test]
fn setting_a_parts_effect_updates_the_meshs_effects_as_xna() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("model-effects");
    write(&dir, "ship", &xnb(&model_body(&ship(), &ship_resources()).0));
    let content = ContentManager::new(&device, &dir);
    let mut model = (*content.load::<Model>("ship").unwrap()).clone();
    let hull = model.meshes_mut().get_mut(0).unwrap();
    let blue = hull.mesh_parts()[0].effect().unwrap().clone();
    let red = hull.mesh_parts()[1].effect().unwrap().clone();
    let green = ModelEffect::from(BasicEffect::new(&device).unwrap());
    let order = |mesh: &xnagraph::ModelMesh| -> Vec<bool> {
        // For each effect of Effects: is it the red one?
        mesh.effects().iter().map(|e| e.ptr_eq(&red)).collect()
    };
    assert_eq!(order(hull), [true, false]);
    // Part 0 takes red: blue has no part left and leaves; red is there already.
    hull.set_part_effect(0, Some(red.clone())).unwrap();
    assert_eq!(hull.effects().count(), 1);
    assert!(!hull.effects().contains(&blue));
    // Part 1 takes green: red stays (part 0 holds it), green joins at the end.
    hull.set_part_effect(1, Some(green.clone())).unwrap();
    assert_eq!(order(hull), [true, false]);
    assert!(hull.effects().get(1).unwrap().ptr_eq(&green));
    // Part 0 takes green too: red leaves; setting the same effect again changes nothing.
    hull.set_part_effect(0, Some(green.clone())).unwrap();
    hull.set_part_effect(0, Some(green.clone())).unwrap();
    assert_eq!(hull.effects().count(), 1);
    assert!(hull.effects().contains(&green));
    // None: the part has no effect, and green stays for part 1.
    hull.set_part_effect(0, None).unwrap();
    assert!(hull.mesh_parts()[0].effect().is_none());
    assert_eq!(hull.effects().count(), 1);
    assert!(matches!(
        hull.set_part_effect(2, Some(red.clone())),
        Err(XnaError::ArgumentOutOfRange { param: "index", .. })
    ));
    // A part without an effect cannot draw.
    assert!(matches!(hull.draw(), Err(XnaError::InvalidOperation { .. })));
    // The cached model is unchanged.
    let cached = content.load::<Model>("ship").unwrap();
    assert_eq!(cached.meshes().get(0).unwrap().effects().count(), 2);
}

/// A chain of `n` bones, each moved by x 1 from its parent, the mesh under the last one.
fn chain(n: u32) -> ModelData {
    let bones = (0..n)
        .map(|i| {
            let children: Vec<u32> = if i + 1 < n { vec![i + 1] } else { vec![] };
            let parent = i.checked_sub(1);
            bone(None, Matrix::create_translation(1.0, 0.0, 0.0), parent, &children)
        })
        .collect();
    ModelData {
        bones,
        meshes: vec![MeshData {
            name: Some("tip".to_owned()),
            parent_bone: Some(n - 1),
            sphere: ([0.0; 3], 1.0),
            tag: None,
            parts: vec![part(0, 0, None, 3)],
        }],
        root: Some(0),
        tag: None,
    }
}

#[test]
fn bone_references_are_one_byte_below_255_bones_and_four_from_255() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("model-bone-width");
    let resources = ship_resources();
    for n in [254, 255] {
        write(&dir, &format!("chain{n}"), &xnb(&model_body(&chain(n), &resources).0));
    }
    let content = ContentManager::new(&device, &dir);
    for n in [254usize, 255] {
        let model = content.load::<Model>(&format!("chain{n}")).unwrap();
        assert_eq!(model.bones().count(), n);
        let last = model.bones().get(n - 1).unwrap();
        assert_eq!(last.parent(), Some(n - 2), "{n} bones");
        assert_eq!(model.meshes().get(0).unwrap().parent_bone(), n - 1);
        let mut absolute = vec![Matrix::IDENTITY; n];
        model.copy_absolute_bone_transforms_to(&mut absolute).unwrap();
        assert_eq!(absolute[n - 1], Matrix::create_translation(n as f32, 0.0, 0.0));
    }
    // The width the other count would give: 255 bones with one-byte references, 254 with
    // four-byte ones. Each is refused: the width follows the bone count, not the data.
    for (n, wide) in [(255u32, false), (254, true)] {
        let mut b = Body::default();
        b.readers(&model_readers(), resources.len() as u32).int7(1);
        model_data_as(&mut b, &chain(n), wide);
        for r in &resources {
            r(&mut b);
        }
        let name = format!("chain{n}-wrong-width");
        write(&dir, &name, &xnb(&b.0));
        super::refusal::<Model>(&content, &name);
    }
}

#[test]
fn truncated_models_and_bad_references_are_refused_at_their_byte() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("model-truncated");
    let (body, marks) = model_body(&ship(), &ship_resources());
    let content = ContentManager::new(&device, &dir);
    let mark = |name: &str| marks.iter().find(|(n, _)| n == name).unwrap().1;
    for field in [
        "bone 1's transform",
        "bone 2's parent",
        "mesh 0's bounding sphere",
        "mesh 0 part 1's start index",
        "mesh 0 part 1's effect",
        "the model's root bone",
        "the model's tag",
    ] {
        let at = mark(field);
        let name = format!("cut at {field}");
        write(&dir, &name, &xnb(&body[..at - 10]));
        let message = super::refusal::<Model>(&content, &name);
        assert!(message.contains(&format!("ends while reading {field}")), "{message}");
        assert!(message.contains(&format!("at byte {at}")), "{message}");
    }
    // Inside a matrix: the element that is cut, 4 bytes in.
    let at = mark("bone 1's transform") + 4;
    write(&dir, "in-matrix", &xnb(&body[..at + 1 - 10]));
    let message = super::refusal::<Model>(&content, "in-matrix");
    assert!(message.contains(&format!("bone 1's transform (4 bytes, 1 left) at byte {at}")));
    // Inside the shared resources: the index buffer's 24 bytes of indices, which two effects
    // of 47 bytes each follow (reader index, empty texture name, 45 bytes of values), cut 10
    // bytes in.
    let indices_at = 10 + body.len() - 2 * 47 - 24;
    write(&dir, "in-shared", &xnb(&body[..indices_at]));
    let message = super::refusal::<Model>(&content, "in-shared");
    let want = format!("an index buffer's indices (24 bytes, 10 left) at byte {indices_at}");
    assert!(message.contains(&want), "{message}");

    // A bone reference past the bones, a shared resource past the count, a resource of the
    // wrong type in a slot: each at its byte.
    let mut bad = ship();
    bad.meshes[1].parent_bone = Some(5);
    let (b, m) = model_body(&bad, &ship_resources());
    write(&dir, "bad-bone", &xnb(&b));
    let at = m.iter().find(|(n, _)| n == "mesh 1's bounding sphere").unwrap().1 - 1;
    let message = super::refusal::<Model>(&content, "bad-bone");
    assert!(
        message.contains(&format!(
            "mesh 1's parent bone names bone 5, but the model has 3 bones at byte {at}"
        )),
        "{message}"
    );
    let mut bad = ship();
    bad.meshes[0].parts[1].effect = 5;
    let (b, m) = model_body(&bad, &ship_resources());
    write(&dir, "bad-shared", &xnb(&b));
    let at = m.iter().find(|(n, _)| n == "mesh 0 part 1's effect").unwrap().1;
    let message = super::refusal::<Model>(&content, "bad-shared");
    assert!(
        message.contains(&format!("names shared resource 5, but the file has 4 at byte {at}")),
        "{message}"
    );
    let mut bad = ship();
    bad.meshes[0].parts[1].effect = 2;
    let (b, m) = model_body(&bad, &ship_resources());
    write(&dir, "bad-type", &xnb(&b));
    let at = m.iter().find(|(n, _)| n == "mesh 0 part 1's effect").unwrap().1;
    let message = super::refusal::<Model>(&content, "bad-type");
    let want = "mesh 0 part 1's effect names shared resource 2, of type IndexBuffer, where an \
                Effect goes";
    assert!(message.contains(want), "{message}");
    assert!(message.contains(&format!("at byte {at}")), "{message}");

    // A model in the model's tag (its reader index, 1, where the tag's null was): refused
    // where its data would start, so a file cannot nest models without bound.
    let (mut b, m) = model_body(&ModelData { tag: None, ..ship() }, &ship_resources());
    let at = m.iter().find(|(n, _)| n == "the model's tag").unwrap().1;
    assert_eq!(b[at - 10], 0);
    b[at - 10] = 1;
    write(&dir, "nested", &xnb(&b));
    let message = super::refusal::<Model>(&content, "nested");
    assert!(message.contains("inside a Model"), "{message}");
    assert!(message.contains(&format!("at byte {}", at + 1)), "{message}");
}

#[test]
fn a_part_may_hold_a_skinned_effect() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("model-skinned");
    let resources = vec![
        positions_resource(&QUADS),
        indices_resource(&QUAD_INDICES),
        basic_resource(RED),
        skinned_resource(BLUE),
    ];
    write(&dir, "skinned/ship", &xnb(&model_body(&ship(), &resources).0));
    let content = ContentManager::new(&device, &dir);
    let model = content.load::<Model>("skinned/ship").unwrap();
    let meshes = model.meshes();
    let hull = meshes.by_name("hull").unwrap();
    let effect = hull.mesh_parts()[0].effect().unwrap();
    let ModelEffect::Skinned(skinned) = effect else {
        panic!("part 0 holds {effect:?}, not the file's SkinnedEffect")
    };
    let skinned = skinned.lock().unwrap();
    assert_eq!(skinned.diffuse_color, Vector3::new(0.0, 0.0, 1.0));
    assert_eq!(skinned.weights_per_vertex(), 4);
    assert!(hull.effects().iter().any(|e| e.type_name() == "SkinnedEffect"));
}
