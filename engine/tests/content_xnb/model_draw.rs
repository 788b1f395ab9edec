//! `Model.Draw` and `ModelMesh.Draw` of a model loaded through `ContentManager`, pixels read
//! back: each mesh placed by its bone's absolute transform × the world, each part drawn with
//! its vertex offset and start index, every pass of a `CustomEffect` part drawn, and
//! `Model.Draw` refusing an effect without `EffectMatrices`.

use super::models::{basic, bone, part, ship_resources};
use super::*;
use xnagraph::{
    CustomEffect, Matrix, Model, ModelEffect, PassSource, RasterizerState, TechniqueSource, Vector4,
};

/// The model of the draw tests: the root scales by 4; mesh "a" (one red part, the square of
/// vertices 0..4) under bone "a", moved (1, 1); mesh "b" (one blue part, the rectangle of
/// vertices 4..8 at start index 6) under bone "b", moved (3, 0.5).
fn pair() -> ModelData {
    ModelData {
        bones: vec![
            bone(Some("root"), Matrix::create_scale(4.0, 4.0, 1.0), None, &[1, 2]),
            bone(Some("a"), Matrix::create_translation(1.0, 1.0, 0.0), Some(0), &[]),
            bone(Some("b"), Matrix::create_translation(3.0, 0.5, 0.0), Some(0), &[]),
        ],
        meshes: vec![
            MeshData {
                name: Some("a".to_owned()),
                parent_bone: Some(1),
                sphere: ([0.5, 0.5, 0.0], 1.0),
                tag: None,
                parts: vec![part(0, 0, None, 3)],
            },
            MeshData {
                name: Some("b".to_owned()),
                parent_bone: Some(2),
                sphere: ([1.0, 0.5, 0.0], 1.2),
                tag: None,
                parts: vec![part(4, 6, None, 4)],
            },
        ],
        root: Some(0),
        tag: None,
    }
}

/// `Model.Draw` into a 40×40 target under an orthographic projection of one unit per pixel
/// (y down): the root scales by 4, mesh A's bone moves (1, 1), mesh B's (3, 0.5), the world
/// moves (10, 6). A's unit square lands on x 14..18, y 10..14; B's 2×1 rectangle (vertex
/// offset 4, start index 6) on x 22..30, y 8..12.
#[test]
fn model_draw_places_each_mesh_by_its_bone_times_the_world() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("model-draw");
    let model = pair();
    write(&dir, "pair", &xnb(&model_body(&model, &ship_resources()).0));
    let content = ContentManager::new(&device, &dir);
    let model = content.load::<Model>("pair").unwrap();

    let rt = RenderTarget2D::new(&device, 40, 40).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    let background = Color::new(20, 40, 60, 255);
    device.clear(background).unwrap();
    device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
    let world = Matrix::create_translation(10.0, 6.0, 0.0);
    let projection = Matrix::create_orthographic_off_center(0.0, 40.0, 40.0, 0.0, -1.0, 1.0);
    model.draw(world, Matrix::IDENTITY, projection).unwrap();
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    let (red, blue) = (Color::new(255, 0, 0, 255), Color::new(0, 0, 255, 255));
    for y in 0..40 {
        for x in 0..40 {
            let want = if (14..18).contains(&x) && (10..14).contains(&y) {
                red
            } else if (22..30).contains(&x) && (8..12).contains(&y) {
                blue
            } else {
                background
            };
            assert_eq!(at(&px, 40, x, y), want, "pixel ({x}, {y})");
        }
    }
    // The effects keep the matrices Draw set: the bone's absolute transform × world.
    let a = model.meshes().get(0).unwrap().effects().get(0).unwrap().clone();
    let mut absolute = [Matrix::IDENTITY; 3];
    model.copy_absolute_bone_transforms_to(&mut absolute).unwrap();
    let a = basic(&a);
    let a = a.lock().unwrap();
    assert_eq!(a.world, absolute[1] * world);
    assert_eq!(a.projection, projection);
}

const POSITION_VERTEX: &str = "#version 450
layout(set = 1, binding = 0) uniform Vertex { mat4 WorldViewProjection; };
layout(location = 0) in vec3 Position;
void main() { gl_Position = WorldViewProjection * vec4(Position, 1.0); }
";

/// The second pass: the quad one unit lower in model space.
const LOWER_VERTEX: &str = "#version 450
layout(set = 1, binding = 0) uniform Vertex { mat4 WorldViewProjection; };
layout(location = 0) in vec3 Position;
void main() { gl_Position = WorldViewProjection * vec4(Position + vec3(0.0, 1.0, 0.0), 1.0); }
";

