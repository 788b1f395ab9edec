//! glTF models read back field by field and drawn: the sample's generated files (a skinned,
//! animated bar in a `.glb`, a static scene as `.gltf` with `.bin` and `.png` beside it) give
//! bones and parents, transforms, parts' vertex and index contents, materials, the skin and
//! the animation; the animation is sampled between keys and the skin's matrices checked
//! against values worked by hand; and the models' pixels land where the CPU projects their
//! points, the skinned bar's limb where the skin moves it.

mod common;

#[allow(dead_code)]
#[path = "../../samples/src/model3d/gltf_assets.rs"]
mod gltf_assets;

use std::f32::consts::FRAC_PI_2;

use common::*;
use gltf_assets::{bar_glb, scene_gltf, CHECKER, GROUND, RED, STONE};
use xnagraph::{
    AnimationValues, Color, ContentManager, DepthFormat, GraphicsDevice, GraphicsProfile,
    IndexElementSize, Interpolation, MathHelper, Matrix, Model, ModelEffect, Quaternion, Vector3,
    VertexElementFormat as F, VertexElementUsage as U, Viewport, XnaError,
};

const W: i32 = 96;
const H: i32 = 96;

fn depth_device() -> GraphicsDevice {
    let mut p = params(W, H);
    p.depth_stencil_format = DepthFormat::Depth24;
    device_with(GraphicsProfile::HiDef, p)
}

fn bar(device: &GraphicsDevice) -> Model {
    Model::from_gltf_slice(device, &bar_glb(), None).expect("the bar loads")
}

