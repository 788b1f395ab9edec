//! SpriteFont and SpriteBatch::draw_string: XNA's layout checked against a model built straight
//! from fontdue's metrics, glyph pixels read back from the back buffer, transforms, kerning,
//! unresolvable characters and bad font files.

mod common;

use common::*;
use xnagraph::{
    BlendState, Color, FontOptions, GraphicsDevice, SamplerState, SpriteBatch, SpriteEffects,
    SpriteFont, SpriteSortMode, Vector2, XnaError,
};

const FONT: &[u8] = include_bytes!("../../samples/content/fonts/DejaVuSans.ttf");
const PX: f32 = 14.0;

fn options() -> FontOptions {
    FontOptions { size_px: PX, ..FontOptions::default() }
}

fn font(device: &GraphicsDevice) -> SpriteFont {
    SpriteFont::from_bytes(device, FONT, &options()).unwrap()
}

/// The model: fontdue's metrics of each character, in XNA's whole-pixel A/B/C terms.
struct Model {
    font: fontdue::Font,
    ascent: f32,
    line: f32,
}

impl Model {
    fn new() -> Self {
        let settings = fontdue::FontSettings { scale: PX, ..fontdue::FontSettings::default() };
        let font = fontdue::Font::from_bytes(FONT, settings).unwrap();
        let lm = font.horizontal_line_metrics(PX).unwrap();
        Model { font, ascent: lm.ascent.round(), line: lm.new_line_size.round() }
    }

    /// (left bearing, width, right bearing, bitmap, bitmap height, top below the line top).
    fn glyph(&self, c: char) -> (f32, f32, f32, Vec<u8>, usize, f32) {
        let (m, bitmap) = self.font.rasterize(c, PX);
        let left = m.xmin as f32;
        let width = m.width as f32;
        let right = m.advance_width.round() - left - width;
        let top = self.ascent - (m.ymin + m.height as i32) as f32;
        (left, width, right, bitmap, m.height, top)
    }

    fn kern(&self, a: char, b: char) -> f32 {
        self.font.horizontal_kern(a, b, PX).map_or(0.0, f32::round)
    }

    /// Each glyph's bitmap top-left corner and the string's size, by XNA's rules written out
    /// here from MonoGame's `SpriteFont.MeasureString`, with pair kerning when `kerning`.
    #[allow(clippy::type_complexity)]
    fn layout(&self, text: &str, spacing: f32, kerning: bool) -> (Vec<(char, f32, f32)>, [f32; 2]) {
        let (mut pen, mut y, mut width) = (0.0f32, 0.0f32, 0.0f32);
        let mut height = self.line;
        let mut prev: Option<char> = None;
        let mut out = Vec::new();
        if text.is_empty() {
            return (out, [0.0, 0.0]);
        }
        for c in text.chars() {
            if c == '\r' {
                continue;
            }
            if c == '\n' {
                pen = 0.0;
                y += self.line;
                height = self.line;
                prev = None;
                continue;
            }
            let (l, w, r, ..) = self.glyph(c);
            let top = self.glyph(c).5;
            match prev {
                None => pen = l.max(0.0),
                Some(p) => pen += spacing + l + if kerning { self.kern(p, c) } else { 0.0 },
            }
            out.push((c, pen, y + top));
            pen += w;
            width = width.max(pen + r.max(0.0));
            pen += r;
            prev = Some(c);
        }
        (out, [width, y + height])
    }

