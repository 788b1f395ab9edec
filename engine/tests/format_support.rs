//! What `GraphicsDevice::format_support` claims, checked format by format: a format claimed
//! sampled makes textures, one claimed a render target keeps its format as a target and can be
//! cleared, drawn into, read back in XNA's layout and sampled; one claimed blendable blends,
//! and blending into one that is not is refused at the call. A format that cannot be a target
//! (by the profile or by the device) is substituted by `Color`. Every format also round-trips
//! through SetData and GetData unchanged.

mod common;

use common::*;
use xnagraph::{
    Blend, BlendState, Color, DepthFormat, GraphicsDevice, GraphicsProfile, Rectangle,
    RenderTarget2D, RenderTargetUsage, SamplerState, SpriteBatch, SpriteSortMode, SurfaceFormat,
    Texture2D, XnaError,
};

/// `v` (in 0..1) as an unsigned normalized integer of `bits` bits.
fn unorm(v: f32, bits: u32) -> u32 {
    (f64::from(v) * f64::from((1u32 << bits) - 1)).round() as u32
}

fn snorm8(v: f32) -> u8 {
    ((f64::from(v) * 127.0).round() as i8) as u8
}

/// Half-float bits of `v`, for the normal values (and zero) the cases use.
fn half(v: f32) -> u16 {
    if v == 0.0 {
        return 0;
    }
    let bits = v.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xFF) as i32 - 127 + 15;
    assert!((1..31).contains(&exp) && bits & 0x1FFF == 0, "{v} is not exact in binary16");
    sign | ((exp as u16) << 10) | ((bits >> 13) & 0x3FF) as u16
}

/// The texel XNA stores for the colour `v` in `format` (its SetData/GetData layout).
fn encode(format: SurfaceFormat, v: [f32; 4]) -> Vec<u8> {
    use SurfaceFormat as S;
    let [r, g, b, a] = v;
    let u16s = |w: &[u32]| w.iter().flat_map(|x| (*x as u16).to_le_bytes()).collect();
    let halves = |w: &[f32]| w.iter().flat_map(|x| half(*x).to_le_bytes()).collect();
    let floats = |w: &[f32]| w.iter().flat_map(|x| x.to_le_bytes()).collect();
    match format {
        S::Color => v.iter().map(|x| unorm(*x, 8) as u8).collect(),
        S::Bgr565 => u16s(&[unorm(r, 5) << 11 | unorm(g, 6) << 5 | unorm(b, 5)]),
        S::Bgra5551 => {
            u16s(&[unorm(a, 1) << 15 | unorm(r, 5) << 10 | unorm(g, 5) << 5 | unorm(b, 5)])
        }
        S::Bgra4444 => {
            u16s(&[unorm(a, 4) << 12 | unorm(r, 4) << 8 | unorm(g, 4) << 4 | unorm(b, 4)])
        }
        S::NormalizedByte2 => vec![snorm8(r), snorm8(g)],
        S::NormalizedByte4 => v.iter().map(|x| snorm8(*x)).collect(),
        S::Rgba1010102 => {
            let w = unorm(r, 10) | unorm(g, 10) << 10 | unorm(b, 10) << 20 | unorm(a, 2) << 30;
            w.to_le_bytes().to_vec()
        }
        S::Rg32 => u16s(&[unorm(r, 16), unorm(g, 16)]),
        S::Rgba64 => u16s(&[unorm(r, 16), unorm(g, 16), unorm(b, 16), unorm(a, 16)]),
        S::Alpha8 => vec![unorm(a, 8) as u8],
        S::Single => floats(&[r]),
        S::Vector2 => floats(&[r, g]),
        S::Vector4 => floats(&v),
        S::HalfSingle => halves(&[r]),
        S::HalfVector2 => halves(&[r, g]),
        S::HalfVector4 | S::HdrBlendable => halves(&v),
        S::Dxt1 | S::Dxt3 | S::Dxt5 => unreachable!("block-compressed formats have no texel"),
    }
}

/// A colour with a distinct value in each channel, exact in `format`'s channel widths.
fn distinct(format: SurfaceFormat) -> [f32; 4] {
    use SurfaceFormat as S;
    match format {
        // Fifths are exact in 4, 8 and 16 bits.
        S::Color | S::Bgra4444 | S::Rg32 | S::Rgba64 | S::Alpha8 => [0.2, 0.4, 0.6, 0.8],
        S::Bgr565 => [4.0 / 31.0, 16.0 / 63.0, 25.0 / 31.0, 1.0],
        S::Bgra5551 => [4.0 / 31.0, 16.0 / 31.0, 25.0 / 31.0, 1.0],
        S::Rgba1010102 => [1.0 / 3.0, 2.0 / 3.0, 1.0, 1.0 / 3.0],
        S::NormalizedByte2 | S::NormalizedByte4 => [1.0, -1.0, 0.0, -32.0 / 127.0],
        _ => [0.25, -0.5, 1.5, 2.0],
    }
}

