//! GraphicsDevice: creation, clears, viewport, scissor, present and back-buffer readback.

mod common;

use common::*;
use xnagraph::diagnostics::BackendCall;
use xnagraph::{
    ClearOptions, Color, DepthFormat, GraphicsProfile, PresentationParameters, RasterizerState,
    Rectangle, RenderTarget2D, RenderTargetUsage, SpriteBatch, SpriteSortMode, SurfaceFormat,
    Texture2D, Viewport, XnaError,
};

#[test]
fn device_reports_the_adapter_it_chose() {
    if skip_on_sdlgpu(
        "device_reports_the_adapter_it_chose",
        "SDL_gpu does not report the adapter type",
    ) {
        return;
    }
    let _v = Validation::new();
    let device = device(32, 32);
    let name = device.adapter_name();
    assert!(!name.is_empty());
    assert!(name.contains('['), "adapter line names the device type: {name}");
}

#[test]
fn clear_then_present_reads_back_the_clear_colour() {
    let _v = Validation::new();
    let device = device(64, 48);
    device.clear(Color::new(10, 200, 30, 255)).unwrap();
    device.present().unwrap();
    let pixels = read_back_buffer(&device);
    assert_eq!(pixels.len(), 64 * 48);
    assert!(pixels.iter().all(|&p| p == Color::new(10, 200, 30, 255)));
}

#[test]
fn back_buffer_readback_of_a_rectangle_is_off_centre_exact() {
    let _v = Validation::new();
    let device = device(32, 32);
    let white = white(&device);
    device.clear(Color::BLUE).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin().unwrap();
    sb.draw_rect(&white, Rectangle::new(20, 4, 6, 3), Color::RED).unwrap();
    sb.end().unwrap();
    let mut region = vec![Color::TRANSPARENT; 8 * 5];
    device.get_back_buffer_data(Some(Rectangle::new(19, 3, 8, 5)), &mut region, 0, 40).unwrap();
    // Row 0 and column 0 of the region lie outside the sprite.
    assert_eq!(region[0], Color::BLUE);
    assert_eq!(region[8 + 1], Color::RED);
    assert_eq!(region[3 * 8 + 6], Color::RED);
    assert_eq!(region[4 * 8 + 6], Color::BLUE);
    assert_eq!(region[3 * 8 + 7], Color::BLUE);
}

#[test]
fn clear_options_touch_only_the_requested_aspects() {
    let _v = Validation::new();
    let device = device(16, 16);
    let rt = RenderTarget2D::with_options(
        &device,
        16,
        16,
        false,
        SurfaceFormat::Color,
        DepthFormat::Depth24Stencil8,
        0,
        RenderTargetUsage::PreserveContents,
    )
    .unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::RED).unwrap();
    // A depth-only clear must leave the colour alone.
    device
        .clear_with(ClearOptions::DEPTH_BUFFER | ClearOptions::STENCIL, [0.0; 4], 0.5, 3)
        .unwrap();
    device.set_render_target(None).unwrap();
    assert!(read_target(&rt).iter().all(|&p| p == Color::RED));

    // Depth on a target without depth is silently absent, colour still cleared.
    let plain = RenderTarget2D::new(&device, 8, 8).unwrap();
    device.set_render_target(Some(&plain)).unwrap();
    device.clear_with(ClearOptions::all(), [0.0, 1.0, 0.0, 1.0], 1.0, 0).unwrap();
    device.set_render_target(None).unwrap();
    assert!(read_target(&plain).iter().all(|&p| p == Color::new(0, 255, 0, 255)));
}

#[test]
fn viewport_offsets_sprite_drawing() {
    let _v = Validation::new();
    let device = device(32, 32);
    let white = white(&device);
    device.clear(Color::BLACK).unwrap();
    device.set_viewport(Viewport::new(16, 8, 16, 16)).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin().unwrap();
    sb.draw_rect(&white, Rectangle::new(0, 0, 4, 4), Color::WHITE).unwrap();
    sb.end().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 32, 17, 9), Color::WHITE, "sprite lands at the viewport origin");
    assert_eq!(at(&px, 32, 1, 1), Color::BLACK);
    assert_eq!(at(&px, 32, 21, 9), Color::BLACK);
}

