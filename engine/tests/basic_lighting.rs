//! BasicEffect's lighting and fog, read back and compared at chosen pixels with the same
//! formulas evaluated here: XNA's three directional lights (diffuse by N·L, Blinn-Phong specular
//! by the half vector of the eye vector and the light), the ambient and emissive terms, linear
//! fog on view-space depth, per-vertex against per-pixel lighting, the Reach profile's per-vertex
//! fallback, and the `Normal0` requirement. Each term is tested on its own, so that a test fails
//! when its term is broken.

mod common;

use common::*;
use xnagraph::{
    BasicEffect, Color, DirectionalLight, GraphicsDevice, GraphicsProfile, Matrix, PrimitiveType,
    Vector2, Vector3, VertexPositionColor, VertexPositionNormalTexture, XnaError,
};

const W: i32 = 40;
const H: i32 = 40;
const CLEAR: Color = Color::new(7, 11, 13, 255);

/// A device with an effect looking through an orthographic camera at (0, 0, `eye_z`) down −z:
/// world x, y in [−1, 1] fill the back buffer.
fn setup(profile: GraphicsProfile, eye_z: f32) -> (GraphicsDevice, BasicEffect) {
    let device = device_with(profile, params(W, H));
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.view =
        Matrix::create_look_at(Vector3::new(0.0, 0.0, eye_z), Vector3::ZERO, Vector3::UNIT_Y);
    effect.projection = Matrix::create_orthographic(2.0, 2.0, 0.1, 100.0);
    device.clear(CLEAR).unwrap();
    (device, effect)
}

/// The world-space centre of pixel (x, y) on the plane the camera looks at.
fn pixel_point(x: i32, y: i32) -> (f32, f32) {
    ((x as f32 + 0.5) / W as f32 * 2.0 - 1.0, 1.0 - (y as f32 + 0.5) / H as f32 * 2.0)
}

/// A quad x0..x1 × y0..y1 at depth z, with a normal per corner (TL, TR, BL, BR).
#[derive(Clone, Copy)]
struct Quad {
    x: (f32, f32),
    y: (f32, f32),
    z: f32,
    normals: [Vector3; 4],
}

impl Quad {
    fn corners(&self) -> [Vector3; 4] {
        let (x0, x1) = self.x;
        let (y0, y1) = self.y;
        [(x0, y1), (x1, y1), (x0, y0), (x1, y0)].map(|(x, y)| Vector3::new(x, y, self.z))
    }

    /// Two clockwise triangles: TL TR BL, TR BR BL.
    fn vertices(&self) -> Vec<VertexPositionNormalTexture> {
        let c = self.corners();
        let v = |i: usize| VertexPositionNormalTexture {
            position: c[i],
            normal: self.normals[i],
            texture_coordinate: Vector2::ZERO,
        };
        vec![v(0), v(1), v(2), v(1), v(3), v(2)]
    }

    /// Barycentric weights over TL, TR, BL, BR of the point at fractions u (left to right) and
    /// v (top to bottom) of the quad, in the triangle that holds it.
    fn weights(u: f32, v: f32) -> [f32; 4] {
        if u + v <= 1.0 {
            [1.0 - u - v, u, v, 0.0]
        } else {
            [0.0, 1.0 - v, 1.0 - u, u + v - 1.0]
        }
    }
}

/// `weights` applied to four values.
fn blend(values: [Vector3; 4], w: [f32; 4]) -> Vector3 {
    (0..4).fold(Vector3::ZERO, |acc, i| acc + values[i] * w[i])
}

/// The lights of `e` as the shader sees them: a disabled light has black colours.
fn lights(e: &BasicEffect) -> Vec<(Vector3, Vector3, Vector3)> {
    [e.directional_light0, e.directional_light1, e.directional_light2]
        .iter()
        .map(|l| {
            let on = if l.enabled { 1.0 } else { 0.0 };
            (l.direction, l.diffuse_color * on, l.specular_color * on)
        })
        .collect()
}

