//! TextureCube and RenderTargetCube: construction rules, per-face data transfer, per-face
//! binding through the common binding list, the shared depth buffer, multisampled faces.

mod common;

use common::*;
use xnagraph::{
    ClearOptions, Color, CubeMapFace, DepthFormat, DepthStencilState, GraphicsDevice,
    GraphicsProfile, Rectangle, RenderTarget2D, RenderTargetBinding, RenderTargetCube,
    RenderTargetUsage, SpriteBatch, SpriteEffects, SpriteSortMode, SurfaceFormat, TextureCube,
    Vector2, XnaError,
};

/// One distinct colour per face, in `CubeMapFace` order.
const FACE_COLORS: [Color; 6] = [
    Color::new(255, 0, 0, 255),
    Color::new(0, 255, 0, 255),
    Color::new(0, 0, 255, 255),
    Color::new(255, 255, 0, 255),
    Color::new(0, 255, 255, 255),
    Color::new(255, 0, 255, 255),
];

/// An off-centre rectangle of its own per face, inside an 8×8 face (no two faces share one).
fn face_rect(i: usize) -> Rectangle {
    let i = i as i32;
    Rectangle::new(1 + i, 2 + (i % 3), 2, 2 + (i % 2))
}

fn cube_target(
    device: &GraphicsDevice,
    size: i32,
    depth: DepthFormat,
    samples: i32,
    usage: RenderTargetUsage,
) -> RenderTargetCube {
    RenderTargetCube::with_options(device, size, false, SurfaceFormat::Color, depth, samples, usage)
        .expect("cube target")
}

fn read_face(cube: &TextureCube, face: CubeMapFace, level: i32) -> Vec<Color> {
    let edge = (cube.size() >> level).max(1);
    let mut out = vec![Color::TRANSPARENT; (edge * edge) as usize];
    let n = out.len();
    cube.get_data_region(face, level, None, &mut out, 0, n).expect("get_data");
    out
}

/// Draws `rect` in `color` at `depth` into the current target, with `state`.
fn fill(
    device: &GraphicsDevice,
    rect: Rectangle,
    color: Color,
    depth: f32,
    state: Option<DepthStencilState>,
) {
    let white = white(device);
    let mut sb = SpriteBatch::new(device).unwrap();
    sb.begin_with(SpriteSortMode::Deferred, None, None, state, None, None).unwrap();
    sb.draw_rect_ex(&white, rect, None, color, 0.0, Vector2::ZERO, SpriteEffects::NONE, depth)
        .unwrap();
    sb.end().unwrap();
}

/// Asserts that `pixels` (an `edge`-wide face) hold `color` inside `rect` and `outside`
/// everywhere else.
#[track_caller]
fn assert_rect(pixels: &[Color], edge: i32, rect: Rectangle, color: Color, outside: Color) {
    for y in 0..edge {
        for x in 0..edge {
            let inside =
                x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height;
            let want = if inside { color } else { outside };
            assert_eq!(at(pixels, edge, x, y), want, "pixel ({x}, {y})");
        }
    }
}

/// Renders each face its own off-centre rectangle, one bind per face, and reads the six faces
/// back: a face written into the wrong layer, or a readback of the wrong layer, shows another
/// face's rectangle.
fn render_and_check_each_face(device: &GraphicsDevice, cube: &RenderTargetCube) {
    for (i, face) in CubeMapFace::ALL.into_iter().enumerate() {
        device.set_render_target_cube(Some(cube), face).unwrap();
        fill(device, face_rect(i), FACE_COLORS[i], 0.0, None);
    }
    device.set_render_target(None).unwrap();
    for (i, face) in CubeMapFace::ALL.into_iter().enumerate() {
        let px = read_face(cube, face, 0);
        assert_rect(&px, cube.size(), face_rect(i), FACE_COLORS[i], Color::BLACK);
    }
}

#[test]
fn each_face_renders_its_own_colour_and_reads_back_per_face() {
    let _v = Validation::new();
    let device = device(8, 8);
    let cube = cube_target(&device, 8, DepthFormat::None, 0, RenderTargetUsage::DiscardContents);
    assert_eq!((cube.size(), cube.level_count(), cube.format()), (8, 1, SurfaceFormat::Color));
    render_and_check_each_face(&device, &cube);
}

#[test]
fn every_face_of_a_multisampled_cube_resolves_to_its_own_colour() {
    let _v = Validation::new();
    let device = device(8, 8);
    let cube = cube_target(&device, 8, DepthFormat::None, 4, RenderTargetUsage::DiscardContents);
    if !multisampled_as_requested("multisampled cube", cube.multi_sample_count(), 4) {
        return;
    }
    render_and_check_each_face(&device, &cube);
}

