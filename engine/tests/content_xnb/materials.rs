//! The effect readers and external references: `BasicEffect`, `AlphaTestEffect` and
//! `DualTextureEffect` materials loaded through `ContentManager` with every field read back, a
//! texture named by a relative reference loaded once and shared, cycles refused with their
//! chain, a `SkinnedEffect` read with every field and a bad WeightsPerVertex refused at its
//! byte, an `EnvironmentMapEffect` read with every field, its texture and its cube map,
//! compiled effect bytecode refused naming the asset, truncations refused at the byte where they end;
//! and the primitive and math readers.

use super::*;
use xnagraph::{
    AlphaTestEffect, BasicEffect, CompareFunction, DualTextureEffect, EnvironmentMapEffect, Matrix,
    Model, ModelEffect, Quaternion, SkinnedEffect, TextureCube, Vector3, Vector4,
};

const GRAY: [f32; 3] = [0.25, 0.5, 0.75];

/// A material whose every value differs from `BasicEffect`'s defaults and from each other.
fn stone(texture: &str) -> BasicMaterial {
    BasicMaterial {
        texture: texture.to_owned(),
        diffuse: [0.1, 0.2, 0.3],
        emissive: [0.4, 0.5, 0.6],
        specular: [0.7, 0.8, 0.9],
        specular_power: 7.5,
        alpha: 0.625,
        vertex_color: true,
    }
}

fn basic_body(m: &BasicMaterial) -> Vec<u8> {
    asset_body(&["BasicEffectReader"], |b| basic_effect_data(b, m))
}

fn v3(v: [f32; 3]) -> Vector3 {
    Vector3::new(v[0], v[1], v[2])
}

/// A 2×2 `Color` texture whose texels are `seed`'s pattern.
fn small_texture(seed: u8) -> Vec<u8> {
    xnb(&texture_body(0, 2, 2, &[pattern(16, seed)]))
}

#[test]
fn a_basic_effect_reads_every_field_and_its_texture() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("basic-effect");
    // The texture lies beside the material's folder, named relative to it with XNA's `\`.
    write(&dir, "textures/stone", &small_texture(3));
    let m = stone("..\\textures\\stone");
    write(&dir, "materials/stone", &xnb(&basic_body(&m)));
    let plain = BasicMaterial { texture: String::new(), vertex_color: false, ..stone("") };
    write(&dir, "materials/plain", &xnb(&basic_body(&plain)));
    let content = ContentManager::new(&device, &dir);

    let effect = content.load::<BasicEffect>("materials/stone").unwrap();
    assert_eq!(effect.diffuse_color, v3(m.diffuse));
    assert_eq!(effect.emissive_color, v3(m.emissive));
    assert_eq!(effect.specular_color, v3(m.specular));
    assert_eq!(effect.specular_power, 7.5);
    assert_eq!(effect.alpha, 0.625);
    assert!(effect.vertex_color_enabled);
    assert!(effect.texture_enabled, "a material with a texture enables it, as XNA's reader");
    let texture = effect.texture().expect("the material's texture");
    let direct = content.load::<Texture2D>("textures/stone").unwrap();
    assert_eq!(texture.resource_id(), direct.resource_id(), "the cached texture itself");
    assert_eq!(level::<u8>(texture, 0, 16), pattern(16, 3));

    // No texture: an empty reference, TextureEnabled off, the other fields as written.
    let plain_effect = content.load::<BasicEffect>("materials/plain").unwrap();
    assert!(plain_effect.texture().is_none());
    assert!(!plain_effect.texture_enabled && !plain_effect.vertex_color_enabled);
    assert_eq!(plain_effect.specular_power, 7.5);
    // A loaded material is cached as any asset.
    let again = content.load::<BasicEffect>("Materials\\Stone").unwrap();
    assert!(Arc::ptr_eq(&effect, &again));
}

