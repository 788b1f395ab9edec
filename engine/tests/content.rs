//! Texture content: PNG files and streams loaded into `Texture2D` (premultiplied or straight),
//! every PNG colour type, `SaveAsPng`, and the errors of bad files.

mod common;

use std::path::PathBuf;

use common::*;
use xnagraph::{
    Color, GraphicsProfile, LoadOptions, Rectangle, SamplerState, SpriteBatch, SpriteSortMode,
    SurfaceFormat, Texture2D, XnaError,
};

/// A fresh directory for one test's files.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xnagraph-content-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Encodes a PNG of `color`/`depth` from raw rows, with an optional palette and tRNS chunk.
fn encode(
    w: u32,
    h: u32,
    color: png::ColorType,
    depth: png::BitDepth,
    palette: Option<(&[u8], &[u8])>,
    data: &[u8],
) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(color);
    enc.set_depth(depth);
    if let Some((plte, trns)) = palette {
        enc.set_palette(plte.to_vec());
        enc.set_trns(trns.to_vec());
    }
    let mut writer = enc.write_header().unwrap();
    writer.write_image_data(data).unwrap();
    writer.finish().unwrap();
    out
}

/// The content pipeline's premultiplication, computed in floating point.
fn premultiplied(c: Color) -> Color {
    let p = |v: u8| (f64::from(v) * f64::from(c.a) / 255.0).round() as u8;
    Color::new(p(c.r), p(c.g), p(c.b), c.a)
}

fn read(t: &Texture2D) -> Vec<Color> {
    let mut out = vec![Color::new(1, 2, 3, 4); (t.width() * t.height()) as usize];
    t.get_data(&mut out).unwrap();
    out
}

/// A 5×3 straight-alpha image: every texel distinct, alpha from 0 to 255, the odd ones off
/// the centre.
fn straight_pixels() -> Vec<Color> {
    (0..15u8)
        .map(|i| {
            Color::new(
                250 - i * 13,
                17 + i * 11,
                99 + i * 7,
                [0, 1, 64, 127, 128, 200, 254, 255][i as usize % 8],
            )
        })
        .collect()
}

fn rgba_bytes(pixels: &[Color]) -> Vec<u8> {
    pixels.iter().flat_map(|c| [c.r, c.g, c.b, c.a]).collect()
}

#[test]
fn rgba_file_loads_premultiplied_by_default_and_straight_on_request() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = temp_dir("rgba");
    let path = dir.join("sprite.png");
    let pixels = straight_pixels();
    let bytes =
        encode(5, 3, png::ColorType::Rgba, png::BitDepth::Eight, None, &rgba_bytes(&pixels));
    std::fs::write(&path, bytes).unwrap();

    let t = Texture2D::from_file(&device, &path).unwrap();
    assert_eq!((t.width(), t.height(), t.level_count()), (5, 3, 1));
    assert_eq!(t.format(), SurfaceFormat::Color);
    let expected: Vec<Color> = pixels.iter().copied().map(premultiplied).collect();
    assert_eq!(read(&t), expected);
    // Spot values: half alpha halves (rounded), zero alpha is black, opaque is unchanged.
    assert_eq!(expected[4], Color::new(99, 31, 64, 128));
    assert_eq!(expected[0], Color::TRANSPARENT);
    assert_eq!(expected[7], pixels[7]);

    let straight =
        Texture2D::from_file_with(&device, &path, LoadOptions { premultiply_alpha: false })
            .unwrap();
    assert_eq!(read(&straight), pixels);
    let from_stream = Texture2D::from_stream(&device, std::fs::File::open(&path).unwrap()).unwrap();
    assert_eq!(read(&from_stream), expected);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_loaded_texture_draws_correctly_with_the_default_alpha_blend() {
    let _v = Validation::new();
    let device = device(8, 8);
    // Half-transparent red, then fully transparent green: straight alpha, as files hold it.
    let straight = [Color::new(255, 0, 0, 128), Color::new(0, 255, 0, 0)];
    let bytes =
        encode(2, 1, png::ColorType::Rgba, png::BitDepth::Eight, None, &rgba_bytes(&straight));
    let t = Texture2D::from_stream(&device, bytes.as_slice()).unwrap();
    device.clear(Color::BLUE).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin_with(
        SpriteSortMode::Deferred,
        None,
        Some(SamplerState::POINT_CLAMP),
        None,
        None,
        None,
    )
    .unwrap();
    sb.draw_rect(&t, Rectangle::new(2, 3, 4, 2), Color::WHITE).unwrap();
    sb.end().unwrap();
    let px = read_back_buffer(&device);
    // src + dst × (1 − srcα): red at half strength over blue.
    assert_near(at(&px, 8, 2, 3), Color::new(128, 0, 127, 255), 1);
    assert_near(at(&px, 8, 3, 4), Color::new(128, 0, 127, 255), 1);
    // The transparent texel leaves the blue untouched (a straight one would add its green).
    assert_eq!(at(&px, 8, 4, 3), Color::BLUE);
    assert_eq!(at(&px, 8, 5, 4), Color::BLUE);
    assert_eq!(at(&px, 8, 1, 3), Color::BLUE);
    assert_eq!(at(&px, 8, 6, 4), Color::BLUE);
    assert_eq!(at(&px, 8, 2, 5), Color::BLUE);
}