    /// The back buffer after drawing `text` at (x0, y0) in premultiplied `tint` over
    /// transparent black with AlphaBlend.
    fn render(&self, text: &str, x0: i32, y0: i32, tint: Color, size: (i32, i32)) -> Vec<Color> {
        let mut px = vec![Color::TRANSPARENT; (size.0 * size.1) as usize];
        for (c, gx, gy) in self.layout(text, 0.0, true).0 {
            let (_, w, _, bitmap, h, _) = self.glyph(c);
            for row in 0..h {
                for col in 0..w as usize {
                    let cov = bitmap[row * w as usize + col];
                    if cov == 0 {
                        continue;
                    }
                    let (x, y) = (x0 + gx as i32 + col as i32, y0 + gy as i32 + row as i32);
                    let d = &mut px[(y * size.0 + x) as usize];
                    // The GPU's blend in floats, stored to 8 bits.
                    let cov = cov as f32 / 255.0;
                    let sa = cov * f32::from(tint.a) / 255.0;
                    let over = |t: u8, d: u8| {
                        let s = cov * f32::from(t) / 255.0;
                        ((s + f32::from(d) / 255.0 * (1.0 - sa)) * 255.0).round() as u8
                    };
                    *d = Color::new(
                        over(tint.r, d.r),
                        over(tint.g, d.g),
                        over(tint.b, d.b),
                        over(tint.a, d.a),
                    );
                }
            }
        }
        px
    }
}

/// Draws through `draw` into a `w`×`h` back buffer cleared to transparent black, AlphaBlend and
/// point sampling, and reads it back.
fn drawn(
    device: &GraphicsDevice,
    draw: impl FnOnce(&mut SpriteBatch) -> xnagraph::Result<()>,
) -> Vec<Color> {
    device.clear(Color::TRANSPARENT).unwrap();
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
    draw(&mut sb).unwrap();
    sb.end().unwrap();
    read_back_buffer(device)
}

fn assert_image(got: &[Color], want: &[Color], width: i32, tol: u8) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let close = |a: u8, b: u8| a.abs_diff(b) <= tol;
        assert!(
            close(g.r, w.r) && close(g.g, w.g) && close(g.b, w.b) && close(g.a, w.a),
            "pixel ({}, {}): got {g:?}, want {w:?}",
            i as i32 % width,
            i as i32 / width
        );
    }
}

#[test]
fn measure_string_follows_xnas_rules_on_fontdues_metrics() {
    let _v = Validation::new();
    let device = device(8, 8);
    let mut font = font(&device);
    let model = Model::new();
    assert_eq!(font.line_spacing() as f32, model.line);
    assert_eq!(font.characters(), (' '..='~').collect::<Vec<_>>());
    // 'j' has a negative left bearing: the first glyph of a line does not hang off its left.
    assert!(model.glyph('j').0 < 0.0, "'j' should have a negative left bearing");
    // '.' ends a line with a positive right bearing, 'f' with a negative one at this size.
    for text in
        ["Hello", "AV", "jump\nA", "j\njj", "Wide line\nx", "a\r\nbc", "A\n", "\n", "f", "ff.", ""]
    {
        let [w, h] = model.layout(text, 0.0, true).1;
        assert_eq!(font.measure_string(text).unwrap(), Vector2::new(w, h), "{text:?}");
    }
    // Spacing goes between glyphs, never before the first or after the last.
    font.set_spacing(3.0);
    assert_eq!(font.spacing(), 3.0);
    for text in ["Hello", "jj\nq"] {
        let [w, h] = model.layout(text, 3.0, true).1;
        assert_eq!(font.measure_string(text).unwrap(), Vector2::new(w, h), "{text:?}");
    }
    assert_eq!(
        font.measure_string("A").unwrap(),
        Vector2::new(model.layout("A", 0.0, true).1[0], model.line)
    );
    // LineSpacing sets the distance between lines and the last line's minimum height.
    font.set_line_spacing(40);
    assert_eq!(font.measure_string("x\ny").unwrap().y, 80.0);
    assert_eq!(font.measure_string("x").unwrap().y, 40.0);
    font.set_line_spacing(2);
    assert_eq!(font.measure_string("x\ny").unwrap().y, 2.0 + model.line);
}