/// A loaded material is shared, as XNA shares it; `clone()` (XNA's `Effect.Clone`) gives the
/// game a copy of its own with the same values and the same texture.
#[test]
fn a_loaded_material_clones_into_an_effect_the_game_can_change() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("basic-effect-clone");
    write(&dir, "stone-texture", &small_texture(4));
    let m = stone("stone-texture");
    write(&dir, "stone", &xnb(&basic_body(&m)));
    let content = ContentManager::new(&device, &dir);
    let shared = content.load::<BasicEffect>("stone").unwrap();

    let mut own = (*shared).clone();
    own.world = Matrix::create_translation(1.0, 2.0, 3.0);
    own.diffuse_color = Vector3::ZERO;
    assert_eq!(shared.world, Matrix::IDENTITY, "the cached material is unchanged");
    assert_eq!(shared.diffuse_color, v3(m.diffuse));
    assert_eq!(own.specular_power, shared.specular_power);
    assert_eq!(own.alpha, shared.alpha);
    assert_eq!(own.texture_enabled, shared.texture_enabled);
    let (a, b) = (own.texture().unwrap(), shared.texture().unwrap());
    assert_eq!(a.resource_id(), b.resource_id(), "the clone references the same texture");
    // Both draw: the copy's pass applies as the original's does.
    own.current_technique().passes()[0].apply().unwrap();
    shared.current_technique().passes()[0].apply().unwrap();
    drop(own);
    assert!(!shared.texture().unwrap().is_disposed(), "dropping the copy leaves the texture");
}

#[test]
fn alpha_test_functions_are_xna_4s_numbers_and_every_field_reads_back() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("alpha-test-effect");
    write(&dir, "leaf", &small_texture(5));
    // XNA 4.0's CompareFunction in the order of its values, 0 to 7.
    let functions = [
        CompareFunction::Always,
        CompareFunction::Never,
        CompareFunction::Less,
        CompareFunction::LessEqual,
        CompareFunction::Equal,
        CompareFunction::GreaterEqual,
        CompareFunction::Greater,
        CompareFunction::NotEqual,
    ];
    let content = ContentManager::new(&device, &dir);
    for (n, function) in functions.into_iter().enumerate() {
        let m = AlphaTestMaterial {
            texture: "leaf".to_owned(),
            function: n as i32,
            reference: 200 + n as u32,
            diffuse: GRAY,
            alpha: 0.5,
            vertex_color: n % 2 == 1,
        };
        let name = format!("alpha{n}");
        let body = asset_body(&["AlphaTestEffectReader"], |b| alpha_test_effect_data(b, &m));
        write(&dir, &name, &xnb(&body));
        let effect = content.load::<AlphaTestEffect>(&name).unwrap();
        assert_eq!(effect.alpha_function, function, "CompareFunction {n}");
        assert_eq!(effect.reference_alpha, 200 + n as u8);
        assert_eq!(effect.diffuse_color, v3(GRAY));
        assert_eq!(effect.alpha, 0.5);
        assert_eq!(effect.vertex_color_enabled, n % 2 == 1);
        let leaf = content.load::<Texture2D>("leaf").unwrap();
        assert_eq!(effect.texture().unwrap().resource_id(), leaf.resource_id());
    }
    // Out of range: the function number and the reference are refused where they lie.
    let at = data_at(&["AlphaTestEffectReader"]) + 5;
    for (name, function, reference, field, byte) in [
        ("function8", 8, 0, "AlphaFunction is 8", at),
        ("ref256", 0, 256, "ReferenceAlpha is 256", at + 4),
    ] {
        let m = AlphaTestMaterial {
            texture: "leaf".to_owned(),
            function,
            reference,
            diffuse: GRAY,
            alpha: 1.0,
            vertex_color: false,
        };
        let body = asset_body(&["AlphaTestEffectReader"], |b| alpha_test_effect_data(b, &m));
        write(&dir, name, &xnb(&body));
        let message = refusal::<AlphaTestEffect>(&content, name);
        assert!(message.contains(field), "{message}");
        assert!(message.contains(&format!("at byte {byte}")), "{message}");
    }
}

