//! Texture2D::from_file / from_stream for the formats other than PNG (JPEG, BMP, GIF, TGA,
//! QOI), fixtures encoded at test time with the `image` crate's encoders; premultiplied and
//! straight alpha; truncated, corrupt and unknown data.

mod common;

use std::io::Cursor;
use std::path::PathBuf;

use common::*;
use image::{ImageEncoder, ImageFormat, RgbaImage};
use xnagraph::{Color, LoadOptions, Texture2D, XnaError};

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xnagraph-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Four texels, straight alpha: opaque red, half-transparent green-ish, transparent, opaque
/// grey-blue (distinct colours, one per texel of a 2×2 image... laid out 4×1 by `pixels`).
fn pixels() -> Vec<Color> {
    vec![
        Color::new(250, 10, 20, 255),
        Color::new(30, 200, 90, 128),
        Color::new(0, 0, 0, 0),
        Color::new(60, 70, 220, 255),
        Color::new(255, 255, 255, 64),
        Color::new(5, 99, 180, 255),
    ]
}

const W: u32 = 3;
const H: u32 = 2;

fn rgba(px: &[Color]) -> RgbaImage {
    RgbaImage::from_raw(W, H, px.iter().flat_map(|c| [c.r, c.g, c.b, c.a]).collect()).unwrap()
}

fn encoded(format: ImageFormat, img: &RgbaImage) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, format).unwrap();
    out.into_inner()
}

fn premultiplied(c: Color) -> Color {
    let p = |v: u8| ((u32::from(v) * u32::from(c.a) + 127) / 255) as u8;
    Color::new(p(c.r), p(c.g), p(c.b), c.a)
}

fn read(t: &Texture2D) -> Vec<Color> {
    let mut out = vec![Color::TRANSPARENT; (t.width() * t.height()) as usize];
    t.get_data(&mut out).unwrap();
    out
}

#[test]
fn lossless_formats_load_exact_texels_premultiplied_or_straight() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = temp_dir("lossless");
    let straight = pixels();
    let want: Vec<Color> = straight.iter().copied().map(premultiplied).collect();
    assert_ne!(want, straight);
    for (format, ext) in
        [(ImageFormat::Bmp, "bmp"), (ImageFormat::Tga, "tga"), (ImageFormat::Qoi, "qoi")]
    {
        let bytes = encoded(format, &rgba(&straight));
        let path = dir.join(format!("sprite.{ext}"));
        std::fs::write(&path, &bytes).unwrap();
        let t = Texture2D::from_file(&device, &path).unwrap();
        assert_eq!((t.width(), t.height()), (W as i32, H as i32), "{ext}");
        assert_eq!(read(&t), want, "{ext} premultiplied");
        let s = Texture2D::from_file_with(&device, &path, LoadOptions { premultiply_alpha: false })
            .unwrap();
        assert_eq!(read(&s), straight, "{ext} straight");
        if format != ImageFormat::Tga {
            // Recognised by its signature in a stream.
            assert_eq!(read(&Texture2D::from_stream(&device, bytes.as_slice()).unwrap()), want);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gif_and_jpeg_load_what_they_encode() {
    let _v = Validation::new();
    let device = device(8, 8);
    // GIF: a palette with one fully transparent entry; alpha is all-or-nothing.
    let gif_px = vec![
        Color::new(255, 0, 0, 255),
        Color::new(0, 0, 0, 0),
        Color::new(0, 255, 0, 255),
        Color::new(0, 0, 255, 255),
        Color::new(255, 255, 0, 255),
        Color::new(0, 0, 0, 0),
    ];
    let mut gif = Vec::new();
    {
        let mut enc = image::codecs::gif::GifEncoder::new(&mut gif);
        enc.encode_frame(image::Frame::new(rgba(&gif_px))).unwrap();
    }
    let t = Texture2D::from_stream(&device, gif.as_slice()).unwrap();
    let got = read(&t);
    assert_eq!(got, gif_px.iter().copied().map(premultiplied).collect::<Vec<_>>());
    // JPEG is lossy: each texel is what image's own decoder gives (alpha opaque), within a
    // small distance of the encoded colour.
    let flat = RgbaImage::from_pixel(8, 8, image::Rgba([200, 40, 100, 255]));
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 95)
        .write_image(
            &image::DynamicImage::ImageRgba8(flat).to_rgb8(),
            8,
            8,
            image::ExtendedColorType::Rgb8,
        )
        .unwrap();
    let reference = image::load_from_memory(&jpeg).unwrap().to_rgba8();
    let t = Texture2D::from_stream(&device, jpeg.as_slice()).unwrap();
    let got = read(&t);
    for (g, r) in got.iter().zip(reference.pixels()) {
        assert_eq!([g.r, g.g, g.b, g.a], r.0);
        assert_near(*g, Color::new(200, 40, 100, 255), 3);
    }
}

fn invalid_operation(result: xnagraph::Result<Texture2D>) -> String {
    match result {
        Err(XnaError::InvalidOperation { message }) => message,
        other => panic!("expected InvalidOperation, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn truncated_corrupt_and_unknown_data_are_errors_saying_what_is_wrong() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = temp_dir("bad-images");
    let img = rgba(&pixels());
    // Truncated: the message names the file and the byte where its data ends.
    for (format, ext) in
        [(ImageFormat::Bmp, "bmp"), (ImageFormat::Qoi, "qoi"), (ImageFormat::Gif, "gif")]
    {
        let bytes = encoded(format, &img);
        let cut = bytes.len() - 12;
        let path = dir.join(format!("cut.{ext}"));
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let message = invalid_operation(Texture2D::from_file(&device, &path));
        assert!(message.contains(&format!("cut.{ext}")), "{message}");
        assert!(message.contains(&format!("truncated at byte {cut}")), "{ext}: {message}");
    }
    // Unknown data: an unsupported format, naming the formats read.
    let path = dir.join("notes.txt");
    std::fs::write(&path, b"plain text, no image here").unwrap();
    let message = invalid_operation(Texture2D::from_file(&device, &path));
    assert!(
        message.contains("notes.txt") && message.contains("unsupported image format"),
        "{message}"
    );
    assert!(message.contains("PNG, JPEG, BMP, GIF, TGA or QOI"), "{message}");
    let message = invalid_operation(Texture2D::from_stream(&device, &b"GARBAGE!"[..]));
    assert!(
        message.contains("the stream") && message.contains("unsupported image format"),
        "{message}"
    );
    // A recognised format the build does not read (WebP) is unsupported too.
    let message = invalid_operation(Texture2D::from_stream(&device, &b"RIFF\0\0\0\0WEBPVP8 "[..]));
    assert!(message.contains("unsupported image format"), "{message}");
    // Corrupt header: a BMP whose header claims an impossible bit depth.
    let mut bmp = encoded(ImageFormat::Bmp, &img);
    bmp[28] = 7;
    let path = dir.join("corrupt.bmp");
    std::fs::write(&path, &bmp).unwrap();
    let message = invalid_operation(Texture2D::from_file(&device, &path));
    assert!(message.contains("corrupt.bmp") && !message.contains("truncated"), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}
