//! `Texture3DReader` and `TextureCubeReader`: volumes and cubes loaded through
//! `ContentManager`, every level and face read back at off-centre places, and every
//! `SurfaceFormat` number loaded where the engine's texture kind holds it and refused, with the
//! kind's reason, where it does not.

use super::*;
use xnagraph::{CubeMapFace, Texture3D, TextureCube};

/// The bytes of the box `lo..hi` (x, y, z) of a level of `size` texels of `texel` bytes,
/// stored slice after slice, row after row.
fn box_bytes(
    level: &[u8],
    size: [usize; 3],
    texel: usize,
    lo: [usize; 3],
    hi: [usize; 3],
) -> Vec<u8> {
    let mut out = Vec::new();
    for z in lo[2]..hi[2] {
        for y in lo[1]..hi[1] {
            let row = (z * size[1] + y) * size[0];
            out.extend_from_slice(&level[(row + lo[0]) * texel..(row + hi[0]) * texel]);
        }
    }
    out
}

fn volume_box(t: &Texture3D, level: i32, lo: [i32; 3], hi: [i32; 3], n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n];
    t.get_data_box(level, lo[0], lo[1], hi[0], hi[1], lo[2], hi[2], &mut out, 0, n).unwrap();
    out
}

fn cube_region(
    t: &TextureCube,
    face: CubeMapFace,
    level: i32,
    rect: Option<Rectangle>,
    n: usize,
) -> Vec<u8> {
    let mut out = vec![0u8; n];
    t.get_data_region(face, level, rect, &mut out, 0, n).unwrap();
    out
}

/// Distinct bytes for level `level` of face `face` of a cube.
pub fn face_pattern(n: usize, face: usize, level: usize) -> Vec<u8> {
    pattern(n, (face * 16 + level * 3 + 1) as u8)
}

#[test]
fn a_volume_reads_back_every_level_and_off_centre_boxes() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("volume");
    // Color 4x2x3 with its full chain: 4x2x3, 2x1x1, 1x1x1.
    let levels = [pattern(4 * 2 * 3 * 4, 11), pattern(2 * 4, 12), pattern(4, 13)];
    let body = asset_body(&["Texture3DReader"], |b| texture3d_data(b, 0, [4, 2, 3], &levels));
    write(&dir, "volume", &xnb(&body));
    // 4x4x4 with two of its three levels: the third is in the chain, never written.
    let partial = [pattern(4 * 4 * 4 * 4, 21), pattern(2 * 2 * 2 * 4, 22)];
    let body = asset_body(&["Texture3DReader"], |b| texture3d_data(b, 0, [4, 4, 4], &partial));
    write(&dir, "partial", &xnb(&body));
    let content = ContentManager::new(&device, &dir);

    let t = content.load::<Texture3D>("volume").unwrap();
    assert_eq!(
        (t.format(), t.width(), t.height(), t.depth(), t.level_count()),
        (SurfaceFormat::Color, 4, 2, 3, 3)
    );
    for (i, (bytes, size)) in levels.iter().zip([[4, 2, 3], [2, 1, 1], [1, 1, 1]]).enumerate() {
        let got = volume_box(&t, i as i32, [0, 0, 0], size, bytes.len());
        assert_eq!(&got, bytes, "level {i}");
    }
    // Level 0's box x 1..3, y 1..2, z 1..3: neither at the origin nor the whole level.
    let want = box_bytes(&levels[0], [4, 2, 3], 4, [1, 1, 1], [3, 2, 3]);
    assert_eq!(volume_box(&t, 0, [1, 1, 1], [3, 2, 3], want.len()), want);

    let p = content.load::<Texture3D>("partial").unwrap();
    assert_eq!((p.depth(), p.level_count()), (4, 3), "more than one level: the full chain");
    assert_eq!(volume_box(&p, 1, [0, 0, 0], [2, 2, 2], 32), partial[1]);
    let want = box_bytes(&partial[0], [4, 4, 4], 4, [2, 1, 3], [4, 3, 4]);
    assert_eq!(volume_box(&p, 0, [2, 1, 3], [4, 3, 4], want.len()), want);
    assert_eq!(volume_box(&p, 2, [0, 0, 0], [1, 1, 1], 4), [0; 4], "a level the file lacks");
}