#[test]
fn a_dual_texture_effect_reads_both_textures_and_every_field() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("dual-texture-effect");
    write(&dir, "level/base", &small_texture(1));
    write(&dir, "level/lightmaps/lm", &small_texture(2));
    let body = asset_body(&["DualTextureEffectReader"], |b| {
        dual_texture_effect_data(b, ["base", "lightmaps/lm"], GRAY, 0.875, true)
    });
    write(&dir, "level/ground", &xnb(&body));
    let content = ContentManager::new(&device, &dir);
    let effect = content.load::<DualTextureEffect>("level/ground").unwrap();
    assert_eq!(effect.diffuse_color, v3(GRAY));
    assert_eq!(effect.alpha, 0.875);
    assert!(effect.vertex_color_enabled);
    let base = content.load::<Texture2D>("level/base").unwrap();
    let lightmap = content.load::<Texture2D>("level/lightmaps/lm").unwrap();
    assert_eq!(effect.texture().unwrap().resource_id(), base.resource_id());
    assert_eq!(effect.texture2().unwrap().resource_id(), lightmap.resource_id());
    assert_eq!(level::<u8>(effect.texture2().unwrap(), 0, 16), pattern(16, 2));
}

#[test]
fn a_texture_two_materials_reference_is_loaded_once_and_shared() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("shared-reference");
    write(&dir, "textures/shared", &small_texture(4));
    // One names it with `\` and `..` from a sibling folder, the other with `.` from the root.
    write(&dir, "materials/a", &xnb(&basic_body(&stone("..\\textures\\shared"))));
    write(&dir, "b", &xnb(&basic_body(&stone("./textures/shared"))));
    let content = ContentManager::new(&device, &dir);
    let a = content.load::<BasicEffect>("materials/a").unwrap();
    // The file changes after the first load: the second material must get the cached texture,
    // as the game's own load of the name would.
    write(&dir, "textures/shared", &xnb(&texture_body(0, 1, 1, &[pattern(4, 9)])));
    let b = content.load::<BasicEffect>("b").unwrap();
    let (ta, tb) = (a.texture().unwrap(), b.texture().unwrap());
    assert_eq!(ta.resource_id(), tb.resource_id(), "one texture, shared");
    assert_eq!(tb.width(), 2, "the texture of the first load, not of the changed file");
    let direct = content.load::<Texture2D>("textures/shared").unwrap();
    assert_eq!(direct.resource_id(), ta.resource_id(), "the game's load gets it too");
    // Unload disposes the texture once, which both materials see.
    content.unload();
    assert!(ta.is_disposed() && tb.is_disposed());
}

#[test]
fn an_asset_that_references_itself_is_refused_naming_the_chain() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("cycles");
    // Directly: "loop" names itself.
    write(&dir, "loop", &xnb(&basic_body(&stone("loop"))));
    // Through another: "x/a" names "b" (x/b), whose file is a material naming "../x/a".
    write(&dir, "x/a", &xnb(&basic_body(&stone("b"))));
    write(&dir, "x/b", &xnb(&basic_body(&stone("../x/a"))));
    let content = ContentManager::new(&device, &dir);
    let message = refusal::<BasicEffect>(&content, "loop");
    assert!(message.contains("references itself: loop -> loop"), "{message}");
    let at = data_at(&["BasicEffectReader"]);
    assert!(message.contains(&format!("Texture at byte {at}")), "{message}");
    let message = refusal::<BasicEffect>(&content, "x/a");
    assert!(message.contains("references itself: x/a -> x/b -> x/a"), "{message}");
    // Nothing half-read was cached: the same refusal again, and from the other end.
    assert!(refusal::<BasicEffect>(&content, "x/a").contains("x/a -> x/b -> x/a"));
    assert!(refusal::<BasicEffect>(&content, "x/b").contains("x/b -> x/a -> x/b"));
    // A reference to an asset of the wrong type, or to none, carries that asset's error.
    write(&dir, "font", &xnb(&super::font_body()));
    write(&dir, "fonted", &xnb(&basic_body(&stone("font"))));
    write(&dir, "missing", &xnb(&basic_body(&stone("nowhere"))));
    let message = refusal::<BasicEffect>(&content, "fonted");
    assert!(message.contains("holds a SpriteFont, not a Texture2D"), "{message}");
    let message = refusal::<BasicEffect>(&content, "missing");
    assert!(message.contains("'nowhere'") && message.contains("cannot be read"), "{message}");
}