/// How XNA samples a texel of `format` holding `v` into a Color target: missing channels read
/// as 1 (see `SurfaceFormat`), then clamped to 0..1.
fn sampled(format: SurfaceFormat, v: [f32; 4]) -> Color {
    use SurfaceFormat as S;
    let [r, g, b, a] = v;
    let s = match format {
        S::Single | S::HalfSingle => [r, 1.0, 1.0, 1.0],
        S::Vector2 | S::HalfVector2 | S::Rg32 | S::NormalizedByte2 => [r, g, 1.0, 1.0],
        S::Bgr565 => [r, g, b, 1.0],
        S::Alpha8 => [0.0, 0.0, 0.0, a],
        _ => v,
    };
    let c = |x: f32| unorm(x.clamp(0.0, 1.0), 8) as u8;
    Color::new(c(s[0]), c(s[1]), c(s[2]), c(s[3]))
}

fn target(device: &GraphicsDevice, format: SurfaceFormat) -> RenderTarget2D {
    multisampled_target(device, format, 0)
}

fn multisampled_target(
    device: &GraphicsDevice,
    format: SurfaceFormat,
    samples: i32,
) -> RenderTarget2D {
    RenderTarget2D::with_options(
        device,
        8,
        8,
        false,
        format,
        DepthFormat::None,
        samples,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap()
}

/// The texel at (x, y) of an 8-wide target of `format`, as bytes.
fn texel(bytes: &[u8], format: SurfaceFormat, x: usize, y: usize) -> &[u8] {
    let size = format.element_size();
    &bytes[(y * 8 + x) * size..][..size]
}

fn read_bytes(rt: &RenderTarget2D) -> Vec<u8> {
    let mut bytes = vec![0u8; 64 * rt.format().element_size()];
    rt.get_data(&mut bytes).unwrap();
    bytes
}

fn draw(device: &GraphicsDevice, white: &Texture2D, blend: BlendState, tint: Color) {
    let mut sb = SpriteBatch::new(device).unwrap();
    sb.begin_with(SpriteSortMode::Deferred, Some(blend), None, None, None, None).unwrap();
    sb.draw_rect(white, Rectangle::new(5, 1, 2, 3), tint).unwrap();
    sb.end().unwrap();
}

const UNCOMPRESSED: fn(&SurfaceFormat) -> bool = |f| !f.is_block_compressed();

#[test]
fn every_format_round_trips_through_set_data_and_get_data() {
    let _v = Validation::new();
    let device = device(8, 8);
    for format in SurfaceFormat::ALL.into_iter().filter(UNCOMPRESSED) {
        if !device.format_support(format).sampled {
            skipped("every_format_round_trips", &format!("{format:?} textures are refused here"));
            continue;
        }
        // Two texels: the distinct colour, and its channels reversed.
        let v = distinct(format);
        let bytes = [encode(format, v), encode(format, [v[3], v[2], v[1], v[0]])].concat();
        let t = Texture2D::with_format(&device, 2, 1, false, format).unwrap();
        t.set_data(&bytes).unwrap();
        let mut back = vec![0u8; bytes.len()];
        t.get_data(&mut back).unwrap();
        assert_eq!(back, bytes, "{format:?} texture");
    }
}

#[test]
fn each_claimed_capability_of_each_format_works() {
    let _v = Validation::new();
    claimed_capabilities_work(0);
}

#[test]
fn each_claimed_capability_of_each_format_works_multisampled() {
    let _v = Validation::new();
    claimed_capabilities_work(4);
}

/// Checks every format's claims with targets of `samples` samples (resolved before they are read
/// or sampled).
fn claimed_capabilities_work(samples: i32) {
    let device = device(8, 8);
    let white = white(&device);
    let sink = RenderTarget2D::new(&device, 8, 8).unwrap();
    let add = BlendState {
        color_source_blend: Blend::One,
        color_destination_blend: Blend::One,
        alpha_source_blend: Blend::One,
        alpha_destination_blend: Blend::One,
        ..BlendState::OPAQUE
    };
    let mut wrong = Vec::new();
    for format in SurfaceFormat::ALL {
        let support = device.format_support(format);
        // Sampling: a texture of the format is made exactly when the device samples it.
        let texture = Texture2D::with_format(&device, 4, 4, false, format);
        match (support.sampled, &texture) {
            (true, Ok(_)) | (false, Err(XnaError::NotSupported { .. })) => {}
            (_, other) => wrong.push(format!("{format:?}: sampled {}, {other:?}", support.sampled)),
        }
        // Render target: the format is kept exactly when the profile allows it and the device
        // renders it; otherwise the target is Color.
        let rt = multisampled_target(&device, format, samples);
        let name = format!("claimed_capabilities_work({samples}) of {format:?}");
        if !multisampled_as_requested(&name, rt.multi_sample_count(), samples) {
            continue;
        }
        let renders = support.render_target && !format.is_block_compressed();
        let applied = if renders { format } else { SurfaceFormat::Color };
        if rt.format() != applied {
            wrong.push(format!("{format:?}: a target of it is {:?}", rt.format()));
            continue;
        }
        // Mip generation: a mipmapped target of it is made exactly when its levels can be
        // generated.
        let generates = device.format_support(applied).mip_generation;
        let mipmapped = RenderTarget2D::with_options(
            &device,
            8,
            8,
            true,
            format,
            DepthFormat::None,
            samples,
            RenderTargetUsage::DiscardContents,
        );
        match (generates, &mipmapped) {
            (true, Ok(_)) | (false, Err(XnaError::NotSupported { .. })) => {}
            (_, other) => wrong.push(format!("{format:?}: mip generation {generates}, {other:?}")),
        }
        // Cleared to a distinct colour, a (1, 0, 1, 0) sprite drawn over part of it: read back
        // in the applied format's layout, and sampled into a Color target.
        let v = distinct(applied);
        device.set_render_target(Some(&rt)).unwrap();
        device.clear_with(xnagraph::ClearOptions::TARGET, v, 1.0, 0).unwrap();
        draw(&device, &white, BlendState::OPAQUE, Color::new(255, 0, 255, 0));
        device.set_render_target(None).unwrap();
        let bytes = read_bytes(&rt);
        let drawn = encode(applied, [1.0, 0.0, 1.0, 0.0]);
        if texel(&bytes, applied, 1, 6) != encode(applied, v) {
            wrong.push(format!("{format:?}: cleared texel {:?}", texel(&bytes, applied, 1, 6)));
        }
        if texel(&bytes, applied, 6, 2) != drawn {
            wrong.push(format!("{format:?}: drawn texel {:?}", texel(&bytes, applied, 6, 2)));
        }
        if support.sampled {
            device.set_render_target(Some(&sink)).unwrap();
            let (opaque, point) = (Some(BlendState::OPAQUE), Some(SamplerState::POINT_CLAMP));
            let mut sb = SpriteBatch::new(&device).unwrap();
            sb.begin_with(SpriteSortMode::Deferred, opaque, point, None, None, None).unwrap();
            sb.draw(&rt, xnagraph::Vector2::ZERO, Color::WHITE).unwrap();
            sb.end().unwrap();
            device.set_render_target(None).unwrap();
            let px = read_target(&sink);
            let want = [(1, 6, sampled(applied, v)), (6, 2, sampled(applied, [1., 0., 1., 0.]))];
            for (x, y, want) in want {
                if at(&px, 8, x, y) != want {
                    wrong
                        .push(format!("{format:?}: sampled {:?}, want {want:?}", at(&px, 8, x, y)));
                }
            }
        }
        // Blending: (1, 0, 1, 0) drawn opaque, then (0, 1, 0, 1) added over it, gives 1 in every
        // channel only if the second draw blended.
        device.set_render_target(Some(&rt)).unwrap();
        draw(&device, &white, BlendState::OPAQUE, Color::new(255, 0, 255, 0));
        let mut sb = SpriteBatch::new(&device).unwrap();
        let begun = sb.begin_with(SpriteSortMode::Deferred, Some(add), None, None, None, None);
        let blendable = device.format_support(applied).blendable;
        match (blendable, begun) {
            (true, Ok(())) => {
                sb.draw_rect(&white, Rectangle::new(5, 1, 2, 3), Color::new(0, 255, 0, 255))
                    .unwrap();
                sb.end().unwrap();
                device.set_render_target(None).unwrap();
                let bytes = read_bytes(&rt);
                if texel(&bytes, applied, 6, 2) != encode(applied, [1.0; 4]) {
                    let got = texel(&bytes, applied, 6, 2);
                    wrong.push(format!("{format:?}: blended texel {got:?}"));
                }
            }
            (false, Err(XnaError::NotSupported { .. })) => {
                device.set_render_target(None).unwrap();
            }
            (_, other) => {
                wrong.push(format!("{format:?}: blendable {blendable}, Begin gave {other:?}"));
                if other.is_ok() {
                    sb.end().unwrap();
                }
                device.set_render_target(None).unwrap();
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_target_format_the_profile_forbids_is_color_under_reach() {
    let _v = Validation::new();
    let reach = device_with(GraphicsProfile::Reach, params(8, 8));
    for format in SurfaceFormat::ALL {
        let rt = target(&reach, format);
        assert_eq!(rt.format(), SurfaceFormat::Color, "{format:?} under Reach");
        // It really is Color: four bytes a texel, in Color's order.
        reach.set_render_target(Some(&rt)).unwrap();
        reach.clear_with(xnagraph::ClearOptions::TARGET, [0.2, 0.4, 0.6, 0.8], 1.0, 0).unwrap();
        reach.set_render_target(None).unwrap();
        assert_eq!(read_target(&rt)[37], Color::new(51, 102, 153, 204), "{format:?}");
    }
}
