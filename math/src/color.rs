//! `Color`: four bytes R, G, B, A (premultiplied alpha by XNA 4.0's convention), as stored in
//! `SurfaceFormat::Color` textures, with XNA's float conversions (rounded to the nearest byte,
//! ties to even, clamped), scaling and interpolation (truncated, as XNA's), the
//! non-premultiplied constructors, the packed `u32` and all of XNA's named colours.

use crate::{Vector3, Vector4};

/// XNA's `Color`: four bytes, R G B A, as stored in `SurfaceFormat::Color` textures.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Color {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Alpha (255 is opaque).
    pub a: u8,
}

/// A float in [0, 1] to a byte as XNA packs it: scaled by 255, clamped, rounded to the nearest
/// (ties to even, .NET's `Math.Round`); NaN packs to 0.
fn unorm8(v: f32) -> u8 {
    let v = v * 255.0;
    if v.is_nan() {
        0
    } else {
        v.clamp(0.0, 255.0).round_ties_even() as u8
    }
}

/// An integer clamped into a byte, as XNA's integer constructors do.
fn clamp8(v: i32) -> u8 {
    v.clamp(0, 255) as u8
}

impl Color {
    /// `new Color(r, g, b, a)` from bytes.
    pub const fn new(r: u8, g: u8, b: u8, a: u8) -> Self {
        Color { r, g, b, a }
    }

    /// `new Color(r, g, b)` from bytes, opaque.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Color { r, g, b, a: 255 }
    }

    /// `new Color(int r, int g, int b, int a)`: each value clamped to [0, 255].
    pub fn from_ints(r: i32, g: i32, b: i32, a: i32) -> Self {
        Color::new(clamp8(r), clamp8(g), clamp8(b), clamp8(a))
    }

    /// `new Color(float r, float g, float b, float a)`: floats in [0, 1], clamped, rounded to
    /// the nearest byte (ties to even) as XNA packs them.
    pub fn from_floats(r: f32, g: f32, b: f32, a: f32) -> Self {
        Color::new(unorm8(r), unorm8(g), unorm8(b), unorm8(a))
    }

    /// `new Color(Vector3)`: opaque, components as in [`from_floats`](Self::from_floats).
    pub fn from_vector3(v: Vector3) -> Self {
        Color::from_floats(v.x, v.y, v.z, 1.0)
    }

    /// `new Color(Vector4)`: components as in [`from_floats`](Self::from_floats).
    pub fn from_vector4(v: Vector4) -> Self {
        Color::from_floats(v.x, v.y, v.z, v.w)
    }

    /// A colour from XNA's packed form (R in the low byte, A in the high byte), the inverse
    /// of [`packed_value`](Self::packed_value).
    pub const fn from_packed(value: u32) -> Self {
        let [r, g, b, a] = value.to_le_bytes();
        Color { r, g, b, a }
    }

    /// `Color.PackedValue`: R in the low byte, then G, B, and A in the high byte (the byte
    /// order in memory is R, G, B, A on a little-endian machine).
    pub const fn packed_value(self) -> u32 {
        u32::from_le_bytes([self.r, self.g, self.b, self.a])
    }

    /// `Color.ToVector3()`: R, G, B divided by 255.
    pub fn to_vector3(self) -> Vector3 {
        let [r, g, b, _] = self.to_floats();
        Vector3::new(r, g, b)
    }

    /// `Color.ToVector4()`: each channel divided by 255.
    pub fn to_vector4(self) -> Vector4 {
        let [r, g, b, a] = self.to_floats();
        Vector4::new(r, g, b, a)
    }

    /// [`to_vector4`](Self::to_vector4) as an array, the form the clear and effect calls take.
    pub fn to_floats(self) -> [f32; 4] {
        [self.r, self.g, self.b, self.a].map(|c| f32::from(c) / 255.0)
    }

    /// `Color.Multiply(value, scale)` (`Color * float`): every channel, alpha included, times
    /// `scale`, truncated towards zero and clamped to [0, 255], as XNA computes it.
    pub fn multiply(self, scale: f32) -> Self {
        let s = |c: u8| clamp8((f32::from(c) * scale) as i32);
        Color::new(s(self.r), s(self.g), s(self.b), s(self.a))
    }

    /// The same as [`multiply`](Self::multiply), the name this type had before.
    pub fn scaled(self, s: f32) -> Self {
        self.multiply(s)
    }

    /// `Color.Lerp(value1, value2, amount)`: per channel, the amount clamped to [0, 1] and the
    /// blend truncated towards zero, as XNA computes it.
    pub fn lerp(self, value2: Color, amount: f32) -> Self {
        let t = amount.clamp(0.0, 1.0);
        let l = |a: u8, b: u8| crate::MathHelper::lerp(f32::from(a), f32::from(b), t) as u8;
        Color::new(
            l(self.r, value2.r),
            l(self.g, value2.g),
            l(self.b, value2.b),
            l(self.a, value2.a),
        )
    }

    /// `Color.FromNonPremultiplied(r, g, b, a)`: each of R, G, B multiplied by `a / 255`
    /// (integer division), then all four clamped to [0, 255].
    pub fn from_non_premultiplied(r: i32, g: i32, b: i32, a: i32) -> Self {
        Color::from_ints(r * a / 255, g * a / 255, b * a / 255, a)
    }

    /// `Color.FromNonPremultiplied(vector)`: x, y, z multiplied by w, then packed as
    /// [`from_floats`](Self::from_floats).
    pub fn from_non_premultiplied_vector(vector: Vector4) -> Self {
        let w = vector.w;
        Color::from_floats(vector.x * w, vector.y * w, vector.z * w, w)
    }
}