/// XNA's ComputeLights at one point: (lit diffuse with emissive and ambient, specular).
fn compute_lights(e: &BasicEffect, position: Vector3, normal: Vector3) -> (Vector3, Vector3) {
    let eye = (e.view.invert().translation() - position).normalize();
    let (mut diffuse, mut specular) = (Vector3::ZERO, Vector3::ZERO);
    for (direction, light_diffuse, light_specular) in lights(e) {
        let dot_l = (-direction).dot(normal);
        let dot_h = (eye - direction).normalize().dot(normal);
        let zero_l = if dot_l >= 0.0 { 1.0 } else { 0.0 };
        diffuse += light_diffuse * (zero_l * dot_l);
        specular += light_specular * (dot_h.max(0.0) * zero_l).powf(e.specular_power);
    }
    let a = e.alpha;
    let emissive = (e.emissive_color + e.ambient_light_color * e.diffuse_color) * a;
    (diffuse * (e.diffuse_color * a) + emissive, specular * e.specular_color)
}

fn to_color(rgb: Vector3, a: f32) -> Color {
    let c = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    Color::new(c(rgb.x), c(rgb.y), c(rgb.z), c(a))
}

/// The world normal of an object normal: through the inverse transpose of World.
fn world_normal(e: &BasicEffect, n: Vector3) -> Vector3 {
    n.transform_normal(&e.world.invert().transpose()).normalize()
}

/// The colour XNA's per-vertex lighting gives pixel (x, y) of `quad` (whose world placement
/// is `e.world`, a scale and translation in x and y): each corner lit, then interpolated.
fn per_vertex(e: &BasicEffect, quad: &Quad, x: i32, y: i32) -> Color {
    let corners = quad.corners().map(|c| c.transform(&e.world));
    let lit: Vec<_> =
        (0..4).map(|i| compute_lights(e, corners[i], world_normal(e, quad.normals[i]))).collect();
    let (px, py) = pixel_point(x, y);
    let u = (px - corners[0].x) / (corners[1].x - corners[0].x);
    let v = (corners[0].y - py) / (corners[0].y - corners[2].y);
    let w = Quad::weights(u, v);
    let diffuse = blend([lit[0].0, lit[1].0, lit[2].0, lit[3].0], w);
    let specular = blend([lit[0].1, lit[1].1, lit[2].1, lit[3].1], w);
    to_color(diffuse * texel(e) + specular * e.alpha, e.alpha)
}

/// The colour XNA's per-pixel lighting gives pixel (x, y) of `quad`: world position and normal
/// interpolated, the normal renormalised, then lit.
fn per_pixel_color(e: &BasicEffect, quad: &Quad, x: i32, y: i32) -> Color {
    let corners = quad.corners().map(|c| c.transform(&e.world));
    let normals = quad.normals.map(|n| world_normal(e, n));
    let (px, py) = pixel_point(x, y);
    let u = (px - corners[0].x) / (corners[1].x - corners[0].x);
    let v = (corners[0].y - py) / (corners[0].y - corners[2].y);
    let w = Quad::weights(u, v);
    let (diffuse, specular) = compute_lights(e, blend(corners, w), blend(normals, w).normalize());
    // The vertex colour is white: the pixel colour is (1, 1, 1, alpha) × the texel × the lit
    // diffuse.
    to_color(texel(e) * diffuse + specular * e.alpha, e.alpha)
}

/// The tests' textures are one opaque texel: its colour, or white without a texture.
fn texel(e: &BasicEffect) -> Vector3 {
    match (e.texture_enabled, e.texture()) {
        (true, Some(_)) => {
            let [r, g, b, _] = TEXEL.to_floats();
            Vector3::new(r, g, b)
        }
        _ => Vector3::ONE,
    }
}

const TEXEL: Color = Color::new(200, 150, 90, 255);

fn draw(device: &GraphicsDevice, effect: &BasicEffect, quad: &Quad) {
    effect.current_technique().passes()[0].apply().unwrap();
    device.draw_user_primitives(PrimitiveType::TriangleList, &quad.vertices(), 0, 2).unwrap();
}