#[test]
fn sixteen_bit_rgb_and_grey_alpha_round_to_eight_bits() {
    let _v = Validation::new();
    let device = device(8, 8);
    // 16-bit RGB, 3×2: 0x12FF rounds to 19 (its high byte alone would be 18).
    let samples: [u16; 18] = [
        0x12FF, 0x0000, 0xFFFF, 0x8080, 0x7F7F, 0x0101, 0xFFFF, 0xFFFF, 0xFFFF, 0x0000, 0x0000,
        0x0000, 0x4000, 0xC000, 0x00FF, 0x0180, 0xFE7F, 0x8000,
    ];
    let data: Vec<u8> = samples.iter().flat_map(|s| s.to_be_bytes()).collect();
    let bytes = encode(3, 2, png::ColorType::Rgb, png::BitDepth::Sixteen, None, &data);
    let t = Texture2D::from_stream(&device, bytes.as_slice()).unwrap();
    let q = |v: u16| (f64::from(v) * 255.0 / 65535.0).round() as u8;
    let expected: Vec<Color> =
        samples.chunks(3).map(|s| Color::new(q(s[0]), q(s[1]), q(s[2]), 255)).collect();
    assert_eq!(expected[0].r, 19);
    assert_eq!(read(&t), expected);

    // 16-bit grey with alpha, 2×1, premultiplied after rounding.
    let samples: [u16; 4] = [0xA0A0, 0x8000, 0x3333, 0xFFFF];
    let data: Vec<u8> = samples.iter().flat_map(|s| s.to_be_bytes()).collect();
    let bytes = encode(2, 1, png::ColorType::GrayscaleAlpha, png::BitDepth::Sixteen, None, &data);
    let t = Texture2D::from_stream(&device, bytes.as_slice()).unwrap();
    let g = |v: u16, a: u16| premultiplied(Color::new(q(v), q(v), q(v), q(a)));
    assert_eq!(read(&t), vec![g(0xA0A0, 0x8000), g(0x3333, 0xFFFF)]);
}

