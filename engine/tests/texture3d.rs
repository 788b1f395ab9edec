//! `Texture3D`: the box data contract, read back through `GetData`.
//!
//! Every test that writes several parts of a volume makes all its writes before the first read
//! (one frame), then reads each part back: a write that replaced the level, or a texture whose
//! storage were swapped for each upload, would lose the parts written first. Regions are off
//! centre and every voxel written has its own colour, so a misplaced box cannot pass either.

mod common;

use common::*;
use xnagraph::{Color, GraphicsProfile, SurfaceFormat, Texture2D, Texture3D, XnaError};

/// The zero a new volume reads back as.
const ZERO: Color = Color::TRANSPARENT;

/// A colour unique to voxel (x, y, z) of the part `tag` names.
fn voxel(tag: u8, x: i32, y: i32, z: i32) -> Color {
    Color::new(tag, 10 + 20 * x as u8, 10 + 20 * y as u8, 100 + 30 * z as u8)
}

/// The voxels of the box `x0..x1 × y0..y1 × z0..z1`, slice after slice, row after row.
fn pattern(tag: u8, [x0, y0, x1, y1, z0, z1]: [i32; 6]) -> Vec<Color> {
    let mut out = Vec::new();
    for z in z0..z1 {
        for y in y0..y1 {
            for x in x0..x1 {
                out.push(voxel(tag, x, y, z));
            }
        }
    }
    out
}

fn count([x0, y0, x1, y1, z0, z1]: [i32; 6]) -> usize {
    ((x1 - x0) * (y1 - y0) * (z1 - z0)) as usize
}

fn write(volume: &Texture3D, level: i32, b: [i32; 6], data: &[Color]) {
    let [l, t, r, bo, f, k] = b;
    volume.set_data_box(level, l, t, r, bo, f, k, data, 0, data.len()).expect("set_data_box");
}

fn read(volume: &Texture3D, level: i32, b: [i32; 6]) -> Vec<Color> {
    let [l, t, r, bo, f, k] = b;
    let mut out = vec![Color::WHITE; count(b)];
    volume.get_data_box(level, l, t, r, bo, f, k, &mut out, 0, count(b)).expect("get_data_box");
    out
}

/// The size of `level` of a `w × h × d` volume.
fn level_box(level: i32, (w, h, d): (i32, i32, i32)) -> [i32; 6] {
    let edge = |e: i32| (e >> level).max(1);
    [0, 0, edge(w), edge(h), 0, edge(d)]
}

/// The seeds' regression: two slices of an off-centre 2×2 box, red then green, written by two
/// calls; each reads back its own colour and the voxels around the box stay zero.
#[test]
fn two_slices_of_an_off_centre_box_written_separately_both_survive() {
    let _v = Validation::new();
    let device = device(4, 4);
    let volume = Texture3D::new(&device, 4, 4, 2, false, SurfaceFormat::Color).unwrap();
    let (red, green) = ([1, 1, 3, 3, 0, 1], [1, 1, 3, 3, 1, 2]);
    write(&volume, 0, red, &[Color::RED; 4]);
    write(&volume, 0, green, &[Color::LIME; 4]);
    assert_eq!(read(&volume, 0, red), [Color::RED; 4], "the first slice written survives");
    assert_eq!(read(&volume, 0, green), [Color::LIME; 4]);
    let mut whole = vec![Color::WHITE; 32];
    volume.get_data(&mut whole).unwrap();
    for (i, got) in whole.into_iter().enumerate() {
        let (x, y, z) = (i % 4, i / 4 % 4, i / 16);
        let inside = (1..3).contains(&x) && (1..3).contains(&y);
        let want = match (inside, z) {
            (false, _) => ZERO,
            (true, 0) => Color::RED,
            (true, _) => Color::LIME,
        };
        assert_eq!(got, want, "voxel ({x}, {y}, {z})");
    }
}

/// A one-level 4×4×4 volume filled plane by plane, back to front: every plane keeps its own
/// voxels, read whole and plane by plane.
#[test]
fn four_depth_planes_written_one_by_one_are_distinguishable() {
    let _v = Validation::new();
    let device = device(4, 4);
    let volume = Texture3D::new(&device, 4, 4, 4, false, SurfaceFormat::Color).unwrap();
    assert_eq!((volume.width(), volume.height(), volume.depth()), (4, 4, 4));
    assert_eq!((volume.level_count(), volume.format()), (1, SurfaceFormat::Color));
    let plane = |z: i32| [0, 0, 4, 4, z, z + 1];
    for z in (0..4).rev() {
        write(&volume, 0, plane(z), &pattern(7, plane(z)));
    }
    let mut whole = vec![Color::WHITE; 64];
    volume.get_data(&mut whole).unwrap();
    assert_eq!(whole, pattern(7, [0, 0, 4, 4, 0, 4]));
    for z in 0..4 {
        assert_eq!(read(&volume, 0, plane(z)), pattern(7, plane(z)), "plane {z}");
    }
}