/// Pixels spread over both triangles, none on the diagonal.
const PROBES: [(i32, i32); 6] = [(3, 5), (30, 4), (8, 33), (35, 36), (17, 12), (25, 22)];

fn light(direction: Vector3, diffuse: Vector3, specular: Vector3) -> DirectionalLight {
    DirectionalLight {
        enabled: true,
        direction: direction.normalize(),
        diffuse_color: diffuse,
        specular_color: specular,
    }
}

/// A quad whose corners lean outwards like a dome, so every corner is lit differently.
fn dome() -> Quad {
    let n = |x: f32, y: f32| Vector3::new(x, y, 1.0).normalize();
    Quad {
        x: (-0.5, 0.5),
        y: (-1.0, 1.0),
        z: 0.0,
        normals: [n(-0.6, 0.5), n(0.7, 0.4), n(-0.3, -0.8), n(0.5, -0.6)],
    }
}

#[test]
fn diffuse_lighting_follows_n_dot_l_per_light() {
    let _v = Validation::new();
    let (device, mut e) = setup(GraphicsProfile::HiDef, 5.0);
    e.lighting_enabled = true;
    // A non-uniform scale: normals must go through World's inverse transpose.
    e.world = Matrix::create_scale(2.0, 1.0, 1.0);
    e.diffuse_color = Vector3::new(0.9, 0.7, 0.8);
    e.specular_color = Vector3::ZERO;
    e.directional_light0 =
        light(Vector3::new(0.5, -0.3, -1.0), Vector3::new(0.8, 0.1, 0.2), Vector3::ZERO);
    e.directional_light1 =
        light(Vector3::new(-0.7, 0.2, -0.6), Vector3::new(0.1, 0.6, 0.1), Vector3::ZERO);
    // Light 2 shines from behind on most of the quad: N·L < 0 contributes nothing there.
    e.directional_light2 =
        light(Vector3::new(0.6, 0.9, 0.3), Vector3::new(0.2, 0.2, 0.7), Vector3::ZERO);
    let quad = dome();
    draw(&device, &e, &quad);
    let pixels = read_back_buffer(&device);
    for (x, y) in PROBES {
        assert_near(at(&pixels, W, x, y), per_vertex(&e, &quad, x, y), 2);
    }
    // The probes see different colours (the test would not notice a constant otherwise).
    assert_ne!(at(&pixels, W, 3, 5), at(&pixels, W, 35, 36));
}

#[test]
fn ambient_and_emissive_add_to_the_lit_colour() {
    let _v = Validation::new();
    let (device, mut e) = setup(GraphicsProfile::HiDef, 5.0);
    e.lighting_enabled = true;
    e.world = Matrix::create_scale(2.0, 1.0, 1.0);
    e.diffuse_color = Vector3::new(0.5, 0.8, 0.4);
    e.emissive_color = Vector3::new(0.1, 0.0, 0.2);
    e.ambient_light_color = Vector3::new(0.3, 0.2, 0.1);
    e.alpha = 0.8;
    e.specular_color = Vector3::ZERO;
    e.directional_light0.enabled = false;
    let quad = dome();
    draw(&device, &e, &quad);
    let pixels = read_back_buffer(&device);
    // No light: (Emissive + Ambient × Diffuse) × Alpha, alpha Alpha (the device's blend state
    // is Opaque: written as it is).
    let a = e.alpha;
    let want = to_color((e.emissive_color + e.ambient_light_color * e.diffuse_color) * a, a);
    for (x, y) in PROBES {
        assert_near(at(&pixels, W, x, y), want, 2);
    }
}