#[test]
fn kerning_moves_the_second_glyph_of_a_kerned_pair() {
    let _v = Validation::new();
    let device = device(8, 8);
    let font = font(&device);
    let model = Model::new();
    let kern = model.kern('A', 'V');
    assert!(kern < 0.0, "DejaVu Sans kerns A-V: {kern}");
    let with = model.layout("AV", 0.0, true).1[0];
    let without = model.layout("AV", 0.0, false).1[0];
    assert_eq!(with, without + kern);
    assert_eq!(font.measure_string("AV").unwrap().x, with);
    // A pair the font does not kern is just the glyphs' widths.
    assert_eq!(model.kern('H', 'H'), 0.0);
    assert_eq!(font.measure_string("HH").unwrap().x, model.layout("HH", 0.0, false).1[0]);
}

#[test]
fn draw_string_puts_each_glyphs_coverage_where_the_layout_says_tinted() {
    let _v = Validation::new();
    let (w, h) = (90, 40);
    let device = device(w, h);
    let font = font(&device);
    let model = Model::new();
    let text = "AV jig\r\nW_q!";
    let tint = Color::new(255, 0, 255, 255);
    let got = drawn(&device, |sb| sb.draw_string(&font, text, Vector2::new(5.0, 3.0), tint));
    let want = model.render(text, 5, 3, tint, (w, h));
    // Coverage lands at the layout's places: magenta with the glyph's coverage, exact.
    let solid = want.iter().filter(|c| c.a > 200).count();
    assert!(solid > 20, "the text has solid pixels: {solid}");
    assert_image(&got, &want, w, 0);
    // A translucent tint scales the premultiplied coverage.
    let half = Color::new(0, 128, 0, 128);
    let got = drawn(&device, |sb| sb.draw_string(&font, text, Vector2::new(7.0, 2.0), half));
    assert_image(&got, &model.render(text, 7, 2, half, (w, h)), w, 1);
}

/// The image of a string drawn at `at` with `rotation` a multiple of a quarter turn, `origin`,
/// `scale` and flips, derived from `plain` (the string drawn unflipped at `base` at scale 1):
/// each pixel centre is carried back through XNA's placement (position, rotation, scale,
/// origin, the mirror inside the measured box) to the plain image.
#[allow(clippy::too_many_arguments)]
fn transformed(
    plain: &[Color],
    base: (f32, f32),
    size: Vector2,
    at: Vector2,
    quarter_turns: i32,
    origin: Vector2,
    scale: Vector2,
    effects: (bool, bool),
    (w, h): (i32, i32),
) -> Vec<Color> {
    let mut out = vec![Color::TRANSPARENT; (w * h) as usize];
    for y in 0..h {
        for x in 0..w {
            let (dx, dy) = (x as f32 + 0.5 - at.x, y as f32 + 0.5 - at.y);
            // Undo the clockwise rotation.
            let (u, v) = match quarter_turns.rem_euclid(4) {
                0 => (dx, dy),
                1 => (dy, -dx),
                2 => (-dx, -dy),
                _ => (-dy, dx),
            };
            let (mut lx, mut ly) = (u / scale.x + origin.x, v / scale.y + origin.y);
            if effects.0 {
                lx = size.x - lx;
            }
            if effects.1 {
                ly = size.y - ly;
            }
            let (px, py) = ((lx + base.0).floor() as i32, (ly + base.1).floor() as i32);
            if (0..w).contains(&px) && (0..h).contains(&py) && lx >= 0.0 && ly >= 0.0 {
                out[(y * w + x) as usize] = plain[(py * w + px) as usize];
            }
        }
    }
    out
}

