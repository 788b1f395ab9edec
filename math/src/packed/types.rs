//! The packed vector types, each a newtype over its packed integer with XNA's bit layout (the
//! first component in the lowest bits, except where XNA's format name says otherwise: `Bgr565`
//! keeps x in the high bits, as its name reads from the top).

use super::{
    half_to_single, pack_signed, pack_snorm, pack_unorm, pack_unsigned, single_to_half,
    unpack_signed, unpack_snorm, unpack_unorm, PackedVector,
};
use crate::{Vector2, Vector3, Vector4};

/// Declares a packed type: its docs, packed integer, packing of a `Vector4` and unpacking.
macro_rules! packed {
    ($(#[$doc:meta])* $T:ident($P:ty), pack |$v:ident| $pack:expr, unpack |$p:ident| $unpack:expr) => {
        $(#[$doc])*
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, bytemuck::Pod, bytemuck::Zeroable)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct $T(pub $P);

        impl PackedVector for $T {
            type Packed = $P;
            fn packed_value(&self) -> $P {
                self.0
            }
            fn set_packed_value(&mut self, value: $P) {
                self.0 = value;
            }
            fn from_vector4($v: Vector4) -> Self {
                $T($pack)
            }
            fn to_vector4(&self) -> Vector4 {
                let $p = self.0;
                $unpack
            }
        }
    };
}

packed!(
    /// XNA's `Bgr565` (`SurfaceFormat.Bgr565`): unsigned normalized x in bits 11–15, y in 5–10,
    /// z in 0–4; w reads as 1.
    Bgr565(u16),
    pack |v| (pack_unorm(31, v.x) << 11 | pack_unorm(63, v.y) << 5 | pack_unorm(31, v.z)) as u16,
    unpack |p| {
        let p = u32::from(p);
        Vector4::new(unpack_unorm(31, p >> 11), unpack_unorm(63, p >> 5), unpack_unorm(31, p), 1.0)
    }
);

packed!(
    /// XNA's `Bgra5551` (`SurfaceFormat.Bgra5551`): x in bits 10–14, y in 5–9, z in 0–4 (5 bits
    /// each), w in bit 15.
    Bgra5551(u16),
    pack |v| (pack_unorm(31, v.x) << 10 | pack_unorm(31, v.y) << 5 | pack_unorm(31, v.z) | pack_unorm(1, v.w) << 15) as u16,
    unpack |p| {
        let p = u32::from(p);
        Vector4::new(unpack_unorm(31, p >> 10), unpack_unorm(31, p >> 5), unpack_unorm(31, p), unpack_unorm(1, p >> 15))
    }
);

packed!(
    /// XNA's `Bgra4444` (`SurfaceFormat.Bgra4444`): w in bits 12–15, x in 8–11, y in 4–7, z in
    /// 0–3.
    Bgra4444(u16),
    pack |v| (pack_unorm(15, v.w) << 12 | pack_unorm(15, v.x) << 8 | pack_unorm(15, v.y) << 4 | pack_unorm(15, v.z)) as u16,
    unpack |p| {
        let p = u32::from(p);
        Vector4::new(unpack_unorm(15, p >> 8), unpack_unorm(15, p >> 4), unpack_unorm(15, p), unpack_unorm(15, p >> 12))
    }
);

packed!(
    /// XNA's `Byte4` (`VertexElementFormat.Byte4`): four unsigned bytes holding whole numbers
    /// 0–255 (not normalized), x in the low byte.
    Byte4(u32),
    pack |v| pack_unsigned(255, v.x) | pack_unsigned(255, v.y) << 8 | pack_unsigned(255, v.z) << 16 | pack_unsigned(255, v.w) << 24,
    unpack |p| Vector4::new((p & 0xff) as f32, (p >> 8 & 0xff) as f32, (p >> 16 & 0xff) as f32, (p >> 24) as f32)
);

packed!(
    /// XNA's `NormalizedByte2`: two signed normalized bytes, x in the low byte; z reads 0, w 1.
    NormalizedByte2(u16),
    pack |v| (pack_snorm(8, v.x) | pack_snorm(8, v.y) << 8) as u16,
    unpack |p| {
        let p = u32::from(p);
        Vector4::new(unpack_snorm(8, p), unpack_snorm(8, p >> 8), 0.0, 1.0)
    }
);

packed!(
    /// XNA's `NormalizedByte4` (`SurfaceFormat.NormalizedByte4`): four signed normalized bytes,
    /// x in the low byte.
    NormalizedByte4(u32),
    pack |v| pack_snorm(8, v.x) | pack_snorm(8, v.y) << 8 | pack_snorm(8, v.z) << 16 | pack_snorm(8, v.w) << 24,
    unpack |p| Vector4::new(unpack_snorm(8, p), unpack_snorm(8, p >> 8), unpack_snorm(8, p >> 16), unpack_snorm(8, p >> 24))
);

packed!(
    /// XNA's `NormalizedShort2` (`VertexElementFormat.NormalizedShort2`): two signed normalized
    /// 16-bit values, x in the low half; z reads 0, w 1.
    NormalizedShort2(u32),
    pack |v| pack_snorm(16, v.x) | pack_snorm(16, v.y) << 16,
    unpack |p| Vector4::new(unpack_snorm(16, p), unpack_snorm(16, p >> 16), 0.0, 1.0)
);

packed!(
    /// XNA's `NormalizedShort4` (`VertexElementFormat.NormalizedShort4`): four signed normalized
    /// 16-bit values, x in the lowest.
    NormalizedShort4(u64),
    pack |v| u64::from(pack_snorm(16, v.x) | pack_snorm(16, v.y) << 16) | u64::from(pack_snorm(16, v.z) | pack_snorm(16, v.w) << 16) << 32,
    unpack |p| {
        let (lo, hi) = (p as u32, (p >> 32) as u32);
        Vector4::new(unpack_snorm(16, lo), unpack_snorm(16, lo >> 16), unpack_snorm(16, hi), unpack_snorm(16, hi >> 16))
    }
);

packed!(
    /// XNA's `Short2` (`VertexElementFormat.Short2`): two signed 16-bit whole numbers (not
    /// normalized), x in the low half; z reads 0, w 1.
    Short2(u32),
    pack |v| pack_signed(16, v.x) | pack_signed(16, v.y) << 16,
    unpack |p| Vector4::new(unpack_signed(16, p), unpack_signed(16, p >> 16), 0.0, 1.0)
);

packed!(
    /// XNA's `Short4` (`VertexElementFormat.Short4`): four signed 16-bit whole numbers, x in the
    /// lowest.
    Short4(u64),
    pack |v| u64::from(pack_signed(16, v.x) | pack_signed(16, v.y) << 16) | u64::from(pack_signed(16, v.z) | pack_signed(16, v.w) << 16) << 32,
    unpack |p| {
        let (lo, hi) = (p as u32, (p >> 32) as u32);
        Vector4::new(unpack_signed(16, lo), unpack_signed(16, lo >> 16), unpack_signed(16, hi), unpack_signed(16, hi >> 16))
    }
);

packed!(
    /// XNA's `Rg32` (`SurfaceFormat.Rg32`): two unsigned normalized 16-bit values, x in the low
    /// half; z reads 0, w 1.
    Rg32(u32),
    pack |v| pack_unorm(0xffff, v.x) | pack_unorm(0xffff, v.y) << 16,
    unpack |p| Vector4::new(unpack_unorm(0xffff, p), unpack_unorm(0xffff, p >> 16), 0.0, 1.0)
);

packed!(
    /// XNA's `Rgba64` (`SurfaceFormat.Rgba64`): four unsigned normalized 16-bit values, x in the
    /// lowest.
    Rgba64(u64),
    pack |v| u64::from(pack_unorm(0xffff, v.x) | pack_unorm(0xffff, v.y) << 16) | u64::from(pack_unorm(0xffff, v.z) | pack_unorm(0xffff, v.w) << 16) << 32,
    unpack |p| {
        let (lo, hi) = (p as u32, (p >> 32) as u32);
        Vector4::new(unpack_unorm(0xffff, lo), unpack_unorm(0xffff, lo >> 16), unpack_unorm(0xffff, hi), unpack_unorm(0xffff, hi >> 16))
    }
);

packed!(
    /// XNA's `Rgba1010102` (`SurfaceFormat.Rgba1010102`): x, y, z in 10 bits each from the
    /// lowest, w in the top 2 bits, all unsigned normalized.
    Rgba1010102(u32),
    pack |v| pack_unorm(1023, v.x) | pack_unorm(1023, v.y) << 10 | pack_unorm(1023, v.z) << 20 | pack_unorm(3, v.w) << 30,
    unpack |p| Vector4::new(unpack_unorm(1023, p), unpack_unorm(1023, p >> 10), unpack_unorm(1023, p >> 20), unpack_unorm(3, p >> 30))
);

packed!(
    /// XNA's `HalfSingle` (`SurfaceFormat.HalfSingle`): one 16-bit float in x; y and z read 0,
    /// w 1.
    HalfSingle(u16),
    pack |v| single_to_half(v.x),
    unpack |p| Vector4::new(half_to_single(p), 0.0, 0.0, 1.0)
);

packed!(
    /// XNA's `HalfVector2` (`SurfaceFormat.HalfVector2`, `VertexElementFormat.HalfVector2`): two
    /// 16-bit floats, x in the low half; z reads 0, w 1.
    HalfVector2(u32),
    pack |v| u32::from(single_to_half(v.x)) | u32::from(single_to_half(v.y)) << 16,
    unpack |p| Vector4::new(half_to_single(p as u16), half_to_single((p >> 16) as u16), 0.0, 1.0)
);

packed!(
    /// XNA's `HalfVector4` (`SurfaceFormat.HalfVector4`, `VertexElementFormat.HalfVector4`):
    /// four 16-bit floats, x in the lowest.
    HalfVector4(u64),
    pack |v| [v.x, v.y, v.z, v.w].iter().enumerate().fold(0u64, |acc, (i, &c)| acc | u64::from(single_to_half(c)) << (16 * i)),
    unpack |p| {
        let h = |i: u32| half_to_single((p >> (16 * i)) as u16);
        Vector4::new(h(0), h(1), h(2), h(3))
    }
);

packed!(
    /// XNA's `Alpha8` (`SurfaceFormat.Alpha8`): one unsigned normalized byte of alpha, read
    /// from and written to w (x, y, z read 0).
    Alpha8(u8),
    pack |v| pack_unorm(255, v.w) as u8,
    unpack |p| Vector4::new(0.0, 0.0, 0.0, unpack_unorm(255, u32::from(p)))
);

/// XNA's constructors, `new T(x, y, z, w)` and `new T(Vector4)`, for the four-component types.
macro_rules! new4 {
    ($($T:ident),*) => {$(
        impl $T {
            #[doc = concat!("`new ", stringify!($T), "(x, y, z, w)`.")]
            pub fn new(x: f32, y: f32, z: f32, w: f32) -> Self {
                <$T as PackedVector>::from_vector4(Vector4::new(x, y, z, w))
            }
        }
    )*};
}
new4!(
    Bgra5551,
    Bgra4444,
    Byte4,
    NormalizedByte4,
    NormalizedShort4,
    Short4,
    Rgba64,
    Rgba1010102,
    HalfVector4
);

/// `new T(x, y)` and `ToVector2()` for the two-component types.
macro_rules! new2 {
    ($($T:ident),*) => {$(
        impl $T {
            #[doc = concat!("`new ", stringify!($T), "(x, y)`.")]
            pub fn new(x: f32, y: f32) -> Self {
                <$T as PackedVector>::from_vector4(Vector4::new(x, y, 0.0, 1.0))
            }

            /// `ToVector2()`.
            pub fn to_vector2(&self) -> Vector2 {
                let v = self.to_vector4();
                Vector2::new(v.x, v.y)
            }
        }
    )*};
}
new2!(NormalizedByte2, NormalizedShort2, Short2, Rg32, HalfVector2);

impl Bgr565 {
    /// `new Bgr565(x, y, z)`.
    pub fn new(x: f32, y: f32, z: f32) -> Self {
        Bgr565::from_vector4(Vector4::new(x, y, z, 1.0))
    }

    /// `ToVector3()`.
    pub fn to_vector3(&self) -> Vector3 {
        let v = self.to_vector4();
        Vector3::new(v.x, v.y, v.z)
    }
}

impl HalfSingle {
    /// `new HalfSingle(single)`.
    pub fn new(single: f32) -> Self {
        HalfSingle(single_to_half(single))
    }

    /// `ToSingle()`.
    pub fn to_single(&self) -> f32 {
        half_to_single(self.0)
    }
}

impl Alpha8 {
    /// `new Alpha8(alpha)`.
    pub fn new(alpha: f32) -> Self {
        Alpha8(super::pack_unorm(255, alpha) as u8)
    }

    /// `ToAlpha()`.
    pub fn to_alpha(&self) -> f32 {
        unpack_unorm(255, u32::from(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm_types_pack_extremes_and_round_half_to_even() {
        assert_eq!(Bgr565::new(1.0, 0.0, 1.0).0, 0xf81f);
        assert_eq!(Bgr565::new(0.0, 1.0, 0.0).0, 0x07e0);
        assert_eq!(Bgr565(0xf81f).to_vector3(), Vector3::new(1.0, 0.0, 1.0));
        assert_eq!(Bgra5551::new(1.0, 0.0, 0.0, 1.0).0, 0xfc00);
        assert_eq!(Bgra5551::new(0.0, 0.0, 1.0, 0.0).0, 0x001f);
        assert_eq!(Bgra4444::new(1.0, 0.0, 0.0, 0.0).0, 0x0f00);
        assert_eq!(Bgra4444::new(0.0, 0.0, 0.0, 1.0).0, 0xf000);
        // 0.5 × 15 = 7.5 → 8 (even); 0.1 × 15 = 1.5 → 2 (even).
        assert_eq!(Bgra4444::new(0.5, 0.1, 0.0, 0.0).0, 0x0820);
        assert_eq!(Rg32::new(1.0, 0.5).0, 0x8000_ffff);
        assert_eq!(Rgba64::new(1.0, 0.0, 0.0, 1.0).0, 0xffff_0000_0000_ffff);
        assert_eq!(Rgba1010102::new(1.0, 0.0, 1.0, 1.0).0, 0xfff0_03ff);
        assert_eq!(Rgba1010102(0xfff0_03ff).to_vector4(), Vector4::new(1.0, 0.0, 1.0, 1.0));
        assert_eq!(Alpha8::new(0.5).0, 128);
        assert_eq!(Alpha8::new(2.0).to_alpha(), 1.0);
        assert_eq!(Alpha8(255).to_vector4(), Vector4::UNIT_W);
        assert_eq!(Bgra5551::new(f32::NAN, 0.0, 0.0, 0.0).0, 0);
    }

    #[test]
    fn snorm_types_use_the_symmetric_range() {
        assert_eq!(NormalizedByte2::new(1.0, -1.0).0, 0x817f);
        assert_eq!(NormalizedByte2(0x817f).to_vector2(), Vector2::new(1.0, -1.0));
        // The extra code 0x80 also reads as −1.
        assert_eq!(NormalizedByte2(0x0080).to_vector2(), Vector2::new(-1.0, 0.0));
        assert_eq!(NormalizedByte4::new(-2.0, 0.0, 0.5, 1.0).0, 0x7f40_0081);
        assert_eq!(NormalizedShort2::new(1.0, -1.0).0, 0x8001_7fff);
        assert_eq!(NormalizedShort4::new(0.0, 0.0, 0.0, -1.0).0, 0x8001_0000_0000_0000);
        assert_eq!(
            NormalizedShort4(0x8001_0000_0000_0000).to_vector4(),
            Vector4::new(0.0, 0.0, 0.0, -1.0)
        );
    }

    #[test]
    fn integer_types_clamp_and_round() {
        assert_eq!(Byte4::new(1.0, 2.0, 3.0, 300.0).0, 0xff03_0201);
        assert_eq!(Byte4(0xff03_0201).to_vector4(), Vector4::new(1.0, 2.0, 3.0, 255.0));
        assert_eq!(Short2::new(-1.0, 40000.0).0, 0x7fff_ffff);
        assert_eq!(Short2(0x7fff_ffff).to_vector2(), Vector2::new(-1.0, 32767.0));
        assert_eq!(Short2::new(-40000.0, 2.5).0, 0x0002_8000);
        assert_eq!(
            Short4::new(1.0, -2.0, 3.0, -4.0).to_vector4(),
            Vector4::new(1.0, -2.0, 3.0, -4.0)
        );
    }

    #[test]
    fn half_types_hold_sixteen_bit_floats() {
        assert_eq!(HalfSingle::new(1.0).0, 0x3c00);
        assert_eq!(HalfSingle::new(-2.0).to_single(), -2.0);
        assert_eq!(HalfVector2::new(1.0, 0.5).0, 0x3800_3c00);
        assert_eq!(HalfVector2(0x3800_3c00).to_vector2(), Vector2::new(1.0, 0.5));
        let v = Vector4::new(1.0, -2.0, 0.5, 65504.0);
        assert_eq!(HalfVector4::new(v.x, v.y, v.z, v.w).0, 0x7bff_3800_c000_3c00);
        assert_eq!(HalfVector4(0x7bff_3800_c000_3c00).to_vector4(), v);
    }

    #[test]
    fn packed_types_are_their_integers_in_memory() {
        assert_eq!(std::mem::size_of::<Bgr565>(), 2);
        assert_eq!(std::mem::size_of::<HalfVector4>(), 8);
        let texels = [Bgra4444(0x1234), Bgra4444(0xabcd)];
        assert_eq!(bytemuck::cast_slice::<Bgra4444, u8>(&texels), [0x34, 0x12, 0xcd, 0xab]);
        let mut p = Rg32::default();
        p.set_packed_value(7);
        assert_eq!(p.packed_value(), 7);
    }
}