impl std::ops::Mul<f32> for Color {
    type Output = Color;
    /// `color * scale`: see [`Color::multiply`].
    fn mul(self, scale: f32) -> Color {
        self.multiply(scale)
    }
}

impl std::ops::Mul<Color> for f32 {
    type Output = Color;
    /// `scale * color`: see [`Color::multiply`].
    fn mul(self, color: Color) -> Color {
        color.multiply(self)
    }
}

/// XNA's named colours. `Transparent` is (0, 0, 0, 0) as XNA 4.0 defines it (premultiplied);
/// `TransparentBlack` is its older name.
impl Color {
    /// `Color.Transparent`: (0, 0, 0, 0).
    pub const TRANSPARENT: Color = Color::new(0, 0, 0, 0);
    /// `Color.AliceBlue`: (240, 248, 255, 255).
    pub const ALICE_BLUE: Color = Color::new(240, 248, 255, 255);
    /// `Color.AntiqueWhite`: (250, 235, 215, 255).
    pub const ANTIQUE_WHITE: Color = Color::new(250, 235, 215, 255);
    /// `Color.Aqua`: (0, 255, 255, 255).
    pub const AQUA: Color = Color::new(0, 255, 255, 255);
    /// `Color.Aquamarine`: (127, 255, 212, 255).
    pub const AQUAMARINE: Color = Color::new(127, 255, 212, 255);
    /// `Color.Azure`: (240, 255, 255, 255).
    pub const AZURE: Color = Color::new(240, 255, 255, 255);
    /// `Color.Beige`: (245, 245, 220, 255).
    pub const BEIGE: Color = Color::new(245, 245, 220, 255);
    /// `Color.Bisque`: (255, 228, 196, 255).
    pub const BISQUE: Color = Color::new(255, 228, 196, 255);
    /// `Color.Black`: (0, 0, 0, 255).
    pub const BLACK: Color = Color::new(0, 0, 0, 255);
    /// `Color.BlanchedAlmond`: (255, 235, 205, 255).
    pub const BLANCHED_ALMOND: Color = Color::new(255, 235, 205, 255);
    /// `Color.Blue`: (0, 0, 255, 255).
    pub const BLUE: Color = Color::new(0, 0, 255, 255);
    /// `Color.BlueViolet`: (138, 43, 226, 255).
    pub const BLUE_VIOLET: Color = Color::new(138, 43, 226, 255);
    /// `Color.Brown`: (165, 42, 42, 255).
    pub const BROWN: Color = Color::new(165, 42, 42, 255);
    /// `Color.BurlyWood`: (222, 184, 135, 255).
    pub const BURLY_WOOD: Color = Color::new(222, 184, 135, 255);
    /// `Color.CadetBlue`: (95, 158, 160, 255).
    pub const CADET_BLUE: Color = Color::new(95, 158, 160, 255);
    /// `Color.Chartreuse`: (127, 255, 0, 255).
    pub const CHARTREUSE: Color = Color::new(127, 255, 0, 255);
    /// `Color.Chocolate`: (210, 105, 30, 255).
    pub const CHOCOLATE: Color = Color::new(210, 105, 30, 255);
    /// `Color.Coral`: (255, 127, 80, 255).
    pub const CORAL: Color = Color::new(255, 127, 80, 255);
    /// `Color.CornflowerBlue`: (100, 149, 237, 255).
    pub const CORNFLOWER_BLUE: Color = Color::new(100, 149, 237, 255);
    /// `Color.Cornsilk`: (255, 248, 220, 255).
    pub const CORNSILK: Color = Color::new(255, 248, 220, 255);
    /// `Color.Crimson`: (220, 20, 60, 255).
    pub const CRIMSON: Color = Color::new(220, 20, 60, 255);
    /// `Color.Cyan`: (0, 255, 255, 255).
    pub const CYAN: Color = Color::new(0, 255, 255, 255);
    /// `Color.DarkBlue`: (0, 0, 139, 255).
    pub const DARK_BLUE: Color = Color::new(0, 0, 139, 255);
    /// `Color.DarkCyan`: (0, 139, 139, 255).
    pub const DARK_CYAN: Color = Color::new(0, 139, 139, 255);
    /// `Color.DarkGoldenrod`: (184, 134, 11, 255).
    pub const DARK_GOLDENROD: Color = Color::new(184, 134, 11, 255);
    /// `Color.DarkGray`: (169, 169, 169, 255).
    pub const DARK_GRAY: Color = Color::new(169, 169, 169, 255);
    /// `Color.DarkGreen`: (0, 100, 0, 255).
    pub const DARK_GREEN: Color = Color::new(0, 100, 0, 255);
    /// `Color.DarkKhaki`: (189, 183, 107, 255).
    pub const DARK_KHAKI: Color = Color::new(189, 183, 107, 255);
    /// `Color.DarkMagenta`: (139, 0, 139, 255).
    pub const DARK_MAGENTA: Color = Color::new(139, 0, 139, 255);
    /// `Color.DarkOliveGreen`: (85, 107, 47, 255).
    pub const DARK_OLIVE_GREEN: Color = Color::new(85, 107, 47, 255);
    /// `Color.DarkOrange`: (255, 140, 0, 255).
    pub const DARK_ORANGE: Color = Color::new(255, 140, 0, 255);
    /// `Color.DarkOrchid`: (153, 50, 204, 255).
    pub const DARK_ORCHID: Color = Color::new(153, 50, 204, 255);
    /// `Color.DarkRed`: (139, 0, 0, 255).
    pub const DARK_RED: Color = Color::new(139, 0, 0, 255);
    /// `Color.DarkSalmon`: (233, 150, 122, 255).
    pub const DARK_SALMON: Color = Color::new(233, 150, 122, 255);
    /// `Color.DarkSeaGreen`: (143, 188, 139, 255).
    pub const DARK_SEA_GREEN: Color = Color::new(143, 188, 139, 255);
    /// `Color.DarkSlateBlue`: (72, 61, 139, 255).
    pub const DARK_SLATE_BLUE: Color = Color::new(72, 61, 139, 255);
    /// `Color.DarkSlateGray`: (47, 79, 79, 255).
    pub const DARK_SLATE_GRAY: Color = Color::new(47, 79, 79, 255);
    /// `Color.DarkTurquoise`: (0, 206, 209, 255).
    pub const DARK_TURQUOISE: Color = Color::new(0, 206, 209, 255);
    /// `Color.DarkViolet`: (148, 0, 211, 255).
    pub const DARK_VIOLET: Color = Color::new(148, 0, 211, 255);
    /// `Color.DeepPink`: (255, 20, 147, 255).
    pub const DEEP_PINK: Color = Color::new(255, 20, 147, 255);
    /// `Color.DeepSkyBlue`: (0, 191, 255, 255).
    pub const DEEP_SKY_BLUE: Color = Color::new(0, 191, 255, 255);
    /// `Color.DimGray`: (105, 105, 105, 255).
    pub const DIM_GRAY: Color = Color::new(105, 105, 105, 255);
    /// `Color.DodgerBlue`: (30, 144, 255, 255).
    pub const DODGER_BLUE: Color = Color::new(30, 144, 255, 255);
    /// `Color.Firebrick`: (178, 34, 34, 255).
    pub const FIREBRICK: Color = Color::new(178, 34, 34, 255);
    /// `Color.FloralWhite`: (255, 250, 240, 255).
    pub const FLORAL_WHITE: Color = Color::new(255, 250, 240, 255);
    /// `Color.ForestGreen`: (34, 139, 34, 255).
    pub const FOREST_GREEN: Color = Color::new(34, 139, 34, 255);
    /// `Color.Fuchsia`: (255, 0, 255, 255).
    pub const FUCHSIA: Color = Color::new(255, 0, 255, 255);
    /// `Color.Gainsboro`: (220, 220, 220, 255).
    pub const GAINSBORO: Color = Color::new(220, 220, 220, 255);
    /// `Color.GhostWhite`: (248, 248, 255, 255).
    pub const GHOST_WHITE: Color = Color::new(248, 248, 255, 255);
    /// `Color.Gold`: (255, 215, 0, 255).
    pub const GOLD: Color = Color::new(255, 215, 0, 255);
    /// `Color.Goldenrod`: (218, 165, 32, 255).
    pub const GOLDENROD: Color = Color::new(218, 165, 32, 255);
    /// `Color.Gray`: (128, 128, 128, 255).
    pub const GRAY: Color = Color::new(128, 128, 128, 255);
    /// `Color.Green`: (0, 128, 0, 255).
    pub const GREEN: Color = Color::new(0, 128, 0, 255);
    /// `Color.GreenYellow`: (173, 255, 47, 255).
    pub const GREEN_YELLOW: Color = Color::new(173, 255, 47, 255);
    /// `Color.Honeydew`: (240, 255, 240, 255).
    pub const HONEYDEW: Color = Color::new(240, 255, 240, 255);
    /// `Color.HotPink`: (255, 105, 180, 255).
    pub const HOT_PINK: Color = Color::new(255, 105, 180, 255);
    /// `Color.IndianRed`: (205, 92, 92, 255).
    pub const INDIAN_RED: Color = Color::new(205, 92, 92, 255);
    /// `Color.Indigo`: (75, 0, 130, 255).
    pub const INDIGO: Color = Color::new(75, 0, 130, 255);
    /// `Color.Ivory`: (255, 255, 240, 255).
    pub const IVORY: Color = Color::new(255, 255, 240, 255);
    /// `Color.Khaki`: (240, 230, 140, 255).
    pub const KHAKI: Color = Color::new(240, 230, 140, 255);
    /// `Color.Lavender`: (230, 230, 250, 255).
    pub const LAVENDER: Color = Color::new(230, 230, 250, 255);
    /// `Color.LavenderBlush`: (255, 240, 245, 255).
    pub const LAVENDER_BLUSH: Color = Color::new(255, 240, 245, 255);
    /// `Color.LawnGreen`: (124, 252, 0, 255).
    pub const LAWN_GREEN: Color = Color::new(124, 252, 0, 255);
    /// `Color.LemonChiffon`: (255, 250, 205, 255).
    pub const LEMON_CHIFFON: Color = Color::new(255, 250, 205, 255);
    /// `Color.LightBlue`: (173, 216, 230, 255).
    pub const LIGHT_BLUE: Color = Color::new(173, 216, 230, 255);
    /// `Color.LightCoral`: (240, 128, 128, 255).
    pub const LIGHT_CORAL: Color = Color::new(240, 128, 128, 255);
    /// `Color.LightCyan`: (224, 255, 255, 255).
    pub const LIGHT_CYAN: Color = Color::new(224, 255, 255, 255);
    /// `Color.LightGoldenrodYellow`: (250, 250, 210, 255).
    pub const LIGHT_GOLDENROD_YELLOW: Color = Color::new(250, 250, 210, 255);
    /// `Color.LightGray`: (211, 211, 211, 255).
    pub const LIGHT_GRAY: Color = Color::new(211, 211, 211, 255);
    /// `Color.LightGreen`: (144, 238, 144, 255).
    pub const LIGHT_GREEN: Color = Color::new(144, 238, 144, 255);
    /// `Color.LightPink`: (255, 182, 193, 255).
    pub const LIGHT_PINK: Color = Color::new(255, 182, 193, 255);
    /// `Color.LightSalmon`: (255, 160, 122, 255).
    pub const LIGHT_SALMON: Color = Color::new(255, 160, 122, 255);
    /// `Color.LightSeaGreen`: (32, 178, 170, 255).
    pub const LIGHT_SEA_GREEN: Color = Color::new(32, 178, 170, 255);
    /// `Color.LightSkyBlue`: (135, 206, 250, 255).
    pub const LIGHT_SKY_BLUE: Color = Color::new(135, 206, 250, 255);
    /// `Color.LightSlateGray`: (119, 136, 153, 255).
    pub const LIGHT_SLATE_GRAY: Color = Color::new(119, 136, 153, 255);
    /// `Color.LightSteelBlue`: (176, 196, 222, 255).
    pub const LIGHT_STEEL_BLUE: Color = Color::new(176, 196, 222, 255);
    /// `Color.LightYellow`: (255, 255, 224, 255).
    pub const LIGHT_YELLOW: Color = Color::new(255, 255, 224, 255);
    /// `Color.Lime`: (0, 255, 0, 255).
    pub const LIME: Color = Color::new(0, 255, 0, 255);
    /// `Color.LimeGreen`: (50, 205, 50, 255).
    pub const LIME_GREEN: Color = Color::new(50, 205, 50, 255);
    /// `Color.Linen`: (250, 240, 230, 255).
    pub const LINEN: Color = Color::new(250, 240, 230, 255);
    /// `Color.Magenta`: (255, 0, 255, 255).
    pub const MAGENTA: Color = Color::new(255, 0, 255, 255);
    /// `Color.Maroon`: (128, 0, 0, 255).
    pub const MAROON: Color = Color::new(128, 0, 0, 255);
    /// `Color.MediumAquamarine`: (102, 205, 170, 255).
    pub const MEDIUM_AQUAMARINE: Color = Color::new(102, 205, 170, 255);
    /// `Color.MediumBlue`: (0, 0, 205, 255).
    pub const MEDIUM_BLUE: Color = Color::new(0, 0, 205, 255);
    /// `Color.MediumOrchid`: (186, 85, 211, 255).
    pub const MEDIUM_ORCHID: Color = Color::new(186, 85, 211, 255);
    /// `Color.MediumPurple`: (147, 112, 219, 255).
    pub const MEDIUM_PURPLE: Color = Color::new(147, 112, 219, 255);
    /// `Color.MediumSeaGreen`: (60, 179, 113, 255).
    pub const MEDIUM_SEA_GREEN: Color = Color::new(60, 179, 113, 255);
    /// `Color.MediumSlateBlue`: (123, 104, 238, 255).
    pub const MEDIUM_SLATE_BLUE: Color = Color::new(123, 104, 238, 255);
    /// `Color.MediumSpringGreen`: (0, 250, 154, 255).
    pub const MEDIUM_SPRING_GREEN: Color = Color::new(0, 250, 154, 255);
    /// `Color.MediumTurquoise`: (72, 209, 204, 255).
    pub const MEDIUM_TURQUOISE: Color = Color::new(72, 209, 204, 255);
    /// `Color.MediumVioletRed`: (199, 21, 133, 255).
    pub const MEDIUM_VIOLET_RED: Color = Color::new(199, 21, 133, 255);
    /// `Color.MidnightBlue`: (25, 25, 112, 255).
    pub const MIDNIGHT_BLUE: Color = Color::new(25, 25, 112, 255);
    /// `Color.MintCream`: (245, 255, 250, 255).
    pub const MINT_CREAM: Color = Color::new(245, 255, 250, 255);
    /// `Color.MistyRose`: (255, 228, 225, 255).
    pub const MISTY_ROSE: Color = Color::new(255, 228, 225, 255);
    /// `Color.Moccasin`: (255, 228, 181, 255).
    pub const MOCCASIN: Color = Color::new(255, 228, 181, 255);
    /// `Color.NavajoWhite`: (255, 222, 173, 255).
    pub const NAVAJO_WHITE: Color = Color::new(255, 222, 173, 255);
    /// `Color.Navy`: (0, 0, 128, 255).
    pub const NAVY: Color = Color::new(0, 0, 128, 255);
    /// `Color.OldLace`: (253, 245, 230, 255).
    pub const OLD_LACE: Color = Color::new(253, 245, 230, 255);
    /// `Color.Olive`: (128, 128, 0, 255).
    pub const OLIVE: Color = Color::new(128, 128, 0, 255);
    /// `Color.OliveDrab`: (107, 142, 35, 255).
    pub const OLIVE_DRAB: Color = Color::new(107, 142, 35, 255);
    /// `Color.Orange`: (255, 165, 0, 255).
    pub const ORANGE: Color = Color::new(255, 165, 0, 255);
    /// `Color.OrangeRed`: (255, 69, 0, 255).
    pub const ORANGE_RED: Color = Color::new(255, 69, 0, 255);
    /// `Color.Orchid`: (218, 112, 214, 255).
    pub const ORCHID: Color = Color::new(218, 112, 214, 255);
    /// `Color.PaleGoldenrod`: (238, 232, 170, 255).
    pub const PALE_GOLDENROD: Color = Color::new(238, 232, 170, 255);
    /// `Color.PaleGreen`: (152, 251, 152, 255).
    pub const PALE_GREEN: Color = Color::new(152, 251, 152, 255);
    /// `Color.PaleTurquoise`: (175, 238, 238, 255).
    pub const PALE_TURQUOISE: Color = Color::new(175, 238, 238, 255);
    /// `Color.PaleVioletRed`: (219, 112, 147, 255).
    pub const PALE_VIOLET_RED: Color = Color::new(219, 112, 147, 255);
    /// `Color.PapayaWhip`: (255, 239, 213, 255).
    pub const PAPAYA_WHIP: Color = Color::new(255, 239, 213, 255);
    /// `Color.PeachPuff`: (255, 218, 185, 255).
    pub const PEACH_PUFF: Color = Color::new(255, 218, 185, 255);
    /// `Color.Peru`: (205, 133, 63, 255).
    pub const PERU: Color = Color::new(205, 133, 63, 255);
    /// `Color.Pink`: (255, 192, 203, 255).
    pub const PINK: Color = Color::new(255, 192, 203, 255);
    /// `Color.Plum`: (221, 160, 221, 255).
    pub const PLUM: Color = Color::new(221, 160, 221, 255);
    /// `Color.PowderBlue`: (176, 224, 230, 255).
    pub const POWDER_BLUE: Color = Color::new(176, 224, 230, 255);
    /// `Color.Purple`: (128, 0, 128, 255).
    pub const PURPLE: Color = Color::new(128, 0, 128, 255);
    /// `Color.Red`: (255, 0, 0, 255).
    pub const RED: Color = Color::new(255, 0, 0, 255);
    /// `Color.RosyBrown`: (188, 143, 143, 255).
    pub const ROSY_BROWN: Color = Color::new(188, 143, 143, 255);
    /// `Color.RoyalBlue`: (65, 105, 225, 255).
    pub const ROYAL_BLUE: Color = Color::new(65, 105, 225, 255);
    /// `Color.SaddleBrown`: (139, 69, 19, 255).
    pub const SADDLE_BROWN: Color = Color::new(139, 69, 19, 255);
    /// `Color.Salmon`: (250, 128, 114, 255).
    pub const SALMON: Color = Color::new(250, 128, 114, 255);
    /// `Color.SandyBrown`: (244, 164, 96, 255).
    pub const SANDY_BROWN: Color = Color::new(244, 164, 96, 255);
    /// `Color.SeaGreen`: (46, 139, 87, 255).
    pub const SEA_GREEN: Color = Color::new(46, 139, 87, 255);
    /// `Color.SeaShell`: (255, 245, 238, 255).
    pub const SEA_SHELL: Color = Color::new(255, 245, 238, 255);
    /// `Color.Sienna`: (160, 82, 45, 255).
    pub const SIENNA: Color = Color::new(160, 82, 45, 255);
    /// `Color.Silver`: (192, 192, 192, 255).
    pub const SILVER: Color = Color::new(192, 192, 192, 255);
    /// `Color.SkyBlue`: (135, 206, 235, 255).
    pub const SKY_BLUE: Color = Color::new(135, 206, 235, 255);
    /// `Color.SlateBlue`: (106, 90, 205, 255).
    pub const SLATE_BLUE: Color = Color::new(106, 90, 205, 255);
    /// `Color.SlateGray`: (112, 128, 144, 255).
    pub const SLATE_GRAY: Color = Color::new(112, 128, 144, 255);
    /// `Color.Snow`: (255, 250, 250, 255).
    pub const SNOW: Color = Color::new(255, 250, 250, 255);
    /// `Color.SpringGreen`: (0, 255, 127, 255).
    pub const SPRING_GREEN: Color = Color::new(0, 255, 127, 255);
    /// `Color.SteelBlue`: (70, 130, 180, 255).
    pub const STEEL_BLUE: Color = Color::new(70, 130, 180, 255);
    /// `Color.Tan`: (210, 180, 140, 255).
    pub const TAN: Color = Color::new(210, 180, 140, 255);
    /// `Color.Teal`: (0, 128, 128, 255).
    pub const TEAL: Color = Color::new(0, 128, 128, 255);
    /// `Color.Thistle`: (216, 191, 216, 255).
    pub const THISTLE: Color = Color::new(216, 191, 216, 255);
    /// `Color.Tomato`: (255, 99, 71, 255).
    pub const TOMATO: Color = Color::new(255, 99, 71, 255);
    /// `Color.Turquoise`: (64, 224, 208, 255).
    pub const TURQUOISE: Color = Color::new(64, 224, 208, 255);
    /// `Color.Violet`: (238, 130, 238, 255).
    pub const VIOLET: Color = Color::new(238, 130, 238, 255);
    /// `Color.Wheat`: (245, 222, 179, 255).
    pub const WHEAT: Color = Color::new(245, 222, 179, 255);
    /// `Color.White`: (255, 255, 255, 255).
    pub const WHITE: Color = Color::new(255, 255, 255, 255);
    /// `Color.WhiteSmoke`: (245, 245, 245, 255).
    pub const WHITE_SMOKE: Color = Color::new(245, 245, 245, 255);
    /// `Color.Yellow`: (255, 255, 0, 255).
    pub const YELLOW: Color = Color::new(255, 255, 0, 255);
    /// `Color.YellowGreen`: (154, 205, 50, 255).
    pub const YELLOW_GREEN: Color = Color::new(154, 205, 50, 255);
    /// `Color.TransparentBlack`: XNA 3's name for [`Color::TRANSPARENT`].
    pub const TRANSPARENT_BLACK: Color = Color::TRANSPARENT;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_constructors_round_clamp_and_match_published_values() {
        // 0.25 × 255 = 63.75 → 64; 0.5 × 255 = 127.5 → 128 (ties to even); 0.75 → 191.25 → 191.
        assert_eq!(Color::from_floats(0.25, 0.5, 0.75, 0.125), Color::new(64, 128, 191, 32));
        assert_eq!(Color::from_floats(1.1, 1.1, -0.1, -0.1), Color::new(255, 255, 0, 0));
        // 2.5/255 × 255 lands on 2.5: ties to even gives 2, not 3.
        assert_eq!(Color::from_floats(2.5 / 255.0, 0.0, 0.0, f32::NAN).r, 2);
        assert_eq!(Color::from_floats(0.0, 0.0, 0.0, f32::NAN).a, 0);
        assert_eq!(
            Color::from_vector3(Vector3::new(0.25, 0.5, 1.0)),
            Color::new(64, 128, 255, 255)
        );
        assert_eq!(
            Color::from_vector4(Vector4::new(1.0, 0.0, 0.0, 0.5)),
            Color::new(255, 0, 0, 128)
        );
        assert_eq!(Color::from_ints(256, 256, -1, 300), Color::new(255, 255, 0, 255));
        assert_eq!(Color::rgb(1, 2, 3), Color::new(1, 2, 3, 255));
    }

