//! `SpriteFont`, built at load time from a TrueType/OpenType file (each character of the chosen
//! ranges rasterised by `fontdue` into one glyph atlas) or from the parts XNA's content pipeline
//! stores (a compiled `.xnb` font: texture, glyph and cropping rectangles, characters, kerning
//! triples), and XNA's text layout (`MeasureString`, and the glyph placement
//! `SpriteBatch::draw_string` draws).
//!
//! Rules kept here: a glyph's metrics are XNA's A/B/C widths (its `Kerning` triple: left side
//! bearing, width, right side bearing); the first glyph of a line starts its pen at
//! `max(left bearing, 0)`, every later one adds `Spacing` and its left bearing (and, for a
//! TrueType font, the pair's kerning); the glyph's bitmap is drawn at the pen plus its cropping
//! rectangle's offset; a line is as wide as its pen after the last glyph's width plus that
//! glyph's positive right bearing; the last line is as tall as `LineSpacing` or its tallest
//! cropping rectangle; `'\n'` starts a line `LineSpacing` lower and `'\r'` is skipped. A
//! character outside the font resolves to `DefaultCharacter` or is an `ArgumentException` for
//! `text`.

use std::io::Read;
use std::ops::RangeInclusive;
use std::path::Path;

use crate::device::GraphicsDevice;
use crate::error::{Result, XnaError};
use crate::math::{Color, Rectangle, Vector2, Vector3};
use crate::resources::texture::Texture2D;

/// How a [`SpriteFont`] is built from a font file (not XNA: the settings of XNA's
/// `.spritefont` description, which its content pipeline reads at build time, in pixels).
#[derive(Clone, Debug, PartialEq)]
pub struct FontOptions {
    /// The em size in pixels (XNA's `Size` is in points at 96 DPI: pixels = points × 4/3).
    pub size_px: f32,
    /// The characters to rasterise (XNA's `CharacterRegions`); characters the font lacks are
    /// left out. Printable ASCII by default.
    pub character_ranges: Vec<RangeInclusive<char>>,
    /// `DefaultCharacter`: drawn in place of a character the font cannot resolve.
    pub default_character: Option<char>,
    /// `Spacing`: pixels added between adjacent glyphs.
    pub spacing: f32,
    /// `LineSpacing`: pixels from one line's top to the next; `None` takes the font's line
    /// metrics (ascent − descent + line gap, rounded).
    pub line_spacing: Option<i32>,
}

impl Default for FontOptions {
    /// 16 px, printable ASCII (32..=126), no default character, no spacing, the font's line
    /// spacing.
    fn default() -> Self {
        FontOptions {
            size_px: 16.0,
            character_ranges: vec![' '..='~'],
            default_character: None,
            spacing: 0.0,
            line_spacing: None,
        }
    }
}

/// One glyph: where it lies in the atlas and XNA's metrics for it, in whole pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Glyph {
    /// `BoundsInTexture`: the glyph's coverage in the atlas (empty for a blank glyph).
    pub(crate) bounds: Rectangle,
    /// `Cropping.X`: the bitmap's left edge right of the pen.
    pub(crate) crop_x: f32,
    /// `Cropping.Y`: the bitmap's top below the line's top.
    pub(crate) top: f32,
    /// `Cropping.Height`: the glyph cell's height, the least height of a line holding it.
    pub(crate) crop_height: f32,
    /// XNA's `Kerning.X`: the left side bearing.
    pub(crate) left: f32,
    /// XNA's `Kerning.Y`: the bitmap's width.
    pub(crate) width: f32,
    /// XNA's `Kerning.Z`: the right side bearing.
    pub(crate) right: f32,
}

/// A glyph placed by the layout: its atlas bounds and its bitmap's top-left corner in the
/// string's own space (before origin, scale, rotation and flips).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Placed {
    pub(crate) bounds: Rectangle,
    pub(crate) x: f32,
    pub(crate) y: f32,
}