#[test]
fn scissor_rectangle_clips_when_the_rasterizer_enables_it() {
    let _v = Validation::new();
    let device = device(32, 32);
    let white = white(&device);
    device.clear(Color::BLACK).unwrap();
    device.set_scissor_rectangle(Rectangle::new(8, 4, 10, 6)).unwrap();
    let raster = RasterizerState { scissor_test_enable: true, ..RasterizerState::CULL_NONE };
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin_with(SpriteSortMode::Deferred, None, None, None, Some(raster), None).unwrap();
    sb.draw_rect(&white, Rectangle::new(0, 0, 32, 32), Color::YELLOW).unwrap();
    sb.end().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 32, 8, 4), Color::YELLOW);
    assert_eq!(at(&px, 32, 17, 9), Color::YELLOW);
    assert_eq!(at(&px, 32, 18, 9), Color::BLACK);
    assert_eq!(at(&px, 32, 8, 10), Color::BLACK);
    assert_eq!(at(&px, 32, 7, 4), Color::BLACK);
}

#[test]
fn scissor_is_clipped_to_the_target() {
    let _v = Validation::new();
    let device = device(32, 32);
    device.set_scissor_rectangle(Rectangle::new(-5, 20, 100, 100)).unwrap();
    assert_eq!(device.scissor_rectangle(), Rectangle::new(0, 20, 32, 12));
}

#[test]
fn present_refuses_while_a_target_is_bound() {
    let _v = Validation::new();
    let device = device(16, 16);
    let rt = RenderTarget2D::new(&device, 8, 8).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    let err = device.present().unwrap_err();
    assert!(matches!(err, XnaError::InvalidOperation { .. }), "{err}");
    device.set_render_target(None).unwrap();
    device.present().unwrap();
}

