//! The graphics readers' refusals and the manager's handling of their assets: truncated and
//! corrupt volumes, cubes, declarations and buffers refused with a `ContentLoad` error saying
//! what and where, a Reach device's refusals, and caching, typing and `Unload` of each kind.

use super::geometry::{position_color_texture, vertices};
use super::textures::face_pattern;
use super::*;
use xnagraph::{
    GraphicsProfile, IndexBuffer, Texture3D, TextureCube, VertexBuffer, VertexDeclaration,
    VertexPositionColorTexture, VertexType,
};

#[test]
fn resource_assets_are_cached_typed_and_disposed_by_unload() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("resource-cache");
    let volume = [pattern(2 * 2 * 2 * 4, 1)];
    write(
        &dir,
        "volume",
        &xnb(&asset_body(&["Texture3DReader"], |b| texture3d_data(b, 0, [2, 2, 2], &volume))),
    );
    let faces: [Vec<Vec<u8>>; 6] = std::array::from_fn(|f| vec![face_pattern(16, f, 0)]);
    write(
        &dir,
        "cube",
        &xnb(&asset_body(&["TextureCubeReader"], |b| texture_cube_data(b, 0, 2, &faces))),
    );
    let bytes: Vec<u8> = xnagraph::bytemuck::cast_slice(&vertices()).to_vec();
    let data = |b: &mut Body| vertex_buffer_data(b, 24, &position_color_texture(), &bytes);
    write(
        &dir,
        "vertices",
        &xnb(&asset_body(&["VertexBufferReader", "VertexDeclarationReader"], data)),
    );
    write(
        &dir,
        "indices",
        &xnb(&asset_body(&["IndexBufferReader"], |b| index_buffer_data(b, true, &[1, 0, 2, 0]))),
    );
    let data = |b: &mut Body| declaration_data(b, 24, &position_color_texture());
    write(&dir, "declaration", &xnb(&asset_body(&["VertexDeclarationReader"], data)));
    let content = ContentManager::new(&device, &dir);

    let volume = content.load::<Texture3D>("volume").unwrap();
    assert!(Arc::ptr_eq(&volume, &content.load::<Texture3D>("VOLUME").unwrap()));
    let cube = content.load::<TextureCube>("cube").unwrap();
    assert!(Arc::ptr_eq(&cube, &content.load::<TextureCube>("cube").unwrap()));
    let vertices = content.load::<VertexBuffer>("vertices").unwrap();
    assert!(Arc::ptr_eq(&vertices, &content.load::<VertexBuffer>("Vertices").unwrap()));
    let indices = content.load::<IndexBuffer>("indices").unwrap();
    assert!(Arc::ptr_eq(&indices, &content.load::<IndexBuffer>("indices").unwrap()));
    let declaration = content.load::<VertexDeclaration>("declaration").unwrap();
    assert_eq!(*declaration, VertexPositionColorTexture::vertex_declaration());

    // A cached name asked for as another type, and a file of another type.
    let message = refusal::<TextureCube>(&content, "volume");
    assert!(
        message.contains("loaded as a Texture3D") && message.contains("TextureCube"),
        "{message}"
    );
    let message = refusal::<VertexDeclaration>(&content, "vertices");
    assert!(message.contains("VertexBuffer") && message.contains("VertexDeclaration"), "{message}");
    let fresh = ContentManager::new(&device, &dir);
    let message = refusal::<IndexBuffer>(&fresh, "vertices");
    assert!(message.contains("holds a VertexBuffer, not an IndexBuffer"), "{message}");

    content.unload();
    assert!(volume.is_disposed() && cube.is_disposed());
    assert!(vertices.is_disposed() && indices.is_disposed());
    let mut index = [0u16; 1];
    assert!(matches!(indices.get_data(&mut index), Err(XnaError::ObjectDisposed { .. })));
}

