//! The 16-bit float (IEEE 754 binary16) of `HalfSingle`, `HalfVector2` and `HalfVector4`:
//! rounding to the nearest half (ties to even), subnormals kept, overflow to infinity, NaN kept
//! NaN.
//!
//! xnagraph differs from XNA above 65504: XNA's converter saturated to the bit pattern 0x7FFF
//! and read exponent 31 back as a finite number (up to 131008), a pattern GPUs read as NaN; here
//! the bits mean what the GPU that samples them makes of them.

/// A `f32` rounded to the nearest binary16, as its bits.
pub fn single_to_half(value: f32) -> u16 {
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let man = bits & 0x007f_ffff;
    if exp == 0xff {
        // Infinity stays infinity; NaN keeps a non-zero payload.
        let payload = if man == 0 { 0 } else { ((man >> 13) as u16).max(1) };
        return sign | 0x7c00 | payload;
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        // Subnormal: shift the implicit one in, round half to even.
        let m = man | 0x0080_0000;
        let shift = (14 - e) as u32;
        let half_way = 1u32 << (shift - 1);
        let rest = m & ((1u32 << shift) - 1);
        let mut r = m >> shift;
        if rest > half_way || (rest == half_way && r & 1 == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let rest = man & 0x1fff;
    let mut r = ((e as u32) << 10) | (man >> 13);
    if rest > 0x1000 || (rest == 0x1000 && r & 1 == 1) {
        // A carry into the exponent is the right answer, up to infinity.
        r += 1;
    }
    sign | r as u16
}

/// A binary16's bits as the `f32` they stand for (exactly).
pub fn half_to_single(value: u16) -> f32 {
    let sign = u32::from(value & 0x8000) << 16;
    let exp = u32::from((value >> 10) & 0x1f);
    let man = u32::from(value & 0x03ff);
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, _) => {
            // Subnormal: normalize into an f32.
            let lead = man.leading_zeros() - 21;
            let m = (man << lead) & 0x03ff;
            sign | ((127 - 15 + 1 - lead) << 23) | (m << 13)
        }
        (0x1f, _) => sign | 0x7f80_0000 | (man << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (man << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_half_bit_patterns() {
        assert_eq!(single_to_half(1.0), 0x3c00);
        assert_eq!(single_to_half(-2.0), 0xc000);
        assert_eq!(single_to_half(0.5), 0x3800);
        assert_eq!(single_to_half(65504.0), 0x7bff);
        assert_eq!(single_to_half(65520.0), 0x7c00);
        assert_eq!(single_to_half(f32::INFINITY), 0x7c00);
        assert_eq!(single_to_half(5.960_464_5e-8), 0x0001);
        assert_eq!(single_to_half(6.103_515_6e-5), 0x0400);
        assert_eq!(single_to_half(0.333_333_34), 0x3555);
        assert!(half_to_single(single_to_half(f32::NAN)).is_nan());
        assert_eq!(single_to_half(-0.0), 0x8000);
    }

    #[test]
    fn ties_round_to_even() {
        // 1 + 2⁻¹¹ lies halfway between 1 and the next half: even (1) wins.
        assert_eq!(single_to_half(1.0 + 1.0 / 2048.0), 0x3c00);
        // 1 + 3·2⁻¹¹ lies halfway between two halves; the even one is above.
        assert_eq!(single_to_half(1.0 + 3.0 / 2048.0), 0x3c02);
    }

    #[test]
    fn every_half_round_trips_through_single() {
        for h in 0..=u16::MAX {
            let f = half_to_single(h);
            if f.is_nan() {
                assert!(half_to_single(single_to_half(f)).is_nan());
            } else {
                assert_eq!(single_to_half(f), h, "{h:#06x} → {f}");
            }
        }
    }
}