#[test]
fn specular_lighting_follows_the_half_vector() {
    let _v = Validation::new();
    let (device, mut e) = setup(GraphicsProfile::HiDef, 2.0);
    e.lighting_enabled = true;
    e.prefer_per_pixel_lighting = true;
    // Black diffuse, no ambient or emissive: only the specular term remains.
    e.diffuse_color = Vector3::ZERO;
    e.specular_color = Vector3::new(1.0, 0.8, 0.9);
    e.specular_power = 6.0;
    e.directional_light0 =
        light(Vector3::new(0.3, -0.2, -1.0), Vector3::ONE, Vector3::new(0.9, 0.7, 0.2));
    e.directional_light1 =
        light(Vector3::new(-0.5, 0.4, -0.8), Vector3::ONE, Vector3::new(0.1, 0.3, 0.8));
    e.directional_light2.enabled = false;
    let flat = Vector3::UNIT_Z;
    let quad = Quad { x: (-1.0, 1.0), y: (-1.0, 1.0), z: 0.0, normals: [flat; 4] };
    draw(&device, &e, &quad);
    let pixels = read_back_buffer(&device);
    for (x, y) in PROBES {
        assert_near(at(&pixels, W, x, y), per_pixel_color(&e, &quad, x, y), 2);
    }
    assert_ne!(at(&pixels, W, 3, 5), at(&pixels, W, 25, 22));
}

/// Three quads at view depths 5, 7 and 9 under fog from 4 to 10, lighting off.
#[test]
fn linear_fog_blends_by_view_depth() {
    let _v = Validation::new();
    let (device, mut e) = setup(GraphicsProfile::HiDef, 5.0);
    e.diffuse_color = Vector3::new(0.9, 0.2, 0.1);
    e.emissive_color = Vector3::new(0.0, 0.1, 0.1);
    e.fog_enabled = true;
    e.fog_color = Vector3::new(0.1, 0.3, 0.9);
    e.fog_start = 4.0;
    e.fog_end = 10.0;
    // World moves everything 1 to the right and 1 back: the fog row is World × View's.
    e.world = Matrix::create_translation(0.25, 0.0, -1.0);
    let flat = [Vector3::UNIT_Z; 4];
    let quads = [
        Quad { x: (-1.25, -0.45), y: (0.2, 0.9), z: 1.0, normals: flat },
        Quad { x: (-0.35, 0.35), y: (-0.6, 0.1), z: -1.0, normals: flat },
        Quad { x: (0.15, 0.65), y: (-0.95, -0.7), z: -3.0, normals: flat },
    ];
    for q in &quads {
        draw(&device, &e, q);
    }
    let pixels = read_back_buffer(&device);
    let color = e.diffuse_color + e.emissive_color;
    for (q, (x, y), depth) in
        [(&quads[0], (6, 6), 5.0), (&quads[1], (21, 24), 7.0), (&quads[2], (29, 36), 9.0)]
    {
        let fog = ((depth - e.fog_start) / (e.fog_end - e.fog_start)).clamp(0.0, 1.0);
        let want = to_color(color * (1.0 - fog) + e.fog_color * fog, 1.0);
        assert_near(at(&pixels, W, x, y), want, 2);
        let _ = q;
    }
    // Outside the quads: the clear colour.
    assert_eq!(at(&pixels, W, 38, 2), CLEAR);
}

/// A flat quad lit head-on with a tight highlight seen from close by: per pixel the highlight
/// sits at the centre; per vertex it is interpolated from the corners, which miss it.
fn highlight_scene(e: &mut BasicEffect) -> Quad {
    e.lighting_enabled = true;
    e.diffuse_color = Vector3::new(0.2, 0.2, 0.2);
    e.specular_color = Vector3::ONE;
    e.specular_power = 24.0;
    e.directional_light0 = light(Vector3::new(0.0, 0.0, -1.0), Vector3::ONE, Vector3::ONE);
    Quad { x: (-1.0, 1.0), y: (-1.0, 1.0), z: 0.0, normals: [Vector3::UNIT_Z; 4] }
}