#[test]
fn a_chain_of_references_deeper_than_the_limit_is_refused() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("deep-chain");
    // m0 -> m1 -> ... -> m39 -> the texture: 41 assets one inside the other.
    for i in 0..40 {
        write(&dir, &format!("m{i}"), &xnb(&basic_body(&stone(&format!("m{}", i + 1)))));
    }
    write(&dir, "m40", &small_texture(1));
    let content = ContentManager::new(&device, &dir);
    let message = refusal::<BasicEffect>(&content, "m0");
    assert!(message.contains("at most 32 assets"), "{message}");
    // A chain within the limit is read to its end: m19 names m20, a texture, and is itself
    // refused only for being no texture (m0 names m1 as a texture, as a material does).
    write(&dir, "m20", &small_texture(1));
    let message = refusal::<BasicEffect>(&content, "m0");
    assert!(!message.contains("at most 32"), "{message}");
    assert!(
        message.contains("Error loading \"m19\": the file holds a BasicEffect, not a Texture2D")
    );
}

/// The refusal of `name`, which must name the asset and say what `wants` say.
fn refused_saying(content: &ContentManager, name: &str, wants: &[&str]) {
    let message = refusal::<BasicEffect>(content, name);
    for want in wants {
        assert!(message.contains(want), "{name}: '{message}' lacks '{want}'");
    }
}

#[test]
fn compiled_effects_are_refused_naming_the_asset() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("compiled-effects");
    let content = ContentManager::new(&device, &dir);
    let mut xna = vec![0xCF, 0x0B, 0xF0, 0xBC, 0x08, 0x00, 0x00, 0x00, 0x01, 0x09, 0xFF, 0xFE];
    xna.extend(pattern(20, 1));
    let mut mgfx = b"MGFX\x0A".to_vec();
    mgfx.extend(pattern(20, 2));
    let at = data_at(&["EffectReader"]);
    for (name, code, kind) in [
        ("fx/xna", &xna, "Direct3D"),
        ("fx/raw", &xna[8..].to_vec(), "Direct3D"),
        ("fx/mg", &mgfx, "MGFX"),
    ] {
        write(&dir, name, &xnb(&asset_body(&["EffectReader"], |b| effect_data(b, code))));
        let n = format!("{} bytes from byte {at}", code.len());
        refused_saying(&content, name, &[kind, &n, "cannot be used", "CustomEffect", "GLSL"]);
    }
    // A truncated bytecode is refused where it ends, before anything is said of its kind.
    let mut cut = asset_body(&["EffectReader"], |b| effect_data(b, &mgfx));
    cut.truncate(cut.len() - 3);
    write(&dir, "fx/cut", &xnb(&cut));
    refused_saying(
        &content,
        "fx/cut",
        &["ends while reading the Effect's bytecode", &format!("at byte {}", at + 4)],
    );
}

