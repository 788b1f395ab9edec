//! SkinnedEffect's and EnvironmentMapEffect's `Parameters`: XNA's names in the declaration order
//! of `SkinnedEffect.fx` and `EnvironmentMapEffect.fx`; held parameters (`Bones`, a `Matrix`
//! array of 72, and `EnvironmentMap`, a `TextureCube`, among them) read back what either path
//! set; computed ones read what `Apply` computes and refuse to be set.

use std::sync::Arc;

use xnagraph::{
    EffectParameterCollection, EnvironmentMapEffect, ParameterType, SkinnedEffect, SurfaceFormat,
    TextureCube,
};

use super::*;

/// `SkinnedEffect.fx`'s parameters, in its declaration order.
const SKINNED: &[&str] = &[
    "Texture",
    "DiffuseColor",
    "EmissiveColor",
    "SpecularColor",
    "SpecularPower",
    "DirLight0Direction",
    "DirLight0DiffuseColor",
    "DirLight0SpecularColor",
    "DirLight1Direction",
    "DirLight1DiffuseColor",
    "DirLight1SpecularColor",
    "DirLight2Direction",
    "DirLight2DiffuseColor",
    "DirLight2SpecularColor",
    "EyePosition",
    "FogColor",
    "FogVector",
    "World",
    "WorldInverseTranspose",
    "Bones",
    "WorldViewProj",
    "ShaderIndex",
];

/// `EnvironmentMapEffect.fx`'s parameters, in its declaration order.
const ENVIRONMENT_MAP: &[&str] = &[
    "Texture",
    "EnvironmentMap",
    "EnvironmentMapSpecular",
    "FresnelFactor",
    "EnvironmentMapAmount",
    "DiffuseColor",
    "EmissiveColor",
    "DirLight0Direction",
    "DirLight0DiffuseColor",
    "DirLight1Direction",
    "DirLight1DiffuseColor",
    "DirLight2Direction",
    "DirLight2DiffuseColor",
    "EyePosition",
    "FogColor",
    "FogVector",
    "World",
    "WorldInverseTranspose",
    "WorldViewProj",
    "ShaderIndex",
];

/// The parameters both effects compute at `Apply`.
const COMPUTED: &[&str] = &[
    "DiffuseColor",
    "EmissiveColor",
    "EyePosition",
    "FogVector",
    "WorldInverseTranspose",
    "WorldViewProj",
    "ShaderIndex",
];

fn cube(device: &GraphicsDevice) -> Arc<TextureCube> {
    Arc::new(TextureCube::new(device, 4, false, SurfaceFormat::Color).unwrap())
}

/// Sets every parameter of `p` by name with a value of its type: a held one takes it, a
/// computed one refuses it with `InvalidOperation` naming what to set instead. Returns the
/// names in the collection's order.
fn set_every_parameter(
    mut p: EffectParameterCollection<'_>,
    texture: &xnagraph::Texture2D,
    cube: &Arc<TextureCube>,
) -> Vec<&'static str> {
    let names = p.names();
    for &name in &names {
        let mut q = p.get(name).unwrap();
        assert_eq!(q.name(), name);
        let result = match (q.parameter_type(), q.element_count()) {
            (ParameterType::Matrix, 0) => q.set_value(Matrix::create_scale(2.0, 3.0, 4.0)),
            (ParameterType::Matrix, _) => q.set_value(&[Matrix::create_scale(2.0, 3.0, 4.0)][..]),
            (ParameterType::Vector3, _) => q.set_value(Vector3::new(0.5, 0.25, 0.125)),
            (ParameterType::Vector4, _) => q.set_value(Vector4::ONE),
            (ParameterType::Single, _) => q.set_value(0.5f32),
            (ParameterType::Int32, _) => q.set_value(3i32),
            (ParameterType::Texture2D, _) => q.set_value(texture),
            (ParameterType::TextureCube, _) => q.set_value(cube),
            (other, _) => panic!("{name} is {other:?}"),
        };
        let computed = COMPUTED.contains(&name);
        assert_eq!(q.is_computed(), computed, "{name}");
        if computed {
            assert!(
                matches!(&result, Err(XnaError::InvalidOperation { message })
                    if message.contains("computed at Apply")),
                "{name}: {result:?}"
            );
        } else {
            assert!(result.is_ok(), "{name}: {result:?}");
        }
    }
    names
}