/// A 4×4×4 chain (4, 2, 1) filled level by level in `order` (level 0 in two halves of its
/// slices), with a second, partial write to level 1; every level reads back what was written
/// to it.
fn fill_chain_in_order(order: [i32; 3]) {
    let _v = Validation::new();
    let device = device(4, 4);
    let volume = Texture3D::new(&device, 4, 4, 4, true, SurfaceFormat::Color).unwrap();
    assert_eq!(volume.level_count(), 3);
    let size = (4, 4, 4);
    for level in order {
        let b = level_box(level, size);
        let data = pattern(50 * level as u8 + 1, b);
        if level == 0 {
            // Level 0 in two calls, each a box over the whole rectangle: the back half
            // first, then the front.
            let half = data.len() / 2;
            write(&volume, 0, [0, 0, 4, 4, 2, 4], &data[half..]);
            write(&volume, 0, [0, 0, 4, 4, 0, 2], &data[..half]);
        } else {
            write(&volume, level, b, &data);
        }
    }
    let corner = [1, 1, 2, 2, 1, 2];
    write(&volume, 1, corner, &[Color::YELLOW]);
    for level in 0..3 {
        let b = level_box(level, size);
        let mut want = pattern(50 * level as u8 + 1, b);
        if level == 1 {
            want[7] = Color::YELLOW; // voxel (1, 1, 1) of a 2×2×2 level
        }
        assert_eq!(read(&volume, level, b), want, "level {level}, order {order:?}");
    }
    assert_eq!(read(&volume, 1, corner), [Color::YELLOW]);
}

#[test]
fn a_three_level_chain_written_in_forward_order_keeps_every_level() {
    fill_chain_in_order([0, 1, 2]);
}

#[test]
fn a_three_level_chain_written_in_reverse_order_keeps_every_level() {
    fill_chain_in_order([2, 1, 0]);
}

/// Writes alternate between two volumes, A, B, A: each keeps its own slices, and a slice of B
/// that was never written stays zero.
#[test]
fn two_volumes_written_alternately_keep_their_own_data() {
    let _v = Validation::new();
    let device = device(4, 4);
    let a = Texture3D::new(&device, 4, 3, 2, false, SurfaceFormat::Color).unwrap();
    let b = Texture3D::new(&device, 4, 3, 2, false, SurfaceFormat::Color).unwrap();
    let (front, back) = ([0, 0, 4, 3, 0, 1], [0, 0, 4, 3, 1, 2]);
    write(&a, 0, front, &pattern(1, front));
    write(&b, 0, front, &pattern(2, front));
    write(&a, 0, back, &pattern(3, back));
    assert_eq!(read(&a, 0, front), pattern(1, front));
    assert_eq!(read(&a, 0, back), pattern(3, back));
    assert_eq!(read(&b, 0, front), pattern(2, front));
    assert_eq!(read(&b, 0, back), vec![ZERO; 12]);
}

/// A 7×5×3 chain has levels 7×5×3, 3×2×1 and 1×1×1; each takes its own box and a partial box
/// of level 1 keeps the voxel beside it.
#[test]
fn a_non_power_of_two_chain_halves_each_edge_down_to_one() {
    let _v = Validation::new();
    let device = device(4, 4);
    let volume = Texture3D::new(&device, 7, 5, 3, true, SurfaceFormat::Color).unwrap();
    assert_eq!(volume.level_count(), 3);
    let size = (7, 5, 3);
    assert_eq!(level_box(1, size), [0, 0, 3, 2, 0, 1]);
    assert_eq!(level_box(2, size), [0, 0, 1, 1, 0, 1]);
    for level in 0..3 {
        let b = level_box(level, size);
        write(&volume, level, b, &pattern(60 * level as u8 + 5, b));
    }
    let inner = [1, 0, 3, 2, 0, 1];
    write(&volume, 1, inner, &pattern(200, inner));
    for level in [0, 2] {
        let b = level_box(level, size);
        assert_eq!(read(&volume, level, b), pattern(60 * level as u8 + 5, b), "level {level}");
    }
    let level_1 = read(&volume, 1, level_box(1, size));
    let keep = |x: i32, y: i32| voxel(65, x, y, 0);
    let new = |x: i32, y: i32| voxel(200, x, y, 0);
    assert_eq!(level_1, [keep(0, 0), new(1, 0), new(2, 0), keep(0, 1), new(1, 1), new(2, 1)]);
}