#[test]
fn a_skinned_effect_reads_every_field_and_its_texture() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("skinned-effect");
    write(&dir, "hero/skin", &small_texture(3));
    let m = stone("");
    let body = asset_body(&["SkinnedEffectReader"], |b| skinned_effect_data(b, "skin", 2, &m));
    write(&dir, "hero/body", &xnb(&body));
    let content = ContentManager::new(&device, &dir);
    let effect = content.load::<SkinnedEffect>("hero/body").unwrap();
    assert_eq!(effect.weights_per_vertex(), 2);
    assert_eq!(effect.diffuse_color, v3(m.diffuse));
    assert_eq!(effect.emissive_color, v3(m.emissive));
    assert_eq!(effect.specular_color, v3(m.specular));
    assert_eq!((effect.specular_power, effect.alpha), (m.specular_power, m.alpha));
    let skin = content.load::<Texture2D>("hero/skin").unwrap();
    assert_eq!(effect.texture().unwrap().resource_id(), skin.resource_id());
    // WeightsPerVertex 3 is refused at its byte, after the texture reference ("skin": a
    // length byte and four characters).
    let body = asset_body(&["SkinnedEffectReader"], |b| skinned_effect_data(b, "skin", 3, &m));
    write(&dir, "hero/three", &xnb(&body));
    let at = data_at(&["SkinnedEffectReader"]) + 5;
    refused_saying(
        &content,
        "hero/three",
        &["WeightsPerVertex is 3; it must be 1, 2 or 4", &format!("at byte {at}")],
    );
}

/// A 1×1 `Color` cube whose faces are `seed`'s pattern.
fn small_cube(seed: u8) -> Vec<u8> {
    let faces: [Vec<Vec<u8>>; 6] = std::array::from_fn(|f| vec![pattern(4, seed + f as u8)]);
    xnb(&asset_body(&["TextureCubeReader"], |b| texture_cube_data(b, 0, 1, &faces)))
}

#[test]
fn an_environment_map_effect_reads_every_field_its_texture_and_its_cube_map() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("environment-map-effect");
    write(&dir, "ship/base", &small_texture(2));
    write(&dir, "sky/day", &small_cube(5));
    let content = ContentManager::new(&device, &dir);
    let m = stone("");
    let body = asset_body(&["EnvironmentMapEffectReader"], |b| {
        environment_map_effect_data(b, ["base", "..\\sky\\day"], &m)
    });
    write(&dir, "ship/hull", &xnb(&body));
    let effect = content.load::<EnvironmentMapEffect>("ship/hull").unwrap();
    // The writer's EnvironmentMapAmount 0.75, FresnelFactor 0.5; the material's colours.
    assert_eq!(effect.environment_map_amount, 0.75);
    assert_eq!(effect.environment_map_specular, v3(m.specular));
    assert_eq!(effect.fresnel_factor, 0.5);
    assert_eq!(effect.diffuse_color, v3(m.diffuse));
    assert_eq!(effect.emissive_color, v3(m.emissive));
    assert_eq!(effect.alpha, m.alpha);
    // What the file does not hold keeps the constructor's value.
    assert!(effect.directional_light0.enabled && effect.lighting_enabled());
    let base = content.load::<Texture2D>("ship/base").unwrap();
    assert_eq!(effect.texture().unwrap().resource_id(), base.resource_id());
    // The cube map is the manager's cached asset, shared.
    let sky = content.load::<TextureCube>("sky/day").unwrap();
    assert!(Arc::ptr_eq(effect.environment_map().unwrap(), &sky));
    // A model part or a game may hold it and apply it as loaded.
    effect.current_technique().passes()[0].apply().unwrap();

    // A Texture2D where the cube map belongs is refused, carrying the type error.
    let body = asset_body(&["EnvironmentMapEffectReader"], |b| {
        environment_map_effect_data(b, ["base", "base"], &m)
    });
    write(&dir, "ship/flat", &xnb(&body));
    let message = refusal::<EnvironmentMapEffect>(&content, "ship/flat");
    assert!(message.contains("the EnvironmentMapEffect's EnvironmentMap"), "{message}");
    assert!(message.contains("TextureCube"), "{message}");
    // One byte short: the last field (Alpha) is refused where it lies.
    let body = asset_body(&["EnvironmentMapEffectReader"], |b| {
        environment_map_effect_data(b, ["base", "..\\sky\\day"], &m)
    });
    let mut cut = body.clone();
    cut.pop();
    write(&dir, "ship/cut", &xnb(&cut));
    let message = refusal::<EnvironmentMapEffect>(&content, "ship/cut");
    let last = format!(
        "ends while reading the EnvironmentMapEffect's Alpha (4 bytes, 3 left) at byte {}",
        10 + body.len() - 4
    );
    assert!(message.contains(&last), "{message}");
}