#[test]
fn skinned_and_environment_map_parameters_are_xnas_in_declaration_order() {
    let device = setup();
    let texture = checker(&device, 0);
    let cube = cube(&device);
    let mut skinned = SkinnedEffect::new(&device).unwrap();
    assert_eq!(skinned.parameters().len(), SKINNED.len());
    assert_eq!(set_every_parameter(skinned.parameters(), &texture, &cube), SKINNED);
    assert_eq!(skinned.parameters().get("Bones").unwrap().element_count(), 72);
    assert_eq!(skinned.parameters().get("World").unwrap().element_count(), 0);
    let mut environment = EnvironmentMapEffect::new(&device).unwrap();
    assert_eq!(environment.parameters().len(), ENVIRONMENT_MAP.len());
    assert_eq!(set_every_parameter(environment.parameters(), &texture, &cube), ENVIRONMENT_MAP);
    let mut p = environment.parameters();
    assert!(matches!(p.get("DirLight0SpecularColor"), Err(XnaError::Argument { .. })));
    assert!(matches!(p.get("SpecularPower"), Err(XnaError::Argument { .. })));
    assert_eq!(p.get("EnvironmentMap").unwrap().parameter_type(), ParameterType::TextureCube);
}

#[test]
fn skinned_held_parameters_read_back_what_either_path_set() {
    let device = setup();
    let texture = checker(&device, 0);
    texture.set_name("checker");
    let mut effect = SkinnedEffect::new(&device).unwrap();
    let bones =
        [sheared(), Matrix::create_translation(1.0, 2.0, 3.0), Matrix::create_scale(2.0, 2.0, 2.0)];
    let mut p = effect.parameters();
    p.get("SpecularColor").unwrap().set_value(Vector3::new(0.25, 0.5, 0.75)).unwrap();
    p.get("SpecularPower").unwrap().set_value(7.5f32).unwrap();
    p.get("DirLight2SpecularColor").unwrap().set_value(Vector3::new(0.0, 0.0, 0.5)).unwrap();
    p.get("DirLight1Direction").unwrap().set_value(Vector3::new(1.0, 0.0, 0.0)).unwrap();
    p.get("FogColor").unwrap().set_value(Vector3::new(0.0, 0.0, 1.0)).unwrap();
    p.get("World").unwrap().set_value(sheared()).unwrap();
    p.get("Texture").unwrap().set_value(&texture).unwrap();
    p.get("Bones").unwrap().set_value(&bones[..]).unwrap();
    assert_eq!(effect.specular_color, Vector3::new(0.25, 0.5, 0.75));
    assert_eq!(effect.specular_power, 7.5);
    assert_eq!(effect.directional_light2.specular_color, Vector3::new(0.0, 0.0, 0.5));
    assert_eq!(effect.directional_light1.direction, Vector3::new(1.0, 0.0, 0.0));
    assert_eq!(effect.fog_color, Vector3::new(0.0, 0.0, 1.0));
    assert_eq!(effect.world, sheared());
    assert_eq!(effect.texture().unwrap().name(), "checker");
    let set = effect.get_bone_transforms(4).unwrap();
    assert_eq!(set[..3], bones, "Bones by name are the bone transforms");
    assert_eq!(set[3], Matrix::IDENTITY, "the bones past those given keep their values");

    effect.set_bone_transforms(&[Matrix::create_rotation_z(0.5); 2]).unwrap();
    effect.specular_power = 3.0;
    effect.directional_light0.diffuse_color = Vector3::new(0.0, 0.5, 0.0);
    effect.world = Matrix::create_translation(0.0, 1.0, 0.0);
    let mut p = effect.parameters();
    let read = p.get("Bones").unwrap().get_value_matrix_array(3).unwrap();
    assert_eq!(read, [Matrix::create_rotation_z(0.5), Matrix::create_rotation_z(0.5), bones[2]]);
    assert_eq!(p.get("Bones").unwrap().get_value_matrix_array(72).unwrap().len(), 72);
    assert_eq!(p.get("SpecularPower").unwrap().get_value_single().unwrap(), 3.0);
    assert_eq!(
        p.get("DirLight0DiffuseColor").unwrap().get_value_vector3().unwrap(),
        Vector3::new(0.0, 0.5, 0.0)
    );
    assert_eq!(
        p.get("World").unwrap().get_value_matrix().unwrap(),
        Matrix::create_translation(0.0, 1.0, 0.0)
    );
    let read = p.get("Texture").unwrap().get_value_texture2d().unwrap().unwrap();
    assert_eq!(read.name(), "checker");

    // Bones is an array of 72: more is out of range, a single matrix is another type.
    let mut bones = p.get("Bones").unwrap();
    let r = bones.set_value(&[Matrix::IDENTITY; 73][..]);
    assert!(matches!(r, Err(XnaError::ArgumentOutOfRange { .. })), "{r:?}");
    let r = bones.set_value(Matrix::IDENTITY);
    assert!(matches!(r, Err(XnaError::InvalidCast { .. })), "{r:?}");
    assert!(matches!(bones.get_value_matrix(), Err(XnaError::InvalidCast { .. })));
    assert!(matches!(bones.get_value_matrix_array(73), Err(XnaError::ArgumentOutOfRange { .. })));
    assert!(matches!(bones.get_value_matrix_array(0), Err(XnaError::ArgumentOutOfRange { .. })));
    let r = p.get("World").unwrap().set_value(&[Matrix::IDENTITY][..]);
    assert!(matches!(r, Err(XnaError::InvalidCast { .. })), "{r:?}");
    assert!(matches!(
        p.get("World").unwrap().get_value_matrix_array(1),
        Err(XnaError::InvalidCast { .. })
    ));
    assert_eq!(effect.get_bone_transforms(1).unwrap()[0], Matrix::create_rotation_z(0.5));
}