/// Invariant 1: no public call but a flush reaches the backend; resource creation may create
/// eagerly. The null backend counts every trait call, and each recording call below must leave
/// the counts as they were (creation: only texture creation and its retire sink).
#[test]
fn recording_reaches_the_backend_only_at_a_flush() {
    let (device, probe) = null_device(16, 16);
    let mut seen = probe.calls();
    let mut only = |what: &str, allowed: &[BackendCall]| {
        let now = probe.calls();
        for (call, &n) in &now {
            let before = seen.get(call).copied().unwrap_or(0);
            assert!(
                n == before || allowed.contains(call),
                "{what} called the backend: {call:?} x{}",
                n - before
            );
        }
        seen = now;
    };
    let create = [BackendCall::CreateTexture, BackendCall::RetireSink];

    let white = Texture2D::new(&device, 1, 1).unwrap();
    only("Texture2D::new", &create);
    white.set_data(&[Color::WHITE]).unwrap();
    only("SetData", &[]);
    let mipped = Texture2D::with_format(&device, 8, 8, true, SurfaceFormat::Color).unwrap();
    only("a mipmapped Texture2D", &create);
    mipped.set_data_region(1, Some(Rectangle::new(1, 1, 2, 2)), &[Color::RED; 4], 0, 4).unwrap();
    only("SetData on a level's region", &[]);
    let rt = RenderTarget2D::with_options(
        &device,
        8,
        8,
        true,
        SurfaceFormat::Color,
        DepthFormat::Depth24Stencil8,
        4,
        RenderTargetUsage::PreserveContents,
    )
    .unwrap();
    let second = RenderTarget2D::new(&device, 8, 8).unwrap();
    only("RenderTarget2D", &create);
    rt.set_name("scene");
    white.set_name("white");
    only("setting Name", &[]);
    let mut sb = SpriteBatch::new(&device).unwrap();
    only("SpriteBatch::new", &[]);
    for _ in 0..3 {
        device.set_render_target(Some(&rt)).unwrap();
        only("SetRenderTarget", &[]);
        device.clear(Color::RED).unwrap();
        device
            .clear_with(ClearOptions::DEPTH_BUFFER | ClearOptions::STENCIL, [0.0; 4], 0.5, 3)
            .unwrap();
        only("Clear", &[]);
        device.set_viewport(Viewport::new(1, 1, 6, 6)).unwrap();
        device.set_scissor_rectangle(Rectangle::new(2, 2, 4, 4)).unwrap();
        only("viewport and scissor", &[]);
        sb.begin().unwrap();
        sb.draw_rect(&white, Rectangle::new(0, 0, 4, 4), Color::BLUE).unwrap();
        sb.draw(&mipped, xnagraph::Vector2::new(1.0, 1.0), Color::WHITE).unwrap();
        sb.end().unwrap();
        only("a deferred SpriteBatch", &[]);
        sb.begin_with(SpriteSortMode::Immediate, None, None, None, None, None).unwrap();
        sb.draw_rect(&white, Rectangle::new(4, 4, 2, 2), Color::GREEN).unwrap();
        sb.end().unwrap();
        only("an immediate SpriteBatch", &[]);
        device.set_render_targets(&[(&second).into()]).unwrap();
        only("SetRenderTargets", &[]);
        device.set_render_target(None).unwrap();
        sb.begin().unwrap();
        sb.draw(&rt, xnagraph::Vector2::ZERO, Color::WHITE).unwrap();
        sb.draw(&second, xnagraph::Vector2::new(8.0, 8.0), Color::WHITE).unwrap();
        sb.end().unwrap();
        only("drawing targets into the back buffer", &[]);
        rt.set_name("renamed scene");
        only("renaming a texture a queued command uses", &[]);
    }
    drop(white);
    second.dispose().unwrap();
    only("dropping and disposing resources", &[]);
    assert_eq!(device.submission_count(), 0, "nothing is submitted while recording");

    // Present hands the frame to the render thread; a flush returns once it is submitted.
    device.present().unwrap();
    device.flush().unwrap();
    only("Present (and a flush after it)", &[BackendCall::SubmitBlocker, BackendCall::Submit]);
    assert_eq!(probe.count(BackendCall::Submit), 1, "Present submits once");
    device.flush().unwrap();
    only("an empty flush", &[]);
    let mut pixels = [Color::TRANSPARENT; 64];
    rt.get_data(&mut pixels).unwrap();
    let readback = [
        BackendCall::SubmitBlocker,
        BackendCall::Submit,
        BackendCall::Wait,
        BackendCall::TakeReadback,
    ];
    only("GetData", &readback);
    assert_eq!(probe.count(BackendCall::Submit), 2, "GetData submits once");
    assert_eq!(probe.count(BackendCall::TakeReadback), 1);
    assert_eq!(device.submission_count(), 2);
    assert!(probe.take_mismatches().is_empty());
}

#[test]
fn back_buffer_takes_the_applied_parameters() {
    let _v = Validation::new();
    let params = PresentationParameters {
        back_buffer_width: 24,
        back_buffer_height: 16,
        back_buffer_format: SurfaceFormat::HdrBlendable,
        depth_stencil_format: DepthFormat::Depth24Stencil8,
        multi_sample_count: 3,
        render_target_usage: RenderTargetUsage::DiscardContents,
        ..PresentationParameters::default()
    };
    // Reach cannot render to HdrBlendable: the preferred format falls back to Color.
    let device = device_with(GraphicsProfile::Reach, params);
    let applied = device.presentation_parameters();
    assert_eq!(applied.back_buffer_format, SurfaceFormat::Color);
    assert!(applied.multi_sample_count == 0 || applied.multi_sample_count == 2);
    device.clear(Color::MAGENTA).unwrap();
    device.present().unwrap();
    assert!(read_back_buffer(&device).iter().all(|&p| p == Color::MAGENTA));
}

