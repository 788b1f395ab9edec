//! `ContentManager` over `.xnb` files: Texture2D and SpriteFont assets, uncompressed, LZ4 and
//! LZX compressed; XNA's caching by name and `Unload`; and corrupt files refused with a
//! `ContentLoad` error that names the asset and the byte at fault. `content_xnb/textures.rs`
//! and `content_xnb/geometry.rs` hold the tests of the other graphics readers (Texture3D,
//! TextureCube, VertexDeclaration, VertexBuffer, IndexBuffer); `content_xnb/materials.rs`
//! those of the effect readers, external references and the primitive and math readers;
//! `content_xnb/models.rs` those of `ModelReader` and `Model`, `content_xnb/model_draw.rs` those
//! of `Model.Draw`.
//!
//! XNA's and MonoGame's content tools do not run here, so the files are made by the writer in
//! `content_xnb/writer.rs`, which follows the published XNB format byte for byte: the header ("XNB", platform,
//! version 5, flags, file size, decompressed size when compressed), .NET's 7-bit encoded
//! integers and length-prefixed UTF-8 strings, the type reader list with XNA's
//! assembly-qualified reader names and versions, the shared resource count, and each object as
//! a reader index then its data (the elements of a list of a value type without an index), as
//! XNA's `ContentWriter` writes them. LZ4 content is one raw LZ4 block (MonoGame's framing),
//! compressed with `lz4_flex` and, for a second file, hand-written as literal-only sequences.
//! The LZX writer frames the content as XNA does (2-byte frame headers, 5-byte ones for a short
//! last frame), but stores each 32 KiB frame as an LZX *uncompressed* block: it produces valid
//! LZX streams, without exercising the decoder's Huffman-coded block kinds, which are tested
//! only by the refusal of corrupt data.

mod common;
#[path = "content_xnb/geometry.rs"]
mod geometry;
#[path = "content_xnb/materials.rs"]
mod materials;
#[path = "content_xnb/model_draw.rs"]
mod model_draw;
#[path = "content_xnb/models.rs"]
mod models;
#[path = "content_xnb/refusals.rs"]
mod refusals;
#[path = "content_xnb/textures.rs"]
mod textures;
#[path = "content_xnb/writer.rs"]
mod writer;

use std::sync::Arc;

use common::*;
use writer::*;
use xnagraph::{
    BlendState, Color, Content, ContentManager, GraphicsDevice, Rectangle, RenderTarget2D,
    SamplerState, SpriteBatch, SpriteFont, SpriteSortMode, SurfaceFormat, Texture2D, Vector2,
    XnaError,
};

fn level<T: bytemuck::Pod + Default + Clone>(t: &Texture2D, level: i32, n: usize) -> Vec<T> {
    let mut out = vec![T::default(); n];
    t.get_data_region(level, None, &mut out, 0, n).unwrap();
    out
}

#[test]
fn textures_read_back_every_field_and_level() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("textures");
    // Color (format 0), 4x2 with its full chain of 3 levels.
    let color = [pattern(32, 1), pattern(8, 2), pattern(4, 3)];
    write(&dir, "color", &xnb(&texture_body(0, 4, 2, &color)));
    // Bgr565 (format 1), one level, in a subfolder named with a backslash.
    let packed = [pattern(2 * 6 * 5, 4)];
    write(&dir, "sub/packed", &xnb(&texture_body(1, 6, 5, &packed)));
    let content = ContentManager::new(&device, &dir);
    assert_eq!(content.root_directory(), dir.as_path());

    let t = content.load::<Texture2D>("color").unwrap();
    assert_eq!(
        (t.format(), t.width(), t.height(), t.level_count()),
        (SurfaceFormat::Color, 4, 2, 3)
    );
    for (i, bytes) in color.iter().enumerate() {
        assert_eq!(&level::<u8>(&t, i as i32, bytes.len()), bytes, "level {i}");
    }
    let p = content.load::<Texture2D>("sub\\packed").unwrap();
    assert_eq!(
        (p.format(), p.width(), p.height(), p.level_count()),
        (SurfaceFormat::Bgr565, 6, 5, 1)
    );
    assert_eq!(level::<u8>(&p, 0, 60), packed[0]);

    // DXT1 (format 4): 8x8, two blocks of 8 bytes per block row.
    let dxt = [pattern(32, 9)];
    write(&dir, "dxt", &xnb(&texture_body(4, 8, 8, &dxt)));
    if device.format_support(SurfaceFormat::Dxt1).sampled {
        let d = content.load::<Texture2D>("dxt").unwrap();
        assert_eq!((d.format(), d.level_count()), (SurfaceFormat::Dxt1, 1));
        assert_eq!(level::<u8>(&d, 0, 32), dxt[0]);
    } else {
        skipped("textures_read_back_every_field_and_level", "DXT1 is not available here");
    }
}