/// A preserving multisampled cube keeps each face's samples across its bind cycles: every face
/// is drawn in two rounds (all six faces, then all six again), and each face ends with both of
/// its own rectangles and nothing of another face's.
#[test]
fn a_preserving_multisampled_cube_keeps_each_faces_samples_across_cycles() {
    let _v = Validation::new();
    let device = device(8, 8);
    let cube = cube_target(&device, 8, DepthFormat::None, 4, RenderTargetUsage::PreserveContents);
    if !multisampled_as_requested("preserving multisampled cube", cube.multi_sample_count(), 4) {
        return;
    }
    let second = |i: usize| Rectangle::new(7 - (i as i32), 7, 1, 1);
    for round in 0..2 {
        for (i, face) in CubeMapFace::ALL.into_iter().enumerate() {
            device.set_render_target_cube(Some(&cube), face).unwrap();
            if round == 0 {
                device.clear(Color::BLACK).unwrap();
                fill(&device, face_rect(i), FACE_COLORS[i], 0.0, None);
            } else {
                fill(&device, second(i), Color::WHITE, 0.0, None);
            }
        }
    }
    device.set_render_target(None).unwrap();
    for (i, face) in CubeMapFace::ALL.into_iter().enumerate() {
        let px = read_face(&cube, face, 0);
        for y in 0..8 {
            for x in 0..8 {
                let r = face_rect(i);
                let s = second(i);
                let want = if x == s.x && y == s.y {
                    Color::WHITE
                } else if x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height {
                    FACE_COLORS[i]
                } else {
                    Color::BLACK
                };
                assert_eq!(at(&px, 8, x, y), want, "face {face:?} pixel ({x}, {y})");
            }
        }
    }
}

#[test]
fn per_face_set_data_round_trips_at_an_off_centre_rect_and_at_level_one() {
    let _v = Validation::new();
    let device = device(8, 8);
    let cube = TextureCube::new(&device, 8, true, SurfaceFormat::Color).unwrap();
    assert_eq!(cube.level_count(), 4);
    let level0 = Rectangle::new(1, 2, 3, 2);
    let level1 = Rectangle::new(2, 1, 1, 2);
    for (i, face) in CubeMapFace::ALL.into_iter().enumerate() {
        cube.set_data_region(face, 0, Some(level0), &[FACE_COLORS[i]; 6], 0, 6).unwrap();
        let other = FACE_COLORS[(i + 3) % 6];
        cube.set_data_region(face, 1, Some(level1), &[other; 2], 0, 2).unwrap();
    }
    for (i, face) in CubeMapFace::ALL.into_iter().enumerate() {
        let zero = Color::new(0, 0, 0, 0);
        assert_rect(&read_face(&cube, face, 0), 8, level0, FACE_COLORS[i], zero);
        assert_rect(&read_face(&cube, face, 1), 4, level1, FACE_COLORS[(i + 3) % 6], zero);
        // A region read of the same rectangle, into the middle of a larger array.
        let mut part = [Color::TRANSPARENT; 8];
        cube.get_data_region(face, 0, Some(level0), &mut part, 1, 6).unwrap();
        assert_eq!(part[0], Color::TRANSPARENT);
        assert!(part[1..7].iter().all(|&p| p == FACE_COLORS[i]), "{face:?}: {part:?}");
        assert_eq!(part[7], Color::TRANSPARENT);
    }
    // XNA's errors, per face as for a 2D texture.
    let face = CubeMapFace::NegativeY;
    let err = cube.set_data_region(face, 4, None, &[Color::RED; 1], 0, 1).unwrap_err();
    assert!(matches!(err, XnaError::ArgumentOutOfRange { param: "level", .. }), "{err}");
    let outside = Some(Rectangle::new(6, 6, 3, 1));
    let err = cube.set_data_region(face, 0, outside, &[Color::RED; 3], 0, 3).unwrap_err();
    assert!(matches!(err, XnaError::Argument { param: "rect", .. }), "{err}");
    let err = cube.set_data_region(face, 0, Some(level0), &[Color::RED; 6], 0, 5).unwrap_err();
    assert!(matches!(err, XnaError::Argument { .. }), "{err}");
    let mut short = [Color::TRANSPARENT; 4];
    let err = cube.get_data(face, &mut short).unwrap_err();
    assert!(matches!(err, XnaError::Argument { .. }), "{err}");
}