#[test]
fn back_buffer_depth_format_is_the_allocated_one() {
    let _v = Validation::new();
    for requested in [
        DepthFormat::None,
        DepthFormat::Depth16,
        DepthFormat::Depth24,
        DepthFormat::Depth24Stencil8,
    ] {
        let params = PresentationParameters { depth_stencil_format: requested, ..params(16, 16) };
        let device = device_with(GraphicsProfile::HiDef, params);
        let real = probe_depth_format(&device, || (read_back_buffer(&device), 16));
        let applied = device.presentation_parameters().depth_stencil_format;
        assert_eq!(applied, real, "requested {requested:?}");
    }
}

#[test]
fn multisampled_back_buffer_resolves_for_readback() {
    let _v = Validation::new();
    let params = PresentationParameters { multi_sample_count: 4, ..params(16, 16) };
    let device = device_with(GraphicsProfile::HiDef, params);
    let applied = device.presentation_parameters().multi_sample_count;
    if !multisampled_as_requested("multisampled_back_buffer_resolves_for_readback", applied, 4) {
        return;
    }
    let white = white(&device);
    device.clear(Color::BLACK).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin().unwrap();
    sb.draw_rect(&white, Rectangle::new(4, 4, 8, 8), Color::CYAN).unwrap();
    sb.end().unwrap();
    device.present().unwrap();
    let px = read_back_buffer(&device);
    assert_eq!(at(&px, 16, 6, 6), Color::CYAN);
    assert_eq!(at(&px, 16, 1, 1), Color::BLACK);
}

#[test]
fn invalid_back_buffer_size_is_an_argument_error() {
    let err = xnagraph::GraphicsDevice::new(GraphicsProfile::HiDef, params(0, 10)).unwrap_err();
    assert_eq!(err.param(), Some("BackBufferWidth"));
}

#[test]
fn back_buffer_usage_decides_what_returning_to_it_keeps() {
    let _v = Validation::new();
    for (usage, want) in [
        (RenderTargetUsage::PreserveContents, Color::RED),
        (RenderTargetUsage::PlatformContents, Color::RED),
        (RenderTargetUsage::DiscardContents, Color::BLACK),
    ] {
        let params = PresentationParameters { render_target_usage: usage, ..params(8, 8) };
        let device = device_with(GraphicsProfile::HiDef, params);
        let rt = RenderTarget2D::new(&device, 4, 4).unwrap();
        device.clear(Color::RED).unwrap();
        device.set_render_target(Some(&rt)).unwrap();
        device.clear(Color::BLUE).unwrap();
        device.set_render_target(None).unwrap();
        let px = read_back_buffer(&device);
        assert_eq!(at(&px, 8, 5, 5), want, "{usage:?}");
    }
}

#[test]
fn a_viewport_outside_the_target_is_an_argument_error() {
    let _v = Validation::new();
    let device = device(32, 16);
    for bad in [
        Viewport::new(0, 0, 33, 16),
        Viewport::new(-1, 0, 8, 8),
        Viewport::new(30, 10, 4, 4),
        Viewport::new(0, 0, 0, 4),
        Viewport { min_depth: -0.5, ..Viewport::new(0, 0, 8, 8) },
        Viewport { max_depth: 2.0, ..Viewport::new(0, 0, 8, 8) },
    ] {
        let err = device.set_viewport(bad).unwrap_err();
        assert!(matches!(err, XnaError::Argument { param: "value", .. }), "{bad:?}: {err}");
    }
    assert_eq!(
        device.viewport(),
        Viewport::new(0, 0, 32, 16),
        "a refused viewport changes nothing"
    );
    device.set_viewport(Viewport::new(28, 12, 4, 4)).unwrap();
    let rt = RenderTarget2D::new(&device, 8, 8).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    assert!(
        device.set_viewport(Viewport::new(4, 4, 8, 8)).is_err(),
        "checked against the bound target"
    );
    device.set_render_target(None).unwrap();
}

