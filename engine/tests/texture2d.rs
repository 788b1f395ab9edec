//! Texture2D: construction validation, the data paths and their errors, copies and the shadow.

mod common;

use common::*;
use xnagraph::{
    Color, GraphicsProfile, Rectangle, SpriteBatch, SurfaceFormat, Texture2D, XnaError,
};

#[test]
fn construction_validates_size_profile_format_and_shape() {
    let _v = Validation::new();
    let reach = device_with(GraphicsProfile::Reach, params(8, 8));
    assert!(matches!(
        Texture2D::new(&reach, 0, 4),
        Err(XnaError::ArgumentOutOfRange { param: "width", .. })
    ));
    assert!(matches!(
        Texture2D::new(&reach, 4, 0),
        Err(XnaError::ArgumentOutOfRange { param: "height", .. })
    ));
    assert!(matches!(Texture2D::new(&reach, 2049, 4), Err(XnaError::NotSupported { .. })));
    assert!(Texture2D::new(&reach, 2048, 4).is_ok());
    assert!(matches!(
        Texture2D::with_format(&reach, 4, 4, false, SurfaceFormat::HdrBlendable),
        Err(XnaError::NotSupported { .. })
    ));
    assert!(matches!(
        Texture2D::with_format(&reach, 6, 4, true, SurfaceFormat::Color),
        Err(XnaError::NotSupported { .. })
    ));
    drop(reach);
    let hidef = device(8, 8);
    assert!(Texture2D::new(&hidef, 4096, 4).is_ok());
    assert!(matches!(Texture2D::new(&hidef, 4097, 4), Err(XnaError::NotSupported { .. })));
    let npot = Texture2D::with_format(&hidef, 6, 5, true, SurfaceFormat::Color).unwrap();
    assert_eq!(npot.level_count(), 3);
    assert!(matches!(
        Texture2D::with_format(&hidef, 6, 8, false, SurfaceFormat::Dxt1),
        Err(XnaError::NotSupported { .. })
    ));
}

#[test]
fn new_texture_reads_back_as_zero() {
    let _v = Validation::new();
    let device = device(8, 8);
    let t = Texture2D::new(&device, 3, 2).unwrap();
    let mut out = vec![Color::WHITE; 6];
    t.get_data(&mut out).unwrap();
    assert!(out.iter().all(|&p| p == Color::TRANSPARENT));
}

#[test]
fn set_data_and_get_data_round_trip_whole_level_rect_and_levels() {
    let _v = Validation::new();
    let device = device(8, 8);
    let t = Texture2D::with_format(&device, 4, 4, true, SurfaceFormat::Color).unwrap();
    let pixels: Vec<Color> = (0..16).map(|i| Color::new(i * 10, 255 - i * 10, i, 255)).collect();
    t.set_data(&pixels).unwrap();
    // An off-centre rectangle, written separately in its own colour.
    t.set_data_region(0, Some(Rectangle::new(2, 1, 2, 2)), &[Color::MAGENTA; 4], 0, 4).unwrap();
    // Level 1 (2×2) and level 2 (1×1) get their own colours.
    t.set_data_region(1, None, &[Color::CYAN; 4], 0, 4).unwrap();
    t.set_data_region(2, None, &[Color::YELLOW], 0, 1).unwrap();
    let mut out = vec![Color::TRANSPARENT; 16];
    t.get_data(&mut out).unwrap();
    for y in 0..4 {
        for x in 0..4 {
            let want = if (2..4).contains(&x) && (1..3).contains(&y) {
                Color::MAGENTA
            } else {
                pixels[(y * 4 + x) as usize]
            };
            assert_eq!(out[(y * 4 + x) as usize], want, "texel ({x},{y})");
        }
    }
    let mut l1 = vec![Color::TRANSPARENT; 4];
    t.get_data_region(1, None, &mut l1, 0, 4).unwrap();
    assert!(l1.iter().all(|&p| p == Color::CYAN));
    let mut l2 = [Color::TRANSPARENT; 3];
    t.get_data_region(2, None, &mut l2, 1, 1).unwrap();
    assert_eq!(l2, [Color::TRANSPARENT, Color::YELLOW, Color::TRANSPARENT], "start index honoured");
    let mut sub = vec![Color::TRANSPARENT; 2];
    t.get_data_region(0, Some(Rectangle::new(1, 3, 2, 1)), &mut sub, 0, 2).unwrap();
    assert_eq!(sub, vec![pixels[13], pixels[14]]);
}