    #[test]
    fn multiply_truncates_and_clamps_as_xna() {
        let c = Color::new(1, 2, 3, 4);
        assert_eq!(c * 1.0, c);
        assert_eq!(c * 0.999, Color::new(0, 1, 2, 3));
        assert_eq!(0.999 * c, Color::new(0, 1, 2, 3));
        assert_eq!(c * 1.001, c);
        assert_eq!(c * -1.0, Color::TRANSPARENT);
        assert_eq!(c * 300.0, Color::WHITE);
        assert_eq!(Color::WHITE.scaled(0.5), Color::new(127, 127, 127, 127));
    }

    #[test]
    fn lerp_clamps_the_amount_and_truncates() {
        let (a, b) = (Color::new(0, 0, 0, 0), Color::new(255, 255, 255, 255));
        assert_eq!(a.lerp(b, 0.999), Color::new(254, 254, 254, 254));
        assert_eq!(a.lerp(b, 2.0), b);
        assert_eq!(a.lerp(b, -1.0), a);
        assert_eq!(a.lerp(b, 0.5), Color::new(127, 127, 127, 127));
        assert_eq!(b.lerp(a, 0.5), Color::new(127, 127, 127, 127));
    }

    #[test]
    fn non_premultiplied_constructors_scale_by_alpha() {
        assert_eq!(Color::from_non_premultiplied(255, 128, 64, 128), Color::new(128, 64, 32, 128));
        assert_eq!(Color::from_non_premultiplied(280, 128, -10, 128), Color::new(140, 64, 0, 128));
        assert_eq!(Color::from_non_premultiplied(255, 128, 64, 280), Color::new(255, 140, 70, 255));
        let v = Color::from_non_premultiplied_vector(Vector4::new(1.0, 0.5, 0.25, 0.5));
        // 0.25 × 255 = 63.75 → 64; 0.125 × 255 = 31.875 → 32.
        assert_eq!(v, Color::new(128, 64, 32, 128));
    }

