//! The block-compressed formats (DXT1, DXT3, DXT5 — BC1, BC2, BC3): hand-encoded 4×4 blocks with
//! known endpoints and indices, sampled (point, opaque) into a Color target and compared texel by
//! texel with the format's decoding; uploads and readbacks of whole blocks, including a partial
//! `SetData` on block boundaries that leaves the other blocks alone.

mod common;

use common::*;
use xnagraph::{
    BlendState, Color, Rectangle, RenderTarget2D, SamplerState, SpriteBatch, SpriteSortMode,
    SurfaceFormat, Texture2D, Vector2, XnaError,
};

/// 5- and 6-bit channels widened to 8 bits by bit replication, as the BC formats define.
fn exp5(v: u16) -> u8 {
    ((v << 3) | (v >> 2)) as u8
}

fn exp6(v: u16) -> u8 {
    ((v << 2) | (v >> 4)) as u8
}

/// One decoded texel, and whether it is an interpolant (a ratio of the endpoints that decoders
/// may round either way: lavapipe reads the third of 0..255 as 84, not 85).
type Texel = (Color, bool);

/// 2-bit indices, texel (x, y) at bits 2(4y + x).
fn indices2(v: [u32; 16]) -> u32 {
    v.iter().enumerate().fold(0, |acc, (i, x)| acc | (x << (2 * i)))
}

/// A BC1 colour block, and its 16 texels. `always_four` is BC2/BC3's rule: their colour block
/// never uses BC1's three-colour mode.
fn color_block(c0: u16, c1: u16, idx: [u32; 16], always_four: bool) -> (Vec<u8>, [Texel; 16]) {
    let e = |c: u16| [exp5(c >> 11), exp6((c >> 5) & 63), exp5(c & 31)];
    let (e0, e1) = (e(c0), e(c1));
    let mix = |w0: u32, w1: u32| {
        let ch = |i: usize| ((w0 * u32::from(e0[i]) + w1 * u32::from(e1[i])) / (w0 + w1)) as u8;
        (Color::new(ch(0), ch(1), ch(2), 255), true)
    };
    let palette = if always_four || c0 > c1 {
        [
            (Color::new(e0[0], e0[1], e0[2], 255), false),
            (Color::new(e1[0], e1[1], e1[2], 255), false),
            mix(2, 1),
            mix(1, 2),
        ]
    } else {
        [
            (Color::new(e0[0], e0[1], e0[2], 255), false),
            (Color::new(e1[0], e1[1], e1[2], 255), false),
            mix(1, 1),
            (Color::TRANSPARENT, false),
        ]
    };
    let mut bytes = c0.to_le_bytes().to_vec();
    bytes.extend_from_slice(&c1.to_le_bytes());
    bytes.extend_from_slice(&indices2(idx).to_le_bytes());
    (bytes, idx.map(|i| palette[i as usize]))
}

/// The indices every colour block uses: each of the four palette entries in every row, shifted
/// by the row so no column repeats one.
const IDX: [u32; 16] = [0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2];

/// Colour endpoints (c0, c1) whose interpolants are whole numbers in every channel: the first
/// two have c0 > c1 (four colours in every format) and channels differing by multiples of 3;
/// the last two have c0 < c1 (BC1's three-colour mode) and channels differing by multiples of 6.
const ENDPOINTS: [(u16, u16); 4] = [
    // (255, 12, 0) and (0, 255, 255).
    (0xF800 | (3 << 5), (63 << 5) | 31),
    // White and black.
    (0xFFFF, 0x0000),
    // (0, 255, 24) and (90, 195, 0).
    ((63 << 5) | 3, (11 << 11) | (48 << 5)),
    // (33, 0, 255) and (255, 12, 33).
    ((4 << 11) | 31, (31 << 11) | (3 << 5) | 4),
];