#[test]
fn start_index_and_element_count_select_the_source_elements() {
    let _v = Validation::new();
    let device = device(8, 8);
    let t = Texture2D::new(&device, 2, 1).unwrap();
    let data = [Color::RED, Color::GREEN, Color::BLUE, Color::WHITE];
    t.set_data_range(&data, 1, 2).unwrap();
    let mut out = [Color::TRANSPARENT; 2];
    t.get_data(&mut out).unwrap();
    assert_eq!(out, [Color::GREEN, Color::BLUE]);
}

#[test]
fn data_errors_are_xnas() {
    let _v = Validation::new();
    let device = device(8, 8);
    let t = Texture2D::with_format(&device, 4, 4, true, SurfaceFormat::Color).unwrap();
    let short = vec![Color::RED; 15];
    let err = t.set_data(&short).unwrap_err();
    assert!(matches!(err, XnaError::Argument { param: "elementCount", .. }), "{err}");
    let err = t.set_data_range(&short, 10, 16).unwrap_err();
    assert!(matches!(err, XnaError::Argument { param: "data", .. }), "{err}");
    let err =
        t.set_data_region(0, Some(Rectangle::new(3, 3, 2, 2)), &[Color::RED; 4], 0, 4).unwrap_err();
    assert!(matches!(err, XnaError::Argument { param: "rect", .. }), "{err}");
    let err = t
        .set_data_region(0, Some(Rectangle::new(-1, 0, 2, 2)), &[Color::RED; 4], 0, 4)
        .unwrap_err();
    assert!(matches!(err, XnaError::Argument { param: "rect", .. }), "{err}");
    let err = t.set_data_region(3, None, &[Color::RED], 0, 1).unwrap_err();
    assert!(matches!(err, XnaError::ArgumentOutOfRange { param: "level", .. }), "{err}");
    // 8-byte elements do not divide a 4-byte Color texel.
    let err = t.set_data(&[0u64; 8]).unwrap_err();
    assert!(matches!(err, XnaError::Argument { param: "T", .. }), "{err}");
    // 1-byte and 4-byte elements do.
    t.set_data(&[7u8; 64]).unwrap();
    t.set_data(&[0x0102_0304u32; 16]).unwrap();
    let mut bytes = [0u8; 64];
    t.get_data(&mut bytes).unwrap();
    assert_eq!(&bytes[..4], &0x0102_0304u32.to_le_bytes());
    let mut too_small = [0u8; 63];
    assert!(t.get_data(&mut too_small).is_err());
}

#[test]
fn block_compressed_sizes_count_blocks() {
    let _v = Validation::new();
    let device = device(8, 8);
    let t = Texture2D::with_format(&device, 8, 8, false, SurfaceFormat::Dxt1).unwrap();
    // 2×2 blocks of 8 bytes.
    t.set_data(&[0xABu8; 32]).unwrap();
    assert!(t.set_data(&[0u8; 64]).is_err());
    let mut out = [0u8; 32];
    t.get_data(&mut out).unwrap();
    assert!(out.iter().all(|&b| b == 0xAB));
    // A rectangle off the block grid covers the blocks it touches: texels 2..6 of the top
    // block row are both its blocks, 16 bytes; one block's 8 are too few.
    let off_grid = Some(Rectangle::new(2, 0, 4, 4));
    let err = t.set_data_region(0, off_grid, &[0u8; 8], 0, 8).unwrap_err();
    assert!(matches!(err, XnaError::Argument { param: "elementCount", .. }), "{err}");
    t.set_data_region(0, off_grid, &[0x11u8; 16], 0, 16).unwrap();
    t.get_data(&mut out).unwrap();
    assert_eq!(out, [[0x11u8; 16], [0xAB; 16]].concat()[..], "the top block row changed");
}