#[test]
fn empty_clear_options_clear_nothing() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = RenderTarget2D::with_options(
        &device,
        8,
        8,
        false,
        SurfaceFormat::Color,
        DepthFormat::Depth24Stencil8,
        0,
        RenderTargetUsage::PreserveContents,
    )
    .unwrap();
    assert_eq!(ClearOptions::empty().bits(), 0);
    assert_eq!(
        ClearOptions::all(),
        ClearOptions::TARGET | ClearOptions::DEPTH_BUFFER | ClearOptions::STENCIL
    );
    assert_eq!(
        [
            ClearOptions::TARGET.bits(),
            ClearOptions::DEPTH_BUFFER.bits(),
            ClearOptions::STENCIL.bits()
        ],
        [1, 2, 4],
        "XNA's values"
    );
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::RED).unwrap();
    device.clear_with(ClearOptions::empty(), [0.0, 0.0, 1.0, 1.0], 0.0, 7).unwrap();
    let mut only_colour = ClearOptions::all();
    only_colour.remove(ClearOptions::DEPTH_BUFFER | ClearOptions::STENCIL);
    assert_eq!(only_colour, ClearOptions::TARGET);
    device.set_render_target(None).unwrap();
    assert!(read_target(&rt).iter().all(|&p| p == Color::RED));
}

#[test]
fn non_finite_clear_values_are_argument_errors() {
    let _v = Validation::new();
    let device = device(8, 8);
    let rt = RenderTarget2D::with_options(
        &device,
        8,
        8,
        false,
        SurfaceFormat::Color,
        DepthFormat::Depth24Stencil8,
        0,
        RenderTargetUsage::PreserveContents,
    )
    .unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::RED).unwrap();
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let err = device.clear_with(ClearOptions::all(), [0.0, 0.0, 1.0, 1.0], bad, 0).unwrap_err();
        assert!(matches!(err, XnaError::Argument { param: "depth", .. }), "{bad}: {err}");
        let err = device.clear_with(ClearOptions::all(), [0.0, bad, 1.0, 1.0], 1.0, 0).unwrap_err();
        assert!(matches!(err, XnaError::Argument { param: "color", .. }), "{bad}: {err}");
    }
    device.set_render_target(None).unwrap();
    // Nothing of the refused clears was recorded (and nothing reached Vulkan: no validation).
    assert!(read_target(&rt).iter().all(|&p| p == Color::RED));
}

#[test]
fn a_non_finite_viewport_depth_is_an_argument_error() {
    let _v = Validation::new();
    let device = device(16, 16);
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        for viewport in [
            Viewport { min_depth: bad, ..Viewport::new(0, 0, 8, 8) },
            Viewport { max_depth: bad, ..Viewport::new(0, 0, 8, 8) },
        ] {
            let err = device.set_viewport(viewport).unwrap_err();
            assert!(matches!(err, XnaError::Argument { param: "value", .. }), "{viewport:?}");
        }
    }
    assert_eq!(device.viewport(), Viewport::new(0, 0, 16, 16));
}

#[test]
fn back_buffer_usage_decides_what_the_next_frame_starts_from() {
    let _v = Validation::new();
    for (usage, kept) in [
        (RenderTargetUsage::PreserveContents, true),
        (RenderTargetUsage::PlatformContents, true),
        (RenderTargetUsage::DiscardContents, false),
    ] {
        let params = PresentationParameters {
            render_target_usage: usage,
            depth_stencil_format: DepthFormat::Depth24Stencil8,
            ..params(8, 8)
        };
        let device = device_with(GraphicsProfile::HiDef, params);
        let white = white(&device);
        let square = |rect: Rectangle, color: Color| {
            let mut sb = SpriteBatch::new(&device).unwrap();
            sb.begin().unwrap();
            sb.draw_rect(&white, rect, color).unwrap();
            sb.end().unwrap();
        };
        // Frame 1: red, with a blue square off-centre.
        device.clear(Color::RED).unwrap();
        square(Rectangle::new(5, 1, 2, 2), Color::BLUE);
        device.present().unwrap();
        // Frame 2 draws without clearing: a lime square elsewhere.
        square(Rectangle::new(1, 5, 2, 2), Color::LIME);
        device.present().unwrap();
        let px = read_back_buffer(&device);
        assert_eq!(at(&px, 8, 1, 5), Color::LIME, "{usage:?}");
        let (background, earlier) =
            if kept { (Color::RED, Color::BLUE) } else { (Color::BLACK, Color::BLACK) };
        assert_eq!(at(&px, 8, 6, 6), background, "{usage:?}: frame 1's background");
        assert_eq!(at(&px, 8, 5, 1), earlier, "{usage:?}: frame 1's square");
    }
}