/// One block of `format` built on `ENDPOINTS[n]`, with its texels.
fn block(format: SurfaceFormat, n: usize) -> (Vec<u8>, [Texel; 16]) {
    let (c0, c1) = ENDPOINTS[n];
    match format {
        SurfaceFormat::Dxt1 => color_block(c0, c1, IDX, false),
        SurfaceFormat::Dxt3 => {
            // 4 bits of alpha per texel, texel i at bits 4i, widened ×17.
            let alpha: [u64; 16] = std::array::from_fn(|i| ((i as u64 * 7) + n as u64 * 3) % 16);
            let bits = alpha.iter().enumerate().fold(0u64, |acc, (i, a)| acc | (a << (4 * i)));
            let (colour, mut texels) = color_block(c0, c1, IDX, true);
            for (t, a) in texels.iter_mut().zip(alpha) {
                t.0.a = (a * 17) as u8;
            }
            ([bits.to_le_bytes().to_vec(), colour].concat(), texels)
        }
        SurfaceFormat::Dxt5 => {
            // Two 8-bit endpoints and 3-bit indices (texel i at bits 3i of 48). a0 > a1 gives six
            // interpolants; a0 <= a1 four, plus 0 and 255.
            let (a0, a1): (u32, u32) = [(252, 0), (50, 200), (7, 217), (140, 0)][n];
            let palette: [(u8, bool); 8] = std::array::from_fn(|i| {
                let i = i as u32;
                match i {
                    0 => (a0 as u8, false),
                    1 => (a1 as u8, false),
                    _ if a0 > a1 => ((((8 - i) * a0 + (i - 1) * a1) / 7) as u8, true),
                    6 => (0, false),
                    7 => (255, false),
                    _ => ((((6 - i) * a0 + (i - 1) * a1) / 5) as u8, true),
                }
            });
            let idx: [u64; 16] = std::array::from_fn(|i| (i as u64 * 3 + n as u64) % 8);
            let bits = idx.iter().enumerate().fold(0u64, |acc, (i, x)| acc | (x << (3 * i)));
            let mut bytes = vec![a0 as u8, a1 as u8];
            bytes.extend_from_slice(&bits.to_le_bytes()[..6]);
            let (colour, mut texels) = color_block(c0, c1, IDX, true);
            for (t, i) in texels.iter_mut().zip(idx) {
                let (a, interpolated) = palette[i as usize];
                t.0.a = a;
                t.1 |= interpolated;
            }
            ([bytes, colour].concat(), texels)
        }
        _ => unreachable!("only the block-compressed formats have blocks"),
    }
}

const DXT: [SurfaceFormat; 3] = [SurfaceFormat::Dxt1, SurfaceFormat::Dxt3, SurfaceFormat::Dxt5];

/// Draws `textures` (point sampled, opaque, 1:1) into a fresh Color target, each at
/// (1 + 10i, 3), and returns the target's pixels (the target is 10n + 2 wide, 12 high).
fn sampled(device: &xnagraph::GraphicsDevice, textures: &[&Texture2D]) -> (Vec<Color>, i32) {
    let width = 10 * textures.len() as i32 + 2;
    let rt = RenderTarget2D::new(device, width, 12).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::new(9, 9, 9, 9)).unwrap();
    let mut sb = SpriteBatch::new(device).unwrap();
    let (opaque, point) = (Some(BlendState::OPAQUE), Some(SamplerState::POINT_CLAMP));
    sb.begin_with(SpriteSortMode::Deferred, opaque, point, None, None, None).unwrap();
    for (i, t) in textures.iter().enumerate() {
        sb.draw(t, Vector2::new(1.0 + 10.0 * i as f32, 3.0), Color::WHITE).unwrap();
    }
    sb.end().unwrap();
    device.set_render_target(None).unwrap();
    (read_target(&rt), width)
}

/// Compares the 8×8 texels drawn at `origin` with `blocks` (2×2 blocks, row-major): exactly,
/// except interpolants within one step.
fn compare(
    format: SurfaceFormat,
    px: &[Color],
    width: i32,
    origin: (i32, i32),
    blocks: &[[Texel; 16]; 4],
    wrong: &mut Vec<String>,
) {
    for y in 0..8 {
        for x in 0..8 {
            let (want, interpolated) =
                blocks[(y / 4 * 2 + x / 4) as usize][(y % 4 * 4 + x % 4) as usize];
            let got = at(px, width, origin.0 + x, origin.1 + y);
            // An endpoint decodes exactly; an interpolated palette entry may be computed with
            // the limited precision block compression allows hardware (Direct3D bounds its
            // error by 3% of the endpoints' range, 8 of 255): an NVIDIA GPU's differ from the
            // exact thirds and sevenths by up to 5, lavapipe's by at most 1.
            let tol = if interpolated { 8 } else { 0 };
            let close = |a: u8, b: u8| a.abs_diff(b) <= tol;
            if !(close(got.r, want.r)
                && close(got.g, want.g)
                && close(got.b, want.b)
                && close(got.a, want.a))
            {
                wrong.push(format!(
                    "{format:?} texel ({x},{y}): got {got:?}, want {want:?} (±{tol})"
                ));
            }
        }
    }
}

/// The four blocks of an 8×8 texture, in upload order (row-major blocks).
fn four_blocks(format: SurfaceFormat) -> (Vec<u8>, [[Texel; 16]; 4]) {
    let blocks: Vec<_> = (0..4).map(|n| block(format, n)).collect();
    let bytes = blocks.iter().flat_map(|b| b.0.clone()).collect();
    (bytes, std::array::from_fn(|n| blocks[n].1))
}