#[test]
fn a_name_loads_once_and_is_shared_until_unload() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("caching");
    write(&dir, "Art/Tile", &xnb(&texture_body(0, 2, 2, &[pattern(16, 5)])));
    let mut content = ContentManager::new(&device, &dir);
    let first = content.load::<Texture2D>("Art/Tile").unwrap();
    let again = content.load::<Texture2D>("Art/Tile").unwrap();
    assert!(Arc::ptr_eq(&first, &again), "the same asset twice is the same object");
    // XNA's key: either slash, any case.
    let other_spelling = content.load::<Texture2D>("art\\TILE").unwrap();
    assert!(Arc::ptr_eq(&first, &other_spelling));
    // The file's later changes are not seen while the asset is cached.
    write(&dir, "Art/Tile", &xnb(&texture_body(0, 1, 1, &[pattern(4, 6)])));
    assert_eq!(content.load::<Texture2D>("Art/Tile").unwrap().width(), 2);
    // As another type: refused, naming both types.
    match content.load::<SpriteFont>("Art/Tile").map(|_| ()) {
        Err(XnaError::ContentLoad { asset, message }) => {
            assert_eq!(asset, "Art/Tile");
            assert!(message.contains("Texture2D") && message.contains("SpriteFont"), "{message}");
        }
        other => panic!("expected ContentLoad, got {other:?}"),
    }
    // The root cannot move under loaded content.
    assert!(matches!(
        content.set_root_directory("elsewhere"),
        Err(XnaError::InvalidOperation { .. })
    ));

    content.unload();
    assert!(first.is_disposed(), "Unload disposes what it loaded");
    let mut texel = [Color::TRANSPARENT; 4];
    assert!(matches!(first.get_data(&mut texel), Err(XnaError::ObjectDisposed { .. })));
    let reloaded = content.load::<Texture2D>("Art/Tile").unwrap();
    assert!(!Arc::ptr_eq(&first, &reloaded), "after Unload a load reads the file again");
    assert_eq!(reloaded.width(), 1);
    content.dispose();
    assert!(reloaded.is_disposed());
    assert!(matches!(
        content.load::<Texture2D>("Art/Tile"),
        Err(XnaError::ObjectDisposed { object: "ContentManager" })
    ));
}

/// The font of [`font_body`]: three glyphs in a 16×8 atlas, each a solid colour.
const A: Color = Color::new(200, 30, 40, 255);
const E: Color = Color::new(20, 190, 60, 255);
const Q: Color = Color::new(30, 40, 220, 255);

