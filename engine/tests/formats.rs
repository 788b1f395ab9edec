//! Every uncompressed SurfaceFormat, uploaded in XNA's memory layout with distinct channel
//! values, sampled (point, opaque) into a Color target and read back exactly: the channel order
//! of the packed formats, the sign of the normalized ones, and what missing channels read as.

mod common;

use common::*;
use xnagraph::{
    BlendState, Color, RenderTarget2D, SamplerState, SpriteBatch, SpriteSortMode, SurfaceFormat,
    Texture2D, Vector2,
};

/// Unorm8 of `n` steps out of `max`, rounded to nearest. The cases use only values for which
/// that equals bit replication (what software rasterizers do), so either conversion is exact.
fn unorm(n: u32, max: u32) -> u8 {
    ((f64::from(n) * 255.0 / f64::from(max)) + 0.5).floor() as u8
}

fn u16s(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Half-float bits of 0.25, 0.75 and 1.0 (exact in binary16).
const H025: u16 = 0x3400;
const H075: u16 = 0x3A00;
const H1: u16 = 0x3C00;

/// Two texels of `format` in XNA's layout, and the colours they must sample as.
fn case(format: SurfaceFormat) -> (Vec<u8>, [Color; 2]) {
    use SurfaceFormat as S;
    let c = Color::new;
    match format {
        S::Color => {
            (vec![10, 20, 30, 40, 250, 240, 230, 220], [c(10, 20, 30, 40), c(250, 240, 230, 220)])
        }
        // R in bits 11-15, G 5-10, B 0-4.
        S::Bgr565 => (
            u16s(&[(31 << 11) | (10 << 5) | 5, (4 << 11) | (63 << 5) | 20]),
            [c(255, unorm(10, 63), unorm(5, 31), 255), c(unorm(4, 31), 255, unorm(20, 31), 255)],
        ),
        // A in bit 15, R 10-14, G 5-9, B 0-4.
        S::Bgra5551 => (
            u16s(&[(1 << 15) | (31 << 10) | (6 << 5) | 12, (25 << 10) | (31 << 5) | 2]),
            [c(255, unorm(6, 31), unorm(12, 31), 255), c(unorm(25, 31), 255, unorm(2, 31), 0)],
        ),
        // A in bits 12-15, R 8-11, G 4-7, B 0-3.
        S::Bgra4444 => (
            u16s(&[(15 << 12) | (3 << 8) | (6 << 4) | 9, (5 << 12) | (12 << 8) | (1 << 4) | 14]),
            [c(51, 102, 153, 255), c(204, 17, 238, 85)],
        ),
        // Signed bytes x, y: negative clamps to 0 in a unorm target; z and w read as 1.
        S::NormalizedByte2 => {
            (vec![127, 0x81, 0x81, 127], [c(255, 0, 255, 255), c(0, 255, 255, 255)])
        }
        S::NormalizedByte4 => {
            (vec![127, 0x81, 0, 127, 0x81, 127, 127, 0x81], [c(255, 0, 0, 255), c(0, 255, 255, 0)])
        }
        // R in bits 0-9, G 10-19, B 20-29, A 30-31.
        S::Rgba1010102 => {
            let t0: u32 = 1023 | (341 << 20) | (2 << 30);
            let t1: u32 = (682 << 10) | (1023 << 20) | (1 << 30);
            (
                [t0, t1].iter().flat_map(|v| v.to_le_bytes()).collect(),
                [c(255, 0, 85, 170), c(0, 170, 255, 85)],
            )
        }
        // Two unsigned shorts; b and a read as 1.
        S::Rg32 => (
            u16s(&[65535, 257 * 100, 257 * 30, 65535]),
            [c(255, 100, 255, 255), c(30, 255, 255, 255)],
        ),
        S::Rgba64 => (
            u16s(&[
                257 * 10,
                257 * 20,
                257 * 30,
                257 * 40,
                257 * 200,
                257 * 150,
                257 * 100,
                257 * 50,
            ]),
            [c(10, 20, 30, 40), c(200, 150, 100, 50)],
        ),
        // One byte of alpha; colour reads as 0.
        S::Alpha8 => (vec![77, 200], [c(0, 0, 0, 77), c(0, 0, 0, 200)]),
        // One float; g, b and a read as 1.
        S::Single => (f32s(&[0.25, 0.75]), [c(64, 255, 255, 255), c(191, 255, 255, 255)]),
        S::Vector2 => (f32s(&[0.25, 0.75, 1.0, 0.0]), [c(64, 191, 255, 255), c(255, 0, 255, 255)]),
        S::Vector4 => (
            f32s(&[0.25, 0.75, 1.0, 0.0, 0.0, 1.0, 0.25, 0.75]),
            [c(64, 191, 255, 0), c(0, 255, 64, 191)],
        ),
        S::HalfSingle => (u16s(&[H025, H075]), [c(64, 255, 255, 255), c(191, 255, 255, 255)]),
        S::HalfVector2 => (u16s(&[H025, H075, H1, 0]), [c(64, 191, 255, 255), c(255, 0, 255, 255)]),
        S::HalfVector4 | S::HdrBlendable => (
            u16s(&[H025, H075, H1, 0, 0, H1, H025, H075]),
            [c(64, 191, 255, 0), c(0, 255, 64, 191)],
        ),
        S::Dxt1 | S::Dxt3 | S::Dxt5 => unreachable!("block-compressed formats are not cased"),
    }
}

#[test]
fn every_uncompressed_format_samples_its_channels_as_xna_lays_them_out() {
    let _v = Validation::new();
    let formats: Vec<SurfaceFormat> =
        SurfaceFormat::ALL.into_iter().filter(|f| !f.is_block_compressed()).collect();
    let width = 4 * formats.len() as i32;
    let device = device(width, 4);
    let rt = RenderTarget2D::new(&device, width, 4).unwrap();
    let mut textures = Vec::new();
    for &format in &formats {
        if !device.format_support(format).sampled {
            eprintln!("skipping {format:?}: this device cannot sample it");
            continue;
        }
        let (bytes, _) = case(format);
        let t = Texture2D::with_format(&device, 2, 1, false, format).unwrap();
        t.set_data(&bytes).unwrap();
        textures.push((format, t));
    }
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::new(1, 2, 3, 4)).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    let (opaque, point) = (Some(BlendState::OPAQUE), Some(SamplerState::POINT_CLAMP));
    sb.begin_with(SpriteSortMode::Deferred, opaque, point, None, None, None).unwrap();
    for (format, t) in &textures {
        let i = formats.iter().position(|f| f == format).unwrap();
        sb.draw(t, Vector2::new(4.0 * i as f32 + 1.0, 2.0), Color::WHITE).unwrap();
    }
    sb.end().unwrap();
    device.set_render_target(None).unwrap();
    let px = read_target(&rt);
    let mut wrong = Vec::new();
    for (format, _) in &textures {
        let i = formats.iter().position(|f| f == format).unwrap() as i32;
        let (_, want) = case(*format);
        let got = [at(&px, width, 4 * i + 1, 2), at(&px, width, 4 * i + 2, 2)];
        if got != want {
            wrong.push(format!("{format:?}: got {got:?}, want {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
