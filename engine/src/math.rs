//! The small slice of XNA's math types the graphics API needs: `Color`, `Vector2`, `Matrix`,
//! `Rectangle`.

use bytemuck::{Pod, Zeroable};

pub use xnagraph_graph::Rect as Rectangle;

/// XNA's `Color`: four bytes, R G B A, as stored in `SurfaceFormat::Color` textures.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Pod, Zeroable)]
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

impl Color {
    /// `new Color(r, g, b, a)` from bytes.
    pub const fn new(r: u8, g: u8, b: u8, a: u8) -> Self {
        Color { r, g, b, a }
    }

    /// From floats in [0, 1] (clamped, rounded as XNA does).
    pub fn from_floats(r: f32, g: f32, b: f32, a: f32) -> Self {
        let q = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
        Color::new(q(r), q(g), q(b), q(a))
    }

    /// `ToVector4()`: each channel divided by 255.
    pub fn to_floats(self) -> [f32; 4] {
        [self.r, self.g, self.b, self.a].map(|c| f32::from(c) / 255.0)
    }

    /// `Color * float`, as XNA scales every channel (alpha included).
    pub fn scaled(self, s: f32) -> Self {
        let [r, g, b, a] = self.to_floats();
        Color::from_floats(r * s, g * s, b * s, a * s)
    }

    /// `Color.Transparent`: (0, 0, 0, 0), as XNA 4.0 defines it (premultiplied).
    pub const TRANSPARENT: Color = Color::new(0, 0, 0, 0);
    /// `Color.Black`.
    pub const BLACK: Color = Color::new(0, 0, 0, 255);
    /// `Color.White`.
    pub const WHITE: Color = Color::new(255, 255, 255, 255);
    /// `Color.Red`.
    pub const RED: Color = Color::new(255, 0, 0, 255);
    /// `Color.Lime`: pure green (XNA's `Green` is half as bright).
    pub const LIME: Color = Color::new(0, 255, 0, 255);
    /// `Color.Green`: (0, 128, 0).
    pub const GREEN: Color = Color::new(0, 128, 0, 255);
    /// `Color.Blue`.
    pub const BLUE: Color = Color::new(0, 0, 255, 255);
    /// `Color.Yellow`.
    pub const YELLOW: Color = Color::new(255, 255, 0, 255);
    /// `Color.Magenta`.
    pub const MAGENTA: Color = Color::new(255, 0, 255, 255);
    /// `Color.Cyan`.
    pub const CYAN: Color = Color::new(0, 255, 255, 255);
    /// `Color.CornflowerBlue`, the colour of XNA's project template.
    pub const CORNFLOWER_BLUE: Color = Color::new(100, 149, 237, 255);
}

/// XNA's `Vector2` (two `f32`s, laid out as in vertex data).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, Pod, Zeroable)]
pub struct Vector2 {
    /// The x component.
    pub x: f32,
    /// The y component.
    pub y: f32,
}

impl Vector2 {
    /// `Vector2.Zero`.
    pub const ZERO: Vector2 = Vector2 { x: 0.0, y: 0.0 };
    /// `Vector2.One`.
    pub const ONE: Vector2 = Vector2 { x: 1.0, y: 1.0 };

    /// `new Vector2(x, y)`.
    pub const fn new(x: f32, y: f32) -> Self {
        Vector2 { x, y }
    }
}

/// XNA's `Vector4` (four `f32`s, laid out as in vertex data and as GLSL's `vec4`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, Pod, Zeroable)]
pub struct Vector4 {
    /// The x component.
    pub x: f32,
    /// The y component.
    pub y: f32,
    /// The z component.
    pub z: f32,
    /// The w component.
    pub w: f32,
}

impl Vector4 {
    /// `Vector4.Zero`.
    pub const ZERO: Vector4 = Vector4 { x: 0.0, y: 0.0, z: 0.0, w: 0.0 };

    /// `new Vector4(x, y, z, w)`.
    pub const fn new(x: f32, y: f32, z: f32, w: f32) -> Self {
        Vector4 { x, y, z, w }
    }
}

/// XNA's `Vector3`: as much of it as the API takes (a direction into a cube, for
/// [`SpriteBatch::draw_cube_direction`](crate::SpriteBatch::draw_cube_direction)) and vertex
/// positions and normals (three `f32`s, laid out as in vertex data).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, Pod, Zeroable)]
pub struct Vector3 {
    /// The x component.
    pub x: f32,
    /// The y component.
    pub y: f32,
    /// The z component.
    pub z: f32,
}

impl Vector3 {
    /// `Vector3.Zero`.
    pub const ZERO: Vector3 = Vector3 { x: 0.0, y: 0.0, z: 0.0 };
    /// `Vector3.UnitX`.
    pub const UNIT_X: Vector3 = Vector3 { x: 1.0, y: 0.0, z: 0.0 };
    /// `Vector3.UnitY`.
    pub const UNIT_Y: Vector3 = Vector3 { x: 0.0, y: 1.0, z: 0.0 };
    /// `Vector3.UnitZ`.
    pub const UNIT_Z: Vector3 = Vector3 { x: 0.0, y: 0.0, z: 1.0 };

    /// `new Vector3(x, y, z)`.
    pub const fn new(x: f32, y: f32, z: f32) -> Self {
        Vector3 { x, y, z }
    }
}