/// A SpriteFont asset: 'A' and 'é' and the default '?', with distinct cropping offsets,
/// cell heights and kerning triples; line spacing 10, spacing 1.
fn font_body() -> Vec<u8> {
    let (w, h) = (16, 8);
    let mut atlas = vec![Color::TRANSPARENT; w * h];
    for (rect, c) in [
        (Rectangle::new(0, 0, 3, 5), A),
        (Rectangle::new(4, 0, 2, 5), E),
        (Rectangle::new(8, 0, 3, 3), Q),
    ] {
        for y in rect.y..rect.y + rect.height {
            for x in rect.x..rect.x + rect.width {
                atlas[y as usize * w + x as usize] = c;
            }
        }
    }
    let atlas: Vec<u8> = atlas.iter().flat_map(|c| [c.r, c.g, c.b, c.a]).collect();
    let mut b = Body::default();
    b.readers(
        &[
            reader("SpriteFontReader"),
            reader("Texture2DReader"),
            list_reader("Microsoft.Xna.Framework.Rectangle", FRAMEWORK),
            reader("RectangleReader"),
            list_reader("System.Char", MSCORLIB),
            reader("CharReader"),
            list_reader("Microsoft.Xna.Framework.Vector3", FRAMEWORK),
            reader("Vector3Reader"),
        ],
        0,
    );
    b.int7(1).int7(2);
    texture_data(&mut b, 0, w as i32, h as i32, &[atlas]);
    // Glyph rectangles, listed in another order than sorted: '?', 'é', 'A'.
    b.int7(3).i32(3);
    b.rect(Rectangle::new(8, 0, 3, 3))
        .rect(Rectangle::new(4, 0, 2, 5))
        .rect(Rectangle::new(0, 0, 3, 5));
    // Cropping: (x offset, y offset, width, cell height).
    b.int7(3).i32(3);
    b.rect(Rectangle::new(0, 4, 3, 12))
        .rect(Rectangle::new(0, 1, 2, 9))
        .rect(Rectangle::new(1, 2, 3, 9));
    b.int7(5).i32(3).char('?').char('é').char('A');
    b.i32(10).f32(1.0);
    // Kerning: left bearing, width, right bearing.
    b.int7(7).i32(3);
    for (l, w, r) in [(0.0f32, 3.0f32, 0.0f32), (-1.0, 2.0, 1.0), (1.0, 3.0, 2.0)] {
        b.f32(l).f32(w).f32(r);
    }
    b.u8(1).char('?');
    b.0
}

/// Draws "Aé\nZ?" at (5, 3) into a 24×24 target and checks every pixel against the places
/// XNA's rules give (worked out by hand in the comments).
fn check_font_draws_as_xna(device: &GraphicsDevice, font: &SpriteFont) {
    assert_eq!(font.characters(), ['?', 'A', 'é']);
    assert_eq!(font.line_spacing(), 10);
    assert_eq!(font.spacing(), 1.0);
    assert_eq!(font.default_character(), Some('?'));
    // Line 1: 'A' pen max(1, 0) = 1, drawn at 1 + crop 1 = 2, y 2; pen 1 + 3 + 2 = 6, width
    // 1 + 3 + 2 = 6. 'é': pen 6 + spacing 1 - 1 = 6, drawn at 6, y 1; pen 6 + 2 = 8, width
    // 8 + 1 = 9. Line 2 (y 10): 'Z' is the default '?': pen 0, drawn at 0, y 10 + 4; pen 3.
    // '?': pen 3 + 1 + 0 = 4, drawn at 4; width 7. Height: 10 + the last line's height, the
    // larger of line spacing 10 and the '?' cell's 12 (the first line's cells of 9 count not).
    assert_eq!(font.measure_string("Aé\nZ?").unwrap(), Vector2::new(9.0, 22.0));
    assert_eq!(font.measure_string("Aé").unwrap(), Vector2::new(9.0, 10.0));
    let want = [
        (Rectangle::new(2, 2, 3, 5), A),
        (Rectangle::new(6, 1, 2, 5), E),
        (Rectangle::new(0, 14, 3, 3), Q),
        (Rectangle::new(4, 14, 3, 3), Q),
    ];
    let rt = RenderTarget2D::new(device, 24, 24).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    let background = Color::new(9, 9, 9, 255);
    device.clear(background).unwrap();
    let mut sb = SpriteBatch::new(device).unwrap();
    sb.begin_with(
        SpriteSortMode::Deferred,
        Some(BlendState::ALPHA_BLEND),
        Some(SamplerState::POINT_CLAMP),
        None,
        None,
        None,
    )
    .unwrap();
    sb.draw_string(font, "Aé\nZ?", Vector2::new(5.0, 3.0), Color::WHITE).unwrap();
    sb.end().unwrap();
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    for y in 0..24 {
        for x in 0..24 {
            let (gx, gy) = (x - 5, y - 3);
            let inside = want.iter().find(|(r, _)| {
                (r.x..r.x + r.width).contains(&gx) && (r.y..r.y + r.height).contains(&gy)
            });
            let expected = inside.map_or(background, |(_, c)| *c);
            assert_eq!(at(&px, 24, x, y), expected, "pixel ({x}, {y})");
        }
    }
}