#[test]
fn per_pixel_lighting_differs_from_per_vertex_where_the_highlight_falls_between_vertices() {
    let _v = Validation::new();
    let (device, mut e) = setup(GraphicsProfile::HiDef, 1.5);
    let quad = highlight_scene(&mut e);
    draw(&device, &e, &quad);
    let vertex_pixels = read_back_buffer(&device);
    e.prefer_per_pixel_lighting = true;
    device.clear(CLEAR).unwrap();
    draw(&device, &e, &quad);
    let pixel_pixels = read_back_buffer(&device);
    for (x, y) in [(19, 18), (12, 25), (31, 8)] {
        assert_near(at(&vertex_pixels, W, x, y), per_vertex(&e, &quad, x, y), 2);
        assert_near(at(&pixel_pixels, W, x, y), per_pixel_color(&e, &quad, x, y), 2);
    }
    let (v, p) = (at(&vertex_pixels, W, 19, 18), at(&pixel_pixels, W, 19, 18));
    assert!(p.r > v.r + 100, "per pixel {p:?} should be far brighter than per vertex {v:?}");
}

#[test]
fn reach_lights_per_vertex_even_when_per_pixel_is_preferred() {
    let _v = Validation::new();
    let (device, mut e) = setup(GraphicsProfile::Reach, 1.5);
    let quad = highlight_scene(&mut e);
    e.prefer_per_pixel_lighting = true;
    draw(&device, &e, &quad);
    let pixels = read_back_buffer(&device);
    for (x, y) in [(19, 18), (12, 25)] {
        assert_near(at(&pixels, W, x, y), per_vertex(&e, &quad, x, y), 2);
    }
}

#[test]
fn enable_default_lighting_sets_xnas_rig() {
    let device = device(4, 4);
    let mut e = BasicEffect::new(&device).unwrap();
    assert!(!e.lighting_enabled);
    assert!(e.directional_light0.enabled && !e.directional_light1.enabled);
    assert_eq!((e.specular_color, e.specular_power), (Vector3::ONE, 16.0));
    e.enable_default_lighting();
    assert!(e.lighting_enabled);
    let l = [e.directional_light0, e.directional_light1, e.directional_light2];
    assert!(l.iter().all(|l| l.enabled));
    assert_eq!(l[0].direction, Vector3::new(-0.5265408, -0.5735765, -0.6275069));
    assert_eq!(l[0].diffuse_color, Vector3::new(1.0, 0.9607844, 0.8078432));
    assert_eq!(l[0].specular_color, Vector3::new(1.0, 0.9607844, 0.8078432));
    assert_eq!(l[1].direction, Vector3::new(0.7198464, 0.3420201, 0.6040227));
    assert_eq!(l[1].diffuse_color, Vector3::new(0.9647059, 0.7607844, 0.4078432));
    assert_eq!(l[1].specular_color, Vector3::ZERO);
    assert_eq!(l[2].direction, Vector3::new(0.4545195, -0.7660444, 0.4545195));
    assert_eq!(l[2].diffuse_color, Vector3::new(0.3231373, 0.3607844, 0.3937255));
    assert_eq!(l[2].specular_color, Vector3::new(0.3231373, 0.3607844, 0.3937255));
    assert_eq!(e.ambient_light_color, Vector3::new(0.05333332, 0.09882354, 0.1819608));
}

#[test]
fn lighting_needs_normals_in_the_vertex_declaration() {
    let _v = Validation::new();
    let (device, mut e) = setup(GraphicsProfile::HiDef, 5.0);
    e.lighting_enabled = true;
    e.current_technique().passes()[0].apply().unwrap();
    let tri = [VertexPositionColor { position: Vector3::ZERO, color: Color::WHITE }; 3];
    match device.draw_user_primitives(PrimitiveType::TriangleList, &tri, 0, 1) {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("Normal0"), "{message}")
        }
        other => panic!("expected InvalidOperation naming Normal0, got {other:?}"),
    }
    // Unlit, the same vertices draw.
    e.lighting_enabled = false;
    e.current_technique().passes()[0].apply().unwrap();
    device.draw_user_primitives(PrimitiveType::TriangleList, &tri, 0, 1).unwrap();
    // A NaN light direction is refused at Apply.
    e.directional_light1.direction.x = f32::NAN;
    assert!(matches!(e.current_technique().passes()[0].apply(), Err(XnaError::Argument { .. })));
}