#[test]
fn the_reference_decoding_is_the_formats() {
    // Spot checks of the decoding above against values worked out by hand.
    let (_, red_cyan) = color_block(ENDPOINTS[0].0, ENDPOINTS[0].1, IDX, false);
    assert_eq!(red_cyan[0], (Color::new(255, 12, 0, 255), false));
    assert_eq!(red_cyan[1], (Color::new(0, 255, 255, 255), false));
    assert_eq!(red_cyan[2], (Color::new(170, 93, 85, 255), true));
    assert_eq!(red_cyan[3], (Color::new(85, 174, 170, 255), true));
    // c0 <= c1 in BC1: index 2 is the midpoint, index 3 transparent black.
    let (_, three) = color_block(ENDPOINTS[3].0, ENDPOINTS[3].1, IDX, false);
    assert_eq!(three[2], (Color::new(144, 6, 144, 255), true));
    assert_eq!(three[3], (Color::TRANSPARENT, false));
    // The same endpoints in BC2/BC3 keep four colours.
    let (_, four) = color_block(ENDPOINTS[3].0, ENDPOINTS[3].1, IDX, true);
    assert_eq!(four[3], (Color::new(181, 8, 107, 255), true));
    // BC3 alpha: 252 → 0 in sevenths; 50 → 200 in fifths with 0 and 255.
    let (bytes, texels) = block(SurfaceFormat::Dxt5, 0);
    assert_eq!(&bytes[..2], &[252, 0]);
    assert_eq!(texels[1].0.a, 180, "index 3 = (5·252 + 2·0) / 7");
    let (_, texels) = block(SurfaceFormat::Dxt5, 1);
    assert_eq!(texels[0].0.a, 200, "index 1 = a1");
    assert_eq!(texels[1].0.a, 140, "index 4 = (2·50 + 3·200) / 5");
}