#[test]
fn set_data_on_a_cube_target_face_keeps_the_rest_of_the_face() {
    let _v = Validation::new();
    let device = device(8, 8);
    let cube = cube_target(&device, 8, DepthFormat::None, 0, RenderTargetUsage::PreserveContents);
    let face = CubeMapFace::PositiveZ;
    device.set_render_target_cube(Some(&cube), face).unwrap();
    device.clear(Color::BLUE).unwrap();
    device.set_render_target(None).unwrap();
    let rect = Rectangle::new(5, 1, 2, 3);
    cube.set_data_region(face, 0, Some(rect), &[Color::RED; 6], 0, 6).unwrap();
    assert_rect(&read_face(&cube, face, 0), 8, rect, Color::RED, Color::BLUE);
    // A bound face's cube cannot transfer data.
    device.set_render_target_cube(Some(&cube), CubeMapFace::NegativeX).unwrap();
    let err = cube.set_data(face, &[Color::RED; 64]).unwrap_err();
    assert!(matches!(err, XnaError::InvalidOperation { .. }), "{err}");
    let mut px = [Color::TRANSPARENT; 64];
    let err = cube.get_data(face, &mut px).unwrap_err();
    assert!(matches!(err, XnaError::InvalidOperation { .. }), "{err}");
}

/// Rebinding the same face is a no-op (its draws accumulate without a new bind clear); binding
/// another face of the same cube is a real transition, compared by face as well as resource.
#[test]
fn the_same_set_shortcut_compares_the_face_as_well_as_the_cube() {
    let _v = Validation::new();
    let device = device(8, 8);
    let cube = cube_target(&device, 8, DepthFormat::None, 0, RenderTargetUsage::DiscardContents);
    device.set_render_target_cube(Some(&cube), CubeMapFace::NegativeX).unwrap();
    fill(&device, face_rect(0), Color::RED, 0.0, None);
    device.set_render_target_cube(Some(&cube), CubeMapFace::NegativeX).unwrap();
    fill(&device, face_rect(5), Color::BLUE, 0.0, None);
    device.set_render_target_cube(Some(&cube), CubeMapFace::PositiveY).unwrap();
    assert_eq!(device.render_target_bindings(), [(cube.resource_id(), 2)]);
    fill(&device, face_rect(3), Color::GREEN, 0.0, None);
    device.set_render_target(None).unwrap();
    let px = read_face(&cube, CubeMapFace::NegativeX, 0);
    let (a, b) = (face_rect(0), face_rect(5));
    assert_eq!(at(&px, 8, a.x, a.y), Color::RED, "kept across the no-op rebind");
    assert_eq!(at(&px, 8, b.x, b.y), Color::BLUE, "drawn after the no-op rebind");
    let c = face_rect(3);
    assert_eq!(at(&px, 8, c.x + 1, c.y + 2), Color::BLACK, "the other face's draw");
    let px = read_face(&cube, CubeMapFace::PositiveY, 0);
    assert_rect(&px, 8, c, Color::GREEN, Color::BLACK);
}