/// XNA's `SpriteFont`: glyphs rasterised into one atlas texture, drawn by
/// [`SpriteBatch::draw_string`](crate::SpriteBatch::draw_string) and measured by
/// [`SpriteFont::measure_string`].
///
/// Built from a TrueType/OpenType file at load time ([`SpriteFont::from_file`]), from the parts
/// of a compiled XNA font ([`SpriteFont::from_parts`]), or loaded from an `.xnb` file by
/// [`ContentManager`](crate::ContentManager). A TrueType atlas holds premultiplied white glyphs
/// (each texel's coverage in all four channels), so the tint of `DrawString` colours them as
/// XNA's fonts are coloured. Where a TrueType font differs from XNA: pair kerning from the
/// font's `kern` table is applied between adjacent glyphs (XNA's fonts carry per-glyph A/B/C
/// widths only); a font from parts is laid out exactly as XNA lays out its compiled fonts.
pub struct SpriteFont {
    texture: Texture2D,
    /// The resolved characters, sorted; `glyphs[i]` belongs to `characters[i]`.
    characters: Vec<char>,
    glyphs: Vec<Glyph>,
    default_character: Option<char>,
    spacing: f32,
    line_spacing: i32,
    /// The TrueType font and pixel size pair kerning is read from; `None` for a font built
    /// from parts.
    font: Option<(fontdue::Font, f32)>,
}

/// A font that cannot be read, as XNA's `InvalidOperationException`, naming the source.
fn font_error(source: &str, what: impl std::fmt::Display) -> XnaError {
    let what = what.to_string();
    let what = what.trim_end_matches('.');
    XnaError::invalid_operation(format!("Could not load a font from {source}: {what}."))
}

/// XNA's message for a character that is not in the font.
fn unresolvable(c: char) -> String {
    format!(
        "The character '{c}' (0x{:04X}) is not available in this SpriteFont. If applicable, \
         adjust the font's start and end CharacterRegions to include this character.",
        c as u32
    )
}

/// A rasterised glyph before packing.
struct Bitmap {
    character: char,
    metrics: fontdue::Metrics,
    coverage: Vec<u8>,
}

/// Shelf packing: each bitmap's top-left corner in an atlas `width` texels wide (one texel of
/// gap between glyphs), and the atlas height.
fn pack(bitmaps: &[Bitmap], width: usize) -> (Vec<(usize, usize)>, usize) {
    let (mut x, mut y, mut shelf) = (0, 0, 0);
    let mut corners = Vec::with_capacity(bitmaps.len());
    for b in bitmaps {
        let (w, h) = (b.metrics.width, b.metrics.height);
        if x + w > width {
            (x, y, shelf) = (0, y + shelf + 1, 0);
        }
        corners.push((x, y));
        x += w + 1;
        shelf = shelf.max(h);
    }
    (corners, (y + shelf).max(1))
}

impl SpriteFont {
    /// Builds a font from a TrueType/OpenType file at run time (not XNA, whose fonts are
    /// built by the content pipeline).
    ///
    /// Every error names the file: one that cannot be read is [`XnaError::Io`] whose source is
    /// the `std::io::Error`, one that is not a font `InvalidOperation` saying what is wrong;
    /// see [`SpriteFont::from_bytes`] for the options' rules.
    pub fn from_file(
        device: &GraphicsDevice,
        path: impl AsRef<Path>,
        options: &FontOptions,
    ) -> Result<SpriteFont> {
        let path = path.as_ref();
        let data = std::fs::read(path)
            .map_err(|e| XnaError::io(format!("Could not read '{}'", path.display()), e))?;
        Self::build(device, &data, &format!("'{}'", path.display()), options)
    }

    /// Builds a font from a stream holding a TrueType/OpenType file, read to its end (not
    /// XNA); a stream that fails to read is [`XnaError::Io`] with the stream's error, the
    /// rest as [`SpriteFont::from_bytes`].
    pub fn from_stream(
        device: &GraphicsDevice,
        mut stream: impl Read,
        options: &FontOptions,
    ) -> Result<SpriteFont> {
        let mut data = Vec::new();
        stream.read_to_end(&mut data).map_err(|e| XnaError::io("Reading the stream failed", e))?;
        Self::build(device, &data, "the stream", options)
    }

