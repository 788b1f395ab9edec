//! XNA's packed vector types (`Microsoft.Xna.Framework.Graphics.PackedVector`): vectors stored
//! in the few bits a surface or vertex format gives them, each with XNA's exact packing. Every
//! type is `#[repr(transparent)]` over its packed integer and `bytemuck::Pod`, so an array of
//! them is the texel or vertex data that `SetData` uploads.
//!
//! Packing follows XNA's `PackUtils`: a normalized channel is scaled by its maximum, clamped and
//! rounded to the nearest integer (ties to even, .NET's `Math.Round`); NaN packs to 0. Signed
//! normalized channels use the symmetric range (−max…max), and unpack the extra most negative
//! code to −1. `half.rs` holds the 16-bit float conversion, `types.rs` the types.

mod half;
mod types;

pub use half::{half_to_single, single_to_half};
pub use types::{
    Alpha8, Bgr565, Bgra4444, Bgra5551, Byte4, HalfSingle, HalfVector2, HalfVector4,
    NormalizedByte2, NormalizedByte4, NormalizedShort2, NormalizedShort4, Rg32, Rgba1010102,
    Rgba64, Short2, Short4,
};

use crate::Vector4;

/// XNA's `IPackedVector<TPacked>`: a vector stored as one packed integer.
pub trait PackedVector: bytemuck::Pod {
    /// The integer the vector is packed into (`TPacked`).
    type Packed: Copy;

    /// `PackedValue`.
    fn packed_value(&self) -> Self::Packed;

    /// `PackedValue = value`.
    fn set_packed_value(&mut self, value: Self::Packed);

    /// `PackFromVector4(vector)`: the vector packed by the type's rules (components the type
    /// lacks are ignored).
    fn from_vector4(vector: Vector4) -> Self;

    /// `ToVector4()`: the packed components, with missing ones filled as XNA fills them (0 for
    /// z, 1 for w).
    fn to_vector4(&self) -> Vector4;
}

/// XNA's `ClampAndRound`: NaN to 0, clamped to [min, max], rounded half to even.
pub(crate) fn clamp_and_round(value: f32, min: f32, max: f32) -> f32 {
    if value.is_nan() {
        0.0
    } else {
        value.clamp(min, max).round_ties_even()
    }
}

/// `PackUNorm`: `value` in [0, 1] to `0..=max`.
pub(crate) fn pack_unorm(max: u32, value: f32) -> u32 {
    clamp_and_round(value * max as f32, 0.0, max as f32) as u32
}

/// `UnpackUNorm`.
pub(crate) fn unpack_unorm(max: u32, packed: u32) -> f32 {
    (packed & max) as f32 / max as f32
}

/// `PackSNorm`: `value` in [−1, 1] to a two's-complement field of `bits` bits.
pub(crate) fn pack_snorm(bits: u32, value: f32) -> u32 {
    let max = ((1u32 << (bits - 1)) - 1) as f32;
    let mask = if bits == 32 { u32::MAX } else { (1u32 << bits) - 1 };
    (clamp_and_round(value * max, -max, max) as i32 as u32) & mask
}

/// `UnpackSNorm`: the most negative code reads as −1, like the one above it.
pub(crate) fn unpack_snorm(bits: u32, packed: u32) -> f32 {
    let max = ((1u32 << (bits - 1)) - 1) as f32;
    let shift = 32 - bits;
    let signed = ((packed << shift) as i32) >> shift;
    (signed as f32 / max).max(-1.0)
}

/// `PackSigned`: an integer-valued float clamped to a signed field of `bits` bits.
pub(crate) fn pack_signed(bits: u32, value: f32) -> u32 {
    let max = ((1u32 << (bits - 1)) - 1) as f32;
    let mask = (1u32 << bits) - 1;
    (clamp_and_round(value, -max - 1.0, max) as i32 as u32) & mask
}

/// The signed field of `bits` bits as a float.
pub(crate) fn unpack_signed(bits: u32, packed: u32) -> f32 {
    let shift = 32 - bits;
    (((packed << shift) as i32) >> shift) as f32
}

/// `PackUnsigned`: an integer-valued float clamped to `0..=max`.
pub(crate) fn pack_unsigned(max: u32, value: f32) -> u32 {
    clamp_and_round(value, 0.0, max as f32) as u32
}