#[test]
fn a_sprite_font_reads_every_field_and_draws_as_xna() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("font");
    write(&dir, "font", &xnb(&font_body()));
    let content = ContentManager::new(&device, &dir);
    let font = content.load::<SpriteFont>("font").unwrap();
    let atlas = font.texture();
    assert_eq!((atlas.format(), atlas.width(), atlas.height()), (SurfaceFormat::Color, 16, 8));
    check_font_draws_as_xna(&device, &font);
}

#[test]
fn lz4_and_lzx_content_decompresses_to_the_same_assets() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("compressed");
    let body = font_body();
    write(&dir, "lz4", &compressed(0x40, body.len(), &lz4_flex::block::compress(&body)));
    write(&dir, "lz4-literals", &compressed(0x40, body.len(), &lz4_literals(&body)));
    write(&dir, "lzx", &compressed(0x80, body.len(), &lzx_uncompressed(&body)));
    // A texture of 40 KiB: two LZX frames, a full one and a short one.
    let big = [pattern(128 * 80 * 4, 7)];
    let texture = texture_body(0, 128, 80, &big);
    assert!(texture.len() > 0x8000);
    write(&dir, "big", &compressed(0x80, texture.len(), &lzx_uncompressed(&texture)));
    let content = ContentManager::new(&device, &dir);
    for name in ["lz4", "lz4-literals", "lzx"] {
        let font = content.load::<SpriteFont>(name).unwrap();
        check_font_draws_as_xna(&device, &font);
    }
    let t = content.load::<Texture2D>("big").unwrap();
    assert_eq!((t.width(), t.height()), (128, 80));
    assert_eq!(level::<u8>(&t, 0, big[0].len()), big[0]);
}

/// The `ContentLoad` message of loading `name` as a `T`, checking that the error names it.
pub fn refusal<T: Content>(content: &ContentManager, name: &str) -> String {
    match content.load::<T>(name).map(|_| ()) {
        Err(XnaError::ContentLoad { asset, message }) => {
            assert_eq!(asset, name);
            message
        }
        other => panic!("{name}: expected ContentLoad, got {other:?}"),
    }
}