#[test]
fn grey_and_palette_images_expand_to_color() {
    let _v = Validation::new();
    let device = device(8, 8);
    // 8-bit grey, 4×2: opaque grey texels.
    let grey = [0u8, 37, 128, 255, 200, 9, 64, 190];
    let bytes = encode(4, 2, png::ColorType::Grayscale, png::BitDepth::Eight, None, &grey);
    let t = Texture2D::from_stream(&device, bytes.as_slice()).unwrap();
    let expected: Vec<Color> = grey.iter().map(|&v| Color::new(v, v, v, 255)).collect();
    assert_eq!(read(&t), expected);

    // 2-bit grey, 4×1: the four levels spread over 0..255.
    let bytes = encode(4, 1, png::ColorType::Grayscale, png::BitDepth::Two, None, &[0b00_01_10_11]);
    let t = Texture2D::from_stream(&device, bytes.as_slice()).unwrap();
    let levels = [0u8, 85, 170, 255].map(|v| Color::new(v, v, v, 255));
    assert_eq!(read(&t), levels.to_vec());

    // 8-bit palette with tRNS, 3×2: entries 1 and 2 translucent, entry 3 opaque (no tRNS).
    let plte = [10u8, 20, 30, 200, 100, 50, 255, 255, 255, 1, 2, 250];
    let trns = [255u8, 128, 0];
    let indices = [1u8, 0, 3, 2, 1, 0];
    let bytes =
        encode(3, 2, png::ColorType::Indexed, png::BitDepth::Eight, Some((&plte, &trns)), &indices);
    let entry = |i: usize| {
        let alpha = trns.get(i).copied().unwrap_or(255);
        Color::new(plte[i * 3], plte[i * 3 + 1], plte[i * 3 + 2], alpha)
    };
    let straight: Vec<Color> = indices.iter().map(|&i| entry(i as usize)).collect();
    let t = Texture2D::from_stream(&device, bytes.as_slice()).unwrap();
    assert_eq!(read(&t), straight.iter().copied().map(premultiplied).collect::<Vec<_>>());
    let t = Texture2D::from_stream_with(
        &device,
        bytes.as_slice(),
        LoadOptions { premultiply_alpha: false },
    )
    .unwrap();
    assert_eq!(read(&t), straight);
}

#[test]
fn save_as_png_round_trips_and_scales_by_nearest_texel() {
    let _v = Validation::new();
    let device = device(8, 8);
    let pixels = straight_pixels();
    let t = Texture2D::new(&device, 5, 3).unwrap();
    t.set_data(&pixels).unwrap();
    let mut png_bytes = Vec::new();
    t.save_as_png(&mut png_bytes, 5, 3).unwrap();
    // Saved as stored; loaded straight it is the same texels.
    let back = Texture2D::from_stream_with(
        &device,
        png_bytes.as_slice(),
        LoadOptions { premultiply_alpha: false },
    )
    .unwrap();
    assert_eq!(read(&back), pixels);

    // Twice the width, the same height: each texel twice in a row.
    let mut wide = Vec::new();
    t.save_as_png(&mut wide, 10, 3).unwrap();
    let decoded = png::Decoder::new(std::io::Cursor::new(wide.as_slice())).read_info().unwrap();
    let (w, h) = (decoded.info().width, decoded.info().height);
    assert_eq!((w, h), (10, 3));
    let back = Texture2D::from_stream_with(
        &device,
        wide.as_slice(),
        LoadOptions { premultiply_alpha: false },
    )
    .unwrap();
    let expected: Vec<Color> = (0..30).map(|i| pixels[(i / 10) * 5 + (i % 10) / 2]).collect();
    assert_eq!(read(&back), expected);

    assert!(matches!(
        t.save_as_png(Vec::new(), 0, 3),
        Err(XnaError::ArgumentOutOfRange { param: "width", .. })
    ));
    assert!(matches!(
        t.save_as_png(Vec::new(), 5, -1),
        Err(XnaError::ArgumentOutOfRange { param: "height", .. })
    ));
    let other = Texture2D::with_format(&device, 4, 4, false, SurfaceFormat::Bgr565).unwrap();
    assert!(matches!(other.save_as_png(Vec::new(), 4, 4), Err(XnaError::NotSupported { .. })));
}

/// PNG's chunk CRC (CRC-32, polynomial 0xEDB88320).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// The offset of the first chunk of `kind` (its length field).
fn chunk(bytes: &[u8], kind: &[u8; 4]) -> usize {
    let mut at = 8;
    while &bytes[at + 4..at + 8] != kind {
        at += 12 + u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    }
    at
}

/// A 1×1 RGBA PNG whose header is patched to claim `width` (its CRC recomputed).
fn with_width(width: u32) -> Vec<u8> {
    let mut bytes = encode(1, 1, png::ColorType::Rgba, png::BitDepth::Eight, None, &[1, 2, 3, 4]);
    let ihdr = chunk(&bytes, b"IHDR");
    bytes[ihdr + 8..ihdr + 12].copy_from_slice(&width.to_be_bytes());
    let crc = crc32(&bytes[ihdr + 4..ihdr + 8 + 13]);
    bytes[ihdr + 8 + 13..ihdr + 8 + 17].copy_from_slice(&crc.to_be_bytes());
    bytes
}