#[test]
fn rotation_origin_scale_and_flips_place_the_string_as_xna() {
    let _v = Validation::new();
    let (w, h) = (96, 96);
    let device = device(w, h);
    let font = font(&device);
    let text = "Fj7\nLq";
    let size = font.measure_string(text).unwrap();
    let plain =
        drawn(&device, |sb| sb.draw_string(&font, text, Vector2::new(3.0, 4.0), Color::WHITE));
    assert!(plain.iter().any(|c| c.a > 200));
    let cases = [
        // (position, quarter turns, origin, scale, flip h, flip v)
        (Vector2::new(40.0, 30.0), 0, Vector2::new(5.0, 7.0), Vector2::new(2.0, 3.0), false, false),
        (Vector2::new(50.0, 20.0), 1, Vector2::new(4.0, 2.0), Vector2::ONE, false, false),
        (Vector2::new(60.0, 70.0), 2, Vector2::new(1.0, 3.0), Vector2::new(2.0, 1.0), false, false),
        (Vector2::new(20.0, 61.0), 3, Vector2::ZERO, Vector2::ONE, false, false),
        (Vector2::new(10.0, 12.0), 0, Vector2::new(2.0, 1.0), Vector2::ONE, true, false),
        (Vector2::new(11.0, 9.0), 0, Vector2::new(3.0, 4.0), Vector2::new(1.0, 2.0), false, true),
        (Vector2::new(50.0, 50.0), 1, Vector2::new(6.0, 5.0), Vector2::new(2.0, 2.0), true, true),
    ];
    for (at, turns, origin, scale, fh, fv) in cases {
        let mut effects = SpriteEffects::NONE;
        if fh {
            effects |= SpriteEffects::FLIP_HORIZONTALLY;
        }
        if fv {
            effects |= SpriteEffects::FLIP_VERTICALLY;
        }
        let rotation = turns as f32 * std::f32::consts::FRAC_PI_2;
        let got = drawn(&device, |sb| {
            sb.draw_string_ex(&font, text, at, Color::WHITE, rotation, origin, scale, effects, 0.5)
        });
        let want =
            transformed(&plain, (3.0, 4.0), size, at, turns, origin, scale, (fh, fv), (w, h));
        assert!(want.iter().filter(|c| c.a > 200).count() > 20, "case {at:?} stays on screen");
        assert_image(&got, &want, w, 0);
    }
    // The uniform-scale overload is the vector one with equal components.
    let a = drawn(&device, |sb| {
        sb.draw_string_ex_uniform(
            &font,
            text,
            Vector2::new(9.0, 8.0),
            Color::WHITE,
            0.0,
            Vector2::ZERO,
            2.0,
            SpriteEffects::NONE,
            0.0,
        )
    });
    let want = transformed(
        &plain,
        (3.0, 4.0),
        size,
        Vector2::new(9.0, 8.0),
        0,
        Vector2::ZERO,
        Vector2::new(2.0, 2.0),
        (false, false),
        (w, h),
    );
    assert_image(&a, &want, w, 0);
}