/// A face is one member of a multi-target set: the first target's usage decides the bind
/// clear, and SpriteBatch draws write slot 0 only.
#[test]
fn a_face_in_a_two_target_set_with_a_2d_target() {
    let _v = Validation::new();
    let device = device(8, 8);
    let cube = cube_target(&device, 8, DepthFormat::None, 0, RenderTargetUsage::PreserveContents);
    let flat = RenderTarget2D::new(&device, 8, 8).unwrap(); // DiscardContents
    let face = CubeMapFace::NegativeZ;
    cube.set_data(face, &[Color::RED; 64]).unwrap();
    let flat_first = [RenderTargetBinding::from(&flat), RenderTargetBinding::cube(&cube, face)];
    device.set_render_targets(&flat_first).unwrap();
    assert_eq!(device.render_target_bindings(), [(flat.resource_id(), 0), (cube.resource_id(), 5)]);
    let rect = Rectangle::new(1, 5, 4, 2);
    fill(&device, rect, Color::GREEN, 0.0, None);
    device.set_render_target(None).unwrap();
    assert_rect(&read_target(&flat), 8, rect, Color::GREEN, Color::BLACK);
    let px = read_face(&cube, face, 0);
    assert!(px.iter().all(|&p| p == Color::BLACK), "the discarding first target cleared it");

    // Preserving face first: no bind clear; the draw lands in the face only.
    cube.set_data(face, &[Color::RED; 64]).unwrap();
    let cube_first = [RenderTargetBinding::cube(&cube, face), RenderTargetBinding::from(&flat)];
    device.set_render_targets(&cube_first).unwrap();
    let rect = Rectangle::new(6, 0, 2, 3);
    fill(&device, rect, Color::BLUE, 0.0, None);
    device.set_render_target(None).unwrap();
    assert_rect(&read_face(&cube, face, 0), 8, rect, Color::BLUE, Color::RED);
    assert_ne!(at(&read_target(&flat), 8, 7, 1), Color::BLUE, "slot 1 is not drawn into");

    // Sizes must match, and one cube on two slots is refused whatever the faces.
    let big = RenderTarget2D::new(&device, 16, 16).unwrap();
    let err = device
        .set_render_targets(&[RenderTargetBinding::cube(&cube, face), (&big).into()])
        .unwrap_err();
    assert!(matches!(err, XnaError::Argument { .. }), "{err}");
    let two_faces = [
        RenderTargetBinding::cube(&cube, CubeMapFace::PositiveX),
        RenderTargetBinding::cube(&cube, CubeMapFace::NegativeX),
    ];
    let err = device.set_render_targets(&two_faces).unwrap_err();
    assert!(matches!(err, XnaError::Argument { .. }), "{err}");
    assert!(device.render_target_bindings().is_empty(), "a refused set changes nothing");
}

/// The six faces share one depth buffer: depth written through one face rejects a farther draw
/// through another.
#[test]
fn depth_is_shared_by_the_six_faces() {
    let _v = Validation::new();
    let device = device(8, 8);
    let cube =
        cube_target(&device, 8, DepthFormat::Depth24, 0, RenderTargetUsage::PreserveContents);
    assert_eq!(cube.depth_stencil_format(), DepthFormat::Depth24);
    let tested = Some(DepthStencilState::DEFAULT);
    device.set_render_target_cube(Some(&cube), CubeMapFace::PositiveY).unwrap();
    device.clear_with(ClearOptions::all(), [0.0, 0.0, 0.0, 1.0], 1.0, 0).unwrap();
    fill(&device, Rectangle::new(0, 0, 3, 8), Color::GREEN, 0.2, tested);
    device.set_render_target_cube(Some(&cube), CubeMapFace::PositiveZ).unwrap();
    // 128/255, not 0.5: 0.5 × 255 lies halfway between two values, and Vulkan lets a driver
    // convert it to either (an NVIDIA driver gives 127, lavapipe 128).
    let grey_level = 128.0 / 255.0;
    device
        .clear_with(ClearOptions::TARGET, [grey_level, grey_level, grey_level, 1.0], 1.0, 0)
        .unwrap();
    fill(&device, Rectangle::new(0, 0, 8, 8), Color::RED, 0.5, tested);
    device.set_render_target(None).unwrap();
    let grey = Color::new(128, 128, 128, 255);
    let px = read_face(&cube, CubeMapFace::PositiveZ, 0);
    assert_rect(&px, 8, Rectangle::new(3, 0, 5, 8), Color::RED, grey);
}

/// XNA's HiDef cube targets take no signed normalised format: a preferred `NormalizedByte2`
/// or `NormalizedByte4` gives a `Color` cube (not an error), while a format on XNA's list that
/// the adapter renders stays as asked.
#[test]
fn a_hidef_cube_target_substitutes_color_for_formats_xna_cannot_render() {
    let _v = Validation::new();
    let hidef = device(8, 8);
    let target = |format| RenderTargetCube::new(&hidef, 8, false, format, DepthFormat::None);
    for format in [SurfaceFormat::NormalizedByte2, SurfaceFormat::NormalizedByte4] {
        assert_eq!(target(format).unwrap().format(), SurfaceFormat::Color, "{format:?}");
    }
    for format in [SurfaceFormat::Vector4, SurfaceFormat::Bgr565, SurfaceFormat::HalfVector2] {
        let want =
            if hidef.format_support(format).render_target { format } else { SurfaceFormat::Color };
        assert_eq!(target(format).unwrap().format(), want, "{format:?}");
    }
}