#[test]
fn environment_map_held_parameters_read_back_what_either_path_set() {
    let device = setup();
    let texture = checker(&device, 0);
    let cube = cube(&device);
    let mut effect = EnvironmentMapEffect::new(&device).unwrap();
    let mut p = effect.parameters();
    p.get("EnvironmentMap").unwrap().set_value(&cube).unwrap();
    p.get("Texture").unwrap().set_value(&texture).unwrap();
    p.get("EnvironmentMapSpecular").unwrap().set_value(Vector3::new(0.5, 0.5, 0.0)).unwrap();
    p.get("FresnelFactor").unwrap().set_value(2.5f32).unwrap();
    p.get("EnvironmentMapAmount").unwrap().set_value(0.25f32).unwrap();
    p.get("DirLight1DiffuseColor").unwrap().set_value(Vector3::new(0.0, 0.5, 0.0)).unwrap();
    p.get("DirLight2Direction").unwrap().set_value(Vector3::new(0.0, -1.0, 0.0)).unwrap();
    p.get("FogColor").unwrap().set_value(Vector3::ONE).unwrap();
    p.get("World").unwrap().set_value(sheared()).unwrap();
    assert!(Arc::ptr_eq(effect.environment_map().unwrap(), &cube), "the game's cube, shared");
    assert_eq!(effect.texture().unwrap().resource_id(), texture.resource_id());
    assert_eq!(effect.environment_map_specular, Vector3::new(0.5, 0.5, 0.0));
    assert_eq!((effect.fresnel_factor, effect.environment_map_amount), (2.5, 0.25));
    assert_eq!(effect.directional_light1.diffuse_color, Vector3::new(0.0, 0.5, 0.0));
    assert_eq!(effect.directional_light2.direction, Vector3::new(0.0, -1.0, 0.0));
    assert_eq!(effect.fog_color, Vector3::ONE);
    assert_eq!(effect.world, sheared());

    let other = self::cube(&device);
    effect.set_environment_map(Some(other.clone()));
    effect.fresnel_factor = 0.0;
    effect.environment_map_amount = 0.75;
    effect.environment_map_specular = Vector3::new(0.0, 0.0, 0.25);
    effect.directional_light0.direction = Vector3::new(0.0, 0.0, 1.0);
    let mut p = effect.parameters();
    let read = p.get("EnvironmentMap").unwrap().get_value_texture_cube().unwrap().unwrap();
    assert!(Arc::ptr_eq(&read, &other));
    assert_eq!(p.get("FresnelFactor").unwrap().get_value_single().unwrap(), 0.0);
    assert_eq!(p.get("EnvironmentMapAmount").unwrap().get_value_single().unwrap(), 0.75);
    assert_eq!(
        p.get("EnvironmentMapSpecular").unwrap().get_value_vector3().unwrap(),
        Vector3::new(0.0, 0.0, 0.25)
    );
    assert_eq!(
        p.get("DirLight0Direction").unwrap().get_value_vector3().unwrap(),
        Vector3::new(0.0, 0.0, 1.0)
    );
    assert_eq!(p.get("World").unwrap().get_value_matrix().unwrap(), sheared());
    let cast = |r: xnagraph::Result<()>| {
        assert!(matches!(r, Err(XnaError::InvalidCast { .. })), "{r:?}");
    };
    cast(p.get("EnvironmentMap").unwrap().set_value(&texture));
    cast(p.get("Texture").unwrap().set_value(&cube));
    assert!(matches!(
        p.get("Texture").unwrap().get_value_texture_cube(),
        Err(XnaError::InvalidCast { .. })
    ));
    p.get("EnvironmentMap").unwrap().set_value(&cube).unwrap();
    assert!(Arc::ptr_eq(effect.environment_map().unwrap(), &cube));
}