#[test]
fn a_model_part_may_hold_an_environment_map_effect() {
    use super::models::{bone, part, QUADS, QUAD_INDICES};
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("model-environment-map");
    write(&dir, "ship/base", &small_texture(2));
    write(&dir, "ship/sky", &small_cube(5));
    let model = ModelData {
        bones: vec![bone(Some("root"), Matrix::IDENTITY, None, &[])],
        meshes: vec![MeshData {
            name: Some("hull".to_owned()),
            parent_bone: Some(0),
            sphere: ([0.5, 0.5, 0.0], 1.0),
            tag: None,
            parts: vec![part(0, 0, None, 3)],
        }],
        root: Some(0),
        tag: None,
    };
    let m = stone("");
    // The model's readers and EnvironmentMapEffectReader after them (its index 9).
    let mut readers = model_readers();
    readers.push(reader("EnvironmentMapEffectReader"));
    let shared: Vec<SharedWriter> = vec![
        positions_resource(&QUADS),
        indices_resource(&QUAD_INDICES),
        Box::new(|b| {
            b.int7(9);
            environment_map_effect_data(b, ["base", "sky"], &m);
        }),
    ];
    let mut b = Body::default();
    b.readers(&readers, shared.len() as u32).int7(1);
    model_data(&mut b, &model);
    for s in &shared {
        s(&mut b);
    }
    write(&dir, "ship/model", &xnb(&b.0));
    let content = ContentManager::new(&device, &dir);
    let model = content.load::<Model>("ship/model").unwrap();
    let meshes = model.meshes();
    let hull = meshes.by_name("hull").unwrap();
    let effect = hull.mesh_parts()[0].effect().unwrap();
    let ModelEffect::EnvironmentMap(env) = effect else {
        panic!("part 0 holds {effect:?}, not the file's EnvironmentMapEffect")
    };
    assert_eq!(effect.type_name(), "EnvironmentMapEffect");
    let env = env.lock().unwrap();
    assert_eq!((env.environment_map_amount, env.fresnel_factor), (0.75, 0.5));
    assert_eq!(env.diffuse_color, v3(m.diffuse));
    let sky = content.load::<TextureCube>("ship/sky").unwrap();
    assert!(Arc::ptr_eq(env.environment_map().unwrap(), &sky));
    assert!(hull.effects().iter().any(|e| e.ptr_eq(effect)));
}

#[test]
fn truncated_materials_are_refused_at_the_field_where_they_end() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("truncated-materials");
    write(&dir, "t", &small_texture(1));
    let content = ContentManager::new(&device, &dir);
    let body = basic_body(&stone("t"));
    let at = data_at(&["BasicEffectReader"]);
    // Each field's start in the file, after the reference "t" (2 bytes).
    let fields = [
        ("Texture", at),
        ("DiffuseColor", at + 2),
        ("EmissiveColor", at + 14),
        ("SpecularColor", at + 26),
        ("SpecularPower", at + 38),
        ("Alpha", at + 42),
        ("VertexColorEnabled", at + 46),
    ];
    assert_eq!(10 + body.len(), at + 47, "the layout is 47 bytes");
    for (field, start) in fields {
        let name = format!("cut-{field}");
        write(&dir, &name, &xnb(&body[..start - 10]));
        let message = refusal::<BasicEffect>(&content, &name);
        let want = format!("the BasicEffect's {field} (");
        assert!(message.contains(&want), "{name}: {message}");
        assert!(message.contains(&format!("at byte {start}")), "{name}: {message}");
    }
    // The second reference of a dual-texture material, cut inside its name.
    let body = asset_body(&["DualTextureEffectReader"], |b| {
        dual_texture_effect_data(b, ["t", "tt"], GRAY, 1.0, false)
    });
    write(&dir, "dual-cut", &xnb(&body[..body.len() - 18]));
    let message = refusal::<DualTextureEffect>(&content, "dual-cut");
    assert!(message.contains("the DualTextureEffect's Texture2 (2 bytes, 1 left)"), "{message}");
    // A truncated texture behind a reference: the material's error carries the texture's.
    let mut t = small_texture(1);
    t.truncate(t.len() - 1);
    let len = t.len() as u32;
    t[6..10].copy_from_slice(&len.to_le_bytes());
    write(&dir, "t2", &t);
    write(&dir, "on-cut", &xnb(&basic_body(&stone("t2"))));
    let message = refusal::<BasicEffect>(&content, "on-cut");
    assert!(
        message.contains("Error loading \"t2\"") && message.contains("ends while reading"),
        "{message}"
    );
}