#[test]
fn a_clone_shares_the_backend_state() {
    let _v = Validation::new();
    let device = device(8, 8);
    let t = solid(&device, 2, 2, Color::RED);
    let copy = t.clone();
    assert!(copy.shares_backing_with(&t));
    t.set_data_region(0, Some(Rectangle::new(0, 0, 1, 1)), &[Color::BLUE], 0, 1).unwrap();
    let mut out = [Color::TRANSPARENT; 4];
    copy.get_data(&mut out).unwrap();
    assert_eq!(out[0], Color::BLUE, "a partial upload is visible through every holder");
}

#[test]
fn full_level_set_data_on_a_shared_texture_detaches_the_writer() {
    let _v = Validation::new();
    let device = device(8, 8);
    let original = solid(&device, 2, 2, Color::RED);
    let copy = original.clone();
    copy.set_data(&[Color::GREEN; 4]).unwrap();
    assert!(!copy.shares_backing_with(&original));
    let mut out = [Color::TRANSPARENT; 4];
    original.get_data(&mut out).unwrap();
    assert_eq!(out, [Color::RED; 4], "other holders keep the old pixels");
    copy.get_data(&mut out).unwrap();
    assert_eq!(out, [Color::GREEN; 4]);
    // Drawing both shows both.
    device.clear(Color::BLACK).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin().unwrap();
    sb.draw_rect(&original, Rectangle::new(0, 0, 4, 8), Color::WHITE).unwrap();
    sb.draw_rect(&copy, Rectangle::new(4, 0, 4, 8), Color::WHITE).unwrap();
    sb.end().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 8, 1, 4), Color::RED);
    assert_eq!(at(&px, 8, 6, 4), Color::GREEN);
}

#[test]
fn detaching_keeps_the_other_levels() {
    let _v = Validation::new();
    let device = device(8, 8);
    let original = Texture2D::with_format(&device, 2, 2, true, SurfaceFormat::Color).unwrap();
    original.set_data_region(1, None, &[Color::YELLOW], 0, 1).unwrap();
    let copy = original.clone();
    copy.set_data(&[Color::GREEN; 4]).unwrap();
    let mut l1 = [Color::TRANSPARENT];
    copy.get_data_region(1, None, &mut l1, 0, 1).unwrap();
    assert_eq!(l1, [Color::YELLOW]);
}

#[test]
fn detaching_without_a_cpu_shadow_reads_the_kept_levels_back_in_one_flush() {
    within(std::time::Duration::from_secs(30), || {
        let _v = Validation::new();
        let device = device(8, 8);
        device.set_context_recovery_enabled(false);
        let original = Texture2D::with_format(&device, 4, 4, true, SurfaceFormat::Color).unwrap();
        assert_eq!(original.level_count(), 3);
        original.set_data(&[Color::RED; 16]).unwrap();
        original.set_data_region(1, None, &[Color::BLUE; 4], 0, 4).unwrap();
        original.set_data_region(2, None, &[Color::YELLOW], 0, 1).unwrap();
        let copy = original.clone();
        device.flush().unwrap();
        let before = device.submission_count();
        // Without a shadow, the levels the copy keeps come from the GPU: one flush for both.
        copy.set_data(&[Color::GREEN; 16]).unwrap();
        assert_eq!(device.submission_count() - before, 1, "one flush, not one per kept level");
        assert!(!copy.shares_backing_with(&original));
        let mut level0 = [Color::TRANSPARENT; 16];
        copy.get_data(&mut level0).unwrap();
        assert_eq!(level0, [Color::GREEN; 16]);
        original.get_data(&mut level0).unwrap();
        assert_eq!(level0, [Color::RED; 16], "the original keeps its level 0");
        let mut level1 = [Color::TRANSPARENT; 4];
        copy.get_data_region(1, None, &mut level1, 0, 4).unwrap();
        assert_eq!(level1, [Color::BLUE; 4]);
        let mut level2 = [Color::TRANSPARENT; 1];
        copy.get_data_region(2, None, &mut level2, 0, 1).unwrap();
        assert_eq!(level2, [Color::YELLOW]);
    });
}