/// A kind's name, its file's reader list, and its content.
type SmallAsset = (&'static str, &'static [&'static str], Vec<u8>);

fn small_assets() -> Vec<SmallAsset> {
    let faces: [Vec<Vec<u8>>; 6] = std::array::from_fn(|f| vec![face_pattern(16, f, 0)]);
    let vertices: Vec<u8> = xnagraph::bytemuck::cast_slice(&vertices()[..2]).to_vec();
    let asset = |kind, readers: &'static [&'static str], data: &dyn Fn(&mut Body)| {
        (kind, readers, asset_body(readers, data))
    };
    vec![
        asset("volume", &["Texture3DReader"], &|b| {
            texture3d_data(b, 0, [2, 2, 2], &[pattern(32, 3)])
        }),
        asset("cube", &["TextureCubeReader"], &|b| texture_cube_data(b, 0, 2, &faces)),
        asset("declaration", &["VertexDeclarationReader"], &|b| {
            declaration_data(b, 24, &position_color_texture())
        }),
        asset("vertices", &["VertexBufferReader", "VertexDeclarationReader"], &|b| {
            vertex_buffer_data(b, 24, &position_color_texture(), &vertices)
        }),
        asset("indices", &["IndexBufferReader"], &|b| {
            index_buffer_data(b, true, &[1, 0, 2, 0, 3, 0])
        }),
    ]
}

/// The `ContentLoad` message of loading the asset `name` of kind `kind` (a name of
/// [`small_assets`]).
fn kind_refusal(content: &ContentManager, kind: &str, name: &str) -> String {
    match kind {
        "volume" => refusal::<Texture3D>(content, name),
        "cube" => refusal::<TextureCube>(content, name),
        "declaration" => refusal::<VertexDeclaration>(content, name),
        "vertices" => refusal::<VertexBuffer>(content, name),
        _ => refusal::<IndexBuffer>(content, name),
    }
}

/// Every cut of each kind's file inside its object's data (the header's size fixed to match)
/// is refused, never a panic, saying which field the content ends in and at which byte; the
/// cut in the last byte of the payload names the byte where the payload starts.
#[test]
fn truncated_resources_are_refused_at_the_byte_where_they_end() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("resource-truncated");
    let content = ContentManager::new(&device, &dir);
    for (kind, readers, body) in small_assets() {
        let start = data_at(readers) - 10;
        for cut in start..body.len() {
            write(&dir, kind, &xnb(&body[..cut]));
            let message = kind_refusal(&content, kind, kind);
            assert!(
                message.contains("the content ends while reading"),
                "{kind} cut at {cut}: {message}"
            );
            assert!(message.contains("at byte "), "{kind} cut at {cut}: {message}");
        }
        let payload = match kind {
            "volume" => ("a texture level's bytes", 32),
            "cube" => ("a texture level's bytes", 16),
            "declaration" => ("a vertex element's usage index", 4),
            "vertices" => ("a vertex buffer's vertices", 48),
            _ => ("an index buffer's indices", 6),
        };
        write(&dir, kind, &xnb(&body[..body.len() - 1]));
        let message = kind_refusal(&content, kind, kind);
        let at = format!("at byte {}", 10 + body.len() - payload.1);
        for want in [payload.0, &at] {
            assert!(message.contains(want), "{kind}: '{message}' lacks '{want}'");
        }
    }
}

#[test]
fn corrupt_resources_are_refused_saying_what_and_where() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("resource-corrupt");
    let content = ContentManager::new(&device, &dir);
    let says =
        |kind: &str, name: &str, readers: &[&str], data: &dyn Fn(&mut Body), wants: &[&str]| {
            write(&dir, name, &xnb(&asset_body(readers, data)));
            let message = kind_refusal(&content, kind, name);
            for want in wants {
                assert!(message.contains(want), "{name}: '{message}' lacks '{want}'");
            }
        };
    let volume_at = format!("at byte {}", data_at(&["Texture3DReader"]));
    let cube_at = data_at(&["TextureCubeReader"]);
    let declaration_at = data_at(&["VertexDeclarationReader"]);
    let level = pattern(32, 0);

    // Formats: a MonoGame number and an unknown one, at the format's byte.
    let r = &["Texture3DReader"][..];
    says(
        "volume",
        "srgb",
        r,
        &|b| texture3d_data(b, 33, [2, 2, 2], std::slice::from_ref(&level)),
        &["Dxt1SRgb", &volume_at],
    );
    let faces: [Vec<Vec<u8>>; 6] = std::array::from_fn(|f| vec![face_pattern(16, f, 0)]);
    let c = &["TextureCubeReader"][..];
    says(
        "cube",
        "unknown",
        c,
        &|b| texture_cube_data(b, 99, 2, &faces),
        &["unknown SurfaceFormat 99", &format!("at byte {cube_at}")],
    );
    // Level counts outside 1..=full chain, at the count's byte (format, three edges before it).
    let count_at = format!("at byte {}", data_at(r) + 16);
    says(
        "volume",
        "no-levels",
        r,
        &|b| texture3d_data(b, 0, [2, 2, 2], &[]),
        &["level count 0 is not within 1..=2 for 2x2x2", &count_at],
    );
    let many = vec![level.clone(), pattern(4, 1), pattern(4, 2)];
    says(
        "volume",
        "many-levels",
        r,
        &|b| texture3d_data(b, 0, [2, 2, 2], &many),
        &["level count 3 is not within 1..=2", &count_at],
    );
    // A level of the wrong size: the volume's second, the cube's fourth face.
    let short = vec![level.clone(), pattern(3, 1)];
    let size_at = format!("at byte {}", data_at(r) + 20 + 4 + 32);
    says(
        "volume",
        "level-size",
        r,
        &|b| texture3d_data(b, 0, [2, 2, 2], &short),
        &["level 1 (1x1x1 Color) holds 3 bytes, not 4", &size_at],
    );
    let mut odd = faces.clone();
    odd[3][0].pop();
    let size_at = format!("at byte {}", cube_at + 12 + 3 * 20);
    says(
        "cube",
        "face-size",
        c,
        &|b| texture_cube_data(b, 0, 2, &odd),
        &["face NegativeY level 0 (2x2 Color) holds 15 bytes, not 16", &size_at],
    );
    // A size the constructor refuses, with its reason.
    says(
        "cube",
        "cube-size",
        c,
        &|b| texture_cube_data(b, 0, 0, &std::array::from_fn(|_| vec![Vec::new()])),
        &["TextureCube of size 0", "cannot be created", "The size must be positive"],
    );

    // Declarations: an element's format and usage outside XNA 4.0's, at their bytes.
    let d = &["VertexDeclarationReader"][..];
    let element = |offset, format, usage| Element { offset, format, usage, usage_index: 0 };
    let bad_format = [element(0, 2, 0), element(12, 12, 1)];
    let at = format!("at byte {}", declaration_at + 8 + 16 + 4);
    says(
        "declaration",
        "element-format",
        d,
        &|b| declaration_data(b, 16, &bad_format),
        &["vertex element 1 has format 12", "VertexElementFormat", &at],
    );
    let bad_usage = [element(0, 2, 13)];
    let at = format!("at byte {}", declaration_at + 8 + 8);
    says(
        "declaration",
        "element-usage",
        d,
        &|b| declaration_data(b, 12, &bad_usage),
        &["vertex element 0 has usage 13", "VertexElementUsage", &at],
    );
    // A declaration the engine refuses: an unaligned offset, a stride short of the elements.
    let at = format!("at byte {declaration_at}");
    says(
        "declaration",
        "unaligned",
        d,
        &|b| declaration_data(b, 16, &[element(2, 2, 0)]),
        &["refused", "not a multiple of 4", &at],
    );
    says(
        "declaration",
        "short-stride",
        d,
        &|b| declaration_data(b, 8, &[element(0, 2, 0)]),
        &["refused", "does not cover the elements"],
    );

    // Buffers: no vertices, indices that do not fill whole elements.
    let v = &["VertexBufferReader", "VertexDeclarationReader"][..];
    says(
        "vertices",
        "no-vertices",
        v,
        &|b| vertex_buffer_data(b, 24, &position_color_texture(), &[]),
        &["0 vertices", "cannot be created"],
    );
    let i = &["IndexBufferReader"][..];
    let at = format!("at byte {}", data_at(i) + 1);
    says(
        "indices",
        "odd-short",
        i,
        &|b| index_buffer_data(b, true, &[1, 2, 3]),
        &["3 bytes are not a whole number of SixteenBits indices", &at],
    );
    says(
        "indices",
        "odd-long",
        i,
        &|b| index_buffer_data(b, false, &[1, 2, 3, 4, 5, 6]),
        &["6 bytes are not a whole number of ThirtyTwoBits indices", &at],
    );
}