    /// Builds a font from the bytes of a TrueType/OpenType file (not XNA).
    ///
    /// Errors: a disposed device is `ObjectDisposed`; data that is not a font is
    /// `InvalidOperation` with the parser's message; a size that is not finite and positive, a
    /// spacing that is not finite, or a negative line spacing is `ArgumentOutOfRange` on
    /// `options`; no character of the ranges in the font, or a default character that is not
    /// among them, is `Argument` on `options`; an atlas beyond the profile's texture size is
    /// `NotSupported`.
    pub fn from_bytes(
        device: &GraphicsDevice,
        data: &[u8],
        options: &FontOptions,
    ) -> Result<SpriteFont> {
        Self::build(device, data, "the data", options)
    }

    fn build(
        device: &GraphicsDevice,
        data: &[u8],
        source: &str,
        options: &FontOptions,
    ) -> Result<SpriteFont> {
        device.shared.check_alive()?;
        let px = options.size_px;
        if !(px.is_finite() && px > 0.0) {
            return Err(XnaError::out_of_range(
                "options",
                format!("The font size must be finite and positive, not {px}."),
            ));
        }
        if !options.spacing.is_finite() {
            return Err(XnaError::out_of_range("options", "The spacing must be finite."));
        }
        if options.line_spacing.is_some_and(|s| s < 0) {
            return Err(XnaError::out_of_range(
                "options",
                "The line spacing must not be negative.",
            ));
        }
        let settings = fontdue::FontSettings { scale: px, ..fontdue::FontSettings::default() };
        let font = fontdue::Font::from_bytes(data, settings).map_err(|e| font_error(source, e))?;
        let lines = font
            .horizontal_line_metrics(px)
            .ok_or_else(|| font_error(source, "the font has no horizontal line metrics"))?;
        let ascent = lines.ascent.round();
        let cell_height = lines.new_line_size.round();
        let mut characters: Vec<char> = options
            .character_ranges
            .iter()
            .flat_map(|r| r.clone())
            .filter(|&c| font.has_glyph(c))
            .collect();
        characters.sort_unstable();
        characters.dedup();
        if characters.is_empty() {
            return Err(XnaError::argument(
                "options",
                "None of the character ranges' characters is in the font.",
            ));
        }
        if let Some(d) = options.default_character {
            if characters.binary_search(&d).is_err() {
                return Err(XnaError::argument("options", unresolvable(d)));
            }
        }
        let bitmaps: Vec<Bitmap> = characters
            .iter()
            .map(|&character| {
                let (metrics, coverage) = font.rasterize(character, px);
                Bitmap { character, metrics, coverage }
            })
            .collect();
        // An atlas about square: as wide as the glyphs' area needs, at least the widest glyph.
        let area: usize =
            bitmaps.iter().map(|b| (b.metrics.width + 1) * (b.metrics.height + 1)).sum();
        let widest = bitmaps.iter().map(|b| b.metrics.width).max().unwrap_or(0);
        let width = ((area as f64).sqrt().ceil() as usize).max(widest).max(1);
        let (corners, height) = pack(&bitmaps, width);
        let atlas = Texture2D::new(device, width as i32, height as i32)?;
        let mut texels = vec![Color::TRANSPARENT; width * height];
        let mut glyphs = Vec::with_capacity(bitmaps.len());
        for (b, &(x, y)) in bitmaps.iter().zip(&corners) {
            let m = &b.metrics;
            for (row, line) in b.coverage.chunks_exact(m.width.max(1)).enumerate().take(m.height) {
                for (col, &c) in line.iter().enumerate() {
                    texels[(y + row) * width + x + col] = Color::new(c, c, c, c);
                }
            }
            let advance = m.advance_width.round();
            let (left, w) = (m.xmin as f32, m.width as f32);
            debug_assert!(b.character == characters[glyphs.len()]);
            glyphs.push(Glyph {
                bounds: Rectangle::new(x as i32, y as i32, m.width as i32, m.height as i32),
                crop_x: 0.0,
                top: ascent - (m.ymin + m.height as i32) as f32,
                crop_height: cell_height,
                left,
                width: w,
                right: advance - left - w,
            });
        }
        atlas.set_data(&texels)?;
        Ok(SpriteFont {
            texture: atlas,
            characters,
            glyphs,
            default_character: options.default_character,
            spacing: options.spacing,
            line_spacing: options.line_spacing.unwrap_or(cell_height as i32),
            font: Some((font, px)),
        })
    }