#[test]
fn construction_follows_the_profile_cube_rules() {
    let _v = Validation::new();
    let reach = device_with(GraphicsProfile::Reach, params(8, 8));
    let refused = |r: xnagraph::Result<()>| matches!(r, Err(XnaError::NotSupported { .. }));
    let texture = |d: &GraphicsDevice, size| TextureCube::new(d, size, false, SurfaceFormat::Color);
    let target = |d: &GraphicsDevice, size| {
        RenderTargetCube::new(d, size, false, SurfaceFormat::Color, DepthFormat::None)
    };
    assert!(refused(texture(&reach, 1024).map(drop)), "over Reach's 512");
    assert!(refused(target(&reach, 1024).map(drop)), "over Reach's 512");
    assert!(refused(texture(&reach, 48).map(drop)), "not a power of two under Reach");
    assert!(refused(target(&reach, 48).map(drop)), "not a power of two under Reach");
    assert_eq!(target(&reach, 512).unwrap().size(), 512);
    // The cube-target format verdict: Reach renders only to Color.
    let hdr =
        RenderTargetCube::new(&reach, 8, false, SurfaceFormat::HdrBlendable, DepthFormat::None);
    assert_eq!(hdr.unwrap().format(), SurfaceFormat::Color);
    drop(reach);

    let hidef = device(8, 8);
    assert_eq!(texture(&hidef, 48).unwrap().size(), 48);
    assert!(refused(target(&hidef, 4097).map(drop)), "over HiDef's 4096");
    assert!(refused(texture(&hidef, 4097).map(drop)), "over HiDef's 4096");
    if hidef.capabilities().max_cube_dimension >= 4096 {
        assert_eq!(target(&hidef, 4096).unwrap().size(), 4096);
    } else {
        skipped("cube ceiling", "the adapter's cube limit is under 4096");
    }
    let err = texture(&hidef, 0).unwrap_err();
    assert!(matches!(err, XnaError::ArgumentOutOfRange { param: "size", .. }), "{err}");
    let hdr =
        RenderTargetCube::new(&hidef, 8, false, SurfaceFormat::HdrBlendable, DepthFormat::None);
    assert_eq!(hdr.unwrap().format(), SurfaceFormat::HdrBlendable);
    // Applied depth format and clamped sample count, as a 2D target reports them.
    let cube =
        cube_target(&hidef, 8, DepthFormat::Depth24Stencil8, 3, RenderTargetUsage::DiscardContents);
    let flat = RenderTarget2D::with_options(
        &hidef,
        8,
        8,
        false,
        SurfaceFormat::Color,
        DepthFormat::Depth24Stencil8,
        3,
        RenderTargetUsage::DiscardContents,
    )
    .unwrap();
    assert_eq!(cube.depth_stencil_format(), flat.depth_stencil_format());
    assert_eq!(cube.multi_sample_count(), flat.multi_sample_count());
    assert_eq!(cube.render_target_usage(), RenderTargetUsage::DiscardContents);
    assert!(!cube.is_content_lost());
}

#[test]
fn disposing_a_bound_cube_is_refused_and_dropping_one_detaches_it() {
    let _v = Validation::new();
    let device = device(8, 8);
    let cube = cube_target(&device, 8, DepthFormat::None, 0, RenderTargetUsage::DiscardContents);
    device.set_render_target_cube(Some(&cube), CubeMapFace::NegativeY).unwrap();
    let err = cube.dispose().unwrap_err();
    assert_eq!(
        err,
        XnaError::InvalidOperation { message: "Disposing target that is still bound".into() }
    );
    assert!(!cube.is_disposed());
    device.set_render_target(None).unwrap();
    cube.dispose().unwrap();
    assert!(cube.is_disposed());
    let err = device.set_render_target_cube(Some(&cube), CubeMapFace::PositiveX).unwrap_err();
    assert!(matches!(err, XnaError::ObjectDisposed { .. }), "{err}");

    {
        let cube =
            cube_target(&device, 8, DepthFormat::None, 0, RenderTargetUsage::DiscardContents);
        device.set_render_target_cube(Some(&cube), CubeMapFace::PositiveZ).unwrap();
        device.clear(Color::RED).unwrap();
    }
    assert!(device.render_target_bindings().is_empty(), "the dead binding is gone");
    assert!(matches!(device.present(), Err(XnaError::InvalidOperation { .. })));
    device.set_render_target(None).unwrap();
    device.present().unwrap();
}