    #[test]
    fn packed_value_puts_red_in_the_low_byte() {
        let c = Color::new(64, 128, 192, 32);
        assert_eq!(c.packed_value(), 0x20C0_8040);
        assert_eq!(Color::from_packed(0x20C0_8040), c);
        assert_eq!(
            c.to_vector4(),
            Vector4::new(64.0 / 255.0, 128.0 / 255.0, 192.0 / 255.0, 32.0 / 255.0)
        );
        assert_eq!(c.to_vector3(), Vector3::new(64.0 / 255.0, 128.0 / 255.0, 192.0 / 255.0));
    }

    #[test]
    fn named_colours_hold_xna_values() {
        assert_eq!(Color::CORNFLOWER_BLUE, Color::new(100, 149, 237, 255));
        assert_eq!(Color::GREEN, Color::new(0, 128, 0, 255));
        assert_eq!(Color::LIME, Color::new(0, 255, 0, 255));
        assert_eq!(Color::TRANSPARENT, Color::new(0, 0, 0, 0));
        assert_eq!(Color::YELLOW_GREEN, Color::new(154, 205, 50, 255));
        assert_eq!(Color::ALICE_BLUE, Color::new(240, 248, 255, 255));
        assert_eq!(Color::TRANSPARENT_BLACK, Color::TRANSPARENT);
    }
}