    /// A font from the parts XNA's content pipeline compiles (MonoGame's public `SpriteFont`
    /// constructor; XNA's is internal to its `SpriteFontReader`): the glyph `texture`, and per
    /// character (in any order) its `glyph_bounds` in the texture, its `cropping` rectangle
    /// (the bitmap's offset from the pen and the cell's height) and its `kerning` triple (left
    /// side bearing, width, right side bearing), with the font's `line_spacing`, `spacing` and
    /// `default_character`. It is laid out and drawn exactly as XNA draws its compiled fonts
    /// (module documentation); the texture is drawn as stored.
    ///
    /// Errors (`Argument`, naming the parameter): lists of different lengths, no characters,
    /// a character listed twice, a default character that is not listed; a spacing that is not
    /// finite is `ArgumentOutOfRange`.
    #[allow(clippy::too_many_arguments)] // MonoGame's constructor.
    pub fn from_parts(
        texture: Texture2D,
        glyph_bounds: &[Rectangle],
        cropping: &[Rectangle],
        characters: &[char],
        line_spacing: i32,
        spacing: f32,
        kerning: &[Vector3],
        default_character: Option<char>,
    ) -> Result<SpriteFont> {
        let n = characters.len();
        if n == 0 {
            return Err(XnaError::argument("characters", "A SpriteFont needs characters."));
        }
        for (param, len) in [
            ("glyphBounds", glyph_bounds.len()),
            ("cropping", cropping.len()),
            ("kerning", kerning.len()),
        ] {
            if len != n {
                return Err(XnaError::argument(
                    param,
                    format!("{param} holds {len} entries for {n} characters."),
                ));
            }
        }
        if !spacing.is_finite() {
            return Err(XnaError::out_of_range("spacing", "The spacing must be finite."));
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| characters[i]);
        if let Some(w) = order.windows(2).find(|w| characters[w[0]] == characters[w[1]]) {
            let c = characters[w[0]];
            return Err(XnaError::argument(
                "characters",
                format!("The character '{c}' (0x{:04X}) is listed twice.", c as u32),
            ));
        }
        let sorted: Vec<char> = order.iter().map(|&i| characters[i]).collect();
        if let Some(d) = default_character {
            if sorted.binary_search(&d).is_err() {
                return Err(XnaError::argument("defaultCharacter", unresolvable(d)));
            }
        }
        let glyphs = order
            .iter()
            .map(|&i| {
                let (crop, k) = (cropping[i], kerning[i]);
                Glyph {
                    bounds: glyph_bounds[i],
                    crop_x: crop.x as f32,
                    top: crop.y as f32,
                    crop_height: crop.height as f32,
                    left: k.x,
                    width: k.y,
                    right: k.z,
                }
            })
            .collect();
        Ok(SpriteFont {
            texture,
            characters: sorted,
            glyphs,
            default_character,
            spacing,
            line_spacing,
            font: None,
        })
    }

    /// XNA's `SpriteFont.Characters`: every character the font resolves, in order.
    pub fn characters(&self) -> &[char] {
        &self.characters
    }

    /// XNA's `SpriteFont.DefaultCharacter`: drawn for a character the font lacks; `None` (XNA's
    /// null) makes such a character an error.
    pub fn default_character(&self) -> Option<char> {
        self.default_character
    }

    /// Sets XNA's `SpriteFont.DefaultCharacter`. A character the font does not hold is
    /// `Argument` on `value` with XNA's message, and leaves the font unchanged.
    pub fn set_default_character(&mut self, value: Option<char>) -> Result<()> {
        if let Some(c) = value {
            if self.characters.binary_search(&c).is_err() {
                return Err(XnaError::argument("value", unresolvable(c)));
            }
        }
        self.default_character = value;
        Ok(())
    }