#[test]
fn the_texture_modulates_the_lit_colour_per_vertex_and_per_pixel() {
    let _v = Validation::new();
    let (device, mut e) = setup(GraphicsProfile::HiDef, 3.0);
    let texture = solid(&device, 1, 1, TEXEL);
    e.enable_default_lighting();
    e.world = Matrix::create_scale(2.0, 1.0, 1.0);
    e.texture_enabled = true;
    e.set_texture(Some(&texture));
    let quad = dome();
    for per_pixel in [false, true] {
        e.prefer_per_pixel_lighting = per_pixel;
        device.clear(CLEAR).unwrap();
        draw(&device, &e, &quad);
        let pixels = read_back_buffer(&device);
        for (x, y) in PROBES {
            let want = if per_pixel {
                per_pixel_color(&e, &quad, x, y)
            } else {
                per_vertex(&e, &quad, x, y)
            };
            assert_near(at(&pixels, W, x, y), want, 2);
        }
    }
}

/// An `Apply` that XNA refuses (a value that is not finite; `TextureEnabled` without a texture)
/// changes nothing: the draws after it use the values of the last `Apply` that succeeded.
#[test]
fn a_refused_apply_leaves_the_last_applied_values_in_place() {
    let _v = Validation::new();
    let (device, mut e) = setup(GraphicsProfile::HiDef, 5.0);
    let quad = Quad { x: (-1.0, 1.0), y: (-1.0, 1.0), z: 0.0, normals: [Vector3::UNIT_Z; 4] };
    let vertices = quad.vertices();
    let drawn = |e: &BasicEffect| {
        let applied = e.current_technique().passes()[0].apply();
        device.clear(CLEAR).unwrap();
        device.draw_user_primitives(PrimitiveType::TriangleList, &vertices, 0, 2).unwrap();
        (applied, at(&read_back_buffer(&device), W, 13, 29))
    };
    e.diffuse_color = Vector3::new(1.0, 0.0, 0.0);
    assert_eq!(drawn(&e), (Ok(()), Color::new(255, 0, 0, 255)));
    e.diffuse_color = Vector3::new(0.0, 1.0, 0.0);
    e.alpha = f32::NAN;
    let (applied, pixel) = drawn(&e);
    assert!(matches!(applied, Err(XnaError::Argument { .. })), "{applied:?}");
    assert_eq!(pixel, Color::new(255, 0, 0, 255), "drawn with the last applied values");
    e.alpha = 1.0;
    e.texture_enabled = true;
    let (applied, pixel) = drawn(&e);
    assert!(matches!(applied, Err(XnaError::InvalidOperation { .. })), "{applied:?}");
    assert_eq!(pixel, Color::new(255, 0, 0, 255), "drawn with the last applied values");
    e.texture_enabled = false;
    assert_eq!(drawn(&e), (Ok(()), Color::new(0, 255, 0, 255)));
    // An Apply that changes only a draw's own values checks only those: each of them not
    // finite is refused all the same.
    for value in ["Alpha", "DiffuseColor", "EmissiveColor", "SpecularColor", "SpecularPower"] {
        let mut bad = e.clone();
        match value {
            "Alpha" => bad.alpha = f32::INFINITY,
            "DiffuseColor" => bad.diffuse_color.y = f32::NAN,
            "EmissiveColor" => bad.emissive_color.x = f32::NEG_INFINITY,
            "SpecularColor" => bad.specular_color.z = f32::NAN,
            _ => bad.specular_power = f32::NAN,
        }
        let (applied, pixel) = drawn(&bad);
        assert!(matches!(applied, Err(XnaError::Argument { .. })), "{value}: {applied:?}");
        assert_eq!(pixel, Color::new(0, 255, 0, 255), "{value}: the last applied values");
    }
}