#[test]
fn block_compressed_formats_sample_their_blocks_as_encoded() {
    let _v = Validation::new();
    let device = device(8, 8);
    let mut textures = Vec::new();
    let mut expected = Vec::new();
    for format in DXT {
        if !device.format_support(format).sampled {
            skipped(
                "block_compressed_formats_sample_their_blocks_as_encoded",
                &format!("{format:?} cannot be sampled here"),
            );
            continue;
        }
        let (bytes, blocks) = four_blocks(format);
        let t = Texture2D::with_format(&device, 8, 8, false, format).unwrap();
        t.set_data(&bytes).unwrap();
        let mut back = vec![0u8; bytes.len()];
        t.get_data(&mut back).unwrap();
        assert_eq!(back, bytes, "{format:?}: GetData returns the blocks as uploaded");
        textures.push(t);
        expected.push((format, blocks));
    }
    let (px, width) = sampled(&device, &textures.iter().collect::<Vec<_>>());
    let mut wrong = Vec::new();
    for (i, (format, blocks)) in expected.iter().enumerate() {
        compare(*format, &px, width, (1 + 10 * i as i32, 3), blocks, &mut wrong);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_partial_set_data_of_a_compressed_texture_replaces_whole_blocks_only() {
    let _v = Validation::new();
    let device = device(8, 8);
    let mut textures = Vec::new();
    let mut expected = Vec::new();
    for format in DXT {
        if !device.format_support(format).sampled {
            skipped(
                "a_partial_set_data_of_a_compressed_texture_replaces_whole_blocks_only",
                &format!("{format:?} cannot be sampled here"),
            );
            continue;
        }
        let (bytes, mut blocks) = four_blocks(format);
        let t = Texture2D::with_format(&device, 8, 8, false, format).unwrap();
        t.set_data(&bytes).unwrap();
        // Read back first, so the partial upload lands in a later frame on uploaded content.
        let mut back = vec![0u8; bytes.len()];
        t.get_data(&mut back).unwrap();
        // Block 0's content into the top-right block (4, 0): the other three stay.
        let (one, texels) = block(format, 0);
        t.set_data_region(0, Some(Rectangle::new(4, 0, 4, 4)), &one, 0, one.len()).unwrap();
        blocks[1] = texels;
        let size = one.len();
        let mut whole = vec![0u8; bytes.len()];
        t.get_data(&mut whole).unwrap();
        let want = [&bytes[..size], &one[..], &bytes[2 * size..]].concat();
        assert_eq!(whole, want, "{format:?}: only the top-right block changed");
        let mut corner = vec![0u8; size];
        t.get_data_region(0, Some(Rectangle::new(4, 4, 4, 4)), &mut corner, 0, size).unwrap();
        assert_eq!(corner, &bytes[3 * size..], "{format:?}: a one-block readback");
        // Outside the level: refused, naming the rectangle.
        let outside = Some(Rectangle::new(6, 0, 4, 4));
        let err = t.get_data_region(0, outside, &mut corner, 0, size).unwrap_err();
        assert!(matches!(err, XnaError::Argument { param: "rect", .. }), "{format:?}: {err}");
        textures.push(t);
        expected.push((format, blocks));
    }
    let (px, width) = sampled(&device, &textures.iter().collect::<Vec<_>>());
    let mut wrong = Vec::new();
    for (i, (format, blocks)) in expected.iter().enumerate() {
        compare(*format, &px, width, (1 + 10 * i as i32, 3), blocks, &mut wrong);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// XNA rounds a rectangle inside a DXT level out to the 4×4 blocks it touches: a texel-sized
/// rectangle is its whole block, one straddling a block edge is both blocks, and the data is
/// those whole blocks (a count for the rectangle's own texels is refused).
#[test]
fn rectangles_inside_a_dxt_level_are_rounded_out_to_their_blocks() {
    let _v = Validation::new();
    let device = device(8, 8);
    for format in DXT {
        if !device.format_support(format).sampled {
            skipped(
                "rectangles_inside_a_dxt_level_are_rounded_out_to_their_blocks",
                &format!("{format:?} is not available here"),
            );
            continue;
        }
        let (bytes, _) = four_blocks(format);
        let size = bytes.len() / 4;
        let t = Texture2D::with_format(&device, 8, 8, true, format).unwrap();
        t.set_data(&bytes).unwrap();
        // One texel of the bottom-right block reads that block.
        let mut one = vec![0u8; size];
        t.get_data_region(0, Some(Rectangle::new(5, 6, 1, 1)), &mut one, 0, size).unwrap();
        assert_eq!(one, &bytes[3 * size..], "{format:?}: the block of texel (5, 6)");
        // Texels 2..6 of the top row straddle blocks 0 and 1: both, in order.
        let mut two = vec![0u8; 2 * size];
        t.get_data_region(0, Some(Rectangle::new(2, 1, 4, 2)), &mut two, 0, 2 * size).unwrap();
        assert_eq!(two, &bytes[..2 * size], "{format:?}: the two blocks of a straddling row");
        // A write of texel (1, 5) replaces the bottom-left block with block 1's bytes.
        let (b1, _) = block(format, 1);
        t.set_data_region(0, Some(Rectangle::new(1, 5, 1, 1)), &b1, 0, size).unwrap();
        let mut whole = vec![0u8; bytes.len()];
        t.get_data(&mut whole).unwrap();
        let want = [&bytes[..2 * size], &b1[..], &bytes[3 * size..]].concat();
        assert_eq!(whole, want, "{format:?}: only the bottom-left block changed");
        // The data must be the whole blocks touched.
        let short = t.set_data_region(0, Some(Rectangle::new(1, 5, 1, 1)), &b1, 0, size / 2);
        assert!(matches!(short, Err(XnaError::Argument { .. })), "{format:?}: {short:?}");
        // Level 2 is 2×2, one block: a texel rectangle reads that block.
        let (b2, _) = block(format, 2);
        t.set_data_region(2, None, &b2, 0, size).unwrap();
        let mut level2 = vec![0u8; size];
        t.get_data_region(2, Some(Rectangle::new(1, 1, 1, 1)), &mut level2, 0, size).unwrap();
        assert_eq!(level2, b2, "{format:?}: the one block of level 2");
    }
}

#[test]
fn compressed_mip_levels_smaller_than_a_block_hold_one_block() {
    let _v = Validation::new();
    let device = device(8, 8);
    for format in DXT {
        if !device.format_support(format).sampled {
            continue;
        }
        let t = Texture2D::with_format(&device, 8, 8, true, format).unwrap();
        assert_eq!(t.level_count(), 4);
        let levels: Vec<Vec<u8>> = (0..4)
            .map(|level| {
                let blocks = if level == 0 { 4 } else { 1 };
                (0..blocks).flat_map(|n| block(format, (n + level) % 4).0).collect()
            })
            .collect();
        for (level, bytes) in levels.iter().enumerate() {
            t.set_data_region(level as i32, None, bytes, 0, bytes.len()).unwrap();
        }
        for (level, bytes) in levels.iter().enumerate() {
            let mut back = vec![0u8; bytes.len()];
            t.get_data_region(level as i32, None, &mut back, 0, bytes.len()).unwrap();
            assert_eq!(&back, bytes, "{format:?} level {level}");
        }
    }
}