#[test]
fn cpu_shadow_is_kept_by_default_and_dropped_without_context_recovery() {
    let _v = Validation::new();
    let device = device(8, 8);
    let kept = Texture2D::new(&device, 4, 4).unwrap();
    assert!(kept.has_cpu_shadow());
    device.set_context_recovery_enabled(false);
    let bare = Texture2D::new(&device, 4, 4).unwrap();
    assert!(!bare.has_cpu_shadow());
    // A full-level upload still works.
    bare.set_data(&[Color::RED; 16]).unwrap();
    // A partial one would need the shadow: an error, not a zero-filled upload.
    let err = bare
        .set_data_region(0, Some(Rectangle::new(1, 1, 1, 1)), &[Color::BLUE], 0, 1)
        .unwrap_err();
    assert!(matches!(err, XnaError::InvalidOperation { .. }), "{err}");
    let mut out = [Color::TRANSPARENT; 16];
    bare.get_data(&mut out).unwrap();
    assert_eq!(out, [Color::RED; 16], "the texture is untouched by the refused upload");
}

#[test]
fn set_data_recorded_after_a_draw_is_not_visible_to_that_draw() {
    let _v = Validation::new();
    let device = device(8, 8);
    let t = solid(&device, 1, 1, Color::RED);
    device.clear(Color::BLACK).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin().unwrap();
    sb.draw_rect(&t, Rectangle::new(0, 0, 4, 8), Color::WHITE).unwrap();
    sb.end().unwrap();
    t.set_data(&[Color::BLUE]).unwrap();
    sb.begin().unwrap();
    sb.draw_rect(&t, Rectangle::new(4, 0, 4, 8), Color::WHITE).unwrap();
    sb.end().unwrap();
    device.present().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 8, 1, 3), Color::RED, "the first draw sees the data recorded before it");
    assert_eq!(at(&px, 8, 6, 3), Color::BLUE);
}

#[test]
fn using_a_disposed_texture_is_object_disposed() {
    let _v = Validation::new();
    let device = device(8, 8);
    let t = Texture2D::new(&device, 2, 2).unwrap();
    t.dispose();
    assert!(t.is_disposed());
    assert!(matches!(
        t.set_data(&[Color::RED; 4]),
        Err(XnaError::ObjectDisposed { object: "Texture2D" })
    ));
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin().unwrap();
    assert!(matches!(
        sb.draw(&t, xnagraph::Vector2::ZERO, Color::WHITE),
        Err(XnaError::ObjectDisposed { .. })
    ));
    sb.end().unwrap();
}

#[test]
fn a_whole_level_set_data_replaces_the_level_and_a_partial_one_merges() {
    let _v = Validation::new();
    let device = device(8, 8);
    let t = Texture2D::new(&device, 4, 4).unwrap();
    // All in one frame: nothing flushes between the uploads.
    t.set_data(&[Color::RED; 16]).unwrap();
    t.set_data_region(0, Some(Rectangle::new(1, 1, 2, 2)), &[Color::BLUE; 4], 0, 4).unwrap();
    t.set_data(&[Color::GREEN; 16]).unwrap();
    t.set_data_region(0, Some(Rectangle::new(2, 0, 2, 1)), &[Color::YELLOW; 2], 0, 2).unwrap();
    let mut out = [Color::TRANSPARENT; 16];
    t.get_data(&mut out).unwrap();
    for (i, &p) in out.iter().enumerate() {
        let want = if i == 2 || i == 3 { Color::YELLOW } else { Color::GREEN };
        assert_eq!(p, want, "texel {i}: the whole level replaced red and blue, yellow merged");
    }
}