#[test]
fn corrupt_files_are_refused_saying_where() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("corrupt");
    let good = xnb(&texture_body(0, 2, 2, &[pattern(16, 1)]));
    let says = |content: &ContentManager, name: &str, bytes: &[u8], wants: &[&str]| {
        write(&dir, name, bytes);
        let message = refusal::<Texture2D>(content, name);
        for want in wants {
            assert!(message.contains(want), "{name}: '{message}' lacks '{want}'");
        }
    };
    let content = ContentManager::new(&device, &dir);

    // Truncated inside the level's bytes (the header's size fixed to match): names the byte.
    let mut truncated = good[..good.len() - 5].to_vec();
    let len = truncated.len() as u32;
    truncated[6..10].copy_from_slice(&len.to_le_bytes());
    let level_at = (good.len() - 16).to_string();
    says(
        &content,
        "truncated",
        &truncated,
        &["ends while reading", &format!("at byte {level_at}")],
    );
    // A file cut short without fixing the size: the header's size is wrong.
    says(&content, "cut", &good[..good.len() - 5], &["bytes 6..10", "file's size"]);
    says(&content, "short", b"XNB", &["truncated at byte 3"]);
    let mut magic = good.clone();
    magic[..3].copy_from_slice(b"XNA");
    says(&content, "magic", &magic, &["not an XNB file", "bytes 0..3"]);
    let mut platform = good.clone();
    platform[3] = b'?';
    says(&content, "platform", &platform, &["byte 3", "platform"]);
    let mut version = good.clone();
    version[4] = 3;
    says(&content, "version", &version, &["byte 4", "version 3"]);
    let mut size = good.clone();
    size[6..10].copy_from_slice(&((good.len() + 1) as u32).to_le_bytes());
    says(&content, "size", &size, &["bytes 6..10", &format!("{} bytes", good.len() + 1)]);

    // An unknown reader, refused at its name (byte 11: after the header and the count).
    let mut b = Body::default();
    b.readers(&[reader("SoundEffectReader")], 0).int7(1);
    says(&content, "reader", &xnb(&b.0), &["SoundEffectReader", "at byte 11"]);
    // A reader index past the list.
    let mut b = Body::default();
    b.readers(&[reader("Texture2DReader")], 0).int7(2);
    let index_at = (b.0.len() - 1 + 10).to_string();
    says(&content, "index", &xnb(&b.0), &["type reader 2", &format!("at byte {index_at}")]);
    // A MonoGame format xnagraph does not create, named.
    says(
        &content,
        "srgb",
        &xnb(&texture_body(33, 4, 4, &[pattern(8, 0)])),
        &["Dxt1SRgb", "SurfaceFormat 33"],
    );
    // A level of the wrong size.
    says(
        &content,
        "level",
        &xnb(&texture_body(0, 2, 2, &[pattern(15, 0)])),
        &["level 0", "15 bytes, not 16"],
    );
    // The content decompresses to another size than the header gives.
    let body = texture_body(0, 2, 2, &[pattern(16, 1)]);
    says(
        &content,
        "lz4-size",
        &compressed(0x40, body.len() + 3, &lz4_literals(&body)),
        &["LZ4", "byte 14"],
    );
    // A corrupt LZX frame: block type 0 does not exist.
    let mut lzx = lzx_uncompressed(&body);
    // The first word is little-endian: its high byte holds the E8 bit and the block type.
    lzx[6] &= 0b1000_1111;
    says(&content, "lzx-corrupt", &compressed(0x80, body.len(), &lzx), &["LZX frame at byte 14"]);
    // A wrong asset type, a missing file, an absolute name, an empty name.
    write(&dir, "font", &xnb(&font_body()));
    let message = refusal::<Texture2D>(&content, "font");
    assert!(message.contains("holds a SpriteFont, not a Texture2D"), "{message}");
    assert!(refusal::<Texture2D>(&content, "missing").contains("cannot be read"));
    let absolute = dir.join("font").display().to_string();
    assert!(refusal::<Texture2D>(&content, &absolute).contains("absolute"));
    assert!(matches!(
        content.load::<Texture2D>(""),
        Err(XnaError::ArgumentNull { param: "assetName" })
    ));
    // The exception's text names the asset, as XNA's ContentLoadException does.
    let err = content.load::<Texture2D>("magic").unwrap_err();
    assert!(err.to_string().starts_with("ContentLoadException: Error loading \"magic\""), "{err}");
}

#[test]
fn hidef_content_is_refused_on_a_reach_device() {
    let _v = Validation::new();
    let reach = device_with(xnagraph::GraphicsProfile::Reach, params(8, 8));
    let dir = content_dir("reach");
    let mut hidef = xnb(&texture_body(0, 2, 2, &[pattern(16, 1)]));
    write(&dir, "hidef", &hidef);
    hidef[5] = 0;
    write(&dir, "reach", &hidef);
    let content = ContentManager::new(&reach, &dir);
    assert!(refusal::<Texture2D>(&content, "hidef").contains("HiDef"));
    assert_eq!(content.load::<Texture2D>("reach").unwrap().width(), 2);
}