/// A volume dropped after a transfer of a nonzero level (and with another upload still
/// queued) is freed once the GPU is done with it; the device's teardown leaves nothing.
#[test]
fn a_volume_dropped_after_a_nonzero_level_transfer_is_freed() {
    let _v = Validation::new();
    let device = device(4, 4);
    let baseline = device.live_native_objects().unwrap().textures;
    let volume = Texture3D::new(&device, 8, 4, 4, true, SurfaceFormat::Color).unwrap();
    let level_1 = level_box(1, (8, 4, 4));
    write(&volume, 1, level_1, &pattern(9, level_1));
    assert_eq!(read(&volume, 1, level_1), pattern(9, level_1));
    write(&volume, 2, [0, 0, 2, 1, 0, 1], &[Color::BLUE; 2]);
    drop(volume);
    device.flush().unwrap();
    device.wait_idle().unwrap();
    let live = device.live_native_objects().unwrap();
    assert_eq!(live.textures, baseline, "{live:?}");
    assert_eq!(live.awaiting_retirement, 0, "{live:?}");
    let diagnostics = device.diagnostics();
    drop(device);
    assert_eq!(diagnostics.live_native_objects(), 0, "device teardown frees everything");
}

fn is_not_supported(r: xnagraph::Result<Texture3D>, text: &str) {
    match r {
        Err(XnaError::NotSupported { message }) => assert!(message.contains(text), "{message}"),
        other => panic!("expected NotSupported ({text}), got {other:?}"),
    }
}

#[test]
fn reach_has_no_volume_textures() {
    let _v = Validation::new();
    let device = device_with(GraphicsProfile::Reach, params(4, 4));
    let r = Texture3D::new(&device, 2, 2, 2, false, SurfaceFormat::Color);
    is_not_supported(r, "XNA Framework Reach profile does not support Texture3D.");
}

#[test]
fn hidef_volumes_are_at_most_256_texels_per_edge_and_never_block_compressed() {
    if skip_on_sdlgpu(
        "hidef_volumes_are_at_most_256_texels_per_edge_and_never_block_compressed",
        "formats whose sampling needs a swizzle are refused on SDL_gpu",
    ) {
        return;
    }
    let _v = Validation::new();
    let device = device(4, 4);
    assert!(device.capabilities().max_volume_dimension >= 256, "the adapter reports volumes");
    let new = |w, h, d, f| Texture3D::new(&device, w, h, d, false, f);
    is_not_supported(new(4, 4, 257, SurfaceFormat::Color), "maximum Texture3D size of 256");
    is_not_supported(new(257, 1, 1, SurfaceFormat::Color), "maximum Texture3D size of 256");
    for f in [SurfaceFormat::Dxt1, SurfaceFormat::Dxt3, SurfaceFormat::Dxt5] {
        is_not_supported(new(4, 4, 4, f), "does not support Texture3D of format");
    }
    assert!(new(256, 1, 2, SurfaceFormat::Color).is_ok());
    // The seeds' construction check: an 8×8×2 chain has four levels (8×8×2 down to 1×1×1),
    // made without a validation message.
    let chain = Texture3D::new(&device, 8, 8, 2, true, SurfaceFormat::Color).unwrap();
    assert_eq!(chain.level_count(), 4);
    assert!(new(5, 3, 7, SurfaceFormat::Single).is_ok(), "non-power-of-two, any other format");
    for (w, h, d, param) in [(0, 1, 1, "width"), (1, -1, 1, "height"), (1, 1, 0, "depth")] {
        match new(w, h, d, SurfaceFormat::Color) {
            Err(XnaError::ArgumentOutOfRange { param: p, .. }) => assert_eq!(p, param),
            other => panic!("{w}x{h}x{d}: {other:?}"),
        }
    }
}