/// The values `Apply` hands the shaders of a lit effect: (DiffuseColor × Alpha, Alpha) and
/// (EmissiveColor + AmbientLightColor × DiffuseColor) × Alpha.
fn lit_colors(d: Vector3, e: Vector3, ambient: Vector3, a: f32) -> (Vector4, Vector3) {
    let diffuse = d * a;
    (Vector4::new(diffuse.x, diffuse.y, diffuse.z, a), (e + ambient * d) * a)
}

#[test]
fn skinned_and_environment_map_computed_parameters_read_what_apply_computes() {
    let device = setup();
    let view = Matrix::create_translation(1.0, 2.0, -3.0);
    let projection = Matrix::create_scale(0.5, 2.0, 1.0);
    let (d, e, ambient) =
        (Vector3::new(0.5, 0.25, 1.0), Vector3::new(0.25, 0.25, 0.0), Vector3::new(0.5, 0.5, 0.5));
    let (diffuse, emissive) = lit_colors(d, e, ambient, 0.5);

    let mut skinned = SkinnedEffect::new(&device).unwrap();
    (skinned.world, skinned.view, skinned.projection) = (sheared(), view, projection);
    (skinned.diffuse_color, skinned.emissive_color, skinned.ambient_light_color) = (d, e, ambient);
    skinned.alpha = 0.5;
    let mut environment = EnvironmentMapEffect::new(&device).unwrap();
    (environment.world, environment.view, environment.projection) = (sheared(), view, projection);
    (environment.diffuse_color, environment.emissive_color) = (d, e);
    environment.ambient_light_color = ambient;
    environment.alpha = 0.5;
    for mut p in [skinned.parameters(), environment.parameters()] {
        let wvp = sheared().mul(&view).mul(&projection);
        assert_eq!(p.get("WorldViewProj").unwrap().get_value_matrix().unwrap(), wvp);
        assert_eq!(
            p.get("WorldInverseTranspose").unwrap().get_value_matrix().unwrap(),
            sheared().invert().transpose()
        );
        assert_eq!(p.get("DiffuseColor").unwrap().get_value_vector4().unwrap(), diffuse);
        assert_eq!(p.get("EmissiveColor").unwrap().get_value_vector3().unwrap(), emissive);
        assert_eq!(
            p.get("EyePosition").unwrap().get_value_vector3().unwrap(),
            Vector3::new(-1.0, -2.0, 3.0)
        );
        assert_eq!(p.get("FogVector").unwrap().get_value_vector4().unwrap(), Vector4::ZERO);
        let err = p.get("DiffuseColor").unwrap().set_value(Vector4::ONE).unwrap_err();
        assert!(
            matches!(&err, XnaError::InvalidOperation { message } if message.contains("Alpha")),
            "{err:?}"
        );
    }
    // Four weights, vertex lighting with one light, fog off.
    assert_eq!(skinned.parameters().get("ShaderIndex").unwrap().get_value_int32().unwrap(), 11);
    skinned.fog_enabled = true;
    skinned.set_weights_per_vertex(2).unwrap();
    skinned.enable_default_lighting();
    assert_eq!(skinned.parameters().get("ShaderIndex").unwrap().get_value_int32().unwrap(), 2);
    skinned.fog_start = 1.0;
    skinned.fog_end = 5.0;
    let fog = skinned.parameters().get("FogVector").unwrap().get_value_vector4().unwrap();
    assert_ne!(fog, Vector4::ZERO, "fog on: the view-space depth scaled to 0..1");
    // FresnelFactor 1, no specular, one light, fog off.
    let index = |e: &mut EnvironmentMapEffect| {
        e.parameters().get("ShaderIndex").unwrap().get_value_int32().unwrap()
    };
    assert_eq!(index(&mut environment), 11);
    environment.fresnel_factor = 0.0;
    environment.environment_map_specular = Vector3::ONE;
    environment.fog_enabled = true;
    environment.enable_default_lighting();
    assert_eq!(index(&mut environment), 4);
}