#[test]
fn a_cube_reads_back_every_face_and_level_in_xna_order() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("cube");
    // Color, edge 4, three levels (4, 2, 1), each face's each level distinct.
    let faces: [Vec<Vec<u8>>; 6] = std::array::from_fn(|f| {
        (0..3).map(|l| face_pattern(((4 >> l) * (4 >> l) * 4) as usize, f, l)).collect()
    });
    let body = asset_body(&["TextureCubeReader"], |b| texture_cube_data(b, 0, 4, &faces));
    write(&dir, "cube", &xnb(&body));
    let content = ContentManager::new(&device, &dir);
    let t = content.load::<TextureCube>("cube").unwrap();
    assert_eq!((t.format(), t.size(), t.level_count()), (SurfaceFormat::Color, 4, 3));
    for (f, face) in CubeMapFace::ALL.into_iter().enumerate() {
        for (l, bytes) in faces[f].iter().enumerate() {
            let got = cube_region(&t, face, l as i32, None, bytes.len());
            assert_eq!(&got, bytes, "face {face:?} level {l}");
        }
        // Level 0's texels (1, 2) and (2, 2); level 1's texel (1, 0).
        let want = box_bytes(&faces[f][0], [4, 4, 1], 4, [1, 2, 0], [3, 3, 1]);
        let got = cube_region(&t, face, 0, Some(Rectangle::new(1, 2, 2, 1)), 8);
        assert_eq!(got, want, "face {face:?}, level 0's off-centre texels");
        let want = box_bytes(&faces[f][1], [2, 2, 1], 4, [1, 0, 0], [2, 1, 1]);
        let got = cube_region(&t, face, 1, Some(Rectangle::new(1, 0, 1, 1)), 4);
        assert_eq!(got, want, "face {face:?}, level 1's off-centre texel");
    }
}

/// The level sizes of the format-sweep files: a 4x4x2 volume and an edge-8 cube, two levels
/// each (DXT levels are whole 4x4 blocks, a 2x2 level one block).
fn sweep_levels(format: SurfaceFormat) -> ([Vec<u8>; 2], [Vec<Vec<u8>>; 6]) {
    let volume = [pattern(format.region_size(4, 4) * 2, 31), pattern(format.region_size(2, 2), 32)];
    let cube = std::array::from_fn(|f| {
        (0..2).map(|l| face_pattern(format.region_size(8 >> l, 8 >> l), f, l)).collect()
    });
    (volume, cube)
}

/// Every SurfaceFormat number, as a volume and as a cube: where the engine's constructor makes
/// that texture the asset loads with every level's bytes, and where it refuses, the load is a
/// `ContentLoad` error naming the asset, the format, the kind and the constructor's reason.
#[test]
fn every_surface_format_loads_where_its_texture_kind_holds_it() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("formats");
    let content = ContentManager::new(&device, &dir);
    let (mut volumes, mut cubes) = (0, 0);
    for (n, format) in SurfaceFormat::ALL.into_iter().enumerate() {
        let (volume, cube) = sweep_levels(format);
        let name = format!("volume-{n}");
        let body =
            asset_body(&["Texture3DReader"], |b| texture3d_data(b, n as i32, [4, 4, 2], &volume));
        write(&dir, &name, &xnb(&body));
        match Texture3D::new(&device, 4, 4, 2, true, format) {
            Ok(_) => {
                let t = content.load::<Texture3D>(&name).unwrap();
                assert_eq!((t.format(), t.level_count()), (format, 3), "{format:?}");
                assert_eq!(volume_box(&t, 0, [0; 3], [4, 4, 2], volume[0].len()), volume[0]);
                assert_eq!(volume_box(&t, 1, [0; 3], [2, 2, 1], volume[1].len()), volume[1]);
                volumes += 1;
            }
            Err(e) => {
                let message = refusal::<Texture3D>(&content, &name);
                for want in
                    [format!("{format:?} Texture3D"), e.message(), "cannot be created".into()]
                {
                    assert!(message.contains(&want), "{format:?}: '{message}' lacks '{want}'");
                }
            }
        }
        let name = format!("cube-{n}");
        let body = asset_body(&["TextureCubeReader"], |b| texture_cube_data(b, n as i32, 8, &cube));
        write(&dir, &name, &xnb(&body));
        match TextureCube::new(&device, 8, true, format) {
            Ok(_) => {
                let t = content.load::<TextureCube>(&name).unwrap();
                assert_eq!((t.format(), t.level_count()), (format, 4), "{format:?}");
                for (f, face) in CubeMapFace::ALL.into_iter().enumerate() {
                    for (l, bytes) in cube[f].iter().enumerate() {
                        let got = cube_region(&t, face, l as i32, None, bytes.len());
                        assert_eq!(&got, bytes, "{format:?} face {face:?} level {l}");
                    }
                }
                cubes += 1;
            }
            Err(e) => {
                let message = refusal::<TextureCube>(&content, &name);
                for want in
                    [format!("{format:?} TextureCube"), e.message(), "cannot be created".into()]
                {
                    assert!(message.contains(&want), "{format:?}: '{message}' lacks '{want}'");
                }
            }
        }
    }
    eprintln!("formats loaded: {volumes} as volumes, {cubes} as cubes");
    // XNA's rules the sweep must have met on any HiDef device: Color volumes and cubes exist,
    // DXT volumes never do.
    assert!(volumes >= 1 && cubes >= 1);
    let dxt = format!("volume-{}", SurfaceFormat::Dxt1 as i32);
    let message = refusal::<Texture3D>(&content, &dxt);
    assert!(message.contains("does not support Texture3D of format Dxt1"), "{message}");
    if device.format_support(SurfaceFormat::Dxt5).sampled {
        let name = format!("cube-{}", SurfaceFormat::Dxt5 as i32);
        assert_eq!(content.load::<TextureCube>(&name).unwrap().format(), SurfaceFormat::Dxt5);
    } else {
        skipped("every_surface_format_loads_where_its_texture_kind_holds_it", "no DXT here");
    }
}