#[track_caller]
fn refused_with(r: xnagraph::Result<()>, variant: &str, param: &str) {
    let got = match &r {
        Err(XnaError::Argument { param, .. }) => ("Argument", *param),
        Err(XnaError::ArgumentOutOfRange { param, .. }) => ("ArgumentOutOfRange", *param),
        other => panic!("expected {variant}({param}), got {other:?}"),
    };
    assert_eq!(got, (variant, param), "{r:?}");
}

/// Bad levels, boxes and data are refused with the error XNA names, and a refused call writes
/// nothing.
#[test]
fn bad_boxes_and_data_are_refused_with_xnas_errors() {
    let _v = Validation::new();
    let device = device(4, 4);
    let volume = Texture3D::new(&device, 4, 4, 2, true, SurfaceFormat::Color).unwrap();
    let red = [Color::RED; 64];
    let set = |level, b: [i32; 6], n: usize| {
        let [l, t, r, bo, f, k] = b;
        volume.set_data_box(level, l, t, r, bo, f, k, &red, 0, n)
    };
    refused_with(set(3, [0, 0, 1, 1, 0, 1], 1), "ArgumentOutOfRange", "level");
    refused_with(set(-1, [0, 0, 1, 1, 0, 1], 1), "ArgumentOutOfRange", "level");
    refused_with(set(0, [-1, 0, 1, 1, 0, 1], 2), "Argument", "left");
    refused_with(set(0, [0, 0, 5, 1, 0, 1], 5), "Argument", "right");
    refused_with(set(0, [2, 0, 2, 1, 0, 1], 0), "Argument", "right");
    refused_with(set(0, [0, 3, 1, 1, 0, 1], 1), "Argument", "bottom");
    refused_with(set(0, [0, 0, 1, 1, 1, 1], 0), "Argument", "back");
    refused_with(set(0, [0, 0, 1, 1, 0, 3], 3), "Argument", "back");
    refused_with(set(1, [0, 0, 2, 2, 0, 2], 8), "Argument", "back"); // level 1 is 2×2×1
    refused_with(set(0, [0, 0, 2, 2, 0, 2], 7), "Argument", "elementCount");
    let short = [Color::RED; 3];
    let r = volume.set_data_box(0, 0, 0, 2, 2, 0, 1, &short, 0, 4);
    refused_with(r, "Argument", "data");
    let wide = [0u64; 4];
    refused_with(volume.set_data_box(0, 0, 0, 2, 1, 0, 1, &wide, 0, 1), "Argument", "T");
    let mut out = [Color::WHITE; 2];
    let r = volume.get_data_box(0, 0, 0, 2, 2, 0, 1, &mut out, 0, 4);
    refused_with(r, "Argument", "data");
    let r = volume.get_data_box(0, 0, 0, 2, 2, 0, 1, &mut out, 0, 2);
    refused_with(r, "Argument", "elementCount");
    let r = volume.get_data_box(3, 0, 0, 1, 1, 0, 1, &mut out, 0, 1);
    refused_with(r, "ArgumentOutOfRange", "level");
    // Halves of a Color are a size that divides it: 2 u16 per voxel.
    let halves = [0xFFFFu16; 2];
    volume.set_data_box(0, 3, 3, 4, 4, 1, 2, &halves, 0, 2).unwrap();
    let mut whole = vec![Color::WHITE; 32];
    volume.get_data(&mut whole).unwrap();
    let mut want = vec![ZERO; 32];
    want[31] = Color::WHITE;
    assert_eq!(whole, want, "only the accepted write reached the volume");
}

#[test]
fn a_disposed_volume_refuses_its_data_calls() {
    let _v = Validation::new();
    let device = device(4, 4);
    let volume = Texture3D::new(&device, 2, 2, 2, false, SurfaceFormat::Color).unwrap();
    volume.dispose();
    assert!(volume.is_disposed());
    let r = volume.set_data(&[Color::RED; 8]);
    assert_eq!(r, Err(XnaError::ObjectDisposed { object: "Texture3D" }));
    let mut out = [Color::RED; 8];
    assert_eq!(volume.get_data(&mut out), Err(XnaError::ObjectDisposed { object: "Texture3D" }));
}