const TINT_FRAGMENT: &str = "#version 450
layout(set = 3, binding = 0) uniform Fragment { vec4 Tint; };
layout(location = 0) out vec4 color;
void main() { color = Tint; }
";

const YELLOW_FRAGMENT: &str = "#version 450
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0, 1.0, 0.0, 1.0); }
";

/// A part given a `CustomEffect` draws with every pass of its technique through
/// `ModelMesh.Draw`; `Model.Draw` refuses it, as XNA's refuses an effect without
/// `IEffectMatrices`, before drawing the mesh.
#[test]
fn a_custom_effect_part_draws_every_pass_and_model_draw_refuses_it() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("model-custom");
    write(&dir, "pair", &xnb(&model_body(&pair(), &ship_resources()).0));
    let content = ContentManager::new(&device, &dir);
    let passes = [
        PassSource { name: "Tinted", vertex: POSITION_VERTEX, fragment: TINT_FRAGMENT },
        PassSource { name: "Lower", vertex: LOWER_VERTEX, fragment: YELLOW_FRAGMENT },
    ];
    let effect =
        match CustomEffect::new(&device, &[TechniqueSource { name: "Two", passes: &passes }]) {
            Ok(effect) => Arc::new(effect),
            Err(XnaError::NotSupported { message }) => {
                return skipped(
                    "a_custom_effect_part_draws_every_pass_and_model_draw_refuses_it",
                    &message,
                )
            }
            Err(e) => panic!("{e}"),
        };
    let mut model = (*content.load::<Model>("pair").unwrap()).clone();
    let world = Matrix::create_translation(10.0, 6.0, 0.0);
    let projection = Matrix::create_orthographic_off_center(0.0, 40.0, 40.0, 0.0, -1.0, 1.0);
    let mut absolute = [Matrix::IDENTITY; 3];
    model.copy_absolute_bone_transforms_to(&mut absolute).unwrap();
    effect
        .parameter("WorldViewProjection")
        .unwrap()
        .set_value(absolute[1] * world * projection)
        .unwrap();
    effect.parameter("Tint").unwrap().set_value(Vector4::new(0.0, 1.0, 0.0, 1.0)).unwrap();
    let a = model.meshes_mut().get_mut(0).unwrap();
    a.set_part_effect(0, Some(ModelEffect::Custom(effect.clone()))).unwrap();

    let rt = RenderTarget2D::new(&device, 40, 40).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    let background = Color::new(20, 40, 60, 255);
    device.clear(background).unwrap();
    device.set_rasterizer_state(RasterizerState::CULL_NONE).unwrap();
    let refused = model.draw(world, Matrix::IDENTITY, projection);
    assert!(matches!(refused, Err(XnaError::InvalidOperation { .. })), "{refused:?}");
    model.meshes().get(0).unwrap().draw().unwrap();
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    let (green, yellow) = (Color::new(0, 255, 0, 255), Color::new(255, 255, 0, 255));
    for y in 0..40 {
        for x in 0..40 {
            // Pass 1 on x 14..18, y 10..14; pass 2 four pixels lower. Mesh "b" is not drawn:
            // Model.Draw refused the model before it.
            let want = match (x, y) {
                (14..=17, 10..=13) => green,
                (14..=17, 14..=17) => yellow,
                _ => background,
            };
            assert_eq!(at(&px, 40, x, y), want, "pixel ({x}, {y})");
        }
    }
}

/// A model outliving its device's disposal: `Draw` is `ObjectDisposed`, not a draw into a
/// device that is gone.
#[test]
fn a_model_of_a_disposed_device_draws_nothing_and_says_so() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("model-disposed");
    write(&dir, "pair", &xnb(&model_body(&pair(), &ship_resources()).0));
    let content = ContentManager::new(&device, &dir);
    let model = content.load::<Model>("pair").unwrap();
    device.dispose();
    let drawn = model.draw(Matrix::IDENTITY, Matrix::IDENTITY, Matrix::IDENTITY);
    assert!(matches!(drawn, Err(XnaError::ObjectDisposed { .. })), "{drawn:?}");
    let drawn = model.meshes().get(1).unwrap().draw();
    assert!(matches!(drawn, Err(XnaError::ObjectDisposed { .. })), "{drawn:?}");
}