impl std::ops::Neg for Vector3 {
    type Output = Vector3;
    /// `-v` (`Vector3.Negate`).
    fn neg(self) -> Vector3 {
        Vector3::new(-self.x, -self.y, -self.z)
    }
}

/// XNA's `Matrix`: row-vector convention (`v * M`), stored row-major as XNA's M11…M44.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matrix {
    /// `m[row][column]`: `m[0][0]` is XNA's M11, `m[3]` holds the translation (M41, M42, M43).
    pub m: [[f32; 4]; 4],
}

impl Default for Matrix {
    fn default() -> Self {
        Matrix::IDENTITY
    }
}

impl Matrix {
    /// `Matrix.Identity`.
    pub const IDENTITY: Matrix = Matrix {
        m: [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]],
    };

    /// `Matrix.CreateTranslation(x, y, z)`.
    pub fn create_translation(x: f32, y: f32, z: f32) -> Self {
        let mut m = Matrix::IDENTITY;
        m.m[3] = [x, y, z, 1.0];
        m
    }

    /// `Matrix.CreateScale(x, y, z)`.
    pub fn create_scale(x: f32, y: f32, z: f32) -> Self {
        let mut m = Matrix::IDENTITY;
        m.m[0][0] = x;
        m.m[1][1] = y;
        m.m[2][2] = z;
        m
    }

    /// `self * rhs` in XNA's row-vector convention (apply `self` first).
    pub fn mul(&self, rhs: &Matrix) -> Matrix {
        let mut out = [[0.0f32; 4]; 4];
        for (i, row) in out.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().enumerate() {
                *cell = (0..4).map(|k| self.m[i][k] * rhs.m[k][j]).sum();
            }
        }
        Matrix { m: out }
    }

    /// The same transform as a column-major array for a column-vector shader (`M * v`).
    /// XNA's row-major row-vector matrix read column by column is exactly its transpose laid out
    /// column-major, so the flattening is the identity on storage order.
    pub fn to_column_major(&self) -> [f32; 16] {
        let mut out = [0.0; 16];
        for (r, row) in self.m.iter().enumerate() {
            out[r * 4..r * 4 + 4].copy_from_slice(row);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translation_then_scale_applies_in_xna_order() {
        let m = Matrix::create_translation(1.0, 2.0, 0.0).mul(&Matrix::create_scale(2.0, 3.0, 1.0));
        // v = (0,0,0,1): translate to (1,2), then scale to (2,6).
        assert_eq!(m.m[3], [2.0, 6.0, 0.0, 1.0]);
    }
}

/// Sine and cosine of `x` (radians) for sprite rotation, the way DirectXMath's
/// `XMScalarSinCos` does it: reduce to a quarter turn, then evaluate minimax polynomials. About
/// twice as fast as the libm call and within 1e-7 of it over the angles games use (|x| < 10⁴);
/// SpriteBatch calls it once per rotated sprite.
pub(crate) fn sin_cos(x: f32) -> (f32, f32) {
    // π/2 split into three parts so q·part is exact for the quadrant counts that occur.
    const PIO2_HI: f32 = 1.570_312_5;
    const PIO2_MID: f32 = 4.837_513e-4;
    const PIO2_LO: f32 = 7.549_79e-8;
    // Adding 1.5·2²³ rounds to the nearest integer and leaves it in the low mantissa bits, so
    // the quadrant needs no float-to-int conversion (and no libm `round` on baseline x86-64).
    const ROUND: f32 = 12_582_912.0;
    let m = x * std::f32::consts::FRAC_2_PI + ROUND;
    let quadrant = m.to_bits();
    let q = m - ROUND;
    let r = ((x - q * PIO2_HI) - q * PIO2_MID) - q * PIO2_LO;
    let z = r * r;
    // Cephes' single-precision kernels on [-π/4, π/4].
    let s = r + r * z * ((-1.951_529_6e-4 * z + 8.332_161e-3) * z - 1.666_665_5e-1);
    let c = 1.0 - 0.5 * z + z * z * ((2.443_315_7e-5 * z - 1.388_731_6e-3) * z + 4.166_664_6e-2);
    // Quadrants 1 and 3 swap the kernels; the sign flips follow the quadrant's bit 1, without
    // branches that random rotations would mispredict.
    let (sin, cos) = if quadrant & 1 != 0 { (c, s) } else { (s, c) };
    let negate = |v: f32, bit: u32| f32::from_bits(v.to_bits() ^ ((bit & 2) << 30));
    (negate(sin, quadrant), negate(cos, quadrant.wrapping_add(1)))
}

#[cfg(test)]
mod sin_cos_tests {
    #[test]
    fn fast_sin_cos_matches_libm() {
        let mut worst = 0.0f32;
        let mut x = -1000.0f32;
        while x < 1000.0 {
            let (s, c) = super::sin_cos(x);
            let (rs, rc) = (x as f64).sin_cos();
            worst = worst.max((s as f64 - rs).abs() as f32).max((c as f64 - rc).abs() as f32);
            x += 0.0137;
        }
        assert!(worst < 2e-7, "worst error {worst}");
        assert_eq!(super::sin_cos(0.0), (0.0, 1.0));
    }
}