/// A volume is a tracked resource like a `Texture2D`: registered with `ResourceCreated`,
/// `Disposing` on an explicit dispose only, `ResourceDestroyed` either way, and disposed with
/// its device.
#[test]
fn a_volume_is_a_tracked_resource() {
    use std::sync::{Arc, Mutex};
    let _v = Validation::new();
    let device = device(4, 4);
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let l = log.clone();
    let events = device.events();
    events.resource_created.subscribe(move |a| l.lock().unwrap().push(format!("+{}", a.kind)));
    let l = log.clone();
    events.resource_destroyed.subscribe(move |a| l.lock().unwrap().push(format!("-{}", a.kind)));
    let before = device.tracked_resource_count();
    let (a, b, c) = (
        Texture3D::new(&device, 2, 2, 2, false, SurfaceFormat::Color).unwrap(),
        Texture3D::new(&device, 2, 2, 2, false, SurfaceFormat::Color).unwrap(),
        Texture3D::new(&device, 2, 2, 2, false, SurfaceFormat::Color).unwrap(),
    );
    assert_eq!(device.tracked_resource_count(), before + 3);
    let l = log.clone();
    a.disposing().subscribe(move |_| l.lock().unwrap().push("a disposing".into()));
    let l = log.clone();
    b.disposing().subscribe(move |_| l.lock().unwrap().push("b disposing".into()));
    a.dispose();
    drop(b);
    assert_eq!(device.tracked_resource_count(), before + 1);
    device.dispose();
    assert!(c.is_disposed(), "the device disposes what it still tracks");
    let got = std::mem::take(&mut *log.lock().unwrap());
    let want = ["+Texture3D", "+Texture3D", "+Texture3D", "a disposing", "-Texture3D"];
    assert_eq!(got[..5], want);
    assert_eq!(got[5], "-Texture3D", "dropped: destroyed without Disposing");
    assert_eq!(got.iter().filter(|e| *e == "-Texture3D").count(), 3, "{got:?}");
}

/// Every voxel of `level`'s box `b` in a colour of its own (levels differ in every channel).
fn level_voxels(level: i32, [x0, y0, x1, y1, z0, z1]: [i32; 6]) -> Vec<Color> {
    let mut out = Vec::new();
    for z in z0..z1 {
        for y in y0..y1 {
            for x in x0..x1 {
                let (l, x, y, z) = (level as u8, x as u8, y as u8, z as u8);
                out.push(Color::new(1 + 50 * l + x, 2 + 13 * y + l, 3 + 14 * z + l, 200 + l));
            }
        }
    }
    out
}

/// SDL_gpu's Vulkan driver moves textures between memory blocks (its defragmenter) once a block
/// has fragmented; SDL 3.4 copied every level of a volume with the base level's depth, past the
/// end of each smaller level. A mipmapped volume with its own data in every level lives through
/// many flushes of textures created and disposed around it, which fragments its block and makes
/// the defragmenter move it (without the fix the validation layer reports the copy, which is how
/// this test knows the move happens); every level then reads back exactly.
#[test]
fn mipmapped_volume_keeps_every_level_when_its_memory_is_defragmented() {
    let _v = Validation::new();
    let device = device(4, 4);
    let size = (16, 16, 16);
    let volume =
        Texture3D::new(&device, size.0, size.1, size.2, true, SurfaceFormat::Color).unwrap();
    let levels = volume.level_count();
    assert_eq!(levels, 5);
    for level in 0..levels {
        let b = level_box(level, size);
        write(&volume, level, b, &level_voxels(level, b));
    }
    device.flush().unwrap();
    // SDL sub-allocates resources up to 2 MiB from shared 16 MiB blocks. Each round fills the
    // volume's block and the next ones with textures a little larger than the last round's, then
    // disposes every other one: the holes left are too small for the next round's textures, so
    // SDL keeps opening blocks and marks the fragmented ones (the volume's among them) for moving.
    let mut kept = Vec::new();
    for round in 0..5 {
        let height = 512 + 128 * round;
        let fill = vec![Color::new(7, 7, 7, 7); 512 * height];
        let made: Vec<Texture2D> = (0..20)
            .map(|_| {
                let t = Texture2D::new(&device, 512, height as i32).unwrap();
                t.set_data(&fill).unwrap();
                t
            })
            .collect();
        for (i, t) in made.into_iter().enumerate() {
            if i % 2 == 0 {
                t.dispose();
            } else {
                kept.push(t);
            }
        }
        device.flush().unwrap();
    }
    // SDL moves one marked block per submission, the volume's (the first opened) last.
    let small = Texture2D::new(&device, 4, 4).unwrap();
    for _ in 0..32 {
        small.set_data(&[Color::new(9, 9, 9, 9); 16]).unwrap();
        device.flush().unwrap();
    }
    for level in 0..levels {
        let b = level_box(level, size);
        assert_eq!(read(&volume, level, b), level_voxels(level, b), "level {level}");
    }
}