#[test]
fn a_face_outside_the_six_values_is_out_of_range() {
    let _v = Validation::new();
    let device = device(8, 8);
    for (i, face) in CubeMapFace::ALL.into_iter().enumerate() {
        assert_eq!(CubeMapFace::try_from(i as i32).unwrap(), face);
        assert_eq!(face as i32, i as i32);
    }
    for bad in [-1, 6, i32::MAX] {
        let err = CubeMapFace::try_from(bad).unwrap_err();
        assert!(matches!(err, XnaError::ArgumentOutOfRange { param: "cubeMapFace", .. }));
    }
    let cube = cube_target(&device, 8, DepthFormat::None, 0, RenderTargetUsage::DiscardContents);
    device.set_render_target_cube(Some(&cube), CubeMapFace::PositiveX).unwrap();
    for bad in [-1, 6] {
        let binding = RenderTargetBinding { render_target: Some((&cube).into()), array_slice: bad };
        let err = device.set_render_targets(&[binding]).unwrap_err();
        assert!(matches!(err, XnaError::ArgumentOutOfRange { param: "cubeMapFace", .. }), "{err}");
        assert_eq!(device.render_target_bindings(), [(cube.resource_id(), 0)], "unchanged");
    }
}

#[test]
fn cubes_are_tracked_resources_and_cube_targets_can_lose_content() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    let _v = Validation::new();
    let device = device(8, 8);
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let l = log.clone();
    device.events().resource_created.subscribe(move |a| {
        l.lock().unwrap().push(format!("created {}", a.kind));
    });
    let l = log.clone();
    device.events().resource_destroyed.subscribe(move |a| {
        l.lock().unwrap().push(format!("destroyed {}", a.kind));
    });
    let before = device.tracked_resource_count();
    let texture = TextureCube::new(&device, 4, false, SurfaceFormat::Color).unwrap();
    let target = cube_target(&device, 4, DepthFormat::None, 0, RenderTargetUsage::DiscardContents);
    assert_eq!(device.tracked_resource_count(), before + 2);

    let raised = Arc::new(AtomicUsize::new(0));
    let r = raised.clone();
    target.content_lost().subscribe(move |_| {
        r.fetch_add(1, Ordering::SeqCst);
    });
    device.notify_device_reset();
    assert!(target.is_content_lost());
    assert_eq!(raised.load(Ordering::SeqCst), 1);
    device.set_render_target_cube(Some(&target), CubeMapFace::NegativeZ).unwrap();
    assert!(!target.is_content_lost(), "binding a face takes the content back");
    device.set_render_target(None).unwrap();

    texture.dispose();
    assert!(texture.is_disposed());
    let mut px = [Color::TRANSPARENT; 16];
    let err = texture.get_data(CubeMapFace::PositiveX, &mut px).unwrap_err();
    assert!(matches!(err, XnaError::ObjectDisposed { .. }), "{err}");
    drop((texture, target));
    assert_eq!(device.tracked_resource_count(), before);
    assert_eq!(
        *log.lock().unwrap(),
        [
            "created TextureCube",
            "created RenderTargetCube",
            "destroyed TextureCube",
            "destroyed RenderTargetCube"
        ]
    );
}

/// A mipmapped cube target: a format the device cannot generate mips for is refused at
/// creation; a rendered face's smaller levels are generated from what was drawn into it.
#[test]
fn a_mipmapped_cube_target_checks_mip_generation_at_creation_and_fills_the_face_levels() {
    let _v = Validation::new();
    let device = device(8, 8);
    let cannot = SurfaceFormat::ALL.into_iter().find(|&f| {
        let s = device.format_support(f);
        s.sampled && s.render_target && !s.mip_generation
    });
    match cannot {
        Some(format) => {
            let err = RenderTargetCube::new(&device, 8, true, format, DepthFormat::None);
            assert!(matches!(err, Err(XnaError::NotSupported { .. })), "{format:?}: {err:?}");
            assert!(RenderTargetCube::new(&device, 8, false, format, DepthFormat::None).is_ok());
        }
        None => skipped("mip generation check", "every render format can generate mips here"),
    }
    let cube =
        RenderTargetCube::new(&device, 8, true, SurfaceFormat::Color, DepthFormat::None).unwrap();
    assert_eq!(cube.level_count(), 4);
    for (i, face) in [CubeMapFace::PositiveY, CubeMapFace::NegativeZ].into_iter().enumerate() {
        device.set_render_target_cube(Some(&cube), face).unwrap();
        device.clear(FACE_COLORS[i + 2]).unwrap();
    }
    device.set_render_target(None).unwrap();
    for (i, face) in [CubeMapFace::PositiveY, CubeMapFace::NegativeZ].into_iter().enumerate() {
        for level in 1..4 {
            let px = read_face(&cube, face, level);
            assert!(px.iter().all(|&p| p == FACE_COLORS[i + 2]), "{face:?} level {level}");
        }
    }
}