/// The static scene written to a fresh directory, with the path of its `.gltf`.
fn scene_on_disk(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("xnagraph-gltf-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (json, bin) = scene_gltf();
    std::fs::write(dir.join("scene.gltf"), json).unwrap();
    std::fs::write(dir.join("scene.bin"), bin).unwrap();
    std::fs::write(dir.join("checker.png"), gltf_assets::checker_png()).unwrap();
    std::fs::write(dir.join("bar.glb"), bar_glb()).unwrap();
    dir
}

#[track_caller]
fn assert_matrix(got: Matrix, want: Matrix) {
    for r in 0..4 {
        for c in 0..4 {
            assert!((got.m[r][c] - want.m[r][c]).abs() < 1e-5, "got {got:?}, want {want:?}");
        }
    }
}

#[track_caller]
fn assert_vector(got: Vector3, want: Vector3) {
    assert!((got - want).length() < 1e-5, "got {got:?}, want {want:?}");
}

fn element_usages(model: &Model, mesh: usize, part: usize) -> Vec<(U, F, u32)> {
    let part = &model.meshes().get(mesh).unwrap().mesh_parts()[part];
    let declaration = part.vertex_buffer().unwrap().vertex_declaration().clone();
    declaration.vertex_elements().iter().map(|e| (e.usage, e.format, e.offset)).collect()
}

fn indices16(model: &Model, mesh: usize, part: usize) -> Vec<u16> {
    let buffer = model.meshes().get(mesh).unwrap().mesh_parts()[part].index_buffer().unwrap();
    assert_eq!(buffer.index_element_size(), IndexElementSize::SixteenBits);
    let mut out = vec![0u16; buffer.index_count() as usize];
    buffer.get_data(&mut out).unwrap();
    out
}

#[test]
fn the_skinned_bar_reads_back_its_bones_parts_effects_skin_and_animation() {
    let device = depth_device();
    let model = bar(&device);
    let names: Vec<_> = model.bones().iter().map(|b| b.name()).collect();
    assert_eq!(names, [Some("Bar scene"), Some("Bar"), Some("Base"), Some("Tip")]);
    let parents: Vec<_> = model.bones().iter().map(|b| b.parent()).collect();
    assert_eq!(parents, [None, Some(0), Some(0), Some(2)]);
    assert_eq!(model.root().children(), [1, 2]);
    assert_eq!(model.bones().get(2).unwrap().children(), [3]);
    assert_matrix(
        model.bones().get(3).unwrap().transform(),
        Matrix::create_translation(0.0, 1.0, 0.0),
    );

    assert_eq!(model.meshes().count(), 1);
    let mesh = model.meshes().get(0).unwrap();
    assert_eq!(mesh.name(), Some("Bar"));
    assert_eq!(mesh.skin(), Some(0));
    assert_eq!(mesh.parent_bone(), 0, "a skinned mesh is placed by its joints");
    assert_eq!(mesh.mesh_parts().len(), 2);
    for part in mesh.mesh_parts() {
        assert_eq!(
            (part.vertex_offset(), part.num_vertices(), part.start_index(), part.primitive_count()),
            (0, 24, 0, 12)
        );
    }
    assert_eq!(
        element_usages(&model, 0, 1),
        [
            (U::Position, F::Vector3, 0),
            (U::Normal, F::Vector3, 12),
            (U::TextureCoordinate, F::Vector2, 24),
            (U::BlendIndices, F::Byte4, 32),
            (U::BlendWeight, F::Vector4, 36),
        ]
    );
    // The upper box's first vertex: its top left front corner, joint 1 with weight 1.
    let mut vertex = [0u8; 52];
    mesh.mesh_parts()[1].vertex_buffer().unwrap().get_data(&mut vertex).unwrap();
    let f = |at: usize| f32::from_le_bytes(vertex[at..at + 4].try_into().unwrap());
    assert_eq!([f(0), f(4), f(8)], [-0.2, 2.0, 0.2]);
    assert_eq!([f(12), f(16), f(20)], [0.0, 0.0, 1.0]);
    assert_eq!([f(24), f(28)], [0.0, 0.0]);
    assert_eq!(vertex[32..36], [1, 0, 0, 0]);
    assert_eq!([f(36), f(40), f(44), f(48)], [1.0, 0.0, 0.0, 0.0]);
    // The file's counter-clockwise (0, 2, 1), (1, 2, 3) become XNA's clockwise (0, 1, 2),
    // (1, 3, 2).
    assert_eq!(indices16(&model, 0, 0)[..6], [0, 1, 2, 1, 3, 2]);

    assert_eq!(mesh.effects().count(), 2);
    let ModelEffect::Skinned(red) = mesh.mesh_parts()[0].effect().unwrap() else {
        panic!("a skinned part draws with SkinnedEffect")
    };
    let red = red.lock().unwrap();
    assert_vector(red.diffuse_color, Vector3::new(RED[0], RED[1], RED[2]));
    assert_eq!(red.alpha, RED[3]);
    let mut white = [Color::TRANSPARENT; 1];
    red.texture().expect("a white texture stands in").get_data(&mut white).unwrap();
    assert_eq!(white, [Color::WHITE]);
    let ModelEffect::Skinned(checker) = mesh.mesh_parts()[1].effect().unwrap() else {
        panic!("a skinned part draws with SkinnedEffect")
    };
    let checker = checker.lock().unwrap();
    assert_vector(checker.diffuse_color, Vector3::ONE);
    let mut texels = [Color::TRANSPARENT; 4];
    checker.texture().unwrap().get_data(&mut texels).unwrap();
    assert_eq!(texels, CHECKER.map(|[r, g, b, a]| Color::new(r, g, b, a)));

    assert_eq!(model.skins().len(), 1);
    let skin = &model.skins()[0];
    assert_eq!(skin.name(), Some("Arm"));
    assert_eq!(skin.joints(), [2, 3]);
    assert_eq!(skin.skeleton(), Some(2));
    assert_matrix(skin.inverse_bind_matrices()[0], Matrix::IDENTITY);
    assert_matrix(skin.inverse_bind_matrices()[1], Matrix::create_translation(0.0, -1.0, 0.0));

    assert_eq!(model.animations().len(), 2);
    let bend = &model.animations()[0];
    assert_eq!(bend.name(), Some("Bend"));
    assert_eq!(bend.duration(), 2.0);
    let [turn, step] = bend.channels() else { panic!("two channels") };
    assert_eq!(
        (turn.bone(), turn.interpolation(), turn.times()),
        (3, Interpolation::Linear, &[0.0, 1.0, 2.0][..])
    );
    let AnimationValues::Rotation(r) = turn.values() else { panic!("a rotation channel") };
    assert_eq!(r.len(), 3);
    assert!((r[1].z - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-6 && r[1].x == 0.0);
    assert_eq!(
        (step.bone(), step.interpolation(), step.times()),
        (2, Interpolation::Step, &[0.0, 1.5][..])
    );
    assert_eq!(
        step.values(),
        &AnimationValues::Translation(vec![Vector3::ZERO, Vector3::new(0.5, 0.0, 0.0)])
    );
}

#[test]
fn sampling_between_keys_slerps_rotations_and_holds_steps() {
    let device = depth_device();
    let mut model = bar(&device);
    // 0.5 s: halfway from no turn to a quarter turn; the step has not come.
    model.animate_bones(0, 0.5).unwrap();
    let tip = |m: &Model| m.bones().get(3).unwrap().transform();
    let base = |m: &Model| m.bones().get(2).unwrap().transform();
    let eighth =
        Matrix::create_rotation_z(FRAC_PI_2 / 2.0) * Matrix::create_translation(0.0, 1.0, 0.0);
    assert_matrix(tip(&model), eighth);
    assert_matrix(base(&model), Matrix::IDENTITY);
    // 1.75 s: a quarter of the way back from the quarter turn (22.5°); the step has come.
    model.animate_bones(0, 1.75).unwrap();
    let sixteenth =
        Matrix::create_rotation_z(FRAC_PI_2 * 0.25) * Matrix::create_translation(0.0, 1.0, 0.0);
    assert_matrix(tip(&model), sixteenth);
    assert_matrix(base(&model), Matrix::create_translation(0.5, 0.0, 0.0));
    // Past the end: the last keys.
    model.animate_bones(0, 9.0).unwrap();
    assert_matrix(tip(&model), Matrix::create_translation(0.0, 1.0, 0.0));
    // The rest poses are the file's.
    assert_eq!(model.rest_poses()[3].translation, Vector3::new(0.0, 1.0, 0.0));
    assert_eq!(model.rest_poses()[3].rotation, Quaternion::IDENTITY);
    assert!(matches!(
        model.animate_bones(2, 0.0),
        Err(XnaError::ArgumentOutOfRange { param: "animation", .. })
    ));
}

#[test]
fn sampling_a_cubic_spline_follows_the_hermite_spline_of_the_gltf_specification() {
    let device = depth_device();
    let model = bar(&device);
    let pulse = &model.animations()[1];
    assert_eq!(pulse.name(), Some("Pulse"));
    let [scale] = pulse.channels() else { panic!("one channel") };
    assert_eq!((scale.bone(), scale.interpolation()), (2, Interpolation::CubicSpline));
    let AnimationValues::Scale(v) = scale.values() else { panic!("a scale channel") };
    assert_eq!(v.len(), 6, "in-tangent, value and out-tangent for each of two keys");
    // Keys 2 s apart, values 1, x tangents out of key 0: 1, into key 1: -1. At s = 1/4:
    // h00 = 27/32, dt·h10 = 9/32, h01 = 5/32, dt·h11 = -3/32, so
    // x = 27/32 + 9/32·1 + 5/32 - 3/32·(-1) = 44/32; at s = 1/2: 1/2 + 1/4 + 1/2 + 1/4.
    for (time, x) in [(0.5, 1.375), (1.0, 1.5), (2.0, 1.0)] {
        let mut poses = model.rest_poses().to_vec();
        pulse.sample(time, &mut poses).unwrap();
        assert_vector(poses[2].scale, Vector3::new(x, 1.0, 1.0));
        assert_eq!(poses[2].translation, Vector3::ZERO, "a scale channel leaves translation");
    }
    let mut short = [xnagraph::BonePose::IDENTITY; 2];
    assert!(matches!(
        pulse.sample(0.0, &mut short),
        Err(XnaError::ArgumentOutOfRange { param: "poses", .. })
    ));
}

#[test]
fn skin_matrices_are_the_inverse_bind_times_the_joints_absolute_transform() {
    let device = depth_device();
    let mut model = bar(&device);
    model.animate_bones(0, 1.0).unwrap();
    let mut absolute = vec![Matrix::IDENTITY; model.bones().count()];
    model.copy_absolute_bone_transforms_to(&mut absolute).unwrap();
    let skin = &model.skins()[0];
    let mut matrices = [Matrix::IDENTITY; 2];
    skin.skin_transforms(&absolute, &mut matrices).unwrap();
    // The base has not moved; the tip's quarter turn about (0, 1, 0) takes the bar's top
    // (0, 2, 0) to (-1, 1, 0) and its side (0.2, 1.5, 0) to (-0.5, 1.2, 0).
    assert_matrix(matrices[0], Matrix::IDENTITY);
    assert_vector(
        Vector3::new(0.0, 2.0, 0.0).transform(&matrices[1]),
        Vector3::new(-1.0, 1.0, 0.0),
    );
    assert_vector(
        Vector3::new(0.2, 1.5, 0.0).transform(&matrices[1]),
        Vector3::new(-0.5, 1.2, 0.0),
    );
    let mut short = [Matrix::IDENTITY; 1];
    assert!(matches!(
        skin.skin_transforms(&absolute, &mut short),
        Err(XnaError::ArgumentOutOfRange { param: "destination", .. })
    ));
    assert!(matches!(
        skin.skin_transforms(&absolute[..3], &mut matrices),
        Err(XnaError::ArgumentOutOfRange { param: "absoluteBoneTransforms", .. })
    ));
    // update_skins hands the same matrices to the mesh's SkinnedEffects.
    model.update_skins().unwrap();
    for effect in model.meshes().get(0).unwrap().effects() {
        let ModelEffect::Skinned(e) = effect else { panic!("skinned") };
        let bones = e.lock().unwrap().get_bone_transforms(2).unwrap();
        assert_matrix(bones[1], matrices[1]);
    }
}

#[test]
fn the_static_scene_reads_back_its_hierarchy_buffers_and_materials_from_disk() {
    let device = depth_device();
    let dir = scene_on_disk("fields");
    let model = Model::from_gltf(&device, dir.join("scene.gltf")).unwrap();
    let names: Vec<_> = model.bones().iter().map(|b| b.name()).collect();
    assert_eq!(names, [Some("Static scene"), Some("Root"), Some("Ground"), Some("Pillar")]);
    let parents: Vec<_> = model.bones().iter().map(|b| b.parent()).collect();
    assert_eq!(parents, [None, Some(0), Some(1), Some(1)]);
    assert_matrix(model.bones().get(2).unwrap().transform(), Matrix::create_scale(2.0, 1.0, 1.0));
    assert_matrix(
        model.bones().get(3).unwrap().transform(),
        Matrix::create_translation(0.5, 0.5, 0.0),
    );
    assert!(model.skins().is_empty() && model.animations().is_empty());

    let ground = model.meshes().by_name("Ground").unwrap();
    assert_eq!((ground.parent_bone(), ground.skin()), (2, None));
    let part = &ground.mesh_parts()[0];
    assert_eq!((part.num_vertices(), part.primitive_count()), (6, 2));
    assert_eq!(
        element_usages(&model, 0, 0),
        [(U::Position, F::Vector3, 0), (U::Color, F::Color, 12)]
    );
    // No indices in the file: 0..6, each triangle reversed.
    assert_eq!(indices16(&model, 0, 0), [0, 2, 1, 3, 5, 4]);
    let mut vertices = [0u8; 16];
    part.vertex_buffer().unwrap().get_data(&mut vertices).unwrap();
    assert_eq!(vertices[12..16], GROUND);
    let sphere = ground.bounding_sphere();
    for corner in [Vector3::new(-1.0, 0.0, -1.0), Vector3::new(1.0, 0.0, 1.0)] {
        assert!((corner - sphere.center).length() <= sphere.radius + 1e-5);
    }
    let ModelEffect::Basic(e) = part.effect().unwrap() else { panic!("BasicEffect") };
    let e = e.lock().unwrap();
    assert!(e.vertex_color_enabled && !e.lighting_enabled && !e.texture_enabled);

    let pillar = model.meshes().by_name("Pillar").unwrap();
    assert_eq!(pillar.parent_bone(), 3);
    let part = &pillar.mesh_parts()[0];
    assert_eq!((part.num_vertices(), part.primitive_count()), (24, 12));
    let ModelEffect::Basic(e) = part.effect().unwrap() else { panic!("BasicEffect") };
    let e = e.lock().unwrap();
    assert!(!e.vertex_color_enabled && e.lighting_enabled && e.texture_enabled);
    let (base, emissive) = STONE;
    assert_vector(e.diffuse_color, Vector3::new(base[0], base[1], base[2]));
    assert_vector(e.emissive_color, Vector3::new(emissive[0], emissive[1], emissive[2]));
    let mut texels = [Color::TRANSPARENT; 4];
    e.texture().unwrap().get_data(&mut texels).unwrap();
    assert_eq!(texels, CHECKER.map(|[r, g, b, a]| Color::new(r, g, b, a)));
}

#[test]
fn the_content_manager_reads_a_model_without_an_xnb_from_its_glb_or_gltf() {
    let device = depth_device();
    let dir = scene_on_disk("content");
    let content = ContentManager::new(&device, &dir);
    let scene = content.load::<Model>("scene").unwrap();
    assert_eq!(scene.meshes().count(), 2);
    let bar = content.load::<Model>("bar").unwrap();
    assert_eq!(bar.skins().len(), 1);
    assert!(std::sync::Arc::ptr_eq(&bar, &content.load::<Model>("BAR").unwrap()));
    assert!(matches!(content.load::<Model>("missing"), Err(XnaError::ContentLoad { .. })));
    // Unload disposes what the file made: the buffers, and the textures decoded from its
    // images (the model's own, where an XNB model's textures are assets of their own).
    let pillar = &scene.meshes().by_name("Pillar").unwrap().mesh_parts()[0];
    let ModelEffect::Basic(e) = pillar.effect().unwrap() else { panic!("BasicEffect") };
    let effect = e.lock().unwrap();
    let checker = effect.texture().unwrap();
    assert!(!checker.is_disposed());
    content.unload();
    assert!(pillar.vertex_buffer().unwrap().is_disposed());
    assert!(checker.is_disposed(), "the model's texture is disposed with it");
}

/// The camera both pixel tests look through, and the pixel where world point `p` lands.
fn camera() -> (Matrix, Matrix) {
    let view = Matrix::create_look_at(
        Vector3::new(0.0, 1.5, 5.0),
        Vector3::new(0.0, 0.8, 0.0),
        Vector3::UNIT_Y,
    );
    let projection =
        Matrix::create_perspective_field_of_view(MathHelper::PI_OVER_4, 1.0, 0.5, 50.0).unwrap();
    (view, projection)
}

fn pixel_of(p: Vector3) -> (i32, i32) {
    let (view, projection) = camera();
    let s = Viewport::new(0, 0, W, H).project(p, &projection, &view, &Matrix::IDENTITY);
    (s.x as i32, s.y as i32)
}

fn draw(device: &GraphicsDevice, model: &Model) -> Vec<Color> {
    device.clear(Color::BLACK).unwrap();
    let (view, projection) = camera();
    model.draw(Matrix::IDENTITY, view, projection).unwrap();
    read_back_buffer(device)
}

/// Whether `c` is mostly `channel` (0 red, 1 green, 2 blue).
fn dominant(c: Color, channel: usize) -> bool {
    let v = [c.r, c.g, c.b];
    (0..3).all(|i| i == channel || v[channel] as i32 > v[i] as i32 + 40)
}

#[test]
fn a_static_model_draws_its_parts_where_the_camera_projects_them() {
    let device = depth_device();
    let dir = scene_on_disk("pixels");
    let model = Model::from_gltf(&device, dir.join("scene.gltf")).unwrap();
    let pixels = draw(&device, &model);
    let px = |p: Vector3| {
        let (x, y) = pixel_of(p);
        at(&pixels, W, x, y)
    };
    // The ground, scaled to x in [-2, 2]: its vertex colour, unlit.
    let [r, g, b, a] = GROUND;
    assert_eq!(px(Vector3::new(-1.4, 0.0, 0.6)), Color::new(r, g, b, a));
    assert_eq!(px(Vector3::new(1.6, 0.0, -0.7)), Color::new(r, g, b, a));
    // The pillar's front face: blue texels on its left half, green on its right.
    let blue = px(Vector3::new(0.4, 0.7, 0.2));
    let green = px(Vector3::new(0.6, 0.7, 0.2));
    assert!(dominant(blue, 2), "{blue:?}");
    assert!(dominant(green, 1), "{green:?}");
    // Off the model: the clear colour.
    assert_eq!(px(Vector3::new(-1.0, 1.5, 0.0)), Color::BLACK);
}

#[test]
fn a_posed_skinned_model_draws_its_limb_where_the_skin_moves_it() {
    let device = depth_device();
    let mut model = bar(&device);
    // A point on the upper box's front face (blue half) and one on the lower box's.
    let tip_point = Vector3::new(-0.1, 1.5, 0.2);
    let base_point = Vector3::new(0.1, 0.5, 0.2);
    let mut seen = Vec::new();
    for time in [0.0, 1.0] {
        model.animate_bones(0, time).unwrap();
        model.update_skins().unwrap();
        let mut absolute = vec![Matrix::IDENTITY; model.bones().count()];
        model.copy_absolute_bone_transforms_to(&mut absolute).unwrap();
        let mut skin = [Matrix::IDENTITY; 2];
        model.skins()[0].skin_transforms(&absolute, &mut skin).unwrap();
        let pixels = draw(&device, &model);
        let moved = pixel_of(tip_point.transform(&skin[1]));
        let base = pixel_of(base_point.transform(&skin[0]));
        let tip_colour = at(&pixels, W, moved.0, moved.1);
        assert!(dominant(tip_colour, 2), "at {time} s the tip at {moved:?} is {tip_colour:?}");
        let base_colour = at(&pixels, W, base.0, base.1);
        assert!(dominant(base_colour, 0), "at {time} s the base is {base_colour:?}");
        seen.push((moved, pixels));
    }
    // The limb moved: where it was at 0 s is background at 1 s, and the other way round.
    let (rest, bent) = (&seen[0], &seen[1]);
    assert_ne!(rest.0, bent.0);
    assert_eq!(at(&bent.1, W, rest.0 .0, rest.0 .1), Color::BLACK);
    assert_eq!(at(&rest.1, W, bent.0 .0, bent.0 .1), Color::BLACK);
}
