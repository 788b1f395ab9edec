//! The conversion between a backend's native depth texels and the backend-neutral encoding of
//! depth/stencil transfers ([`crate::depth_stencil_size`]: every texel's depth as a
//! little-endian `f32` in [0, 1]).
//!
//! A buffer↔image copy of a depth aspect yields one word per texel whose layout depends on the
//! format: [`DepthTexels`] names the three layouts graphics APIs define and converts a run of
//! such words to and from the neutral `f32`s. A 16- or 24-bit normalised value survives the
//! round trip exactly (the `f32` nearest to `v / (2ⁿ - 1)`, rounded back to the nearest
//! integer).

/// The layout of one texel of a depth aspect in a transfer buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepthTexels {
    /// A 16-bit normalised word (D16).
    Unorm16,
    /// A 32-bit word whose low 24 bits hold the normalised depth; the high 8 are undefined on
    /// read and written as zero (X8_D24, and D24S8's depth aspect).
    Unorm24In32,
    /// An `f32` (D32, and D32S8's depth aspect).
    Float32,
}

impl DepthTexels {
    /// Bytes of one texel.
    pub fn bytes(self) -> usize {
        match self {
            DepthTexels::Unorm16 => 2,
            DepthTexels::Unorm24In32 | DepthTexels::Float32 => 4,
        }
    }

    /// `native` (whole texels of this layout) as the neutral encoding's depth `f32`s.
    pub fn decode(self, native: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(native.len() / self.bytes() * 4);
        for texel in native.chunks_exact(self.bytes()) {
            let word = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            let depth = match self {
                DepthTexels::Unorm16 => {
                    f64::from(u16::from_le_bytes([texel[0], texel[1]])) / 65535.0
                }
                DepthTexels::Unorm24In32 => f64::from(word(texel) & 0x00FF_FFFF) / 16_777_215.0,
                DepthTexels::Float32 => f64::from(f32::from_bits(word(texel))),
            };
            out.extend_from_slice(&(depth as f32).to_le_bytes());
        }
        out
    }

    /// The neutral encoding's depth `f32`s (whole ones; each clamped to [0, 1]) as texels of
    /// this layout.
    pub fn encode(self, neutral: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(neutral.len() / 4 * self.bytes());
        for d in neutral.chunks_exact(4) {
            let depth = f64::from(f32::from_le_bytes([d[0], d[1], d[2], d[3]])).clamp(0.0, 1.0);
            match self {
                DepthTexels::Unorm16 => {
                    out.extend_from_slice(&((depth * 65535.0).round() as u16).to_le_bytes())
                }
                DepthTexels::Unorm24In32 => {
                    out.extend_from_slice(&((depth * 16_777_215.0).round() as u32).to_le_bytes())
                }
                DepthTexels::Float32 => out.extend_from_slice(&(depth as f32).to_le_bytes()),
            }
        }
        out
    }

    /// Depth `f32`s sampled from a texture of this layout as the neutral encoding: each rounded
    /// to the layout's nearest value. A shader's normalised-to-float conversion may miss the
    /// nearest `f32` by an ulp (and [`DepthTexels::decode`] gives that nearest one).
    pub fn requantize(self, sampled: &[u8]) -> Vec<u8> {
        self.decode(&self.encode(sampled))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_16_and_24_bit_depth_survives_the_f32_encoding() {
        for v in 0..=u16::MAX {
            let native = v.to_le_bytes();
            let neutral = DepthTexels::Unorm16.decode(&native);
            assert_eq!(DepthTexels::Unorm16.encode(&neutral), native, "{v}");
        }
        for v in (0..=0x00FF_FFFFu32).step_by(7).chain([0x00FF_FFFF, 0x0080_0000, 1]) {
            let neutral = DepthTexels::Unorm24In32.decode(&v.to_le_bytes());
            assert_eq!(DepthTexels::Unorm24In32.encode(&neutral), v.to_le_bytes(), "{v}");
        }
    }

    #[test]
    fn a_sampled_depth_an_ulp_off_rounds_to_the_decoded_one() {
        let exact = DepthTexels::Unorm24In32.decode(&3_355_443u32.to_le_bytes());
        assert_eq!(exact, 0.2f32.to_le_bytes());
        let off = (0.2f32.to_bits() + 1).to_le_bytes();
        assert_eq!(DepthTexels::Unorm24In32.requantize(&off), exact);
        assert_eq!(DepthTexels::Float32.requantize(&off), off);
    }

    #[test]
    fn the_undefined_high_byte_of_a_24_bit_word_is_ignored_and_out_of_range_depth_clamps() {
        let neutral = DepthTexels::Unorm24In32.decode(&0xAB80_0000u32.to_le_bytes());
        assert_eq!(neutral, DepthTexels::Unorm24In32.decode(&0x0080_0000u32.to_le_bytes()));
        let over: Vec<u8> = [1.5f32, -0.5, 0.25].iter().flat_map(|d| d.to_le_bytes()).collect();
        assert_eq!(DepthTexels::Unorm16.encode(&over), [255, 255, 0, 0, 0, 64]);
        let floats = DepthTexels::Float32.encode(&over);
        assert_eq!(DepthTexels::Float32.decode(&floats)[8..], 0.25f32.to_le_bytes());
        assert_eq!(floats[..8], [1.0f32.to_le_bytes(), 0.0f32.to_le_bytes()].concat());
    }
}