#[test]
fn primitive_and_math_values_read_as_xna_writes_them() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("values");
    let value = |name: &str, reader: &str, data: &dyn Fn(&mut Body)| {
        let mut b = Body::default();
        b.readers(&[framework_reader(reader)], 0).int7(1);
        data(&mut b);
        write(&dir, name, &xnb(&b.0));
    };
    value("int", "Int32Reader", &|b| {
        b.i32(-123_456);
    });
    value("single", "SingleReader", &|b| {
        b.f32(-2.5);
    });
    value("bool", "BooleanReader", &|b| {
        b.u8(1);
    });
    value("string", "StringReader", &|b| {
        b.string("Grüße");
    });
    value("v2", "Vector2Reader", &|b| {
        b.f32(1.0).f32(-2.0);
    });
    value("v3", "Vector3Reader", &|b| {
        b.vec3(GRAY);
    });
    value("v4", "Vector4Reader", &|b| {
        b.f32(1.0).f32(2.0).f32(3.0).f32(4.0);
    });
    value("q", "QuaternionReader", &|b| {
        b.f32(0.5).f32(-0.5).f32(0.25).f32(0.75);
    });
    value("m", "MatrixReader", &|b| {
        for i in 0..16 {
            b.f32(i as f32 + 1.0);
        }
    });
    value("color", "ColorReader", &|b| {
        b.bytes(&[10, 20, 30, 40]);
    });
    let content = ContentManager::new(&device, &dir);
    assert_eq!(*content.load::<i32>("int").unwrap(), -123_456);
    assert_eq!(*content.load::<f32>("single").unwrap(), -2.5);
    assert!(*content.load::<bool>("bool").unwrap());
    assert_eq!(*content.load::<String>("string").unwrap(), "Grüße");
    assert_eq!(*content.load::<Vector2>("v2").unwrap(), Vector2::new(1.0, -2.0));
    assert_eq!(*content.load::<Vector3>("v3").unwrap(), v3(GRAY));
    assert_eq!(*content.load::<Vector4>("v4").unwrap(), Vector4::new(1.0, 2.0, 3.0, 4.0));
    assert_eq!(*content.load::<Quaternion>("q").unwrap(), Quaternion::new(0.5, -0.5, 0.25, 0.75));
    let m = content.load::<Matrix>("m").unwrap();
    // Row by row: M11, M12, M13, M14, M21, ...
    assert_eq!(m.m[0], [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(m.m[1][0], 5.0);
    assert_eq!(m.m[3], [13.0, 14.0, 15.0, 16.0]);
    assert_eq!(*content.load::<Color>("color").unwrap(), Color::new(10, 20, 30, 40));
    // XNA's type names in messages.
    let message = refusal::<f32>(&ContentManager::new(&device, &dir), "int");
    assert!(message.contains("holds an Int32, not a Single"), "{message}");
    // EnumReader<CompareFunction>: XNA's name of the reader, the enum's Int32 behind it.
    let mut b = Body::default();
    let compare = "Microsoft.Xna.Framework.Graphics.CompareFunction";
    b.readers(&[enum_reader(compare, GRAPHICS)], 0).int7(1).i32(6);
    write(&dir, "compare", &xnb(&b.0));
    let message = refusal::<i32>(&content, "compare");
    assert!(message.contains("holds a CompareFunction, not an Int32"), "{message}");
}