/// A Reach device refuses volumes, cubes of other than power-of-two edges and 32-bit indices
/// (XNA's Reach rules), each a `ContentLoad` error carrying the constructor's reason.
#[test]
fn a_reach_device_refuses_what_its_profile_lacks() {
    let _v = Validation::new();
    let reach = device_with(GraphicsProfile::Reach, params(8, 8));
    let dir = content_dir("resource-reach");
    // Files built for Reach: the header's HiDef flag clear.
    let reach_file = |body: Vec<u8>| {
        let mut file = xnb(&body);
        file[5] = 0;
        file
    };
    let volume = [pattern(32, 1)];
    write(
        &dir,
        "volume",
        &reach_file(asset_body(&["Texture3DReader"], |b| texture3d_data(b, 0, [2, 2, 2], &volume))),
    );
    let faces: [Vec<Vec<u8>>; 6] = std::array::from_fn(|f| vec![face_pattern(9 * 4, f, 0)]);
    write(
        &dir,
        "cube",
        &reach_file(asset_body(&["TextureCubeReader"], |b| texture_cube_data(b, 0, 3, &faces))),
    );
    let long: Vec<u8> = [1u32, 2, 3].iter().flat_map(|i| i.to_le_bytes()).collect();
    write(
        &dir,
        "long",
        &reach_file(asset_body(&["IndexBufferReader"], |b| index_buffer_data(b, false, &long))),
    );
    let short: Vec<u8> = [1u16, 2, 3].iter().flat_map(|i| i.to_le_bytes()).collect();
    write(
        &dir,
        "short",
        &reach_file(asset_body(&["IndexBufferReader"], |b| index_buffer_data(b, true, &short))),
    );
    let content = ContentManager::new(&reach, &dir);
    let message = refusal::<Texture3D>(&content, "volume");
    assert!(message.contains("Reach profile does not support Texture3D"), "{message}");
    let message = refusal::<TextureCube>(&content, "cube");
    assert!(message.contains("powers of two"), "{message}");
    let message = refusal::<IndexBuffer>(&content, "long");
    assert!(message.contains("32-bit indices need the HiDef profile"), "{message}");
    assert_eq!(content.load::<IndexBuffer>("short").unwrap().index_count(), 3);
}