#[test]
fn reset_resizes_the_back_buffer_and_keeps_render_targets() {
    let _v = Validation::new();
    let device = device(16, 12);
    let white = white(&device);
    let rt = RenderTarget2D::new(&device, 6, 5).unwrap();
    device.set_render_target(Some(&rt)).unwrap();
    device.clear(Color::new(200, 40, 10, 255)).unwrap();
    let order = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    for (event, name) in
        [(&device.events().device_resetting, "resetting"), (&device.events().device_reset, "reset")]
    {
        let order = order.clone();
        event.subscribe(move |_| order.lock().unwrap().push(name));
    }

    // Still bound to `rt`: reset unbinds it, as the new frame begins on the new back buffer.
    device.reset(params(40, 24)).unwrap();
    assert_eq!(*order.lock().unwrap(), ["resetting", "reset"]);
    let applied = device.presentation_parameters();
    assert_eq!((applied.back_buffer_width, applied.back_buffer_height), (40, 24));
    assert_eq!(device.viewport(), Viewport::new(0, 0, 40, 24));
    assert_eq!(device.scissor_rectangle(), Rectangle::new(0, 0, 40, 24));

    device.clear(Color::BLUE).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin().unwrap();
    // Past the old 16x12 bounds and off-centre.
    sb.draw_rect(&white, Rectangle::new(29, 15, 7, 4), Color::new(0, 255, 0, 255)).unwrap();
    sb.end().unwrap();
    device.present().unwrap();
    let pixels = read_back_buffer(&device);
    assert_eq!(pixels.len(), 40 * 24);
    for (x, y, want) in [
        (29, 15, Color::new(0, 255, 0, 255)),
        (35, 18, Color::new(0, 255, 0, 255)),
        (36, 18, Color::BLUE),
        (28, 15, Color::BLUE),
        (2, 2, Color::BLUE),
    ] {
        assert_eq!(at(&pixels, 40, x, y), want, "({x}, {y})");
    }
    // The render target kept what it held before the reset.
    assert!(read_target(&rt).iter().all(|&p| p == Color::new(200, 40, 10, 255)));
}

#[test]
fn reset_with_bad_parameters_leaves_the_device_as_it_was() {
    let _v = Validation::new();
    let device = device(16, 12);
    let err = device.reset(params(0, 12)).unwrap_err();
    assert!(
        matches!(&err, XnaError::ArgumentOutOfRange { param, .. } if *param == "BackBufferWidth"),
        "{err:?}"
    );
    let err = device.reset(params(16, 1 << 20)).unwrap_err();
    assert!(matches!(err, XnaError::NotSupported { .. }), "{err:?}");
    let applied = device.presentation_parameters();
    assert_eq!((applied.back_buffer_width, applied.back_buffer_height), (16, 12));
    device.clear(Color::RED).unwrap();
    device.present().unwrap();
    assert!(read_back_buffer(&device).iter().all(|&p| p == Color::RED));
}

/// The conformance suite runs on the backend `XNAGRAPH_BACKEND` names: a device made with the
/// test options (which opt in to the environment) really is that backend (SDL_gpu's adapter
/// line names SDL_gpu).
#[test]
fn the_default_backend_is_the_one_xnagraph_backend_names() {
    let _v = Validation::new();
    let device = device(4, 4);
    let sdl = device.adapter_name().starts_with("SDL_gpu");
    match xnagraph::BackendKind::from_env() {
        Some(xnagraph::BackendKind::SdlGpu) => assert!(sdl, "{}", device.adapter_name()),
        _ => assert!(!sdl, "{}", device.adapter_name()),
    }
}