#[test]
fn unresolvable_characters_are_errors_unless_a_default_character_stands_in() {
    let _v = Validation::new();
    let (w, h) = (60, 24);
    let device = device(w, h);
    let mut font = font(&device);
    let message = "Text contains characters that cannot be resolved by this SpriteFont.";
    for text in ["é", "ab\u{263A}"] {
        match font.measure_string(text) {
            Err(XnaError::Argument { param: "text", message: m }) => assert_eq!(m, message),
            other => panic!("{other:?}"),
        }
    }
    // Nothing of the string is drawn.
    device.clear(Color::TRANSPARENT).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin().unwrap();
    assert!(matches!(
        sb.draw_string(&font, "abé", Vector2::ZERO, Color::WHITE),
        Err(XnaError::Argument { param: "text", .. })
    ));
    sb.end().unwrap();
    assert!(read_back_buffer(&device).iter().all(|&c| c == Color::TRANSPARENT));
    // A character the font lacks cannot become the default.
    match font.set_default_character(Some('é')) {
        Err(XnaError::Argument { param: "value", message }) => {
            assert!(message.contains("'é' (0x00E9)"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(font.default_character(), None);
    // With '?' as the default, an unknown character is laid out and drawn as '?'.
    font.set_default_character(Some('?')).unwrap();
    assert_eq!(font.default_character(), Some('?'));
    assert_eq!(font.measure_string("Aé\u{263A}").unwrap(), font.measure_string("A??").unwrap());
    let at = Vector2::new(2.0, 3.0);
    let subst = drawn(&device, |sb| sb.draw_string(&font, "Aé\u{263A}", at, Color::WHITE));
    let plain = drawn(&device, |sb| sb.draw_string(&font, "A??", at, Color::WHITE));
    assert_eq!(subst, plain);
    assert_image(&subst, &Model::new().render("A??", 2, 3, Color::WHITE, (w, h)), w, 0);
    // The option refuses a default the ranges do not hold.
    let bad = FontOptions { default_character: Some('é'), ..options() };
    assert!(matches!(
        SpriteFont::from_bytes(&device, FONT, &bad),
        Err(XnaError::Argument { param: "options", .. })
    ));
}

#[test]
fn character_ranges_choose_the_glyphs() {
    let _v = Validation::new();
    let device = device(8, 8);
    let opts = FontOptions { character_ranges: vec!['0'..='9', 'é'..='é'], ..options() };
    let font = SpriteFont::from_bytes(&device, FONT, &opts).unwrap();
    let mut want: Vec<char> = ('0'..='9').collect();
    want.push('é');
    assert_eq!(font.characters(), want);
    assert!(font.measure_string("é9").is_ok());
    assert!(matches!(font.measure_string("A"), Err(XnaError::Argument { param: "text", .. })));
    // A range of characters the font lacks leaves nothing to build.
    let none = FontOptions { character_ranges: vec!['\u{E000}'..='\u{E001}'], ..options() };
    assert!(matches!(
        SpriteFont::from_bytes(&device, FONT, &none),
        Err(XnaError::Argument { param: "options", .. })
    ));
    for size_px in [0.0, -3.0, f32::NAN] {
        assert!(matches!(
            SpriteFont::from_bytes(&device, FONT, &FontOptions { size_px, ..options() }),
            Err(XnaError::ArgumentOutOfRange { param: "options", .. })
        ));
    }
    // The atlas holds premultiplied white coverage.
    let atlas = font.texture();
    let mut texels = vec![Color::TRANSPARENT; (atlas.width() * atlas.height()) as usize];
    atlas.get_data(&mut texels).unwrap();
    assert!(texels.iter().all(|c| c.r == c.a && c.g == c.a && c.b == c.a));
    assert!(texels.iter().any(|c| c.a == 255));
}

#[test]
fn bad_font_files_are_errors_naming_the_file() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = std::env::temp_dir().join(format!("xnagraph-sprite-font-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let garbage = dir.join("notes.ttf");
    std::fs::write(&garbage, b"this is not a font at all, just text").unwrap();
    let truncated = dir.join("cut.ttf");
    std::fs::write(&truncated, &FONT[..300]).unwrap();
    for path in [&garbage, &truncated] {
        match SpriteFont::from_file(&device, path, &options()) {
            Err(XnaError::InvalidOperation { message }) => {
                let name = path.file_name().unwrap().to_str().unwrap();
                assert!(
                    message.contains(name) && message.contains("Could not load a font"),
                    "{message}"
                );
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
    }
    match SpriteFont::from_file(&device, dir.join("missing.ttf"), &options()) {
        Err(e @ XnaError::Io { .. }) => {
            assert!(e.message().contains("missing.ttf"), "{e}");
            let cause = std::error::Error::source(&e).and_then(|c| c.downcast_ref());
            assert_eq!(cause.map(std::io::Error::kind), Some(std::io::ErrorKind::NotFound));
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    let from_stream = SpriteFont::from_stream(&device, FONT, &options()).unwrap();
    assert_eq!(
        from_stream.measure_string("AV").unwrap(),
        font(&device).measure_string("AV").unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