    /// XNA's `SpriteFont.LineSpacing`: pixels from one line's top to the next.
    pub fn line_spacing(&self) -> i32 {
        self.line_spacing
    }

    /// Sets XNA's `SpriteFont.LineSpacing` (any value, as XNA).
    pub fn set_line_spacing(&mut self, value: i32) {
        self.line_spacing = value;
    }

    /// XNA's `SpriteFont.Spacing`: pixels added between adjacent glyphs.
    pub fn spacing(&self) -> f32 {
        self.spacing
    }

    /// Sets XNA's `SpriteFont.Spacing` (any value, as XNA).
    pub fn set_spacing(&mut self, value: f32) {
        self.spacing = value;
    }

    /// The glyph atlas (not XNA, which keeps its `Texture` internal; MonoGame's
    /// `SpriteFont.Texture`): for a TrueType font, premultiplied white coverage.
    pub fn texture(&self) -> &Texture2D {
        &self.texture
    }

    /// The glyph for `c`, or the default character's; `None` when neither resolves.
    fn glyph(&self, c: char) -> Option<(char, &Glyph)> {
        let found = |c| self.characters.binary_search(&c).ok().map(|i| (c, &self.glyphs[i]));
        found(c).or_else(|| self.default_character.and_then(found))
    }

    /// The pair kerning between two resolved characters of a TrueType font, in whole pixels
    /// (none for a font from parts, as XNA's).
    fn kerning(&self, left: char, right: char) -> f32 {
        let Some((font, px)) = &self.font else { return 0.0 };
        font.horizontal_kern(left, right, *px).map_or(0.0, f32::round)
    }

    /// XNA's layout of `text`: each visible glyph's place, and the string's size
    /// (`MeasureString`). A character that resolves to nothing is `Argument` for `text`.
    pub(crate) fn layout(&self, text: &str) -> Result<(Vec<Placed>, Vector2)> {
        let mut placed = Vec::with_capacity(text.len());
        if text.is_empty() {
            return Ok((placed, Vector2::ZERO));
        }
        let line_spacing = self.line_spacing as f32;
        let (mut x, mut y, mut width) = (0.0f32, 0.0f32, 0.0f32);
        let mut line_height = line_spacing;
        let mut previous: Option<char> = None;
        for c in text.chars() {
            match c {
                '\r' => continue,
                '\n' => {
                    (x, previous, line_height) = (0.0, None, line_spacing);
                    y += line_spacing;
                    continue;
                }
                _ => {}
            }
            let (resolved, glyph) = self.glyph(c).ok_or_else(|| {
                XnaError::argument(
                    "text",
                    "Text contains characters that cannot be resolved by this SpriteFont.",
                )
            })?;
            match previous {
                // The first glyph of a line never hangs off its left edge.
                None => x = glyph.left.max(0.0),
                Some(p) => x += self.spacing + self.kerning(p, resolved) + glyph.left,
            }
            if glyph.bounds.width > 0 && glyph.bounds.height > 0 {
                placed.push(Placed { bounds: glyph.bounds, x: x + glyph.crop_x, y: y + glyph.top });
            }
            x += glyph.width;
            width = width.max(x + glyph.right.max(0.0));
            x += glyph.right;
            line_height = line_height.max(glyph.crop_height);
            previous = Some(resolved);
        }
        Ok((placed, Vector2::new(width, y + line_height)))
    }

    /// XNA's `SpriteFont.MeasureString(text)`: the size of `text` drawn at scale 1, XNA's
    /// rules (module documentation): the widest line's width, and the lines' height
    /// (`LineSpacing` per line break, the last line as tall as its tallest glyph cell or
    /// `LineSpacing`). Empty text
    /// measures zero. A character the font cannot resolve with no `DefaultCharacter` is
    /// `Argument` on `text` with XNA's message.
    pub fn measure_string(&self, text: &str) -> Result<Vector2> {
        self.layout(text).map(|(_, size)| size)
    }
}