fn invalid_operation_message(result: xnagraph::Result<Texture2D>) -> String {
    match result {
        Err(XnaError::InvalidOperation { message }) => message,
        other => panic!("expected InvalidOperation, got {other:?}"),
    }
}

#[test]
fn truncated_and_corrupt_files_are_errors_naming_the_file() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = temp_dir("bad");
    let good = encode(
        5,
        3,
        png::ColorType::Rgba,
        png::BitDepth::Eight,
        None,
        &rgba_bytes(&straight_pixels()),
    );

    let truncated = dir.join("truncated.png");
    std::fs::write(&truncated, &good[..good.len() - 20]).unwrap();
    let message = invalid_operation_message(Texture2D::from_file(&device, &truncated));
    assert!(message.contains("truncated.png") && message.contains("end of file"), "{message}");

    let corrupt = dir.join("corrupt_crc.png");
    let mut bytes = good.clone();
    let idat = chunk(&bytes, b"IDAT");
    // The chunk's data is intact; its stored CRC is not.
    let len = u32::from_be_bytes(bytes[idat..idat + 4].try_into().unwrap()) as usize;
    bytes[idat + 8 + len] ^= 0x55;
    std::fs::write(&corrupt, &bytes).unwrap();
    let message = invalid_operation_message(Texture2D::from_file(&device, &corrupt));
    assert!(message.contains("corrupt_crc.png") && message.contains("CRC"), "{message}");
    assert!(message.contains("IDAT"), "{message}");

    let not_png = dir.join("notes.png");
    std::fs::write(&not_png, b"this is not an image").unwrap();
    let message = invalid_operation_message(Texture2D::from_file(&device, &not_png));
    assert!(message.contains("notes.png") && message.contains("signature"), "{message}");

    // A stream's errors say what is wrong, as the file's do.
    let message = invalid_operation_message(Texture2D::from_stream(&device, &bytes[..]));
    assert!(message.contains("CRC"), "{message}");

    let missing = dir.join("missing.png");
    // A file that cannot be read is an I/O error, whose cause is the io::Error as it was.
    match Texture2D::from_file(&device, &missing) {
        Err(e @ XnaError::Io { .. }) => {
            assert!(e.message().contains("missing.png"), "{e}");
            let cause = std::error::Error::source(&e).expect("the I/O error is the source");
            let io = cause.downcast_ref::<std::io::Error>().expect("an io::Error");
            assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("expected Io, got {other:?}"),
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn zero_and_oversized_images_are_refused_by_the_size_rules() {
    let _v = Validation::new();
    let dir = temp_dir("size");
    // A zero-width header (the encoder refuses one, so it is patched, CRC and all).
    let zero = with_width(0);
    let zero_path = dir.join("zero.png");
    std::fs::write(&zero_path, &zero).unwrap();

    let hidef = device(8, 8);
    let message = invalid_operation_message(Texture2D::from_file(&hidef, &zero_path));
    assert!(message.contains("zero.png") && message.contains("dimensions"), "{message}");

    let wide = |w: u32| {
        encode(w, 1, png::ColorType::Grayscale, png::BitDepth::Eight, None, &vec![7u8; w as usize])
    };
    assert!(matches!(
        Texture2D::from_stream(&hidef, wide(4097).as_slice()),
        Err(XnaError::NotSupported { .. })
    ));
    assert_eq!(Texture2D::from_stream(&hidef, wide(4096).as_slice()).unwrap().width(), 4096);
    // A header claiming 100000 texels of width over one texel of data: refused by the size
    // rules before any pixel is decoded (decoding would fail on the missing data instead).
    assert!(matches!(
        Texture2D::from_stream(&hidef, with_width(100_000).as_slice()),
        Err(XnaError::NotSupported { .. })
    ));
    drop(hidef);

    let reach = device_with(GraphicsProfile::Reach, params(8, 8));
    assert!(matches!(
        Texture2D::from_stream(&reach, wide(2049).as_slice()),
        Err(XnaError::NotSupported { .. })
    ));
    assert_eq!(Texture2D::from_stream(&reach, wide(2048).as_slice()).unwrap().width(), 2048);
    std::fs::remove_dir_all(dir).unwrap();
}
